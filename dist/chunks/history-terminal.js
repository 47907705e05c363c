import { f as formatCount } from './evidence-sources.js';
import { r as replaceControlCharacters } from './errors.js';
import './thresholds.js';
import './format.js';
import { R as RECENT_POINTS } from './moved.js';
import { p as plural } from './partition.js';
import { w as wrap, d as displayWidth, G as GAP, c as clip, t as truncateMiddle, g as padStart, p as padEnd, i as indented } from './text-layout.js';
import { c as shortSha, t as trendRange, s as sparkline, d as trendValue, a as stepContext, b as stepLevels, r as runsAgo } from './trend-text.js';
import 'node:fs/promises';
import 'node:path';
import './reader.js';
import './_commonjsHelpers.js';
import 'node:crypto';
import './roll-up.js';
import './index.js';
import './limits.js';
import 'node:fs';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './keys.js';
import './string-table.js';
import './names.js';
import './groups.js';
import './types.js';
import './escape.js';

const MAX_ROWS = 60;
function renderHistoryTerminal(view, options = {}) {
    const width = options.width ?? 80;
    const lines = [];
    const n = view.points.length;
    const branch = view.branch === undefined ? '' : ` on ${shown(view.branch)}`;
    const gate = view.gate === undefined ? '' : ` of gate ${shown(view.gate)}`;
    if (n === 0)
        return `History${gate}${branch}: no points yet\n`;
    const first = view.points[0];
    const last = view.points[n - 1];
    lines.push(...wrap(`History${gate}${branch}: ${plural(n, 'point')}, ${shortSha(first.commit)} (${first.time}) to ${shortSha(last.commit)} (${last.time})`, width));
    lines.push(...recentMarks(view, width));
    const ordered = view.subjects(options.key);
    const shownRows = view.rows(options.key === undefined ? ordered.slice(0, MAX_ROWS) : ordered);
    if (shownRows.length === 0) {
        lines.push('', options.key === undefined ? 'No figures.' : `No key matches ${shown(options.key)}.`);
        return `${lines.join('\n')}\n`;
    }
    lines.push(...trendTable(shownRows, n, width));
    if (options.key === undefined && ordered.length > MAX_ROWS)
        lines.push('', ...wrap(`…${plural(ordered.length - MAX_ROWS, 'more key group')}: --key PATTERN (a glob over keys) lists the ones it matches`, width));
    lines.push('', ...wrap('A key group (`*` for the device) shows its largest device at each point.', width));
    return `${lines.join('\n')}\n`;
}
function recentMarks(view, width) {
    const n = view.points.length;
    const from = Math.max(0, n - RECENT_POINTS);
    const recent = view.points.slice(from).map((meta, i) => ({ meta, change: i === 0 ? null : view.changes[from + i] }));
    const baselineUpdates = recent.filter((r) => r.change?.baselineUpdated === true).map((r) => shortSha(r.meta.commit));
    const environmentChanges = recent
        .filter((r) => r.change !== null && r.change.environment !== null)
        .map((r) => shortSha(r.meta.commit));
    const marks = [];
    if (baselineUpdates.length > 0)
        marks.push(`baseline updated at ${baselineUpdates.join(', ')}`);
    if (environmentChanges.length > 0)
        marks.push(`environment changed at ${environmentChanges.join(', ')}`);
    if (marks.length === 0)
        return [];
    return wrap(`In the last ${formatCount(recent.length)} points: ${marks.join('; ')}.`, width);
}
function trendTable(shownRows, n, width) {
    const lines = [];
    const cells = shownRows.map((r) => ({
        subject: shown(r.subject),
        spark: sparkline(r.trend.recent, r.trend.min, r.trend.max),
        range: trendRange(r.trend, r.unit),
        latest: latestOf(r),
    }));
    const sparkWidth = Math.max(5, ...cells.map((c) => displayWidth(c.spark)));
    const rangeWidth = Math.max(5, ...cells.map((c) => displayWidth(c.range)));
    const latestWidth = Math.max(6, ...cells.map((c) => displayWidth(c.latest)));
    const keyWidth = Math.max(12, Math.min(Math.max(3, ...cells.map((c) => displayWidth(c.subject))), width - sparkWidth - rangeWidth - latestWidth - GAP.length * 3));
    const pad = (text, w, right = false) => (right ? padStart(text, w) : padEnd(text, w));
    lines.push('', [
        pad('KEY', keyWidth),
        pad(`LAST ${Math.min(RECENT_POINTS, n)}`, sparkWidth),
        pad('RANGE', rangeWidth, true),
        pad('LATEST', latestWidth, true),
    ]
        .join(GAP)
        .trimEnd());
    shownRows.forEach((row, i) => {
        const c = cells[i];
        lines.push(clip([
            pad(truncateMiddle(c.subject, keyWidth), keyWidth),
            pad(c.spark, sparkWidth),
            pad(c.range, rangeWidth, true),
            pad(c.latest, latestWidth, true),
        ]
            .join(GAP)
            .trimEnd(), width));
        lines.push(...stepLines(row, width));
    });
    return lines;
}
function stepLines(row, width) {
    const step = row.trend.step;
    if (step === null)
        return [];
    const context = stepContext(step);
    return indented(`stepped ${stepLevels(step, row.unit)} at ${shortSha(step.commit)} (${runsAgo(step)})${context === null ? '' : `; ${shown(context)}`}`, width, '    ', '      ');
}
function latestOf(row) {
    const last = row.trend.values[row.trend.values.length - 1];
    return last === null || last === undefined ? 'absent' : trendValue(last, row.unit);
}
function shown(text) {
    return replaceControlCharacters(text);
}

export { renderHistoryTerminal };

import { RECENT_POINTS } from './trends.js';
import { f as formatCount } from './evidence-sources.js';
import { r as replaceControlCharacters } from './errors.js';
import { h as historySubjects, m as movedFirst, r as rowsOf } from './history-rows.js';
import { A as plural } from './groups.js';
import { wrap, displayWidth, truncateMiddle, indented } from './terminal.js';
import { a as shortSha, t as trendRange, s as sparkline, b as stepContext, c as stepLevels, r as runsAgo, g as trendValue } from './device-table.js';
import './thresholds.js';
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
import './groups2.js';
import './format.js';
import './names.js';
import './types.js';

const MAX_ROWS = 60;
const GAP = '  ';
function renderHistoryTerminal(history, trends, options = {}) {
    const width = options.width ?? 80;
    const lines = [];
    const n = history.points.length;
    const branch = history.header.branch === undefined ? '' : ` on ${shown(history.header.branch)}`;
    const gate = history.header.gate === undefined ? '' : ` of gate ${shown(history.header.gate)}`;
    if (n === 0)
        return `History${gate}${branch}: no points yet\n`;
    const first = history.points[0];
    const last = history.points[n - 1];
    lines.push(...wrap(`History${gate}${branch}: ${plural(n, 'point')}, ${shortSha(first.commit)} (${first.time}) to ${shortSha(last.commit)} (${last.time})`, width));
    const recent = history.points.slice(-RECENT_POINTS);
    const baselineUpdates = recent
        .filter((p, i) => i > 0 && p.baseline !== recent[i - 1].baseline)
        .map((p) => shortSha(p.commit));
    const environmentChanges = recent
        .filter((p, i) => i > 0 && JSON.stringify(p.environment) !== JSON.stringify(recent[i - 1].environment))
        .map((p) => shortSha(p.commit));
    const marks = [];
    if (baselineUpdates.length > 0)
        marks.push(`baseline updated at ${baselineUpdates.join(', ')}`);
    if (environmentChanges.length > 0)
        marks.push(`environment changed at ${environmentChanges.join(', ')}`);
    if (marks.length > 0)
        lines.push(...wrap(`In the last ${formatCount(recent.length)} points: ${marks.join('; ')}.`, width));
    const subjects = historySubjects(history, options.key);
    const ordered = options.key === undefined ? movedFirst(subjects, trends) : subjects;
    const shownRows = rowsOf(options.key === undefined ? ordered.slice(0, MAX_ROWS) : ordered, trends);
    if (shownRows.length === 0) {
        lines.push('', options.key === undefined ? 'No figures.' : `No key matches ${shown(options.key)}.`);
        return `${lines.join('\n')}\n`;
    }
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
    const pad = (text, w, right = false) => right
        ? ' '.repeat(Math.max(0, w - displayWidth(text))) + text
        : text + ' '.repeat(Math.max(0, w - displayWidth(text)));
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
        const step = row.trend.step;
        if (step !== null) {
            const context = stepContext(step);
            lines.push(...indented(`stepped ${stepLevels(step, row.unit)} at ${shortSha(step.commit)} (${runsAgo(step)})${context === null ? '' : `; ${shown(context)}`}`, width, '    ', '      '));
        }
    });
    if (options.key === undefined && ordered.length > MAX_ROWS)
        lines.push('', ...wrap(`…${plural(ordered.length - MAX_ROWS, 'more key group')}: --key PATTERN (a glob over keys) lists the ones it matches`, width));
    lines.push('', ...wrap('A key group (`*` for the device) shows its largest device at each point.', width));
    return `${lines.join('\n')}\n`;
}
function latestOf(row) {
    const last = row.trend.values[row.trend.values.length - 1];
    return last === null || last === undefined ? 'absent' : trendValue(last, row.unit);
}
function clip(text, width) {
    if (displayWidth(text) <= width)
        return text;
    let out = '';
    for (const ch of text) {
        if (displayWidth(out + ch) + 1 > width)
            break;
        out += ch;
    }
    return `${out}…`;
}
function shown(text) {
    return replaceControlCharacters(text);
}

export { renderHistoryTerminal };

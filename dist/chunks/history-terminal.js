import { globMatches } from './thresholds.js';
import { RECENT_POINTS } from './trends.js';
import { g as section } from './snapshot.js';
import { f as formatCount } from './units.js';
import { r as replaceControlCharacters } from './errors.js';
import { p as plural } from './groups.js';
import { wrap, displayWidth, truncateMiddle, indented } from './terminal.js';
import { a as shortSha, t as trendRange, s as sparkline, b as stepContext, c as stepLevels, r as runsAgo, e as trendValue } from './trend-text.js';
import { f as findDeviceSegment } from './keys.js';
import 'node:fs/promises';
import 'node:path';
import './local.js';
import 'node:fs';
import './_commonjsHelpers.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './evidence-sources.js';
import './reader.js';
import 'node:crypto';
import './environment.js';
import './series.js';
import './format.js';
import './roll-up.js';
import './types.js';
import './escape.js';
import './device-table.js';

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
    const baselineUpdates = recent.filter((p, i) => i > 0 && p.baseline !== recent[i - 1].baseline).map((p) => shortSha(p.commit));
    const environmentChanges = recent.filter((p, i) => i > 0 && JSON.stringify(p.environment) !== JSON.stringify(recent[i - 1].environment)).map((p) => shortSha(p.commit));
    const marks = [];
    if (baselineUpdates.length > 0)
        marks.push(`baseline updated at ${baselineUpdates.join(', ')}`);
    if (environmentChanges.length > 0)
        marks.push(`environment changed at ${environmentChanges.join(', ')}`);
    if (marks.length > 0)
        lines.push(...wrap(`In the last ${formatCount(recent.length)} points: ${marks.join('; ')}.`, width));
    const rows = rowsOf(history, trends, options.key);
    if (rows.length === 0) {
        lines.push('', options.key === undefined ? 'No figures.' : `No key matches ${shown(options.key)}.`);
        return `${lines.join('\n')}\n`;
    }
    const ordered = options.key === undefined ? [...rows].sort(movedFirst) : rows;
    const shownRows = options.key === undefined ? ordered.slice(0, MAX_ROWS) : ordered;
    const cells = shownRows.map((r) => ({ subject: shown(r.subject), spark: sparkline(r.trend.recent, r.trend.min, r.trend.max), range: trendRange(r.trend, r.unit), latest: latestOf(r) }));
    const sparkWidth = Math.max(5, ...cells.map((c) => displayWidth(c.spark)));
    const rangeWidth = Math.max(5, ...cells.map((c) => displayWidth(c.range)));
    const latestWidth = Math.max(6, ...cells.map((c) => displayWidth(c.latest)));
    const keyWidth = Math.max(12, Math.min(Math.max(3, ...cells.map((c) => displayWidth(c.subject))), width - sparkWidth - rangeWidth - latestWidth - GAP.length * 3));
    const pad = (text, w, right = false) => (right ? ' '.repeat(Math.max(0, w - displayWidth(text))) + text : text + ' '.repeat(Math.max(0, w - displayWidth(text))));
    lines.push('', [pad('KEY', keyWidth), pad(`LAST ${Math.min(RECENT_POINTS, n)}`, sparkWidth), pad('RANGE', rangeWidth, true), pad('LATEST', latestWidth, true)].join(GAP).trimEnd());
    shownRows.forEach((row, i) => {
        const c = cells[i];
        lines.push(clip([pad(truncateMiddle(c.subject, keyWidth), keyWidth), pad(c.spark, sparkWidth), pad(c.range, rangeWidth, true), pad(c.latest, latestWidth, true)].join(GAP).trimEnd(), width));
        const step = row.trend.step;
        if (step !== null) {
            const context = stepContext(step);
            lines.push(...indented(`stepped ${stepLevels(step, row.unit)} at ${shortSha(step.commit)} (${runsAgo(step)})${context === null ? '' : `; ${shown(context)}`}`, width, '    ', '      '));
        }
    });
    if (shownRows.length < ordered.length)
        lines.push('', ...wrap(`…${plural(ordered.length - shownRows.length, 'more key group')}: --key PATTERN (a glob over keys) lists the ones it matches`, width));
    lines.push('', ...wrap('A key group (`*` for the device) shows its largest device at each point.', width));
    return `${lines.join('\n')}\n`;
}
function latestOf(row) {
    const last = row.trend.values[row.trend.values.length - 1];
    return last === null || last === undefined ? 'absent' : trendValue(last, row.unit);
}
function movedFirst(a, b) {
    const ra = a.trend.step?.runsAgo ?? Number.POSITIVE_INFINITY;
    const rb = b.trend.step?.runsAgo ?? Number.POSITIVE_INFINITY;
    return ra - rb;
}
function rowsOf(history, trends, glob) {
    const rows = [];
    const at = { start: 0, end: 0 };
    for (const [name, section$1] of history.sections) {
        const declaration = section(name);
        const subjects = [];
        const seen = new Set();
        const add = (subject, pattern) => {
            const id = `${pattern ? 'p' : 'k'}${subject}`;
            if (seen.has(id))
                return;
            seen.add(id);
            subjects.push({ subject, pattern });
        };
        for (const key of section$1.keys) {
            if (!findDeviceSegment(key, at)) {
                if (glob === undefined || globMatches(glob, key))
                    add(key, false);
                continue;
            }
            const pattern = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
            if (glob === undefined || globMatches(glob, pattern))
                add(pattern, true);
            else if (globMatches(glob, key))
                add(key, false);
        }
        for (const pattern of section$1.rollups)
            if (glob === undefined || globMatches(glob, pattern))
                add(pattern, true);
        for (const { subject, pattern } of subjects) {
            const shownSubject = pattern && subject === '*' ? 'dev*' : subject;
            const trend = pattern ? trends.forPattern(declaration.kind, shownSubject) : trends.forKey(declaration.kind, subject);
            if (trend !== undefined)
                rows.push({ subject: shownSubject, unit: declaration.unit, trend });
        }
    }
    return rows;
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

import { U as UsageError, r as replaceControlCharacters } from './errors.js';
import { V as formatDelta, f as formatCount } from './evidence-sources.js';
import { w as wrap, s as superscript, i as indented, d as displayWidth, b as distinctFrom, e as truncateEnd, G as GAP, a as alignedTable, c as clip, p as padEnd, t as truncateMiddle, f as truncateDistinct, g as padStart } from './text-layout.js';
import { f as formatTransition, a as formatChange, b as baselineCommand, e as medianPercent, j as devicesPhrase, c as deviceOfEntry, m as medianGrowth, h as formatShortPercent, n as figureCell } from './view.js';
import { s as shortenName } from './names.js';
import { p as plural, t as titledVerdict, i as contextTerminal, e as acceptChangeText } from './partition.js';
import { s as sparkline, t as trendRange, e as trendSpan, a as stepContext, b as stepLevels } from './trend-text.js';
import { R as RECENT_POINTS } from './moved.js';
import './thresholds.js';
import './format.js';
import { s as splitDevice } from './keys.js';
import './roll-up.js';
import './history-view.js';
import './trends.js';
import './index.js';
import './limits.js';
import 'node:fs';
import 'node:fs/promises';
import 'node:path';
import './_commonjsHelpers.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './reader.js';
import 'node:crypto';
import './string-table.js';
import './groups.js';
import './types.js';
import './escape.js';

const MAX_ROWS = 30;
const MIN_KEY_WIDTH = 12;
const ANSI = {
    red: '\u001b[31m',
    yellow: '\u001b[33m',
    green: '\u001b[32m',
    bold: '\u001b[1m',
    reset: '\u001b[0m',
};
const SEVERITY_MARK = { fail: '✗', warn: '!', ok: '✓' };
const OUTCOME_COLOR = { fail: ANSI.red, first: ANSI.yellow, pass: ANSI.green };
function renderTerminal(view, options = {}) {
    const width = options.width ?? 80;
    if (!(Number.isSafeInteger(width) && width > 0)) {
        throw new UsageError(`width must be a positive integer, got ${String(options.width)}`);
    }
    const color = options.color === true;
    const paint = (code, text) => (color ? `${code}${text}${ANSI.reset}` : text);
    const { recorded } = view;
    const lines = headLines(view, options, width, paint);
    const { problemRows: groups, moved } = options.all === true ? view.perKey : view;
    if (groups.length > 0) {
        const shownGroups = options.all === true ? groups : groups.slice(0, MAX_ROWS);
        const notes = [];
        const rows = shownGroups.map((row) => tableRow(row, notes, view.trends));
        lines.push('', ...verdictTable(rows, width, paint));
        if (shownGroups.length < groups.length)
            lines.push(...wrap(`…${plural(groups.length - shownGroups.length, 'more row')}: --all lists every key, --report FILE.json writes them all`, width));
        if (notes.length > 0) {
            lines.push('');
            notes.forEach((note, i) => lines.push(...wrap(`${superscript(i + 1)} ${note}`, width, '  ')));
        }
    }
    lines.push(...deviceFigures(view.devices, width));
    if (recorded.length > 0) {
        const patterns = view.groups(recorded).length;
        const kinds = new Set(recorded.map((e) => e.kind));
        const noun = kinds.size === 1 ? recorded[0].kind : 'row';
        lines.push('', ...wrap(`${plural(recorded.length, groups.length > 0 ? 'more key' : 'key')} recorded (${plural(patterns, noun)} across devices); --report FILE.json lists them`, width));
    }
    const banded = view.banded;
    if (banded.length > 0) {
        lines.push('', ...wrap(`${plural(banded.length, 'key')} within the noise band (beyond the tolerance, within the spread of the default branch):`, width));
        for (const e of banded.slice(0, MAX_ROWS))
            lines.push(...indented(`${shownKey(e.key)}: ${formatTransition(e)}, ${formatChange(e)}`, width, '  ', '    '));
        if (banded.length > MAX_ROWS)
            lines.push(`  …${plural(banded.length - MAX_ROWS, 'more key')}`);
    }
    if (view.trends !== undefined)
        lines.push(...movedLines(moved, view.trends, width));
    lines.push(...closingLines(view, options, width));
    return `${lines.join('\n')}\n`;
}
function headLines(view, options, width, paint) {
    const verdictColor = OUTCOME_COLOR[view.outcome];
    const lines = wrap(titledVerdict(view.verdict, 'Memory gate'), width).map((l) => paint(`${ANSI.bold}${verdictColor}`, l));
    for (const line of contextTerminal(view.context, shown))
        lines.push(...(displayWidth(line) <= width ? [line] : wrap(line, width, /^ */.exec(line)?.[0] ?? '')));
    if (view.firstRun) {
        const file = options.baselineFile ?? 'FILE';
        lines.push(...wrap(`Nothing was compared. Record a baseline with '${baselineCommand(shown(file))}' and the input flags of this check (or the Action's mode: update), and commit it.`, width));
    }
    return lines;
}
function closingLines(view, options, width) {
    const lines = [];
    const rest = view.notListed;
    if (rest.count > 0) {
        const byStatus = rest.byStatus.map(([status, n]) => `${formatCount(n)} ${shown(status)}`).join(', ');
        lines.push('', ...wrap(`${plural(rest.count, 'key')} within thresholds not listed (${byStatus})`, width));
    }
    if (view.acceptsBaseline) {
        const label = options.baselineUpdateLabel === undefined ? undefined : shown(options.baselineUpdateLabel);
        const file = shown(options.baselineFile ?? 'FILE');
        lines.push('', ...wrap(acceptChangeText(file, label, (t) => `'${t}'`), width));
    }
    return lines;
}
function deviceFigures(devices, width) {
    if (devices === null || devices.figureColumns.length === 0)
        return [];
    const columns = [
        { header: 'DEVICE', align: 'left' },
        ...devices.figureColumns.map((c) => ({ header: c.title.toUpperCase(), align: 'right' })),
    ];
    const rows = devices.rows
        .filter((r) => r.figures.size > 0)
        .map((r) => [
        { text: `${r.flagged ? '! ' : ''}${shown(r.device)}${r.dumpTime ? ' (dump-time)' : ''}` },
        ...devices.figureColumns.map((c) => ({ text: figureCell(r, c, false) })),
    ]);
    const out = ['', ...alignedTable(columns, rows, { flexColumn: 0, width })];
    if (devices.rest !== null)
        out.push(...wrap(devices.rest, width));
    for (const note of devices.figureNotes)
        out.push(...wrap(note, width));
    return out.map((line) => clip(line, width));
}
function rowTrend(row, trends, refer) {
    const t = row.trend;
    if (trends === undefined || t === null)
        return null;
    if (t.step !== null)
        refer(stepSentence(t.step, trends));
    const of = t.trend.of === 'largest'
        ? `, largest device${t.rolled ? '' : ` of ${shownKey(splitDevice(t.subject).group)}`}`
        : '';
    return `${sparkline(t.trend.recent, t.trend.min, t.trend.max)} ${trendRange(t.trend, t.unit)} (${trendSpan(t.trend)}${onBranch(trends)}${of})`;
}
function onBranch(trends) {
    return trends.branch === undefined ? '' : ` on ${shown(trends.branch)}`;
}
function stepSentence(s, trends) {
    const context = stepContext(s.step);
    const largest = s.largest ? ' (largest device)' : '';
    return `${shownKey(s.subject)}${largest}: ${stepLevels(s.step, s.unit)} since ${s.sha} (${s.ago}${onBranch(trends)})${context === null ? '' : `; ${shown(context)}`}`;
}
function movedLines(moved, trends, width) {
    if (moved === null)
        return [];
    const lines = [
        '',
        ...wrap(`Moved on ${trends.branch === undefined ? 'the default branch' : shown(trends.branch)} in the last ${RECENT_POINTS} runs:`, width),
    ];
    for (const m of moved.shown)
        lines.push(...indented(stepSentence(m.step, trends), width, '  ', '    '));
    if (moved.more > 0)
        lines.push(...indented(`…${plural(moved.more, 'more')}: ascend-memory-gate history show lists them`, width, '  ', '    '));
    return lines;
}
function tableRow(row, notes, trends) {
    const { group, worst, rule, note } = row;
    const marks = [];
    const refer = (text) => {
        let i = notes.indexOf(text);
        if (i === -1)
            i = notes.push(text) - 1;
        marks.push(superscript(i + 1));
    };
    if (rule !== null)
        refer(`held to the rule ${shown(rule)} of the config`);
    if (note !== null)
        refer(`${shownKey(worst.key)}${row.rolled ? ' (the worst device)' : ''}: ${shown(note)}`);
    const trend = rowTrend(row, trends, refer);
    const status = `${SEVERITY_MARK[group.severity] ?? '?'} ${shown(group.status)}${marks.length > 0 ? ` ${marks.join(',')}` : ''}`;
    if (!row.rolled) {
        return {
            severity: group.severity,
            status,
            key: shownKey(worst.key),
            transition: formatTransition(worst),
            change: formatChange(worst),
            detail: null,
            trend,
        };
    }
    const percent = medianPercent(group);
    const detail = `${devicesPhrase(group)}, worst ${shown(deviceOfEntry(worst) ?? '?')}; median ${formatDelta(medianGrowth(group))}${percent === null ? '' : ` (${formatShortPercent(percent)})`}`;
    return {
        severity: group.severity,
        status,
        key: shownKey(group.pattern),
        transition: formatTransition(worst),
        change: formatChange(worst),
        detail,
        trend,
    };
}
function verdictTable(rows, width, paint) {
    const headers = ['STATUS', 'KEY', 'BASELINE → CURRENT', 'Δ (Δ%)'];
    const col = (get, header) => rows.reduce((w, r) => Math.max(w, displayWidth(get(r))), displayWidth(header));
    const statusWidth = col((r) => r.status, headers[0]);
    let transitionWidth = col((r) => r.transition, headers[2]);
    const changeWidth = col((r) => r.change, headers[3]);
    const keyNeed = col((r) => r.key, headers[1]);
    let fixed = statusWidth + transitionWidth + changeWidth + GAP.length * 3;
    if (width - fixed < MIN_KEY_WIDTH) {
        transitionWidth = 0;
        fixed = statusWidth + changeWidth + GAP.length * 2;
    }
    const keyWidth = Math.max(1, Math.min(keyNeed, width - fixed));
    const distinct = distinctFrom(rows.map((r) => r.key));
    const line = (status, key, transition, change, paintStatus, index) => {
        const s = padEnd(status, statusWidth);
        const cut = index === undefined ? truncateMiddle(key, keyWidth) : truncateDistinct(key, keyWidth, distinct[index] ?? 0);
        const parts = [paintStatus ? paintStatus(s) : s, padEnd(cut, keyWidth)];
        if (transitionWidth > 0)
            parts.push(padStart(transition, transitionWidth));
        parts.push(padStart(change, changeWidth));
        return clip(parts.join(GAP).trimEnd(), width);
    };
    const out = [line(headers[0], headers[1], headers[2], headers[3])];
    rows.forEach((r, index) => {
        out.push(line(r.status, r.key, r.transition, r.change, (s) => paint(severityColor(r.severity), s), index));
        if (r.detail !== null)
            out.push(truncateEnd(`${' '.repeat(Math.min(statusWidth + GAP.length, 4))}${r.detail}`, width));
        if (r.trend !== null)
            out.push(truncateEnd(`${' '.repeat(Math.min(statusWidth + GAP.length, 4))}${r.trend}`, width));
    });
    return out;
}
function severityColor(severity) {
    return severity === 'fail' ? ANSI.red : severity === 'ok' ? ANSI.green : ANSI.yellow;
}
function shown(text) {
    return replaceControlCharacters(text);
}
function shownKey(key) {
    return shown(shortenName(key));
}

export { renderTerminal };

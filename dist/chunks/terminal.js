import { U as UsageError, r as replaceControlCharacters } from './errors.js';
import { RECENT_POINTS } from './trends.js';
import { f as formatCount, b as SECTIONS, m as metricsOf, c as compareKeys, h as hasNoMetrics, I as formatDelta, d as formatBytes, s as sectionOfKind } from './evidence-sources.js';
import { f as isFirstRun, s as splitSections, v as verdictText, a as contextTerminal, d as devicesPerPattern, g as groupEntries, A as plural, C as formatTransition, D as formatChange, K as countByStatus, z as acceptChangeText, w as worstOf, j as entryReason, i as isRollUp, F as medianPercent, b as devicesPhrase, E as deviceOfEntry, n as medianGrowth, G as formatShortPercent } from './groups.js';
import { s as shortenName } from './names.js';
import { d as deviceTable, f as figureCell, s as sparkline, t as trendRange, e as trendSpan, b as stepContext, c as stepLevels, a as shortSha, r as runsAgo } from './device-table.js';
import { s as splitDevice } from './keys.js';
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
import './groups2.js';
import './format.js';
import './types.js';

const MAX_ROWS = 30;
const MIN_KEY_WIDTH = 12;
const DEFAULT_KEY_WIDTH = 60;
const GAP = '  ';
const ANSI = {
    red: '\u001b[31m',
    yellow: '\u001b[33m',
    green: '\u001b[32m',
    bold: '\u001b[1m',
    reset: '\u001b[0m',
};
const SEVERITY_MARK = { fail: '✗', warn: '!', ok: '✓' };
function renderTerminal(report, options = {}) {
    const width = options.width ?? 80;
    if (!(Number.isSafeInteger(width) && width > 0)) {
        throw new UsageError(`width must be a positive integer, got ${String(options.width)}`);
    }
    const color = options.color === true;
    const paint = (code, text) => (color ? `${code}${text}${ANSI.reset}` : text);
    const firstRun = isFirstRun(report);
    const sections = splitSections(report, { orderUnchanged: false });
    const recorded = firstRun ? sections.problems.filter((e) => e.status === 'new') : [];
    const problems = firstRun ? sections.problems.filter((e) => e.status !== 'new') : sections.problems;
    const verdictColor = report.result === 'fail' ? ANSI.red : firstRun ? ANSI.yellow : ANSI.green;
    const lines = wrap(verdictText(report, 'Memory gate'), width).map((l) => paint(`${ANSI.bold}${verdictColor}`, l));
    for (const line of contextTerminal(report, shown))
        lines.push(...(displayWidth(line) <= width ? [line] : wrap(line, width, /^ */.exec(line)?.[0] ?? '')));
    if (firstRun) {
        const file = options.baselineFile ?? 'FILE';
        lines.push(...wrap(`Nothing was compared. Record a baseline with 'ascend-memory-gate baseline --out ${shown(file)}' and the input flags of this check (or the Action's mode: update), and commit it.`, width));
    }
    const perPattern = devicesPerPattern(report.entries);
    const groups = options.all === true
        ? problems.map((e) => groupEntries([e], perPattern)[0])
        : groupEntries(problems, perPattern);
    if (groups.length > 0) {
        const shownGroups = options.all === true ? groups : groups.slice(0, MAX_ROWS);
        const notes = [];
        const rows = shownGroups.map((group) => tableRow(group, notes, options.trends));
        lines.push('', ...verdictTable(rows, width, paint));
        if (shownGroups.length < groups.length)
            lines.push(...wrap(`…${plural(groups.length - shownGroups.length, 'more row')}: --all lists every key, --report FILE.json writes them all`, width));
        if (notes.length > 0) {
            lines.push('');
            notes.forEach((note, i) => lines.push(...wrap(`${superscript(i + 1)} ${note}`, width, '  ')));
        }
    }
    lines.push(...deviceFigures(report, width));
    if (recorded.length > 0) {
        const patterns = groupEntries(recorded, perPattern).length;
        const kinds = new Set(recorded.map((e) => e.kind));
        const noun = kinds.size === 1 ? recorded[0].kind : 'row';
        lines.push('', ...wrap(`${plural(recorded.length, groups.length > 0 ? 'more key' : 'key')} recorded (${plural(patterns, noun)} across devices); --report FILE.json lists them`, width));
    }
    const banded = sections.unchanged.filter((e) => e.noise?.applied === 'band' && e.status === 'pass');
    if (banded.length > 0) {
        lines.push('', ...wrap(`${plural(banded.length, 'key')} within the noise band (beyond the tolerance, within the spread of the default branch):`, width));
        for (const e of banded.slice(0, MAX_ROWS))
            lines.push(...indented(`${shownKey(e.key)}: ${formatTransition(e)}, ${formatChange(e)}`, width, '  ', '    '));
        if (banded.length > MAX_ROWS)
            lines.push(`  …${plural(banded.length - MAX_ROWS, 'more key')}`);
    }
    if (options.trends !== undefined)
        lines.push(...movedLines(options.trends, groups, width));
    const rest = [...sections.improvements, ...sections.unchanged];
    if (rest.length > 0) {
        const byStatus = countByStatus(rest)
            .map(([status, n]) => `${formatCount(n)} ${shown(status)}`)
            .join(', ');
        lines.push('', ...wrap(`${plural(rest.length, 'key')} within thresholds not listed (${byStatus})`, width));
    }
    const accept = acceptChangeText(report, shown(options.baselineFile ?? 'FILE'), options.baselineUpdateLabel === undefined ? undefined : shown(options.baselineUpdateLabel), (t) => `'${t}'`);
    if (accept !== null)
        lines.push('', ...wrap(accept, width));
    return `${lines.join('\n')}\n`;
}
function deviceFigures(report, width) {
    const limits = deviceTable(report.entries);
    if (limits === null || limits.figureColumns.length === 0)
        return [];
    const columns = [
        { header: 'DEVICE', align: 'left' },
        ...limits.figureColumns.map((c) => ({ header: c.title.toUpperCase(), align: 'right' })),
    ];
    const rows = limits.rows
        .filter((r) => r.figures.size > 0)
        .map((r) => [
        { text: `${r.flagged ? '! ' : ''}${shown(r.device)}${r.dumpTime ? ' (dump-time)' : ''}` },
        ...limits.figureColumns.map((c) => ({ text: figureCell(r, c, false) })),
    ]);
    const out = ['', ...alignedTable(columns, rows, { flexColumn: 0, width })];
    if (limits.rest !== null)
        out.push(...wrap(limits.rest, width));
    for (const note of limits.figureNotes)
        out.push(...wrap(note, width));
    return out.map((line) => clip(line, width));
}
const MOVED_SHOWN = 10;
function rowTrend(group, trends, refer) {
    if (trends === undefined)
        return null;
    const trend = isRollUp(group)
        ? trends.forPattern(group.kind, group.pattern)
        : trends.forKey(group.kind, worstOf(group).key);
    if (trend === undefined)
        return null;
    const unit = unitOfKind(group.kind);
    const subject = isRollUp(group) ? group.pattern : worstOf(group).key;
    if (trend.step !== null)
        refer(stepSentence(subject, trend, unit, trends));
    const of = trend.of === 'largest' ? `, largest device${isRollUp(group) ? '' : ` of ${shownKey(patternOfKey(subject))}`}` : '';
    return `${sparkline(trend.recent, trend.min, trend.max)} ${trendRange(trend, unit)} (${trendSpan(trend)}${onBranch(trends)}${of})`;
}
function onBranch(trends) {
    return trends.branch === undefined ? '' : ` on ${shown(trends.branch)}`;
}
function patternOfKey(key) {
    return splitDevice(key).group;
}
function unitOfKind(kind) {
    return sectionOfKind(kind)?.unit ?? 'bytes';
}
function stepSentence(subject, trend, unit, trends) {
    const step = trend.step;
    const context = stepContext(step);
    const largest = trend.of === 'largest' ? ' (largest device)' : '';
    return `${shownKey(subject)}${largest}: ${stepLevels(step, unit)} since ${shortSha(step.commit)} (${runsAgo(step)}${onBranch(trends)})${context === null ? '' : `; ${shown(context)}`}`;
}
function movedLines(trends, groups, width) {
    const listed = new Set(groups.map((g) => `${g.kind}\u0000${isRollUp(g) ? g.pattern : worstOf(g).key}`));
    const moved = trends.moved().filter((m) => !listed.has(`${m.kind}\u0000${m.subject}`));
    if (moved.length === 0)
        return [];
    const lines = [
        '',
        ...wrap(`Moved on ${trends.branch === undefined ? 'the default branch' : shown(trends.branch)} in the last ${RECENT_POINTS} runs:`, width),
    ];
    for (const m of moved.slice(0, MOVED_SHOWN))
        lines.push(...indented(stepSentence(m.subject, m.trend, unitOfKind(m.kind), trends), width, '  ', '    '));
    if (moved.length > MOVED_SHOWN)
        lines.push(...indented(`…${plural(moved.length - MOVED_SHOWN, 'more')}: ascend-memory-gate history show lists them`, width, '  ', '    '));
    return lines;
}
function tableRow(group, notes, trends) {
    const worst = worstOf(group);
    const marks = [];
    const { rule, note } = entryReason(worst);
    const refer = (text) => {
        let i = notes.indexOf(text);
        if (i === -1)
            i = notes.push(text) - 1;
        marks.push(superscript(i + 1));
    };
    if (rule !== null)
        refer(`held to the rule ${shown(rule)} of the config`);
    if (note !== null)
        refer(`${shownKey(worst.key)}${isRollUp(group) ? ' (the worst device)' : ''}: ${shown(note)}`);
    const trend = rowTrend(group, trends, refer);
    const status = `${SEVERITY_MARK[group.severity] ?? '?'} ${shown(group.status)}${marks.length > 0 ? ` ${marks.join(',')}` : ''}`;
    if (!isRollUp(group)) {
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
function distinctFrom(keys) {
    const chars = keys.map((k) => [...k]);
    return chars.map((a, i) => {
        let longest = 0;
        chars.forEach((b, j) => {
            if (i === j || keys[i] === keys[j])
                return;
            let n = 0;
            while (n < a.length && n < b.length && a[n] === b[n])
                n++;
            if (n > longest)
                longest = n;
        });
        return longest;
    });
}
const WORD_BREAK = new Set(['/', ':', ' ', '.']);
function truncateDistinct(text, width, from) {
    if (displayWidth(text) <= width)
        return text;
    const chars = [...text];
    if (from <= 0 || from >= chars.length || width < 3)
        return truncateMiddle(text, width);
    let start = from;
    let word = from;
    while (word > 0 && !WORD_BREAK.has(chars[word - 1]))
        word--;
    const fits = (at) => displayWidth(chars.slice(at).join('')) + 2 <= width;
    if (fits(word) || !fits(from))
        start = word;
    const tail = chars.slice(start).join('');
    if (displayWidth(tail) + 1 <= width) {
        let head = '';
        for (const ch of chars.slice(0, start)) {
            if (displayWidth(head + ch) + 1 + displayWidth(tail) > width)
                break;
            head += ch;
        }
        return `${head}…${tail}`;
    }
    let head = '';
    for (const ch of chars.slice(0, Math.min(start, Math.max(1, Math.floor(width / 4))))) {
        if (displayWidth(head + ch) + 2 > width)
            break;
        head += ch;
    }
    return `${head}${truncateEnd(`…${tail}`, width - displayWidth(head))}`;
}
function padEnd(text, w) {
    return text + ' '.repeat(Math.max(0, w - displayWidth(text)));
}
function padStart(text, w) {
    return ' '.repeat(Math.max(0, w - displayWidth(text))) + text;
}
function clip(text, width) {
    return displayWidth(stripAnsi(text)) <= width ? text : truncateEnd(text, width);
}
function stripAnsi(text) {
    return text.replace(/\u001b\[[0-9;]*m/g, '');
}
function truncateMiddle(text, width) {
    if (displayWidth(text) <= width)
        return text;
    if (width <= 1)
        return '…'.slice(0, width);
    const suffix = SHORTENED_SUFFIX.exec(text)?.[1];
    if (suffix !== undefined && width >= 2 * suffix.length)
        return `${truncateMiddle(text.slice(0, -suffix.length), width - suffix.length)}${suffix}`;
    const chars = [...text];
    const keep = width - 1;
    const headWidth = Math.ceil(keep / 2);
    let head = '';
    for (const ch of chars) {
        if (displayWidth(head + ch) > headWidth)
            break;
        head += ch;
    }
    let tail = '';
    for (let i = chars.length - 1; i >= 0; i--) {
        const next = chars[i] + tail;
        if (displayWidth(head) + displayWidth(next) + 1 > width)
            break;
        tail = next;
    }
    return `${head}…${tail}`;
}
function truncateEnd(text, width) {
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
function indented(text, width, first, rest) {
    return wrap(text, Math.max(1, width - first.length), ' '.repeat(Math.max(0, rest.length - first.length))).map((line) => `${first}${line}`);
}
function wrap(text, width, indent = '') {
    const lines = [];
    let current = '';
    for (const word of text.split(' ')) {
        const prefix = lines.length === 0 ? '' : indent;
        const candidate = current === '' ? `${prefix}${word}` : `${current} ${word}`;
        if (displayWidth(candidate) <= width) {
            current = candidate;
            continue;
        }
        if (current !== '')
            lines.push(current);
        current = truncateMiddle(`${indent}${word}`, width);
    }
    if (current !== '')
        lines.push(current);
    return lines;
}
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
function superscript(n) {
    return [...String(n)].map((d) => SUPERSCRIPT_DIGITS[Number(d)] ?? d).join('');
}
function renderSnapshotTable(snapshot, width) {
    const lines = [];
    for (const declaration of SECTIONS) {
        const metrics = Object.entries(metricsOf(snapshot, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]));
        if (metrics.length === 0) {
            if (declaration.name === 'modules' || declaration.name === 'kernels')
                lines.push(`${declaration.title}: none`, '');
            continue;
        }
        lines.push(`${declaration.title} (${formatCount(metrics.length)})`);
        if (declaration.tableNote !== undefined)
            lines.push(...(width === undefined ? [declaration.tableNote] : wrap(declaration.tableNote, width)));
        const others = Object.keys(declaration.fields).filter((f) => f !== declaration.value);
        const columns = [
            { header: 'KEY', align: 'left' },
            { header: declaration.value.toUpperCase(), align: 'right' },
            { header: 'EXACT', align: 'right' },
            ...others.map((f) => ({ header: f.toUpperCase(), align: isText(declaration, f) ? 'left' : 'right' })),
        ];
        const rows = metrics.map(([key, metric]) => [
            { text: shown(key) },
            { text: fieldText(declaration, declaration.value, metric[declaration.value]) },
            { text: String(metric[declaration.value]) },
            ...others.map((f) => ({ text: fieldText(declaration, f, metric[f]) })),
        ]);
        let kept = columns.length;
        if (width !== undefined) {
            const cellWidth = (i) => rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(columns[i]?.header ?? ''));
            const need = (n) => Array.from({ length: n - 1 }, (_, i) => cellWidth(i + 1) + GAP.length).reduce((a, b) => a + b, 0);
            while (kept > 2 && need(kept) + MIN_KEY_WIDTH > width)
                kept--;
        }
        const table = alignedTable(columns.slice(0, kept), rows.map((r) => r.slice(0, kept)), { flexColumn: 0, width });
        lines.push(...(width === undefined ? table : table.map((line) => clip(line, width))));
        if (kept < columns.length) {
            const left = columns
                .slice(kept)
                .map((c) => c.header)
                .join(', ');
            lines.push(...wrap(`Left out to fit ${width} columns: ${left} (parse --json has every field).`, width ?? 80));
        }
        lines.push('');
    }
    if (lines.length > 0 && lines[lines.length - 1] === '')
        lines.pop();
    const { files, records, skipped, allocFailures } = snapshot.meta;
    const devices = Object.entries(allocFailures);
    const failing = devices.filter(([, n]) => n > 0);
    const failures = failing.length > 0
        ? `${failing
            .slice(0, 8)
            .map(([d, n]) => `${shown(d)} ${formatCount(n)}`)
            .join(', ')}${failing.length > 8 ? ` and ${formatCount(failing.length - 8)} more device(s)` : ''}`
        : devices.length > 0
            ? `none on ${plural(devices.length, 'device')}`
            : hasNoMetrics(snapshot)
                ? 'none (no device seen)'
                : 'none';
    const meta = `${plural(files, 'file')}, ${plural(records, 'record')}, ${formatCount(skipped)} skipped; alloc failures: ${failures}`;
    lines.push('', ...(width === undefined ? [meta] : wrap(meta, width)));
    return `${lines.join('\n')}\n`;
}
function alignedTable(columns, rows, layout) {
    const widths = columns.map((column, i) => rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(column.header)));
    const others = widths.reduce((sum, w, i) => (i === layout.flexColumn ? sum : sum + w), 0) + GAP.length * (columns.length - 1);
    const cap = layout.width === undefined ? DEFAULT_KEY_WIDTH : Math.max(MIN_KEY_WIDTH, layout.width - others);
    const flexWidth = rows.reduce((w, row) => {
        const keyWidth = displayWidth(row[layout.flexColumn]?.text ?? '');
        return keyWidth <= cap ? Math.max(w, keyWidth) : w;
    }, displayWidth(columns[layout.flexColumn]?.header ?? ''));
    widths[layout.flexColumn] = flexWidth;
    const pad = (text, i) => {
        const fill = ' '.repeat(Math.max(0, (widths[i] ?? 0) - displayWidth(text)));
        return columns[i]?.align === 'right' ? fill + text : text + fill;
    };
    const line = (cells, from, to) => cells
        .slice(from, to)
        .map((cell, j) => {
        const padded = pad(cell.text, from + j);
        return cell.paint ? cell.paint(padded) : padded;
    })
        .join(GAP);
    const out = [
        columns
            .map((c, i) => pad(c.header, i))
            .join(GAP)
            .trimEnd(),
    ];
    for (const cells of rows) {
        const flexCell = cells[layout.flexColumn];
        if (flexCell === undefined || displayWidth(flexCell.text) <= flexWidth) {
            out.push(line(cells, 0, cells.length).trimEnd());
            continue;
        }
        const before = line(cells, 0, layout.flexColumn);
        out.push(`${before}${before ? GAP : ''}${flexCell.text}`);
        const indent = widths.slice(0, layout.flexColumn + 1).reduce((sum, w) => sum + w + GAP.length, 0);
        out.push(`${' '.repeat(indent)}${line(cells, layout.flexColumn + 1, cells.length)}`.trimEnd());
    }
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
const SHORTENED_SUFFIX = /…[^]*(~[0-9a-f]{12}[:;,.)]?)$/;
function displayWidth(text) {
    let width = 0;
    for (const ch of text) {
        const cp = ch.codePointAt(0) ?? 0;
        if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0xfe00 && cp <= 0xfe0f))
            continue;
        width += isWide(cp) ? 2 : 1;
    }
    return width;
}
const WIDE_RANGES = [
    [0x1100, 0x115f],
    [0x2e80, 0x303e],
    [0x3041, 0x33ff],
    [0x3400, 0x4dbf],
    [0x4e00, 0x9fff],
    [0xa000, 0xa4cf],
    [0xac00, 0xd7a3],
    [0xf900, 0xfaff],
    [0xfe30, 0xfe4f],
    [0xff00, 0xff60],
    [0xffe0, 0xffe6],
    [0x1f300, 0x1f64f],
    [0x1f900, 0x1f9ff],
    [0x20000, 0x3fffd],
];
function isWide(cp) {
    return WIDE_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
}
function isText(declaration, field) {
    const type = declaration.fields[field]?.type;
    return type === 'string' || type === 'stringOrNull';
}
function fieldText(declaration, field, value) {
    if (value === null || value === undefined)
        return '-';
    if (typeof value === 'string')
        return shown(value);
    switch (declaration.fields[field]?.type) {
        case 'bytes':
        case 'bytesOrNull':
            return formatBytes(value);
        case 'signedBytes':
            return formatDelta(value);
        default:
            return String(value);
    }
}

export { displayWidth, distinctFrom, indented, renderSnapshotTable, renderTerminal, truncateDistinct, truncateMiddle, wrap };

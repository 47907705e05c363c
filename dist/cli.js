#!/usr/bin/env node
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { U as UsageError, r as replaceControlCharacters, S as SOURCES, f as failureText, n as noSpecs, v as visible } from './chunks/sources.js';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { D as DEFAULT_MAX_EDITS, c as compareDumpFiles } from './chunks/compare-dumps.js';
import { c as collectSnapshot } from './chunks/collect.js';
import { S as SECTIONS, m as metricsOf, c as compareKeys, s as stableStringify } from './chunks/snapshot.js';
import { f as formatDelta, a as formatBytes } from './chunks/units.js';
import { i as isFirstRun, s as splitSections, v as verdictText, c as contextTerminal, d as devicesPerPattern, g as groupEntries, p as plural, a as countByStatus, f as formatCount, w as worstOf, e as entryReason, b as isRollUp, h as formatChange, j as formatTransition, m as medianPercent, k as devicesPhrase, l as deviceOfEntry, n as medianGrowth, o as formatShortPercent } from './chunks/groups.js';
import { r as resolveAllInputs, d as describeSearches } from './chunks/local.js';
import 'node:crypto';
import './chunks/text-stream.js';
import 'node:buffer';
import 'node:string_decoder';
import 'node:os';
import 'node:worker_threads';
import './chunks/parse-protocol.js';
import './chunks/series.js';
import './chunks/environment2.js';
import './chunks/keys.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './chunks/_commonjsHelpers.js';

var version = "0.1.0";
var packageJson = {
	version: version};

// Command-line flags: declared once with their help text; parsed with multi-value flags (`--plog a b`), `--help`, and a suggestion for a mistyped flag.
/** Asked for `<command> --help`: the caller prints the help and exits 0. */
class HelpRequested extends Error {
    command;
    constructor(command) {
        super(`${command.name} --help`);
        this.command = command;
    }
}
/** A usage error with the command's usage line, printed under the message. */
class CommandUsageError extends UsageError {
    command;
    constructor(message, command) {
        super(message);
        this.command = command;
    }
}
function parseCommandArgs(args, spec) {
    const command = spec.name;
    const fail = (message) => {
        throw new CommandUsageError(`${command}: ${message}`, spec);
    };
    if (args.includes('--help') || args.includes('-h'))
        throw new HelpRequested(spec);
    const { tokens } = parseArgs({
        args,
        options: Object.fromEntries(Object.entries(spec.options).map(([k, v]) => [k, { type: v.type, multiple: v.multiple ?? false }])),
        allowPositionals: true,
        strict: false,
        tokens: true,
    });
    const out = {};
    let last;
    for (const token of tokens) {
        if (token.kind === 'option') {
            const opt = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
            if (opt === undefined) {
                const guess = closest(token.name, Object.keys(spec.options));
                fail(`unknown option ${token.rawName}${guess === null ? '' : `: did you mean --${guess}?`}`);
                return out;
            }
            if (token.rawName !== `--${token.name}`)
                fail(`unknown option ${token.rawName}: write --${token.name}`);
            if (opt.type === 'boolean') {
                if (token.value !== undefined)
                    fail(`--${token.name} takes no value`);
                out[token.name] = true;
                last = undefined;
            }
            else if (opt.multiple) {
                const list = out[token.name] ?? [];
                if (token.value !== undefined)
                    list.push(token.value);
                out[token.name] = list;
                last = token.name;
            }
            else {
                if (token.value === undefined)
                    fail(`--${token.name} needs a value (${opt.value ?? 'VALUE'})`);
                if (out[token.name] !== undefined)
                    fail(`--${token.name} given twice`);
                out[token.name] = token.value;
                last = undefined;
            }
        }
        else if (token.kind === 'positional') {
            if (last === undefined)
                fail(`unexpected argument '${token.value}'`);
            else
                out[last].push(token.value);
        }
        else {
            last = undefined;
        }
    }
    for (const [name, opt] of Object.entries(spec.options)) {
        if (opt.multiple && Array.isArray(out[name]) && out[name].length === 0)
            fail(`--${name} needs at least one ${opt.value ?? 'value'}`);
    }
    return out;
}
/** Help is written for 80 columns, or a narrower terminal: no line is wider. */
const HELP_WIDTH = 80;
/** `--help` of a command: usage, summary, one flag per entry (a long description wraps under itself). */
function commandHelp(program, spec, width = HELP_WIDTH) {
    const flags = Object.entries(spec.options).map(([name, opt]) => {
        const value = opt.type === 'string' ? ` ${opt.value ?? 'VALUE'}${opt.multiple ? '...' : ''}` : '';
        return [`--${name}${value}`, opt.description];
    });
    flags.push(['-h, --help', 'show this help']);
    const lines = [...wrapHelp(`Usage: ${program} ${spec.name} ${spec.usage}`, '    ', width), '', ...wrapHelp(spec.summary, '', width), '', 'Options:', ...helpLines(flags, width)];
    return `${lines.join('\n')}\n`;
}
/** Two columns, flag and description, within HELP_WIDTH; a long description continues under its column. */
function helpLines(rows, width = HELP_WIDTH) {
    const column = Math.max(...rows.map(([f]) => f.length)) + 4;
    // Too narrow for two columns: each description on its own lines under its flag.
    if (width - column < 24)
        return rows.flatMap(([flag, description]) => [`  ${flag}`, ...wrapHelp(`      ${description}`, '      ', width)]);
    return rows.flatMap(([flag, description]) => wrapHelp(`  ${flag.padEnd(column - 2)}${description}`, ' '.repeat(column), width));
}
/** A line wrapped at spaces to the width, continuation lines indented; a word longer than a line stays whole. */
function wrapHelp(line, indent = '    ', width = HELP_WIDTH) {
    const out = [];
    let current = '';
    for (const word of line.split(/(?<=\S) (?=\S)/)) {
        const next = current === '' ? word : `${current} ${word}`;
        if (next.length <= width || current === '')
            current = next;
        else {
            out.push(current);
            current = `${indent}${word}`;
        }
    }
    out.push(current);
    return out;
}
/** The closest name by edit distance (at most 2 edits, or a prefix), for "did you mean --plog?". */
function closest(name, candidates) {
    let best = null;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const candidate of candidates) {
        const d = candidate.startsWith(name) && name.length >= 2 ? 1 : editDistance(name, candidate);
        if (d < bestDistance) {
            best = candidate;
            bestDistance = d;
        }
    }
    return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}
/** Damerau–Levenshtein distance (optimal string alignment): a swapped pair (`plgo`) is one edit. */
function editDistance(a, b) {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
            const row = d[i];
            const prev = d[i - 1];
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
                row[j] = Math.min(row[j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.length][b.length];
}
function stringList(opts, name) {
    const v = opts[name];
    return Array.isArray(v) ? v : [];
}
function optionalString(opts, name) {
    const v = opts[name];
    return typeof v === 'string' ? v : undefined;
}

// `ascend-memory-gate compare-dumps BASE CURRENT`: msMemScope's --compare without the tool (its memory_compare CSV, byte for byte).
const COMPARE_DUMPS_USAGE = 'ascend-memory-gate compare-dumps BASE.csv CURRENT.csv [--level op|kernel|op,kernel] [--out FILE] [--max-edits N]';
const LEVELS = { op: 'op', '0': 'op', kernel: 'kernel', '1': 'kernel', 'op,kernel': 'op,kernel', 'kernel,op': 'op,kernel' };
async function compareDumpsCommand(args, io) {
    let parsed;
    try {
        parsed = parseArgs({
            args,
            options: { level: { type: 'string' }, out: { type: 'string' }, 'max-edits': { type: 'string' } },
            allowPositionals: true,
            strict: true,
        });
    }
    catch (error) {
        throw new UsageError(`compare-dumps: ${error.message}\nusage: ${COMPARE_DUMPS_USAGE}`);
    }
    const { values, positionals } = parsed;
    if (positionals.length !== 2)
        throw new UsageError(`compare-dumps: give exactly two dumps, BASE and CURRENT (got ${positionals.length})\nusage: ${COMPARE_DUMPS_USAGE}`);
    const level = LEVELS[values.level ?? 'op'];
    if (level === undefined)
        throw new UsageError(`compare-dumps: --level must be op, kernel or op,kernel (got '${values.level}')`);
    const maxEdits = values['max-edits'] === undefined ? DEFAULT_MAX_EDITS : Number(values['max-edits']);
    if (!Number.isSafeInteger(maxEdits) || maxEdits < 0)
        throw new UsageError(`compare-dumps: --max-edits must be a non-negative integer (got '${values['max-edits']}')`);
    const [base, current] = positionals;
    // The CSV goes out in pieces as it is rendered; a failed compare writes nothing (the file is opened at the first piece).
    let file = null;
    const sink = (text) => {
        if (values.out === undefined)
            return io.out(text);
        file ??= createWriteStream(values.out);
        file.write(text);
    };
    const result = await compareDumpFiles({ path: base, name: base }, { path: current, name: current }, {
        level,
        maxEdits,
        sink,
        onWarning: (w) => io.err(`warning: ${w.file}:${w.line}: ${w.reason}\n`),
    });
    if (file !== null) {
        const stream = file;
        stream.end();
        await once(stream, 'finish');
        io.err(`wrote ${values.out}: ${result.rows} rows on ${result.devices.length} device(s)\n`);
    }
    return 0;
}

// Plain-text tables for a terminal: the gate verdict (check) and a snapshot's metrics (parse), aligned, no color unless asked.
/** Rows of the verdict table before "N more rows" (unless `all`): a screenful. */
const MAX_ROWS = 30;
const MIN_KEY_WIDTH = 12;
/** The `parse` table's key column without a known width: one long key cannot widen every row. */
const DEFAULT_KEY_WIDTH = 60;
const GAP = '  ';
const ANSI = { red: '\u001b[31m', yellow: '\u001b[33m', green: '\u001b[32m', bold: '\u001b[1m', reset: '\u001b[0m' };
const SEVERITY_MARK = { fail: '✗', warn: '!', ok: '✓' };
/**
 * The verdict line, the failing and warning rows (one per module across devices, worst first), their explanations as
 * a numbered list, then a count of the keys not listed. No line is wider than `width`: keys are cut in the middle.
 */
function renderTerminal(report, options = {}) {
    const width = options.width ?? 80;
    if (!(Number.isSafeInteger(width) && width > 0)) {
        throw new UsageError(`width must be a positive integer, got ${String(options.width)}`);
    }
    const color = options.color === true;
    const paint = (code, text) => (color ? `${code}${text}${ANSI.reset}` : text);
    const firstRun = isFirstRun(report);
    const sections = splitSections(report);
    const recorded = firstRun ? sections.problems.filter((e) => e.status === 'new') : [];
    const problems = firstRun ? sections.problems.filter((e) => e.status !== 'new') : sections.problems;
    const verdictColor = report.result === 'fail' ? ANSI.red : firstRun ? ANSI.yellow : ANSI.green;
    const lines = wrap(verdictText(report, 'Memory gate'), width).map((l) => paint(`${ANSI.bold}${verdictColor}`, l));
    // What the run's context says (environment changes, missing artifacts) comes before any row.
    // Lines that fit keep their indentation and blank lines stay; only longer ones wrap, under their own indent.
    for (const line of contextTerminal(report, shown))
        lines.push(...(displayWidth(line) <= width ? [line] : wrap(line, width, /^ */.exec(line)?.[0] ?? '')));
    if (firstRun) {
        const file = options.baselineFile ?? 'FILE';
        lines.push(...wrap(`Nothing was compared. Record a baseline with 'ascend-memory-gate baseline --out ${shown(file)} --plog …' (or the Action's mode: update) and commit it.`, width));
    }
    const perPattern = devicesPerPattern(report.entries);
    const groups = options.all === true ? problems.map((e) => groupEntries([e], perPattern)[0]) : groupEntries(problems, perPattern);
    if (groups.length > 0) {
        const shownGroups = options.all === true ? groups : groups.slice(0, MAX_ROWS);
        const notes = [];
        const rows = shownGroups.map((group) => tableRow(group, notes));
        lines.push('', ...verdictTable(rows, width, paint));
        if (shownGroups.length < groups.length)
            lines.push(...wrap(`…${plural(groups.length - shownGroups.length, 'more row')}: --all lists every key, --report FILE.json writes them all`, width));
        if (notes.length > 0) {
            lines.push('');
            notes.forEach((note, i) => lines.push(...wrap(`${superscript(i + 1)} ${note}`, width, '  ')));
        }
    }
    if (recorded.length > 0) {
        const patterns = groupEntries(recorded, perPattern).length;
        lines.push('', ...wrap(`${plural(recorded.length, 'key')} recorded (${plural(patterns, 'module')} across devices); --report FILE.json lists them`, width));
    }
    const rest = [...sections.improvements, ...sections.unchanged];
    if (rest.length > 0) {
        const byStatus = countByStatus(rest)
            .map(([status, n]) => `${formatCount(n)} ${shown(status)}`)
            .join(', ');
        lines.push('', ...wrap(`${plural(rest.length, 'key')} within thresholds not listed (${byStatus})`, width));
    }
    return `${lines.join('\n')}\n`;
}
function tableRow(group, notes) {
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
        refer(`${shown(worst.key)}${isRollUp(group) ? ' (the worst device)' : ''}: ${shown(note)}`);
    const status = `${SEVERITY_MARK[group.severity] ?? '?'} ${shown(group.status)}${marks.length > 0 ? ` ${marks.join(',')}` : ''}`;
    if (!isRollUp(group)) {
        return { severity: group.severity, status, key: shown(worst.key), transition: formatTransition(worst), change: formatChange(worst), detail: null };
    }
    const percent = medianPercent(group);
    const detail = `${devicesPhrase(group)}, worst ${shown(deviceOfEntry(worst) ?? '?')}; median ${formatDelta(medianGrowth(group))}${percent === null ? '' : ` (${formatShortPercent(percent)})`}`;
    return { severity: group.severity, status, key: shown(group.pattern), transition: formatTransition(worst), change: formatChange(worst), detail };
}
/**
 * STATUS, KEY, BASELINE → CURRENT, Δ (Δ%): the key column takes what the others leave of the width and keys are cut in
 * the middle to fit; when even that is too narrow, the baseline → current column goes first.
 */
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
    const line = (status, key, transition, change, paintStatus) => {
        const s = padEnd(status, statusWidth);
        const parts = [paintStatus ? paintStatus(s) : s, padEnd(truncateMiddle(key, keyWidth), keyWidth)];
        if (transitionWidth > 0)
            parts.push(padStart(transition, transitionWidth));
        parts.push(padStart(change, changeWidth));
        return clip(parts.join(GAP).trimEnd(), width);
    };
    const out = [line(headers[0], headers[1], headers[2], headers[3])];
    for (const r of rows) {
        out.push(line(r.status, r.key, r.transition, r.change, (s) => paint(severityColor(r.severity), s)));
        if (r.detail !== null)
            out.push(truncateEnd(`${' '.repeat(Math.min(statusWidth + GAP.length, 4))}${r.detail}`, width));
    }
    return out;
}
function padEnd(text, w) {
    return text + ' '.repeat(Math.max(0, w - displayWidth(text)));
}
function padStart(text, w) {
    return ' '.repeat(Math.max(0, w - displayWidth(text))) + text;
}
/** A line never wider than the width (a safety net: columns are sized to fit). */
function clip(text, width) {
    return displayWidth(stripAnsi(text)) <= width ? text : truncateEnd(text, width);
}
function stripAnsi(text) {
    return text.replace(/\u001b\[[0-9;]*m/g, '');
}
/** `DEV_MEM/dev3/…/APP_LONG_NAME`: the start and the end of a key stay, the middle becomes `…`. */
function truncateMiddle(text, width) {
    if (displayWidth(text) <= width)
        return text;
    if (width <= 1)
        return '…'.slice(0, width);
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
/** Words wrapped to the width, continuation lines indented; a word longer than a line is cut in the middle. */
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
/** The `parse` command's table: every section's metrics (compared value human and exact, then the other fields), then the meta line. */
function renderSnapshotTable(snapshot) {
    const lines = [];
    for (const declaration of SECTIONS) {
        // Snapshots keep keys in code-unit order (dev10 before dev2); people read them in compareKeys order.
        const metrics = Object.entries(metricsOf(snapshot, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]));
        if (metrics.length === 0) {
            // The two historic sections always say so; others appear only when a run has them.
            if (declaration.name === 'modules' || declaration.name === 'kernels')
                lines.push(`${declaration.title}: none`, '');
            continue;
        }
        lines.push(`${declaration.title} (${formatCount(metrics.length)})`);
        const others = Object.keys(declaration.fields).filter((f) => f !== declaration.value);
        const columns = [
            { header: 'KEY', align: 'left' },
            { header: declaration.value.toUpperCase(), align: 'right' },
            { header: `${declaration.value.toUpperCase()} ${declaration.unit === 'bytes' ? 'BYTES' : 'EXACT'}`, align: 'right' },
            ...others.map((f) => ({ header: f.toUpperCase(), align: isText(declaration, f) ? 'left' : 'right' })),
        ];
        const rows = metrics.map(([key, metric]) => [
            { text: shown(key) },
            { text: fieldText(declaration, declaration.value, metric[declaration.value]) },
            { text: String(metric[declaration.value]) },
            ...others.map((f) => ({ text: fieldText(declaration, f, metric[f]) })),
        ]);
        lines.push(...alignedTable(columns, rows, { flexColumn: 0}), '');
    }
    if (lines.length > 0 && lines[lines.length - 1] === '')
        lines.pop();
    const { files, records, skipped, allocFailures } = snapshot.meta;
    const devices = Object.entries(allocFailures);
    const failures = devices.length === 0 ? 'none (no device seen)' : devices.map(([d, n]) => `${shown(d)} ${n}`).join(', ');
    lines.push('', `${plural(files, 'file')}, ${plural(records, 'record')}, ${formatCount(skipped)} skipped; alloc failures: ${failures}`);
    return `${lines.join('\n')}\n`;
}
/**
 * Columns padded to their widest cell. The flex column (the key) is capped; a wider key is printed whole, ending its
 * line, and the row's remaining cells continue on the next line under their columns.
 */
function alignedTable(columns, rows, layout) {
    const widths = columns.map((column, i) => rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(column.header)));
    widths.reduce((sum, w, i) => (i === layout.flexColumn ? sum : sum + w), 0) + GAP.length * (columns.length - 1);
    const cap = DEFAULT_KEY_WIDTH ;
    // The column is as wide as the widest key that fits the cap: the keys that do not fit never widen it.
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
    const out = [columns.map((c, i) => pad(c.header, i)).join(GAP).trimEnd()];
    for (const cells of rows) {
        const flexCell = cells[layout.flexColumn];
        if (flexCell === undefined || displayWidth(flexCell.text) <= flexWidth) {
            out.push(line(cells, 0, cells.length).trimEnd());
            continue;
        }
        // The long key ends its line; the values continue below, each under its own column.
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
/** A name from a file, with control characters (ESC above all) made visible so it cannot drive the terminal. */
function shown(text) {
    return replaceControlCharacters(text);
}
/** Terminal columns of a string: East Asian wide characters and most emoji take two, combining marks none. */
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
/** A metric field as the parse table shows it: sizes human (signed sizes with their sign), counts as numbers, '-' for null. */
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

// The command line's commands: the same pipeline as the Action, from a terminal. Exit 0 pass, 1 gate failed, 2 usage or input error.
const PROGRAM = 'ascend-memory-gate';
/** One multi-value flag per evidence source (src/parsers/sources.ts): --plog, --compare, … with its help line. */
const INPUT_OPTIONS = Object.fromEntries(SOURCES.map((s) => [s.option, { type: 'string', multiple: true, value: 'PATH', description: s.description }]));
/** This machine's environment, recorded with the run (the baseline keeps it; check compares it). */
const ENVIRONMENT_OPTIONS = {
    'node-environment': { type: 'boolean', description: "record this machine's CANN, driver, chip, torch and memory variables" },
    env: { type: 'string', multiple: true, value: 'KEY=VALUE', description: 'add or override an environment item' },
};
const PARSE = {
    name: 'parse',
    summary: 'Read the inputs and print what was found: a table, or JSON.',
    usage: 'INPUTS [options]',
    options: {
        ...INPUT_OPTIONS,
        json: { type: 'boolean', description: 'print the snapshot as JSON instead of a table' },
        out: { type: 'string', value: 'FILE', description: 'write to FILE instead of standard output' },
    },
};
const CHECK = {
    name: 'check',
    summary: 'Compare a run with a baseline. Exit 0 pass, 1 gate failed, 2 bad usage/input.',
    usage: '--baseline FILE INPUTS [options]',
    options: {
        ...INPUT_OPTIONS,
        baseline: { type: 'string', value: 'FILE', description: 'baseline JSON; a missing file is a first run' },
        config: { type: 'string', value: 'FILE', description: 'thresholds (default .github/memory-gate.json)' },
        'max-increase': { type: 'string', value: 'SPEC', description: 'tolerance for every key, e.g. 5% or 64MiB' },
        report: { type: 'string', value: 'FILE', description: 'write the JSON report (every entry)' },
        markdown: { type: 'string', value: 'FILE', description: 'write the markdown report (job summary)' },
        html: { type: 'string', value: 'FILE', description: 'write the self-contained HTML report' },
        all: { type: 'boolean', description: 'list every key, not one row per module' },
        ...ENVIRONMENT_OPTIONS,
    },
};
const BASELINE = {
    name: 'baseline',
    summary: 'Record a run as the baseline (merged into FILE; keys absent from the run are kept).',
    usage: '--out FILE INPUTS [options]',
    options: {
        ...INPUT_OPTIONS,
        out: { type: 'string', value: 'FILE', description: 'the baseline JSON to create or update' },
        prune: { type: 'boolean', description: 'drop keys absent from this run' },
        ...ENVIRONMENT_OPTIONS,
    },
};
const SNAPSHOT = {
    name: 'snapshot',
    summary: "Reduce this node's evidence to one small file, with its environment, for a gate job to merge.",
    usage: '--out FILE.memory-snapshot.json INPUTS [options]',
    options: {
        ...INPUT_OPTIONS,
        out: { type: 'string', value: 'FILE', description: 'the snapshot to write (*.memory-snapshot.json)' },
        node: { type: 'string', value: 'NAME', description: 'node name (default NODE_NAME, else the host name)' },
        env: ENVIRONMENT_OPTIONS.env,
    },
};
/** Its flags are parsed by compare-dumps-command.ts; this spec gives it a usage line and --help like the others. */
const COMPARE_DUMPS = {
    name: 'compare-dumps',
    summary: "msMemScope's --compare without the tool: the memory_compare CSV of two dumps, byte for byte.",
    usage: 'BASE.csv CURRENT.csv [options]',
    options: {
        level: { type: 'string', value: 'LEVEL', description: 'op (default), kernel or op,kernel: the launches to align' },
        out: { type: 'string', value: 'FILE', description: 'write the CSV to FILE instead of standard output' },
        'max-edits': { type: 'string', value: 'N', description: 'refuse a pair needing more than N edits per device (10,000)' },
    },
};
const COMMAND_SPECS = [PARSE, CHECK, BASELINE, SNAPSHOT, COMPARE_DUMPS];
/** The program's usage, wrapped to the width (at most 80 columns). */
function usage(width) {
    return [
        `${PROGRAM}: stop memory regressions in Ascend NPU jobs`,
        '',
        'Usage:',
        ...COMMAND_SPECS.map((c) => `  ${PROGRAM} ${c.name.padEnd(8)} ${c.usage}`),
        `  ${PROGRAM} <command> --help   every flag of a command`,
        `  ${PROGRAM} --version`,
        '',
        'INPUTS: one or more of these flags, each with files, directories or globs:',
        ...helpLines(SOURCES.map((s) => [`--${s.option} PATH...`, s.description]), width),
        '',
        `A directory is searched for ${SOURCES.map((s) => `${s.searchHint ?? s.directoryPatterns.map((p) => p.replace(/^\*\*\//, '')).join(', ')} (--${s.option})`).join('; ')}.`,
        'Exit codes: 0 pass, 1 the gate failed, 2 usage or input error.',
    ]
        .flatMap((line) => (line.startsWith('  --') ? [line] : wrapHelp(line, '    ', width)))
        .join('\n');
}
/** Terminal columns: the TTY's width, else COLUMNS, else 80. */
function terminalWidth(stream = process.stdout, env = process.env) {
    if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0)
        return stream.columns;
    const columns = Number(env.COLUMNS);
    return Number.isSafeInteger(columns) && columns > 0 ? columns : 80;
}
/** Colour on a TTY only; FORCE_COLOR (not 0) forces it, NO_COLOR (non-empty) turns it off. */
function useColor(stream = process.stdout, env = process.env) {
    const force = env.FORCE_COLOR;
    if (force !== undefined && force !== '')
        return force !== '0' && force !== 'false';
    if (env.NO_COLOR !== undefined && env.NO_COLOR !== '')
        return false;
    return stream.isTTY === true;
}
const stdio = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    width: () => terminalWidth(),
    color: () => useColor(),
};
/** This machine as a node of the snapshot, with --env items and (with --node-environment, or `always`) what it finds. */
async function withNodeFromOptions(snapshot, opts, io, always = false) {
    const { parseEnvironmentPairs, withThisNode } = await import('./chunks/environment.js');
    const extra = parseEnvironmentPairs(stringList(opts, 'env'), '--env');
    const node = optionalString(opts, 'node');
    return withThisNode(snapshot, { env: process.env, extra, collect: always || opts['node-environment'] === true, ...(node ? { node } : {}) }, (line) => io.err(`${line}\n`));
}
/** Reads every source's inputs (--plog, --compare, …) of any command into a snapshot, warning about malformed records. */
async function collectFromOptions(opts, io) {
    const specs = Object.fromEntries(SOURCES.map((s) => [s.name, stringList(opts, s.option)]));
    if (noSpecs(specs)) {
        throw new UsageError(`give at least one ${SOURCES.map((s) => `--${s.option}`).join(' or ')} path`);
    }
    const files = await resolveAllInputs(specs);
    const collected = await collectSnapshot({ files, searched: describeSearches(specs) });
    warnSkipped(collected, io);
    return collected;
}
function warnSkipped(collected, io) {
    const { skipped } = collected.snapshot.meta;
    if (skipped === 0)
        return;
    const shown = collected.skippedRecords.slice(0, 10);
    for (const r of shown)
        io.err(`warning: ${visible(`${r.file}:${r.line}: ${r.reason}`)} (skipped)\n`);
    if (skipped > shown.length)
        io.err(`warning: ${skipped - shown.length} more malformed record(s) skipped\n`);
}
async function emit(text, outFile, io) {
    if (outFile)
        await writeFile(outFile, text);
    else
        io.out(text);
}
async function parseCommand(args, io) {
    const opts = parseCommandArgs(args, PARSE);
    const { snapshot } = await collectFromOptions(opts, io);
    const text = opts.json ? stableStringify(snapshot) : renderSnapshotTable(snapshot);
    await emit(text, optionalString(opts, 'out'), io);
    return 0;
}
async function checkCommand(args, io) {
    const opts = parseCommandArgs(args, CHECK);
    const baselinePath = optionalString(opts, 'baseline');
    if (baselinePath === undefined)
        throw new CommandUsageError('check: --baseline FILE is required', CHECK);
    const { snapshot } = await collectFromOptions(opts, io);
    const { runGate } = await import('./chunks/run-gate.js');
    const { report } = await runGate({
        snapshot: await withNodeFromOptions(snapshot, opts, io),
        baselinePath,
        configPath: optionalString(opts, 'config'),
        maxIncrease: optionalString(opts, 'max-increase'),
        // Like the Action: a missing baseline file is a first run, said on the verdict line (onMissingBaseline decides the exit code).
        allowMissingBaseline: true,
    });
    const reportFile = optionalString(opts, 'report');
    const markdownFile = optionalString(opts, 'markdown');
    const htmlFile = optionalString(opts, 'html');
    if (reportFile)
        await (await import('./chunks/json.js')).writeJsonReport(reportFile, report);
    if (markdownFile)
        await writeFile(markdownFile, (await import('./chunks/markdown.js')).renderMarkdown(report, { baselineFile: baselinePath }));
    if (htmlFile)
        await writeFile(htmlFile, (await import('./chunks/html.js')).renderHtml(report));
    io.out(renderTerminal(report, { color: (io.color ?? useColor)(), width: (io.width ?? terminalWidth)(), all: opts.all === true, baselineFile: baselinePath }));
    return report.result === 'fail' ? 1 : 0;
}
async function baselineCommand(args, io) {
    const opts = parseCommandArgs(args, BASELINE);
    const out = optionalString(opts, 'out');
    if (out === undefined)
        throw new CommandUsageError('baseline: --out FILE is required', BASELINE);
    // An empty run fails here, before the file is touched.
    const { snapshot } = await collectFromOptions(opts, io);
    const { loadBaseline, mergeBaseline, writeBaselineAtomic } = await import('./chunks/baseline.js');
    const { renderBaselineChanges, summarizeBaselineChanges } = await import('./chunks/baseline-changes.js');
    const existing = await loadBaseline(out);
    const { baseline, changes } = mergeBaseline(existing, await withNodeFromOptions(snapshot, opts, io), { prune: opts.prune === true, source: { date: new Date().toISOString() } });
    await writeBaselineAtomic(out, baseline);
    io.out(renderBaselineChanges(existing, baseline, changes));
    io.out(`\nwrote ${out}: ${summarizeBaselineChanges(changes)}\n`);
    return 0;
}
/** A node's evidence reduced to one small, versioned, schema-checked file for the gate job to merge. */
async function snapshotCommand(args, io) {
    const opts = parseCommandArgs(args, SNAPSHOT);
    const out = optionalString(opts, 'out');
    if (out === undefined)
        throw new CommandUsageError('snapshot: --out FILE is required (e.g. node-3.memory-snapshot.json)', SNAPSHOT);
    const { snapshot } = await collectFromOptions(opts, io);
    const { serializeSnapshotFile } = await import('./chunks/snapshot-file.js');
    const node = await withNodeFromOptions(snapshot, opts, io, true);
    const text = serializeSnapshotFile(node);
    try {
        await mkdir(path.dirname(path.resolve(out)), { recursive: true });
        await writeFile(out, text);
    }
    catch (error) {
        throw new UsageError(`snapshot: cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const [name, provenance] = Object.entries(node.meta.nodes ?? {})[0] ?? ['?', undefined];
    io.out(`wrote ${out} (${Buffer.byteLength(text)} bytes): node ${name}, ${provenance?.devices.length ?? 0} device(s), ` +
        `${node.meta.files} file(s), ${node.meta.records} record(s), ${node.meta.skipped} skipped\n`);
    return 0;
}
const COMMANDS = {
    snapshot: snapshotCommand,
    parse: parseCommand,
    check: checkCommand,
    baseline: baselineCommand,
    'compare-dumps': async (args, io) => {
        if (args.includes('--help') || args.includes('-h'))
            throw new HelpRequested(COMPARE_DUMPS);
        return compareDumpsCommand(args, io);
    },
};
async function runCli(argvWithFlags, io = stdio) {
    // --debug, anywhere: a failure prints its stack after the one-line message.
    const debug = argvWithFlags.includes('--debug');
    const argv = argvWithFlags.filter((a) => a !== '--debug');
    const [command, ...rest] = argv;
    const helpWidth = Math.min(HELP_WIDTH, (io.width ?? terminalWidth)());
    const USAGE = usage(helpWidth);
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
        const spec = command === 'help' ? COMMAND_SPECS.find((c) => c.name === rest[0]) : undefined;
        if (command === undefined)
            io.err(`${USAGE}\n`);
        else
            io.out(spec === undefined ? `${USAGE}\n` : commandHelp(PROGRAM, spec, helpWidth));
        return command === undefined ? 2 : 0;
    }
    if (command === '--version' || command === '-V') {
        io.out(`${PROGRAM} ${packageJson.version}\n`);
        return 0;
    }
    const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (handler === undefined) {
        const guess = closest(command.replace(/^-+/, ''), [...Object.keys(COMMANDS), 'version', 'help']);
        const hint = guess === null ? '' : `: did you mean '${guess === 'version' || guess === 'help' ? `--${guess}` : guess}'?`;
        io.err(`error: unknown command '${command}'${hint}\n\n${USAGE}\n`);
        return 2;
    }
    try {
        return await handler(rest, io);
    }
    catch (error) {
        if (error instanceof HelpRequested) {
            io.out(commandHelp(PROGRAM, error.command, helpWidth));
            return 0;
        }
        if (error instanceof CommandUsageError) {
            io.err(`error: ${error.message}\nusage: ${PROGRAM} ${error.command.name} ${error.command.usage}\n(${PROGRAM} ${error.command.name} --help lists every flag)\n`);
            return 2;
        }
        io.err(`error: ${failureText(error, debug)}\n`);
        return 2;
    }
}

// Entry of the `ascend-memory-gate` command: runs the command and sets the exit code, nothing else.
runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
}, (error) => {
    process.stderr.write(`error: ${failureText(error, process.argv.includes('--debug'))}\n`);
    process.exitCode = 2;
});

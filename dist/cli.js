#!/usr/bin/env node
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { U as UsageError, S as SOURCES, I as InputError, n as noSpecs } from './chunks/sources.js';
import { c as collectSnapshot } from './chunks/collect.js';
import { S as SECTIONS, m as metricsOf, s as stableStringify } from './chunks/snapshot.js';
import { f as formatPercent, a as formatDelta, b as formatBytes } from './chunks/units.js';
import { s as splitSections, v as verdictText, c as contextTerminal, f as formatEntryValue, a as formatEntryDelta, b as countByStatus, d as formatCount, p as plural, e as entryReason } from './chunks/entry-values.js';
import { r as replaceControlCharacters } from './chunks/escape.js';
import { r as resolveAllInputs, d as describeSearches } from './chunks/local.js';
import 'node:os';
import 'node:worker_threads';
import './chunks/parse-protocol.js';
import './chunks/series.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './chunks/_commonjsHelpers.js';

// Command-line argument parsing: flags may take several values (`--plog a b --compare c`), as the usage lines promise.
function parseCommandArgs(args, spec, command) {
    let tokens;
    try {
        ({ tokens } = parseArgs({
            args,
            options: Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, { type: v.type, multiple: v.multiple ?? false }])),
            allowPositionals: true,
            strict: true,
            tokens: true,
        }));
    }
    catch (error) {
        throw new UsageError(`${command}: ${error.message}`);
    }
    const out = {};
    let last;
    for (const token of tokens) {
        if (token.kind === 'option') {
            const opt = spec[token.name];
            if (opt === undefined)
                throw new UsageError(`${command}: unknown option --${token.name}`);
            if (opt.type === 'boolean') {
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
                if (out[token.name] !== undefined)
                    throw new UsageError(`${command}: --${token.name} given twice`);
                out[token.name] = token.value;
                last = undefined;
            }
        }
        else if (token.kind === 'positional') {
            if (last === undefined)
                throw new UsageError(`${command}: unexpected argument '${token.value}'`);
            out[last].push(token.value);
        }
        else {
            last = undefined;
        }
    }
    return out;
}
function stringList(opts, name) {
    const v = opts[name];
    return Array.isArray(v) ? v : [];
}
function optionalString(opts, name) {
    const v = opts[name];
    return typeof v === 'string' ? v : undefined;
}

// Plain-text tables for a terminal: the gate verdict (check) and a snapshot's metrics (parse), aligned, no color unless asked.
/** Keys wider than this get their own line when no terminal width is known, so one long key cannot widen every row. */
const DEFAULT_KEY_WIDTH = 60;
const MIN_KEY_WIDTH = 16;
const GAP = '  ';
const ANSI = { red: '\u001b[31m', yellow: '\u001b[33m', green: '\u001b[32m', bold: '\u001b[1m', reset: '\u001b[0m' };
function terminalReason(entry) {
    const { rule, note } = entryReason(entry);
    if (note !== null)
        return shown(rule === null ? note : `${rule}: ${note}`);
    return rule === null ? 'default' : shown(rule);
}
/** The verdict line, the failing and warning keys (failures first, largest growth first), then a count of the keys not listed. */
function renderTerminal(report, options = {}) {
    if (options.width !== undefined && !(Number.isSafeInteger(options.width) && options.width > 0)) {
        throw new UsageError(`width must be a positive integer, got ${String(options.width)}`);
    }
    const color = options.color === true;
    const paint = (code, text) => (color ? `${code}${text}${ANSI.reset}` : text);
    const { problems, improvements, unchanged } = splitSections(report);
    const lines = [paint(`${ANSI.bold}${report.result === 'fail' ? ANSI.red : ANSI.green}`, verdictText(report, 'Memory gate')), ...contextTerminal(report, shown)];
    if (problems.length > 0) {
        const columns = [
            { header: 'SEVERITY', align: 'left' },
            { header: 'STATUS', align: 'left' },
            { header: 'KIND', align: 'left' },
            { header: 'KEY', align: 'left' },
            { header: 'BASELINE', align: 'right' },
            { header: 'CURRENT', align: 'right' },
            { header: 'DELTA', align: 'right' },
            { header: 'DELTA%', align: 'right' },
            { header: 'RULE / WHY', align: 'left' },
        ];
        const rows = problems.map((entry) => [
            { text: shown(entry.severity), paint: (s) => paint(severityColor(entry), s) },
            { text: shown(entry.status) },
            { text: shown(entry.kind) },
            { text: shown(entry.key) },
            { text: entry.baseline === null ? '-' : formatEntryValue(entry, entry.baseline) },
            { text: entry.current === null ? '-' : formatEntryValue(entry, entry.current) },
            { text: entry.delta === null ? '-' : formatEntryDelta(entry, entry.delta) },
            { text: entry.percent === null ? '-' : formatPercent(entry.percent) },
            { text: terminalReason(entry) },
        ]);
        lines.push('', ...alignedTable(columns, rows, { flexColumn: 3, width: options.width }));
    }
    const rest = [...improvements, ...unchanged];
    if (rest.length > 0) {
        const byStatus = countByStatus(rest)
            .map(([status, n]) => `${formatCount(n)} ${shown(status)}`)
            .join(', ');
        lines.push('', `${plural(rest.length, 'key')} within thresholds not listed (${byStatus})`);
    }
    return `${lines.join('\n')}\n`;
}
/** The `parse` command's table: every section's metrics (compared value human and exact, then the other fields), then the meta line. */
function renderSnapshotTable(snapshot) {
    const lines = [];
    for (const declaration of SECTIONS) {
        const metrics = Object.entries(metricsOf(snapshot, declaration.name));
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
        lines.push(...alignedTable(columns, rows, { flexColumn: 0, width: undefined }), '');
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
    const others = widths.reduce((sum, w, i) => (i === layout.flexColumn ? sum : sum + w), 0) + GAP.length * (columns.length - 1);
    const cap = layout.width === undefined ? DEFAULT_KEY_WIDTH : Math.max(MIN_KEY_WIDTH, layout.width - others);
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
function severityColor(entry) {
    return entry.severity === 'fail' ? ANSI.red : entry.severity === 'ok' ? ANSI.green : ANSI.yellow;
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
const USAGE = `ascend-memory-gate: stop memory regressions in Ascend NPU jobs

Usage:
  ascend-memory-gate parse    [--plog PATH...] [--compare PATH...] [--snapshot PATH...] [--json] [--out FILE]
  ascend-memory-gate check    --baseline FILE [--config FILE] [--max-increase SPEC]
                              [--plog PATH...] [--compare PATH...] [--snapshot PATH...] [--report FILE.json]
                              [--markdown FILE.md] [--html FILE.html] [--node-environment] [--env KEY=VALUE...]
  ascend-memory-gate baseline --out FILE [--plog PATH...] [--compare PATH...] [--snapshot PATH...] [--prune]
                              [--node-environment] [--env KEY=VALUE...]
  ascend-memory-gate snapshot --out FILE.memory-snapshot.json [--plog PATH...] [--compare PATH...] [--snapshot PATH...]
                              [--node NAME] [--env KEY=VALUE...]

PATH is a file, a directory (searched for *.log, memory_compare_*.csv, stepintercompare_*.csv; with --snapshot,
*.memory-snapshot.json) or a glob.
snapshot reduces this node's files to one small file, with its environment (always probed), for a gate job to merge.
--node-environment records this machine's CANN, driver, firmware, chip, torch/torch_npu and memory variables;
--env adds or overrides items. The baseline keeps them; check compares them (config 'environment').
Exit codes: 0 pass, 1 the gate failed, 2 usage or input error.`;
const stdio = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
};
/** One multi-value flag per evidence source (src/parsers/sources.ts): --plog, --compare, … */
const INPUT_OPTIONS = Object.fromEntries(SOURCES.map((s) => [s.option, { type: 'string', multiple: true }]));
const ENVIRONMENT_OPTIONS = {
    'node-environment': { type: 'boolean' },
    env: { type: 'string', multiple: true },
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
        io.err(`warning: ${r.file}:${r.line}: ${r.reason} (skipped)\n`);
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
    const opts = parseCommandArgs(args, { ...INPUT_OPTIONS, json: { type: 'boolean' }, out: { type: 'string' } }, 'parse');
    const { snapshot } = await collectFromOptions(opts, io);
    const text = opts.json ? stableStringify(snapshot) : renderSnapshotTable(snapshot);
    await emit(text, optionalString(opts, 'out'), io);
    return 0;
}
async function checkCommand(args, io) {
    const opts = parseCommandArgs(args, {
        ...INPUT_OPTIONS,
        baseline: { type: 'string' },
        config: { type: 'string' },
        'max-increase': { type: 'string' },
        report: { type: 'string' },
        markdown: { type: 'string' },
        html: { type: 'string' },
        ...ENVIRONMENT_OPTIONS,
    }, 'check');
    const baselinePath = optionalString(opts, 'baseline');
    if (baselinePath === undefined)
        throw new UsageError('check: --baseline FILE is required');
    const { snapshot } = await collectFromOptions(opts, io);
    const { runGate } = await import('./chunks/run-gate.js');
    const { report } = await runGate({
        snapshot: await withNodeFromOptions(snapshot, opts, io),
        baselinePath,
        configPath: optionalString(opts, 'config'),
        maxIncrease: optionalString(opts, 'max-increase'),
        allowMissingBaseline: false,
    });
    const reportFile = optionalString(opts, 'report');
    const markdownFile = optionalString(opts, 'markdown');
    const htmlFile = optionalString(opts, 'html');
    if (reportFile)
        await writeFile(reportFile, (await import('./chunks/json.js')).renderJsonReport(report));
    if (markdownFile)
        await writeFile(markdownFile, (await import('./chunks/markdown.js')).renderMarkdown(report));
    if (htmlFile)
        await writeFile(htmlFile, (await import('./chunks/html.js')).renderHtml(report));
    io.out(renderTerminal(report, { color: process.stdout.isTTY === true && !process.env.NO_COLOR }));
    return report.result === 'fail' ? 1 : 0;
}
async function baselineCommand(args, io) {
    const opts = parseCommandArgs(args, { ...INPUT_OPTIONS, ...ENVIRONMENT_OPTIONS, out: { type: 'string' }, prune: { type: 'boolean' } }, 'baseline');
    const out = optionalString(opts, 'out');
    if (out === undefined)
        throw new UsageError('baseline: --out FILE is required');
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
    const opts = parseCommandArgs(args, { ...INPUT_OPTIONS, env: ENVIRONMENT_OPTIONS.env, node: { type: 'string' }, out: { type: 'string' } }, 'snapshot');
    const out = optionalString(opts, 'out');
    if (out === undefined)
        throw new UsageError('snapshot: --out FILE is required (e.g. node-3.memory-snapshot.json)');
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
};
async function runCli(argv, io = stdio) {
    const [command, ...rest] = argv;
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
        io.out(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
    }
    const handler = COMMANDS[command];
    if (handler === undefined) {
        io.err(`error: unknown command '${command}'\n\n${USAGE}\n`);
        return 2;
    }
    try {
        return await handler(rest, io);
    }
    catch (error) {
        if (error instanceof UsageError || error instanceof InputError) {
            io.err(`error: ${error.message}\n`);
            return 2;
        }
        throw error;
    }
}

// Entry of the `ascend-memory-gate` command: runs the command and sets the exit code, nothing else.
runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
}, (error) => {
    process.stderr.write(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
});

import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { U as UsageError, f as failureText, v as visible } from './errors.js';
import { c as collectSnapshot } from './collect.js';
import { b as stringifyDocument } from './snapshot.js';
import { S as SOURCES, n as noSpecs } from './evidence-sources.js';
import { r as resolveAllInputs, d as describeSearches } from './local.js';
import './parse-protocol.js';
import './worker-start.js';
import 'node:fs';
import 'node:os';
import 'node:worker_threads';
import './series.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './_commonjsHelpers.js';

var version = "1.0.0";
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

// The command line's commands: the same pipeline as the Action, from a terminal. Exit 0 pass, 1 gate failed, 2 usage or input error.
const PROGRAM = 'ascend-memory-gate';
/** One multi-value flag per evidence source (src/parsers/evidence-sources.ts): --plog, --compare, … with its help line. */
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
    const { parseEnvironmentPairs, withThisNode } = await import('./node-environment.js');
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
    // The terminal renderers are loaded when used: a `parse --json` of a large input starts parsing that much sooner.
    const text = opts.json ? stringifyDocument(snapshot) : (await import('./terminal.js')).renderSnapshotTable(snapshot);
    await emit(text, optionalString(opts, 'out'), io);
    return 0;
}
async function checkCommand(args, io) {
    const opts = parseCommandArgs(args, CHECK);
    const baselinePath = optionalString(opts, 'baseline');
    if (baselinePath === undefined)
        throw new CommandUsageError('check: --baseline FILE is required', CHECK);
    const { snapshot } = await collectFromOptions(opts, io);
    const { runGate } = await import('./run-gate.js');
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
        await (await import('./json.js')).writeJsonReport(reportFile, report);
    if (markdownFile)
        await writeFile(markdownFile, (await import('./markdown.js')).renderMarkdown(report, { baselineFile: baselinePath }));
    if (htmlFile)
        await writeFile(htmlFile, (await import('./html.js')).renderHtml(report));
    const { renderTerminal } = await import('./terminal.js');
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
    const { loadBaseline, mergeBaseline, writeBaselineAtomic } = await import('./baseline.js');
    const { renderBaselineChanges, summarizeBaselineChanges } = await import('./baseline-changes.js');
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
    const { serializeSnapshotFile } = await import('./snapshot-file.js');
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
        return (await import('./compare-dumps2.js')).compareDumpsCommand(args, io);
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

export { collectFromOptions, runCli, terminalWidth, useColor };

import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { U as UsageError, I as InputError, f as failureText, v as visible, a as fileSystemFailure } from './errors.js';
import { d as displayWidth, w as wrap } from './text-layout.js';
import { s as stringifyDocument } from './document-json.js';
import { S as SOURCES, R as RUN_OPTIONS, n as noSpecs } from './evidence-sources.js';
import { a as addThisNode, c as collect } from './collect.js';
import { D as DEFAULT_HISTORY_SIZE, M as MAX_HISTORY_SIZE } from './limits.js';
import './worker-start.js';
import 'node:fs';
import 'node:os';
import 'node:worker_threads';
import './parse-protocol.js';
import 'node:url';
import './_commonjsHelpers.js';
import 'fs';
import 'path';
import 'url';
import 'module';

var version = "1.1.0-dev.0";
var packageJson = {
	version: version};

class HelpRequested extends Error {
    command;
    constructor(command) {
        super(`${command.name} --help`);
        this.command = command;
    }
}
class CommandUsageError extends UsageError {
    command;
    constructor(message, command) {
        super(message);
        this.command = command;
    }
}
function allOptions(spec) {
    return spec.inputs === undefined ? spec.options : { ...spec.inputs, ...spec.options };
}
function parseCommandArgs(args, spec) {
    const all = parseAll(args, spec);
    const flags = Object.fromEntries(Object.entries(spec.options).map(([name, opt]) => {
        const value = all[name];
        const typed = opt.type === 'boolean' ? value === true : opt.multiple ? (Array.isArray(value) ? value : []) : value;
        return [name.replace(/-([a-z])/g, (_, c) => c.toUpperCase()), typed];
    }));
    return { flags, all };
}
function parseAll(args, command) {
    const spec = { ...command, options: allOptions(command) };
    const fail = (message) => {
        throw new CommandUsageError(`${spec.name}: ${message}`, command);
    };
    if (args.includes('--help') || args.includes('-h'))
        throw new HelpRequested(command);
    const expanded = args.map((a, i) => {
        const name = a.startsWith('--') ? a.slice(2) : undefined;
        const opt = name !== undefined && Object.hasOwn(spec.options, name) ? spec.options[name] : undefined;
        const next = args[i + 1];
        return opt?.implicit !== undefined && (next === undefined || next.startsWith('-')) ? `${a}=${opt.implicit}` : a;
    });
    const { tokens } = parseArgs({
        args: expanded,
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
                if (token.value === undefined && opt.implicit === undefined)
                    fail(`--${token.name} needs a value (${opt.value ?? 'VALUE'})`);
                if (out[token.name] !== undefined)
                    fail(`--${token.name} given twice`);
                out[token.name] = token.value ?? opt.implicit;
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
const HELP_WIDTH = 80;
function commandHelp(program, spec, width = HELP_WIDTH) {
    const flags = Object.entries(allOptions(spec)).map(([name, opt]) => {
        const value = opt.type === 'string'
            ? opt.implicit !== undefined
                ? ` [${opt.value ?? 'VALUE'}]`
                : ` ${opt.value ?? 'VALUE'}${opt.multiple ? '...' : ''}`
            : '';
        return [`--${name}${value}`, opt.description];
    });
    flags.push(['-h, --help', 'show this help']);
    const lines = [
        ...wrapHelp(`Usage: ${program} ${spec.name} ${spec.usage}`, '    ', width),
        '',
        ...wrapHelp(spec.summary, '', width),
        '',
        'Options:',
        ...helpLines(flags, width),
    ];
    return `${lines.join('\n')}\n`;
}
function helpLines(rows, width = HELP_WIDTH) {
    const column = Math.max(...rows.map(([f]) => f.length)) + 4;
    const longestWord = Math.max(0, ...rows.flatMap(([, d]) => d.split(' ').map((w) => displayWidth(w))));
    if (width - column < Math.max(24, longestWord))
        return rows.flatMap(([flag, description]) => [`  ${flag}`, ...wrapHelp(`      ${description}`, '      ', width)]);
    return rows.flatMap(([flag, description]) => wrapHelp(`  ${flag.padEnd(column - 2)}${description}`, ' '.repeat(column), width));
}
function wrapHelp(line, indent = '    ', width = HELP_WIDTH) {
    return line === '' ? [''] : wrap(line, width, indent);
}
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

const ENVIRONMENT_OPTIONS = {
    'node-environment': {
        type: 'boolean',
        description: "record this machine's CANN, driver, chip, torch and memory variables",
    },
    env: { type: 'string', multiple: true, value: 'KEY=VALUE', description: 'add or override an environment item' },
};
function nodeFromFlags(flags) {
    return {
        items: flags.env,
        itemsFrom: '--env',
        collect: flags.nodeEnvironment ?? true,
        ...(flags.node ? { name: flags.node } : {}),
    };
}

const HISTORY_FILE = {
    type: 'string',
    value: 'FILE',
    description: 'the history file (JSON Lines)',
};
const CONFIG = {
    type: 'string',
    value: 'FILE',
    description: 'thresholds, for the tolerance a step must exceed (default .github/memory-gate.json)',
};
const HISTORY = {
    name: 'history',
    summary: 'The default branch history as a local file: append records a run, show prints its trends, html writes the dashboard, fetch reads it from its git branch.',
    usage: 'append|show|html|fetch --history FILE …',
    options: {},
};
function appendSpec(tools) {
    return {
        name: 'history append',
        summary: 'Record one run of the default branch in FILE (created when missing), oldest points out past --size. Gates nothing.',
        usage: '--history FILE --commit SHA INPUTS [options]',
        inputs: tools.inputOptions,
        options: {
            history: HISTORY_FILE,
            commit: { type: 'string', value: 'SHA', description: 'the commit of this run (hex)' },
            time: { type: 'string', value: 'ISO-8601', description: 'when it ran (default now)' },
            run: { type: 'string', value: 'ID', description: "the CI run (GitLab's CI_PIPELINE_ID, Jenkins' BUILD_NUMBER)" },
            attempt: { type: 'string', value: 'N', description: 'the run attempt, 1 or more' },
            baseline: {
                type: 'string',
                value: 'FILE',
                description: 'the baseline this run is gated against: its updates are marked',
            },
            branch: { type: 'string', value: 'NAME', description: 'the branch the history is of, shown in reports' },
            gate: { type: 'string', value: 'NAME', description: "the gate's name, when one repository has several" },
            'commit-url': {
                type: 'string',
                value: 'URL',
                description: "a commit's page with {sha}, e.g. https://gitlab.example.com/g/p/-/commit/{sha}",
            },
            size: { type: 'string', value: 'N', description: 'points kept (default 200, at most 1,000)' },
            ...GIT_OPTIONS,
            ...ENVIRONMENT_OPTIONS,
        },
    };
}
const GIT_OPTIONS = {
    'git-branch': {
        type: 'string',
        value: 'NAME',
        description: 'keep the file on this branch of the remote (e.g. memory-gate-history): fetched, appended, pushed',
    },
    'git-remote': { type: 'string', value: 'NAME', description: 'the remote of --git-branch (default origin)' },
    'git-path': {
        type: 'string',
        value: 'PATH',
        description: 'the file on --git-branch (default default.history.jsonl, as the Action writes it)',
    },
};
const FETCH = {
    name: 'history fetch',
    summary: "Copy the history file from its branch (history append --git-branch writes it) for a merge request's check --history.",
    usage: '--git-branch NAME --history FILE [options]',
    options: { history: HISTORY_FILE, ...GIT_OPTIONS },
};
const SHOW = {
    name: 'history show',
    summary: 'Print the trends: per key group a sparkline of its last 30 points, range, latest value, and the commit where it stepped.',
    usage: '--history FILE [--key PATTERN] [options]',
    options: {
        history: HISTORY_FILE,
        key: {
            type: 'string',
            value: 'PATTERN',
            description: 'only key groups or keys this glob matches (DEV_MEM/*/HCCL)',
        },
        config: CONFIG,
    },
};
const HTML = {
    name: 'history html',
    summary: 'Write the dashboard: one self-contained HTML page, a chart per key group, baseline updates and environment changes marked.',
    usage: '--history FILE --out PAGE [options]',
    options: {
        history: HISTORY_FILE,
        out: { type: 'string', value: 'PAGE', description: 'the HTML page to write' },
        config: CONFIG,
        title: { type: 'string', value: 'TEXT', description: 'the page title (default "Memory history")' },
    },
};
async function historyCommand(args, io, tools) {
    const [sub, ...rest] = args;
    if (sub === 'append')
        return append(rest, io, tools);
    if (sub === 'show')
        return show(rest, io, tools);
    if (sub === 'html')
        return html(rest, io);
    if (sub === 'fetch')
        return fetchHistory(rest, io);
    if (sub === undefined || sub === '--help' || sub === '-h') {
        if (sub === undefined)
            throw new CommandUsageError('history: name what to do: append, show or html', HISTORY);
        throw new HelpRequested({
            ...HISTORY,
            summary: `${HISTORY.summary} See 'history append --help', 'history show --help', 'history html --help', 'history fetch --help'.`,
        });
    }
    throw new CommandUsageError(`history: unknown '${sub}': append, show, html or fetch`, HISTORY);
}
function required(value, name, spec) {
    if (value === undefined)
        throw new CommandUsageError(`${spec.name}: --${name} ${spec.options[name]?.value ?? 'VALUE'} is required`, spec);
    return value;
}
async function append(args, io, tools) {
    const spec = appendSpec(tools);
    const { flags, all } = parseCommandArgs(args, spec);
    const file = required(flags.history, 'history', spec);
    const { commit, time, attempt, size, run } = await pointFlags(flags, spec);
    const { baselineHashOf, pointSentence, recordRun } = await import('./history-point.js');
    const header = headerOptions(flags, spec);
    const { writeHistoryFile } = await import('./store.js');
    const { emptyHistory, parseHistory } = await import('./format.js');
    const { pointEnvironment, pointValues } = await import('./point.js');
    const branch = gitBranchOf(flags, spec);
    let existing = branch === undefined ? await readHistory$1(file, io) : null;
    if (branch !== undefined) {
        const { readBranchFile } = await import('./git-branch.js');
        const text = await readBranchFile(branch);
        if (text !== null)
            existing = parseHistory(text, `${branch.branch}:${branch.path}`);
    }
    const baselineFile = flags.baseline;
    const baseline = baselineFile === undefined ? (existing?.points.at(-1)?.baseline ?? null) : await baselineHashOf(baselineFile);
    const snapshot = await tools.collect(all, flags);
    const record = (history) => recordRun(history, {
        header,
        meta: {
            commit,
            time,
            baseline,
            environment: pointEnvironment(snapshot),
            ...(run !== undefined ? { run } : {}),
            ...(attempt !== undefined ? { attempt: Number(attempt) } : {}),
        },
        values: pointValues(snapshot),
        maxPoints: size,
    });
    let result;
    let pushed = '';
    if (branch === undefined)
        result = record(existing ?? emptyHistory(header));
    else {
        const { writeBranchFile } = await import('./git-branch.js');
        let last;
        const written = await writeBranchFile(branch, (text) => {
            last = record(text === null ? emptyHistory(header) : parseHistory(text, `${branch.branch}:${branch.path}`));
            return last.text;
        }, `memory history: ${commit.slice(0, 12)}${run !== undefined ? ` (run ${run})` : ''}`);
        result = last;
        pushed = `; pushed to ${branch.remote} ${branch.branch} as ${written.commit.slice(0, 12)}${written.attempts > 1 ? ` (attempt ${written.attempts})` : ''}`;
    }
    await writeHistoryFile(file, result.text);
    const how = result.replaced ? 'replaced the point of run' : 'recorded';
    io.out(`${how} ${commit.slice(0, 7)} in ${file}: ${pointSentence(result, size, '; ')} (${Buffer.byteLength(result.text)} bytes)${pushed}\n`);
    return 0;
}
async function pointFlags(flags, spec) {
    const { historySize, isCommitSha, pointTime } = await import('./history-point.js');
    const commit = required(flags.commit, 'commit', spec).toLowerCase();
    if (!isCommitSha(commit))
        throw new CommandUsageError(`history append: --commit must be a commit SHA (4 to 64 hex digits), got '${commit}'`, spec);
    const time = flags.time ?? pointTime();
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(time) ||
        Number.isNaN(Date.parse(time))) {
        throw new CommandUsageError(`history append: --time must be an ISO 8601 date-time such as 2026-06-13T17:00:34Z, got '${time}'`, spec);
    }
    const attempt = flags.attempt;
    if (attempt !== undefined && !/^[1-9]\d{0,5}$/.test(attempt))
        throw new CommandUsageError(`history append: --attempt must be a whole number from 1, got '${attempt}'`, spec);
    const sizeText = flags.size;
    const size = sizeText === undefined ? DEFAULT_HISTORY_SIZE : historySize(sizeText);
    if (size === null)
        throw new CommandUsageError(`history append: --size must be a whole number from 1 to ${MAX_HISTORY_SIZE}, got '${sizeText}'`, spec);
    const run = flags.run;
    if (run !== undefined && (run === '' || run.length > 100))
        throw new CommandUsageError('history append: --run must be 1 to 100 characters', spec);
    return { commit, time, attempt, size, run };
}
function headerOptions(flags, spec) {
    const out = {};
    const branch = flags.branch;
    if (branch !== undefined) {
        if (branch === '' || branch.length > 255 || /[\u0000-\u001f\u007f]/.test(branch))
            throw new CommandUsageError('history append: --branch must be a branch name', spec);
        out.branch = branch;
    }
    const gate = flags.gate;
    if (gate !== undefined) {
        if (!/^[\w.-]{1,64}$/.test(gate))
            throw new CommandUsageError(`history append: --gate may hold letters, digits, '.', '_' and '-' (1 to 64), got '${gate}'`, spec);
        out.gate = gate;
    }
    const url = flags.commitUrl;
    if (url !== undefined) {
        if (!/^https?:\/\/[^\s"<>]*\{sha\}[^\s"<>]*$/.test(url) || url.length > 2048) {
            throw new CommandUsageError(`history append: --commit-url must be an http(s) URL holding {sha}, e.g. https://github.com/o/r/commit/{sha}, got '${url}'`, spec);
        }
        out.commitUrl = url;
    }
    return out;
}
async function readHistory$1(file, io) {
    const { readHistoryFile, startOverHint } = await import('./store.js');
    let history;
    try {
        history = await readHistoryFile(file);
    }
    catch (error) {
        if (!(error instanceof InputError))
            throw error;
        throw new InputError(`${error.message}. ${startOverHint(file)}`);
    }
    const { visible } = await import('./errors.js').then(function (n) { return n.b; });
    for (const warning of history?.warnings ?? [])
        io.err(`warning: ${visible(warning)}\n`);
    return history;
}
async function loadHistory(file, io) {
    const history = await readHistory$1(file, io);
    if (history === null)
        throw new InputError(`${file} does not exist: 'ascend-memory-gate history append --history ${file} …' records the first point`);
    return history;
}
async function show(args, io, tools) {
    const { flags } = parseCommandArgs(args, SHOW);
    const file = required(flags.history, 'history', SHOW);
    const history = await loadHistory(file, io);
    const { loadGateConfig } = await import('./thresholds.js');
    const config = await loadGateConfig(flags.config);
    const { trendsOf } = await import('./trends.js');
    const { renderHistoryTerminal } = await import('./history-terminal.js');
    const { buildHistoryView } = await import('./history-view.js');
    const key = flags.key;
    io.out(renderHistoryTerminal(buildHistoryView(history, trendsOf(history, config)), {
        width: tools.width(),
        ...(key !== undefined ? { key } : {}),
    }));
    return 0;
}
async function html(args, io) {
    const { flags } = parseCommandArgs(args, HTML);
    const file = required(flags.history, 'history', HTML);
    const out = required(flags.out, 'out', HTML);
    const history = await loadHistory(file, io);
    const { loadGateConfig } = await import('./thresholds.js');
    const config = await loadGateConfig(flags.config);
    const { trendsOf } = await import('./trends.js');
    const { renderDashboard } = await import('./dashboard.js');
    const { buildHistoryView } = await import('./history-view.js');
    const title = flags.title;
    const page = renderDashboard(buildHistoryView(history, trendsOf(history, config)), {
        ...(title !== undefined ? { title } : {}),
    });
    try {
        await mkdir(path.dirname(path.resolve(out)), { recursive: true });
        await writeFile(out, page);
    }
    catch (error) {
        throw new UsageError(`history html: cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`);
    }
    io.out(`wrote ${out} (${Buffer.byteLength(page)} bytes): ${history.points.length} points\n`);
    return 0;
}
function gitBranchOf(flags, spec) {
    const { gitBranch: branch, gitRemote: remote, gitPath: file } = flags;
    if (branch === undefined) {
        if (remote !== undefined || file !== undefined)
            throw new CommandUsageError(`${spec.name}: --git-remote and --git-path go with --git-branch`, spec);
        return undefined;
    }
    if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/.test(branch) ||
        branch.includes('..') ||
        branch.endsWith('.lock') ||
        branch.endsWith('/')) {
        throw new CommandUsageError(`${spec.name}: --git-branch must be a branch name such as memory-gate-history, got '${branch}'`, spec);
    }
    if (remote !== undefined && !/^[A-Za-z0-9][\w.-]{0,99}$/.test(remote))
        throw new CommandUsageError(`${spec.name}: --git-remote must be a remote's name such as origin, got '${remote}'`, spec);
    const at = file ?? 'default.history.jsonl';
    if (!/^[\w.-][\w./-]{0,254}$/.test(at) ||
        at.split('/').some((part) => part === '' || part === '.' || part === '..')) {
        throw new CommandUsageError(`${spec.name}: --git-path must be a relative path on the branch, got '${at}'`, spec);
    }
    return { cwd: process.cwd(), remote: remote ?? 'origin', branch, path: at };
}
async function fetchHistory(args, io) {
    const { flags } = parseCommandArgs(args, FETCH);
    const file = required(flags.history, 'history', FETCH);
    const branch = gitBranchOf(flags, FETCH);
    if (branch === undefined)
        throw new CommandUsageError('history fetch: --git-branch NAME is required', FETCH);
    const { readBranchFile } = await import('./git-branch.js');
    const text = await readBranchFile(branch);
    if (text === null) {
        io.err(`note: ${branch.remote} has no ${branch.path} on branch ${branch.branch} yet: no history (the default branch's 'history append --git-branch ${branch.branch}' records it)\n`);
        return 0;
    }
    const { parseHistory } = await import('./format.js');
    const history = parseHistory(text, `${branch.branch}:${branch.path}`);
    const { writeHistoryFile } = await import('./store.js');
    await writeHistoryFile(file, text);
    io.out(`fetched ${file} from ${branch.remote} ${branch.branch}: ${history.points.length} points (${Buffer.byteLength(text)} bytes)\n`);
    return 0;
}

var historyCommand$1 = /*#__PURE__*/Object.freeze({
  __proto__: null,
  HISTORY: HISTORY,
  historyCommand: historyCommand
});

const PROGRAM = 'ascend-memory-gate';
const INPUT_OPTIONS = {
    ...Object.fromEntries(SOURCES.map((s) => [s.option, { type: 'string', multiple: true, value: 'PATH', description: s.description }])),
    ...Object.fromEntries(RUN_OPTIONS.map((o) => [o.name, { type: 'string', value: o.value, description: o.description }])),
};
const PARSE = {
    name: 'parse',
    summary: 'Read the inputs and print what was found: a table, or JSON.',
    usage: 'INPUTS [options]',
    inputs: INPUT_OPTIONS,
    options: {
        json: { type: 'boolean', description: 'print the snapshot as JSON instead of a table' },
        config: {
            type: 'string',
            value: 'FILE',
            description: "thresholds: the device capacity and fragmentation share that decide OOMs' causes",
        },
        capacity: {
            type: 'string',
            value: 'SIZE',
            description: "every device's memory (e.g. 64GiB), to decide OOMs' causes when the evidence does not say",
        },
        out: { type: 'string', value: 'FILE', description: 'write to FILE instead of standard output' },
    },
};
const CHECK = {
    name: 'check',
    summary: 'Compare a run with a baseline. Exit 0 pass, 1 gate failed, 2 bad usage/input.',
    usage: '--baseline FILE INPUTS [options]',
    inputs: INPUT_OPTIONS,
    options: {
        baseline: { type: 'string', value: 'FILE', description: 'baseline JSON; a missing file is a first run' },
        config: { type: 'string', value: 'FILE', description: 'thresholds (default .github/memory-gate.json)' },
        'max-increase': { type: 'string', value: 'SPEC', description: 'tolerance for every key, e.g. 5% or 64MiB' },
        report: { type: 'string', value: 'FILE', description: 'write the JSON report (every entry)' },
        markdown: { type: 'string', value: 'FILE', description: 'write the markdown report (job summary)' },
        html: { type: 'string', value: 'FILE', description: 'write the self-contained HTML report' },
        junit: { type: 'string', value: 'FILE', description: 'write a JUnit XML report (GitLab, Jenkins)' },
        all: { type: 'boolean', description: 'list every key, not one row per module' },
        history: {
            type: 'string',
            value: 'FILE',
            description: 'the default branch history (history append): trends, steps, the noise band; never written',
        },
        ...ENVIRONMENT_OPTIONS,
        comment: {
            type: 'string',
            value: 'WHEN',
            implicit: 'on-change',
            description: "on-change (the default WHEN) or always: post the verdict on the merge/pull request (host from the CI's environment, or --host); without it nothing is posted",
        },
        host: {
            type: 'string',
            value: 'NAME',
            description: 'github, gitlab or gitcode, when the CI is none of them (Jenkins): with --repo and --pr',
        },
        repo: { type: 'string', value: 'OWNER/NAME', description: "the repository (GitLab: the project's path or id)" },
        pr: {
            type: 'string',
            value: 'N',
            description: "the change request's number (Jenkins' CHANGE_ID); empty: a branch build, nothing posted",
        },
        'base-sha': {
            type: 'string',
            value: 'SHA',
            description: "the change request's base commit, whose baseline and config gate it (default: the host's)",
        },
    },
};
const BASELINE = {
    name: 'baseline',
    summary: 'Record a run as the baseline (merged into FILE; keys absent from the run are kept).',
    usage: '--out FILE INPUTS [options]',
    inputs: INPUT_OPTIONS,
    options: {
        out: { type: 'string', value: 'FILE', description: 'the baseline JSON to create or update' },
        prune: { type: 'boolean', description: 'drop keys absent from this run' },
        ...ENVIRONMENT_OPTIONS,
    },
};
const SNAPSHOT = {
    name: 'snapshot',
    summary: "Reduce this node's evidence to one small file, with its environment, for a gate job to merge.",
    usage: '--out FILE.memory-snapshot.json INPUTS [options]',
    inputs: INPUT_OPTIONS,
    options: {
        out: { type: 'string', value: 'FILE', description: 'the snapshot to write (*.memory-snapshot.json)' },
        node: { type: 'string', value: 'NAME', description: 'node name (default NODE_NAME, else the host name)' },
        env: ENVIRONMENT_OPTIONS.env,
    },
};
const COMPARE_DUMPS = {
    name: 'compare-dumps',
    summary: "msMemScope's --compare without the tool: the memory_compare CSV of two dumps, byte for byte.",
    usage: 'BASE.csv CURRENT.csv [options]',
    options: {
        level: { type: 'string', value: 'LEVEL', description: 'op (default), kernel or op,kernel: the launches to align' },
        out: { type: 'string', value: 'FILE', description: 'write the CSV to FILE instead of standard output' },
        'max-edits': {
            type: 'string',
            value: 'N',
            description: 'refuse a pair needing more than N edits per device (10,000)',
        },
    },
};
const COMMAND_SPECS = [PARSE, CHECK, BASELINE, SNAPSHOT, COMPARE_DUMPS, HISTORY];
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
        'A folder is searched for (globs below the folder; each also compressed, as .gz or .zst):',
        ...helpLines(SOURCES.map((s) => [`--${s.option}`, s.searchHint ?? s.directoryPatterns.join(' ')]), width),
        '',
        "A path written !GLOB leaves out the files it matches, relative to the working folder: --plog logs '!logs/old/**'. A flag whose paths match no file is an error.",
        '',
        'Exit codes: 0 pass, 1 the gate failed, 2 usage or input error.',
    ]
        .flatMap((line) => (line.startsWith('  --') ? [line] : wrapHelp(line, '    ', width)))
        .join('\n');
}
function terminalWidth(stream = process.stdout, env = process.env) {
    if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0)
        return stream.columns;
    const columns = Number(env.COLUMNS);
    return Number.isSafeInteger(columns) && columns > 0 ? columns : 80;
}
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
    outBytes: (bytes) => (process.stdout.write(bytes) ? undefined : once(process.stdout, 'drain').then(() => undefined)),
    width: () => terminalWidth(),
    color: () => useColor(),
    isTerminal: () => process.stdout.isTTY === true,
};
function runLog(io) {
    return { warn: (text) => io.err(`warning: ${text}\n`), note: (text) => io.err(`${text}\n`) };
}
async function collectFromOptions(opts, oomFlags, io, node) {
    const specs = Object.fromEntries(SOURCES.map((s) => [s.name, stringList(opts, s.option)]));
    if (noSpecs(specs)) {
        throw new UsageError(`give at least one ${SOURCES.map((s) => `--${s.option}`).join(' or ')} path`);
    }
    const oom = oomFlags.config === undefined && oomFlags.capacity === undefined
        ? undefined
        : await (await import('./oom-settings.js')).oomSettingsFromOptions(oomFlags);
    return collect({
        specs,
        root: process.cwd(),
        sourceOptions: Object.fromEntries(RUN_OPTIONS.map((o) => {
            const value = opts[o.name];
            return [o.name, typeof value === 'string' ? value : undefined];
        })),
        settings: oom === undefined ? {} : { oom },
        skippedShown: 10,
        ...(node !== undefined ? { node } : {}),
    }, runLog(io));
}
async function writeOutput(file, text) {
    try {
        await mkdir(path.dirname(path.resolve(file)), { recursive: true });
        await writeFile(file, text);
    }
    catch (error) {
        const failure = fileSystemFailure(error, file);
        throw failure === undefined ? error : new InputError(failure);
    }
}
async function emit(text, outFile, io) {
    if (outFile)
        await writeOutput(outFile, text);
    else
        io.out(text);
}
async function parseCommand(args, io) {
    const { flags, all } = parseCommandArgs(args, PARSE);
    const { snapshot } = await collectFromOptions(all, flags, io);
    const outFile = flags.out;
    const width = outFile === undefined ? (io.width ?? terminalWidth)() : undefined;
    const text = flags.json
        ? stringifyDocument(snapshot)
        : (await import('./snapshot-table.js')).renderSnapshotTable(snapshot, width);
    await emit(text, outFile, io);
    return 0;
}
async function checkCommand(args, io) {
    const { flags, all } = parseCommandArgs(args, CHECK);
    const baselinePath = flags.baseline;
    if (baselinePath === undefined)
        throw new CommandUsageError('check: --baseline FILE is required', CHECK);
    const historyFile = flags.history;
    const history = historyFile === undefined ? null : await readHistory(historyFile, io);
    const junitFile = flags.junit;
    const stamp = junitFile === undefined ? undefined : (await import('./node-environment.js')).runStamp();
    const comment = flags.comment;
    if (comment !== undefined && comment !== 'on-change' && comment !== 'always')
        throw new CommandUsageError(`check: --comment takes on-change or always, not '${comment}'`, CHECK);
    const review = await (await import('./review.js')).prepareReview({
        comment: comment !== undefined,
        host: flags.host,
        repo: flags.repo,
        pr: flags.pr,
        baseSha: flags.baseSha,
    }, { baseline: baselinePath, config: flags.config }, (line) => io.err(`${line}\n`));
    const collected = await collectFromOptions(all, flags, io, nodeFromFlags(flags));
    const { snapshot } = collected;
    const checked = await (await import('./check.js')).check({
        collected,
        history,
        baseline: baselinePath,
        config: flags.config,
        maxIncrease: flags.maxIncrease,
        ...(review?.limits !== undefined ? { limits: review.limits } : {}),
    });
    const { report, config } = checked;
    const trends = await checked.trends(history, false);
    if (checked.folded !== null)
        io.err(`note: ${visible(checked.folded)}\n`);
    const preface = review === null ? undefined : await limitsPreface(review);
    const { view } = await (await import('./render.js')).render({
        report,
        trends,
        ...(snapshot.series !== undefined ? { series: snapshot.series } : {}),
        markdown: flags.markdown
            ? {
                baselineFile: baselinePath,
                baselineUpdateLabel: config.baselineUpdateLabel,
                ...(preface !== undefined ? { preface } : {}),
            }
            : undefined,
        files: {
            ...(flags.report ? { json: flags.report } : {}),
            ...(flags.markdown ? { markdown: flags.markdown } : {}),
            ...(flags.html ? { html: flags.html } : {}),
            ...(junitFile !== undefined && stamp !== undefined ? { junit: { file: junitFile, context: stamp } } : {}),
        },
        write: (_format, file, text) => writeOutput(file, text),
    });
    const { renderTerminal } = await import('./terminal.js');
    io.out(renderTerminal(view, {
        color: (io.color ?? useColor)(),
        width: (io.width ?? terminalWidth)(),
        all: flags.all,
        baselineFile: baselinePath,
        baselineUpdateLabel: config.baselineUpdateLabel,
    }));
    if (review !== null && comment !== undefined) {
        await (await import('./review.js')).postReview(review, report, comment, { view, ...(preface !== undefined ? { preface } : {}) }, (line) => io.err(`${line}\n`));
    }
    return report.result === 'fail' ? 1 : 0;
}
async function limitsPreface(review) {
    if (review.limits === undefined)
        return undefined;
    return (await import('./limits-changed.js')).renderLimitsChanged(review.limits.used, review.target.host === 'gitlab'
        ? { short: 'MR', long: 'merge request', labelPermission: 'the `api` scope' }
        : undefined);
}
async function readHistory(file, io) {
    const { readHistoryFile, startOverHint } = await import('./store.js');
    let history;
    try {
        history = await readHistoryFile(file);
    }
    catch (error) {
        if (!(error instanceof InputError))
            throw error;
        io.err(`warning: history not read, so the check has no trends and no noise band: ${visible(error.message)}. ${startOverHint(file)}\n`);
        return null;
    }
    if (history === null)
        io.err(`note: ${file} does not exist yet: no trends ('ascend-memory-gate history append' records the default branch's runs in it)\n`);
    for (const warning of history?.warnings ?? [])
        io.err(`warning: ${visible(warning)}\n`);
    return history;
}
async function baselineCommand(args, io) {
    const { flags, all } = parseCommandArgs(args, BASELINE);
    const { out } = flags;
    if (out === undefined)
        throw new CommandUsageError('baseline: --out FILE is required', BASELINE);
    const { snapshot } = await collectFromOptions(all, {}, io);
    const { foldedSitesNotice, loadBaseline, mergeBaseline, writeBaselineAtomic } = await import('./baseline.js');
    const { renderBaselineChangesTerminal } = await import('./baseline-changes.js');
    const existing = await loadBaseline(out);
    const folded = foldedSitesNotice(existing, out);
    if (folded !== null)
        io.err(`note: ${visible(folded)}\n`);
    const { baseline, changes } = mergeBaseline(existing, await addThisNode(snapshot, nodeFromFlags(flags), runLog(io)), {
        prune: flags.prune,
        source: { date: new Date().toISOString() },
    });
    await writeBaselineAtomic(out, baseline);
    io.out(renderBaselineChangesTerminal(out, existing, baseline, changes, (io.width ?? terminalWidth)()));
    return 0;
}
async function snapshotCommand(args, io) {
    const { flags, all } = parseCommandArgs(args, SNAPSHOT);
    const { out } = flags;
    if (out === undefined)
        throw new CommandUsageError('snapshot: --out FILE is required (e.g. node-3.memory-snapshot.json)', SNAPSHOT);
    const { snapshot } = await collectFromOptions(all, {}, io, nodeFromFlags(flags));
    const written = await (await import('./snapshot.js')).writeNodeSnapshot({ snapshot, out: { file: out } });
    io.out(`wrote ${out} (${written.bytes} bytes): node ${written.node}, ${written.devices} device(s), ` +
        `${written.files} file(s), ${written.records} record(s), ${written.skipped} skipped\n`);
    return 0;
}
const COMMANDS = {
    snapshot: snapshotCommand,
    parse: parseCommand,
    check: checkCommand,
    baseline: baselineCommand,
    history: async (args, io) => (await Promise.resolve().then(function () { return historyCommand$1; })).historyCommand(args, io, {
        inputOptions: INPUT_OPTIONS,
        collect: async (all, flags) => (await collectFromOptions(all, {}, io, nodeFromFlags(flags))).snapshot,
        width: () => (io.width ?? terminalWidth)(),
    }),
    'compare-dumps': async (args, io) => {
        if (args.includes('--help') || args.includes('-h'))
            throw new HelpRequested(COMPARE_DUMPS);
        return (await import('./compare-dumps2.js')).compareDumpsCommand(args, io);
    },
};
async function runCli(argvWithFlags, io = stdio) {
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

export { runCli };

// `ascend-memory-gate history append|show|html`: the default branch's history as a local file, for CI systems that keep it in a cache (GitLab, Jenkins).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, UsageError } from '../common/errors.js';
import type { Snapshot } from '../model/snapshot.js';
import { DEFAULT_HISTORY_SIZE, MAX_HISTORY_SIZE } from '../history/limits.js';
import { ENVIRONMENT_OPTIONS } from './environment-options.js';
import {
  CommandUsageError,
  HelpRequested,
  parseCommandArgs,
  type CommandSpec,
  type OptionSpec,
  type ParsedOptions,
} from './args.js';

/** What the history command borrows from the other commands: their evidence flags and how they collect a run. */
export interface HistoryTools {
  inputOptions: Record<string, OptionSpec>;
  /** This run's snapshot from the evidence flags, with this machine's environment items (--env, --node-environment). */
  collect(all: ParsedOptions, flags: { env: string[]; nodeEnvironment: boolean }): Promise<Snapshot>;
  width(): number;
}

const HISTORY_FILE = {
  type: 'string',
  value: 'FILE',
  description: 'the history file (JSON Lines)',
} satisfies OptionSpec;
const CONFIG = {
  type: 'string',
  value: 'FILE',
  description: 'thresholds, for the tolerance a step must exceed (default .github/memory-gate.json)',
} satisfies OptionSpec;

export const HISTORY = {
  name: 'history',
  summary:
    'The default branch history as a local file: append records a run, show prints its trends, html writes the dashboard, fetch reads it from its git branch.',
  usage: 'append|show|html|fetch --history FILE …',
  options: {},
} satisfies CommandSpec;

function appendSpec(tools: HistoryTools) {
  return {
    name: 'history append',
    summary:
      'Record one run of the default branch in FILE (created when missing), oldest points out past --size. Gates nothing.',
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
  } satisfies CommandSpec;
}

/** The history's home on a branch, written and read with plain git (src/hosts/git-branch.ts). */
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
} satisfies Record<string, OptionSpec>;

const FETCH = {
  name: 'history fetch',
  summary:
    "Copy the history file from its branch (history append --git-branch writes it) for a merge request's check --history.",
  usage: '--git-branch NAME --history FILE [options]',
  options: { history: HISTORY_FILE, ...GIT_OPTIONS },
} satisfies CommandSpec;

const SHOW = {
  name: 'history show',
  summary:
    'Print the trends: per key group a sparkline of its last 30 points, range, latest value, and the commit where it stepped.',
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
} satisfies CommandSpec;

const HTML = {
  name: 'history html',
  summary:
    'Write the dashboard: one self-contained HTML page, a chart per key group, baseline updates and environment changes marked.',
  usage: '--history FILE --out PAGE [options]',
  options: {
    history: HISTORY_FILE,
    out: { type: 'string', value: 'PAGE', description: 'the HTML page to write' },
    config: CONFIG,
    title: { type: 'string', value: 'TEXT', description: 'the page title (default "Memory history")' },
  },
} satisfies CommandSpec;

export async function historyCommand(
  args: string[],
  io: { out: (text: string) => void; err: (text: string) => void },
  tools: HistoryTools,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'append') return append(rest, io, tools);
  if (sub === 'show') return show(rest, io, tools);
  if (sub === 'html') return html(rest, io);
  if (sub === 'fetch') return fetchHistory(rest, io);
  if (sub === undefined || sub === '--help' || sub === '-h') {
    if (sub === undefined) throw new CommandUsageError('history: name what to do: append, show or html', HISTORY);
    throw new HelpRequested({
      ...HISTORY,
      summary: `${HISTORY.summary} See 'history append --help', 'history show --help', 'history html --help', 'history fetch --help'.`,
    });
  }
  throw new CommandUsageError(`history: unknown '${sub}': append, show, html or fetch`, HISTORY);
}

/** A flag the command needs: its value, or a usage error naming it. */
function required<O extends Record<string, OptionSpec>>(
  value: string | undefined,
  name: keyof O & string,
  spec: CommandSpec<O>,
): string {
  if (value === undefined)
    throw new CommandUsageError(`${spec.name}: --${name} ${spec.options[name]?.value ?? 'VALUE'} is required`, spec);
  return value;
}

async function append(
  args: string[],
  io: { out: (text: string) => void; err: (text: string) => void },
  tools: HistoryTools,
): Promise<number> {
  const spec = appendSpec(tools);
  const { flags, all } = parseCommandArgs(args, spec);
  const file = required(flags.history, 'history', spec);
  const { commit, time, attempt, size, run } = await pointFlags(flags, spec);
  const { baselineHashOf, pointSentence, recordRun } = await import('../run/history-point.js');
  const header = headerOptions(flags, spec);

  const { writeHistoryFile } = await import('../history/store.js');
  const { emptyHistory, parseHistory } = await import('../history/format.js');
  const { pointEnvironment, pointValues } = await import('../history/point.js');
  const branch = gitBranchOf(flags, spec);
  // The file is read first: a corrupt history stops the run before the (long) parse, and is never overwritten.
  let existing = branch === undefined ? await readHistory(file, io) : null;
  if (branch !== undefined) {
    const { readBranchFile } = await import('../hosts/git-branch.js');
    const text = await readBranchFile(branch);
    if (text !== null) existing = parseHistory(text, `${branch.branch}:${branch.path}`);
  }
  const baselineFile = flags.baseline;
  // Without --baseline the point says nothing new of the baseline: it keeps the last point's, so no update is marked.
  const baseline =
    baselineFile === undefined ? (existing?.points.at(-1)?.baseline ?? null) : await baselineHashOf(baselineFile);
  const snapshot = await tools.collect(all, flags);
  type Recorded = ReturnType<typeof recordRun>;
  const record = (history: import('../history/format.js').History): Recorded =>
    recordRun(history, {
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
  let result: Recorded;
  let pushed = '';
  if (branch === undefined) result = record(existing ?? emptyHistory(header));
  else {
    // Recorded again on the branch's new head when another run pushed first.
    const { writeBranchFile } = await import('../hosts/git-branch.js');
    let last: Recorded | undefined;
    const written = await writeBranchFile(
      branch,
      (text) => {
        last = record(text === null ? emptyHistory(header) : parseHistory(text, `${branch.branch}:${branch.path}`));
        return last.text;
      },
      `memory history: ${commit.slice(0, 12)}${run !== undefined ? ` (run ${run})` : ''}`,
    );
    result = last as Recorded;
    pushed = `; pushed to ${branch.remote} ${branch.branch} as ${written.commit.slice(0, 12)}${written.attempts > 1 ? ` (attempt ${written.attempts})` : ''}`;
  }
  await writeHistoryFile(file, result.text);
  const how = result.replaced ? 'replaced the point of run' : 'recorded';
  io.out(
    `${how} ${commit.slice(0, 7)} in ${file}: ${pointSentence(result, size, '; ')} (${Buffer.byteLength(result.text)} bytes)${pushed}\n`,
  );
  return 0;
}

/** The point's own flags, each checked in turn: --commit, --time, --attempt, --size, --run. */
async function pointFlags(
  flags: {
    commit: string | undefined;
    time: string | undefined;
    attempt: string | undefined;
    size: string | undefined;
    run: string | undefined;
  },
  spec: ReturnType<typeof appendSpec>,
): Promise<{ commit: string; time: string; attempt: string | undefined; size: number; run: string | undefined }> {
  const { historySize, isCommitSha, pointTime } = await import('../run/history-point.js');
  const commit = required(flags.commit, 'commit', spec).toLowerCase();
  if (!isCommitSha(commit))
    throw new CommandUsageError(
      `history append: --commit must be a commit SHA (4 to 64 hex digits), got '${commit}'`,
      spec,
    );
  const time = flags.time ?? pointTime();
  if (
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(time) ||
    Number.isNaN(Date.parse(time))
  ) {
    throw new CommandUsageError(
      `history append: --time must be an ISO 8601 date-time such as 2026-06-13T17:00:34Z, got '${time}'`,
      spec,
    );
  }
  const attempt = flags.attempt;
  if (attempt !== undefined && !/^[1-9]\d{0,5}$/.test(attempt))
    throw new CommandUsageError(`history append: --attempt must be a whole number from 1, got '${attempt}'`, spec);
  const sizeText = flags.size;
  const size = sizeText === undefined ? DEFAULT_HISTORY_SIZE : historySize(sizeText);
  if (size === null)
    throw new CommandUsageError(
      `history append: --size must be a whole number from 1 to ${MAX_HISTORY_SIZE}, got '${sizeText}'`,
      spec,
    );
  const run = flags.run;
  if (run !== undefined && (run === '' || run.length > 100))
    throw new CommandUsageError('history append: --run must be 1 to 100 characters', spec);
  return { commit, time, attempt, size, run };
}

function headerOptions(
  flags: { branch: string | undefined; gate: string | undefined; commitUrl: string | undefined },
  spec: CommandSpec,
): { branch?: string; gate?: string; commitUrl?: string } {
  const out: { branch?: string; gate?: string; commitUrl?: string } = {};
  const branch = flags.branch;
  if (branch !== undefined) {
    if (branch === '' || branch.length > 255 || /[\u0000-\u001f\u007f]/.test(branch))
      throw new CommandUsageError('history append: --branch must be a branch name', spec);
    out.branch = branch;
  }
  const gate = flags.gate;
  if (gate !== undefined) {
    if (!/^[\w.-]{1,64}$/.test(gate))
      throw new CommandUsageError(
        `history append: --gate may hold letters, digits, '.', '_' and '-' (1 to 64), got '${gate}'`,
        spec,
      );
    out.gate = gate;
  }
  const url = flags.commitUrl;
  if (url !== undefined) {
    if (!/^https?:\/\/[^\s"<>]*\{sha\}[^\s"<>]*$/.test(url) || url.length > 2048) {
      throw new CommandUsageError(
        `history append: --commit-url must be an http(s) URL holding {sha}, e.g. https://github.com/o/r/commit/{sha}, got '${url}'`,
        spec,
      );
    }
    out.commitUrl = url;
  }
  return out;
}

/** The history file, null when missing; one that cannot be read is an error saying how to start over; warnings on stderr. */
async function readHistory(
  file: string,
  io: { err: (text: string) => void },
): Promise<import('../history/format.js').History | null> {
  const { readHistoryFile, startOverHint } = await import('../history/store.js');
  let history: import('../history/format.js').History | null;
  try {
    history = await readHistoryFile(file);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(`${error.message}. ${startOverHint(file)}`);
  }
  const { visible } = await import('../common/visible.js');
  for (const warning of history?.warnings ?? []) io.err(`warning: ${visible(warning)}\n`);
  return history;
}

async function loadHistory(
  file: string,
  io: { err: (text: string) => void },
): Promise<import('../history/format.js').History> {
  const history = await readHistory(file, io);
  if (history === null)
    throw new InputError(
      `${file} does not exist: 'ascend-memory-gate history append --history ${file} …' records the first point`,
    );
  return history;
}

async function show(
  args: string[],
  io: { out: (text: string) => void; err: (text: string) => void },
  tools: HistoryTools,
): Promise<number> {
  const { flags } = parseCommandArgs(args, SHOW);
  const file = required(flags.history, 'history', SHOW);
  const history = await loadHistory(file, io);
  const { loadGateConfig } = await import('../gate/thresholds.js');
  const config = await loadGateConfig(flags.config);
  const { trendsOf } = await import('../history/trends.js');
  const { renderHistoryTerminal } = await import('../report/history-terminal.js');
  const { buildHistoryView } = await import('../report/history-view.js');
  const key = flags.key;
  io.out(
    renderHistoryTerminal(buildHistoryView(history, trendsOf(history, config)), {
      width: tools.width(),
      ...(key !== undefined ? { key } : {}),
    }),
  );
  return 0;
}

async function html(args: string[], io: { out: (text: string) => void; err: (text: string) => void }): Promise<number> {
  const { flags } = parseCommandArgs(args, HTML);
  const file = required(flags.history, 'history', HTML);
  const out = required(flags.out, 'out', HTML);
  const history = await loadHistory(file, io);
  const { loadGateConfig } = await import('../gate/thresholds.js');
  const config = await loadGateConfig(flags.config);
  const { trendsOf } = await import('../history/trends.js');
  const { renderDashboard } = await import('../report/dashboard.js');
  const { buildHistoryView } = await import('../report/history-view.js');
  const title = flags.title;
  const page = renderDashboard(buildHistoryView(history, trendsOf(history, config)), {
    ...(title !== undefined ? { title } : {}),
  });
  try {
    await mkdir(path.dirname(path.resolve(out)), { recursive: true });
    await writeFile(out, page);
  } catch (error) {
    throw new UsageError(
      `history html: cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  io.out(`wrote ${out} (${Buffer.byteLength(page)} bytes): ${history.points.length} points\n`);
  return 0;
}

/** --git-branch and its remote and path; undefined without --git-branch. */
function gitBranchOf(
  flags: { gitBranch: string | undefined; gitRemote: string | undefined; gitPath: string | undefined },
  spec: CommandSpec,
): import('../hosts/git-branch.js').BranchFile | undefined {
  const { gitBranch: branch, gitRemote: remote, gitPath: file } = flags;
  if (branch === undefined) {
    if (remote !== undefined || file !== undefined)
      throw new CommandUsageError(`${spec.name}: --git-remote and --git-path go with --git-branch`, spec);
    return undefined;
  }
  // git's own rules, roughly: no option-like, control, space or ref-syntax characters, no '..'.
  if (
    !/^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/.test(branch) ||
    branch.includes('..') ||
    branch.endsWith('.lock') ||
    branch.endsWith('/')
  ) {
    throw new CommandUsageError(
      `${spec.name}: --git-branch must be a branch name such as memory-gate-history, got '${branch}'`,
      spec,
    );
  }
  if (remote !== undefined && !/^[A-Za-z0-9][\w.-]{0,99}$/.test(remote))
    throw new CommandUsageError(
      `${spec.name}: --git-remote must be a remote's name such as origin, got '${remote}'`,
      spec,
    );
  const at = file ?? 'default.history.jsonl';
  if (
    !/^[\w.-][\w./-]{0,254}$/.test(at) ||
    at.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    throw new CommandUsageError(`${spec.name}: --git-path must be a relative path on the branch, got '${at}'`, spec);
  }
  return { cwd: process.cwd(), remote: remote ?? 'origin', branch, path: at };
}

async function fetchHistory(
  args: string[],
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const { flags } = parseCommandArgs(args, FETCH);
  const file = required(flags.history, 'history', FETCH);
  const branch = gitBranchOf(flags, FETCH);
  if (branch === undefined) throw new CommandUsageError('history fetch: --git-branch NAME is required', FETCH);
  const { readBranchFile } = await import('../hosts/git-branch.js');
  const text = await readBranchFile(branch);
  if (text === null) {
    io.err(
      `note: ${branch.remote} has no ${branch.path} on branch ${branch.branch} yet: no history (the default branch's 'history append --git-branch ${branch.branch}' records it)\n`,
    );
    return 0;
  }
  const { parseHistory } = await import('../history/format.js');
  const history = parseHistory(text, `${branch.branch}:${branch.path}`);
  const { writeHistoryFile } = await import('../history/store.js');
  await writeHistoryFile(file, text);
  io.out(
    `fetched ${file} from ${branch.remote} ${branch.branch}: ${history.points.length} points (${Buffer.byteLength(text)} bytes)\n`,
  );
  return 0;
}

// The command line's commands: the same pipeline as the Action, from a terminal. Exit 0 pass, 1 gate failed, 2 usage or input error.
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import packageJson from '../../package.json' with { type: 'json' };
import {
  closest,
  CommandUsageError,
  commandHelp,
  HELP_WIDTH,
  helpLines,
  HelpRequested,
  wrapHelp,
  parseCommandArgs,
  stringList,
  type CommandSpec,
  type OptionSpec,
  type ParsedOptions,
} from './args.js';
import type { Collected } from '../parsers/collect.js';
import { failureText, fileSystemFailure, InputError, UsageError } from '../common/errors.js';
import { visible } from '../common/visible.js';
import { stringifyDocument } from '../model/document-json.js';
import { noSpecs, RUN_OPTIONS, SOURCES, type SpecsBySource } from '../parsers/evidence-sources.js';
import { addThisNode, collect, type NodeRequest, type RunLog } from '../run/collect.js';
import { HISTORY } from './history-command.js';
import type { OomFlags } from './oom-settings.js';
import type { Review } from './review.js';
import { ENVIRONMENT_OPTIONS, nodeFromFlags } from './environment-options.js';

const PROGRAM = 'ascend-memory-gate';

/** One multi-value flag per evidence source (src/parsers/evidence-sources.ts): --plog, --compare, … with its help line; then each source's own run options. */
const INPUT_OPTIONS: Record<string, OptionSpec> = {
  ...Object.fromEntries(
    SOURCES.map((s) => [s.option, { type: 'string', multiple: true, value: 'PATH', description: s.description }]),
  ),
  ...Object.fromEntries(
    RUN_OPTIONS.map((o) => [o.name, { type: 'string', value: o.value, description: o.description }]),
  ),
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
} satisfies CommandSpec;

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
      description:
        "on-change (the default WHEN) or always: post the verdict on the merge/pull request (host from the CI's environment, or --host); without it nothing is posted",
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
} satisfies CommandSpec;

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
} satisfies CommandSpec;

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
} satisfies CommandSpec;

/** Its flags are parsed by compare-dumps-command.ts; this spec gives it a usage line and --help like the others. */
const COMPARE_DUMPS: CommandSpec = {
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

const COMMAND_SPECS: readonly CommandSpec[] = [PARSE, CHECK, BASELINE, SNAPSHOT, COMPARE_DUMPS, HISTORY];

/** The program's usage, wrapped to the width (at most 80 columns). */
function usage(width: number): string {
  return [
    `${PROGRAM}: stop memory regressions in Ascend NPU jobs`,
    '',
    'Usage:',
    ...COMMAND_SPECS.map((c) => `  ${PROGRAM} ${c.name.padEnd(8)} ${c.usage}`),
    `  ${PROGRAM} <command> --help   every flag of a command`,
    `  ${PROGRAM} --version`,
    '',
    'INPUTS: one or more of these flags, each with files, directories or globs:',
    ...helpLines(
      SOURCES.map((s) => [`--${s.option} PATH...`, s.description]),
      width,
    ),
    '',
    'A folder is searched for (globs below the folder; each also compressed, as .gz or .zst):',
    ...helpLines(
      SOURCES.map((s) => [`--${s.option}`, s.searchHint ?? s.directoryPatterns.join(' ')]),
      width,
    ),
    '',
    "A path written !GLOB leaves out the files it matches, relative to the working folder: --plog logs '!logs/old/**'. A flag whose paths match no file is an error.",
    '',
    'Exit codes: 0 pass, 1 the gate failed, 2 usage or input error.',
  ]
    .flatMap((line) => (line.startsWith('  --') ? [line] : wrapHelp(line, '    ', width)))
    .join('\n');
}

/** Terminal columns: the TTY's width, else COLUMNS, else 80. */
function terminalWidth(
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number {
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) return stream.columns;
  const columns = Number(env.COLUMNS);
  return Number.isSafeInteger(columns) && columns > 0 ? columns : 80;
}

/** Colour on a TTY only; FORCE_COLOR (not 0) forces it, NO_COLOR (non-empty) turns it off. */
function useColor(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true;
}

/**
 * Where the CLI writes; width, colour and whether stdout is a terminal default to the real stdout's (tests pass their
 * own). `outBytes` writes bytes as they are (compare-dumps writes a dump's names back byte for byte).
 */
export type Output = {
  out: (text: string) => void;
  err: (text: string) => void;
  outBytes?: (bytes: Buffer) => void | Promise<void>;
  width?: () => number;
  color?: () => boolean;
  isTerminal?: () => boolean;
};

const stdio: Output = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  // A full pipe: the caller waits for it to drain instead of growing the stream's buffer.
  outBytes: (bytes) => (process.stdout.write(bytes) ? undefined : once(process.stdout, 'drain').then(() => undefined)),
  width: () => terminalWidth(),
  color: () => useColor(),
  isTerminal: () => process.stdout.isTTY === true,
};

/** Where the pipeline's messages go on a terminal: warnings and notes on stderr. */
function runLog(io: Output): RunLog {
  return { warn: (text) => io.err(`warning: ${text}\n`), note: (text) => io.err(`${text}\n`) };
}

/** Reads every source's inputs (--plog, --compare, …) of any command into a snapshot, warning about malformed records. */
async function collectFromOptions(
  opts: ParsedOptions,
  oomFlags: OomFlags,
  io: Output,
  node?: NodeRequest,
): Promise<Collected> {
  const specs: SpecsBySource = Object.fromEntries(SOURCES.map((s) => [s.name, stringList(opts, s.option)]));
  if (noSpecs(specs)) {
    throw new UsageError(`give at least one ${SOURCES.map((s) => `--${s.option}`).join(' or ')} path`);
  }
  // Loaded only when asked for: most runs never read a config before the gate.
  const oom =
    oomFlags.config === undefined && oomFlags.capacity === undefined
      ? undefined
      : await (await import('./oom-settings.js')).oomSettingsFromOptions(oomFlags);
  return collect(
    {
      specs,
      root: process.cwd(),
      sourceOptions: Object.fromEntries(
        RUN_OPTIONS.map((o) => {
          const value = opts[o.name];
          return [o.name, typeof value === 'string' ? value : undefined];
        }),
      ),
      settings: oom === undefined ? {} : { oom },
      skippedShown: 10,
      ...(node !== undefined ? { node } : {}),
    },
    runLog(io),
  );
}

/** Writes an output file, making its folder when missing; a failure names the file (Node's write errors carry no path: `write: cannot write it`). */
async function writeOutput(file: string, text: string): Promise<void> {
  try {
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await writeFile(file, text);
  } catch (error) {
    const failure = fileSystemFailure(error, file);
    throw failure === undefined ? error : new InputError(failure);
  }
}

async function emit(text: string, outFile: string | undefined, io: Output): Promise<void> {
  if (outFile) await writeOutput(outFile, text);
  else io.out(text);
}

async function parseCommand(args: string[], io: Output): Promise<number> {
  const { flags, all } = parseCommandArgs(args, PARSE);
  const { snapshot } = await collectFromOptions(all, flags, io);
  // The terminal renderers are loaded when used: a `parse --json` of a large input starts parsing that much sooner.
  const outFile = flags.out;
  // Fitted to the terminal's width; a file gets every column.
  const width = outFile === undefined ? (io.width ?? terminalWidth)() : undefined;
  const text = flags.json
    ? stringifyDocument(snapshot)
    : (await import('../report/snapshot-table.js')).renderSnapshotTable(snapshot, width);
  await emit(text, outFile, io);
  return 0;
}

async function checkCommand(args: string[], io: Output): Promise<number> {
  const { flags, all } = parseCommandArgs(args, CHECK);
  const baselinePath = flags.baseline;
  if (baselinePath === undefined) throw new CommandUsageError('check: --baseline FILE is required', CHECK);
  // The history is read first (a damaged one is a warning: the check goes on without it).
  const historyFile = flags.history;
  const history = historyFile === undefined ? null : await readHistory(historyFile, io);
  const junitFile = flags.junit;
  // Read before any work, so that a bad SOURCE_DATE_EPOCH stops the run before a report is written.
  const stamp = junitFile === undefined ? undefined : (await import('../sources/node-environment.js')).runStamp();
  const comment = flags.comment;
  if (comment !== undefined && comment !== 'on-change' && comment !== 'always')
    throw new CommandUsageError(`check: --comment takes on-change or always, not '${comment}'`, CHECK);
  // Before the (long) parse: which change request this is, and the limits that gate it (its base commit's).
  const review = await (
    await import('./review.js')
  ).prepareReview(
    {
      comment: comment !== undefined,
      host: flags.host,
      repo: flags.repo,
      pr: flags.pr,
      baseSha: flags.baseSha,
    },
    { baseline: baselinePath, config: flags.config },
    (line) => io.err(`${line}\n`),
  );
  const collected = await collectFromOptions(all, flags, io, nodeFromFlags(flags));
  const { snapshot } = collected;
  // This command never writes the history: the trends are of the history as read.
  const checked = await (
    await import('../run/check.js')
  ).check({
    collected,
    history,
    baseline: baselinePath,
    config: flags.config,
    maxIncrease: flags.maxIncrease,
    ...(review?.limits !== undefined ? { limits: review.limits } : {}),
  });
  const { report, config } = checked;
  const trends = await checked.trends(history, false);
  if (checked.folded !== null) io.err(`note: ${visible(checked.folded)}\n`);
  const preface = review === null ? undefined : await limitsPreface(review);
  // The one view of this check, and the report files asked for: the terminal and the comment format the view too.
  const { view } = await (
    await import('../run/render.js')
  ).render({
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
  const { renderTerminal } = await import('../report/terminal.js');
  io.out(
    renderTerminal(view, {
      color: (io.color ?? useColor)(),
      width: (io.width ?? terminalWidth)(),
      all: flags.all,
      baselineFile: baselinePath,
      baselineUpdateLabel: config.baselineUpdateLabel,
    }),
  );
  if (review !== null && comment !== undefined) {
    await (
      await import('./review.js')
    ).postReview(review, report, comment, { view, ...(preface !== undefined ? { preface } : {}) }, (line) =>
      io.err(`${line}\n`),
    );
  }
  return report.result === 'fail' ? 1 : 0;
}

/** Which limits gated this change request, shown first in its reports; none when they are the files as given. */
async function limitsPreface(review: Review): Promise<string | undefined> {
  if (review.limits === undefined) return undefined;
  return (await import('../report/limits-changed.js')).renderLimitsChanged(
    review.limits.used,
    review.target.host === 'gitlab'
      ? { short: 'MR', long: 'merge request', labelPermission: 'the `api` scope' }
      : undefined,
  );
}

/**
 * `check --history FILE`: the file as it is (never written); a missing one is no history yet, said on stderr. A file
 * that cannot be read is a warning that says how to start over, and the check goes on without it, as the Action's does.
 */
async function readHistory(file: string, io: Output): Promise<import('../history/format.js').History | null> {
  const { readHistoryFile, startOverHint } = await import('../history/store.js');
  let history: import('../history/format.js').History | null;
  try {
    history = await readHistoryFile(file);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.err(
      `warning: history not read, so the check has no trends and no noise band: ${visible(error.message)}. ${startOverHint(file)}\n`,
    );
    return null;
  }
  if (history === null)
    io.err(
      `note: ${file} does not exist yet: no trends ('ascend-memory-gate history append' records the default branch's runs in it)\n`,
    );
  for (const warning of history?.warnings ?? []) io.err(`warning: ${visible(warning)}\n`);
  return history;
}

async function baselineCommand(args: string[], io: Output): Promise<number> {
  const { flags, all } = parseCommandArgs(args, BASELINE);
  const { out } = flags;
  if (out === undefined) throw new CommandUsageError('baseline: --out FILE is required', BASELINE);
  // An empty run fails here, before the file is touched.
  const { snapshot } = await collectFromOptions(all, {}, io);
  const { foldedSitesNotice, loadBaseline, mergeBaseline, writeBaselineAtomic } = await import('../gate/baseline.js');
  const { renderBaselineChangesTerminal } = await import('../report/baseline-changes.js');
  const existing = await loadBaseline(out);
  const folded = foldedSitesNotice(existing, out);
  if (folded !== null) io.err(`note: ${visible(folded)}\n`);
  // The node is added after the notice, as before: its notes follow it on stderr.
  const { baseline, changes } = mergeBaseline(existing, await addThisNode(snapshot, nodeFromFlags(flags), runLog(io)), {
    prune: flags.prune,
    source: { date: new Date().toISOString() },
  });
  await writeBaselineAtomic(out, baseline);
  // A short summary: the Markdown table of every key is the baseline pull request's body, not a terminal's.
  io.out(renderBaselineChangesTerminal(out, existing, baseline, changes, (io.width ?? terminalWidth)()));
  return 0;
}

/** A node's evidence reduced to one small, versioned, schema-checked file for the gate job to merge. */
async function snapshotCommand(args: string[], io: Output): Promise<number> {
  const { flags, all } = parseCommandArgs(args, SNAPSHOT);
  const { out } = flags;
  if (out === undefined)
    throw new CommandUsageError('snapshot: --out FILE is required (e.g. node-3.memory-snapshot.json)', SNAPSHOT);
  const { snapshot } = await collectFromOptions(all, {}, io, nodeFromFlags(flags));
  const written = await (await import('../run/snapshot.js')).writeNodeSnapshot({ snapshot, out: { file: out } });
  io.out(
    `wrote ${out} (${written.bytes} bytes): node ${written.node}, ${written.devices} device(s), ` +
      `${written.files} file(s), ${written.records} record(s), ${written.skipped} skipped\n`,
  );
  return 0;
}

const COMMANDS: Record<string, (args: string[], io: Output) => Promise<number>> = {
  snapshot: snapshotCommand,
  parse: parseCommand,
  check: checkCommand,
  baseline: baselineCommand,
  history: async (args, io) =>
    (await import('./history-command.js')).historyCommand(args, io, {
      inputOptions: INPUT_OPTIONS,
      collect: async (all, flags) => (await collectFromOptions(all, {}, io, nodeFromFlags(flags))).snapshot,
      width: () => (io.width ?? terminalWidth)(),
    }),
  'compare-dumps': async (args, io) => {
    if (args.includes('--help') || args.includes('-h')) throw new HelpRequested(COMPARE_DUMPS);
    return (await import('./compare-dumps.js')).compareDumpsCommand(args, io);
  },
};

export async function runCli(argvWithFlags: string[], io: Output = stdio): Promise<number> {
  // --debug, anywhere: a failure prints its stack after the one-line message.
  const debug = argvWithFlags.includes('--debug');
  const argv = argvWithFlags.filter((a) => a !== '--debug');
  const [command, ...rest] = argv;
  const helpWidth = Math.min(HELP_WIDTH, (io.width ?? terminalWidth)());
  const USAGE = usage(helpWidth);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const spec = command === 'help' ? COMMAND_SPECS.find((c) => c.name === rest[0]) : undefined;
    if (command === undefined) io.err(`${USAGE}\n`);
    else io.out(spec === undefined ? `${USAGE}\n` : commandHelp(PROGRAM, spec, helpWidth));
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-V') {
    io.out(`${PROGRAM} ${packageJson.version}\n`);
    return 0;
  }
  const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (handler === undefined) {
    const guess = closest(command.replace(/^-+/, ''), [...Object.keys(COMMANDS), 'version', 'help']);
    const hint =
      guess === null ? '' : `: did you mean '${guess === 'version' || guess === 'help' ? `--${guess}` : guess}'?`;
    io.err(`error: unknown command '${command}'${hint}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    return await handler(rest, io);
  } catch (error) {
    if (error instanceof HelpRequested) {
      io.out(commandHelp(PROGRAM, error.command, helpWidth));
      return 0;
    }
    if (error instanceof CommandUsageError) {
      io.err(
        `error: ${error.message}\nusage: ${PROGRAM} ${error.command.name} ${error.command.usage}\n(${PROGRAM} ${error.command.name} --help lists every flag)\n`,
      );
      return 2;
    }
    io.err(`error: ${failureText(error, debug)}\n`);
    return 2;
  }
}

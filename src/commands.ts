// The command line's commands: the same pipeline as the Action, from a terminal. Exit 0 pass, 1 gate failed, 2 usage or input error.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { optionalString, parseCommandArgs, stringList, type OptionSpec, type ParsedOptions } from './cli-args.js';
import { collectSnapshot, type Collected } from './parsers/collect.js';
import { failureText, UsageError, visible } from './errors.js';
import { renderSnapshotTable, renderTerminal } from './report/terminal.js';
import { stableStringify, type Snapshot } from './snapshot.js';
import { noSpecs, SOURCES, type SpecsBySource } from './parsers/sources.js';
import { describeSearches, resolveAllInputs } from './sources/local.js';

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
Exit codes: 0 pass, 1 the gate failed, 2 usage or input error. --debug prints the stack of a failure.`;

export type Output = { out: (text: string) => void; err: (text: string) => void };

const stdio: Output = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** One multi-value flag per evidence source (src/parsers/sources.ts): --plog, --compare, … */
const INPUT_OPTIONS: Record<string, OptionSpec> = Object.fromEntries(SOURCES.map((s) => [s.option, { type: 'string', multiple: true }]));

const ENVIRONMENT_OPTIONS = {
  'node-environment': { type: 'boolean' },
  env: { type: 'string', multiple: true },
} as const;

/** This machine as a node of the snapshot, with --env items and (with --node-environment, or `always`) what it finds. */
async function withNodeFromOptions(snapshot: Snapshot, opts: ParsedOptions, io: Output, always = false): Promise<Snapshot> {
  const { parseEnvironmentPairs, withThisNode } = await import('./environment.js');
  const extra = parseEnvironmentPairs(stringList(opts, 'env'), '--env');
  const node = optionalString(opts, 'node');
  return withThisNode(snapshot, { env: process.env, extra, collect: always || opts['node-environment'] === true, ...(node ? { node } : {}) }, (line) =>
    io.err(`${line}\n`),
  );
}

/** Reads every source's inputs (--plog, --compare, …) of any command into a snapshot, warning about malformed records. */
export async function collectFromOptions(opts: ParsedOptions, io: Output): Promise<Collected> {
  const specs: SpecsBySource = Object.fromEntries(SOURCES.map((s) => [s.name, stringList(opts, s.option)]));
  if (noSpecs(specs)) {
    throw new UsageError(`give at least one ${SOURCES.map((s) => `--${s.option}`).join(' or ')} path`);
  }
  const files = await resolveAllInputs(specs);
  const collected = await collectSnapshot({ files, searched: describeSearches(specs) });
  warnSkipped(collected, io);
  return collected;
}

function warnSkipped(collected: Collected, io: Output): void {
  const { skipped } = collected.snapshot.meta;
  if (skipped === 0) return;
  const shown = collected.skippedRecords.slice(0, 10);
  for (const r of shown) io.err(`warning: ${visible(`${r.file}:${r.line}: ${r.reason}`)} (skipped)\n`);
  if (skipped > shown.length) io.err(`warning: ${skipped - shown.length} more malformed record(s) skipped\n`);
}

async function emit(text: string, outFile: string | undefined, io: Output): Promise<void> {
  if (outFile) await writeFile(outFile, text);
  else io.out(text);
}

async function parseCommand(args: string[], io: Output): Promise<number> {
  const opts = parseCommandArgs(args, { ...INPUT_OPTIONS, json: { type: 'boolean' }, out: { type: 'string' } }, 'parse');
  const { snapshot } = await collectFromOptions(opts, io);
  const text = opts.json ? stableStringify(snapshot) : renderSnapshotTable(snapshot);
  await emit(text, optionalString(opts, 'out'), io);
  return 0;
}

async function checkCommand(args: string[], io: Output): Promise<number> {
  const opts = parseCommandArgs(
    args,
    {
      ...INPUT_OPTIONS,
      baseline: { type: 'string' },
      config: { type: 'string' },
      'max-increase': { type: 'string' },
      report: { type: 'string' },
      markdown: { type: 'string' },
      html: { type: 'string' },
      ...ENVIRONMENT_OPTIONS,
    },
    'check',
  );
  const baselinePath = optionalString(opts, 'baseline');
  if (baselinePath === undefined) throw new UsageError('check: --baseline FILE is required');
  const { snapshot } = await collectFromOptions(opts, io);
  const { runGate } = await import('./gate/run-gate.js');
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
  if (reportFile) await writeFile(reportFile, (await import('./report/json.js')).renderJsonReport(report));
  if (markdownFile) await writeFile(markdownFile, (await import('./report/markdown.js')).renderMarkdown(report));
  if (htmlFile) await writeFile(htmlFile, (await import('./report/html.js')).renderHtml(report));
  io.out(renderTerminal(report, { color: process.stdout.isTTY === true && !process.env.NO_COLOR }));
  return report.result === 'fail' ? 1 : 0;
}

async function baselineCommand(args: string[], io: Output): Promise<number> {
  const opts = parseCommandArgs(args, { ...INPUT_OPTIONS, ...ENVIRONMENT_OPTIONS, out: { type: 'string' }, prune: { type: 'boolean' } }, 'baseline');
  const out = optionalString(opts, 'out');
  if (out === undefined) throw new UsageError('baseline: --out FILE is required');
  // An empty run fails here, before the file is touched.
  const { snapshot } = await collectFromOptions(opts, io);
  const { loadBaseline, mergeBaseline, writeBaselineAtomic } = await import('./gate/baseline.js');
  const { renderBaselineChanges, summarizeBaselineChanges } = await import('./report/baseline-changes.js');
  const existing = await loadBaseline(out);
  const { baseline, changes } = mergeBaseline(existing, await withNodeFromOptions(snapshot, opts, io), { prune: opts.prune === true, source: { date: new Date().toISOString() } });
  await writeBaselineAtomic(out, baseline);
  io.out(renderBaselineChanges(existing, baseline, changes));
  io.out(`\nwrote ${out}: ${summarizeBaselineChanges(changes)}\n`);
  return 0;
}

/** A node's evidence reduced to one small, versioned, schema-checked file for the gate job to merge. */
async function snapshotCommand(args: string[], io: Output): Promise<number> {
  const opts = parseCommandArgs(args, { ...INPUT_OPTIONS, env: ENVIRONMENT_OPTIONS.env, node: { type: 'string' }, out: { type: 'string' } }, 'snapshot');
  const out = optionalString(opts, 'out');
  if (out === undefined) throw new UsageError('snapshot: --out FILE is required (e.g. node-3.memory-snapshot.json)');
  const { snapshot } = await collectFromOptions(opts, io);
  const { serializeSnapshotFile } = await import('./parsers/snapshot-file.js');
  const node = await withNodeFromOptions(snapshot, opts, io, true);
  const text = serializeSnapshotFile(node);
  try {
    await mkdir(path.dirname(path.resolve(out)), { recursive: true });
    await writeFile(out, text);
  } catch (error) {
    throw new UsageError(`snapshot: cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const [name, provenance] = Object.entries(node.meta.nodes ?? {})[0] ?? ['?', undefined];
  io.out(
    `wrote ${out} (${Buffer.byteLength(text)} bytes): node ${name}, ${provenance?.devices.length ?? 0} device(s), ` +
      `${node.meta.files} file(s), ${node.meta.records} record(s), ${node.meta.skipped} skipped\n`,
  );
  return 0;
}

const COMMANDS: Record<string, (args: string[], io: Output) => Promise<number>> = {
  snapshot: snapshotCommand,
  parse: parseCommand,
  check: checkCommand,
  baseline: baselineCommand,
};

export async function runCli(argvWithFlags: string[], io: Output = stdio): Promise<number> {
  // --debug, anywhere: a failure prints its stack after the one-line message.
  const debug = argvWithFlags.includes('--debug');
  const argv = argvWithFlags.filter((a) => a !== '--debug');
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
  } catch (error) {
    io.err(`error: ${failureText(error, debug)}\n`);
    return 2;
  }
}


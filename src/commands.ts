// The command line's commands: the same pipeline as the Action, from a terminal. Exit 0 pass, 1 gate failed, 2 usage or input error.
import { writeFile } from 'node:fs/promises';
import { optionalString, parseCommandArgs, stringList, type OptionSpec, type ParsedOptions } from './cli-args.js';
import { collectSnapshot, type Collected } from './parsers/collect.js';
import { failureText, UsageError, visible } from './errors.js';
import { renderSnapshotTable, renderTerminal } from './report/terminal.js';
import { stableStringify } from './snapshot.js';
import { noSpecs, SOURCES, type SpecsBySource } from './parsers/sources.js';
import { describeSearches, resolveAllInputs } from './sources/local.js';

const USAGE = `ascend-memory-gate: stop memory regressions in Ascend NPU jobs

Usage:
  ascend-memory-gate parse    [--plog PATH...] [--compare PATH...] [--json] [--out FILE]
  ascend-memory-gate check    --baseline FILE [--config FILE] [--max-increase SPEC]
                              [--plog PATH...] [--compare PATH...] [--report FILE.json] [--markdown FILE.md]
                              [--html FILE.html]
  ascend-memory-gate baseline --out FILE [--plog PATH...] [--compare PATH...] [--prune]

PATH is a file, a directory (searched for *.log, memory_compare_*.csv, stepintercompare_*.csv) or a glob.
Exit codes: 0 pass, 1 the gate failed, 2 usage or input error. --debug prints the stack of a failure.`;

export type Output = { out: (text: string) => void; err: (text: string) => void };

const stdio: Output = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** One multi-value flag per evidence source (src/parsers/sources.ts): --plog, --compare, … */
const INPUT_OPTIONS: Record<string, OptionSpec> = Object.fromEntries(SOURCES.map((s) => [s.option, { type: 'string', multiple: true }]));

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
    },
    'check',
  );
  const baselinePath = optionalString(opts, 'baseline');
  if (baselinePath === undefined) throw new UsageError('check: --baseline FILE is required');
  const { snapshot } = await collectFromOptions(opts, io);
  const { runGate } = await import('./gate/run-gate.js');
  const { report } = await runGate({
    snapshot,
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
  const opts = parseCommandArgs(args, { ...INPUT_OPTIONS, out: { type: 'string' }, prune: { type: 'boolean' } }, 'baseline');
  const out = optionalString(opts, 'out');
  if (out === undefined) throw new UsageError('baseline: --out FILE is required');
  // An empty run fails here, before the file is touched.
  const { snapshot } = await collectFromOptions(opts, io);
  const { loadBaseline, mergeBaseline, writeBaselineAtomic } = await import('./gate/baseline.js');
  const { renderBaselineChanges, summarizeBaselineChanges } = await import('./report/baseline-changes.js');
  const existing = await loadBaseline(out);
  const { baseline, changes } = mergeBaseline(existing, snapshot, { prune: opts.prune === true, source: { date: new Date().toISOString() } });
  await writeBaselineAtomic(out, baseline);
  io.out(renderBaselineChanges(existing, baseline, changes));
  io.out(`\nwrote ${out}: ${summarizeBaselineChanges(changes)}\n`);
  return 0;
}

const COMMANDS: Record<string, (args: string[], io: Output) => Promise<number>> = {
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


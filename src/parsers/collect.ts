// Reads every input file through its parser into one snapshot: the middle of the pipeline shared by CLI and Action.
//
// Large inputs (two or more files, PARALLEL_MIN_BYTES or more together) are parsed on two threads: this one and a worker
// thread (parse-worker.ts), whole files at a time, each file into its own builder; the results are merged here in the
// sequential file order, so the snapshot, its tie-breaks ("on a tie the later record wins"), the skipped-record sample
// and the first error are exactly those of the single-threaded path. Small inputs stay in this thread.
import { InputError } from '../common/errors.js';
import type { ParseTask } from './parse-protocol.js';
import { parseInputFile, parserOf, SOURCES, type EvidenceSource, type RunSettings } from './evidence-sources.js';
import { isEmptySnapshot, SnapshotBuilder, type SkippedRecord, type Snapshot } from '../model/snapshot.js';
import { fileKeyOrder } from '../model/key-order.js';
import type { InputFile } from '../sources/types.js';
import {
  defaultWorkerUrl,
  PARALLEL_MIN_BYTES,
  stopEarlyWorkers,
  threadCount as defaultThreadCount,
} from './worker-start.js';
import { parseInWorkers } from './workers/parallel.js';
import { unreadableScript } from './workers/pool.js';
import { ParseSchedule, parallelSizes } from './workers/schedule.js';

export interface CollectInputs {
  /** The files of each evidence source (src/parsers/evidence-sources.ts), by source name. */
  files: Readonly<Record<string, readonly InputFile[]>>;
  /** What was searched, for the message when nothing is found: paths and the sources they were given for. */
  searched?: string;
  /** Where the user reads what a folder is searched for (default: the CLI's --help). */
  searchHelp?: string;
  /** What the run says beyond its files (sources' `finish` read it). */
  run?: RunSettings;
}

export interface Collected {
  snapshot: Snapshot;
  /** A bounded sample of malformed records, for warnings. */
  skippedRecords: SkippedRecord[];
  /** What the readers worked around without skipping anything (addNote), for warnings. */
  notes: SkippedRecord[];
}

export interface CollectOptions {
  /**
   * Worker threads to parse with; 0 or 1 parses in this thread. Default: the environment variable
   * ASCEND_MEMORY_GATE_THREADS when set, else min(2, os.availableParallelism()).
   */
  threads?: number;
  /** Inputs smaller than this many bytes (all files together) are parsed in this thread. */
  minParallelBytes?: number;
  /** The worker script; default: parse-worker.js next to this module (in dist/, rollup points it at the bundled worker). */
  workerUrl?: URL;
  /** Node options for the workers (tests pass a TypeScript loader). */
  workerExecArgv?: string[];
  /** With workers, this thread parses too (default); false leaves every file to the workers (tests of their failures). */
  parseInThisThread?: boolean;
}

export { PARALLEL_MIN_BYTES } from './worker-start.js';

/**
 * An order-free source's files in natural order of their paths, every other source's in the order given. For 4,096
 * node snapshots, their keys then arrive in the order build() sorts them to: one pass over one run, not a merge of
 * 4,096 runs.
 */
function inParseOrder(source: EvidenceSource, files: readonly InputFile[]): readonly InputFile[] {
  return source.orderFree === true ? [...files].sort((a, b) => fileKeyOrder(a.path, b.path)) : files;
}

/** Parses every file in order (sorted paths, so ties resolve the same way every run) into one snapshot. */
export async function collectSnapshot(inputs: CollectInputs, options: CollectOptions = {}): Promise<Collected> {
  const tasks: ParseTask[] = SOURCES.flatMap((source) =>
    inParseOrder(source, inputs.files[source.name] ?? []).map((file) => ({ kind: source.name, file })),
  ).map((t, index) => ({ ...t, index }));
  let builder: SnapshotBuilder | null;
  try {
    builder = await parseInParallel(tasks, options);
  } finally {
    // Workers the command line started early (worker-start.ts) and this run did not take.
    stopEarlyWorkers();
  }
  builder ??= await parseHere(tasks);
  for (const source of SOURCES) {
    if ((inputs.files[source.name] ?? []).length === 0) continue;
    const parser = await parserOf(source.name);
    if (parser.combine) await parser.combine(inputs.files, builder);
  }
  let snapshot = builder.build();
  for (const source of SOURCES) {
    if ((inputs.files[source.name] ?? []).length === 0) continue;
    const parser = await parserOf(source.name);
    if (parser.finish) snapshot = parser.finish(snapshot, inputs.run ?? {});
  }
  if (isEmptySnapshot(snapshot)) throw new InputError(noDataMessage(inputs, snapshot, builder.skippedRecords));
  return { snapshot, skippedRecords: builder.skippedRecords, notes: builder.notes };
}

function threadCount(options: CollectOptions): number {
  return defaultThreadCount(options.threads);
}

/**
 * Parses on several threads when the inputs are worth it, else null (this thread then parses them). A worker script
 * that cannot be read is found before any thread starts: one warning, every time, and this thread parses everything.
 */
async function parseInParallel(tasks: readonly ParseTask[], options: CollectOptions): Promise<SnapshotBuilder | null> {
  const threads = Math.min(threadCount(options), tasks.length);
  const sizes = await parallelSizes(tasks, threads, options.minParallelBytes ?? PARALLEL_MIN_BYTES);
  if (sizes === null) return null;
  const workerUrl = options.workerUrl ?? defaultWorkerUrl();
  const unreadable = await unreadableScript(workerUrl);
  if (unreadable !== null) {
    process.emitWarning(
      `the parse worker script ${unreadable}; parsing in this thread only (a reinstall restores it)`,
      {
        code: 'ASCEND_MEMORY_GATE_WORKER',
      },
    );
    return null;
  }
  return parseInWorkers(new ParseSchedule(tasks, sizes), tasks.length, threads, parseTask, {
    workerUrl,
    ...(options.workerExecArgv === undefined ? {} : { workerExecArgv: options.workerExecArgv }),
    adoptEarly: options.workerUrl === undefined && options.workerExecArgv === undefined,
    parseInThisThread: options.parseInThisThread !== false,
  });
}

async function parseHere(tasks: readonly ParseTask[]): Promise<SnapshotBuilder> {
  const builder = new SnapshotBuilder();
  for (const task of tasks) await parseTask(task, builder);
  return builder;
}

async function parseTask(task: ParseTask, builder: SnapshotBuilder): Promise<void> {
  // Each source's parser is loaded on first use: a plog-only run (the Action's usual case) never loads csv-parse.
  await parseInputFile(task.kind, task.file, builder);
}

/** A reason from a file, clipped so that the message stays one readable line. */
function clipped(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}

/**
 * Why a run has no figures, in one line under 300 characters: no file found (what was searched; the globs are in
 * --help), or files that held none, with advice for the sources that were given (a dump-only run gets none about plog).
 */
function noDataMessage(inputs: CollectInputs, snapshot: Snapshot, skippedRecords: readonly SkippedRecord[]): string {
  const given = SOURCES.filter((source) => (inputs.files[source.name]?.length ?? 0) > 0);
  if (given.length === 0) {
    const where = inputs.searched ? ` in ${inputs.searched}` : '';
    return `no input files found${where}: ${inputs.searchHelp ?? "'ascend-memory-gate --help' lists what a folder is searched for"}`;
  }
  const counts = given
    .map((source) => `${inputs.files[source.name]?.length ?? 0} ${source.label} file(s)`)
    .join(' and ');
  // The first skipped record says why, e.g. a profiler CSV a spreadsheet damaged: nothing else reaches the user on this path.
  const first = skippedRecords[0];
  const why =
    first === undefined ? '' : `, the first at ${clipped(`${first.file}:${first.line}: ${first.reason}`, 190)}`;
  const skipped = snapshot.meta.skipped > 0 ? `; ${snapshot.meta.skipped} record(s) were malformed${why}` : '';
  const what = given.every((source) => source.name === 'plog') ? 'memory statistics' : 'memory figures';
  // Malformed records say why themselves; otherwise, what to check for the one kind of file given.
  const advice = skipped === '' && given.length === 1 ? `: ${(given[0] as EvidenceSource).noFigures}` : '';
  return `no ${what} found in ${counts}${skipped}${advice}`;
}

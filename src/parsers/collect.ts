// Reads every input file through its parser into one snapshot: the middle of the pipeline shared by CLI and Action.
//
// Large inputs (two or more files, PARALLEL_MIN_BYTES or more together) are parsed on two threads: this one and a worker
// thread (parse-worker.ts), whole files at a time, each file into its own builder; the results are merged here in the
// sequential file order, so the snapshot, its tie-breaks ("on a tie the later record wins"), the skipped-record sample
// and the first error are exactly those of the single-threaded path. Small inputs stay in this thread.
import { stat } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { InputError } from '../common/errors.js';
import { deserializeError, type ParseTask, type WorkerMessage } from './parse-protocol.js';
import { parseInputFile, parserOf, SOURCES, type EvidenceSource, type RunSettings } from './evidence-sources.js';
import {
  isEmptySnapshot,
  SnapshotBuilder,
  type BuilderState,
  type SkippedRecord,
  type Snapshot,
} from '../model/snapshot.js';
import { fileKeyOrder } from '../model/key-order.js';
import type { InputFile } from '../sources/types.js';
import {
  defaultWorkerUrl,
  PARALLEL_MIN_BYTES,
  startWorker,
  stopEarlyWorkers,
  takeEarlyWorkers,
  threadCount as defaultThreadCount,
  type EarlyWorker,
} from './worker-start.js';

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

/** Files at least this large are parsed largest first; smaller ones in file order. */
const BALANCE_MIN_BYTES = 1024 * 1024;

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
  const threads = Math.min(threadCount(options), tasks.length);
  let builder: SnapshotBuilder | null = null;
  try {
    if (threads >= 2 && (await reachesSize(tasks, options.minParallelBytes ?? PARALLEL_MIN_BYTES))) {
      const sizes: number[] = [];
      // One at a time: 100,000 stat calls at once held hundreds of MiB.
      for (const task of tasks) sizes.push(await fileSize(task.file));
      builder = await parseInWorkers(tasks, sizes, threads, options);
    }
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

/** Whether the files together hold at least `bytes`: sizes are read one at a time, and counting stops there. */
async function reachesSize(tasks: readonly ParseTask[], bytes: number): Promise<boolean> {
  let total = 0;
  for (const task of tasks) {
    total += await fileSize(task.file);
    if (total >= bytes) return true;
  }
  return false;
}

/**
 * The size used to decide and to balance: the one the file search saw, else a stat; a file that cannot be stat'ed
 * fails later, in its parser, as it would in-thread.
 */
async function fileSize(file: InputFile): Promise<number> {
  if (file.size !== undefined) return file.size;
  return stat(file.path).then(
    (s) => s.size,
    () => 0,
  );
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

type Outcome = { ok: true; state: BuilderState } | { ok: false; error: Error };

interface PoolWorker {
  worker: Worker;
  /** It has loaded its modules and takes tasks. */
  ready: boolean;
  /** It failed or exited; it takes no more tasks. */
  dead: boolean;
  /** The tasks sent to it and not answered yet, in the order it parses them. */
  tasks: ParseTask[];
}

/**
 * Tasks a worker holds at once: the one it parses and the next. This thread hands out tasks only between its own
 * chunks of work (every few MiB), so a worker that had to wait for its next task would idle about half the time.
 */
const WORKER_QUEUE = 2;

/**
 * Parses the files on this thread and `threads - 1` worker threads, largest file first (so the last to finish is a
 * small one), each file into its own builder, and merges the per-file results in file order. This thread starts at
 * once and workers join when they have started (~50 ms), so a worker never makes a run slower than the sequential one
 * by more than its start-up on another core. As in the sequential path, the first failing file in file order decides
 * the error, and files after a known failure are not started. A worker that dies while parsing a file fails the run,
 * naming the file; one that cannot start only leaves its share to the others, with a process warning.
 */
async function parseInWorkers(
  tasks: readonly ParseTask[],
  sizes: readonly number[],
  threads: number,
  options: CollectOptions,
): Promise<SnapshotBuilder> {
  /** Per file, in file order; 'merged' once folded into `merged`. */
  const outcomes: (Outcome | 'merged' | undefined)[] = new Array<Outcome | 'merged' | undefined>(tasks.length);
  const merged = new SnapshotBuilder();
  let mergedUpTo = 0;
  // Large files first, largest first (the last to finish is then a small one); small files in file order, so that
  // their results are folded in as they come instead of all being held to the end.
  const weight = (i: number): number => ((sizes[i] as number) >= BALANCE_MIN_BYTES ? (sizes[i] as number) : 0);
  const order = tasks.map((t) => t.index).sort((a, b) => weight(b) - weight(a) || a - b);
  let next = 0;
  /** Index of the first file (in file order) known to have failed. */
  let firstFailure = Infinity;
  /** Set when the run fails as a whole (a worker died mid-file): nothing more is started. */
  let fatal: Error | null = null;
  const url = options.workerUrl ?? defaultWorkerUrl();
  const pool: PoolWorker[] = [];

  const take = (): ParseTask | null => {
    while (next < order.length && (order[next] as number) > firstFailure) next++;
    return fatal === null && next < order.length ? (tasks[order[next++] as number] as ParseTask) : null;
  };
  const record = (index: number, outcome: Outcome): void => {
    outcomes[index] = outcome;
    if (!outcome.ok) firstFailure = Math.min(firstFailure, index);
    // Fold the finished prefix in now, in file order: holding 100,000 small files' results to the end cost ~300 MiB.
    for (let o = outcomes[mergedUpTo]; o !== undefined && o !== 'merged' && o.ok; o = outcomes[mergedUpTo]) {
      merged.merge(o.state);
      outcomes[mergedUpTo++] = 'merged';
    }
  };

  let localRunning = false;
  let wake: () => void = () => {};
  const allDone = new Promise<void>((resolve) => {
    wake = () => {
      const busy = localRunning || pool.some((p) => p.tasks.length > 0);
      const more =
        fatal === null &&
        next < order.length &&
        (firstFailure === Infinity || order.slice(next).some((i) => i < firstFailure));
      if (!busy && (!more || (pool.every((p) => p.dead) && !runLocal()))) resolve();
    };
  });
  /** This thread parses until no task is left; returns false if it was already doing so. */
  const runLocal = (): boolean => {
    if (localRunning) return false;
    localRunning = true;
    void (async () => {
      for (let task = take(); task !== null; task = take()) {
        const builder = new SnapshotBuilder();
        try {
          await parseTask(task, builder);
          record(task.index, { ok: true, state: builder.toState() });
        } catch (error) {
          record(task.index, { ok: false, error: error instanceof Error ? error : new Error(String(error)) });
        }
        // A turn for the workers' messages (ready, results) between files, so that they get tasks while this thread
        // still has some to give: awaiting a parse that needed no I/O wait only yields to microtasks.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      localRunning = false;
      wake();
    })();
    return true;
  };
  const dispatch = (p: PoolWorker): void => {
    while (!p.dead && p.ready && p.tasks.length < WORKER_QUEUE) {
      const task = take();
      if (task === null) break;
      p.tasks.push(task);
      p.worker.postMessage(task);
    }
    wake();
  };
  const died = (p: PoolWorker, why: string): void => {
    if (p.dead) return;
    p.dead = true;
    const task = p.tasks[0];
    if (task !== undefined) {
      fatal ??= new Error(`a parse worker thread ${why} while reading ${task.file.name}`);
      p.tasks = [];
    } else {
      const what = p.ready ? 'stopped' : 'could not start';
      process.emitWarning(`a parse worker thread ${what} (${why}); parsing with fewer threads`, {
        code: 'ASCEND_MEMORY_GATE_WORKER',
      });
    }
    wake();
  };

  // Default workers the command line already started (worker-start.ts), possibly ready by now.
  const early: EarlyWorker[] =
    options.workerUrl === undefined && options.workerExecArgv === undefined ? takeEarlyWorkers() : [];
  for (let i = 0; i < threads - 1; i++) {
    const adopted = early.shift();
    const worker = adopted?.worker ?? startWorker(url, options.workerExecArgv ?? []);
    worker.ref();
    const p: PoolWorker = { worker, ready: adopted?.ready ?? false, dead: false, tasks: [] };
    pool.push(p);
    worker.on('message', (message: WorkerMessage) => {
      if ('ready' in message) {
        p.ready = true;
      } else {
        record(
          message.index,
          message.ok ? { ok: true, state: message.state } : { ok: false, error: deserializeError(message.error) },
        );
        p.tasks = p.tasks.filter((t) => t.index !== message.index);
      }
      dispatch(p);
    });
    worker.on('error', (error) => died(p, `failed: ${error instanceof Error ? error.message : String(error)}`));
    worker.on('messageerror', (error) => died(p, `sent an unreadable message: ${error.message}`));
    worker.on('exit', (code) => died(p, `exited unexpectedly (exit code ${code})`));
    if (adopted?.failure != null) died(p, adopted.failure);
    else if (p.ready) dispatch(p);
  }
  for (const unused of early) void unused.worker.terminate();
  if (options.parseInThisThread !== false) runLocal();
  wake();
  await allDone;
  // Every worker is idle (or still starting): stop them without waiting, since a worker that is still starting would
  // make this wait for its start-up; unref() lets the process exit meanwhile.
  for (const p of pool) {
    p.dead = true;
    p.worker.unref();
    void p.worker.terminate();
  }
  if (fatal !== null) throw fatal;

  for (let i = mergedUpTo; i < outcomes.length; i++) {
    const outcome = outcomes[i];
    // Every file before the first failure has an outcome; nothing after it matters.
    if (outcome === undefined) break;
    if (outcome === 'merged') continue;
    if (!outcome.ok) throw outcome.error;
    merged.merge(outcome.state);
  }
  return merged;
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

// Parsing on this thread and worker threads together: the schedule hands out whole files, the pool runs the workers'
// share, and the merge folds every file's result in file order.
import { deserializeError, type ParseResult, type ParseTask } from '../parse-protocol.js';
import { SnapshotBuilder } from '../../model/snapshot.js';
import { startWorker, takeEarlyWorkers, type EarlyWorker } from '../worker-start.js';
import { OrderedMerge, type Outcome } from './merge.js';
import { WorkerPool } from './pool.js';
import type { ParseSchedule } from './schedule.js';

/**
 * Tasks a worker holds at once: the one it parses and the next. This thread hands out tasks only between its own
 * chunks of work (every few MiB), so a worker that had to wait for its next task would idle about half the time.
 */
const WORKER_QUEUE = 2;

export interface ParallelOptions {
  workerUrl: URL;
  /** Node options for the workers; when given (or the URL is not the default), the early workers are not adopted. */
  workerExecArgv?: string[];
  /** The workers the command line started early (worker-start.ts) may be adopted. */
  adoptEarly: boolean;
  /** False leaves every file to the workers (tests of their failures). */
  parseInThisThread: boolean;
}

/** Parses one task in this thread into `builder`. */
export type ParseHere = (task: ParseTask, builder: SnapshotBuilder) => Promise<void>;

/**
 * Parses the scheduled files on this thread and `threads - 1` worker threads, each file into its own builder, and
 * merges the per-file results in file order. This thread starts at once and workers join when they have started, so
 * a worker never makes a run slower than the sequential one by more than its start-up on another core. A worker that
 * dies while parsing a file fails the run, naming the file; one that cannot start only leaves its share to the others,
 * with a process warning.
 */
export async function parseInWorkers(
  schedule: ParseSchedule,
  files: number,
  threads: number,
  parseHere: ParseHere,
  options: ParallelOptions,
): Promise<SnapshotBuilder> {
  const merge = new OrderedMerge(files);
  const record = (index: number, outcome: Outcome): void => {
    if (!outcome.ok) schedule.failed(index);
    merge.record(index, outcome);
  };
  let localRunning = false;
  let wake: () => void = () => {};
  const pool = new WorkerPool<ParseTask, ParseResult>(
    {
      nextJob: () => schedule.take(),
      answers: (answer, task) => answer.index === task.index,
      answered: (m) =>
        record(m.index, m.ok ? { ok: true, state: m.state } : { ok: false, error: deserializeError(m.error) }),
      lostJob: (task, why) => schedule.abort(new Error(`a parse worker thread ${why} while reading ${task.file.name}`)),
      lostWorker: (why, started) =>
        process.emitWarning(
          `a parse worker thread ${started ? 'stopped' : 'could not start'} (${why}); parsing with fewer threads`,
          { code: 'ASCEND_MEMORY_GATE_WORKER' },
        ),
      changed: () => wake(),
    },
    WORKER_QUEUE,
  );
  const runLocal = (): boolean => {
    if (localRunning) return false;
    localRunning = true;
    void parseWhileTasksLeft(schedule, parseHere, record).then(() => {
      localRunning = false;
      wake();
    });
    return true;
  };
  const allDone = new Promise<void>((resolve) => {
    wake = () => {
      const busy = localRunning || pool.busy();
      if (!busy && (!schedule.hasMore() || (pool.allLost() && !runLocal()))) resolve();
    };
  });
  startPool(pool, threads - 1, options);
  if (options.parseInThisThread) runLocal();
  wake();
  await allDone;
  // Every worker is idle (or still starting).
  pool.stop();
  if (schedule.fatal !== null) throw schedule.fatal;
  return merge.finish();
}

/** Adds `count` workers to the pool: the early ones (worker-start.ts) when they may be adopted, then new ones. */
function startPool(pool: WorkerPool<ParseTask, ParseResult>, count: number, options: ParallelOptions): void {
  const early: EarlyWorker[] = options.adoptEarly ? takeEarlyWorkers() : [];
  for (let i = 0; i < count; i++) {
    const adopted = early.shift();
    if (adopted !== undefined) pool.add(adopted.worker, adopted);
    else pool.add(startWorker(options.workerUrl, options.workerExecArgv ?? []));
  }
  for (const unused of early) void unused.worker.terminate();
}

/** This thread's share: parses until the schedule has no task left. */
async function parseWhileTasksLeft(
  schedule: ParseSchedule,
  parseHere: ParseHere,
  record: (index: number, outcome: Outcome) => void,
): Promise<void> {
  for (let task = schedule.take(); task !== null; task = schedule.take()) {
    const builder = new SnapshotBuilder();
    try {
      await parseHere(task, builder);
      record(task.index, { ok: true, state: builder.toState() });
    } catch (error) {
      record(task.index, { ok: false, error: error instanceof Error ? error : new Error(String(error)) });
    }
    // A turn for the workers' messages (ready, results) between files, so that they get tasks while this thread
    // still has some to give: awaiting a parse that needed no I/O wait only yields to microtasks.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

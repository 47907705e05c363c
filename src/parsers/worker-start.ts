// Starting parse worker threads (parse-worker.ts), apart from collect.ts: this module loads nothing else, so the command
// line can start its worker before it loads the rest of its code, and the worker's own start-up (~50-150 ms, longer
// while this thread is busy) overlaps this thread's module loading and file search instead of its parsing.
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** Below this total size, starting workers costs more than it saves. */
export const PARALLEL_MIN_BYTES = 32 * 1024 * 1024;

/**
 * Two cores are the common CI runner, and the scan is bound by memory bandwidth: two processes each reading half of the
 * 1 GiB benchmark corpus ran ~20% slower than one alone, so a third thread would mostly wait.
 */
const MAX_THREADS = 2;

/**
 * A worker's new-object space. Parsing allocates short-lived strings at a high rate, and V8 grows the young generation
 * with the allocation rate: by default a busy worker ended ~7 MiB larger on the 1 GiB corpus, with no time saved.
 */
const WORKER_YOUNG_GENERATION_MB = 2;

/**
 * Threads to parse with: `requested` when given, else the environment variable ASCEND_MEMORY_GATE_THREADS when set,
 * else min(MAX_THREADS, os.availableParallelism()).
 */
export function threadCount(requested?: number): number {
  const fromEnv = process.env.ASCEND_MEMORY_GATE_THREADS;
  const resolved = requested ?? (fromEnv !== undefined && /^\d+$/.test(fromEnv.trim()) ? Number(fromEnv) : undefined);
  return resolved ?? Math.min(MAX_THREADS, availableParallelism());
}

/** parse-worker.js beside this module; the bundler rewrites this expression to the bundled worker's URL. */
export function defaultWorkerUrl(): URL {
  return new URL('./parse-worker.js', import.meta.url);
}

export function startWorker(url: URL, execArgv: string[]): Worker {
  return new Worker(url, { execArgv, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
}

/** A worker started before anyone asked for it, and what it said meanwhile. */
export interface EarlyWorker {
  worker: Worker;
  /** It posted `ready`. */
  ready: boolean;
  /** Why it failed or exited, if it did. */
  failure: string | null;
  /** Removes the listeners that fill in `ready` and `failure`. */
  release: () => void;
}

let early: EarlyWorker[] = [];

/**
 * Starts the default parse workers now (as many as collectSnapshot would start by default), for a run that will
 * probably parse large inputs. They do not keep the process alive: collectSnapshot adopts them when it parses on
 * several threads and stops them otherwise.
 */
export function startWorkersEarly(): void {
  if (early.length > 0) return;
  for (let i = 1; i < threadCount(); i++) {
    let entry: EarlyWorker;
    try {
      entry = { worker: startWorker(defaultWorkerUrl(), []), ready: false, failure: null, release: () => {} };
    } catch {
      // collectSnapshot starts (and reports) its own workers when these are missing.
      return;
    }
    const { worker } = entry;
    const onMessage = (message: unknown): void => {
      if (typeof message === 'object' && message !== null && 'ready' in message) entry.ready = true;
    };
    const onError = (error: unknown): void => {
      entry.failure ??= `failed: ${error instanceof Error ? error.message : String(error)}`;
    };
    const onMessageError = (error: Error): void => {
      entry.failure ??= `sent an unreadable message: ${error.message}`;
    };
    const onExit = (code: number): void => {
      entry.failure ??= `exited unexpectedly (exit code ${code})`;
    };
    worker.on('message', onMessage).on('error', onError).on('messageerror', onMessageError).on('exit', onExit);
    // After the listeners: adding a 'message' listener references the worker's port again.
    worker.unref();
    // Not removeAllListeners(): Worker listens to itself to keep its port referenced while 'message' has listeners.
    entry.release = () =>
      worker.off('message', onMessage).off('error', onError).off('messageerror', onMessageError).off('exit', onExit);
    early.push(entry);
  }
}

/** The early workers, now the caller's (their listeners removed, still unref'd); none when none were started. */
export function takeEarlyWorkers(): EarlyWorker[] {
  const taken = early;
  early = [];
  for (const entry of taken) entry.release();
  return taken;
}

/** Stops the early workers nobody took: a run whose inputs turned out small, or that failed before parsing. */
export function stopEarlyWorkers(): void {
  // Their listeners stay: an 'error' event already on its way must not become an uncaught one.
  for (const entry of early) void entry.worker.terminate();
  early = [];
}

/** Flags whose value names a file that is read or written whole, never parsed by a parse worker. */
const NOT_INPUTS = new Set(['--baseline', '--out', '--report', '--markdown', '--html', '--config']);

/**
 * The command-line values (after the command) that may name inputs: every flag's value (`--plog DIR`, `--plog=DIR`)
 * and bare value, except those of NOT_INPUTS: a 25 MB baseline must not start a worker for one small snapshot.
 */
export function inputPathsOf(args: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (NOT_INPUTS.has(flag)) {
      if (eq < 0) i++;
    } else if (eq > 0) values.push(arg.slice(eq + 1));
    else if (!arg.startsWith('-')) values.push(arg);
  }
  return values;
}

/** Entries mayBeLarge looks at before it gives up and answers no. */
const LOOK_ENTRIES = 2000;

/**
 * A quick guess, before the file search, whether `paths` (command-line values that may name input files or folders)
 * hold PARALLEL_MIN_BYTES or more: their files' sizes are added up, folders walked, until that size is reached (yes)
 * or LOOK_ENTRIES entries were seen without reaching it (no: a folder of 4,096 node snapshots of 8 KB each started a
 * worker that was never used, ~0.1 s of a 2.3 s merge). Values that name nothing (flags' other values, patterns)
 * count nothing. A wrong guess costs little: a worker started for nothing, or one started later by collectSnapshot.
 */
export function mayBeLarge(paths: readonly string[]): boolean {
  let total = 0;
  let seen = 0;
  const pending = [...paths];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (++seen > LOOK_ENTRIES) return false;
    try {
      const stats = statSync(next);
      if (stats.isFile()) {
        total += stats.size;
        if (total >= PARALLEL_MIN_BYTES) return true;
      } else if (stats.isDirectory()) {
        for (const entry of readdirSync(next)) pending.push(path.join(next, entry));
      }
    } catch {
      // Not there or not readable: the file search says so properly.
    }
  }
  return false;
}

// Which files are parsed on several threads, and in which order they are handed out: whole files, to whichever thread
// (this one or a worker) is free next. Knows files and sizes, not threads.
import { stat } from 'node:fs/promises';
import type { ParseTask } from '../parse-protocol.js';
import type { InputFile } from '../../sources/types.js';

/** Files at least this large are parsed largest first; smaller ones in file order. */
const BALANCE_MIN_BYTES = 1024 * 1024;

/**
 * The tasks' sizes when they are worth parsing on `threads` threads (two or more, `minBytes` or more together), else
 * null: this thread then parses them alone.
 */
export async function parallelSizes(
  tasks: readonly ParseTask[],
  threads: number,
  minBytes: number,
): Promise<number[] | null> {
  if (threads < 2 || !(await reachesSize(tasks, minBytes))) return null;
  const sizes: number[] = [];
  // One at a time: 100,000 stat calls at once held hundreds of MiB.
  for (const task of tasks) sizes.push(await fileSize(task.file));
  return sizes;
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

/**
 * The order tasks are handed out in: large files first, largest first (the last to finish is then a small one); small
 * files in file order, so that their results are folded in as they come instead of all being held to the end. As in
 * the sequential path, files after a known failure are not started, and nothing is after a fatal error.
 */
export class ParseSchedule {
  private readonly order: number[];
  private next = 0;
  /** Index of the first file (in file order) known to have failed. */
  private firstFailure = Infinity;
  /** Set when the run fails as a whole (a worker died mid-file). */
  fatal: Error | null = null;

  constructor(
    private readonly tasks: readonly ParseTask[],
    sizes: readonly number[],
  ) {
    const weight = (i: number): number => ((sizes[i] as number) >= BALANCE_MIN_BYTES ? (sizes[i] as number) : 0);
    this.order = tasks.map((t) => t.index).sort((a, b) => weight(b) - weight(a) || a - b);
  }

  /** The next task to parse, or null when none is left. */
  take(): ParseTask | null {
    const order = this.order;
    while (this.next < order.length && (order[this.next] as number) > this.firstFailure) this.next++;
    return this.fatal === null && this.next < order.length
      ? (this.tasks[order[this.next++] as number] as ParseTask)
      : null;
  }

  /** Whether take() would give a task. */
  hasMore(): boolean {
    return (
      this.fatal === null &&
      this.next < this.order.length &&
      (this.firstFailure === Infinity || this.order.slice(this.next).some((i) => i < this.firstFailure))
    );
  }

  /** The file at `index` failed: files after it in file order are not started. */
  failed(index: number): void {
    this.firstFailure = Math.min(this.firstFailure, index);
  }

  /** The run fails as a whole with `error` (the first such error wins): nothing more is started. */
  abort(error: Error): void {
    this.fatal ??= error;
  }
}

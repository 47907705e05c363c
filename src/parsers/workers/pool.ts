// A pool of worker threads that answer jobs: it hands each worker up to `queue` jobs once the worker says it is ready,
// matches answers to jobs, and reports workers that fail or exit. It knows the ready-then-answers protocol, not what a
// job is: the caller says which job comes next and what to do with an answer or a lost job.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';

export interface PoolHandlers<Job, Answer> {
  /** A job for a worker with room for one, or null for none now. */
  nextJob(): Job | null;
  /** Whether `answer` answers `job`. */
  answers(answer: Answer, job: Job): boolean;
  /** A worker's answer, in the order it arrives. */
  answered(answer: Answer): void;
  /** A worker failed or exited while it held `job` (the one it was working on). */
  lostJob(job: Job, why: string): void;
  /** A worker failed or exited holding no job: it never started (`started` false) or stopped while idle. */
  lostWorker(why: string, started: boolean): void;
  /** After every event: a worker became ready, answered, or was lost. */
  changed(): void;
}

/** What a worker already did before the pool took it (one started early, worker-start.ts). */
export interface Adopted {
  ready: boolean;
  failure: string | null;
}

interface Member<Job> {
  worker: Worker;
  /** It has said it is ready and takes jobs. */
  ready: boolean;
  /** It failed or exited; it takes no more jobs. */
  dead: boolean;
  /** The jobs sent to it and not answered yet, in the order it works on them. */
  jobs: Job[];
}

/**
 * Why the worker script at `url` cannot be started (missing or unreadable), or null when it can be read. Checked before
 * any worker starts: a worker whose script is missing fails only after its thread has started, and that failure may
 * come after the caller has done all the work alone.
 */
export async function unreadableScript(url: URL): Promise<string | null> {
  if (url.protocol !== 'file:') return null;
  try {
    await access(fileURLToPath(url), constants.R_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `${fileURLToPath(url)} cannot be read${code === undefined ? '' : ` (${code})`}`;
  }
}

export class WorkerPool<Job, Answer> {
  private readonly members: Member<Job>[] = [];

  /** `queue`: jobs a worker holds at once. */
  constructor(
    private readonly handlers: PoolHandlers<Job, Answer>,
    private readonly queue: number,
  ) {}

  /** Takes `worker` into the pool (referenced again): it gets jobs once ready. */
  add(worker: Worker, adopted: Adopted = { ready: false, failure: null }): void {
    worker.ref();
    const m: Member<Job> = { worker, ready: adopted.ready, dead: false, jobs: [] };
    this.members.push(m);
    worker.on('message', (message: { ready: true } | Answer) => this.received(m, message));
    worker.on('error', (error) => this.lost(m, `failed: ${error instanceof Error ? error.message : String(error)}`));
    worker.on('messageerror', (error) => this.lost(m, `sent an unreadable message: ${error.message}`));
    worker.on('exit', (code) => this.lost(m, `exited unexpectedly (exit code ${code})`));
    if (adopted.failure != null) this.lost(m, adopted.failure);
    else if (m.ready) this.dispatch(m);
  }

  /** Some worker holds a job not answered yet. */
  busy(): boolean {
    return this.members.some((m) => m.jobs.length > 0);
  }

  /** No worker is left to take jobs (also true for an empty pool). */
  allLost(): boolean {
    return this.members.every((m) => m.dead);
  }

  /**
   * Stops every worker without waiting: one still starting would make the wait as long as its start-up; unref() lets
   * the process exit meanwhile. Nothing is reported after this.
   */
  stop(): void {
    for (const m of this.members) {
      m.dead = true;
      m.worker.unref();
      void m.worker.terminate();
    }
  }

  private received(m: Member<Job>, message: { ready: true } | Answer): void {
    if (typeof message === 'object' && message !== null && 'ready' in message) {
      m.ready = true;
    } else {
      const answer = message as Answer;
      this.handlers.answered(answer);
      m.jobs = m.jobs.filter((job) => !this.handlers.answers(answer, job));
    }
    this.dispatch(m);
  }

  private dispatch(m: Member<Job>): void {
    while (!m.dead && m.ready && m.jobs.length < this.queue) {
      const job = this.handlers.nextJob();
      if (job === null) break;
      m.jobs.push(job);
      m.worker.postMessage(job);
    }
    this.handlers.changed();
  }

  private lost(m: Member<Job>, why: string): void {
    if (m.dead) return;
    m.dead = true;
    const job = m.jobs[0];
    m.jobs = [];
    if (job !== undefined) this.handlers.lostJob(job, why);
    else this.handlers.lostWorker(why, m.ready);
    this.handlers.changed();
  }
}

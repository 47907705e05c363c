// The worker-thread path of collectSnapshot gives exactly what the single-thread path gives: the same snapshot, the same
// skipped-record sample, the same tie-breaks (the later file wins) and the same first error, named by file:line; a
// worker that dies fails the run instead of hanging it. The workers run the TypeScript sources (test/helpers/ts-loader.mjs);
// the last block runs the built bundle's own worker when dist/ exists.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generators/corpus.js';
import { CSV_NAME } from '../../generators/memory-compare.js';
import {
  collectSnapshot,
  PARALLEL_MIN_BYTES,
  type CollectInputs,
  type CollectOptions,
  type Collected,
} from '../../../src/parsers/collect.js';
import { ParseError } from '../../../src/common/errors.js';
import type { ParseResult, ParseTask, WorkerMessage } from '../../../src/parsers/parse-protocol.js';
import { parsePlogFile } from '../../../src/parsers/plog/index.js';
import { SnapshotBuilder } from '../../../src/model/snapshot.js';
import { resolveInputs } from '../../../src/sources/local.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * Two workers running the TypeScript sources, and every file left to them: this thread would otherwise parse these
 * small inputs whole before a worker is up (a worker with the TypeScript loader takes ~1 s to start).
 */
const TS_WORKER: CollectOptions = {
  threads: 3,
  minParallelBytes: 0,
  workerUrl: new URL('../../../src/parsers/parse-worker.ts', import.meta.url),
  workerExecArgv: ['--import', pathToFileURL(path.join(ROOT, 'test/helpers/ts-loader.mjs')).href],
  parseInThisThread: false,
};
const SEQUENTIAL: CollectOptions = { threads: 0 };

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'collect-parallel-'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function inputs(plog: string[], compare: string[] = []): Promise<CollectInputs> {
  return {
    files: { plog: await resolveInputs(plog, 'plog', work), compare: await resolveInputs(compare, 'compare', work) },
  };
}

/** Runs both paths; returns both outcomes (a value or the error) for comparison. */
async function both(
  input: CollectInputs,
  parallel: CollectOptions = TS_WORKER,
): Promise<[Collected | Error, Collected | Error]> {
  const run = (o: CollectOptions) => collectSnapshot(input, o).catch((e: unknown) => e as Error);
  return [await run(SEQUENTIAL), await run(parallel)];
}

const STATS = (attr: string, module: string, current: number, peak: number): string =>
  `[INFO] DRV(1,python3):2025-09-01-12:00:00.000.000 [svm_mem_statistics.c:150][drv][devmm][_svm_mem_stats_show]${attr} Mem stats (Bytes). ` +
  `(module_name=${module}; module_id=7; current_alloced_size=${current}; allocated_peak_size=${peak}; alloc_cnt=1; free_cnt=0)\n`;
const NOISE =
  '[INFO] HCCL(1,python3):2025-09-01-12:00:00.000.000 [externalinput.cc:407] [1]HCCL_CONNECT_TIMEOUT set by environment to [120]s\n';
const TRUNCATED =
  '[INFO] DRV(1,python3):2025-09-01-12:00:00.000.000 [x.c:1][drv]DEV_MEM dev3 Mem stats (Bytes). (module_name=APP; module_id=33; current_al\n';
const HUGE = STATS('DEV_MEM dev0', 'APP', 1, 2 ** 53 + 10);

describe('worker threads give the sequential result', () => {
  it('on a generated multi-rank corpus of plog and memory_compare files, skipped records included', async () => {
    const out = path.join(work, 'corpus');
    await generate({ out, plogBytes: '3MiB', ranks: 4, devices: 4, csvRows: 5_000, rotateBytes: '128KiB', seed: 7 });
    const input = await inputs(['corpus/plog'], ['corpus']);
    expect(input.files.plog!.length).toBeGreaterThan(8);
    expect(input.files.compare!.length).toBeGreaterThan(1);
    const [seq, par] = await both(input);
    if (seq instanceof Error) throw seq;
    expect(par).toEqual(seq);
    expect(seq.snapshot.meta.skipped).toBeGreaterThan(0);
    // toEqual ignores key order; the JSON the CLI prints does not.
    expect(JSON.stringify(par)).toBe(JSON.stringify(seq));
    // The default split: this thread and one worker, each taking files as it gets free.
    const mixed = await collectSnapshot(input, { ...TS_WORKER, threads: 2, parseInThisThread: true });
    expect(JSON.stringify(mixed)).toBe(JSON.stringify(seq));
  });

  it('breaks ties as the sequential order does: the later file wins, whichever worker finishes first', async () => {
    const dir = path.join(work, 'ties');
    await mkdir(dir, { recursive: true });
    // a.log is large (parsed first, finished last); b.log and c.log tie with it on peak but differ in current.
    await writeFile(
      path.join(dir, 'a.log'),
      NOISE.repeat(20_000) + STATS('DEV_MEM dev0', 'APP', 1, 100) + STATS('SVM_MEM', 'HCCL', 7, 50),
    );
    await writeFile(path.join(dir, 'b.log'), STATS('DEV_MEM dev0', 'APP', 2, 100) + TRUNCATED);
    await writeFile(path.join(dir, 'c.log'), STATS('SVM_MEM', 'HCCL', 9, 50) + TRUNCATED);
    const [seq, par] = await both(await inputs(['ties']));
    if (seq instanceof Error) throw seq;
    expect(seq.snapshot.sections.modules!['DEV_MEM/dev0/APP']?.current).toBe(2);
    expect(seq.snapshot.sections.modules!['SVM_MEM/HCCL']?.current).toBe(9);
    expect(JSON.stringify(par)).toBe(JSON.stringify(seq));
  });

  it('reports the first failing file in file order, as file:line, even when a later file fails first', async () => {
    const dir = path.join(work, 'errors');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'a.log'), STATS('SVM_MEM', 'APP', 1, 1));
    // b.log fails late in a large file; d.log fails at once. b comes first in file order, so its error is the one.
    await writeFile(path.join(dir, 'b.log'), NOISE.repeat(30_000) + HUGE);
    await writeFile(path.join(dir, 'c.log'), STATS('SVM_MEM', 'HCCL', 1, 1));
    await writeFile(path.join(dir, 'd.log'), HUGE);
    const [seq, par] = await both(await inputs(['errors']));
    expect(seq).toBeInstanceOf(ParseError);
    expect((seq as ParseError).message).toMatch(
      /^errors\/b\.log:30001: allocated_peak_size=9007199254741002 is larger than 2\^53 - 1/,
    );
    expect(par).toBeInstanceOf(ParseError);
    expect((par as ParseError).message).toBe((seq as ParseError).message);
    expect((par as ParseError).file).toBe('errors/b.log');
    expect((par as ParseError).line).toBe(30_001);
  });

  it('reports a memory_compare ParseError from a worker with the same message', async () => {
    const dir = path.join(work, 'bad-csv');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'x.log'), STATS('SVM_MEM', 'APP', 1, 1));
    await writeFile(
      path.join(dir, 'memory_compare_1.csv'),
      ',,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\nOP_LAUNCH,a,0,1,2,1\nOP_LAUNCH,b,0,1,2\n',
    );
    const [seq, par] = await both(await inputs(['bad-csv'], ['bad-csv']));
    expect(seq).toBeInstanceOf(ParseError);
    expect((seq as Error).message).toBe(
      'bad-csv/memory_compare_1.csv:4: expected 6 cells (Event,Name,Device Id,Base,Compare,Diff), got 5',
    );
    expect(par).toBeInstanceOf(ParseError);
    expect((par as Error).message).toBe((seq as Error).message);
  });

  it('reports a file that cannot be read with the same system error', async () => {
    const dir = path.join(work, 'vanished');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'a.log'), STATS('SVM_MEM', 'APP', 1, 1));
    await writeFile(path.join(dir, 'b.log'), STATS('SVM_MEM', 'APP', 1, 1));
    const input = await inputs(['vanished']);
    await rm(path.join(dir, 'b.log'));
    const [seq, par] = await both(input);
    expect((seq as Error).message).toBe(
      `${path.join(dir, 'b.log')}: cannot open it: no such file or folder (does its folder exist?) (ENOENT)`,
    );
    expect((par as Error).message).toBe((seq as Error).message);
  });

  it('stays in this thread below the size threshold and without a second thread', async () => {
    const dir = path.join(work, 'small');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'a.log'), STATS('SVM_MEM', 'APP', 1, 1));
    await writeFile(path.join(dir, 'b.log'), STATS('SVM_MEM', 'APP', 1, 2));
    const missingWorker = { ...TS_WORKER, workerUrl: pathToFileURL(path.join(work, 'no-such-worker.mjs')) };
    const input = await inputs(['small']);
    const warnings = captureWarnings();
    try {
      await collectSnapshot(input, { ...missingWorker, minParallelBytes: PARALLEL_MIN_BYTES });
      await collectSnapshot(input, { ...missingWorker, threads: 1 });
      expect([...warnings]).toEqual([]);
      // Proof that the two runs above started no worker: this one does, and says so.
      const [seq, par] = await both(input, missingWorker);
      expect(par).toEqual(seq);
      await new Promise<void>((resolve) => setImmediate(resolve));
      // The missing script is found before any thread starts: one warning, and this thread parses everything.
      expect([...warnings]).toEqual([
        `the parse worker script ${path.join(work, 'no-such-worker.mjs')} cannot be read (ENOENT); parsing in this thread only (a reinstall restores it)`,
      ]);
    } finally {
      warnings.stop();
    }
  });
});

describe('a worker script that cannot be read', () => {
  it('is found before any worker starts: the result is complete and the warning the same, every time', async () => {
    const dir = path.join(work, 'no-script');
    await mkdir(dir, { recursive: true });
    for (const [i, name] of ['a.log', 'b.log', 'c.log'].entries())
      await writeFile(path.join(dir, name), STATS(`DEV_MEM dev${i}`, 'APP', i + 1, 10 * (i + 1)) + TRUNCATED);
    const input = await inputs(['no-script']);
    const seq = await collectSnapshot(input, SEQUENTIAL);
    const missing = path.join(work, 'missing-worker.mjs');
    // This thread may parse too: before the check, it finished these small files before the worker's failure arrived,
    // and the warning came or not depending on which was first.
    const options: CollectOptions = { threads: 2, minParallelBytes: 0, workerUrl: pathToFileURL(missing) };
    for (let run = 0; run < 20; run++) {
      const warnings = captureWarnings();
      try {
        const par = await collectSnapshot(input, options);
        expect(JSON.stringify(par)).toBe(JSON.stringify(seq));
        // process.emitWarning delivers on the next tick; the warning was queued before collectSnapshot resolved.
        await new Promise<void>((resolve) => setImmediate(resolve));
        expect([...warnings]).toEqual([
          `the parse worker script ${missing} cannot be read (ENOENT); parsing in this thread only (a reinstall restores it)`,
        ]);
      } finally {
        warnings.stop();
      }
    }
  });
});

/** Collects this process's warnings (process.emitWarning) until stop(). */
function captureWarnings(): string[] & { stop: () => void } {
  const seen: string[] = [];
  const listener = (w: Error): void => void seen.push(w.message);
  process.on('warning', listener);
  return Object.assign(seen, { stop: () => void process.off('warning', listener) });
}

describe('buffers reused from file to file in one thread', () => {
  it('are never shared by parses that run at the same time', async () => {
    const dir = path.join(work, 'concurrent');
    await mkdir(dir, { recursive: true });
    const files = ['a.log', 'b.log', 'c.log', 'd.log'].map((name) => ({ path: path.join(dir, name), name }));
    for (const [i, f] of files.entries()) {
      // Records all through the file, with wrapped and truncated ones, so that any byte from another file shows.
      const body = Array.from(
        { length: 400 },
        (_, k) => NOISE + STATS(`DEV_MEM dev${i}`, `M${k % 37}`, k, k * (i + 1)) + (k % 50 === 0 ? TRUNCATED : ''),
      ).join('');
      await writeFile(f.path, body);
    }
    const alone = async (f: (typeof files)[number]) => {
      const b = new SnapshotBuilder();
      await parsePlogFile(f, b, { chunkBytes: 4096 });
      return { snapshot: b.build(), skipped: b.skippedRecords };
    };
    const expected = [];
    for (const f of files) expected.push(await alone(f));
    // Small chunks make each parse yield every 64 KiB, so the two parses interleave; twice, so the second round starts
    // with the buffers the first round left behind.
    for (let round = 0; round < 2; round++) {
      expect(await Promise.all([alone(files[0]!), alone(files[1]!)])).toEqual(expected.slice(0, 2));
      expect(await Promise.all([alone(files[2]!), alone(files[3]!)])).toEqual(expected.slice(2, 4));
    }
  });
});

describe('a worker that dies fails the run, it never hangs', () => {
  let input: CollectInputs;
  beforeAll(async () => {
    const dir = path.join(work, 'crash');
    await mkdir(dir, { recursive: true });
    for (const name of ['a.log', 'b.log', 'c.log'])
      await writeFile(path.join(dir, name), STATS('SVM_MEM', 'APP', 1, 1));
    input = await inputs(['crash']);
  });

  /** A stand-in worker: it says it is ready, then does `onTask` with the first task. */
  async function fakeWorker(name: string, onTask: string): Promise<CollectOptions> {
    const file = path.join(work, name);
    await writeFile(
      file,
      `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => { ${onTask} });\nparentPort.postMessage({ ready: true });\n`,
    );
    return { threads: 3, minParallelBytes: 0, workerUrl: pathToFileURL(file), parseInThisThread: false };
  }

  it('when the worker exits in the middle of a file', async () => {
    const options = await fakeWorker('exit-worker.mjs', 'process.exit(3);');
    await expect(collectSnapshot(input, options)).rejects.toThrow(
      /^a parse worker thread exited unexpectedly \(exit code 3\) while reading crash\/[abc]\.log$/,
    );
  });

  it('when the worker throws outside any task', async () => {
    const options = await fakeWorker('throw-worker.mjs', "setImmediate(() => { throw new Error('boom'); });");
    await expect(collectSnapshot(input, options)).rejects.toThrow(
      /^a parse worker thread failed: boom while reading crash\/[abc]\.log$/,
    );
  });

  it('when the worker never answers, but dies: the run ends', async () => {
    const options = await fakeWorker('silent-worker.mjs', 'setTimeout(() => process.exit(0), 200);');
    await expect(collectSnapshot(input, options)).rejects.toThrow(
      /exited unexpectedly \(exit code 0\) while reading crash\//,
    );
  });

  it('when no worker can start, this thread parses everything, with a warning', async () => {
    const options = {
      ...(await fakeWorker('syntax-worker.mjs', '')),
      workerUrl: pathToFileURL(path.join(work, 'syntax.mjs')),
    };
    await writeFile(path.join(work, 'syntax.mjs'), 'this is not javascript\n');
    const warnings = captureWarnings();
    try {
      const [seq, par] = await both(input, options);
      expect(par).toEqual(seq);
      expect(warnings).toHaveLength(2);
    } finally {
      warnings.stop();
    }
  });
});

describe.runIf(existsSync(path.join(ROOT, 'dist', 'parse-worker.js')))(
  'the bundle (npm run build) finds and uses its own worker',
  () => {
    const DIST = path.join(ROOT, 'dist');

    it('points collect at dist/parse-worker.js relative to the chunk that holds it', async () => {
      const chunks = (await readdir(DIST, { recursive: true }))
        .filter((f) => f.endsWith('.js'))
        .map((f) => path.join(DIST, f));
      const references: string[] = [];
      for (const file of chunks) {
        const code = await readFile(file, 'utf8');
        for (const m of code.matchAll(/new URL\((['"])([^'"]*parse-worker\.js)\1, import\.meta\.url\)/g)) {
          references.push(fileURLToPath(new URL(m[2] as string, pathToFileURL(file))));
        }
      }
      expect(references).toEqual([path.join(DIST, 'parse-worker.js')]);
    });

    it('dist/parse-worker.js parses a task as this thread does', async () => {
      const file = path.join(work, 'one.log');
      await writeFile(file, STATS('DEV_MEM dev0', 'APP', 1, 100) + TRUNCATED);
      const task: ParseTask = { index: 0, kind: 'plog', file: { path: file, name: 'one.log' } };
      const worker = new Worker(new URL('../../../dist/parse-worker.js', import.meta.url));
      try {
        const result = await new Promise<ParseResult>((resolve, reject) => {
          worker.on('message', (m: WorkerMessage) => ('ready' in m ? worker.postMessage(task) : resolve(m)));
          worker.on('error', reject);
        });
        const here = new SnapshotBuilder();
        await parsePlogFile(task.file, here);
        expect(result).toEqual({ index: 0, ok: true, state: here.toState() });
      } finally {
        await worker.terminate();
      }
    });

    it('dist/cli.js prints the sequential output for an input above the threshold, from any working directory', async () => {
      const out = path.join(work, 'big');
      await generate({
        out,
        plogBytes: PARALLEL_MIN_BYTES + 4 * 1024 * 1024,
        ranks: 2,
        devices: 2,
        csvRows: 2_000,
        seed: 3,
        legacyCsv: false,
      });
      // A last line that is cut short: one skipped record, to check that warnings survive the trip through a worker.
      await appendFile(path.join(out, 'plog', 'rank_1', 'zz.log'), TRUNCATED);
      const run = promisify(execFile);
      const args = [path.join(DIST, 'cli.js'), 'parse', '--plog', 'plog', '--compare', CSV_NAME, '--json'];
      const options = { cwd: out, maxBuffer: 64 * 1024 * 1024 };
      const par = await run(process.execPath, args, {
        ...options,
        env: { ...process.env, ASCEND_MEMORY_GATE_THREADS: '2' },
      });
      const seq = await run(process.execPath, args, {
        ...options,
        env: { ...process.env, ASCEND_MEMORY_GATE_THREADS: '0' },
      });
      expect(par.stdout).toBe(seq.stdout);
      // No "could not start" warning either.
      expect(par.stderr).toBe(seq.stderr);
      expect(par.stderr).toMatch(/rank_1\/zz\.log:1: truncated or malformed/);
    });
  },
);

// Fan-in timing for bench/scale.mjs: N snapshot artifacts from the loopback fake GitHub, 8 at a time vs one at a time.
// Prints {"parallelMs", "sequentialMs", "latency": {…the same with LATENCY ms per request}} (medians of RUNS each, interleaved).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadArtifacts } from '../src/sources/artifacts.js';
import { startFakeGitHub } from '../test/e2e/fake-github.js';

const count = Number(process.argv[2] ?? 256);
const runs = Number(process.argv[3] ?? 3);
const fake = await startFakeGitHub();
const dir = mkdtempSync(join(tmpdir(), 'amg-fan-in-'));
// A node snapshot of 8 devices × 15 modules: the size `mode: snapshot` uploads (~10 KiB).
const snapshot = JSON.stringify({
  version: 2,
  sections: {
    modules: Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [
        `DEV_MEM/dev${i >> 4}/M${i % 15}`,
        { peak: i * 4096, current: i, allocs: 1, frees: 0 },
      ]),
    ),
  },
  series: {},
  meta: { files: 8, records: 120, skipped: 0, allocFailures: {} },
});
for (let i = 0; i < count; i++)
  fake.addArtifact({
    name: `memory-snapshot-node-${i}`,
    runId: 9001,
    files: { [`node-${i}.memory-snapshot.json`]: snapshot },
  });
const env = fake.env({ runId: 9001 });
const time = async (concurrency: number): Promise<number> => {
  const target = join(dir, `c${concurrency}-${Math.random()}`);
  const t0 = performance.now();
  const { downloaded } = await downloadArtifacts({
    patterns: ['memory-snapshot-node-*'],
    dir: target,
    concurrency,
    env,
  });
  const ms = performance.now() - t0;
  if (downloaded.length !== count) throw new Error(`downloaded ${downloaded.length} of ${count}`);
  rmSync(target, { recursive: true, force: true });
  return ms;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const compare = async (): Promise<{ parallelMs: number; sequentialMs: number }> => {
  const parallel: number[] = [];
  const sequential: number[] = [];
  await time(8); // warm-up: connection pool, JIT
  for (let i = 0; i < runs; i++) {
    parallel.push(await time(8));
    sequential.push(await time(1));
  }
  return { parallelMs: median(parallel), sequentialMs: median(sequential) };
};
const LATENCY = 20;
const local = await compare();
fake.injectFaults({ rate: 0, latencyMs: LATENCY });
const remote = await compare();
await fake.close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ ...local, latencyMs: LATENCY, latency: remote }));

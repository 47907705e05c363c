// Node snapshots merge to exactly what parsing every raw file at once gives: for any split of the files, in any order.
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectSnapshot } from '../../src/parsers/collect.js';
import { parseSnapshotText, serializeSnapshotFile } from '../../src/parsers/snapshot-file.js';
import { SnapshotBuilder, type Snapshot } from '../../src/snapshot.js';
import type { InputFile } from '../../src/sources/types.js';
import { thrown } from '../helpers/thrown.js';

const root = mkdtempSync(join(tmpdir(), 'amg-merge-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Rec {
  device: number;
  module: string;
  peak: number;
  second: number;
}

/** One driver statistics record (v1, as in test/fixtures/plog/seed/good.oneline.log), at a given second of the run. */
function line(r: Rec): string {
  const ss = String(r.second).padStart(2, '0');
  return (
    `[INFO] DRV(4052516,python3):2024-07-08-22:27:${ss}.354.856 [ascend][curpid: 4052516, 4052516][drv][devmm][_svm_mem_stats_show 148]` +
    `DEV_MEM dev${r.device} Mem stats (Bytes). (module_name=${r.module}; module_id=7; current_alloced_size=${r.peak}; ` +
    `alloced_peak_size=${r.peak}; alloc_cnt=3; free_cnt=1)`
  );
}

const recArb = fc.record({
  device: fc.nat(7),
  module: fc.constantFrom('APP', 'HCCL', 'RUNTIME', 'GE'),
  peak: fc.nat(1 << 30),
  second: fc.nat(59),
});
/** A job: files of records (a file may hold an allocation failure), each file going to node A or node B. */
const jobArb = fc.array(fc.record({ records: fc.array(recArb, { minLength: 1, maxLength: 6 }), oom: fc.boolean(), toA: fc.boolean() }), {
  minLength: 1,
  maxLength: 8,
});

let run = 0;
async function parse(files: Record<string, InputFile[]>): Promise<Snapshot> {
  return (await collectSnapshot({ files, searched: 'test' }, { threads: 1 })).snapshot;
}

function write(dir: string, name: string, text: string): InputFile {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
  return { path: join(dir, name), name };
}

describe('merging node snapshots', () => {
  it('merge(parse(A), parse(B)) == parse(A ∪ B), for any split and either order', async () => {
    await fc.assert(
      fc.asyncProperty(jobArb, async (job) => {
        const dir = join(root, String(run++));
        const plogs = job.map((file, i) =>
          write(dir, `plog-${i}.log`, [...file.records.map(line), ...(file.oom ? [`[ERROR] DRV(1,python3):2024-07-08-22:27:00.000.000 [ascend][drv] halMemAlloc failed, devid=${i % 8}`] : [])].join('\n') + '\n'),
        );
        const all = await parse({ plog: plogs });
        const a = plogs.filter((_, i) => job[i]!.toA);
        const b = plogs.filter((_, i) => !job[i]!.toA);
        const snaps = [a, b].filter((part) => part.length > 0);
        const files = await Promise.all(snaps.map(async (part, i) => write(dir, `node-${i}.memory-snapshot.json`, serializeSnapshotFile(await parse({ plog: part })))));
        expect(await parse({ snapshot: files })).toEqual(all);
        expect(await parse({ snapshot: [...files].reverse() })).toEqual(all);
      }),
      { numRuns: 40 },
    );
  });

  it('is associative and commutative over three nodes, node provenance included', () => {
    const node = (name: string, dev: number, cann: string): Snapshot => {
      const builder = new SnapshotBuilder();
      builder.addModule(`DEV_MEM/dev${dev}/APP`, { peak: dev * 100, current: dev, allocs: 1, frees: 0 });
      builder.noteDevice(`dev${dev}`);
      builder.files = 1;
      builder.addNode(name, { devices: [`dev${dev}`], files: 1, records: 1, skipped: 0, environment: { cann } });
      return builder.build();
    };
    const merge = (...parts: Snapshot[]): Snapshot => {
      const builder = new SnapshotBuilder();
      for (const part of parts) builder.addSnapshot(part);
      return builder.build();
    };
    const [x, y, z] = [node('n0', 0, '8.3.RC1'), node('n1', 1, '9.0.RC1'), node('n0', 2, '9.0.RC1')];
    const expected = merge(x, y, z);
    expect(merge(merge(x, y), z)).toEqual(expected);
    expect(merge(x, merge(y, z))).toEqual(expected);
    expect(merge(z, y, x)).toEqual(expected);
    // the same node twice: devices united, counts added, per item the larger value
    expect(expected.meta.nodes).toEqual({
      n0: { devices: ['dev0', 'dev2'], files: 2, records: 2, skipped: 0, environment: { cann: '9.0.RC1' } },
      n1: { devices: ['dev1'], files: 1, records: 1, skipped: 0, environment: { cann: '9.0.RC1' } },
    });
  });
});

describe('reading a snapshot file', () => {
  const good = serializeSnapshotFile(new SnapshotBuilder().build());

  it('a newer version names the file and what to do', () => {
    const newer = good.replace('"version": 2', '"version": 3');
    expect(thrown(() => parseSnapshotText(newer, 'node-3.memory-snapshot.json')).message).toBe(
      'node-3.memory-snapshot.json: /version: is 3: this snapshot was written by a newer ascend-memory-gate (this one reads version 2); use the same version on the nodes and in the gate job',
    );
  });

  it('corrupt JSON names the file, line and column; a bad field its JSON pointer', () => {
    expect(thrown(() => parseSnapshotText(good.slice(0, 40), 'n.memory-snapshot.json')).message).toMatch(/^n\.memory-snapshot\.json:\d+:\d+: not valid JSON/);
    const bad = JSON.parse(good) as { meta: { files: unknown } };
    bad.meta.files = -1;
    expect(thrown(() => parseSnapshotText(JSON.stringify(bad), 'n.memory-snapshot.json')).message).toMatch(/^n\.memory-snapshot\.json: \/meta\/files: /);
  });
});

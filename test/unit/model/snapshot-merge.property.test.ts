// Node snapshots merge to exactly what parsing every raw file at once gives: for any split of the files, in any order.
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectSnapshot } from '../../../src/parsers/collect.js';
import { parseSnapshotText, serializeNodeSnapshot } from '../../../src/parsers/node-snapshot-file.js';
import { joinInOrder, SnapshotBuilder, type SectionMetrics, type Snapshot } from '../../../src/model/snapshot.js';
import { stringifyDocument } from '../../../src/model/document-json.js';
import { fileKeyOrder } from '../../../src/model/key-order.js';
import type { InputFile } from '../../../src/sources/types.js';
import { thrown } from '../../helpers/thrown.js';
import { modules } from '../../../src/model/sections/index.js';

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
const jobArb = fc.array(
  fc.record({ records: fc.array(recArb, { minLength: 1, maxLength: 6 }), oom: fc.boolean(), toA: fc.boolean() }),
  {
    minLength: 1,
    maxLength: 8,
  },
);

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
          write(
            dir,
            `plog-${i}.log`,
            [
              ...file.records.map(line),
              ...(file.oom
                ? [
                    `[ERROR] DRV(1,python3):2024-07-08-22:27:00.000.000 [ascend][drv] halMemAlloc failed, devid=${i % 8}`,
                  ]
                : []),
            ].join('\n') + '\n',
          ),
        );
        const all = await parse({ plog: plogs });
        const a = plogs.filter((_, i) => job[i]!.toA);
        const b = plogs.filter((_, i) => !job[i]!.toA);
        const snaps = [a, b].filter((part) => part.length > 0);
        const files = await Promise.all(
          snaps.map(async (part, i) =>
            write(dir, `node-${i}.memory-snapshot.json`, serializeNodeSnapshot(await parse({ plog: part }))),
          ),
        );
        expect(await parse({ snapshot: files })).toEqual(all);
        expect(await parse({ snapshot: [...files].reverse() })).toEqual(all);
      }),
      { numRuns: 40 },
    );
  });

  it('is associative and commutative over three nodes, node provenance included', () => {
    const node = (name: string, dev: number, cann: string): Snapshot => {
      const builder = new SnapshotBuilder();
      builder.add(modules, `DEV_MEM/dev${dev}/APP`, { peak: dev * 100, current: dev, allocs: 1, frees: 0 });
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

describe('joining the sections of many snapshots', () => {
  // Keys that exercise fileKeyOrder: numbers by value (dev2 before dev10), a leading zero (dev01 and dev1 tie, code
  // units decide), a case-only difference (the collator decides), a non-ASCII module name.
  const keyArb = fc
    .tuple(fc.constantFrom('dev', 'Dev', 'dev0'), fc.nat(12), fc.constantFrom('APP', 'app', 'HCCL', 'GE', 'Ä'))
    .map(([d, n, m]) => `DEV_MEM/${d}${n}/${m}`);
  const metric = (peak: number) => ({ peak, current: peak >> 1, allocs: 3, frees: 1 });
  /** Node snapshots of one section: keys sorted and cut into runs (the common case), then maybe shuffled or repeated. */
  const partsArb = fc
    .record({
      keys: fc.uniqueArray(keyArb, { minLength: 0, maxLength: 40 }),
      cuts: fc.array(fc.nat(40), { maxLength: 6 }),
      peaks: fc.array(fc.nat(1 << 20), { minLength: 40, maxLength: 40 }),
      shuffle: fc.boolean(),
      repeat: fc.boolean(),
    })
    .map(({ keys, cuts, peaks, shuffle, repeat }) => {
      const sorted = [...keys].sort(fileKeyOrder);
      const bounds = [...new Set([0, ...cuts.map((c) => c % (sorted.length + 1)), sorted.length])].sort(
        (a, b) => a - b,
      );
      const parts = bounds
        .slice(1)
        .map(
          (end, i) =>
            Object.fromEntries(
              sorted.slice(bounds[i], end).map((k, j) => [k, metric(peaks[(bounds[i]! + j) % 40]!)]),
            ) as SectionMetrics,
        );
      if (shuffle) parts.reverse();
      if (repeat && parts.length > 0)
        parts.push({ ...parts[0], ...(sorted[0] !== undefined ? { [sorted[0]]: metric(7) } : {}) });
      return parts;
    });
  const snapshotOf = (modules: SectionMetrics): Snapshot => ({
    version: 2,
    sections: { modules },
    series: {},
    meta: { files: 1, records: 0, skipped: 0, allocFailures: {} },
  });

  it('gives the record, key order included, that combining them in a Map and sorting gives', () => {
    fc.assert(
      fc.property(partsArb, (parts) => {
        const joined = new SnapshotBuilder();
        const mapped = new SnapshotBuilder();
        for (const part of parts) {
          joined.addSnapshot(snapshotOf(part));
          mapped.addSnapshot(snapshotOf(part));
        }
        mapped.toState(); // folds the parts into the builder's Map: build() then combines and sorts them
        const a = joined.build();
        const b = mapped.build();
        // One snapshot's section is handed on as it is (whoever needs an order sorts); what is written is the same.
        if (parts.length !== 1) expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(stringifyDocument(a)).toBe(stringifyDocument(b));
      }),
      { numRuns: 400 },
    );
  });

  it('joins keys that arrive in strictly increasing order, and leaves a key given twice or out of order to the Map', () => {
    const m = metric(1);
    expect(
      Object.keys(
        joinInOrder([{ 'DEV_MEM/dev2/APP': m }, {}, { 'DEV_MEM/dev10/APP': m, 'DEV_MEM/dev10/GE': m }]) ?? {},
      ),
    ).toEqual(['DEV_MEM/dev2/APP', 'DEV_MEM/dev10/APP', 'DEV_MEM/dev10/GE']);
    expect(joinInOrder([{ 'DEV_MEM/dev10/APP': m }, { 'DEV_MEM/dev2/APP': m }])).toBeUndefined();
    expect(joinInOrder([{ 'DEV_MEM/dev2/APP': m }, { 'DEV_MEM/dev2/APP': metric(2) }])).toBeUndefined();
    // dev01 and dev1 are the same number: code units break the tie, as the sort does
    expect(joinInOrder([{ 'DEV_MEM/dev1/APP': m }, { 'DEV_MEM/dev01/APP': m }])).toBeUndefined();
    expect(joinInOrder([{ 'DEV_MEM/dev01/APP': m }, { 'DEV_MEM/dev1/APP': m }])).toBeDefined();
  });
});

describe('reading a snapshot file', () => {
  const good = serializeNodeSnapshot(new SnapshotBuilder().build());

  it('a newer version names the file and what to do', () => {
    const newer = good.replace('"version": 2', '"version": 3');
    expect(thrown(() => parseSnapshotText(newer, 'node-3.memory-snapshot.json')).message).toBe(
      'node-3.memory-snapshot.json: /version: is 3: this snapshot was written by a newer ascend-memory-gate (this one reads version 2); use the same version on the nodes and in the gate job',
    );
  });

  it('corrupt JSON names the file, line and column; a bad field its JSON pointer', () => {
    expect(thrown(() => parseSnapshotText(good.slice(0, 40), 'n.memory-snapshot.json')).message).toMatch(
      /^n\.memory-snapshot\.json:\d+:\d+: not valid JSON/,
    );
    const bad = JSON.parse(good) as { meta: { files: unknown } };
    bad.meta.files = -1;
    expect(thrown(() => parseSnapshotText(JSON.stringify(bad), 'n.memory-snapshot.json')).message).toMatch(
      /^n\.memory-snapshot\.json: \/meta\/files: /,
    );
  });
});

// keysOf (src/model/snapshot.ts): the own keys of a section record, listed once by the pass that reads or builds it and then
// reused by the gate; it must be exactly Object.keys of the record, in its order.
import { describe, expect, it } from 'vitest';
import { parseSnapshotText } from '../../../src/parsers/node-snapshot-file.js';
import { hasNoMetrics, SnapshotBuilder } from '../../../src/model/snapshot.js';
import { stringifyDocument } from '../../../src/model/document-json.js';
import { keysOf } from '../../../src/model/record-keys.js';
import { kernels as kernelsSection, modules as modulesSection } from '../../../src/model/sections/index.js';

const modules = (devices: number): [string, number][] =>
  Array.from({ length: devices * 2 }, (_, i) => [`DEV_MEM/dev${i >> 1}/${i % 2 ? 'HCCL' : 'APP'}`, 1000 + i]);

describe('keysOf', () => {
  it('is Object.keys of records read from a snapshot file and of records build() made, large and small', () => {
    for (const devices of [3, 2000]) {
      const builder = new SnapshotBuilder();
      // Added out of order: build() sorts them (dev2 before dev10).
      for (const [key, peak] of modules(devices).reverse())
        builder.add(modulesSection, key, { peak, current: peak, allocs: 1, frees: 0 });
      builder.add(kernelsSection, 'dev0/matmul', { diff: 4, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' });
      const built = builder.build();
      const read = parseSnapshotText(stringifyDocument(built), 'run.memory-snapshot.json');
      for (const snapshot of [built, read]) {
        for (const name of ['modules', 'kernels'] as const) {
          const record = snapshot.sections[name] as object;
          expect(keysOf(record)).toEqual(Object.keys(record));
        }
        expect(hasNoMetrics(snapshot)).toBe(false);
      }
      expect(keysOf(read.sections.modules as object)[0]).toBe('DEV_MEM/dev0/APP');
    }
  });

  it('lists a record that no pass noted, and an empty section counts as no metric', () => {
    const record = { b: 1, a: 2 };
    expect(keysOf(record)).toEqual(['b', 'a']);
    const empty = parseSnapshotText(
      JSON.stringify({
        version: 2,
        sections: { modules: {} },
        series: {},
        meta: { files: 0, records: 0, skipped: 0, allocFailures: {} },
      }),
      's.json',
    );
    expect(hasNoMetrics(empty)).toBe(true);
  });
});

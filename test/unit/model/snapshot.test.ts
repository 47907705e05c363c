// The shared model: section declarations, mergeable series and snapshots, device names, and a run that only failed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../../src/gate/compare.js';
import { DEFAULT_CONFIG } from '../../../src/gate/thresholds.js';
import { SOURCES } from '../../../src/parsers/evidence-sources.js';
import {
  combineMetrics,
  deviceName,
  section,
  SECTIONS,
  splitDevice,
  kernels,
  modules,
} from '../../../src/model/sections/index.js';
import { MAX_POINTS, mergeSeries, SeriesBuilder, type Series } from '../../../src/model/series.js';
import { isEmptySnapshot, SnapshotBuilder, type Snapshot } from '../../../src/model/snapshot.js';
import { stableStringify } from '../../../src/model/document-json.js';

const seriesOf = (samples: readonly [number, number][], axis: 'time' | 'step' = 'time'): Series => {
  const b = new SeriesBuilder(axis);
  for (const [x, y] of samples) b.add(x, y);
  return b.toSeries();
};
const sample = fc.tuple(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 0, max: 2 ** 40 }));

describe('series: window peaks that merge in any order', () => {
  it('keeps the largest value per bucket and leaves empty buckets out (never 0)', () => {
    expect(
      seriesOf(
        [
          [1, 5],
          [1, 9],
          [1, 2],
          [7, 3],
        ],
        'step',
      ),
    ).toEqual({
      axis: 'step',
      width: 1,
      points: [
        [1, 9],
        [7, 3],
      ],
    });
  });

  it(`coarsens to a power-of-two width that fits ${MAX_POINTS} points, each the max of its window`, () => {
    const s = seriesOf(Array.from({ length: 1000 }, (_, i) => [i, i % 10 === 3 ? 1000 + i : i] as [number, number]));
    expect(s.width).toBe(8);
    expect(s.points.length).toBe(125);
    expect(s.points[0]).toEqual([0, 1003]);
    expect(s.points.at(-1)).toEqual([992, 1993]);
  });

  it('merging equals sampling everything into one series, for any split and order (associative, commutative)', () => {
    fc.assert(
      fc.property(
        fc.array(sample, { maxLength: 600 }),
        fc.array(sample, { maxLength: 600 }),
        fc.array(sample, { maxLength: 50 }),
        (a, b, c) => {
          const all = seriesOf([...a, ...b, ...c]);
          expect(mergeSeries(seriesOf(a), seriesOf(b))).toEqual(seriesOf([...a, ...b]));
          expect(mergeSeries(mergeSeries(seriesOf(a), seriesOf(b)), seriesOf(c))).toEqual(all);
          expect(mergeSeries(seriesOf(c), mergeSeries(seriesOf(b), seriesOf(a)))).toEqual(all);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('sections', () => {
  it('declare unique names and kinds, and a compared value among their fields', () => {
    expect(new Set(SECTIONS.map((s) => s.name)).size).toBe(SECTIONS.length);
    expect(new Set(SECTIONS.map((s) => s.kind)).size).toBe(SECTIONS.length);
    for (const s of SECTIONS) expect(Object.keys(s.fields), s.name).toContain(s.value);
  });

  it('combine two metrics of one key by the larger compared value, whole; a tie by content, never by order', () => {
    const modules = section('modules');
    const a = { peak: 10, current: 1, allocs: 1, frees: 0 };
    const b = { peak: 10, current: 9, allocs: 2, frees: 2 };
    const c = { peak: 11, current: 0, allocs: null, frees: null };
    expect(combineMetrics(modules, a, c)).toBe(c);
    expect(combineMetrics(modules, c, a)).toBe(c);
    expect(combineMetrics(modules, a, b)).toBe(combineMetrics(modules, b, a));
  });

  it('keep the first of two equal metrics (the same record again), whatever their key order; a missing field is a difference', () => {
    const modules = section('modules');
    const a = { peak: 10, current: 1, allocs: 1, frees: 0 };
    const same = { frees: 0, allocs: 1, current: 1, peak: 10 };
    expect(combineMetrics(modules, a, same)).toBe(a);
    expect(combineMetrics(modules, same, a)).toBe(same);
    // Same compared value, one field fewer or null instead of 0: decided by content, the same way in both orders.
    const fewer = { peak: 10, current: 1, allocs: 1 };
    const nulls = { peak: 10, current: 1, allocs: 1, frees: null };
    expect(combineMetrics(modules, a, fewer)).toBe(combineMetrics(modules, fewer, a));
    expect(combineMetrics(modules, a, nulls)).toBe(combineMetrics(modules, nulls, a));
  });

  it('split the device out of any key, for roll-ups', () => {
    expect(splitDevice('DEV_MEM/dev3/APP')).toEqual({ device: 'dev3', group: 'DEV_MEM/*/APP' });
    expect(splitDevice('dev12/aclnnMatmul_0')).toEqual({ device: 'dev12', group: '*/aclnnMatmul_0' });
    expect(splitDevice('SVM_MEM/RUNTIME')).toEqual({ device: null, group: 'SVM_MEM/RUNTIME' });
    expect(splitDevice('device/dev')).toEqual({ device: null, group: 'device/dev' });
  });

  it('name devices one way whatever the source wrote', () => {
    expect([deviceName('03'), deviceName('dev03'), deviceName('NPU:3'), deviceName(3), deviceName('0')]).toEqual([
      'dev3',
      'dev3',
      'dev3',
      'dev3',
      'dev0',
    ]);
    expect([
      deviceName('cpu'),
      deviceName('N/A'),
      deviceName(''),
      deviceName('-1'),
      deviceName('1'.repeat(20)),
    ]).toEqual([null, null, null, null, null]);
  });
});

describe('evidence sources', () => {
  it('have unique names, CLI flags and Action inputs', () => {
    for (const field of ['name', 'option', 'input'] as const)
      expect(new Set(SOURCES.map((s) => s[field])).size).toBe(SOURCES.length);
  });
});

/** A builder fed with one part of a run. */
function part(seed: number): SnapshotBuilder {
  const b = new SnapshotBuilder();
  b.files = 1;
  b.records = seed;
  b.add(modules, `DEV_MEM/dev${seed % 3}/APP`, { peak: 1000 + seed, current: seed, allocs: seed, frees: 0 });
  b.add(modules, 'DEV_MEM/dev0/HCCL', { peak: 500, current: seed, allocs: 1, frees: 1 });
  b.add(kernels, `dev0/k${seed % 2}`, { diff: seed - 3, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' });
  b.addSample('modules', 'DEV_MEM/dev0/HCCL', 'time', seed * 1_000_000, 100 * seed);
  b.noteDevice(`dev${seed % 3}`);
  if (seed % 2 === 1)
    b.addAllocFailure('dev1', 1, { file: `rank_${seed}/plog.log`, line: seed, text: 'halMemAlloc failed' });
  return b;
}

describe('snapshots merge in any order to the same result', () => {
  it('builders merged in any permutation build byte-identical snapshots', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7], { minLength: 1 }), (order) => {
        const forward = new SnapshotBuilder();
        for (const seed of [...order].sort()) forward.merge(part(seed));
        const shuffled = new SnapshotBuilder();
        for (const seed of order) shuffled.merge(part(seed));
        expect(stableStringify(shuffled.build())).toBe(stableStringify(forward.build()));
      }),
    );
  });

  it('folding built snapshots in gives what merging the builders gives', () => {
    const direct = new SnapshotBuilder();
    const viaSnapshots = new SnapshotBuilder();
    for (const seed of [1, 2, 3, 4, 5, 6, 7]) {
      direct.merge(part(seed));
      viaSnapshots.addSnapshot(part(seed).build());
    }
    expect(viaSnapshots.build()).toEqual(direct.build());
    expect(direct.build().meta.allocFailureSites).toEqual({
      dev1: [1, 3, 5, 7].map((n) => ({ file: `rank_${n}/plog.log`, line: n, text: 'halMemAlloc failed' })),
    });
  });
});

describe('a job that died of an out-of-memory', () => {
  const oom: Snapshot = (() => {
    const b = new SnapshotBuilder();
    b.files = 1;
    b.addAllocFailure('dev2', 3, { file: 'rank_2/plog-7.log', line: 812, text: 'halMemAlloc failed: device_id=2' });
    return b.build();
  })();

  it('is evidence, not an empty run', () => {
    expect(isEmptySnapshot(oom)).toBe(false);
    expect(isEmptySnapshot(new SnapshotBuilder().build())).toBe(true);
  });

  it('fails the gate with alloc-failure on the device, naming the first failure line', () => {
    const report = compareSnapshots({ sections: {} }, oom, DEFAULT_CONFIG);
    expect(report.result).toBe('fail');
    expect(report.entries).toEqual([
      expect.objectContaining({
        kind: 'device',
        key: 'dev2',
        current: 3,
        status: 'alloc-failure',
        severity: 'fail',
        note: expect.stringContaining('on dev2; first at rank_2/plog-7.log:812:'),
      }),
    ]);
  });
});

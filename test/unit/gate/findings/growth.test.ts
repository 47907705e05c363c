// The growing verdict: generated memory_record timelines (steady rise, noise, gaps, saw-tooth, step then plateau), step series, and the real corpus.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../../../src/gate/compare.js';
import type { GateInput } from '../../../../src/gate/types.js';
import { assessGrowth, DEFAULT_GROWTH, sparkline, theilSen } from '../../../../src/gate/findings/growth.js';
import { DEFAULT_CONFIG, parseGateConfig } from '../../../../src/gate/thresholds.js';
import { parseProfilerText } from '../../../../src/parsers/profiler/index.js';
import type { Series } from '../../../../src/model/series.js';
import { memoryRecord } from '../../../generators/memory-record.js';
import { mulberry32 as rng } from '../../../helpers/random.js';
import { CollectingTarget } from '../../../helpers/profiler-target.js';
import { thrown } from '../../../helpers/thrown.js';
import { MiB } from '../../../helpers/story.js';

const SECOND = 1_000_000; // µs

/** Every series of a parsed file with its verdict. */
function verdicts(text: string): Record<string, ReturnType<typeof assessGrowth>> {
  const into = new CollectingTarget();
  parseProfilerText('rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv', text, into);
  const out: Record<string, ReturnType<typeof assessGrowth>> = {};
  for (const section of Object.values(into.series))
    for (const [key, series] of Object.entries(section)) out[key] = assessGrowth(series);
  return out;
}

const growingKeys = (v: Record<string, ReturnType<typeof assessGrowth>>): string[] =>
  Object.entries(v)
    .filter(([, g]) => g?.growing)
    .map(([k]) => k)
    .sort();

describe('time axis, from generated memory_record.csv files', () => {
  it('flags a steady 2% rise per window after warm-up on exactly that key, with the projected rise', () => {
    // 100 windows: 20 flat at 4000 MB (warm-up), then +80 MB (2% of 4000) per window up to 4000 + 79 × 80 = 10,320 MB.
    const v = verdicts(memoryRecord(100, (w) => (w < 20 ? 4000 : 4000 + (w - 20) * 80)));
    expect(growingKeys(v)).toEqual(['dev0/PTA/active', 'dev0/PTA/allocated']);
    const g = v['dev0/PTA/allocated'];
    // Series windows are 2^20 µs (1.05 s, the first power of two fitting 100 s into ≤ 200 windows). The slope is
    // 80 MB per 10^6 µs, and the run after warm-up spans (end − cut) µs; the projected rise is slope × span.
    expect(g?.slope).toBeCloseTo((80 * MiB) / SECOND, -1);
    expect(g?.rise).toBeGreaterThan(78 * 80 * MiB);
    expect(g?.rise).toBeLessThan(82 * 80 * MiB);
    // Tolerance: the larger of 5% of the peak (10,320 MB × 5% = 516 MB) and 64 MiB.
    expect(g?.limit).toBe(Math.round(10320 * MiB * 0.05));
    expect(g?.note).toMatch(
      /^▁[▁-█]+█ 3\.9 GiB → 10\.1 GiB after warm-up \(\d+ windows\), Theil–Sen \+281\.\d GiB\/h: rises 6\.\d GiB across the run after warm-up, over the 516\.0 MiB tolerated$/,
    );
    // Flat keys are assessed and pass.
    expect(v['dev0/PTA/reserved']).toMatchObject({ growing: false, rise: 0 });
    expect(v['dev0/APP/reserved']).toMatchObject({ growing: false, rise: 0 });
  });

  it('does not flag noise of ±5% around a flat level', () => {
    const random = rng(7);
    const v = verdicts(memoryRecord(100, () => 4000 * (0.95 + 0.1 * random())));
    expect(growingKeys(v)).toEqual([]);
    const g = v['dev0/PTA/allocated'];
    expect(g).not.toBeNull();
    expect(Math.abs(g?.rise ?? Infinity)).toBeLessThan(g?.limit ?? 0);
  });

  it('does not flag a saw-tooth within one band (allocations freed every step)', () => {
    // Each 10-window step climbs 1000 → 1900 MB and frees back to 1000 MB.
    const v = verdicts(memoryRecord(100, (w) => 1000 + (w % 10) * 100));
    expect(growingKeys(v)).toEqual([]);
    expect(v['dev0/PTA/allocated']?.note).toMatch(
      /rises and falls within one band \(its troughs do not rise\): not growth$/,
    );
  });

  it('skips windows without samples instead of reading them as zero', () => {
    // Flat at 4000 MB with no PTA rows in windows 30–69: the gap is absent from the series, so nothing dips or rises.
    const flat = verdicts(memoryRecord(100, (w) => (w >= 30 && w < 70 ? null : 4000)));
    expect(flat['dev0/PTA/allocated']).toMatchObject({ growing: false, rise: 0 });
    // The same gap inside a steady rise: still growing, at the same slope.
    const rising = verdicts(memoryRecord(100, (w) => (w >= 30 && w < 70 ? null : 4000 + w * 80)));
    expect(growingKeys(rising)).toEqual(['dev0/PTA/active', 'dev0/PTA/allocated']);
    expect(rising['dev0/PTA/allocated']?.slope).toBeCloseTo((80 * MiB) / SECOND, -1);
  });

  it('does not flag a rise that then stays flat (a step up, not growth)', () => {
    // Flat 4000 MB, a ramp to 6000 MB over windows 30–50, flat 6000 MB to the end.
    const v = verdicts(memoryRecord(100, (w) => (w < 30 ? 4000 : w < 50 ? 4000 + (w - 30) * 100 : 6000)));
    expect(growingKeys(v)).toEqual([]);
    expect(v['dev0/PTA/allocated']?.note).toMatch(/rose, then stayed flat over the last half: a step up, not growth$/);
  });

  it('says nothing about a series with fewer windows after warm-up than minWindows', () => {
    const series: Series = {
      axis: 'time',
      width: 1,
      points: [
        [0, 1],
        [10, 2],
        [20, 3],
      ],
    };
    expect(assessGrowth(series)).toBeNull();
  });
});

describe('time axis, real corpus files', () => {
  const fixture = (rel: string): string =>
    readFileSync(fileURLToPath(new URL(`../../../fixtures/torch_npu/${rel}`, import.meta.url)), 'latin1');

  it('finds no growth in level0-2025-01: PTA allocated climbs to 1,188 MB in one step and frees back to ~954 MB', () => {
    const v = verdicts(fixture('level0-2025-01/rank0_ascend_pt/memory_record.csv'));
    expect(growingKeys(v)).toEqual([]);
    // 56 ms of one training step: the window peaks after warm-up go 1,086 MB (flat), 852 MB (freed), back up to
    // 1,188 MB in the last windows, then 954 MB: the Theil–Sen slope over them is negative.
    const g = v['dev0/PTA/allocated'];
    expect(g?.slope).toBeLessThan(0);
    expect(g?.to[1]).toBeLessThan(1188 * MiB);
  });

  it('finds no growth in st-level2 rank 0: allocated falls from 10.0 GiB to 4.2 GiB after the peak step', () => {
    const v = verdicts(fixture('st-level2-pt2.7.1-cann8.3/rank_0_ascend_pt/memory_record.csv'));
    expect(growingKeys(v)).toEqual([]);
    expect(v['dev0/PTA/allocated']?.slope).toBeLessThan(0);
  });
});

describe('step axis', () => {
  const steps = (values: number[]): Series => ({ axis: 'step', width: 1, points: values.map((y, i) => [i, y]) });

  it('catches a leak of 4 MB per step over 6 steps', () => {
    // Step 0 is warm-up (weights, optimizer state); steps 1–5 each hold 4 MiB more.
    const g = assessGrowth(steps([100 * MiB, 2000 * MiB, 2004 * MiB, 2008 * MiB, 2012 * MiB, 2016 * MiB]));
    // Rise over steps 1–5: 4 × 4 MiB = 16 MiB, held against 4 steps × 1 MiB.
    expect(g).toMatchObject({
      growing: true,
      slope: 4 * MiB,
      rise: 16 * MiB,
      limit: 4 * MiB,
      from: [1, 2000 * MiB],
      to: [5, 2016 * MiB],
    });
    expect(g?.note).toBe(
      '▁▃▅▆█ 2.0 GiB → 2.0 GiB over steps 1–5, Theil–Sen +4.0 MiB/step: at least 1.0 MiB more every step',
    );
  });

  it('catches the same leak in decimal megabytes (4,000,000 bytes = 3.8 MiB per step)', () => {
    const g = assessGrowth(steps([0, 1e9, 1.004e9, 1.008e9, 1.012e9, 1.016e9]));
    expect(g).toMatchObject({ growing: true, slope: 4_000_000, rise: 16_000_000 });
  });

  it('does not flag half a MiB per step, a flat run after a big first step, or a rise that stopped', () => {
    expect(assessGrowth(steps([0, 1000 * MiB, 1000.5 * MiB, 1001 * MiB, 1001.5 * MiB, 1002 * MiB]))?.growing).toBe(
      false,
    );
    expect(assessGrowth(steps([0, 3000 * MiB, 3000 * MiB, 3000 * MiB, 3000 * MiB, 3000 * MiB]))).toMatchObject({
      growing: false,
      slope: 0,
    });
    const stopped = assessGrowth(
      steps([0, 1000 * MiB, 1100 * MiB, 1200 * MiB, 1200 * MiB, 1200 * MiB, 1200 * MiB, 1200 * MiB]),
    );
    expect(stopped?.growing).toBe(false);
    expect(stopped?.note).toMatch(/a step up, not growth$/);
  });

  it('takes its threshold from config: 8 MiB per step tolerates the 4 MB leak', () => {
    const g = assessGrowth(steps([0, 2000 * MiB, 2004 * MiB, 2008 * MiB, 2012 * MiB, 2016 * MiB]), {
      ...DEFAULT_GROWTH,
      perStep: 8 * MiB,
    });
    expect(g?.growing).toBe(false);
  });
});

describe('helpers', () => {
  it('Theil–Sen ignores one wild point', () => {
    // y = 2x except one outlier: the median of the pairwise slopes stays 2.
    expect(
      theilSen([
        [0, 0],
        [1, 2],
        [2, 4],
        [3, 1000],
        [4, 8],
        [5, 10],
      ]),
    ).toBe(2);
  });
  it('draws a sparkline of at most 16 levels from low to high', () => {
    expect(
      sparkline([
        [0, 0],
        [1, 7],
        [2, 14],
      ]),
    ).toBe('▁▅█');
    expect(
      sparkline([
        [0, 5],
        [1, 5],
      ]),
    ).toBe('▁▁');
    expect(sparkline(Array.from({ length: 64 }, (_, i) => [i, i] as [number, number]))).toHaveLength(16);
  });
});

describe('the growing finding in the gate', () => {
  // 100 one-second windows: flat, then +80 MB per window; and a flat series beside it.
  const rising: Series = {
    axis: 'time',
    width: SECOND,
    points: Array.from({ length: 100 }, (_, w) => [w * SECOND, (w < 20 ? 4000 : 4000 + (w - 20) * 80) * MiB]),
  };
  const flat: Series = {
    axis: 'time',
    width: SECOND,
    points: Array.from({ length: 100 }, (_, w) => [w * SECOND, 4000 * MiB]),
  };
  const run: GateInput = {
    sections: {
      components: { 'dev0/PTA/allocated': { peak: 10320 * MiB }, 'dev0/PTA/reserved': { peak: 4000 * MiB } },
    },
    series: { components: { 'dev0/PTA/allocated': rising, 'dev0/PTA/reserved': flat } },
  };

  it('warns by default on the rising key only, right after its baseline verdict, with the rise against the tolerance', () => {
    const report = compareSnapshots(run, run, DEFAULT_CONFIG);
    const keys = report.entries.map((e) => [e.key, e.status, e.severity]);
    expect(keys).toEqual([
      ['dev0/PTA/allocated', 'pass', 'ok'],
      ['dev0/PTA/allocated', 'growing', 'warn'],
      ['dev0/PTA/reserved', 'pass', 'ok'],
    ]);
    const growing = report.entries[1];
    // Slope 80 MB per second; the run after warm-up spans 100 s − 20 s = 80 s: 6,400 MB. Limit: 5% of 10,320 MB.
    expect(growing).toMatchObject({
      kind: 'component',
      baseline: null,
      delta: null,
      unit: 'bytes',
      rule: null,
      current: 6400 * MiB,
      limit: Math.round(10320 * MiB * 0.05),
    });
    expect(report.result).toBe('pass');
  });

  it("fails with verdicts.growing 'fail', assesses nothing with 'ignore', and skips keys a rule ignores", () => {
    const failing = parseGateConfig({ verdicts: { growing: 'fail' } }, 'gate.json');
    expect(compareSnapshots(run, run, failing).result).toBe('fail');
    const off = parseGateConfig({ verdicts: { growing: 'ignore' } }, 'gate.json');
    expect(compareSnapshots(run, run, off).entries.filter((e) => e.status === 'growing')).toEqual([]);
    const ruled = parseGateConfig({ components: { rules: [{ match: '*/PTA/allocated', ignore: true }] } }, 'gate.json');
    expect(compareSnapshots(run, run, ruled).entries.filter((e) => e.status === 'growing')).toEqual([]);
  });

  it('reads growth from the config, sizes with units, and refuses a warm-up over 90% with the JSON pointer', () => {
    const config = parseGateConfig(
      { growth: { warmupPercent: 50, tolerance: { bytes: '1GiB' }, perStep: '512KiB', warmupSteps: 2, minWindows: 3 } },
      'gate.json',
    );
    expect(config.growth).toEqual({
      warmupPercent: 50,
      tolerance: { bytes: 2 ** 30 },
      perStep: 512 * 1024,
      warmupSteps: 2,
      minWindows: 3,
    });
    expect(thrown(() => parseGateConfig({ growth: { warmupPercent: 95 } }, 'gate.json')).message).toMatch(
      /^gate\.json: \/growth\/warmupPercent: /,
    );
    // A tolerance of 10 GiB lets the 6.25 GiB rise pass.
    const loose = parseGateConfig({ growth: { tolerance: { bytes: '10GiB' } } }, 'gate.json');
    expect(compareSnapshots(run, run, loose).entries.filter((e) => e.status === 'growing')).toEqual([]);
  });
});

// The gate's verdicts: tolerance semantics, budgets, rules, new and missing keys, improvements, and the report's shape.
import { describe, expect, it } from 'vitest';
import { compareSnapshots, judge } from '../../../src/gate/compare.js';
import { exceedsTolerance, percentChange } from '../../../src/gate/thresholds.js';
import { DEFAULT_CONFIG, applyMaxIncrease, parseGateConfig, parseMaxIncrease } from '../../../src/gate/thresholds.js';
import {
  STATUSES,
  type Entry,
  type GateConfig,
  type KindThresholds,
  type Status,
  type Tolerance,
} from '../../../src/gate/types.js';
import type { Snapshot } from '../../../src/model/snapshot.js';
import { type KernelMetric, type ModuleMetric } from '../../../src/model/sections/index.js';
import { GiB, GROWN_APP_PEAK, MiB, SEED_APP_DELTA, SEED_APP_PEAK } from '../../helpers/story.js';

function moduleMetric(peak: number): ModuleMetric {
  return { peak, current: peak, allocs: 1, frees: 0 };
}

function kernelMetric(diff: number): KernelMetric {
  return { diff, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' };
}

/** A snapshot from peaks per module key and diffs per kernel key. */
function snapshot(modules: Record<string, number>, kernels: Record<string, number> = {}): Snapshot {
  return {
    version: 2,
    sections: {
      modules: Object.fromEntries(Object.entries(modules).map(([k, v]) => [k, moduleMetric(v)])),
      kernels: Object.fromEntries(Object.entries(kernels).map(([k, v]) => [k, kernelMetric(v)])),
    },
    series: {},
    meta: { files: 1, records: 1, skipped: 0, allocFailures: { dev0: 0 } },
  };
}

// Every status at 0, from the registry: a new finding's status needs no line here.
const noCounts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;

describe('the story from the CANN docs', () => {
  it('fails when APP peak on dev0 grows 10x while RUNTIME stays put', () => {
    const report = compareSnapshots(
      snapshot({ 'DEV_MEM/dev0/APP': SEED_APP_PEAK, 'DEV_MEM/dev0/RUNTIME': 44_138_496 }),
      snapshot({ 'DEV_MEM/dev0/APP': GROWN_APP_PEAK, 'DEV_MEM/dev0/RUNTIME': 44_138_496 }),
      DEFAULT_CONFIG,
    );
    expect(report).toEqual({
      result: 'fail',
      counts: { ...noCounts, regressed: 1, pass: 1 },
      entries: [
        {
          kind: 'module',
          key: 'DEV_MEM/dev0/APP',
          baseline: SEED_APP_PEAK,
          current: GROWN_APP_PEAK,
          delta: SEED_APP_DELTA,
          percent: 900,
          status: 'regressed',
          severity: 'fail',
          rule: null,
        },
        {
          kind: 'module',
          key: 'DEV_MEM/dev0/RUNTIME',
          baseline: 44_138_496,
          current: 44_138_496,
          delta: 0,
          percent: 0,
          status: 'pass',
          severity: 'ok',
          rule: null,
        },
      ],
    });
  });

  it('passes when nothing moved', () => {
    const run = snapshot({ 'DEV_MEM/dev0/APP': SEED_APP_PEAK }, { 'dev0/aclnnMatmul_0': 4096 });
    const report = compareSnapshots(run, run, DEFAULT_CONFIG);
    expect(report.result).toBe('pass');
    expect(report.counts).toEqual({ ...noCounts, pass: 2 });
  });
});

describe('tolerance semantics (exceedsTolerance)', () => {
  it.each<[string, number, number, Tolerance, boolean]>([
    ['exactly +5% is not a regression', 50, 1000, { percent: 5 }, false],
    ['one byte over 5% is', 51, 1000, { percent: 5 }, true],
    ['exactly at 2.5% is not', 25, 1000, { percent: 2.5 }, false],
    ['just over 2.5% is', 26, 1000, { percent: 2.5 }, true],
    ['exactly +1 MiB is not', MiB, 100 * MiB, { bytes: MiB }, false],
    ['one byte over 1 MiB is', MiB + 1, 100 * MiB, { bytes: MiB }, true],
    ['a small module doubling by 1000 bytes is jitter under {5%, 1MiB}', 1000, 1000, { percent: 5, bytes: MiB }, false],
    ['a big module growing 2 MiB is under 5% of 1 GiB', 2 * MiB, GiB, { percent: 5, bytes: MiB }, false],
    ['growth over both 5% and 1 MiB regresses', 60 * MiB, GiB, { percent: 5, bytes: MiB }, true],
    ['an empty tolerance: any growth regresses', 1, GiB, {}, true],
    ['an empty tolerance: no change does not', 0, GiB, {}, false],
    ['bytes 0: one byte regresses', 1, 10, { bytes: 0 }, true],
    ['bytes 0: no change does not', 0, 10, { bytes: 0 }, false],
    ['a shrink never exceeds', -GiB, GiB, {}, false],
    ['baseline 0: any growth exceeds a percent', 1, 0, { percent: 5 }, true],
    ['baseline 0: a percent still needs the bytes exceeded too', 10, 0, { percent: 5, bytes: 10 }, false],
    ['baseline 0: over the bytes as well', 11, 0, { percent: 5, bytes: 10 }, true],
    ['a negative baseline: percent of |baseline|, over', 50, -100, { percent: 40 }, true],
    ['a negative baseline: percent of |baseline|, exactly at', 50, -100, { percent: 50 }, false],
    ['percent 0: any growth exceeds', 1, 1000, { percent: 0 }, true],
  ])('%s', (_story, change, baseline, tolerance, expected) => {
    expect(exceedsTolerance(change, baseline, tolerance)).toBe(expected);
  });
});

describe('percentChange', () => {
  it.each<[number | null, number | null, number | null]>([
    [1000, 1100, 10],
    [1000, 900, -10],
    [0, 100, null],
    [null, 100, null],
    [100, null, null],
    [-100, -50, 50],
    [-50, -100, -100],
  ])('from %j to %j is %j', (baseline, current, percent) => {
    expect(percentChange(baseline, current)).toBe(percent);
  });
});

describe('verdicts', () => {
  const modules = (
    rules: KindThresholds['rules'] = [],
    tolerance: Tolerance = { percent: 5, bytes: MiB },
  ): KindThresholds => ({
    tolerance,
    rules,
  });
  const policies = { onNew: 'warn', onMissing: 'warn', failOnImprovement: false } as const;

  it.each<
    [
      string,
      number | null,
      number | null,
      KindThresholds,
      Partial<GateConfig>,
      Pick<Entry, 'status' | 'severity' | 'rule'>,
    ]
  >([
    [
      'grows past both tolerances',
      100 * MiB,
      110 * MiB,
      modules(),
      {},
      { status: 'regressed', severity: 'fail', rule: null },
    ],
    ['grows within the bytes allowance', 1000, 2000, modules(), {}, { status: 'pass', severity: 'ok', rule: null }],
    ['is unchanged', 1000, 1000, modules(), {}, { status: 'pass', severity: 'ok', rule: null }],
    [
      'shrinks past the tolerance: an improvement, shown but ok',
      100 * MiB,
      90 * MiB,
      modules(),
      {},
      { status: 'improved', severity: 'ok', rule: null },
    ],
    [
      'shrinks past the tolerance with failOnImprovement',
      100 * MiB,
      90 * MiB,
      modules(),
      { failOnImprovement: true },
      { status: 'improved', severity: 'fail', rule: null },
    ],
    [
      'shrinks within the tolerance',
      100 * MiB,
      99 * MiB,
      modules(),
      { failOnImprovement: true },
      { status: 'pass', severity: 'ok', rule: null },
    ],
    ['is new, onNew warn', null, 5, modules(), {}, { status: 'new', severity: 'warn', rule: null }],
    ['is new, onNew fail', null, 5, modules(), { onNew: 'fail' }, { status: 'new', severity: 'fail', rule: null }],
    ['is new, onNew ignore', null, 5, modules(), { onNew: 'ignore' }, { status: 'new', severity: 'ok', rule: null }],
    ['is missing, onMissing warn', 5, null, modules(), {}, { status: 'missing', severity: 'warn', rule: null }],
    [
      'is missing, onMissing fail',
      5,
      null,
      modules(),
      { onMissing: 'fail' },
      { status: 'missing', severity: 'fail', rule: null },
    ],
    [
      'is missing, onMissing ignore',
      5,
      null,
      modules(),
      { onMissing: 'ignore' },
      { status: 'missing', severity: 'ok', rule: null },
    ],
    [
      'is over budget though unchanged',
      61 * GiB,
      61 * GiB,
      modules([{ match: 'DEV_MEM/*/APP', budget: 60 * GiB }]),
      {},
      { status: 'over-budget', severity: 'fail', rule: 'DEV_MEM/*/APP' },
    ],
    [
      'is over budget with no baseline at all',
      null,
      61 * GiB,
      modules([{ match: 'DEV_MEM/*/APP', budget: 60 * GiB }]),
      {},
      { status: 'over-budget', severity: 'fail', rule: 'DEV_MEM/*/APP' },
    ],
    [
      'is over budget and regressed: budget wins',
      GiB,
      61 * GiB,
      modules([{ match: 'DEV_MEM/*/APP', budget: 60 * GiB }]),
      {},
      { status: 'over-budget', severity: 'fail', rule: 'DEV_MEM/*/APP' },
    ],
    [
      'sits exactly at its budget',
      60 * GiB,
      60 * GiB,
      modules([{ match: 'DEV_MEM/*/APP', budget: 60 * GiB }]),
      {},
      { status: 'pass', severity: 'ok', rule: 'DEV_MEM/*/APP' },
    ],
    [
      'is new and under budget',
      null,
      GiB,
      modules([{ match: 'DEV_MEM/*/APP', budget: 60 * GiB }]),
      {},
      { status: 'new', severity: 'warn', rule: 'DEV_MEM/*/APP' },
    ],
    [
      'has a budget and regresses under it: the default tolerance still applies',
      GiB,
      2 * GiB,
      modules([{ match: 'DEV_MEM/*/APP', budget: 60 * GiB }]),
      {},
      { status: 'regressed', severity: 'fail', rule: 'DEV_MEM/*/APP' },
    ],
    [
      'is missing with a budget',
      GiB,
      null,
      modules([{ match: 'DEV_MEM/*/APP', budget: 1 }]),
      { onMissing: 'ignore' },
      { status: 'missing', severity: 'ok', rule: 'DEV_MEM/*/APP' },
    ],
    [
      'is ignored though it grew 10x',
      GiB,
      10 * GiB,
      modules([{ match: 'DEV_MEM/**', ignore: true }]),
      {},
      { status: 'ignored', severity: 'ok', rule: 'DEV_MEM/**' },
    ],
    [
      'is ignored though over budget (ignore wins)',
      GiB,
      10 * GiB,
      modules([{ match: 'DEV_MEM/**', ignore: true, budget: 1 }]),
      {},
      { status: 'ignored', severity: 'ok', rule: 'DEV_MEM/**' },
    ],
    [
      'is ignored though new and onNew fail',
      null,
      1,
      modules([{ match: 'DEV_MEM/**', ignore: true }]),
      { onNew: 'fail' },
      { status: 'ignored', severity: 'ok', rule: 'DEV_MEM/**' },
    ],
    [
      'is ignored though missing and onMissing fail',
      1,
      null,
      modules([{ match: 'DEV_MEM/**', ignore: true }]),
      { onMissing: 'fail' },
      { status: 'ignored', severity: 'ok', rule: 'DEV_MEM/**' },
    ],
    [
      'matches a rule with ignore false: judged normally',
      100 * MiB,
      110 * MiB,
      modules([{ match: 'DEV_MEM/**', ignore: false }]),
      {},
      { status: 'regressed', severity: 'fail', rule: 'DEV_MEM/**' },
    ],
  ])('DEV_MEM/dev0/APP %s', (_story, baseline, current, thresholds, overrides, expected) => {
    const entry = judge('module', 'DEV_MEM/dev0/APP', baseline, current, thresholds, { ...policies, ...overrides });
    expect({ status: entry.status, severity: entry.severity, rule: entry.rule }).toEqual(expected);
  });

  it('a rule tolerance replaces the default as a whole: +20% of 1000 bytes regresses under {percent: 10}', () => {
    const config = parseGateConfig(
      { modules: { rules: [{ match: 'DEV_MEM/*/HCCL', tolerance: { percent: 10 } }] } },
      'cfg.json',
    );
    const report = compareSnapshots(
      snapshot({ 'DEV_MEM/dev0/HCCL': 1000, 'DEV_MEM/dev0/GE': 1000 }),
      snapshot({ 'DEV_MEM/dev0/HCCL': 1200, 'DEV_MEM/dev0/GE': 1200 }),
      config,
    );
    // HCCL's rule drops the default 1 MiB allowance; GE keeps the defaults and passes.
    expect(report.entries.map((e) => [e.key, e.status, e.rule])).toEqual([
      ['DEV_MEM/dev0/GE', 'pass', null],
      ['DEV_MEM/dev0/HCCL', 'regressed', 'DEV_MEM/*/HCCL'],
    ]);
  });

  it('the first matching rule decides even when a later rule would fail the key', () => {
    const config = parseGateConfig(
      {
        modules: {
          rules: [
            { match: 'DEV_MEM/dev0/*', ignore: true },
            { match: 'DEV_MEM/*/APP', budget: '1KiB' },
          ],
        },
      },
      'cfg.json',
    );
    const report = compareSnapshots(
      snapshot({}),
      snapshot({ 'DEV_MEM/dev0/APP': GiB, 'DEV_MEM/dev1/APP': GiB }),
      config,
    );
    expect(report.entries.map((e) => [e.key, e.status, e.rule])).toEqual([
      ['DEV_MEM/dev0/APP', 'ignored', 'DEV_MEM/dev0/*'],
      ['DEV_MEM/dev1/APP', 'over-budget', 'DEV_MEM/*/APP'],
    ]);
  });
});

describe('kernels', () => {
  it('any growth of a kernel diff regresses by default', () => {
    const entry = judge('kernel', 'dev0/aclnnMatmul_0', 4096, 4097, DEFAULT_CONFIG.sections.kernels!, DEFAULT_CONFIG);
    expect(entry).toEqual({
      kind: 'kernel',
      key: 'dev0/aclnnMatmul_0',
      baseline: 4096,
      current: 4097,
      delta: 1,
      percent: (1 / 4096) * 100,
      status: 'regressed',
      severity: 'fail',
      rule: null,
    });
  });

  it('a negative diff moving towards zero (-100 → -50) is delta +50: a regression, +50% of |baseline|', () => {
    const entry = judge('kernel', 'dev1/FlashAttention', -100, -50, DEFAULT_CONFIG.sections.kernels!, DEFAULT_CONFIG);
    expect(entry).toMatchObject({ delta: 50, percent: 50, status: 'regressed', severity: 'fail' });
  });

  it('a negative diff moving further down (-50 → -100) is an improvement', () => {
    const entry = judge('kernel', 'dev1/FlashAttention', -50, -100, DEFAULT_CONFIG.sections.kernels!, DEFAULT_CONFIG);
    expect(entry).toMatchObject({ delta: -50, percent: -100, status: 'improved', severity: 'ok' });
  });

  it('a kernel with a 0 baseline has no percent, and any growth regresses', () => {
    const entry = judge('kernel', 'dev0/Add', 0, 1, DEFAULT_CONFIG.sections.kernels!, DEFAULT_CONFIG);
    expect(entry).toMatchObject({ delta: 1, percent: null, status: 'regressed' });
  });

  it('a kernel over its budget fails whatever the baseline', () => {
    const config = parseGateConfig(
      { kernels: { rules: [{ match: 'dev*/aclnnMatmul*', budget: '1MiB' }] } },
      'cfg.json',
    );
    const entry = judge('kernel', 'dev3/aclnnMatmul_0.1', 2 * MiB, 2 * MiB, config.sections.kernels!, config);
    expect(entry).toMatchObject({ status: 'over-budget', severity: 'fail', rule: 'dev*/aclnnMatmul*' });
  });
});

describe('--max-increase', () => {
  const baseline = snapshot({ 'DEV_MEM/dev0/APP': 100 * MiB }, { 'dev0/aclnnMatmul_0': 100 * MiB, 'dev0/Add': 1000 });
  const run = snapshot({ 'DEV_MEM/dev0/APP': 103 * MiB }, { 'dev0/aclnnMatmul_0': 103 * MiB, 'dev0/Add': 1500 });

  it('relaxes the kernels default too: 3% growth passes under "5%,1MiB"', () => {
    const report = compareSnapshots(baseline, run, applyMaxIncrease(DEFAULT_CONFIG, parseMaxIncrease('5%,1MiB')));
    expect(report.entries.map((e) => [e.key, e.status])).toEqual([
      ['DEV_MEM/dev0/APP', 'pass'],
      ['dev0/aclnnMatmul_0', 'pass'],
      ['dev0/Add', 'pass'],
    ]);
  });

  it('does not override a rule that sets its own tolerance', () => {
    const config = parseGateConfig(
      { kernels: { rules: [{ match: 'dev0/Add', tolerance: { bytes: 100 } }] } },
      'cfg.json',
    );
    const report = compareSnapshots(baseline, run, applyMaxIncrease(config, parseMaxIncrease('5%,1MiB')));
    expect(report.entries.map((e) => [e.key, e.status])).toEqual([
      ['DEV_MEM/dev0/APP', 'pass'],
      ['dev0/aclnnMatmul_0', 'pass'],
      ['dev0/Add', 'regressed'],
    ]);
  });

  it('without it the same kernel growth fails', () => {
    expect(compareSnapshots(baseline, run, DEFAULT_CONFIG).counts).toEqual({ ...noCounts, pass: 1, regressed: 2 });
  });
});

describe('the report', () => {
  const baseline = snapshot(
    { 'DEV_MEM/dev10/APP': 100, 'DEV_MEM/dev2/APP': 100, 'SVM_MEM/RUNTIME': 100, 'HOST_MEM/RUNTIME': 100 },
    { 'dev0/Gone': 10, 'dev0/Same': 10 },
  );
  const run = snapshot(
    { 'DEV_MEM/dev10/APP': 100, 'DEV_MEM/dev2/APP': 100, 'DEV_MEM/dev1/HCCL': 100, 'HOST_MEM/RUNTIME': 5 * GiB },
    { 'dev0/Same': 10, 'dev1/Fresh': 10 },
  );
  const config = parseGateConfig({ modules: { rules: [{ match: 'HOST_MEM/**', ignore: true }] } }, 'cfg.json');

  it('has an entry for every key of both sides, modules then kernels, keys in natural order', () => {
    const report = compareSnapshots(baseline, run, config);
    expect(report.entries.map((e) => [e.kind, e.key, e.status, e.severity])).toEqual([
      ['module', 'DEV_MEM/dev1/HCCL', 'new', 'warn'],
      ['module', 'DEV_MEM/dev2/APP', 'pass', 'ok'],
      ['module', 'DEV_MEM/dev10/APP', 'pass', 'ok'],
      ['module', 'HOST_MEM/RUNTIME', 'ignored', 'ok'],
      ['module', 'SVM_MEM/RUNTIME', 'missing', 'warn'],
      ['kernel', 'dev0/Gone', 'missing', 'warn'],
      ['kernel', 'dev0/Same', 'pass', 'ok'],
      ['kernel', 'dev1/Fresh', 'new', 'warn'],
    ]);
    expect(report.counts).toEqual({ ...noCounts, new: 2, pass: 3, ignored: 1, missing: 2 });
    expect(report.result).toBe('pass');
  });

  it('new and missing entries carry null for the absent side, its delta and percent', () => {
    const report = compareSnapshots(baseline, run, config);
    expect(report.entries.find((e) => e.key === 'SVM_MEM/RUNTIME')).toEqual({
      kind: 'module',
      key: 'SVM_MEM/RUNTIME',
      baseline: 100,
      current: null,
      delta: null,
      percent: null,
      status: 'missing',
      severity: 'warn',
      rule: null,
    });
    expect(report.entries.find((e) => e.key === 'dev1/Fresh')).toMatchObject({
      baseline: null,
      current: 10,
      delta: null,
      percent: null,
    });
  });

  it('fails iff some entry fails: onMissing fail turns the same run red', () => {
    const report = compareSnapshots(baseline, run, { ...config, onMissing: 'fail' });
    expect(report.result).toBe('fail');
    expect(report.entries.filter((e) => e.severity === 'fail').map((e) => e.key)).toEqual([
      'SVM_MEM/RUNTIME',
      'dev0/Gone',
    ]);
  });

  it('warnings alone do not fail', () => {
    const report = compareSnapshots({ sections: {} }, run, DEFAULT_CONFIG);
    expect(report.result).toBe('pass');
    expect(report.counts).toEqual({ ...noCounts, new: 6 });
  });

  it('compares peak for modules, not current', () => {
    const before = snapshot({ 'DEV_MEM/dev0/APP': GiB });
    const after = snapshot({ 'DEV_MEM/dev0/APP': GiB });
    after.sections.modules!['DEV_MEM/dev0/APP'] = { ...moduleMetric(GiB), current: 0 };
    expect(compareSnapshots(before, after, DEFAULT_CONFIG).entries[0]).toMatchObject({
      baseline: GiB,
      current: GiB,
      status: 'pass',
    });
  });

  it('changes neither input nor the config', () => {
    const copies = structuredClone({ baseline, run, config });
    compareSnapshots(baseline, run, config);
    expect({ baseline, run, config }).toEqual(copies);
  });
});

// Device-level verdicts: headroom against the card, allocation failures, leak suspects, CANN reference costs on a first run, rank imbalance.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SchemaError } from '../../../../src/common/errors.js';
import { compareSnapshots } from '../../../../src/gate/compare.js';
import { referenceCost } from '../../../../src/gate/findings/above-reference.js';
import { estimateDevicePeaks, parseModuleKey } from '../../../../src/gate/findings/devices.js';
import { requiredHeadroom } from '../../../../src/gate/findings/headroom.js';
import { median } from '../../../../src/model/roll-up.js';
import { runGate } from '../../../../src/gate/run-gate.js';
import { DEFAULT_CONFIG, parseGateConfig } from '../../../../src/gate/thresholds.js';
import type { Entry, GateConfig, GateInput, GateReport, Status } from '../../../../src/gate/types.js';
import { parseReportJson, renderJsonReport } from '../../../../src/report/json.js';
import { type Snapshot, metricsOf } from '../../../../src/model/snapshot.js';
import { modules as modulesSection, type ModuleMetric } from '../../../../src/model/sections/index.js';
import { GiB, GROWN_APP_PEAK, MiB, SEED_APP_DELTA, SEED_APP_PEAK } from '../../../helpers/story.js';

/** A module record; counts default to the seed's alloc_cnt=996, free_cnt=0 shape (nothing freed, nothing grown). */
function metric(peak: number, allocs: number | null = 1, frees: number | null = 0): ModuleMetric {
  return { peak, current: peak, allocs, frees };
}

function run(modules: Record<string, number | ModuleMetric>, allocFailures: Record<string, number> = {}): Snapshot {
  return {
    version: 2,
    sections: {
      modules: Object.fromEntries(
        Object.entries(modules).map(([key, m]) => [key, typeof m === 'number' ? metric(m) : m]),
      ),
    },
    series: {},
    meta: { files: 1, records: Object.keys(modules).length, skipped: 0, allocFailures },
  };
}

const NO_BASELINE: GateInput = { sections: {} };

function config(json: unknown = {}): GateConfig {
  return parseGateConfig(json, '.github/memory-gate.json');
}

/** Only the entries with one of these statuses. */
function withStatus(report: GateReport, ...statuses: Status[]): Entry[] {
  return report.entries.filter((e) => statuses.includes(e.status));
}

/** Every count agrees with the entries, and the JSON report reads back as written. */
function expectConsistent(report: GateReport): void {
  for (const [status, n] of Object.entries(report.counts))
    expect([status, report.entries.filter((e) => e.status === status).length]).toEqual([status, n]);
  // The JSON adds the roll-ups across devices; the rest reads back as written.
  const { groups: _groups, ...parsed } = parseReportJson(renderJsonReport(report), 'report.json');
  expect(parsed).toEqual(report);
}

describe('the seed story: APP on dev0 grows 10x on a 16 GiB card', () => {
  const baseline = run(
    { 'DEV_MEM/dev0/APP': metric(SEED_APP_PEAK, 996, 0), 'DEV_MEM/dev0/RUNTIME': metric(44_138_496, 18, 0) },
    { dev0: 0 },
  );
  const current = run(
    { 'DEV_MEM/dev0/APP': metric(GROWN_APP_PEAK, 996, 0), 'DEV_MEM/dev0/RUNTIME': metric(44_138_496, 18, 0) },
    { dev0: 0 },
  );

  it('without a capacity: APP regressed, RUNTIME pass, and nothing else', () => {
    const report = compareSnapshots(baseline, current, DEFAULT_CONFIG);
    expect(report.entries.map((e) => [e.kind, e.key, e.status, e.severity])).toEqual([
      ['module', 'DEV_MEM/dev0/APP', 'regressed', 'fail'],
      ['module', 'DEV_MEM/dev0/RUNTIME', 'pass', 'ok'],
    ]);
  });

  it('with device capacity 16GiB: dev0 is over capacity, with the exact sum of peaks and the capacity in the entry', () => {
    const report = compareSnapshots(baseline, current, config({ device: { capacity: '16GiB' } }));
    expect(report.result).toBe('fail');
    expect(report.entries.map((e) => [e.kind, e.key, e.status, e.severity])).toEqual([
      ['module', 'DEV_MEM/dev0/APP', 'regressed', 'fail'],
      ['module', 'DEV_MEM/dev0/RUNTIME', 'pass', 'ok'],
      ['device', 'dev0', 'over-capacity', 'fail'],
    ]);
    expect(report.entries[2]).toEqual<Entry>({
      kind: 'device',
      key: 'dev0',
      baseline: 2_122_334_208, // 2,078,195,712 + 44,138,496
      current: 20_826_095_616, // 20,781,957,120 + 44,138,496
      delta: SEED_APP_DELTA,
      percent: (SEED_APP_DELTA / 2_122_334_208) * 100,
      status: 'over-capacity',
      severity: 'fail',
      rule: null,
      unit: 'bytes',
      limit: 17_179_869_184,
      capacity: 17_179_869_184,
      note:
        'estimated peak 19.4 GiB is over the capacity 16.0 GiB by 3.4 GiB. ' +
        'An upper bound: the sum of 2 module peaks in DEV_MEM, which need not coincide',
    });
    expect(report.counts).toMatchObject({ regressed: 1, pass: 1, 'over-capacity': 1 });
    expectConsistent(report);
  });

  it("the guide's first-run question: 13B parameters in fp32 (48.4 GiB) do not fit a 50 GB card", () => {
    const weights = 13e9 * 4;
    expect(weights / GiB).toBeCloseTo(48.43, 2);
    const report = compareSnapshots(
      NO_BASELINE,
      run({ 'DEV_MEM/dev0/APP': weights }),
      config({ device: { capacity: '50GB' } }),
    );
    expect(withStatus(report, 'over-capacity')).toMatchObject([
      { key: 'dev0', baseline: null, current: 52_000_000_000, delta: null, limit: 50_000_000_000 },
    ]);
    expect(report.result).toBe('fail');
  });
});

describe('headroom against the device', () => {
  const weights = 52_000_000_000; // 13B × fp32

  it('warns when less than 10% of a 57 GB card is left (limit 51.3 GB), and passes on a 64 GiB card', () => {
    const low = compareSnapshots(
      NO_BASELINE,
      run({ 'DEV_MEM/dev0/APP': weights }),
      config({ device: { capacity: '57GB', minHeadroom: '10%' } }),
    );
    expect(withStatus(low, 'low-headroom')).toEqual([
      {
        kind: 'device',
        key: 'dev0',
        baseline: null,
        current: 52_000_000_000,
        delta: null,
        percent: null,
        status: 'low-headroom',
        severity: 'warn',
        rule: null,
        unit: 'bytes',
        limit: 51_300_000_000,
        capacity: 57_000_000_000,
        note:
          'estimated peak 48.4 GiB leaves 4.7 GiB of the capacity 53.1 GiB, less than the minimum headroom (10% = 5.3 GiB). ' +
          'An upper bound: the sum of 1 module peak in DEV_MEM, which need not coincide',
      },
    ]);
    expect(low.result).toBe('pass');

    const fits = compareSnapshots(
      NO_BASELINE,
      run({ 'DEV_MEM/dev0/APP': weights }),
      config({ device: { capacity: '64GiB' } }),
    );
    // 64 GiB − ceil(10% of 68,719,476,736) = 68,719,476,736 − 6,871,947,674
    expect(withStatus(fits, 'pass').filter((e) => e.kind === 'device')).toMatchObject([
      { key: 'dev0', current: weights, limit: 61_847_529_062 },
    ]);
  });

  it('takes minHeadroom as a size: exactly at capacity − 8 GiB passes, one byte more is low', () => {
    const settings = config({ device: { capacity: '64GiB', minHeadroom: '8GiB' } });
    const at = compareSnapshots(NO_BASELINE, run({ 'DEV_MEM/dev0/APP': 56 * GiB }), settings);
    expect(at.entries.filter((e) => e.kind === 'device').map((e) => [e.status, e.limit])).toEqual([['pass', 56 * GiB]]);
    const over = compareSnapshots(NO_BASELINE, run({ 'DEV_MEM/dev0/APP': 56 * GiB + 1 }), settings);
    expect(over.entries.filter((e) => e.kind === 'device').map((e) => [e.status, e.limit])).toEqual([
      ['low-headroom', 56 * GiB],
    ]);
  });

  it('exactly at capacity is not over it', () => {
    const report = compareSnapshots(
      NO_BASELINE,
      run({ 'DEV_MEM/dev0/APP': 16 * GiB }),
      config({ device: { capacity: '16GiB', minHeadroom: 0 } }),
    );
    expect(report.entries.filter((e) => e.kind === 'device').map((e) => e.status)).toEqual(['pass']);
  });

  it('per-device overrides merge over `device` field by field: dev3 is a 32 GiB card that keeps the 4 GiB headroom', () => {
    const settings = config({
      device: { capacity: '64GiB', minHeadroom: '4GiB' },
      devices: { dev3: { capacity: '32GiB' } },
    });
    const report = compareSnapshots(
      NO_BASELINE,
      run({ 'DEV_MEM/dev0/APP': 30 * GiB, 'DEV_MEM/dev3/APP': 30 * GiB, 'DEV_MEM/dev4/APP': 40 * GiB }),
      settings,
    );
    expect(report.entries.filter((e) => e.kind === 'device').map((e) => [e.key, e.status, e.limit])).toEqual([
      ['dev0', 'pass', 60 * GiB],
      ['dev3', 'low-headroom', 28 * GiB],
      ['dev4', 'pass', 60 * GiB],
    ]);
  });

  it("never adds the profiler's NPU_MODULE_MEM modules to the plog's: the larger reading is the estimate", () => {
    const current = run({
      'DEV_MEM/dev0/APP': 10 * GiB,
      'DEV_MEM/dev0/HCCL': GiB,
      'NPU_MODULE_MEM/dev0/APP': 10 * GiB,
      'NPU_MODULE_MEM/dev0/HCCL': 2 * GiB,
      'NPU_MODULE_MEM/dev1/APP': 3 * GiB,
    });
    const estimates = [...estimateDevicePeaks(metricsOf(current, modulesSection)).values()];
    // dev0: plog 10 + 1 = 11 GiB, profiler 10 + 2 = 12 GiB: 12, not 23. dev1: the profiler only.
    expect(estimates.map((e) => [e.device, e.bytes, e.moduleSum, e.profilerModuleSum])).toEqual([
      ['dev0', 12 * GiB, 11 * GiB, 12 * GiB],
      ['dev1', 3 * GiB, 0, 3 * GiB],
    ]);
    const report = compareSnapshots(NO_BASELINE, current, config({ device: { capacity: '12.5GiB' } }));
    expect(report.entries.filter((e) => e.kind === 'device').map((e) => [e.key, e.status, e.current, e.note])).toEqual([
      [
        'dev0',
        'low-headroom',
        12 * GiB,
        'estimated peak 12.0 GiB leaves 512.0 MiB of the capacity 12.5 GiB, less than the minimum headroom (10% = 1.3 GiB). ' +
          "An upper bound: the sum of 2 module peaks in DEV_MEM, which need not coincide; the sum of the profiler's NPU_MODULE_MEM module peaks (12.0 GiB) is a second reading of the same memory, never added, and the larger: the estimate",
      ],
      [
        'dev1',
        'pass',
        3 * GiB,
        expect.stringMatching(
          /An upper bound: the sum of the profiler's NPU_MODULE_MEM module peaks \(3\.0 GiB\), which need not coincide$/,
        ),
      ],
    ]);
  });

  it('only devices with a capacity are judged; host and SVM memory belong to no device', () => {
    const settings = config({ devices: { dev1: { capacity: '1GiB' } } });
    const report = compareSnapshots(
      NO_BASELINE,
      run({
        'DEV_MEM/dev0/APP': 5 * GiB,
        'DEV_MEM/dev1/APP': 2 * GiB,
        'HOST_MEM/APP': 9 * GiB,
        'SVM_MEM/RUNTIME': 9 * GiB,
      }),
      settings,
    );
    expect(report.entries.filter((e) => e.kind === 'device').map((e) => [e.key, e.status, e.current])).toEqual([
      ['dev1', 'over-capacity', 2 * GiB],
    ]);
  });

  it('counts every device attribute and CACHED once, and never adds the DEV_PROC_MEM process total to them', () => {
    const current = run({
      'DEV_MEM/dev0/APP': 10 * GiB,
      'DEV_MEM/dev0/RUNTIME': GiB,
      'DEV_MEM/dev0/CACHED': metric(2 * GiB, null, null),
      'MEM_DEV_SMALL_HBM/dev0/APP': GiB,
      'DEV_PROC_MEM/dev0/APP': metric(12 * GiB, null, null),
      'DEV_MEM/dev1/APP': 10 * GiB,
      'DEV_PROC_MEM/dev1/APP': metric(20 * GiB, null, null),
      'HOST_MEM/APP': 100 * GiB,
    });
    const modules = metricsOf(current, modulesSection);
    expect([...estimateDevicePeaks(modules).values()]).toEqual([
      {
        device: 'dev0',
        bytes: 14 * GiB,
        moduleSum: 14 * GiB,
        moduleCount: 4,
        cached: 2 * GiB,
        attributes: ['DEV_MEM', 'MEM_DEV_SMALL_HBM'],
        processTotal: 12 * GiB,
        profilerModuleSum: null,
      },
      {
        device: 'dev1',
        bytes: 20 * GiB,
        moduleSum: 10 * GiB,
        moduleCount: 1,
        cached: 0,
        attributes: ['DEV_MEM'],
        processTotal: 20 * GiB,
        profilerModuleSum: null,
      },
    ]);
    const report = compareSnapshots(NO_BASELINE, current, config({ device: { capacity: '15GiB' } }));
    expect(report.entries.filter((e) => e.kind === 'device').map((e) => [e.key, e.status, e.current, e.note])).toEqual([
      [
        'dev0',
        'low-headroom',
        14 * GiB,
        'estimated peak 14.0 GiB leaves 1.0 GiB of the capacity 15.0 GiB, less than the minimum headroom (10% = 1.5 GiB). ' +
          'An upper bound: the sum of 4 module peaks in DEV_MEM, MEM_DEV_SMALL_HBM (14.0 GiB, CACHED 2.0 GiB included), which need not coincide, ' +
          'larger than the process total DEV_PROC_MEM (12.0 GiB); the two are never added',
      ],
      [
        'dev1',
        'over-capacity',
        20 * GiB,
        'estimated peak 20.0 GiB is over the capacity 15.0 GiB by 5.0 GiB. ' +
          'From the process total DEV_PROC_MEM (20.0 GiB), larger than the sum of 1 module peak in DEV_MEM (10.0 GiB); the two are never added',
      ],
    ]);
  });

  it("still counts keys ignored by a rule: ignoring a key's changes does not free its memory", () => {
    const settings = config({
      device: { capacity: '16GiB' },
      modules: { rules: [{ match: 'DEV_MEM/*/HCCL', ignore: true }] },
    });
    const report = compareSnapshots(
      NO_BASELINE,
      run({ 'DEV_MEM/dev0/APP': 10 * GiB, 'DEV_MEM/dev0/HCCL': 7 * GiB }),
      settings,
    );
    expect(withStatus(report, 'over-capacity')).toMatchObject([{ key: 'dev0', current: 17 * GiB }]);
  });

  it('follows `verdicts`: low-headroom may fail, over-capacity may be ignored (not assessed)', () => {
    const current = run({ 'DEV_MEM/dev0/APP': 15 * GiB, 'DEV_MEM/dev1/APP': 17 * GiB });
    const strict = compareSnapshots(
      NO_BASELINE,
      current,
      config({ device: { capacity: '16GiB' }, verdicts: { 'low-headroom': 'fail' } }),
    );
    expect(strict.entries.filter((e) => e.kind === 'device').map((e) => [e.key, e.status, e.severity])).toEqual([
      ['dev0', 'low-headroom', 'fail'],
      ['dev1', 'over-capacity', 'fail'],
    ]);
    const lenient = compareSnapshots(
      NO_BASELINE,
      current,
      config({ device: { capacity: '16GiB' }, verdicts: { 'over-capacity': 'ignore' } }),
    );
    expect(lenient.entries.filter((e) => e.kind === 'device').map((e) => [e.key, e.status, e.severity])).toEqual([
      ['dev0', 'low-headroom', 'warn'],
    ]);
    expect(lenient.result).toBe('pass');
  });

  it('a percent headroom rounds up to whole bytes', () => {
    expect(requiredHeadroom(68_719_476_736, { percent: 10 })).toBe(6_871_947_674);
    expect(requiredHeadroom(1000, { percent: 10 })).toBe(100);
    expect(requiredHeadroom(1000, { bytes: 7 })).toBe(7);
    expect(requiredHeadroom(1000, undefined)).toBe(0);
  });
});

describe('allocation failures', () => {
  it('fails dev0 after 2 allocation failures, even though the job finished', () => {
    const baseline = run({ 'DEV_MEM/dev0/APP': GiB }, { dev0: 0, dev1: 0 });
    const report = compareSnapshots(baseline, run({ 'DEV_MEM/dev0/APP': GiB }, { dev0: 2, dev1: 0 }), DEFAULT_CONFIG);
    expect(report.result).toBe('fail');
    expect(report.entries).toEqual([
      expect.objectContaining({ key: 'DEV_MEM/dev0/APP', status: 'pass' }),
      {
        kind: 'device',
        key: 'dev0',
        baseline: 0,
        current: 2,
        delta: 2,
        percent: null,
        status: 'alloc-failure',
        severity: 'fail',
        rule: null,
        unit: 'count',
        limit: 0,
        note: '2 allocation failures (halMemAlloc failed) on dev0: a job that survived an out-of-memory by retrying is not healthy, and one that died of it left only these lines',
      },
    ]);
    expect(report.counts['alloc-failure']).toBe(1);
    expectConsistent(report);
  });

  it('says nothing when every device has 0 failures, or the snapshot has no meta', () => {
    expect(
      withStatus(
        compareSnapshots(NO_BASELINE, run({ 'DEV_MEM/dev0/APP': GiB }, { dev0: 0 }), DEFAULT_CONFIG),
        'alloc-failure',
      ),
    ).toEqual([]);
    expect(withStatus(compareSnapshots(NO_BASELINE, { sections: {} }, DEFAULT_CONFIG), 'alloc-failure')).toEqual([]);
  });

  it('names a failure whose line gave no device, and has no baseline count without a baseline meta', () => {
    const report = compareSnapshots(NO_BASELINE, run({}, { unknown: 1 }), DEFAULT_CONFIG);
    expect(withStatus(report, 'alloc-failure')).toMatchObject([
      {
        key: 'unknown',
        baseline: null,
        current: 1,
        note: '1 allocation failure (halMemAlloc failed) on a device the failure line does not name: a job that survived an out-of-memory by retrying is not healthy, and one that died of it left only these lines',
      },
    ]);
  });

  it('can be made a warning, or ignored', () => {
    const failing = run({}, { dev0: 2 });
    const warned = compareSnapshots(NO_BASELINE, failing, config({ verdicts: { 'alloc-failure': 'warn' } }));
    expect([warned.result, withStatus(warned, 'alloc-failure').map((e) => e.severity)]).toEqual(['pass', ['warn']]);
    expect(compareSnapshots(NO_BASELINE, failing, config({ verdicts: { 'alloc-failure': 'ignore' } })).entries).toEqual(
      [],
    );
  });
});

describe('leak suspects: outstanding allocations at exit (alloc_cnt − free_cnt)', () => {
  const baseline = run({
    'DEV_MEM/dev0/APP': metric(2 * GiB, 996, 0),
    'DEV_MEM/dev0/GE': metric(3 * MiB, 12, 12),
    'DEV_MEM/dev0/HCCL': metric(400 * MiB, 6, 2),
  });

  it("flags APP when 100 more allocations are outstanding than the baseline's 996 (more than 0 and more than 10%)", () => {
    const current = run({
      'DEV_MEM/dev0/APP': metric(2 * GiB, 1096, 0),
      'DEV_MEM/dev0/GE': metric(3 * MiB, 12, 12),
      'DEV_MEM/dev0/HCCL': metric(400 * MiB, 6, 2),
    });
    const report = compareSnapshots(baseline, current, DEFAULT_CONFIG);
    expect(report.entries.map((e) => [e.key, e.status])).toEqual([
      ['DEV_MEM/dev0/APP', 'pass'],
      ['DEV_MEM/dev0/APP', 'leak-suspect'],
      ['DEV_MEM/dev0/GE', 'pass'],
      ['DEV_MEM/dev0/HCCL', 'pass'],
    ]);
    expect(report.entries[1]).toEqual<Entry>({
      kind: 'module',
      key: 'DEV_MEM/dev0/APP',
      baseline: 996,
      current: 1096,
      delta: 100,
      percent: (100 / 996) * 100,
      status: 'leak-suspect',
      severity: 'warn',
      rule: null,
      unit: 'count',
      limit: 1095,
      note:
        'outstanding allocations at exit (alloc_cnt - free_cnt) grew from 996 to 1096 (+100), more than the 1095 tolerated ' +
        '(growth allowed: the larger of 0 and 10% of 996): a leak or a growing pool',
    });
    expect(report.result).toBe('pass');
    expectConsistent(report);
  });

  it('tolerates exactly 10%: 99 more of 996 (9.9%) is not a suspect', () => {
    const current = run({ 'DEV_MEM/dev0/APP': metric(2 * GiB, 1095, 0) });
    expect(withStatus(compareSnapshots(baseline, current, DEFAULT_CONFIG), 'leak-suspect')).toEqual([]);
  });

  it('flags a module that freed everything before and now leaves one allocation behind (0 → 1)', () => {
    const current = run({ 'DEV_MEM/dev0/GE': metric(3 * MiB, 13, 12) });
    expect(withStatus(compareSnapshots(baseline, current, DEFAULT_CONFIG), 'leak-suspect')).toMatchObject([
      { key: 'DEV_MEM/dev0/GE', baseline: 0, current: 1, delta: 1, percent: null, limit: 0 },
    ]);
  });

  it('follows a configured tolerance: { count: 50 } tolerates +40 and flags +60 on HCCL (outstanding 4)', () => {
    const settings = config({ leaks: { count: 50 } });
    expect(
      withStatus(
        compareSnapshots(baseline, run({ 'DEV_MEM/dev0/HCCL': metric(400 * MiB, 46, 2) }), settings),
        'leak-suspect',
      ),
    ).toEqual([]);
    expect(
      withStatus(
        compareSnapshots(baseline, run({ 'DEV_MEM/dev0/HCCL': metric(400 * MiB, 66, 2) }), settings),
        'leak-suspect',
      ),
    ).toMatchObject([
      {
        key: 'DEV_MEM/dev0/HCCL',
        baseline: 4,
        current: 64,
        limit: 54,
        note: expect.stringContaining('(growth allowed: 50)'),
      },
    ]);
  });

  it('skips records without counts (v0, v3 totals, CACHED), new keys and keys ignored by a rule', () => {
    const before = run({
      'DEV_MEM/dev0/GE': metric(GiB, null, null),
      'DEV_MEM/dev0/APP': metric(GiB, 0, 0),
      'HOST_MEM/APP': metric(GiB, 0, 0),
    });
    const after = run({
      'DEV_MEM/dev0/GE': metric(GiB, null, null),
      'DEV_MEM/dev0/APP': metric(GiB, 500, 0),
      'HOST_MEM/APP': metric(GiB, 500, 0),
      'DEV_MEM/dev0/RUNTIME': metric(MiB, 500, 0),
    });
    const report = compareSnapshots(
      before,
      after,
      config({ modules: { rules: [{ match: 'HOST_MEM/**', ignore: true }] } }),
    );
    expect(withStatus(report, 'leak-suspect').map((e) => e.key)).toEqual(['DEV_MEM/dev0/APP']);
    const oldOnly = run({ 'DEV_MEM/dev0/APP': metric(GiB, 500, null) });
    expect(withStatus(compareSnapshots(before, oldOnly, DEFAULT_CONFIG), 'leak-suspect')).toEqual([]);
  });

  it('is not assessed with verdicts leak-suspect ignore', () => {
    const current = run({ 'DEV_MEM/dev0/APP': metric(2 * GiB, 5000, 0) });
    expect(
      withStatus(
        compareSnapshots(baseline, current, config({ verdicts: { 'leak-suspect': 'ignore' } })),
        'leak-suspect',
      ),
    ).toEqual([]);
  });
});

describe('first run: CANN components against the reference costs of the docs', () => {
  it('training: RUNTIME at 80 MiB is above 2 x 26 MiB; GE at 2 MiB says nothing', () => {
    const first = run({ 'DEV_MEM/dev0/RUNTIME': 80 * MiB, 'DEV_MEM/dev0/GE': 2 * MiB });
    const report = compareSnapshots(NO_BASELINE, first, config({ profile: 'training' }));
    expect(report.entries.map((e) => [e.key, e.status, e.severity])).toEqual([
      ['DEV_MEM/dev0/GE', 'new', 'warn'],
      ['DEV_MEM/dev0/RUNTIME', 'new', 'warn'],
      ['DEV_MEM/dev0/RUNTIME', 'above-reference', 'warn'],
    ]);
    expect(report.entries[2]).toEqual<Entry>({
      kind: 'module',
      key: 'DEV_MEM/dev0/RUNTIME',
      baseline: null,
      current: 83_886_080,
      delta: null,
      percent: null,
      status: 'above-reference',
      severity: 'warn',
      rule: null,
      unit: 'bytes',
      limit: 54_525_952, // 2 × 26 MiB
      note: 'no baseline yet: peak 80.0 MiB is above 2 x 26.0 MiB, the training reference for RUNTIME',
    });
    expectConsistent(report);
  });

  it('inference: GE may reach 2 x 86 MiB; 200 MiB is above it', () => {
    const settings = config({ profile: 'inference' });
    expect(
      withStatus(compareSnapshots(NO_BASELINE, run({ 'DEV_MEM/dev0/GE': 172 * MiB }), settings), 'above-reference'),
    ).toEqual([]);
    expect(
      withStatus(compareSnapshots(NO_BASELINE, run({ 'DEV_MEM/dev0/GE': 200 * MiB }), settings), 'above-reference'),
    ).toMatchObject([{ key: 'DEV_MEM/dev0/GE', limit: 172 * MiB }]);
  });

  it('without a profile holds each component against the larger reference (GE 86 MiB, RUNTIME 26 MiB)', () => {
    const report = compareSnapshots(
      NO_BASELINE,
      run({ 'DEV_MEM/dev0/GE': 100 * MiB, 'DEV_MEM/dev0/RUNTIME': 60 * MiB }),
      DEFAULT_CONFIG,
    );
    expect(withStatus(report, 'above-reference')).toMatchObject([
      {
        key: 'DEV_MEM/dev0/RUNTIME',
        limit: 52 * MiB,
        note: 'no baseline yet: peak 60.0 MiB is above 2 x 26.0 MiB, the larger of the training (26.0 MiB) and inference (18.0 MiB) references for RUNTIME; set "profile"',
      },
    ]);
  });

  it('HCCL with 10 links and 3 domains in single-op mode: 10 x 4 MiB + 3 x 2 x 200 MiB = 1240 MiB, tolerated up to 2480 MiB', () => {
    const settings = config({ hccl: { links: 10, domains: 3 } });
    expect(referenceCost('HCCL', null, settings.hccl)).toEqual({
      bytes: 1240 * MiB,
      basis: 'the HCCL reference 10 links x 4 MiB + 3 domains x 2 x 200.0 MiB',
    });
    expect(
      withStatus(compareSnapshots(NO_BASELINE, run({ 'DEV_MEM/dev6/HCCL': 2480 * MiB }), settings), 'above-reference'),
    ).toEqual([]);
    expect(
      withStatus(
        compareSnapshots(NO_BASELINE, run({ 'DEV_MEM/dev6/HCCL': 2480 * MiB + 1 }), settings),
        'above-reference',
      ),
    ).toMatchObject([
      {
        key: 'DEV_MEM/dev6/HCCL',
        limit: 2480 * MiB,
        note: 'no baseline yet: peak 2.4 GiB is above 2 x 1.2 GiB, the HCCL reference 10 links x 4 MiB + 3 domains x 2 x 200.0 MiB',
      },
    ]);
  });

  it('HCCL in graph mode: 10 links x 100 ops x 0.3 MiB + 1 domain x 2 x 64 MiB, with a factor of 1.5', () => {
    const settings = config({
      hccl: { links: 10, mode: 'graph', ops: 100, buffSize: '64MiB' },
      reference: { factor: 1.5 },
    });
    // 314,572,800 + 134,217,728 = 448,790,528 bytes; × 1.5 = 673,185,792
    expect(referenceCost('HCCL', null, settings.hccl)?.bytes).toBe(448_790_528);
    expect(
      withStatus(compareSnapshots(NO_BASELINE, run({ 'DEV_MEM/dev0/HCCL': 673_185_793 }), settings), 'above-reference'),
    ).toMatchObject([{ limit: 673_185_792 }]);
    expect(
      withStatus(compareSnapshots(NO_BASELINE, run({ 'DEV_MEM/dev0/HCCL': 673_185_792 }), settings), 'above-reference'),
    ).toEqual([]);
  });

  it('has no HCCL reference until hccl is configured, and none for APP or other attributes', () => {
    const first = run({
      'DEV_MEM/dev0/HCCL': 100 * GiB,
      'DEV_MEM/dev0/APP': 100 * GiB,
      'SVM_MEM/RUNTIME': GiB,
      'MEM_DEV_SMALL_HBM/dev0/RUNTIME': GiB,
    });
    expect(withStatus(compareSnapshots(NO_BASELINE, first, DEFAULT_CONFIG), 'above-reference')).toEqual([]);
    expect(referenceCost('APP', 'training', null)).toBeNull();
  });

  it('is only for keys with no baseline: once there is one, the baseline is the reference', () => {
    const baseline = run({ 'DEV_MEM/dev0/RUNTIME': 80 * MiB });
    const report = compareSnapshots(
      baseline,
      run({ 'DEV_MEM/dev0/RUNTIME': 80 * MiB, 'DEV_MEM/dev1/RUNTIME': 80 * MiB }),
      config({ profile: 'training' }),
    );
    expect(withStatus(report, 'above-reference').map((e) => e.key)).toEqual(['DEV_MEM/dev1/RUNTIME']);
  });

  it('skips keys ignored by a rule, and everything with verdicts above-reference ignore', () => {
    const first = run({ 'DEV_MEM/dev0/RUNTIME': GiB });
    expect(
      compareSnapshots(
        NO_BASELINE,
        first,
        config({ modules: { rules: [{ match: 'DEV_MEM/**', ignore: true }] } }),
      ).entries.map((e) => e.status),
    ).toEqual(['ignored']);
    expect(
      withStatus(
        compareSnapshots(NO_BASELINE, first, config({ verdicts: { 'above-reference': 'ignore' } })),
        'above-reference',
      ),
    ).toEqual([]);
  });
});

describe('rank imbalance', () => {
  const eightRanks = (peaks: Record<number, number>): Snapshot =>
    run(Object.fromEntries(Array.from({ length: 8 }, (_, d) => [`DEV_MEM/dev${d}/APP`, peaks[d] ?? 10 * GiB])));

  it('does not repeat an imbalance the baseline already had: the entry stays, with severity ok and a note', () => {
    const report = compareSnapshots(eightRanks({ 5: 13 * GiB }), eightRanks({ 5: 13 * GiB }), DEFAULT_CONFIG);
    expect(
      withStatus(report, 'imbalance').map((e) => [
        e.key,
        e.severity,
        e.note?.endsWith('already so in the baseline, so not repeated as a warning'),
      ]),
    ).toEqual([['DEV_MEM/dev5/APP', 'ok', true]]);
    expect(report.entries.filter((e) => e.severity !== 'ok')).toEqual([]);
    expectConsistent(report);
  });

  it('warns again when the imbalanced key moved beyond its tolerance, when the baseline was balanced, and for a new key', () => {
    const grew = compareSnapshots(eightRanks({ 5: 13 * GiB }), eightRanks({ 5: 14 * GiB }), DEFAULT_CONFIG);
    expect(withStatus(grew, 'imbalance').map((e) => [e.key, e.severity])).toEqual([['DEV_MEM/dev5/APP', 'warn']]);
    const balanced = compareSnapshots(eightRanks({}), eightRanks({ 5: 13 * GiB }), DEFAULT_CONFIG);
    expect(withStatus(balanced, 'imbalance').map((e) => [e.key, e.severity])).toEqual([['DEV_MEM/dev5/APP', 'warn']]);
    // Within APP's own 5% tolerance (11.9 → 12.4 GiB), but 19% off the median in the baseline was still balanced: news.
    const crept = compareSnapshots(eightRanks({ 5: 11.9 * GiB }), eightRanks({ 5: 12.4 * GiB }), DEFAULT_CONFIG);
    expect(withStatus(crept, 'imbalance').map((e) => [e.key, e.severity])).toEqual([['DEV_MEM/dev5/APP', 'warn']]);
    const fresh = compareSnapshots(run({}), eightRanks({ 5: 13 * GiB }), DEFAULT_CONFIG);
    expect(withStatus(fresh, 'imbalance').map((e) => [e.key, e.severity])).toEqual([['DEV_MEM/dev5/APP', 'warn']]);
  });

  it('warns about dev5 when its APP peak is 30% above the median of 8 devices', () => {
    const report = compareSnapshots(NO_BASELINE, eightRanks({ 5: 13 * GiB }), DEFAULT_CONFIG);
    expect(withStatus(report, 'imbalance')).toEqual<Entry[]>([
      {
        kind: 'module',
        key: 'DEV_MEM/dev5/APP',
        baseline: null,
        current: 13 * GiB,
        delta: null,
        percent: null,
        status: 'imbalance',
        severity: 'warn',
        rule: null,
        unit: 'bytes',
        limit: 12_884_901_888, // 10 GiB × 1.2
        note: '30.0% above the median 10.0 GiB of DEV_MEM/*/APP on 8 devices (tolerated: 20% and 1.0 MiB): a pipeline stage, or one rank leaking',
      },
    ]);
    // The imbalance entry follows dev5's own verdict.
    expect(report.entries.map((e) => e.key).indexOf('DEV_MEM/dev5/APP')).toBe(5);
    expect(report.entries[6]).toMatchObject({ key: 'DEV_MEM/dev5/APP', status: 'imbalance' });
    expectConsistent(report);
  });

  it('compares with the baseline in baseline/current/delta, like every entry', () => {
    const baseline = eightRanks({});
    const report = compareSnapshots(baseline, eightRanks({ 5: 13 * GiB }), DEFAULT_CONFIG);
    expect(
      withStatus(report, 'regressed', 'imbalance').map((e) => [e.key, e.status, e.baseline, e.current, e.delta]),
    ).toEqual([
      ['DEV_MEM/dev5/APP', 'regressed', 10 * GiB, 13 * GiB, 3 * GiB],
      ['DEV_MEM/dev5/APP', 'imbalance', 10 * GiB, 13 * GiB, 3 * GiB],
    ]);
  });

  it('flags a rank below the median too, and tolerates exactly 20%', () => {
    const report = compareSnapshots(NO_BASELINE, eightRanks({ 2: 7 * GiB, 3: 12 * GiB, 4: 8 * GiB }), DEFAULT_CONFIG);
    expect(withStatus(report, 'imbalance').map((e) => [e.key, e.limit, e.note?.split(' of ')[0]])).toEqual([
      ['DEV_MEM/dev2/APP', 8 * GiB, '30.0% below the median 10.0 GiB'],
    ]);
  });

  it('needs at least 3 devices by default: with 2 the median cannot tell which one is off', () => {
    const two = run({ 'DEV_MEM/dev0/APP': 10 * GiB, 'DEV_MEM/dev1/APP': 20 * GiB });
    expect(withStatus(compareSnapshots(NO_BASELINE, two, DEFAULT_CONFIG), 'imbalance')).toEqual([]);
    // With minDevices 2 both sit 33.3% from their mean, so both are flagged.
    expect(
      withStatus(compareSnapshots(NO_BASELINE, two, config({ imbalance: { minDevices: 2 } })), 'imbalance').map(
        (e) => e.key,
      ),
    ).toEqual(['DEV_MEM/dev0/APP', 'DEV_MEM/dev1/APP']);
    const three = run({ 'DEV_MEM/dev0/APP': 10 * GiB, 'DEV_MEM/dev1/APP': 10 * GiB, 'DEV_MEM/dev2/APP': 20 * GiB });
    expect(withStatus(compareSnapshots(NO_BASELINE, three, DEFAULT_CONFIG), 'imbalance').map((e) => e.key)).toEqual([
      'DEV_MEM/dev2/APP',
    ]);
  });

  it('lets small modules jitter within 1 MiB, groups by attribute and module, and follows a configured tolerance', () => {
    const ranks = run({
      'DEV_MEM/dev0/GE': 2 * MiB,
      'DEV_MEM/dev1/GE': 2 * MiB,
      'DEV_MEM/dev2/GE': 2.9 * MiB,
      'MEM_DEV_SMALL_HBM/dev0/GE': 10 * MiB,
      'MEM_DEV_SMALL_HBM/dev1/GE': 10 * MiB,
      'MEM_DEV_SMALL_HBM/dev2/GE': 14 * MiB,
    });
    expect(withStatus(compareSnapshots(NO_BASELINE, ranks, DEFAULT_CONFIG), 'imbalance').map((e) => e.key)).toEqual([
      'MEM_DEV_SMALL_HBM/dev2/GE',
    ]);
    // A tolerance replaces the default as a whole: { percent: 30 } drops the 1 MiB allowance, so GE's +45% counts.
    const percentOnly = config({ imbalance: { tolerance: { percent: 30 } } });
    expect(withStatus(compareSnapshots(NO_BASELINE, ranks, percentOnly), 'imbalance').map((e) => e.key)).toEqual([
      'DEV_MEM/dev2/GE',
      'MEM_DEV_SMALL_HBM/dev2/GE',
    ]);
    const loose = config({ imbalance: { tolerance: { percent: 50 } } });
    expect(withStatus(compareSnapshots(NO_BASELINE, ranks, loose), 'imbalance')).toEqual([]);
  });

  it('can be ignored, and skips keys ignored by a rule', () => {
    expect(
      withStatus(
        compareSnapshots(NO_BASELINE, eightRanks({ 5: 13 * GiB }), config({ verdicts: { imbalance: 'ignore' } })),
        'imbalance',
      ),
    ).toEqual([]);
    const ruled = config({ modules: { rules: [{ match: 'DEV_MEM/dev5/APP', ignore: true }] } });
    expect(withStatus(compareSnapshots(NO_BASELINE, eightRanks({ 5: 13 * GiB }), ruled), 'imbalance')).toEqual([]);
  });

  it('median is the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('several findings on one key, and the report', () => {
  it('lists APP regressed, leak-suspect and imbalance as separate entries right after each other, counted once each', () => {
    const before = run(
      Object.fromEntries(Array.from({ length: 4 }, (_, d) => [`DEV_MEM/dev${d}/APP`, metric(10 * GiB, 100, 0)])),
      { dev0: 0 },
    );
    const after = run(
      {
        'DEV_MEM/dev0/APP': metric(20 * GiB, 300, 0),
        'DEV_MEM/dev1/APP': metric(10 * GiB, 100, 0),
        'DEV_MEM/dev2/APP': metric(10 * GiB, 100, 0),
        'DEV_MEM/dev3/APP': metric(10 * GiB, 100, 0),
      },
      { dev0: 1 },
    );
    const report = compareSnapshots(before, after, config({ device: { capacity: '16GiB' } }));
    expect(report.entries.map((e) => [e.kind, e.key, e.status, e.severity])).toEqual([
      ['module', 'DEV_MEM/dev0/APP', 'regressed', 'fail'],
      ['module', 'DEV_MEM/dev0/APP', 'leak-suspect', 'warn'],
      ['module', 'DEV_MEM/dev0/APP', 'imbalance', 'warn'],
      ['module', 'DEV_MEM/dev1/APP', 'pass', 'ok'],
      ['module', 'DEV_MEM/dev2/APP', 'pass', 'ok'],
      ['module', 'DEV_MEM/dev3/APP', 'pass', 'ok'],
      ['device', 'dev0', 'over-capacity', 'fail'],
      ['device', 'dev0', 'alloc-failure', 'fail'],
      ['device', 'dev1', 'pass', 'ok'],
      ['device', 'dev2', 'pass', 'ok'],
      ['device', 'dev3', 'pass', 'ok'],
    ]);
    expect(report.counts).toEqual({
      regressed: 1,
      'over-budget': 0,
      'over-capacity': 1,
      'alloc-failure': 1,
      oom: 0,
      'leak-suspect': 1,
      'step-leak': 0,
      'low-headroom': 0,
      fragmented: 0,
      'above-reference': 0,
      imbalance: 1,
      growing: 0,
      new: 0,
      missing: 0,
      improved: 0,
      ignored: 0,
      pass: 6,
    });
    expectConsistent(report);
  });

  it('reaches the CLI and the Action through runGate, allocation failures included', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'amg-devices-'));
    try {
      const baselinePath = path.join(dir, 'baseline.json');
      const configPath = path.join(dir, 'memory-gate.json');
      await writeFile(
        baselinePath,
        JSON.stringify({ version: 1, modules: { 'DEV_MEM/dev0/APP': metric(SEED_APP_PEAK, 996, 0) }, kernels: {} }),
      );
      await writeFile(configPath, JSON.stringify({ device: { capacity: '16GiB' } }));
      const snapshot = run({ 'DEV_MEM/dev0/APP': metric(GROWN_APP_PEAK, 996, 0) }, { dev0: 3 });
      const { report } = await runGate({
        snapshot,
        baselinePath,
        configPath,
        maxIncrease: undefined,
        allowMissingBaseline: false,
      });
      expect(report.entries.map((e) => [e.key, e.status, e.current])).toEqual([
        ['DEV_MEM/dev0/APP', 'regressed', GROWN_APP_PEAK],
        ['dev0', 'over-capacity', GROWN_APP_PEAK],
        ['dev0', 'alloc-failure', 3],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('splits module keys into attribute, device and module', () => {
    expect(parseModuleKey('MEM_DEV_SMALL_HBM/dev1/HCCL')).toEqual({
      attribute: 'MEM_DEV_SMALL_HBM',
      device: 'dev1',
      module: 'HCCL',
    });
    expect(parseModuleKey('SVM_MEM/RUNTIME')).toEqual({ attribute: 'SVM_MEM', device: null, module: 'RUNTIME' });
    expect(parseModuleKey('a/b/c/d')).toBeNull();
    expect(parseModuleKey('DEV_MEM/gpu1/APP')).toBeNull();
    expect(parseModuleKey('DEV_MEM//APP')).toBeNull();
    expect(parseModuleKey('APP')).toBeNull();
    expect(parseModuleKey('/APP')).toEqual({ attribute: '', device: null, module: 'APP' });
    expect(parseModuleKey('DEV_MEM/')).toEqual({ attribute: 'DEV_MEM', device: null, module: '' });
    expect(parseModuleKey('DEV_MEM/dev12/')).toEqual({ attribute: 'DEV_MEM', device: 'dev12', module: '' });
  });

  it('splits any key as splitting it at every slash does', () => {
    const bySplit = (key: string): ReturnType<typeof parseModuleKey> => {
      const parts = key.split('/');
      if (parts.length === 3 && /^dev\d+$/.test(parts[1] as string))
        return { attribute: parts[0] as string, device: parts[1] as string, module: parts[2] as string };
      if (parts.length === 2) return { attribute: parts[0] as string, device: null, module: parts[1] as string };
      return null;
    };
    const segment = fc.oneof(
      fc.constantFrom('', 'dev', 'dev0', 'dev12', 'Dev1', 'dev1x', 'DEV_MEM', 'APP', '1'),
      fc.string({ maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const key = segments.join('/');
        expect(parseModuleKey(key)).toEqual(bySplit(key));
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('the config of the device verdicts', () => {
  it('reads every field, sizes in bytes, per-device overrides and verdict policies over the defaults', () => {
    const parsed = config({
      device: { capacity: '64GiB', minHeadroom: '10%' },
      devices: { dev3: { capacity: '32GiB' }, dev7: { minHeadroom: '2GiB' } },
      profile: 'training',
      hccl: { links: 10, mode: 'graph', ops: 40, domains: 3, buffSize: '100MiB' },
      reference: { factor: 3 },
      leaks: { count: 10 },
      imbalance: { tolerance: { percent: 25 }, minDevices: 4 },
      verdicts: { 'low-headroom': 'fail', imbalance: 'ignore' },
    });
    expect(parsed).toEqual<GateConfig>({
      ...DEFAULT_CONFIG,
      device: { capacity: 64 * GiB, minHeadroom: { percent: 10 } },
      devices: { dev3: { capacity: 32 * GiB }, dev7: { minHeadroom: { bytes: 2 * GiB } } },
      profile: 'training',
      hccl: { links: 10, mode: 'graph', ops: 40, domains: 3, buffSize: 100 * MiB },
      reference: { factor: 3 },
      leaks: { count: 10 },
      imbalance: { tolerance: { percent: 25 }, minDevices: 4 },
      verdicts: { ...DEFAULT_CONFIG.verdicts, 'low-headroom': 'fail', imbalance: 'ignore' },
    });
  });

  it('keeps the default 10% headroom when only a capacity is given, and the HCCL defaults', () => {
    const parsed = config({ device: { capacity: 68_719_476_736 }, hccl: { links: 8 } });
    expect(parsed.device).toEqual({ capacity: 64 * GiB, minHeadroom: { percent: 10 } });
    expect(parsed.hccl).toEqual({ links: 8, mode: 'single-op', ops: 0, domains: 1, buffSize: 200 * MiB });
  });

  const SIZE_REASON =
    'must be a byte size: an integer number of bytes, or a string such as "64MiB", "1.5GiB" or "200MB"';
  const HEADROOM_REASON = 'must be a share of the capacity such as "10%", or a byte size such as "4GiB"';

  it.each<[string, unknown, string, string]>([
    ['a capacity that is a word', { device: { capacity: 'lots' } }, '/device/capacity', `${SIZE_REASON}, got "lots"`],
    ['a capacity in percent', { device: { capacity: '50%' } }, '/device/capacity', `${SIZE_REASON}, got "50%"`],
    ['a negative headroom', { device: { minHeadroom: -1 } }, '/device/minHeadroom', `${HEADROOM_REASON}, got -1`],
    [
      'a headroom that is a word',
      { device: { minHeadroom: 'ten' } },
      '/device/minHeadroom',
      `${HEADROOM_REASON}, got "ten"`,
    ],
    [
      'a headroom above 100%',
      { device: { minHeadroom: '150%' } },
      '/device/minHeadroom',
      'must be at most 100% of the capacity, got "150%"',
    ],
    [
      'a misspelt device field',
      { device: { capacty: '64GiB' } },
      '/device/capacty',
      'unknown property; expected one of: capacity, minHeadroom',
    ],
    [
      'a device not named devN',
      { devices: { gpu0: { capacity: '64GiB' } } },
      '/devices',
      'must be a device name such as "dev3", got "gpu0"',
    ],
    [
      'a bad per-device capacity',
      { devices: { dev3: { capacity: '32 GiBs' } } },
      '/devices/dev3/capacity',
      `${SIZE_REASON}, got "32 GiBs"`,
    ],
    [
      'an unknown profile',
      { profile: 'pretraining' },
      '/profile',
      'must be one of "training", "inference", got "pretraining"',
    ],
    [
      'an unknown HCCL mode',
      { hccl: { links: 10, mode: 'eager' } },
      '/hccl/mode',
      'must be one of "single-op", "graph", got "eager"',
    ],
    ['HCCL without links', { hccl: { domains: 3 } }, '/hccl/links', 'required property is missing'],
    ['graph mode without ops', { hccl: { links: 10, mode: 'graph' } }, '/hccl/ops', 'required property is missing'],
    ['a fractional link count', { hccl: { links: 2.5 } }, '/hccl/links', 'must be a non-negative integer, got 2.5'],
    ['HCCL_BUFFSIZE as a word', { hccl: { links: 1, buffSize: 'big' } }, '/hccl/buffSize', `${SIZE_REASON}, got "big"`],
    ['a reference factor of 0', { reference: { factor: 0 } }, '/reference/factor', 'must be a positive number, got 0'],
    ['a negative leak count', { leaks: { count: -1 } }, '/leaks/count', 'must be a non-negative integer, got -1'],
    [
      'a leak tolerance in bytes',
      { leaks: { bytes: 5 } },
      '/leaks/bytes',
      'unknown property; expected one of: count, percent',
    ],
    [
      'an imbalance over one device',
      { imbalance: { minDevices: 1 } },
      '/imbalance/minDevices',
      'must be an integer of at least 2, got 1',
    ],
    [
      'an imbalance percent as a string',
      { imbalance: { tolerance: { percent: '20%' } } },
      '/imbalance/tolerance/percent',
      'must be a non-negative number of percent, got "20%"',
    ],
    [
      'an unknown verdict policy',
      { verdicts: { imbalance: 'maybe' } },
      '/verdicts/imbalance',
      'must be one of "warn", "fail", "ignore", got "maybe"',
    ],
    [
      'a verdict that does not exist',
      { verdicts: { leak: 'warn' } },
      '/verdicts/leak',
      'unknown property; expected one of: over-capacity, low-headroom, alloc-failure, oom, fragmented, leak-suspect, above-reference, imbalance, growing, step-leak',
    ],
  ])('rejects %s with the JSON pointer of the bad field', (_story, json, pointer, reason) => {
    let error: unknown;
    try {
      config(json);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).message).toBe(`.github/memory-gate.json: ${pointer}: ${reason}`);
  });
});

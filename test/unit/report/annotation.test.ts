// The annotation a failing key gets in the Actions UI: exact numbers in the right unit, and why it failed.
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../../src/gate/types.js';
import { annotationText, failureReason } from '../../../src/report/annotation.js';
import { GROWN_APP_PEAK, SEED_APP_DELTA, SEED_APP_PEAK } from '../../helpers/story.js';

const base: Entry = {
  kind: 'module',
  key: 'DEV_MEM/dev0/APP',
  baseline: SEED_APP_PEAK,
  current: GROWN_APP_PEAK,
  delta: SEED_APP_DELTA,
  percent: 900,
  status: 'regressed',
  severity: 'fail',
  rule: 'DEV_MEM/*/APP',
};

describe('annotationText', () => {
  it('gives the exact bytes, the signed human delta and the rule of a regressed APP peak', () => {
    expect(annotationText(base)).toBe(
      'DEV_MEM/dev0/APP regressed: 1.9 GiB → 19.4 GiB (+17.4 GiB, +900%) [rule DEV_MEM/*/APP]',
    );
  });

  it('says a new key has no baseline', () => {
    expect(
      annotationText({ ...base, baseline: null, delta: null, percent: null, status: 'over-budget', rule: null }),
    ).toBe('DEV_MEM/dev0/APP over-budget: — → 19.4 GiB (+19.4 GiB, new)');
  });

  it('prints allocation failures as counts with the finding note and limit', () => {
    const entry: Entry = {
      kind: 'device',
      key: 'dev0',
      baseline: 1,
      current: 3,
      delta: 2,
      percent: 200,
      status: 'alloc-failure',
      severity: 'fail',
      rule: null,
      unit: 'count',
      limit: 0,
      note: '3 allocation failures on dev0',
    };
    expect(annotationText(entry)).toBe(
      'dev0 alloc-failure: 1 → 3 (+2, +200%) [3 allocation failures on dev0 (limit 0)]',
    );
  });

  it('names the worst failing finding in the job reason, not the alphabetically first key', () => {
    const gib = 1024 ** 3;
    const small: Entry = {
      ...base,
      key: 'DEV_MEM/dev0/RUNTIME',
      baseline: 100 * 1024 ** 2,
      current: 100 * 1024 ** 2 + 9.7 * 1024 ** 2,
      delta: 9.7 * 1024 ** 2,
      percent: 9.7,
      rule: null,
    };
    const big: Entry = {
      ...base,
      key: 'DEV_MEM/dev3/APP',
      baseline: 19.7 * gib,
      current: 39.4 * gib,
      delta: 19.7 * gib,
      percent: 100,
      rule: null,
    };
    const warn: Entry = { ...big, key: 'DEV_MEM/dev4/APP', delta: 30 * gib, severity: 'warn', status: 'imbalance' };
    expect(failureReason({ entries: [small, warn, big] })).toBe(
      'Memory gate failed: DEV_MEM/dev3/APP regressed: 19.7 GiB → 39.4 GiB (+19.7 GiB, +100%) and 1 more failing',
    );
  });

  it('says why the gate is closed on a first run failed by onMissingBaseline', () => {
    const recorded: Entry = {
      ...base,
      baseline: null,
      delta: null,
      percent: null,
      status: 'new',
      severity: 'warn',
      rule: null,
    };
    expect(failureReason({ entries: [recorded] })).toBe(
      'Memory gate: No baseline yet: 1 key recorded, the gate stays closed until a baseline is committed (onMissingBaseline: fail)',
    );
  });
});

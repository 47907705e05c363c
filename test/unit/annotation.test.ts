// The annotation a failing key gets in the Actions UI: exact numbers in the right unit, and why it failed.
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/gate/types.js';
import { annotationText } from '../../src/report/annotation.js';

const base: Entry = {
  kind: 'module',
  key: 'DEV_MEM/dev0/APP',
  baseline: 2078195712,
  current: 20781957120,
  delta: 18703761408,
  percent: 900,
  status: 'regressed',
  severity: 'fail',
  rule: 'DEV_MEM/*/APP',
};

describe('annotationText', () => {
  it('gives the exact bytes, the signed human delta and the rule of a regressed APP peak', () => {
    expect(annotationText(base)).toBe('module DEV_MEM/dev0/APP: regressed, 2078195712 → 20781957120 bytes (+17.4 GiB) [rule DEV_MEM/*/APP]');
  });

  it('says a new key has no baseline', () => {
    expect(annotationText({ ...base, baseline: null, delta: null, percent: null, status: 'over-budget', rule: null })).toBe(
      'module DEV_MEM/dev0/APP: over-budget, 20781957120 bytes, no baseline',
    );
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
    expect(annotationText(entry)).toBe('device dev0: alloc-failure, 1 → 3 (+2) [3 allocation failures on dev0 (limit 0)]');
  });
});

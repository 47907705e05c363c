// The report view (report/view.ts): the first-run split, the noise band's pass filter and the outcome, worked out once for every format.
import { describe, expect, it } from 'vitest';
import type { Entry, GateReport } from '../../../src/gate/types.js';
import { buildReportView } from '../../../src/report/view.js';

function entry(fields: Partial<Entry> & Pick<Entry, 'key'>): Entry {
  return {
    kind: 'module',
    baseline: 1000,
    current: 1000,
    delta: 0,
    percent: 0,
    status: 'pass',
    severity: 'ok',
    rule: null,
    ...fields,
  };
}

describe('buildReportView', () => {
  it('on a first run, records the new keys and keeps a failing finding as the only problem', () => {
    const fresh = entry({
      key: 'DEV_MEM/dev0/APP',
      baseline: null,
      delta: null,
      percent: null,
      status: 'new',
      severity: 'warn',
    });
    const oom = entry({
      key: 'oom/dev0',
      kind: 'oom',
      baseline: null,
      delta: null,
      percent: null,
      status: 'oom',
      severity: 'fail',
    });
    const report: GateReport = { result: 'fail', counts: { new: 1, oom: 1 }, entries: [fresh, oom] };
    const view = buildReportView(report);
    expect([view.outcome, view.firstRun, view.recorded.map((e) => e.key), view.problems.map((e) => e.key)]).toEqual([
      'fail',
      true,
      ['DEV_MEM/dev0/APP'],
      ['oom/dev0'],
    ]);
    expect(view.problemRows.map((r) => [r.worst.key, r.rolled])).toEqual([['oom/dev0', false]]);
  });

  it('lists as banded only the passing keys the noise band let through, and has no trends or moved list without history', () => {
    const band = entry({
      key: 'DEV_MEM/dev1/HCCL',
      current: 1200,
      delta: 200,
      percent: 20,
      noise: { applied: 'band' } as Entry['noise'],
    });
    const plain = entry({ key: 'DEV_MEM/dev2/HCCL' });
    const regressed = entry({
      key: 'DEV_MEM/dev3/HCCL',
      current: 3000,
      delta: 2000,
      percent: 200,
      status: 'regressed',
      severity: 'fail',
      noise: { applied: 'band' } as Entry['noise'],
    });
    const report: GateReport = { result: 'fail', counts: { pass: 2, regressed: 1 }, entries: [band, plain, regressed] };
    const view = buildReportView(report);
    expect([
      view.outcome,
      view.firstRun,
      view.banded.map((e) => e.key),
      view.moved,
      view.problemRows[0]?.trend,
    ]).toEqual(['fail', false, ['DEV_MEM/dev1/HCCL'], null, null]);
  });
});

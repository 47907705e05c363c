// Comment mode re-judges a report whose only evidence was a job log's OOM: the honest report follows from the trusted limits as it is, and a weakened one is named.
import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../../src/gate/compare.js';
import { rejudgeReport } from '../../../src/gate/rejudge.js';
import { parseGateConfig } from '../../../src/gate/thresholds.js';
import type { GateInput, GateReport } from '../../../src/gate/types.js';
import { OOM_FIELD_DEFAULTS } from '../../../src/model/oom-cause.js';
import { parseReportJson, renderJsonReport } from '../../../src/report/json.js';
import { GiB } from '../../helpers/story.js';

const config = parseGateConfig({}, 'memory-gate.json');

/** Two ranks' job logs: the same OOM held outside the allocator on dev0 and dev1. */
const RUN: GateInput = {
  sections: {
    ooms: Object.fromEntries(
      [0, 1].map((d) => [
        `dev${d}/log-0000000${d}`,
        {
          ...OOM_FIELD_DEFAULTS,
          requested: 4 * GiB,
          total: 32 * GiB,
          deviceFree: GiB,
          allocated: 2 * GiB,
          reserved: 2.5 * GiB,
          cause: 'outside-allocator',
          source: 'job log',
          precision: 'printed',
          line: 4,
          printed: 1,
          file: `rank${d}.log`,
          logicalDevice: d,
        },
      ]),
    ),
  },
  meta: { allocFailures: {} },
};

function uploaded(report: GateReport): GateReport {
  const { groups: _groups, ...read } = parseReportJson(renderJsonReport(report), 'report.json');
  return read;
}

describe('rejudgeReport: OOMs from a job log', () => {
  it('keeps an honest report as it is: the oom entries, their severity, the counts and the failed result', () => {
    const report = uploaded(compareSnapshots({ sections: {} }, RUN, config));
    expect(report.entries.map((e) => [e.kind, e.key, e.status, e.severity])).toEqual([
      ['oom', 'dev0/outside-allocator', 'oom', 'fail'],
      ['oom', 'dev1/outside-allocator', 'oom', 'fail'],
    ]);
    const { report: rejudged, discrepancies } = rejudgeReport(report, { baseline: null, config });
    expect(discrepancies).toEqual([]);
    expect(rejudged.result).toBe('fail');
  });

  it('names an oom weakened to a warning, and fails it as the trusted config says', () => {
    const report = uploaded(compareSnapshots({ sections: {} }, RUN, config));
    const forged: GateReport = { ...report, entries: report.entries.map((e) => ({ ...e, severity: 'warn' as const })) };
    const { report: rejudged, discrepancies } = rejudgeReport(forged, { baseline: null, config });
    expect(discrepancies.filter((d) => d.field === 'severity').map((d) => [d.pointer, d.claimed, d.rejudged])).toEqual([
      ['/entries/0/severity', 'warn', 'fail'],
      ['/entries/1/severity', 'warn', 'fail'],
    ]);
    expect(rejudged.result).toBe('fail');
  });
});

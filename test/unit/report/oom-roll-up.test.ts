// 4,096 ranks that OOM read in a few lines: one row per cause with the device count and the worst device, in every renderer; and the plog joined to an outside-the-allocator note.
import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../../src/gate/compare.js';
import { parseGateConfig } from '../../../src/gate/thresholds.js';
import type { GateInput } from '../../../src/gate/types.js';
import { OOM_FIELD_DEFAULTS } from '../../../src/model/oom-cause.js';
import { renderHtml } from '../../../src/report/html.js';
import { renderJunit } from '../../../src/report/junit.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { renderTerminal } from '../../../src/report/terminal.js';
import { GiB, MiB } from '../../helpers/story.js';
import { buildReportView } from '../../../src/report/view.js';

/** A job-log OOM on device d: held outside the allocator, or at capacity (every 512th rank), the request growing with d. */
function oom(d: number, capacity: boolean): [string, Record<string, number | string | null>] {
  const figures = capacity
    ? { requested: 96 * MiB, total: 64 * GiB, deviceFree: 20 * MiB, allocated: 62 * GiB, reserved: 63 * GiB }
    : { requested: 4 * GiB + d * MiB, total: 32 * GiB, deviceFree: GiB, allocated: 2 * GiB, reserved: 2.5 * GiB };
  return [
    `dev${d}/log-${d.toString(16).padStart(8, '0')}`,
    {
      ...OOM_FIELD_DEFAULTS,
      ...figures,
      source: 'job log',
      precision: 'printed',
      line: 10,
      printed: 1,
      file: `rank${d}.log`,
      logicalDevice: d,
    },
  ];
}

describe('oom roll-up across 4,096 ranks', () => {
  const run: GateInput = {
    sections: { ooms: Object.fromEntries(Array.from({ length: 4096 }, (_, d) => oom(d, d % 512 === 0))) },
    meta: { allocFailures: {} },
  };
  const report = compareSnapshots({ sections: {} }, run, parseGateConfig({}, 'memory-gate.json'));

  it('gives one entry per device and cause', () => {
    const oomEntries = report.entries.filter((e) => e.status === 'oom');
    expect(oomEntries).toHaveLength(4096);
    expect(new Set(oomEntries.map((e) => e.key.split('/')[1]))).toEqual(new Set(['outside-allocator', 'capacity']));
  });

  it('shows one row per cause with the device count and the worst device in the terminal, the comment, HTML and JUnit', () => {
    const terminal = renderTerminal(buildReportView(report), { width: 80, color: false });
    const oomRows = terminal.split('\n').filter((l) => /^✗ oom/.test(l));
    expect(oomRows).toHaveLength(2);
    expect(terminal).toContain('*/outside-allocator');
    expect(terminal).toContain('4,088 of 4,088 devices');
    expect(terminal).toContain('*/capacity');
    expect(terminal).toContain('8 of 8 devices');
    // The worst device of the outside-allocator row is the largest request: dev4095's 4.0 GiB + 4,095 MiB.
    expect(terminal).toContain('dev4095');
    const markdown = renderMarkdown(buildReportView(report)).replaceAll('\u00a0', ' ');
    expect(markdown.split('\n').filter((l) => l.startsWith('| ❌ oom'))).toHaveLength(2);
    expect(markdown).toContain('4,088 of 4,088 devices');
    const html = renderHtml(buildReportView(report));
    expect(html).toContain('4,088 of 4,088 devices');
    const junit = renderJunit(buildReportView(report), { timestamp: new Date('2026-12-04T10:00:00Z'), hostname: 'ci' });
    expect((junit.match(/<testcase [^>]*oom/g) ?? []).length).toBeLessThanOrEqual(2);
  });
});

describe('joined evidence: the plog beside a job log', () => {
  it("names the driver's modules beyond PyTorch's pool on that device, and HCCL against the configured estimate", () => {
    const [key, metric] = oom(0, false);
    const run: GateInput = {
      sections: {
        ooms: { [key]: metric },
        modules: {
          'DEV_MEM/dev0/APP': { peak: 3 * GiB, current: 3 * GiB, allocs: 10, frees: 5 },
          'DEV_MEM/dev0/HCCL': { peak: 24 * GiB, current: 24 * GiB, allocs: 3, frees: 0 },
          'DEV_MEM/dev0/RUNTIME': { peak: 1200 * MiB, current: 1000 * MiB, allocs: 3, frees: 0 },
          'DEV_MEM/dev1/HCCL': { peak: 1 * GiB, current: GiB, allocs: 3, frees: 0 },
        },
      },
      meta: { allocFailures: {} },
    };
    const config = parseGateConfig({ hccl: { links: 8, domains: 2, buffSize: '200MiB' } }, 'memory-gate.json');
    const note = compareSnapshots({ sections: {} }, run, config).entries.find((e) => e.status === 'oom')?.note ?? '';
    expect(note).toContain(
      "The plog's driver statistics for dev0 saw beyond PyTorch's pool: HCCL 24.0 GiB, RUNTIME 1.2 GiB at their peaks. " +
        "HCCL's 24.0 GiB against the HCCL reference 8 links x 4 MiB + 2 domains x 2 x 200.0 MiB = 832.0 MiB (29.5x).",
    );
  });
});

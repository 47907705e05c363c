// The terminal tables: `check` prints the verdict and the keys that matter, `parse` prints every metric it read.
import { describe, expect, it } from 'vitest';
import type { GateReport } from '../../../src/gate/types.js';
import type { Snapshot } from '../../../src/model/snapshot.js';
import { displayWidth, truncateDistinct, truncateMiddle } from '../../../src/common/text-layout.js';
import { renderSnapshotTable } from '../../../src/report/snapshot-table.js';
import { renderTerminal } from '../../../src/report/terminal.js';
import { jobReport } from '../../helpers/jobs.js';

import { entry } from '../../helpers/entries.js';
import { GROWN_APP_PEAK, SEED_APP_DELTA, SEED_APP_PEAK } from '../../helpers/story.js';
import { buildReportView } from '../../../src/report/view.js';

const appRegressed = entry({
  key: 'DEV_MEM/dev0/APP',
  baseline: SEED_APP_PEAK,
  current: GROWN_APP_PEAK,
  delta: SEED_APP_DELTA,
  percent: 900,
  status: 'regressed',
  severity: 'fail',
});
const newKernel = entry({
  kind: 'kernel',
  key: 'dev0/matmul_v1',
  baseline: null,
  current: 6,
  delta: null,
  percent: null,
  status: 'new',
  severity: 'warn',
});
const cjkKernel = entry({
  kind: 'kernel',
  key: 'dev1/算子_加法',
  baseline: 100,
  current: 300,
  delta: 200,
  percent: 200,
  status: 'regressed',
  severity: 'warn',
  rule: 'dev*/**',
});
const shrunkKernel = entry({
  kind: 'kernel',
  key: 'dev1/add_custom',
  baseline: 4096,
  current: 1024,
  delta: -3072,
  percent: -75,
  status: 'improved',
});
const runtimeSame = entry({ key: 'DEV_MEM/dev0/RUNTIME', baseline: 44_138_496, current: 44_138_496 });

const failing: GateReport = {
  result: 'fail',
  counts: { regressed: 2, new: 1, improved: 1, pass: 1 },
  entries: [runtimeSame, newKernel, shrunkKernel, cjkKernel, appRegressed],
};

describe('renderTerminal', () => {
  it('prints the verdict, the regressed APP peak on dev0 first with +17.4 GiB, explanations, and counts the keys not listed', () => {
    expect(renderTerminal(buildReportView(failing))).toBe(`Memory gate failed: 1 regressed (2 warnings)

STATUS         KEY               BASELINE → CURRENT             Δ (Δ%)
✗ regressed    DEV_MEM/dev0/APP  1.9 GiB → 19.4 GiB  +17.4 GiB (+900%)
! regressed ¹  dev1/算子_加法         100 B → 300 B     +200 B (+200%)
! new          dev0/matmul_v1               — → 6 B         +6 B (new)

¹ held to the rule dev*/** of the config

2 keys within thresholds not listed (1 improved, 1 pass)

To accept an intended change: 'ascend-memory-gate baseline --out FILE' with this
check's inputs, then commit 'FILE' (the Action: 'mode: update'); on a pull
request, the baseline update label (config 'baselineUpdateLabel') set by a
maintainer lets its own baseline count.
`);
  });

  it('aligns columns by display width, counting a Chinese character as two columns', () => {
    const lines = renderTerminal(buildReportView(failing)).split('\n').slice(2, 6);
    expect(lines.map((l) => displayWidth(l))).toEqual([70, 70, 70, 70]);
    expect(displayWidth('dev1/算子_加法')).toBe(14);
    expect(displayWidth('e\u0301')).toBe(1);
  });

  it('prints only the verdict and the count when every key passed', () => {
    const passing: GateReport = {
      result: 'pass',
      counts: { pass: 1, improved: 1 },
      entries: [runtimeSame, shrunkKernel],
    };
    expect(renderTerminal(buildReportView(passing))).toBe(
      'Memory gate passed: 2 keys within thresholds\n\n2 keys within thresholds not listed (1 improved, 1 pass)\n',
    );
  });

  it('writes no escape codes unless color is asked for, and then colors the verdict and each status', () => {
    expect(renderTerminal(buildReportView(failing))).not.toContain('\u001b');
    const colored = renderTerminal(buildReportView(failing), { color: true }).split('\n');
    expect(colored[0]).toBe('\u001b[1m\u001b[31mMemory gate failed: 1 regressed (2 warnings)\u001b[0m');
    expect(colored[3]).toBe(
      '\u001b[31m✗ regressed  \u001b[0m  DEV_MEM/dev0/APP  1.9 GiB → 19.4 GiB  +17.4 GiB (+900%)',
    );
    expect(colored[4]?.startsWith('\u001b[33m! regressed ¹\u001b[0m')).toBe(true);
  });

  it('shows an escape sequence in a kernel name instead of letting it clear the screen', () => {
    const hostile: GateReport = {
      result: 'fail',
      counts: { regressed: 1 },
      entries: [{ ...appRegressed, kind: 'kernel', key: 'dev0/\u001b[2J\u001b]0;pwned\u0007' }],
    };
    const text = renderTerminal(buildReportView(hostile), { width: 120 });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('dev0/␛[2J␛]0;pwned␇');
  });

  it('cuts a key too long for the width in the middle with …, keeping its start and end', () => {
    const longKey = `dev0/${'fused_attention_'.repeat(5)}v2`;
    const report: GateReport = {
      result: 'fail',
      counts: { regressed: 2 },
      entries: [appRegressed, { ...appRegressed, kind: 'kernel', key: longKey, delta: 1 }],
    };
    expect(renderTerminal(buildReportView(report), { width: 80 })).toBe(`Memory gate failed: 2 regressed

STATUS       KEY                           BASELINE → CURRENT             Δ (Δ%)
✗ regressed  DEV_MEM/dev0/APP              1.9 GiB → 19.4 GiB  +17.4 GiB (+900%)
✗ regressed  dev0/fused_att…_attention_v2  1.9 GiB → 19.4 GiB       +1 B (+900%)

To accept an intended change: 'ascend-memory-gate baseline --out FILE' with this
check's inputs, then commit 'FILE' (the Action: 'mode: update'); on a pull
request, the baseline update label (config 'baselineUpdateLabel') set by a
maintainer lets its own baseline count.
`);
    expect(truncateMiddle('DEV_MEM/dev0/RUNTIME', 12)).toBe('DEV_ME…NTIME');
    expect(truncateMiddle('算子_加法_乘法', 9)).toBe('算子…乘法');
    expect(truncateMiddle('short', 12)).toBe('short');
  });

  it('drops the baseline → current column before the key gets narrower than 12 columns', () => {
    expect(renderTerminal(buildReportView(failing), { width: 60 }).split('\n').slice(2, 6)).toEqual([
      'STATUS         KEY                          Δ (Δ%)',
      '✗ regressed    DEV_MEM/dev0/APP  +17.4 GiB (+900%)',
      '! regressed ¹  dev1/算子_加法       +200 B (+200%)',
      '! new          dev0/matmul_v1           +6 B (new)',
    ]);
  });

  it('keeps every line within the width, from 40 to 200 columns, explanations wrapped', () => {
    const story = jobReport({
      devices: 8,
      change: (a, d, m) => (m === 'APP' && d === 3 ? 2 : a === 'DEV_MEM' && m === 'HCCL' && d === 5 ? 1.3 : 1),
      config: { device: { capacity: 32 * 1024 ** 3, minHeadroom: { percent: 10 } } },
    });
    for (const width of [40, 60, 80, 120, 200]) {
      const lines = renderTerminal(buildReportView(story), { width }).trimEnd().split('\n');
      expect(lines.filter((l) => displayWidth(l) > width)).toEqual([]);
    }
  });

  it('rolls up a 4,096-device job where APP grew 10% on every device into one group row: under 60 lines', () => {
    const big = jobReport({ devices: 4096, change: (a, _d, m) => (a === 'DEV_MEM' && m === 'APP' ? 1.1 : 1) });
    const text = renderTerminal(buildReportView(big), { width: 80 });
    expect(text).toBe(`Memory gate failed: 4,096 regressed

STATUS       KEY             BASELINE → CURRENT             Δ (Δ%)
✗ regressed  DEV_MEM/*/APP  19.7 GiB → 21.7 GiB  +2.0 GiB (+10.0%)
    4,096 of 4,096 devices, worst dev0; median +2.0 GiB (+10.0%)

57,344 keys within thresholds not listed (57,344 pass)

To accept an intended change: 'ascend-memory-gate baseline --out FILE' with this
check's inputs, then commit 'FILE' (the Action: 'mode: update'); on a pull
request, the baseline update label (config 'baselineUpdateLabel') set by a
maintainer lets its own baseline count.
`);
    // --all lists every key: 4,096 rows, no roll-up.
    expect(
      renderTerminal(buildReportView(big), { width: 80, all: true })
        .split('\n')
        .filter((l) => l.startsWith('✗ regressed  DEV_MEM/dev')),
    ).toHaveLength(4096);
  });

  it('caps the rows at 30 and says how to see the rest', () => {
    const many: GateReport = {
      result: 'fail',
      counts: { regressed: 40 },
      entries: Array.from({ length: 40 }, (_, i) => ({ ...appRegressed, key: `HOST_MEM/M${i}`, delta: 1000 + i })),
    };
    const lines = renderTerminal(buildReportView(many), { width: 80 }).split('\n');
    expect(lines.filter((l) => l.startsWith('✗ regressed'))).toHaveLength(30);
    expect(lines).toContain('…10 more rows: --all lists every key, --report FILE.json writes them all');
  });

  it('says "No baseline yet" on the first line of a first run, with the how-to, and no per-key rows', () => {
    const first = jobReport({ devices: 2, firstRun: true });
    expect(renderTerminal(buildReportView(first), { width: 80, baselineFile: 'base.json' }))
      .toBe(`No baseline yet: 30 keys recorded
Nothing was compared. Record a baseline with 'ascend-memory-gate baseline --out
base.json' and the input flags of this check (or the Action's mode: update), and
commit it.

30 keys recorded (15 modules across devices); --report FILE.json lists them
`);
  });

  it('refuses a width that is not a positive number of columns', () => {
    expect(() => renderTerminal(buildReportView(failing), { width: 0 })).toThrow(
      'width must be a positive integer, got 0',
    );
    expect(() => renderTerminal(buildReportView(failing), { width: Number.NaN })).toThrow(
      'width must be a positive integer, got NaN',
    );
  });

  it('renders a status it does not know yet as given', () => {
    const report: GateReport = {
      result: 'fail',
      counts: {},
      entries: [Object.assign({ ...appRegressed }, { kind: 'device', key: 'dev0', status: 'low_headroom2' })],
    };
    expect(renderTerminal(buildReportView(report)).split('\n')[0]).toBe('Memory gate failed: 1 low_headroom2');
    expect(renderTerminal(buildReportView(report)).split('\n')[3]).toBe(
      '✗ low_headroom2  dev0  1.9 GiB → 19.4 GiB  +17.4 GiB (+900%)',
    );
  });
});

describe('renderSnapshotTable', () => {
  const snapshot: Snapshot = {
    version: 2,
    series: {},
    sections: {
      modules: {
        'DEV_MEM/dev0/APP': { peak: GROWN_APP_PEAK, current: GROWN_APP_PEAK, allocs: 18, frees: 0 },
        'DEV_PROC_MEM/dev0/APP': { peak: SEED_APP_PEAK, current: SEED_APP_PEAK, allocs: null, frees: null },
        'SVM_MEM/RUNTIME': { peak: 19_927_040, current: 19_927_040, allocs: 37, frees: 0 },
      },
      kernels: {
        'dev0/matmul_v1': { diff: 6, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' },
        'dev1/add_custom': { diff: -3072, rows: 4, added: 1, removed: 2, event: null },
      },
    },
    meta: { files: 3, records: 12, skipped: 1, allocFailures: { dev0: 0, dev1: 2 } },
  };

  it('lists modules with human and exact peaks, kernels with human and exact diffs, and the meta line', () => {
    expect(renderSnapshotTable(snapshot)).toBe(`Modules (3)
KEY                        PEAK        EXACT   CURRENT  ALLOCS  FREES
DEV_MEM/dev0/APP       19.4 GiB  20781957120  19.4 GiB      18      0
DEV_PROC_MEM/dev0/APP   1.9 GiB   2078195712   1.9 GiB       -      -
SVM_MEM/RUNTIME        19.0 MiB     19927040  19.0 MiB      37      0

Kernels (2)
KEY                  DIFF  EXACT  ROWS  ADDED  REMOVED  EVENT
dev0/matmul_v1       +6 B      6     1      0        0  KERNEL_LAUNCH
dev1/add_custom  -3.0 KiB  -3072     4      1        2  -

3 files, 12 records, 1 skipped; alloc failures: dev1 2
`);
  });

  it('keeps the columns narrow when one kernel name is very long', () => {
    const longKey = `dev0/${'x'.repeat(70)}`;
    const text = renderSnapshotTable({
      ...snapshot,
      sections: {
        ...snapshot.sections,
        kernels: {
          ...snapshot.sections.kernels!,
          [longKey]: { diff: 1, rows: 1, added: 1, removed: 0, event: 'OP_LAUNCH' },
        },
      },
    });
    const kernelLines = text.split('\n').slice(text.split('\n').indexOf('Kernels (3)') + 1);
    // Rows in compareKeys order whatever the snapshot's key order (the long key was added last); it does not widen the column.
    expect(kernelLines.slice(0, 5)).toEqual([
      'KEY                  DIFF  EXACT  ROWS  ADDED  REMOVED  EVENT',
      'dev0/matmul_v1       +6 B      6     1      0        0  KERNEL_LAUNCH',
      longKey,
      '                     +1 B      1     1      1        0  OP_LAUNCH',
      'dev1/add_custom  -3.0 KiB  -3072     4      1        2  -',
    ]);
  });

  it('lists keys in natural order (dev2 before dev10) though snapshots hold them in code-unit order', () => {
    const kernels = {
      'dev10/op': { diff: 1, rows: 1, added: 0, removed: 0, event: 'OP_LAUNCH' },
      'dev2/op': { diff: 2, rows: 1, added: 0, removed: 0, event: 'OP_LAUNCH' },
    };
    const text = renderSnapshotTable({ ...snapshot, sections: { kernels } });
    expect(text.indexOf('dev2/op')).toBeGreaterThan(-1);
    expect(text.indexOf('dev2/op')).toBeLessThan(text.indexOf('dev10/op'));
  });

  it('fits the terminal: the last columns are left out and named, the meta line names only devices with failures', () => {
    const devices = Object.fromEntries(Array.from({ length: 4096 }, (_, i) => [`dev${i}`, 0]));
    const text = renderSnapshotTable({ ...snapshot, meta: { ...snapshot.meta, allocFailures: devices } }, 40);
    // A key wider than the room left ends its line; its figures continue under their columns.
    expect(text).toBe(`Modules (3)
KEY                   PEAK        EXACT
DEV_MEM/dev0/APP  19.4 GiB  20781957120
DEV_PROC_MEM/dev0/APP
                   1.9 GiB   2078195712
SVM_MEM/RUNTIME   19.0 MiB     19927040
Left out to fit 40 columns: CURRENT,
ALLOCS, FREES (parse --json has every
field).

Kernels (2)
KEY                  DIFF  EXACT  ROWS
dev0/matmul_v1       +6 B      6     1
dev1/add_custom  -3.0 KiB  -3072     4
Left out to fit 40 columns: ADDED,
REMOVED, EVENT (parse --json has every
field).

3 files, 12 records, 1 skipped; alloc
failures: none on 4,096 devices
`);
    for (const line of text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);
  });

  it('says so when nothing was read', () => {
    const empty: Snapshot = {
      version: 2,
      sections: {},
      series: {},
      meta: { files: 1, records: 0, skipped: 0, allocFailures: {} },
    };
    expect(renderSnapshotTable(empty)).toBe(
      'Modules: none\n\nKernels: none\n\n1 file, 0 records, 0 skipped; alloc failures: none (no device seen)\n',
    );
  });
});

describe('rows whose keys share a long prefix', () => {
  it('cuts each key where it differs from the others, not five rows of `dev0/mem…ne_step`', () => {
    const sites = [
      '10 data_loader_step_one',
      '11 data_loader_step_two',
      '14 train_one_step',
      '20 train_two_step',
      '31 evaluate_step',
    ].map((tail, i) =>
      entry({
        kind: 'allocationSite',
        key: `dev0/memory_leaks_demo_with_a_long_folder/scripts/memory_leaks_demo.py:${tail}`,
        baseline: 100,
        current: 1000 - i,
        delta: 900 - i,
        percent: 900 - i,
        status: 'regressed',
        severity: 'fail',
      }),
    );
    const out = renderTerminal(buildReportView({ result: 'fail', counts: { regressed: 5 }, entries: sites }), {
      width: 80,
    });
    expect(out.split('\n').slice(2, 8)).toEqual([
      'STATUS       KEY                              BASELINE → CURRENT          Δ (Δ%)',
      '✗ regressed  dev0/me…10 data_loader_step_one      100 B → 1000 B  +900 B (+900%)',
      '✗ regressed  dev0/me…11 data_loader_step_two       100 B → 999 B  +899 B (+899%)',
      '✗ regressed  dev0/memory_l…14 train_one_step       100 B → 998 B  +898 B (+898%)',
      '✗ regressed  dev0/memory_l…20 train_two_step       100 B → 997 B  +897 B (+897%)',
      '✗ regressed  dev0/memory_le…31 evaluate_step       100 B → 996 B  +896 B (+896%)',
    ]);
  });

  it('keeps the start and the differing part, cutting the end when the rest is too long', () => {
    expect(truncateDistinct('dev0/a/b/c/model/layer0.py forward', 20, 'dev0/a/b/c/model/layer'.length)).toBe(
      'de…layer0.py forward',
    );
    expect(
      truncateDistinct('dev0/model/x.py:14 a_very_long_function_name_indeed', 20, 'dev0/model/x.py:1'.length),
    ).toBe('dev0/…14 a_very_lon…');
    expect(truncateDistinct('DEV_MEM/dev0/RUNTIME', 12, 0)).toBe('DEV_ME…NTIME');
  });
});

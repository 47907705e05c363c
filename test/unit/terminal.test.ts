// The terminal tables: `check` prints the verdict and the keys that matter, `parse` prints every metric it read.
import { describe, expect, it } from 'vitest';
import type { Entry, GateReport } from '../../src/gate/types.js';
import type { Snapshot } from '../../src/snapshot.js';
import { displayWidth, renderSnapshotTable, renderTerminal } from '../../src/report/terminal.js';

function entry(fields: Partial<Entry> & Pick<Entry, 'key'>): Entry {
  return { kind: 'module', baseline: 1000, current: 1000, delta: 0, percent: 0, status: 'pass', severity: 'ok', rule: null, ...fields };
}

const appRegressed = entry({
  key: 'DEV_MEM/dev0/APP',
  baseline: 2_078_195_712,
  current: 20_781_957_120,
  delta: 18_703_761_408,
  percent: 900,
  status: 'regressed',
  severity: 'fail',
});
const newKernel = entry({ kind: 'kernel', key: 'dev0/matmul_v1', baseline: null, current: 6, delta: null, percent: null, status: 'new', severity: 'warn' });
const cjkKernel = entry({ kind: 'kernel', key: 'dev1/算子_加法', baseline: 100, current: 300, delta: 200, percent: 200, status: 'regressed', severity: 'warn', rule: 'dev*/**' });
const shrunkKernel = entry({ kind: 'kernel', key: 'dev1/add_custom', baseline: 4096, current: 1024, delta: -3072, percent: -75, status: 'improved' });
const runtimeSame = entry({ key: 'DEV_MEM/dev0/RUNTIME', baseline: 44_138_496, current: 44_138_496 });

const failing: GateReport = {
  result: 'fail',
  counts: { regressed: 2, new: 1, improved: 1, pass: 1 },
  entries: [runtimeSame, newKernel, shrunkKernel, cjkKernel, appRegressed],
};

describe('renderTerminal', () => {
  it('prints the verdict, the regressed APP peak on dev0 first with +17.4 GiB, and counts the keys not listed', () => {
    expect(renderTerminal(failing)).toBe(`Memory gate failed: 1 regressed (2 warnings)

SEVERITY  STATUS     KIND    KEY               BASELINE   CURRENT      DELTA   DELTA%  RULE / WHY
fail      regressed  module  DEV_MEM/dev0/APP   1.9 GiB  19.4 GiB  +17.4 GiB  +900.0%  default
warn      regressed  kernel  dev1/算子_加法       100 B     300 B     +200 B  +200.0%  dev*/**
warn      new        kernel  dev0/matmul_v1           -       6 B          -        -  default

2 keys within thresholds not listed (1 improved, 1 pass)
`);
  });

  it('aligns columns by terminal width, counting a Chinese character as two columns', () => {
    const [header = '', app = '', cjk = ''] = renderTerminal(failing).split('\n').slice(2, 5);
    const baselineEnd = (line: string, cell: string): number => displayWidth(line.slice(0, line.indexOf(cell) + cell.length));
    expect(baselineEnd(header, 'BASELINE')).toBe(55);
    expect(baselineEnd(app, ' 1.9 GiB')).toBe(55);
    expect(baselineEnd(cjk, ' 100 B')).toBe(55);
    expect(displayWidth('dev1/算子_加法')).toBe(14);
    expect(displayWidth('e\u0301')).toBe(1);
  });

  it('prints only the verdict and the count when every key passed', () => {
    const passing: GateReport = { result: 'pass', counts: { pass: 1, improved: 1 }, entries: [runtimeSame, shrunkKernel] };
    expect(renderTerminal(passing)).toBe('Memory gate passed: 2 keys within thresholds\n\n2 keys within thresholds not listed (1 improved, 1 pass)\n');
  });

  it('writes no escape codes unless color is asked for, and then colors the severity', () => {
    expect(renderTerminal(failing)).not.toContain('\u001b');
    const colored = renderTerminal(failing, { color: true }).split('\n');
    expect(colored[0]).toBe('\u001b[1m\u001b[31mMemory gate failed: 1 regressed (2 warnings)\u001b[0m');
    expect(colored[3]?.startsWith('\u001b[31mfail    \u001b[0m  regressed  module  DEV_MEM/dev0/APP')).toBe(true);
    expect(colored[4]?.startsWith('\u001b[33mwarn    \u001b[0m  regressed')).toBe(true);
  });

  it('shows an escape sequence in a kernel name instead of letting it clear the screen', () => {
    const hostile: GateReport = { result: 'fail', counts: { regressed: 1 }, entries: [{ ...appRegressed, kind: 'kernel', key: 'dev0/\u001b[2J\u001b]0;pwned\u0007' }] };
    const text = renderTerminal(hostile);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('dev0/␛[2J␛]0;pwned␇');
  });

  it('gives a key longer than the terminal allows its own line and continues the values under their columns', () => {
    const longKey = `dev0/${'fused_attention_'.repeat(5)}v2`;
    const report: GateReport = { result: 'fail', counts: { regressed: 2 }, entries: [appRegressed, { ...appRegressed, kind: 'kernel', key: longKey, delta: 1 }] };
    const text = renderTerminal(report, { width: 100 });
    expect(text).toBe(`Memory gate failed: 2 regressed

SEVERITY  STATUS     KIND    KEY               BASELINE   CURRENT      DELTA   DELTA%  RULE / WHY
fail      regressed  module  DEV_MEM/dev0/APP   1.9 GiB  19.4 GiB  +17.4 GiB  +900.0%  default
fail      regressed  kernel  ${longKey}
                                                1.9 GiB  19.4 GiB       +1 B  +900.0%  default
`);
    // Every line but the long key's own fits in 100 columns.
    expect(text.split('\n').filter((line) => displayWidth(line) > 100)).toEqual([`fail      regressed  kernel  ${longKey}`]);
  });

  it('narrows the key column to the terminal width, down to 16 columns', () => {
    const longer = { ...appRegressed, key: 'DEV_MEM/dev0/APP_0123456789', delta: 1 };
    const report: GateReport = { result: 'fail', counts: { regressed: 2 }, entries: [appRegressed, longer] };
    // 78 columns go to the other columns and gaps: the key column gets the 16-column minimum, the 27-column key its own line.
    expect(renderTerminal(report, { width: 80 }).split('\n').slice(2, 6)).toEqual([
      'SEVERITY  STATUS     KIND    KEY               BASELINE   CURRENT      DELTA   DELTA%  RULE / WHY',
      'fail      regressed  module  DEV_MEM/dev0/APP   1.9 GiB  19.4 GiB  +17.4 GiB  +900.0%  default',
      'fail      regressed  module  DEV_MEM/dev0/APP_0123456789',
      '                                                1.9 GiB  19.4 GiB       +1 B  +900.0%  default',
    ]);
    // With 108 columns both keys fit on their rows.
    expect(renderTerminal(report, { width: 108 }).split('\n').slice(3, 5)).toEqual([
      'fail      regressed  module  DEV_MEM/dev0/APP              1.9 GiB  19.4 GiB  +17.4 GiB  +900.0%  default',
      'fail      regressed  module  DEV_MEM/dev0/APP_0123456789   1.9 GiB  19.4 GiB       +1 B  +900.0%  default',
    ]);
  });

  it('refuses a width that is not a positive number of columns', () => {
    expect(() => renderTerminal(failing, { width: 0 })).toThrow('width must be a positive integer, got 0');
    expect(() => renderTerminal(failing, { width: Number.NaN })).toThrow('width must be a positive integer, got NaN');
  });

  it('renders a status it does not know yet as given', () => {
    const report: GateReport = { result: 'fail', counts: {}, entries: [Object.assign({ ...appRegressed }, { kind: 'device', key: 'dev0', status: 'low-headroom' })] };
    expect(renderTerminal(report).split('\n')[0]).toBe('Memory gate failed: 1 low headroom');
    expect(renderTerminal(report).split('\n')[3]).toBe('fail      low-headroom  device  dev0   1.9 GiB  19.4 GiB  +17.4 GiB  +900.0%  default');
  });
});

describe('renderSnapshotTable', () => {
  const snapshot: Snapshot = {
    version: 2,
    series: {},
    sections: {
    modules: {
      'DEV_MEM/dev0/APP': { peak: 20_781_957_120, current: 20_781_957_120, allocs: 18, frees: 0 },
      'DEV_PROC_MEM/dev0/APP': { peak: 2_078_195_712, current: 2_078_195_712, allocs: null, frees: null },
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
KEY                        PEAK   PEAK BYTES   CURRENT  ALLOCS  FREES
DEV_MEM/dev0/APP       19.4 GiB  20781957120  19.4 GiB      18      0
DEV_PROC_MEM/dev0/APP   1.9 GiB   2078195712   1.9 GiB       -      -
SVM_MEM/RUNTIME        19.0 MiB     19927040  19.0 MiB      37      0

Kernels (2)
KEY                  DIFF  DIFF BYTES  ROWS  ADDED  REMOVED  EVENT
dev0/matmul_v1       +6 B           6     1      0        0  KERNEL_LAUNCH
dev1/add_custom  -3.0 KiB       -3072     4      1        2  -

3 files, 12 records, 1 skipped; alloc failures: dev0 0, dev1 2
`);
  });

  it('keeps the columns narrow when one kernel name is very long', () => {
    const longKey = `dev0/${'x'.repeat(70)}`;
    const text = renderSnapshotTable({ ...snapshot, sections: { ...snapshot.sections, kernels: { ...snapshot.sections.kernels!, [longKey]: { diff: 1, rows: 1, added: 1, removed: 0, event: 'OP_LAUNCH' } } } });
    const kernelLines = text.split('\n').slice(text.split('\n').indexOf('Kernels (3)') + 1);
    // Insertion order is the snapshot's (the builder sorts keys); the long key does not widen the column.
    expect(kernelLines.slice(0, 5)).toEqual([
      'KEY                  DIFF  DIFF BYTES  ROWS  ADDED  REMOVED  EVENT',
      'dev0/matmul_v1       +6 B           6     1      0        0  KERNEL_LAUNCH',
      'dev1/add_custom  -3.0 KiB       -3072     4      1        2  -',
      longKey,
      '                     +1 B           1     1      1        0  OP_LAUNCH',
    ]);
  });

  it('says so when nothing was read', () => {
    const empty: Snapshot = { version: 2, sections: {}, series: {}, meta: { files: 1, records: 0, skipped: 0, allocFailures: {} } };
    expect(renderSnapshotTable(empty)).toBe('Modules: none\n\nKernels: none\n\n1 file, 0 records, 0 skipped; alloc failures: none (no device seen)\n');
  });
});

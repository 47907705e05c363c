// msMemScope dumps through the whole pipeline: parse/baseline/check with --dump and --dump-base, as a user runs them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memscopeDumpText } from '../../../generators/memscope-dump.js';
import { runCli } from '../../../../src/cli/commands.js';
import type { Snapshot } from '../../../../src/model/snapshot.js';

const FIX = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'memscope');
const dir = mkdtempSync(join(tmpdir(), 'amg-memscope-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

async function snapshotOf(args: string[]): Promise<Snapshot> {
  const r = await run(['parse', ...args, '--json']);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as Snapshot;
}

interface ReportEntry {
  kind: string;
  key: string;
  status: string;
  severity: string;
  baseline: number | null;
  current: number | null;
  note?: string;
}

async function check(
  baselineArgs: string[],
  currentArgs: string[],
): Promise<{ code: number; result: string; entries: ReportEntry[] }> {
  const baseline = join(dir, `baseline-${Math.random().toString(36).slice(2)}.json`);
  const report = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  expect((await run(['baseline', '--out', baseline, ...baselineArgs])).code).toBe(0);
  const r = await run(['check', '--baseline', baseline, ...currentArgs, '--report', report]);
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as { result: string; entries: ReportEntry[] };
  return { code: r.code, result: parsed.result, entries: parsed.entries };
}

const leakDump = join(dir, 'memscope_dump_leak.csv');
const cleanDump = join(dir, 'memscope_dump_clean.csv');
writeFileSync(leakDump, memscopeDumpText({ steps: 6, opsPerStep: 5, leakFromStep: 2 }));
writeFileSync(cleanDump, memscopeDumpText({ steps: 6, opsPerStep: 5 }));

describe('--dump: training steps and the step-leak verdict', () => {
  it('puts the leak, per-step peaks and ends and the step series into the snapshot', async () => {
    const s = await snapshotOf(['--dump', leakDump]);
    expect(s.sections.stepLeaks).toEqual({ 'dev0/PTA': { bytes: 16_001_024, blocks: 4, top: 'PTA 4000256×4' } });
    expect(s.sections.steps?.['dev0/PTA/step4/end']).toEqual({ bytes: 12_000_768, step: 4 });
    expect(s.series.steps?.['dev0/PTA/end']).toEqual({
      axis: 'step',
      width: 1,
      points: [
        [1, 0],
        [2, 4_000_256],
        [3, 8_000_512],
        [4, 12_000_768],
        [5, 16_001_024],
        [6, 20_001_280],
      ],
    });
  });

  it("warns step-leak on dev0/PTA with the bytes of msMemScope's rule (4 blocks of 4,000,256 B)", async () => {
    const { code, result, entries } = await check(['--dump', cleanDump], ['--dump', leakDump]);
    const leaks = entries.filter((e) => e.status === 'step-leak');
    expect(leaks).toEqual([
      expect.objectContaining({
        kind: 'stepLeak',
        key: 'dev0/PTA',
        severity: 'warn',
        baseline: null,
        current: 16_001_024,
        note: "4 block(s), 16001024 bytes allocated during a step k >= 2 were still live at the end of step k+1 (msMemScope's leak rule); most: PTA 4000256×4",
      }),
    ]);
    // The per-step series feed `growing` (src/gate/findings/growth.ts): a steady rise of 4,000,256 B a step after the warm-up step.
    expect(entries.filter((e) => e.status === 'growing').map((e) => [e.kind, e.key])).toEqual([
      ['step', 'dev0/PTA/end'],
      ['step', 'dev0/PTA/peak'],
    ]);
    // The step ends grew past the steps tolerance too: those are regressions, so the gate fails.
    expect(entries.filter((e) => e.status === 'regressed').map((e) => e.key)).toEqual([
      'dev0/PTA/step2/end',
      'dev0/PTA/step2/peak',
      'dev0/PTA/step3/end',
      'dev0/PTA/step3/peak',
      'dev0/PTA/step4/end',
      'dev0/PTA/step4/peak',
      'dev0/PTA/step5/end',
      'dev0/PTA/step5/peak',
      'dev0/PTA/step6/end',
      'dev0/PTA/step6/peak',
    ]);
    expect([code, result]).toEqual([1, 'fail']);
  });

  it('gives neither step-leak nor growing (and passes) on the same dump without the leak', async () => {
    const { code, entries } = await check(['--dump', cleanDump], ['--dump', cleanDump]);
    expect(entries.filter((e) => e.severity !== 'ok')).toEqual([]);
    expect(code).toBe(0);
  });
});

describe('--dump: memory unfreed at the end (corpus example pair)', () => {
  it('reports the two 4,000,256-byte PTA blocks and the 18,874,368-byte HAL segment as new unfreed memory', async () => {
    const { entries } = await check(
      ['--dump', join(FIX, 'baseline_dump.csv')],
      ['--dump', join(FIX, 'leaks_dump.csv')],
    );
    expect(entries.filter((e) => e.status === 'leak-suspect')).toEqual([
      expect.objectContaining({
        kind: 'unfreed',
        key: 'dev0/HAL/HAL',
        severity: 'warn',
        baseline: 7_009_972,
        current: 25_884_340,
        note: 'memory never freed while tracing grew from 7009972 to 25884340 bytes (4 block(s)), more than the 8058548 tolerated; new blocks: 18874368 B',
      }),
      expect.objectContaining({
        kind: 'unfreed',
        key: 'dev0/PTA/PTA',
        severity: 'warn',
        baseline: 3072,
        current: 8_003_584,
        note: 'memory never freed while tracing grew from 3072 to 8003584 bytes (6 block(s)), more than the 1051648 tolerated; new blocks: 4000256 B ×2',
      }),
    ]);
  });
});

describe('--dump-base: compare-dumps in process, gated as a memory_compare CSV', () => {
  it('gives the same kernels section as parsing the CSV compare-dumps writes', async () => {
    const csv = join(dir, 'memory_compare_20250101000000.csv');
    expect(
      (await run(['compare-dumps', join(FIX, 'baseline_dump.csv'), join(FIX, 'leaks_dump.csv'), '--out', csv])).code,
    ).toBe(0);
    const fromCsv = await snapshotOf(['--compare', csv]);
    const inProcess = await snapshotOf([
      '--dump',
      join(FIX, 'leaks_dump.csv'),
      '--dump-base',
      join(FIX, 'baseline_dump.csv'),
    ]);
    expect(inProcess.sections.kernels).toEqual(fromCsv.sections.kernels);
    expect(inProcess.sections.kernels?.['dev0/torch._ops.aten.randn.default']).toEqual({
      diff: 8_000_512,
      rows: 2,
      added: 2,
      removed: 0,
      event: 'OP_LAUNCH',
    });
  });

  it('compares nothing when one search found the same dumps for both (no base was given)', async () => {
    const s = await snapshotOf(['--dump', join(FIX, 'leaks_dump.csv'), '--dump-base', join(FIX, 'leaks_dump.csv')]);
    expect(s.sections.kernels).toBeUndefined();
  });

  it('refuses base dumps that cannot be paired one to one', async () => {
    const r = await run([
      'parse',
      '--dump',
      join(FIX, 'leaks_dump.csv'),
      '--dump-base',
      join(FIX, 'baseline_dump.csv'),
      join(FIX, 'memscope_dump_20250428113810.csv'),
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'error: memscope-dump-base has 2 dump(s) but memscope-dump has 1: give one base dump per dump (they are paired in sorted path order)\n',
    );
  });
});

describe('--dump: msMemScope OOM_DETAIL records (issue 32)', () => {
  const oomDump = join(FIX, 'oom_dump.csv');

  it('turns the OOM_TRIGGER row into an ooms entry with the request, and cause unknown (the row has no T, F, A or V)', async () => {
    const s = await snapshotOf(['--dump', oomDump]);
    expect(s.sections.ooms).toEqual({
      'dev0/dump-6c4fb6d7': {
        requested: 21_474_836_480,
        total: null,
        deviceFree: null,
        allocated: null,
        reserved: null,
        largestFreeBlock: null,
        entriesAfter: null,
        active: null,
        allowed: null,
        processTotal: null,
        processes: null,
        sites: '[]',
        cause: 'unknown',
        source: 'msMemScope dump',
        precision: 'exact',
        line: 4,
        printed: 1,
        file: 'test/fixtures/memscope/oom_dump.csv',
        logicalDevice: 0,
        visibleDevices: null,
      },
    });
  });

  it('decides request-exceeds-device when --capacity gives T (R = 20 GiB > T = 16 GiB)', async () => {
    const s = await snapshotOf(['--dump', oomDump, '--capacity', '16GiB']);
    expect(Object.entries(s.sections.ooms ?? {}).map(([k, m]) => [k, m.cause])).toEqual([
      ['dev0/dump-6c4fb6d7', 'request-exceeds-device'],
    ]);
  });

  it('fails the gate with the oom finding', async () => {
    const { code, result, entries } = await check(['--dump', cleanDump], ['--dump', oomDump]);
    expect(entries.filter((e) => e.kind === 'oom').map((e) => [e.key, e.severity, e.current])).toEqual([
      ['dev0/unknown', 'fail', 21_474_836_480],
    ]);
    // The rule needs T at least: the note says so, and names the dump's line.
    expect(entries.find((e) => e.kind === 'oom')?.note).toBe(
      "Cause unknown: 20.0 GiB were requested, but the device's total memory is not known: set `device.capacity` in the config (or keep torch_npu's memUsageInfo CSV beside the OOM dump). From test/fixtures/memscope/oom_dump.csv:4.",
    );
    expect([code, result]).toEqual([1, 'fail']);
  });
});

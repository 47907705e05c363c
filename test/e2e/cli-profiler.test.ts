/**
 * End-to-end tests of `--profiler` in the bundled command line (`node dist/cli.js`): the real torch_npu corpus found
 * in its directory tree, the spreadsheet-damaged file, and the growing verdict on a generated timeline.
 *
 * Build first: `npm run build` (these tests run dist/cli.js, not the sources).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryRecord } from '../generators/memory-record.js';
import { KiB, MiB } from '../helpers/story.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '' }, maxBuffer: 64 * MiB },
      (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr });
      },
    );
  });
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'amg-profiler-'));
  dirs.push(d);
  return d;
}

describe('parse --profiler', () => {
  it('finds every table in the *_ascend_pt trees of a directory and reads them exactly', async () => {
    const run = await cli(['parse', '--profiler', 'test/fixtures/torch_npu', '--json'], ROOT);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const snapshot = JSON.parse(run.stdout);
    // level0-2025-01 (2 ranks) and st-level2 (2 ranks), 3 tables each; insight-ut-edited has no *_ascend_pt folder.
    expect(snapshot.meta.files).toBe(12);
    expect(snapshot.sections.components['dev4/PTA/reserved']).toEqual({ peak: 10868 * MiB });
    expect(snapshot.sections.components['dev1/PTA+GE/allocated']).toEqual({ peak: 1188.1064453125 * MiB });
    expect(snapshot.sections.modules['NPU_MODULE_MEM/dev0/HCCL']).toEqual({
      peak: 1241.69921875 * MiB,
      current: 1241.69921875 * MiB,
      allocs: null,
      frees: null,
    });
    expect(snapshot.sections.operators['dev4/npu::_npu_dtype_cast']).toEqual({
      largest: 2430976.5 * KiB,
      count: 234,
      total: 7_585_670_144,
    });
    expect(Object.keys(snapshot.series.components)).toContain('dev0/PTA/allocated');
    expect(snapshot.sections.kernels).toBeUndefined();
  });

  it('warns with file:line about the spreadsheet-damaged file and fails for want of any figure (exit 2)', async () => {
    const run = await cli(
      ['parse', '--profiler', 'test/fixtures/torch_npu/insight-ut-edited/test_rank_1/memory_record.csv'],
      ROOT,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '1 record(s) were malformed, the first at test/fixtures/torch_npu/insight-ut-edited/test_rank_1/memory_record.csv:2: spreadsheet damage: Timestamp(us) is "1.69512E+15"',
    );
  });
});

describe('check --profiler: the growing verdict', () => {
  /** A job folder with one rank's memory_record.csv, PTA allocated given per one-second window. */
  function job(level: (w: number) => number): string {
    const dir = tempDir();
    const out = join(dir, 'prof', 'rank0_ascend_pt', 'ASCEND_PROFILER_OUTPUT');
    mkdirSync(out, { recursive: true });
    writeFileSync(
      join(out, 'memory_record.csv'),
      memoryRecord(100, (w) => level(w)),
    );
    return dir;
  }
  // 20 flat windows at 4000 MB, then +80 MB per window.
  const rising = (w: number): number => (w < 20 ? 4000 : 4000 + (w - 20) * 80);

  it('warns about the rising key on the first run (its own baseline), with the projected rise, and passes', async () => {
    const dir = job(rising);
    expect((await cli(['baseline', '--out', 'base.json', '--profiler', 'prof'], dir)).code).toBe(0);
    const run = await cli(['check', '--baseline', 'base.json', '--profiler', 'prof', '--report', 'report.json'], dir);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const growing = report.entries.filter((e: { status: string }) => e.status === 'growing');
    expect(growing.map((e: { kind: string; key: string; severity: string }) => [e.kind, e.key, e.severity])).toEqual([
      ['component', 'dev0/PTA/active', 'warn'],
      ['component', 'dev0/PTA/allocated', 'warn'],
    ]);
    expect(growing[1].note).toMatch(/rises 6\.\d GiB across the run after warm-up, over the 516\.0 MiB tolerated$/);
    expect(report.counts.growing).toBe(2);
  });

  it('fails the run with verdicts.growing: fail in the config', async () => {
    const dir = job(rising);
    writeFileSync(join(dir, 'gate.json'), JSON.stringify({ verdicts: { growing: 'fail' } }));
    await cli(['baseline', '--out', 'base.json', '--profiler', 'prof'], dir);
    const run = await cli(['check', '--baseline', 'base.json', '--config', 'gate.json', '--profiler', 'prof'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('growing');
  });

  it('passes a flat run with no growing entry', async () => {
    const dir = job(() => 4000);
    await cli(['baseline', '--out', 'base.json', '--profiler', 'prof'], dir);
    const run = await cli(['check', '--baseline', 'base.json', '--profiler', 'prof', '--report', 'report.json'], dir);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.counts.growing).toBe(0);
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';

const FIX = join(import.meta.dirname, '..', '..', 'fixtures', 'memscope');
const dir = mkdtempSync(join(tmpdir(), 'amg-compare-dumps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe('ascend-memory-gate compare-dumps', () => {
  it("prints the smoke pair's 12 kernel rows to stdout", async () => {
    const r = await run([
      'compare-dumps',
      join(FIX, 'memscope_dump_20250428113810.csv'),
      join(FIX, 'memscope_dump_20250428113811.csv'),
      '--level',
      '1',
    ]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').length).toBe(2 + 12 + 1);
    expect(r.out.split('\n')[2]).toBe('KERNEL_LAUNCH,N/A,1,7168,7168,0');
  });

  it('writes --out and says how many rows', async () => {
    const out = join(dir, 'memory_compare.csv');
    const r = await run(['compare-dumps', join(FIX, 'baseline_dump.csv'), join(FIX, 'leaks_dump.csv'), '--out', out]);
    expect(r.code).toBe(0);
    expect(r.err).toBe(`wrote ${out}: 44 rows on 1 device(s)\n`);
    expect(readFileSync(out, 'utf8').split('\n')[22]).toBe(
      'OP_LAUNCH,torch._ops.aten.randn.default,0,N/A,4000256,4000256',
    );
  });

  it('exits 2 with a clear message for bad arguments and inputs', async () => {
    expect(await run(['compare-dumps', 'a.csv'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('give exactly two dumps, BASE and CURRENT (got 1)'),
    });
    expect(await run(['compare-dumps', 'a', 'b', '--level', 'graph'])).toMatchObject({
      code: 2,
      err: "error: compare-dumps: --level must be op, kernel or op,kernel (got 'graph')\n",
    });
    const bad = await run(['compare-dumps', join(FIX, 'SOURCES.md'), join(FIX, 'leaks_dump.csv')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^error: .*SOURCES\.md:1: not an msMemScope event dump/);
    const none = await run([
      'compare-dumps',
      join(FIX, 'baseline_dump.csv'),
      join(FIX, 'leaks_dump.csv'),
      '--level',
      'kernel',
      '--out',
      join(dir, 'none.csv'),
    ]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('nothing to compare');
    expect(await run(['compare-dumps', join(dir, 'missing.csv'), join(FIX, 'leaks_dump.csv')])).toMatchObject({
      code: 2,
      err: `error: ${join(dir, 'missing.csv')}: cannot read the dump (ENOENT)\n`,
    });
  });
});

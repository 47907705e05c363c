// Messages that must not mislead (issue 25, item 13): each names the thing it is about, gives advice for the input the
// user gave (not for plog files they never passed), and stays under 300 characters a line; globs belong in --help.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMSCOPE_HEADER } from '../../generators/memscope-dump.js';
import { runCli } from '../../../src/cli/commands.js';

const tmp = mkdtempSync(join(tmpdir(), 'messages-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const FIX = join(import.meta.dirname, '..', '..', 'fixtures');

const RECORD = `[INFO] DRV(77,python3):2024-07-08-22:27:45.354.900 [ascend][curpid: 77, 77][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=APP; module_id=33; current_alloced_size=100; alloced_peak_size=100; alloc_cnt=3; free_cnt=1)\n`;

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    width: () => 80,
    color: () => false,
  });
  return { code, out, err };
}

let cases = 0;
function folder(files: Record<string, string> = {}): string {
  const dir = join(tmp, `case-${++cases}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const longestLine = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));

describe('messages name what they are about', () => {
  it.skipIf(platform() !== 'linux')('--html /proc/version names the file it could not write', async () => {
    const dir = folder({ 'plog/p.log': RECORD });
    const r = await cli(
      'check',
      '--baseline',
      join(dir, 'none.json'),
      '--plog',
      join(dir, 'plog'),
      '--html',
      '/proc/version',
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: \/proc\/version: cannot write it: /);
  });

  it('"no input files found" is one short line per source given, without the search globs (those are in --help)', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'empty'));
    const r = await cli(
      'parse',
      '--plog',
      join(dir, 'empty'),
      '--compare',
      join(dir, 'empty'),
      '--profiler',
      join(dir, 'empty'),
      '--snapshot',
      join(dir, 'empty'),
      '--dump',
      join(dir, 'empty'),
    );
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toMatch(/^error: no input files found in /);
    expect(longestLine(r.err)).toBeLessThan(300);
    expect(r.err).not.toContain('**/');
    expect(r.err).toContain("'ascend-memory-gate --help' lists what a folder is searched for");
    // --help does list them.
    const help = await cli('--help');
    expect(help.out).toContain('memscope_dump_*.csv');
    expect(help.out).toContain('mindstudio_profiler_output');
  });

  it('a dump-only run with no figures gets advice about dumps, not about plog files', async () => {
    const dir = folder({ 'memscope_dump_1.csv': `${MEMSCOPE_HEADER}\n` });
    const r = await cli('parse', '--dump', join(dir, 'memscope_dump_1.csv'));
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/plog|Mem stats/);
    expect(r.err).toContain('no memory figures found in 1 msMemScope dump file(s)');
    expect(longestLine(r.err)).toBeLessThan(300);
  });

  it('a profiler-only run with no figures gets advice about profiler CSVs, not about plog files', async () => {
    const dir = folder({ 'npu_module_mem.csv': 'Component,Timestamp(us),Total Reserved(MB),Device\n' });
    const r = await cli('parse', '--profiler', dir);
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/plog|Mem stats/);
    expect(r.err).toContain('no memory figures found in 1 profiler file(s)');
    expect(r.err).toContain('profile_memory=True');
    expect(longestLine(r.err)).toBeLessThan(300);
  });

  it('a plog run with no figures keeps its advice about run logs', async () => {
    const dir = folder({ 'plog/p.log': '[INFO] nothing here\n' });
    const r = await cli('parse', '--plog', join(dir, 'plog'));
    expect(r.err).toContain('no memory statistics found in 1 plog file(s)');
    expect(r.err).toContain('was the job run with run logs enabled');
  });

  it('parse --dump warns about microsecond timestamps under a Timestamp(ns) header, naming the file and line', async () => {
    const dir = folder();
    copyFileSync(
      join(FIX, 'memscope', 'memscope_dump_20250428113810.csv'),
      join(dir, 'memscope_dump_20250428113810.csv'),
    );
    const r = await cli('parse', '--dump', join(dir, 'memscope_dump_20250428113810.csv'), '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      `warning: ${join(dir, 'memscope_dump_20250428113810.csv')}:2: timestamps are microseconds (1746006014162153) under a Timestamp(ns) header: read as µs\n`,
    );
  });
});

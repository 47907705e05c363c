// Folders given as inputs (issue 25, items 11 and 12): a sub-folder that cannot be read is named, never skipped in
// silence (a rank's logs would vanish from the gate), and a profiler folder given itself (PROF_*, *_ascend_pt,
// *_ascend_ms) is searched as what it is.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'input-folders-'));
// Readable by the unprivileged user the permission test runs as.
chmodSync(tmp, 0o755);
afterAll(() => {
  chmodSync(join(tmp, 'ranks', 'rank_1'), 0o755);
  rmSync(tmp, { recursive: true, force: true });
});

const RECORD = (dev: number, peak: number): string =>
  `[INFO] DRV(77,python3):2024-07-08-22:27:45.354.900 [ascend][curpid: 77, 77][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev${dev} Mem stats (Bytes). (module_name=APP; module_id=33; current_alloced_size=${peak}; alloced_peak_size=${peak}; alloc_cnt=3; free_cnt=1)\n`;

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(tmp, name, '..'), { recursive: true });
    writeFileSync(join(tmp, name), text);
  }
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    width: () => 120,
    color: () => false,
  });
  return { code, out, err };
}

/** The command line from the sources in a child process, as an unprivileged user when this one is root (root reads any folder). */
function cliAsUser(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const asRoot = process.getuid?.() === 0;
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', join(ROOT, 'test', 'helpers', 'ts-loader.mjs'), join(ROOT, 'src', 'cli', 'index.ts'), ...argv],
      { cwd: tmp, env: { PATH: process.env.PATH ?? '' }, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, out: stdout, err: stderr }),
    );
  });
}

describe('a sub-folder that cannot be read', () => {
  it.skipIf(process.platform === 'win32')(
    'is named in a warning with why; the readable ranks are still read',
    async () => {
      write({ 'ranks/rank_0/plog-1.log': RECORD(0, 100), 'ranks/rank_1/plog-2.log': RECORD(1, 200) });
      chmodSync(join(tmp, 'ranks'), 0o755);
      chmodSync(join(tmp, 'ranks', 'rank_0'), 0o755);
      chmodSync(join(tmp, 'ranks', 'rank_1'), 0o000);
      const r = await cliAsUser('parse', '--plog', 'ranks', '--json');
      expect(r.err).toBe(
        "warning: --plog: cannot read the folder 'ranks/rank_1': permission denied (check its permissions) (EACCES); any input files in it are not read\n",
      );
      expect(r.code).toBe(0);
      expect(
        Object.keys((JSON.parse(r.out) as { sections: { modules: Record<string, unknown> } }).sections.modules),
      ).toEqual(['DEV_MEM/dev0/APP']);
    },
  );
});

const MODULE_MEM = 'Component,Timestamp(us),Total Reserved(MB),Device\nAPP,1736405443756384.100\t,2.0,NPU:0\n';
const MODULE_MEM_KB =
  'Device_id,Component,Timestamp(us),Total Reserved(KB),Device\n0,APP,1736405443756384.100\t,3072,NPU:0\n';

describe('a profiler folder given itself', () => {
  it('a PROF_* folder (what msprof writes) is searched for its mindstudio_profiler_output', async () => {
    write({ 'PROF_000001_20250108_abc/mindstudio_profiler_output/npu_module_mem_20250108.csv': MODULE_MEM_KB });
    const r = await cli('parse', '--profiler', join(tmp, 'PROF_000001_20250108_abc'), '--json');
    expect(r.err).toBe('');
    expect(
      (JSON.parse(r.out) as { sections: { modules: Record<string, { peak: number }> } }).sections.modules[
        'NPU_MODULE_MEM/dev0/APP'
      ]?.peak,
    ).toBe(3 * 1024 * 1024);
  });

  it.each(['worker_1_20250108_ascend_pt', 'worker_1_20250108_ascend_ms'])(
    'a %s folder is searched for its ASCEND_PROFILER_OUTPUT tables, not the PROF_* copy inside',
    async (name) => {
      write({
        [`${name}/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv`]: MODULE_MEM,
        // msprof's own tree inside the torch_npu folder holds the same data again: never read twice.
        [`${name}/PROF_000001_20250108_abc/mindstudio_profiler_output/npu_module_mem_20250108.csv`]: MODULE_MEM_KB,
      });
      const r = await cli('parse', '--profiler', join(tmp, name), '--json');
      expect(r.err).toBe('');
      const snapshot = JSON.parse(r.out) as {
        meta: { files: number };
        sections: { modules: Record<string, { peak: number }> };
      };
      expect(snapshot.meta.files).toBe(1);
      expect(snapshot.sections.modules['NPU_MODULE_MEM/dev0/APP']?.peak).toBe(2 * 1024 * 1024);
    },
  );
});

// The help says a path given as !GLOB leaves out the files it matches, relative to the working folder (issue 29).
describe('! exclusions, one test per form', () => {
  it('are described in --help with the example the first form runs', async () => {
    const r = await cli('--help');
    expect(r.out.replace(/\n +/g, ' ')).toContain(
      "A path written !GLOB leaves out the files it matches, relative to the working folder: --plog logs '!logs/old/**'. A flag whose paths match no file is an error.",
    );
  });

  const files = {
    'ex/rank_0/plog-1.log': RECORD(0, 100),
    'ex/rank_1/plog-2.log': RECORD(1, 200),
    'ex/old/plog-3.log': RECORD(2, 300),
    'ex/old/deep/plog-4.log': RECORD(3, 400),
  };
  const keys = (out: string): string[] =>
    Object.keys((JSON.parse(out) as { sections: { modules: Record<string, unknown> } }).sections.modules);

  it.each<[string, string[], string[]]>([
    ['a folder and a glob below it', ['ex', '!ex/old/**'], ['DEV_MEM/dev0/APP', 'DEV_MEM/dev1/APP']],
    ['a folder and a glob at any depth', ['ex', '!**/old/**'], ['DEV_MEM/dev0/APP', 'DEV_MEM/dev1/APP']],
    ['a folder and a folder inside it', ['ex', '!ex/old'], ['DEV_MEM/dev0/APP', 'DEV_MEM/dev1/APP']],
    [
      'a folder and one file',
      ['ex', '!ex/old/plog-3.log'],
      ['DEV_MEM/dev0/APP', 'DEV_MEM/dev1/APP', 'DEV_MEM/dev3/APP'],
    ],
    ['a folder and a ./ path', ['ex', '!./ex/rank_1/**'], ['DEV_MEM/dev0/APP', 'DEV_MEM/dev2/APP', 'DEV_MEM/dev3/APP']],
    [
      'a glob and a glob',
      ['ex/**/*.log', '!**/deep/*.log'],
      ['DEV_MEM/dev0/APP', 'DEV_MEM/dev1/APP', 'DEV_MEM/dev2/APP'],
    ],
    ['the exclusion first', ['!ex/rank_*/**', 'ex'], ['DEV_MEM/dev2/APP', 'DEV_MEM/dev3/APP']],
  ])('%s', async (_form, specs, expected) => {
    write(files);
    const cwd = process.cwd();
    process.chdir(tmp);
    try {
      const r = await cli('parse', '--plog', ...specs, '--json');
      expect(r.err).toBe('');
      expect(keys(r.out)).toEqual(expected);
    } finally {
      process.chdir(cwd);
    }
  });

  it('an absolute path', async () => {
    write(files);
    const r = await cli('parse', '--plog', join(tmp, 'ex'), `!${join(tmp, 'ex', 'old')}/**`, '--json');
    expect(r.err).toBe('');
    expect(keys(r.out)).toEqual(['DEV_MEM/dev0/APP', 'DEV_MEM/dev1/APP']);
  });

  it('an exclusion alone is an error: there is nothing to exclude from', async () => {
    const r = await cli('parse', '--plog', '!ex/old/**');
    expect(r.code).toBe(2);
    expect(r.err).toBe("error: --plog '!ex/old/**' only excludes: give the files, folders or globs to read too\n");
  });
});

// An input flag whose paths match nothing stops the run, even when another flag found files (issue 29).
describe('a flag whose paths match nothing', () => {
  it('is an error naming the flag and its paths, though --compare found a file', async () => {
    write({ 'mixed/plog/plog-1.log': RECORD(0, 100), 'mixed/csv/memory_compare_1.csv': 'x' });
    const r = await cli('parse', '--plog', join(tmp, 'mixed', 'csv'), '--compare', join(tmp, 'mixed', 'csv'));
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `error: --plog '${join(tmp, 'mixed', 'csv')}' matched no plog file: check the path ('ascend-memory-gate --help' lists what a folder is searched for), or leave the flag out\n`,
    );
  });

  it('every file excluded says so', async () => {
    write({ 'mixed/plog/plog-1.log': RECORD(0, 100), 'mixed/csv/memory_compare_1.csv': 'x' });
    const r = await cli(
      'parse',
      '--plog',
      join(tmp, 'mixed', 'plog'),
      '!**/plog-1.log',
      '--compare',
      join(tmp, 'mixed', 'csv'),
    );
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `error: --plog '${join(tmp, 'mixed', 'plog')}' matched no plog file (1 left out by '!**/plog-1.log'): check the path ('ascend-memory-gate --help' lists what a folder is searched for), or leave the flag out\n`,
    );
  });
});

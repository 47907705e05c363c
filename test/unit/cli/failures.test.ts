// Every expected failure of the command line is one `error:` line naming the thing and what to do, never a stack;
// the fuzz reproducers of issue 12 (empty path, symlink loop, FIFO, unreadable input, missing output folder, deep and
// duplicated JSON, control characters) as scenarios.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';
import { failureText } from '../../../src/common/errors.js';

const tmp = mkdtempSync(join(tmpdir(), 'failures-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RECORD = (module: string, peak: number): string =>
  `[INFO] DRV(77,python3):2024-07-08-22:27:45.354.900 [ascend][curpid: 77, 77][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=${module}; module_id=33; current_alloced_size=${peak}; alloced_peak_size=${peak}; alloc_cnt=3; free_cnt=1)`;

let folders = 0;
function folder(files: Record<string, string> = {}): string {
  const dir = join(tmp, `case-${++folders}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Everything printed by every scenario, for the no-stack-frame check at the end. */
const printed: string[] = [];

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  printed.push(out, err);
  return { code, out, err };
}

describe('inputs', () => {
  it('an empty path (what --plog "$UNSET" gives) is a usage error, not \'everything here\'', async () => {
    expect(await cli('parse', '--plog', '')).toEqual({
      code: 2,
      out: '',
      err: "error: --plog was given an empty path (an unset variable?): name a file, a folder or a glob ('.' for the working folder)\n",
    });
  });

  it('a symlink loop and a second link to one file read it once, by its real path', async () => {
    const dir = folder({ 'rank_0/plog-1.log': `${RECORD('APP', 100)}\n` });
    symlinkSync(dir, join(dir, 'rank_0', 'loop'));
    symlinkSync(join(dir, 'rank_0', 'plog-1.log'), join(dir, 'again.log'));
    const r = await cli('parse', '--plog', dir, '--json');
    expect(r.code, r.err).toBe(0);
    const snapshot = JSON.parse(r.out) as { meta: { files: number; records: number } };
    expect(snapshot.meta).toMatchObject({ files: 1, records: 1 });
  });

  it('a file named twice and a symlink to it read it once; a hard link is a file of its own, as its own real path', async () => {
    const dir = folder({ 'plog-1.log': `${RECORD('APP', 100)}\n` });
    symlinkSync(join(dir, 'plog-1.log'), join(dir, 'soft.log'));
    linkSync(join(dir, 'plog-1.log'), join(dir, 'hard.log'));
    const once = await cli(
      'parse',
      '--plog',
      join(dir, 'plog-1.log'),
      '--plog',
      join(dir, 'soft.log'),
      '--plog',
      join(dir, 'plog-1.log'),
      '--json',
    );
    expect(once.code, once.err).toBe(0);
    expect((JSON.parse(once.out) as { meta: { files: number } }).meta.files).toBe(1);
    const all = await cli('parse', '--plog', dir, '--json');
    expect(all.code, all.err).toBe(0);
    expect((JSON.parse(all.out) as { meta: { files: number } }).meta.files).toBe(2);
  });

  it('a FIFO given by name is refused at once; one inside a searched folder is skipped, never waited on', async () => {
    const dir = folder({ 'ok.log': `${RECORD('APP', 100)}\n` });
    execFileSync('mkfifo', [join(dir, 'pipe.log')]);
    expect(await cli('parse', '--plog', join(dir, 'pipe.log'))).toEqual({
      code: 2,
      out: '',
      err: `error: --plog '${join(dir, 'pipe.log')}' is a FIFO, not a regular file\n`,
    });
    const r = await cli('parse', '--plog', dir, '--json');
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as { meta: { files: number } }).meta.files).toBe(1);
  });

  it('a device given by name is refused', async () => {
    expect((await cli('parse', '--plog', '/dev/null')).err).toBe(
      "error: --plog '/dev/null' is a device, not a regular file\n",
    );
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file (EACCES) is one line naming it', async () => {
    const dir = folder({ 'locked.log': `${RECORD('APP', 100)}\n` });
    chmodSync(join(dir, 'locked.log'), 0o000);
    expect((await cli('parse', '--plog', join(dir, 'locked.log'))).err).toBe(
      `error: ${join(dir, 'locked.log')}: cannot open it: permission denied (check its permissions) (EACCES)\n`,
    );
  });

  it.skipIf(process.platform !== 'linux')(
    'a file that fails to read (EIO: /proc/self/mem) is one line naming it',
    async () => {
      const r = await cli('parse', '--plog', '/proc/self/mem');
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        'error: /proc/self/mem: cannot read it: input/output error (a failing disk or network mount?) (EIO)\n',
      );
    },
  );

  it('control characters in a malformed record and a file name are shown visibly on stderr', async () => {
    const dir = folder({
      'title\u001b]0;pwned\u0007.log': `${RECORD('APP', 100)}\n${RECORD('AP\u001b[2JP', 5).slice(0, 200)}`,
    });
    const r = await cli('parse', '--plog', dir);
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(r.err).toContain('title␛]0;pwned␇.log:2: truncated or malformed memory-statistics record');
  });
});

describe('outputs and JSON', () => {
  const run = (): string => folder({ 'plog-1.log': `${RECORD('APP', 100)}\n` });

  it('an output whose folder is a file is one line naming it (a missing folder is created)', async () => {
    const dir = run();
    writeFileSync(join(dir, 'taken'), '');
    const out = join(dir, 'taken', 'snapshot.json');
    expect((await cli('parse', '--plog', dir, '--json', '--out', out)).err).toBe(
      `error: ${join(dir, 'taken')}: cannot mkdir it: a file is in the way (a folder was needed there) (EEXIST)\n`,
    );
    const created = join(dir, 'missing', 'snapshot.json');
    expect((await cli('parse', '--plog', dir, '--json', '--out', created)).err).toBe('');
    expect(existsSync(created)).toBe(true);
  });

  it('a baseline nested 5,000 deep is an error with line:column, not a stack overflow', async () => {
    const dir = run();
    writeFileSync(join(dir, 'deep.json'), `{"sections":\n${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect((await cli('check', '--plog', dir, '--baseline', join(dir, 'deep.json'))).err).toBe(
      `error: ${join(dir, 'deep.json')}:2:100: JSON nested deeper than 100 levels: no configuration, baseline or report needs that many\n`,
    );
  });

  it('a config with a duplicated key names file, line:column and pointer', async () => {
    const dir = run();
    writeFileSync(join(dir, 'baseline.json'), '{"version": 2, "sections": {}}');
    writeFileSync(
      join(dir, 'gate.json'),
      '{\n  "modules": {"tolerance": {"percent": 5}},\n  "modules": {"tolerance": {"percent": 500}}\n}\n',
    );
    expect(
      (await cli('check', '--plog', dir, '--baseline', join(dir, 'baseline.json'), '--config', join(dir, 'gate.json')))
        .err,
    ).toBe(
      `error: ${join(dir, 'gate.json')}:3:3: duplicate key "modules" at /modules (first at 2:3): JSON keeps only the last one, so keep one of them (a merge conflict resolved by keeping both halves?)\n`,
    );
  });
});

describe('one error path', () => {
  it('an unexpected error is one line, with its stack only when asked for', () => {
    const error = new TypeError('x is not a function');
    expect(failureText(error, false)).toBe('internal error: x is not a function');
    expect(failureText(error, true)).toMatch(
      /^internal error: x is not a function\nTypeError: x is not a function\n {4}at /,
    );
    expect(failureText(new Error('bad \u001b[2J name'), false)).toBe('internal error: bad ␛[2J name');
  });

  it('no scenario above printed a stack frame', () => {
    expect(printed.length).toBeGreaterThanOrEqual(20);
    for (const text of printed) expect(text).not.toContain('    at ');
  });
});

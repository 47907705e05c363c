/**
 * The bundled command line (`node dist/cli.js`) on a memory snapshot written as torch_npu's release branches write it:
 * mode 0200, unreadable even by its owner. Root reads any file, so as root the run is made as the unprivileged user
 * `nobody` (setpriv); as any other user it runs as that user. Build first: `npm run build`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const FIXTURE = join(
  ROOT,
  'test',
  'fixtures',
  'memory-snapshot',
  'constructed',
  'oom_snapshot_4242_20261201101500.pickle',
);
const NOBODY = 65534;

/** How to run a command as a user who is not root, or why that is impossible here. */
function unprivileged(): { prefix: string[]; uid: number } | { reason: string } {
  const uid = process.getuid?.();
  if (uid === undefined) return { reason: 'no POSIX user ids on this platform' };
  if (uid !== 0) return { prefix: [], uid };
  try {
    execFileSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', 'true'], { stdio: 'ignore' });
    return { prefix: ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'], uid: NOBODY };
  } catch (error) {
    return {
      reason: `running as root and setpriv cannot switch to uid ${NOBODY} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    };
  }
}

const runner = unprivileged();
if ('reason' in runner) console.warn(`cli-memory-snapshot.test.ts: skipping the mode-0200 test: ${runner.reason}`);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a memory snapshot with mode 0200', () => {
  it.skipIf('reason' in runner)(
    'fails with one line naming the file and the fix (chmod u+r in the training step)',
    async () => {
      if ('reason' in runner) return;
      const dir = mkdtempSync(join(tmpdir(), 'amg-0200-'));
      dirs.push(dir);
      chmodSync(dir, 0o755);
      // The bundle copied next to the file: the checkout may lie where the other user cannot read (under /root).
      cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
      const file = join(dir, 'oom_snapshot_4242_20261201101500.pickle');
      copyFileSync(FIXTURE, file);
      chownSync(file, runner.uid, runner.uid);
      chmodSync(file, 0o200);
      const [command, ...args] = [
        ...runner.prefix,
        process.execPath,
        join(dir, 'dist', 'cli.js'),
        'check',
        '--baseline',
        join(dir, 'none.json'),
        '--memory-snapshot',
        file,
      ];
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(
          command as string,
          args,
          { cwd: dir, env: { PATH: process.env.PATH ?? '' } },
          (error, stdout, stderr) => {
            done({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr });
          },
        );
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        "error: oom_snapshot_4242_20261201101500.pickle: permission denied: torch_npu's release branches write memory snapshots with mode 0200 " +
          '(not even their owner may read them); add `chmod u+r oom_snapshot_4242_20261201101500.pickle` (or `chmod -R u+r` on its folder) to the training step after the dump\n',
      );
    },
  );
});

/** `node dist/cli.js ARGS` at 80 columns, no colour: its exit code and output. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', COLUMNS: '80', NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

describe('an OOM snapshot as the only evidence, from a terminal', () => {
  it('a first run fails on the OOM and tells how to record a baseline from the same inputs, counting the other keys as rows, not modules', async () => {
    const r = await cli([
      'check',
      '--baseline',
      join(tmpdir(), 'amg-no-baseline-yet.json'),
      '--memory-snapshot',
      FIXTURE,
    ]);
    expect(r.code).toBe(1);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain("Record a baseline with 'ascend-memory-gate baseline --out");
    expect(text).toContain("and the input flags of this check (or the Action's mode: update)");
    expect(text).not.toContain('--plog');
    expect(text).toContain('6 more keys recorded (6 rows across devices); --report FILE.json lists them');
    expect(r.stdout.split('\n').every((line) => line.length <= 80)).toBe(true);
  });

  it('parse counts no allocation failure and does not claim that no device was seen', async () => {
    const r = await cli(['parse', '--memory-snapshot', FIXTURE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/alloc failures: none\n$/);
  });
});

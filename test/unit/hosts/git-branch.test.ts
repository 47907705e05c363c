// The history's branch written with plain git against a local bare repository: first write creates the branch, a push
// refused because another run moved it is redone on the new head, nothing of the clone's own state is touched.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBranchFile, writeBranchFile, type BranchFile } from '../../../src/hosts/git-branch.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ID = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...ID } }).trim();

/** A bare remote with a main branch, and `n` clones of it. */
function remoteWithClones(n: number): { bare: string; clones: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'amg-branch-'));
  dirs.push(root);
  const bare = join(root, 'remote.git');
  git(root, 'init', '-q', '--bare', '--initial-branch=main', bare);
  const seed = join(root, 'seed');
  git(root, 'clone', '-q', bare, seed);
  writeFileSync(join(seed, 'README'), 'code\n');
  git(seed, 'add', 'README');
  git(seed, 'commit', '-qm', 'code');
  git(seed, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
  const clones = Array.from({ length: n }, (_, i) => {
    const c = join(root, `clone${i}`);
    git(root, 'clone', '-q', bare, c);
    return c;
  });
  return { bare, clones };
}

const file = (cwd: string): BranchFile => ({
  cwd,
  remote: 'origin',
  branch: 'memory-gate-history',
  path: 'default.history.jsonl',
});

describe('the history branch through git', () => {
  it('reads nothing before the first write, then creates the branch with one commit holding only the file', async () => {
    const { bare, clones } = remoteWithClones(1);
    const clone = clones[0]!;
    expect(await readBranchFile(file(clone))).toBeNull();
    const head = git(clone, 'rev-parse', 'HEAD');
    const written = await writeBranchFile(file(clone), (text) => `${text ?? ''}point 1\n`, 'memory history: 1');
    expect(written.attempts).toBe(1);
    expect(git(bare, 'ls-tree', '--name-only', 'memory-gate-history')).toBe('default.history.jsonl');
    expect(git(bare, 'rev-list', '--count', 'memory-gate-history')).toBe('1');
    expect(await readBranchFile(file(clone))).toBe('point 1\n');
    // The clone's HEAD, branch and index are as they were.
    expect(git(clone, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(clone, 'status', '--porcelain')).toBe('');
  });

  it('redoes a push refused because another run pushed first, on top of its point', async () => {
    const { bare, clones } = remoteWithClones(2);
    const [a, b] = clones as [string, string];
    await writeBranchFile(file(a), () => 'point 1\n', 'one');
    let pushedB = false;
    const contested = await writeBranchFile(
      file(a),
      (text) => {
        if (!pushedB) {
          pushedB = true;
          execFileSync('git', ['fetch', '-q', 'origin', 'memory-gate-history'], { cwd: b });
          const bText = execFileSync('git', ['show', 'FETCH_HEAD:default.history.jsonl'], { cwd: b, encoding: 'utf8' });
          const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], {
            cwd: b,
            input: `${bText}point B\n`,
            encoding: 'utf8',
          }).trim();
          const env = { ...process.env, ...ID, GIT_INDEX_FILE: join(b, '.git', 'tmp-index') };
          execFileSync('git', ['read-tree', 'FETCH_HEAD'], { cwd: b, env });
          execFileSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},default.history.jsonl`], {
            cwd: b,
            env,
          });
          const tree = execFileSync('git', ['write-tree'], { cwd: b, env, encoding: 'utf8' }).trim();
          const commit = execFileSync('git', ['commit-tree', tree, '-p', 'FETCH_HEAD', '-m', 'B'], {
            cwd: b,
            env,
            encoding: 'utf8',
          }).trim();
          execFileSync('git', ['push', '-q', 'origin', `${commit}:refs/heads/memory-gate-history`], { cwd: b });
        }
        return `${text ?? ''}point D\n`;
      },
      'D',
      async () => {},
    );
    expect(contested.attempts).toBe(2);
    expect(git(bare, 'show', 'memory-gate-history:default.history.jsonl')).toBe(
      ['point 1', 'point B', 'point D'].join('\n'),
    );
    expect(git(bare, 'log', '--format=%s', 'memory-gate-history')).toBe(['D', 'B', 'one'].join('\n'));
  });

  it('says in one line why a push failed that no retry can fix, with no credentials of the remote shown', async () => {
    const { clones } = remoteWithClones(1);
    const clone = clones[0]!;
    git(clone, 'remote', 'add', 'locked', 'https://user:tok-SECRET@127.0.0.1:1/none.git');
    const error = await writeBranchFile({ ...file(clone), remote: 'locked' }, () => 'x\n', 'x').catch(
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^git cannot fetch branch memory-gate-history from locked: .*; check the remote and the job's credentials$/,
    );
    expect((error as Error).message).not.toContain('tok-SECRET');
  });
});

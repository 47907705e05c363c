/**
 * End-to-end tests of `check --comment` on GitLab and GitCode: the bundled command line (`node dist/cli.js`) against
 * loopback fakes of their REST APIs (fake-gitlab.ts, fake-gitcode.ts) that log every request. Build first: `npm run build`.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitCode, type FakeGitCode } from './fake-gitcode.js';
import { startFakeGitHub } from './fake-github.js';
import { startFakeGitLab, type FakeGitLab } from './fake-gitlab.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const BASE = 'b'.repeat(40);
const HEAD = 'c'.repeat(40);
const SECRET = 'glpat-SECRET-5a7c9e1f';
const MARKER = '<!-- ascend-memory-gate:default -->';
const BASELINE = 'baselines/memory-baseline.json';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr });
      },
    );
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every file under `dir`, read as text. */
function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, 'utf8'));
}

/**
 * A checkout of a change request: examples/plog is the base's run, examples/regressed/plog this one. The base commit's
 * baseline records the base's run; `raised` makes the working tree's baseline this run's (the change raises its own).
 */
async function checkout(raised: boolean): Promise<{ dir: string; baseText: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'amg-hosts-'));
  dirs.push(dir);
  cpSync(join(ROOT, 'examples', 'plog'), join(dir, 'base-plog'), { recursive: true });
  cpSync(join(ROOT, 'examples', 'regressed', 'plog'), join(dir, 'plog'), { recursive: true });
  mkdirSync(join(dir, 'baselines'));
  mkdirSync(join(dir, 'out'));
  const env = { SOURCE_DATE_EPOCH: '1700000000' };
  expect((await cli(['baseline', '--out', BASELINE, '--plog', 'base-plog'], dir, env)).code).toBe(0);
  const baseText = readFileSync(join(dir, BASELINE), 'utf8');
  if (raised) {
    rmSync(join(dir, BASELINE));
    expect((await cli(['baseline', '--out', BASELINE, '--plog', 'plog'], dir, env)).code).toBe(0);
  }
  return { dir, baseText };
}

const CHECK = [
  'check',
  '--baseline',
  BASELINE,
  '--plog',
  'plog',
  '--report',
  'out/report.json',
  '--markdown',
  'out/report.md',
  '--junit',
  'out/junit.xml',
  '--comment',
];

describe('GitLab merge request notes', () => {
  let gitlab: FakeGitLab;
  beforeAll(async () => {
    gitlab = await startFakeGitLab({ tokens: { [SECRET]: 'project_42_bot', 'glpat-other': 'alice' } });
  });
  afterAll(() => gitlab.close());

  function seed(iid: number, baseText: string): void {
    gitlab.files.set(BASE, new Map([[BASELINE, baseText]]));
    gitlab.files.set(HEAD, new Map());
    gitlab.mergeRequests.set(iid, {
      iid,
      baseSha: BASE,
      headSha: HEAD,
      targetBranch: 'main',
      labels: [],
      notes: [],
      labelEvents: [],
      versions: [],
    });
  }

  const env = (iid: string): Record<string, string> => ({
    GITLAB_CI: 'true',
    CI_API_V4_URL: gitlab.api,
    CI_PROJECT_ID: '42',
    CI_MERGE_REQUEST_IID: iid,
    CI_MERGE_REQUEST_DIFF_BASE_SHA: BASE,
    CI_JOB_URL: 'https://gitlab.example.com/g/p/-/jobs/9',
    GITLAB_TOKEN: SECRET,
    SOURCE_DATE_EPOCH: '1700000000',
  });

  it('creates one note, then edits it in place, and never touches a note by another user that quotes the marker', async () => {
    const { dir, baseText } = await checkout(false);
    seed(7, baseText);
    const mr = gitlab.mergeRequests.get(7)!;
    const quote = `${MARKER}\n> quoted by alice`;
    mr.notes.push(
      { id: 1, body: quote, author: { username: 'alice' }, system: false },
      { id: 2, body: 'added 1 commit', author: { username: 'alice' }, system: true },
    );
    gitlab.requests.length = 0;
    const first = await cli(CHECK, dir, env('7'));
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('note: the merge request note was created (1000)');
    const second = await cli(CHECK, dir, env('7'));
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('note: the merge request note was updated (1000)');
    expect(mr.notes.map((n) => [n.id, n.author.username])).toEqual([
      [1, 'alice'],
      [2, 'alice'],
      [1000, 'project_42_bot'],
    ]);
    expect(mr.notes[0]!.body).toBe(quote);
    expect(mr.notes[2]!.body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(gitlab.writes().map((r) => `${r.method} ${r.route}`)).toEqual(['POST notes.create', 'PUT notes.edit']);
    // Every call carried the token in PRIVATE-TOKEN, never in a URL.
    expect(
      gitlab.requests.every(
        (r) => r.auth === 'private-token' && r.authorized && !JSON.stringify(r.query).includes(SECRET),
      ),
    ).toBe(true);
  });

  it('fails a merge request that raises its own baseline against the base commit, the raised limits listed first', async () => {
    const { dir, baseText } = await checkout(true);
    seed(8, baseText);
    const run = await cli(CHECK, dir, env('8'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `note: GitLab CI (CI_MERGE_REQUEST_IID): merge request 8 is gated against the baseline and config of its base commit ${BASE.slice(0, 12)} (read through the API)`,
    );
    expect(run.stderr).toMatch(
      /warning: this merge request changes \d+ limit\(s\) \(baseline or config\); they were not used: a maintainer adds the label 'memory-baseline-update' to use them/,
    );
    const body = gitlab.mergeRequests.get(8)!.notes[0]!.body;
    expect(body.split('\n').slice(0, 2)).toEqual([
      MARKER,
      expect.stringMatching(/^#### ⚠️ Limits changed by this MR \(\d+\)$/),
    ]);
    expect(body).toContain('DEV_MEM/dev0/APP');
    // The same checkout against its own (raised) baseline passes: the base commit's is what failed it.
    expect((await cli(['check', '--baseline', BASELINE, '--plog', 'plog'], dir, {})).code).toBe(0);
  });

  it("uses the merge request's own limits with the maintainer label, until a later push changes them", async () => {
    const { dir, baseText } = await checkout(true);
    const raised = readFileSync(join(dir, BASELINE), 'utf8');
    const EARLIER = 'e'.repeat(40);
    gitlab.files.set(BASE, new Map([[BASELINE, baseText]]));
    gitlab.files.set(HEAD, new Map([[BASELINE, raised]]));
    const mr = {
      iid: 11,
      baseSha: BASE,
      headSha: HEAD,
      targetBranch: 'main',
      labels: ['memory-baseline-update'],
      notes: [],
      labelEvents: [{ action: 'add' as const, label: 'memory-baseline-update', created_at: '2026-12-01T10:00:00Z' }],
      versions: [{ head_commit_sha: HEAD, created_at: '2026-12-01T09:00:00Z' }],
    };
    gitlab.mergeRequests.set(11, mr);
    // Labelled at the head it runs on: its own (raised) baseline gates it, and it passes.
    const counted = await cli(CHECK, dir, env('11'));
    expect(counted.code).toBe(0);
    expect(counted.stderr).toContain(
      "merge request 11 is gated against the baseline and config of its own head (label 'memory-baseline-update')",
    );
    // Labelled at an earlier head whose baseline differs: a later push changed the limits, the label is voided and removed.
    gitlab.files.set(EARLIER, new Map([[BASELINE, baseText]]));
    mr.versions = [
      { head_commit_sha: EARLIER, created_at: '2026-12-01T09:00:00Z' },
      { head_commit_sha: HEAD, created_at: '2026-12-01T11:00:00Z' },
    ];
    gitlab.requests.length = 0;
    const voided = await cli(CHECK, dir, env('11'));
    expect(voided.code).toBe(1);
    expect(voided.stderr).toContain(
      `warning: the label 'memory-baseline-update' did not count: ${BASELINE} changed after it was set (${EARLIER.slice(0, 12)} → ${HEAD.slice(0, 12)}); it was removed: a maintainer sets it again after reviewing the change`,
    );
    expect(mr.labels).toEqual([]);
    expect(gitlab.writes().map((r) => `${r.method} ${r.route}`)).toEqual(['PUT mr.update', 'PUT notes.edit']);
  });

  it('finds its note past the first page of 100 and edits it there', async () => {
    const { dir, baseText } = await checkout(false);
    seed(13, baseText);
    const mr = gitlab.mergeRequests.get(13)!;
    for (let i = 1; i <= 150; i++)
      mr.notes.push({ id: i, body: `review note ${i}`, author: { username: 'alice' }, system: false });
    mr.notes.push({
      id: 151,
      body: `${MARKER}\nan earlier verdict`,
      author: { username: 'project_42_bot' },
      system: false,
    });
    gitlab.requests.length = 0;
    const run = await cli(CHECK, dir, env('13'));
    expect(run.stderr).toContain('note: the merge request note was updated (151)');
    expect(gitlab.requests.filter((r) => r.route === 'notes.list').map((r) => r.query.page)).toEqual(['1', '2']);
    expect(mr.notes).toHaveLength(151);
    expect(gitlab.writes().map((r) => `${r.method} ${r.route}`)).toEqual(['PUT notes.edit']);
  });

  it('posts nothing from a push pipeline', async () => {
    const { dir } = await checkout(false);
    gitlab.requests.length = 0;
    const run = await cli(CHECK, dir, { ...env(''), CI_MERGE_REQUEST_IID: '' });
    // The regressed run fails against the working tree's baseline (a push gates what it pushes).
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not a change request');
    expect(gitlab.writes()).toEqual([]);
  });

  it('keeps the verdict and the exit code when the token may not post (403), in one line naming the token and the scope', async () => {
    const { dir, baseText } = await checkout(false);
    seed(9, baseText);
    gitlab.denyWrites = 403;
    try {
      const run = await cli(CHECK, dir, env('9'));
      expect(run.code).toBe(1);
      const lines = run.stderr.split('\n').filter((l) => l.startsWith('warning: could not post'));
      expect(lines).toEqual([
        'warning: could not post the merge request note: 403 posting a note on !9: GITLAB_TOKEN needs the `api` scope (a project or personal access token; CI_JOB_TOKEN cannot post notes) (GitLab said: 403 Forbidden - insufficient_scope); the verdict stands',
      ]);
      expect(run.stdout).toContain('Memory gate failed: 1 regressed');
    } finally {
      gitlab.denyWrites = undefined;
    }
  });

  it('never shows the token: not on stdout, stderr, nor in any file written', async () => {
    const { dir, baseText } = await checkout(true);
    seed(10, baseText);
    gitlab.denyWrites = 401;
    const runs = [await cli(CHECK, dir, env('10'))];
    gitlab.denyWrites = undefined;
    runs.push(
      await cli(CHECK, dir, env('10')),
      await cli(CHECK, dir, { ...env('10'), CI_API_V4_URL: 'http://127.0.0.1:1/api/v4' }),
    );
    expect(runs.map((r) => r.code)).toEqual([1, 1, 2]);
    for (const r of runs) expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
    for (const text of allFiles(dir)) expect(text).not.toContain(SECRET);
    for (const n of gitlab.mergeRequests.get(10)!.notes) expect(n.body).not.toContain(SECRET);
  });
});

describe('GitCode pull request comments', () => {
  const TOKEN = 'gc-SECRET-0b1d3f5a';
  let gitcode: FakeGitCode;
  beforeAll(async () => {
    gitcode = await startFakeGitCode({ tokens: { [TOKEN]: 'gate-bot', 'gc-other': 'bob' } });
  });
  afterAll(() => gitcode.close());

  function seed(number: number, baseText: string): void {
    gitcode.files.set(BASE, new Map([[BASELINE, baseText]]));
    gitcode.files.set(HEAD, new Map());
    gitcode.pulls.set(number, { number, baseSha: BASE, headSha: HEAD, baseRef: 'master', labels: [], comments: [] });
  }

  const args = (pr: string): string[] => [...CHECK, '--host', 'gitcode', '--repo', 'ascend/demo', '--pr', pr];
  const env = (): Record<string, string> => ({
    GITCODE_API_URL: gitcode.api,
    GITCODE_TOKEN: TOKEN,
    SOURCE_DATE_EPOCH: '1700000000',
  });

  it('creates one comment, then edits it in place (PATCH …/pulls/comments/{id}), and never touches a comment by another user that quotes the marker', async () => {
    const { dir, baseText } = await checkout(false);
    seed(3, baseText);
    const pr = gitcode.pulls.get(3)!;
    pr.comments.push({ id: 1, body: `${MARKER}\nquoted by bob`, user: { login: 'bob' } });
    gitcode.requests.length = 0;
    const first = await cli(args('3'), dir, env());
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('note: the pull request comment was created (5000)');
    const posted = pr.comments[1]!.body;
    pr.comments[1]!.body = `${MARKER}\nstale`;
    const second = await cli(args('3'), dir, env());
    expect(second.stderr).toContain('note: the pull request comment was updated (5000)');
    expect(pr.comments.map((c) => [c.id, c.user.login])).toEqual([
      [1, 'bob'],
      [5000, 'gate-bot'],
    ]);
    expect(pr.comments[0]!.body).toBe(`${MARKER}\nquoted by bob`);
    expect(pr.comments[1]!.body).toBe(posted);
    expect(gitcode.writes().map((r) => `${r.method} ${r.route}`)).toEqual([
      'POST comments.create',
      'PATCH comments.edit',
    ]);
    expect(
      gitcode.requests.every(
        (r) => r.auth === 'authorization' && r.authorized && !JSON.stringify(r.query).includes(TOKEN),
      ),
    ).toBe(true);
  });

  it('fails a pull request that raises its own baseline against the base commit, the raised limits listed first', async () => {
    const { dir, baseText } = await checkout(true);
    seed(4, baseText);
    const run = await cli(args('4'), dir, env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `pull request 4 is gated against the baseline and config of its base commit ${BASE.slice(0, 12)} (read through the API)`,
    );
    const body = gitcode.pulls.get(4)!.comments[0]!.body;
    expect(body.split('\n').slice(0, 2)).toEqual([
      MARKER,
      expect.stringMatching(/^#### ⚠️ Limits changed by this PR \(\d+\)$/),
    ]);
    // No mermaid chart on GitCode (its renderer shows the block as code).
    expect(body).not.toContain('```mermaid');
  });

  it("uses the pull request's own limits with the maintainer label logged after the last push; a later push voids it", async () => {
    const { dir, baseText } = await checkout(true);
    seed(6, baseText);
    const pr = gitcode.pulls.get(6)!;
    pr.labels = ['memory-baseline-update'];
    pr.logs = [
      { action: 'push', content: 'pushed 1 commit', created_at: '2026-12-01T09:00:00+08:00' },
      { action: 'add_label', content: 'add label memory-baseline-update', created_at: '2026-12-01T10:00:00+08:00' },
    ];
    gitcode.requests.length = 0;
    const counted = await cli(args('6'), dir, env());
    expect(counted.code).toBe(0);
    expect(counted.stderr).toContain(
      "pull request 6 is gated against the baseline and config of its own head (label 'memory-baseline-update')",
    );
    expect(pr.labels).toEqual(['memory-baseline-update']);
    expect(gitcode.requests.filter((r) => r.route === 'pulls.operate_logs').map((r) => r.query.sort)).toEqual(['asc']);
    // A push logged after the label: which limits the maintainer saw cannot be told, the label is voided and removed.
    pr.logs.push({ action: 'push', content: 'pushed 1 commit', created_at: '2026-12-01T11:00:00+08:00' });
    const voided = await cli(args('6'), dir, env());
    expect(voided.code).toBe(1);
    expect(voided.stderr).toContain(
      "warning: the label 'memory-baseline-update' did not count: which limits a maintainer saw cannot be told (a push was logged after the label was set, and GitCode's log names no commit); it was removed: a maintainer sets it again after reviewing the change",
    );
    expect(pr.labels).toEqual([]);
  });

  it('does not count the maintainer label when the operation log does not record it: removed, and the comment says why', async () => {
    const { dir, baseText } = await checkout(true);
    seed(7, baseText);
    const pr = gitcode.pulls.get(7)!;
    pr.labels = ['memory-baseline-update'];
    const run = await cli(args('7'), dir, env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "warning: the label 'memory-baseline-update' did not count: which limits a maintainer saw cannot be told (no event of the pull request records when the label was set); it was removed: a maintainer sets it again after reviewing the change",
    );
    expect(pr.labels).toEqual([]);
    expect(pr.comments[0]!.body).toContain(
      'which limits a maintainer saw cannot be told (no event of the pull request records when the label was set), so it does not count. The label was removed',
    );
  });

  it('posts nothing for a branch build (an empty --pr, as Jenkins leaves CHANGE_ID)', async () => {
    const { dir } = await checkout(false);
    gitcode.requests.length = 0;
    const run = await cli(args(''), dir, env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "note: --host gitcode: not a change request, the working tree's baseline and config gate it and nothing is posted",
    );
    expect(gitcode.writes()).toEqual([]);
  });

  it('keeps the verdict when the token may not comment (403), and never shows the token', async () => {
    const { dir, baseText } = await checkout(false);
    seed(5, baseText);
    gitcode.denyWrites = 403;
    try {
      const run = await cli(args('5'), dir, env());
      expect(run.code).toBe(1);
      expect(run.stderr.split('\n').filter((l) => l.startsWith('warning: could not post'))).toEqual([
        'warning: could not post the pull request comment: 403 commenting on #5: GITCODE_TOKEN needs the pull-request write permission (a personal access token of a member who may comment) (GitCode said: 403 Forbidden - insufficient_scope); the verdict stands',
      ]);
      expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
      for (const text of allFiles(dir)) expect(text).not.toContain(TOKEN);
    } finally {
      gitcode.denyWrites = undefined;
    }
  });
});

describe('GitHub pull requests through the command line', () => {
  it("uses the pull request's own limits with the maintainer label set at the head it runs on; a later push voids it", async () => {
    const fake = await startFakeGitHub({ token: 'ghp-SECRET-gh' });
    try {
      const { dir, baseText } = await checkout(true);
      const raised = readFileSync(join(dir, BASELINE), 'utf8');
      const base = fake.commitFiles({ branch: 'main', files: { [BASELINE]: baseText }, parent: null });
      const h1 = fake.commitFiles({ branch: 'feature', files: { [BASELINE]: raised }, parent: base });
      const pr = fake.addPull({
        number: 21,
        headRef: 'feature',
        headSha: h1,
        baseRef: 'main',
        createdAt: '2026-12-01T08:00:00Z',
        labels: ['memory-baseline-update'],
        labeledAt: '2026-12-01T10:00:00Z',
      });
      fake.addRun({ id: 801, headSha: h1, headBranch: 'feature', createdAt: '2026-12-01T09:00:00Z' });
      const args = [...CHECK, '--host', 'github', '--repo', 'octo-org/octo-repo', '--pr', '21'];
      const env = { GITHUB_API_URL: fake.url, GITHUB_TOKEN: 'ghp-SECRET-gh', SOURCE_DATE_EPOCH: '1700000000' };
      const counted = await cli(args, dir, env);
      expect(counted.code).toBe(0);
      expect(counted.stderr).toContain(
        "pull request 21 is gated against the baseline and config of its own head (label 'memory-baseline-update')",
      );
      // A later push raises the baseline again: not what the maintainer saw, so the label is voided and removed.
      const h2 = fake.commitFiles({ branch: 'feature', files: { [BASELINE]: `${raised}\n` }, parent: h1 });
      pr.headSha = h2;
      fake.addRun({ id: 802, headSha: h2, headBranch: 'feature', createdAt: '2026-12-01T11:00:00Z' });
      const voided = await cli(args, dir, env);
      expect(voided.code).toBe(1);
      expect(voided.stderr).toContain(
        `warning: the label 'memory-baseline-update' did not count: ${BASELINE} changed after it was set (${h1.slice(0, 12)} → ${h2.slice(0, 12)}); it was removed`,
      );
      expect(pr.labels).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describe('the base commit through git', () => {
  it('reads the base baseline with git show when the clone has the commit, with no token at all', async () => {
    const { dir, baseText } = await checkout(true);
    const git = (a: string[]): Promise<Run> =>
      new Promise((done) =>
        execFile('git', a, { cwd: dir }, (e, stdout, stderr) => done({ code: e ? 1 : 0, stdout, stderr })),
      );
    const raised = readFileSync(join(dir, BASELINE), 'utf8');
    writeFileSync(join(dir, BASELINE), baseText);
    await git(['init', '-q']);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@e', 'add', BASELINE]);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'base']);
    const base = (await git(['rev-parse', 'HEAD'])).stdout.trim();
    writeFileSync(join(dir, BASELINE), raised);
    const run = await cli(
      [
        'check',
        '--baseline',
        BASELINE,
        '--plog',
        'plog',
        '--host',
        'gitlab',
        '--repo',
        'g/p',
        '--pr',
        '12',
        '--base-sha',
        base,
      ],
      dir,
      {},
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `merge request 12 is gated against the baseline and config of its base commit ${base.slice(0, 12)} (read through git)`,
    );
    // A token that cannot read the merge request costs its labels, not the gate: the CI named the base commit.
    const unreachable = await cli(['check', '--baseline', BASELINE, '--plog', 'plog', '--comment'], dir, {
      GITLAB_CI: 'true',
      CI_API_V4_URL: 'http://127.0.0.1:1/api/v4',
      CI_PROJECT_ID: '42',
      CI_MERGE_REQUEST_IID: '12',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
      GITLAB_TOKEN: SECRET,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^warning: cannot read merge request 12 \(cannot reach GitLab \(http:\/\/127\.0\.0\.1:1\/api\/v4\) reading merge request !12: .*\): its labels are not read, and its base commit's limits gate it$/m,
    );
    expect(unreachable.stderr).toContain('(read through git)');
    expect(unreachable.stderr).toMatch(/^warning: could not post the merge request note: cannot reach GitLab/m);
    expect(`${unreachable.stdout}${unreachable.stderr}`).not.toContain(SECRET);
  });
});

/**
 * Proves test/e2e/fake-github.ts against the REAL clients (@actions/github, @actions/artifact)
 * running in a child process whose env holds only PATH + fake.env(...).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { buildZip, readZip, zipFiles } from './zip.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const RESULT = '@@RESULT@@';

/** Run an ESM snippet in a child node (cwd = repo root so node_modules resolve). `args` arrive as `ARGS`. */
function runChild(
  script: string,
  env: Record<string, string>,
  args: unknown = {},
): Promise<{ result: any; stdout: string; stderr: string; code: number }> {
  const prelude = `const ARGS = JSON.parse(process.argv[1] ?? '{}');\nconst out = (v) => process.stdout.write('\\n${RESULT}' + JSON.stringify(v) + '\\n');\n`;
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', prelude + script, JSON.stringify(args)],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
        timeout: 20_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const line = stdout.split('\n').find((l) => l.startsWith(RESULT));
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolvePromise({ result: line ? JSON.parse(line.slice(RESULT.length)) : undefined, stdout, stderr, code });
      },
    );
  });
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p).map((x) => join(name, x)));
    else out.push(name);
  }
  return out.sort();
}

let fake: FakeGitHub;
let tmp: string;

beforeAll(async () => {
  fake = await startFakeGitHub({ repository: 'acme/npu-models', runId: 4242 });
  tmp = mkdtempSync(join(tmpdir(), 'fake-gh-'));
});
afterAll(async () => {
  await fake?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('zip + object store (in process)', () => {
  it('zip writer round-trips verbatim names; git shas match real git', () => {
    const z = buildZip([
      { name: '../evil.txt', data: 'x' },
      { name: 'dir/', directory: true },
      { name: 'dir/a.txt', data: 'hello', method: 'store' },
    ]);
    expect(readZip(z).map((e) => [e.name, e.data.toString()])).toEqual([
      ['../evil.txt', 'x'],
      ['dir/', ''],
      ['dir/a.txt', 'hello'],
    ]);
    // `printf 'hello\n' | git hash-object --stdin`
    const sha = fake.commitFiles({ branch: 'sha-check', files: { 'hello.txt': 'hello\n' } });
    const commit = fake.getObject(sha);
    expect(commit?.type).toBe('commit');
    const tree = commit?.type === 'commit' ? fake.getObject(commit.tree) : undefined;
    expect(tree?.type === 'tree' ? tree.entries[0]?.sha : undefined).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    // `printf '100644 blob ce01…\thello.txt\n' | git mktree`
    expect(commit?.type === 'commit' ? commit.tree : undefined).toBe('aaa96ced2d9a1c8e72c56b253a0e2fe78393feb7');
    expect(fake.readFile('sha-check', 'hello.txt')).toBe('hello\n');
  });
});

describe('@actions/github (real getOctokit) against the fake', () => {
  it('paginates issue comments via Link headers, finds a marker on page 2, creates + updates', async () => {
    for (let i = 0; i < 32; i++)
      fake.addComment({ issueNumber: 7, body: `noise ${i}`, user: { login: 'someone', type: 'User', id: 5 } });
    const marker = fake.addComment({ issueNumber: 7, body: '<!-- ascend-memory-gate -->\nold report' });
    fake.clearLog();
    const { result, stderr } = await runChild(
      `
      import { getOctokit, context } from '@actions/github';
      const gh = getOctokit(process.env.GITHUB_TOKEN);
      const all = await gh.paginate(gh.rest.issues.listComments, { ...context.repo, issue_number: 7 });
      const found = all.find((c) => c.body.includes('<!-- ascend-memory-gate -->'));
      const upd = await gh.rest.issues.updateComment({ ...context.repo, comment_id: found.id, body: '<!-- ascend-memory-gate -->\\nnew report' });
      const created = await gh.rest.issues.createComment({ ...context.repo, issue_number: 8, body: 'hello' });
      out({ n: all.length, foundId: found.id, updStatus: upd.status, createdStatus: created.status, createdUser: created.data.user.login, repo: context.repo });
      `,
      fake.env(),
    );
    expect(result, stderr).toBeDefined();
    expect(result).toMatchObject({
      n: 33,
      foundId: marker.id,
      updStatus: 200,
      createdStatus: 201,
      createdUser: 'github-actions[bot]',
      repo: { owner: 'acme', repo: 'npu-models' },
    });
    const lists = fake.requests({ route: 'issues.listComments' });
    expect(lists.map((r) => r.query.page ?? '1')).toEqual(['1', '2']);
    expect(lists.every((r) => r.hasAuth && r.authScheme === 'token' && r.headers.authorization === '<redacted>')).toBe(
      true,
    );
    expect(fake.state.comments.find((c) => c.id === marker.id)?.body).toBe('<!-- ascend-memory-gate -->\nnew report');
    expect(fake.comments(8).map((c) => c.body)).toEqual(['hello']);
    expect(fake.writes().map((r) => `${r.method} ${r.route}`)).toEqual([
      'PATCH issues.updateComment',
      'POST issues.createComment',
    ]);
  });

  it('forced 403 (fork PR) reaches the client as a RequestError and writes nothing', async () => {
    fake.forceResponse({
      method: 'POST',
      path: /\/issues\/\d+\/comments$/,
      status: 403,
      body: {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
        status: '403',
      },
      times: 1,
    });
    const before = fake.state.comments.length;
    fake.clearLog();
    const { result } = await runChild(
      `
      import { getOctokit, context } from '@actions/github';
      const gh = getOctokit(process.env.GITHUB_TOKEN);
      try { await gh.rest.issues.createComment({ ...context.repo, issue_number: 9, body: 'x' }); out({ ok: true }); }
      catch (e) { out({ ok: false, status: e.status, message: e.message }); }
      `,
      fake.env(),
    );
    expect(result).toMatchObject({ ok: false, status: 403 });
    expect(result.message).toContain('Resource not accessible by integration');
    expect(fake.state.comments.length).toBe(before);
    expect(fake.requests()[0]).toMatchObject({ forced: true, status: 403, route: 'issues.createComment' });
  });

  it('Git Data API + contents + pulls round-trip; unknown routes are 404 and visible', async () => {
    const base = fake.commitFiles({
      branch: 'main',
      files: { 'baselines/a.json': '{"v":1}\n', 'README.md': '# r\n' },
      message: 'init',
    });
    const openedFromFork = fake.addPull({
      number: 50,
      headRef: 'feature',
      headOwner: 'forker',
      headSha: 'f'.repeat(40),
    });
    fake.clearLog();
    const { result, stderr } = await runChild(
      `
      import { getOctokit, context } from '@actions/github';
      const gh = getOctokit(process.env.GITHUB_TOKEN);
      const r = context.repo;
      const ref = await gh.rest.git.getRef({ ...r, ref: 'heads/main' });
      const head = ref.data.object.sha;
      const commit = await gh.rest.git.getCommit({ ...r, commit_sha: head });
      const b64 = await gh.rest.git.createBlob({ ...r, content: Buffer.from('{"v":2}\\n').toString('base64'), encoding: 'base64' });
      const utf = await gh.rest.git.createBlob({ ...r, content: 'new file\\n', encoding: 'utf-8' });
      const tree = await gh.rest.git.createTree({ ...r, base_tree: commit.data.tree.sha, tree: [
        { path: 'baselines/a.json', mode: '100644', type: 'blob', sha: b64.data.sha },
        { path: 'baselines/deep/b.txt', mode: '100644', type: 'blob', sha: utf.data.sha },
      ] });
      const c = await gh.rest.git.createCommit({ ...r, message: 'update baselines', tree: tree.data.sha, parents: [head] });
      const created = await gh.rest.git.createRef({ ...r, ref: 'refs/heads/memory-gate/baseline-update', sha: head });
      const updated = await gh.rest.git.updateRef({ ...r, ref: 'heads/memory-gate/baseline-update', sha: c.data.sha });
      let nonFF; try { await gh.rest.git.updateRef({ ...r, ref: 'heads/memory-gate/baseline-update', sha: head }); } catch (e) { nonFF = e.status + ' ' + e.message; }
      const pr = await gh.rest.pulls.create({ ...r, title: 'Update baselines', head: 'memory-gate/baseline-update', base: 'main', body: 'b' });
      let dup; try { await gh.rest.pulls.create({ ...r, title: 'again', head: 'memory-gate/baseline-update', base: 'main' }); } catch (e) { dup = e.status; }
      const list = await gh.rest.pulls.list({ ...r, state: 'open', head: r.owner + ':memory-gate/baseline-update' });
      const bySha = await gh.rest.repos.listPullRequestsAssociatedWithCommit({ ...r, commit_sha: c.data.sha });
      const forkBySha = await gh.rest.repos.listPullRequestsAssociatedWithCommit({ ...r, commit_sha: 'f'.repeat(40) });
      const gotBlob = await gh.rest.git.getBlob({ ...r, file_sha: utf.data.sha });
      const gotTree = await gh.rest.git.getTree({ ...r, tree_sha: tree.data.sha, recursive: '1' });
      const content = await gh.rest.repos.getContent({ ...r, path: 'baselines/a.json', ref: 'memory-gate/baseline-update' });
      const put = await gh.rest.repos.createOrUpdateFileContents({ ...r, path: 'baselines/a.json', branch: 'memory-gate/baseline-update', message: 'commit strategy', content: Buffer.from('{"v":3}\\n').toString('base64'), sha: content.data.sha });
      let stale; try { await gh.rest.repos.createOrUpdateFileContents({ ...r, path: 'baselines/a.json', branch: 'memory-gate/baseline-update', message: 'x', content: 'eA==', sha: content.data.sha }); } catch (e) { stale = e.status; }
      let missing; try { await gh.rest.git.getRef({ ...r, ref: 'heads/nope' }); } catch (e) { missing = e.status; }
      let unknown; try { await gh.rest.checks.create({ ...r, name: 'x', head_sha: head }); } catch (e) { unknown = e.status; }
      out({ head, createdRef: created.status, updatedSha: updated.data.object.sha, newCommit: c.data.sha, nonFF, prNumber: pr.data.number, prStatus: pr.status, dup,
        listed: list.data.map((p) => p.number), bySha: bySha.data.map((p) => p.number), forkBySha: forkBySha.data.map((p) => p.number),
        blob: Buffer.from(gotBlob.data.content, 'base64').toString(), treePaths: gotTree.data.tree.map((t) => t.path),
        content: Buffer.from(content.data.content, 'base64').toString(), putStatus: put.status, stale, missing, unknown });
      `,
      fake.env(),
    );
    expect(result, stderr).toBeDefined();
    expect(result).toMatchObject({
      head: base,
      createdRef: 201,
      updatedSha: result.newCommit,
      prStatus: 201,
      dup: 422,
      listed: [result.prNumber],
      bySha: [result.prNumber],
      forkBySha: [openedFromFork.number],
      blob: 'new file\n',
      treePaths: ['README.md', 'baselines', 'baselines/a.json', 'baselines/deep', 'baselines/deep/b.txt'],
      content: '{"v":2}\n',
      putStatus: 200,
      stale: 409,
      missing: 404,
      unknown: 404,
    });
    expect(result.nonFF).toMatch(/^422 Update is not a fast forward/);
    expect(fake.readFile('memory-gate/baseline-update', 'baselines/a.json')).toBe('{"v":3}\n');
    expect(fake.readFile('memory-gate/baseline-update', 'baselines/deep/b.txt')).toBe('new file\n');
    expect(fake.readFile('main', 'baselines/a.json')).toBe('{"v":1}\n');
    expect(fake.listFiles('main')).toEqual({ 'README.md': '# r\n', 'baselines/a.json': '{"v":1}\n' });
    expect(fake.unmatched().map((r) => `${r.method} ${r.path}`)).toEqual(['POST /repos/acme/npu-models/check-runs']);
  });
});

describe('concurrent writers (issue 23)', () => {
  it('two writers that both read the branch before either moves it: the first fast-forwards, the second gets 422 and lands after a fresh read', async () => {
    const head = fake.commitFiles({
      branch: 'memory-gate-history',
      files: { 'default.history.jsonl': 'v0\n' },
      parent: null,
      message: 'history',
    });
    fake.clearLog();
    const held = fake.holdRequests({ method: 'PATCH', path: /\/git\/refs\/heads\/memory-gate-history$/, count: 2 });
    const writer = (label: string): Promise<{ result: any; stderr: string }> =>
      runChild(
        `
        import { getOctokit, context } from '@actions/github';
        const gh = getOctokit(process.env.GITHUB_TOKEN);
        const r = context.repo;
        const write = async () => {
          const head = (await gh.rest.git.getRef({ ...r, ref: 'heads/memory-gate-history' })).data.object.sha;
          const commit = await gh.rest.git.getCommit({ ...r, commit_sha: head });
          const tree = await gh.rest.git.createTree({ ...r, base_tree: commit.data.tree.sha, tree: [{ path: ARGS.label + '.txt', mode: '100644', type: 'blob', content: ARGS.label }] });
          const c = await gh.rest.git.createCommit({ ...r, message: ARGS.label, tree: tree.data.sha, parents: [head] });
          await gh.rest.git.updateRef({ ...r, ref: 'heads/memory-gate-history', sha: c.data.sha, force: false });
        };
        const statuses = [];
        for (let i = 0; i < 3; i++) {
          try { await write(); statuses.push(200); break; } catch (e) { statuses.push(e.status); }
        }
        out({ statuses });
        `,
        fake.env(),
        { label },
      );
    const [a, b] = await Promise.all([writer('a'), writer('b')]);
    expect(await held).toBe(2);
    // One of them landed at once, the other was refused once (not a fast-forward) and landed on its second try.
    expect([a.result?.statuses, b.result?.statuses].map((x) => JSON.stringify(x)).sort()).toEqual([
      '[200]',
      '[422,200]',
    ]);
    expect(Object.keys(fake.listFiles('memory-gate-history')).sort()).toEqual([
      'a.txt',
      'b.txt',
      'default.history.jsonl',
    ]);
    const updates = fake.requests({ route: 'git.updateRef' });
    expect(updates.map((u) => [u.held, u.status])).toEqual([
      [true, 200],
      [true, 422],
      [undefined, 200],
    ]);
    const tip = fake.getRef('memory-gate-history')!;
    const parent = (fake.getObject(tip) as { parents: string[] }).parents[0]!;
    expect((fake.getObject(parent) as { parents: string[] }).parents).toEqual([head]);
  });
});

describe('@actions/artifact (real DefaultArtifactClient) against the fake', () => {
  it('same run: Twirp ListArtifacts + GetSignedArtifactURL, blob download, files land', async () => {
    const a = fake.addArtifact({
      name: 'memory-report',
      files: { 'plog/run.log': 'plog line\n', 'compare/memory_compare.csv': 'a,b\n1,2\n' },
    });
    fake.addArtifact({ name: 'other-run', runId: 999, files: { 'x.txt': 'x' } });
    const dl = join(tmp, 'same-run');
    fake.clearLog();
    const { result, stderr, stdout } = await runChild(
      `
      import { DefaultArtifactClient } from '@actions/artifact';
      const c = new DefaultArtifactClient();
      const list = await c.listArtifacts();
      const got = await c.getArtifact('memory-report');
      const res = await c.downloadArtifact(got.artifact.id, { path: ARGS.dl });
      out({ list: list.artifacts.map((x) => ({ id: x.id, name: x.name, size: x.size, digest: x.digest })), gotId: got.artifact.id, res });
      `,
      fake.env(),
      { dl },
    );
    expect(result, stderr + stdout).toBeDefined();
    expect(result.list).toEqual([{ id: a.id, name: 'memory-report', size: a.size, digest: a.digest }]);
    expect(result.gotId).toBe(a.id);
    expect(result.res).toEqual({ downloadPath: dl, digestMismatch: false });
    expect(walk(dl)).toEqual(['compare/memory_compare.csv', 'plog/run.log']);
    expect(readFileSync(join(dl, 'compare/memory_compare.csv'), 'utf8')).toBe('a,b\n1,2\n');

    const twirp = fake.requests({ path: /^\/twirp\// });
    expect(twirp.map((r) => r.route)).toEqual([
      'twirp.ListArtifacts',
      'twirp.ListArtifacts',
      'twirp.ListArtifacts',
      'twirp.GetSignedArtifactURL',
    ]);
    expect(twirp.every((r) => r.authScheme === 'Bearer')).toBe(true);
    // request bodies use proto (snake_case) field names; wrappers/int64 are bare JSON strings
    expect(twirp[1]?.body).toEqual({
      workflow_run_backend_id: fake.runBackendId(4242),
      workflow_job_run_backend_id: fake.jobBackendId(4242),
      name_filter: 'memory-report',
    });
    expect(twirp[2]?.body).toMatchObject({ id_filter: String(a.id) });
    expect(twirp[3]?.body).toMatchObject({ name: 'memory-report' });
    const blob = fake.requests({ route: 'blob' });
    expect(blob).toHaveLength(1);
    expect(blob[0]?.hasAuth).toBe(false);
    expect(fake.writes()).toEqual([]);
  });

  it('cross run (findBy): REST list + 302 to blob, token not sent to blob', async () => {
    const a = fake.addArtifact({
      name: 'baseline-from-main',
      runId: 777,
      entries: [
        { name: 'baselines/', directory: true },
        { name: 'baselines/model.json', data: '{"peak":1}' },
        { name: 'stored.txt', data: 'stored', method: 'store' },
      ],
      zipOptions: { dataDescriptor: true },
    });
    const dl = join(tmp, 'cross-run');
    fake.clearLog();
    const findBy = { token: 'ghs_cross', workflowRunId: 777, repositoryOwner: 'acme', repositoryName: 'npu-models' };
    const { result, stderr, stdout } = await runChild(
      `
      import { DefaultArtifactClient } from '@actions/artifact';
      const c = new DefaultArtifactClient();
      const list = await c.listArtifacts({ findBy: ARGS.findBy });
      const got = await c.getArtifact('baseline-from-main', { findBy: ARGS.findBy });
      const res = await c.downloadArtifact(got.artifact.id, { path: ARGS.dl, findBy: ARGS.findBy });
      out({ list: list.artifacts.map((x) => ({ id: x.id, name: x.name })), gotId: got.artifact.id, res });
      `,
      fake.env(),
      { dl, findBy },
    );
    expect(result, stderr + stdout).toBeDefined();
    expect(result.list).toEqual([{ id: a.id, name: 'baseline-from-main' }]);
    expect(result.res).toEqual({ downloadPath: dl, digestMismatch: false });
    expect(walk(dl)).toEqual(['baselines/model.json', 'stored.txt']);
    expect(fake.requests().map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual([
      'GET actions.listWorkflowRunArtifacts 200',
      'GET actions.listWorkflowRunArtifacts 200',
      'GET actions.downloadArtifact 302',
      'GET blob 200',
    ]);
    expect(fake.requests({ route: 'actions.listWorkflowRunArtifacts' })[0]?.query).toEqual({
      per_page: '100',
      page: '1',
    });
    expect(fake.requests({ route: 'actions.listWorkflowRunArtifacts' })[1]?.query).toEqual({
      name: 'baseline-from-main',
    });
    expect(fake.requests({ route: 'actions.downloadArtifact' })[0]?.authScheme).toBe('token');
    expect(fake.requests({ route: 'blob' })[0]?.hasAuth).toBe(false);
  });

  it('REST artifact list is paginated (per_page/page, total_count, Link)', async () => {
    for (let i = 0; i < 5; i++) fake.addArtifact({ name: `many-${i}`, runId: 555, files: { 'f.txt': String(i) } });
    fake.clearLog();
    const { result } = await runChild(
      `
      import { getOctokit } from '@actions/github';
      const gh = getOctokit('t');
      const p2 = await gh.rest.actions.listWorkflowRunArtifacts({ owner: 'acme', repo: 'npu-models', run_id: 555, per_page: 2, page: 2 });
      const all = await gh.paginate(gh.rest.actions.listWorkflowRunArtifacts, { owner: 'acme', repo: 'npu-models', run_id: 555, per_page: 2 });
      out({ total: p2.data.total_count, page2: p2.data.artifacts.map((a) => a.name), link: p2.headers.link, all: all.length });
      `,
      fake.env(),
    );
    expect(result.total).toBe(5);
    expect(result.page2).toEqual(['many-2', 'many-1']);
    expect(result.link).toContain('rel="next"');
    expect(result.all).toBe(5);
  });

  it('zip-slip probe: hostile entry names write nothing outside the download folder', async () => {
    const hostile = [
      '../evil.txt',
      '../../evil2.txt',
      'sub/../../evil3.txt',
      '/abs-evil.txt',
      '..\\evil4.txt',
      'ok.txt',
    ];
    fake.addArtifact({ name: 'hostile', entries: hostile.map((name) => ({ name, data: `payload:${name}` })) });
    fake.addArtifact({
      name: 'hostile-x',
      runId: 888,
      entries: hostile.map((name) => ({ name, data: `payload:${name}` })),
    });
    const outer = join(tmp, 'slip', 'outer');
    const dlSame = join(outer, 'dl-same');
    const dlCross = join(outer, 'dl-cross');
    mkdirSync(outer, { recursive: true });
    writeFileSync(join(tmp, 'slip', 'sentinel'), 's');
    const { result, stderr, stdout } = await runChild(
      `
      import { DefaultArtifactClient } from '@actions/artifact';
      const c = new DefaultArtifactClient();
      const r = {};
      try { const { artifact } = await c.getArtifact('hostile'); await c.downloadArtifact(artifact.id, { path: ARGS.dlSame }); r.same = 'ok'; } catch (e) { r.same = 'error: ' + e.message; }
      const findBy = { token: 't', workflowRunId: 888, repositoryOwner: 'acme', repositoryName: 'npu-models' };
      try { const { artifact } = await c.getArtifact('hostile-x', { findBy }); await c.downloadArtifact(artifact.id, { path: ARGS.dlCross, findBy }); r.cross = 'ok'; } catch (e) { r.cross = 'error: ' + e.message; }
      out(r);
      `,
      fake.env(),
      { dlSame, dlCross },
    );
    expect(result, stderr + stdout).toEqual({ same: 'ok', cross: 'ok' });
    // nothing escaped: the only entries above the download folders are the folders themselves + our sentinel
    expect(readdirSync(join(tmp, 'slip')).sort()).toEqual(['outer', 'sentinel']);
    expect(readdirSync(outer).sort()).toEqual(['dl-cross', 'dl-same']);
    for (const d of [dlSame, dlCross]) {
      const files = walk(d);
      // unzip-stream 0.3.4 rewrites every '..' path segment to '.', and path.join() anchors '/abs' under the folder
      expect(files).toEqual(
        ['.\\evil4.txt', 'abs-evil.txt', 'evil.txt', 'evil2.txt', 'ok.txt', join('sub', 'evil3.txt')].sort(),
      );
      for (const f of files) expect(relative(d, join(d, f)).startsWith('..')).toBe(false);
    }
  });

  it("an entry named '..' (rewritten to '.') makes the extractor fail with EISDIR (the client would retry 5x5 s)", async () => {
    // Same call the client makes (download-artifact.js: passThrough.pipe(unzip.Extract({ path: directory }))),
    // driven directly so the test does not sit through the client's 4 x 5 s retry sleeps.
    const zip = buildZip([
      { name: 'first.txt', data: '1' },
      { name: '..', data: 'dotdot' },
      { name: 'after.txt', data: '2' },
    ]);
    const zipPath = join(tmp, 'dotdot.zip');
    writeFileSync(zipPath, zip);
    const dir = join(tmp, 'dotdot', 'dl');
    mkdirSync(dir, { recursive: true });
    const { result } = await runChild(
      `
      import fs from 'node:fs';
      import unzip from 'unzip-stream';
      const r = await new Promise((res) => fs.createReadStream(ARGS.zipPath).pipe(unzip.Extract({ path: ARGS.dir }))
        .on('close', () => res({ ok: true })).on('error', (e) => res({ ok: false, code: e.code })));
      out(r);
      `,
      {},
      { zipPath, dir },
    );
    expect(result).toEqual({ ok: false, code: 'EISDIR' });
    expect(readdirSync(join(tmp, 'dotdot'))).toEqual(['dl']);
  });

  it('unknown artifact ids fail fast (Twirp not_found / REST 404), no retries against the fake', async () => {
    fake.clearLog();
    const t0 = Date.now();
    const { result } = await runChild(
      `
      import { DefaultArtifactClient } from '@actions/artifact';
      const c = new DefaultArtifactClient();
      const r = {};
      try { await c.downloadArtifact(987654, { path: ARGS.dl }); } catch (e) { r.same = e.name + ': ' + e.message.split('\\n')[0]; }
      try { await c.downloadArtifact(987654, { path: ARGS.dl, findBy: { token: 't', workflowRunId: 1, repositoryOwner: 'acme', repositoryName: 'npu-models' } }); } catch (e) { r.cross = e.message; }
      out(r);
      `,
      fake.env(),
      { dl: join(tmp, 'never') },
    );
    expect(result.same).toMatch(/^ArtifactNotFoundError: No artifacts found for ID: 987654/);
    expect(result.cross).toMatch(/Not Found/);
    expect(Date.now() - t0).toBeLessThan(8000);
  });
});

describe('fixtures helpers', () => {
  it('zipFiles builds a plain archive usable as a ready-made artifact zip', () => {
    const z = zipFiles({ 'a.txt': 'A' });
    const art = fake.addArtifact({ name: 'prebuilt', zip: z, runId: 1 });
    expect(art.size).toBe(z.length);
    expect(readZip(art.zip)[0]?.data.toString()).toBe('A');
  });
});

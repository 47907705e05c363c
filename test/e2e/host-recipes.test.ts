/**
 * The host recipes run as written: examples/gitlab/merge-request.gitlab-ci.yml (a default-branch pipeline that records
 * the history on its branch, then a merge request pipeline that reads it and posts its note), the Jenkinsfile's gate
 * line and the AtomGit pipeline's gate step, each with `node dist/cli.js` for the published command, against the
 * loopback fakes and a local bare repository as `origin`. Build first: `npm run build`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startFakeGitCode } from './fake-gitcode.js';
import { startFakeGitLab } from './fake-gitlab.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = `${process.execPath} ${join(ROOT, 'dist', 'cli.js')}`;
const MARKER = '<!-- ascend-memory-gate:default -->';
const ID = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Run {
  code: number;
  out: string;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(
      'bash',
      ['-c', script],
      { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env } },
      (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, out: `${stdout}${stderr}` });
      },
    );
  });
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...ID } }).trim();

/**
 * A bare `origin` whose main holds the baseline of examples/plog, and a clone of it with this run's plog (examples/
 * regressed) at ascend-log/run/plog, as the train job leaves it. Returns the clone and main's commit.
 */
function repository(): { bare: string; clone: string; base: string } {
  const root = mkdtempSync(join(tmpdir(), 'amg-recipe-'));
  dirs.push(root);
  const bare = join(root, 'origin.git');
  git(root, 'init', '-q', '--bare', '--initial-branch=main', bare);
  const seed = join(root, 'seed');
  git(root, 'clone', '-q', bare, seed);
  mkdirSync(join(seed, 'baselines'));
  cpSync(join(ROOT, 'examples', 'plog'), join(seed, 'base-plog'), { recursive: true });
  execFileSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.js'), 'baseline', '--out', 'baselines/memory-baseline.json', '--plog', 'base-plog'],
    { cwd: seed },
  );
  rmSync(join(seed, 'base-plog'), { recursive: true });
  git(seed, 'add', 'baselines');
  git(seed, 'commit', '-qm', 'baseline');
  git(seed, 'push', '-q', 'origin', 'HEAD:main');
  const clone = join(root, 'clone');
  git(root, 'clone', '-q', bare, clone);
  cpSync(join(ROOT, 'examples', 'regressed', 'plog'), join(clone, 'ascend-log', 'run', 'plog'), { recursive: true });
  return { bare, clone, base: git(clone, 'rev-parse', 'HEAD') };
}

/** GitLab runs a job's script lines in order, stopping at the first that fails; after_script always. */
async function gitlabJob(
  job: { script: string[]; after_script?: string[] },
  variables: Record<string, string>,
  cwd: string,
  env: Record<string, string>,
): Promise<{ script: Run; after: Run | undefined }> {
  const prelude = Object.entries(variables)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join('\n');
  const script = await bash(`set -e\n${prelude}\n${job.script.join('\n')}`, cwd, env);
  const after =
    job.after_script === undefined
      ? undefined
      : await bash(`set -e\n${prelude}\n${job.after_script.join('\n')}`, cwd, env);
  return { script, after };
}

describe('examples/gitlab/merge-request.gitlab-ci.yml', () => {
  it('records the default branch on the history branch, then gates a merge request against its base with that history and posts one note', async () => {
    const recipe = parse(readFileSync(join(ROOT, 'examples', 'gitlab', 'merge-request.gitlab-ci.yml'), 'utf8')) as {
      variables: Record<string, string>;
      'memory-gate': { script: string[]; after_script: string[]; variables: Record<string, string> };
    };
    const job = recipe['memory-gate'];
    expect(recipe.variables.GATE).toBe('ascend-memory-gate');
    // The release's install (run by test/e2e/recipes.test.ts with the packed tarball) is left out: GATE is this build.
    expect(job.script[0]).toBe('npm install --global --no-audit --no-fund "$MEMORY_GATE_PACKAGE"');
    job.script = job.script.slice(1);
    const variables = { ...recipe.variables, GATE: CLI };
    const token = 'glpat-RECIPE-9f8e7d';
    const gitlab = await startFakeGitLab({ tokens: { [token]: 'project_42_bot' } });
    try {
      const { bare, clone, base } = repository();
      // The recipe's push URL (https://oauth2:$GITLAB_TOKEN@host/path.git) goes to the bare repository here.
      git(clone, 'config', `url.${bare}.insteadOf`, `https://oauth2:${token}@gitlab.test/g/p.git`);
      const ci = {
        GITLAB_CI: 'true',
        CI_API_V4_URL: gitlab.api,
        CI_PROJECT_ID: '42',
        GITLAB_TOKEN: token,
        CI_SERVER_HOST: 'gitlab.test',
        CI_PROJECT_PATH: 'g/p',
        CI_PROJECT_URL: 'https://gitlab.test/g/p',
        CI_DEFAULT_BRANCH: 'main',
        CI_PIPELINE_ID: '501',
        SOURCE_DATE_EPOCH: '1700000000',
        ...ID,
      };

      // The default branch's pipeline: the gate passes nothing to post, and its run is recorded on the history branch.
      const main = await gitlabJob(job, variables, clone, { ...ci, CI_COMMIT_BRANCH: 'main', CI_COMMIT_SHA: base });
      expect(main.script.out).toContain('has no default.history.jsonl on branch memory-gate-history yet');
      expect(main.after?.code, main.after?.out).toBe(0);
      expect(main.after?.out).toMatch(
        /recorded [0-9a-f]{7} in memory-history\.jsonl: point 1 of at most 200 .*; pushed to origin memory-gate-history as [0-9a-f]{12}/,
      );
      expect(git(bare, 'rev-list', '--count', 'memory-gate-history')).toBe('1');
      expect(gitlab.writes()).toEqual([]);

      // A merge request that raises its own baseline: gated against main's, one note, the raised limits first.
      rmSync(join(clone, 'memory-history.jsonl'));
      execFileSync(
        process.execPath,
        [
          join(ROOT, 'dist', 'cli.js'),
          'baseline',
          '--out',
          'baselines/memory-baseline.json',
          '--plog',
          'ascend-log/run/plog',
        ],
        { cwd: clone },
      );
      gitlab.files.set(base, new Map());
      gitlab.mergeRequests.set(7, {
        iid: 7,
        baseSha: base,
        headSha: base,
        targetBranch: 'main',
        labels: [],
        notes: [],
        labelEvents: [],
        versions: [],
      });
      const mr = await gitlabJob(job, variables, clone, {
        ...ci,
        CI_MERGE_REQUEST_IID: '7',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        CI_COMMIT_SHA: base,
        CI_JOB_URL: 'https://gitlab.test/g/p/-/jobs/9',
      });
      expect(mr.script.code, mr.script.out).toBe(1);
      expect(mr.script.out).toContain('fetched memory-history.jsonl from origin memory-gate-history: 1 points');
      expect(mr.script.out).toContain(
        `merge request 7 is gated against the baseline and config of its base commit ${base.slice(0, 12)} (read through git)`,
      );
      expect(mr.after?.code, mr.after?.out).toBe(0);
      expect(git(bare, 'rev-list', '--count', 'memory-gate-history')).toBe('1');
      const notes = gitlab.mergeRequests.get(7)!.notes;
      expect(notes.map((n) => n.author.username)).toEqual(['project_42_bot']);
      expect(notes[0]!.body.split('\n').slice(0, 2)).toEqual([
        MARKER,
        expect.stringMatching(/^#### ⚠️ Limits changed by this MR/),
      ]);
      expect(existsSync(join(clone, 'memory-gate.junit.xml'))).toBe(true);
      expect(`${main.script.out}${main.after?.out}${mr.script.out}${mr.after?.out}`).not.toContain(token);
    } finally {
      await gitlab.close();
    }
  });
});

describe('examples/Jenkinsfile', () => {
  it("posts a merge request build's verdict on GitLab, and nothing for a branch build", async () => {
    const jenkinsfile = readFileSync(join(ROOT, 'examples', 'Jenkinsfile'), 'utf8');
    // the release main's recipes install, run from the prefix they install it in
    const line = /sh '("\$WORKSPACE\/\.memory-gate\/bin\/ascend-memory-gate" check [^']*)'/.exec(jenkinsfile)?.[1];
    expect(line).toContain('--comment --host gitlab --repo "$GITLAB_PROJECT" --pr "${CHANGE_ID:-}"');
    const project = /GITLAB_PROJECT = '([^']+)'/.exec(jenkinsfile)?.[1] ?? '';
    const token = 'glpat-JENKINS-1a2b3c';
    const gitlab = await startFakeGitLab({ project, tokens: { [token]: 'jenkins-bot' } });
    try {
      const { clone, base } = repository();
      const plog = join(clone, 'ascend-log');
      expect(existsSync(plog)).toBe(true);
      gitlab.files.set(base, new Map());
      gitlab.mergeRequests.set(12, {
        iid: 12,
        baseSha: base,
        headSha: base,
        targetBranch: 'main',
        labels: [],
        notes: [],
        labelEvents: [],
        versions: [],
      });
      const command = line!.replace('"$WORKSPACE/.memory-gate/bin/ascend-memory-gate"', CLI);
      const env = {
        CI_API_V4_URL: gitlab.api,
        GITLAB_PROJECT: project,
        GITLAB_TOKEN: token,
        BUILD_URL: 'https://jenkins.test/job/p/12/',
      };
      const branch = await bash(command, clone, env);
      expect(branch.code).toBe(1);
      expect(gitlab.writes()).toEqual([]);
      const change = await bash(command, clone, { ...env, CHANGE_ID: '12' });
      expect(change.code).toBe(1);
      expect(change.out).toContain('note: the merge request note was created (1000)');
      expect(gitlab.mergeRequests.get(12)!.notes[0]!.body).toContain('https://jenkins.test/job/p/12/');
    } finally {
      await gitlab.close();
    }
  });
});

describe('examples/atomgit/memory-gate.yml', () => {
  it("posts a pull request's verdict on GitCode from the gate step", async () => {
    const pipeline = parse(readFileSync(join(ROOT, 'examples', 'atomgit', 'memory-gate.yml'), 'utf8')) as {
      jobs: { gate: { steps: { name: string; run: string; env?: Record<string, string> }[] } };
    };
    const step = pipeline.jobs.gate.steps.find((s) => s.name === 'Memory gate')!;
    expect(step.env?.GITCODE_TOKEN).toBe('${{ secrets.GITCODE_TOKEN }}');
    const token = 'gc-ATOMGIT-7c6b5a';
    const gitcode = await startFakeGitCode({ tokens: { [token]: 'gate-bot' } });
    try {
      const { clone, base } = repository();
      gitcode.files.set(base, new Map());
      gitcode.pulls.set(3, { number: 3, baseSha: base, headSha: base, baseRef: 'main', labels: [], comments: [] });
      // The pipeline's expressions, as AtomGit fills them in for pull request 3 of ascend/demo.
      const command = step.run
        .replace(/^ascend-memory-gate /, `${CLI} `)
        .replace('${{ atomgit.repository }}', 'ascend/demo')
        .replace('${{ atomgit.event.pull_request.number }}', '3');
      const run = await bash(command, clone, { GITCODE_TOKEN: token, GITCODE_API_URL: gitcode.api });
      expect(run.code).toBe(1);
      expect(run.out).toContain('note: the pull request comment was created (5000)');
      expect(gitcode.pulls.get(3)!.comments[0]!.body.startsWith(`${MARKER}\n`)).toBe(true);
      expect(run.out).not.toContain(token);
    } finally {
      await gitcode.close();
    }
  });
});

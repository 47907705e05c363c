/**
 * Every command the documentation gives runs as written. The commands are read from the files themselves (README.md,
 * CONTRIBUTING.md, docs/*.md, examples/): shell blocks line by line, GitLab jobs parsed from their YAML and run through
 * bash as gitlab-runner joins them (script in one shell, after_script in another, both with errexit and pipefail, the
 * cache restored before and saved after by the job's own cache settings), the Jenkinsfile's `sh` steps, and the
 * workflows' `run:` lines. They run against the bundled examples with the package packed from this checkout: the
 * release URL the recipes install is replaced by that tarball, and npm is offline (a registry that refuses
 * connections, an empty cache). The user's own training command (`python train.py`, `train.sh`) is the one thing not
 * run. Build first: `npm run build`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { startFakeGitCode } from './fake-gitcode.js';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ruleMatches, ruleOf, runGitlabJob, type Gitlab, type Variables } from '../helpers/gitlab-runner.js';
import { startFakeGitLab } from './fake-gitlab.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');
const manifest = JSON.parse(read('package.json')) as { version: string };
/** The release a recipe of HEAD installs: HEAD's version without its pre-release part (1.1.0-dev.0 → 1.1.0). */
const RELEASE = manifest.version.replace(/-.*$/, '');
const RELEASE_URL = `https://github.com/ascend-memory-gate/ascend-memory-gate/releases/download/v${RELEASE}/ascend-memory-gate-${RELEASE}.tgz`;

let work: string;
let tarball: string;

/** npm offline: a registry that refuses connections and an empty cache, so only the tarball can be installed. */
function npmEnv(): Record<string, string> {
  return {
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    // `npm install --global` installs here, as on a CI image whose npm prefix is writable.
    npm_config_prefix: join(work, 'global'),
  };
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'amg-recipes-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...npmEnv() },
  });
  tarball = join(work, (JSON.parse(out) as { filename: string }[])[0]!.filename);
}, 180_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The text with the release URL replaced by the packed tarball; fails when it installs any other URL. */
function withLocalPackage(text: string): string {
  for (const url of text.match(/https:\/\/github\.com\/[^\s"']*\.tgz/g) ?? [])
    expect(url, 'a recipe installs the release HEAD becomes').toBe(RELEASE_URL);
  return text.replaceAll(RELEASE_URL, tarball);
}

interface Run {
  code: number;
  out: string;
}

/** Runs a shell script (bash, or sh for Jenkins) in `cwd`; stdout and stderr together, as a CI log shows them. */
function shell(script: string, cwd: string, env: Record<string, string | undefined> = {}, bin = 'bash'): Promise<Run> {
  const PATH = [join(work, 'global', 'bin'), dirname(process.execPath), process.env.PATH ?? ''].join(':');
  return new Promise((done) => {
    const child = spawn(bin, ['-c', script], {
      cwd,
      // a variable set to undefined is unset, as an unset CI variable is
      env: Object.fromEntries(
        Object.entries({ PATH, HOME: join(work, 'home'), ASCEND_MEMORY_GATE_THREADS: '0', ...npmEnv(), ...env }).filter(
          ([, v]) => v !== undefined,
        ),
      ),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => done({ code: code ?? 99, out }));
  });
}

/** A fresh project folder: the repository's committed baseline, and the training job's plog (a bundled example). */
function project(plog: 'examples/plog' | 'examples/regressed/plog', into = 'ascend-log/run/plog'): string {
  const dir = mkdtempSync(join(work, 'project-'));
  cpSync(join(ROOT, 'baselines'), join(dir, 'baselines'), { recursive: true });
  cpSync(join(ROOT, plog), join(dir, into), { recursive: true });
  return dir;
}

/** Points in a history file: its lines after the header and the key table. */
function points(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length - 2 : 0;
}

// ───────────────────────────── fenced blocks ─────────────────────────────

interface Block {
  file: string;
  line: number;
  lang: string;
  text: string;
}

function blocks(file: string): Block[] {
  const text = read(file);
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    file,
    line: text.slice(0, m.index).split('\n').length,
    lang: m[1] ?? '',
    text: m[2] ?? '',
  }));
}

const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, 'docs', 'hosts'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/hosts/${f}`),
];
/** The host pages' commands post to a host: run against a loopback fake below, not in the install test. */
const onHost = (b: Block): boolean => b.file.startsWith('docs/hosts/');

/** The commands of a shell block: one per line, comments dropped, `a && b` as two. */
function commands(text: string): string[] {
  return text
    .replace(/\\\n\s*/g, ' ') // a line continued with a backslash is one command
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .flatMap((line) => line.split(/\s+&&\s+/));
}

/** What CI itself runs (.ci/run): the development commands, which a test inside `npm test` cannot run again. */
const CI_RUNS = ['npm ci', 'npm run build', 'npx tsc --noEmit -p .', 'npm test', 'npm run typecheck', 'bash .ci/run'];

describe('the shell commands of README.md, CONTRIBUTING.md and docs/', () => {
  const all = DOCS.flatMap(blocks).filter((b) => b.lang === 'sh');
  const sh = all.filter((b) => !onHost(b));

  it('are the ones this test knows: every block is a shell block, a GitLab or GitHub YAML, or not a command', () => {
    const kinds = new Set(DOCS.flatMap(blocks).map((b) => b.lang));
    expect([...kinds].sort()).toEqual(['json', 'mermaid', 'python', 'sh', 'text', 'yaml']);
    // README: the opening commands, the regressed sample, the install, Development; CONTRIBUTING: set up, before a push
    expect(all.map((b) => b.file)).toEqual([
      'README.md',
      'README.md',
      'README.md',
      'README.md',
      'CONTRIBUTING.md',
      'CONTRIBUTING.md',
      'docs/cli.md',
      'docs/hosts/jenkins.md',
    ]);
  });

  it("the development ones are what .ci/run runs, which is what CI's 'N passed' counts", () => {
    const ci = read('.ci/run');
    const dev = sh
      .flatMap((b) => commands(b.text))
      .filter(
        (c) =>
          !c.startsWith('node ') &&
          !c.startsWith('npm install') &&
          !c.startsWith('ascend-memory-gate') &&
          c !== 'npm start',
      );
    expect(dev.length).toBeGreaterThan(5);
    for (const command of dev) {
      expect(CI_RUNS, command).toContain(command);
      if (command !== 'bash .ci/run' && command !== 'npm run typecheck') expect(ci, command).toContain(command);
    }
    // npm test runs on a PATH without xmllint and chromium
    expect(ci).toMatch(/PATH="\$bare_path" npm test/);
  });

  it('npm start and the checkout commands run in the checkout: the sample passes, the regressed sample fails', async () => {
    const run = [
      ...new Set(
        sh.flatMap((b) => commands(b.text)).filter((c) => c === 'npm start' || c.startsWith('node dist/cli.js')),
      ),
    ];
    expect(run).toEqual(
      [
        'npm start',
        'node dist/cli.js check --baseline baselines/memory-baseline.json --plog examples/plog --compare examples/memory_compare',
        'node dist/cli.js check --baseline baselines/memory-baseline.json --plog examples/regressed/plog --compare examples/memory_compare',
      ].filter((c) => run.includes(c)),
    );
    const codes: number[] = [];
    for (const command of run) {
      const r = await shell(command, ROOT);
      codes.push(r.code);
      expect(r.out, command).toMatch(/Memory gate (passed|failed)/);
    }
    expect(codes).toEqual(run.map((c) => (c.includes('regressed') ? 1 : 0)));
  }, 60_000);

  it('the install commands install the release (here: the packed tarball) and the command runs', async () => {
    const installs = sh
      .flatMap((b) => commands(b.text))
      .filter((c) => c.startsWith('npm install') || c.startsWith('ascend-memory-gate'));
    expect(installs.filter((c) => c.startsWith('npm install'))).toEqual([
      `npm install --global ${RELEASE_URL}`,
      `npm install --global ${RELEASE_URL}`,
    ]);
    const dir = mkdtempSync(join(work, 'install-'));
    for (const command of installs) {
      const r = await shell(withLocalPackage(command), dir);
      expect([command, r.code, r.out]).toEqual([command, 0, expect.any(String)]);
      if (command.startsWith('ascend-memory-gate --version'))
        expect(r.out).toBe(`ascend-memory-gate ${manifest.version}\n`);
    }
  }, 120_000);
});

describe('the shell commands of docs/hosts/', () => {
  it("docs/hosts/jenkins.md's command, on GitLab's loopback fake: a branch build posts nothing, a change request's build posts one note", async () => {
    const lines = DOCS.flatMap(blocks)
      .filter((b) => b.lang === 'sh' && onHost(b))
      .flatMap((b) => commands(b.text));
    expect(lines).toEqual([
      expect.stringMatching(
        /^ascend-memory-gate check .* --comment --host gitlab --repo group\/project --pr "\$\{CHANGE_ID:-\}"$/,
      ),
    ]);
    const install = await shell(`npm install --global ${tarball}`, work);
    expect(install.code, install.out).toBe(0);
    const token = 'glpat-DOCS-3c4d5e';
    const gitlab = await startFakeGitLab({ project: 'group/project', tokens: { [token]: 'jenkins-bot' } });
    try {
      gitlab.files.set(MR_BASE, new Map([['baselines/memory-baseline.json', read('baselines/memory-baseline.json')]]));
      gitlab.mergeRequests.set(12, {
        iid: 12,
        baseSha: MR_BASE,
        headSha: 'f'.repeat(40),
        targetBranch: 'main',
        labels: [],
        notes: [],
        labelEvents: [],
        versions: [],
      });
      const env = { CI_API_V4_URL: gitlab.api, GITLAB_TOKEN: token };
      const branch = await shell(lines[0]!, project('examples/plog'), env);
      expect([branch.code, gitlab.writes()], branch.out).toEqual([0, []]);
      const change = await shell(lines[0]!, project('examples/plog'), { ...env, CHANGE_ID: '12' });
      expect(change.code, change.out).toBe(0);
      expect(change.out).toMatch(/^note: the merge request note was created \(1000\)$/m);
      expect(gitlab.mergeRequests.get(12)!.notes.map((n) => [n.author.username, n.body.split('\n')[0]])).toEqual([
        ['jenkins-bot', MARKER],
      ]);
      expect(branch.out + change.out).not.toContain(token);
    } finally {
      await gitlab.close();
    }
  }, 120_000);
});

// ───────────────────────────── GitLab ─────────────────────────────

/** A job of a pipeline run here as the runner would (test/helpers/gitlab-runner.ts), the release URL replaced. */
async function runJob(
  pipeline: Gitlab,
  name: string,
  dir: string,
  cache: string,
  ci: Variables,
): Promise<{ script: Run; afterScript: Run | null; policy: string }> {
  const r = await runGitlabJob(pipeline, name, {
    dir,
    cache,
    ci,
    shell: (script, cwd, env) => shell(script, cwd, env),
    rewrite: withLocalPackage,
  });
  if (r.script === null) throw new Error(`the rules leave ${name} out of this pipeline`);
  return { script: r.script, afterScript: r.afterScript, policy: r.policy };
}

/** What GitLab sets in every pipeline of project 42 (group/project); a merge request pipeline's API is the loopback fake. */
const DEFAULT_BRANCH = {
  CI_DEFAULT_BRANCH: 'main',
  CI_PROJECT_URL: 'https://gitlab.example.com/group/project',
  CI_PROJECT_ID: '42',
  CI_PROJECT_PATH: 'group/project',
  CI_SERVER_HOST: 'gitlab.example.com',
  CI_API_V4_URL: 'https://gitlab.example.com/api/v4',
};
const onMain = (n: number): Record<string, string> => ({
  ...DEFAULT_BRANCH,
  CI_COMMIT_BRANCH: 'main',
  CI_COMMIT_SHA: String(n).repeat(40).slice(0, 40),
  CI_PIPELINE_ID: String(1000 + n),
  CI_PIPELINE_SOURCE: 'push',
});
const MR_BASE = 'e'.repeat(40);
const mergeRequest = {
  ...DEFAULT_BRANCH,
  CI_COMMIT_SHA: 'f'.repeat(40),
  CI_PIPELINE_ID: '2001',
  CI_PIPELINE_SOURCE: 'merge_request_event',
  CI_MERGE_REQUEST_IID: '7',
  CI_MERGE_REQUEST_DIFF_BASE_SHA: MR_BASE,
  CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
};
const MARKER = '<!-- ascend-memory-gate:default -->';

/** The GitLab pipelines of the documentation: examples/gitlab-ci.yml and every YAML block with a `script:`. */
const gitlabRecipes: [string, string][] = [
  ['examples/gitlab-ci.yml', read('examples/gitlab-ci.yml')],
  ...DOCS.flatMap(blocks)
    .filter((b) => b.lang === 'yaml' && /^\s*script:/m.test(b.text))
    .map((b): [string, string] => [`${b.file}:${b.line}`, b.text]),
];

describe('the GitLab recipes', () => {
  it('are examples/gitlab-ci.yml and the job docs/history.md shows, which is the example job as it is', () => {
    expect(gitlabRecipes.map(([where]) => where)).toEqual([
      'examples/gitlab-ci.yml',
      expect.stringMatching(/^docs\/history\.md:\d+$/),
    ]);
    const example = parseYaml(gitlabRecipes[0]![1]) as Gitlab;
    const docs = parseYaml(gitlabRecipes[1]![1]) as Gitlab;
    expect(docs['memory-gate']).toEqual(example['memory-gate']);
    expect(docs.variables).toEqual(example.variables);
  });

  it('run the gate after a failed training job, with its artifacts', () => {
    const gitlab = parseYaml(read('examples/gitlab-ci.yml')) as Gitlab;
    const gate = gitlab['memory-gate']!;
    expect(gate.needs).toEqual([{ job: 'train', artifacts: true }]);
    expect(gitlab.train!.artifacts!.when).toBe('always');
    // each rule that lets the job run says `when: always` (GitLab's default, on_success, skips it after a failure)
    expect(gate.rules!.map((r) => r.when)).toEqual(['always', 'always']);
    expect(gate.artifacts!.when).toBe('always');
    expect(gate.artifacts!.reports).toEqual({ junit: 'memory-gate.junit.xml' });
  });

  it("keep the default branch's history where merge requests read it: one key for protected and unprotected branches, pushed by the default branch only", () => {
    const gitlab = parseYaml(read('examples/gitlab-ci.yml')) as Gitlab;
    const gate = gitlab['memory-gate']!;
    expect(gate.cache).toEqual({
      key: 'memory-gate-history',
      unprotect: true,
      policy: '$HISTORY_CACHE_POLICY',
      paths: ['memory-history.jsonl'],
      when: 'always',
    });
    // a fixed key: no per-branch variable in it
    expect(gate.cache!.key).not.toContain('$');
    expect(ruleOf(gate, onMain(1))?.variables).toEqual({ HISTORY_CACHE_POLICY: 'pull-push' });
    expect(ruleOf(gate, mergeRequest)?.variables).toEqual({ HISTORY_CACHE_POLICY: 'pull' });
    expect(ruleOf(gate, { ...DEFAULT_BRANCH, CI_COMMIT_BRANCH: 'feature' })?.variables).toEqual({
      HISTORY_CACHE_POLICY: 'pull',
    });
  });

  it.each(gitlabRecipes)(
    '%s: two default-branch pipelines record two points, a merge request reads them and records none',
    async (_, text) => {
      const pipeline = parseYaml(text) as Gitlab;
      const cache = join(mkdtempSync(join(work, 'cache-')), 'memory-gate-history');
      const history = (dir: string): string => join(dir, 'memory-history.jsonl');

      // 1: main, the healthy sample: the gate passes and the run is recorded
      const first = project('examples/plog');
      const one = await runJob(pipeline, 'memory-gate', first, cache, onMain(1));
      expect(
        [one.policy, one.script.code, one.afterScript?.code],
        one.script.out + (one.afterScript?.out ?? ''),
      ).toEqual(['pull-push', 0, 0]);
      expect(points(history(first))).toBe(1);
      for (const kept of pipeline['memory-gate']!.artifacts?.paths ?? [])
        expect(existsSync(join(first, kept)), kept).toBe(true);

      // 2: main, the regressed sample: the gate fails, the run is recorded all the same and the cache saved
      const second = project('examples/regressed/plog');
      const two = await runJob(pipeline, 'memory-gate', second, cache, onMain(2));
      expect([two.script.code, two.afterScript?.code], two.script.out + (two.afterScript?.out ?? '')).toEqual([1, 0]);
      expect(two.afterScript?.out).toMatch(/^recorded 2{7} in memory-history\.jsonl: point 2 of at most 200/m);
      expect(points(join(cache, 'memory-history.jsonl'))).toBe(2);

      // 3: a merge request: reads main's two points (its sparklines), records nothing, pushes nothing, and posts its
      // verdict as one note on the merge request (GitLab's API: the loopback fake; the base commit's baseline read through it)
      const mr = project('examples/regressed/plog');
      const token = 'glpat-RECIPES-0a1b2c';
      const gitlab = await startFakeGitLab({ tokens: { [token]: 'project_42_bot' } });
      let three: Awaited<ReturnType<typeof runJob>>;
      try {
        gitlab.files.set(
          MR_BASE,
          new Map([['baselines/memory-baseline.json', read('baselines/memory-baseline.json')]]),
        );
        gitlab.mergeRequests.set(7, {
          iid: 7,
          baseSha: MR_BASE,
          headSha: mergeRequest.CI_COMMIT_SHA,
          targetBranch: 'main',
          labels: [],
          notes: [],
          labelEvents: [],
          versions: [],
        });
        three = await runJob(pipeline, 'memory-gate', mr, cache, {
          ...mergeRequest,
          CI_API_V4_URL: gitlab.api,
          GITLAB_TOKEN: token,
        });
        const notes = gitlab.mergeRequests.get(7)!.notes;
        expect(
          notes.map((n) => [n.author.username, n.body.split('\n')[0]]),
          three.script.out,
        ).toEqual([['project_42_bot', MARKER]]);
        expect(notes[0]!.body).toMatch(/Memory gate failed/);
      } finally {
        await gitlab.close();
      }
      expect([three.policy, three.script.code, three.afterScript?.code]).toEqual(['pull', 1, 0]);
      expect(three.script.out).toMatch(/Memory gate failed/);
      expect(three.script.out).toMatch(/^note: the merge request note was created \(1000\)$/m);
      expect(three.script.out).not.toContain(token);
      // the default branch's pipelines are not about a merge request: they posted nothing
      expect(one.script.out).toMatch(
        /not a change request, the working tree's baseline and config gate it and nothing is posted/,
      );
      expect(points(history(mr))).toBe(2);
      expect(points(join(cache, 'memory-history.jsonl'))).toBe(2);
      const shown = await shell('ascend-memory-gate history show --history memory-history.jsonl', mr);
      expect(shown.out).toMatch(/^History on main: 2 points, 1111111 \(.*\) to 2222222/);
    },
    180_000,
  );

  it('choose the rule GitLab would: variables compared with each other, with text, with a pattern, joined with && and ||', () => {
    const env = {
      CI_COMMIT_BRANCH: 'main',
      CI_DEFAULT_BRANCH: 'main',
      CI_PIPELINE_SOURCE: 'merge_request_event',
      EMPTY: '',
    };
    expect(
      [
        '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
        '$CI_PIPELINE_SOURCE == "merge_request_event"',
        "$CI_PIPELINE_SOURCE != 'push'",
        '$CI_COMMIT_BRANCH =~ /^ma/',
        '$CI_COMMIT_BRANCH',
        '$NOPE == null',
        '($EMPTY || $CI_COMMIT_BRANCH) && $CI_DEFAULT_BRANCH !~ /dev/',
      ].map((e) => ruleMatches(e, env)),
    ).toEqual([true, true, true, true, true, true, true]);
    expect(
      ['$CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH', '$EMPTY', '$NOPE', '$CI_PIPELINE_SOURCE == "push" || $EMPTY'].map(
        (e) => ruleMatches(e, env),
      ),
    ).toEqual([false, false, false, false]);
    expect(() => ruleMatches('$A === $B', env)).toThrow("cannot evaluate the rule 'if: $A === $B' at '='");
  });

  it("catch a folded block whose more-indented lines keep their line breaks (the history recipe's old `- >` after_script)", async () => {
    const folded = parseYaml(`job:
  script: [ 'true' ]
  after_script:
    - >
      if true; then
        echo appended --commit "x"
        --run "1";
      fi
`) as Gitlab;
    expect(folded.job!.after_script![0]).toBe('if true; then\n  echo appended --commit "x"\n  --run "1";\nfi\n');
    const dir = mkdtempSync(join(work, 'folded-'));
    const r = await runJob(folded, 'job', dir, join(dir, 'cache'), {});
    expect(r.afterScript?.code).toBe(127);
    expect(r.afterScript?.out).toMatch(/--run: command not found/);
  });
});

describe('examples/gitlab/merge-request.gitlab-ci.yml', () => {
  const ID = {
    GIT_AUTHOR_NAME: 'ci',
    GIT_AUTHOR_EMAIL: 'ci@example.com',
    GIT_COMMITTER_NAME: 'ci',
    GIT_COMMITTER_EMAIL: 'ci@example.com',
  };
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...ID } }).trim();

  it("the default branch records its run on the history branch; a merge request reads it, is gated on its base's baseline, and posts one note", async () => {
    const pipeline = parseYaml(read('examples/gitlab/merge-request.gitlab-ci.yml')) as Gitlab;
    // origin: main holds the committed baseline; the job's clone holds the training job's plog (the regressed sample)
    const bare = join(mkdtempSync(join(work, 'origin-')), 'origin.git');
    git(work, 'init', '-q', '--bare', '--initial-branch=main', bare);
    const seed = project('examples/plog');
    git(seed, 'init', '-q', '--initial-branch=main');
    git(seed, 'add', 'baselines');
    git(seed, 'commit', '-qm', 'baseline');
    git(seed, 'push', '-q', bare, 'HEAD:main');
    const base = git(seed, 'rev-parse', 'HEAD');
    const clone = (plog: 'examples/plog' | 'examples/regressed/plog'): string => {
      const dir = join(mkdtempSync(join(work, 'clone-')), 'p');
      git(work, 'clone', '-q', bare, dir);
      cpSync(join(ROOT, plog), join(dir, 'ascend-log', 'run', 'plog'), { recursive: true });
      // the recipe's push URL (https://oauth2:$GITLAB_TOKEN@host/path.git) is the bare repository here
      git(
        dir,
        'config',
        `url.${bare}.insteadOf`,
        'https://oauth2:glpat-MR-6f7a8b@gitlab.example.com/group/project.git',
      );
      return dir;
    };
    const token = 'glpat-MR-6f7a8b';
    const gitlab = await startFakeGitLab({ tokens: { [token]: 'project_42_bot' } });
    try {
      const ci = { ...DEFAULT_BRANCH, ...ID, CI_API_V4_URL: gitlab.api, GITLAB_TOKEN: token };
      const main = clone('examples/plog');
      const one = await runJob(pipeline, 'memory-gate', main, join(work, 'no-cache'), {
        ...ci,
        CI_COMMIT_BRANCH: 'main',
        CI_COMMIT_SHA: base,
        CI_PIPELINE_ID: '3001',
        CI_PIPELINE_SOURCE: 'push',
      });
      expect([one.script.code, one.afterScript?.code], one.script.out + (one.afterScript?.out ?? '')).toEqual([0, 0]);
      expect(one.afterScript?.out).toMatch(/; pushed to origin memory-gate-history as [0-9a-f]{12}/);
      expect(git(bare, 'rev-list', '--count', 'memory-gate-history')).toBe('1');
      expect(gitlab.writes()).toEqual([]);

      const mr = clone('examples/regressed/plog');
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
      const two = await runJob(pipeline, 'memory-gate', mr, join(work, 'no-cache'), {
        ...ci,
        CI_COMMIT_SHA: base,
        CI_PIPELINE_ID: '3002',
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_IID: '7',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
      });
      expect([two.script.code, two.afterScript?.code], two.script.out).toEqual([1, 0]);
      expect(two.script.out).toContain('fetched memory-history.jsonl from origin memory-gate-history: 1 points');
      expect(two.script.out).toMatch(/^note: the merge request note was created \(1000\)$/m);
      expect(gitlab.mergeRequests.get(7)!.notes.map((n) => [n.author.username, n.body.split('\n')[0]])).toEqual([
        ['project_42_bot', MARKER],
      ]);
      expect(git(bare, 'rev-list', '--count', 'memory-gate-history')).toBe('1');
      expect(one.script.out + (one.afterScript?.out ?? '') + two.script.out).not.toContain(token);
    } finally {
      await gitlab.close();
    }
  }, 180_000);
});

// ───────────────────────────── AtomGit ─────────────────────────────

describe('examples/atomgit/memory-gate.yml', () => {
  it("its steps but the training, on a pull request: the release installed, the verdict posted on GitCode's loopback fake", async () => {
    const pipeline = parseYaml(read('examples/atomgit/memory-gate.yml')) as {
      env: Record<string, string>;
      jobs: { gate: { steps: { name: string; run: string; env?: Record<string, string> }[] } };
    };
    const steps = pipeline.jobs.gate.steps;
    expect(steps.map((s) => s.name)).toEqual(['Train', 'Install the gate', 'Memory gate']);
    expect(pipeline.env.GATE_TARBALL).toBe(RELEASE_URL);
    const token = 'gc-RECIPES-9d8c7b';
    const gitcode = await startFakeGitCode({ tokens: { [token]: 'gate-bot' } });
    try {
      gitcode.files.set(MR_BASE, new Map([['baselines/memory-baseline.json', read('baselines/memory-baseline.json')]]));
      gitcode.pulls.set(3, {
        number: 3,
        baseSha: MR_BASE,
        headSha: 'f'.repeat(40),
        baseRef: 'main',
        labels: [],
        comments: [],
      });
      const dir = project('examples/regressed/plog');
      // the expressions AtomGit fills in for pull request 3 of ascend/demo; curl reads the packed tarball as a file URL
      const env = { ...pipeline.env, GATE_TARBALL: `file://${tarball}`, GITCODE_API_URL: gitcode.api };
      const runs: Run[] = [];
      for (const step of steps.slice(1)) {
        const script = step.run
          .replaceAll('${{ atomgit.repository }}', 'ascend/demo')
          .replaceAll('${{ atomgit.event.pull_request.number }}', '3');
        runs.push(
          await shell(`set -eo pipefail\n${script}`, dir, {
            ...env,
            ...step.env,
            GITCODE_TOKEN: token,
            npm_config_prefix: join(work, 'atomgit-global'),
          }),
        );
      }
      expect(
        runs.map((r) => r.code),
        runs.map((r) => r.out).join('\n'),
      ).toEqual([0, 1]);
      expect(runs[1]!.out).toMatch(/^note: the pull request comment was created \(5000\)$/m);
      expect(gitcode.pulls.get(3)!.comments.map((c) => c.body.split('\n')[0])).toEqual([MARKER]);
      expect(runs.map((r) => r.out).join('')).not.toContain(token);
    } finally {
      await gitcode.close();
    }
  }, 120_000);
});

// ───────────────────────────── Jenkins ─────────────────────────────

describe('the Jenkinsfile', () => {
  const jenkinsfile = read('examples/Jenkinsfile');
  const stage = (name: string): string => {
    const start = jenkinsfile.indexOf(`stage('${name}')`);
    expect(start, name).toBeGreaterThan(-1);
    const next = jenkinsfile.indexOf('stage(', start + 1);
    return jenkinsfile.slice(start, next === -1 ? undefined : next);
  };
  /** The single-quoted `sh '…'` steps of a stage (Groovy leaves them as they are; the shell expands the variables). */
  const shSteps = (text: string): string[] => [...text.matchAll(/^\s*sh '([^'\n]*)'$/gm)].map((m) => m[1]!);
  /** `NAME = 'value'` and `NAME = "${env.WORKSPACE}/…"` of an environment block. */
  const environment = (text: string, workspace: string): Record<string, string> =>
    Object.fromEntries(
      [...text.matchAll(/^\s*(\w+) = (?:'([^']*)'|"([^"]*)")/gm)].map((m) => [
        m[1]!,
        (m[2] ?? m[3] ?? '').replaceAll('${env.WORKSPACE}', workspace),
      ]),
    );

  it('runs the gate stage after a failed training: training inside catchError, the reports published in post { always }', () => {
    expect(stage('Train')).toMatch(
      /catchError\(buildResult: 'FAILURE', stageResult: 'FAILURE'\) \{\n\s*sh 'python train\.py --max-steps 50'\n\s*\}/,
    );
    expect(stage('Memory gate')).toMatch(/post \{\n\s*always \{[^}]*junit testResults: 'memory-gate\.junit\.xml'/);
  });

  it.each([
    ['regressed', 'examples/regressed/plog', 1],
    ['healthy', 'examples/plog', 0],
  ] as const)(
    'its gate stage, run as sh steps on the %s sample, installs the release and writes the JUnit file',
    async (_, plog, exit) => {
      const workspace = project(plog);
      const env: Record<string, string> = {
        ...environment(jenkinsfile.slice(0, jenkinsfile.indexOf('stages {')), workspace),
        ...environment(stage('Memory gate'), workspace),
        WORKSPACE: workspace,
      };
      expect(Object.keys(env).sort()).toEqual([
        'CI_API_V4_URL',
        'GITLAB_PROJECT',
        'MEMORY_GATE_PACKAGE',
        'WORKSPACE',
        'npm_config_cache',
      ]);
      const steps = shSteps(stage('Memory gate'));
      expect(steps).toHaveLength(2);
      const runs: Run[] = [];
      for (const step of steps) {
        // Jenkins runs each step as `sh -xe`; its global npm prefix is the one the step names
        runs.push(
          await shell(
            `set -e\n${step}`,
            workspace,
            { ...env, MEMORY_GATE_PACKAGE: withLocalPackage(env.MEMORY_GATE_PACKAGE!), npm_config_prefix: undefined },
            'sh',
          ),
        );
      }
      expect(
        runs.map((r) => r.code),
        runs.map((r) => r.out).join('\n'),
      ).toEqual([0, exit]);
      expect(runs[1]!.out).toMatch(exit === 1 ? /Memory gate failed/ : /Memory gate passed/);
      expect(readFileSync(join(workspace, 'memory-gate.junit.xml'), 'utf8')).toMatch(/<testsuites/);
      for (const file of ['memory-gate.json', 'memory-gate.html'])
        expect(existsSync(join(workspace, file)), file).toBe(true);
    },
    120_000,
  );
});

// ───────────────────────────── GitHub workflows ─────────────────────────────

describe("the workflows' run: lines", () => {
  const dir = join(ROOT, 'examples', 'workflows');
  const runs = readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .flatMap((f) => {
      const workflow = parseYaml(readFileSync(join(dir, f), 'utf8')) as {
        jobs: Record<string, { steps?: { run?: string }[] }>;
      };
      return Object.values(workflow.jobs).flatMap((job) =>
        (job.steps ?? []).flatMap((s) => (s.run === undefined ? [] : [[f, s.run] as const])),
      );
    });
  /** The user's training: the one command a recipe cannot run without their model. */
  const training = (line: string): boolean => /python train\.py|scripts\/train\.sh/.test(line);

  it('are the training command, an echo, and the dashboard: the release installed, then history html', async () => {
    const rest = runs.filter(([, line]) => !training(line));
    expect(
      runs
        .filter(([, line]) => training(line))
        .map(([f]) => f)
        .sort(),
    ).toEqual(['gate-pull-requests.yml', 'history-dashboard.yml', 'node-snapshots.yml', 'train-and-gate.yml']);
    expect(rest.map(([f]) => f)).toEqual(['history-dashboard.yml', 'history-dashboard.yml', 'update-baseline.yml']);
    // the dashboard job's lines, on a history the CLI recorded, with the expressions GitHub would fill in
    const site = project('examples/plog', 'plog');
    const append = await shell(
      `ascend-memory-gate history append --history default.history.jsonl --commit ${'a'.repeat(40)} --plog plog || (npm install --global ${tarball} && ascend-memory-gate history append --history default.history.jsonl --commit ${'a'.repeat(40)} --plog plog)`,
      site,
    );
    expect(append.code, append.out).toBe(0);
    for (const [file, line] of rest) {
      const script = withLocalPackage(line)
        .replaceAll('${{ github.repository }}', 'o/r')
        .replaceAll('${{ steps.update.outputs.baseline-pull-request }}', 'https://github.com/o/r/pull/1');
      const r = await shell(`set -eo pipefail\n${script}`, site);
      expect([file, line, r.code], r.out).toEqual([file, line, 0]);
    }
    expect(readFileSync(join(site, 'site', 'index.html'), 'utf8')).toContain('<title>Memory history of o/r</title>');
  }, 120_000);
});

/**
 * Other CI systems read the gate: the command in examples/gitlab-ci.yml and examples/Jenkinsfile, run for real on the
 * regressed and the healthy example, writes the reports those files keep as artifacts and a JUnit file valid against
 * the schemas GitLab and Jenkins read (test/fixtures/junit/); the committed sample examples/regressed/memory-gate.junit.xml
 * is what `check --junit` writes. Build first: `npm run build`; the schemas are checked by xmllint compiled to WebAssembly (test/helpers/xsd.ts).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { schemaErrors as xsdErrors } from '../helpers/xsd.js';
import { SAMPLE_CHECK, SAMPLE_EPOCH, SAMPLE_JUNIT, withLocalhost } from '../../scripts/write-docs.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Both schemas' verdicts on a file: [] when it validates under both. */
function schemaErrors(file: string): Promise<string[]> {
  return xsdErrors(readFileSync(file, 'utf8'), file.split('/').at(-1));
}

function run(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', ASCEND_MEMORY_GATE_THREADS: '0', ...env } },
      (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr });
      },
    );
  });
}

/** The suites' counts of a JUnit file: `{ name: [tests, failures, skipped] }`. */
function suiteCounts(xml: string): Record<string, [number, number, number]> {
  return Object.fromEntries(
    [...xml.matchAll(/<testsuite name="([^"]+)"[^>]* tests="(\d+)" failures="(\d+)" errors="0" skipped="(\d+)"/g)].map(
      (m) => [m[1]!, [Number(m[2]), Number(m[3]), Number(m[4])]],
    ),
  );
}

interface GitlabJob {
  stage: string;
  tags?: string[];
  needs?: { job: string; artifacts: boolean }[];
  script: string[];
  artifacts: { when?: string; paths: string[]; reports?: { junit?: string } };
}

const gitlab = parseYaml(read('examples/gitlab-ci.yml')) as { stages: string[] } & Record<string, GitlabJob>;
const jenkinsfile = read('examples/Jenkinsfile');
/** The gate's command line in the GitLab job: `npx --yes ascend-memory-gate@1 check …`, one line, no shell syntax. */
const gitlabCommand = gitlab['memory-gate']!.script.find((line) => line.startsWith('ascend-memory-gate check '))!;
/** The Jenkins step runs the same command from the folder it installed the release into. */
const jenkinsStep = /sh '"\$WORKSPACE\/\.memory-gate\/bin\/ascend-memory-gate" (check [^']+)'/.exec(jenkinsfile);
const jenkinsCommand = jenkinsStep === null ? undefined : `ascend-memory-gate ${jenkinsStep[1]}`;
/** The command without where it posts (`--comment`, and Jenkins' `--host … --repo … --pr …`): test/e2e/recipes.test.ts runs that part against a fake GitLab. */
const gated = (command: string): string => command.replace(/ --comment( --host \S+ --repo \S+ --pr \S+)?$/, '');
const argsOf = (command: string): string[] =>
  gated(command)
    .replace(/^ascend-memory-gate /, '')
    .split(' ');

describe('examples/gitlab-ci.yml and examples/Jenkinsfile', () => {
  it('GitLab: a train job on an Ascend runner, then a gate job that keeps its reports and publishes the JUnit file', () => {
    expect(gitlab.stages).toEqual(['train', 'gate']);
    expect(gitlab.train).toMatchObject({
      stage: 'train',
      tags: ['ascend'],
      artifacts: { when: 'always', paths: ['ascend-log/run/plog/'] },
    });
    const gate = gitlab['memory-gate']!;
    expect(gate).toMatchObject({ stage: 'gate', needs: [{ job: 'train', artifacts: true }] });
    // the release installed, then the gate (test/e2e/recipes.test.ts runs both as the runner does)
    expect(gate.script).toEqual(['npm install --global --no-audit --no-fund "$MEMORY_GATE_PACKAGE"', gitlabCommand]);
    expect(gate.artifacts).toMatchObject({ when: 'always', reports: { junit: 'memory-gate.junit.xml' } });
    expect(gate.artifacts.paths).toEqual(['memory-gate.json', 'memory-gate.html', 'memory-gate.junit.xml']);
    expect(gitlabCommand).toMatch(/^ascend-memory-gate check [\w ./-]+$/);
  });

  it("Jenkins: the same command, then the junit step on its file and the reports archived, whatever the gate's exit", () => {
    // the same command, without GitLab's history (Jenkins keeps none in this example)
    expect(gated(jenkinsCommand!)).toBe(gated(gitlabCommand).replace(' --history memory-history.jsonl', ''));
    expect(jenkinsCommand).toContain(' --comment --host gitlab --repo "$GITLAB_PROJECT" --pr "${CHANGE_ID:-}"');
    const post = jenkinsfile.slice(jenkinsStep!.index);
    expect(post).toMatch(/post \{\s*always \{[^}]*junit testResults: 'memory-gate\.junit\.xml'/);
    expect(post).toContain("archiveArtifacts artifacts: 'memory-gate.json, memory-gate.html, memory-gate.junit.xml'");
    expect(jenkinsfile).toContain("agent { label 'ascend' }");
    expect(jenkinsfile).toContain("unstash 'plog'");
    // the braces balance: a declarative pipeline Jenkins can load
    expect((jenkinsfile.match(/\{/g) ?? []).length).toBe((jenkinsfile.match(/\}/g) ?? []).length);
  });

  it.each([
    ['regressed', 'examples/regressed/plog', 1],
    ['healthy', 'examples/plog', 0],
  ] as const)(
    'their command, run for real on the %s example, writes every file they keep, and a valid JUnit file',
    async (_, plog, exit) => {
      const dir = mkdtempSync(join(tmpdir(), 'amg-junit-ci-'));
      dirs.push(dir);
      cpSync(join(ROOT, 'baselines', 'memory-baseline.json'), join(dir, 'baselines', 'memory-baseline.json'));
      cpSync(join(ROOT, plog), join(dir, 'ascend-log', 'run', 'plog'), { recursive: true });
      const r = await run(argsOf(gitlabCommand), dir);
      expect(r.code, r.stderr).toBe(exit);
      for (const kept of gitlab['memory-gate']!.artifacts.paths) expect(existsSync(join(dir, kept)), kept).toBe(true);
      const junit = join(dir, 'memory-gate.junit.xml');
      expect(await schemaErrors(junit)).toEqual([]);
      const counts = suiteCounts(readFileSync(junit, 'utf8'));
      expect(counts['Memory gate']).toEqual([1, exit, 0]);
      expect(counts.Modules![1]).toBe(exit);
    },
  );
});

describe('the sample JUnit report of the regressed example', () => {
  it(`${SAMPLE_JUNIT} is what check --junit writes (SOURCE_DATE_EPOCH ${SAMPLE_EPOCH}; its hostname written as localhost)`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amg-junit-sample-'));
    dirs.push(dir);
    const file = join(dir, 'memory-gate.junit.xml');
    const r = await run([...SAMPLE_CHECK, '--junit', file], ROOT, { SOURCE_DATE_EPOCH: SAMPLE_EPOCH });
    expect(r.code).toBe(1);
    expect(withLocalhost(readFileSync(file, 'utf8'))).toBe(read(SAMPLE_JUNIT));
    expect(await schemaErrors(join(ROOT, SAMPLE_JUNIT))).toEqual([]);
    expect(suiteCounts(read(SAMPLE_JUNIT))).toEqual({
      'Memory gate': [1, 1, 0],
      Modules: [8, 1, 0],
      Kernels: [4, 0, 1],
      Devices: [2, 1, 0],
    });
    expect(read(SAMPLE_JUNIT)).toContain(
      '<testcase name="DEV_MEM/dev1/APP" classname="ascend-memory-gate.modules" time="0">',
    );
  });

  it('a bad SOURCE_DATE_EPOCH is one error line, exit 2, and no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amg-junit-epoch-'));
    dirs.push(dir);
    const file = join(dir, 'memory-gate.junit.xml');
    const r = await run([...SAMPLE_CHECK, '--junit', file], ROOT, { SOURCE_DATE_EPOCH: 'yesterday' });
    expect([r.code, r.stderr]).toEqual([
      2,
      "error: SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got 'yesterday'\n",
    ]);
    expect(existsSync(file)).toBe(false);
  });
});

/**
 * End-to-end tests of the REAL bundle: `node dist/index.js` runs as a child process against the fake GitHub
 * (test/e2e/fake-github.ts) on 127.0.0.1, with the environment a runner gives a JavaScript action: INPUT_*
 * (every action.yml default filled in, as the runner does), GITHUB_* (event name + payload file, ref, sha,
 * workspace), GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and RUNNER_TEMP, each in a fresh temp folder per run.
 *
 * Asserts on what a user sees: exit code, job summary, step outputs (parsed from the GITHUB_OUTPUT heredocs),
 * workflow-command annotations on stdout, and what the fake GitHub recorded (comments, refs, commits, PRs, requests).
 *
 * Build first: `npm run build` (the tests run dist/index.js, not the sources).
 */
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memscopeDumpText } from '../generators/memscope-dump.js';
import { memoryRecord } from '../generators/memory-record.js';
import { parse as parseYaml } from 'yaml';
import { runHeadSha, startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { buildZip } from './zip.js';
import { schemaErrors } from '../helpers/xsd.js';
import { MiB } from '../helpers/story.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BUNDLE = join(ROOT, 'dist', 'index.js');
const REPO = 'octo-org/octo-repo';
const DEFAULT_RUN_ID = 1001;
const MARKER = '<!-- ascend-memory-gate:default -->';

// ───────────────────────────── running the Action ─────────────────────────────

interface Annotation {
  command: 'error' | 'warning' | 'notice';
  /** decoded properties (title, file, …) */
  props: Record<string, string>;
  /** decoded message */
  message: string;
}

interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  /** GITHUB_STEP_SUMMARY's content after the run */
  summary: string;
  /** step outputs, parsed from GITHUB_OUTPUT's `name<<delimiter` heredocs */
  outputs: Record<string, string>;
  errors: Annotation[];
  warnings: Annotation[];
  /** the run's temp folder: workspace/, runner-temp/, event.json, summary.md, output.txt */
  dir: string;
  workspace: string;
  runnerTemp: string;
}

interface RunDirs {
  dir: string;
  workspace: string;
  runnerTemp: string;
}

/** action.yml's input defaults, as the runner would pass them (`${{ github.token }}` → the fake's token). */
let actionDefaults: Record<string, string>;

let fake: FakeGitHub;
let tmpRoot: string;

function newRunDirs(): RunDirs {
  const dir = mkdtempSync(join(tmpRoot, 'run-'));
  const workspace = join(dir, 'workspace');
  const runnerTemp = join(dir, 'runner-temp');
  mkdirSync(workspace);
  mkdirSync(runnerTemp);
  return { dir, workspace, runnerTemp };
}

function writeFiles(base: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    const p = join(base, name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

/** workflow-command property/data decoding (the inverse of @actions/core's escapeProperty / escapeData) */
function unescapeCommand(s: string): string {
  return s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
}

function parseAnnotations(stdout: string): Annotation[] {
  const out: Annotation[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const m = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) continue;
    const props: Record<string, string> = {};
    for (const kv of (m[2] ?? '').split(',').filter(Boolean)) {
      const eq = kv.indexOf('=');
      props[kv.slice(0, eq)] = unescapeCommand(kv.slice(eq + 1));
    }
    out.push({ command: m[1] as Annotation['command'], props, message: unescapeCommand(m[3] ?? '') });
  }
  return out;
}

/** GITHUB_OUTPUT holds `name<<ghadelimiter_<uuid>\nvalue\nghadelimiter_<uuid>\n` per setOutput call. */
function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!m) {
      const kv = /^([^=]+)=(.*)$/.exec(lines[i] ?? '');
      if (kv) outputs[kv[1]!] = kv[2]!;
      continue;
    }
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    outputs[m[1]!] = value.join('\n');
  }
  return outputs;
}

interface RunOptions {
  dirs?: RunDirs;
  inputs: Record<string, string>;
  event?: string;
  payload?: unknown;
  /** GITHUB_RUN_ID, and the run the runtime token grants (same-run Twirp downloads). */
  runId?: number;
  refName?: string;
  sha?: string;
  /** Environment variables set last (e.g. GITHUB_API_URL of a closed port). */
  env?: Record<string, string>;
}

async function runAction(o: RunOptions): Promise<ActionRun> {
  const dirs = o.dirs ?? newRunDirs();
  const eventPath = join(dirs.dir, 'event.json');
  const summaryPath = join(dirs.dir, 'summary.md');
  const outputPath = join(dirs.dir, 'output.txt');
  writeFileSync(eventPath, JSON.stringify(o.payload ?? {}));
  writeFileSync(summaryPath, '');
  writeFileSync(outputPath, '');
  const refName = o.refName ?? 'main';
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...actionDefaults, ...o.inputs })) {
    inputs[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...fake.env({
      runId: o.runId ?? DEFAULT_RUN_ID,
      workspace: dirs.workspace,
      eventName: o.event ?? 'push',
      eventPath,
      sha: o.sha ?? 'c0ffee0000000000000000000000000000000001',
      ref: o.event === 'pull_request' ? 'refs/pull/1/merge' : `refs/heads/${refName}`,
      extra: {
        GITHUB_REF_NAME: refName,
        GITHUB_STEP_SUMMARY: summaryPath,
        GITHUB_OUTPUT: outputPath,
        RUNNER_TEMP: dirs.runnerTemp,
        ...inputs,
      },
    }),
    ...o.env,
  };
  const firstSeq = (fake.state.requests.at(-1)?.seq ?? 0) + 1;
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      process.execPath,
      [BUNDLE],
      { cwd: dirs.workspace, env, timeout: 30_000, maxBuffer: 32 * MiB },
      (err, stdout, stderr) => {
        done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
  // every call the Action made is one the fake knows (a 404 from a missing route would hide behind a warning)
  const unmatched = fake.state.requests
    .filter((q) => q.seq >= firstSeq && q.unmatched)
    .map((q) => `${q.method} ${q.path}`);
  expect(unmatched, `${stdout}\n${stderr}`).toEqual([]);
  const annotations = parseAnnotations(stdout);
  return {
    code,
    stdout,
    stderr,
    summary: readFileSync(summaryPath, 'utf8'),
    outputs: parseOutputFile(readFileSync(outputPath, 'utf8')),
    errors: annotations.filter((a) => a.command === 'error'),
    warnings: annotations.filter((a) => a.command === 'warning'),
    ...dirs,
  };
}

/** For failure messages: everything the child said. */
function why(r: ActionRun): string {
  return `exit ${r.code}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
}

// ───────────────────────────── evidence: plog files and baselines ─────────────────────────────

interface ModuleValue {
  peak: number;
  current?: number;
  allocs?: number;
  frees?: number;
}

/** `DEV_MEM/dev0/APP` → one driver line as `_svm_mem_stats_show` prints it. */
function plogLine(pid: number, key: string, v: ModuleValue): string {
  const parts = key.split('/');
  const attr = parts[0]!;
  const module = parts[parts.length - 1]!;
  const dev = parts.length === 3 ? ` ${parts[1]}` : '';
  return (
    `[INFO] DRV(${pid},python3):2024-07-08-22:27:45.354.856 [ascend][curpid: ${pid}, ${pid}][drv][devmm][_svm_mem_stats_show 148]` +
    `${attr}${dev} Mem stats (Bytes). (module_name=${module}; module_id=7; current_alloced_size=${v.current ?? v.peak}; ` +
    `alloced_peak_size=${v.peak}; alloc_cnt=${v.allocs ?? 3}; free_cnt=${v.frees ?? 1})`
  );
}

const NOISE = [
  '[INFO] RUNTIME(4052516,python3):2024-07-08-22:27:01.354.856 [runtime.cc:1320]4052516 Init: Runtime init success, device_id=0',
  '[DEBUG] ASCENDCL(4052516,python3):2024-07-08-22:27:02.354.856 [acl.cpp:88]4052516 aclInit: start to execute aclInit',
  '[INFO] HCCL(4052516,python3):2024-07-08-22:27:03.354.856 [hcom.cc:196][hccl-4052516-0-1675133310-hccl_world_group][3]hcom init by file success,take time [1174468]us, rankNum[2], rank[0], device[0]',
];

/** A plog file of one process: some noise, then the driver's memory statistics. */
function plogFile(pid: number, modules: Record<string, ModuleValue>): string {
  return [...NOISE, ...Object.entries(modules).map(([k, v]) => plogLine(pid, k, v)), ''].join('\n');
}

/** `{ 'rank_0/plog-100_….log': … }` — one file per rank holding the keys of its device (`/devN/`). */
function rankPlogs(modules: Record<string, ModuleValue>, ranks: number[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const r of ranks) {
    const own = Object.fromEntries(Object.entries(modules).filter(([k]) => k.includes(`/dev${r}/`)));
    files[`rank_${r}/plog-${4000 + r}_20240708222745354.log`] = plogFile(4000 + r, own);
  }
  return files;
}

function baselineJson(modules: Record<string, ModuleValue>, kernels: Record<string, unknown> = {}): string {
  const m = Object.fromEntries(
    Object.entries(modules).map(([k, v]) => [
      k,
      { peak: v.peak, current: v.current ?? v.peak, allocs: v.allocs ?? 3, frees: v.frees ?? 1 },
    ]),
  );
  return `${JSON.stringify({ version: 2, sections: Object.keys(kernels).length > 0 ? { modules: m, kernels } : { modules: m } }, null, 2)}\n`;
}

/** Sorted keys at every level, 2-space indent, trailing newline: how baselines are committed. */
function stable(value: unknown): string {
  const sortDeep = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sortDeep)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}

function prPayload(number: number, headSha: string, baseSha: string, labels: string[] = []): unknown {
  return {
    // A synchronize event carries its push (before, after): the tests of the label after a push build their own.
    action: labels.length > 0 ? 'labeled' : 'opened',
    number,
    pull_request: {
      number,
      head: { ref: 'feature', sha: headSha },
      base: { ref: 'main', sha: baseSha },
      labels: labels.map((name) => ({ name })),
    },
    repository: { full_name: REPO, name: 'octo-repo', owner: { login: 'octo-org' } },
  };
}

let baseBranches = 0;

/** The PR's base commit in the fake (on a branch of its own): `files`, or the workspace's baseline and config. */
function baseCommit(files: Record<string, string>): string {
  // A message of its own: a commit's sha hashes its tree, parent, message and time in seconds, so two tests that make
  // the same base files within one second would otherwise share a sha, and one test's requests would count in the other's.
  const branch = `pr-base-${++baseBranches}`;
  return fake.commitFiles({ branch, files, parent: null, message: `base of ${branch}` });
}

/** A base commit holding the same baseline and config as the workspace: a PR that does not touch its limits. */
function baseOf(dirs: RunDirs): string {
  const files: Record<string, string> = {};
  for (const name of ['baselines/memory-baseline.json', '.github/memory-gate.json']) {
    const file = join(dirs.workspace, name);
    if (existsSync(file)) files[name] = readFileSync(file, 'utf8');
  }
  return baseCommit(files);
}

function walkFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walkFiles(p).map((x) => join(name, x)));
    else out.push(name);
  }
  return out.sort();
}

interface ReportJson {
  result: string;
  counts: Record<string, number>;
  entries: {
    kind: string;
    key: string;
    status: string;
    severity: string;
    baseline: number | null;
    current: number | null;
  }[];
}

function readReport(r: ActionRun): ReportJson {
  expect(r.outputs.report, why(r)).toBeTruthy();
  return JSON.parse(readFileSync(r.outputs.report!, 'utf8')) as ReportJson;
}

// ───────────────────────────── markdown inspection (GFM table cells, CommonMark code spans) ─────────────────────────────

/** Splits a GFM table row into cells the way GFM does, before inline parsing: on every `|` not preceded by `\`. */
function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < row.length; i++) {
    const ch = row[i]!;
    if (ch === '\\' && row[i + 1] === '|') {
      cur += '|'; // GFM drops the backslash of `\|` inside cells, code spans included
      i++;
    } else if (ch === '|') {
      cells.push(cur);
      cur = '';
    } else cur += ch;
  }
  cells.push(cur);
  // leading and trailing pipes delimit, they do not make cells
  if (cells[0]?.trim() === '') cells.shift();
  if (cells[cells.length - 1]?.trim() === '') cells.pop();
  return cells.map((c) => c.trim());
}

/** CommonMark code spans of one line of inline text: their contents, and the text outside them. */
function codeSpans(text: string): { spans: string[]; outside: string } {
  const spans: string[] = [];
  let outside = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1]!)) {
      outside += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch !== '`') {
      outside += ch;
      i++;
      continue;
    }
    let n = 0;
    while (text[i + n] === '`') n++;
    // the closing run: exactly n backticks, not part of a longer run
    let j = i + n;
    let close = -1;
    while (j < text.length) {
      if (text[j] !== '`') {
        j++;
        continue;
      }
      let m = 0;
      while (text[j + m] === '`') m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close === -1) {
      outside += '`'.repeat(n);
      i += n;
      continue;
    }
    let content = text.slice(i + n, close);
    if (content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content))
      content = content.slice(1, -1);
    spans.push(content);
    i = close + n;
  }
  return { spans, outside };
}

/** The body's text outside code spans, line by line. */
function textOutsideCode(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => codeSpans(line.startsWith('|') ? tableCells(line).join(' ¦ ') : line).outside)
    .join('\n');
}

// ───────────────────────────── fixtures shared by the tests ─────────────────────────────

/** 16 module keys over 4 ranks (DEV_MEM/devR/{APP,HCCL,RUNTIME,GE}) plus two host-side keys. */
const RANKS = [0, 1, 2, 3];
const BASE_MODULES: Record<string, ModuleValue> = Object.fromEntries([
  ...RANKS.flatMap((r) =>
    ['APP', 'HCCL', 'RUNTIME', 'GE'].map((m, i) => [
      `DEV_MEM/dev${r}/${m}`,
      { peak: (64 + 16 * i + r) * MiB, current: (32 + r) * MiB },
    ]),
  ),
]);

beforeAll(async () => {
  expect(existsSync(BUNDLE), `${BUNDLE} is missing: run 'npm run build' first`).toBe(true);
  const action = parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  fake = await startFakeGitHub({ repository: REPO, runId: DEFAULT_RUN_ID });
  actionDefaults = Object.fromEntries(
    Object.entries(action.inputs).map(([name, def]) => [
      name,
      String(def.default ?? '').replace(/\$\{\{\s*github\.token\s*\}\}/, fake.opts.token),
    ]),
  );
  tmpRoot = mkdtempSync(join(tmpdir(), 'amg-e2e-'));
});

afterAll(async () => {
  await fake?.close();
  if (tmpRoot) rmSync(tmpRoot, { recursive: true, force: true });
});

// ───────────────────────────── 1. pull request: regression, annotations, sticky comment ─────────────────────────────

describe('check mode on a pull request', () => {
  it('a regression fails the job; the fix updates the same sticky comment, found on page 2', async () => {
    const PR = 42;
    // 120 earlier comments: the Action's own comment becomes #121, on page 2 of per_page=100.
    for (let i = 0; i < 120; i++)
      fake.addComment({
        issueNumber: PR,
        body: `review comment ${i}`,
        user: { login: 'reviewer', type: 'User', id: 7 },
      });
    // Someone pastes the marker (or quotes our comment) before the Action ever ran: not ours, never taken over.
    const pasted = fake.addComment({
      issueNumber: PR,
      body: `${MARKER}\n### ✅ Memory gate passed (trust me)`,
      user: { login: 'mallory', type: 'User', id: 666 },
    });
    fake.clearLog();

    const dirs = newRunDirs();
    cpSync(join(ROOT, 'baselines', 'memory-baseline.json'), join(dirs.workspace, 'baselines', 'memory-baseline.json'));
    cpSync(join(ROOT, 'examples', 'regressed', 'plog'), join(dirs.workspace, 'plog'), { recursive: true });
    cpSync(join(ROOT, 'examples', 'memory_compare'), join(dirs.workspace, 'memory_compare'), { recursive: true });
    const inputs = { plog: 'plog', 'memory-compare': 'memory_compare' };

    const failed = await runAction({
      dirs,
      inputs,
      event: 'pull_request',
      payload: prPayload(PR, 'a'.repeat(40), baseOf(dirs)),
    });
    expect(failed.code, why(failed)).toBe(1);
    expect(failed.outputs).toMatchObject({ result: 'fail', regressions: '1' });
    expect(failed.summary).toContain('DEV_MEM/dev1/APP');
    expect(failed.summary).toMatch(/regressed/);
    expect(failed.summary).toContain('Memory gate failed');
    // report and markdown outputs point at files under RUNNER_TEMP
    expect(relative(dirs.runnerTemp, failed.outputs.report!).startsWith('..')).toBe(false);
    expect(readReport(failed).entries.find((e) => e.key === 'DEV_MEM/dev1/APP')).toMatchObject({
      status: 'regressed',
      severity: 'fail',
    });
    expect(readFileSync(failed.outputs.markdown!, 'utf8')).toContain('DEV_MEM/dev1/APP');
    // one annotation for the regressed key, titled, plus the one-line reason of setFailed
    expect(failed.errors.find((e) => e.props.title === 'Memory gate: DEV_MEM/dev1/APP regressed')?.message).toBe(
      'DEV_MEM/dev1/APP regressed: 1.9 GiB → 19.4 GiB (+17.4 GiB, +900%)',
    );
    // The reason names the worst failing finding, in the same units as the tables.
    expect(failed.errors.at(-1)?.message).toBe(
      'Memory gate failed: DEV_MEM/dev1/APP regressed: 1.9 GiB → 19.4 GiB (+17.4 GiB, +900%)',
    );
    expect(failed.errors).toHaveLength(2);

    let comments = fake.comments(PR);
    expect(comments).toHaveLength(122);
    // GITHUB_TOKEN cannot read GET /user (403, as on GitHub): only Bot-authored marked comments are ours
    expect(fake.requests({ route: 'users.getAuthenticated' }).map((q) => q.status)).toEqual([403]);
    const sticky = comments.filter((c) => c.body.includes(MARKER) && c.id !== pasted.id);
    expect(sticky).toHaveLength(1);
    expect(sticky[0]!.user.type).toBe('Bot');
    expect(sticky[0]!.body.startsWith(MARKER)).toBe(true);
    expect(sticky[0]!.body).toContain('DEV_MEM/dev1/APP');
    expect(sticky[0]!.body).toContain(`https://github.com/${REPO}/actions/runs/${DEFAULT_RUN_ID}`);
    expect(fake.writes().map((w) => w.route)).toEqual(['issues.createComment']);

    // The fix: same PR, healthy plog. The comment on page 2 is found and updated in place.
    fake.clearLog();
    rmSync(join(dirs.workspace, 'plog'), { recursive: true });
    cpSync(join(ROOT, 'examples', 'plog'), join(dirs.workspace, 'plog'), { recursive: true });
    const fixed = await runAction({
      dirs,
      inputs,
      event: 'pull_request',
      payload: prPayload(PR, 'b'.repeat(40), baseOf(dirs)),
    });
    expect(fixed.code, why(fixed)).toBe(0);
    expect(fixed.outputs).toMatchObject({ result: 'pass', regressions: '0' });
    expect(fixed.errors).toEqual([]);
    expect(fake.requests({ route: 'issues.listComments' }).map((r) => r.query.page ?? '1')).toEqual(['1', '2']);
    expect(fake.writes().map((w) => w.route)).toEqual(['issues.updateComment']);
    comments = fake.comments(PR);
    expect(comments).toHaveLength(122);
    const updated = comments.filter((c) => c.body.includes(MARKER) && c.id !== pasted.id);
    expect(updated.map((c) => c.id)).toEqual([sticky[0]!.id]);
    expect(fake.state.comments.find((c) => c.id === pasted.id)?.body).toBe(pasted.body);
    expect(updated[0]!.body).toContain('Memory gate passed');
    expect(updated[0]!.body).not.toMatch(/regressed/);
  });

  it('with a personal access token the sticky comment is the one that user wrote (GET /user), never a pasted copy', async () => {
    const PR = 48;
    const pat = 'ghp_fake_personal_token';
    fake.state.users.set(pat, { login: 'perf-ci', id: 4242, type: 'User' });
    const pasted = fake.addComment({
      issueNumber: PR,
      body: `${MARKER}\nfake verdict`,
      user: { login: 'mallory', type: 'User', id: 666 },
    });
    const ours = fake.addComment({
      issueNumber: PR,
      body: `${MARKER}\nold verdict`,
      user: { login: 'perf-ci', type: 'User', id: 4242 },
    });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...rankPlogs(BASE_MODULES, RANKS),
    });
    fake.clearLog();
    const r = await runAction({
      dirs,
      inputs: { plog: '.', 'github-token': pat },
      event: 'pull_request',
      payload: prPayload(PR, '1'.repeat(40), baseOf(dirs)),
    });
    expect(r.code, why(r)).toBe(0);
    expect(fake.writes().map((w) => `${w.route} ${w.path.split('/').pop()}`)).toEqual([
      `issues.updateComment ${ours.id}`,
    ]);
    expect(fake.state.comments.find((c) => c.id === pasted.id)?.body).toBe(pasted.body);
    expect(fake.state.comments.find((c) => c.id === ours.id)?.body).toContain('Memory gate passed');
  });

  it('15 failing keys over 4 generated ranks: at most 10 error annotations, one of them summarizing the rest', async () => {
    const dirs = newRunDirs();
    const keys = Object.keys(BASE_MODULES);
    expect(keys).toHaveLength(16);
    // all but DEV_MEM/dev3/GE double
    const run = Object.fromEntries(
      keys.map((k) => [k, k === 'DEV_MEM/dev3/GE' ? BASE_MODULES[k]! : { peak: BASE_MODULES[k]!.peak * 2 }]),
    );
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...rankPlogs(run, RANKS),
    });
    fake.clearLog();
    const r = await runAction({
      dirs,
      inputs: { plog: 'rank_*', comment: 'never' },
      event: 'pull_request',
      payload: prPayload(43, 'c'.repeat(40), baseOf(dirs)),
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.outputs).toMatchObject({ result: 'fail', regressions: '15' });
    expect(r.errors.length).toBeLessThanOrEqual(10);
    const perKey = r.errors.filter((e) => e.props.title?.startsWith('Memory gate: DEV_MEM/'));
    expect(perKey.length).toBeGreaterThanOrEqual(5);
    expect(new Set(perKey.map((e) => e.props.title)).size).toBe(perKey.length);
    const summarizing = r.errors.filter((e) => /more failing key/.test(e.message));
    expect(summarizing).toHaveLength(1);
    expect(summarizing[0]!.message).toContain(`${15 - perKey.length} more failing key(s)`);
    // the job's one-line reason is an annotation too, and must not be the one GitHub drops
    expect(r.errors.at(-1)?.message).toMatch(
      /^Memory gate failed: DEV_MEM\/dev\d\/\w+ regressed: .* and 14 more failing$/,
    );
    // every key of every rank is in the summary (the annotations are capped, the summary is not): one row per module
    // across devices, and each device in the list under it
    for (const k of keys.filter((k) => k !== 'DEV_MEM/dev3/GE')) {
      const [attribute, device, module] = k.split('/');
      const list = r.summary.slice(r.summary.indexOf(`<summary><code>${attribute}/*/${module}</code> regressed`));
      expect(list.slice(0, list.indexOf('</details>'))).toContain(`| \`${device}\` |`);
    }
    expect(fake.writes()).toEqual([]);
  });

  it('fail-job: false — a regression is reported (output result=fail, warning) and the job stays green', async () => {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...rankPlogs(
        { ...BASE_MODULES, 'DEV_MEM/dev2/HCCL': { peak: BASE_MODULES['DEV_MEM/dev2/HCCL']!.peak * 3 } },
        RANKS,
      ),
    });
    const r = await runAction({ dirs, inputs: { plog: '.', 'fail-job': 'false' }, event: 'push' });
    expect(r.code, why(r)).toBe(0);
    expect(r.outputs).toMatchObject({ result: 'fail', regressions: '1' });
    expect(r.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^Memory gate failed: DEV_MEM\/dev2\/HCCL regressed: .*advisory only/),
    );
    // the per-key annotation still shows; only the job's failure is gone
    expect(r.errors.map((e) => e.props.title)).toEqual(['Memory gate: DEV_MEM/dev2/HCCL regressed']);
    expect(r.summary).toContain('DEV_MEM/dev2/HCCL');
  });

  it('junit-report: the JUnit file lands in the workspace, with the same verdict, valid against the schemas GitLab and Jenkins read', async () => {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...rankPlogs(
        { ...BASE_MODULES, 'DEV_MEM/dev2/HCCL': { peak: BASE_MODULES['DEV_MEM/dev2/HCCL']!.peak * 3 } },
        RANKS,
      ),
    });
    const r = await runAction({
      dirs,
      inputs: { plog: '.', 'junit-report': 'reports/memory-gate.junit.xml' },
      event: 'push',
      env: { SOURCE_DATE_EPOCH: '1796169600' },
    });
    expect(r.code, why(r)).toBe(1);
    const file = join(dirs.workspace, 'reports', 'memory-gate.junit.xml');
    expect(r.stdout).toContain(`Wrote the JUnit report to ${file}`);
    const xml = readFileSync(file, 'utf8');
    expect(
      [...xml.matchAll(/<testsuite name="([^"]+)"[^>]* failures="(\d+)"[^>]* timestamp="([^"]+)"/g)].map(
        (m) => `${m[1]} ${m[2]} ${m[3]}`,
      ),
    ).toEqual(['Memory gate 1 2026-12-02T00:00:00', 'Modules 1 2026-12-02T00:00:00']);
    expect(xml).toContain(
      `<failure message="${r.errors.find((e) => e.props.title === 'Memory gate: DEV_MEM/dev2/HCCL regressed')!.message}" type="regressed">`,
    );
    expect(await schemaErrors(xml)).toEqual([]);
  });

  it('a run with no memory statistics fails loudly, never passes', async () => {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      'plog/rank_0/plog-1_20240708.log': `${NOISE.join('\n')}\n`,
      'plog/rank_1/plog-2_20240708.log': `${NOISE.join('\n')}\n`,
    });
    const r = await runAction({
      dirs,
      inputs: { plog: 'plog' },
      event: 'pull_request',
      payload: prPayload(44, 'd'.repeat(40), baseOf(dirs)),
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.errors.at(-1)?.message).toMatch(/no memory statistics found in 2 plog file\(s\)/);
    expect(r.outputs.result).toBeUndefined();
    expect(fake.comments(44)).toEqual([]);
  });

  it('a corrupt baseline fails the job with the JSON pointer of the bad field', async () => {
    const dirs = newRunDirs();
    const corrupt = JSON.parse(baselineJson(BASE_MODULES)) as {
      sections: { modules: Record<string, { peak: unknown }> };
    };
    corrupt.sections.modules['DEV_MEM/dev0/APP']!.peak = '64MiB';
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': JSON.stringify(corrupt),
      ...rankPlogs(BASE_MODULES, RANKS),
    });
    const r = await runAction({ dirs, inputs: { plog: '.' }, event: 'push' });
    expect(r.code, why(r)).toBe(1);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toContain('baselines/memory-baseline.json');
    expect(r.errors[0]!.message).toContain('/sections/modules/DEV_MEM~1dev0~1APP/peak');
    expect(r.outputs.result).toBeUndefined();
  });
});

// ───────────────────────────── 2. artifacts: cross-run (REST) and same-run (Twirp) ─────────────────────────────

describe('artifacts', () => {
  it('cross-run by run-id: REST list + 302 + blob; plog-rank-* matches 4 rank artifacts, merged into one report', async () => {
    const RUN = 5150;
    const plogs = rankPlogs(BASE_MODULES, RANKS);
    const ids = RANKS.map((r) => {
      const file = Object.keys(plogs).find((k) => k.startsWith(`rank_${r}/`))!;
      return fake.addArtifact({
        name: `plog-rank-${r}`,
        runId: RUN,
        files: { [file.slice('rank_0/'.length)]: plogs[file]! },
        zipOptions: { dataDescriptor: r % 2 === 1 },
      }).id;
    });
    const unrelated = fake.addArtifact({ name: 'checkpoints', runId: RUN, files: { 'ckpt.bin': 'x' } });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, { 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) });
    fake.clearLog();
    const r = await runAction({ dirs, inputs: { artifacts: 'plog-rank-*', 'run-id': String(RUN) }, event: 'push' });
    expect(r.code, why(r)).toBe(0);
    expect(r.outputs).toMatchObject({ result: 'pass', regressions: '0' });
    const report = readReport(r);
    for (const rank of RANKS) {
      for (const m of ['APP', 'HCCL', 'RUNTIME', 'GE']) {
        expect(
          report.entries.find((e) => e.key === `DEV_MEM/dev${rank}/${m}`),
          `rank ${rank} ${m}`,
        ).toMatchObject({
          status: 'pass',
          current: BASE_MODULES[`DEV_MEM/dev${rank}/${m}`]!.peak,
        });
      }
    }
    expect(report.entries).toHaveLength(16);
    // REST, with the token; every matched artifact downloaded once through the 302; the unrelated one never
    expect(fake.requests({ path: /^\/twirp\// })).toEqual([]);
    expect(fake.requests({ route: 'actions.listWorkflowRunArtifacts' }).length).toBeGreaterThanOrEqual(1);
    expect(fake.requests({ route: 'actions.listWorkflowRunArtifacts' }).every((q) => q.authScheme === 'token')).toBe(
      true,
    );
    const downloads = fake.requests({ route: 'actions.downloadArtifact' });
    expect(downloads.map((q) => q.status)).toEqual([302, 302, 302, 302]);
    expect(downloads.map((q) => Number(q.path.split('/')[6])).sort()).toEqual([...ids].sort());
    expect(downloads.some((q) => q.path.includes(`/${unrelated.id}/`))).toBe(false);
    expect(fake.requests({ route: 'blob' }).map((q) => q.hasAuth)).toEqual([false, false, false, false]);
    expect(fake.writes()).toEqual([]);
    // the staging zips are cleaned up; the extracted artifacts stay in RUNNER_TEMP
    const extracted = join(dirs.runnerTemp, 'ascend-memory-gate', 'artifacts');
    expect(readdirSync(extracted).sort()).toEqual(['plog-rank-0', 'plog-rank-1', 'plog-rank-2', 'plog-rank-3']);
    expect(readdirSync(dirs.workspace)).toEqual(['baselines']);
  });

  it('same run (no run-id): Twirp ListArtifacts + signed URL; no REST, no token needed for the blob', async () => {
    const RUN = 6160;
    const plogs = rankPlogs(BASE_MODULES, [0, 1]);
    for (const r of [0, 1]) {
      const file = Object.keys(plogs).find((k) => k.startsWith(`rank_${r}/`))!;
      fake.addArtifact({ name: `plog-rank-${r}`, runId: RUN, files: { [file]: plogs[file]! } });
    }
    // an artifact of another run with a matching name must not leak in
    fake.addArtifact({
      name: 'plog-rank-2',
      runId: RUN + 1,
      files: { 'rank_2/x.log': plogFile(9, { 'DEV_MEM/dev2/APP': { peak: 1 } }) },
    });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, { 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) });
    fake.clearLog();
    // history: false, so that nothing but the artifacts goes to GitHub (the history is read through REST).
    const r = await runAction({
      dirs,
      inputs: { artifacts: 'plog-rank-*', plog: '.', history: 'false' },
      event: 'push',
      runId: RUN,
    });
    expect(r.code, why(r)).toBe(0);
    const report = readReport(r);
    expect(
      report.entries
        .filter((e) => e.status === 'pass')
        .map((e) => e.key)
        .sort(),
    ).toEqual(
      Object.keys(BASE_MODULES)
        .filter((k) => /\/dev[01]\//.test(k))
        .sort(),
    );
    // ranks 2 and 3 did not upload: their keys are missing (a warning), not passed
    expect(report.entries.filter((e) => e.status === 'missing')).toHaveLength(8);
    expect(fake.requests({ route: 'twirp.ListArtifacts' }).length).toBeGreaterThanOrEqual(1);
    expect(fake.requests({ route: 'twirp.GetSignedArtifactURL' })).toHaveLength(2);
    expect(fake.requests({ route: 'twirp.ListArtifacts' }).every((q) => q.authScheme === 'Bearer')).toBe(true);
    expect(fake.requests({ path: /^\/repos\// })).toEqual([]);
    expect(fake.requests({ route: 'blob' }).map((q) => q.hasAuth)).toEqual([false, false]);
  });

  it('two artifacts whose names clean to one folder (plog:rank, plog_rank) are kept apart, both parsed', async () => {
    const RUN = 6170;
    const plogs = rankPlogs(BASE_MODULES, [0, 1]);
    fake.addArtifact({
      name: 'plog:rank',
      runId: RUN,
      files: Object.fromEntries(Object.entries(plogs).filter(([k]) => k.startsWith('rank_0/'))),
    });
    const second = fake.addArtifact({
      name: 'plog_rank',
      runId: RUN,
      files: Object.fromEntries(Object.entries(plogs).filter(([k]) => k.startsWith('rank_1/'))),
    });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, { 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) });
    const r = await runAction({ dirs, inputs: { artifacts: 'plog?rank' }, event: 'push', runId: RUN });
    expect(r.code, why(r)).toBe(0);
    const passed = readReport(r)
      .entries.filter((e) => e.status === 'pass')
      .map((e) => e.key);
    expect(passed.filter((k) => k.includes('/dev0/'))).toHaveLength(4);
    expect(passed.filter((k) => k.includes('/dev1/'))).toHaveLength(4);
    const extracted = join(dirs.runnerTemp, 'ascend-memory-gate', 'artifacts');
    // Sorted by name, `plog:rank` comes first and takes the folder; the second gets its id.
    expect(readdirSync(extracted).sort()).toEqual(['plog_rank', `plog_rank-${second.id}`]);
  });

  it('no artifact matches: the job fails and lists what the run has', async () => {
    fake.addArtifact({ name: 'logs', runId: 6262, files: { 'a.txt': 'a' } });
    const r = await runAction({ inputs: { artifacts: 'plog-rank-*' }, event: 'push', runId: 6262 });
    expect(r.code, why(r)).toBe(1);
    expect(r.errors.at(-1)?.message).toMatch(/no artifact of this run matches 'plog-rank-\*'; it has: logs/);
  });
});

// ───────────────────────────── 3. update mode ─────────────────────────────

describe('update mode', () => {
  /** The committed baseline: dev0/APP (the run changes it), dev0/HCCL (unchanged), dev9/HCCL and a kernel (absent from the run). */
  const OLD = {
    'DEV_MEM/dev0/APP': { peak: 100 * MiB },
    'DEV_MEM/dev0/HCCL': { peak: 50 * MiB },
    'DEV_MEM/dev9/HCCL': { peak: 70 * MiB },
  };
  const OLD_KERNELS = { 'dev9/aclnnMatmul_0': { diff: 4096, rows: 2, added: 0, removed: 0, event: 'KERNEL_LAUNCH' } };
  /** What the run's two ranks report. */
  const RUN_MODULES = {
    'DEV_MEM/dev0/APP': { peak: 120 * MiB, current: 10 * MiB },
    'DEV_MEM/dev0/HCCL': { peak: 50 * MiB },
    'DEV_MEM/dev1/APP': { peak: 90 * MiB, current: 5 * MiB },
  };
  const BASELINE = 'baselines/memory-baseline.json';

  function expectedModules(prune: boolean): Record<string, unknown> {
    const run = JSON.parse(baselineJson(RUN_MODULES)).sections.modules! as Record<string, unknown>;
    const old = JSON.parse(baselineJson(OLD)).sections.modules! as Record<string, unknown>;
    return prune ? run : { ...old, ...run };
  }

  function seedRun(runId: number): void {
    const plogs = rankPlogs(RUN_MODULES, [0, 1]);
    for (const r of [0, 1]) {
      const file = Object.keys(plogs).find((k) => k.startsWith(`rank_${r}/`))!;
      fake.addArtifact({ name: `plog-rank-${r}`, runId, files: { [file]: plogs[file]! } });
    }
  }

  function seedBranch(branch: string): string {
    return fake.commitFiles({
      branch,
      files: { [BASELINE]: baselineJson(OLD, OLD_KERNELS), 'README.md': '# models\n' },
      message: 'seed',
      parent: null,
    });
  }

  const dispatch = { inputs: { 'run-id': '' }, ref: 'refs/heads/main' };

  it('workflow_dispatch + pull-request: one stable branch per baseline file, commit, labelled PR with the changes table; a later run updates it', async () => {
    const RUN = 7001;
    seedRun(RUN);
    const head = seedBranch('main');
    fake.clearLog();
    const inputs = { mode: 'update', 'run-id': String(RUN), artifacts: 'plog-rank-*', baseline: BASELINE };
    const r = await runAction({ inputs, event: 'workflow_dispatch', payload: dispatch, refName: 'main' });
    expect(r.code, why(r)).toBe(0);

    const branch = 'memory-gate/baseline-update/main/baselines-memory-baseline.json';
    const tip = fake.getRef(branch);
    expect(tip).toBeDefined();
    const commit = fake.getObject(tip!);
    expect(commit?.type === 'commit' && commit.parents).toEqual([head]);
    expect(commit?.type === 'commit' && commit.message).toBe(`Update memory baseline from run ${RUN}`);
    // the base branch did not move; only the baseline changed on the new branch
    expect(fake.getRef('main')).toBe(head);
    const files = fake.listFiles(branch);
    expect(Object.keys(files).sort()).toEqual(['README.md', BASELINE]);

    const text = files[BASELINE]!;
    const written = JSON.parse(text) as {
      version: number;
      sections: { modules?: unknown; kernels?: unknown };
      source: Record<string, unknown>;
      meta: unknown;
    };
    expect(text).toBe(stable(written));
    expect(written.version).toBe(2);
    expect(written.sections.modules).toEqual(expectedModules(false));
    expect(written.sections.kernels).toEqual(OLD_KERNELS); // absent from the run: kept
    // Provenance names the source run's head commit, read from the REST API, not the dispatch commit.
    expect(written.source).toMatchObject({ runId: RUN, repository: REPO, commit: runHeadSha(RUN) });
    expect(Number.isNaN(Date.parse(String(written.source.date)))).toBe(false);

    const pulls = fake.state.pulls.filter((p) => p.headRef === branch);
    expect(pulls).toHaveLength(1);
    const pr = pulls[0]!;
    expect(pr).toMatchObject({ baseRef: 'main', state: 'open', title: `Update memory baseline from run ${RUN}` });
    expect(pr.body).toContain('| change | key | before | after | Δ |');
    expect(pr.body).toMatch(/\| changed \| `DEV_MEM\/dev0\/APP` \| 100\.0 MiB \| 120\.0 MiB \| \+20\.0 MiB \|/);
    expect(pr.body).toContain('| added | `DEV_MEM/dev1/APP` |');
    expect(pr.body).toContain('| kept | `DEV_MEM/dev9/HCCL` |');
    expect(pr.body).toContain('| kept | `dev9/aclnnMatmul_0` |');
    expect(pr.body).not.toContain('`DEV_MEM/dev0/HCCL`'); // unchanged keys are counted, not listed
    expect(pr.body).toContain('GITHUB_TOKEN');
    expect(pr.body).toMatch(/do not trigger `pull_request` workflows/);
    expect(r.outputs['baseline-pull-request']).toBe(`https://github.com/${REPO}/pull/${pr.number}`);
    expect(r.summary).toContain('### Memory baseline update');
    expect(pr.labels).toEqual(['memory-baseline-update']);
    expect(fake.writes().map((w) => w.route)).toEqual([
      'git.createBlob',
      'git.createTree',
      'git.createCommit',
      'git.createRef',
      'pulls.create',
      'issues.addLabels',
    ]);

    // Re-running the job: the branch exists (422) and is ours, so it is moved; the open PR is updated, not duplicated.
    fake.clearLog();
    const again = await runAction({ inputs, event: 'workflow_dispatch', payload: dispatch, refName: 'main' });
    expect(again.code, why(again)).toBe(0);
    expect(fake.state.pulls.filter((p) => p.headRef === branch)).toHaveLength(1);
    expect(fake.writes().map((w) => `${w.route} ${w.status}`)).toEqual([
      'git.createBlob 201',
      'git.createTree 201',
      'git.createCommit 201',
      'git.createRef 422',
      'git.updateRef 200',
      'pulls.update 200',
      'issues.addLabels 200',
    ]);
    expect(again.outputs['baseline-pull-request']).toBe(r.outputs['baseline-pull-request']);
    expect(JSON.parse(fake.readFile(branch, BASELINE)!).sections.modules ?? {}).toEqual(expectedModules(false));
  });

  it('prune: true drops the keys this run did not produce', async () => {
    const RUN = 7002;
    seedRun(RUN);
    const head = seedBranch('prune-base');
    const r = await runAction({
      inputs: { mode: 'update', 'run-id': String(RUN), artifacts: 'plog-rank-*', baseline: BASELINE, prune: 'true' },
      event: 'workflow_dispatch',
      payload: dispatch,
      refName: 'prune-base',
    });
    expect(r.code, why(r)).toBe(0);
    const written = JSON.parse(
      fake.readFile('memory-gate/baseline-update/prune-base/baselines-memory-baseline.json', BASELINE)!,
    ) as {
      sections: { modules?: unknown; kernels?: unknown };
    };
    expect(written.sections.modules).toEqual(expectedModules(true));
    expect(written.sections.kernels).toBeUndefined();
    expect(fake.getRef('prune-base')).toBe(head);
    const pr = fake.state.pulls.find(
      (p) => p.headRef === 'memory-gate/baseline-update/prune-base/baselines-memory-baseline.json',
    );
    expect(pr?.baseRef).toBe('prune-base');
    expect(pr?.body).toContain('| pruned | `DEV_MEM/dev9/HCCL` |');
  });

  it.each(['pull_request', 'pull_request_target', 'issue_comment', 'workflow_run', 'pull_request_review'])(
    'the same inputs on %s are refused with one line and write nothing',
    async (event) => {
      const RUN = 7003;
      seedRun(RUN);
      fake.clearLog();
      const r = await runAction({
        inputs: { mode: 'update', 'run-id': String(RUN), artifacts: 'plog-rank-*', baseline: BASELINE },
        event,
        payload: prPayload(45, 'e'.repeat(40), '0'.repeat(40)),
      });
      expect(r.code, why(r)).toBe(1);
      expect(r.errors.map((e) => e.message)).toEqual([
        `mode 'update' is refused on '${event}' events (it runs on workflow_dispatch, schedule, push): a pull request or a comment must not rewrite the baseline. Run it from workflow_dispatch, or list the event in 'allow-update-on' (see docs/security-model.md of ascend-memory-gate)`,
      ]);
      expect(fake.writes()).toEqual([]);
      expect(fake.requests()).toEqual([]);
    },
  );

  it('update-strategy: commit fast-forwards the dispatch branch to a commit holding the merged baseline (./path accepted)', async () => {
    const RUN = 7004;
    seedRun(RUN);
    const head = seedBranch('release');
    const before = fake.state.pulls.length;
    fake.clearLog();
    const r = await runAction({
      inputs: {
        mode: 'update',
        'run-id': String(RUN),
        artifacts: 'plog-rank-*',
        baseline: `./${BASELINE}`,
        'update-strategy': 'commit',
      },
      event: 'workflow_dispatch',
      payload: dispatch,
      refName: 'release',
    });
    expect(r.code, why(r)).toBe(0);
    const tip = fake.getRef('release')!;
    expect(tip).not.toBe(head);
    const commit = fake.getObject(tip);
    expect(commit?.type === 'commit' && commit.parents).toEqual([head]);
    expect(JSON.parse(fake.readFile('release', BASELINE)!).sections.modules ?? {}).toEqual(expectedModules(false));
    expect(fake.readFile('release', 'README.md')).toBe('# models\n');
    expect(fake.state.pulls.length).toBe(before);
    expect(fake.getRef('memory-gate/baseline-update/release/baselines-memory-baseline.json')).toBeUndefined();
    const update = fake.requests({ route: 'git.updateRef' });
    expect(update).toHaveLength(1);
    expect((update[0]!.body as { force?: boolean }).force).toBe(false);
  });

  it('pull-request without a token is a usage error before anything is downloaded', async () => {
    fake.clearLog();
    const r = await runAction({
      inputs: { mode: 'update', 'run-id': '7005', artifacts: 'plog-rank-*', baseline: BASELINE, 'github-token': '' },
      event: 'workflow_dispatch',
      payload: dispatch,
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.errors.map((e) => e.message)).toEqual(["'github-token' is required for update-strategy pull-request"]);
    expect(fake.requests()).toEqual([]);
  });

  it('update-strategy: write only writes the local file (no GitHub writes, no token needed)', async () => {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, { [BASELINE]: baselineJson(OLD, OLD_KERNELS), ...rankPlogs(RUN_MODULES, [0, 1]) });
    fake.clearLog();
    const r = await runAction({
      dirs,
      inputs: {
        mode: 'update',
        plog: 'rank_*',
        baseline: BASELINE,
        'update-strategy': 'write',
        'github-token': '',
        'junit-report': 'memory-gate.junit.xml',
      },
      event: 'workflow_dispatch',
      payload: dispatch,
    });
    expect(r.code, why(r)).toBe(0);
    expect(r.warnings.map((w) => w.message)).toContain(
      "'junit-report' is ignored in mode 'update': there is no gate verdict to show",
    );
    expect(existsSync(join(dirs.workspace, 'memory-gate.junit.xml'))).toBe(false);
    const text = readFileSync(join(dirs.workspace, BASELINE), 'utf8');
    const written = JSON.parse(text) as {
      sections: { modules?: unknown; kernels?: unknown };
      source: Record<string, unknown>;
    };
    expect(text).toBe(stable(written));
    expect(written.sections.modules).toEqual(expectedModules(false));
    expect(written.sections.kernels).toEqual(OLD_KERNELS);
    expect(written.source).toMatchObject({ runId: DEFAULT_RUN_ID, repository: REPO });
    expect(fake.requests()).toEqual([]);
    // only the baseline was touched (no temp file left next to it)
    expect(readdirSync(join(dirs.workspace, 'baselines'))).toEqual(['memory-baseline.json']);
  });
});

// ───────────────────────────── 4. comment mode (workflow_run) ─────────────────────────────

describe('comment mode (workflow_run, fork-safe)', () => {
  const HOSTILE_KEYS = [
    'DEV_MEM/dev0/a|b||c',
    'dev0/``tick`` `x`',
    'dev1/<img src=x onerror=alert(1)>',
    'dev1/@org/team please look',
    '`|<img src=x onerror=alert(1)>|@org/team`',
  ];

  /** A rule whose glob is the last hostile key itself: it matches that key, and its text must be shown escaped too. */
  const HOSTILE_RULE = HOSTILE_KEYS[4]!;

  function hostileReport(): string {
    const current = (i: number): number => (i === 0 ? 1024 + 8 * MiB : 2048 * (i + 1));
    const entries = HOSTILE_KEYS.map((key, i) => ({
      kind: i === 0 ? 'module' : 'kernel',
      key,
      baseline: 1024,
      current: current(i),
      delta: current(i) - 1024,
      percent: ((current(i) - 1024) / 1024) * 100,
      status: 'regressed',
      severity: 'fail',
      rule: i === 4 ? HOSTILE_RULE : null,
    }));
    const counts = {
      regressed: entries.length,
      'over-budget': 0,
      new: 0,
      missing: 0,
      improved: 0,
      ignored: 0,
      pass: 0,
    };
    return JSON.stringify({ result: 'fail', counts, entries });
  }

  function workflowRunPayload(id: number, headSha: string): unknown {
    return {
      action: 'completed',
      workflow_run: { id, head_sha: headSha, event: 'pull_request', conclusion: 'failure', pull_requests: [] },
      repository: { full_name: REPO },
    };
  }

  /** The fork PR's base branch: a baseline holding the hostile keys at 1024 bytes, and a config with the hostile rule. */
  function hostileBase(branch: string): string {
    const kernels = Object.fromEntries(
      HOSTILE_KEYS.slice(1).map((key) => [key, { diff: 1024, rows: 1, added: 0, removed: 0, event: null }]),
    );
    const modules = { [HOSTILE_KEYS[0]!]: { peak: 1024, current: 1024, allocs: 3, frees: 1 } };
    return fake.commitFiles({
      branch,
      parent: null,
      message: `base of ${branch}`,
      files: {
        'baselines/memory-baseline.json': JSON.stringify({ version: 2, sections: { modules, kernels } }),
        '.github/memory-gate.json': JSON.stringify({
          kernels: { rules: [{ match: HOSTILE_RULE, tolerance: { bytes: 0 } }] },
        }),
      },
    });
  }

  it('renders a hostile report escaped, on the fork PR found by head SHA; markdown from the artifact is never posted', async () => {
    const RUN = 9001;
    const headSha = '9'.repeat(40);
    hostileBase('hostile-base');
    const pr = fake.addPull({ number: 77, headRef: 'patch-1', headOwner: 'forker', headSha, baseRef: 'hostile-base' });
    fake.addArtifact({
      name: 'memory-gate-report',
      runId: RUN,
      files: {
        'report.json': hostileReport(),
        'report.md': 'UNTRUSTED-MARKDOWN <img src=x onerror=alert(2)> @org/admins',
      },
    });
    fake.clearLog();
    const r = await runAction({
      inputs: { mode: 'comment' },
      event: 'workflow_run',
      payload: workflowRunPayload(RUN, headSha),
      runId: 9100,
    });
    expect(r.code, why(r)).toBe(0); // the comment job reports, it does not fail on the PR's verdict
    expect(r.errors).toEqual([]); // nor annotate this job with the PR run's failures
    expect(r.outputs).toMatchObject({ result: 'fail', regressions: String(HOSTILE_KEYS.length) });
    expect(fake.requests({ route: 'repos.listPullRequestsAssociatedWithCommit' })[0]?.path).toContain(headSha);

    const comments = fake.comments(pr.number);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body.startsWith(MARKER)).toBe(true);
    expect(body).not.toContain('UNTRUSTED-MARKDOWN');
    // the link goes to the pull_request run that produced the report, not to this workflow_run job
    expect(body).toContain(`(https://github.com/${REPO}/actions/runs/${RUN})`);

    // Outside code spans: no HTML tag from a key, no mention; inside them the text is literal (GitHub renders it as code).
    const outside = textOutsideCode(body);
    expect(outside).not.toMatch(/<img/i);
    expect(outside).not.toMatch(/@org/);
    expect(outside).not.toMatch(/onerror/);

    // Every key is one table row of exactly 4 cells (no `|` of a key splits the row), whose key cell is code spans
    // (one per segment of a long key, joined by <wbr>) holding exactly the key, and nothing else but reference marks.
    const rows = body.split('\n').filter((l) => l.startsWith('| '));
    const onlyCode = (cell: string): boolean =>
      codeSpans(cell)
        .outside.replace(/<wbr>|\u00a0[⁰¹²³⁴⁵⁶⁷⁸⁹˒]+$/g, '')
        .trim() === '';
    for (const key of HOSTILE_KEYS) {
      const row = rows.find((l) => {
        const cells = tableCells(l);
        return cells[1] !== undefined && codeSpans(cells[1]).spans.join('') === key && onlyCode(cells[1]);
      });
      expect(row, `row of ${JSON.stringify(key)}\n${body}`).toBeDefined();
      expect(tableCells(row!)).toHaveLength(4);
      // each `|` of the key appears escaped in the raw row
      const pipes = key.split('|').length - 1;
      expect(row!.split('\\|').length - 1).toBeGreaterThanOrEqual(pipes);
    }
    // the rule, explained under the table, is one code span holding exactly the rule
    const ruleLine = body.split('\n').find((l) => l.startsWith('1. Held to the rule '))!;
    expect(codeSpans(ruleLine).spans).toEqual([HOSTILE_RULE]);
    // every verdict of the report follows from the trusted limits: nothing is marked
    expect(body).not.toContain('⛔');
    // the same escaped rendering goes to the job summary
    expect(textOutsideCode(r.summary)).not.toMatch(/<img|@org/);
  });

  it('a report that fails the schema is refused with its JSON pointer, and no comment is posted', async () => {
    const RUN = 9002;
    const headSha = '8'.repeat(40);
    const pr = fake.addPull({ number: 78, headRef: 'patch-2', headOwner: 'forker', headSha });
    const bad = JSON.parse(hostileReport()) as { entries: Record<string, unknown>[] };
    bad.entries[2]!.status = '<script>';
    fake.addArtifact({ name: 'memory-gate-report', runId: RUN, files: { 'out/report.json': JSON.stringify(bad) } });
    fake.clearLog();
    const r = await runAction({
      inputs: { mode: 'comment' },
      event: 'workflow_run',
      payload: workflowRunPayload(RUN, headSha),
      runId: 9101,
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toContain('memory-gate-report/out/report.json');
    expect(r.errors[0]!.message).toContain('/entries/2/status');
    expect(fake.comments(pr.number)).toEqual([]);
    expect(fake.writes()).toEqual([]);
    expect(r.summary).toBe('');
  });

  it('a base commit the token cannot read is one error saying it is the base commit and why it is read; nothing is posted', async () => {
    const RUN = 9003;
    const headSha = '7'.repeat(40);
    const baseSha = hostileBase('unreadable-base');
    const pr = fake.addPull({
      number: 79,
      headRef: 'patch-3',
      headOwner: 'forker',
      headSha,
      baseRef: 'unreadable-base',
    });
    fake.addArtifact({ name: 'memory-gate-report', runId: RUN, files: { 'report.json': hostileReport() } });
    fake.forceResponse({
      method: 'GET',
      path: `/repos/${REPO}/git/commits/${baseSha}`,
      status: 404,
      body: { message: 'Not Found' },
      times: 1,
    });
    fake.clearLog();
    const r = await runAction({
      inputs: { mode: 'comment' },
      event: 'workflow_run',
      payload: workflowRunPayload(RUN, headSha),
      runId: 9102,
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.errors.map((e) => e.message)).toEqual([
      `cannot read the pull request's base commit ${baseSha.slice(0, 12)}, whose baseline and config gate it (a pull request's own limits count only with the maintainers' label): ` +
        `404 reading commit ${baseSha.slice(0, 12)}: not found, or the token cannot see it (it needs \`contents: read\`) (GitHub said: Not Found)`,
    ]);
    expect(fake.comments(pr.number)).toEqual([]);
    expect(fake.writes()).toEqual([]);
  });
});

// ───────────────────────────── 5. a comment that cannot be posted ─────────────────────────────

describe('comment failures never change the verdict', () => {
  const forbidden = () =>
    fake.forceResponse({
      method: 'POST',
      path: /\/issues\/\d+\/comments$/,
      status: 403,
      body: {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest',
        status: '403',
      },
      times: 1,
    });

  function workspaceWith(modules: Record<string, ModuleValue>): RunDirs {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      // one key fewer than the baseline: a warning, so on-change posts a comment
      ...rankPlogs(Object.fromEntries(Object.entries(modules).filter(([k]) => k !== 'DEV_MEM/dev3/GE')), RANKS),
    });
    return dirs;
  }

  it('403 on create: a warning, the summary is written, a passing run still exits 0', async () => {
    forbidden();
    const dirs = workspaceWith(BASE_MODULES);
    const r = await runAction({
      dirs,
      inputs: { plog: '.' },
      event: 'pull_request',
      payload: prPayload(46, 'f'.repeat(40), baseOf(dirs)),
    });
    expect(r.code, why(r)).toBe(0);
    expect(r.outputs.result).toBe('pass');
    expect(r.warnings.map((w) => w.message)).toContainEqual(
      'Could not post the PR comment: 403 commenting on #46: the token needs `pull-requests: write` (GitHub said: Resource not accessible by integration); a pull request from a fork gets a read-only token: use mode: comment in a workflow_run job (see docs/security-model.md of ascend-memory-gate)',
    );
    expect(r.summary).toContain('Memory gate passed');
    expect(r.errors).toEqual([]);
    expect(fake.comments(46)).toEqual([]);
  });

  it('403 on create: a failing run still exits 1 with its reason', async () => {
    forbidden();
    const grown = { ...BASE_MODULES, 'DEV_MEM/dev1/APP': { peak: BASE_MODULES['DEV_MEM/dev1/APP']!.peak * 4 } };
    const dirs = workspaceWith(grown);
    const r = await runAction({
      dirs,
      inputs: { plog: '.' },
      event: 'pull_request',
      payload: prPayload(47, 'f'.repeat(40), baseOf(dirs)),
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.outputs).toMatchObject({ result: 'fail', regressions: '1' });
    expect(r.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^Could not post the PR comment: 403 commenting on #47: /),
    );
    expect(r.summary).toContain('DEV_MEM/dev1/APP');
    expect(r.errors.at(-1)?.message).toMatch(/^Memory gate failed: DEV_MEM\/dev1\/APP regressed: /);
    expect(fake.comments(47)).toEqual([]);
  });
});

// ───────────────────────────── 6. zip-slip ─────────────────────────────

describe('artifact extraction', () => {
  it('entries with ../ and absolute names write nothing outside the download folder; the rest is parsed', async () => {
    const RUN = 6363;
    const hostile = [
      '../evil.txt',
      '../../evil2.txt',
      '../../../evil-temp.log',
      '../../../../evil-root.log',
      '../../../../workspace/evil-ws.log',
      'sub/../../../../../evil3.log',
      '/tmp/evil-abs.log',
      '/evil-abs2.log',
      '..\\..\\evil-bs.log',
      '.',
    ];
    const good = plogFile(4100, { 'DEV_MEM/dev0/APP': BASE_MODULES['DEV_MEM/dev0/APP']! });
    fake.addArtifact({
      name: 'plog-rank-0',
      runId: RUN,
      entries: [
        ...hostile.map((name) => ({ name, data: good })),
        { name: 'rank_0/plog-4100_1.log', data: good },
        // a file, then a folder of the same name: the second cannot be written, and must not abort the rest
        { name: 'rank_0/clash', data: 'x' },
        { name: 'rank_0/clash/inner.log', data: good },
      ],
    });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson({ 'DEV_MEM/dev0/APP': BASE_MODULES['DEV_MEM/dev0/APP']! }),
    });
    const r = await runAction({ dirs, inputs: { artifacts: 'plog-rank-*' }, event: 'push', runId: RUN });
    expect(r.code, why(r)).toBe(0);
    // one warning per artifact and cause (GitHub keeps 10 per step), naming every skipped entry; yauzl reads `\` as `/`
    const skipped = r.warnings.filter((w) => w.message.startsWith("artifact 'plog-rank-0': "));
    expect(skipped).toHaveLength(2);
    expect(skipped[0]!.message).toMatch(
      /^artifact 'plog-rank-0': 10 entries would be written outside the download folder; skipped: /,
    );
    for (const name of hostile) expect(skipped[0]!.message, name).toContain(`'${name.replaceAll('\\', '/')}'`);
    expect(skipped[1]!.message).toBe(
      "artifact 'plog-rank-0': entry 'rank_0/clash/inner.log' would be written over an earlier entry (a file and a folder of one name); skipped",
    );
    // the only files anywhere under this run's folder (RUNNER_TEMP's parent, which holds the workspace too)
    const all = walkFiles(dirs.dir).map((f) => f.split('\\').join('/'));
    expect(all.filter((f) => /evil/.test(f))).toEqual([]);
    expect(readdirSync(dirs.dir).sort()).toEqual([
      'event.json',
      'output.txt',
      'runner-temp',
      'summary.md',
      'workspace',
    ]);
    expect(walkFiles(dirs.workspace)).toEqual([join('baselines', 'memory-baseline.json')]);
    expect(walkFiles(join(dirs.runnerTemp, 'ascend-memory-gate', 'artifacts'))).toEqual([
      join('plog-rank-0', 'rank_0', 'clash'),
      join('plog-rank-0', 'rank_0', 'plog-4100_1.log'),
    ]);
    expect(readdirSync(join(dirs.runnerTemp, 'ascend-memory-gate')).sort()).toEqual([
      'artifacts',
      'report.json',
      'report.md',
    ]);
    expect(existsSync('/tmp/evil-abs.log')).toBe(false);
    expect(existsSync('/evil-abs2.log')).toBe(false);
    // the good entry was parsed
    const report = readReport(r);
    expect(report.entries).toEqual([expect.objectContaining({ key: 'DEV_MEM/dev0/APP', status: 'pass' })]);
  });
});

// ───────────────────────────── 7. trust: limits a PR cannot raise, one line per failure ─────────────────────────────

describe('trust', () => {
  /** Every run of this block: none may print a stack frame. */
  const runs: ActionRun[] = [];
  const run = async (o: RunOptions): Promise<ActionRun> => {
    const r = await runAction(o);
    runs.push(r);
    return r;
  };
  const RAISED = ['DEV_MEM/dev1/APP', 'DEV_MEM/dev2/HCCL'];
  const scaled = (factor: number): Record<string, ModuleValue> =>
    Object.fromEntries(
      Object.entries(BASE_MODULES).map(([k, v]) => [k, RAISED.includes(k) ? { ...v, peak: v.peak * factor } : v]),
    );

  it('a PR that doubles its own baseline and regresses by 50% fails against the base commit; the comment lists the raised keys', async () => {
    const PR = 61;
    const base = baseCommit({ 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(scaled(2)),
      ...rankPlogs(scaled(1.5), RANKS),
    });
    const r = await run({
      dirs,
      inputs: { plog: '.' },
      event: 'pull_request',
      payload: prPayload(PR, '6'.repeat(40), base),
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.outputs).toMatchObject({ result: 'fail', regressions: '2' });
    expect(
      readReport(r)
        .entries.filter((e) => e.status === 'regressed')
        .map((e) => [e.key, e.baseline]),
    ).toEqual([
      ['DEV_MEM/dev1/APP', 65 * MiB],
      ['DEV_MEM/dev2/HCCL', 82 * MiB],
    ]);
    expect(r.warnings.map((w) => w.message)).toContain(
      "This pull request changes 2 limit(s) (baseline or config); they were not used: a maintainer adds the label 'memory-baseline-update' to use them",
    );
    const [comment] = fake.comments(PR);
    expect(comment!.body.startsWith(`${MARKER}\n#### ⚠️ Limits changed by this PR (2)\n`)).toBe(true);
    expect(comment!.body).toContain(
      `the gate ran against the baseline and config of the base commit \`${base.slice(0, 12)}\``,
    );
    expect(comment!.body).toContain('| baseline | `DEV_MEM/dev1/APP` | 65.0 MiB | 130.0 MiB | ×2.00 |');
    expect(comment!.body).toContain('| baseline | `DEV_MEM/dev2/HCCL` | 82.0 MiB | 164.0 MiB | ×2.00 |');
    expect(r.summary).toContain('Limits changed by this PR');
    // the base commit was read through the contents API, raw
    expect(
      fake
        .requests({ route: 'repos.getContent' })
        .filter((q) => q.query.ref === base)
        .map((q) => q.headers.accept),
    ).toEqual(['application/vnd.github.v3.raw', 'application/vnd.github.v3.raw']);
  });

  it('the same PR with the maintainer label passes and says it used its own limits', async () => {
    const PR = 62;
    const base = baseCommit({ 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(scaled(2)),
      ...rankPlogs(scaled(1.5), RANKS),
    });
    const r = await run({
      dirs,
      inputs: { plog: '.' },
      event: 'pull_request',
      payload: prPayload(PR, '6'.repeat(40), base, ['memory-baseline-update']),
    });
    expect(r.code, why(r)).toBe(0);
    expect(r.outputs).toMatchObject({ result: 'pass', regressions: '0' });
    const [comment] = fake.comments(PR);
    expect(comment!.body).toContain(
      "**This pull request's own limits were used**: it carries the label `memory-baseline-update`, which only maintainers can set.",
    );
    expect(comment!.body).toContain('| baseline | `DEV_MEM/dev1/APP` | 65.0 MiB | 130.0 MiB | ×2.00 |');
  });

  it('a PR that loosens the config tolerance is gated with the base config and the change is listed', async () => {
    const PR = 63;
    const base = baseCommit({ 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      '.github/memory-gate.json': JSON.stringify({ modules: { tolerance: { percent: 80 } } }),
      ...rankPlogs(scaled(1.5), RANKS),
    });
    const r = await run({
      dirs,
      inputs: { plog: '.' },
      event: 'pull_request',
      payload: prPayload(PR, '6'.repeat(40), base),
    });
    expect(r.code, why(r)).toBe(1);
    const body = fake.comments(PR)[0]!.body;
    expect(body).toContain('| config | `modules.tolerance.bytes` | `1048576` | absent |  |');
    expect(body).toContain('| config | `modules.tolerance.percent` | `5` | `80` | ×16.00 |');
  });

  it('an unchanged PR says which limits gated it; a 1.5 MB baseline at the base commit is read whole', async () => {
    const PR = 64;
    const many: Record<string, ModuleValue> = { ...BASE_MODULES };
    for (let i = 0; i < 13000; i++) many[`SVM_MEM/padding_module_${String(i).padStart(5, '0')}`] = { peak: 1000 + i };
    const text = baselineJson(many);
    expect(text.length).toBeGreaterThan(1.5 * 1024 * 1024);
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, { 'baselines/memory-baseline.json': text, ...rankPlogs(BASE_MODULES, RANKS) });
    const base = baseOf(dirs);
    const r = await run({
      dirs,
      inputs: { plog: '.', comment: 'always' },
      event: 'pull_request',
      payload: prPayload(PR, '6'.repeat(40), base),
    });
    expect(r.code, why(r)).toBe(0);
    expect(fake.comments(PR)[0]!.body).toContain(
      `Limits: the baseline and config of the base commit \`${base.slice(0, 12)}\`; this pull request does not change them.`,
    );
  });

  it('a base commit the token cannot see is an error, never "no baseline", saying it is the base commit and why it is read', async () => {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...rankPlogs(scaled(3), RANKS),
    });
    const r = await run({
      dirs,
      inputs: { plog: '.' },
      event: 'pull_request',
      payload: prPayload(66, '6'.repeat(40), 'f'.repeat(40)),
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.errors.map((e) => e.message)).toEqual([
      "cannot read the pull request's base commit ffffffffffff, whose baseline and config gate it (a pull request's own limits count only with the maintainers' label): " +
        '404 reading commit ffffffffffff: not found, or the token cannot see it (it needs `contents: read`) (GitHub said: Not Found)',
    ]);
    expect(fake.comments(66)).toEqual([]);
  });

  it("another gate's comment naming our marker, and another bot's comment starting with it, are never taken over", async () => {
    const PR = 65;
    const other = fake.addComment({
      issueNumber: PR,
      body: '<!-- ascend-memory-gate:other -->\n| `dev0/<!-- ascend-memory-gate:default -->` |',
    });
    const otherBot = fake.addComment({
      issueNumber: PR,
      body: `${MARKER}\nI am dependabot`,
      user: { login: 'dependabot[bot]', type: 'Bot', id: 49699333 },
    });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...rankPlogs(scaled(3), RANKS),
    });
    fake.clearLog();
    const r = await run({
      dirs,
      inputs: { plog: '.' },
      event: 'pull_request',
      payload: prPayload(PR, '6'.repeat(40), baseOf(dirs)),
    });
    expect(r.code, why(r)).toBe(1);
    expect(fake.writes().map((w) => w.route)).toEqual(['issues.createComment']);
    expect(fake.state.comments.find((c) => c.id === other.id)!.body).toBe(other.body);
    expect(fake.state.comments.find((c) => c.id === otherBot.id)!.body).toBe(otherBot.body);
  });

  describe('GitHub failures in update mode: one line naming the step and the permission', () => {
    const BASELINE = 'baselines/memory-baseline.json';
    const dispatch = { inputs: {}, ref: 'refs/heads/main' };
    let runId = 7100;
    const update = async (
      branch: string,
      extra: Partial<RunOptions> = {},
      inputs: Record<string, string> = {},
    ): Promise<ActionRun> => {
      const RUN = ++runId;
      const plogs = rankPlogs(BASE_MODULES, [0]);
      fake.addArtifact({ name: 'plog-rank-0', runId: RUN, files: plogs });
      return run({
        inputs: { mode: 'update', 'run-id': String(RUN), artifacts: 'plog-rank-*', baseline: BASELINE, ...inputs },
        event: 'workflow_dispatch',
        payload: dispatch,
        refName: branch,
        ...extra,
      });
    };
    const seed = (
      branch: string,
      files: Record<string, string> = { [BASELINE]: baselineJson({ 'DEV_MEM/dev0/APP': { peak: 1 } }) },
    ): string => fake.commitFiles({ branch, files, parent: null });

    it.each<[string, { method: string; path: RegExp; status: number; message: string }, string]>([
      [
        '403 creating the branch',
        { method: 'POST', path: /\/git\/refs$/, status: 403, message: 'Resource not accessible by integration' },
        '403 creating branch memory-gate/baseline-update/f403/baselines-memory-baseline.json: the token needs `contents: write` (GitHub said: Resource not accessible by integration)',
      ],
      [
        '404 reading the base branch',
        { method: 'GET', path: /\/git\/ref\/heads(\/|%2F)f404$/, status: 404, message: 'Not Found' },
        '404 reading branch f404: not found, or the token cannot see it (it needs `contents: read`) (GitHub said: Not Found)',
      ],
      [
        '500 creating the blob',
        { method: 'POST', path: /\/git\/blobs$/, status: 500, message: 'Server Error' },
        '500 creating a blob for baselines/memory-baseline.json: GitHub failed to answer: re-run the job later (GitHub said: Server Error)',
      ],
      [
        '403 labelling the PR',
        {
          method: 'POST',
          path: /\/issues\/\d+\/labels$/,
          status: 403,
          message: 'Resource not accessible by integration',
        },
        "403 labelling pull request #1 'memory-baseline-update': the token needs `pull-requests: write` (GitHub said: Resource not accessible by integration)",
      ],
    ])('%s', async (story, failure, message) => {
      const branch = `f${failure.status}${story.includes('label') ? 'l' : ''}`;
      seed(branch);
      fake.forceResponse({
        method: failure.method,
        path: failure.path,
        status: failure.status,
        body: { message: failure.message },
        times: 1,
      });
      const r = await update(branch);
      expect(r.code, why(r)).toBe(1);
      const expected = message
        .replace('/f403/', `/${branch}/`)
        .replace('#1', `#${fake.state.pulls.at(-1)?.number ?? 0}`);
      expect(r.errors.map((e) => e.message)).toEqual([expected]);
    });

    it('422 on a commit that is no longer a fast-forward says what happened and what to do', async () => {
      seed('f422');
      fake.forceResponse({
        method: 'PATCH',
        path: /\/git\/refs\/heads(\/|%2F)f422$/,
        status: 422,
        body: { message: 'Update is not a fast forward' },
        times: 1,
      });
      const r = await update('f422', {}, { 'update-strategy': 'commit' });
      expect(r.code, why(r)).toBe(1);
      expect(r.errors.map((e) => e.message)).toEqual([
        '422 updating branch f422: not a fast-forward (the branch moved while this run worked, or it is protected): re-run the job, or use update-strategy: pull-request',
      ]);
    });

    it('a refused connection is one line naming the API URL', async () => {
      seed('refused');
      // A port that was just free: nothing listens there.
      const closed = createServer();
      await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((done) => closed.close(() => done()));
      const r = await run({
        inputs: { mode: 'update', baseline: BASELINE, plog: '.' },
        dirs: (() => {
          const d = newRunDirs();
          writeFiles(d.workspace, rankPlogs(BASE_MODULES, [0]));
          return d;
        })(),
        event: 'workflow_dispatch',
        payload: dispatch,
        refName: 'refused',
        env: { GITHUB_API_URL: `http://127.0.0.1:${port}` },
      });
      expect(r.code, why(r)).toBe(1);
      expect(r.errors.map((e) => e.message)).toEqual([
        `cannot reach GitHub (http://127.0.0.1:${port}) reading baselines/memory-baseline.json at refused: connect ECONNREFUSED 127.0.0.1:${port}; check the runner's network and re-run the job`,
      ]);
    });

    it('a 1.5 MB baseline on the branch is read whole (raw) and written back through the blob API', async () => {
      const many: Record<string, ModuleValue> = {};
      for (let i = 0; i < 13000; i++) many[`SVM_MEM/padding_module_${String(i).padStart(5, '0')}`] = { peak: 1000 + i };
      const text = baselineJson(many);
      expect(text.length).toBeGreaterThan(1.5 * 1024 * 1024);
      seed('big', { [BASELINE]: text });
      const r = await update('big');
      expect(r.code, why(r)).toBe(0);
      const written = JSON.parse(
        fake.readFile('memory-gate/baseline-update/big/baselines-memory-baseline.json', BASELINE)!,
      ) as {
        sections: { modules: Record<string, unknown> };
      };
      expect(Object.keys(written.sections.modules)).toHaveLength(13000 + 4);
    });
  });

  it('comment mode: a corrupt report zip is one error line', async () => {
    const RUN = 9301;
    fake.addArtifact({
      name: 'memory-gate-report',
      runId: RUN,
      zip: Buffer.from('PK\u0003\u0004 this is not a zip archive at all'),
    });
    const r = await run({
      inputs: { mode: 'comment', 'run-id': String(RUN) },
      event: 'workflow_run',
      payload: {
        action: 'completed',
        workflow_run: { id: RUN, head_sha: '5'.repeat(40), event: 'pull_request', pull_requests: [] },
        repository: { full_name: REPO },
      },
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toBe(
      "the report artifact 'memory-gate-report' of run 9301 of octo-org/octo-repo was refused: it is not a zip archive, or it was cut short; nothing was posted",
    );
  });

  it('no run of this block printed a stack frame or an internal error', () => {
    expect(runs.length).toBeGreaterThanOrEqual(13);
    for (const r of runs) {
      expect(`${r.stdout}\n${r.stderr}`, why(r)).not.toContain('    at ');
      expect(`${r.stdout}\n${r.stderr}`, why(r)).not.toContain('internal error');
    }
  });
});

describe('profiler evidence in artifacts', () => {
  it('with no path named, the profiler tables inside downloaded artifacts are found and read, next to the plog', async () => {
    const RUN = 6464;
    const fixtures = join(ROOT, 'test', 'fixtures', 'torch_npu', 'level0-2025-01', 'rank0_ascend_pt');
    fake.addArtifact({
      name: 'profiler-rank-0',
      runId: RUN,
      files: {
        // msprof's own tree inside torch_npu's folder is skipped: only ASCEND_PROFILER_OUTPUT is read.
        'rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv': readFileSync(
          join(fixtures, 'memory_record.csv'),
          'latin1',
        ),
        'rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv': readFileSync(
          join(fixtures, 'npu_module_mem.csv'),
          'latin1',
        ),
        'rank0_ascend_pt/PROF_000001/mindstudio_profiler_output/npu_module_mem_20250109.csv': 'not read\n',
      },
    });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, { 'baselines/memory-baseline.json': baselineJson({}) });
    const r = await runAction({ dirs, inputs: { artifacts: 'profiler-*' }, event: 'push', runId: RUN });
    expect(r.code, why(r)).toBe(0);
    const entries = readReport(r).entries;
    // 1452 MB = 1,522,532,352 bytes: the PTA reserved peak and the driver's APP module agree.
    expect(entries.find((e) => e.key === 'dev0/PTA/reserved')).toMatchObject({
      kind: 'component',
      status: 'new',
      current: 1452 * 2 ** 20,
    });
    expect(entries.find((e) => e.key === 'NPU_MODULE_MEM/dev0/APP')).toMatchObject({
      kind: 'module',
      status: 'new',
      current: 1452 * 2 ** 20,
    });
    expect(entries.filter((e) => e.status === 'growing')).toEqual([]);
  });
});

// ───────────────────────────── issue 13: an artifact that never arrives ─────────────────────────────

describe('missing-artifacts', () => {
  it('warn: the ranks that arrived are gated, the missing one is listed first in the report and its keys are missing', async () => {
    const RUN = 7170;
    const plogs = rankPlogs(BASE_MODULES, RANKS);
    const ids = RANKS.map((r) => {
      const file = Object.keys(plogs).find((k) => k.startsWith(`rank_${r}/`))!;
      return fake.addArtifact({ name: `plog-rank-${r}`, runId: RUN, files: { [file]: plogs[file]! } }).id;
    });
    fake.forceResponse({ method: 'GET', path: new RegExp(`^/blob/artifacts/${ids[2]}/`), status: 404 });
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, { 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) });
    try {
      const failed = await runAction({ dirs, inputs: { artifacts: 'plog-rank-*' }, event: 'push', runId: RUN });
      expect(failed.code, why(failed)).toBe(1);
      expect(failed.errors.at(-1)?.message).toBe(
        "1 of 4 artifact(s) of this run could not be downloaded: 'plog-rank-2' (artifact 'plog-rank-2': HTTP 404). Set 'missing-artifacts: warn' to gate the others.",
      );

      const warnDirs = newRunDirs();
      writeFiles(warnDirs.workspace, { 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) });
      const r = await runAction({
        dirs: warnDirs,
        inputs: { artifacts: 'plog-rank-*', 'missing-artifacts': 'warn', 'download-concurrency': '2' },
        event: 'push',
        runId: RUN,
      });
      expect(r.code, why(r)).toBe(0);
      expect(r.stdout).toMatch(/^Downloading 4 artifact\(s\) \(.*\) from this run, 2 at a time$/m);
      expect(r.stdout).toMatch(/^\[\d\/4\] plog-rank-2 FAILED: artifact 'plog-rank-2': HTTP 404$/m);
      expect(r.warnings.map((w) => w.message)).toContain(
        "1 of 4 artifact(s) missing, gated without them: 'plog-rank-2' (artifact 'plog-rank-2': HTTP 404)",
      );
      const report = readReport(r) as ReportJson & { missingArtifacts?: string[] };
      expect(report.missingArtifacts).toEqual(['plog-rank-2']);
      expect(
        report.entries
          .filter((e) => e.status === 'missing')
          .map((e) => e.key)
          .sort(),
      ).toEqual(
        Object.keys(BASE_MODULES)
          .filter((k) => k.includes('/dev2/'))
          .sort(),
      );
      expect(report.entries.filter((e) => e.status === 'pass')).toHaveLength(12);
      // the summary opens with the missing artifact, right under the verdict
      const lines = r.summary.split('\n');
      expect(lines.slice(4, 9)).toEqual([
        '#### ⚠️ 1 artifact(s) never arrived: their keys are missing',
        '',
        '| Artifact |',
        '|---|',
        '| `plog-rank-2` |',
      ]);
    } finally {
      fake.state.forced.length = 0;
    }
  });
});

describe('mode: snapshot', () => {
  it('writes this node’s snapshot with its environment; a gate job merges the downloaded snapshot artifacts', async () => {
    const RUN = 7180;
    const node = newRunDirs();
    writeFiles(node.workspace, rankPlogs(BASE_MODULES, [0, 1]));
    const r = await runAction({
      dirs: node,
      inputs: {
        mode: 'snapshot',
        plog: '.',
        environment: 'cann=9.0.RC1\nPYTORCH_NPU_ALLOC_CONF=expandable_segments:True,garbage_collection_threshold:0.6',
      },
      event: 'push',
      runId: RUN,
    });
    expect(r.code, why(r)).toBe(0);
    const file = r.outputs['snapshot-file']!;
    expect(file).toMatch(/\.memory-snapshot\.json$/);
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
      meta: { nodes: Record<string, { devices: string[]; environment: Record<string, string> }> };
    };
    const [only] = Object.values(snapshot.meta.nodes);
    expect(only!.devices).toEqual(['dev0', 'dev1']);
    expect(only!.environment).toMatchObject({
      cann: '9.0.RC1',
      PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:True,garbage_collection_threshold:0.6',
    });
    expect(r.stdout).toMatch(
      /^Wrote .*\.memory-snapshot\.json \(\d+\.\d KiB\): node .+, 2 device\(s\), 2 file\(s\), 8 record\(s\), 0 skipped$/m,
    );

    // The gate job: the snapshot uploaded as an artifact, downloaded by pattern and merged.
    fake.addArtifact({
      name: 'memory-snapshot-node-0',
      runId: RUN,
      files: { 'node-0.memory-snapshot.json': readFileSync(file, 'utf8') },
    });
    const gate = newRunDirs();
    writeFiles(gate.workspace, { 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) });
    const g = await runAction({ dirs: gate, inputs: { artifacts: 'memory-snapshot-*' }, event: 'push', runId: RUN });
    expect(g.code, why(g)).toBe(0);
    const report = readReport(g);
    expect(
      report.entries
        .filter((e) => e.status === 'pass')
        .map((e) => e.key)
        .sort(),
    ).toEqual(
      Object.keys(BASE_MODULES)
        .filter((k) => /\/dev[01]\//.test(k))
        .sort(),
    );
    expect(report.entries.filter((e) => e.status === 'missing')).toHaveLength(8);
  });
});

// ───────────────────────────── history on the default branch (issue 23) ─────────────────────────────

describe('history on the default branch', () => {
  const BRANCH = 'memory-gate-history';
  const FILE = 'default.history.jsonl';
  const pushSha = (n: number): string => `5a${String(n).padStart(38, '0')}`;
  const pushPayload = {
    ref: 'refs/heads/main',
    repository: { full_name: REPO, name: 'octo-repo', owner: { login: 'octo-org' }, default_branch: 'main' },
  };
  /** Main's runs: HCCL doubles on every device from run 16 on, with CANN 9.0 (the step the report must name). */
  const mainModules = (n: number): Record<string, ModuleValue> =>
    Object.fromEntries(
      Object.entries(BASE_MODULES).map(([k, v]) => [
        k,
        k.endsWith('/HCCL') && n >= 16 ? { ...v, peak: v.peak * 2 } : v,
      ]),
    );

  function pushRun(n: number, extra: Partial<RunOptions> = {}): Promise<ActionRun> {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...rankPlogs(mainModules(n), RANKS),
    });
    return runAction({
      dirs,
      inputs: { plog: 'rank_*', environment: `cann=${n >= 16 ? '9.0.RC1' : '8.3.RC1'}` },
      event: 'push',
      payload: pushPayload,
      runId: 7000 + n,
      sha: pushSha(n),
      ...extra,
    });
  }

  const historyPoints = (): { commit: string; run: string }[] =>
    (fake.readFile(BRANCH, FILE) ?? '')
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { commit: string; run: string });

  it('30 push runs append to the history branch, two of them racing (both kept); a PR run shows sparklines and names the commit where HCCL stepped; the PR, a fork, pull_request_target and workflow_run write nothing', async () => {
    for (let n = 1; n <= 28; n++) {
      const r = await pushRun(n);
      // From run 16 on, main itself regresses against the committed baseline: its runs are recorded all the same.
      expect(r.code, why(r)).toBe(n >= 16 ? 1 : 0);
      expect(r.stdout).toContain(`History: recorded run ${7000 + n} in ${BRANCH}:${FILE}`);
    }
    // Runs 29 and 30 read the branch before either moves it: one is refused (not a fast-forward) and lands after a fresh read.
    const held = fake.holdRequests({ method: 'PATCH', path: new RegExp(`/git/refs/heads/${BRANCH}$`), count: 2 });
    const [r29, r30] = await Promise.all([pushRun(29), pushRun(30)]);
    expect(await held).toBe(2);
    expect([r29, r30].map((r) => /after 1 retry \(the branch moved meanwhile\)/.test(r.stdout)).sort()).toEqual([
      false,
      true,
    ]);
    const points = historyPoints();
    expect(points).toHaveLength(30);
    expect(points.map((p) => p.run).sort()).toEqual(Array.from({ length: 30 }, (_, i) => String(7001 + i)));
    // One commit per run on the branch, each on top of the one before.
    let commits = 0;
    for (let sha = fake.getRef(BRANCH); sha !== undefined; commits++)
      sha = (fake.getObject(sha) as { parents: string[] }).parents[0];
    expect(commits).toBe(30);

    // A pull request that keeps HCCL doubled: regressed against the baseline, with main's trend and the commit where it moved.
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...rankPlogs(mainModules(30), RANKS),
    });
    fake.clearLog();
    const pr = await runAction({
      dirs,
      inputs: { plog: 'rank_*' },
      event: 'pull_request',
      payload: { ...(prPayload(71, 'e'.repeat(40), baseOf(dirs)) as object), repository: pushPayload.repository },
    });
    expect(pr.code, why(pr)).toBe(1);
    const step = `\`DEV_MEM/*/HCCL\` (largest device): 83.0\u00a0MiB → 166.0\u00a0MiB since [\`${pushSha(16).slice(0, 7)}\`](https://github.com/${REPO}/commit/${pushSha(16)}) (14 runs ago on \`main\`); CANN toolkit \`8.3.RC1\` → \`9.0.RC1\` at the same run.`;
    const row = pr.summary.split('\n').find((l) => l.includes('`DEV_MEM/*/HCCL`<br>'));
    expect(row).toContain(`<br>\`${'▁'.repeat(15)}${'█'.repeat(15)}\` 83.0\u00a0MiB – 166.0\u00a0MiB |`);
    expect(pr.summary).toContain(`1. ${step}`);
    expect(pr.summary).toContain(
      'Under each key: its last 30 runs on `main`, lowest ▁ to highest █ (a key group: its largest device at each run).',
    );
    const comment = fake.comments(71).at(-1)?.body ?? '';
    expect(comment).toContain(`1. ${step}`);
    expect(comment).toContain(`<br>\`${'▁'.repeat(15)}${'█'.repeat(15)}\``);
    // The PR run read the history and wrote only its comment.
    expect(
      fake.requests({ route: 'git.getRef' }).some((q) => decodeURIComponent(q.path).endsWith(`/heads/${BRANCH}`)),
    ).toBe(true);
    expect(fake.writes().map((w) => w.route)).toEqual(['issues.createComment']);
    expect(historyPoints()).toHaveLength(30);

    // A fork's run (read-only token: no comment) and a pull_request_target run: no write request at all.
    fake.clearLog();
    const forkDirs = newRunDirs();
    writeFiles(forkDirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...rankPlogs(mainModules(30), RANKS),
    });
    const forkPayload = prPayload(72, 'f'.repeat(40), baseOf(forkDirs)) as {
      pull_request: { head: Record<string, unknown> };
    };
    forkPayload.pull_request.head.repo = { full_name: 'forker/octo-repo', fork: true };
    const fork = await runAction({
      dirs: forkDirs,
      inputs: { plog: 'rank_*', comment: 'never' },
      event: 'pull_request',
      payload: { ...forkPayload, repository: pushPayload.repository },
    });
    expect(fork.code, why(fork)).toBe(1);
    expect(fork.summary).toContain(step);
    const target = await runAction({
      dirs: forkDirs,
      inputs: { plog: 'rank_*', comment: 'never' },
      event: 'pull_request_target',
      payload: { ...forkPayload, repository: pushPayload.repository },
    });
    expect(target.code, why(target)).toBe(1);
    expect(target.stdout).toContain('History: read only (a check run on pull_request_target only reads it)');
    expect(fake.writes()).toEqual([]);

    // workflow_run (comment mode) re-renders the PR run's report with the trends of the history branch, and writes only the comment.
    const RUN = 9300;
    fake.addArtifact({
      name: 'memory-gate-report',
      runId: RUN,
      files: { 'report.json': readFileSync(pr.outputs.report!, 'utf8') },
    });
    // The pull request as the API shows it: its base is main, which holds the same limits.
    fake.commitFiles({
      branch: 'main',
      files: { 'baselines/memory-baseline.json': baselineJson(BASE_MODULES) },
      message: 'main for the comment job',
    });
    fake.addPull({ number: 71, headRef: 'feature', headSha: 'e'.repeat(40) });
    fake.clearLog();
    const commented = await runAction({
      inputs: { mode: 'comment' },
      event: 'workflow_run',
      payload: {
        action: 'completed',
        workflow_run: { id: RUN, head_sha: 'e'.repeat(40), event: 'pull_request', pull_requests: [{ number: 71 }] },
        repository: pushPayload.repository,
      },
      runId: 9301,
    });
    expect(commented.code, why(commented)).toBe(0);
    expect(fake.comments(71).at(-1)?.body).toContain(`1. ${step}`);
    expect(fake.writes().map((w) => w.route)).toEqual(['issues.updateComment']);
    expect(historyPoints()).toHaveLength(30);
    // 34 Action runs in a row: 27 to 36 s measured at load 2.5 to 7 on 2 cores, so the default 60 s is too close; the
    // three tests below build on the branch it leaves (30 points, the step at run 16) and fail with it.
  }, 240_000);

  it('a token without contents: write is one warning naming it, and the verdict stands', async () => {
    fake.forceResponse({
      method: 'POST',
      path: /\/git\/blobs$/,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
      times: 1,
    });
    const r = await pushRun(31);
    expect(r.code, why(r)).toBe(1);
    const history = r.warnings.filter((w) => w.message.startsWith('History'));
    expect(history.map((w) => w.message)).toEqual([
      `History not recorded: 403 creating a blob for ${FILE} on branch ${BRANCH}: the token needs \`contents: write\` (GitHub said: Resource not accessible by integration). Give the default branch's check job \`permissions: contents: write\`, or set 'history: false'`,
    ]);
    expect(r.errors.at(-1)?.message).toMatch(/^Memory gate failed: DEV_MEM\/dev\d\/HCCL regressed/);
    expect(historyPoints()).toHaveLength(30);
    // The report's trends are of the history as the branch holds it: not of the point this run failed to write.
    expect(r.summary).toContain(
      `since [\`${pushSha(16).slice(0, 7)}\`](https://github.com/${REPO}/commit/${pushSha(16)}) (14 runs ago on \`main\`)`,
    );
  });

  it('a corrupt history on the branch is a warning naming its line, never overwritten; a push to another branch only reads', async () => {
    const text = fake.readFile(BRANCH, FILE)!;
    const broken = text.replace(/"run":"7005"/, '"run":7005');
    fake.commitFiles({ branch: BRANCH, files: { [FILE]: broken }, message: 'hand edit' });
    const r = await pushRun(32);
    expect(r.warnings.map((w) => w.message).filter((m) => m.startsWith('History'))).toEqual([
      `History not read, so the report has no trends: ${BRANCH}:${FILE}:7: /run: must be a run id, got 7005. To start over, delete ${FILE} from branch ${BRANCH} (or the branch): the default branch's next check run records a new one`,
      `History not recorded: ${BRANCH}:${FILE}:7: /run: must be a run id, got 7005; the file was left as it is. To start over, delete ${FILE} from branch ${BRANCH} (or the branch): the default branch's next check run records a new one`,
    ]);
    expect(fake.readFile(BRANCH, FILE)).toBe(broken);
    fake.commitFiles({ branch: BRANCH, files: { [FILE]: text }, message: 'fixed' });
    fake.clearLog();
    const other = await pushRun(33, {
      refName: 'release/1.0',
      payload: { ...pushPayload, ref: 'refs/heads/release/1.0' },
    });
    expect(other.stdout).toContain('History: read only (refs/heads/release/1.0 is not the default branch main)');
    expect(fake.writes()).toEqual([]);
  });

  it('comment mode reads the config it is given from the repository, not from a checkout it does not have', async () => {
    // The gate's config lives at ci/gate.json on main; the comment job names it and checks nothing out (its workspace is
    // empty), as the example workflow does. Step tolerances and the re-judged verdicts both come from that file.
    fake.commitFiles({
      branch: 'main',
      files: { 'ci/gate.json': JSON.stringify({ modules: { tolerance: { percent: 5, bytes: '1MiB' } } }) },
      message: 'gate config',
    });
    fake.clearLog();
    const commented = await runAction({
      inputs: { mode: 'comment', config: 'ci/gate.json' },
      event: 'workflow_run',
      payload: {
        action: 'completed',
        workflow_run: { id: 9300, head_sha: 'e'.repeat(40), event: 'pull_request', pull_requests: [{ number: 71 }] },
        repository: pushPayload.repository,
      },
      runId: 9302,
    });
    expect(commented.code, why(commented)).toBe(0);
    const body = fake.comments(71).at(-1)?.body ?? '';
    expect(body).not.toContain('not trustworthy');
    expect(body).toContain(`<br>\`${'▁'.repeat(15)}${'█'.repeat(15)}\``);
    expect(body).toContain(
      `\`DEV_MEM/*/HCCL\` (largest device): 83.0\u00a0MiB → 166.0\u00a0MiB since [\`${pushSha(16).slice(0, 7)}\`]`,
    );
    expect(fake.writes().map((w) => w.route)).toEqual(['issues.updateComment']);
  });
});

// ───────────────────────────── the history cannot be turned against the gate (issue 30) ─────────────────────────────

describe('the history cannot be turned against the gate', () => {
  const FILE = 'default.history.jsonl';
  const repository = { full_name: REPO, name: 'octo-repo', owner: { login: 'octo-org' }, default_branch: 'main' };
  const scaled = (percent: number, only = 'APP'): Record<string, ModuleValue> =>
    Object.fromEntries(
      Object.entries(BASE_MODULES).map(([k, v]) => [
        k,
        k.endsWith(`/${only}`) ? { ...v, peak: Math.round(v.peak * (1 + percent / 100)) } : v,
      ]),
    );
  let prs = 0;

  /** A pull request's check run against main's limits (the workspace's baseline and config), reading history branch `branch`. */
  function prRun(branch: string, modules: Record<string, ModuleValue>, config?: unknown): Promise<ActionRun> {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
      ...(config !== undefined ? { '.github/memory-gate.json': JSON.stringify(config) } : {}),
      ...rankPlogs(modules, RANKS),
    });
    const number = 300 + ++prs;
    return runAction({
      dirs,
      inputs: { plog: 'rank_*', 'history-branch': branch },
      event: 'pull_request',
      payload: { ...(prPayload(number, runHeadSha(number), baseOf(dirs)) as object), repository },
    });
  }

  /** Twelve points of main, HCCL doubled from point 6 on, with a section 'zzz' a newer release wrote, and this header commitUrl. */
  function historyText(commitUrl: string): string {
    const names = Object.keys(BASE_MODULES);
    const lines = [
      JSON.stringify({ format: 'ascend-memory-gate history', version: 1, branch: 'main', gate: 'default', commitUrl }),
      JSON.stringify({ keys: { modules: names, zzz: ['dev0/x'] } }),
    ];
    for (let n = 1; n <= 12; n++) {
      const point = {
        commit: `7a${String(n).padStart(38, '0')}`,
        run: String(600 + n),
        time: `2026-02-${String(n).padStart(2, '0')}T00:00:00Z`,
        baseline: null,
      };
      if (n === 1)
        lines.push(
          JSON.stringify({
            ...point,
            environment: {},
            values: { modules: names.map((k) => BASE_MODULES[k]!.peak), zzz: [7] },
          }),
        );
      else if (n === 6) {
        // Pairs of (positions skipped since the last pair, difference): each HCCL doubles.
        const pairs: number[] = [];
        let next = 0;
        names.forEach((k, i) => {
          if (!k.endsWith('/HCCL')) return;
          pairs.push(i - next, BASE_MODULES[k]!.peak);
          next = i + 1;
        });
        lines.push(JSON.stringify({ ...point, changes: { modules: pairs } }));
      } else lines.push(JSON.stringify({ ...point, changes: { zzz: [0, n % 2 === 0 ? 1 : -1] } }));
    }
    return `${lines.join('\n')}\n`;
  }

  it("a section this version does not know, and a commitUrl that is no URL: one warning each, the trends shown without links, the PR's verdict given", async () => {
    const branch = 'history-newer';
    fake.commitFiles({
      branch,
      files: { [FILE]: historyText('https://[{sha}') },
      parent: null,
      message: 'a newer release and a hand edit',
    });
    const r = await prRun(branch, scaled(100, 'HCCL'));
    expect(r.errors.map((e) => e.message).filter((m) => m.includes('internal error'))).toEqual([]);
    expect(r.code, why(r)).toBe(1);
    expect(r.errors.at(-1)?.message).toMatch(/^Memory gate failed: DEV_MEM\/dev\d\/HCCL regressed/);
    expect(r.warnings.map((w) => w.message).filter((m) => m.startsWith('History'))).toEqual([
      `History: ${branch}:${FILE}:1: /commitUrl: "https://[{sha}" is not an http(s) URL once {sha} is filled in: commits are shown without links`,
      `History: ${branch}:${FILE}:2: section 'zzz' is not known to this version (a newer ascend-memory-gate wrote it): skipped; a run this version records drops it from the file, upgrade to keep it`,
    ]);
    expect(r.summary).toContain(`since \`${'7a'}${'0'.repeat(5)}\` (6 runs ago on \`main\`)`);
  });

  it('a commitUrl of another site: one warning, and no link goes there', async () => {
    const branch = 'history-foreign';
    fake.commitFiles({
      branch,
      files: { [FILE]: historyText('https://evil.example/{sha}') },
      parent: null,
      message: 'a foreign link',
    });
    const r = await prRun(branch, scaled(100, 'HCCL'));
    expect(r.code, why(r)).toBe(1);
    expect(r.warnings.map((w) => w.message).filter((m) => m.includes('commitUrl'))).toEqual([
      `History ${branch}:${FILE}: its commitUrl "https://evil.example/{sha}" is not this repository's (https://github.com/${REPO}/commit/{sha}): commits are shown without links`,
    ]);
    expect(r.summary).not.toContain('evil.example');
    expect(fake.comments(300 + prs).at(-1)?.body ?? '').not.toContain('evil.example');
  });

  it('a history holding a module figure of −1 TiB is refused with one warning naming line and field and how to start over; the verdict stands', async () => {
    const branch = 'history-implausible';
    const text = historyText('https://github.com/octo-org/octo-repo/commit/{sha}')
      .replace(/"values":\{"modules":\[\d+/, `"values":{"modules":[${-(1024 ** 4)}`)
      // Without the newer release's section: only the implausible value is wrong with it.
      .replace(/,"zzz":\[("dev0\/x"|7)\]/g, '')
      .replace(/,"changes":\{"zzz":\[0,-?1\]\}/g, '');
    fake.commitFiles({ branch, files: { [FILE]: text }, parent: null, message: 'implausible' });
    const r = await prRun(branch, BASE_MODULES);
    expect(r.code, why(r)).toBe(0);
    expect(r.warnings.map((w) => w.message).filter((m) => m.startsWith('History'))).toEqual([
      `History not read, so the report has no trends: ${branch}:${FILE}:3: /values/modules/0: makes "${Object.keys(BASE_MODULES)[0]}" -1099511627776, but a module figure (peak) is never negative: this is not a history ascend-memory-gate wrote. To start over, delete ${FILE} from branch ${branch} (or the branch): the default branch's next check run records a new one`,
    ]);
  });

  it('an environment value past 4,096 characters is recorded shortened as report.json shortens keys, and the next run reads the history', async () => {
    const branch = 'history-long';
    const cann = `9.0.${'x'.repeat(5000)}`;
    for (const n of [1, 2]) {
      const dirs = newRunDirs();
      writeFiles(dirs.workspace, {
        'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
        ...rankPlogs(BASE_MODULES, RANKS),
      });
      const r = await runAction({
        dirs,
        inputs: { plog: 'rank_*', 'history-branch': branch, environment: `cann=${cann}` },
        event: 'push',
        payload: { ref: 'refs/heads/main', repository },
        runId: 7800 + n,
        sha: `7c${String(n).padStart(38, '0')}`,
      });
      expect(r.code, why(r)).toBe(0);
      expect(r.warnings.map((w) => w.message).filter((m) => m.startsWith('History'))).toEqual([]);
      expect(r.stdout).toContain(`History: recorded run ${7800 + n} in ${branch}:${FILE}`);
    }
    const first = JSON.parse(fake.readFile(branch, FILE)!.split('\n')[2]!) as { environment: Record<string, string> };
    expect(first.environment.cann).toHaveLength(4096);
    expect(first.environment.cann).toMatch(/^9\.0\.x+…x+~[0-9a-f]{12}$/);
  });

  it("main's values −(2^53−1), 0, 2^53−1 of a kernel: the noise band's spread is clamped at 2^53−1 and said, and comment mode takes the report", async () => {
    const branch = 'history-extremes';
    const MAX = Number.MAX_SAFE_INTEGER;
    const point = (n: number): Record<string, unknown> => ({
      commit: `7d${String(n).padStart(38, '0')}`,
      run: String(n),
      time: '2026-02-01T00:00:00Z',
      baseline: null,
    });
    const text = [
      JSON.stringify({ format: 'ascend-memory-gate history', version: 1 }),
      JSON.stringify({ keys: { kernels: ['dev0/k'] } }),
      JSON.stringify({ ...point(1), environment: {}, values: { kernels: [-MAX] } }),
      JSON.stringify({ ...point(2), changes: { kernels: [0, MAX] } }),
      JSON.stringify({ ...point(3), changes: { kernels: [0, MAX] } }),
      '',
    ].join('\n');
    fake.commitFiles({ branch, files: { [FILE]: text }, parent: null, message: 'extremes' });
    const config = { history: { window: 20, minPoints: 3 } };
    const kernel = { diff: 100 * MiB, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' };
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'baselines/memory-baseline.json': baselineJson(BASE_MODULES, { 'dev0/k': kernel }),
      '.github/memory-gate.json': JSON.stringify(config),
      'mc/memory_compare_20250901120000.csv': `,,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\nKERNEL_LAUNCH,k,0,0,${200 * MiB},${200 * MiB}\n`,
      ...rankPlogs(BASE_MODULES, RANKS),
    });
    const number = 300 + ++prs;
    const pr = await runAction({
      dirs,
      inputs: { plog: 'rank_*', 'memory-compare': 'mc', 'history-branch': branch },
      event: 'pull_request',
      payload: { ...(prPayload(number, runHeadSha(number), baseOf(dirs)) as object), repository },
    });
    expect(pr.code, why(pr)).toBe(1);
    const entry = readReport(pr).entries.find((e) => e.key === 'dev0/k') as
      { noise?: unknown; note?: string } | undefined;
    expect(entry?.noise).toEqual({ applied: 'band', points: 3, spread: MAX });
    expect(entry?.note).toBe(
      'Beyond the noise band: the last 3 values on the default branch spread more than 8.0 PiB (2^53 − 1, where the figure is clamped), capped at the ceiling 10.0 MiB, and the change is 100.0 MiB.',
    );

    fake.commitFiles({
      branch: 'main',
      files: {
        'baselines/memory-baseline.json': baselineJson(BASE_MODULES, { 'dev0/k': kernel }),
        '.github/memory-gate.json': JSON.stringify(config),
      },
      message: 'main with a kernel',
    });
    fake.addPull({ number, headRef: `feature-${number}`, headSha: runHeadSha(number) });
    fake.addArtifact({
      name: 'memory-gate-report',
      runId: 9530,
      files: { 'report.json': readFileSync(pr.outputs.report!, 'utf8') },
    });
    const commented = await runAction({
      inputs: { mode: 'comment', 'history-branch': branch },
      event: 'workflow_run',
      payload: {
        action: 'completed',
        workflow_run: { id: 9530, head_sha: runHeadSha(number), event: 'pull_request', pull_requests: [{ number }] },
        repository,
      },
      runId: 9531,
    });
    expect(commented.code, why(commented)).toBe(0);
    expect(commented.summary).not.toContain('not trustworthy');
    expect(commented.summary).toContain('Memory gate failed');
  });

  it('a pull_request run whose token can write contents warns, by a probe that writes nothing; a read-only token is silent', async () => {
    const branch = 'history-probe';
    fake.clearLog();
    const writable = await prRun(branch, BASE_MODULES);
    expect(writable.code, why(writable)).toBe(0);
    expect(
      writable.warnings.map((w) => w.message).filter((m) => m.startsWith("This pull_request run's token")),
    ).toEqual([
      `This pull_request run's token can write the repository's contents, so the pull request's code could push to the history branch ${branch}: give pull_request jobs \`permissions: contents: read\`, and \`contents: write\` only to the default branch's job that records (docs/security-model.md, "The history branch")`,
    ]);
    const probes = fake.requests({ route: 'git.createRef' });
    expect(probes.map((q) => (q.body as { sha?: string }).sha)).toEqual(['0'.repeat(40)]);
    expect(fake.getRef(`${branch}-write-probe`)).toBeUndefined();
    // A read-only token (a fork's, or `contents: read`): GitHub answers 403 before it looks at the object.
    fake.forceResponse({
      method: 'POST',
      path: /\/git\/refs$/,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
      times: 1,
    });
    const readOnly = await prRun(branch, BASE_MODULES);
    expect(readOnly.code, why(readOnly)).toBe(0);
    expect(
      readOnly.warnings.map((w) => w.message).filter((m) => m.startsWith("This pull_request run's token")),
    ).toEqual([]);
  });

  it('comment mode re-judges with the history at the commit the run read: a push to main since does not brand an honest report; a commit not on the branch is refused', async () => {
    const branch = 'history-window';
    const config = { modules: { tolerance: { percent: 2 } }, history: { window: 5, minPoints: 5 } };
    // Main's APP: +5% at run 1, then the baseline's four times: a spread of 5% over the window of 5.
    const push = async (n: number, percent: number): Promise<void> => {
      const dirs = newRunDirs();
      writeFiles(dirs.workspace, {
        'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
        '.github/memory-gate.json': JSON.stringify(config),
        ...rankPlogs(scaled(percent), RANKS),
      });
      const r = await runAction({
        dirs,
        inputs: { plog: 'rank_*', 'history-branch': branch },
        event: 'push',
        payload: { ref: 'refs/heads/main', repository },
        runId: 7700 + n,
        sha: `7b${String(n).padStart(38, '0')}`,
      });
      expect(r.stdout, why(r)).toContain(`History: recorded run ${7700 + n} in ${branch}:${FILE}`);
    };
    for (const [n, percent] of [5, 0, 0, 0, 0].entries()) await push(n + 1, percent);
    const read = fake.getRef(branch)!;
    // The PR at +4%: past the 2% tolerance, within main's 5% spread: it passes, and its report names the history it read.
    const pr = await prRun(branch, scaled(4), config);
    expect(pr.code, why(pr)).toBe(0);
    const report = readReport(pr) as ReportJson & { history?: unknown };
    expect(report.history).toEqual({ branch, commit: read });
    expect(report.entries.find((e) => e.key === 'DEV_MEM/dev0/APP')).toMatchObject({
      status: 'pass',
      noise: { applied: 'band', points: 5 },
    });
    // One ordinary push to main: the +5% run leaves the window, whose spread is now 0.
    await push(6, 0);
    expect(fake.getRef(branch)).not.toBe(read);

    fake.commitFiles({
      branch: 'main',
      files: {
        'baselines/memory-baseline.json': baselineJson(BASE_MODULES),
        '.github/memory-gate.json': JSON.stringify(config),
      },
      message: 'main with the noise band',
    });
    const number = 300 + prs;
    fake.addPull({ number, headRef: `feature-${number}`, headSha: runHeadSha(number) });
    const comment = (run: number, text: string): Promise<ActionRun> => {
      fake.addArtifact({ name: 'memory-gate-report', runId: run, files: { 'report.json': text } });
      return runAction({
        inputs: { mode: 'comment', 'history-branch': branch },
        event: 'workflow_run',
        payload: {
          action: 'completed',
          workflow_run: { id: run, head_sha: runHeadSha(number), event: 'pull_request', pull_requests: [{ number }] },
          repository,
        },
        runId: run + 1,
      });
    };
    const honest = await comment(9510, readFileSync(pr.outputs.report!, 'utf8'));
    expect(honest.code, why(honest)).toBe(0);
    expect(
      honest.warnings.map((w) => w.message).filter((m) => m.startsWith('History') || m.includes('trustworthy')),
    ).toEqual([]);
    expect(honest.stdout).toContain(`History read from ${branch}:${FILE} at ${read.slice(0, 12)}: 5 point(s)`);
    expect(honest.summary).not.toContain('not trustworthy');
    expect(honest.summary).toContain('Memory gate passed');

    // A report naming a commit off the branch (a history of its own making, with a wide band) is read at the head instead.
    const forged = fake.commitFiles({
      branch: 'forged-history',
      files: { [FILE]: fake.readFile(branch, FILE)! },
      parent: null,
      message: 'a history of my own',
    });
    const claimed = JSON.parse(readFileSync(pr.outputs.report!, 'utf8')) as { history: { commit: string } };
    claimed.history.commit = forged;
    const refused = await comment(9520, JSON.stringify(claimed, null, 2));
    expect(refused.code, why(refused)).toBe(0);
    const head = fake.getRef(branch)!;
    expect(refused.warnings.map((w) => w.message).filter((m) => m.startsWith('History'))).toEqual([
      `History: the report says its run read ${branch}:${FILE} at a commit that cannot be trusted (commit ${forged.slice(0, 12)} is not on branch ${branch} (GitHub compares it with the head ${head.slice(0, 12)}: diverged)): the branch's head ${head.slice(0, 12)} is read instead`,
    ]);
    expect(refused.summary).toContain('This report is not trustworthy');
  });
});

// ───────────────────────────── 8. integrity of the posted verdict (issue 25) ─────────────────────────────

describe('integrity of the posted verdict', () => {
  const LABEL = 'memory-baseline-update';
  const BASELINE_FILE = 'baselines/memory-baseline.json';
  /** The issue's example: DEV_MEM/dev1/APP at 2,078,195,712 bytes in the baseline, ten times that in the run. */
  const TRUSTED: Record<string, ModuleValue> = {
    ...BASE_MODULES,
    'DEV_MEM/dev1/APP': { peak: 2078195712, current: 2078195712 },
  };
  const GROWN: Record<string, ModuleValue> = {
    ...TRUSTED,
    'DEV_MEM/dev1/APP': { peak: 20781957120, current: 20781957120 },
  };
  const times = (minute: number): string => `2026-01-10T10:${String(minute).padStart(2, '0')}:00Z`;
  let branches = 0;

  /** This run's honest report: check mode on a push, the workspace's baseline against these plogs. */
  async function honestReport(
    baseline: Record<string, ModuleValue>,
    measured: Record<string, ModuleValue>,
  ): Promise<ReportJson & { groups?: unknown }> {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, { [BASELINE_FILE]: baselineJson(baseline), ...rankPlogs(measured, RANKS) });
    const r = await runAction({ dirs, inputs: { plog: '.' }, event: 'push' });
    expect([0, 1], why(r)).toContain(r.code);
    return readReport(r) as ReportJson & { groups?: unknown };
  }

  /** The failing entry relabelled pass, counts and result made to agree: what the issue's forger uploaded. */
  function forge(report: ReportJson & { groups?: unknown }): ReportJson {
    const forged = structuredClone(report);
    delete forged.groups;
    for (const e of forged.entries) {
      if (e.severity !== 'fail') continue;
      forged.counts[e.status] = (forged.counts[e.status] ?? 0) - 1;
      forged.counts.pass = (forged.counts.pass ?? 0) + 1;
      e.status = 'pass';
      e.severity = 'ok';
    }
    forged.result = 'pass';
    return forged;
  }

  /** A fork's PR whose base branch holds `files`; its head is `headSha`. */
  function forkPull(
    number: number,
    headSha: string,
    files: Record<string, string>,
    extra: { labels?: string[]; createdAt?: string; labeledAt?: string } = {},
  ): { baseSha: string } {
    const baseRef = `integrity-base-${++branches}`;
    const baseSha = fake.commitFiles({ branch: baseRef, files, parent: null, message: `base of ${baseRef}` });
    fake.addPull({ number, headRef: `patch-${number}`, headOwner: 'forker', headSha, baseRef, ...extra });
    return { baseSha };
  }

  function commentRun(run: number, headSha: string): Promise<ActionRun> {
    return runAction({
      inputs: { mode: 'comment' },
      event: 'workflow_run',
      payload: {
        action: 'completed',
        workflow_run: { id: run, head_sha: headSha, event: 'pull_request', conclusion: 'success', pull_requests: [] },
        repository: { full_name: REPO },
      },
      runId: run + 100,
    });
  }

  describe('comment mode re-judges a forwarded report', () => {
    it('a report whose failing entry is relabelled pass is posted as failed, marked not trustworthy, with the claim and the re-judged verdict', async () => {
      const RUN = 9401;
      const headSha = 'a1'.repeat(20);
      const { baseSha } = forkPull(91, headSha, { [BASELINE_FILE]: baselineJson(TRUSTED) });
      const forged = forge(await honestReport(TRUSTED, GROWN));
      const at = forged.entries.findIndex((e) => e.key === 'DEV_MEM/dev1/APP');
      expect(forged.entries[at]).toMatchObject({ status: 'pass', baseline: 2078195712, current: 20781957120 });
      expect(forged.result).toBe('pass');
      fake.addArtifact({ name: 'memory-gate-report', runId: RUN, files: { 'report.json': JSON.stringify(forged) } });

      const r = await commentRun(RUN, headSha);
      expect(r.code, why(r)).toBe(0);
      expect(r.outputs).toMatchObject({ result: 'fail', regressions: '1' });
      expect(r.warnings.map((w) => w.message)).toContain(
        `The report of run ${RUN} is not trustworthy: 4 of its claims do not follow from the baseline and config of the base commit ${baseSha.slice(0, 12)} (first: /entries/${at}/status of DEV_MEM/dev1/APP says 'pass', re-judged 'regressed'); the comment shows the verdicts re-judged here`,
      );
      const [comment] = fake.comments(91);
      const body = comment!.body;
      expect(body).not.toContain('Memory gate passed');
      expect(
        body.startsWith(
          `${MARKER}\n#### ⛔ This report is not trustworthy: 4 of its claims do not follow from the trusted limits\n`,
        ),
      ).toBe(true);
      expect(body).toContain(`| \`/entries/${at}/status\` | \`DEV_MEM/dev1/APP\` | \`pass\` | \`regressed\` |`);
      expect(body).toContain('| `/counts/regressed` |  | 0 | 1 |');
      expect(body).toContain('| `/counts/pass` |  | 16 | 15 |');
      expect(body).toContain('| `/result` |  | `pass` | `fail` |');
      expect(body).toMatch(/### ❌ Memory gate failed: 1 regressed/);
      expect(body).toContain('`DEV_MEM/dev1/APP`');
      expect(r.summary).toContain('This report is not trustworthy');
      const posted = readReport(r);
      expect(posted.result).toBe('fail');
      expect(posted.entries[at]).toMatchObject({
        key: 'DEV_MEM/dev1/APP',
        status: 'regressed',
        severity: 'fail',
        baseline: 2078195712,
        current: 20781957120,
      });
    });

    it('an honest report is posted as it is, with no mark', async () => {
      const RUN = 9402;
      const headSha = 'a2'.repeat(20);
      forkPull(92, headSha, { [BASELINE_FILE]: baselineJson(TRUSTED) });
      const honest = await honestReport(TRUSTED, GROWN);
      fake.addArtifact({ name: 'memory-gate-report', runId: RUN, files: { 'report.json': JSON.stringify(honest) } });
      const r = await commentRun(RUN, headSha);
      expect(r.code, why(r)).toBe(0);
      expect(r.warnings.map((w) => w.message).filter((m) => m.includes('trustworthy'))).toEqual([]);
      const body = fake.comments(92)[0]!.body;
      expect(body).not.toContain('⛔');
      expect(body).toMatch(/### ❌ Memory gate failed: 1 regressed/);
      expect(readReport(r).entries).toEqual(honest.entries);
    });

    it('with no pull request to post on, the forged report is re-judged against the default branch, and the summary says so', async () => {
      const RUN = 9409;
      // A head no pull request has (a push run, or a PR closed meanwhile): only the job summary and the outputs remain.
      const headSha = 'a9'.repeat(20);
      const mainSha = fake.commitFiles({
        branch: 'main',
        files: { [BASELINE_FILE]: baselineJson(TRUSTED) },
        message: 'trusted baseline on main',
      });
      fake.addArtifact({
        name: 'memory-gate-report',
        runId: RUN,
        files: { 'report.json': JSON.stringify(forge(await honestReport(TRUSTED, GROWN))) },
      });
      fake.clearLog();
      const r = await commentRun(RUN, headSha);
      expect(r.code, why(r)).toBe(0);
      expect(r.outputs).toMatchObject({ result: 'fail', regressions: '1' });
      expect(r.warnings.map((w) => w.message)).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^The report of run ${RUN} is not trustworthy: 4 of its claims do not follow from the baseline and config of main at ${mainSha.slice(0, 12)} \\(first: /entries/\\d+/status of DEV_MEM/dev1/APP says 'pass', re-judged 'regressed'\\); the summary shows the verdicts re-judged here$`,
          ),
        ),
      );
      expect(r.summary).toContain(
        '#### ⛔ This report is not trustworthy: 4 of its claims do not follow from the trusted limits',
      );
      expect(r.summary).toContain(
        `The run uploaded a report whose claims differ from what the baseline and config of \`main\` at \`${mainSha.slice(0, 12)}\` give`,
      );
      expect(r.summary).toMatch(/### ❌ Memory gate failed: 1 regressed/);
      expect(r.summary).not.toContain('Memory gate passed');
      expect(fake.writes()).toEqual([]);
    });

    it('a renamed key and another baseline: the trusted key is judged missing, the renamed one new, each claim listed', async () => {
      const RUN = 9403;
      const headSha = 'a3'.repeat(20);
      const { baseSha } = forkPull(93, headSha, { [BASELINE_FILE]: baselineJson(TRUSTED) });
      const forged = forge(await honestReport(TRUSTED, GROWN));
      // The failing key renamed, and another key compared against a raised baseline.
      const app = forged.entries.find((e) => e.key === 'DEV_MEM/dev1/APP')!;
      app.key = 'DEV_MEM/dev1/APP_renamed';
      const hccl = forged.entries.find((e) => e.key === 'DEV_MEM/dev2/HCCL')!;
      hccl.baseline = hccl.current! * 2;
      fake.addArtifact({ name: 'memory-gate-report', runId: RUN, files: { 'report.json': JSON.stringify(forged) } });

      const r = await commentRun(RUN, headSha);
      expect(r.code, why(r)).toBe(0);
      const body = fake.comments(93)[0]!.body;
      expect(body).toContain('#### ⛔ This report is not trustworthy');
      expect(body).toContain(`the baseline and config of the base commit \`${baseSha.slice(0, 12)}\``);
      expect(body).toContain('| `/entries` | `DEV_MEM/dev1/APP` | no entry | `missing` (fail) |');
      expect(body).toMatch(/\| `\/entries\/\d+\/baseline` \| `DEV_MEM\/dev1\/APP_renamed` \| 1\.9 GiB \| absent \|/);
      expect(body).toMatch(/\| `\/entries\/\d+\/status` \| `DEV_MEM\/dev1\/APP_renamed` \| `pass` \| `new` \|/);
      expect(body).toMatch(/\| `\/entries\/\d+\/baseline` \| `DEV_MEM\/dev2\/HCCL` \| 164\.0 MiB \| 82\.0 MiB \|/);
      // A baseline key the report has no entry for: its figure is unknown, and that fails, whatever onMissing says.
      const posted = readReport(r);
      expect(posted.result).toBe('fail');
      expect(
        posted.entries
          .filter((e) => e.key.startsWith('DEV_MEM/dev1/APP') && e.status !== 'imbalance')
          .map((e) => [e.key, e.status, e.severity, e.baseline, e.current]),
      ).toEqual([
        ['DEV_MEM/dev1/APP', 'missing', 'fail', 2078195712, null],
        ['DEV_MEM/dev1/APP_renamed', 'new', 'warn', null, 20781957120],
      ]);
      expect(body).toMatch(/### ❌ Memory gate failed/);
      expect(posted.entries.find((e) => e.key === 'DEV_MEM/dev2/HCCL')).toMatchObject({
        baseline: 82 * MiB,
        status: 'pass',
      });
    });
  });

  describe('the maintainer label only counts for the limits a maintainer saw', () => {
    /** Base commit with the trusted baseline; H1 raises it 2x (what the maintainer labelled); H2 pushes it to 4x or changes only code. */
    function labelledPull(number: number): { base: string; h1: string; branch: string } {
      const baseRef = `label-base-${++branches}`;
      const base = fake.commitFiles({
        branch: baseRef,
        files: { [BASELINE_FILE]: baselineJson(BASE_MODULES) },
        parent: null,
        message: `base ${baseRef}`,
      });
      const branch = `label-head-${number}`;
      const h1 = fake.commitFiles({
        branch,
        files: { [BASELINE_FILE]: baselineJson(scaledAll(2)), 'train.py': 'v1' },
        parent: base,
        message: 'raise the baseline',
      });
      fake.addPull({ number, headRef: branch, baseRef, labels: [LABEL] });
      return { base, h1, branch };
    }
    const scaledAll = (factor: number): Record<string, ModuleValue> =>
      Object.fromEntries(
        Object.entries(BASE_MODULES).map(([k, v]) => [
          k,
          { ...v, peak: v.peak * factor, current: (v.current ?? v.peak) * factor },
        ]),
      );

    function synchronize(number: number, before: string, after: string, base: string): unknown {
      const payload = prPayload(number, after, base, [LABEL]) as Record<string, unknown>;
      return { ...payload, action: 'synchronize', before, after };
    }

    it('check mode: a push that raises the baseline after the label was set is gated against the base commit, and the label is removed', async () => {
      const PR = 95;
      const { base, h1, branch } = labelledPull(PR);
      const h2 = fake.commitFiles({
        branch,
        files: { [BASELINE_FILE]: baselineJson(scaledAll(4)) },
        message: 'raise it again',
      });
      const dirs = newRunDirs();
      writeFiles(dirs.workspace, { [BASELINE_FILE]: baselineJson(scaledAll(4)), ...rankPlogs(scaledAll(3), RANKS) });
      fake.clearLog();
      const r = await runAction({
        dirs,
        inputs: { plog: '.' },
        event: 'pull_request',
        payload: synchronize(PR, h1, h2, base),
      });
      expect(r.code, why(r)).toBe(1);
      expect(r.outputs.result).toBe('fail');
      expect(r.warnings.map((w) => w.message)).toContain(
        `The label '${LABEL}' did not count: the push ${h1.slice(0, 12)} → ${h2.slice(0, 12)} changes ${BASELINE_FILE}, which no maintainer has reviewed; the label was removed: a maintainer sets it again after reviewing the change`,
      );
      expect(fake.state.pulls.find((p) => p.number === PR)!.labels).toEqual([]);
      expect(fake.requests({ route: 'issues.removeLabel' }).map((q) => q.path)).toEqual([
        `/repos/${REPO}/issues/${PR}/labels/${LABEL}`,
      ]);
      const body = fake.comments(PR)[0]!.body;
      expect(body).toContain(
        `**These changes were not used**: the label \`${LABEL}\` was set before the push \`${h1.slice(0, 12)}\` → \`${h2.slice(0, 12)}\`, which changes \`${BASELINE_FILE}\`, so no maintainer has reviewed these limits. The label was removed: a maintainer reviews the changes and sets it again. The gate ran against the baseline and config of the base commit \`${base.slice(0, 12)}\`.`,
      );
    });

    it('check mode: a push that changes neither the baseline nor the config keeps the label, and the PR’s own limits gate it', async () => {
      const PR = 96;
      const { base, h1, branch } = labelledPull(PR);
      const h2 = fake.commitFiles({ branch, files: { 'train.py': 'v2' }, message: 'code only' });
      const dirs = newRunDirs();
      writeFiles(dirs.workspace, { [BASELINE_FILE]: baselineJson(scaledAll(2)), ...rankPlogs(scaledAll(2), RANKS) });
      fake.clearLog();
      const r = await runAction({
        dirs,
        inputs: { plog: '.' },
        event: 'pull_request',
        payload: synchronize(PR, h1, h2, base),
      });
      expect(r.code, why(r)).toBe(0);
      expect(r.outputs.result).toBe('pass');
      expect(fake.state.pulls.find((p) => p.number === PR)!.labels).toEqual([LABEL]);
      expect(fake.requests({ route: 'issues.removeLabel' })).toEqual([]);
      expect(fake.comments(PR)[0]!.body).toContain("**This pull request's own limits were used**");
    });

    it('check mode: a reopened pull request (pushes while closed send no synchronize) is gated against the base commit until the label is set again', async () => {
      const PR = 94;
      const { base, branch } = labelledPull(PR);
      // Pushed while closed: GitHub sends no synchronize for it, only 'reopened' with the new head.
      const h2 = fake.commitFiles({
        branch,
        files: { [BASELINE_FILE]: baselineJson(scaledAll(4)) },
        message: 'raised while closed',
      });
      const dirs = newRunDirs();
      writeFiles(dirs.workspace, { [BASELINE_FILE]: baselineJson(scaledAll(4)), ...rankPlogs(scaledAll(3), RANKS) });
      fake.clearLog();
      const reopened = { ...(prPayload(PR, h2, base, [LABEL]) as Record<string, unknown>), action: 'reopened' };
      const r = await runAction({ dirs, inputs: { plog: '.' }, event: 'pull_request', payload: reopened });
      expect(r.code, why(r)).toBe(1);
      expect(r.warnings.map((w) => w.message)).toContain(
        `The label '${LABEL}' did not count: which limits a maintainer saw cannot be told (the pull request was reopened, and GitHub reports no push made while it was closed); the label was removed: a maintainer sets it again after reviewing the change`,
      );
      expect(fake.state.pulls.find((p) => p.number === PR)!.labels).toEqual([]);
      // Set again (a 'labeled' event): the PR's own limits count.
      const labelled = await runAction({
        dirs,
        inputs: { plog: '.' },
        event: 'pull_request',
        payload: { ...(prPayload(PR, h2, base, [LABEL]) as Record<string, unknown>), action: 'labeled' },
      });
      expect(labelled.code, why(labelled)).toBe(0);
      expect(labelled.outputs.result).toBe('pass');
    });

    it('check mode without pull-requests: write: the label does not count, and the report says it must be set again', async () => {
      const PR = 97;
      const { base, h1, branch } = labelledPull(PR);
      const h2 = fake.commitFiles({
        branch,
        files: { '.github/memory-gate.json': JSON.stringify({ modules: { tolerance: { percent: 300 } } }) },
        message: 'loosen',
      });
      fake.forceResponse({
        method: 'DELETE',
        path: /\/labels\//,
        status: 403,
        body: { message: 'Resource not accessible by integration' },
        times: 1,
      });
      const dirs = newRunDirs();
      writeFiles(dirs.workspace, {
        [BASELINE_FILE]: baselineJson(scaledAll(2)),
        '.github/memory-gate.json': JSON.stringify({ modules: { tolerance: { percent: 300 } } }),
        ...rankPlogs(scaledAll(3), RANKS),
      });
      const r = await runAction({
        dirs,
        inputs: { plog: '.' },
        event: 'pull_request',
        payload: synchronize(PR, h1, h2, base),
      });
      expect(r.code, why(r)).toBe(1);
      expect(r.warnings.map((w) => w.message)).toContain(
        `The label '${LABEL}' did not count: the push ${h1.slice(0, 12)} → ${h2.slice(0, 12)} changes .github/memory-gate.json, which no maintainer has reviewed; the token cannot remove the label (it needs \`pull-requests: write\`): a maintainer removes it and sets it again after reviewing the change`,
      );
      expect(fake.state.pulls.find((p) => p.number === PR)!.labels).toEqual([LABEL]);
      expect(r.summary).toContain(
        'The token cannot remove the label (it needs `pull-requests: write`): a maintainer removes it and sets it again after reviewing the changes.',
      );
    });

    it('comment mode: a run whose head changed the baseline since the label was set is re-judged against the base commit; the label is removed', async () => {
      const PR = 98;
      const RUN = 9501;
      const baseRef = `label-base-${++branches}`;
      const base = fake.commitFiles({
        branch: baseRef,
        files: { [BASELINE_FILE]: baselineJson(BASE_MODULES) },
        parent: null,
        message: `base ${baseRef}`,
      });
      const forkBranch = `fork-head-${PR}`;
      const h1 = fake.commitFiles({
        branch: forkBranch,
        files: { [BASELINE_FILE]: baselineJson(scaledAll(2)) },
        parent: base,
        message: 'raise',
      });
      const h2 = fake.commitFiles({
        branch: forkBranch,
        files: { [BASELINE_FILE]: baselineJson(scaledAll(4)) },
        message: 'raise again',
      });
      // Opened at :00 with H1 (run 9500), labelled at :05, H2 pushed and run at :10.
      fake.addPull({ number: PR, headRef: 'patch-98', headOwner: 'forker', headSha: h2, baseRef, createdAt: times(0) });
      fake.state.pulls.find((p) => p.number === PR)!.labels.push(LABEL);
      fake.state.pulls
        .find((p) => p.number === PR)!
        .labelEvents.push({
          event: 'labeled',
          label: LABEL,
          createdAt: times(5),
          actor: { login: 'maintainer', id: 7, type: 'User' },
        });
      fake.addRun({
        id: RUN - 1,
        headSha: h1,
        headBranch: 'patch-98',
        headRepository: 'forker/octo-repo',
        createdAt: times(1),
      });
      fake.addRun({
        id: RUN,
        headSha: h2,
        headBranch: 'patch-98',
        headRepository: 'forker/octo-repo',
        createdAt: times(10),
      });
      // The fork's run gated itself with its own 4x baseline and passed.
      const report = await honestReport(scaledAll(4), scaledAll(3));
      expect(report.result).toBe('pass');
      fake.addArtifact({ name: 'memory-gate-report', runId: RUN, files: { 'report.json': JSON.stringify(report) } });

      const r = await commentRun(RUN, h2);
      expect(r.code, why(r)).toBe(0);
      expect(r.outputs.result).toBe('fail');
      expect(r.warnings.map((w) => w.message)).toContain(
        `The label '${LABEL}' did not count: ${BASELINE_FILE} changed between ${h1.slice(0, 12)} (the pull request's head when the label was set) and ${h2.slice(0, 12)} (the head of run ${RUN}), which no maintainer has reviewed; the label was removed: a maintainer sets it again after reviewing the change`,
      );
      expect(fake.state.pulls.find((p) => p.number === PR)!.labels).toEqual([]);
      const body = fake.comments(PR)[0]!.body;
      expect(body).not.toContain('Memory gate passed');
      expect(body).toContain('#### ⛔ This report is not trustworthy');
      expect(body).toContain(
        `**These changes were not used**: the label \`${LABEL}\` was set when the pull request's head was \`${h1.slice(0, 12)}\`; \`${h2.slice(0, 12)}\` (the head of run ${RUN}) changes \`${BASELINE_FILE}\` since, so no maintainer has reviewed these limits. The label was removed: a maintainer reviews the changes and sets it again. The gate ran against the baseline and config of the base commit \`${base.slice(0, 12)}\`.`,
      );
    });

    it('comment mode: a label set after the run’s head was pushed counts, and the PR’s own limits re-judge it', async () => {
      const PR = 99;
      const RUN = 9511;
      const baseRef = `label-base-${++branches}`;
      const base = fake.commitFiles({
        branch: baseRef,
        files: { [BASELINE_FILE]: baselineJson(BASE_MODULES) },
        parent: null,
        message: `base ${baseRef}`,
      });
      const h2 = fake.commitFiles({
        branch: `fork-head-${PR}`,
        files: { [BASELINE_FILE]: baselineJson(scaledAll(4)) },
        parent: base,
        message: 'raise',
      });
      fake.addPull({
        number: PR,
        headRef: 'patch-99',
        headOwner: 'forker',
        headSha: h2,
        baseRef,
        createdAt: times(0),
        labels: [LABEL],
        labeledAt: times(20),
      });
      fake.addRun({
        id: RUN,
        headSha: h2,
        headBranch: 'patch-99',
        headRepository: 'forker/octo-repo',
        createdAt: times(10),
      });
      const report = await honestReport(scaledAll(4), scaledAll(3));
      fake.addArtifact({ name: 'memory-gate-report', runId: RUN, files: { 'report.json': JSON.stringify(report) } });
      fake.clearLog();
      const r = await commentRun(RUN, h2);
      expect(r.code, why(r)).toBe(0);
      expect(r.outputs.result).toBe('pass');
      expect(fake.state.pulls.find((p) => p.number === PR)!.labels).toEqual([LABEL]);
      expect(fake.requests({ route: 'issues.removeLabel' })).toEqual([]);
      const body = fake.comments(PR)[0]!.body;
      expect(body).not.toContain('⛔');
      expect(body).toContain("**This pull request's own limits were used**");
    });
  });
});

// ───────────────────────────── 9. refused report artifacts (issue 25) ─────────────────────────────

describe('refused report artifacts', () => {
  function commentRun(run: number, headSha: string): Promise<ActionRun> {
    return runAction({
      inputs: { mode: 'comment' },
      event: 'workflow_run',
      payload: {
        action: 'completed',
        workflow_run: { id: run, head_sha: headSha, event: 'pull_request', conclusion: 'success', pull_requests: [] },
        repository: { full_name: REPO },
      },
      runId: run + 100,
    });
  }

  /** A zip whose central directory says its one entry is `declared` bytes (the local header and data stay honest). */
  function withDeclaredSize(zip: Buffer, declared: number): Buffer {
    const out = Buffer.from(zip);
    const central = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    out.writeUInt32LE(declared, central + 24);
    return out;
  }
  const report = JSON.stringify({ result: 'pass', counts: {}, entries: [] });
  let refusedRun = 9600;

  it.each<[string, () => Buffer, string]>([
    [
      'not a zip',
      () => Buffer.from('PK\u0003\u0004 this is not a zip archive at all'),
      'it is not a zip archive, or it was cut short',
    ],
    [
      'a bomb over the cap',
      () => withDeclaredSize(buildZip([{ name: 'report.json', data: report }]), 600 * MiB),
      'its entries declare more than 512.0 MiB, the most allowed',
    ],
    [
      'sizes that lie',
      () => withDeclaredSize(buildZip([{ name: 'report.json', data: 'x'.repeat(4096) }]), 100),
      "its entry 'report.json' holds more bytes than its header declares (100)",
    ],
    [
      'an entry inflating over 100x',
      () => buildZip([{ name: 'report.json', data: Buffer.alloc(64 * MiB, 0x20) }]),
      "its entry 'report.json' inflates to more than 100 times its compressed size (63.7 KiB), stopped at 6.2 MiB",
    ],
  ])('%s: one error naming the artifact, why it was refused and that nothing was posted', async (_story, zip, why_) => {
    const RUN = ++refusedRun;
    const headSha = `${RUN}`.padEnd(40, 'c');
    fake.addPull({ number: RUN, headRef: `refused-${RUN}`, headOwner: 'forker', headSha });
    fake.addArtifact({ name: 'memory-gate-report', runId: RUN, zip: zip() });
    fake.clearLog();
    const r = await commentRun(RUN, headSha);
    expect(r.code, why(r)).toBe(1);
    expect(r.errors.map((e) => e.message)).toEqual([
      `the report artifact 'memory-gate-report' of run ${RUN} of octo-org/octo-repo was refused: ${why_}; nothing was posted`,
    ]);
    expect(r.stdout).not.toContain('missing-artifacts');
    expect(fake.comments(RUN)).toEqual([]);
    expect(fake.writes()).toEqual([]);
    expect(r.summary).toBe('');
  });
});

// ───────────────────────────── issue 22: a torch_npu OOM snapshot as the only evidence ─────────────────────────────

describe('memory snapshots', () => {
  it("a training job's OOM snapshot alone fails the PR, and the comment says fragmentation with the numbers", async () => {
    const dirs = newRunDirs();
    // What OOM_SNAPSHOT_ENABLE=1 leaves in OOM_SNAPSHOT_PATH: the pickle and torch_npu's module table beside it.
    const fixtures = join(ROOT, 'test', 'fixtures', 'memory-snapshot', 'constructed');
    mkdirSync(join(dirs.workspace, 'oom', 'rank0'), { recursive: true });
    for (const name of ['oom_snapshot_4242_20261201101500.pickle', 'device_0_memUsageInfo_20261201101500.csv']) {
      cpSync(join(fixtures, name), join(dirs.workspace, 'oom', 'rank0', name));
    }
    const PR = 2201;
    const r = await runAction({
      dirs,
      inputs: { 'memory-snapshot': 'oom', 'html-report': 'memory-report.html' },
      event: 'pull_request',
      payload: prPayload(PR, 'e'.repeat(40), baseOf(dirs)),
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.outputs.result).toBe('fail');
    // One annotation for the failing key, then the job's one-line reason.
    expect(r.errors.map((e) => e.props.title)).toEqual(['Memory gate: dev0/fragmentation oom', undefined]);
    expect(r.errors[1]?.message).toMatch(/^Memory gate failed: dev0\/fragmentation oom/);
    const report = readReport(r);
    expect(
      report.entries.filter((e) => e.severity === 'fail').map((e) => [e.kind, e.key, e.status, e.current]),
    ).toEqual([['oom', 'dev0/fragmentation', 'oom', 1536 * MiB]]);
    const comments = fake.comments(PR);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body.replaceAll('\u00a0', ' ');
    expect(body).toContain('\n### ❌ Memory gate failed: 1 oom (no baseline yet: 7 keys recorded) (1 warning)\n');
    // The explanation, escaped as markdown text: the numbers a memory engineer reads first.
    const note = body.split('\n').find((line) => line.startsWith('1. `dev0/fragmentation`: '));
    expect(note).toBeDefined();
    const plain = note!.replace(/\\(.)/g, '$1');
    expect(plain).toContain(
      'Fragmentation: PyTorch held 10.8 GiB reserved but unallocated (34.6 GiB reserved, 23.8 GiB allocated), more than the 1.5 GiB requested, ' +
        'but in no block that large (the largest free block: 1.2 GiB, at dump time, which the OOM triggered); 1000.0 MiB were free on the 26.0 GiB device ' +
        "(torch_npu's module table plus the free memory). Set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True",
    );
    expect(plain).toContain(
      'Largest holders at the OOM: model/mlp.py:88 forward 12.5 GiB, model/attention.py:212 forward 7.2 GiB',
    );
    expect(plain).toContain('From oom/rank0/oom_snapshot_4242_20261201101500.pickle.');
    expect(body).toContain('| ⚠️ `dev0` | — → 23.8 GiB | — → 34.6 GiB | 10.8 GiB (31.2%) |');
    // The HTML report draws reserved and allocated over the trace, with no script.
    const html = readFileSync(join(dirs.workspace, 'memory-report.html'), 'utf8');
    expect(html).toContain('<svg class="trace-timeline"');
    expect(html).not.toMatch(/<script/i);
  });
});

// ───────────────────────────── issue 32: a job log's OOM as the only evidence ─────────────────────────────

describe('job logs', () => {
  const OOM =
    '[rank0]: RuntimeError: NPU out of memory. Tried to allocate 4.00 GiB (NPU 0; 32.00 GiB total capacity; 2.00 GiB already allocated; 2.00 GiB current active; 1.00 GiB free; 2.50 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.';
  const NOTE =
    "Held outside the allocator: of the 32.0 GiB device, PyTorch reserved 2.5 GiB and 1.0 GiB were free, so 28.5 GiB were held outside PyTorch's allocator (more than inside it) when 4.0 GiB were requested. " +
    'Find what holds it: `npu-smi info` for other processes on the device (from a container that sees every device), HCCL_BUFFSIZE for';

  it("a training job's log alone fails the PR, the comment names the cause with its numbers and the next step, and comment mode re-judges it clean", async () => {
    const dirs = newRunDirs();
    mkdirSync(join(dirs.workspace, 'logs'), { recursive: true });
    const progress = Array.from(
      { length: 200 },
      (_, i) => `2026-12-04T10:00:${String(i % 60).padStart(2, '0')}.0000000Z step ${i} loss=2.31`,
    );
    writeFileSync(join(dirs.workspace, 'logs', 'train.log'), [...progress, OOM, OOM, ''].join('\n'));
    const PR = 3201;
    const r = await runAction({
      dirs,
      inputs: { 'job-log': 'logs' },
      event: 'pull_request',
      payload: prPayload(PR, 'f'.repeat(40), baseOf(dirs)),
    });
    expect(r.code, why(r)).toBe(1);
    expect(r.outputs.result).toBe('fail');
    expect(r.errors.map((e) => e.props.title)).toEqual(['Memory gate: dev0/outside-allocator oom', undefined]);
    const report = readReport(r);
    expect(report.entries.map((e) => [e.kind, e.key, e.status, e.severity, e.current])).toEqual([
      ['oom', 'dev0/outside-allocator', 'oom', 'fail', 4 * 1024 * MiB],
    ]);
    const body = fake.comments(PR)[0]!.body.replaceAll('\u00a0', ' ');
    expect(body).toContain('\n### ❌ Memory gate failed: 1 oom');
    const note = body.split('\n').find((line) => line.startsWith('1. `dev0/outside-allocator`: '));
    expect(note, body).toBeDefined();
    const plain = note!.replace(/\\(.)/g, '$1');
    expect(plain).toContain(NOTE);
    expect(plain).toContain('From logs/train.log:201 (printed 2 times).');

    // The fork-safe path: the same report as the pull_request run's artifact, re-judged by a workflow_run job.
    const RUN = 9321;
    const headSha = '3'.repeat(40);
    // The base branch: no baseline, the default config (an OOM fails whatever the baseline).
    fake.commitFiles({
      branch: 'oom-base',
      parent: null,
      message: 'base of oom-base',
      files: { '.github/memory-gate.json': '{}' },
    });
    const pr = fake.addPull({ number: 3202, headRef: 'oom', headOwner: 'forker', headSha, baseRef: 'oom-base' });
    fake.addArtifact({
      name: 'memory-gate-report',
      runId: RUN,
      files: { 'report.json': readFileSync(r.outputs.report!, 'utf8') },
    });
    const c = await runAction({
      inputs: { mode: 'comment' },
      event: 'workflow_run',
      payload: {
        action: 'completed',
        workflow_run: { id: RUN, head_sha: headSha, event: 'pull_request', conclusion: 'failure', pull_requests: [] },
        repository: { full_name: REPO },
      },
      runId: 9322,
    });
    expect(c.code, why(c)).toBe(0);
    expect(c.outputs.result).toBe('fail');
    const posted = fake.comments(pr.number)[0]!.body.replaceAll('\u00a0', ' ');
    // Re-judged clean: no claim of the report differs from what the trusted limits give.
    expect(posted).toContain('### ❌ Memory gate failed: 1 oom');
    expect(posted).not.toContain('This report is not trustworthy');
    expect(
      posted
        .split('\n')
        .find((line) => line.startsWith('1. `dev0/outside-allocator`: '))!
        .replace(/\\(.)/g, '$1'),
    ).toContain(NOTE);
  });
});

// ───────────────────────────── issue 30: comment mode re-judges every kind of evidence's findings ─────────────────────────────

describe('comment mode on honest reports of each kind of evidence (the findings re-judged from their declarations)', () => {
  const CLI = join(ROOT, 'dist', 'cli.js');
  let nextRun = 9700;

  /** `node dist/cli.js baseline --out baselines/memory-baseline.json ARGS` in the workspace: the baseline a user commits. */
  async function recordBaseline(dirs: RunDirs, args: string[]): Promise<void> {
    const stderr = await new Promise<string>((done) => {
      execFile(
        process.execPath,
        [CLI, 'baseline', '--out', 'baselines/memory-baseline.json', ...args],
        { cwd: dirs.workspace },
        (err, _stdout, stderr) => done(err ? `${err.message}\n${stderr}` : ''),
      );
    });
    expect(stderr).toBe('');
  }

  /**
   * The gate's run on the fork PR's head (check mode, the base's baseline and config in its workspace), its report.json
   * uploaded as the artifact; then the comment job (mode: comment, workflow_run) re-judges it from the base commit.
   */
  async function gateThenComment(
    dirs: RunDirs,
    inputs: Record<string, string>,
    prNumber: number,
  ): Promise<{ check: ActionRun; comment: ActionRun; body: string }> {
    const files: Record<string, string> = {};
    for (const name of ['baselines/memory-baseline.json', '.github/memory-gate.json']) {
      const file = join(dirs.workspace, name);
      if (existsSync(file)) files[name] = readFileSync(file, 'utf8');
    }
    const baseRef = `findings-base-${prNumber}`;
    fake.commitFiles({ branch: baseRef, files, parent: null, message: `base of ${baseRef}` });
    const headSha = prNumber.toString(16).padStart(40, 'f');
    const check = await runAction({ dirs, inputs: { ...inputs, comment: 'never' }, event: 'push', sha: headSha });
    const report = readReport(check);
    const run = nextRun++;
    fake.addArtifact({
      name: 'memory-gate-report',
      runId: run,
      files: { 'report.json': readFileSync(check.outputs.report!, 'utf8') },
    });
    fake.addPull({ number: prNumber, headRef: 'patch-1', headOwner: 'forker', headSha, baseRef });
    const payload = {
      action: 'completed',
      workflow_run: {
        id: run,
        head_sha: headSha,
        event: 'pull_request',
        conclusion: report.result === 'fail' ? 'failure' : 'success',
        pull_requests: [],
      },
      repository: { full_name: REPO },
    };
    const comment = await runAction({
      inputs: { mode: 'comment', comment: 'always' },
      event: 'workflow_run',
      payload,
      runId: run + 1000,
    });
    expect(comment.code, why(comment)).toBe(0);
    const comments = fake.comments(prNumber);
    expect(comments, why(comment)).toHaveLength(1);
    return { check, comment, body: comments[0]!.body.replaceAll('\u00a0', ' ') };
  }

  /** Nothing marked: no "not trustworthy" banner in the comment or the job summary, no warning saying so. */
  function trusted(r: { comment: ActionRun; body: string }): void {
    expect(r.body).not.toContain('⛔');
    expect(r.body).not.toContain('not trustworthy');
    expect(r.comment.summary).not.toContain('not trustworthy');
    expect(r.comment.warnings.map((w) => w.message).filter((m) => m.includes('not trustworthy'))).toEqual([]);
  }

  it('an allocator snapshot with an OOM, the only evidence of a first run', async () => {
    const dirs = newRunDirs();
    const fixtures = join(ROOT, 'test', 'fixtures', 'memory-snapshot', 'constructed');
    mkdirSync(join(dirs.workspace, 'oom'), { recursive: true });
    cpSync(
      join(fixtures, 'oom_snapshot_4242_20261201101500.pickle'),
      join(dirs.workspace, 'oom', 'oom_snapshot_4242_20261201101500.pickle'),
    );
    const r = await gateThenComment(dirs, { 'memory-snapshot': 'oom' }, 3001);
    expect(r.check.outputs.result).toBe('fail');
    trusted(r);
    expect(r.body).toContain('### ❌ Memory gate failed: 1 oom (no baseline yet: 7 keys recorded) (1 warning)');
    expect(r.comment.outputs.result).toBe('fail');
  });

  it('a fragmented warning on a real snapshot, the fragmentation config on the base commit too', async () => {
    const dirs = newRunDirs();
    mkdirSync(join(dirs.workspace, 'snap'), { recursive: true });
    cpSync(
      join(ROOT, 'test', 'fixtures', 'memory-snapshot', 'corpus', 'snapshot_1768383987920985470.pkl'),
      join(dirs.workspace, 'snap', 'snapshot_1768383987920985470.pkl'),
    );
    writeFiles(dirs.workspace, {
      '.github/memory-gate.json': JSON.stringify({ fragmentation: { percent: 5, bytes: '1MiB' } }),
    });
    await recordBaseline(dirs, ['--memory-snapshot', 'snap']);
    const r = await gateThenComment(dirs, { 'memory-snapshot': 'snap' }, 3002);
    expect(
      readReport(r.check)
        .entries.filter((e) => e.status === 'fragmented')
        .map((e) => [e.key, e.severity]),
    ).toEqual([['dev0/allocated', 'warn']]);
    trusted(r);
    expect(r.body).toContain('Memory gate passed');
    expect(r.body).toContain('fragmented');
    expect(r.comment.outputs.result).toBe('pass');
  });

  it("msMemScope dumps with a step leak (msMemScope's rule), against a clean run's dump", async () => {
    const dirs = newRunDirs();
    writeFiles(dirs.workspace, {
      'clean/memscope_dump_20260101000000.csv': memscopeDumpText({ steps: 6, opsPerStep: 5 }),
    });
    await recordBaseline(dirs, ['--dump', 'clean']);
    writeFiles(dirs.workspace, {
      'leak/memscope_dump_20260101000000.csv': memscopeDumpText({ steps: 6, opsPerStep: 5, leakFromStep: 2 }),
    });
    const r = await gateThenComment(dirs, { 'memscope-dump': 'leak' }, 3003);
    const statuses = readReport(r.check).entries.map((e) => e.status);
    expect([statuses.filter((s) => s === 'step-leak').length, statuses.filter((s) => s === 'growing').length]).toEqual([
      1, 2,
    ]);
    trusted(r);
    expect(r.body).toContain('step-leak');
    expect(r.comment.outputs.result).toBe('fail');
  });

  it('profiler CSVs whose allocated memory keeps growing', async () => {
    const dirs = newRunDirs();
    const rising = (w: number): number => (w < 20 ? 4000 : 4000 + (w - 20) * 80);
    writeFiles(dirs.workspace, {
      'prof/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv': memoryRecord(100, (w) => rising(w)),
    });
    await recordBaseline(dirs, ['--profiler', 'prof']);
    const r = await gateThenComment(dirs, { profiler: 'prof' }, 3004);
    expect(
      readReport(r.check)
        .entries.filter((e) => e.status === 'growing')
        .map((e) => [e.kind, e.key]),
    ).toEqual([
      ['component', 'dev0/PTA/active'],
      ['component', 'dev0/PTA/allocated'],
    ]);
    trusted(r);
    expect(r.body).toContain('growing');
    expect(r.comment.outputs.result).toBe('pass');
  });

  it('a job log with one OOM of each cause on six devices, the only evidence of a first run', async () => {
    const dirs = newRunDirs();
    mkdirSync(join(dirs.workspace, 'logs'), { recursive: true });
    cpSync(join(ROOT, 'test', 'fixtures', 'job-log', 'train.log'), join(dirs.workspace, 'logs', 'train.log'));
    const r = await gateThenComment(dirs, { 'job-log': 'logs' }, 3005);
    expect(r.check.outputs.result).toBe('fail');
    expect(readReport(r.check).entries.map((e) => [e.key, e.status, e.severity])).toEqual([
      ['dev0/outside-allocator', 'oom', 'fail'],
      ['dev1/fragmentation', 'oom', 'fail'],
      ['dev2/capacity', 'oom', 'fail'],
      ['dev3/request-exceeds-device', 'oom', 'fail'],
      ['dev4/free-but-refused', 'oom', 'fail'],
      ['dev5/unknown', 'oom', 'fail'],
    ]);
    trusted(r);
    expect(r.body).toContain('### ❌ Memory gate failed: 6 oom');
    expect(r.comment.outputs.result).toBe('fail');
  });
});

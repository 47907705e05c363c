// Every Action input, read in one place into one typed object; errors name the input.
import * as core from '@actions/core';
import { UsageError } from '../common/errors.js';
import { parseMaxIncrease } from '../gate/thresholds.js';
import { SOURCES, type SpecsBySource } from '../parsers/evidence-sources.js';
import { splitList } from '../sources/local.js';
import { DEFAULT_HISTORY_SIZE, MAX_HISTORY_SIZE } from '../history/limits.js';

type Mode = 'check' | 'update' | 'comment' | 'snapshot';
type CommentPolicy = 'on-change' | 'always' | 'never';
type UpdateStrategy = 'pull-request' | 'commit' | 'write';

export interface ActionInputs {
  /** Each evidence source's paths, directories or globs, by source name (its Action input: `plog`, `memory-compare`, …). */
  evidence: SpecsBySource;
  artifacts: string[];
  /** The run to read artifacts from; undefined = this run (same-run downloads go through the results service). */
  runId: number | undefined;
  repository: { owner: string; repo: string } | undefined;
  token: string;
  baseline: string;
  /** undefined = `.github/memory-gate.json` when it exists. */
  config: string | undefined;
  maxIncrease: string | undefined;
  mode: Mode;
  comment: CommentPolicy;
  commentKey: string;
  failJob: boolean;
  updateStrategy: UpdateStrategy;
  prune: boolean;
  reportArtifact: string;
  /** Where to write the self-contained HTML report; undefined = none. */
  htmlReport: string | undefined;
  /** Where to write the JUnit XML report (GitLab, Jenkins); undefined = none. */
  junitReport: string | undefined;
  /** Events besides workflow_dispatch, schedule and push on which update mode may write. */
  allowUpdateOn: string[];
  /** Artifacts downloaded at a time. */
  downloadConcurrency: number;
  /** An artifact that still fails after its retries: stop (`fail`) or gate the rest and list it (`warn`). */
  missingArtifacts: 'fail' | 'warn';
  /** Probe this runner for CANN, driver, chip, torch and the memory variables. */
  collectEnvironment: boolean;
  /** `KEY=VALUE` items added to this run's environment. */
  environment: string[];
  /** Keep and read the default branch's history (check and comment modes). */
  history: boolean;
  /** The branch that holds it. */
  historyBranch: string;
  /** Points it keeps. */
  historySize: number;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`'${name}' must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got '${value}'`);
}

function bool(name: string, value: string): boolean {
  if (/^(true|yes|1)$/i.test(value)) return true;
  if (/^(false|no|0)$/i.test(value)) return false;
  throw new UsageError(`'${name}' must be true or false, got '${value}'`);
}

function parseRunId(value: string): number | undefined {
  if (value === '') return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`'run-id' must be a workflow run id (digits), got '${value}'`);
  return Number(value);
}

function parseRepository(value: string): ActionInputs['repository'] {
  if (value === '') return undefined;
  const m = /^([\w.-]+)\/([\w.-]+)$/.exec(value);
  if (!m) throw new UsageError(`'repository' must look like owner/name, got '${value}'`);
  return { owner: m[1] as string, repo: m[2] as string };
}

function parseConcurrency(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 64) {
    throw new UsageError(`'download-concurrency' must be a whole number from 1 to 64, got '${value}'`);
  }
  return Number(value);
}

/** A report file input (`html-report`, `junit-report`): one path, or undefined when empty. */
function parseReportPath(input: string, example: string, value: string): string | undefined {
  const file = value.trim();
  if (file === '') return undefined;
  if (/[\r\n]/.test(file) || /[\\/]$/.test(file)) {
    throw new UsageError(`'${input}' must be one file path such as ${example}, got '${value}'`);
  }
  return file;
}

/** GitHub event names, comma- or newline-separated. */
function parseEvents(value: string): string[] {
  const events = splitList(value);
  const bad = events.find((e) => !/^[a-z_]{1,50}$/.test(e));
  if (bad !== undefined)
    throw new UsageError(`'allow-update-on' must list event names such as issue_comment, got '${bad}'`);
  return events;
}

/** A branch name git and GitHub accept (git check-ref-format's rules for one branch). */
function parseBranch(value: string): string {
  const ok =
    /^[A-Za-z0-9._/-]{1,200}$/.test(value) &&
    !value.startsWith('-') &&
    !value.startsWith('/') &&
    !value.endsWith('/') &&
    !value.endsWith('.') &&
    !value.endsWith('.lock') &&
    !value.includes('..') &&
    !value.includes('//') &&
    !value.split('/').some((part) => part.startsWith('.'));
  if (!ok) throw new UsageError(`'history-branch' must be a branch name such as memory-gate-history, got '${value}'`);
  return value;
}

function parseHistorySize(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_HISTORY_SIZE)
    throw new UsageError(`'history-size' must be a whole number from 1 to ${MAX_HISTORY_SIZE}, got '${value}'`);
  return Number(value);
}

/** 'max-increase' as given, checked now: a bad one ("5": 5% or 5 bytes?) stops the run before any download or parse. */
function checkedMaxIncrease(value: string): string | undefined {
  if (value === '') return undefined;
  parseMaxIncrease(value);
  return value;
}

/** Reads and validates every input. `get` is injectable so tests can feed inputs without the environment. */
export function readInputs(get: (name: string) => string = (name) => core.getInput(name)): ActionInputs {
  const commentKey = get('comment-key') || 'default';
  if (!/^[\w.-]{1,64}$/.test(commentKey)) {
    throw new UsageError(`'comment-key' may hold letters, digits, '.', '_' and '-' (1 to 64), got '${commentKey}'`);
  }
  return {
    // One input per evidence source (src/parsers/evidence-sources.ts), named there.
    evidence: Object.fromEntries(SOURCES.map((source) => [source.name, splitList(get(source.input))])),
    artifacts: splitList(get('artifacts')),
    runId: parseRunId(get('run-id')),
    repository: parseRepository(get('repository')),
    token: get('github-token'),
    baseline: get('baseline') || 'baselines/memory-baseline.json',
    config: get('config') || undefined,
    maxIncrease: checkedMaxIncrease(get('max-increase')),
    mode: oneOf('mode', get('mode') || 'check', ['check', 'update', 'comment', 'snapshot'] as const),
    comment: oneOf('comment', get('comment') || 'on-change', ['on-change', 'always', 'never'] as const),
    commentKey,
    failJob: bool('fail-job', get('fail-job') || 'true'),
    updateStrategy: oneOf('update-strategy', get('update-strategy') || 'pull-request', [
      'pull-request',
      'commit',
      'write',
    ] as const),
    prune: bool('prune', get('prune') || 'false'),
    reportArtifact: get('report-artifact') || 'memory-gate-report',
    htmlReport: parseReportPath('html-report', 'memory-gate.html', get('html-report')),
    junitReport: parseReportPath('junit-report', 'memory-gate.junit.xml', get('junit-report')),
    allowUpdateOn: parseEvents(get('allow-update-on')),
    downloadConcurrency: parseConcurrency(get('download-concurrency') || '8'),
    missingArtifacts: oneOf('missing-artifacts', get('missing-artifacts') || 'fail', ['fail', 'warn'] as const),
    collectEnvironment: bool('collect-environment', get('collect-environment') || 'false'),
    // One item per line: a value may hold commas (PYTORCH_NPU_ALLOC_CONF=expandable_segments:True,garbage_collection_threshold:0.6).
    environment: get('environment')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
    history: bool('history', get('history') || 'true'),
    historyBranch: parseBranch(get('history-branch') || 'memory-gate-history'),
    historySize: parseHistorySize(get('history-size') || String(DEFAULT_HISTORY_SIZE)),
  };
}

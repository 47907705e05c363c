// Which baseline and config gate a pull request: those of its base commit, read through the API, never the PR's own
// (a PR that raises its baseline must not pass because of it), unless a maintainer labelled the PR.
import * as core from '@actions/core';
import type { ActionInputs } from './inputs.js';
import { UsageError } from '../common/errors.js';
import { loadBaseline, parseBaseline, type Baseline } from '../gate/baseline.js';
import { DEFAULT_CONFIG_PATH, loadGateConfig, parseGateConfig } from '../gate/thresholds.js';
import type { GateConfig } from '../gate/types.js';
import { workflowContext, type RepoRef } from '../github/context.js';
import { gitHubCall, GitHubError } from '../github/errors.js';
import { filesChangedBetween, removeLabel } from '../github/pull-request-history.js';
import type { Octokit } from '../github/octokit.js';
import { parseJson } from '../json/reader.js';
import { chooseLimits } from '../hosts/limits.js';
import type { LabelNotCounted, LimitsUsed } from '../report/limits-changed.js';
import { repositoryPath } from './shared.js';

export interface GateLimits {
  baseline: Baseline | null;
  config: GateConfig;
  /** On pull requests: which limits were used and what the PR changes; undefined elsewhere. */
  used: LimitsUsed | undefined;
}

/** The pull request a run is about, as its event says: base commit and labels. */
export interface PullRequestRef {
  number: number;
  baseSha: string;
  labels: string[];
  /** A synchronize event's push: the PR's head before and after it. */
  push?: { before: string; after: string };
  /**
   * A reopened event: its head (GitHub sends no synchronize for pushes made while the PR was closed, so what changed
   * since a maintainer saw it cannot be told).
   */
  reopenedAt?: string;
}

const SHA = /^[0-9a-f]{40}$/;

/** pull_request and pull_request_target events carry the PR; other events gate against the checked-out files. */
export function pullRequestOfEvent(): PullRequestRef | undefined {
  const { eventName, payload } = workflowContext();
  if (eventName !== 'pull_request' && eventName !== 'pull_request_target') return undefined;
  const pr = payload.pull_request as
    { number?: unknown; base?: { sha?: unknown }; labels?: { name?: unknown }[] } | undefined;
  const baseSha = pr?.base?.sha;
  if (typeof pr?.number !== 'number' || typeof baseSha !== 'string' || !SHA.test(baseSha)) {
    throw new UsageError(
      `the ${eventName} event names no pull request with a base commit (pull_request.base.sha): cannot tell which limits to trust`,
    );
  }
  const labels = Array.isArray(pr.labels)
    ? pr.labels.map((l) => l.name).filter((n): n is string => typeof n === 'string')
    : [];
  const { before, after } = payload;
  if (payload.action === 'reopened') {
    const head = (pr as { head?: { sha?: unknown } }).head?.sha;
    return { number: pr.number, baseSha, labels, reopenedAt: typeof head === 'string' ? head : '' };
  }
  if (payload.action !== 'synchronize') return { number: pr.number, baseSha, labels };
  // A synchronize event without its push cannot show that the label still covers the limits: compare from nothing.
  const push =
    typeof before === 'string' && typeof after === 'string' && SHA.test(before) && SHA.test(after)
      ? { before, after }
      : { before: '', after: '' };
  return { number: pr.number, baseSha, labels, push };
}

/**
 * Reads the baseline and config as they are at `sha` (absent config = defaults, absent baseline = null). The commit is
 * looked up first: GitHub answers 404 both for a missing file and for a commit the token cannot see, and the second
 * must be an error, never "no baseline".
 */
export async function limitsAt(octokit: Octokit, repo: RepoRef, inputs: ActionInputs, sha: string): Promise<Limits> {
  const { readFileAt } = await import('../github/baseline-pr.js');
  await gitHubCall(`reading commit ${sha.slice(0, 12)}`, 'contents: read', () =>
    octokit.rest.git.getCommit({ ...repo, commit_sha: sha }),
  );
  const [baselinePath, configPath] = limitPaths(inputs) as [string, string];
  const [baselineText, configText] = await Promise.all([
    readFileAt(octokit, repo, baselinePath, sha),
    readFileAt(octokit, repo, configPath, sha),
  ]);
  const at = `@${sha.slice(0, 12)}`;
  return {
    baseline: baselineText === null ? null : parseBaseline(baselineText, `${baselinePath}${at}`),
    config:
      configText === null
        ? parseGateConfig({}, `${configPath}${at}`)
        : parseGateConfig(parseJson(configText, `${configPath}${at}`), `${configPath}${at}`),
  };
}

/** The base commit's limits; a failing read says which commit it is and why the gate reads it (a 404 on a sha alone reads like a bug of the Action). */
export async function baseLimitsAt(
  octokit: Octokit,
  repo: RepoRef,
  inputs: ActionInputs,
  baseSha: string,
): Promise<Limits> {
  return limitsAt(octokit, repo, inputs, baseSha).catch((error: unknown) => {
    if (!(error instanceof GitHubError)) throw error;
    throw new GitHubError(
      `cannot read the pull request's base commit ${baseSha.slice(0, 12)}, whose baseline and config gate it (a pull request's own limits count only with the maintainers' label): ${error.message}`,
      error.status,
    );
  });
}

/**
 * Check mode's limits. On a pull request: the base commit's baseline and config, compared with the checked-out ones
 * (the PR's) to list what the PR moves; the PR's own only with the base config's `baselineUpdateLabel` on the PR.
 */
export async function resolveGateLimits(
  inputs: ActionInputs,
  repo: RepoRef,
  octokit: Octokit | undefined,
  pr: PullRequestRef | undefined,
): Promise<GateLimits> {
  const head = { baseline: await loadBaseline(inputs.baseline), config: await loadGateConfig(inputs.config) };
  if (pr === undefined) return { ...head, used: undefined };
  if (octokit === undefined) {
    throw new UsageError(
      "on a pull request the gate reads the baseline and config of the base commit through the API: set 'github-token' (default github.token; it needs contents: read)",
    );
  }
  const base = await baseLimitsAt(octokit, repo, inputs, pr.baseSha);
  const label = base.config.baselineUpdateLabel;
  // The label counts for the limits a maintainer saw: a push that changes them after it was set voids it.
  let notCounted: LabelNotCounted | undefined;
  if (pr.reopenedAt !== undefined && pr.labels.includes(label)) {
    notCounted = await takeLabelOff(octokit, repo, pr.number, label, {
      how: 'unknown',
      since: pr.reopenedAt,
      at: pr.reopenedAt,
      files: [],
      unknown: 'the pull request was reopened, and GitHub reports no push made while it was closed',
    });
  }
  if (pr.push !== undefined && pr.labels.includes(label)) {
    const { before, after } = pr.push;
    const changed =
      before === ''
        ? { unknown: "the synchronize event does not say which commits it moved between ('before', 'after')" }
        : await filesChangedBetween(octokit, repo, limitPaths(inputs), before, after);
    if ('unknown' in changed || changed.files.length > 0) {
      notCounted = await takeLabelOff(octokit, repo, pr.number, label, {
        how: 'unknown' in changed ? 'unknown' : 'push',
        since: before,
        at: after,
        files: 'files' in changed ? changed.files : [],
        ...('unknown' in changed ? { unknown: changed.unknown } : {}),
      });
    }
  }
  return chooseLimits(base, head, pr, notCounted);
}

/** The repository paths of the baseline and the config, as the limits are read from them. */
export function limitPaths(inputs: ActionInputs): string[] {
  return [repositoryPath(inputs.baseline), repositoryPath(inputs.config ?? DEFAULT_CONFIG_PATH, 'config')];
}

/** Removes a label that did not count; what it says records whether that worked (a fork's token may not). */
export async function takeLabelOff(
  octokit: Octokit,
  repo: RepoRef,
  issueNumber: number,
  label: string,
  why: Omit<LabelNotCounted, 'removed'>,
): Promise<LabelNotCounted> {
  const removal = await removeLabel(octokit, repo, issueNumber, label);
  if (!removal.removed) core.info(`Could not remove the label '${label}': ${removal.reason}`);
  return { ...why, removed: removal.removed };
}

/** The job's warning when the label did not count: what changed, and what happens to the label. */
export function labelWarning(label: string, why: LabelNotCounted): string {
  const files = why.files.join(' and ');
  const short = (sha: string): string => sha.slice(0, 12);
  const reason =
    why.how === 'push'
      ? `the push ${short(why.since)} → ${short(why.at)} changes ${files}, which no maintainer has reviewed`
      : why.how === 'label'
        ? `${files} changed between ${short(why.since)} (the pull request's head when the label was set) and ${short(why.at)} (the head of run ${why.runId ?? '?'}), which no maintainer has reviewed`
        : `which limits a maintainer saw cannot be told (${why.unknown ?? 'no record'})`;
  const removal = why.removed
    ? 'the label was removed: a maintainer sets it again after reviewing the change'
    : 'the token cannot remove the label (it needs `pull-requests: write`): a maintainer removes it and sets it again after reviewing the change';
  return `The label '${label}' did not count: ${reason}; ${removal}`;
}

type Limits = { baseline: Baseline | null; config: GateConfig };

/** The rule every host shares, in src/hosts/limits.ts. */
export { chooseLimits };

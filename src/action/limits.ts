// Which baseline and config gate a pull request: those of its base commit, read through the API, never the PR's own
// (a PR that raises its baseline must not pass because of it), unless a maintainer labelled the PR.
import type { ActionInputs } from './inputs.js';
import { UsageError } from '../common/errors.js';
import { loadBaseline, parseBaseline, type Baseline } from '../gate/baseline.js';
import { DEFAULT_CONFIG_PATH, loadGateConfig, parseGateConfig } from '../gate/thresholds.js';
import type { GateConfig } from '../gate/types.js';
import { workflowContext, type RepoRef } from '../github/context.js';
import { gitHubCall } from '../github/errors.js';
import type { Octokit } from '../github/octokit.js';
import { parseJson } from '../json/reader.js';
import { baselineLimitChanges, configLimitChanges, type LimitsUsed } from '../report/limits-changed.js';
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
}

/** pull_request and pull_request_target events carry the PR; other events gate against the checked-out files. */
export function pullRequestOfEvent(): PullRequestRef | undefined {
  const { eventName, payload } = workflowContext();
  if (eventName !== 'pull_request' && eventName !== 'pull_request_target') return undefined;
  const pr = payload.pull_request as { number?: unknown; base?: { sha?: unknown }; labels?: { name?: unknown }[] } | undefined;
  const baseSha = pr?.base?.sha;
  if (typeof pr?.number !== 'number' || typeof baseSha !== 'string' || !/^[0-9a-f]{40}$/.test(baseSha)) {
    throw new UsageError(`the ${eventName} event names no pull request with a base commit (pull_request.base.sha): cannot tell which limits to trust`);
  }
  const labels = Array.isArray(pr.labels) ? pr.labels.map((l) => l.name).filter((n): n is string => typeof n === 'string') : [];
  return { number: pr.number, baseSha, labels };
}

/**
 * Reads the baseline and config as they are at `sha` (absent config = defaults, absent baseline = null). The commit is
 * looked up first: GitHub answers 404 both for a missing file and for a commit the token cannot see, and the second
 * must be an error, never "no baseline".
 */
export async function limitsAt(octokit: Octokit, repo: RepoRef, inputs: ActionInputs, sha: string): Promise<Limits> {
  const { readFileAt } = await import('../github/baseline-pr.js');
  await gitHubCall(`reading commit ${sha.slice(0, 12)}`, 'contents: read', () => octokit.rest.git.getCommit({ ...repo, commit_sha: sha }));
  const baselinePath = repositoryPath(inputs.baseline);
  const configPath = repositoryPath(inputs.config ?? DEFAULT_CONFIG_PATH, 'config');
  const [baselineText, configText] = await Promise.all([readFileAt(octokit, repo, baselinePath, sha), readFileAt(octokit, repo, configPath, sha)]);
  const at = `@${sha.slice(0, 12)}`;
  return {
    baseline: baselineText === null ? null : parseBaseline(baselineText, `${baselinePath}${at}`),
    config: configText === null ? parseGateConfig({}, `${configPath}${at}`) : parseGateConfig(parseJson(configText, `${configPath}${at}`), `${configPath}${at}`),
  };
}

/**
 * Check mode's limits. On a pull request: the base commit's baseline and config, compared with the checked-out ones
 * (the PR's) to list what the PR moves; the PR's own only with the base config's `baselineUpdateLabel` on the PR.
 */
export async function resolveGateLimits(inputs: ActionInputs, repo: RepoRef, octokit: Octokit | undefined, pr: PullRequestRef | undefined): Promise<GateLimits> {
  const head = { baseline: await loadBaseline(inputs.baseline), config: await loadGateConfig(inputs.config) };
  if (pr === undefined) return { ...head, used: undefined };
  if (octokit === undefined) {
    throw new UsageError(
      "on a pull request the gate reads the baseline and config of the base commit through the API: set 'github-token' (default github.token; it needs contents: read)",
    );
  }
  return chooseLimits(await limitsAt(octokit, repo, inputs, pr.baseSha), head, pr);
}

type Limits = { baseline: Baseline | null; config: GateConfig };

/** The base commit's limits, or the PR's own when they differ and the PR carries the base config's label. */
export function chooseLimits(base: Limits, head: Limits, pr: Pick<PullRequestRef, 'baseSha' | 'labels'>): Limits & { used: LimitsUsed } {
  const changes = [...baselineLimitChanges(base.baseline, head.baseline), ...configLimitChanges(base.config, head.config)];
  const label = base.config.baselineUpdateLabel;
  const fromPullRequest = changes.length > 0 && pr.labels.includes(label);
  const chosen = fromPullRequest ? head : base;
  return { ...chosen, used: { from: fromPullRequest ? 'pull-request' : 'base', baseSha: pr.baseSha, label, changes } };
}

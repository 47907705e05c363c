// Update mode: merge a run into the baseline and propose it (pull request), commit it, or write it.
import * as core from '@actions/core';
import type { ActionInputs } from './inputs.js';
import { UsageError } from '../common/errors.js';
import {
  loadBaseline,
  mergeBaseline,
  parseBaseline,
  serializeBaseline,
  writeBaselineAtomic,
  type BaselineSource,
} from '../gate/baseline.js';
import { loadGateConfig } from '../gate/thresholds.js';
import { errorMessage, workflowContext, type RepoRef } from '../github/context.js';
import type { Octokit } from '../github/octokit.js';
import { renderBaselineChanges } from '../report/baseline-changes.js';
import { collectInputs, isOtherRun, repositoryPath, sourceRun, thisRepo } from './shared.js';

/** Provenance written into the baseline: which run, repository and commit its numbers come from, and when. */
async function baselineSource(
  octokit: Octokit | undefined,
  inputs: ActionInputs,
  source: { runId: number; repo: RepoRef },
): Promise<BaselineSource> {
  const commit = await sourceCommit(octokit, inputs, source);
  return {
    runId: source.runId,
    repository: `${source.repo.owner}/${source.repo.repo}`,
    ...(commit ? { commit } : {}),
    date: new Date().toISOString(),
  };
}

/** The commit the baseline's numbers come from: this run's, or the source run's head; undefined rather than a wrong one. */
async function sourceCommit(
  octokit: Octokit | undefined,
  inputs: ActionInputs,
  source: { runId: number; repo: RepoRef },
): Promise<string | undefined> {
  if (!isOtherRun(inputs)) return workflowContext().sha || undefined;
  if (octokit === undefined) return undefined;
  try {
    const { data } = await octokit.rest.actions.getWorkflowRun({ ...source.repo, run_id: source.runId });
    return data.head_sha;
  } catch (error) {
    core.warning(
      `Could not read the head commit of run ${source.runId}: ${errorMessage(error)}; the baseline's source has no commit`,
    );
    return undefined;
  }
}

/** Events on which update mode writes by default: each is started by someone who may push, never by a pull request. */
export const UPDATE_EVENTS: readonly string[] = ['workflow_dispatch', 'schedule', 'push'];

export async function runUpdateMode(inputs: ActionInputs): Promise<void> {
  const event = workflowContext().eventName;
  const allowed = [...UPDATE_EVENTS, ...inputs.allowUpdateOn];
  if (!allowed.includes(event)) {
    throw new UsageError(
      `mode 'update' is refused on ${event ? `'${event}'` : 'an unknown'} events (it runs on ${allowed.join(', ')}): a pull request or a comment must not rewrite the baseline. Run it from workflow_dispatch, or list the event in 'allow-update-on' (see docs/security-model.md of ascend-memory-gate)`,
    );
  }
  // Checked before anything is downloaded: getOctokit('') would throw an internal error later.
  if (inputs.updateStrategy !== 'write' && !inputs.token) {
    throw new UsageError(`'github-token' is required for update-strategy ${inputs.updateStrategy}`);
  }
  if (inputs.htmlReport !== undefined)
    core.warning(`'html-report' is ignored in mode 'update': there is no gate verdict to show`);
  if (inputs.junitReport !== undefined)
    core.warning(`'junit-report' is ignored in mode 'update': there is no gate verdict to show`);
  // The baseline as a path in the repository, for the contents and Git Data APIs (`./x.json` would be a 404 / 422).
  const filePath = inputs.updateStrategy === 'write' ? inputs.baseline : repositoryPath(inputs.baseline);
  const { snapshot } = await collectInputs(inputs);
  const repo = thisRepo();
  const source = sourceRun(inputs);
  const { runId } = source;
  const branch = process.env.GITHUB_REF_NAME || 'main';
  const { openBaselinePullRequest, commitBaseline, readFileAt } = await import('../github/baseline-pr.js');
  const octokit =
    inputs.updateStrategy === 'write' ? undefined : (await import('../github/octokit.js')).createOctokit(inputs.token);

  const existingText = octokit === undefined ? null : await readFileAt(octokit, repo, filePath, branch);
  const existing =
    octokit === undefined
      ? await loadBaseline(inputs.baseline)
      : existingText === null
        ? null
        : parseBaseline(existingText, `${filePath}@${branch}`);
  const merged = mergeBaseline(existing, snapshot, {
    prune: inputs.prune,
    source: await baselineSource(octokit, inputs, source),
  });
  const content = serializeBaseline(merged.baseline);
  const changesMarkdown = renderBaselineChanges(existing, merged.baseline, merged.changes);
  core.info(changesMarkdown);
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(changesMarkdown).write();

  const { added, changed, pruned } = merged.changes;
  if (existing !== null && added.length + changed.length + pruned.length === 0) {
    core.info(`${inputs.baseline} already holds every value of run ${runId}: nothing to propose`);
    return;
  }
  if (inputs.updateStrategy === 'write') {
    await writeBaselineAtomic(inputs.baseline, merged.baseline);
    core.info(`Wrote ${inputs.baseline}`);
    return;
  }
  const message = `Update memory baseline from run ${runId}`;
  if (octokit === undefined)
    throw new UsageError("'github-token' is required for update-strategy pull-request or commit");
  if (inputs.updateStrategy === 'commit') {
    const sha = await commitBaseline(octokit, { ...repo, baseBranch: branch, filePath, content, message });
    core.info(`Committed ${filePath} to ${branch}: ${sha}`);
    return;
  }
  const { baselineUpdateLabel } = await loadGateConfig(inputs.config);
  const pr = await openBaselinePullRequest(octokit, {
    ...repo,
    baseBranch: branch,
    branch: baselineBranch(filePath, branch),
    label: baselineUpdateLabel,
    filePath,
    content,
    message,
    title: `Update memory baseline from run ${runId}`,
    body: baselinePullRequestBody(changesMarkdown, runId),
  });
  core.setOutput('baseline-pull-request', pr.url);
  core.info(`${pr.created ? 'Opened' : 'Updated'} ${pr.url}`);
}

/**
 * The one branch that proposes updates of a baseline file against a base branch: a later run moves it and updates its
 * open pull request instead of opening another one that changes the same file. (`baselines/memory-baseline.json`,
 * `main`) → `memory-gate/baseline-update/main/baselines-memory-baseline.json`.
 */
export function baselineBranch(filePath: string, baseBranch: string): string {
  const slug = filePath
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+/, '')
    .replace(/(\.lock)?\.*$/, '');
  return `memory-gate/baseline-update/${baseBranch}/${slug || 'baseline'}`;
}

function baselinePullRequestBody(changesMarkdown: string, runId: number): string {
  return [
    `This pull request updates the memory baseline from workflow run ${runId}.`,
    '',
    changesMarkdown,
    '',
    '> [!NOTE]',
    '> Pull requests opened with the default `GITHUB_TOKEN` do not trigger `pull_request` workflows, so CI will not run on this PR by itself.',
    '> To have it run, pass a personal access token or a GitHub App token as `github-token` (for example from `actions/create-github-app-token`), or close and reopen the PR.',
  ].join('\n');
}

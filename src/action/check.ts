// Check mode: gate this run's evidence against the committed baseline and publish the verdict. On a pull request, the
// baseline and config are the base commit's (limits.ts): a PR cannot raise its own limits.
import * as core from '@actions/core';
import type { ActionInputs } from './inputs.js';
import { renderLimitsChanged } from '../report/limits-changed.js';
import {
  historyPlan,
  historyReadOf,
  readBranchHistory,
  recordRunOnBranch,
  warnIfPullRequestCanWrite,
} from './history.js';
import { labelWarning, pullRequestOfEvent, resolveGateLimits } from './limits.js';
import { publish } from './publish.js';
import { collectInputs, runUrl, thisRepo } from './shared.js';
import { check } from '../run/check.js';

export async function runCheckMode(inputs: ActionInputs): Promise<void> {
  const pr = pullRequestOfEvent();
  const octokit = inputs.token ? (await import('../github/octokit.js')).createOctokit(inputs.token) : undefined;
  const repo = thisRepo();
  // Limits first: a token or API problem fails before the (long) parse.
  const limits = await resolveGateLimits(inputs, repo, octokit, pr);
  // The default branch's history: read by every run (trends, the noise band), written only by the default branch's.
  const plan = historyPlan(inputs);
  if (plan.role !== 'off')
    core.info(`History: ${plan.role === 'write' ? 'this run records its point' : 'read only'} (${plan.why})`);
  let history = plan.role === 'off' ? null : await readBranchHistory(inputs, octokit, repo);
  if (plan.role === 'read') await warnIfPullRequestCanWrite(inputs, octokit, repo);
  const collected = await collectInputs(inputs);
  const { snapshot, missingArtifacts } = collected;
  const checked = await check({
    collected,
    history,
    baseline: inputs.baseline,
    config: inputs.config,
    maxIncrease: inputs.maxIncrease,
    limits,
  });
  // Which history the noise band read: comment mode re-judges with the history at that commit.
  const historyRead = historyReadOf(inputs, history);
  // Recorded whether the gate passed or failed: a failing default branch is history too. The point goes onto the
  // history read above when the branch has not moved since (no second parse); the trends are then of it afresh.
  if (plan.role === 'write') history = await recordRunOnBranch(inputs, octokit, repo, snapshot, plan, history);
  const trends = await checked.trends(history, plan.role === 'write');
  const { baseline } = checked;
  if (checked.folded !== null) core.notice(checked.folded);
  const report = {
    ...checked.report,
    ...(missingArtifacts.length > 0 ? { missingArtifacts } : {}),
    ...(historyRead !== undefined ? { history: historyRead } : {}),
  };
  if (baseline === null) {
    core.warning(
      `No baseline at ${inputs.baseline}${pr ? ` on the base commit ${pr.baseSha.slice(0, 12)}` : ''}: every key is new. Run this Action with 'mode: update' on workflow_dispatch to propose one.`,
    );
  }
  const preface = limits.used === undefined ? undefined : renderLimitsChanged(limits.used);
  if (limits.used?.labelNotCounted !== undefined)
    core.warning(labelWarning(limits.used.label, limits.used.labelNotCounted));
  else if (limits.used !== undefined && limits.used.changes.length > 0) {
    const { changes, from, label } = limits.used;
    if (from === 'base')
      core.warning(
        `This pull request changes ${changes.length} limit(s) (baseline or config); they were not used: a maintainer adds the label '${label}' to use them`,
      );
    else core.notice(`This pull request's own limits were used (label '${label}'): ${changes.length} changed`);
  }
  await publish(inputs, report, {
    issueNumber: pr?.number,
    repo,
    runUrl: runUrl(),
    enforce: true,
    octokit,
    preface,
    limitsChanged: (limits.used?.changes.length ?? 0) > 0,
    ...(trends !== undefined ? { trends } : {}),
    series: snapshot.series,
  });
}

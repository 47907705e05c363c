// Check mode: gate this run's evidence against the committed baseline and publish the verdict.
import * as core from '@actions/core';
import type { ActionInputs } from '../config.js';
import { runGate } from '../gate/run-gate.js';
import { publish } from './publish.js';
import { collectInputs, pullRequestNumber, runUrl, thisRepo } from './shared.js';

export async function runCheckMode(inputs: ActionInputs): Promise<void> {
  const { snapshot, missingArtifacts } = await collectInputs(inputs);
  const gated = await runGate({
    snapshot,
    baselinePath: inputs.baseline,
    configPath: inputs.config,
    maxIncrease: inputs.maxIncrease,
    allowMissingBaseline: true,
  });
  const { baseline } = gated;
  const report = missingArtifacts.length > 0 ? { ...gated.report, missingArtifacts } : gated.report;
  if (baseline === null) {
    core.warning(`No baseline at ${inputs.baseline}: every key is new. Run this Action with 'mode: update' on workflow_dispatch to propose one.`);
  }
  const octokit = inputs.token ? (await import('../github/octokit.js')).createOctokit(inputs.token) : undefined;
  await publish(inputs, report, { issueNumber: pullRequestNumber(), repo: thisRepo(), runUrl: runUrl(), enforce: true, octokit });
}

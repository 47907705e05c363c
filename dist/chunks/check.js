import { w as warning } from '../index.js';
import { runGate } from './run-gate.js';
import { p as publish } from './publish.js';
import { c as collectInputs, r as runUrl, t as thisRepo, p as pullRequestNumber } from './shared.js';
import 'os';
import 'crypto';
import 'fs';
import 'path';
import 'string_decoder';
import 'events';
import 'child_process';
import 'assert';
import 'timers';
import './sources.js';
import './local.js';
import 'node:fs/promises';
import 'node:path';
import 'url';
import 'module';
import './_commonjsHelpers.js';
import './snapshot.js';
import './series.js';
import './baseline.js';
import 'node:crypto';
import './json-schema.js';
import './escape.js';
import './schema.js';
import './units.js';
import './groups.js';
import './keys.js';
import './json.js';
import './markdown.js';
import './device-table.js';
import 'node:os';
import 'node:fs';
import './collect.js';
import 'node:worker_threads';
import './parse-protocol.js';

// Check mode: gate this run's evidence against the committed baseline and publish the verdict.
async function runCheckMode(inputs) {
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
        warning(`No baseline at ${inputs.baseline}: every key is new. Run this Action with 'mode: update' on workflow_dispatch to propose one.`);
    }
    const octokit = inputs.token ? (await import('./octokit.js')).createOctokit(inputs.token) : undefined;
    await publish(inputs, report, { issueNumber: pullRequestNumber(), repo: thisRepo(), runUrl: runUrl(), enforce: true, octokit });
}

export { runCheckMode };

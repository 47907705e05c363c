import { i as info, n as notice, w as warning } from '../index.js';
import { renderLimitsChanged } from '../chunks/limits-changed.js';
import { g as pullRequestOfEvent, h as resolveGateLimits, i as historyPlan, r as readBranchHistory, j as warnIfPullRequestCanWrite, k as historyReadOf, m as recordRunOnBranch, a as labelWarning, p as publish } from './publish.js';
import { t as thisRepo, c as collectInputs, r as runUrl } from './shared.js';
import { check } from '../chunks/check.js';
import 'os';
import 'crypto';
import 'fs';
import 'path';
import 'string_decoder';
import 'events';
import 'child_process';
import 'assert';
import 'timers';
import '../chunks/errors.js';
import '../chunks/thresholds.js';
import 'node:fs/promises';
import 'node:path';
import '../chunks/reader.js';
import '../chunks/_commonjsHelpers.js';
import 'node:crypto';
import '../chunks/evidence-sources.js';
import '../chunks/roll-up.js';
import '../chunks/index.js';
import '../chunks/limits.js';
import 'node:fs';
import 'url';
import 'module';
import '../chunks/oom-cause.js';
import '../chunks/keys.js';
import '../chunks/baseline-changes.js';
import '../chunks/escape.js';
import '../chunks/names.js';
import '../chunks/text-layout.js';
import './errors.js';
import '../chunks/baseline.js';
import '../chunks/atomic-write.js';
import '../chunks/validate.js';
import 'node:v8';
import 'node:vm';
import '../chunks/whole-text.js';
import 'node:buffer';
import '../chunks/document-json.js';
import '../chunks/limits2.js';
import 'node:child_process';
import '../chunks/types2.js';
import '../chunks/annotation.js';
import '../chunks/types.js';
import '../chunks/view.js';
import '../chunks/partition.js';
import '../chunks/history-view.js';
import '../chunks/trends.js';
import '../chunks/format.js';
import '../chunks/string-table.js';
import '../chunks/moved.js';
import '../chunks/groups.js';
import '../chunks/trend-text.js';
import '../chunks/markdown.js';
import '../chunks/chart.js';
import '../chunks/render.js';
import 'node:os';
import '../chunks/collect.js';
import '../chunks/worker-start.js';
import 'node:worker_threads';
import '../chunks/parse-protocol.js';
import 'node:url';
import '../chunks/compare.js';

async function runCheckMode(inputs) {
    const pr = pullRequestOfEvent();
    const octokit = inputs.token ? (await import('./octokit.js')).createOctokit(inputs.token) : undefined;
    const repo = thisRepo();
    const limits = await resolveGateLimits(inputs, repo, octokit, pr);
    const plan = historyPlan(inputs);
    if (plan.role !== 'off')
        info(`History: ${plan.role === 'write' ? 'this run records its point' : 'read only'} (${plan.why})`);
    let history = plan.role === 'off' ? null : await readBranchHistory(inputs, octokit, repo);
    if (plan.role === 'read')
        await warnIfPullRequestCanWrite(inputs, octokit, repo);
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
    const historyRead = historyReadOf(inputs, history);
    if (plan.role === 'write')
        history = await recordRunOnBranch(inputs, octokit, repo, snapshot, plan, history);
    const trends = await checked.trends(history, plan.role === 'write');
    const { baseline } = checked;
    if (checked.folded !== null)
        notice(checked.folded);
    const report = {
        ...checked.report,
        ...(missingArtifacts.length > 0 ? { missingArtifacts } : {}),
        ...(historyRead !== undefined ? { history: historyRead } : {}),
    };
    if (baseline === null) {
        warning(`No baseline at ${inputs.baseline}${pr ? ` on the base commit ${pr.baseSha.slice(0, 12)}` : ''}: every key is new. Run this Action with 'mode: update' on workflow_dispatch to propose one.`);
    }
    const preface = limits.used === undefined ? undefined : renderLimitsChanged(limits.used);
    if (limits.used?.labelNotCounted !== undefined)
        warning(labelWarning(limits.used.label, limits.used.labelNotCounted));
    else if (limits.used !== undefined && limits.used.changes.length > 0) {
        const { changes, from, label } = limits.used;
        if (from === 'base')
            warning(`This pull request changes ${changes.length} limit(s) (baseline or config); they were not used: a maintainer adds the label '${label}' to use them`);
        else
            notice(`This pull request's own limits were used (label '${label}'): ${changes.length} changed`);
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

export { runCheckMode };

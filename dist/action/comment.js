import { i as info, w as warning } from '../index.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { g as glob } from '../chunks/local.js';
import { U as UsageError, I as InputError } from '../chunks/errors.js';
import { w as workflowContext, t as thisRepo, a as workDir, r as runUrl, e as errorMessage } from './shared.js';
import { g as gitHubCall, G as GitHubError } from './errors.js';
import { r as readBranchHistory, p as publish, l as limitsAt, c as chooseLimits, u as untrustedBaselineKeys, a as renderLimitsChanged, b as renderUntrustedReport } from './publish.js';
import { loadGateConfig } from '../chunks/thresholds.js';
import { parseReportJson } from '../chunks/json.js';
import 'os';
import 'crypto';
import 'fs';
import 'path';
import 'string_decoder';
import 'events';
import 'child_process';
import 'assert';
import 'timers';
import '../chunks/evidence-sources.js';
import 'node:fs';
import '../chunks/_commonjsHelpers.js';
import 'url';
import 'module';
import 'node:os';
import '../chunks/collect.js';
import '../chunks/parse-protocol.js';
import '../chunks/snapshot.js';
import '../chunks/units.js';
import '../chunks/series.js';
import '../chunks/worker-start.js';
import 'node:worker_threads';
import '../chunks/baseline.js';
import '../chunks/atomic-write.js';
import 'node:crypto';
import '../chunks/reader.js';
import '../chunks/validate.js';
import 'node:v8';
import 'node:vm';
import '../chunks/text-stream.js';
import 'node:buffer';
import 'node:string_decoder';
import '../chunks/baseline-changes.js';
import '../chunks/escape.js';
import '../chunks/annotation.js';
import '../chunks/groups.js';
import '../chunks/roll-up.js';
import '../chunks/types.js';
import '../chunks/environment.js';
import '../chunks/keys.js';
import '../chunks/markdown.js';
import '../chunks/chart.js';
import '../chunks/device-table.js';
import '../chunks/trends.js';
import '../chunks/format.js';
import '../chunks/trend-text.js';

const REPORT_ARTIFACT_LIMIT = 512 * 1024 * 1024;
async function runCommentMode(inputs) {
    const ctx = workflowContext();
    const workflowRun = ctx.payload.workflow_run;
    const runId = inputs.runId ?? (typeof workflowRun?.id === 'number' ? workflowRun.id : undefined);
    if (runId === undefined)
        throw new UsageError("mode 'comment' needs 'run-id' or a workflow_run event");
    const repo = inputs.repository ?? thisRepo();
    if (!inputs.token)
        throw new UsageError("mode 'comment' needs 'github-token'");
    const octokit = (await import('./octokit.js')).createOctokit(inputs.token);
    const dir = path.join(workDir(), 'report-artifact');
    const { downloadArtifacts } = await import('./artifacts.js');
    const { downloaded: [artifact], } = await downloadArtifacts({ patterns: [inputs.reportArtifact], crossRun: { runId, owner: repo.owner, repo: repo.repo, token: inputs.token }, dir, maxBytes: REPORT_ARTIFACT_LIMIT }, (m) => info(m), (m) => warning(m));
    if (!artifact)
        throw new InputError(`artifact '${inputs.reportArtifact}' was not downloaded`);
    const reportFile = await findReportFile(artifact.path);
    const report = parseReportJson(await readFile(reportFile, 'utf8'), `${inputs.reportArtifact}/${path.relative(artifact.path, reportFile)}`);
    let issueNumber;
    const fromEvent = workflowRun?.pull_requests?.find((p) => typeof p.number === 'number');
    if (fromEvent && typeof fromEvent.number === 'number')
        issueNumber = fromEvent.number;
    else if (typeof workflowRun?.head_sha === 'string')
        issueNumber = await pullRequestForSha(octokit, repo, workflowRun.head_sha);
    const preface = issueNumber === undefined ? undefined : await trustPreface(octokit, repo, inputs, issueNumber, report);
    const history = inputs.history ? await readBranchHistory(inputs, octokit, repo) : null;
    const trends = history === null ? undefined : (await import('../chunks/trends.js')).trendsOf(history, await loadGateConfig(inputs.config));
    await publish(inputs, report, {
        issueNumber,
        repo,
        runUrl: runUrl(runId, repo),
        enforce: false,
        octokit,
        ...(preface !== undefined ? { preface: preface.text, limitsChanged: preface.attention } : {}),
        ...(trends !== undefined ? { trends } : {}),
    });
}
async function trustPreface(octokit, repo, inputs, issueNumber, report) {
    const { data: pr } = await gitHubCall(`reading pull request #${issueNumber}`, 'pull-requests: read', () => octokit.rest.pulls.get({ ...repo, pull_number: issueNumber }));
    const base = await limitsAt(octokit, repo, inputs, pr.base.sha);
    const head = await limitsAt(octokit, repo, inputs, pr.head.sha).catch((error) => {
        if (!(error instanceof GitHubError))
            throw error;
        warning(`Could not read the pull request's head commit to list the limits it changes: ${error.message}`);
        return base;
    });
    const limits = chooseLimits(base, head, { baseSha: pr.base.sha, labels: pr.labels.map((l) => l.name ?? '') });
    const { used } = limits;
    const untrusted = untrustedBaselineKeys(report.entries, limits.baseline);
    const blocks = [renderLimitsChanged(used)];
    if (untrusted.length > 0) {
        warning(`The report of run ${pr.head.sha.slice(0, 12)} used baselines that differ from the trusted ones for ${untrusted.length} key(s): its verdict is not trustworthy`);
        blocks.unshift(renderUntrustedReport(untrusted, pr.base.sha));
    }
    return { text: blocks.join('\n\n'), attention: used.changes.length > 0 || untrusted.length > 0 };
}
async function findReportFile(dir) {
    const files = (await glob('**/*.json', { cwd: dir, absolute: true })).sort();
    const preferred = files.find((f) => path.basename(f) === 'report.json') ?? files[0];
    if (!preferred)
        throw new InputError(`the report artifact holds no .json file`);
    return preferred;
}
async function pullRequestForSha(octokit, repo, sha) {
    try {
        const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: sha });
        const associated = data.find((p) => p.state === 'open')?.number ?? data[0]?.number;
        if (associated !== undefined)
            return associated;
        const open = await octokit.paginate(octokit.rest.pulls.list, { ...repo, state: 'open', per_page: 100 });
        return open.find((p) => p.head.sha === sha)?.number;
    }
    catch (error) {
        warning(`Could not look up the pull request of ${sha}: ${errorMessage(error)}`);
        return undefined;
    }
}

export { runCommentMode };

import { w as warning, i as info, s as summary, a as setOutput } from '../index.js';
import { U as UsageError } from '../chunks/errors.js';
import { loadBaseline, parseBaseline, mergeBaseline, serializeBaseline, writeBaselineAtomic } from '../chunks/baseline.js';
import { loadGateConfig } from '../chunks/thresholds.js';
import { w as workflowContext, b as repositoryPath, c as collectInputs, t as thisRepo, s as sourceRun, i as isOtherRun, e as errorMessage } from './shared.js';
import { renderBaselineChanges } from '../chunks/baseline-changes.js';
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
import '../chunks/limits.js';
import 'node:fs';
import 'node:fs/promises';
import 'node:path';
import '../chunks/_commonjsHelpers.js';
import 'url';
import 'module';
import '../chunks/reader.js';
import 'node:crypto';
import '../chunks/roll-up.js';
import '../chunks/index.js';
import '../chunks/oom-cause.js';
import '../chunks/keys.js';
import '../chunks/atomic-write.js';
import '../chunks/validate.js';
import 'node:v8';
import 'node:vm';
import '../chunks/whole-text.js';
import 'node:buffer';
import '../chunks/document-json.js';
import 'node:os';
import '../chunks/collect.js';
import '../chunks/worker-start.js';
import 'node:worker_threads';
import '../chunks/parse-protocol.js';
import 'node:url';
import '../chunks/escape.js';
import '../chunks/names.js';
import '../chunks/text-layout.js';

async function baselineSource(octokit, inputs, source) {
    const commit = await sourceCommit(octokit, inputs, source);
    return {
        runId: source.runId,
        repository: `${source.repo.owner}/${source.repo.repo}`,
        ...(commit ? { commit } : {}),
        date: new Date().toISOString(),
    };
}
async function sourceCommit(octokit, inputs, source) {
    if (!isOtherRun(inputs))
        return workflowContext().sha || undefined;
    if (octokit === undefined)
        return undefined;
    try {
        const { data } = await octokit.rest.actions.getWorkflowRun({ ...source.repo, run_id: source.runId });
        return data.head_sha;
    }
    catch (error) {
        warning(`Could not read the head commit of run ${source.runId}: ${errorMessage(error)}; the baseline's source has no commit`);
        return undefined;
    }
}
const UPDATE_EVENTS = ['workflow_dispatch', 'schedule', 'push'];
async function runUpdateMode(inputs) {
    const event = workflowContext().eventName;
    const allowed = [...UPDATE_EVENTS, ...inputs.allowUpdateOn];
    if (!allowed.includes(event)) {
        throw new UsageError(`mode 'update' is refused on ${event ? `'${event}'` : 'an unknown'} events (it runs on ${allowed.join(', ')}): a pull request or a comment must not rewrite the baseline. Run it from workflow_dispatch, or list the event in 'allow-update-on' (see docs/security-model.md of ascend-memory-gate)`);
    }
    if (inputs.updateStrategy !== 'write' && !inputs.token) {
        throw new UsageError(`'github-token' is required for update-strategy ${inputs.updateStrategy}`);
    }
    if (inputs.htmlReport !== undefined)
        warning(`'html-report' is ignored in mode 'update': there is no gate verdict to show`);
    if (inputs.junitReport !== undefined)
        warning(`'junit-report' is ignored in mode 'update': there is no gate verdict to show`);
    const filePath = inputs.updateStrategy === 'write' ? inputs.baseline : repositoryPath(inputs.baseline);
    const { snapshot } = await collectInputs(inputs);
    const repo = thisRepo();
    const source = sourceRun(inputs);
    const { runId } = source;
    const branch = process.env.GITHUB_REF_NAME || 'main';
    const { openBaselinePullRequest, commitBaseline, readFileAt } = await import('./baseline-pr.js');
    const octokit = inputs.updateStrategy === 'write' ? undefined : (await import('./octokit.js')).createOctokit(inputs.token);
    const existingText = octokit === undefined ? null : await readFileAt(octokit, repo, filePath, branch);
    const existing = octokit === undefined
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
    info(changesMarkdown);
    if (process.env.GITHUB_STEP_SUMMARY)
        await summary.addRaw(changesMarkdown).write();
    const { added, changed, pruned } = merged.changes;
    if (existing !== null && added.length + changed.length + pruned.length === 0) {
        info(`${inputs.baseline} already holds every value of run ${runId}: nothing to propose`);
        return;
    }
    if (inputs.updateStrategy === 'write') {
        await writeBaselineAtomic(inputs.baseline, merged.baseline);
        info(`Wrote ${inputs.baseline}`);
        return;
    }
    const message = `Update memory baseline from run ${runId}`;
    if (octokit === undefined)
        throw new UsageError("'github-token' is required for update-strategy pull-request or commit");
    if (inputs.updateStrategy === 'commit') {
        const sha = await commitBaseline(octokit, { ...repo, baseBranch: branch, filePath, content, message });
        info(`Committed ${filePath} to ${branch}: ${sha}`);
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
    setOutput('baseline-pull-request', pr.url);
    info(`${pr.created ? 'Opened' : 'Updated'} ${pr.url}`);
}
function baselineBranch(filePath, baseBranch) {
    const slug = filePath
        .replace(/[^A-Za-z0-9_.-]+/g, '-')
        .replace(/\.{2,}/g, '.')
        .replace(/^[.-]+/, '')
        .replace(/(\.lock)?\.*$/, '');
    return `memory-gate/baseline-update/${baseBranch}/${slug || 'baseline'}`;
}
function baselinePullRequestBody(changesMarkdown, runId) {
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

export { UPDATE_EVENTS, baselineBranch, runUpdateMode };

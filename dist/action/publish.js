import { i as info, w as warning, d as debug, s as summary, b as setFailed, e as error, a as setOutput } from '../index.js';
import { v as visible, I as InputError, U as UsageError } from '../chunks/errors.js';
import { w as workflowContext, h as httpStatus, b as repositoryPath, a as workDir, e as errorMessage } from './shared.js';
import { G as GitHubError, g as gitHubCall, d as describeGitHubFailure } from './errors.js';
import { loadBaseline, parseBaseline } from '../chunks/baseline.js';
import { loadGateConfig, parseGateConfig, DEFAULT_CONFIG_PATH } from '../chunks/thresholds.js';
import { p as parseJson } from '../chunks/reader.js';
import { chooseLimits } from '../chunks/limits2.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { f as failureReason, a as failingWorstFirst, b as annotationTitle, c as annotationText } from '../chunks/annotation.js';
import { renderMarkdown } from '../chunks/markdown.js';
import { render } from '../chunks/render.js';

const WRITING_EVENTS = new Set(['push', 'schedule', 'workflow_dispatch']);
function historyPlan(inputs) {
    const { eventName, payload, ref } = workflowContext();
    const repository = payload.repository;
    const defaultBranch = typeof repository?.default_branch === 'string' ? repository.default_branch : undefined;
    if (!inputs.history)
        return { role: 'off', why: "'history: false'", defaultBranch };
    if (inputs.mode !== 'check' || !WRITING_EVENTS.has(eventName))
        return {
            role: 'read',
            why: `a ${inputs.mode} run on ${eventName || 'an unknown event'} only reads it`,
            defaultBranch,
        };
    const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
    if (eventName === 'schedule' && branch !== undefined && (defaultBranch === undefined || branch === defaultBranch)) {
        return { role: 'write', why: `a scheduled run of ${branch}`, defaultBranch: defaultBranch ?? branch };
    }
    if (defaultBranch === undefined)
        return {
            role: 'read',
            why: `the ${eventName} event does not name the default branch (repository.default_branch)`,
            defaultBranch,
        };
    if (branch !== defaultBranch)
        return { role: 'read', why: `${ref || 'this ref'} is not the default branch ${defaultBranch}`, defaultBranch };
    return { role: 'write', why: `a ${eventName} run of ${defaultBranch}`, defaultBranch };
}
const NO_OBJECT = '0'.repeat(40);
async function warnIfPullRequestCanWrite(inputs, octokit, repo) {
    if (octokit === undefined || workflowContext().eventName !== 'pull_request')
        return;
    try {
        await octokit.rest.git.createRef({
            ...repo,
            ref: `refs/heads/${inputs.historyBranch}-write-probe`,
            sha: NO_OBJECT,
        });
    }
    catch (error) {
        const status = httpStatus(error);
        if (status !== 422) {
            debug(`Write-scope probe: ${status ?? 'no answer'} (no write access, or it could not be told)`);
            return;
        }
    }
    warning(`This pull_request run's token can write the repository's contents, so the pull request's code could push to the history branch ${inputs.historyBranch}: give pull_request jobs \`permissions: contents: read\`, and \`contents: write\` only to the default branch's job that records (docs/security-model.md, "The history branch")`);
}
function historyPath(commentKey) {
    return `${commentKey}.history.jsonl`;
}
function fileRef(inputs, repo) {
    return { ...repo, branch: inputs.historyBranch, path: historyPath(inputs.commentKey) };
}
const readTexts = new WeakMap();
const readCommits = new WeakMap();
function historyReadOf(inputs, history) {
    const commit = history === null ? undefined : readCommits.get(history);
    return commit === undefined ? undefined : { branch: inputs.historyBranch, commit };
}
async function readBranchHistory(inputs, octokit, repo, at) {
    const where = `${inputs.historyBranch}:${historyPath(inputs.commentKey)}`;
    if (octokit === undefined) {
        info(`History not read: no 'github-token'`);
        return null;
    }
    const { readHistoryText } = await import('./history-branch.js');
    const { parseHistory } = await import('../chunks/format.js');
    let read;
    try {
        read = await readHistoryText(octokit, fileRef(inputs, repo), at);
    }
    catch (error) {
        if (!(error instanceof GitHubError))
            throw error;
        warning(`History not read, so the report has no trends: ${visible(error.message)}`);
        return null;
    }
    if (read === null) {
        info(`No history yet at ${where}: the default branch's next check run starts it`);
        return null;
    }
    const { text, commit } = read;
    if (read.refused !== undefined)
        warning(`History: the report says its run read ${where} at a commit that cannot be trusted (${visible(read.refused)}): the branch's head ${commit.slice(0, 12)} is read instead`);
    try {
        const history = parseHistory(text, where);
        readTexts.set(history, text);
        readCommits.set(history, commit);
        for (const warning$1 of history.warnings ?? [])
            warning(`History: ${visible(warning$1)}`);
        foreignCommitUrl(history, repo, where);
        info(`History read from ${where} at ${commit.slice(0, 12)}: ${history.points.length} point(s)`);
        return history;
    }
    catch (error) {
        if (!(error instanceof InputError))
            throw error;
        warning(`History not read, so the report has no trends: ${visible(error.message)}. ${startOver(inputs)}`);
        return null;
    }
}
function startOver(inputs) {
    return `To start over, delete ${historyPath(inputs.commentKey)} from branch ${inputs.historyBranch} (or the branch): the default branch's next check run records a new one`;
}
function foreignCommitUrl(history, repo, where) {
    const url = history.header.commitUrl;
    if (url === undefined)
        return;
    const own = ownCommitUrl(repo);
    if (url.toLowerCase() === own.toLowerCase())
        return;
    warning(`History ${where}: its commitUrl ${JSON.stringify(visible(url.slice(0, 200)))} is not this repository's (${own}): commits are shown without links`);
    delete history.header.commitUrl;
}
function ownCommitUrl(repo) {
    return `${workflowContext().serverUrl}/${repo.owner}/${repo.repo}/commit/{sha}`;
}
async function recordRunOnBranch(inputs, octokit, repo, snapshot, plan, read = null) {
    const where = `${inputs.historyBranch}:${historyPath(inputs.commentKey)}`;
    if (octokit === undefined) {
        warning(`History not recorded: no 'github-token' to write ${where} with`);
        return read;
    }
    const { writeHistoryText } = await import('./history-branch.js');
    const { emptyHistory, parseHistory } = await import('../chunks/format.js');
    const { pointValues } = await import('../chunks/point.js');
    const { isCommitSha, pointSentence, recordRun } = await import('../chunks/history-point.js');
    const meta = await runPointMeta(inputs, snapshot);
    if (!isCommitSha(meta.commit)) {
        warning(`History not recorded: this run's commit (GITHUB_SHA) is ${JSON.stringify(workflowContext().sha)}, not a commit SHA`);
        return read;
    }
    const values = pointValues(snapshot);
    const header = {
        gate: inputs.commentKey,
        ...(plan.defaultBranch !== undefined ? { branch: plan.defaultBranch } : {}),
        commitUrl: ownCommitUrl(repo),
    };
    const written = {};
    const readText = read === null ? undefined : readTexts.get(read);
    let reuse = readText !== undefined;
    let changedRead = false;
    let unreadable = false;
    const asRead = () => read === null || !changedRead || readText === undefined ? read : parseHistory(readText, where);
    try {
        const result = await writeHistoryText(octokit, fileRef(inputs, repo), (text) => {
            const same = reuse && read !== null && text !== null && text === readText;
            reuse = false;
            if (same)
                changedRead = true;
            unreadable = true;
            const history = same ? read : text === null ? emptyHistory(header) : parseHistory(text, where);
            unreadable = false;
            const appended = recordRun(history, { header, meta, values, maxPoints: inputs.historySize });
            written.last = { history, points: appended.points, dropped: appended.dropped, replaced: appended.replaced };
            return appended.text;
        }, `Record run ${meta.run} (${meta.commit.slice(0, 12)}) of gate ${inputs.commentKey}`);
        const done = written.last;
        if (done === undefined)
            throw new Error('the history was written without a point');
        const retries = result.attempts > 1
            ? `, after ${result.attempts - 1} retr${result.attempts === 2 ? 'y' : 'ies'} (the branch moved meanwhile)`
            : '';
        info(`History: ${done.replaced ? 'replaced the point of' : 'recorded'} run ${meta.run} in ${where} (${result.commit.slice(0, 12)}): ${pointSentence(done, inputs.historySize, ', ')}${retries}`);
        return done.history;
    }
    catch (error) {
        if (!warnNotRecorded(error, inputs, unreadable))
            throw error;
        return asRead();
    }
}
async function runPointMeta(inputs, snapshot) {
    const ctx = workflowContext();
    const { pointEnvironment } = await import('../chunks/point.js');
    const { baselineHashOf, pointTime } = await import('../chunks/history-point.js');
    const attempt = Number(process.env.GITHUB_RUN_ATTEMPT);
    return {
        commit: ctx.sha.toLowerCase(),
        run: String(ctx.runId),
        ...(Number.isSafeInteger(attempt) && attempt >= 1 ? { attempt } : {}),
        time: pointTime(),
        baseline: await baselineHashOf(inputs.baseline),
        environment: pointEnvironment(snapshot),
    };
}
function warnNotRecorded(error, inputs, unreadable) {
    if (error instanceof GitHubError && error.status === 403) {
        warning(`History not recorded: ${visible(error.message)}. Give the default branch's check job \`permissions: contents: write\`, or set 'history: false'`);
        return true;
    }
    if (error instanceof GitHubError) {
        warning(`History not recorded: ${visible(error.message)}`);
        return true;
    }
    if (error instanceof InputError) {
        warning(`History not recorded: ${visible(error.message)}; the file was left as it is${unreadable ? `. ${startOver(inputs)}` : ''}`);
        return true;
    }
    return false;
}

const MAX_PAGES = 10;
async function blobShaAt(octokit, repo, path, ref) {
    try {
        const { data } = await octokit.rest.repos.getContent({ ...repo, path, ref });
        if (Array.isArray(data))
            return 'tree';
        return typeof data.sha === 'string' ? data.sha : null;
    }
    catch (error) {
        if (httpStatus(error) === 404)
            return null;
        throw describeGitHubFailure(`reading ${path} at ${ref.slice(0, 12)}`, error, 'contents: read');
    }
}
async function commitExists(octokit, repo, sha) {
    try {
        await octokit.rest.git.getCommit({ ...repo, commit_sha: sha });
        return true;
    }
    catch (error) {
        const status = httpStatus(error);
        if (status === 404 || status === 422)
            return false;
        throw describeGitHubFailure(`reading commit ${sha.slice(0, 12)}`, error, 'contents: read');
    }
}
async function filesChangedBetween(octokit, repo, paths, from, to) {
    if (from === to)
        return { files: [] };
    for (const sha of [from, to])
        if (!(await commitExists(octokit, repo, sha)))
            return { unknown: `commit ${sha.slice(0, 12)} cannot be read` };
    const files = [];
    for (const path of paths) {
        const [before, after] = await Promise.all([
            blobShaAt(octokit, repo, path, from),
            blobShaAt(octokit, repo, path, to),
        ]);
        if (before !== after)
            files.push(path);
    }
    return { files };
}
async function removeLabel(octokit, repo, issueNumber, label) {
    try {
        await octokit.rest.issues.removeLabel({ ...repo, issue_number: issueNumber, name: label });
        return { removed: true };
    }
    catch (error) {
        const status = httpStatus(error);
        if (status === 404)
            return { removed: true };
        return {
            removed: false,
            status,
            reason: describeGitHubFailure(`removing the label '${label}' from #${issueNumber}`, error, 'pull-requests: write')
                .message,
        };
    }
}
async function labelAddedAt(octokit, repo, issueNumber, label) {
    let added = null;
    let pages = 0;
    const events = octokit.paginate.iterator(octokit.rest.issues.listEvents, {
        ...repo,
        issue_number: issueNumber,
        per_page: 100,
    });
    await gitHubCall(`listing the events of #${issueNumber}`, 'pull-requests: read', async () => {
        for await (const { data } of events) {
            for (const event of data) {
                const name = 'label' in event ? event.label?.name : undefined;
                if (event.event === 'labeled' && name === label)
                    added = Date.parse(event.created_at);
            }
            if (++pages >= MAX_PAGES)
                break;
        }
    });
    return added;
}
function runRecord(run) {
    return {
        id: run.id,
        workflowId: run.workflow_id,
        headSha: run.head_sha,
        headBranch: run.head_branch ?? '',
        headRepository: run.head_repository?.full_name ?? '',
        createdAt: Date.parse(run.created_at),
    };
}
async function workflowRun(octokit, repo, runId) {
    const { data } = await gitHubCall(`reading workflow run ${runId}`, 'actions: read', () => octokit.rest.actions.getWorkflowRun({ ...repo, run_id: runId }));
    return runRecord(data);
}
async function runsOfHead(octokit, repo, run, since) {
    const runs = [];
    let pages = 0;
    const listed = octokit.paginate.iterator(octokit.rest.actions.listWorkflowRuns, {
        ...repo,
        workflow_id: run.workflowId,
        event: 'pull_request',
        branch: run.headBranch,
        per_page: 100,
    });
    await gitHubCall(`listing the runs of workflow ${run.workflowId}`, 'actions: read', async () => {
        for await (const { data } of listed) {
            let older = false;
            for (const raw of data) {
                const record = runRecord(raw);
                if (record.createdAt < since)
                    older = true;
                else if (record.headRepository === run.headRepository)
                    runs.push(record);
            }
            if (older || ++pages >= MAX_PAGES)
                break;
        }
    });
    return runs.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
}

const SHA = /^[0-9a-f]{40}$/;
function pullRequestOfEvent() {
    const { eventName, payload } = workflowContext();
    if (eventName !== 'pull_request' && eventName !== 'pull_request_target')
        return undefined;
    const pr = payload.pull_request;
    const baseSha = pr?.base?.sha;
    if (typeof pr?.number !== 'number' || typeof baseSha !== 'string' || !SHA.test(baseSha)) {
        throw new UsageError(`the ${eventName} event names no pull request with a base commit (pull_request.base.sha): cannot tell which limits to trust`);
    }
    const labels = Array.isArray(pr.labels)
        ? pr.labels.map((l) => l.name).filter((n) => typeof n === 'string')
        : [];
    const { before, after } = payload;
    if (payload.action === 'reopened') {
        const head = pr.head?.sha;
        return { number: pr.number, baseSha, labels, reopenedAt: typeof head === 'string' ? head : '' };
    }
    if (payload.action !== 'synchronize')
        return { number: pr.number, baseSha, labels };
    const push = typeof before === 'string' && typeof after === 'string' && SHA.test(before) && SHA.test(after)
        ? { before, after }
        : { before: '', after: '' };
    return { number: pr.number, baseSha, labels, push };
}
async function limitsAt(octokit, repo, inputs, sha) {
    const { readFileAt } = await import('./baseline-pr.js');
    await gitHubCall(`reading commit ${sha.slice(0, 12)}`, 'contents: read', () => octokit.rest.git.getCommit({ ...repo, commit_sha: sha }));
    const [baselinePath, configPath] = limitPaths(inputs);
    const [baselineText, configText] = await Promise.all([
        readFileAt(octokit, repo, baselinePath, sha),
        readFileAt(octokit, repo, configPath, sha),
    ]);
    const at = `@${sha.slice(0, 12)}`;
    return {
        baseline: baselineText === null ? null : parseBaseline(baselineText, `${baselinePath}${at}`),
        config: configText === null
            ? parseGateConfig({}, `${configPath}${at}`)
            : parseGateConfig(parseJson(configText, `${configPath}${at}`), `${configPath}${at}`),
    };
}
async function baseLimitsAt(octokit, repo, inputs, baseSha) {
    return limitsAt(octokit, repo, inputs, baseSha).catch((error) => {
        if (!(error instanceof GitHubError))
            throw error;
        throw new GitHubError(`cannot read the pull request's base commit ${baseSha.slice(0, 12)}, whose baseline and config gate it (a pull request's own limits count only with the maintainers' label): ${error.message}`, error.status);
    });
}
async function resolveGateLimits(inputs, repo, octokit, pr) {
    const head = { baseline: await loadBaseline(inputs.baseline), config: await loadGateConfig(inputs.config) };
    if (pr === undefined)
        return { ...head, used: undefined };
    if (octokit === undefined) {
        throw new UsageError("on a pull request the gate reads the baseline and config of the base commit through the API: set 'github-token' (default github.token; it needs contents: read)");
    }
    const base = await baseLimitsAt(octokit, repo, inputs, pr.baseSha);
    const label = base.config.baselineUpdateLabel;
    let notCounted;
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
        const changed = before === ''
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
function limitPaths(inputs) {
    return [repositoryPath(inputs.baseline), repositoryPath(inputs.config ?? DEFAULT_CONFIG_PATH, 'config')];
}
async function takeLabelOff(octokit, repo, issueNumber, label, why) {
    const removal = await removeLabel(octokit, repo, issueNumber, label);
    if (!removal.removed)
        info(`Could not remove the label '${label}': ${removal.reason}`);
    return { ...why, removed: removal.removed };
}
function labelWarning(label, why) {
    const files = why.files.join(' and ');
    const short = (sha) => sha.slice(0, 12);
    const reason = why.how === 'push'
        ? `the push ${short(why.since)} → ${short(why.at)} changes ${files}, which no maintainer has reviewed`
        : why.how === 'label'
            ? `${files} changed between ${short(why.since)} (the pull request's head when the label was set) and ${short(why.at)} (the head of run ${why.runId ?? '?'}), which no maintainer has reviewed`
            : `which limits a maintainer saw cannot be told (${why.unknown ?? 'no record'})`;
    const removal = why.removed
        ? 'the label was removed: a maintainer sets it again after reviewing the change'
        : 'the token cannot remove the label (it needs `pull-requests: write`): a maintainer removes it and sets it again after reviewing the change';
    return `The label '${label}' did not count: ${reason}; ${removal}`;
}

const COMMENT_LIMIT = 65_536;
const SUMMARY_LIMIT = 1024 * 1024;
function setOutputs(report, reportPath, markdownPath) {
    const failing = report.entries.filter((e) => e.severity === 'fail').length;
    setOutput('result', report.result);
    setOutput('regressions', String(failing));
    setOutput('report', reportPath);
    setOutput('markdown', markdownPath);
}
async function writeReportFile(input, what, file, text) {
    try {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, text);
    }
    catch (error) {
        throw new UsageError(`'${input}': cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    info(`Wrote the ${what} to ${file}`);
}
function inWorkspace(where) {
    return where === undefined ? undefined : path.resolve(process.env.GITHUB_WORKSPACE || process.cwd(), where);
}
async function renderReports(inputs, report, where) {
    const dir = workDir();
    await mkdir(dir, { recursive: true });
    const reportPath = path.join(dir, 'report.json');
    const markdownPath = path.join(dir, 'report.md');
    const html = inWorkspace(inputs.htmlReport);
    const junit = inWorkspace(inputs.junitReport);
    return render({
        report,
        trends: where.trends,
        ...(where.series !== undefined ? { series: where.series } : {}),
        markdown: {
            maxBytes: SUMMARY_LIMIT,
            runUrl: where.runUrl,
            baselineFile: inputs.baseline,
            ...(where.preface !== undefined ? { preface: where.preface } : {}),
        },
        files: {
            json: reportPath,
            markdown: markdownPath,
            ...(html !== undefined ? { html } : {}),
            ...(junit !== undefined
                ? { junit: { file: junit, context: (await import('../chunks/node-environment.js')).runStamp() } }
                : {}),
        },
        write: async (format, file, text) => {
            if (format === 'markdown') {
                await writeFile(file, text);
                setOutputs(report, reportPath, markdownPath);
            }
            else if (format === 'html')
                await writeReportFile('html-report', 'HTML report', file, text);
            else
                await writeReportFile('junit-report', 'JUnit report', file, text);
        },
    });
}
const ANNOTATIONS_PER_STEP = 10;
function annotate(report, reserved) {
    const failing = failingWorstFirst(report);
    const budget = ANNOTATIONS_PER_STEP - reserved;
    const shown = failing.length <= budget ? failing : failing.slice(0, Math.max(0, budget - 1));
    for (const e of shown)
        error(annotationText(e), { title: annotationTitle(e) });
    if (failing.length > shown.length) {
        error(`${failing.length - shown.length} more failing key(s): see the job summary`, { title: 'Memory gate' });
    }
}
async function postComment(inputs, where, view) {
    const report = view.report;
    const { octokit, issueNumber, repo } = where;
    if (inputs.comment === 'never')
        return;
    if (issueNumber === undefined) {
        info('No pull request for this run: no comment posted');
        return;
    }
    if (!octokit) {
        warning("No 'github-token': the PR comment was not posted");
        return;
    }
    const { commentMarker } = await import('../chunks/comment.js');
    const { octokitHost } = await import('./github-octokit.js');
    const { upsertSticky } = await import('../chunks/sticky.js');
    const marker = commentMarker(inputs.commentKey);
    const body = renderMarkdown(view, {
        marker,
        maxBytes: COMMENT_LIMIT,
        runUrl: where.runUrl,
        baselineFile: inputs.baseline,
        ...(where.preface !== undefined ? { preface: where.preface } : {}),
    });
    try {
        const result = await upsertSticky(octokitHost(octokit, repo), {
            number: issueNumber,
            body,
            marker,
            policy: inputs.comment,
            hasFindings: report.entries.some((e) => e.severity !== 'ok') || where.limitsChanged === true,
        });
        if (result.action === 'skipped')
            info(`PR comment not posted: ${result.reason}`);
        else
            info(`PR comment ${result.action}: ${result.url ?? result.id}`);
    }
    catch (error) {
        const status = error instanceof GitHubError ? error.status : httpStatus(error);
        const hint = status === 403
            ? '; a pull request from a fork gets a read-only token: use mode: comment in a workflow_run job (see docs/security-model.md of ascend-memory-gate)'
            : '';
        warning(`Could not post the PR comment: ${visible(errorMessage(error))}${hint}`);
    }
}
async function publish(inputs, report, where) {
    const { view, markdown } = await renderReports(inputs, report, where);
    if (process.env.GITHUB_STEP_SUMMARY && markdown !== undefined)
        await summary.addRaw(markdown).write();
    const failsJob = where.enforce && report.result === 'fail' && inputs.failJob;
    if (where.enforce)
        annotate(report, failsJob ? 1 : 0);
    await postComment(inputs, where, view);
    if (where.enforce && report.result === 'fail') {
        if (failsJob)
            setFailed(failureReason(report));
        else
            warning(`${failureReason(report)} — advisory only ('fail-job: false')`);
    }
}

export { labelWarning as a, baseLimitsAt as b, labelAddedAt as c, runsOfHead as d, limitPaths as e, filesChangedBetween as f, pullRequestOfEvent as g, resolveGateLimits as h, historyPlan as i, warnIfPullRequestCanWrite as j, historyReadOf as k, limitsAt as l, recordRunOnBranch as m, publish as p, readBranchHistory as r, takeLabelOff as t, workflowRun as w };

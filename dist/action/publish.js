import { i as info, w as warning, s as summary, b as setFailed, a as setOutput, e as error } from '../index.js';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { v as visible, I as InputError, U as UsageError } from '../chunks/errors.js';
import { w as workflowContext, h as httpStatus, b as repositoryPath, a as workDir, e as errorMessage } from './shared.js';
import { G as GitHubError, g as gitHubCall, d as describeGitHubFailure } from './errors.js';
import { loadBaseline, parseBaseline } from '../chunks/baseline.js';
import { loadGateConfig, parseGateConfig, DEFAULT_CONFIG_PATH } from '../chunks/thresholds.js';
import { p as parseJson } from '../chunks/reader.js';
import { c as compareKeys } from '../chunks/snapshot.js';
import { a as formatBytes } from '../chunks/units.js';
import { valueOf } from '../chunks/baseline-changes.js';
import { c as codeSpan, t as tableCodeSpan } from '../chunks/escape.js';
import path from 'node:path';
import { f as failureReason, a as failingWorstFirst, b as annotationText } from '../chunks/annotation.js';
import { writeJsonReport } from '../chunks/json.js';
import { renderMarkdown } from '../chunks/markdown.js';

function baselineLimitChanges(base, head) {
    const keys = new Set();
    for (const side of [base, head])
        if (side !== null)
            for (const metrics of Object.values(side.sections))
                for (const key of Object.keys(metrics ?? {}))
                    keys.add(key);
    const changes = [];
    for (const key of [...keys].sort(compareKeys)) {
        const before = valueOf(base, key);
        const after = valueOf(head, key);
        if (before !== after)
            changes.push({ source: 'baseline', key, before, after });
    }
    return changes;
}
function configLimitChanges(base, head) {
    const { sections: baseSections, ...baseRest } = base;
    const { sections: headSections, ...headRest } = head;
    const before = leaves({ ...baseSections, ...baseRest });
    const after = leaves({ ...headSections, ...headRest });
    const changes = [];
    for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
        const b = before.get(key) ?? null;
        const a = after.get(key) ?? null;
        if (b !== a)
            changes.push({ source: 'config', key, before: b, after: a });
    }
    return changes;
}
function leaves(root) {
    const out = new Map();
    const stack = [['', root]];
    while (stack.length > 0) {
        const [at, value] = stack.pop();
        if (value !== null && typeof value === 'object') {
            for (const [k, v] of Object.entries(value))
                stack.push([at === '' ? k : Array.isArray(value) ? `${at}[${k}]` : `${at}.${k}`, v]);
        }
        else if (value !== undefined) {
            out.set(at, value);
        }
    }
    return out;
}
const MAX_ROWS = 40;
function renderLimitsChanged(used) {
    const base = codeSpan(used.baseSha.slice(0, 12));
    const label = codeSpan(used.label);
    if (used.changes.length === 0) {
        const limits = `Limits: the baseline and config of the base commit ${base}; this pull request does not change them.`;
        return used.labelNotCounted === undefined ? limits : `${limits} ${labelNotCountedText(used.labelNotCounted, used.label)}`;
    }
    const lines = [`#### ⚠️ Limits changed by this PR (${used.changes.length})`, ''];
    lines.push(used.from === 'pull-request'
        ? `**This pull request's own limits were used**: it carries the label ${label}, which only maintainers can set. Without it, the gate uses those of the base commit ${base}.`
        : used.labelNotCounted !== undefined
            ? `**These changes were not used**: ${labelNotCountedText(used.labelNotCounted, used.label)} The gate ran against the baseline and config of the base commit ${base}.`
            : `**These changes were not used**: the gate ran against the baseline and config of the base commit ${base}. To gate with them, a maintainer (triage or write access) reviews them and adds the label ${label}.`, '', '| Limit | Key | Base | This PR | Change |', '|---|---|--:|--:|--:|');
    for (const change of used.changes.slice(0, MAX_ROWS)) {
        lines.push(`| ${change.source} | ${tableCodeSpan(change.key)} | ${shown(change, change.before)} | ${shown(change, change.after)} | ${ratio(change)} |`);
    }
    if (used.changes.length > MAX_ROWS)
        lines.push('', `…and ${used.changes.length - MAX_ROWS} more: see the pull request's diff of the baseline and config.`);
    return lines.join('\n');
}
function labelNotCountedText(why, labelName) {
    const label = codeSpan(labelName);
    const files = why.files.map(codeSpan).join(' and ');
    const since = codeSpan(why.since.slice(0, 12));
    const at = codeSpan(why.at.slice(0, 12));
    const reason = why.how === 'push'
        ? `the label ${label} was set before the push ${since} → ${at}, which changes ${files}, so no maintainer has reviewed these limits.`
        : why.how === 'label'
            ? `the label ${label} was set when the pull request's head was ${since}; ${at} (the head of run ${why.runId ?? '?'}) changes ${files} since, so no maintainer has reviewed these limits.`
            : `the label ${label} is on this pull request, but which limits a maintainer saw cannot be told (${why.unknown ?? 'no record'}), so it does not count.`;
    const removal = why.removed
        ? 'The label was removed: a maintainer reviews the changes and sets it again.'
        : 'The token cannot remove the label (it needs `pull-requests: write`): a maintainer removes it and sets it again after reviewing the changes.';
    return `${reason} ${removal}`;
}
function shown(change, value) {
    if (value === null)
        return 'absent';
    if (change.source === 'baseline' && typeof value === 'number')
        return formatBytes(value);
    return tableCodeSpan(JSON.stringify(value));
}
function ratio(change) {
    const { before, after } = change;
    if (typeof before !== 'number' || typeof after !== 'number' || before === 0)
        return '';
    return `×${(after / before).toFixed(2)}`;
}

const WRITING_EVENTS = new Set(['push', 'schedule', 'workflow_dispatch']);
function historyPlan(inputs) {
    const { eventName, payload, ref } = workflowContext();
    const repository = payload.repository;
    const defaultBranch = typeof repository?.default_branch === 'string' ? repository.default_branch : undefined;
    if (!inputs.history)
        return { role: 'off', why: "'history: false'", defaultBranch };
    if (inputs.mode !== 'check' || !WRITING_EVENTS.has(eventName))
        return { role: 'read', why: `a ${inputs.mode} run on ${eventName || 'an unknown event'} only reads it`, defaultBranch };
    const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
    if (eventName === 'schedule' && branch !== undefined && (defaultBranch === undefined || branch === defaultBranch)) {
        return { role: 'write', why: `a scheduled run of ${branch}`, defaultBranch: defaultBranch ?? branch };
    }
    if (defaultBranch === undefined)
        return { role: 'read', why: `the ${eventName} event does not name the default branch (repository.default_branch)`, defaultBranch };
    if (branch !== defaultBranch)
        return { role: 'read', why: `${ref || 'this ref'} is not the default branch ${defaultBranch}`, defaultBranch };
    return { role: 'write', why: `a ${eventName} run of ${defaultBranch}`, defaultBranch };
}
function historyPath(commentKey) {
    return `${commentKey}.history.jsonl`;
}
function fileRef(inputs, repo) {
    return { ...repo, branch: inputs.historyBranch, path: historyPath(inputs.commentKey) };
}
const readTexts = new WeakMap();
async function readBranchHistory(inputs, octokit, repo) {
    const where = `${inputs.historyBranch}:${historyPath(inputs.commentKey)}`;
    if (octokit === undefined) {
        info(`History not read: no 'github-token'`);
        return null;
    }
    const { readHistoryText } = await import('./history-branch.js');
    const { parseHistory } = await import('../chunks/format.js');
    let text;
    try {
        text = await readHistoryText(octokit, fileRef(inputs, repo));
    }
    catch (error) {
        if (!(error instanceof GitHubError))
            throw error;
        warning(`History not read, so the report has no trends: ${visible(error.message)}`);
        return null;
    }
    if (text === null) {
        info(`No history yet at ${where}: the default branch's next check run starts it`);
        return null;
    }
    try {
        const history = parseHistory(text, where);
        readTexts.set(history, text);
        info(`History read from ${where}: ${history.points.length} point(s)`);
        return history;
    }
    catch (error) {
        if (!(error instanceof InputError))
            throw error;
        warning(`History not read, so the report has no trends: ${visible(error.message)}`);
        return null;
    }
}
async function recordRunOnBranch(inputs, octokit, repo, snapshot, plan, read = null) {
    const where = `${inputs.historyBranch}:${historyPath(inputs.commentKey)}`;
    if (octokit === undefined) {
        warning(`History not recorded: no 'github-token' to write ${where} with`);
        return read;
    }
    const ctx = workflowContext();
    const { writeHistoryText } = await import('./history-branch.js');
    const { emptyHistory, parseHistory } = await import('../chunks/format.js');
    const { baselineHash, pointEnvironment, pointValues } = await import('../chunks/point.js');
    const { HISTORY_MAX_BYTES, recordPoint } = await import('../chunks/store.js');
    const attempt = Number(process.env.GITHUB_RUN_ATTEMPT);
    const meta = {
        commit: ctx.sha.toLowerCase(),
        run: String(ctx.runId),
        ...(Number.isSafeInteger(attempt) && attempt >= 1 ? { attempt } : {}),
        time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        baseline: await baselineBytes(inputs.baseline).then((bytes) => (bytes === null ? null : baselineHash(bytes))),
        environment: pointEnvironment(snapshot),
    };
    if (!/^[0-9a-f]{4,64}$/.test(meta.commit)) {
        warning(`History not recorded: this run's commit (GITHUB_SHA) is ${JSON.stringify(ctx.sha)}, not a commit SHA`);
        return read;
    }
    const values = pointValues(snapshot);
    const header = {
        gate: inputs.commentKey,
        ...(plan.defaultBranch !== undefined ? { branch: plan.defaultBranch } : {}),
        commitUrl: `${ctx.serverUrl}/${repo.owner}/${repo.repo}/commit/{sha}`,
    };
    const written = {};
    const readText = read === null ? undefined : readTexts.get(read);
    let reuse = readText !== undefined;
    let changedRead = false;
    const asRead = () => (read === null || !changedRead || readText === undefined ? read : parseHistory(readText, where));
    try {
        const result = await writeHistoryText(octokit, fileRef(inputs, repo), (text) => {
            const same = reuse && read !== null && text !== null && text === readText;
            reuse = false;
            if (same)
                changedRead = true;
            const history = same ? read : text === null ? emptyHistory(header) : parseHistory(text, where);
            Object.assign(history.header, header);
            const appended = recordPoint(history, meta, values, { maxPoints: inputs.historySize, maxBytes: HISTORY_MAX_BYTES });
            written.last = { history, points: appended.points, dropped: appended.dropped, replaced: appended.replaced };
            return appended.text;
        }, `Record run ${meta.run} (${meta.commit.slice(0, 12)}) of gate ${inputs.commentKey}`);
        const done = written.last;
        if (done === undefined)
            throw new Error('the history was written without a point');
        const retries = result.attempts > 1 ? `, after ${result.attempts - 1} retr${result.attempts === 2 ? 'y' : 'ies'} (the branch moved meanwhile)` : '';
        info(`History: ${done.replaced ? 'replaced the point of' : 'recorded'} run ${meta.run} in ${where} (${result.commit.slice(0, 12)}): point ${done.points} of at most ${inputs.historySize}${done.dropped > 0 ? `, ${done.dropped} oldest dropped` : ''}${retries}`);
        return done.history;
    }
    catch (error) {
        if (error instanceof GitHubError && error.status === 403) {
            warning(`History not recorded: ${visible(error.message)}. Give the default branch's check job \`permissions: contents: write\`, or set 'history: false'`);
            return asRead();
        }
        if (error instanceof GitHubError) {
            warning(`History not recorded: ${visible(error.message)}`);
            return asRead();
        }
        if (error instanceof InputError) {
            warning(`History not recorded: ${visible(error.message)}; the file was left as it is`);
            return asRead();
        }
        throw error;
    }
}
async function baselineBytes(file) {
    try {
        return await readFile(file);
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return null;
        throw error;
    }
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
        const [before, after] = await Promise.all([blobShaAt(octokit, repo, path, from), blobShaAt(octokit, repo, path, to)]);
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
        return { removed: false, status, reason: describeGitHubFailure(`removing the label '${label}' from #${issueNumber}`, error, 'pull-requests: write').message };
    }
}
async function labelAddedAt(octokit, repo, issueNumber, label) {
    let added = null;
    let pages = 0;
    const events = octokit.paginate.iterator(octokit.rest.issues.listEvents, { ...repo, issue_number: issueNumber, per_page: 100 });
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
    const labels = Array.isArray(pr.labels) ? pr.labels.map((l) => l.name).filter((n) => typeof n === 'string') : [];
    const { before, after } = payload;
    if (payload.action === 'reopened') {
        const head = pr.head?.sha;
        return { number: pr.number, baseSha, labels, reopenedAt: typeof head === 'string' ? head : '' };
    }
    if (payload.action !== 'synchronize')
        return { number: pr.number, baseSha, labels };
    const push = typeof before === 'string' && typeof after === 'string' && SHA.test(before) && SHA.test(after) ? { before, after } : { before: '', after: '' };
    return { number: pr.number, baseSha, labels, push };
}
async function limitsAt(octokit, repo, inputs, sha) {
    const { readFileAt } = await import('./baseline-pr.js');
    await gitHubCall(`reading commit ${sha.slice(0, 12)}`, 'contents: read', () => octokit.rest.git.getCommit({ ...repo, commit_sha: sha }));
    const [baselinePath, configPath] = limitPaths(inputs);
    const [baselineText, configText] = await Promise.all([readFileAt(octokit, repo, baselinePath, sha), readFileAt(octokit, repo, configPath, sha)]);
    const at = `@${sha.slice(0, 12)}`;
    return {
        baseline: baselineText === null ? null : parseBaseline(baselineText, `${baselinePath}${at}`),
        config: configText === null ? parseGateConfig({}, `${configPath}${at}`) : parseGateConfig(parseJson(configText, `${configPath}${at}`), `${configPath}${at}`),
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
        const changed = before === '' ? { unknown: "the synchronize event does not say which commits it moved between ('before', 'after')" } : await filesChangedBetween(octokit, repo, limitPaths(inputs), before, after);
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
function chooseLimits(base, head, pr, notCounted) {
    const changes = [...baselineLimitChanges(base.baseline, head.baseline), ...configLimitChanges(base.config, head.config)];
    const label = base.config.baselineUpdateLabel;
    const fromPullRequest = changes.length > 0 && pr.labels.includes(label) && notCounted === undefined;
    const chosen = fromPullRequest ? head : base;
    const used = { from: fromPullRequest ? 'pull-request' : 'base', baseSha: pr.baseSha, label, changes };
    if (notCounted !== undefined)
        used.labelNotCounted = notCounted;
    return { ...chosen, used };
}

const COMMENT_LIMIT = 65_536;
const SUMMARY_LIMIT = 1024 * 1024;
async function writeOutputs(report, markdown) {
    const dir = workDir();
    await mkdir(dir, { recursive: true });
    const reportPath = path.join(dir, 'report.json');
    const markdownPath = path.join(dir, 'report.md');
    await writeJsonReport(reportPath, report);
    await writeFile(markdownPath, markdown);
    const failing = report.entries.filter((e) => e.severity === 'fail').length;
    setOutput('result', report.result);
    setOutput('regressions', String(failing));
    setOutput('report', reportPath);
    setOutput('markdown', markdownPath);
    return { reportPath, markdownPath };
}
async function writeReportFile(input, what, where, render) {
    if (where === undefined)
        return;
    const file = path.resolve(process.env.GITHUB_WORKSPACE || process.cwd(), where);
    try {
        const text = await render();
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, text);
    }
    catch (error) {
        if (error instanceof UsageError)
            throw error;
        throw new UsageError(`'${input}': cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    info(`Wrote the ${what} to ${file}`);
}
async function writeReportFiles(inputs, report, where) {
    const options = { ...(where.series !== undefined ? { series: where.series } : {}), ...(where.trends !== undefined ? { trends: where.trends } : {}) };
    await writeReportFile('html-report', 'HTML report', inputs.htmlReport, async () => (await import('../chunks/html.js').then(function (n) { return n.h; })).renderHtml(report, options));
    await writeReportFile('junit-report', 'JUnit report', inputs.junitReport, async () => {
        const { runStamp } = await import('../chunks/node-environment.js');
        return (await import('../chunks/junit.js')).renderJunit(report, runStamp());
    });
}
const ANNOTATIONS_PER_STEP = 10;
function annotate(report, reserved) {
    const failing = failingWorstFirst(report);
    const budget = ANNOTATIONS_PER_STEP - reserved;
    const shown = failing.length <= budget ? failing : failing.slice(0, Math.max(0, budget - 1));
    for (const e of shown)
        error(annotationText(e), { title: `Memory gate: ${e.key} ${e.status}` });
    if (failing.length > shown.length) {
        error(`${failing.length - shown.length} more failing key(s): see the job summary`, { title: 'Memory gate' });
    }
}
async function postComment(inputs, where, report) {
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
    const { commentMarker, upsertStickyComment } = await import('./comment2.js');
    const marker = commentMarker(inputs.commentKey);
    const body = renderMarkdown(report, {
        marker,
        maxBytes: COMMENT_LIMIT,
        runUrl: where.runUrl,
        ...(where.preface !== undefined ? { preface: where.preface } : {}),
        ...(where.trends !== undefined ? { trends: where.trends } : {}),
    });
    try {
        const result = await upsertStickyComment(octokit, {
            ...repo,
            issueNumber,
            body,
            marker,
            policy: inputs.comment,
            hasFindings: report.entries.some((e) => e.severity !== 'ok') || where.limitsChanged === true,
        });
        if (result.action === 'skipped')
            info(`PR comment not posted: ${result.reason}`);
        else
            info(`PR comment ${result.action}: ${result.url}`);
    }
    catch (error) {
        const status = error instanceof GitHubError ? error.status : httpStatus(error);
        const hint = status === 403 ? '; a pull request from a fork gets a read-only token: use mode: comment in a workflow_run job (see docs/security-model.md of ascend-memory-gate)' : '';
        warning(`Could not post the PR comment: ${visible(errorMessage(error))}${hint}`);
    }
}
async function publish(inputs, report, where) {
    const markdown = renderMarkdown(report, {
        maxBytes: SUMMARY_LIMIT,
        runUrl: where.runUrl,
        ...(where.preface !== undefined ? { preface: where.preface } : {}),
        ...(where.trends !== undefined ? { trends: where.trends } : {}),
    });
    await writeOutputs(report, markdown);
    await writeReportFiles(inputs, report, where);
    if (process.env.GITHUB_STEP_SUMMARY)
        await summary.addRaw(markdown).write();
    const failsJob = where.enforce && report.result === 'fail' && inputs.failJob;
    if (where.enforce)
        annotate(report, failsJob ? 1 : 0);
    await postComment(inputs, where, report);
    if (where.enforce && report.result === 'fail') {
        if (failsJob)
            setFailed(failureReason(report));
        else
            warning(`${failureReason(report)} — advisory only ('fail-job: false')`);
    }
}

export { labelWarning as a, baseLimitsAt as b, chooseLimits as c, renderLimitsChanged as d, labelAddedAt as e, runsOfHead as f, filesChangedBetween as g, limitPaths as h, pullRequestOfEvent as i, resolveGateLimits as j, historyPlan as k, limitsAt as l, recordRunOnBranch as m, publish as p, readBranchHistory as r, takeLabelOff as t, workflowRun as w };

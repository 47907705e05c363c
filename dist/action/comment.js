import { i as info, w as warning } from '../index.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { g as glob } from '../chunks/limits.js';
import { U as UsageError, I as InputError, v as visible } from '../chunks/errors.js';
import { w as workflowContext, t as thisRepo, a as workDir, r as runUrl, e as errorMessage } from './shared.js';
import { g as gitHubCall, G as GitHubError } from './errors.js';
import { renderLimitsChanged } from '../chunks/limits-changed.js';
import { r as readBranchHistory, p as publish, l as limitsAt, b as baseLimitsAt, a as labelWarning, w as workflowRun, c as labelAddedAt, d as runsOfHead, f as filesChangedBetween, e as limitPaths, t as takeLabelOff } from './publish.js';
import { S as STATUSES, d as disjointOf, V as VERDICTS_BEFORE_FINDINGS, a as VERDICTS_AFTER_FINDINGS } from '../chunks/types.js';
import { b as SECTIONS, c as compareKeys, s as sectionOfKind, h as hasNoMetrics, m as metricsOf, k as keysOf, v as valueOf, f as formatCount, d as formatBytes } from '../chunks/evidence-sources.js';
import { w as withFindings, j as judge, a as withNoiseBand } from '../chunks/compare.js';
import { a as applyEnvironment } from '../chunks/roll-up.js';
import { f as findingOrder, w as writerOf, s as sectionThresholds, F as FINDINGS } from '../chunks/index.js';
import { applyMaxIncrease, parseMaxIncrease } from '../chunks/thresholds.js';
import { c as codeSpan, t as tableCodeSpan } from '../chunks/escape.js';
import { s as shortenName } from '../chunks/names.js';
import { M as MAX_KEY_LENGTH } from '../chunks/partition.js';
import { parseReportJson } from '../chunks/json.js';
import { downloadArtifacts, ArtifactsFailed } from './artifacts.js';
import { chooseLimits } from '../chunks/limits2.js';
import 'os';
import 'crypto';
import 'fs';
import 'path';
import 'string_decoder';
import 'events';
import 'child_process';
import 'assert';
import 'timers';
import '../chunks/reader.js';
import '../chunks/_commonjsHelpers.js';
import 'node:crypto';
import '../chunks/oom-cause.js';
import '../chunks/keys.js';
import 'node:fs';
import 'url';
import 'module';
import 'node:os';
import '../chunks/collect.js';
import '../chunks/worker-start.js';
import 'node:worker_threads';
import '../chunks/parse-protocol.js';
import 'node:url';
import '../chunks/baseline-changes.js';
import '../chunks/text-layout.js';
import '../chunks/baseline.js';
import '../chunks/atomic-write.js';
import '../chunks/validate.js';
import 'node:v8';
import 'node:vm';
import '../chunks/whole-text.js';
import 'node:buffer';
import '../chunks/document-json.js';
import '../chunks/annotation.js';
import '../chunks/view.js';
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
import 'node:stream';
import 'node:stream/promises';
import 'zlib';
import 'util';
import 'stream';
import 'node:child_process';
import '../chunks/types2.js';

const VERDICT_STATUSES = new Set([...VERDICTS_BEFORE_FINDINGS, ...VERDICTS_AFTER_FINDINGS]);
const DERIVED_FINDINGS = FINDINGS.filter((f) => 'derivedFrom' in f.rejudge);
const DERIVED_FROM = new Set(DERIVED_FINDINGS.flatMap((f) => ('derivedFrom' in f.rejudge ? f.rejudge.derivedFrom : [])));
const ORPHAN_FINDING_NOTE = "The uploaded report has no verdict for this finding's key (dropped or relabelled): it fails.";
const UNKNOWN_ENTRY_NOTE = 'The uploaded report has an entry no gate writes (this status is never given to this kind of key): it fails.';
const SECOND_VERDICT_NOTE = 'The uploaded report has a second verdict for this key (relabelled or forged): it fails.';
const DROPPED_ENTRY_NOTE = 'The uploaded report has no entry for this baseline key (dropped or renamed): its figure is unknown, so it fails.';
function rejudgeReport(claimed, trusted, keyAsWritten = (key) => key) {
    const { config } = trusted;
    const baseline = trusted.baseline ?? { sections: {} };
    const discrepancies = [];
    const claims = sortClaims(claimed, trusted, keyAsWritten, discrepancies);
    const findings = [
        ...rejudgeDerived(claims, baseline, config, keyAsWritten, discrepancies),
        ...rejudgeKept(claims, config, discrepancies),
    ];
    const verdicts = [...claims.verdicts, ...droppedKeys(claims, config, discrepancies)];
    const sectionOrder = new Map(SECTIONS.map((d, i) => [d.kind, i]));
    verdicts.sort((a, b) => (sectionOrder.get(a.kind) ?? 0) - (sectionOrder.get(b.kind) ?? 0) || compareKeys(a.key, b.key));
    findings.sort(findingOrder(sectionOrder));
    const report = assembled(claimed, trusted, verdicts, [...withFindings(verdicts, findings), ...claims.others], discrepancies);
    const position = (d) => {
        const index = /^\/entries\/(\d+)/.exec(d.pointer);
        return index ? Number(index[1]) : d.pointer === '/entries' ? Number.MAX_SAFE_INTEGER : Number.POSITIVE_INFINITY;
    };
    discrepancies.sort((a, b) => position(a) - position(b) || 0);
    for (const status of STATUSES) {
        const before = claimed.counts[status] ?? 0;
        const after = report.counts[status] ?? 0;
        if (before !== after)
            discrepancies.push({ pointer: `/counts/${status}`, key: null, field: 'count', claimed: before, rejudged: after });
    }
    if (claimed.result !== report.result)
        discrepancies.push({
            pointer: '/result',
            key: null,
            field: 'result',
            claimed: claimed.result,
            rejudged: report.result,
        });
    return { report, discrepancies };
}
function sortClaims(claimed, trusted, keyAsWritten, discrepancies) {
    const { config } = trusted;
    const band = config.history !== null && trusted.noise !== undefined
        ? { config: config.history, noise: trusted.noise }
        : undefined;
    const baseline = trusted.baseline ?? { sections: {} };
    const compared = SECTIONS.filter((d) => d.compared !== false);
    const claims = {
        trustedKeys: new Map(compared.map((d) => [d.kind, trustedKeysOf(d, baseline, keyAsWritten)])),
        seen: new Map(compared.map((d) => [d.kind, new Set()])),
        verdicts: [],
        figures: Object.fromEntries([...DERIVED_FROM].map((name) => [name, {}])),
        derivable: new Map(),
        kept: [],
        others: [],
    };
    claimed.entries.forEach((entry, i) => {
        const at = `/entries/${i}`;
        const declaration = sectionOfKind(entry.kind);
        const keys = claims.seen.get(entry.kind);
        const finding = findingClass(entry);
        if (declaration !== undefined && keys !== undefined && VERDICT_STATUSES.has(entry.status)) {
            const trustedKey = claims.trustedKeys.get(entry.kind)?.get(entry.key);
            const rejudged = rejudgeVerdict(entry, at, declaration, trustedKey, config, keyAsWritten, discrepancies, band);
            if (keys.has(entry.key)) {
                const failed = { ...rejudged, severity: 'fail' };
                discrepancies.push({
                    pointer: at,
                    key: entry.key,
                    field: 'entry',
                    claimed: described(entry),
                    rejudged: described(failed),
                });
                claims.others.push({ ...failed, note: SECOND_VERDICT_NOTE });
                return;
            }
            keys.add(entry.key);
            claims.verdicts.push(rejudged);
            const figured = claims.figures[declaration.name];
            if (figured !== undefined && entry.current !== null)
                figured[trustedKey?.key ?? entry.key] = figureOf(declaration, entry.current);
        }
        else if (finding === 'derived') {
            const id = findingId(entry);
            claims.derivable.set(id, [...(claims.derivable.get(id) ?? []), { entry, index: i }]);
        }
        else if (finding === 'kept') {
            claims.kept.push({ entry, index: i });
        }
        else {
            const rejudged = { status: entry.status, severity: 'fail' };
            discrepancies.push({ pointer: at, key: entry.key, field: 'entry', claimed: described(entry), rejudged });
            claims.others.push({ ...entry, severity: 'fail', note: UNKNOWN_ENTRY_NOTE });
        }
    });
    return claims;
}
function rejudgeDerived(claims, baseline, config, keyAsWritten, discrepancies) {
    const findings = [];
    const derivedEntries = DERIVED_FINDINGS.flatMap((finding) => finding.assess({ baseline, current: { sections: claims.figures }, config }));
    for (const derived of derivedEntries) {
        const entry = { ...derived, key: keyAsWritten(derived.key) };
        const match = claims.derivable.get(findingId(entry))?.shift();
        if (match === undefined)
            discrepancies.push({
                pointer: '/entries',
                key: entry.key,
                field: 'entry',
                claimed: null,
                rejudged: described(entry),
            });
        else
            compareFinding(match.entry, entry, `/entries/${match.index}`, discrepancies);
        findings.push(entry);
    }
    for (const rest of claims.derivable.values()) {
        for (const { entry, index } of rest) {
            const pointer = `/entries/${index}`;
            const orphan = claims.seen.get(entry.kind)?.has(entry.key) === false;
            const rejudged = orphan ? { status: entry.status, severity: 'fail' } : null;
            discrepancies.push({ pointer, key: entry.key, field: 'entry', claimed: described(entry), rejudged });
            if (orphan)
                findings.push({ ...entry, severity: 'fail', note: ORPHAN_FINDING_NOTE });
        }
    }
    return findings;
}
function rejudgeKept(claims, config, discrepancies) {
    const findings = [];
    for (const { entry, index } of claims.kept) {
        const finding = rejudgeKeptFinding(entry, `/entries/${index}`, config, discrepancies);
        if (finding === null)
            continue;
        const rejudging = writerOf(finding)?.finding.rejudge;
        const declaration = sectionOfKind(finding.kind);
        if (rejudging !== undefined &&
            'kept' in rejudging &&
            declaration !== undefined &&
            rejudging.withVerdict.includes(declaration.name) &&
            !claims.seen.get(finding.kind)?.has(finding.key)) {
            discrepancies.push({
                pointer: `/entries/${index}/severity`,
                key: finding.key,
                field: 'severity',
                claimed: finding.severity,
                rejudged: 'fail',
            });
            finding.severity = 'fail';
            finding.note = ORPHAN_FINDING_NOTE;
        }
        findings.push(finding);
    }
    return findings;
}
function droppedKeys(claims, config, discrepancies) {
    const dropped = [];
    for (const declaration of SECTIONS.filter((d) => d.compared !== false)) {
        const keys = claims.seen.get(declaration.kind);
        for (const [written, { key, value }] of claims.trustedKeys.get(declaration.kind) ?? []) {
            if (keys.has(written))
                continue;
            const judged = unitOf(judge(declaration.kind, key, value, null, sectionThresholds(config, declaration), config), declaration);
            const entry = judged.status === 'ignored'
                ? { ...judged, key: written }
                : { ...judged, key: written, severity: 'fail', note: DROPPED_ENTRY_NOTE };
            discrepancies.push({
                pointer: '/entries',
                key: written,
                field: 'entry',
                claimed: null,
                rejudged: described(entry),
            });
            dropped.push(entry);
        }
    }
    return dropped;
}
function assembled(claimed, trusted, verdicts, entries, discrepancies) {
    const { config } = trusted;
    let report = { result: 'pass', counts: countsOf(entries), entries };
    if (claimed.missingArtifacts !== undefined)
        report.missingArtifacts = claimed.missingArtifacts;
    if (claimed.history !== undefined)
        report.history = claimed.history;
    if (claimed.environment !== undefined) {
        const severity = policySeverity(config.environment.onChange);
        if (severity !== claimed.environment.severity)
            discrepancies.push({
                pointer: '/environment/severity',
                key: null,
                field: 'environment',
                claimed: claimed.environment.severity,
                rejudged: severity,
            });
        report = applyEnvironment(report, { ...claimed.environment, severity });
    }
    const disjoint = disjointOf(verdicts, config);
    if (disjoint !== null)
        report.disjointBaseline = disjoint;
    if (claimed.notRead !== undefined)
        report.notRead = claimed.notRead;
    const failed = disjoint?.severity === 'fail' ||
        entries.some((e) => e.severity === 'fail') ||
        report.environment?.severity === 'fail' ||
        (config.onMissingBaseline === 'fail' && (trusted.baseline === null || hasNoMetrics(trusted.baseline)));
    return { ...report, result: failed ? 'fail' : 'pass' };
}
function trustedKeysOf(declaration, baseline, keyAsWritten) {
    const metrics = metricsOf(baseline, declaration.name);
    const out = new Map();
    for (const key of keysOf(metrics))
        out.set(keyAsWritten(key), {
            key,
            value: valueOf(declaration, metrics[key]),
            metric: metrics[key],
        });
    return out;
}
function rejudgeVerdict(entry, at, declaration, trusted, config, keyAsWritten, discrepancies, band) {
    const baseline = trusted?.value ?? null;
    const thresholds = sectionThresholds(config, declaration);
    let judged = unitOf(judge(declaration.kind, trusted?.key ?? entry.key, baseline, entry.current, thresholds, config), declaration);
    if (band !== undefined && (judged.status === 'regressed' || judged.status === 'improved')) {
        judged = unitOf(withNoiseBand(judged, thresholds, band, config, declaration.unit === 'count' ? 'count' : undefined), declaration);
    }
    let rejudged = { ...judged, key: entry.key, rule: judged.rule === null ? null : keyAsWritten(judged.rule) };
    const describe = declaration.describe;
    if (describe !== undefined && rejudged.note === undefined) {
        const note = entry.current !== null ? entry.note : trusted === undefined ? undefined : describe(trusted.key, trusted.metric);
        if (note !== undefined)
            rejudged = { ...rejudged, note };
    }
    const unit = rejudged.unit ?? 'bytes';
    const differ = (field, claimed, value) => {
        if (claimed !== value)
            discrepancies.push({
                pointer: `${at}/${field}`,
                key: entry.key,
                field,
                claimed,
                rejudged: value,
                ...(field === 'rule' || field === 'unit' ? {} : { unit }),
            });
    };
    differ('baseline', entry.baseline, rejudged.baseline);
    if (entry.status !== rejudged.status)
        discrepancies.push({
            pointer: `${at}/status`,
            key: entry.key,
            field: 'status',
            claimed: entry.status,
            rejudged: rejudged.status,
        });
    else if (entry.severity !== rejudged.severity)
        discrepancies.push({
            pointer: `${at}/severity`,
            key: entry.key,
            field: 'severity',
            claimed: entry.severity,
            rejudged: rejudged.severity,
        });
    if (entry.baseline === rejudged.baseline) {
        differ('delta', entry.delta, rejudged.delta);
        differ('percent', entry.percent, rejudged.percent);
    }
    differ('rule', entry.rule, rejudged.rule);
    differ('unit', entry.unit ?? null, rejudged.unit ?? null);
    return rejudged;
}
function findingClass(entry) {
    const writer = writerOf(entry);
    if (writer === undefined)
        return null;
    return 'derivedFrom' in writer.finding.rejudge ? 'derived' : 'kept';
}
function figureOf(declaration, current) {
    return {
        ...Object.fromEntries(Object.keys(declaration.fields).map((field) => [field, null])),
        [declaration.value]: current,
    };
}
function findingId(entry) {
    return `${entry.kind}\0${entry.key}\0${writerOf(entry)?.finding.name ?? entry.status}`;
}
function compareFinding(claimed, derived, at, discrepancies) {
    if (claimed.status !== derived.status)
        discrepancies.push({
            pointer: `${at}/status`,
            key: claimed.key,
            field: 'status',
            claimed: claimed.status,
            rejudged: derived.status,
        });
    else if (claimed.severity !== derived.severity)
        discrepancies.push({
            pointer: `${at}/severity`,
            key: claimed.key,
            field: 'severity',
            claimed: claimed.severity,
            rejudged: derived.severity,
        });
    const unit = derived.unit ?? 'bytes';
    for (const field of ['baseline', 'current', 'limit', 'capacity']) {
        const before = claimed[field] ?? null;
        const after = derived[field] ?? null;
        if (before !== after)
            discrepancies.push({
                pointer: `${at}/${field}`,
                key: claimed.key,
                field,
                claimed: before,
                rejudged: after,
                unit,
            });
    }
}
function rejudgeKeptFinding(entry, at, config, discrepancies) {
    const policy = config.verdicts[entry.status];
    if (policy === 'ignore') {
        discrepancies.push({ pointer: at, key: entry.key, field: 'entry', claimed: described(entry), rejudged: null });
        return null;
    }
    if (entry.severity !== policy)
        discrepancies.push({
            pointer: `${at}/severity`,
            key: entry.key,
            field: 'severity',
            claimed: entry.severity,
            rejudged: policy,
        });
    return { ...entry, severity: policy };
}
function unitOf(entry, declaration) {
    return declaration.unit === 'bytes' ? entry : { ...entry, unit: declaration.unit };
}
function described(entry) {
    return { status: entry.status, severity: entry.severity };
}
function countsOf(entries) {
    const counts = {};
    for (const status of STATUSES)
        counts[status] = 0;
    for (const entry of entries)
        counts[entry.status] = (counts[entry.status] ?? 0) + 1;
    return counts;
}
function policySeverity(policy) {
    return policy === 'ignore' ? 'ok' : policy;
}

const MAX_ROWS = 20;
function describeDiscrepancy(d) {
    const plain = (value, side) => {
        if (value === null)
            return d.field === 'entry' ? 'no entry' : 'absent';
        if (typeof value === 'object')
            return `${value.status} (${value.severity})`;
        if (typeof value === 'number')
            return isFigure(d) ? figure(d, value, side === 'claimed' ? d.rejudged : d.claimed) : String(value);
        return `'${value}'`;
    };
    return `${d.pointer}${d.key === null ? '' : ` of ${d.key}`} says ${plain(d.claimed, 'claimed')}, re-judged ${plain(d.rejudged, 'rejudged')}`;
}
function renderNotTrustworthy(discrepancies, limits, uploader = 'pull-request') {
    const review = uploader === 'pull-request'
        ? "review the pull request's changes to the workflow, baseline and config"
        : "review the changes of the run's commit to the workflow, baseline and config";
    const lines = [
        `#### ⛔ This report is not trustworthy: ${discrepancies.length} of its claims do not follow from the trusted limits`,
        '',
        `${uploader === 'pull-request' ? "The pull request's run" : 'The run'} uploaded a report whose claims differ from what ${limits} give for the figures it reports. ` +
            "The verdict below is re-judged here from those limits and the run's figures; the figures themselves (what the run measured) " +
            `cannot be checked here: ${review}.`,
        '',
        '| Where | Key | The report says | Re-judged |',
        '|---|---|---|---|',
    ];
    for (const d of discrepancies.slice(0, MAX_ROWS)) {
        lines.push(`| ${codeSpan(d.pointer)} | ${d.key === null ? '' : tableCodeSpan(d.key)} | ${cell(d, d.claimed, d.rejudged)} | ${cell(d, d.rejudged, d.claimed)} |`);
    }
    if (discrepancies.length > MAX_ROWS)
        lines.push('', `…and ${formatCount(discrepancies.length - MAX_ROWS)} more: the job's report.json holds the re-judged entries.`);
    return lines.join('\n');
}
function isFigure(d) {
    return d.field === 'baseline' || d.field === 'delta' || d.field === 'limit' || d.field === 'capacity';
}
function cell(d, value, other) {
    if (value === null)
        return d.field === 'entry' ? 'no entry' : 'absent';
    if (typeof value === 'object')
        return `${codeSpan(value.status)} (${value.severity})`;
    if (typeof value === 'number') {
        if (isFigure(d))
            return figure(d, value, other);
        if (d.field === 'percent')
            return `${value}%`;
        return formatCount(value);
    }
    return tableCodeSpan(value);
}
function figure(d, value, other) {
    if (d.unit === 'count')
        return formatCount(value);
    const shown = formatBytes(value);
    return typeof other === 'number' && formatBytes(other) === shown ? `${formatCount(value)} B` : shown;
}

const REPORT_ARTIFACT_LIMIT = 512 * 1024 * 1024;
const REPORT_INFLATION_LIMIT = 100;
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
    const { downloaded: [artifact], } = await downloadArtifacts({
        patterns: [inputs.reportArtifact],
        crossRun: { runId, owner: repo.owner, repo: repo.repo, token: inputs.token },
        dir,
        maxBytes: REPORT_ARTIFACT_LIMIT,
        maxInflation: REPORT_INFLATION_LIMIT,
    }, (m) => info(m), (m) => warning(m)).catch((error) => {
        throw nothingPosted(error);
    });
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
    const headSha = typeof workflowRun?.head_sha === 'string' ? workflowRun.head_sha : undefined;
    const history = inputs.history ? await readBranchHistory(inputs, octokit, repo, report.history?.commit) : null;
    const read = history === null ? undefined : (await import('../chunks/trends.js')).trendsOf(history);
    const noise = read?.noise;
    const judged = issueNumber === undefined
        ? await judgeAgainstDefaultBranch(octokit, repo, inputs, {
            runId,
            defaultBranch: ctx.payload.repository?.default_branch,
        }, report, noise)
        : await judgeAgainstTrustedLimits(octokit, repo, inputs, { issueNumber, runId, headSha }, report, noise);
    const trends = read?.withConfig(judged.config);
    await publish(inputs, judged.report, {
        issueNumber,
        repo,
        runUrl: runUrl(runId, repo),
        enforce: false,
        octokit,
        ...(judged.preface !== '' ? { preface: judged.preface } : {}),
        limitsChanged: judged.attention,
        ...(trends !== undefined ? { trends } : {}),
    });
}
async function judgeAgainstTrustedLimits(octokit, repo, inputs, run, claimed, noise) {
    const { data: pr } = await gitHubCall(`reading pull request #${run.issueNumber}`, 'pull-requests: read', () => octokit.rest.pulls.get({ ...repo, pull_number: run.issueNumber }));
    const runHead = run.headSha ?? pr.head.sha;
    const base = await baseLimitsAt(octokit, repo, inputs, pr.base.sha);
    const head = await limitsAt(octokit, repo, inputs, runHead).catch((error) => {
        if (!(error instanceof GitHubError))
            throw error;
        warning(`Could not read the head commit of run ${run.runId} to list the limits it changes: ${error.message}`);
        return base;
    });
    const labels = pr.labels.map((l) => l.name ?? '');
    const label = base.config.baselineUpdateLabel;
    const notCounted = labels.includes(label)
        ? await labelForRun(octokit, repo, inputs, { number: pr.number, createdAt: Date.parse(pr.created_at) }, run.runId, label)
        : undefined;
    if (notCounted !== undefined)
        warning(labelWarning(label, notCounted));
    const limits = chooseLimits(base, head, { baseSha: pr.base.sha, labels }, notCounted);
    const { report, discrepancies, config } = rejudgeWith(inputs, limits, claimed, noise);
    const { used } = limits;
    const blocks = [renderLimitsChanged(used)];
    if (discrepancies.length > 0) {
        const from = used.from === 'pull-request'
            ? {
                text: `the pull request's own baseline and config at ${runHead.slice(0, 12)}`,
                markdown: `the pull request's own baseline and config at ${codeSpan(runHead.slice(0, 12))} (allowed by the label ${codeSpan(used.label)})`,
            }
            : {
                text: `the baseline and config of the base commit ${pr.base.sha.slice(0, 12)}`,
                markdown: `the baseline and config of the base commit ${codeSpan(pr.base.sha.slice(0, 12))}`,
            };
        warnNotTrustworthy(run.runId, discrepancies, from.text, 'comment');
        blocks.unshift(renderNotTrustworthy(discrepancies, from.markdown));
    }
    return {
        report,
        config,
        preface: blocks.join('\n\n'),
        attention: used.changes.length > 0 || discrepancies.length > 0 || used.labelNotCounted !== undefined,
    };
}
async function judgeAgainstDefaultBranch(octokit, repo, inputs, run, claimed, noise) {
    const branch = typeof run.defaultBranch === 'string'
        ? run.defaultBranch
        : (await gitHubCall(`reading repository ${repo.owner}/${repo.repo}`, 'contents: read', () => octokit.rest.repos.get({ ...repo }))).data.default_branch;
    const { data: ref } = await gitHubCall(`reading branch ${branch}`, 'contents: read', () => octokit.rest.git.getRef({ ...repo, ref: `heads/${branch}` }));
    const limits = await limitsAt(octokit, repo, inputs, ref.object.sha);
    const { report, discrepancies, config } = rejudgeWith(inputs, limits, claimed, noise);
    if (discrepancies.length === 0)
        return { report, config, preface: '', attention: false };
    const at = ref.object.sha.slice(0, 12);
    warnNotTrustworthy(run.runId, discrepancies, `the baseline and config of ${branch} at ${at}`, 'summary');
    return {
        report,
        config,
        preface: renderNotTrustworthy(discrepancies, `the baseline and config of ${codeSpan(branch)} at ${codeSpan(at)}`, 'run'),
        attention: true,
    };
}
function rejudgeWith(inputs, limits, claimed, noise) {
    const config = inputs.maxIncrease === undefined
        ? limits.config
        : applyMaxIncrease(limits.config, parseMaxIncrease(inputs.maxIncrease));
    return {
        ...rejudgeReport(claimed, { baseline: limits.baseline, config, ...(noise !== undefined ? { noise } : {}) }, (key) => shortenName(key, MAX_KEY_LENGTH)),
        config,
    };
}
function warnNotTrustworthy(runId, discrepancies, from, shownIn) {
    warning(`The report of run ${runId} is not trustworthy: ${discrepancies.length} of its claims do not follow from ${from} (first: ${visible(describeDiscrepancy(discrepancies[0]))}); the ${shownIn} shows the verdicts re-judged here`);
}
async function labelForRun(octokit, repo, inputs, pr, runId, label) {
    const run = await workflowRun(octokit, repo, runId);
    const voided = (why) => takeLabelOff(octokit, repo, pr.number, label, { ...why, runId });
    const labelledAt = await labelAddedAt(octokit, repo, pr.number, label);
    if (labelledAt === null)
        return voided({
            how: 'unknown',
            since: run.headSha,
            at: run.headSha,
            files: [],
            unknown: 'no event of the pull request records when the label was set',
        });
    const runs = await runsOfHead(octokit, repo, run, pr.createdAt);
    const seen = runs.filter((r) => r.createdAt <= labelledAt).at(-1) ?? runs[0];
    if (seen === undefined)
        return voided({
            how: 'unknown',
            since: run.headSha,
            at: run.headSha,
            files: [],
            unknown: "no run of this workflow records the pull request's head",
        });
    const changed = await filesChangedBetween(octokit, repo, limitPaths(inputs), seen.headSha, run.headSha);
    if ('unknown' in changed)
        return voided({ how: 'unknown', since: seen.headSha, at: run.headSha, files: [], unknown: changed.unknown });
    return changed.files.length === 0
        ? undefined
        : voided({ how: 'label', since: seen.headSha, at: run.headSha, files: changed.files });
}
function nothingPosted(error) {
    if (error instanceof ArtifactsFailed) {
        const failures = error.failed.map((f) => {
            const what = `the report artifact '${visible(f.name)}' of ${error.where}`;
            return f.refused ? `${what} was refused: ${f.reason}` : `${what} could not be downloaded: ${f.reason}`;
        });
        return new InputError(`${failures.join('; ')}; nothing was posted`);
    }
    if (error instanceof InputError)
        return new InputError(`${error.message}; nothing was posted`);
    return error;
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

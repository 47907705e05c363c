import { s as summary, b as setFailed, w as warning, a as setOutput, i as info, e as error } from '../index.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { U as UsageError } from './sources.js';
import { a as workDir, h as httpStatus, e as errorMessage } from './shared.js';
import { i as isFirstRun, v as verdictText, A as entrySentence, B as worstFirst, e as entryReason } from './groups.js';
import { renderJsonReport } from './json.js';
import { renderMarkdown } from './markdown.js';

/** One line a reviewer can act on: the key, its verdict, values in human units, and the rule or the finding's note. */
function annotationText(e) {
    const { rule, note } = entryReason(e);
    const why = [rule ? `rule ${rule}` : '', note ?? ''].filter(Boolean).join('; ');
    return `${entrySentence(e)}${why ? ` [${why}]` : ''}`;
}
/** The failing entries, worst first (by severity, then absolute change): the first annotation is the worst finding. */
function failingWorstFirst(report) {
    return report.entries.filter((e) => e.severity === 'fail').sort(worstFirst);
}
/** The job's one-line failure reason: the worst failing finding, and how many more there are. */
function failureReason(report) {
    const failing = failingWorstFirst(report);
    const worst = failing[0];
    // A first run failed by "onMissingBaseline": "fail" has no failing entry: say why the gate is closed.
    if (worst === undefined)
        return isFirstRun(report) ? `Memory gate: ${verdictText({ result: 'fail', entries: report.entries }, 'Memory gate')}` : 'Memory gate failed';
    const more = failing.length > 1 ? ` and ${(failing.length - 1).toLocaleString('en-US')} more failing` : '';
    return `Memory gate failed: ${entrySentence(worst)}${more}`;
}

// The one publish step of check and comment modes: outputs, HTML report, job summary, annotations, sticky comment, verdict.
/** GitHub's limits: 65,536 characters for a comment body, 1 MiB for a step summary. */
const COMMENT_LIMIT = 65_536;
const SUMMARY_LIMIT = 1024 * 1024;
async function writeOutputs(report, markdown) {
    const dir = workDir();
    await mkdir(dir, { recursive: true });
    const reportPath = path.join(dir, 'report.json');
    const markdownPath = path.join(dir, 'report.md');
    await writeFile(reportPath, renderJsonReport(report));
    await writeFile(markdownPath, markdown);
    const failing = report.entries.filter((e) => e.severity === 'fail').length;
    setOutput('result', report.result);
    setOutput('regressions', String(failing));
    setOutput('report', reportPath);
    setOutput('markdown', markdownPath);
    return { reportPath, markdownPath };
}
/** Writes the self-contained HTML report where 'html-report' says (relative to the workspace), creating its folder. */
async function writeHtmlReport(inputs, report) {
    if (inputs.htmlReport === undefined)
        return;
    const file = path.resolve(process.env.GITHUB_WORKSPACE || process.cwd(), inputs.htmlReport);
    try {
        await mkdir(path.dirname(file), { recursive: true });
        const { renderHtml } = await import('./html.js');
        await writeFile(file, renderHtml(report));
    }
    catch (error) {
        throw new UsageError(`'html-report': cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    info(`Wrote the HTML report to ${file}`);
}
/** GitHub keeps at most 10 error (and 10 warning) annotations per step and silently drops the rest. */
const ANNOTATIONS_PER_STEP = 10;
/**
 * One annotation per failing key, within GitHub's 10 error annotations per step. `reserved` of them are kept for
 * what comes after (the job's one-line failure reason); when the keys do not fit, the last one left says how many
 * more there are. The summary has them all.
 */
function annotate(report, reserved) {
    // Worst first (severity, then absolute change): the first annotation names what matters most.
    const failing = failingWorstFirst(report);
    const budget = ANNOTATIONS_PER_STEP - reserved;
    const shown = failing.length <= budget ? failing : failing.slice(0, Math.max(0, budget - 1));
    for (const e of shown)
        error(annotationText(e), { title: `Memory gate: ${e.key} ${e.status}` });
    if (failing.length > shown.length) {
        error(`${failing.length - shown.length} more failing key(s): see the job summary`, { title: 'Memory gate' });
    }
}
/** Posts the sticky comment; any failure is a warning and never changes the verdict. */
async function postComment(inputs, octokit, issueNumber, report, repo, sourceRunUrl) {
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
    const body = renderMarkdown(report, { marker, maxBytes: COMMENT_LIMIT, runUrl: sourceRunUrl });
    try {
        const result = await upsertStickyComment(octokit, {
            ...repo,
            issueNumber,
            body,
            marker,
            policy: inputs.comment,
            hasFindings: report.entries.some((e) => e.severity !== 'ok'),
        });
        if (result.action === 'skipped')
            info(`PR comment not posted: ${result.reason}`);
        else
            info(`PR comment ${result.action}: ${result.url}`);
    }
    catch (error) {
        const status = httpStatus(error);
        const hint = status === 403 ? ' (a pull request from a fork gets a read-only token: use mode: comment in a workflow_run job, see the README)' : '';
        warning(`Could not post the PR comment${status ? ` (HTTP ${status})` : ''}: ${errorMessage(error)}${hint}`);
    }
}
/** Outputs, HTML report, job summary, annotations and sticky comment; in check mode, the job's verdict last. */
async function publish(inputs, report, where) {
    const markdown = renderMarkdown(report, { maxBytes: SUMMARY_LIMIT, runUrl: where.runUrl });
    await writeOutputs(report, markdown);
    await writeHtmlReport(inputs, report);
    if (process.env.GITHUB_STEP_SUMMARY)
        await summary.addRaw(markdown).write();
    const failsJob = where.enforce && report.result === 'fail' && inputs.failJob;
    if (where.enforce)
        annotate(report, failsJob ? 1 : 0);
    await postComment(inputs, where.octokit, where.issueNumber, report, where.repo, where.runUrl);
    if (where.enforce && report.result === 'fail') {
        if (failsJob)
            setFailed(failureReason(report));
        else
            warning(`${failureReason(report)} — advisory only ('fail-job: false')`);
    }
}

export { publish as p };

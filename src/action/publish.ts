// The one publish step of check and comment modes: outputs, HTML report, job summary, annotations, sticky comment, verdict.
import * as core from '@actions/core';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ActionInputs } from './inputs.js';
import { UsageError } from '../common/errors.js';
import { visible } from '../common/visible.js';
import { GitHubError } from '../github/errors.js';
import { errorMessage, httpStatus, type RepoRef } from '../github/context.js';
import type { Octokit } from '../github/octokit.js';
import type { GateReport } from '../gate/types.js';
import type { Trends } from '../history/trends.js';
import type { Snapshot } from '../model/snapshot.js';
import { annotationText, annotationTitle, failingWorstFirst, failureReason } from '../report/annotation.js';
import { renderMarkdown } from '../report/markdown.js';
import type { ReportView } from '../report/view.js';
import { render, type Rendered } from '../run/render.js';
import { workDir } from './shared.js';

/** GitHub's limits: 65,536 characters for a comment body, 1 MiB for a step summary. */
const COMMENT_LIMIT = 65_536;
const SUMMARY_LIMIT = 1024 * 1024;

/** The Action's outputs, once report.json and report.md are written (before the other report files). */
function setOutputs(report: GateReport, reportPath: string, markdownPath: string): void {
  const failing = report.entries.filter((e) => e.severity === 'fail').length;
  core.setOutput('result', report.result);
  core.setOutput('regressions', String(failing));
  core.setOutput('report', reportPath);
  core.setOutput('markdown', markdownPath);
}

/** Writes a report file its input asked for, creating its folder; a failure names the input. */
async function writeReportFile(input: string, what: string, file: string, text: string): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  } catch (error) {
    throw new UsageError(`'${input}': cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  core.info(`Wrote the ${what} to ${file}`);
}

/** Where a report file's input points, relative to the workspace; undefined when not asked for. */
function inWorkspace(where: string | undefined): string | undefined {
  return where === undefined ? undefined : path.resolve(process.env.GITHUB_WORKSPACE || process.cwd(), where);
}

/**
 * The render step: report.json and report.md in the work folder (then the outputs), the HTML and JUnit reports
 * where their inputs say; the summary's Markdown and the view the comment formats.
 */
async function renderReports(inputs: ActionInputs, report: GateReport, where: Publication): Promise<Rendered> {
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
        ? { junit: { file: junit, context: (await import('../sources/node-environment.js')).runStamp() } }
        : {}),
    },
    write: async (format, file, text) => {
      if (format === 'markdown') {
        await writeFile(file, text);
        setOutputs(report, reportPath, markdownPath);
      } else if (format === 'html') await writeReportFile('html-report', 'HTML report', file, text);
      else await writeReportFile('junit-report', 'JUnit report', file, text);
    },
  });
}

/** GitHub keeps at most 10 error (and 10 warning) annotations per step and silently drops the rest. */
const ANNOTATIONS_PER_STEP = 10;

/**
 * One annotation per failing key, within GitHub's 10 error annotations per step. `reserved` of them are kept for
 * what comes after (the job's one-line failure reason); when the keys do not fit, the last one left says how many
 * more there are. The summary has them all.
 */
function annotate(report: GateReport, reserved: number): void {
  // Worst first (severity, then absolute change): the first annotation names what matters most.
  const failing = failingWorstFirst(report);
  const budget = ANNOTATIONS_PER_STEP - reserved;
  const shown = failing.length <= budget ? failing : failing.slice(0, Math.max(0, budget - 1));
  for (const e of shown) core.error(annotationText(e), { title: annotationTitle(e) });
  if (failing.length > shown.length) {
    core.error(`${failing.length - shown.length} more failing key(s): see the job summary`, { title: 'Memory gate' });
  }
}

/** Posts the sticky comment; any failure is a warning and never changes the verdict. */
async function postComment(inputs: ActionInputs, where: Publication, view: ReportView): Promise<void> {
  const report = view.report;
  const { octokit, issueNumber, repo } = where;
  if (inputs.comment === 'never') return;
  if (issueNumber === undefined) {
    core.info('No pull request for this run: no comment posted');
    return;
  }
  if (!octokit) {
    core.warning("No 'github-token': the PR comment was not posted");
    return;
  }
  const { commentMarker } = await import('../github/comment.js');
  const { octokitHost } = await import('../hosts/github-octokit.js');
  const { upsertSticky } = await import('../hosts/sticky.js');
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
    if (result.action === 'skipped') core.info(`PR comment not posted: ${result.reason}`);
    else core.info(`PR comment ${result.action}: ${result.url ?? result.id}`);
  } catch (error) {
    const status = error instanceof GitHubError ? error.status : httpStatus(error);
    const hint =
      status === 403
        ? '; a pull request from a fork gets a read-only token: use mode: comment in a workflow_run job (see docs/security-model.md of ascend-memory-gate)'
        : '';
    core.warning(`Could not post the PR comment: ${visible(errorMessage(error))}${hint}`);
  }
}

export interface Publication {
  issueNumber: number | undefined;
  repo: RepoRef;
  /** The run whose verdict this is (in comment mode, the pull_request run that uploaded the report). */
  runUrl: string;
  /** Check mode: annotate failing keys and fail the job. Comment mode only shows another run's verdict. */
  enforce: boolean;
  octokit: Octokit | undefined;
  /** Shown first in the summary and the comment: which limits gated a pull request (limits-changed.ts). */
  preface?: string;
  /** The pull request moves limits: worth a comment (policy on-change) even when every key passes. */
  limitsChanged?: boolean;
  /** The default branch's history: sparklines and steps in the summary, the comment and the HTML report. */
  trends?: Trends;
  /** This run's timelines (check mode), for the HTML report's allocator traces. */
  series?: Snapshot['series'];
}

/** Outputs, HTML report, job summary, annotations and sticky comment; in check mode, the job's verdict last. */
export async function publish(inputs: ActionInputs, report: GateReport, where: Publication): Promise<void> {
  // The one view of this check: the summary, the report files and the comment format it.
  const { view, markdown } = await renderReports(inputs, report, where);
  if (process.env.GITHUB_STEP_SUMMARY && markdown !== undefined) await core.summary.addRaw(markdown).write();
  const failsJob = where.enforce && report.result === 'fail' && inputs.failJob;
  if (where.enforce) annotate(report, failsJob ? 1 : 0);
  await postComment(inputs, where, view);
  if (where.enforce && report.result === 'fail') {
    if (failsJob) core.setFailed(failureReason(report));
    else core.warning(`${failureReason(report)} — advisory only ('fail-job: false')`);
  }
}

// The Action: inputs → sources → snapshot → gate → summary, annotations, sticky comment, outputs; or a baseline update.
import * as core from '@actions/core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { collectSnapshot, type Collected } from './collect.js';
import { readInputs, type ActionInputs } from './config.js';
import { InputError, UsageError } from './errors.js';
import { loadBaseline, mergeBaseline, parseBaseline, serializeBaseline, writeBaselineAtomic, type BaselineSource } from './gate/baseline.js';
import { runGate } from './gate/run-gate.js';
import type { GateReport } from './gate/types.js';
import { annotationText } from './report/annotation.js';
import { errorMessage, httpStatus, workflowContext, type RepoRef } from './github/context.js';
import type { Octokit } from './github/octokit.js';
import { renderBaselineChanges } from './report/baseline-changes.js';
import { parseReportJson, renderJsonReport } from './report/json.js';
import { renderMarkdown } from './report/markdown.js';
import { describeSearches, resolveInputs } from './sources/local.js';
import { glob } from 'tinyglobby';

/** GitHub's limits: 65,536 characters for a comment body, 1 MiB for a step summary. */
const COMMENT_LIMIT = 65_536;
const SUMMARY_LIMIT = 1024 * 1024;
/** An untrusted report artifact larger than this is refused: the schema's 200,000 entries fit well under it. */
const REPORT_ARTIFACT_LIMIT = 256 * 1024 * 1024;
/** Malformed records shown as warnings, of the 10 warning annotations GitHub keeps per step. */
const SKIPPED_RECORD_WARNINGS = 5;

export async function run(): Promise<void> {
  try {
    const inputs = readInputs();
    if (inputs.mode === 'comment') await runCommentMode(inputs);
    else if (inputs.mode === 'update') await runUpdateMode(inputs);
    else await runCheckMode(inputs);
  } catch (error) {
    if (error instanceof UsageError || error instanceof InputError) core.setFailed(error.message);
    else core.setFailed(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}

function workDir(): string {
  return path.join(process.env.RUNNER_TEMP || os.tmpdir(), 'ascend-memory-gate');
}

function thisRepo(): RepoRef {
  const { owner, repo } = workflowContext().repo;
  return { owner, repo };
}

/** Downloads the artifacts when asked, then resolves plog and memory_compare inputs into one snapshot. */
async function collectInputs(inputs: ActionInputs): Promise<Collected> {
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  let root = workspace;
  let plogSpecs = inputs.plog;
  let compareSpecs = inputs.memoryCompare;

  if (inputs.artifacts.length > 0) {
    root = path.join(workDir(), 'artifacts');
    const repository = inputs.repository ?? thisRepo();
    const crossRun =
      inputs.runId !== undefined && isOtherRun(inputs)
        ? { runId: inputs.runId, owner: repository.owner, repo: repository.repo, token: inputs.token }
        : undefined;
    // Loaded only when needed: the artifact client is most of the bundle and of the start-up time.
    const { downloadArtifacts } = await import('./sources/artifacts.js');
    await downloadArtifacts({ patterns: inputs.artifacts, crossRun, dir: root }, (m) => core.info(m), (m) => core.warning(m));
    // Nothing named: search everything that was downloaded.
    if (plogSpecs.length === 0 && compareSpecs.length === 0) {
      plogSpecs = ['.'];
      compareSpecs = ['.'];
    }
  } else if (plogSpecs.length === 0 && compareSpecs.length === 0) {
    throw new UsageError("set 'plog' and/or 'memory-compare' (paths in the workspace), or 'artifacts' to download them");
  }

  const plog = await resolveInputs(plogSpecs, 'plog', root);
  const compare = await resolveInputs(compareSpecs, 'compare', root);
  const searched = describeSearches(plogSpecs, compareSpecs);
  core.info(`Parsing ${plog.length} plog file(s) and ${compare.length} memory_compare file(s)`);
  const collected = await collectSnapshot({ plog, compare, searched });
  // A few examples, not one per record: GitHub keeps 10 warning annotations per step, and the verdict's warnings come later.
  const examples = collected.skippedRecords.slice(0, SKIPPED_RECORD_WARNINGS);
  for (const r of examples) core.warning(`${r.file}:${r.line}: ${r.reason} (skipped)`);
  const more = collected.snapshot.meta.skipped - examples.length;
  if (more > 0) core.warning(`${more} more malformed record(s) skipped`);
  return collected;
}

/** A workflow run's page: this run's by default. */
function runUrl(runId: number = workflowContext().runId, repo: RepoRef = thisRepo()): string {
  return `${workflowContext().serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}`;
}

async function writeOutputs(report: GateReport, markdown: string): Promise<{ reportPath: string; markdownPath: string }> {
  const dir = workDir();
  await mkdir(dir, { recursive: true });
  const reportPath = path.join(dir, 'report.json');
  const markdownPath = path.join(dir, 'report.md');
  await writeFile(reportPath, renderJsonReport(report));
  await writeFile(markdownPath, markdown);
  const failing = report.entries.filter((e) => e.severity === 'fail').length;
  core.setOutput('result', report.result);
  core.setOutput('regressions', String(failing));
  core.setOutput('report', reportPath);
  core.setOutput('markdown', markdownPath);
  return { reportPath, markdownPath };
}

/** Writes the self-contained HTML report where 'html-report' says (relative to the workspace), creating its folder. */
async function writeHtmlReport(inputs: ActionInputs, report: GateReport): Promise<void> {
  if (inputs.htmlReport === undefined) return;
  const file = path.resolve(process.env.GITHUB_WORKSPACE || process.cwd(), inputs.htmlReport);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    const { renderHtml } = await import('./report/html.js');
    await writeFile(file, renderHtml(report));
  } catch (error) {
    throw new UsageError(`'html-report': cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  core.info(`Wrote the HTML report to ${file}`);
}

/** GitHub keeps at most 10 error (and 10 warning) annotations per step and silently drops the rest. */
const ANNOTATIONS_PER_STEP = 10;

/**
 * One annotation per failing key, within GitHub's 10 error annotations per step. `reserved` of them are kept for
 * what comes after (the job's one-line failure reason); when the keys do not fit, the last one left says how many
 * more there are. The summary has them all.
 */
function annotate(report: GateReport, reserved: number): void {
  const failing = report.entries.filter((e) => e.severity === 'fail');
  const budget = ANNOTATIONS_PER_STEP - reserved;
  const shown = failing.length <= budget ? failing : failing.slice(0, Math.max(0, budget - 1));
  for (const e of shown) core.error(annotationText(e), { title: `Memory gate: ${e.key} ${e.status}` });
  if (failing.length > shown.length) {
    core.error(`${failing.length - shown.length} more failing key(s): see the job summary`, { title: 'Memory gate' });
  }
}

function failureReason(report: GateReport): string {
  const failing = report.entries.filter((e) => e.severity === 'fail');
  const counts = new Map<string, number>();
  for (const e of failing) counts.set(e.status, (counts.get(e.status) ?? 0) + 1);
  const parts = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
  const first = failing[0];
  return `Memory gate failed: ${parts}${first ? ` (first: ${first.key})` : ''}`;
}

/** The PR this run belongs to, when it is a pull_request run. */
function pullRequestNumber(): number | undefined {
  const pr = workflowContext().payload.pull_request;
  return typeof pr?.number === 'number' ? pr.number : undefined;
}

/** Posts the sticky comment; any failure is a warning and never changes the verdict. */
async function postComment(
  inputs: ActionInputs,
  octokit: Octokit | undefined,
  issueNumber: number | undefined,
  report: GateReport,
  repo: RepoRef,
  sourceRunUrl: string,
): Promise<void> {
  if (inputs.comment === 'never') return;
  if (issueNumber === undefined) {
    core.info('No pull request for this run: no comment posted');
    return;
  }
  if (!octokit) {
    core.warning("No 'github-token': the PR comment was not posted");
    return;
  }
  const { commentMarker, upsertStickyComment } = await import('./github/comment.js');
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
    if (result.action === 'skipped') core.info(`PR comment not posted: ${result.reason}`);
    else core.info(`PR comment ${result.action}: ${result.url}`);
  } catch (error) {
    const status = httpStatus(error);
    const hint = status === 403 ? ' (a pull request from a fork gets a read-only token: use mode: comment in a workflow_run job, see the README)' : '';
    core.warning(`Could not post the PR comment${status ? ` (HTTP ${status})` : ''}: ${errorMessage(error)}${hint}`);
  }
}

interface Publication {
  issueNumber: number | undefined;
  repo: RepoRef;
  /** The run whose verdict this is (in comment mode, the pull_request run that uploaded the report). */
  runUrl: string;
  /** Check mode: annotate failing keys and fail the job. Comment mode only shows another run's verdict. */
  enforce: boolean;
  octokit: Octokit | undefined;
}

/** Outputs, HTML report, job summary, annotations and sticky comment; in check mode, the job's verdict last. */
async function publish(inputs: ActionInputs, report: GateReport, where: Publication): Promise<void> {
  const markdown = renderMarkdown(report, { maxBytes: SUMMARY_LIMIT, runUrl: where.runUrl });
  await writeOutputs(report, markdown);
  await writeHtmlReport(inputs, report);
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown).write();
  const failsJob = where.enforce && report.result === 'fail' && inputs.failJob;
  if (where.enforce) annotate(report, failsJob ? 1 : 0);
  await postComment(inputs, where.octokit, where.issueNumber, report, where.repo, where.runUrl);
  if (where.enforce && report.result === 'fail') {
    if (failsJob) core.setFailed(failureReason(report));
    else core.warning(`${failureReason(report)} — advisory only ('fail-job: false')`);
  }
}

async function runCheckMode(inputs: ActionInputs): Promise<void> {
  const { snapshot } = await collectInputs(inputs);
  const { report, baseline } = await runGate({
    snapshot,
    baselinePath: inputs.baseline,
    configPath: inputs.config,
    maxIncrease: inputs.maxIncrease,
    allowMissingBaseline: true,
  });
  if (baseline === null) {
    core.warning(`No baseline at ${inputs.baseline}: every key is new. Run this Action with 'mode: update' on workflow_dispatch to propose one.`);
  }
  const octokit = inputs.token ? (await import('./github/octokit.js')).createOctokit(inputs.token) : undefined;
  await publish(inputs, report, { issueNumber: pullRequestNumber(), repo: thisRepo(), runUrl: runUrl(), enforce: true, octokit });
}

/** 'run-id' or 'repository' names a run other than this one: its artifacts come through the REST API. */
function isOtherRun(inputs: ActionInputs): boolean {
  return inputs.runId !== undefined && (inputs.runId !== workflowContext().runId || inputs.repository !== undefined);
}

/** The run whose artifacts feed an update or a comment, and its repository. */
function sourceRun(inputs: ActionInputs): { runId: number; repo: RepoRef } {
  return { runId: inputs.runId ?? workflowContext().runId, repo: inputs.repository ?? thisRepo() };
}

/** Provenance written into the baseline: which run, repository and commit its numbers come from, and when. */
async function baselineSource(octokit: Octokit | undefined, inputs: ActionInputs, source: { runId: number; repo: RepoRef }): Promise<BaselineSource> {
  const commit = await sourceCommit(octokit, inputs, source);
  return {
    runId: source.runId,
    repository: `${source.repo.owner}/${source.repo.repo}`,
    ...(commit ? { commit } : {}),
    date: new Date().toISOString(),
  };
}

/** The commit the baseline's numbers come from: this run's, or the source run's head; undefined rather than a wrong one. */
async function sourceCommit(octokit: Octokit | undefined, inputs: ActionInputs, source: { runId: number; repo: RepoRef }): Promise<string | undefined> {
  if (!isOtherRun(inputs)) return workflowContext().sha || undefined;
  if (octokit === undefined) return undefined;
  try {
    const { data } = await octokit.rest.actions.getWorkflowRun({ ...source.repo, run_id: source.runId });
    return data.head_sha;
  } catch (error) {
    core.warning(`Could not read the head commit of run ${source.runId}: ${errorMessage(error)}; the baseline's source has no commit`);
    return undefined;
  }
}

async function runUpdateMode(inputs: ActionInputs): Promise<void> {
  const event = workflowContext().eventName;
  if (event === 'pull_request' || event === 'pull_request_target') {
    throw new UsageError(
      `mode 'update' is refused on ${event} events: a pull request must not rewrite its own baseline. Run it from workflow_dispatch (see the README)`,
    );
  }
  // Checked before anything is downloaded: getOctokit('') would throw an internal error later.
  if (inputs.updateStrategy !== 'write' && !inputs.token) {
    throw new UsageError(`'github-token' is required for update-strategy ${inputs.updateStrategy}`);
  }
  if (inputs.htmlReport !== undefined) core.warning(`'html-report' is ignored in mode 'update': there is no gate verdict to show`);
  // The baseline as a path in the repository, for the contents and Git Data APIs (`./x.json` would be a 404 / 422).
  const filePath = inputs.updateStrategy === 'write' ? inputs.baseline : repositoryPath(inputs.baseline);
  const { snapshot } = await collectInputs(inputs);
  const repo = thisRepo();
  const source = sourceRun(inputs);
  const { runId } = source;
  const branch = process.env.GITHUB_REF_NAME || 'main';
  const { openBaselinePullRequest, commitBaseline, readFileAtBranch } = await import('./github/baseline-pr.js');
  const octokit = inputs.updateStrategy === 'write' ? undefined : (await import('./github/octokit.js')).createOctokit(inputs.token);

  const existingText = octokit === undefined ? null : await readFileAtBranch(octokit, repo, filePath, branch);
  const existing =
    octokit === undefined ? await loadBaseline(inputs.baseline) : existingText === null ? null : parseBaseline(existingText, `${filePath}@${branch}`);
  const merged = mergeBaseline(existing, snapshot, {
    prune: inputs.prune,
    source: await baselineSource(octokit, inputs, source),
  });
  const content = serializeBaseline(merged.baseline);
  const changesMarkdown = renderBaselineChanges(existing, merged.baseline, merged.changes);
  core.info(changesMarkdown);
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(changesMarkdown).write();

  const { added, changed, pruned } = merged.changes;
  if (existing !== null && added.length + changed.length + pruned.length === 0) {
    core.info(`${inputs.baseline} already holds every value of run ${runId}: nothing to propose`);
    return;
  }
  if (inputs.updateStrategy === 'write') {
    await writeBaselineAtomic(inputs.baseline, merged.baseline);
    core.info(`Wrote ${inputs.baseline}`);
    return;
  }
  const message = `Update memory baseline from run ${runId}`;
  if (octokit === undefined) throw new UsageError("'github-token' is required for update-strategy pull-request or commit");
  if (inputs.updateStrategy === 'commit') {
    const sha = await commitBaseline(octokit, { ...repo, baseBranch: branch, filePath, content, message });
    core.info(`Committed ${filePath} to ${branch}: ${sha}`);
    return;
  }
  const pr = await openBaselinePullRequest(octokit, {
    ...repo,
    baseBranch: branch,
    branch: `memory-gate/baseline-${runId}`,
    filePath,
    content,
    message,
    title: `Update memory baseline from run ${runId}`,
    body: baselinePullRequestBody(changesMarkdown, runId),
  });
  core.setOutput('baseline-pull-request', pr.url);
  core.info(`${pr.created ? 'Opened' : 'Updated'} ${pr.url}`);
}

/** A workspace path as a repository path: relative, `/`-separated, normalized, never outside the repository. */
function repositoryPath(file: string): string {
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  const relativePath = path.isAbsolute(file) ? path.relative(workspace, file) : file;
  const normalized = path.posix.normalize(relativePath.split(path.sep).join('/'));
  if (normalized === '.' || normalized === '..' || normalized.startsWith('../') || path.posix.isAbsolute(normalized) || /^[a-zA-Z]:/.test(normalized)) {
    throw new UsageError(`'baseline' must be a file inside the repository, got '${file}'`);
  }
  return normalized;
}

function baselinePullRequestBody(changesMarkdown: string, runId: number): string {
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

/** Fork-safe comment: re-renders, from validated data, the report that an untrusted pull_request run uploaded. */
async function runCommentMode(inputs: ActionInputs): Promise<void> {
  const ctx = workflowContext();
  const workflowRun = ctx.payload.workflow_run as { id?: unknown; head_sha?: unknown; pull_requests?: { number?: unknown }[] } | undefined;
  const runId = inputs.runId ?? (typeof workflowRun?.id === 'number' ? workflowRun.id : undefined);
  if (runId === undefined) throw new UsageError("mode 'comment' needs 'run-id' or a workflow_run event");
  const repo = inputs.repository ?? thisRepo();
  if (!inputs.token) throw new UsageError("mode 'comment' needs 'github-token'");
  const octokit = (await import('./github/octokit.js')).createOctokit(inputs.token);

  const dir = path.join(workDir(), 'report-artifact');
  const { downloadArtifacts } = await import('./sources/artifacts.js');
  const [artifact] = await downloadArtifacts(
    { patterns: [inputs.reportArtifact], crossRun: { runId, owner: repo.owner, repo: repo.repo, token: inputs.token }, dir, maxBytes: REPORT_ARTIFACT_LIMIT },
    (m) => core.info(m),
    (m) => core.warning(m),
  );
  if (!artifact) throw new InputError(`artifact '${inputs.reportArtifact}' was not downloaded`);
  const reportFile = await findReportFile(artifact.path);
  const report = parseReportJson(await readFile(reportFile, 'utf8'), `${inputs.reportArtifact}/${path.relative(artifact.path, reportFile)}`);

  let issueNumber: number | undefined;
  const fromEvent = workflowRun?.pull_requests?.find((p) => typeof p.number === 'number');
  if (fromEvent && typeof fromEvent.number === 'number') issueNumber = fromEvent.number;
  else if (typeof workflowRun?.head_sha === 'string') issueNumber = await pullRequestForSha(octokit, repo, workflowRun.head_sha);

  // The verdict is the pull_request run's: link that run, not this workflow_run job.
  await publish(inputs, report, { issueNumber, repo, runUrl: runUrl(runId, repo), enforce: false, octokit });
}

async function findReportFile(dir: string): Promise<string> {
  const files = (await glob('**/*.json', { cwd: dir, absolute: true })).sort();
  const preferred = files.find((f) => path.basename(f) === 'report.json') ?? files[0];
  if (!preferred) throw new InputError(`the report artifact holds no .json file`);
  return preferred;
}

/** Forks' PRs are missing from workflow_run.pull_requests: find the PR by its head commit. */
async function pullRequestForSha(octokit: Octokit, repo: RepoRef, sha: string): Promise<number | undefined> {
  try {
    const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: sha });
    const associated = data.find((p) => p.state === 'open')?.number ?? data[0]?.number;
    if (associated !== undefined) return associated;
    // A fork's commit is not associated with the base repository: match open PRs by head sha.
    const open = await octokit.paginate(octokit.rest.pulls.list, { ...repo, state: 'open', per_page: 100 });
    return open.find((p) => p.head.sha === sha)?.number;
  } catch (error) {
    core.warning(`Could not look up the pull request of ${sha}: ${errorMessage(error)}`);
    return undefined;
  }
}

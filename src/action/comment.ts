// Comment mode (workflow_run, fork-safe): re-render from validated data the report an untrusted pull_request run uploaded.
import * as core from '@actions/core';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import type { ActionInputs } from './inputs.js';
import { InputError, UsageError } from '../common/errors.js';
import { visible } from '../common/visible.js';
import type { Baseline } from '../gate/baseline.js';
import type { GateConfig, GateReport, NoiseLookup } from '../gate/types.js';
import { errorMessage, workflowContext, type RepoRef } from '../github/context.js';
import { gitHubCall, GitHubError } from '../github/errors.js';
import { renderLimitsChanged, type LabelNotCounted } from '../report/limits-changed.js';
import { readBranchHistory } from './history.js';
import { baseLimitsAt, chooseLimits, labelWarning, limitPaths, limitsAt, takeLabelOff } from './limits.js';
import { rejudgeReport } from '../gate/rejudge.js';
import { applyMaxIncrease, parseMaxIncrease } from '../gate/thresholds.js';
import { filesChangedBetween, labelAddedAt, runsOfHead, workflowRun } from '../github/pull-request-history.js';
import { codeSpan } from '../report/escape.js';
import { shortenName } from '../report/names.js';
import { describeDiscrepancy, renderNotTrustworthy } from '../report/rejudged.js';
import { MAX_KEY_LENGTH } from '../report/report-schema.js';
import type { Octokit } from '../github/octokit.js';
import { parseReportJson } from '../report/json.js';
import { publish } from './publish.js';
import { ArtifactsFailed, downloadArtifacts } from '../sources/artifacts.js';
import { runUrl, thisRepo, workDir } from './shared.js';

/** An untrusted report artifact larger than this is refused: the schema's 500,000 entries fit under it. */
const REPORT_ARTIFACT_LIMIT = 512 * 1024 * 1024;
/** Nor may an entry inflate past 100x its compressed size: generated reports of 8 to 4,096 devices compress 23-47x. */
const REPORT_INFLATION_LIMIT = 100;

/** Fork-safe comment: re-renders, from validated data, the report that an untrusted pull_request run uploaded. */
export async function runCommentMode(inputs: ActionInputs): Promise<void> {
  const ctx = workflowContext();
  const workflowRun = ctx.payload.workflow_run as
    { id?: unknown; head_sha?: unknown; pull_requests?: { number?: unknown }[] } | undefined;
  const runId = inputs.runId ?? (typeof workflowRun?.id === 'number' ? workflowRun.id : undefined);
  if (runId === undefined) throw new UsageError("mode 'comment' needs 'run-id' or a workflow_run event");
  const repo = inputs.repository ?? thisRepo();
  if (!inputs.token) throw new UsageError("mode 'comment' needs 'github-token'");
  const octokit = (await import('../github/octokit.js')).createOctokit(inputs.token);

  const dir = path.join(workDir(), 'report-artifact');
  const {
    downloaded: [artifact],
  } = await downloadArtifacts(
    {
      patterns: [inputs.reportArtifact],
      crossRun: { runId, owner: repo.owner, repo: repo.repo, token: inputs.token },
      dir,
      maxBytes: REPORT_ARTIFACT_LIMIT,
      maxInflation: REPORT_INFLATION_LIMIT,
    },
    (m) => core.info(m),
    (m) => core.warning(m),
  ).catch((error: unknown) => {
    throw nothingPosted(error);
  });
  if (!artifact) throw new InputError(`artifact '${inputs.reportArtifact}' was not downloaded`);
  const reportFile = await findReportFile(artifact.path);
  const report = parseReportJson(
    await readFile(reportFile, 'utf8'),
    `${inputs.reportArtifact}/${path.relative(artifact.path, reportFile)}`,
  );

  let issueNumber: number | undefined;
  const fromEvent = workflowRun?.pull_requests?.find((p) => typeof p.number === 'number');
  if (fromEvent && typeof fromEvent.number === 'number') issueNumber = fromEvent.number;
  else if (typeof workflowRun?.head_sha === 'string')
    issueNumber = await pullRequestForSha(octokit, repo, workflowRun.head_sha);

  const headSha = typeof workflowRun?.head_sha === 'string' ? workflowRun.head_sha : undefined;
  // The history comes from its branch (trusted: only the default branch's runs write it), never from the artifact: the
  // noise band of the re-judged verdicts and the trends.
  // At the commit the gated run read (when it is on the branch): a push to the default branch since then, which moves
  // the noise band's window, does not change the verdict re-judged.
  const history = inputs.history ? await readBranchHistory(inputs, octokit, repo, report.history?.commit) : null;
  // One set of series serves the noise band and the trends (src/history/trends.ts).
  const read = history === null ? undefined : (await import('../history/trends.js')).trendsOf(history);
  const noise = read?.noise;
  const judged =
    issueNumber === undefined
      ? await judgeAgainstDefaultBranch(
          octokit,
          repo,
          inputs,
          {
            runId,
            defaultBranch: (ctx.payload.repository as { default_branch?: unknown } | undefined)?.default_branch,
          },
          report,
          noise,
        )
      : await judgeAgainstTrustedLimits(octokit, repo, inputs, { issueNumber, runId, headSha }, report, noise);
  // Step tolerances come from the config the verdicts were re-judged with (read from the repository, like the
  // baseline): the comment job need not check anything out.
  const trends = read?.withConfig(judged.config);
  // The verdict is the pull_request run's: link that run, not this workflow_run job.
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

interface JudgedReport {
  /** The uploaded report re-judged against the trusted limits (src/gate/rejudge.ts). */
  report: GateReport;
  /** What the comment says first: whether the report is trustworthy, which limits the PR changes and which gated it. */
  preface: string;
  /** Worth a comment (policy on-change) even when every key passes. */
  attention: boolean;
  /** The trusted config the report was re-judged with ('max-increase' applied). */
  config: GateConfig;
}

/**
 * The uploaded report judged again with the limits the pull request's run should have used: the base commit's, or
 * the PR's own at the run's head when the maintainer label counts for them (the label counts only for the limits at
 * the head it was set on). The artifact is untrusted: its verdicts are derived again, never believed.
 */
async function judgeAgainstTrustedLimits(
  octokit: Octokit,
  repo: RepoRef,
  inputs: ActionInputs,
  run: { issueNumber: number; runId: number; headSha: string | undefined },
  claimed: GateReport,
  noise: NoiseLookup | undefined,
): Promise<JudgedReport> {
  const { data: pr } = await gitHubCall(`reading pull request #${run.issueNumber}`, 'pull-requests: read', () =>
    octokit.rest.pulls.get({ ...repo, pull_number: run.issueNumber }),
  );
  const runHead = run.headSha ?? pr.head.sha;
  const base = await baseLimitsAt(octokit, repo, inputs, pr.base.sha);
  // A fork's head commit may not be readable here: then nothing is listed as changed, and the report is still re-judged.
  const head = await limitsAt(octokit, repo, inputs, runHead).catch((error: unknown) => {
    if (!(error instanceof GitHubError)) throw error;
    core.warning(`Could not read the head commit of run ${run.runId} to list the limits it changes: ${error.message}`);
    return base;
  });
  const labels = pr.labels.map((l) => l.name ?? '');
  const label = base.config.baselineUpdateLabel;
  const notCounted = labels.includes(label)
    ? await labelForRun(
        octokit,
        repo,
        inputs,
        { number: pr.number, createdAt: Date.parse(pr.created_at) },
        run.runId,
        label,
      )
    : undefined;
  if (notCounted !== undefined) core.warning(labelWarning(label, notCounted));
  const limits = chooseLimits(base, head, { baseSha: pr.base.sha, labels }, notCounted);
  const { report, discrepancies, config } = rejudgeWith(inputs, limits, claimed, noise);
  const { used } = limits;
  const blocks = [renderLimitsChanged(used)];
  if (discrepancies.length > 0) {
    const from =
      used.from === 'pull-request'
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

/**
 * A run with no pull request (a push, or a PR that could not be found): nothing is posted but the job summary, and
 * the report is re-judged all the same, against the default branch's baseline and config (no label can apply).
 */
async function judgeAgainstDefaultBranch(
  octokit: Octokit,
  repo: RepoRef,
  inputs: ActionInputs,
  run: { runId: number; defaultBranch: unknown },
  claimed: GateReport,
  noise: NoiseLookup | undefined,
): Promise<JudgedReport> {
  const branch =
    typeof run.defaultBranch === 'string'
      ? run.defaultBranch
      : (
          await gitHubCall(`reading repository ${repo.owner}/${repo.repo}`, 'contents: read', () =>
            octokit.rest.repos.get({ ...repo }),
          )
        ).data.default_branch;
  const { data: ref } = await gitHubCall(`reading branch ${branch}`, 'contents: read', () =>
    octokit.rest.git.getRef({ ...repo, ref: `heads/${branch}` }),
  );
  const limits = await limitsAt(octokit, repo, inputs, ref.object.sha);
  const { report, discrepancies, config } = rejudgeWith(inputs, limits, claimed, noise);
  if (discrepancies.length === 0) return { report, config, preface: '', attention: false };
  const at = ref.object.sha.slice(0, 12);
  warnNotTrustworthy(run.runId, discrepancies, `the baseline and config of ${branch} at ${at}`, 'summary');
  return {
    report,
    config,
    preface: renderNotTrustworthy(
      discrepancies,
      `the baseline and config of ${codeSpan(branch)} at ${codeSpan(at)}`,
      'run',
    ),
    attention: true,
  };
}

/** The claimed report judged again with trusted limits, and the config that judged it. */
function rejudgeWith(
  inputs: ActionInputs,
  limits: { baseline: Baseline | null; config: GateConfig },
  claimed: GateReport,
  noise: NoiseLookup | undefined,
): ReturnType<typeof rejudgeReport> & { config: GateConfig } {
  // The gate job's 'max-increase' is the PR's workflow's to set: the comment job holds the reports to its own.
  const config =
    inputs.maxIncrease === undefined
      ? limits.config
      : applyMaxIncrease(limits.config, parseMaxIncrease(inputs.maxIncrease));
  return {
    ...rejudgeReport(claimed, { baseline: limits.baseline, config, ...(noise !== undefined ? { noise } : {}) }, (key) =>
      shortenName(key, MAX_KEY_LENGTH),
    ),
    config,
  };
}

/** One warning for a report whose claims do not follow from the limits `from` names. */
function warnNotTrustworthy(
  runId: number,
  discrepancies: ReturnType<typeof rejudgeReport>['discrepancies'],
  from: string,
  shownIn: 'comment' | 'summary',
): void {
  core.warning(
    `The report of run ${runId} is not trustworthy: ${discrepancies.length} of its claims do not follow from ${from} (first: ${visible(describeDiscrepancy(discrepancies[0]!))}); the ${shownIn} shows the verdicts re-judged here`,
  );
}

/**
 * Whether the maintainer label on the PR counts for run `runId`: the limits at the run's head must be those at the head
 * the PR had when the label was set (by GitHub's clock: the label's event, and the runs of the workflow, which record
 * the heads). Undefined when it counts; else why not, the label taken off.
 */
async function labelForRun(
  octokit: Octokit,
  repo: RepoRef,
  inputs: ActionInputs,
  pr: { number: number; createdAt: number },
  runId: number,
  label: string,
): Promise<LabelNotCounted | undefined> {
  const run = await workflowRun(octokit, repo, runId);
  const voided = (why: Omit<LabelNotCounted, 'removed' | 'runId'>): Promise<LabelNotCounted> =>
    takeLabelOff(octokit, repo, pr.number, label, { ...why, runId });
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
  // The head when the label was set: that of the last run created before it; a PR opened with the label, its first run's.
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

/**
 * A report that could not be had, in this mode's words: which artifact, refused (and why) or not downloaded, and that
 * nothing was posted. Comment mode has one artifact and no 'missing-artifacts' to fall back on.
 */
function nothingPosted(error: unknown): unknown {
  if (error instanceof ArtifactsFailed) {
    const failures = error.failed.map((f) => {
      const what = `the report artifact '${visible(f.name)}' of ${error.where}`;
      return f.refused ? `${what} was refused: ${f.reason}` : `${what} could not be downloaded: ${f.reason}`;
    });
    return new InputError(`${failures.join('; ')}; nothing was posted`);
  }
  if (error instanceof InputError) return new InputError(`${error.message}; nothing was posted`);
  return error;
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

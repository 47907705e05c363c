// The Action's side of the history: which runs write it (check mode on the default branch's push, schedule and
// workflow_dispatch) and which only read it (everything else), reading it from its branch, and recording a run there.
// A history that cannot be read or written is a warning: it never changes the verdict.
import * as core from '@actions/core';
import type { ActionInputs } from './inputs.js';
import { InputError } from '../common/errors.js';
import { visible } from '../common/visible.js';
import { httpStatus, workflowContext, type RepoRef } from '../github/context.js';
import { GitHubError } from '../github/errors.js';
import type { Octokit } from '../github/octokit.js';
import type { HistoryRead } from '../gate/types.js';
import type { History } from '../history/format.js';
import type { Snapshot } from '../model/snapshot.js';

/** What this run does with the history, and why (said in the log). */
export interface HistoryPlan {
  role: 'write' | 'read' | 'off';
  why: string;
  /** The default branch, when the event says. */
  defaultBranch: string | undefined;
}

/** Events on which a check of the default branch records its run. */
const WRITING_EVENTS = new Set(['push', 'schedule', 'workflow_dispatch']);

/**
 * The run's role. Only `mode: check` on the default branch writes, on push, schedule (GitHub runs schedules on the default
 * branch) and workflow_dispatch; pull requests (forks included), pull_request_target, workflow_run and any other event
 * only read, so nothing a pull request runs can add a point.
 */
export function historyPlan(inputs: Pick<ActionInputs, 'history' | 'mode'>): HistoryPlan {
  const { eventName, payload, ref } = workflowContext();
  const repository = payload.repository as { default_branch?: unknown } | undefined;
  const defaultBranch = typeof repository?.default_branch === 'string' ? repository.default_branch : undefined;
  if (!inputs.history) return { role: 'off', why: "'history: false'", defaultBranch };
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

/** No ref can point at the all-zero object: a request to create one never writes anything. */
const NO_OBJECT = '0'.repeat(40);

/**
 * On a `pull_request` run, one warning when the token can write the repository's contents: the pull request's code runs
 * in this job and could push to the history branch. Told by a probe that cannot write: creating a ref to the all-zero
 * object, which GitHub refuses with 403 to a token without `contents: write` (before it looks at the object) and with
 * 422 (no such object) to one with it. The permission headers cannot tell: `x-oauth-scopes` comes with OAuth and
 * classic personal tokens only, never with GITHUB_TOKEN, and `x-accepted-github-permissions` names what an endpoint
 * needs, not what the token holds.
 */
export async function warnIfPullRequestCanWrite(
  inputs: Pick<ActionInputs, 'historyBranch'>,
  octokit: Octokit | undefined,
  repo: RepoRef,
): Promise<void> {
  if (octokit === undefined || workflowContext().eventName !== 'pull_request') return;
  try {
    await octokit.rest.git.createRef({
      ...repo,
      ref: `refs/heads/${inputs.historyBranch}-write-probe`,
      sha: NO_OBJECT,
    });
  } catch (error) {
    const status = httpStatus(error);
    if (status !== 422) {
      core.debug(`Write-scope probe: ${status ?? 'no answer'} (no write access, or it could not be told)`);
      return;
    }
  }
  core.warning(
    `This pull_request run's token can write the repository's contents, so the pull request's code could push to the history branch ${inputs.historyBranch}: give pull_request jobs \`permissions: contents: read\`, and \`contents: write\` only to the default branch's job that records (docs/security-model.md, "The history branch")`,
  );
}

/** The file of this gate on the history branch. */
function historyPath(commentKey: string): string {
  return `${commentKey}.history.jsonl`;
}

function fileRef(inputs: ActionInputs, repo: RepoRef): { owner: string; repo: string; branch: string; path: string } {
  return { ...repo, branch: inputs.historyBranch, path: historyPath(inputs.commentKey) };
}

/**
 * The text each history was read from: the default branch's run records its point on the history it read, without
 * parsing the file a second time, when the branch still holds that text (a 3.7 MB history took ~0.14 s to read).
 */
const readTexts = new WeakMap<History, string>();

/** The commit of the history branch each history was read at: the report records it (comment mode reads it there). */
const readCommits = new WeakMap<History, string>();

/** Which version of the history branch a history was read from, for the report; undefined for one not read from it. */
export function historyReadOf(inputs: ActionInputs, history: History | null): HistoryRead | undefined {
  const commit = history === null ? undefined : readCommits.get(history);
  return commit === undefined ? undefined : { branch: inputs.historyBranch, commit };
}

/**
 * The history as its branch holds it, or at commit `at` of the branch (comment mode: the commit the gated run read, so
 * that a later push to the default branch does not change the verdict re-judged; a commit that is not on the branch is
 * refused with a warning and the head read instead); null (said in the log) when there is none, no token, or it
 * cannot be read.
 */
export async function readBranchHistory(
  inputs: ActionInputs,
  octokit: Octokit | undefined,
  repo: RepoRef,
  at?: string,
): Promise<History | null> {
  const where = `${inputs.historyBranch}:${historyPath(inputs.commentKey)}`;
  if (octokit === undefined) {
    core.info(`History not read: no 'github-token'`);
    return null;
  }
  const { readHistoryText } = await import('../github/history-branch.js');
  const { parseHistory } = await import('../history/format.js');
  let read: Awaited<ReturnType<typeof readHistoryText>>;
  try {
    read = await readHistoryText(octokit, fileRef(inputs, repo), at);
  } catch (error) {
    if (!(error instanceof GitHubError)) throw error;
    core.warning(`History not read, so the report has no trends: ${visible(error.message)}`);
    return null;
  }
  if (read === null) {
    core.info(`No history yet at ${where}: the default branch's next check run starts it`);
    return null;
  }
  const { text, commit } = read;
  if (read.refused !== undefined)
    core.warning(
      `History: the report says its run read ${where} at a commit that cannot be trusted (${visible(read.refused)}): the branch's head ${commit.slice(0, 12)} is read instead`,
    );
  try {
    const history = parseHistory(text, where);
    readTexts.set(history, text);
    readCommits.set(history, commit);
    for (const warning of history.warnings ?? []) core.warning(`History: ${visible(warning)}`);
    foreignCommitUrl(history, repo, where);
    core.info(`History read from ${where} at ${commit.slice(0, 12)}: ${history.points.length} point(s)`);
    return history;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    core.warning(`History not read, so the report has no trends: ${visible(error.message)}. ${startOver(inputs)}`);
    return null;
  }
}

/** How to start a history again when the one on the branch cannot be read. */
function startOver(inputs: ActionInputs): string {
  return `To start over, delete ${historyPath(inputs.commentKey)} from branch ${inputs.historyBranch} (or the branch): the default branch's next check run records a new one`;
}

/**
 * The commit links of a history on this repository's branch must be this repository's: a header naming any other
 * page (`https://evil.example/{sha}`) loses its links, with a warning. The next run that records writes the right one.
 */
function foreignCommitUrl(history: History, repo: RepoRef, where: string): void {
  const url = history.header.commitUrl;
  if (url === undefined) return;
  const own = ownCommitUrl(repo);
  if (url.toLowerCase() === own.toLowerCase()) return;
  core.warning(
    `History ${where}: its commitUrl ${JSON.stringify(visible(url.slice(0, 200)))} is not this repository's (${own}): commits are shown without links`,
  );
  delete history.header.commitUrl;
}

/** This repository's commit page, `{sha}` standing for the commit. */
function ownCommitUrl(repo: RepoRef): string {
  return `${workflowContext().serverUrl}/${repo.owner}/${repo.repo}/commit/{sha}`;
}

/**
 * Records this run on the history branch (retrying from a fresh read when another run moved it first) and returns the
 * history as written. When it could not be written (one warning: a 403 names the permission, a corrupt file is left as
 * it is), the history as read (`read`, made again from its text if the attempt changed it), or null when none was.
 * The first attempt records on `read` itself when the branch still holds the text it was read from.
 */
export async function recordRunOnBranch(
  inputs: ActionInputs,
  octokit: Octokit | undefined,
  repo: RepoRef,
  snapshot: Snapshot,
  plan: HistoryPlan,
  read: History | null = null,
): Promise<History | null> {
  const where = `${inputs.historyBranch}:${historyPath(inputs.commentKey)}`;
  if (octokit === undefined) {
    core.warning(`History not recorded: no 'github-token' to write ${where} with`);
    return read;
  }
  const { writeHistoryText } = await import('../github/history-branch.js');
  const { emptyHistory, parseHistory } = await import('../history/format.js');
  const { pointValues } = await import('../history/point.js');
  const { isCommitSha, pointSentence, recordRun } = await import('../run/history-point.js');
  const meta = await runPointMeta(inputs, snapshot);
  if (!isCommitSha(meta.commit)) {
    core.warning(
      `History not recorded: this run's commit (GITHUB_SHA) is ${JSON.stringify(workflowContext().sha)}, not a commit SHA`,
    );
    return read;
  }
  const values = pointValues(snapshot);
  const header = {
    gate: inputs.commentKey,
    ...(plan.defaultBranch !== undefined ? { branch: plan.defaultBranch } : {}),
    commitUrl: ownCommitUrl(repo),
  };
  // What the last attempt wrote (a retry starts again from the branch's new head).
  const written: { last?: { history: History; points: number; dropped: number; replaced: boolean } } = {};
  const readText = read === null ? undefined : readTexts.get(read);
  let reuse = readText !== undefined;
  let changedRead = false;
  /** The branch's file could not be read (not: this run's point could not be added to it). */
  let unreadable = false;
  /** On a failure: the history as read, as it was. */
  const asRead = (): History | null =>
    read === null || !changedRead || readText === undefined ? read : parseHistory(readText, where);
  try {
    const result = await writeHistoryText(
      octokit,
      fileRef(inputs, repo),
      (text) => {
        // A retry starts from the branch's new head: parsed.
        const same = reuse && read !== null && text !== null && text === readText;
        reuse = false;
        if (same) changedRead = true;
        unreadable = true;
        const history = same ? (read as History) : text === null ? emptyHistory(header) : parseHistory(text, where);
        unreadable = false;
        const appended = recordRun(history, { header, meta, values, maxPoints: inputs.historySize });
        written.last = { history, points: appended.points, dropped: appended.dropped, replaced: appended.replaced };
        return appended.text;
      },
      `Record run ${meta.run} (${meta.commit.slice(0, 12)}) of gate ${inputs.commentKey}`,
    );
    const done = written.last;
    if (done === undefined) throw new Error('the history was written without a point');
    const retries =
      result.attempts > 1
        ? `, after ${result.attempts - 1} retr${result.attempts === 2 ? 'y' : 'ies'} (the branch moved meanwhile)`
        : '';
    core.info(
      `History: ${done.replaced ? 'replaced the point of' : 'recorded'} run ${meta.run} in ${where} (${result.commit.slice(0, 12)}): ${pointSentence(done, inputs.historySize, ', ')}${retries}`,
    );
    return done.history;
  } catch (error) {
    if (!warnNotRecorded(error, inputs, unreadable)) throw error;
    return asRead();
  }
}

/** This run's identity in its point: commit, run, attempt, time, the baseline's hash and the environment. */
async function runPointMeta(inputs: ActionInputs, snapshot: Snapshot) {
  const ctx = workflowContext();
  const { pointEnvironment } = await import('../history/point.js');
  const { baselineHashOf, pointTime } = await import('../run/history-point.js');
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

/**
 * One warning for a failure that leaves the branch's history as it was (a 403 names the permission, a corrupt file says
 * how to start over); false for any other error, which is not the history's.
 */
function warnNotRecorded(error: unknown, inputs: ActionInputs, unreadable: boolean): boolean {
  if (error instanceof GitHubError && error.status === 403) {
    core.warning(
      `History not recorded: ${visible(error.message)}. Give the default branch's check job \`permissions: contents: write\`, or set 'history: false'`,
    );
    return true;
  }
  if (error instanceof GitHubError) {
    core.warning(`History not recorded: ${visible(error.message)}`);
    return true;
  }
  // A corrupt history on the branch (or a point too large for it): never overwritten.
  if (error instanceof InputError) {
    core.warning(
      `History not recorded: ${visible(error.message)}; the file was left as it is${unreadable ? `. ${startOver(inputs)}` : ''}`,
    );
    return true;
  }
  return false;
}

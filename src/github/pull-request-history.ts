// What GitHub recorded about a pull request, on its own clock: when a label was set, the heads its workflow runs had, a
// file's blob at a commit; and taking a label off. Committer dates are the author's and are never read here.
import { httpStatus, type RepoRef } from './context.js';
import { describeGitHubFailure, gitHubCall } from './errors.js';
import type { Octokit } from './octokit.js';

/** Pages of issue events or workflow runs read at most (100 each): beyond them the answer is "cannot tell". */
const MAX_PAGES = 10;

/** The blob sha of `path` at commit `ref`, or null when the commit has no such file (a folder reads as `tree`). */
async function blobShaAt(octokit: Octokit, repo: RepoRef, path: string, ref: string): Promise<string | null> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repo, path, ref });
    if (Array.isArray(data)) return 'tree';
    return typeof data.sha === 'string' ? data.sha : null;
  } catch (error) {
    if (httpStatus(error) === 404) return null;
    throw describeGitHubFailure(`reading ${path} at ${ref.slice(0, 12)}`, error, 'contents: read');
  }
}

/** Whether a commit can be read (GitHub answers 404 for a commit it never had, or one garbage-collected after a force push). */
async function commitExists(octokit: Octokit, repo: RepoRef, sha: string): Promise<boolean> {
  try {
    await octokit.rest.git.getCommit({ ...repo, commit_sha: sha });
    return true;
  } catch (error) {
    const status = httpStatus(error);
    if (status === 404 || status === 422) return false;
    throw describeGitHubFailure(`reading commit ${sha.slice(0, 12)}`, error, 'contents: read');
  }
}

/**
 * Which of `paths` differ between two commits, compared by blob sha (absent on one side counts as a change); `unknown`
 * says why it cannot be told. Contents, not the compare API: that one lists at most 300 files, and after a force push
 * it diffs from the merge base, not from the commit before the push.
 */
export async function filesChangedBetween(
  octokit: Octokit,
  repo: RepoRef,
  paths: readonly string[],
  from: string,
  to: string,
): Promise<{ files: string[] } | { unknown: string }> {
  if (from === to) return { files: [] };
  for (const sha of [from, to])
    if (!(await commitExists(octokit, repo, sha))) return { unknown: `commit ${sha.slice(0, 12)} cannot be read` };
  const files: string[] = [];
  for (const path of paths) {
    const [before, after] = await Promise.all([
      blobShaAt(octokit, repo, path, from),
      blobShaAt(octokit, repo, path, to),
    ]);
    if (before !== after) files.push(path);
  }
  return { files };
}

/** Takes `label` off the pull request: `removed` (or it was already gone), or why it could not be. */
export async function removeLabel(
  octokit: Octokit,
  repo: RepoRef,
  issueNumber: number,
  label: string,
): Promise<{ removed: true } | { removed: false; status: number | undefined; reason: string }> {
  try {
    await octokit.rest.issues.removeLabel({ ...repo, issue_number: issueNumber, name: label });
    return { removed: true };
  } catch (error) {
    const status = httpStatus(error);
    if (status === 404) return { removed: true };
    return {
      removed: false,
      status,
      reason: describeGitHubFailure(`removing the label '${label}' from #${issueNumber}`, error, 'pull-requests: write')
        .message,
    };
  }
}

/** When `label` was last added to the issue, by GitHub's clock (ms since the epoch), or null when no event records it. */
export async function labelAddedAt(
  octokit: Octokit,
  repo: RepoRef,
  issueNumber: number,
  label: string,
): Promise<number | null> {
  let added: number | null = null;
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
        if (event.event === 'labeled' && name === label) added = Date.parse(event.created_at);
      }
      if (++pages >= MAX_PAGES) break;
    }
  });
  return added;
}

/** A workflow run as these rules read it. */
export interface RunRecord {
  id: number;
  workflowId: number;
  headSha: string;
  headBranch: string;
  /** `owner/repo` of the head repository (a fork's for a fork's PR). */
  headRepository: string;
  /** GitHub's clock, ms since the epoch. */
  createdAt: number;
}

function runRecord(run: {
  id: number;
  workflow_id: number;
  head_sha: string;
  head_branch: string | null;
  head_repository?: { full_name?: string } | null;
  created_at: string;
}): RunRecord {
  return {
    id: run.id,
    workflowId: run.workflow_id,
    headSha: run.head_sha,
    headBranch: run.head_branch ?? '',
    headRepository: run.head_repository?.full_name ?? '',
    createdAt: Date.parse(run.created_at),
  };
}

export async function workflowRun(octokit: Octokit, repo: RepoRef, runId: number): Promise<RunRecord> {
  const { data } = await gitHubCall(`reading workflow run ${runId}`, 'actions: read', () =>
    octokit.rest.actions.getWorkflowRun({ ...repo, run_id: runId }),
  );
  return runRecord(data);
}

/**
 * The pull_request runs of `run`'s workflow on the same head repository and branch created at or after `since`, oldest
 * first (GitHub lists newest first; reading stops at the first older one, or after 1,000 runs).
 */
export async function runsOfHead(octokit: Octokit, repo: RepoRef, run: RunRecord, since: number): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
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
        if (record.createdAt < since) older = true;
        else if (record.headRepository === run.headRepository) runs.push(record);
      }
      if (older || ++pages >= MAX_PAGES) break;
    }
  });
  return runs.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
}

// Proposes a new baseline through the Git Data API (no checkout needed): a branch + commit + pull request, or a commit.
import { httpStatus, type RepoRef } from './context.js';
import type { Octokit } from './octokit.js';

export interface BaselineCommitRequest extends RepoRef {
  /** Branch the baseline is proposed against (the dispatch branch). */
  baseBranch: string;
  /** Repository path of the baseline file. */
  filePath: string;
  content: string;
  message: string;
}

/** Reads a file at a branch through the contents API; null when it does not exist there. */
export async function readFileAtBranch(octokit: Octokit, repo: RepoRef, filePath: string, branch: string): Promise<string | null> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repo, path: filePath, ref: branch });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) {
      throw new Error(`${filePath} at ${branch} is not a file`);
    }
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (error) {
    if (httpStatus(error) === 404) return null;
    throw error;
  }
}

/** Creates blob → tree (on top of the branch head) → commit; returns the new commit's sha and the parent's. */
async function commitOnTopOf(octokit: Octokit, request: BaselineCommitRequest): Promise<{ commitSha: string; parentSha: string }> {
  const { owner, repo } = request;
  const { data: ref } = await octokit.rest.git.getRef({ owner, repo, ref: `heads/${request.baseBranch}` });
  const parentSha = ref.object.sha;
  const { data: parent } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: parentSha });
  const { data: blob } = await octokit.rest.git.createBlob({
    owner,
    repo,
    content: Buffer.from(request.content, 'utf8').toString('base64'),
    encoding: 'base64',
  });
  const { data: tree } = await octokit.rest.git.createTree({
    owner,
    repo,
    base_tree: parent.tree.sha,
    tree: [{ path: request.filePath, mode: '100644', type: 'blob', sha: blob.sha }],
  });
  const { data: commit } = await octokit.rest.git.createCommit({
    owner,
    repo,
    message: request.message,
    tree: tree.sha,
    parents: [parentSha],
  });
  return { commitSha: commit.sha, parentSha };
}

/** `commit` strategy: fast-forwards the base branch to a commit holding the new baseline. */
export async function commitBaseline(octokit: Octokit, request: BaselineCommitRequest): Promise<string> {
  const { commitSha } = await commitOnTopOf(octokit, request);
  await octokit.rest.git.updateRef({ owner: request.owner, repo: request.repo, ref: `heads/${request.baseBranch}`, sha: commitSha, force: false });
  return commitSha;
}

export interface BaselinePullRequest extends BaselineCommitRequest {
  branch: string;
  title: string;
  body: string;
}

/**
 * `pull-request` strategy: puts the commit on `branch` (created, or reset when a run is retried)
 * and opens a PR, or updates the body of the one already open for that branch.
 */
export async function openBaselinePullRequest(octokit: Octokit, request: BaselinePullRequest): Promise<{ url: string; number: number; created: boolean }> {
  const { owner, repo, branch } = request;
  const { commitSha } = await commitOnTopOf(octokit, request);
  try {
    await octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: commitSha });
  } catch (error) {
    // 422: the branch exists from an earlier attempt of this run; it is ours, so move it.
    if (httpStatus(error) !== 422) throw error;
    await octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha: commitSha, force: true });
  }
  const { data: open } = await octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${owner}:${branch}`, base: request.baseBranch });
  const existing = open[0];
  if (existing) {
    const { data } = await octokit.rest.pulls.update({ owner, repo, pull_number: existing.number, title: request.title, body: request.body });
    return { url: data.html_url, number: data.number, created: false };
  }
  const { data } = await octokit.rest.pulls.create({
    owner,
    repo,
    head: branch,
    base: request.baseBranch,
    title: request.title,
    body: request.body,
    maintainer_can_modify: true,
  });
  return { url: data.html_url, number: data.number, created: true };
}

// Proposes a new baseline through the Git Data API (no checkout needed): a branch + commit + pull request, or a commit;
// reads repository files at any commit, of any size. Every failure is one GitHubError naming the step and the permission.
import { httpStatus, type RepoRef } from './context.js';
import { gitHubCall, GitHubError } from './errors.js';
import type { Octokit } from './octokit.js';

export interface BaselineCommitRequest extends RepoRef {
  /** Branch the baseline is proposed against (the dispatch branch). */
  baseBranch: string;
  /** Repository path of the baseline file. */
  filePath: string;
  content: string;
  message: string;
}

const READ = 'contents: read';
const WRITE = 'contents: write';

/**
 * Reads a file at a branch or commit; null when it does not exist there. Asks for the raw media type, which
 * GitHub serves up to 100 MB (the JSON form carries no content past 1 MB: `content: ""`, `encoding: "none"`),
 * and falls back to the blob API when a proxy answers with the JSON form anyway.
 */
export async function readFileAt(
  octokit: Octokit,
  repo: RepoRef,
  filePath: string,
  ref: string,
): Promise<string | null> {
  const attempt = `reading ${filePath} at ${ref}`;
  let data: unknown;
  try {
    ({ data } = await octokit.rest.repos.getContent({ ...repo, path: filePath, ref, mediaType: { format: 'raw' } }));
  } catch (error) {
    if (httpStatus(error) === 404) return null;
    return gitHubCall(attempt, READ, () => Promise.reject(error));
  }
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  if (Array.isArray(data)) throw new GitHubError(`${filePath} at ${ref} is a directory, not a file`, undefined);
  const file = data as { type?: unknown; content?: unknown; encoding?: unknown; sha?: unknown };
  if (file.type !== 'file')
    throw new GitHubError(`${filePath} at ${ref} is a ${String(file.type)}, not a file`, undefined);
  if (file.encoding === 'base64' && typeof file.content === 'string')
    return Buffer.from(file.content, 'base64').toString('utf8');
  if (typeof file.sha !== 'string')
    throw new GitHubError(`${attempt}: GitHub's answer has neither content nor a blob sha`, undefined);
  const sha = file.sha;
  const { data: blob } = await gitHubCall(attempt, READ, () => octokit.rest.git.getBlob({ ...repo, file_sha: sha }));
  return Buffer.from(blob.content, blob.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
}

/** Creates blob → tree (on top of the branch head) → commit; returns the new commit's sha and the parent's. */
async function commitOnTopOf(
  octokit: Octokit,
  request: BaselineCommitRequest,
): Promise<{ commitSha: string; parentSha: string }> {
  const { owner, repo, baseBranch } = request;
  const { data: ref } = await gitHubCall(`reading branch ${baseBranch}`, READ, () =>
    octokit.rest.git.getRef({ owner, repo, ref: `heads/${baseBranch}` }),
  );
  const parentSha = ref.object.sha;
  const { data: parent } = await gitHubCall(`reading commit ${parentSha}`, READ, () =>
    octokit.rest.git.getCommit({ owner, repo, commit_sha: parentSha }),
  );
  const { data: blob } = await gitHubCall(`creating a blob for ${request.filePath}`, WRITE, () =>
    octokit.rest.git.createBlob({
      owner,
      repo,
      content: Buffer.from(request.content, 'utf8').toString('base64'),
      encoding: 'base64',
    }),
  );
  const { data: tree } = await gitHubCall('creating a tree', WRITE, () =>
    octokit.rest.git.createTree({
      owner,
      repo,
      base_tree: parent.tree.sha,
      tree: [{ path: request.filePath, mode: '100644', type: 'blob', sha: blob.sha }],
    }),
  );
  const { data: commit } = await gitHubCall('creating a commit', WRITE, () =>
    octokit.rest.git.createCommit({ owner, repo, message: request.message, tree: tree.sha, parents: [parentSha] }),
  );
  return { commitSha: commit.sha, parentSha };
}

/** `commit` strategy: fast-forwards the base branch to a commit holding the new baseline. */
export async function commitBaseline(octokit: Octokit, request: BaselineCommitRequest): Promise<string> {
  const { commitSha } = await commitOnTopOf(octokit, request);
  try {
    await octokit.rest.git.updateRef({
      owner: request.owner,
      repo: request.repo,
      ref: `heads/${request.baseBranch}`,
      sha: commitSha,
      force: false,
    });
  } catch (error) {
    if (httpStatus(error) === 422) {
      throw new GitHubError(
        `422 updating branch ${request.baseBranch}: not a fast-forward (the branch moved while this run worked, or it is protected): re-run the job, or use update-strategy: pull-request`,
        422,
      );
    }
    return gitHubCall(`updating branch ${request.baseBranch}`, WRITE, () => Promise.reject(error));
  }
  return commitSha;
}

export interface BaselinePullRequest extends BaselineCommitRequest {
  branch: string;
  title: string;
  body: string;
  /** Put on the pull request: it lets the PR's own limits be used by the check on it. */
  label: string;
}

/**
 * `pull-request` strategy: puts the commit on `branch` (one stable branch per baseline file: created, or moved when a
 * later run proposes newer numbers) and opens a PR, or updates the one already open for that branch, so there is
 * never more than one open PR changing the file. The PR gets `label`.
 */
export async function openBaselinePullRequest(
  octokit: Octokit,
  request: BaselinePullRequest,
): Promise<{ url: string; number: number; created: boolean }> {
  const { owner, repo, branch } = request;
  const { commitSha } = await commitOnTopOf(octokit, request);
  try {
    await octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: commitSha });
  } catch (error) {
    // 422: the branch exists from an earlier run; it is this Action's, so move it.
    if (httpStatus(error) !== 422) return gitHubCall(`creating branch ${branch}`, WRITE, () => Promise.reject(error));
    await gitHubCall(`moving branch ${branch}`, WRITE, () =>
      octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha: commitSha, force: true }),
    );
  }
  const { data: open } = await gitHubCall('listing open pull requests', 'pull-requests: read', () =>
    octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${owner}:${branch}`, base: request.baseBranch }),
  );
  const existing = open[0];
  let pr: { url: string; number: number; created: boolean };
  if (existing) {
    const { data } = await gitHubCall(`updating pull request #${existing.number}`, 'pull-requests: write', () =>
      octokit.rest.pulls.update({
        owner,
        repo,
        pull_number: existing.number,
        title: request.title,
        body: request.body,
      }),
    );
    pr = { url: data.html_url, number: data.number, created: false };
  } else {
    const { data } = await gitHubCall('opening a pull request', 'pull-requests: write', () =>
      octokit.rest.pulls.create({
        owner,
        repo,
        head: branch,
        base: request.baseBranch,
        title: request.title,
        body: request.body,
        maintainer_can_modify: true,
      }),
    );
    pr = { url: data.html_url, number: data.number, created: true };
  }
  await gitHubCall(`labelling pull request #${pr.number} '${request.label}'`, 'pull-requests: write', () =>
    octokit.rest.issues.addLabels({ owner, repo, issue_number: pr.number, labels: [request.label] }),
  );
  return pr;
}

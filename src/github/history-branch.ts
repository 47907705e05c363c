// The history file on its own branch, read and written through the Git Data API (no checkout): a commit per run on top
// of the branch head, retried from a fresh read when another run moved the branch first, so two racing runs both land.
import { setTimeout as sleep } from 'node:timers/promises';
import { readFileAt } from './baseline-pr.js';
import { httpStatus, type RepoRef } from './context.js';
import { gitHubCall, GitHubError } from './errors.js';
import type { Octokit } from './octokit.js';

const READ = 'contents: read';
const WRITE = 'contents: write';

export interface HistoryFileRef extends RepoRef {
  branch: string;
  /** The file's path on the branch. */
  path: string;
}

/** The file at a commit of the branch, and that commit. */
export interface HistoryText {
  text: string;
  commit: string;
}

/**
 * The file at the branch's head, or at `at` when that commit is the head or one of its ancestors (comment mode reads the
 * history the gated run read); null when the branch or the file does not exist yet. `refused` says why `at` was not
 * used (then the head's file is read).
 */
export async function readHistoryText(
  octokit: Octokit,
  file: HistoryFileRef,
  at?: string,
): Promise<(HistoryText & { refused?: string }) | null> {
  const head = await branchHead(octokit, file);
  if (head === null) return null;
  let commit = head;
  let refused: string | undefined;
  if (at !== undefined && at !== head) {
    const status = await ancestry(octokit, file, at, head);
    if (status === 'ahead' || status === 'identical') commit = at;
    else
      refused =
        status === 'unknown'
          ? `commit ${at.slice(0, 12)} is not in the repository`
          : `commit ${at.slice(0, 12)} is not on branch ${file.branch} (GitHub compares it with the head ${head.slice(0, 12)}: ${status})`;
  }
  const text = await readFileAt(octokit, file, file.path, commit);
  return text === null ? null : { text, commit, ...(refused !== undefined ? { refused } : {}) };
}

/**
 * How `head` stands to `base` (GitHub's compare API): `ahead` when base is one of head's ancestors, else `behind`,
 * `diverged` or `identical`, or `unknown` when GitHub knows no such commit.
 */
async function ancestry(octokit: Octokit, repo: RepoRef, base: string, head: string): Promise<string> {
  try {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: repo.owner,
      repo: repo.repo,
      basehead: `${base}...${head}`,
      per_page: 1,
    });
    return data.status;
  } catch (error) {
    if (httpStatus(error) === 404 || httpStatus(error) === 422) return 'unknown';
    return gitHubCall(`comparing ${base.slice(0, 12)} with ${head.slice(0, 12)}`, READ, () => Promise.reject(error));
  }
}

/** What a write did: the commit it made, and how many attempts it took. */
export interface HistoryWrite {
  commit: string;
  attempts: number;
}

/** Attempts before giving up on a branch that keeps moving (or a GitHub that keeps failing). */
const WRITE_ATTEMPTS = 5;

/**
 * Writes the file as `update` makes it from the branch head's text (null when there is none yet): blob, tree on top of
 * the head, commit, then a fast-forward of the branch (or its creation, as a commit with no parent). When the branch
 * moved meanwhile (422: not a fast-forward, or created by another run), a 409, or GitHub failed to answer (5xx), it
 * starts again from the new head, up to WRITE_ATTEMPTS times with a growing, jittered pause. `update` may throw (a
 * corrupt file): nothing is written then.
 */
export async function writeHistoryText(
  octokit: Octokit,
  file: HistoryFileRef,
  update: (text: string | null) => string,
  message: string,
  pause: (attempt: number) => Promise<void> = defaultPause,
): Promise<HistoryWrite> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { commit: await writeOnce(octokit, file, update, message), attempts: attempt };
    } catch (error) {
      if (!(error instanceof MovedError) && !retryable(error)) throw error;
      if (attempt >= WRITE_ATTEMPTS) {
        const why =
          error instanceof MovedError
            ? 'other runs kept moving it'
            : error instanceof Error
              ? error.message
              : String(error);
        throw new GitHubError(
          `could not write ${file.path} to branch ${file.branch} in ${WRITE_ATTEMPTS} attempts: ${why}`,
          httpStatus(error),
        );
      }
      await pause(attempt);
    }
  }
}

/** The branch moved between our read and our write. */
class MovedError extends Error {}

async function writeOnce(
  octokit: Octokit,
  file: HistoryFileRef,
  update: (text: string | null) => string,
  message: string,
): Promise<string> {
  const { owner, repo, branch } = file;
  const head = await branchHead(octokit, file);
  const text = head === null ? null : await readFileAt(octokit, file, file.path, head);
  const content = update(text);
  const baseTree =
    head === null
      ? undefined
      : (
          await gitHubCall(`reading commit ${head.slice(0, 12)} of branch ${branch}`, READ, () =>
            octokit.rest.git.getCommit({ owner, repo, commit_sha: head }),
          )
        ).data.tree.sha;
  const { data: blob } = await gitHubCall(`creating a blob for ${file.path} on branch ${branch}`, WRITE, () =>
    octokit.rest.git.createBlob({
      owner,
      repo,
      content: Buffer.from(content, 'utf8').toString('base64'),
      encoding: 'base64',
    }),
  );
  const { data: tree } = await gitHubCall(`creating a tree on branch ${branch}`, WRITE, () =>
    octokit.rest.git.createTree({
      owner,
      repo,
      ...(baseTree !== undefined ? { base_tree: baseTree } : {}),
      tree: [{ path: file.path, mode: '100644', type: 'blob', sha: blob.sha }],
    }),
  );
  const { data: commit } = await gitHubCall(`creating a commit on branch ${branch}`, WRITE, () =>
    octokit.rest.git.createCommit({ owner, repo, message, tree: tree.sha, parents: head === null ? [] : [head] }),
  );
  try {
    if (head === null) await octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: commit.sha });
    else await octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha: commit.sha, force: false });
  } catch (error) {
    // Not a fast-forward, or the branch was created by another run since we looked: read again and redo.
    if (httpStatus(error) === 422) throw new MovedError(`branch ${branch} moved`);
    return gitHubCall(`${head === null ? 'creating' : 'updating'} branch ${branch}`, WRITE, () =>
      Promise.reject(error),
    );
  }
  return commit.sha;
}

/** The branch's head commit, or null when the branch does not exist. */
async function branchHead(octokit: Octokit, file: HistoryFileRef): Promise<string | null> {
  try {
    const { data } = await octokit.rest.git.getRef({ owner: file.owner, repo: file.repo, ref: `heads/${file.branch}` });
    return data.object.sha;
  } catch (error) {
    if (httpStatus(error) === 404) return null;
    return gitHubCall(`reading branch ${file.branch}`, READ, () => Promise.reject(error));
  }
}

function retryable(error: unknown): boolean {
  const status = error instanceof GitHubError ? error.status : httpStatus(error);
  // undefined: no answer at all (a reset or refused connection), which gitHubCall reports without a status.
  return status === undefined ? error instanceof GitHubError : status === 409 || status >= 500;
}

async function defaultPause(attempt: number): Promise<void> {
  // 0.25 s, 0.5 s, 1 s, 2 s, each with up to half of it again at random: racing runs do not meet again in lockstep.
  const base = 250 * 2 ** (attempt - 1);
  await sleep(base + Math.floor(Math.random() * (base / 2)));
}

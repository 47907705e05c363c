// The sticky PR comment: one per gate (comment-key), found by a hidden marker, updated in place instead of piling up.
import type { RepoRef } from './context.js';
import type { Octokit } from './octokit.js';

export type CommentPolicy = 'on-change' | 'always' | 'never';

export interface StickyCommentRequest extends RepoRef {
  issueNumber: number;
  /** The full body; it must already contain `marker`. */
  body: string;
  marker: string;
  policy: CommentPolicy;
  /** Something is not pass: on-change creates a comment only then. */
  hasFindings: boolean;
}

export type StickyCommentResult =
  | { action: 'created' | 'updated'; id: number; url: string }
  | { action: 'skipped'; reason: string };

/** The hidden marker that identifies this gate's comment; comment-key keeps several gates apart. */
export function commentMarker(commentKey: string): string {
  return `<!-- ascend-memory-gate:${commentKey} -->`;
}

/** Finds this gate's comment among all of the PR's comments (every page) and creates or updates it per policy. */
export async function upsertStickyComment(octokit: Octokit, request: StickyCommentRequest): Promise<StickyCommentResult> {
  const { owner, repo, issueNumber, body, marker, policy, hasFindings } = request;
  if (policy === 'never') return { action: 'skipped', reason: "comment is 'never'" };

  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    owner,
    repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  const existing = await ownComment(
    octokit,
    comments.filter((c) => typeof c.body === 'string' && c.body.includes(marker)),
  );

  if (existing) {
    const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
    return { action: 'updated', id: data.id, url: data.html_url };
  }
  if (policy === 'on-change' && !hasFindings) {
    return { action: 'skipped', reason: 'everything passed and there is no earlier comment to update' };
  }
  const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
  return { action: 'created', id: data.id, url: data.html_url };
}

interface CommentAuthor {
  user?: { login?: string; type?: string } | null;
}

/**
 * The first of the marked comments that this token wrote. Anyone can paste the marker into a comment (or quote ours);
 * updating theirs would put our verdict under their name, for them to edit later. GITHUB_TOKEN and GitHub App tokens
 * post as a Bot; a personal access token posts as its user, whose login `GET /user` gives (it is refused to the others).
 */
async function ownComment<C extends CommentAuthor>(octokit: Octokit, marked: C[]): Promise<C | undefined> {
  const byBot = marked.find((c) => c.user?.type === 'Bot');
  if (byBot !== undefined || marked.length === 0) return byBot;
  let login: string | undefined;
  try {
    login = (await octokit.rest.users.getAuthenticated()).data.login;
  } catch {
    return undefined;
  }
  return marked.find((c) => c.user?.login === login);
}

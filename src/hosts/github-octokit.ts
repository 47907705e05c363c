// The Action's GitHub behind the Host interface: today's Octokit calls (src/github/), each failure one GitHubError
// naming the permission it needs, so that the Action's sticky comment is the same code as every other host's.
import { ACTIONS_BOT_LOGIN } from '../github/comment.js';
import { httpStatus, type RepoRef } from '../github/context.js';
import { gitHubCall } from '../github/errors.js';
import type { Octokit } from '../github/octokit.js';
import { GITHUB_TOKEN } from './github.js';
import type { Host, HostComment } from './types.js';

const comment = (c: {
  id: number;
  body?: string | null;
  user?: { login?: string } | null;
  html_url?: string;
}): HostComment => ({
  id: c.id,
  body: c.body ?? '',
  author: c.user?.login ?? '',
  ...(c.html_url !== undefined ? { url: c.html_url } : {}),
});

/** The comment-related calls the Action makes; its other GitHub calls (limits, history, labels) stay in src/github/. */
export function octokitHost(
  octokit: Octokit,
  repo: RepoRef,
): Pick<
  Host,
  'name' | 'noun' | 'commentNoun' | 'token' | 'tokenLogin' | 'listComments' | 'createComment' | 'editComment'
> {
  const { owner, repo: name } = repo;
  return {
    name: 'github',
    noun: 'pull request',
    commentNoun: 'comment',
    token: GITHUB_TOKEN,
    async listComments(number) {
      const comments = await gitHubCall(`listing the comments of #${number}`, 'pull-requests: read', () =>
        octokit.paginate(octokit.rest.issues.listComments, { owner, repo: name, issue_number: number, per_page: 100 }),
      );
      return comments.map(comment);
    },
    /**
     * A personal access token is its user (`GET /user`); GITHUB_TOKEN is refused that endpoint (403) and posts as the
     * Actions bot. Other failures are errors: guessing could take over somebody else's comment.
     */
    async tokenLogin() {
      try {
        return (await octokit.rest.users.getAuthenticated()).data.login;
      } catch (error) {
        if (httpStatus(error) === 403) return ACTIONS_BOT_LOGIN;
        return gitHubCall("reading the token's identity (GET /user)", 'a valid token', () => Promise.reject(error));
      }
    },
    async createComment(number, body) {
      const { data } = await gitHubCall(`commenting on #${number}`, 'pull-requests: write', () =>
        octokit.rest.issues.createComment({ owner, repo: name, issue_number: number, body }),
      );
      return comment(data);
    },
    async editComment(_number, id, body) {
      const { data } = await gitHubCall(`updating comment ${id}`, 'pull-requests: write', () =>
        octokit.rest.issues.updateComment({ owner, repo: name, comment_id: Number(id), body }),
      );
      return comment(data);
    },
  };
}

// GitHub's REST API behind the Host interface, over fetch, for the command line outside the Action (the Action keeps
// Octokit, src/github/): pull requests, issue comments, files at a commit, labels. Endpoints as on docs.github.com.
import { ACTIONS_BOT_LOGIN } from '../github/comment.js';
import { Api, pathSegments, segment } from './http.js';
import { HostError, type Host, type HostComment } from './types.js';

export const GITHUB_TOKEN = {
  variable: 'GITHUB_TOKEN',
  read: '`contents: read` and `pull-requests: read`',
  write: '`pull-requests: write`',
};

interface GitHubComment {
  id: number;
  body?: unknown;
  user?: { login?: unknown } | null;
}

const SHA = /^[0-9a-f]{40}$/;

/** `repo` is `owner/name`; `base` is GITHUB_API_URL (https://api.github.com). Authentication: `Authorization: Bearer`. */
export function gitHubHost(options: { base: string; repo: string; token: string }): Host {
  const api = new Api({
    label: 'GitHub',
    base: options.base,
    auth: { Authorization: `Bearer ${options.token}`, 'X-GitHub-Api-Version': '2022-11-28' },
    token: GITHUB_TOKEN,
    secret: options.token,
  });
  const [owner = '', name = ''] = options.repo.split('/');
  const repo = `repos/${segment(owner)}/${segment(name)}`;
  const comment = (c: GitHubComment): HostComment => ({
    id: c.id,
    body: typeof c.body === 'string' ? c.body : '',
    author: typeof c.user?.login === 'string' ? c.user.login : '',
  });

  return {
    name: 'github',
    noun: 'pull request',
    commentNoun: 'comment',
    token: GITHUB_TOKEN,

    // https://docs.github.com/en/rest/pulls/pulls#get-a-pull-request
    async changeRequest(number) {
      const { data } = await api.call<{
        base?: { sha?: unknown; ref?: unknown };
        head?: { sha?: unknown };
        labels?: { name?: unknown }[];
      }>(`reading pull request #${number}`, `${repo}/pulls/${number}`);
      const base = data.base?.sha;
      if (typeof base !== 'string' || !SHA.test(base))
        throw new HostError(`pull request #${number} names no base commit (base.sha)`, undefined);
      return {
        number,
        baseSha: base,
        headSha: typeof data.head?.sha === 'string' ? data.head.sha : '',
        targetBranch: typeof data.base?.ref === 'string' ? data.base.ref : '',
        labels: (data.labels ?? []).map((l) => l.name).filter((l): l is string => typeof l === 'string'),
      };
    },

    // https://docs.github.com/en/rest/users/users#get-the-authenticated-user — GITHUB_TOKEN is refused it (403) and posts as the Actions bot.
    async tokenLogin() {
      const { status, data } = await api.call<{ login?: unknown }>("reading the token's user (GET /user)", 'user', {
        expect: [403],
      });
      if (status === 403) return ACTIONS_BOT_LOGIN;
      if (typeof data?.login !== 'string')
        throw new HostError("GitHub's GET /user names no login: check GITHUB_API_URL", undefined);
      return data.login;
    },

    // https://docs.github.com/en/rest/issues/comments#list-issue-comments
    async listComments(number) {
      return (
        await api.all<GitHubComment>(`listing the comments of #${number}`, `${repo}/issues/${number}/comments`)
      ).map(comment);
    },

    // https://docs.github.com/en/rest/issues/comments#create-an-issue-comment
    async createComment(number, body) {
      const { data } = await api.call<GitHubComment>(`commenting on #${number}`, `${repo}/issues/${number}/comments`, {
        method: 'POST',
        body: { body },
        needs: 'write',
      });
      return comment(data);
    },

    // https://docs.github.com/en/rest/issues/comments#update-an-issue-comment
    async editComment(number, id, body) {
      const { data } = await api.call<GitHubComment>(
        `updating comment ${id} of #${number}`,
        `${repo}/issues/comments/${id}`,
        { method: 'PATCH', body: { body }, needs: 'write' },
      );
      return comment(data);
    },

    // https://docs.github.com/en/rest/issues/comments#delete-an-issue-comment
    async deleteComment(number, id) {
      await api.call(`deleting comment ${id} of #${number}`, `${repo}/issues/comments/${id}`, {
        method: 'DELETE',
        needs: 'write',
      });
    },

    // https://docs.github.com/en/rest/repos/contents#get-repository-content — the raw media type, up to 100 MB.
    async fileAt(path, sha) {
      const { status, data } = await api.call<string>(
        `reading ${path} at ${sha.slice(0, 12)}`,
        `${repo}/contents/${pathSegments(path)}`,
        { query: { ref: sha }, text: true, accept: 'application/vnd.github.raw+json', expect: [404] },
      );
      return status === 404 ? null : data;
    },

    // https://docs.github.com/en/rest/git/commits#get-a-commit-object
    async commitExists(sha) {
      await api.call(`reading commit ${sha.slice(0, 12)}`, `${repo}/git/commits/${segment(sha)}`);
    },

    // https://docs.github.com/en/rest/issues/labels#remove-a-label-from-an-issue
    async removeLabel(number, label) {
      await api.call(
        `removing the label '${label}' from #${number}`,
        `${repo}/issues/${number}/labels/${segment(label)}`,
        { method: 'DELETE', needs: 'write' },
      );
    },
  };
}

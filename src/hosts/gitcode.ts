// GitCode's REST API v5 (Gitee-compatible; AtomGit's pipelines use it too) behind the Host interface: pull requests,
// their comments, files at a commit, labels. Endpoints as documented on docs.gitcode.com (cited at each call).
import { Api, pathSegments, segment } from './http.js';
import { HostError, type ChangeRequest, type Host, type HostComment } from './types.js';

/** GITCODE_TOKEN (or ATOMGIT_TOKEN in AtomGit pipelines): a personal access token. */
export const GITCODE_TOKEN = {
  variable: 'GITCODE_TOKEN',
  read: 'read access to the repository',
  write: 'the pull-request write permission (a personal access token of a member who may comment)',
};

export const GITCODE_API = 'https://api.gitcode.com/api/v5';

interface GitCodeComment {
  id: number;
  body?: unknown;
  user?: { login?: unknown } | null;
}

interface GitCodePull {
  number?: unknown;
  labels?: unknown;
  head?: { sha?: unknown } | null;
  base?: { sha?: unknown; ref?: unknown } | null;
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * `repo` is `owner/name`. Authentication: `Authorization: Bearer <token>`, one of the three ways
 * https://docs.gitcode.com/en/docs/guide documents (the others, `PRIVATE-TOKEN` and `?access_token=`, would put the
 * token in a URL that proxies log).
 */
export function gitCodeHost(options: { base: string; repo: string; token: string; variable?: string }): Host {
  const token = { ...GITCODE_TOKEN, variable: options.variable ?? GITCODE_TOKEN.variable };
  const api = new Api({
    label: 'GitCode',
    base: options.base,
    auth: { Authorization: `Bearer ${options.token}` },
    token,
    secret: options.token,
  });
  const [owner = '', name = ''] = options.repo.split('/');
  const repo = `repos/${segment(owner)}/${segment(name)}`;
  const pull = (n: number): string => `${repo}/pulls/${n}`;
  const comment = (c: GitCodeComment): HostComment => ({
    id: c.id,
    body: typeof c.body === 'string' ? c.body : '',
    author: typeof c.user?.login === 'string' ? c.user.login : '',
  });

  return {
    name: 'gitcode',
    noun: 'pull request',
    commentNoun: 'comment',
    token,

    // https://docs.gitcode.com/en/docs/repos/pulls — "Get a single Pull Request": head.sha, base.sha, base.ref, labels[].name.
    async changeRequest(number) {
      const { data } = await api.call<GitCodePull>(`reading pull request #${number}`, pull(number));
      const base = data.base?.sha;
      if (typeof base !== 'string' || !SHA.test(base))
        throw new HostError(
          `GitCode's pull request #${number} names no base commit (base.sha): pass --base-sha`,
          undefined,
        );
      const labels = Array.isArray(data.labels)
        ? data.labels.map((l: { name?: unknown }) => l?.name).filter((l): l is string => typeof l === 'string')
        : [];
      return {
        number,
        baseSha: base,
        headSha: typeof data.head?.sha === 'string' ? data.head.sha : '',
        targetBranch: typeof data.base?.ref === 'string' ? data.base.ref : '',
        labels,
      } satisfies ChangeRequest;
    },

    // https://docs.gitcode.com/en/docs/users — "Get the profile of the authorized user": login.
    async tokenLogin() {
      const { data } = await api.call<{ login?: unknown }>("reading the token's user (GET /user)", 'user');
      if (typeof data?.login !== 'string')
        throw new HostError("GitCode's GET /user names no login: check GITCODE_API_URL", undefined);
      return data.login;
    },

    // https://docs.gitcode.com/en/docs/repos/pulls — "Get all comments of a Pull Request".
    async listComments(number) {
      return (await api.all<GitCodeComment>(`listing the comments of #${number}`, `${pull(number)}/comments`)).map(
        comment,
      );
    },

    // https://docs.gitcode.com/en/docs/repos/pulls — "Submit a Pull Request comment" (body).
    async createComment(number, body) {
      const { data } = await api.call<GitCodeComment>(`commenting on #${number}`, `${pull(number)}/comments`, {
        method: 'POST',
        body: { body },
        needs: 'write',
      });
      return comment(data);
    },

    // No editComment: GitCode's documentation names no way to edit a pull request comment, so the gate's comment is
    // replaced (a new one, then the old one deleted) — see sticky.ts and docs/hosts/gitcode.md.

    // The Gitee-compatible v5 delete of a pull request comment (DELETE /repos/{owner}/{repo}/pulls/comments/{id}).
    async deleteComment(number, id) {
      await api.call(`deleting comment ${id} of #${number}`, `${repo}/pulls/comments/${id}`, {
        method: 'DELETE',
        needs: 'write',
      });
    },

    // https://docs.gitcode.com/en/docs/repos/ — "Get the content of a file in a repository" (contents/{path}?ref=): base64.
    async fileAt(path, sha) {
      const { status, data } = await api.call<{ type?: unknown; content?: unknown; encoding?: unknown } | unknown[]>(
        `reading ${path} at ${sha.slice(0, 12)}`,
        `${repo}/contents/${pathSegments(path)}`,
        {
          query: { ref: sha },
          expect: [404],
        },
      );
      if (status === 404) return null;
      if (Array.isArray(data))
        throw new HostError(`${path} at ${sha.slice(0, 12)} is a folder on GitCode, not a file`, undefined);
      // An empty list or object for a path that does not exist, as some Gitee-compatible servers answer.
      if (data === null || typeof data !== 'object' || Object.keys(data).length === 0) return null;
      if (typeof data.content !== 'string')
        throw new HostError(`GitCode's answer for ${path} at ${sha.slice(0, 12)} has no content`, undefined);
      return data.encoding === 'base64' ? Buffer.from(data.content, 'base64').toString('utf8') : data.content;
    },

    // https://docs.gitcode.com/en/docs/repos/ — "Get a single commit" (GET /repos/{owner}/{repo}/commits/{sha}).
    async commitExists(sha) {
      await api.call(`reading commit ${sha.slice(0, 12)}`, `${repo}/commits/${segment(sha)}`);
    },

    // https://docs.gitcode.com/en/docs/repos/pulls — "Remove a label from a Pull Request".
    async removeLabel(number, label) {
      await api.call(`removing the label '${label}' from #${number}`, `${pull(number)}/labels/${segment(label)}`, {
        method: 'DELETE',
        needs: 'write',
      });
    },
    // No headWhenLabelled: GitCode documents no label event with a time, so a label's head cannot be told and the
    // label never counts there (limits.ts says why in one line).
  };
}

// GitCode's REST API v5 (Gitee-compatible; AtomGit's pipelines use it too) behind the Host interface: pull requests,
// their comments, files at a commit, labels and the pull request's operation log. Each call cites its docs.gitcode.com page.
import { Api, baseShaOf, labelNames, pathSegments, segment, text } from './http.js';
import { HostError, type ChangeRequest, type Host, type HostComment } from './types.js';

/** GITCODE_TOKEN (or ATOMGIT_TOKEN in AtomGit pipelines): a personal access token, or the pipeline's own. */
export const GITCODE_TOKEN = {
  variable: 'GITCODE_TOKEN',
  read: 'read access to the repository',
  write: 'the pull-request write permission (a personal access token of a member who may comment)',
};

export const GITCODE_API = 'https://api.gitcode.com/api/v5';

// DOCS.pulls below is https://docs.gitcode.com/en/docs/repos/pulls (§ numbers as on that page), DOCS.repos
// https://docs.gitcode.com/en/docs/repos, DOCS.users https://docs.gitcode.com/en/docs/users; the Chinese edition is
// https://docs.gitcode.com/docs/openapi/repos/pulls (read through the page's copy in Trenza1ore/GitCode-API, 2026-04-28).

interface GitCodeComment {
  id?: unknown;
  body?: unknown;
  user?: { login?: unknown } | null;
}

interface GitCodePull {
  labels?: unknown;
  head?: { sha?: unknown } | null;
  base?: { sha?: unknown; ref?: unknown } | null;
}

interface OperateLog {
  action?: unknown;
  content?: unknown;
  created_at?: unknown;
}

/** A comment id as GitCode gives it: an int in its paths, a 40-hex text in its list and create examples. */
function commentId(value: unknown, fallback: HostComment['id']): HostComment['id'] {
  return typeof value === 'number' || (typeof value === 'string' && value !== '') ? value : fallback;
}

function comment(c: GitCodeComment | null, fallback: { id: HostComment['id']; body: string }): HostComment {
  return {
    id: commentId(c?.id, fallback.id),
    body: typeof c?.body === 'string' ? c.body : fallback.body,
    author: text(c?.user?.login),
  };
}

/** Operation-log entries that add `label` and that push commits (their action names are not documented: see below). */
function labelAndPushTimes(logs: OperateLog[], label: string): { added: number[]; pushes: number[] } {
  const added: number[] = [];
  const pushes: number[] = [];
  for (const log of logs) {
    const action = text(log.action);
    const content = text(log.content);
    const at = Date.parse(text(log.created_at));
    if (!Number.isFinite(at)) continue;
    if (/label/i.test(action) && !/remov|delet/i.test(`${action} ${content}`) && content.includes(label))
      added.push(at);
    else if (/push|commit|source_branch/i.test(`${action} ${content}`)) pushes.push(at);
  }
  return { added, pushes };
}

/**
 * `repo` is `owner/name`. Authentication: `Authorization: Bearer <token>`, the first of the three ways
 * https://docs.gitcode.com/en/docs/guide documents (beside `PRIVATE-TOKEN` and `?access_token=`; the query form would
 * put the token in a URL that proxies log), and how AtomGit's own pipeline examples send ATOMGIT_TOKEN.
 */
export function gitCodeHost(options: { base: string; repo: string; token: string; variable?: string }): Host {
  return new GitCodeHost(options);
}

class GitCodeHost implements Host {
  readonly name = 'gitcode' as const;
  readonly noun = 'pull request';
  readonly commentNoun = 'comment';
  readonly token: typeof GITCODE_TOKEN;
  private readonly api: Api;
  private readonly repo: string;

  constructor(options: { base: string; repo: string; token: string; variable?: string }) {
    this.token = { ...GITCODE_TOKEN, variable: options.variable ?? GITCODE_TOKEN.variable };
    const auth = { Authorization: `Bearer ${options.token}` };
    this.api = new Api({ label: 'GitCode', base: options.base, auth, token: this.token, secret: options.token });
    const [owner = '', name = ''] = options.repo.split('/');
    this.repo = `repos/${segment(owner)}/${segment(name)}`;
  }

  private pull(n: number): string {
    return `${this.repo}/pulls/${n}`;
  }

  // DOCS.pulls §9 "Get a Pull Request": GET /repos/{owner}/{repo}/pulls/{number} → head.sha, base.sha, base.ref, labels[].name.
  async changeRequest(number: number): Promise<ChangeRequest> {
    const attempt = `reading pull request #${number}`;
    const { data } = await this.api.call<GitCodePull>(attempt, this.pull(number));
    return {
      number,
      baseSha: baseShaOf(data.base?.sha, `GitCode's pull request #${number} (base.sha)`),
      headSha: text(data.head?.sha),
      targetBranch: text(data.base?.ref),
      labels: labelNames(data.labels),
    };
  }

  // DOCS.users "Get the authenticated user": GET /user → login.
  tokenLogin(): Promise<string> {
    return this.api.login('login', 'GITCODE_API_URL');
  }

  // DOCS.pulls §6 "Get All Comments for a Specific Pull Request": GET …/pulls/{number}/comments (page, per_page ≤ 100).
  async listComments(number: number): Promise<HostComment[]> {
    const list = await this.api.all<GitCodeComment>(
      `listing the comments of #${number}`,
      `${this.pull(number)}/comments`,
    );
    return list.map((c) => comment(c, { id: '', body: '' }));
  }

  // DOCS.pulls §4 "Submit a Pull Request Comment": POST …/pulls/{number}/comments {body} → {id, body}.
  async createComment(number: number, body: string): Promise<HostComment> {
    const path = `${this.pull(number)}/comments`;
    const data = await this.api.write<GitCodeComment>(`commenting on #${number}`, path, 'POST', { body });
    if (data === null || commentId(data.id, '') === '')
      throw new HostError(`GitCode's answer to commenting on #${number} names no comment id`, undefined);
    return comment(data, { id: '', body });
  }

  // DOCS.pulls §26 "Edit a Comment": PATCH /repos/{owner}/{repo}/pulls/comments/{id} {body}; it answers `{}`.
  async editComment(number: number, id: HostComment['id'], body: string): Promise<HostComment> {
    const path = `${this.repo}/pulls/comments/${segment(String(id))}`;
    const data = await this.api.write<GitCodeComment | null>(`editing comment ${id} of #${number}`, path, 'PATCH', {
      body,
    });
    return comment(data, { id, body });
  }

  // DOCS.pulls §27 "Delete a Comment": DELETE /repos/{owner}/{repo}/pulls/comments/{id}.
  async deleteComment(number: number, id: HostComment['id']): Promise<void> {
    const path = `${this.repo}/pulls/comments/${segment(String(id))}`;
    await this.api.write(`deleting comment ${id} of #${number}`, path, 'DELETE');
  }

  // DOCS.repos §2 "Retrieve Contents Under a Specific Repository Path": GET …/contents/{path}?ref= → {type, encoding: base64, content}.
  async fileAt(path: string, sha: string): Promise<string | null> {
    const at = `${path} at ${sha.slice(0, 12)}`;
    const data = await this.api.optional<{ type?: unknown; content?: unknown; encoding?: unknown } | unknown[]>(
      `reading ${at}`,
      `${this.repo}/contents/${pathSegments(path)}`,
      { query: { ref: sha } },
    );
    if (Array.isArray(data)) throw new HostError(`${at} is a folder on GitCode, not a file`, undefined);
    // An empty list or object for a path that does not exist, as some Gitee-compatible servers answer.
    if (data === null || typeof data !== 'object' || Object.keys(data).length === 0) return null;
    if (typeof data.content !== 'string') throw new HostError(`GitCode's answer for ${at} has no content`, undefined);
    return data.encoding === 'base64' ? Buffer.from(data.content, 'base64').toString('utf8') : data.content;
  }

  // DOCS.repos "Get a single commit": GET /repos/{owner}/{repo}/commits/{sha}.
  async commitExists(sha: string): Promise<void> {
    await this.api.call(`reading commit ${sha.slice(0, 12)}`, `${this.repo}/commits/${segment(sha)}`);
  }

  // DOCS.pulls §12 "Delete a Pull Request Label": DELETE …/pulls/{number}/labels/{name}.
  async removeLabel(number: number, label: string): Promise<void> {
    const path = `${this.pull(number)}/labels/${segment(label)}`;
    await this.api.write(`removing the label '${label}' from #${number}`, path, 'DELETE');
  }

  /**
   * DOCS.pulls §15 "Get the events Log of a Pull Request": GET …/pulls/{number}/operate_logs?sort=asc → action, content,
   * created_at (GitCode's clock). The page documents those fields but not the action names of a label or a push, and a
   * log entry names no commit: the label counts only when it was added after every push the log records (then the head
   * is this run's); an entry about the label's name whose action mentions a label adds it, one about a push or commits
   * is a push. A log with neither leaves the label uncounted.
   */
  async headWhenLabelled(number: number, label: string): Promise<string | null | { unknown: string }> {
    const logs = await this.api.all<OperateLog>(
      `reading the operation log of #${number}`,
      `${this.pull(number)}/operate_logs`,
      {
        sort: 'asc',
      },
    );
    const { added, pushes } = labelAndPushTimes(logs, label);
    if (added.length === 0) return null;
    const at = Math.max(...added);
    if (pushes.some((p) => p > at))
      return { unknown: "a push was logged after the label was set, and GitCode's log names no commit" };
    return (await this.changeRequest(number)).headSha || null;
  }
}

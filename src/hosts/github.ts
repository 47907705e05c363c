// GitHub's REST API behind the Host interface, over fetch, for the command line outside the Action (the Action keeps
// Octokit, src/github/): pull requests, issue comments, files at a commit, labels. Endpoints as on docs.github.com.
import { ACTIONS_BOT_LOGIN } from '../github/comment.js';
import { Api, baseShaOf, headWhen, labelNames, pathSegments, segment, text } from './http.js';
import { HostError, type ChangeRequest, type Host, type HostComment } from './types.js';

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

/** `repo` is `owner/name`; `base` is GITHUB_API_URL (https://api.github.com). Authentication: `Authorization: Bearer`. */
export function gitHubHost(options: { base: string; repo: string; token: string }): Host {
  return new GitHubHost(options);
}

const comment = (c: GitHubComment): HostComment => ({ id: c.id, body: text(c.body), author: text(c.user?.login) });

interface GitHubPull {
  base?: { sha?: unknown; ref?: unknown } | null;
  head?: { sha?: unknown; ref?: unknown; repo?: { full_name?: unknown } | null } | null;
  labels?: unknown;
}

class GitHubHost implements Host {
  readonly name = 'github' as const;
  readonly noun = 'pull request';
  readonly commentNoun = 'comment';
  readonly token = GITHUB_TOKEN;
  private readonly api: Api;
  private readonly repo: string;

  constructor(options: { base: string; repo: string; token: string }) {
    const auth = { Authorization: `Bearer ${options.token}`, 'X-GitHub-Api-Version': '2022-11-28' };
    this.api = new Api({ label: 'GitHub', base: options.base, auth, token: GITHUB_TOKEN, secret: options.token });
    const [owner = '', name = ''] = options.repo.split('/');
    this.repo = `repos/${segment(owner)}/${segment(name)}`;
  }

  private pull(number: number): Promise<GitHubPull> {
    return this.api
      .call<GitHubPull>(`reading pull request #${number}`, `${this.repo}/pulls/${number}`)
      .then((a) => a.data);
  }

  // https://docs.github.com/en/rest/pulls/pulls#get-a-pull-request
  async changeRequest(number: number): Promise<ChangeRequest> {
    const data = await this.pull(number);
    return {
      number,
      baseSha: baseShaOf(data.base?.sha, `pull request #${number} (base.sha)`),
      headSha: text(data.head?.sha),
      targetBranch: text(data.base?.ref),
      labels: labelNames(data.labels),
    };
  }

  // https://docs.github.com/en/rest/users/users#get-the-authenticated-user — GITHUB_TOKEN is refused it (403) and posts as the Actions bot.
  async tokenLogin(): Promise<string> {
    const { status, data } = await this.api.call<{ login?: unknown } | null>(
      "reading the token's user (GET /user)",
      'user',
      {
        expect: [403],
      },
    );
    if (status === 403) return ACTIONS_BOT_LOGIN;
    if (typeof data?.login !== 'string')
      throw new HostError("GitHub's GET /user names no login: check GITHUB_API_URL", undefined);
    return data.login;
  }

  // https://docs.github.com/en/rest/issues/comments#list-issue-comments
  async listComments(number: number): Promise<HostComment[]> {
    const path = `${this.repo}/issues/${number}/comments`;
    return (await this.api.all<GitHubComment>(`listing the comments of #${number}`, path)).map(comment);
  }

  // https://docs.github.com/en/rest/issues/comments#create-an-issue-comment
  async createComment(number: number, body: string): Promise<HostComment> {
    const path = `${this.repo}/issues/${number}/comments`;
    return comment(await this.api.write<GitHubComment>(`commenting on #${number}`, path, 'POST', { body }));
  }

  // https://docs.github.com/en/rest/issues/comments#update-an-issue-comment
  async editComment(number: number, id: HostComment['id'], body: string): Promise<HostComment> {
    const path = `${this.repo}/issues/comments/${segment(String(id))}`;
    return comment(
      await this.api.write<GitHubComment>(`updating comment ${id} of #${number}`, path, 'PATCH', { body }),
    );
  }

  // https://docs.github.com/en/rest/issues/comments#delete-an-issue-comment
  async deleteComment(number: number, id: HostComment['id']): Promise<void> {
    const path = `${this.repo}/issues/comments/${segment(String(id))}`;
    await this.api.write(`deleting comment ${id} of #${number}`, path, 'DELETE');
  }

  // https://docs.github.com/en/rest/repos/contents#get-repository-content — the raw media type, up to 100 MB.
  fileAt(path: string, sha: string): Promise<string | null> {
    return this.api.optional<string>(
      `reading ${path} at ${sha.slice(0, 12)}`,
      `${this.repo}/contents/${pathSegments(path)}`,
      {
        query: { ref: sha },
        text: true,
        accept: 'application/vnd.github.raw+json',
      },
    );
  }

  // https://docs.github.com/en/rest/git/commits#get-a-commit-object
  async commitExists(sha: string): Promise<void> {
    await this.api.call(`reading commit ${sha.slice(0, 12)}`, `${this.repo}/git/commits/${segment(sha)}`);
  }

  // https://docs.github.com/en/rest/issues/labels#remove-a-label-from-an-issue
  async removeLabel(number: number, label: string): Promise<void> {
    const path = `${this.repo}/issues/${number}/labels/${segment(label)}`;
    await this.api.write(`removing the label '${label}' from #${number}`, path, 'DELETE');
  }

  /**
   * As the Action decides it (src/action/comment.ts): when the label was last added, by
   * https://docs.github.com/en/rest/issues/events#list-issue-events (`labeled`, created_at), and the heads the pull
   * request had, by its pull_request workflow runs on the head branch and repository
   * (https://docs.github.com/en/rest/actions/workflow-runs#list-workflow-runs-for-a-repository: head_sha, created_at;
   * the token needs `actions: read`). Committer dates are the author's and are never read.
   */
  async headWhenLabelled(number: number, label: string): Promise<string | null> {
    const events = await this.api.all<{ event?: unknown; created_at?: unknown; label?: { name?: unknown } | null }>(
      `listing the events of #${number}`,
      `${this.repo}/issues/${number}/events`,
    );
    const added = events
      .filter((e) => e.event === 'labeled' && e.label?.name === label)
      .map((e) => Date.parse(text(e.created_at)));
    if (added.length === 0) return null;
    const pr = await this.pull(number);
    const runs = await this.api.all<{
      head_sha?: unknown;
      created_at?: unknown;
      head_repository?: { full_name?: unknown } | null;
    }>(
      `listing the pull_request runs of #${number}`,
      `${this.repo}/actions/runs`,
      { event: 'pull_request', branch: text(pr.head?.ref) },
      'workflow_runs',
    );
    const heads = runs.filter((r) => text(r.head_repository?.full_name) === text(pr.head?.repo?.full_name));
    return headWhen(
      added,
      heads.map((r) => ({ head: text(r.head_sha), at: Date.parse(text(r.created_at)) })),
    );
  }
}

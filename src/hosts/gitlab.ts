// GitLab's REST API v4 behind the Host interface: merge requests, their notes, files at a commit, labels.
// Every endpoint below is as documented on docs.gitlab.com (the page is cited at each call).
import { Api, baseShaOf, headWhen, labelNames, segment, text } from './http.js';
import { HostError, type ChangeRequest, type Host, type HostComment } from './types.js';

/** GITLAB_TOKEN: a project or personal access token. CI_JOB_TOKEN cannot post notes (docs.gitlab.com/ci/jobs/ci_job_token). */
export const GITLAB_TOKEN = {
  variable: 'GITLAB_TOKEN',
  read: 'the `read_api` scope',
  write: 'the `api` scope (a project or personal access token; CI_JOB_TOKEN cannot post notes)',
};

interface GitLabNote {
  id: number;
  body?: unknown;
  system?: unknown;
  author?: { username?: unknown };
}

interface GitLabMergeRequest {
  iid?: unknown;
  sha?: unknown;
  target_branch?: unknown;
  labels?: unknown;
  diff_refs?: { base_sha?: unknown; head_sha?: unknown } | null;
}

/**
 * `project` is CI_PROJECT_ID or the project's full path (`group/sub/project`); `base` is CI_API_V4_URL
 * (https://gitlab.example.com/api/v4). Authentication: the `PRIVATE-TOKEN` header
 * (https://docs.gitlab.com/api/rest/authentication/#personalprojectgroup-access-tokens).
 */
export function gitLabHost(options: { base: string; project: string; token: string }): Host {
  return new GitLabHost(options);
}

const note = (n: GitLabNote): HostComment => ({ id: n.id, body: text(n.body), author: text(n.author?.username) });

class GitLabHost implements Host {
  readonly name = 'gitlab' as const;
  readonly noun = 'merge request';
  readonly commentNoun = 'note';
  readonly token = GITLAB_TOKEN;
  private readonly api: Api;
  private readonly project: string;

  constructor(options: { base: string; project: string; token: string }) {
    const auth = { 'PRIVATE-TOKEN': options.token };
    this.api = new Api({ label: 'GitLab', base: options.base, auth, token: GITLAB_TOKEN, secret: options.token });
    this.project = `projects/${segment(options.project)}`;
  }

  private mr(iid: number): string {
    return `${this.project}/merge_requests/${iid}`;
  }

  // https://docs.gitlab.com/api/merge_requests/#get-single-mr — diff_refs.base_sha is the merge base the diff is against.
  async changeRequest(iid: number): Promise<ChangeRequest> {
    const { data } = await this.api.call<GitLabMergeRequest>(`reading merge request !${iid}`, this.mr(iid));
    if (typeof data.diff_refs?.base_sha !== 'string')
      throw new HostError(
        `merge request !${iid} has no diff_refs.base_sha yet (GitLab computes it after the first push): re-run the pipeline, or pass --base-sha`,
        undefined,
      );
    return {
      number: iid,
      baseSha: baseShaOf(data.diff_refs.base_sha, `merge request !${iid} (diff_refs.base_sha)`),
      headSha: text(data.diff_refs?.head_sha ?? data.sha),
      targetBranch: text(data.target_branch),
      labels: labelNames(data.labels),
    };
  }

  // https://docs.gitlab.com/api/users/#get-the-current-user
  tokenLogin(): Promise<string> {
    return this.api.login('username', 'CI_API_V4_URL');
  }

  // https://docs.gitlab.com/api/notes/#list-all-merge-request-notes — system notes ("added 1 commit") are GitLab's own.
  async listComments(iid: number): Promise<HostComment[]> {
    const query = { sort: 'asc', order_by: 'created_at' };
    const notes = await this.api.all<GitLabNote>(`listing the notes of !${iid}`, `${this.mr(iid)}/notes`, query);
    return notes.filter((n) => n.system !== true).map(note);
  }

  // https://docs.gitlab.com/api/notes/#create-new-merge-request-note
  async createComment(iid: number, body: string): Promise<HostComment> {
    return note(
      await this.api.write<GitLabNote>(`posting a note on !${iid}`, `${this.mr(iid)}/notes`, 'POST', { body }),
    );
  }

  // https://docs.gitlab.com/api/notes/#modify-existing-merge-request-note
  async editComment(iid: number, id: HostComment['id'], body: string): Promise<HostComment> {
    const path = `${this.mr(iid)}/notes/${segment(String(id))}`;
    return note(await this.api.write<GitLabNote>(`editing note ${id} of !${iid}`, path, 'PUT', { body }));
  }

  // https://docs.gitlab.com/api/notes/#delete-a-merge-request-note
  async deleteComment(iid: number, id: HostComment['id']): Promise<void> {
    await this.api.write(`deleting note ${id} of !${iid}`, `${this.mr(iid)}/notes/${segment(String(id))}`, 'DELETE');
  }

  // https://docs.gitlab.com/api/repository_files/#get-raw-file-from-repository — :file_path URL-encoded, slashes too.
  fileAt(path: string, sha: string): Promise<string | null> {
    return this.api.optional<string>(
      `reading ${path} at ${sha.slice(0, 12)}`,
      `${this.project}/repository/files/${segment(path)}/raw`,
      { query: { ref: sha }, text: true },
    );
  }

  // https://docs.gitlab.com/api/commits/#get-a-single-commit
  async commitExists(sha: string): Promise<void> {
    await this.api.call(`reading commit ${sha.slice(0, 12)}`, `${this.project}/repository/commits/${segment(sha)}`);
  }

  // https://docs.gitlab.com/api/merge_requests/#update-mr — remove_labels: comma-separated names.
  async removeLabel(iid: number, label: string): Promise<void> {
    await this.api.write(`removing the label '${label}' from !${iid}`, this.mr(iid), 'PUT', { remove_labels: label });
  }

  // https://docs.gitlab.com/api/resource_label_events/#list-project-merge-request-label-events and
  // https://docs.gitlab.com/api/merge_requests/#get-merge-request-diff-versions (one version per push, head_commit_sha).
  async headWhenLabelled(iid: number, label: string): Promise<string | null> {
    const events = await this.api.all<{ action?: unknown; created_at?: unknown; label?: { name?: unknown } | null }>(
      `reading the label events of !${iid}`,
      `${this.mr(iid)}/resource_label_events`,
    );
    const added = events
      .filter((e) => e.action === 'add' && e.label?.name === label)
      .map((e) => Date.parse(text(e.created_at)));
    if (added.length === 0) return null;
    const versions = await this.api.all<{ head_commit_sha?: unknown; created_at?: unknown }>(
      `reading the versions of !${iid}`,
      `${this.mr(iid)}/versions`,
    );
    return headWhen(
      added,
      versions.map((v) => ({ head: text(v.head_commit_sha), at: Date.parse(text(v.created_at)) })),
    );
  }
}

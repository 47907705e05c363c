// GitLab's REST API v4 behind the Host interface: merge requests, their notes, files at a commit, labels.
// Every endpoint below is as documented on docs.gitlab.com (the page is cited at each call).
import { Api, segment } from './http.js';
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

const SHA = /^[0-9a-f]{40}$/;

/**
 * `project` is CI_PROJECT_ID or the project's full path (`group/sub/project`); `base` is CI_API_V4_URL
 * (https://gitlab.example.com/api/v4). Authentication: the `PRIVATE-TOKEN` header
 * (https://docs.gitlab.com/api/rest/authentication/#personalprojectgroup-access-tokens).
 */
export function gitLabHost(options: { base: string; project: string; token: string }): Host {
  const api = new Api({
    label: 'GitLab',
    base: options.base,
    auth: { 'PRIVATE-TOKEN': options.token },
    token: GITLAB_TOKEN,
    secret: options.token,
  });
  const project = `projects/${segment(options.project)}`;
  const mr = (iid: number): string => `${project}/merge_requests/${iid}`;
  const note = (n: GitLabNote): HostComment => ({
    id: n.id,
    body: typeof n.body === 'string' ? n.body : '',
    author: typeof n.author?.username === 'string' ? n.author.username : '',
  });

  return {
    name: 'gitlab',
    noun: 'merge request',
    commentNoun: 'note',
    token: GITLAB_TOKEN,

    // https://docs.gitlab.com/api/merge_requests/#get-single-mr — diff_refs.base_sha is the merge base the diff is against.
    async changeRequest(iid) {
      const { data } = await api.call<GitLabMergeRequest>(`reading merge request !${iid}`, mr(iid));
      const base = data.diff_refs?.base_sha;
      const head = data.diff_refs?.head_sha ?? data.sha;
      if (typeof base !== 'string' || !SHA.test(base)) {
        throw new HostError(
          `merge request !${iid} has no diff_refs.base_sha yet (GitLab computes it after the first push): re-run the pipeline, or pass --base-sha`,
          undefined,
        );
      }
      return {
        number: iid,
        baseSha: base,
        headSha: typeof head === 'string' ? head : '',
        targetBranch: typeof data.target_branch === 'string' ? data.target_branch : '',
        labels: Array.isArray(data.labels) ? data.labels.filter((l): l is string => typeof l === 'string') : [],
      } satisfies ChangeRequest;
    },

    // https://docs.gitlab.com/api/users/#get-the-current-user
    async tokenLogin() {
      const { data } = await api.call<{ username?: unknown }>("reading the token's user (GET /user)", 'user');
      if (typeof data?.username !== 'string')
        throw new HostError("GitLab's GET /user names no username: check CI_API_V4_URL", undefined);
      return data.username;
    },

    // https://docs.gitlab.com/api/notes/#list-all-merge-request-notes — system notes ("added 1 commit") are GitLab's own.
    async listComments(iid) {
      const notes = await api.all<GitLabNote>(`listing the notes of !${iid}`, `${mr(iid)}/notes`, {
        sort: 'asc',
        order_by: 'created_at',
      });
      return notes.filter((n) => n.system !== true).map(note);
    },

    // https://docs.gitlab.com/api/notes/#create-new-merge-request-note
    async createComment(iid, body) {
      const { data } = await api.call<GitLabNote>(`posting a note on !${iid}`, `${mr(iid)}/notes`, {
        method: 'POST',
        body: { body },
        needs: 'write',
      });
      return note(data);
    },

    // https://docs.gitlab.com/api/notes/#modify-existing-merge-request-note
    async editComment(iid, id, body) {
      const { data } = await api.call<GitLabNote>(`editing note ${id} of !${iid}`, `${mr(iid)}/notes/${id}`, {
        method: 'PUT',
        body: { body },
        needs: 'write',
      });
      return note(data);
    },

    // https://docs.gitlab.com/api/notes/#delete-a-merge-request-note
    async deleteComment(iid, id) {
      await api.call(`deleting note ${id} of !${iid}`, `${mr(iid)}/notes/${id}`, { method: 'DELETE', needs: 'write' });
    },

    // https://docs.gitlab.com/api/repository_files/#get-raw-file-from-repository — :file_path URL-encoded, slashes too.
    async fileAt(path, sha) {
      const { status, data } = await api.call<string>(
        `reading ${path} at ${sha.slice(0, 12)}`,
        `${project}/repository/files/${segment(path)}/raw`,
        { query: { ref: sha }, text: true, expect: [404] },
      );
      return status === 404 ? null : data;
    },

    // https://docs.gitlab.com/api/commits/#get-a-single-commit
    async commitExists(sha) {
      await api.call(`reading commit ${sha.slice(0, 12)}`, `${project}/repository/commits/${segment(sha)}`);
    },

    // https://docs.gitlab.com/api/merge_requests/#update-mr — remove_labels: comma-separated names.
    async removeLabel(iid, label) {
      await api.call(`removing the label '${label}' from !${iid}`, mr(iid), {
        method: 'PUT',
        body: { remove_labels: label },
        needs: 'write',
      });
    },

    // https://docs.gitlab.com/api/resource_label_events/#list-project-merge-request-label-events and
    // https://docs.gitlab.com/api/merge_requests/#get-merge-request-diff-versions (one version per push, head_commit_sha).
    async headWhenLabelled(iid, label) {
      const events = await api.all<{ action?: unknown; created_at?: unknown; label?: { name?: unknown } | null }>(
        `reading the label events of !${iid}`,
        `${mr(iid)}/resource_label_events`,
      );
      const added = events
        .filter((e) => e.action === 'add' && e.label?.name === label && typeof e.created_at === 'string')
        .map((e) => Date.parse(e.created_at as string));
      if (added.length === 0) return null;
      const at = Math.max(...added);
      const versions = await api.all<{ head_commit_sha?: unknown; created_at?: unknown }>(
        `reading the versions of !${iid}`,
        `${mr(iid)}/versions`,
      );
      const pushes = versions
        .filter((v) => typeof v.head_commit_sha === 'string' && typeof v.created_at === 'string')
        .map((v) => ({ head: v.head_commit_sha as string, at: Date.parse(v.created_at as string) }))
        .sort((a, b) => a.at - b.at);
      // The head when the label was set: the last push before it; a merge request opened with the label, its first.
      return (pushes.filter((p) => p.at <= at).at(-1) ?? pushes[0])?.head ?? null;
    },
  };
}

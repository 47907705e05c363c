import { A as Api, s as segment } from './http.js';
import { H as HostError } from './types2.js';
import './errors.js';

const GITLAB_TOKEN = {
    variable: 'GITLAB_TOKEN',
    read: 'the `read_api` scope',
    write: 'the `api` scope (a project or personal access token; CI_JOB_TOKEN cannot post notes)',
};
const SHA = /^[0-9a-f]{40}$/;
function gitLabHost(options) {
    const api = new Api({
        label: 'GitLab',
        base: options.base,
        auth: { 'PRIVATE-TOKEN': options.token },
        token: GITLAB_TOKEN,
        secret: options.token,
    });
    const project = `projects/${segment(options.project)}`;
    const mr = (iid) => `${project}/merge_requests/${iid}`;
    const note = (n) => ({
        id: n.id,
        body: typeof n.body === 'string' ? n.body : '',
        author: typeof n.author?.username === 'string' ? n.author.username : '',
    });
    return {
        name: 'gitlab',
        noun: 'merge request',
        commentNoun: 'note',
        token: GITLAB_TOKEN,
        async changeRequest(iid) {
            const { data } = await api.call(`reading merge request !${iid}`, mr(iid));
            const base = data.diff_refs?.base_sha;
            const head = data.diff_refs?.head_sha ?? data.sha;
            if (typeof base !== 'string' || !SHA.test(base)) {
                throw new HostError(`merge request !${iid} has no diff_refs.base_sha yet (GitLab computes it after the first push): re-run the pipeline, or pass --base-sha`, undefined);
            }
            return {
                number: iid,
                baseSha: base,
                headSha: typeof head === 'string' ? head : '',
                targetBranch: typeof data.target_branch === 'string' ? data.target_branch : '',
                labels: Array.isArray(data.labels) ? data.labels.filter((l) => typeof l === 'string') : [],
            };
        },
        async tokenLogin() {
            const { data } = await api.call("reading the token's user (GET /user)", 'user');
            if (typeof data?.username !== 'string')
                throw new HostError("GitLab's GET /user names no username: check CI_API_V4_URL", undefined);
            return data.username;
        },
        async listComments(iid) {
            const notes = await api.all(`listing the notes of !${iid}`, `${mr(iid)}/notes`, {
                sort: 'asc',
                order_by: 'created_at',
            });
            return notes.filter((n) => n.system !== true).map(note);
        },
        async createComment(iid, body) {
            const { data } = await api.call(`posting a note on !${iid}`, `${mr(iid)}/notes`, {
                method: 'POST',
                body: { body },
                needs: 'write',
            });
            return note(data);
        },
        async editComment(iid, id, body) {
            const { data } = await api.call(`editing note ${id} of !${iid}`, `${mr(iid)}/notes/${id}`, {
                method: 'PUT',
                body: { body },
                needs: 'write',
            });
            return note(data);
        },
        async deleteComment(iid, id) {
            await api.call(`deleting note ${id} of !${iid}`, `${mr(iid)}/notes/${id}`, { method: 'DELETE', needs: 'write' });
        },
        async fileAt(path, sha) {
            const { status, data } = await api.call(`reading ${path} at ${sha.slice(0, 12)}`, `${project}/repository/files/${segment(path)}/raw`, { query: { ref: sha }, text: true, expect: [404] });
            return status === 404 ? null : data;
        },
        async commitExists(sha) {
            await api.call(`reading commit ${sha.slice(0, 12)}`, `${project}/repository/commits/${segment(sha)}`);
        },
        async removeLabel(iid, label) {
            await api.call(`removing the label '${label}' from !${iid}`, mr(iid), {
                method: 'PUT',
                body: { remove_labels: label },
                needs: 'write',
            });
        },
        async headWhenLabelled(iid, label) {
            const events = await api.all(`reading the label events of !${iid}`, `${mr(iid)}/resource_label_events`);
            const added = events
                .filter((e) => e.action === 'add' && e.label?.name === label && typeof e.created_at === 'string')
                .map((e) => Date.parse(e.created_at));
            if (added.length === 0)
                return null;
            const at = Math.max(...added);
            const versions = await api.all(`reading the versions of !${iid}`, `${mr(iid)}/versions`);
            const pushes = versions
                .filter((v) => typeof v.head_commit_sha === 'string' && typeof v.created_at === 'string')
                .map((v) => ({ head: v.head_commit_sha, at: Date.parse(v.created_at) }))
                .sort((a, b) => a.at - b.at);
            return (pushes.filter((p) => p.at <= at).at(-1) ?? pushes[0])?.head ?? null;
        },
    };
}

export { GITLAB_TOKEN, gitLabHost };

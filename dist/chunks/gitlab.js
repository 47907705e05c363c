import { A as Api, s as segment, l as labelNames, t as text, b as baseShaOf, h as headWhen } from './http.js';
import { H as HostError } from './types2.js';
import './errors.js';

const GITLAB_TOKEN = {
    variable: 'GITLAB_TOKEN',
    read: 'the `read_api` scope',
    write: 'the `api` scope (a project or personal access token; CI_JOB_TOKEN cannot post notes)',
};
function gitLabHost(options) {
    return new GitLabHost(options);
}
const note = (n) => ({ id: n.id, body: text(n.body), author: text(n.author?.username) });
class GitLabHost {
    name = 'gitlab';
    noun = 'merge request';
    commentNoun = 'note';
    token = GITLAB_TOKEN;
    api;
    project;
    constructor(options) {
        const auth = { 'PRIVATE-TOKEN': options.token };
        this.api = new Api({ label: 'GitLab', base: options.base, auth, token: GITLAB_TOKEN, secret: options.token });
        this.project = `projects/${segment(options.project)}`;
    }
    mr(iid) {
        return `${this.project}/merge_requests/${iid}`;
    }
    async changeRequest(iid) {
        const { data } = await this.api.call(`reading merge request !${iid}`, this.mr(iid));
        if (typeof data.diff_refs?.base_sha !== 'string')
            throw new HostError(`merge request !${iid} has no diff_refs.base_sha yet (GitLab computes it after the first push): re-run the pipeline, or pass --base-sha`, undefined);
        return {
            number: iid,
            baseSha: baseShaOf(data.diff_refs.base_sha, `merge request !${iid} (diff_refs.base_sha)`),
            headSha: text(data.diff_refs?.head_sha ?? data.sha),
            targetBranch: text(data.target_branch),
            labels: labelNames(data.labels),
        };
    }
    tokenLogin() {
        return this.api.login('username', 'CI_API_V4_URL');
    }
    async listComments(iid) {
        const query = { sort: 'asc', order_by: 'created_at' };
        const notes = await this.api.all(`listing the notes of !${iid}`, `${this.mr(iid)}/notes`, query);
        return notes.filter((n) => n.system !== true).map(note);
    }
    async createComment(iid, body) {
        return note(await this.api.write(`posting a note on !${iid}`, `${this.mr(iid)}/notes`, 'POST', { body }));
    }
    async editComment(iid, id, body) {
        const path = `${this.mr(iid)}/notes/${segment(String(id))}`;
        return note(await this.api.write(`editing note ${id} of !${iid}`, path, 'PUT', { body }));
    }
    async deleteComment(iid, id) {
        await this.api.write(`deleting note ${id} of !${iid}`, `${this.mr(iid)}/notes/${segment(String(id))}`, 'DELETE');
    }
    fileAt(path, sha) {
        return this.api.optional(`reading ${path} at ${sha.slice(0, 12)}`, `${this.project}/repository/files/${segment(path)}/raw`, { query: { ref: sha }, text: true });
    }
    async commitExists(sha) {
        await this.api.call(`reading commit ${sha.slice(0, 12)}`, `${this.project}/repository/commits/${segment(sha)}`);
    }
    async removeLabel(iid, label) {
        await this.api.write(`removing the label '${label}' from !${iid}`, this.mr(iid), 'PUT', { remove_labels: label });
    }
    async headWhenLabelled(iid, label) {
        const events = await this.api.all(`reading the label events of !${iid}`, `${this.mr(iid)}/resource_label_events`);
        const added = events
            .filter((e) => e.action === 'add' && e.label?.name === label)
            .map((e) => Date.parse(text(e.created_at)));
        if (added.length === 0)
            return null;
        const versions = await this.api.all(`reading the versions of !${iid}`, `${this.mr(iid)}/versions`);
        return headWhen(added, versions.map((v) => ({ head: text(v.head_commit_sha), at: Date.parse(text(v.created_at)) })));
    }
}

export { GITLAB_TOKEN, gitLabHost };

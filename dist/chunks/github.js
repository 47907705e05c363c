import { ACTIONS_BOT_LOGIN } from './comment.js';
import { A as Api, s as segment, l as labelNames, t as text, b as baseShaOf, p as pathSegments, h as headWhen } from './http.js';
import { H as HostError } from './types2.js';
import './errors.js';

const GITHUB_TOKEN = {
    variable: 'GITHUB_TOKEN',
    read: '`contents: read` and `pull-requests: read`',
    write: '`pull-requests: write`',
};
function gitHubHost(options) {
    return new GitHubHost(options);
}
const comment = (c) => ({ id: c.id, body: text(c.body), author: text(c.user?.login) });
class GitHubHost {
    name = 'github';
    noun = 'pull request';
    commentNoun = 'comment';
    token = GITHUB_TOKEN;
    api;
    repo;
    constructor(options) {
        const auth = { Authorization: `Bearer ${options.token}`, 'X-GitHub-Api-Version': '2022-11-28' };
        this.api = new Api({ label: 'GitHub', base: options.base, auth, token: GITHUB_TOKEN, secret: options.token });
        const [owner = '', name = ''] = options.repo.split('/');
        this.repo = `repos/${segment(owner)}/${segment(name)}`;
    }
    pull(number) {
        return this.api
            .call(`reading pull request #${number}`, `${this.repo}/pulls/${number}`)
            .then((a) => a.data);
    }
    async changeRequest(number) {
        const data = await this.pull(number);
        return {
            number,
            baseSha: baseShaOf(data.base?.sha, `pull request #${number} (base.sha)`),
            headSha: text(data.head?.sha),
            targetBranch: text(data.base?.ref),
            labels: labelNames(data.labels),
        };
    }
    async tokenLogin() {
        const { status, data } = await this.api.call("reading the token's user (GET /user)", 'user', {
            expect: [403],
        });
        if (status === 403)
            return ACTIONS_BOT_LOGIN;
        if (typeof data?.login !== 'string')
            throw new HostError("GitHub's GET /user names no login: check GITHUB_API_URL", undefined);
        return data.login;
    }
    async listComments(number) {
        const path = `${this.repo}/issues/${number}/comments`;
        return (await this.api.all(`listing the comments of #${number}`, path)).map(comment);
    }
    async createComment(number, body) {
        const path = `${this.repo}/issues/${number}/comments`;
        return comment(await this.api.write(`commenting on #${number}`, path, 'POST', { body }));
    }
    async editComment(number, id, body) {
        const path = `${this.repo}/issues/comments/${segment(String(id))}`;
        return comment(await this.api.write(`updating comment ${id} of #${number}`, path, 'PATCH', { body }));
    }
    async deleteComment(number, id) {
        const path = `${this.repo}/issues/comments/${segment(String(id))}`;
        await this.api.write(`deleting comment ${id} of #${number}`, path, 'DELETE');
    }
    fileAt(path, sha) {
        return this.api.optional(`reading ${path} at ${sha.slice(0, 12)}`, `${this.repo}/contents/${pathSegments(path)}`, {
            query: { ref: sha },
            text: true,
            accept: 'application/vnd.github.raw+json',
        });
    }
    async commitExists(sha) {
        await this.api.call(`reading commit ${sha.slice(0, 12)}`, `${this.repo}/git/commits/${segment(sha)}`);
    }
    async removeLabel(number, label) {
        const path = `${this.repo}/issues/${number}/labels/${segment(label)}`;
        await this.api.write(`removing the label '${label}' from #${number}`, path, 'DELETE');
    }
    async headWhenLabelled(number, label) {
        const events = await this.api.all(`listing the events of #${number}`, `${this.repo}/issues/${number}/events`);
        const added = events
            .filter((e) => e.event === 'labeled' && e.label?.name === label)
            .map((e) => Date.parse(text(e.created_at)));
        if (added.length === 0)
            return null;
        const pr = await this.pull(number);
        const runs = await this.api.all(`listing the pull_request runs of #${number}`, `${this.repo}/actions/runs`, { event: 'pull_request', branch: text(pr.head?.ref) }, 'workflow_runs');
        const heads = runs.filter((r) => text(r.head_repository?.full_name) === text(pr.head?.repo?.full_name));
        return headWhen(added, heads.map((r) => ({ head: text(r.head_sha), at: Date.parse(text(r.created_at)) })));
    }
}

export { GITHUB_TOKEN, gitHubHost };

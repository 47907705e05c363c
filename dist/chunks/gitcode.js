import { A as Api, s as segment, l as labelNames, t as text, b as baseShaOf, p as pathSegments } from './http.js';
import { H as HostError } from './types2.js';
import './errors.js';

const GITCODE_TOKEN = {
    variable: 'GITCODE_TOKEN',
    read: 'read access to the repository',
    write: 'the pull-request write permission (a personal access token of a member who may comment)',
};
const GITCODE_API = 'https://api.gitcode.com/api/v5';
function commentId(value, fallback) {
    return typeof value === 'number' || (typeof value === 'string' && value !== '') ? value : fallback;
}
function comment(c, fallback) {
    return {
        id: commentId(c?.id, fallback.id),
        body: typeof c?.body === 'string' ? c.body : fallback.body,
        author: text(c?.user?.login),
    };
}
function labelAndPushTimes(logs, label) {
    const added = [];
    const pushes = [];
    for (const log of logs) {
        const action = text(log.action);
        const content = text(log.content);
        const at = Date.parse(text(log.created_at));
        if (!Number.isFinite(at))
            continue;
        if (/label/i.test(action) && !/remov|delet/i.test(`${action} ${content}`) && content.includes(label))
            added.push(at);
        else if (/push|commit|source_branch/i.test(`${action} ${content}`))
            pushes.push(at);
    }
    return { added, pushes };
}
function gitCodeHost(options) {
    return new GitCodeHost(options);
}
class GitCodeHost {
    name = 'gitcode';
    noun = 'pull request';
    commentNoun = 'comment';
    token;
    api;
    repo;
    constructor(options) {
        this.token = { ...GITCODE_TOKEN, variable: options.variable ?? GITCODE_TOKEN.variable };
        const auth = { Authorization: `Bearer ${options.token}` };
        this.api = new Api({ label: 'GitCode', base: options.base, auth, token: this.token, secret: options.token });
        const [owner = '', name = ''] = options.repo.split('/');
        this.repo = `repos/${segment(owner)}/${segment(name)}`;
    }
    pull(n) {
        return `${this.repo}/pulls/${n}`;
    }
    async changeRequest(number) {
        const attempt = `reading pull request #${number}`;
        const { data } = await this.api.call(attempt, this.pull(number));
        return {
            number,
            baseSha: baseShaOf(data.base?.sha, `GitCode's pull request #${number} (base.sha)`),
            headSha: text(data.head?.sha),
            targetBranch: text(data.base?.ref),
            labels: labelNames(data.labels),
        };
    }
    tokenLogin() {
        return this.api.login('login', 'GITCODE_API_URL');
    }
    async listComments(number) {
        const list = await this.api.all(`listing the comments of #${number}`, `${this.pull(number)}/comments`);
        return list.map((c) => comment(c, { id: '', body: '' }));
    }
    async createComment(number, body) {
        const path = `${this.pull(number)}/comments`;
        const data = await this.api.write(`commenting on #${number}`, path, 'POST', { body });
        if (data === null || commentId(data.id, '') === '')
            throw new HostError(`GitCode's answer to commenting on #${number} names no comment id`, undefined);
        return comment(data, { id: '', body });
    }
    async editComment(number, id, body) {
        const path = `${this.repo}/pulls/comments/${segment(String(id))}`;
        const data = await this.api.write(`editing comment ${id} of #${number}`, path, 'PATCH', {
            body,
        });
        return comment(data, { id, body });
    }
    async deleteComment(number, id) {
        const path = `${this.repo}/pulls/comments/${segment(String(id))}`;
        await this.api.write(`deleting comment ${id} of #${number}`, path, 'DELETE');
    }
    async fileAt(path, sha) {
        const at = `${path} at ${sha.slice(0, 12)}`;
        const data = await this.api.optional(`reading ${at}`, `${this.repo}/contents/${pathSegments(path)}`, { query: { ref: sha } });
        if (Array.isArray(data))
            throw new HostError(`${at} is a folder on GitCode, not a file`, undefined);
        if (data === null || typeof data !== 'object' || Object.keys(data).length === 0)
            return null;
        if (typeof data.content !== 'string')
            throw new HostError(`GitCode's answer for ${at} has no content`, undefined);
        return data.encoding === 'base64' ? Buffer.from(data.content, 'base64').toString('utf8') : data.content;
    }
    async commitExists(sha) {
        await this.api.call(`reading commit ${sha.slice(0, 12)}`, `${this.repo}/commits/${segment(sha)}`);
    }
    async removeLabel(number, label) {
        const path = `${this.pull(number)}/labels/${segment(label)}`;
        await this.api.write(`removing the label '${label}' from #${number}`, path, 'DELETE');
    }
    async headWhenLabelled(number, label) {
        const logs = await this.api.all(`reading the operation log of #${number}`, `${this.pull(number)}/operate_logs`, {
            sort: 'asc',
        });
        const { added, pushes } = labelAndPushTimes(logs, label);
        if (added.length === 0)
            return null;
        const at = Math.max(...added);
        if (pushes.some((p) => p > at))
            return { unknown: "a push was logged after the label was set, and GitCode's log names no commit" };
        return (await this.changeRequest(number)).headSha || null;
    }
}

export { GITCODE_API, GITCODE_TOKEN, gitCodeHost };

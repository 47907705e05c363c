import { ACTIONS_BOT_LOGIN } from './comment.js';
import { A as Api, s as segment, p as pathSegments } from './http.js';
import { H as HostError } from './types2.js';
import './errors.js';

const GITHUB_TOKEN = {
    variable: 'GITHUB_TOKEN',
    read: '`contents: read` and `pull-requests: read`',
    write: '`pull-requests: write`',
};
const SHA = /^[0-9a-f]{40}$/;
function gitHubHost(options) {
    const api = new Api({
        label: 'GitHub',
        base: options.base,
        auth: { Authorization: `Bearer ${options.token}`, 'X-GitHub-Api-Version': '2022-11-28' },
        token: GITHUB_TOKEN,
        secret: options.token,
    });
    const [owner = '', name = ''] = options.repo.split('/');
    const repo = `repos/${segment(owner)}/${segment(name)}`;
    const comment = (c) => ({
        id: c.id,
        body: typeof c.body === 'string' ? c.body : '',
        author: typeof c.user?.login === 'string' ? c.user.login : '',
    });
    return {
        name: 'github',
        noun: 'pull request',
        commentNoun: 'comment',
        token: GITHUB_TOKEN,
        async changeRequest(number) {
            const { data } = await api.call(`reading pull request #${number}`, `${repo}/pulls/${number}`);
            const base = data.base?.sha;
            if (typeof base !== 'string' || !SHA.test(base))
                throw new HostError(`pull request #${number} names no base commit (base.sha)`, undefined);
            return {
                number,
                baseSha: base,
                headSha: typeof data.head?.sha === 'string' ? data.head.sha : '',
                targetBranch: typeof data.base?.ref === 'string' ? data.base.ref : '',
                labels: (data.labels ?? []).map((l) => l.name).filter((l) => typeof l === 'string'),
            };
        },
        async tokenLogin() {
            const { status, data } = await api.call("reading the token's user (GET /user)", 'user', {
                expect: [403],
            });
            if (status === 403)
                return ACTIONS_BOT_LOGIN;
            if (typeof data?.login !== 'string')
                throw new HostError("GitHub's GET /user names no login: check GITHUB_API_URL", undefined);
            return data.login;
        },
        async listComments(number) {
            return (await api.all(`listing the comments of #${number}`, `${repo}/issues/${number}/comments`)).map(comment);
        },
        async createComment(number, body) {
            const { data } = await api.call(`commenting on #${number}`, `${repo}/issues/${number}/comments`, {
                method: 'POST',
                body: { body },
                needs: 'write',
            });
            return comment(data);
        },
        async editComment(number, id, body) {
            const { data } = await api.call(`updating comment ${id} of #${number}`, `${repo}/issues/comments/${id}`, { method: 'PATCH', body: { body }, needs: 'write' });
            return comment(data);
        },
        async deleteComment(number, id) {
            await api.call(`deleting comment ${id} of #${number}`, `${repo}/issues/comments/${id}`, {
                method: 'DELETE',
                needs: 'write',
            });
        },
        async fileAt(path, sha) {
            const { status, data } = await api.call(`reading ${path} at ${sha.slice(0, 12)}`, `${repo}/contents/${pathSegments(path)}`, { query: { ref: sha }, text: true, accept: 'application/vnd.github.raw+json', expect: [404] });
            return status === 404 ? null : data;
        },
        async commitExists(sha) {
            await api.call(`reading commit ${sha.slice(0, 12)}`, `${repo}/git/commits/${segment(sha)}`);
        },
        async removeLabel(number, label) {
            await api.call(`removing the label '${label}' from #${number}`, `${repo}/issues/${number}/labels/${segment(label)}`, { method: 'DELETE', needs: 'write' });
        },
    };
}

export { GITHUB_TOKEN, gitHubHost };

import { A as Api, s as segment, p as pathSegments } from './http.js';
import { H as HostError } from './types2.js';
import './errors.js';

const GITCODE_TOKEN = {
    variable: 'GITCODE_TOKEN',
    read: 'read access to the repository',
    write: 'the pull-request write permission (a personal access token of a member who may comment)',
};
const GITCODE_API = 'https://api.gitcode.com/api/v5';
const SHA = /^[0-9a-f]{40}$/;
function gitCodeHost(options) {
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
    const pull = (n) => `${repo}/pulls/${n}`;
    const comment = (c) => ({
        id: c.id,
        body: typeof c.body === 'string' ? c.body : '',
        author: typeof c.user?.login === 'string' ? c.user.login : '',
    });
    return {
        name: 'gitcode',
        noun: 'pull request',
        commentNoun: 'comment',
        token,
        async changeRequest(number) {
            const { data } = await api.call(`reading pull request #${number}`, pull(number));
            const base = data.base?.sha;
            if (typeof base !== 'string' || !SHA.test(base))
                throw new HostError(`GitCode's pull request #${number} names no base commit (base.sha): pass --base-sha`, undefined);
            const labels = Array.isArray(data.labels)
                ? data.labels.map((l) => l?.name).filter((l) => typeof l === 'string')
                : [];
            return {
                number,
                baseSha: base,
                headSha: typeof data.head?.sha === 'string' ? data.head.sha : '',
                targetBranch: typeof data.base?.ref === 'string' ? data.base.ref : '',
                labels,
            };
        },
        async tokenLogin() {
            const { data } = await api.call("reading the token's user (GET /user)", 'user');
            if (typeof data?.login !== 'string')
                throw new HostError("GitCode's GET /user names no login: check GITCODE_API_URL", undefined);
            return data.login;
        },
        async listComments(number) {
            return (await api.all(`listing the comments of #${number}`, `${pull(number)}/comments`)).map(comment);
        },
        async createComment(number, body) {
            const { data } = await api.call(`commenting on #${number}`, `${pull(number)}/comments`, {
                method: 'POST',
                body: { body },
                needs: 'write',
            });
            return comment(data);
        },
        async deleteComment(number, id) {
            await api.call(`deleting comment ${id} of #${number}`, `${repo}/pulls/comments/${id}`, {
                method: 'DELETE',
                needs: 'write',
            });
        },
        async fileAt(path, sha) {
            const { status, data } = await api.call(`reading ${path} at ${sha.slice(0, 12)}`, `${repo}/contents/${pathSegments(path)}`, {
                query: { ref: sha },
                expect: [404],
            });
            if (status === 404)
                return null;
            if (Array.isArray(data))
                throw new HostError(`${path} at ${sha.slice(0, 12)} is a folder on GitCode, not a file`, undefined);
            if (data === null || typeof data !== 'object' || Object.keys(data).length === 0)
                return null;
            if (typeof data.content !== 'string')
                throw new HostError(`GitCode's answer for ${path} at ${sha.slice(0, 12)} has no content`, undefined);
            return data.encoding === 'base64' ? Buffer.from(data.content, 'base64').toString('utf8') : data.content;
        },
        async commitExists(sha) {
            await api.call(`reading commit ${sha.slice(0, 12)}`, `${repo}/commits/${segment(sha)}`);
        },
        async removeLabel(number, label) {
            await api.call(`removing the label '${label}' from #${number}`, `${pull(number)}/labels/${segment(label)}`, {
                method: 'DELETE',
                needs: 'write',
            });
        },
    };
}

export { GITCODE_API, GITCODE_TOKEN, gitCodeHost };

import { ACTIONS_BOT_LOGIN } from '../chunks/comment.js';
import { h as httpStatus } from './shared.js';
import { g as gitHubCall } from './errors.js';
import { GITHUB_TOKEN } from '../chunks/github.js';
import '../index.js';
import 'os';
import 'crypto';
import 'fs';
import 'path';
import 'string_decoder';
import 'events';
import 'child_process';
import 'assert';
import 'timers';
import '../chunks/errors.js';
import '../chunks/thresholds.js';
import 'node:fs/promises';
import 'node:path';
import '../chunks/reader.js';
import '../chunks/_commonjsHelpers.js';
import 'node:crypto';
import '../chunks/evidence-sources.js';
import '../chunks/roll-up.js';
import '../chunks/index.js';
import '../chunks/limits.js';
import 'node:fs';
import 'url';
import 'module';
import '../chunks/oom-cause.js';
import '../chunks/keys.js';
import 'node:os';
import '../chunks/collect.js';
import '../chunks/worker-start.js';
import 'node:worker_threads';
import '../chunks/parse-protocol.js';
import 'node:url';
import '../chunks/http.js';
import '../chunks/types2.js';

const comment = (c) => ({
    id: c.id,
    body: c.body ?? '',
    author: c.user?.login ?? '',
    ...(c.html_url !== undefined ? { url: c.html_url } : {}),
});
function octokitHost(octokit, repo) {
    const { owner, repo: name } = repo;
    return {
        name: 'github',
        noun: 'pull request',
        commentNoun: 'comment',
        token: GITHUB_TOKEN,
        async listComments(number) {
            const comments = await gitHubCall(`listing the comments of #${number}`, 'pull-requests: read', () => octokit.paginate(octokit.rest.issues.listComments, { owner, repo: name, issue_number: number, per_page: 100 }));
            return comments.map(comment);
        },
        async tokenLogin() {
            try {
                return (await octokit.rest.users.getAuthenticated()).data.login;
            }
            catch (error) {
                if (httpStatus(error) === 403)
                    return ACTIONS_BOT_LOGIN;
                return gitHubCall("reading the token's identity (GET /user)", 'a valid token', () => Promise.reject(error));
            }
        },
        async createComment(number, body) {
            const { data } = await gitHubCall(`commenting on #${number}`, 'pull-requests: write', () => octokit.rest.issues.createComment({ owner, repo: name, issue_number: number, body }));
            return comment(data);
        },
        async editComment(_number, id, body) {
            const { data } = await gitHubCall(`updating comment ${id}`, 'pull-requests: write', () => octokit.rest.issues.updateComment({ owner, repo: name, comment_id: Number(id), body }));
            return comment(data);
        },
    };
}

export { octokitHost };

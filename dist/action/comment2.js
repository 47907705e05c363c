import { h as httpStatus } from './shared.js';
import { g as gitHubCall } from './errors.js';
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
import '../chunks/evidence-sources.js';
import '../chunks/local.js';
import 'node:fs';
import 'node:fs/promises';
import 'node:path';
import '../chunks/_commonjsHelpers.js';
import 'url';
import 'module';
import 'node:os';
import '../chunks/collect.js';
import '../chunks/parse-protocol.js';
import '../chunks/snapshot.js';
import '../chunks/units.js';
import '../chunks/series.js';
import '../chunks/worker-start.js';
import 'node:worker_threads';

function commentMarker(commentKey) {
    return `<!-- ascend-memory-gate:${commentKey} -->`;
}
async function upsertStickyComment(octokit, request) {
    const { owner, repo, issueNumber, body, marker, policy, hasFindings } = request;
    if (policy === 'never')
        return { action: 'skipped', reason: "comment is 'never'" };
    const comments = await gitHubCall(`listing the comments of #${issueNumber}`, 'pull-requests: read', () => octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 }));
    const marked = comments.filter((c) => isMarkedBy(c.body, marker));
    const login = marked.length === 0 ? undefined : await tokenLogin(octokit);
    const existing = marked.find((c) => c.user?.login === login);
    if (existing) {
        const { data } = await gitHubCall(`updating comment ${existing.id}`, 'pull-requests: write', () => octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body }));
        return { action: 'updated', id: data.id, url: data.html_url };
    }
    if (policy === 'on-change' && !hasFindings) {
        return { action: 'skipped', reason: 'everything passed and there is no earlier comment to update' };
    }
    const { data } = await gitHubCall(`commenting on #${issueNumber}`, 'pull-requests: write', () => octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body }));
    return { action: 'created', id: data.id, url: data.html_url };
}
function isMarkedBy(body, marker) {
    return typeof body === 'string' && body.startsWith(marker) && (body.length === marker.length || body[marker.length] === '\n' || body.startsWith('\r\n', marker.length));
}
const ACTIONS_BOT_LOGIN = 'github-actions[bot]';
async function tokenLogin(octokit) {
    try {
        return (await octokit.rest.users.getAuthenticated()).data.login;
    }
    catch (error) {
        if (httpStatus(error) === 403)
            return ACTIONS_BOT_LOGIN;
        return gitHubCall("reading the token's identity (GET /user)", 'a valid token', () => Promise.reject(error));
    }
}

export { ACTIONS_BOT_LOGIN, commentMarker, isMarkedBy, upsertStickyComment };

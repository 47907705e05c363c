import { h as httpStatus } from './shared.js';
import { g as gitHubCall, G as GitHubError } from './errors.js';
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

const READ = 'contents: read';
const WRITE = 'contents: write';
async function readFileAt(octokit, repo, filePath, ref) {
    const attempt = `reading ${filePath} at ${ref}`;
    let data;
    try {
        ({ data } = await octokit.rest.repos.getContent({ ...repo, path: filePath, ref, mediaType: { format: 'raw' } }));
    }
    catch (error) {
        if (httpStatus(error) === 404)
            return null;
        return gitHubCall(attempt, READ, () => Promise.reject(error));
    }
    if (typeof data === 'string')
        return data;
    if (data instanceof ArrayBuffer)
        return Buffer.from(data).toString('utf8');
    if (Array.isArray(data))
        throw new GitHubError(`${filePath} at ${ref} is a directory, not a file`, undefined);
    const file = data;
    if (file.type !== 'file')
        throw new GitHubError(`${filePath} at ${ref} is a ${String(file.type)}, not a file`, undefined);
    if (file.encoding === 'base64' && typeof file.content === 'string')
        return Buffer.from(file.content, 'base64').toString('utf8');
    if (typeof file.sha !== 'string')
        throw new GitHubError(`${attempt}: GitHub's answer has neither content nor a blob sha`, undefined);
    const sha = file.sha;
    const { data: blob } = await gitHubCall(attempt, READ, () => octokit.rest.git.getBlob({ ...repo, file_sha: sha }));
    return Buffer.from(blob.content, blob.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
}
async function commitOnTopOf(octokit, request) {
    const { owner, repo, baseBranch } = request;
    const { data: ref } = await gitHubCall(`reading branch ${baseBranch}`, READ, () => octokit.rest.git.getRef({ owner, repo, ref: `heads/${baseBranch}` }));
    const parentSha = ref.object.sha;
    const { data: parent } = await gitHubCall(`reading commit ${parentSha}`, READ, () => octokit.rest.git.getCommit({ owner, repo, commit_sha: parentSha }));
    const { data: blob } = await gitHubCall(`creating a blob for ${request.filePath}`, WRITE, () => octokit.rest.git.createBlob({
        owner,
        repo,
        content: Buffer.from(request.content, 'utf8').toString('base64'),
        encoding: 'base64',
    }));
    const { data: tree } = await gitHubCall('creating a tree', WRITE, () => octokit.rest.git.createTree({
        owner,
        repo,
        base_tree: parent.tree.sha,
        tree: [{ path: request.filePath, mode: '100644', type: 'blob', sha: blob.sha }],
    }));
    const { data: commit } = await gitHubCall('creating a commit', WRITE, () => octokit.rest.git.createCommit({ owner, repo, message: request.message, tree: tree.sha, parents: [parentSha] }));
    return { commitSha: commit.sha, parentSha };
}
async function commitBaseline(octokit, request) {
    const { commitSha } = await commitOnTopOf(octokit, request);
    try {
        await octokit.rest.git.updateRef({
            owner: request.owner,
            repo: request.repo,
            ref: `heads/${request.baseBranch}`,
            sha: commitSha,
            force: false,
        });
    }
    catch (error) {
        if (httpStatus(error) === 422) {
            throw new GitHubError(`422 updating branch ${request.baseBranch}: not a fast-forward (the branch moved while this run worked, or it is protected): re-run the job, or use update-strategy: pull-request`, 422);
        }
        return gitHubCall(`updating branch ${request.baseBranch}`, WRITE, () => Promise.reject(error));
    }
    return commitSha;
}
async function openBaselinePullRequest(octokit, request) {
    const { owner, repo, branch } = request;
    const { commitSha } = await commitOnTopOf(octokit, request);
    try {
        await octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: commitSha });
    }
    catch (error) {
        if (httpStatus(error) !== 422)
            return gitHubCall(`creating branch ${branch}`, WRITE, () => Promise.reject(error));
        await gitHubCall(`moving branch ${branch}`, WRITE, () => octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha: commitSha, force: true }));
    }
    const { data: open } = await gitHubCall('listing open pull requests', 'pull-requests: read', () => octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${owner}:${branch}`, base: request.baseBranch }));
    const existing = open[0];
    let pr;
    if (existing) {
        const { data } = await gitHubCall(`updating pull request #${existing.number}`, 'pull-requests: write', () => octokit.rest.pulls.update({
            owner,
            repo,
            pull_number: existing.number,
            title: request.title,
            body: request.body,
        }));
        pr = { url: data.html_url, number: data.number, created: false };
    }
    else {
        const { data } = await gitHubCall('opening a pull request', 'pull-requests: write', () => octokit.rest.pulls.create({
            owner,
            repo,
            head: branch,
            base: request.baseBranch,
            title: request.title,
            body: request.body,
            maintainer_can_modify: true,
        }));
        pr = { url: data.html_url, number: data.number, created: true };
    }
    await gitHubCall(`labelling pull request #${pr.number} '${request.label}'`, 'pull-requests: write', () => octokit.rest.issues.addLabels({ owner, repo, issue_number: pr.number, labels: [request.label] }));
    return pr;
}

export { commitBaseline, openBaselinePullRequest, readFileAt };

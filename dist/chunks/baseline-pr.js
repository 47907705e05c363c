import { h as httpStatus } from './shared.js';
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
import './sources.js';
import './local.js';
import 'node:fs/promises';
import 'node:path';
import 'url';
import 'module';
import './_commonjsHelpers.js';
import 'node:os';
import 'node:fs';
import './collect.js';
import 'node:worker_threads';
import './parse-protocol.js';
import './snapshot.js';
import './series.js';

// Proposes a new baseline through the Git Data API (no checkout needed): a branch + commit + pull request, or a commit.
/** Reads a file at a branch through the contents API; null when it does not exist there. */
async function readFileAtBranch(octokit, repo, filePath, branch) {
    try {
        const { data } = await octokit.rest.repos.getContent({ ...repo, path: filePath, ref: branch });
        if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) {
            throw new Error(`${filePath} at ${branch} is not a file`);
        }
        return Buffer.from(data.content, 'base64').toString('utf8');
    }
    catch (error) {
        if (httpStatus(error) === 404)
            return null;
        throw error;
    }
}
/** Creates blob → tree (on top of the branch head) → commit; returns the new commit's sha and the parent's. */
async function commitOnTopOf(octokit, request) {
    const { owner, repo } = request;
    const { data: ref } = await octokit.rest.git.getRef({ owner, repo, ref: `heads/${request.baseBranch}` });
    const parentSha = ref.object.sha;
    const { data: parent } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: parentSha });
    const { data: blob } = await octokit.rest.git.createBlob({
        owner,
        repo,
        content: Buffer.from(request.content, 'utf8').toString('base64'),
        encoding: 'base64',
    });
    const { data: tree } = await octokit.rest.git.createTree({
        owner,
        repo,
        base_tree: parent.tree.sha,
        tree: [{ path: request.filePath, mode: '100644', type: 'blob', sha: blob.sha }],
    });
    const { data: commit } = await octokit.rest.git.createCommit({
        owner,
        repo,
        message: request.message,
        tree: tree.sha,
        parents: [parentSha],
    });
    return { commitSha: commit.sha, parentSha };
}
/** `commit` strategy: fast-forwards the base branch to a commit holding the new baseline. */
async function commitBaseline(octokit, request) {
    const { commitSha } = await commitOnTopOf(octokit, request);
    await octokit.rest.git.updateRef({ owner: request.owner, repo: request.repo, ref: `heads/${request.baseBranch}`, sha: commitSha, force: false });
    return commitSha;
}
/**
 * `pull-request` strategy: puts the commit on `branch` (created, or reset when a run is retried)
 * and opens a PR, or updates the body of the one already open for that branch.
 */
async function openBaselinePullRequest(octokit, request) {
    const { owner, repo, branch } = request;
    const { commitSha } = await commitOnTopOf(octokit, request);
    try {
        await octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: commitSha });
    }
    catch (error) {
        // 422: the branch exists from an earlier attempt of this run; it is ours, so move it.
        if (httpStatus(error) !== 422)
            throw error;
        await octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha: commitSha, force: true });
    }
    const { data: open } = await octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${owner}:${branch}`, base: request.baseBranch });
    const existing = open[0];
    if (existing) {
        const { data } = await octokit.rest.pulls.update({ owner, repo, pull_number: existing.number, title: request.title, body: request.body });
        return { url: data.html_url, number: data.number, created: false };
    }
    const { data } = await octokit.rest.pulls.create({
        owner,
        repo,
        head: branch,
        base: request.baseBranch,
        title: request.title,
        body: request.body,
        maintainer_can_modify: true,
    });
    return { url: data.html_url, number: data.number, created: true };
}

export { commitBaseline, openBaselinePullRequest, readFileAtBranch };

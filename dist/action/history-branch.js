import { setTimeout } from 'node:timers/promises';
import { readFileAt } from './baseline-pr.js';
import { h as httpStatus } from './shared.js';
import { G as GitHubError, g as gitHubCall } from './errors.js';
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
async function readHistoryText(octokit, file, at) {
    const head = await branchHead(octokit, file);
    if (head === null)
        return null;
    let commit = head;
    let refused;
    if (at !== undefined && at !== head) {
        const status = await ancestry(octokit, file, at, head);
        if (status === 'ahead' || status === 'identical')
            commit = at;
        else
            refused =
                status === 'unknown'
                    ? `commit ${at.slice(0, 12)} is not in the repository`
                    : `commit ${at.slice(0, 12)} is not on branch ${file.branch} (GitHub compares it with the head ${head.slice(0, 12)}: ${status})`;
    }
    const text = await readFileAt(octokit, file, file.path, commit);
    return text === null ? null : { text, commit, ...(refused !== undefined ? { refused } : {}) };
}
async function ancestry(octokit, repo, base, head) {
    try {
        const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
            owner: repo.owner,
            repo: repo.repo,
            basehead: `${base}...${head}`,
            per_page: 1,
        });
        return data.status;
    }
    catch (error) {
        if (httpStatus(error) === 404 || httpStatus(error) === 422)
            return 'unknown';
        return gitHubCall(`comparing ${base.slice(0, 12)} with ${head.slice(0, 12)}`, READ, () => Promise.reject(error));
    }
}
const WRITE_ATTEMPTS = 5;
async function writeHistoryText(octokit, file, update, message, pause = defaultPause) {
    for (let attempt = 1;; attempt++) {
        try {
            return { commit: await writeOnce(octokit, file, update, message), attempts: attempt };
        }
        catch (error) {
            if (!(error instanceof MovedError) && !retryable(error))
                throw error;
            if (attempt >= WRITE_ATTEMPTS) {
                const why = error instanceof MovedError
                    ? 'other runs kept moving it'
                    : error instanceof Error
                        ? error.message
                        : String(error);
                throw new GitHubError(`could not write ${file.path} to branch ${file.branch} in ${WRITE_ATTEMPTS} attempts: ${why}`, httpStatus(error));
            }
            await pause(attempt);
        }
    }
}
class MovedError extends Error {
}
async function writeOnce(octokit, file, update, message) {
    const { owner, repo, branch } = file;
    const head = await branchHead(octokit, file);
    const text = head === null ? null : await readFileAt(octokit, file, file.path, head);
    const content = update(text);
    const baseTree = head === null
        ? undefined
        : (await gitHubCall(`reading commit ${head.slice(0, 12)} of branch ${branch}`, READ, () => octokit.rest.git.getCommit({ owner, repo, commit_sha: head }))).data.tree.sha;
    const { data: blob } = await gitHubCall(`creating a blob for ${file.path} on branch ${branch}`, WRITE, () => octokit.rest.git.createBlob({
        owner,
        repo,
        content: Buffer.from(content, 'utf8').toString('base64'),
        encoding: 'base64',
    }));
    const { data: tree } = await gitHubCall(`creating a tree on branch ${branch}`, WRITE, () => octokit.rest.git.createTree({
        owner,
        repo,
        ...(baseTree !== undefined ? { base_tree: baseTree } : {}),
        tree: [{ path: file.path, mode: '100644', type: 'blob', sha: blob.sha }],
    }));
    const { data: commit } = await gitHubCall(`creating a commit on branch ${branch}`, WRITE, () => octokit.rest.git.createCommit({ owner, repo, message, tree: tree.sha, parents: head === null ? [] : [head] }));
    try {
        if (head === null)
            await octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: commit.sha });
        else
            await octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha: commit.sha, force: false });
    }
    catch (error) {
        if (httpStatus(error) === 422)
            throw new MovedError(`branch ${branch} moved`);
        return gitHubCall(`${head === null ? 'creating' : 'updating'} branch ${branch}`, WRITE, () => Promise.reject(error));
    }
    return commit.sha;
}
async function branchHead(octokit, file) {
    try {
        const { data } = await octokit.rest.git.getRef({ owner: file.owner, repo: file.repo, ref: `heads/${file.branch}` });
        return data.object.sha;
    }
    catch (error) {
        if (httpStatus(error) === 404)
            return null;
        return gitHubCall(`reading branch ${file.branch}`, READ, () => Promise.reject(error));
    }
}
function retryable(error) {
    const status = error instanceof GitHubError ? error.status : httpStatus(error);
    return status === undefined ? error instanceof GitHubError : status === 409 || status >= 500;
}
async function defaultPause(attempt) {
    const base = 250 * 2 ** (attempt - 1);
    await setTimeout(base + Math.floor(Math.random() * (base / 2)));
}

export { readHistoryText, writeHistoryText };

import { i as info, w as warning } from '../index.js';
import os from 'node:os';
import path from 'node:path';
import { U as UsageError } from '../chunks/errors.js';
import { existsSync, readFileSync } from 'node:fs';
import { n as noSpecs, S as SOURCES } from '../chunks/evidence-sources.js';
import { c as collect } from '../chunks/collect.js';

let cached;
function workflowContext() {
    if (cached)
        return cached;
    let payload = {};
    const eventPath = process.env.GITHUB_EVENT_PATH;
    if (eventPath) {
        if (existsSync(eventPath)) {
            const parsed = JSON.parse(readFileSync(eventPath, 'utf8'));
            if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
                payload = parsed;
        }
        else {
            process.stdout.write(`GITHUB_EVENT_PATH ${eventPath} does not exist\n`);
        }
    }
    cached = {
        payload,
        eventName: process.env.GITHUB_EVENT_NAME ?? '',
        sha: process.env.GITHUB_SHA ?? '',
        ref: process.env.GITHUB_REF ?? '',
        runId: Number.parseInt(process.env.GITHUB_RUN_ID ?? '', 10),
        serverUrl: process.env.GITHUB_SERVER_URL ?? 'https://github.com',
        apiUrl: process.env.GITHUB_API_URL ?? 'https://api.github.com',
        get repo() {
            if (process.env.GITHUB_REPOSITORY) {
                const [owner, repo] = process.env.GITHUB_REPOSITORY.split('/');
                return { owner: owner, repo: repo };
            }
            const { repository } = payload;
            if (typeof repository?.owner?.login === 'string' && typeof repository.name === 'string') {
                return { owner: repository.owner.login, repo: repository.name };
            }
            throw new Error("context.repo requires a GITHUB_REPOSITORY environment variable like 'owner/repo'");
        },
    };
    return cached;
}
function httpStatus(error) {
    if (typeof error === 'object' && error !== null && 'status' in error) {
        const status = error.status;
        if (typeof status === 'number')
            return status;
    }
    return undefined;
}
function errorMessage(error) {
    return error instanceof Error ? error.message : String(error);
}

const SKIPPED_RECORD_WARNINGS = 5;
function workDir() {
    return path.join(process.env.RUNNER_TEMP || os.tmpdir(), 'ascend-memory-gate');
}
function thisRepo() {
    const { owner, repo } = workflowContext().repo;
    return { owner, repo };
}
async function collectInputs(inputs) {
    const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
    let root = workspace;
    let specs = inputs.evidence;
    let missingArtifacts = [];
    let searchedByDefault = false;
    if (inputs.artifacts.length > 0) {
        root = path.join(workDir(), 'artifacts');
        const repository = inputs.repository ?? thisRepo();
        const crossRun = inputs.runId !== undefined && isOtherRun(inputs)
            ? { runId: inputs.runId, owner: repository.owner, repo: repository.repo, token: inputs.token }
            : undefined;
        const { downloadArtifacts } = await import('./artifacts.js');
        const fanIn = await downloadArtifacts({
            patterns: inputs.artifacts,
            crossRun,
            dir: root,
            concurrency: inputs.downloadConcurrency,
            missing: inputs.missingArtifacts,
        }, (m) => info(m), (m) => warning(m));
        missingArtifacts = fanIn.failed.map((f) => f.name);
        if (noSpecs(specs)) {
            specs = Object.fromEntries(SOURCES.filter((s) => s.searchedByDefault !== false).map((source) => [source.name, ['.']]));
            searchedByDefault = true;
        }
    }
    else if (noSpecs(specs)) {
        throw new UsageError(`set ${SOURCES.map((s) => `'${s.input}'`).join(' and/or ')} (paths in the workspace), or 'artifacts' to download them`);
    }
    const collected = await collect({
        specs,
        root,
        nameOf: (source) => `'${source.input}'`,
        unmatched: searchedByDefault ? 'ignore' : inputs.missingArtifacts,
        searchHelp: "the README's Inputs section lists what a folder is searched for",
        settings: { checkout: workspace },
        skippedShown: SKIPPED_RECORD_WARNINGS,
        node: {
            items: inputs.environment,
            itemsFrom: "'environment'",
            collect: inputs.collectEnvironment || inputs.mode === 'snapshot',
        },
    }, {
        warn: (text) => warning(text),
        note: (text) => info(text),
        progress: (text) => info(text),
    });
    return { ...collected, missingArtifacts };
}
function runUrl(runId = workflowContext().runId, repo = thisRepo()) {
    return `${workflowContext().serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}`;
}
function isOtherRun(inputs) {
    return inputs.runId !== undefined && (inputs.runId !== workflowContext().runId || inputs.repository !== undefined);
}
function sourceRun(inputs) {
    return { runId: inputs.runId ?? workflowContext().runId, repo: inputs.repository ?? thisRepo() };
}
function repositoryPath(file, input = 'baseline') {
    const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
    const relativePath = path.isAbsolute(file) ? path.relative(workspace, file) : file;
    const normalized = path.posix.normalize(relativePath.split(path.sep).join('/'));
    if (normalized === '.' ||
        normalized === '..' ||
        normalized.startsWith('../') ||
        path.posix.isAbsolute(normalized) ||
        /^[a-zA-Z]:/.test(normalized)) {
        throw new UsageError(`'${input}' must be a file inside the repository, got '${file}'`);
    }
    return normalized;
}

export { workDir as a, repositoryPath as b, collectInputs as c, errorMessage as e, httpStatus as h, isOtherRun as i, runUrl as r, sourceRun as s, thisRepo as t, workflowContext as w };

import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { I as InputError, r as replaceControlCharacters } from './errors.js';

const MAX_BYTES = 64 * 1024 * 1024;
function git(args, cwd, options = {}) {
    return new Promise((resolve) => {
        const child = spawn('git', args, {
            cwd,
            env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...options.env },
            stdio: ['pipe', 'pipe', 'pipe'],
        });
        const out = [];
        const err = [];
        let size = 0;
        child.stdout.on('data', (c) => {
            size += c.length;
            if (size <= MAX_BYTES)
                out.push(c);
        });
        child.stderr.on('data', (c) => err.push(c));
        child.on('error', (error) => resolve({ code: 127, stdout: '', stderr: error.message }));
        child.on('close', (code) => resolve({
            code: size > MAX_BYTES ? 125 : (code ?? 1),
            stdout: Buffer.concat(out).toString('utf8'),
            stderr: Buffer.concat(err).toString('utf8'),
        }));
        child.stdin.on('error', () => undefined);
        child.stdin.end(options.input ?? '');
    });
}
function said(stderr) {
    const line = stderr
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('hint:'))
        .slice(-1)[0] ?? 'no message';
    const shown = replaceControlCharacters(line.replace(/(https?:\/\/)[^/@\s]+@/g, '$1***@'));
    return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
}
const localRef = (branch) => `refs/ascend-memory-gate/${branch}`;
async function fetchHead(file) {
    const fetched = await git(['fetch', '--quiet', '--no-tags', '--depth=1', file.remote, `+refs/heads/${file.branch}:${localRef(file.branch)}`], file.cwd);
    if (fetched.code !== 0) {
        if (/couldn't find remote ref|no such ref|not found/i.test(fetched.stderr))
            return null;
        throw new InputError(`git cannot fetch branch ${file.branch} from ${file.remote}: ${said(fetched.stderr)}; check the remote and the job's credentials`);
    }
    const head = await git(['rev-parse', '--verify', `${localRef(file.branch)}^{commit}`], file.cwd);
    return head.code === 0 ? head.stdout.trim() : null;
}
async function fileAt(file, commit) {
    const spec = `${commit}:${file.path}`;
    const type = await git(['cat-file', '-t', spec], file.cwd);
    if (type.code !== 0)
        return null;
    if (type.stdout.trim() !== 'blob')
        throw new InputError(`${file.path} on branch ${file.branch} is a ${type.stdout.trim()}, not a file`);
    const blob = await git(['cat-file', 'blob', spec], file.cwd);
    if (blob.code === 125)
        throw new InputError(`${file.path} on branch ${file.branch} is larger than ${MAX_BYTES} bytes: not a history file`);
    if (blob.code !== 0)
        throw new InputError(`git cannot read ${file.path} on branch ${file.branch}: ${said(blob.stderr)}`);
    return blob.stdout;
}
async function readBranchFile(file) {
    const head = await fetchHead(file);
    return head === null ? null : fileAt(file, head);
}
const PUSH_ATTEMPTS = 5;
const IDENTITY = {
    GIT_AUTHOR_NAME: 'ascend-memory-gate',
    GIT_AUTHOR_EMAIL: 'ascend-memory-gate@users.noreply.invalid',
    GIT_COMMITTER_NAME: 'ascend-memory-gate',
    GIT_COMMITTER_EMAIL: 'ascend-memory-gate@users.noreply.invalid',
};
async function writeBranchFile(file, update, message, pause = defaultPause) {
    for (let attempt = 1;; attempt++) {
        const head = await fetchHead(file);
        const text = update(head === null ? null : await fileAt(file, head));
        const commit = await commitOnTop(file, head, text, message);
        const pushed = await git(['push', '--quiet', '--porcelain', file.remote, `${commit}:refs/heads/${file.branch}`], file.cwd);
        if (pushed.code === 0)
            return { text, commit, attempts: attempt };
        const moved = /non-fast-forward|fetch first|stale info|\(already exists\)/i.test(`${pushed.stdout}\n${pushed.stderr}`);
        if (!moved)
            throw new InputError(`git cannot push branch ${file.branch} to ${file.remote}: ${said(pushed.stderr)}; the job needs write access to the repository (a token or deploy key that may push)`);
        if (attempt >= PUSH_ATTEMPTS)
            throw new InputError(`could not push ${file.path} to branch ${file.branch} in ${PUSH_ATTEMPTS} attempts: other runs kept moving it; re-run the job`);
        await pause(attempt);
    }
}
async function commitOnTop(file, head, text, message) {
    const index = path.join(os.tmpdir(), `amg-index-${process.pid}-${Date.now()}`);
    const env = { GIT_INDEX_FILE: index };
    const step = async (args, input) => {
        const r = await git(args, file.cwd, {
            env: { ...env, ...((await identityMissing(file.cwd)) ? IDENTITY : {}) },
            ...(input !== undefined ? { input } : {}),
        });
        if (r.code !== 0)
            throw new InputError(`git ${args[0]} failed writing ${file.path} for branch ${file.branch}: ${said(r.stderr)}`);
        return r.stdout.trim();
    };
    try {
        if (head !== null)
            await step(['read-tree', head]);
        else
            await step(['read-tree', '--empty']);
        const blob = await step(['hash-object', '-w', '--stdin'], text);
        await step(['update-index', '--add', '--cacheinfo', `100644,${blob},${file.path}`]);
        const tree = await step(['write-tree']);
        return await step(['commit-tree', tree, ...(head !== null ? ['-p', head] : []), '-m', message]);
    }
    finally {
        await rm(index, { force: true });
    }
}
let identity;
async function identityMissing(cwd) {
    identity ??= (await git(['var', 'GIT_COMMITTER_IDENT'], cwd)).code !== 0;
    return identity;
}
async function defaultPause(attempt) {
    const base = 250 * 2 ** (attempt - 1);
    await setTimeout(base + Math.floor(Math.random() * (base / 2)));
}

export { readBranchFile, writeBranchFile };

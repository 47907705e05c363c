import { readFileSync } from 'node:fs';
import { U as UsageError } from './errors.js';
import { GITCODE_API } from './gitcode.js';
import './http.js';
import './types2.js';

const HOSTS = ['github', 'gitlab', 'gitcode'];
const SHA = /^[0-9a-f]{40}$/;
function positive(value, what) {
    const n = Number(value);
    if (!/^[1-9][0-9]{0,9}$/.test(value) || !Number.isSafeInteger(n))
        throw new UsageError(`${what} must be a change request number (1 or more), not '${value}'`);
    return n;
}
function sha(value, what) {
    if (value === undefined || value === '')
        return undefined;
    if (!SHA.test(value))
        throw new UsageError(`${what} must be a full 40-character commit sha, not '${value.slice(0, 60)}'`);
    return value;
}
function tokenOf(host, env) {
    const pick = (...names) => {
        const name = names.find((n) => (env[n] ?? '') !== '') ?? names[0];
        return { tokenVariable: name, token: env[name] || undefined };
    };
    return host === 'gitlab'
        ? pick('GITLAB_TOKEN')
        : host === 'gitcode'
            ? pick('GITCODE_TOKEN', 'ATOMGIT_TOKEN')
            : pick('GITHUB_TOKEN');
}
function apiOf(host, env) {
    if (host === 'gitlab')
        return env.CI_API_V4_URL || 'https://gitlab.com/api/v4';
    if (host === 'gitcode')
        return env.GITCODE_API_URL || env.ATOMGIT_API_URL || GITCODE_API;
    return env.GITHUB_API_URL || 'https://api.github.com';
}
function eventPullRequest(path) {
    if (!path)
        return undefined;
    try {
        const payload = JSON.parse(readFileSync(path, 'utf8'));
        return payload.pull_request;
    }
    catch {
        throw new UsageError(`the event file ${path} cannot be read as JSON: cannot tell which pull request this run is about`);
    }
}
function actionsPullRequest(atomgit, event, env) {
    const isPr = atomgit ? /^(pull|merge)_request/.test(event) : /^pull_request/.test(event);
    const pr = isPr ? eventPullRequest(env[`${atomgit ? 'ATOMGIT' : 'GITHUB'}_EVENT_PATH`]) : undefined;
    if (typeof pr?.number === 'number' && Number.isSafeInteger(pr.number) && pr.number > 0)
        return { pr, number: pr.number };
    const fromRef = isPr && atomgit ? /^refs\/pull\/([1-9][0-9]{0,9})\/merge$/.exec(env.ATOMGIT_REF ?? '')?.[1] : undefined;
    return { pr, number: fromRef === undefined ? undefined : Number(fromRef) };
}
function detectReview(flags, env) {
    if (flags.host !== undefined) {
        if (!HOSTS.includes(flags.host))
            throw new UsageError(`--host must be github, gitlab or gitcode, not '${flags.host}'`);
        const host = flags.host;
        if (flags.repo === undefined || flags.repo === '')
            throw new UsageError(`--host ${host} needs --repo ${host === 'gitlab' ? 'GROUP/PROJECT (or the project id)' : 'OWNER/NAME'}`);
        if (host !== 'gitlab' && !/^[^/\s]+\/[^/\s]+$/.test(flags.repo))
            throw new UsageError(`--repo must be OWNER/NAME, not '${flags.repo}'`);
        const number = flags.pr === undefined || flags.pr === '' ? undefined : positive(flags.pr, '--pr');
        return {
            host,
            repo: flags.repo,
            number,
            baseSha: sha(flags.baseSha, '--base-sha'),
            api: apiOf(host, env),
            ...tokenOf(host, env),
            from: `--host ${host}`,
        };
    }
    if (flags.repo !== undefined || flags.pr !== undefined)
        throw new UsageError('--repo and --pr go with --host github|gitlab|gitcode');
    if (env.GITLAB_CI === 'true') {
        const project = env.CI_PROJECT_ID || env.CI_PROJECT_PATH;
        if (!project)
            throw new UsageError('GitLab CI without CI_PROJECT_ID: cannot tell which project to post on');
        const iid = env.CI_MERGE_REQUEST_IID;
        const number = iid === undefined || iid === '' ? undefined : positive(iid, 'CI_MERGE_REQUEST_IID');
        const baseSha = sha(flags.baseSha ?? env.CI_MERGE_REQUEST_DIFF_BASE_SHA, flags.baseSha !== undefined ? '--base-sha' : 'CI_MERGE_REQUEST_DIFF_BASE_SHA');
        return {
            host: 'gitlab',
            repo: project,
            number,
            baseSha,
            api: apiOf('gitlab', env),
            ...tokenOf('gitlab', env),
            from: number === undefined
                ? 'GitLab CI (no CI_MERGE_REQUEST_IID: not a merge request pipeline)'
                : 'GitLab CI (CI_MERGE_REQUEST_IID)',
        };
    }
    const atomgit = env.ATOMGIT_REPOSITORY !== undefined && env.ATOMGIT_REPOSITORY !== '';
    if (atomgit || env.GITHUB_ACTIONS === 'true') {
        const host = atomgit ? 'gitcode' : 'github';
        const prefix = atomgit ? 'ATOMGIT' : 'GITHUB';
        const repo = env[`${prefix}_REPOSITORY`] ?? '';
        if (!/^[^/\s]+\/[^/\s]+$/.test(repo))
            throw new UsageError(`${prefix}_REPOSITORY must be OWNER/NAME, not '${repo}'`);
        const event = env[`${prefix}_EVENT_NAME`] ?? '';
        const { pr, number } = actionsPullRequest(atomgit, event, env);
        const eventBase = typeof pr?.base?.sha === 'string' ? pr.base.sha : undefined;
        const baseSha = sha(flags.baseSha ?? eventBase, flags.baseSha !== undefined ? '--base-sha' : 'pull_request.base.sha');
        const name = atomgit ? 'AtomGit pipeline' : 'GitHub Actions';
        return {
            host,
            repo,
            number,
            baseSha,
            api: apiOf(host, env),
            ...tokenOf(host, env),
            from: number === undefined ? `${name} (${event || 'no'} event: not a pull request)` : `${name} (${event} event)`,
        };
    }
    return null;
}

export { detectReview };

import { I as InputError, r as replaceControlCharacters } from '../chunks/errors.js';

class GitHubError extends InputError {
    status;
    constructor(message, status) {
        super(message);
        this.status = status;
        this.name = 'GitHubError';
    }
}
function describeGitHubFailure(attempt, error, permission) {
    const e = (typeof error === 'object' && error !== null ? error : {});
    const status = typeof e.status === 'number' ? e.status : undefined;
    const said = gitHubSaid(e);
    if (status === undefined || (status === 500 && e.response === undefined)) {
        const api = process.env.GITHUB_API_URL || 'https://api.github.com';
        return new GitHubError(`cannot reach GitHub (${api}) ${attempt}: ${said || 'no answer'}; check the runner's network and re-run the job`, undefined);
    }
    const saidPart = said ? ` (GitHub said: ${said})` : '';
    let advice;
    if (status === 401)
        advice = "the token is missing, invalid or expired: check 'github-token'";
    else if (status === 403 && /rate limit/i.test(said))
        advice = 'the API rate limit is exhausted: re-run the job later';
    else if (status === 403)
        advice = `the token needs \`${permission}\``;
    else if (status === 404)
        advice = `not found, or the token cannot see it (it needs \`${permission}\`)`;
    else if (status === 409)
        advice = 'the repository changed meanwhile or is empty: re-run the job';
    else if (status === 422)
        advice = 'GitHub refused the change';
    else if (status >= 500)
        advice = 'GitHub failed to answer: re-run the job later';
    else
        advice = 'unexpected answer';
    return new GitHubError(`${status} ${attempt}: ${advice}${saidPart}`, status);
}
function gitHubSaid(e) {
    const data = e.response?.data;
    let text = '';
    if (typeof data === 'object' && data !== null && typeof data.message === 'string') {
        text = data.message;
        const errors = data.errors;
        if (Array.isArray(errors)) {
            const details = errors
                .map((x) => typeof x === 'object' && x !== null && typeof x.message === 'string'
                ? x.message
                : '')
                .filter(Boolean);
            if (details.length > 0)
                text += `: ${details.join('; ')}`;
        }
    }
    else if (typeof e.message === 'string') {
        text = e.message;
    }
    const shown = replaceControlCharacters(text.trim());
    return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
}
async function gitHubCall(attempt, permission, call) {
    try {
        return await call();
    }
    catch (error) {
        if (error instanceof GitHubError)
            throw error;
        throw describeGitHubFailure(attempt, error, permission);
    }
}

export { GitHubError as G, describeGitHubFailure as d, gitHubCall as g };

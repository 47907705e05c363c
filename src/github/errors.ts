// GitHub API failures as one line each: the HTTP status, what was being attempted, and what to do about it.
import { InputError } from '../common/errors.js';
import { replaceControlCharacters } from '../common/visible.js';

/** An expected failure talking to GitHub: printed as one `::error::` line, never as a stack. */
export class GitHubError extends InputError {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'GitHubError';
  }
}

interface RequestErrorShape {
  status?: unknown;
  message?: unknown;
  response?: { data?: unknown; headers?: Record<string, unknown> };
}

/**
 * What a failed call says to the user, e.g. "403 creating a branch: the token needs `contents: write` (GitHub said:
 * Resource not accessible by integration)". `permission` is the token permission the call needs.
 */
export function describeGitHubFailure(attempt: string, error: unknown, permission: string): GitHubError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as RequestErrorShape;
  const status = typeof e.status === 'number' ? e.status : undefined;
  const said = gitHubSaid(e);
  // Octokit reports a request that never got an answer (refused, reset, DNS) as a 500 without a response.
  if (status === undefined || (status === 500 && e.response === undefined)) {
    const api = process.env.GITHUB_API_URL || 'https://api.github.com';
    return new GitHubError(
      `cannot reach GitHub (${api}) ${attempt}: ${said || 'no answer'}; check the runner's network and re-run the job`,
      undefined,
    );
  }
  const saidPart = said ? ` (GitHub said: ${said})` : '';
  let advice: string;
  if (status === 401) advice = "the token is missing, invalid or expired: check 'github-token'";
  else if (status === 403 && /rate limit/i.test(said)) advice = 'the API rate limit is exhausted: re-run the job later';
  else if (status === 403) advice = `the token needs \`${permission}\``;
  else if (status === 404) advice = `not found, or the token cannot see it (it needs \`${permission}\`)`;
  else if (status === 409) advice = 'the repository changed meanwhile or is empty: re-run the job';
  else if (status === 422) advice = 'GitHub refused the change';
  else if (status >= 500) advice = 'GitHub failed to answer: re-run the job later';
  else advice = 'unexpected answer';
  return new GitHubError(`${status} ${attempt}: ${advice}${saidPart}`, status);
}

/** GitHub's own message, shown bounded and with control characters visible. */
function gitHubSaid(e: RequestErrorShape): string {
  const data = e.response?.data;
  let text = '';
  if (typeof data === 'object' && data !== null && typeof (data as { message?: unknown }).message === 'string') {
    text = (data as { message: string }).message;
    const errors = (data as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      const details = errors
        .map((x) =>
          typeof x === 'object' && x !== null && typeof (x as { message?: unknown }).message === 'string'
            ? (x as { message: string }).message
            : '',
        )
        .filter(Boolean);
      if (details.length > 0) text += `: ${details.join('; ')}`;
    }
  } else if (typeof e.message === 'string') {
    text = e.message;
  }
  const shown = replaceControlCharacters(text.trim());
  return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
}

/** Runs one GitHub call; its failure becomes a GitHubError naming `attempt` and the permission it needs. */
export async function gitHubCall<T>(attempt: string, permission: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GitHubError) throw error;
    throw describeGitHubFailure(attempt, error, permission);
  }
}

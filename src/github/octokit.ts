// The one place that builds the GitHub client and reads the workflow context, so the rest takes plain values.
import * as github from '@actions/github';

export type Octokit = ReturnType<typeof github.getOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

export function createOctokit(token: string): Octokit {
  return github.getOctokit(token);
}

export function workflowContext(): typeof github.context {
  return github.context;
}

/** Status of an Octokit RequestError, without trusting its shape. */
export function httpStatus(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    const status = (error as { status: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return undefined;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

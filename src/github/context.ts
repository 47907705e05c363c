// The workflow run's context, read from the environment as @actions/github's `context` does, without loading the GitHub
// client: check mode with no token must not pay for undici and Octokit at start-up.
import { existsSync, readFileSync } from 'node:fs';

export interface RepoRef {
  owner: string;
  repo: string;
}

/** The event payload's fields we read; everything else stays unknown. */
interface EventPayload {
  pull_request?: { number?: unknown };
  workflow_run?: unknown;
  repository?: { name?: unknown; owner?: { login?: unknown } };
  [field: string]: unknown;
}

export interface WorkflowContext {
  payload: EventPayload;
  eventName: string;
  sha: string;
  ref: string;
  runId: number;
  serverUrl: string;
  apiUrl: string;
  readonly repo: RepoRef;
}

let cached: WorkflowContext | undefined;

export function workflowContext(): WorkflowContext {
  if (cached) return cached;
  let payload: EventPayload = {};
  const eventPath = process.env.GITHUB_EVENT_PATH;
  if (eventPath) {
    if (existsSync(eventPath)) {
      const parsed: unknown = JSON.parse(readFileSync(eventPath, 'utf8'));
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) payload = parsed as EventPayload;
    } else {
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
    get repo(): RepoRef {
      if (process.env.GITHUB_REPOSITORY) {
        const [owner, repo] = process.env.GITHUB_REPOSITORY.split('/');
        return { owner: owner as string, repo: repo as string };
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

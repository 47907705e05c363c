// The two artifact APIs (this run's results service, another run's REST API) with retries, backoff and timeouts on every request.
import { open } from 'node:fs/promises';
import { InputError } from '../common/errors.js';

/** One artifact of a run, as both APIs list it. */
export interface ListedArtifact {
  name: string;
  id: number;
  size: number;
  /** Milliseconds since the epoch; 0 when the API did not say. */
  createdAt: number;
}

/** How hard to try: attempts per request, exponential backoff between them, and an idle timeout per request. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A request (or a download that stops sending) for longer than this is abandoned and retried. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 8000, timeoutMs: 30_000 };

/** Called before each retry with what failed and how long it waits. */
export type RetryListener = (what: string, attempt: number, reason: string, delayMs: number) => void;

/** An HTTP answer that is not the one expected; 5xx, 408 and 429 are worth another try. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    what: string,
  ) {
    super(`${what}: HTTP ${status}`);
    this.name = 'HttpStatusError';
  }
}

/** A request that failed for good (retried, or not worth retrying): its message is final, and nobody retries it again. */
export class RequestFailed extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'RequestFailed';
  }
}

/** Network causes that a second try may not meet: resets, refusals, closed sockets, timeouts. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Whether another attempt may succeed: server errors, throttling, dropped connections and timeouts; not 4xx or a bad zip. */
export function isTransient(error: unknown): boolean {
  if (error instanceof RequestFailed) return false;
  if (error instanceof HttpStatusError) return error.status >= 500 || error.status === 408 || error.status === 429;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
    // undici: `fetch failed` (connect) and `terminated` (body cut short) are network failures.
    if (e instanceof TypeError && /^(fetch failed|terminated)$/.test(e.message)) return true;
  }
  return false;
}

/** The innermost message: undici hides the socket's reason under `fetch failed`. */
function describeError(error: unknown): string {
  if (error instanceof RequestFailed) return error.message;
  let message = error instanceof Error ? error.message : String(error);
  for (
    let e: unknown = error instanceof Error ? error.cause : undefined, depth = 0;
    e instanceof Error && depth < 4;
    e = e.cause, depth++
  ) {
    message = `${message} (${e.message})`;
  }
  return message;
}

/** Delay before attempt `attempt + 1`: base × 2^(attempt−1), capped, with jitter so parallel retries do not stampede. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** Runs `operation` until it succeeds, a non-transient error, or the last attempt. */
export async function withRetries<T>(
  what: string,
  policy: RetryPolicy,
  onRetry: RetryListener,
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException(`no answer in ${policy.timeoutMs} ms`, 'TimeoutError')),
      policy.timeoutMs,
    );
    try {
      return await operation(controller.signal);
    } catch (error) {
      const reason = controller.signal.aborted ? `timed out after ${policy.timeoutMs} ms` : describeError(error);
      if (attempt >= policy.attempts || !(controller.signal.aborted || isTransient(error))) {
        throw new RequestFailed(attempt > 1 ? `${reason} (after ${attempt} attempts)` : reason, error);
      }
      const delayMs = backoffDelay(policy, attempt);
      onRetry(what, attempt, reason, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    } finally {
      clearTimeout(timer);
    }
  }
}

const USER_AGENT = 'ascend-memory-gate';

async function fetchJson(url: string, init: RequestInit, what: string, signal: AbortSignal): Promise<unknown> {
  const response = await fetch(url, { ...init, signal });
  const text = await response.text();
  if (!response.ok) throw new HttpStatusError(response.status, what);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InputError(`${what}: the answer is not JSON`);
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Streams `url` to `file`, restarting the idle timer on every chunk; returns the bytes written. Each write is awaited: a failed attempt leaves nothing in flight to land in the next one's file. */
export async function streamToFile(
  url: string,
  file: string,
  signal: AbortSignal,
  idleMs: number,
  what: string,
): Promise<number> {
  const idle = new AbortController();
  const stalled = (): void => idle.abort(new DOMException(`no data for ${idleMs} ms`, 'TimeoutError'));
  let timer = setTimeout(stalled, idleMs);
  const out = await open(file, 'w');
  let bytes = 0;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.any([signal, idle.signal]),
      headers: { 'user-agent': USER_AGENT },
    });
    if (!response.ok || response.body === null) {
      await response.body?.cancel();
      throw new HttpStatusError(response.status, what);
    }
    for await (const chunk of response.body) {
      clearTimeout(timer);
      timer = setTimeout(stalled, idleMs);
      bytes += chunk.byteLength;
      await out.write(chunk);
    }
    return bytes;
  } finally {
    clearTimeout(timer);
    await out.close();
  }
}

/** Where artifacts come from: this run (results service) or another run (REST API). */
export interface ArtifactService {
  /** Every artifact of the run, all pages. */
  list(onRetry: RetryListener): Promise<ListedArtifact[]>;
  /** A short-lived URL of the artifact's zip. */
  zipUrl(artifact: ListedArtifact, onRetry: RetryListener): Promise<string>;
  /** `this run` or `run 42 of owner/repo`, for messages. */
  where: string;
}

/** The run and job ids the runtime token grants (`Actions.Results:<run>:<job>` in its `scp` claim). */
export function backendIdsFromToken(token: string): { run: string; job: string } {
  let scp: string;
  try {
    scp = String(record(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))).scp ?? '');
  } catch {
    throw new InputError('ACTIONS_RUNTIME_TOKEN is not a JWT: run the Action inside a workflow job');
  }
  for (const scope of scp.split(' ')) {
    const parts = scope.split(':');
    if (parts.length === 3 && parts[0] === 'Actions.Results' && parts[1] && parts[2])
      return { run: parts[1], job: parts[2] };
  }
  throw new InputError('ACTIONS_RUNTIME_TOKEN grants no workflow run (no Actions.Results scope)');
}

/** This run's artifacts through the results service (Twirp, JSON with proto field names). */
export function resultsService(env: NodeJS.ProcessEnv, policy: RetryPolicy): ArtifactService {
  const base = env.ACTIONS_RESULTS_URL;
  const token = env.ACTIONS_RUNTIME_TOKEN;
  if (!base || !token)
    throw new InputError(
      "this run's artifacts need ACTIONS_RESULTS_URL and ACTIONS_RUNTIME_TOKEN: run the Action inside a workflow job, or set 'run-id'",
    );
  const ids = backendIdsFromToken(token);
  const call = (
    method: string,
    body: Record<string, unknown>,
    what: string,
    onRetry: RetryListener,
  ): Promise<unknown> =>
    withRetries(what, policy, onRetry, (signal) =>
      fetchJson(
        new URL(`twirp/github.actions.results.api.v1.ArtifactService/${method}`, base).href,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'user-agent': USER_AGENT },
          body: JSON.stringify({ workflow_run_backend_id: ids.run, workflow_job_run_backend_id: ids.job, ...body }),
        },
        what,
        signal,
      ),
    );
  return {
    where: 'this run',
    async list(onRetry) {
      const reply = record(await call('ListArtifacts', {}, 'listing the artifacts', onRetry));
      const items = Array.isArray(reply.artifacts) ? reply.artifacts : [];
      return items.map((item) => {
        const a = record(item);
        return {
          name: String(a.name ?? ''),
          id: Number(a.database_id),
          size: Number(a.size ?? 0),
          createdAt: Date.parse(String(a.created_at ?? '')) || 0,
        };
      });
    },
    async zipUrl(artifact, onRetry) {
      const reply = record(
        await call('GetSignedArtifactURL', { name: artifact.name }, `artifact '${artifact.name}'`, onRetry),
      );
      if (typeof reply.signed_url !== 'string')
        throw new InputError(`artifact '${artifact.name}': the results service gave no download URL`);
      return reply.signed_url;
    },
  };
}

/** REST pages of this size: the API's maximum. */
const PAGE_SIZE = 100;

/** Another run's artifacts through the REST API: listed page by page, each zip through its 302 to blob storage. */
export function restService(
  run: { runId: number; owner: string; repo: string; token: string },
  env: NodeJS.ProcessEnv,
  policy: RetryPolicy,
): ArtifactService {
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  const headers = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': USER_AGENT,
    ...(run.token ? { authorization: `token ${run.token}` } : {}),
  };
  const repoUrl = `${api}/repos/${encodeURIComponent(run.owner)}/${encodeURIComponent(run.repo)}`;
  return {
    where: `run ${run.runId} of ${run.owner}/${run.repo}`,
    async list(onRetry) {
      const listed: ListedArtifact[] = [];
      for (let page = 1; ; page++) {
        const what = `listing the artifacts (page ${page})`;
        const reply = record(
          await withRetries(what, policy, onRetry, (signal) =>
            fetchJson(
              `${repoUrl}/actions/runs/${run.runId}/artifacts?per_page=${PAGE_SIZE}&page=${page}`,
              { headers },
              what,
              signal,
            ),
          ),
        );
        const items = Array.isArray(reply.artifacts) ? reply.artifacts : [];
        for (const item of items) {
          const a = record(item);
          listed.push({
            name: String(a.name ?? ''),
            id: Number(a.id),
            size: Number(a.size_in_bytes ?? 0),
            createdAt: Date.parse(String(a.created_at ?? '')) || 0,
          });
        }
        const total = Number(reply.total_count ?? 0);
        if (items.length < PAGE_SIZE || listed.length >= total) return listed;
      }
    },
    async zipUrl(artifact, onRetry) {
      const what = `artifact '${artifact.name}'`;
      return withRetries(what, policy, onRetry, async (signal) => {
        const response = await fetch(`${repoUrl}/actions/artifacts/${artifact.id}/zip`, {
          headers,
          redirect: 'manual',
          signal,
        });
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (response.status !== 302 || !location) throw new HttpStatusError(response.status, what);
        return location;
      });
    },
  };
}

/** Keeps the newest artifact of each name (a re-run job uploads its artifact again). */
export function latestOfEachName(artifacts: ListedArtifact[]): ListedArtifact[] {
  const newest = new Map<string, ListedArtifact>();
  for (const a of artifacts) {
    const seen = newest.get(a.name);
    if (!seen || a.createdAt > seen.createdAt || (a.createdAt === seen.createdAt && a.id > seen.id))
      newest.set(a.name, a);
  }
  return [...newest.values()];
}

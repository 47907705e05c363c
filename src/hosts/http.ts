// The hosts' REST calls over fetch: a token in a header (never in a URL), every failure one HostError line naming the
// token's variable and the scope it needs, and the token's value scrubbed from anything a host says back.
import { replaceControlCharacters } from '../common/visible.js';
import { HostError, type TokenInfo } from './types.js';

export interface ApiOptions {
  /** Shown in messages: 'GitLab', 'GitCode', 'GitHub'. */
  label: string;
  /** The API base, e.g. https://gitlab.example.com/api/v4 (no trailing slash needed). */
  base: string;
  /** The header that carries the token, e.g. { 'PRIVATE-TOKEN': token }. */
  auth: Record<string, string>;
  token: TokenInfo;
  /** The token's value, only to scrub it from what a host says back. */
  secret: string;
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number>;
  body?: unknown;
  /** The answer as text (raw files), not JSON. */
  text?: boolean;
  /** An Accept header of the host's own (GitHub's raw media type). */
  accept?: string;
  /** Statuses that are answers, not failures (404 for "no such file"). */
  expect?: number[];
  /** What the call needs of the token, for the message: 'read' (default) or 'write'. */
  needs?: 'read' | 'write';
}

export interface ApiAnswer<T> {
  status: number;
  data: T;
}

/** Pages are read until one comes back short, at most this many (10,000 comments of 100 a page). */
const MAX_PAGES = 100;

export class Api {
  constructor(readonly options: ApiOptions) {}

  /** One call; `attempt` says what it was for ("listing the notes of !12"). */
  async call<T>(attempt: string, path: string, request: ApiRequest = {}): Promise<ApiAnswer<T>> {
    const { label, base, auth } = this.options;
    const url = new URL(`${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
    for (const [k, v] of Object.entries(request.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      ...auth,
      Accept: request.accept ?? (request.text ? '*/*' : 'application/json'),
      'User-Agent': 'ascend-memory-gate',
    };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method ?? 'GET',
        headers,
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      });
    } catch (error) {
      const cause =
        error instanceof Error && error.cause instanceof Error
          ? error.cause.message
          : error instanceof Error
            ? error.message
            : String(error);
      throw new HostError(
        `cannot reach ${label} (${this.scrub(base)}) ${attempt}: ${this.scrub(cause)}; check the network and the API address, then re-run the job`,
        undefined,
      );
    }
    const text = await response.text();
    if (!response.ok && !(request.expect ?? []).includes(response.status))
      throw this.failure(attempt, response.status, text, request.needs ?? 'read');
    if (request.text || !response.ok) return { status: response.status, data: text as T };
    try {
      return { status: response.status, data: (text === '' ? null : JSON.parse(text)) as T };
    } catch {
      throw new HostError(
        `${label} answered ${attempt} with something that is not JSON (${response.status}); check the API address (${this.scrub(base)})`,
        response.status,
      );
    }
  }

  /** A JSON object, or null where the host answers 404 (a file that is not there). */
  async optional<T>(attempt: string, path: string, request: ApiRequest = {}): Promise<T | null> {
    const { status, data } = await this.call<T>(attempt, path, { ...request, expect: [404] });
    return status === 404 ? null : data;
  }

  /** A write (POST, PUT, PATCH, DELETE): a refusal names the write scope. */
  async write<T>(attempt: string, path: string, method: ApiRequest['method'], body?: unknown): Promise<T> {
    const request: ApiRequest = { method, needs: 'write', ...(body !== undefined ? { body } : {}) };
    return (await this.call<T>(attempt, path, request)).data;
  }

  /** The token's user: `field` of GET /user (GitLab's `username`, GitCode's and GitHub's `login`). */
  async login(field: 'login' | 'username', hint: string): Promise<string> {
    const { data } = await this.call<Record<string, unknown> | null>("reading the token's user (GET /user)", 'user');
    const login = data?.[field];
    if (typeof login !== 'string')
      throw new HostError(`${this.options.label}'s GET /user names no ${field}: check ${hint}`, undefined);
    return login;
  }

  /**
   * Every page of a list, `per_page` 100, until a short page; `field` where the host wraps the list in an object
   * (GitHub's `workflow_runs`).
   */
  async all<T>(
    attempt: string,
    path: string,
    query: Record<string, string | number> = {},
    field?: string,
  ): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await this.call<unknown>(attempt, path, { query: { ...query, per_page: 100, page } });
      const data = field === undefined ? answer.data : (answer.data as Record<string, unknown> | null)?.[field];
      if (!Array.isArray(data))
        throw new HostError(
          `${this.options.label} answered ${attempt} with no list; check the API address (${this.scrub(this.options.base)})`,
          undefined,
        );
      items.push(...(data as T[]));
      if (data.length < 100) return items;
    }
    return items;
  }

  /** "403 posting a note on !12: GITLAB_TOKEN needs `api` (GitLab said: …)". */
  failure(attempt: string, status: number, text: string, needs: 'read' | 'write'): HostError {
    const { label, token } = this.options;
    const said = this.said(text);
    const saidPart = said ? ` (${label} said: ${said})` : '';
    const scope = needs === 'write' ? token.write : token.read;
    let advice: string;
    if (status === 401) advice = `${token.variable} is missing, invalid or expired`;
    else if (status === 403 && /rate limit/i.test(said))
      advice = 'the API rate limit is exhausted: re-run the job later';
    else if (status === 403) advice = `${token.variable} needs ${scope}`;
    else if (status === 404) advice = `not found, or ${token.variable} cannot see it (it needs ${scope})`;
    else if (status === 429) advice = 'too many requests: re-run the job later';
    else if (status >= 500) advice = `${label} failed to answer: re-run the job later`;
    else advice = 'unexpected answer';
    return new HostError(`${status} ${attempt}: ${advice}${saidPart}`, status);
  }

  /** What a host said, bounded, control characters visible, the token never repeated. */
  private said(text: string): string {
    let message = text;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null) {
        const m =
          (parsed as { message?: unknown; error?: unknown; error_message?: unknown }).message ??
          (parsed as { error?: unknown }).error ??
          (parsed as { error_message?: unknown }).error_message;
        message = typeof m === 'string' ? m : JSON.stringify(m ?? parsed);
      }
    } catch {
      // Not JSON: an HTML error page or plain text; shown bounded.
    }
    const shown = replaceControlCharacters(this.scrub(message).trim());
    return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
  }

  /** The token's value never leaves this process in a message. */
  scrub(text: string): string {
    const { secret } = this.options;
    return secret.length >= 4 ? text.split(secret).join('***') : text;
  }
}

/** A path segment: every `/` of a file path encoded too (GitLab's `:file_path`, and safe elsewhere). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/** A file path in a URL with its folders kept (GitHub's and GitCode's `contents/{path}`). */
export function pathSegments(value: string): string {
  return value.split('/').map(encodeURIComponent).join('/');
}

const SHA = /^[0-9a-f]{40}$/;

/** A change request's base commit as its host names it, or one line saying it names none. */
export function baseShaOf(value: unknown, what: string): string {
  if (typeof value !== 'string' || !SHA.test(value))
    throw new HostError(`${what} names no base commit: pass --base-sha`, undefined);
  return value;
}

/** Label names from a list of `{ name }` objects (GitHub, GitCode) or of strings (GitLab). */
export function labelNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((l: unknown) => (typeof l === 'string' ? l : (l as { name?: unknown } | null)?.name))
    .filter((l): l is string => typeof l === 'string');
}

/** A string field, or '' when a host leaves it out. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** One push as a host records it: the head it made, on the host's clock (ms since the epoch). */
export interface Push {
  head: string;
  at: number;
}

/**
 * The head a change request had when a label was last added (`added`, the host's clock): the last push at or before it;
 * a change request opened with the label, its first push's. Null when nothing records either.
 */
export function headWhen(added: number[], pushes: Push[]): string | null {
  const times = added.filter((t) => Number.isFinite(t));
  if (times.length === 0) return null;
  const at = Math.max(...times);
  const sorted = pushes.filter((p) => Number.isFinite(p.at) && p.head !== '').sort((a, b) => a.at - b.at);
  return (sorted.filter((p) => p.at <= at).at(-1) ?? sorted[0])?.head ?? null;
}

/**
 * The loopback server under fake-gitlab.ts and fake-gitcode.ts: 127.0.0.1 only, every request logged (the token's
 * header redacted, whether it matched recorded), routes as (method, RegExp) → handler, unknown routes 404 and flagged.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The token header's name when one was sent ('private-token', 'authorization'); never its value. */
  auth: string | undefined;
  /** The token sent was the one the fake knows. */
  authorized: boolean;
  body: unknown;
  route: string | undefined;
  status: number;
}

interface Answer {
  status?: number;
  json?: unknown;
  text?: string;
}

type Handler = (
  match: RegExpMatchArray,
  request: { query: URLSearchParams; body: unknown; user: string | undefined },
) => Answer;

export interface Route {
  name: string;
  method: string;
  path: RegExp;
  handler: Handler;
  /** Writes: refused with `denyWrites`. */
  write?: boolean;
}

export interface FakeHost {
  url: string;
  requests: LoggedRequest[];
  /** Answer every write with this status (403: a token without the scope). */
  denyWrites: number | undefined;
  writes(): LoggedRequest[];
  close(): Promise<void>;
}

/** `tokens` maps a token's value to its user; `tokenOf` finds the token in a request's headers. */
export async function serveFake(
  routes: Route[],
  tokens: Record<string, string>,
  tokenOf: (headers: http.IncomingHttpHeaders) => { header: string; token: string } | undefined,
): Promise<FakeHost> {
  const fake: FakeHost = {
    url: '',
    requests: [],
    denyWrites: undefined,
    writes: () => fake.requests.filter((r) => r.method !== 'GET'),
    close: () => new Promise((done) => server.close(() => done())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        body = raw;
      }
      const found = tokenOf(req.headers);
      const user = found === undefined ? undefined : tokens[found.token];
      const path = decodeURIComponent(url.pathname);
      const entry: LoggedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        auth: found?.header,
        authorized: user !== undefined,
        body,
        route: undefined,
        status: 404,
      };
      fake.requests.push(entry);
      let answer: Answer = { status: 404, json: { message: '404 Not Found' } };
      if (user === undefined) answer = { status: 401, json: { message: '401 Unauthorized' } };
      else {
        for (const route of routes) {
          const m = route.method === entry.method ? (url.pathname.match(route.path) ?? path.match(route.path)) : null;
          if (m === null) continue;
          entry.route = route.name;
          answer =
            route.write && fake.denyWrites !== undefined
              ? { status: fake.denyWrites, json: { message: '403 Forbidden - insufficient_scope' } }
              : route.handler(m, { query: url.searchParams, body, user });
          break;
        }
      }
      entry.status = answer.status ?? 200;
      if (answer.text !== undefined) {
        res.writeHead(entry.status, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(answer.text);
      } else {
        res.writeHead(entry.status, { 'Content-Type': 'application/json' });
        res.end(answer.json === undefined ? '' : JSON.stringify(answer.json));
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** A page of a list as GitLab and GitCode serve them: `page` and `per_page` (default 20). */
export function page<T>(items: T[], query: URLSearchParams): T[] {
  const per = Number(query.get('per_page') ?? 20);
  const n = Number(query.get('page') ?? 1);
  return items.slice((n - 1) * per, n * per);
}

/**
 * A fake GitCode REST API v5 on 127.0.0.1 for the command line's end-to-end tests, after docs.gitcode.com: pull
 * requests (base.sha, head.sha, labels), their comments (list, create, edit — PATCH …/pulls/comments/{id}, answered `{}`
 * as the page shows — and delete), the operation log (operate_logs: action, content, created_at), file contents at a
 * ref (base64), commits, GET /user, label removal. Auth: `Authorization: Bearer`.
 */
import { page, serveFake, type FakeHost } from './fake-host.js';

interface FakeComment {
  id: number;
  body: string;
  user: { login: string };
}

interface FakePull {
  number: number;
  baseSha: string;
  headSha: string;
  baseRef: string;
  labels: string[];
  comments: FakeComment[];
  /** What GET …/pulls/{number}/operate_logs lists, oldest first. */
  logs?: { action: string; content: string; created_at: string }[];
}

export interface FakeGitCode extends FakeHost {
  /** The API base, as GITCODE_API_URL. */
  api: string;
  repo: string;
  pulls: Map<number, FakePull>;
  files: Map<string, Map<string, string>>;
}

export async function startFakeGitCode(options: {
  repo?: string;
  tokens: Record<string, string>;
}): Promise<FakeGitCode> {
  const repo = options.repo ?? 'ascend/demo';
  const pulls = new Map<number, FakePull>();
  const files = new Map<string, Map<string, string>>();
  let nextComment = 5000;
  const r = `^/api/v5/repos/${repo}`;
  const pull = (m: RegExpMatchArray): FakePull | undefined => pulls.get(Number(m[1]));
  const notFound = { status: 404, json: { message: 'Not Found' } };
  const host = await serveFake(
    [
      {
        name: 'user',
        method: 'GET',
        path: /^\/api\/v5\/user$/,
        handler: (_m, q) => ({ json: { id: '64e5', login: q.user, name: q.user } }),
      },
      {
        name: 'pulls.get',
        method: 'GET',
        path: new RegExp(`${r}/pulls/(\\d+)$`),
        handler: (m) => {
          const p = pull(m);
          return p
            ? {
                json: {
                  number: p.number,
                  state: 'open',
                  labels: p.labels.map((name, i) => ({ id: i + 1, name })),
                  head: { sha: p.headSha, ref: 'feature' },
                  base: { sha: p.baseSha, ref: p.baseRef },
                },
              }
            : notFound;
        },
      },
      {
        name: 'comments.list',
        method: 'GET',
        path: new RegExp(`${r}/pulls/(\\d+)/comments$`),
        handler: (m, q) => (pull(m) ? { json: page(pull(m)!.comments, q.query) } : notFound),
      },
      {
        name: 'comments.create',
        method: 'POST',
        path: new RegExp(`${r}/pulls/(\\d+)/comments$`),
        write: true,
        handler: (m, q) => {
          const p = pull(m);
          if (!p) return notFound;
          const c = {
            id: nextComment++,
            body: String((q.body as { body?: unknown }).body),
            user: { login: q.user ?? '' },
          };
          p.comments.push(c);
          return { status: 201, json: c };
        },
      },
      {
        name: 'comments.edit',
        method: 'PATCH',
        path: new RegExp(`${r}/pulls/comments/(\\d+)$`),
        write: true,
        handler: (m, q) => {
          for (const p of pulls.values()) {
            const c = p.comments.find((x) => x.id === Number(m[1]));
            if (c === undefined) continue;
            if (c.user.login !== q.user) return { status: 403, json: { message: 'Forbidden' } };
            c.body = String((q.body as { body?: unknown }).body);
            return { json: {} };
          }
          return notFound;
        },
      },
      {
        name: 'pulls.operate_logs',
        method: 'GET',
        path: new RegExp(`${r}/pulls/(\\d+)/operate_logs$`),
        handler: (m, q) => {
          const p = pull(m);
          if (!p) return notFound;
          const logs = (p.logs ?? []).map((l, i) => ({ id: 274500 + i, ...l }));
          return { json: page(q.query.get('sort') === 'asc' ? logs : logs.reverse(), q.query) };
        },
      },
      {
        name: 'comments.delete',
        method: 'DELETE',
        path: new RegExp(`${r}/pulls/comments/(\\d+)$`),
        write: true,
        handler: (m, q) => {
          for (const p of pulls.values()) {
            const c = p.comments.find((x) => x.id === Number(m[1]));
            if (c === undefined) continue;
            if (c.user.login !== q.user) return { status: 403, json: { message: 'Forbidden' } };
            p.comments = p.comments.filter((x) => x !== c);
            return { status: 204 };
          }
          return notFound;
        },
      },
      {
        name: 'labels.remove',
        method: 'DELETE',
        path: new RegExp(`${r}/pulls/(\\d+)/labels/([^/]+)$`),
        write: true,
        handler: (m) => {
          const p = pull(m);
          if (!p) return notFound;
          p.labels = p.labels.filter((l) => l !== decodeURIComponent(m[2]!));
          return { status: 204 };
        },
      },
      {
        name: 'contents.get',
        method: 'GET',
        path: new RegExp(`${r}/contents/(.+)$`),
        handler: (m, q) => {
          const text = files.get(q.query.get('ref') ?? '')?.get(decodeURIComponent(m[1]!));
          return text === undefined
            ? notFound
            : { json: { type: 'file', encoding: 'base64', content: Buffer.from(text).toString('base64'), path: m[1] } };
        },
      },
      {
        name: 'commits.get',
        method: 'GET',
        path: new RegExp(`${r}/commits/([0-9a-f]{40})$`),
        handler: (m) => (files.has(m[1]!) ? { json: { sha: m[1] } } : notFound),
      },
    ],
    options.tokens,
    (headers) => {
      const a = headers.authorization;
      return typeof a === 'string' && a.startsWith('Bearer ')
        ? { header: 'authorization', token: a.slice('Bearer '.length) }
        : undefined;
    },
  );
  return Object.assign(host, { api: `${host.url}/api/v5`, repo, pulls, files });
}

/**
 * A fake GitLab REST API v4 on 127.0.0.1 for the command line's end-to-end tests, after docs.gitlab.com: merge
 * requests (diff_refs, labels, remove_labels), their notes (list, create, edit, delete; `system` notes), raw files at a
 * ref, commits, GET /user, label events and versions. Auth: the PRIVATE-TOKEN header.
 */
import { page, serveFake, type FakeHost } from './fake-host.js';

interface FakeNote {
  id: number;
  body: string;
  author: { username: string };
  system: boolean;
}

interface FakeMergeRequest {
  iid: number;
  baseSha: string;
  headSha: string;
  targetBranch: string;
  labels: string[];
  notes: FakeNote[];
  labelEvents: { action: 'add' | 'remove'; label: string; created_at: string }[];
  versions: { head_commit_sha: string; created_at: string }[];
}

export interface FakeGitLab extends FakeHost {
  /** The API base, as CI_API_V4_URL. */
  api: string;
  project: string;
  mergeRequests: Map<number, FakeMergeRequest>;
  /** sha → repository path → text. */
  files: Map<string, Map<string, string>>;
}

export async function startFakeGitLab(options: {
  project?: string;
  tokens: Record<string, string>;
}): Promise<FakeGitLab> {
  const project = options.project ?? '42';
  const mergeRequests = new Map<number, FakeMergeRequest>();
  const files = new Map<string, Map<string, string>>();
  let nextNote = 1000;
  const p = `^/api/v4/projects/${encodeURIComponent(project)}`;
  const mr = (m: RegExpMatchArray): FakeMergeRequest | undefined => mergeRequests.get(Number(m[1]));
  const notFound = { status: 404, json: { message: '404 Not found' } };
  const mrJson = (m: FakeMergeRequest): unknown => ({
    iid: m.iid,
    sha: m.headSha,
    target_branch: m.targetBranch,
    labels: m.labels,
    diff_refs: { base_sha: m.baseSha, head_sha: m.headSha, start_sha: m.baseSha },
  });
  const host = await serveFake(
    [
      {
        name: 'user',
        method: 'GET',
        path: /^\/api\/v4\/user$/,
        handler: (_m, r) => ({ json: { id: 7, username: r.user } }),
      },
      {
        name: 'mr.get',
        method: 'GET',
        path: new RegExp(`${p}/merge_requests/(\\d+)$`),
        handler: (m) => (mr(m) ? { json: mrJson(mr(m)!) } : notFound),
      },
      {
        name: 'mr.update',
        method: 'PUT',
        path: new RegExp(`${p}/merge_requests/(\\d+)$`),
        write: true,
        handler: (m, r) => {
          const found = mr(m);
          if (!found) return notFound;
          const remove = String((r.body as { remove_labels?: unknown }).remove_labels ?? '').split(',');
          found.labels = found.labels.filter((l) => !remove.includes(l));
          return { json: mrJson(found) };
        },
      },
      {
        name: 'notes.list',
        method: 'GET',
        path: new RegExp(`${p}/merge_requests/(\\d+)/notes$`),
        handler: (m, r) => (mr(m) ? { json: page(mr(m)!.notes, r.query) } : notFound),
      },
      {
        name: 'notes.create',
        method: 'POST',
        path: new RegExp(`${p}/merge_requests/(\\d+)/notes$`),
        write: true,
        handler: (m, r) => {
          const found = mr(m);
          if (!found) return notFound;
          const note = {
            id: nextNote++,
            body: String((r.body as { body?: unknown }).body),
            author: { username: r.user ?? '' },
            system: false,
          };
          found.notes.push(note);
          return { status: 201, json: note };
        },
      },
      {
        name: 'notes.edit',
        method: 'PUT',
        path: new RegExp(`${p}/merge_requests/(\\d+)/notes/(\\d+)$`),
        write: true,
        handler: (m, r) => {
          const note = mr(m)?.notes.find((n) => n.id === Number(m[2]));
          if (!note) return notFound;
          // GitLab lets only a note's author edit it.
          if (note.author.username !== r.user) return { status: 403, json: { message: '403 Forbidden' } };
          note.body = String((r.body as { body?: unknown }).body);
          return { json: note };
        },
      },
      {
        name: 'notes.delete',
        method: 'DELETE',
        path: new RegExp(`${p}/merge_requests/(\\d+)/notes/(\\d+)$`),
        write: true,
        handler: (m) => {
          const found = mr(m);
          if (!found) return notFound;
          found.notes = found.notes.filter((n) => n.id !== Number(m[2]));
          return { status: 204 };
        },
      },
      {
        name: 'labelEvents',
        method: 'GET',
        path: new RegExp(`${p}/merge_requests/(\\d+)/resource_label_events$`),
        handler: (m, r) =>
          mr(m)
            ? {
                json: page(
                  mr(m)!.labelEvents.map((e, i) => ({
                    id: i + 1,
                    action: e.action,
                    created_at: e.created_at,
                    label: { name: e.label },
                  })),
                  r.query,
                ),
              }
            : notFound,
      },
      {
        name: 'versions',
        method: 'GET',
        path: new RegExp(`${p}/merge_requests/(\\d+)/versions$`),
        handler: (m, r) => (mr(m) ? { json: page([...mr(m)!.versions].reverse(), r.query) } : notFound),
      },
      {
        name: 'files.raw',
        method: 'GET',
        // :file_path arrives URL-encoded (slashes as %2F): matched on the raw pathname.
        path: new RegExp(`${p}/repository/files/([^/]+)/raw$`),
        handler: (m, r) => {
          const text = files.get(r.query.get('ref') ?? '')?.get(decodeURIComponent(m[1]!));
          return text === undefined ? { status: 404, json: { message: '404 File Not Found' } } : { text };
        },
      },
      {
        name: 'commits.get',
        method: 'GET',
        path: new RegExp(`${p}/repository/commits/([0-9a-f]{40})$`),
        handler: (m) =>
          files.has(m[1]!) ? { json: { id: m[1] } } : { status: 404, json: { message: '404 Commit Not Found' } },
      },
    ],
    options.tokens,
    (headers) =>
      typeof headers['private-token'] === 'string'
        ? { header: 'private-token', token: headers['private-token'] }
        : undefined,
  );
  return Object.assign(host, { api: `${host.url}/api/v4`, project, mergeRequests, files });
}

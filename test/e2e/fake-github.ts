/**
 * A fake GitHub (REST API + Actions results service (Twirp) + blob storage) served on
 * 127.0.0.1 for end-to-end tests of the bundled action. The REAL @actions/github and
 * @actions/artifact clients talk to it when a child process gets `fake.env(...)`.
 *
 * Everything is in memory and exposed on `fake.state` so tests can seed and assert.
 * Every request is logged (authorization value redacted); unknown routes answer
 * 404 JSON and are flagged `unmatched` so missing routes are visible.
 *
 * Layout of the single server:
 *   /repos/..., /user                            GitHub REST (GITHUB_API_URL = fake.url)
 *   /twirp/github.actions.results.api.v1.ArtifactService/<Method>   (ACTIONS_RESULTS_URL = fake.url + '/')
 *   /blob/artifacts/<id>/<name>.zip?sig=...      "blob storage" (302 / signed URL target; no auth needed)
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildZip, type ZipEntry, type ZipOptions } from './zip.js';

// ───────────────────────────── types ─────────────────────────────

export interface FakeGitHubOptions {
  /** Default owner/repo used by env() and the add*() helpers. Default 'octo-org/octo-repo'. */
  repository?: string;
  /** Default run id for env() / addArtifact(). Default 1001. */
  runId?: number;
  /** Default branch name for GET /repos/:o/:r and contents without ?ref. Default 'main'. */
  defaultBranch?: string;
  /** Token put in env() as GITHUB_TOKEN / INPUT_GITHUB-TOKEN is NOT set (inputs are the action's business). Default 'ghs_fake_token'. */
  token?: string;
  /** When true (default), REST routes answer 401 without an Authorization header. Blob routes never need auth. */
  requireAuth?: boolean;
  /** Login attached to comments / PRs / commits created through the API. Default 'github-actions[bot]'. */
  botLogin?: string;
}

interface RequestLogEntry {
  seq: number;
  method: string;
  /** pathname, without query string */
  path: string;
  /** parsed query string (last value wins) */
  query: Record<string, string>;
  /** lower-cased request headers; `authorization` is replaced by '<redacted>' */
  headers: Record<string, string>;
  /** true when an Authorization header was present */
  hasAuth: boolean;
  /** first word of the Authorization header ('token', 'Bearer', …) */
  authScheme?: string;
  /** parsed JSON body, or raw string, or undefined when empty */
  body?: unknown;
  /** route name that handled it ('issues.createComment', 'twirp.ListArtifacts', 'blob', …); undefined when unmatched */
  route?: string;
  unmatched: boolean;
  forced: boolean;
  status: number;
  /** the fault injected instead of an answer (issue 13: see injectFaults) */
  fault?: FaultKind;
  /** held by holdRequests until enough concurrent ones arrived (issue 23) */
  held?: boolean;
}

interface FakeArtifact {
  id: number;
  name: string;
  owner: string;
  repo: string;
  runId: number;
  runBackendId: string;
  jobBackendId: string;
  zip: Buffer;
  size: number;
  createdAt: string;
  /** 'sha256:<hex>' of the zip, as the real API reports it */
  digest: string;
  expired: boolean;
}

interface AddArtifactInput {
  name: string;
  runId?: number;
  /** default repository's owner/repo unless given */
  repository?: string;
  /** plain files → deflate entries */
  files?: Record<string, string | Uint8Array>;
  /** raw entries, names written verbatim (hostile names allowed: '../evil.txt', '/abs.txt') */
  entries?: ZipEntry[];
  /** a ready-made archive (overrides files/entries) */
  zip?: Buffer;
  zipOptions?: ZipOptions;
  id?: number;
  expired?: boolean;
  createdAt?: string;
}

interface FakeUser {
  login: string;
  id: number;
  type: 'Bot' | 'User';
}

interface FakeComment {
  id: number;
  owner: string;
  repo: string;
  issueNumber: number;
  body: string;
  user: FakeUser;
  createdAt: string;
  updatedAt: string;
}

interface FakePull {
  number: number;
  owner: string;
  repo: string;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  merged: boolean;
  draft: boolean;
  headRef: string;
  /** owner of the head repo (fork PRs: a different owner) */
  headOwner: string;
  /** head sha when the head ref is not tracked in the fake's refs (e.g. fork PRs) */
  headSha: string;
  /** every head sha this PR has had (for GET /commits/:sha/pulls) */
  headShas: string[];
  /** label names (POST /issues/:n/labels adds, DELETE /issues/:n/labels/:name removes) */
  labels: string[];
  /** what GET /issues/:n/events lists: every label added or removed, with GitHub's (server) time */
  labelEvents: FakeLabelEvent[];
  baseRef: string;
  user: FakeUser;
  createdAt: string;
  updatedAt: string;
}

interface FakeLabelEvent {
  event: 'labeled' | 'unlabeled';
  label: string;
  /** ISO 8601, GitHub's clock */
  createdAt: string;
  actor: FakeUser;
}

/** A workflow run as GET /actions/runs/:id and GET /actions/workflows/:id/runs list it. */
interface FakeRun {
  id: number;
  owner: string;
  repo: string;
  workflowId: number;
  runNumber: number;
  event: string;
  headSha: string;
  headBranch: string;
  /** `owner/repo` of the head repository (a fork's for fork PRs) */
  headRepository: string;
  /** ISO 8601, GitHub's clock */
  createdAt: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
}

type GitObject =
  | { type: 'blob'; content: Buffer }
  | { type: 'tree'; entries: TreeEntry[] }
  | { type: 'commit'; tree: string; parents: string[]; message: string; author: GitIdentity; committer: GitIdentity };

interface TreeEntry {
  name: string;
  /** '100644' | '100755' | '040000' | '120000' | '160000' */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
}

interface GitIdentity {
  name: string;
  email: string;
  date: string;
}

interface ForcedResponse {
  /** HTTP method to match; any when omitted */
  method?: string;
  /** exact pathname, or a RegExp tested against the pathname */
  path: string | RegExp;
  status: number;
  /** JSON body; default `{"message": <status text>}` */
  body?: unknown;
  headers?: Record<string, string>;
  /** how many times to apply; unlimited when omitted */
  times?: number;
}

/** The head commit the fake reports for a workflow run (GET /actions/runs/:run). */
export function runHeadSha(runId: number): string {
  return createHash('sha1').update(`run-${runId}`).digest('hex');
}

interface FakeState {
  artifacts: FakeArtifact[];
  comments: FakeComment[];
  pulls: FakePull[];
  /** workflow runs seeded with addRun (runs that only have artifacts are answered from their id, see runHeadSha) */
  runs: FakeRun[];
  /** key `${owner}/${repo}` → (full ref name 'refs/heads/x' → sha) */
  refs: Map<string, Map<string, string>>;
  /** content-addressed (real git sha1) object store shared by all repos */
  objects: Map<string, GitObject>;
  requests: RequestLogEntry[];
  forced: ForcedResponse[];
  /** token → identity used for created comments/PRs (falls back to the bot) */
  users: Map<string, FakeUser>;
  nextId: number;
}

interface EnvOptions {
  /** run whose artifacts the runtime token grants (same-run Twirp). Default opts.runId */
  runId?: number;
  repository?: string;
  /** GITHUB_WORKSPACE (default download dir of @actions/artifact) */
  workspace?: string;
  eventName?: string;
  eventPath?: string;
  sha?: string;
  ref?: string;
  /** extra vars merged last (e.g. INPUT_*, GITHUB_STEP_SUMMARY, RUNNER_TEMP) */
  extra?: Record<string, string>;
}

export interface FakeGitHub {
  /** http://127.0.0.1:PORT — also the GITHUB_API_URL */
  url: string;
  state: FakeState;
  opts: Required<FakeGitHubOptions>;
  close(): Promise<void>;
  /** env vars for a child process (add PATH yourself). */
  env(o?: EnvOptions): Record<string, string>;
  /** unsigned JWT whose scp grants Actions.Results for the run's backend ids */
  runtimeToken(runId?: number): string;
  runBackendId(runId: number): string;
  jobBackendId(runId: number): string;

  addArtifact(a: AddArtifactInput): FakeArtifact;
  addComment(c: { issueNumber: number; body: string; user?: Partial<FakeUser>; repository?: string }): FakeComment;
  /** seed a PR directly (no ref validation) */
  addPull(p: {
    number?: number;
    headRef: string;
    headSha?: string;
    headOwner?: string;
    baseRef?: string;
    title?: string;
    body?: string;
    state?: 'open' | 'closed';
    merged?: boolean;
    repository?: string;
    labels?: string[];
    /** when the PR was opened (default now); its labels count as added then unless `labeledAt` says otherwise */
    createdAt?: string;
    labeledAt?: string;
  }): FakePull;
  /** seed a workflow run (ids, head, branch and time as GitHub records them) */
  addRun(r: Partial<Omit<FakeRun, 'owner' | 'repo'>> & { id: number; headSha: string; repository?: string }): FakeRun;
  comments(issueNumber: number, repository?: string): FakeComment[];
  forceResponse(f: ForcedResponse): void;

  /** create blobs/tree/commit and move refs/heads/<branch> (created if missing). Returns the commit sha. */
  commitFiles(c: {
    branch: string;
    files: Record<string, string | null>;
    message?: string;
    /** parent commit; default current branch head (if any). Files are applied on top of its tree. */
    parent?: string | null;
    repository?: string;
  }): string;
  setRef(branch: string, sha: string, repository?: string): void;
  getRef(branch: string, repository?: string): string | undefined;
  /** file content (utf-8) at branch / commit sha / tree sha, undefined when missing */
  readFile(refOrSha: string, path: string, repository?: string): string | undefined;
  /** all files (utf-8) at branch / sha */
  listFiles(refOrSha: string, repository?: string): Record<string, string>;
  getObject(sha: string): GitObject | undefined;

  /** logged requests, optionally filtered */
  requests(filter?: { method?: string; path?: string | RegExp; route?: string }): RequestLogEntry[];
  /** requests that (would) change state: POST/PUT/PATCH/DELETE except read-only Twirp RPCs */
  writes(): RequestLogEntry[];
  unmatched(): RequestLogEntry[];
  clearLog(): void;

  /** issue 13: fail a share of matching requests once each (5xx, reset, cut-short body); see FaultOptions. */
  injectFaults(f: FaultOptions): void;

  /**
   * issue 23: concurrent writers. The next `count` requests matching `method` and `path` (tested on the decoded path) are held until all `count` have
   * arrived, then answered in arrival order: two runs that both read a branch before either moves it. After `timeoutMs`
   * (default 20 s) whatever arrived is answered. Returns a promise that resolves when they were released.
   */
  holdRequests(h: { method?: string; path: RegExp; count: number; timeoutMs?: number }): Promise<number>;
}

// ───────────────────────────── helpers ─────────────────────────────

/** GitHub's contents API returns a file's content in its JSON form up to 1 MB. */
const CONTENTS_JSON_LIMIT = 1024 * 1024;

const BOT: FakeUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };
const DOCS = 'https://docs.github.com/rest';

class HttpError extends Error {
  constructor(
    public status: number,
    public body: unknown,
    public headers: Record<string, string> = {},
  ) {
    super(
      typeof body === 'object' && body && 'message' in body
        ? String((body as { message: unknown }).message)
        : `HTTP ${status}`,
    );
  }
}

const notFound = (): HttpError => new HttpError(404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
const unprocessable = (message: string, errors?: unknown[]): HttpError =>
  new HttpError(422, { message, ...(errors ? { errors } : {}), documentation_url: DOCS, status: '422' });

function b64url(s: string): string {
  return Buffer.from(s).toString('base64url');
}

/** base64 wrapped at 60 columns with trailing newline, as GitHub returns blob/contents content */
function githubBase64(buf: Buffer): string {
  const b = buf.toString('base64');
  let out = '';
  for (let i = 0; i < b.length; i += 60) out += b.slice(i, i + 60) + '\n';
  return out;
}

function hashObject(type: string, payload: Buffer): string {
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`${type} ${payload.length}\0`), payload]))
    .digest('hex');
}

function gitTreeSortKey(e: TreeEntry): string {
  return e.type === 'tree' ? e.name + '/' : e.name;
}

function serializeTree(entries: TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => {
    const ka = Buffer.from(gitTreeSortKey(a));
    const kb = Buffer.from(gitTreeSortKey(b));
    return Buffer.compare(ka, kb);
  });
  return Buffer.concat(
    sorted.map((e) =>
      Buffer.concat([Buffer.from(`${e.mode === '040000' ? '40000' : e.mode} ${e.name}\0`), Buffer.from(e.sha, 'hex')]),
    ),
  );
}

function gitDate(iso: string): string {
  return `${Math.floor(new Date(iso).getTime() / 1000)} +0000`;
}

function serializeCommit(c: Extract<GitObject, { type: 'commit' }>): Buffer {
  let s = `tree ${c.tree}\n`;
  for (const p of c.parents) s += `parent ${p}\n`;
  s += `author ${c.author.name} <${c.author.email}> ${gitDate(c.author.date)}\n`;
  s += `committer ${c.committer.name} <${c.committer.email}> ${gitDate(c.committer.date)}\n\n`;
  s += c.message;
  return Buffer.from(s);
}

function splitRepo(full: string): [string, string] {
  const [o, r] = full.split('/');
  if (!o || !r) throw new Error(`repository must be owner/repo, got ${full}`);
  return [o, r];
}

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  if ((contentType ?? '').includes('json') || /^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

type Obj = Record<string, unknown>;
const asObj = (b: unknown): Obj => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Obj) : {});

// ───────────────────────────── server ─────────────────────────────

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const opts: Required<FakeGitHubOptions> = {
    repository: options.repository ?? 'octo-org/octo-repo',
    runId: options.runId ?? 1001,
    defaultBranch: options.defaultBranch ?? 'main',
    token: options.token ?? 'ghs_fake_token',
    requireAuth: options.requireAuth ?? true,
    botLogin: options.botLogin ?? BOT.login,
  };
  const bot: FakeUser = { ...BOT, login: opts.botLogin };
  const state: FakeState = {
    artifacts: [],
    comments: [],
    pulls: [],
    runs: [],
    refs: new Map(),
    objects: new Map(),
    requests: [],
    forced: [],
    users: new Map(),
    nextId: 1,
  };
  let seq = 0;
  let baseUrl = '';
  const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const newId = (): number => state.nextId++;

  // ── ids for the results service ──
  const runBackendId = (runId: number): string => `00000000-0000-4000-8000-${String(runId).padStart(12, '0')}`;
  const jobBackendId = (runId: number): string => `00000000-0000-4000-9000-${String(runId).padStart(12, '0')}`;
  const runtimeToken = (runId = opts.runId): string => {
    const header = b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const payload = b64url(
      JSON.stringify({
        scp: `Actions.ExampleScope Actions.Results:${runBackendId(runId)}:${jobBackendId(runId)}`,
        iat: Math.floor(Date.now() / 1000),
      }),
    );
    return `${header}.${payload}.`;
  };

  // ── git object store ──
  const putObject = (o: GitObject): string => {
    let sha: string;
    if (o.type === 'blob') sha = hashObject('blob', o.content);
    else if (o.type === 'tree') sha = hashObject('tree', serializeTree(o.entries));
    else sha = hashObject('commit', serializeCommit(o));
    if (!state.objects.has(sha)) state.objects.set(sha, o);
    return sha;
  };
  const repoRefs = (owner: string, repo: string): Map<string, string> => {
    const k = `${owner}/${repo}`;
    let m = state.refs.get(k);
    if (!m) state.refs.set(k, (m = new Map()));
    return m;
  };
  const getObj = (sha: string): GitObject | undefined => state.objects.get(sha);

  /** flatten a tree into path → entry (blobs/submodules only) */
  const flatten = (treeSha: string, prefix = '', out = new Map<string, TreeEntry>()): Map<string, TreeEntry> => {
    const t = getObj(treeSha);
    if (!t || t.type !== 'tree') throw unprocessable(`${treeSha} is not a valid tree`);
    for (const e of t.entries) {
      const p = prefix + e.name;
      if (e.type === 'tree') flatten(e.sha, p + '/', out);
      else out.set(p, { ...e, name: p });
    }
    return out;
  };
  /** build nested trees from a flat path map; returns root tree sha */
  const buildTree = (flat: Map<string, TreeEntry>): string => {
    const build = (prefix: string): string => {
      const direct: TreeEntry[] = [];
      const subdirs = new Set<string>();
      for (const [p, e] of flat) {
        if (!p.startsWith(prefix)) continue;
        const rest = p.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (slash < 0) direct.push({ ...e, name: rest });
        else subdirs.add(rest.slice(0, slash));
      }
      for (const d of subdirs) direct.push({ name: d, mode: '040000', type: 'tree', sha: build(prefix + d + '/') });
      return putObject({ type: 'tree', entries: direct });
    };
    return build('');
  };
  const resolveCommitish = (owner: string, repo: string, refOrSha: string): string | undefined => {
    const refs = repoRefs(owner, repo);
    const name = refOrSha.replace(/^refs\/heads\//, '');
    const viaRef = refs.get(`refs/heads/${name}`) ?? refs.get(refOrSha) ?? refs.get(`refs/tags/${name}`);
    if (viaRef) return viaRef;
    if (/^[0-9a-f]{40}$/.test(refOrSha) && state.objects.has(refOrSha)) return refOrSha;
    return undefined;
  };
  const treeOf = (sha: string): string | undefined => {
    const o = getObj(sha);
    if (!o) return undefined;
    if (o.type === 'commit') return o.tree;
    if (o.type === 'tree') return sha;
    return undefined;
  };
  const lookupPath = (treeSha: string, path: string): TreeEntry | undefined => {
    const parts = path.split('/').filter(Boolean);
    let cur: TreeEntry = { name: '', mode: '040000', type: 'tree', sha: treeSha };
    for (const part of parts) {
      const t = getObj(cur.sha);
      if (!t || t.type !== 'tree') return undefined;
      const next = t.entries.find((e) => e.name === part);
      if (!next) return undefined;
      cur = next;
    }
    return cur;
  };
  const isAncestor = (ancestor: string, sha: string): boolean => {
    const seen = new Set<string>();
    const stack = [sha];
    while (stack.length) {
      const s = stack.pop()!;
      if (s === ancestor) return true;
      if (seen.has(s)) continue;
      seen.add(s);
      const o = getObj(s);
      if (o?.type === 'commit') stack.push(...o.parents);
    }
    return false;
  };
  const identity = (i: unknown, fallback: GitIdentity): GitIdentity => {
    const o = asObj(i);
    return {
      name: typeof o.name === 'string' ? o.name : fallback.name,
      email: typeof o.email === 'string' ? o.email : fallback.email,
      date: typeof o.date === 'string' ? o.date : fallback.date,
    };
  };
  const botIdentity = (): GitIdentity => ({
    name: opts.botLogin,
    email: '41898282+github-actions[bot]@users.noreply.github.com',
    date: now(),
  });

  // ── JSON renderers ──
  const api = (owner: string, repo: string, rest = ''): string => `${baseUrl}/repos/${owner}/${repo}${rest}`;
  const html = (owner: string, repo: string, rest = ''): string => `https://github.com/${owner}/${repo}${rest}`;
  const userJson = (u: FakeUser): Obj => ({
    login: u.login,
    id: u.id,
    node_id: `U_${u.id}`,
    type: u.type,
    site_admin: false,
    html_url: `https://github.com/${u.login.replace('[bot]', '')}`,
  });
  const repoJson = (owner: string, repo: string): Obj => ({
    id: 1,
    node_id: 'R_1',
    name: repo,
    full_name: `${owner}/${repo}`,
    owner: { login: owner, id: 2, type: 'Organization' },
    private: false,
    fork: false,
    default_branch: opts.defaultBranch,
    html_url: html(owner, repo),
    url: api(owner, repo),
  });
  const artifactJson = (a: FakeArtifact): Obj => ({
    id: a.id,
    node_id: `MDg6QXJ0aWZhY3Q${a.id}`,
    name: a.name,
    size_in_bytes: a.size,
    url: api(a.owner, a.repo, `/actions/artifacts/${a.id}`),
    archive_download_url: api(a.owner, a.repo, `/actions/artifacts/${a.id}/zip`),
    expired: a.expired,
    digest: a.digest,
    created_at: a.createdAt,
    updated_at: a.createdAt,
    expires_at: new Date(Date.parse(a.createdAt) + 90 * 864e5).toISOString(),
    workflow_run: {
      id: a.runId,
      repository_id: 1,
      head_repository_id: 1,
      head_branch: opts.defaultBranch,
      head_sha: '0'.repeat(40),
    },
  });
  const commentJson = (c: FakeComment): Obj => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    url: api(c.owner, c.repo, `/issues/comments/${c.id}`),
    html_url: html(c.owner, c.repo, `/pull/${c.issueNumber}#issuecomment-${c.id}`),
    issue_url: api(c.owner, c.repo, `/issues/${c.issueNumber}`),
    body: c.body,
    user: userJson(c.user),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    author_association: c.user.type === 'Bot' ? 'NONE' : 'MEMBER',
  });
  const pullHeadSha = (p: FakePull): string => {
    if (p.state === 'open' && p.headOwner === p.owner) {
      const s = repoRefs(p.owner, p.repo).get(`refs/heads/${p.headRef}`);
      if (s) {
        if (!p.headShas.includes(s)) p.headShas.push(s);
        return s;
      }
    }
    return p.headSha;
  };
  const pullJson = (p: FakePull): Obj => {
    const headSha = pullHeadSha(p);
    const baseSha = repoRefs(p.owner, p.repo).get(`refs/heads/${p.baseRef}`) ?? '0'.repeat(40);
    return {
      id: 100000 + p.number,
      node_id: `PR_${p.number}`,
      number: p.number,
      state: p.state,
      locked: false,
      title: p.title,
      body: p.body,
      draft: p.draft,
      merged: p.merged,
      merged_at: p.merged ? p.updatedAt : null,
      url: api(p.owner, p.repo, `/pulls/${p.number}`),
      html_url: html(p.owner, p.repo, `/pull/${p.number}`),
      issue_url: api(p.owner, p.repo, `/issues/${p.number}`),
      user: userJson(p.user),
      head: {
        label: `${p.headOwner}:${p.headRef}`,
        ref: p.headRef,
        sha: headSha,
        user: { login: p.headOwner },
        repo: repoJson(p.headOwner, p.repo),
      },
      base: {
        label: `${p.owner}:${p.baseRef}`,
        ref: p.baseRef,
        sha: baseSha,
        user: { login: p.owner },
        repo: repoJson(p.owner, p.repo),
      },
      labels: p.labels.map((name, i) => ({ id: 9000 + i, name, color: 'ededed', default: false })),
      created_at: p.createdAt,
      updated_at: p.updatedAt,
    };
  };
  const refJson = (owner: string, repo: string, ref: string, sha: string): Obj => ({
    ref,
    node_id: `REF_${Buffer.from(ref).toString('base64url')}`,
    url: api(owner, repo, `/git/${ref}`),
    object: { sha, type: 'commit', url: api(owner, repo, `/git/commits/${sha}`) },
  });
  const commitJson = (owner: string, repo: string, sha: string): Obj => {
    const c = getObj(sha);
    if (!c || c.type !== 'commit') throw notFound();
    return {
      sha,
      node_id: `C_${sha}`,
      url: api(owner, repo, `/git/commits/${sha}`),
      html_url: html(owner, repo, `/commit/${sha}`),
      author: c.author,
      committer: c.committer,
      message: c.message,
      tree: { sha: c.tree, url: api(owner, repo, `/git/trees/${c.tree}`) },
      parents: c.parents.map((p) => ({
        sha: p,
        url: api(owner, repo, `/git/commits/${p}`),
        html_url: html(owner, repo, `/commit/${p}`),
      })),
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null },
    };
  };
  const treeJson = (owner: string, repo: string, sha: string, recursive: boolean): Obj => {
    const t = getObj(sha);
    if (!t || t.type !== 'tree') throw notFound();
    const out: Obj[] = [];
    const walk = (tsha: string, prefix: string): void => {
      const tt = getObj(tsha);
      if (!tt || tt.type !== 'tree') return;
      for (const e of [...tt.entries].sort((a, b) =>
        Buffer.compare(Buffer.from(gitTreeSortKey(a)), Buffer.from(gitTreeSortKey(b))),
      )) {
        const o = getObj(e.sha);
        out.push({
          path: prefix + e.name,
          mode: e.mode,
          type: e.type,
          sha: e.sha,
          ...(o?.type === 'blob' ? { size: o.content.length } : {}),
          url: api(owner, repo, `/git/${e.type === 'tree' ? 'trees' : 'blobs'}/${e.sha}`),
        });
        if (recursive && e.type === 'tree') walk(e.sha, prefix + e.name + '/');
      }
    };
    walk(sha, '');
    return { sha, url: api(owner, repo, `/git/trees/${sha}`), tree: out, truncated: false };
  };
  const contentFileJson = (
    owner: string,
    repo: string,
    path: string,
    e: TreeEntry,
    ref: string | undefined,
    withContent: boolean,
  ): Obj => {
    const o = getObj(e.sha);
    const isFile = e.type === 'blob';
    const size = o?.type === 'blob' ? o.content.length : 0;
    const name = path.split('/').pop() ?? path;
    const q = ref ? `?ref=${encodeURIComponent(ref)}` : '';
    return {
      type: isFile ? (e.mode === '120000' ? 'symlink' : 'file') : e.type === 'tree' ? 'dir' : 'submodule',
      ...(withContent && isFile && o?.type === 'blob' ? { encoding: 'base64', content: githubBase64(o.content) } : {}),
      size,
      name,
      path,
      sha: e.sha,
      url: api(owner, repo, `/contents/${path}${q}`),
      git_url: api(owner, repo, `/git/${isFile ? 'blobs' : 'trees'}/${e.sha}`),
      html_url: html(owner, repo, `/blob/${ref ?? opts.defaultBranch}/${path}`),
      download_url: isFile ? `${baseUrl}/raw/${owner}/${repo}/${ref ?? opts.defaultBranch}/${path}` : null,
      _links: {
        self: api(owner, repo, `/contents/${path}${q}`),
        git: api(owner, repo, `/git/blobs/${e.sha}`),
        html: html(owner, repo, `/blob/x/${path}`),
      },
    };
  };

  // ── pagination ──
  const paginate = <T>(items: T[], reqUrl: URL, defaultPerPage = 30): { page: T[]; link?: string } => {
    const perPage = Math.min(
      100,
      Math.max(1, Number(reqUrl.searchParams.get('per_page') ?? defaultPerPage) || defaultPerPage),
    );
    const pageNo = Math.max(1, Number(reqUrl.searchParams.get('page') ?? 1) || 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const page = items.slice((pageNo - 1) * perPage, pageNo * perPage);
    const mk = (n: number): string => {
      const u = new URL(reqUrl.pathname + reqUrl.search, baseUrl);
      u.searchParams.set('per_page', String(perPage));
      u.searchParams.set('page', String(n));
      return u.toString();
    };
    const rels: string[] = [];
    if (pageNo > 1) rels.push(`<${mk(pageNo - 1)}>; rel="prev"`);
    if (pageNo < last) rels.push(`<${mk(pageNo + 1)}>; rel="next"`);
    if (pageNo < last) rels.push(`<${mk(last)}>; rel="last"`);
    if (pageNo > 1) rels.push(`<${mk(1)}>; rel="first"`);
    return rels.length ? { page, link: rels.join(', ') } : { page };
  };

  // ── request context ──
  interface Ctx {
    method: string;
    url: URL;
    params: string[];
    body: unknown;
    token?: string;
    log: RequestLogEntry;
  }
  interface Reply {
    status: number;
    json?: unknown;
    raw?: Buffer;
    headers?: Record<string, string>;
  }
  const ok = (json: unknown, status = 200, headers?: Record<string, string>): Reply => ({
    status,
    json,
    ...(headers ? { headers } : {}),
  });
  const actor = (ctx: Ctx): FakeUser => (ctx.token ? state.users.get(ctx.token) : undefined) ?? bot;

  type Handler = (ctx: Ctx) => Reply;
  interface Route {
    method: string;
    re: RegExp;
    name: string;
    handler: Handler;
    /** REST route that requires auth when opts.requireAuth */
    auth: boolean;
  }
  const routes: Route[] = [];
  const seg = '([^/]+)';
  const on = (method: string, pattern: string, name: string, handler: Handler, auth = true): void => {
    // ':x' → one segment, '*x' → rest (may contain slashes)
    const src = pattern.replace(/[.]/g, '\\.').replace(/:\w+/g, seg).replace(/\*\w+/g, '(.+)');
    routes.push({ method, re: new RegExp(`^${src}$`), name, handler, auth });
  };
  const p = (ctx: Ctx, i: number): string => decodeURIComponent(ctx.params[i] ?? '');

  // ───── Actions artifacts (REST) ─────
  const findArtifact = (owner: string, repo: string, id: number): FakeArtifact => {
    const a = state.artifacts.find((x) => x.id === id && x.owner === owner && x.repo === repo);
    if (!a) throw notFound();
    return a;
  };
  const listArtifactsReply = (ctx: Ctx, list: FakeArtifact[]): Reply => {
    const name = ctx.url.searchParams.get('name');
    const filtered = list.filter((a) => name === null || a.name === name).sort((a, b) => b.id - a.id);
    const { page, link } = paginate(filtered, ctx.url);
    return ok({ total_count: filtered.length, artifacts: page.map(artifactJson) }, 200, link ? { link } : undefined);
  };
  const runJson = (x: FakeRun): Obj => {
    const [headOwner, headRepo] = splitRepo(x.headRepository);
    return {
      id: x.id,
      name: 'Train and gate memory',
      node_id: `WFR_${x.id}`,
      workflow_id: x.workflowId,
      run_number: x.runNumber,
      run_attempt: 1,
      event: x.event,
      status: x.status,
      conclusion: x.conclusion,
      head_sha: x.headSha,
      head_branch: x.headBranch,
      head_repository: repoJson(headOwner, headRepo),
      repository: repoJson(x.owner, x.repo),
      pull_requests: [],
      created_at: x.createdAt,
      updated_at: x.createdAt,
      run_started_at: x.createdAt,
      url: api(x.owner, x.repo, `/actions/runs/${x.id}`),
      html_url: html(x.owner, x.repo, `/actions/runs/${x.id}`),
    };
  };
  on('GET', '/repos/:o/:r/actions/runs/:run', 'actions.getWorkflowRun', (ctx) => {
    const [o, r, run] = [p(ctx, 0), p(ctx, 1), Number(p(ctx, 2))];
    const seeded = state.runs.find((x) => x.owner === o && x.repo === r && x.id === run);
    if (seeded) return ok(runJson(seeded));
    // Otherwise a run is known when it has artifacts; its head commit is derived from its id, see runHeadSha().
    if (!state.artifacts.some((a) => a.owner === o && a.repo === r && a.runId === run)) throw notFound();
    return ok({ id: run, head_sha: runHeadSha(run), status: 'completed', repository: { full_name: `${o}/${r}` } });
  });
  // A workflow's runs, newest first (GitHub orders them by creation), filtered as GitHub does by event, branch and status.
  on('GET', '/repos/:o/:r/actions/workflows/:id/runs', 'actions.listWorkflowRuns', (ctx) => {
    const [o, r, id] = [p(ctx, 0), p(ctx, 1), Number(p(ctx, 2))];
    const event = ctx.url.searchParams.get('event');
    const branch = ctx.url.searchParams.get('branch');
    const status = ctx.url.searchParams.get('status');
    const list = state.runs
      .filter((x) => x.owner === o && x.repo === r && x.workflowId === id)
      .filter(
        (x) =>
          (event === null || x.event === event) &&
          (branch === null || x.headBranch === branch) &&
          (status === null || x.status === status),
      )
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
    const { page, link } = paginate(list, ctx.url);
    return ok({ total_count: list.length, workflow_runs: page.map(runJson) }, 200, link ? { link } : undefined);
  });
  on('GET', '/repos/:o/:r/actions/runs/:run/artifacts', 'actions.listWorkflowRunArtifacts', (ctx) => {
    const [o, r, run] = [p(ctx, 0), p(ctx, 1), Number(p(ctx, 2))];
    return listArtifactsReply(
      ctx,
      state.artifacts.filter((a) => a.owner === o && a.repo === r && a.runId === run),
    );
  });
  on('GET', '/repos/:o/:r/actions/artifacts', 'actions.listArtifactsForRepo', (ctx) =>
    listArtifactsReply(
      ctx,
      state.artifacts.filter((a) => a.owner === p(ctx, 0) && a.repo === p(ctx, 1)),
    ),
  );
  on('GET', '/repos/:o/:r/actions/artifacts/:id', 'actions.getArtifact', (ctx) =>
    ok(artifactJson(findArtifact(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2))))),
  );
  on('GET', '/repos/:o/:r/actions/artifacts/:id/:format', 'actions.downloadArtifact', (ctx) => {
    const a = findArtifact(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2)));
    if (p(ctx, 3) !== 'zip') throw new HttpError(422, { message: 'Invalid archive_format', documentation_url: DOCS });
    if (a.expired)
      throw new HttpError(410, { message: 'Artifact has expired', documentation_url: DOCS, status: '410' });
    return { status: 302, headers: { location: blobUrl(a) } };
  });
  on('DELETE', '/repos/:o/:r/actions/artifacts/:id', 'actions.deleteArtifact', (ctx) => {
    const a = findArtifact(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2)));
    state.artifacts.splice(state.artifacts.indexOf(a), 1);
    return { status: 204 };
  });
  const blobUrl = (a: FakeArtifact): string =>
    `${baseUrl}/blob/artifacts/${a.id}/${encodeURIComponent(a.name)}.zip?sv=2021-08-06&se=2099-01-01T00%3A00%3A00Z&sr=b&sp=r&sig=fake-sig-${a.id}`;
  on(
    'GET',
    '/blob/artifacts/:id/:file',
    'blob',
    (ctx) => {
      const a = state.artifacts.find((x) => x.id === Number(p(ctx, 0)));
      if (!a) throw new HttpError(404, { message: 'BlobNotFound' });
      return {
        status: 200,
        raw: a.zip,
        headers: {
          'content-type': 'application/zip',
          'content-disposition': `attachment; filename="${a.name}.zip"; filename*=UTF-8''${encodeURIComponent(a.name)}.zip`,
        },
      };
    },
    false,
  );

  // ───── Actions results service (Twirp, JSON, proto field names) ─────
  const twirpErr = (status: number, code: string, msg: string): HttpError => new HttpError(status, { code, msg });
  const twirpAuth = (ctx: Ctx, body: Obj): void => {
    if (!ctx.token) throw twirpErr(401, 'unauthenticated', 'missing bearer token');
    const claimed = String(body.workflow_run_backend_id ?? '');
    let scp: string;
    try {
      scp = String(asObj(JSON.parse(Buffer.from(ctx.token.split('.')[1] ?? '', 'base64url').toString())).scp ?? '');
    } catch {
      throw twirpErr(401, 'unauthenticated', 'malformed runtime token');
    }
    if (!scp.split(' ').some((s) => s.startsWith(`Actions.Results:${claimed}:`)))
      throw twirpErr(403, 'permission_denied', `token does not grant workflow run ${claimed}`);
  };
  const twirpArtifactJson = (a: FakeArtifact): Obj => ({
    workflow_run_backend_id: a.runBackendId,
    workflow_job_run_backend_id: a.jobBackendId,
    database_id: String(a.id),
    name: a.name,
    size: String(a.size),
    created_at: a.createdAt,
    digest: a.digest,
  });
  const TWIRP = '/twirp/github.actions.results.api.v1.ArtifactService';
  on(
    'POST',
    `${TWIRP}/ListArtifacts`,
    'twirp.ListArtifacts',
    (ctx) => {
      const b = asObj(ctx.body);
      twirpAuth(ctx, b);
      const runBid = String(b.workflow_run_backend_id ?? '');
      const nameFilter = b.name_filter;
      const idFilter = b.id_filter;
      const list = state.artifacts.filter(
        (a) =>
          a.runBackendId === runBid &&
          !a.expired &&
          (nameFilter === undefined || a.name === String(nameFilter)) &&
          (idFilter === undefined || String(a.id) === String(idFilter)),
      );
      return ok({ artifacts: list.map(twirpArtifactJson) });
    },
    false,
  );
  on(
    'POST',
    `${TWIRP}/GetSignedArtifactURL`,
    'twirp.GetSignedArtifactURL',
    (ctx) => {
      const b = asObj(ctx.body);
      twirpAuth(ctx, b);
      const a = state.artifacts
        .filter((x) => x.runBackendId === String(b.workflow_run_backend_id ?? '') && x.name === String(b.name ?? ''))
        .sort((x, y) => y.id - x.id)[0];
      if (!a) throw twirpErr(404, 'not_found', 'artifact not found');
      return ok({ signed_url: blobUrl(a) });
    },
    false,
  );

  // ───── authenticated user ─────
  // A personal access token (seeded in state.users) is a user; installation tokens (GITHUB_TOKEN, Apps) are refused, as on GitHub.
  on('GET', '/user', 'users.getAuthenticated', (ctx) => {
    const u = ctx.token ? state.users.get(ctx.token) : undefined;
    if (!u)
      throw new HttpError(403, {
        message: 'Resource not accessible by integration',
        documentation_url: DOCS,
        status: '403',
      });
    return ok(userJson(u));
  });

  // ───── repo ─────
  on('GET', '/repos/:o/:r', 'repos.get', (ctx) => ok(repoJson(p(ctx, 0), p(ctx, 1))));
  on('GET', '/repos/:o/:r/branches/*branch', 'repos.getBranch', (ctx) => {
    const [o, r, b] = [p(ctx, 0), p(ctx, 1), p(ctx, 2)];
    const sha = repoRefs(o, r).get(`refs/heads/${b}`);
    if (!sha) throw new HttpError(404, { message: 'Branch not found', documentation_url: DOCS, status: '404' });
    return ok({ name: b, commit: { sha, url: api(o, r, `/commits/${sha}`) }, protected: false });
  });

  // ───── issue comments ─────
  const findComment = (o: string, r: string, id: number): FakeComment => {
    const c = state.comments.find((x) => x.id === id && x.owner === o && x.repo === r);
    if (!c) throw notFound();
    return c;
  };
  on('GET', '/repos/:o/:r/issues/:n/comments', 'issues.listComments', (ctx) => {
    const [o, r, n] = [p(ctx, 0), p(ctx, 1), Number(p(ctx, 2))];
    const list = state.comments
      .filter((c) => c.owner === o && c.repo === r && c.issueNumber === n)
      .sort((a, b) => a.id - b.id);
    const { page, link } = paginate(list, ctx.url);
    return ok(page.map(commentJson), 200, link ? { link } : undefined);
  });
  on('POST', '/repos/:o/:r/issues/:n/comments', 'issues.createComment', (ctx) => {
    const b = asObj(ctx.body);
    if (typeof b.body !== 'string') throw unprocessable('Invalid request.\n\n"body" wasn\'t supplied.');
    const t = now();
    const c: FakeComment = {
      id: newId(),
      owner: p(ctx, 0),
      repo: p(ctx, 1),
      issueNumber: Number(p(ctx, 2)),
      body: b.body,
      user: actor(ctx),
      createdAt: t,
      updatedAt: t,
    };
    state.comments.push(c);
    return ok(commentJson(c), 201, { location: api(c.owner, c.repo, `/issues/comments/${c.id}`) });
  });
  on('GET', '/repos/:o/:r/issues/comments/:id', 'issues.getComment', (ctx) =>
    ok(commentJson(findComment(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2))))),
  );
  on('PATCH', '/repos/:o/:r/issues/comments/:id', 'issues.updateComment', (ctx) => {
    const c = findComment(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2)));
    const b = asObj(ctx.body);
    if (typeof b.body !== 'string') throw unprocessable('Invalid request.\n\n"body" wasn\'t supplied.');
    c.body = b.body;
    c.updatedAt = now();
    return ok(commentJson(c));
  });
  on('DELETE', '/repos/:o/:r/issues/comments/:id', 'issues.deleteComment', (ctx) => {
    const c = findComment(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2)));
    state.comments.splice(state.comments.indexOf(c), 1);
    return { status: 204 };
  });

  // ───── pulls ─────
  const findPull = (o: string, r: string, n: number): FakePull => {
    const pr = state.pulls.find((x) => x.owner === o && x.repo === r && x.number === n);
    if (!pr) throw notFound();
    return pr;
  };
  const nextPullNumber = (o: string, r: string): number =>
    Math.max(0, ...state.pulls.filter((x) => x.owner === o && x.repo === r).map((x) => x.number)) + 1;
  on('GET', '/repos/:o/:r/pulls', 'pulls.list', (ctx) => {
    const [o, r] = [p(ctx, 0), p(ctx, 1)];
    const st = ctx.url.searchParams.get('state') ?? 'open';
    const head = ctx.url.searchParams.get('head');
    const base = ctx.url.searchParams.get('base');
    const list = state.pulls
      .filter((x) => x.owner === o && x.repo === r)
      .filter((x) => st === 'all' || x.state === st)
      .filter((x) => {
        if (!head) return true;
        const [ho, hr] = head.includes(':') ? (head.split(/:(.*)/s) as [string, string]) : [undefined, head];
        return x.headRef === hr && (ho === undefined || x.headOwner === ho);
      })
      .filter((x) => !base || x.baseRef === base)
      .sort((a, b) => b.number - a.number);
    const { page, link } = paginate(list, ctx.url);
    return ok(page.map(pullJson), 200, link ? { link } : undefined);
  });
  on('GET', '/repos/:o/:r/pulls/:n', 'pulls.get', (ctx) =>
    ok(pullJson(findPull(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2))))),
  );
  on('POST', '/repos/:o/:r/pulls', 'pulls.create', (ctx) => {
    const [o, r] = [p(ctx, 0), p(ctx, 1)];
    const b = asObj(ctx.body);
    const headRaw = String(b.head ?? '');
    const base = String(b.base ?? '');
    if (!headRaw || !base || (typeof b.title !== 'string' && b.issue === undefined))
      throw unprocessable('Validation Failed', [{ resource: 'PullRequest', code: 'missing_field' }]);
    const [headOwner, headRef] = headRaw.includes(':') ? (headRaw.split(/:(.*)/s) as [string, string]) : [o, headRaw];
    const refs = repoRefs(o, r);
    const headSha = headOwner === o ? refs.get(`refs/heads/${headRef}`) : undefined;
    if (headOwner === o && !headSha)
      throw unprocessable('Validation Failed', [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    const baseSha = refs.get(`refs/heads/${base}`);
    if (!baseSha)
      throw unprocessable('Validation Failed', [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
    if (
      state.pulls.some(
        (x) =>
          x.owner === o &&
          x.repo === r &&
          x.state === 'open' &&
          x.headRef === headRef &&
          x.headOwner === headOwner &&
          x.baseRef === base,
      )
    )
      throw unprocessable('Validation Failed', [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: `A pull request already exists for ${headOwner}:${headRef}.`,
        },
      ]);
    if (headSha && (headSha === baseSha || isAncestor(headSha, baseSha)))
      throw unprocessable('Validation Failed', [
        { resource: 'PullRequest', code: 'custom', message: `No commits between ${base} and ${headRef}` },
      ]);
    const t = now();
    const pr: FakePull = {
      number: nextPullNumber(o, r),
      owner: o,
      repo: r,
      title: String(b.title ?? ''),
      body: typeof b.body === 'string' ? b.body : null,
      state: 'open',
      merged: false,
      draft: b.draft === true,
      headRef,
      headOwner,
      headSha: headSha ?? '0'.repeat(40),
      headShas: headSha ? [headSha] : [],
      labels: [],
      labelEvents: [],
      baseRef: base,
      user: actor(ctx),
      createdAt: t,
      updatedAt: t,
    };
    state.pulls.push(pr);
    return ok(pullJson(pr), 201, { location: api(o, r, `/pulls/${pr.number}`) });
  });
  on('PATCH', '/repos/:o/:r/pulls/:n', 'pulls.update', (ctx) => {
    const pr = findPull(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2)));
    const b = asObj(ctx.body);
    if (typeof b.title === 'string') pr.title = b.title;
    if (typeof b.body === 'string') pr.body = b.body;
    if (b.state === 'open' || b.state === 'closed') pr.state = b.state;
    if (typeof b.base === 'string') pr.baseRef = b.base;
    pr.updatedAt = now();
    return ok(pullJson(pr));
  });
  // Labels of a PR (as an issue): the label is created on first use, as GitHub does for a token with write access.
  on('POST', '/repos/:o/:r/issues/:n/labels', 'issues.addLabels', (ctx) => {
    const pr = findPull(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2)));
    const b = asObj(ctx.body);
    const labels = Array.isArray(b.labels) ? b.labels.map(String) : [];
    if (labels.length === 0) throw unprocessable('Invalid request.\n\n"labels" wasn\'t supplied.');
    for (const l of labels) {
      if (pr.labels.includes(l)) continue;
      pr.labels.push(l);
      pr.labelEvents.push({ event: 'labeled', label: l, createdAt: now(), actor: actor(ctx) });
    }
    return ok(pr.labels.map((name, i) => ({ id: 9000 + i, name, color: 'ededed', default: false })));
  });
  // Removing a label: 404 when the PR does not carry it, as GitHub answers.
  on('DELETE', '/repos/:o/:r/issues/:n/labels/:name', 'issues.removeLabel', (ctx) => {
    const pr = findPull(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2)));
    const name = p(ctx, 3);
    if (!pr.labels.includes(name))
      throw new HttpError(404, { message: 'Label does not exist', documentation_url: DOCS, status: '404' });
    pr.labels = pr.labels.filter((l) => l !== name);
    pr.labelEvents.push({ event: 'unlabeled', label: name, createdAt: now(), actor: actor(ctx) });
    return ok(pr.labels.map((l, i) => ({ id: 9000 + i, name: l, color: 'ededed', default: false })));
  });
  // The issue's events, oldest first: here only label changes (GitHub lists more kinds; readers pick theirs).
  // The repository's runs of every workflow, newest first, filtered by event and branch (the CLI's label rule).
  on('GET', '/repos/:o/:r/actions/runs', 'actions.listWorkflowRunsForRepo', (ctx) => {
    const [o, r] = [p(ctx, 0), p(ctx, 1)];
    const event = ctx.url.searchParams.get('event');
    const branch = ctx.url.searchParams.get('branch');
    const list = state.runs
      .filter((x) => x.owner === o && x.repo === r)
      .filter((x) => (event === null || x.event === event) && (branch === null || x.headBranch === branch))
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
    const { page, link } = paginate(list, ctx.url);
    return ok({ total_count: list.length, workflow_runs: page.map(runJson) }, 200, link ? { link } : undefined);
  });
  on('GET', '/repos/:o/:r/issues/:n/events', 'issues.listEvents', (ctx) => {
    const pr = findPull(p(ctx, 0), p(ctx, 1), Number(p(ctx, 2)));
    const events = pr.labelEvents.map((e, i) => ({
      id: 70000 + i,
      node_id: `LE_${i}`,
      event: e.event,
      actor: userJson(e.actor),
      label: { name: e.label, color: 'ededed' },
      created_at: e.createdAt,
      commit_id: null,
    }));
    const { page, link } = paginate(events, ctx.url);
    return ok(page, 200, link ? { link } : undefined);
  });
  on('GET', '/repos/:o/:r/commits/:sha/pulls', 'repos.listPullRequestsAssociatedWithCommit', (ctx) => {
    const [o, r, sha] = [p(ctx, 0), p(ctx, 1), p(ctx, 2)];
    const list = state.pulls.filter(
      (x) => x.owner === o && x.repo === r && (pullHeadSha(x) === sha || x.headShas.includes(sha)),
    );
    const { page, link } = paginate(list, ctx.url);
    return ok(page.map(pullJson), 200, link ? { link } : undefined);
  });

  // GitHub's compare: how `head` stands to `base` (ahead: base is one of head's ancestors).
  on('GET', '/repos/:o/:r/compare/:basehead', 'repos.compareCommitsWithBasehead', (ctx) => {
    const [base, head] = p(ctx, 2).split('...');
    if (base === undefined || head === undefined || getObj(base)?.type !== 'commit' || getObj(head)?.type !== 'commit')
      throw notFound();
    const status =
      base === head ? 'identical' : isAncestor(base, head) ? 'ahead' : isAncestor(head, base) ? 'behind' : 'diverged';
    return ok({
      status,
      ahead_by: status === 'ahead' ? 1 : 0,
      behind_by: status === 'behind' ? 1 : 0,
      total_commits: 0,
      commits: [],
      files: [],
    });
  });

  // ───── git data: refs ─────
  const getRefReply = (ctx: Ctx): Reply => {
    const [o, r, ref] = [p(ctx, 0), p(ctx, 1), p(ctx, 2)];
    const full = `refs/${ref}`;
    const sha = repoRefs(o, r).get(full);
    if (!sha) throw notFound();
    return ok(refJson(o, r, full, sha));
  };
  on('GET', '/repos/:o/:r/git/ref/*ref', 'git.getRef', getRefReply);
  on('GET', '/repos/:o/:r/git/refs/*ref', 'git.getRef(legacy refs/)', getRefReply);
  on('GET', '/repos/:o/:r/git/matching-refs/*ref', 'git.listMatchingRefs', (ctx) => {
    const [o, r, prefix] = [p(ctx, 0), p(ctx, 1), `refs/${p(ctx, 2)}`];
    const list = [...repoRefs(o, r)].filter(([k]) => k.startsWith(prefix)).map(([k, s]) => refJson(o, r, k, s));
    return ok(list);
  });
  on('POST', '/repos/:o/:r/git/refs', 'git.createRef', (ctx) => {
    const [o, r] = [p(ctx, 0), p(ctx, 1)];
    const b = asObj(ctx.body);
    const ref = String(b.ref ?? '');
    const sha = String(b.sha ?? '');
    if (!/^refs\/.+\/.+/.test(ref))
      throw unprocessable("Reference name must start with 'refs/' and have at least two slashes.");
    if (getObj(sha)?.type !== 'commit') throw unprocessable('Object does not exist');
    const refs = repoRefs(o, r);
    if (refs.has(ref)) throw unprocessable('Reference already exists');
    refs.set(ref, sha);
    return ok(refJson(o, r, ref, sha), 201, { location: api(o, r, `/git/${ref}`) });
  });
  on('PATCH', '/repos/:o/:r/git/refs/*ref', 'git.updateRef', (ctx) => {
    const [o, r] = [p(ctx, 0), p(ctx, 1)];
    const ref = `refs/${p(ctx, 2)}`;
    const b = asObj(ctx.body);
    const sha = String(b.sha ?? '');
    const refs = repoRefs(o, r);
    const cur = refs.get(ref);
    if (!cur) throw unprocessable('Reference does not exist');
    if (getObj(sha)?.type !== 'commit') throw unprocessable('Object does not exist');
    if (b.force !== true && !isAncestor(cur, sha)) throw unprocessable('Update is not a fast forward');
    refs.set(ref, sha);
    return ok(refJson(o, r, ref, sha));
  });
  on('DELETE', '/repos/:o/:r/git/refs/*ref', 'git.deleteRef', (ctx) => {
    const refs = repoRefs(p(ctx, 0), p(ctx, 1));
    const ref = `refs/${p(ctx, 2)}`;
    if (!refs.delete(ref)) throw unprocessable('Reference does not exist');
    return { status: 204 };
  });

  // ───── git data: blobs / trees / commits ─────
  on('POST', '/repos/:o/:r/git/blobs', 'git.createBlob', (ctx) => {
    const b = asObj(ctx.body);
    if (typeof b.content !== 'string') throw unprocessable('Invalid request.\n\n"content" wasn\'t supplied.');
    const enc = String(b.encoding ?? 'utf-8').toLowerCase();
    if (enc !== 'utf-8' && enc !== 'utf8' && enc !== 'base64')
      throw unprocessable(`encoding must be utf-8 or base64, got ${enc}`);
    const content = enc === 'base64' ? Buffer.from(b.content, 'base64') : Buffer.from(b.content, 'utf8');
    const sha = putObject({ type: 'blob', content });
    return ok({ sha, url: api(p(ctx, 0), p(ctx, 1), `/git/blobs/${sha}`) }, 201);
  });
  on('GET', '/repos/:o/:r/git/blobs/:sha', 'git.getBlob', (ctx) => {
    const sha = p(ctx, 2);
    const o = getObj(sha);
    if (!o || o.type !== 'blob') throw notFound();
    return ok({
      sha,
      node_id: `B_${sha}`,
      size: o.content.length,
      url: api(p(ctx, 0), p(ctx, 1), `/git/blobs/${sha}`),
      content: githubBase64(o.content),
      encoding: 'base64',
    });
  });
  on('POST', '/repos/:o/:r/git/trees', 'git.createTree', (ctx) => {
    const [o, r] = [p(ctx, 0), p(ctx, 1)];
    const b = asObj(ctx.body);
    if (!Array.isArray(b.tree)) throw unprocessable('Invalid tree info');
    let flat = new Map<string, TreeEntry>();
    if (b.base_tree !== undefined && b.base_tree !== null) {
      const bt = String(b.base_tree);
      if (getObj(bt)?.type !== 'tree')
        throw unprocessable('base_tree is not a valid tree oid', [{ resource: 'Tree', field: 'base_tree' }]);
      flat = flatten(bt);
    }
    for (const raw of b.tree) {
      const e = asObj(raw);
      const path = String(e.path ?? '').replace(/^\/+|\/+$/g, '');
      const mode = String(e.mode ?? '100644');
      const type = String(e.type ?? (mode === '040000' ? 'tree' : 'blob')) as TreeEntry['type'];
      if (!path || path.split('/').some((s) => s === '' || s === '.' || s === '..'))
        throw unprocessable(`tree.path contains a malformed path component`);
      if (!['100644', '100755', '040000', '120000', '160000'].includes(mode))
        throw unprocessable(`tree.mode ${mode} is invalid`);
      const under = path + '/';
      if ('sha' in e && e.sha === null) {
        flat.delete(path);
        for (const k of [...flat.keys()]) if (k.startsWith(under)) flat.delete(k);
        continue;
      }
      let sha: string;
      if (typeof e.content === 'string') {
        sha = putObject({ type: 'blob', content: Buffer.from(e.content, 'utf8') });
      } else if (typeof e.sha === 'string') {
        sha = e.sha;
        const obj = getObj(sha);
        if (type !== 'commit' && (!obj || obj.type !== type))
          throw unprocessable(`tree.sha ${sha} is not a valid ${type}`);
      } else throw unprocessable('Must supply either tree.sha or tree.content');
      // a file replaces a directory of the same name and vice versa
      for (const k of [...flat.keys()]) if (k.startsWith(under)) flat.delete(k);
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) flat.delete(parts.slice(0, i).join('/'));
      if (type === 'tree') {
        for (const [k, v] of flatten(sha)) flat.set(`${path}/${k}`, { ...v, name: `${path}/${k}` });
      } else {
        flat.set(path, { name: path, mode, type, sha });
      }
    }
    const sha = buildTree(flat);
    return ok(treeJson(o, r, sha, false), 201);
  });
  on('GET', '/repos/:o/:r/git/trees/:sha', 'git.getTree', (ctx) => {
    const [o, r, ref] = [p(ctx, 0), p(ctx, 1), p(ctx, 2)];
    const recursive = ['1', 'true'].includes(ctx.url.searchParams.get('recursive') ?? '');
    const resolved = resolveCommitish(o, r, ref) ?? ref;
    const t = treeOf(resolved);
    if (!t) throw notFound();
    return ok(treeJson(o, r, t, recursive));
  });
  on('POST', '/repos/:o/:r/git/commits', 'git.createCommit', (ctx) => {
    const [o, r] = [p(ctx, 0), p(ctx, 1)];
    const b = asObj(ctx.body);
    const tree = String(b.tree ?? '');
    if (getObj(tree)?.type !== 'tree') throw unprocessable('Tree SHA does not exist');
    const parents = Array.isArray(b.parents) ? b.parents.map(String) : [];
    for (const par of parents)
      if (getObj(par)?.type !== 'commit') throw unprocessable('Parent SHA does not exist or is not a commit object');
    if (typeof b.message !== 'string') throw unprocessable('Invalid request.\n\n"message" wasn\'t supplied.');
    const author = identity(b.author, botIdentity());
    const committer = identity(b.committer, author);
    const sha = putObject({ type: 'commit', tree, parents, message: b.message, author, committer });
    return ok(commitJson(o, r, sha), 201);
  });
  on('GET', '/repos/:o/:r/git/commits/:sha', 'git.getCommit', (ctx) => ok(commitJson(p(ctx, 0), p(ctx, 1), p(ctx, 2))));

  // ───── contents ─────
  const contentsGet = (ctx: Ctx): Reply => {
    const [o, r] = [p(ctx, 0), p(ctx, 1)];
    const path = (ctx.params[2] ?? '')
      .split('/')
      .map(decodeURIComponent)
      .join('/')
      .replace(/^\/+|\/+$/g, '');
    const ref = ctx.url.searchParams.get('ref') ?? undefined;
    const commit = resolveCommitish(o, r, ref ?? opts.defaultBranch);
    if (!commit)
      throw new HttpError(404, {
        message: `No commit found for the ref ${ref ?? opts.defaultBranch}`,
        documentation_url: DOCS,
        status: '404',
      });
    const tree = treeOf(commit)!;
    const e = path ? lookupPath(tree, path) : { name: '', mode: '040000', type: 'tree' as const, sha: tree };
    if (!e) throw notFound();
    if (e.type === 'tree') {
      const t = getObj(e.sha) as Extract<GitObject, { type: 'tree' }>;
      return ok(t.entries.map((x) => contentFileJson(o, r, path ? `${path}/${x.name}` : x.name, x, ref, false)));
    }
    const blob = getObj(e.sha);
    // The raw media type serves the bytes (GitHub: up to 100 MB).
    if (/raw/.test(ctx.log.headers.accept ?? '') && blob?.type === 'blob') {
      return {
        status: 200,
        raw: blob.content,
        headers: { 'content-type': 'application/vnd.github.raw; charset=utf-8' },
      };
    }
    // Past 1 MB the JSON form carries no content, as on GitHub: `content: ""`, `encoding: "none"`.
    if (blob?.type === 'blob' && blob.content.length > CONTENTS_JSON_LIMIT) {
      return ok({ ...contentFileJson(o, r, path, e, ref, false), content: '', encoding: 'none' });
    }
    return ok(contentFileJson(o, r, path, e, ref, true));
  };
  on('GET', '/repos/:o/:r/contents', 'repos.getContent(root)', (ctx) =>
    contentsGet({ ...ctx, params: [...ctx.params, ''] }),
  );
  on('GET', '/repos/:o/:r/contents/*path', 'repos.getContent', contentsGet);
  on('PUT', '/repos/:o/:r/contents/*path', 'repos.createOrUpdateFileContents', (ctx) => {
    const [o, r] = [p(ctx, 0), p(ctx, 1)];
    const path = (ctx.params[2] ?? '')
      .split('/')
      .map(decodeURIComponent)
      .join('/')
      .replace(/^\/+|\/+$/g, '');
    const b = asObj(ctx.body);
    if (typeof b.message !== 'string') throw unprocessable('Invalid request.\n\n"message" wasn\'t supplied.');
    if (typeof b.content !== 'string') throw unprocessable('Invalid request.\n\n"content" wasn\'t supplied.');
    const branch = typeof b.branch === 'string' ? b.branch.replace(/^refs\/heads\//, '') : opts.defaultBranch;
    const refs = repoRefs(o, r);
    const head = refs.get(`refs/heads/${branch}`);
    if (!head)
      throw new HttpError(404, { message: `Branch ${branch} not found`, documentation_url: DOCS, status: '404' });
    const baseTree = treeOf(head)!;
    const existing = lookupPath(baseTree, path);
    if (existing && existing.type !== 'blob') throw unprocessable(`${path} is a directory`);
    if (existing && b.sha === undefined) throw unprocessable('Invalid request.\n\n"sha" wasn\'t supplied.');
    if (existing && b.sha !== existing.sha)
      throw new HttpError(409, {
        message: `${path} does not match ${String(b.sha)}`,
        documentation_url: DOCS,
        status: '409',
      });
    const blob = putObject({ type: 'blob', content: Buffer.from(b.content, 'base64') });
    const flat = flatten(baseTree);
    flat.set(path, { name: path, mode: '100644', type: 'blob', sha: blob });
    const tree = buildTree(flat);
    const author = identity(b.author, identity(b.committer, botIdentity()));
    const committer = identity(b.committer, author);
    const commit = putObject({ type: 'commit', tree, parents: [head], message: b.message, author, committer });
    refs.set(`refs/heads/${branch}`, commit);
    const entry = lookupPath(tree, path)!;
    return ok(
      { content: contentFileJson(o, r, path, entry, branch, false), commit: commitJson(o, r, commit) },
      existing ? 200 : 201,
    );
  });
  on(
    'GET',
    '/raw/:o/:r/:ref/*path',
    'raw',
    (ctx) => {
      const commit = resolveCommitish(p(ctx, 0), p(ctx, 1), p(ctx, 2));
      const e = commit ? lookupPath(treeOf(commit)!, p(ctx, 3)) : undefined;
      const o = e ? getObj(e.sha) : undefined;
      if (!o || o.type !== 'blob') throw notFound();
      return { status: 200, raw: o.content, headers: { 'content-type': 'text/plain; charset=utf-8' } };
    },
    false,
  );

  const faults = faultInjector();

  interface Hold {
    method?: string;
    path: RegExp;
    count: number;
    active: boolean;
    waiting: (() => void)[];
    release(): void;
  }
  const holds: Hold[] = [];

  // ───── dispatcher ─────
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // issue 13: a round trip's latency before every answer (benchmarks of the fan-in); 'end' is emitted again after it
      const delayed = req as { latencyServed?: boolean };
      if (faults.latencyMs() > 0 && !delayed.latencyServed) {
        delayed.latencyServed = true;
        setTimeout(() => req.emit('end'), faults.latencyMs());
        return;
      }
      const url = new URL(req.url ?? '/', baseUrl);
      const method = (req.method ?? 'GET').toUpperCase();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v === undefined) continue;
        headers[k] = k === 'authorization' ? '<redacted>' : Array.isArray(v) ? v.join(', ') : v;
      }
      const authRaw = req.headers.authorization;
      const authParts = authRaw ? authRaw.trim().split(/\s+/) : [];
      const body = parseBody(Buffer.concat(chunks), req.headers['content-type']);
      const log: RequestLogEntry = {
        seq: ++seq,
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers,
        hasAuth: Boolean(authRaw),
        ...(authParts[0] ? { authScheme: authParts[0] } : {}),
        ...(body !== undefined ? { body } : {}),
        unmatched: false,
        forced: false,
        status: 0,
      };
      state.requests.push(log);

      const send = (reply: Reply): void => {
        log.status = reply.status;
        const h: Record<string, string> = {
          'x-github-request-id': `FAKE:${log.seq}`,
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '4999',
          'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
          ...(reply.headers ?? {}),
        };
        let payload: Buffer | undefined;
        if (reply.raw) payload = reply.raw;
        else if (reply.json !== undefined) {
          payload = Buffer.from(JSON.stringify(reply.json));
          h['content-type'] ??= 'application/json; charset=utf-8';
        }
        if (payload) h['content-length'] = String(payload.length);
        else if (reply.status !== 204 && reply.status !== 304) h['content-length'] = '0';
        res.writeHead(reply.status, h);
        res.end(payload);
      };

      // issue 13: an injected fault replaces the answer (or the connection) once per distinct request
      const fault = faults.pick(method, url.pathname, Buffer.concat(chunks));
      if (fault) {
        log.fault = fault;
        const route = routes.find((rt) => rt.method === method && rt.re.test(url.pathname));
        if (route) log.route = route.name;
        if (fault === '5xx') {
          log.status = 503;
          res.writeHead(503, { 'content-type': 'application/json', 'content-length': '2' });
          res.end('{}');
        } else if (fault === 'reset') {
          req.socket.destroy();
        } else {
          // Headers and half the body, then the connection drops: the client sees a body cut short.
          res.writeHead(200, { 'content-type': 'application/zip', 'content-length': '1000000' });
          res.write(Buffer.alloc(1000));
          setTimeout(() => req.socket.destroy(), 5);
        }
        return;
      }

      // issue 23: concurrent writers. A held request waits until `count` matching ones wait, then all are answered in
      // the order they arrived (or after timeoutMs, whatever has come).
      const answer = (): void => {
        try {
          // forced responses first
          const f = state.forced.find(
            (x) =>
              (x.method === undefined || x.method.toUpperCase() === method) &&
              (typeof x.path === 'string' ? x.path === url.pathname : x.path.test(url.pathname)) &&
              (x.times === undefined || x.times > 0),
          );
          const route = routes.find((rt) => rt.method === method && rt.re.test(url.pathname));
          if (route) log.route = route.name;
          if (f) {
            if (f.times !== undefined) f.times--;
            log.forced = true;
            send({
              status: f.status,
              json: f.body ?? {
                message: http.STATUS_CODES[f.status] ?? 'Error',
                documentation_url: DOCS,
                status: String(f.status),
              },
              ...(f.headers ? { headers: f.headers } : {}),
            });
            return;
          }
          if (!route) {
            log.unmatched = true;
            send({
              status: 404,
              json: {
                message: 'Not Found',
                documentation_url: DOCS,
                status: '404',
                fake: 'no such route in fake-github',
              },
            });
            return;
          }
          const token = authParts.length >= 2 ? authParts.slice(1).join(' ') : undefined;
          if (route.auth && opts.requireAuth && !token) {
            send({ status: 401, json: { message: 'Requires authentication', documentation_url: DOCS, status: '401' } });
            return;
          }
          const m = route.re.exec(url.pathname)!;
          const ctx: Ctx = { method, url, params: m.slice(1), body, log, ...(token ? { token } : {}) };
          send(route.handler(ctx));
        } catch (err) {
          if (err instanceof HttpError) send({ status: err.status, json: err.body, headers: err.headers });
          else
            send({
              status: 500,
              json: { message: `fake-github internal error: ${(err as Error).stack ?? String(err)}` },
            });
        }
      };
      // Matched on the decoded path: clients encode a ref's slashes (heads%2Fmain).
      const decoded = safeDecode(url.pathname);
      const hold = holds.find(
        (h) => h.active && (h.method === undefined || h.method === method) && h.path.test(decoded),
      );
      if (hold) {
        log.held = true;
        hold.waiting.push(answer);
        if (hold.waiting.length >= hold.count) hold.release();
        return;
      }
      answer();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  // ───── public helpers ─────
  const [defOwner, defRepo] = splitRepo(opts.repository);
  const repoOf = (repository?: string): [string, string] => (repository ? splitRepo(repository) : [defOwner, defRepo]);

  const fake: FakeGitHub = {
    url: baseUrl,
    state,
    opts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    env: (o: EnvOptions = {}) => {
      const runId = o.runId ?? opts.runId;
      const env: Record<string, string> = {
        GITHUB_ACTIONS: 'true',
        CI: 'true',
        GITHUB_API_URL: baseUrl,
        GITHUB_GRAPHQL_URL: `${baseUrl}/graphql`,
        GITHUB_SERVER_URL: 'https://github.com',
        ACTIONS_RESULTS_URL: `${baseUrl}/`,
        ACTIONS_RUNTIME_TOKEN: runtimeToken(runId),
        GITHUB_REPOSITORY: o.repository ?? opts.repository,
        GITHUB_REPOSITORY_OWNER: splitRepo(o.repository ?? opts.repository)[0],
        GITHUB_RUN_ID: String(runId),
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_RUN_NUMBER: '1',
        GITHUB_TOKEN: opts.token,
        NO_PROXY: '127.0.0.1,localhost',
        no_proxy: '127.0.0.1,localhost',
      };
      if (o.workspace) env.GITHUB_WORKSPACE = o.workspace;
      if (o.eventName) env.GITHUB_EVENT_NAME = o.eventName;
      if (o.eventPath) env.GITHUB_EVENT_PATH = o.eventPath;
      if (o.sha) env.GITHUB_SHA = o.sha;
      if (o.ref) env.GITHUB_REF = o.ref;
      return { ...env, ...(o.extra ?? {}) };
    },
    runtimeToken,
    runBackendId,
    jobBackendId,

    addArtifact: (a) => {
      const [owner, repo] = repoOf(a.repository);
      const runId = a.runId ?? opts.runId;
      const zip =
        a.zip ??
        buildZip(
          [...Object.entries(a.files ?? {}).map(([name, data]) => ({ name, data })), ...(a.entries ?? [])],
          a.zipOptions ?? {},
        );
      const art: FakeArtifact = {
        id: a.id ?? newId(),
        name: a.name,
        owner,
        repo,
        runId,
        runBackendId: runBackendId(runId),
        jobBackendId: jobBackendId(runId),
        zip,
        size: zip.length,
        createdAt: a.createdAt ?? now(),
        digest: `sha256:${createHash('sha256').update(zip).digest('hex')}`,
        expired: a.expired ?? false,
      };
      state.artifacts.push(art);
      return art;
    },
    addComment: (c) => {
      const [owner, repo] = repoOf(c.repository);
      const t = now();
      const user: FakeUser = { ...bot, ...(c.user ?? {}) };
      const com: FakeComment = {
        id: newId(),
        owner,
        repo,
        issueNumber: c.issueNumber,
        body: c.body,
        user,
        createdAt: t,
        updatedAt: t,
      };
      state.comments.push(com);
      return com;
    },
    addPull: (x) => {
      const [owner, repo] = repoOf(x.repository);
      const t = x.createdAt ?? now();
      const headSha = x.headSha ?? repoRefs(owner, repo).get(`refs/heads/${x.headRef}`) ?? '0'.repeat(40);
      const pr: FakePull = {
        number: x.number ?? nextPullNumber(owner, repo),
        owner,
        repo,
        title: x.title ?? `PR ${x.headRef}`,
        body: x.body ?? null,
        state: x.state ?? 'open',
        merged: x.merged ?? false,
        draft: false,
        headRef: x.headRef,
        headOwner: x.headOwner ?? owner,
        headSha,
        headShas: [headSha],
        labels: x.labels ?? [],
        labelEvents: (x.labels ?? []).map((label) => ({
          event: 'labeled' as const,
          label,
          createdAt: x.labeledAt ?? t,
          actor: { login: 'maintainer', id: 7, type: 'User' as const },
        })),
        baseRef: x.baseRef ?? opts.defaultBranch,
        user: { login: 'octocat', id: 1, type: 'User' },
        createdAt: t,
        updatedAt: t,
      };
      state.pulls.push(pr);
      return pr;
    },
    addRun: (x) => {
      const [owner, repo] = repoOf(x.repository);
      const run: FakeRun = {
        id: x.id,
        owner,
        repo,
        workflowId: x.workflowId ?? 501,
        runNumber: x.runNumber ?? x.id,
        event: x.event ?? 'pull_request',
        headSha: x.headSha,
        headBranch: x.headBranch ?? 'feature',
        headRepository: x.headRepository ?? `${owner}/${repo}`,
        createdAt: x.createdAt ?? now(),
        status: x.status ?? 'completed',
        conclusion: x.conclusion === undefined ? 'success' : x.conclusion,
      };
      state.runs.push(run);
      return run;
    },
    comments: (n, repository) => {
      const [owner, repo] = repoOf(repository);
      return state.comments
        .filter((c) => c.owner === owner && c.repo === repo && c.issueNumber === n)
        .sort((a, b) => a.id - b.id);
    },
    forceResponse: (f) => {
      state.forced.push({ ...f });
    },

    commitFiles: (c) => {
      const [owner, repo] = repoOf(c.repository);
      const refs = repoRefs(owner, repo);
      const parent = c.parent === undefined ? refs.get(`refs/heads/${c.branch}`) : (c.parent ?? undefined);
      const flat = parent ? flatten(treeOf(parent)!) : new Map<string, TreeEntry>();
      for (const [path, content] of Object.entries(c.files)) {
        if (content === null) flat.delete(path);
        else
          flat.set(path, {
            name: path,
            mode: '100644',
            type: 'blob',
            sha: putObject({ type: 'blob', content: Buffer.from(content) }),
          });
      }
      const tree = buildTree(flat);
      const id = botIdentity();
      const sha = putObject({
        type: 'commit',
        tree,
        parents: parent ? [parent] : [],
        message: c.message ?? 'seed',
        author: id,
        committer: id,
      });
      refs.set(`refs/heads/${c.branch}`, sha);
      return sha;
    },
    setRef: (branch, sha, repository) => {
      repoRefs(...repoOf(repository)).set(`refs/heads/${branch}`, sha);
    },
    getRef: (branch, repository) =>
      repoRefs(...repoOf(repository)).get(`refs/heads/${branch.replace(/^refs\/heads\//, '')}`),
    readFile: (refOrSha, path, repository) => {
      const [owner, repo] = repoOf(repository);
      const c = resolveCommitish(owner, repo, refOrSha);
      const t = c ? treeOf(c) : undefined;
      const e = t ? lookupPath(t, path) : undefined;
      const o = e ? getObj(e.sha) : undefined;
      return o?.type === 'blob' ? o.content.toString('utf8') : undefined;
    },
    listFiles: (refOrSha, repository) => {
      const [owner, repo] = repoOf(repository);
      const c = resolveCommitish(owner, repo, refOrSha);
      const t = c ? treeOf(c) : undefined;
      if (!t) return {};
      const out: Record<string, string> = {};
      for (const [path, e] of flatten(t)) {
        const o = getObj(e.sha);
        if (o?.type === 'blob') out[path] = o.content.toString('utf8');
      }
      return out;
    },
    getObject: getObj,

    requests: (filter) =>
      state.requests.filter(
        (r) =>
          (!filter?.method || r.method === filter.method.toUpperCase()) &&
          (!filter?.route || r.route === filter.route) &&
          (!filter?.path || (typeof filter.path === 'string' ? r.path === filter.path : filter.path.test(r.path))),
      ),
    writes: () =>
      state.requests.filter(
        (r) =>
          ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) &&
          !r.path.startsWith(`${TWIRP}/ListArtifacts`) &&
          !r.path.startsWith(`${TWIRP}/GetSignedArtifactURL`) &&
          // The Action's write-scope probe writes nothing: no ref can point at the all-zero object.
          !(r.route === 'git.createRef' && (r.body as { sha?: unknown } | undefined)?.sha === '0'.repeat(40)),
      ),
    unmatched: () => state.requests.filter((r) => r.unmatched),
    injectFaults: (f) => faults.configure(f),
    holdRequests: (h) =>
      new Promise<number>((resolve) => {
        const hold: Hold = {
          ...(h.method !== undefined ? { method: h.method.toUpperCase() } : {}),
          path: h.path,
          count: h.count,
          active: true,
          waiting: [],
          release: () => {
            if (!hold.active) return;
            hold.active = false;
            clearTimeout(timer);
            const released = hold.waiting.splice(0);
            for (const go of released) go();
            resolve(released.length);
          },
        };
        const timer = setTimeout(() => hold.release(), h.timeoutMs ?? 20_000);
        holds.push(hold);
      }),
    clearLog: () => {
      state.requests.length = 0;
    },
  };
  return fake;
}

// ───────────────────────────── fault injection (issue 13: parallel fan-in) ─────────────────────────────

/** 5xx: a 503 answer; reset: the socket is destroyed before any answer; truncate: 200 with half a body, then the socket drops. */
type FaultKind = '5xx' | 'reset' | 'truncate';

interface FaultOptions {
  /** Share of distinct matching requests (method, path and body) that fail, the first time only; 0 turns faults off. */
  rate: number;
  /** Only requests whose pathname matches; default every request. */
  path?: RegExp;
  /** Kinds to choose from, by the request's hash; default all three ('truncate' applies to blob downloads only). */
  kinds?: FaultKind[];
  /** Changes which requests are hit; default 1. */
  seed?: number;
  /** Milliseconds every request waits before it is answered (a network round trip); default 0. */
  latencyMs?: number;
}

/** Deterministic: whether and how a request fails depends on its hash and the seed, never on timing or order. */
function faultInjector(): {
  configure(f: FaultOptions): void;
  pick(method: string, path: string, body: Buffer): FaultKind | undefined;
  latencyMs(): number;
} {
  let options: FaultOptions = { rate: 0 };
  const failed = new Set<string>();
  return {
    configure(f) {
      options = f;
      failed.clear();
    },
    latencyMs: () => options.latencyMs ?? 0,
    pick(method, path, body) {
      if (options.rate <= 0 || (options.path && !options.path.test(path))) return undefined;
      const key = `${options.seed ?? 1}\u0000${method}\u0000${path}\u0000${body.toString('utf8')}`;
      if (failed.has(key)) return undefined;
      const digest = createHash('sha256').update(key).digest();
      if (digest.readUInt32BE(0) / 2 ** 32 >= options.rate) return undefined;
      failed.add(key);
      const kinds = (options.kinds ?? ['5xx', 'reset', 'truncate']).filter(
        (k) => k !== 'truncate' || path.startsWith('/blob/'),
      );
      return kinds.length === 0 ? undefined : kinds[digest.readUInt32BE(4) % kinds.length];
    },
  };
}

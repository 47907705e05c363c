/**
 * Parallel fan-in against the fake GitHub on 127.0.0.1: 256 node-snapshot artifacts listed (paginated over REST),
 * downloaded 8 at a time while the fake fails 10% of requests once (503, reset connections, bodies cut short), retried,
 * extracted as they arrive, and merged into exactly the snapshot the raw files give. One artifact failing for good is named.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectSnapshot } from '../../src/parsers/collect.js';
import { serializeNodeSnapshot } from '../../src/parsers/node-snapshot-file.js';
import { downloadArtifacts, type ArtifactRequest } from '../../src/sources/artifacts.js';
import { resolveInputs } from '../../src/sources/local.js';
import { thrownAsync } from '../helpers/thrown.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const RANKS = 256;
/** The real two-record sample (DEV_MEM dev0 RUNTIME and APP), moved to each rank's device and scaled by rank. */
const SAMPLE = readFileSync(join(ROOT, 'test/fixtures/plog/seed/good.oneline.log'), 'utf8');
/** Fast backoff: the policy's shape is what is tested, not its default delays. */
const QUICK = { attempts: 5, baseDelayMs: 5, maxDelayMs: 40, timeoutMs: 5000 };

function rankPlog(rank: number): string {
  return SAMPLE.replaceAll('DEV_MEM dev0 ', `DEV_MEM dev${rank} `).replace(
    /alloced_peak_size=(\d+)/g,
    (_, n: string) => `alloced_peak_size=${Number(n) + rank * 4096}`,
  );
}

const plogName = (rank: number): string => `rank_${rank}/plog-${5000 + rank}_20240708222745354.log`;

let fake: FakeGitHub;
let tmp: string;
let rawDir: string;

beforeAll(async () => {
  fake = await startFakeGitHub();
  tmp = mkdtempSync(join(tmpdir(), 'fan-in-'));
  rawDir = join(tmp, 'raw');
  for (let rank = 0; rank < RANKS; rank++) {
    const name = plogName(rank);
    mkdirSync(dirname(join(rawDir, name)), { recursive: true });
    writeFileSync(join(rawDir, name), rankPlog(rank));
    // What `mode: snapshot` uploads from each node: its plog reduced to one snapshot file.
    const snapshot = serializeNodeSnapshot(
      (await collectSnapshot({ files: { plog: [{ path: join(rawDir, name), name }] } }, { threads: 1 })).snapshot,
    );
    // Both runs hold the same 256 artifacts: 7001 is read through the results service, 7002 through REST.
    for (const runId of [7001, 7002]) {
      fake.addArtifact({
        name: `plog-rank-${rank}`,
        runId,
        files: { [`rank-${rank}.memory-snapshot.json`]: snapshot },
        zipOptions: { dataDescriptor: rank % 2 === 1 },
      });
    }
  }
  fake.addArtifact({ name: 'checkpoints', runId: 7002, files: { 'ckpt.bin': 'x' } });
});

afterAll(async () => {
  await fake.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Every source searched in the folder, as the Action does with downloaded artifacts. */
async function parse(dir: string) {
  const files = {
    plog: await resolveInputs(['.'], 'plog', dir),
    snapshot: await resolveInputs(['.'], 'snapshot', dir),
  };
  return (await collectSnapshot({ files, searched: 'all' }, { threads: 1 })).snapshot;
}

async function fanIn(request: Omit<ArtifactRequest, 'dir' | 'patterns'>) {
  const dir = mkdtempSync(join(tmp, 'dl-'));
  const lines: string[] = [];
  const warnings: string[] = [];
  const result = await downloadArtifacts(
    { patterns: ['plog-rank-*'], dir, retry: QUICK, concurrency: 8, ...request },
    (m) => lines.push(m),
    (m) => warnings.push(m),
  );
  return { dir, lines, warnings, result };
}

describe('parallel fan-in of 256 rank artifacts', () => {
  it('over REST: 3 pages listed; 10% of requests fail once (503, reset, cut short); every snapshot arrives and merges to the raw files’ snapshot', async () => {
    fake.clearLog();
    fake.injectFaults({ rate: 0.1, seed: 3 });
    const { dir, lines, result } = await fanIn({
      crossRun: { runId: 7002, owner: 'octo-org', repo: 'octo-repo', token: fake.opts.token },
      env: fake.env({ runId: 1 }),
    });
    fake.injectFaults({ rate: 0 });

    expect(result.failed).toEqual([]);
    expect(result.downloaded).toHaveLength(RANKS);
    expect(result.downloaded.map((a) => a.name)).toEqual(
      Array.from({ length: RANKS }, (_, r) => `plog-rank-${r}`).sort(),
    );
    expect(await parse(dir)).toEqual(await parse(rawDir));

    const faults = fake.requests().filter((q) => q.fault !== undefined);
    // the share is 10% of distinct requests, by hash: enough of each kind to matter
    expect(faults.length).toBeGreaterThan(30);
    expect(new Set(faults.map((q) => q.fault))).toEqual(new Set(['5xx', 'reset', 'truncate']));
    // every fault is one logged retry, and nothing else is
    const retries = lines.filter((l) => / failed \(.*\); retrying in \d+\.\d s$/.test(l));
    expect(retries).toHaveLength(faults.length);
    expect(result.retries).toBe(faults.length);
    expect(retries.some((l) => l.includes('HTTP 503'))).toBe(true);
    // listing: 257 artifacts of the run, 100 per page
    expect(
      fake
        .requests({ route: 'actions.listWorkflowRunArtifacts' })
        .filter((q) => q.fault === undefined)
        .map((q) => q.query.page),
    ).toEqual(['1', '2', '3']);
    // progress: one line per artifact, numbered in arrival order, then the totals
    const progress = lines.filter((l) => /^\[\d+\/256\] plog-rank-\d+ \d+(\.\d)? (B|KiB) \(1 file\(s\)\)$/.test(l));
    expect(progress).toHaveLength(RANKS);
    expect(progress.map((l) => Number(/^\[(\d+)\//.exec(l)![1]))).toEqual(
      Array.from({ length: RANKS }, (_, i) => i + 1),
    );
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^Downloaded 256 of 256 artifact\\(s\\), .* in \\d+\\.\\d s \\(8 at a time, ${faults.length} retries\\)$`,
      ),
    );
    // the unrelated artifact is never fetched; the others once, plus once per fault on their way
    const unrelated = fake.state.artifacts.find((a) => a.name === 'checkpoints')!;
    expect(fake.requests({ path: new RegExp(`/${unrelated.id}[/.]`) })).toEqual([]);
    expect(fake.requests({ path: /\/actions\/artifacts\/\d+\/zip$/ }).length).toBe(
      RANKS + faults.filter((q) => q.route === 'actions.downloadArtifact' || q.route === 'blob').length,
    );
  });

  it('through the results service (this run): the same, with the signed URL asked again on each attempt', async () => {
    fake.clearLog();
    fake.injectFaults({ rate: 0.1, seed: 5, kinds: ['5xx', 'reset'] });
    const { dir, result } = await fanIn({ env: fake.env({ runId: 7001 }) });
    fake.injectFaults({ rate: 0 });
    expect(result.failed).toEqual([]);
    expect(await parse(dir)).toEqual(await parse(rawDir));
    const faults = fake.requests().filter((q) => q.fault !== undefined);
    expect(faults.length).toBeGreaterThan(20);
    expect(result.retries).toBe(faults.length);
    expect(fake.requests({ path: /^\/repos\// })).toEqual([]);
  });

  it('one artifact failing for good: named, and with missing: warn the other 255 are kept', async () => {
    const broken = fake.state.artifacts.find((a) => a.runId === 7001 && a.name === 'plog-rank-36')!;
    fake.forceResponse({ method: 'GET', path: new RegExp(`^/blob/artifacts/${broken.id}/`), status: 503 });
    try {
      const warned = await fanIn({ env: fake.env({ runId: 7001 }), missing: 'warn' });
      expect(warned.result.downloaded).toHaveLength(RANKS - 1);
      expect(warned.result.failed).toEqual([
        {
          name: 'plog-rank-36',
          id: broken.id,
          reason: "artifact 'plog-rank-36': HTTP 503 (after 5 attempts)",
          refused: false,
        },
      ]);
      expect(
        warned.lines.filter((l) =>
          /^\[\d+\/256\] plog-rank-36 FAILED: artifact 'plog-rank-36': HTTP 503 \(after 5 attempts\)$/.test(l),
        ),
      ).toHaveLength(1);
      expect(warned.warnings).toEqual([
        "1 of 256 artifact(s) missing, gated without them: 'plog-rank-36' (artifact 'plog-rank-36': HTTP 503 (after 5 attempts))",
      ]);
      const snapshot = await parse(warned.dir);
      expect(Object.keys(snapshot.sections.modules ?? {}).filter((k) => k.includes('/dev36/'))).toEqual([]);
      expect(Object.keys(snapshot.sections.modules ?? {})).toHaveLength((RANKS - 1) * 2);

      const error = await thrownAsync(fanIn({ env: fake.env({ runId: 7001 }) }));
      expect(error.message).toBe(
        "1 of 256 artifact(s) of this run could not be downloaded: 'plog-rank-36' (artifact 'plog-rank-36': HTTP 503 (after 5 attempts)). Set 'missing-artifacts: warn' to gate the others.",
      );
    } finally {
      fake.state.forced.length = 0;
    }
  });

  it('a 4xx is not retried: an expired artifact fails at once', async () => {
    const artifact = fake.addArtifact({
      name: 'plog-rank-expired',
      runId: 7003,
      files: { 'a.log': 'x' },
      expired: true,
    });
    fake.clearLog();
    const { result } = await fanIn({
      crossRun: { runId: 7003, owner: 'octo-org', repo: 'octo-repo', token: fake.opts.token },
      env: fake.env({ runId: 1 }),
      missing: 'warn',
    });
    expect(result.failed).toEqual([
      { name: 'plog-rank-expired', id: artifact.id, reason: "artifact 'plog-rank-expired': HTTP 410", refused: false },
    ]);
    expect(fake.requests({ route: 'actions.downloadArtifact' })).toHaveLength(1);
  });
});

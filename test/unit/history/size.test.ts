// How big the history gets: 1,000 appends at 64 devices × 15 modules + 2,000 kernels (file ≤ 2 MB; every version
// committed to a real git repository, packed by `git gc`: ≤ 20 MB), and one point of 4,096 devices (≤ 200 KB).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyHistory, parseHistory, serializeHistory } from '../../../src/history/format.js';
import { pointEnvironment, pointValues } from '../../../src/history/point.js';
import { appendPoint } from '../../../src/history/store.js';
import { Branch, SIZE_SHAPE } from '../../helpers/history-runs.js';
import { MODULES } from '../../helpers/story.js';

const work = mkdtempSync(join(tmpdir(), 'amg-history-size-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const hasGit = spawnSync('git', ['--version']).status === 0;

/** The text of every version the default branch writes: run r appends one point to version r - 1, as a CI run does. */
function versions(runs: number): string[] {
  const branch = new Branch(SIZE_SHAPE);
  const out: string[] = [];
  let text = serializeHistory(
    emptyHistory({ branch: 'main', gate: 'default', commitUrl: 'https://github.com/octo-org/octo-repo/commit/{sha}' }),
  );
  for (let r = 1; r <= runs; r++) {
    if (r % 100 === 0) branch.step(MODULES[(r / 100) % MODULES.length] as string, 1.1);
    if (r % 250 === 0) branch.cann = `8.${3 + r / 250}.RC1`;
    if (r % 50 === 0) branch.baseline = `sha256:${r.toString(16).padStart(64, '0')}`;
    if (r % 300 === 0) branch.renameKernels(3);
    const snapshot = branch.nextRun();
    // Each run reads the file the last one wrote.
    const history =
      r === 1
        ? emptyHistory({
            branch: 'main',
            gate: 'default',
            commitUrl: 'https://github.com/octo-org/octo-repo/commit/{sha}',
          })
        : parseHistory(text, 'default.jsonl');
    text = appendPoint(
      history,
      {
        commit: branch.commit(),
        run: String(9000 + r),
        attempt: 1,
        time: branch.time(),
        baseline: branch.baseline,
        environment: pointEnvironment(snapshot),
      },
      pointValues(snapshot),
    ).text;
    out.push(text);
  }
  return out;
}

describe('history size', () => {
  const all = versions(1000);
  const last = all[all.length - 1] as string;

  it('after 1,000 appends at 64 devices × 15 modules + 2,000 kernels, the file holds the last 200 points in at most 2 MB', () => {
    const history = parseHistory(last, 'default.jsonl');
    expect(history.points).toHaveLength(200);
    expect(history.points[0]?.run).toBe('9801');
    expect(history.points[199]?.run).toBe('10000');
    const modules = history.sections.get('modules');
    expect(modules?.keys).toHaveLength(64 * 15);
    const bytes = Buffer.byteLength(last);
    console.log(
      `history file after 1,000 appends: ${bytes} bytes (${(bytes / 1024 / 1024).toFixed(2)} MiB), ${history.sections.get('kernels')?.keys.length} kernel keys in the table`,
    );
    expect(bytes).toBeLessThanOrEqual(2 * 1000 * 1000);
  });

  it.skipIf(!hasGit)('every version committed to a real git repository and packed by git gc: at most 20 MB', () => {
    const repo = join(work, 'repo');
    execFileSync('git', ['init', '-q', '-b', 'memory-gate-history', repo]);
    // One fast-import stream: a commit per version, as the Action's Git Data API writes them.
    const parts: Buffer[] = [];
    all.forEach((text, i) => {
      const data = Buffer.from(text);
      const message = `Record run ${9001 + i}`;
      parts.push(
        Buffer.from(
          `commit refs/heads/memory-gate-history\ncommitter gate <gate@example.com> ${1767225600 + i * 3600} +0000\ndata ${Buffer.byteLength(message)}\n${message}\n`,
        ),
        Buffer.from(`M 100644 inline default.jsonl\ndata ${data.length}\n`),
        data,
        Buffer.from('\n'),
      );
    });
    const stream = join(work, 'fast-import');
    writeFileSync(stream, Buffer.concat(parts));
    execFileSync('sh', ['-c', `git -C '${repo}' fast-import --quiet < '${stream}'`]);
    execFileSync('git', ['-C', repo, 'gc', '-q']);
    const counted = execFileSync('git', ['-C', repo, 'count-objects', '-v'], { encoding: 'utf8' });
    const human = execFileSync('git', ['-C', repo, 'count-objects', '-vH'], { encoding: 'utf8' });
    console.log(`git count-objects -vH after git gc (1,000 versions):\n${human}`);
    const kib = Number(/^size-pack: (\d+)$/m.exec(counted)?.[1]);
    const loose = Number(/^count: (\d+)$/m.exec(counted)?.[1]);
    expect(
      execFileSync('git', ['-C', repo, 'rev-list', '--count', 'memory-gate-history'], { encoding: 'utf8' }).trim(),
    ).toBe('1000');
    expect(loose).toBe(0);
    expect(kib * 1024).toBeLessThanOrEqual(20 * 1000 * 1000);
  });

  it('one point of 4,096 devices × 15 modules + 100,000 kernels (2,000 names on 50 devices each) takes at most 200 KB', () => {
    const branch = new Branch({
      devices: 4096,
      kernels: 100_000,
      kernelNames: 2000,
      jitterShare: 0.1,
      kernelChangeShare: 0,
    });
    const snapshot = branch.nextRun();
    const values = pointValues(snapshot);
    expect(values.devices).toBe(4096);
    expect(values.rollups.get('modules')?.size).toBe(15);
    expect(values.rollups.get('kernels')?.size).toBe(2000);
    const history = emptyHistory({ branch: 'main' });
    const { text } = appendPoint(
      history,
      { commit: branch.commit(), time: branch.time(), baseline: null, environment: pointEnvironment(snapshot) },
      values,
    );
    const bytes = Buffer.byteLength(text);
    console.log(`one 4,096-device point: ${bytes} bytes`);
    expect(bytes).toBeLessThanOrEqual(200 * 1000);
  });
});

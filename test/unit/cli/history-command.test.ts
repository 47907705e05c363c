// The history on a CI system without GitHub (GitLab, Jenkins): `history append` on each run of the default branch,
// `history show`, and `check --history` with its sparklines, the commit where memory moved, and the noise band.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';
import { MiB } from '../../helpers/story.js';

const tmp = mkdtempSync(join(tmpdir(), 'amg-history-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const record = (device: number, module: string, peak: number): string =>
  `[INFO] DRV(77,python3):2024-07-08-22:27:45.354.900 [ascend][curpid: 77, 77][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev${device} Mem stats (Bytes). (module_name=${module}; module_id=33; current_alloced_size=${peak}; alloced_peak_size=${peak}; alloc_cnt=3; free_cnt=1)`;

let runs = 0;
/** A run's plog: APP and HCCL on two devices. */
function plog(app: number, hccl: number): string {
  const dir = join(tmp, `run-${++runs}`);
  mkdirSync(dir, { recursive: true });
  const lines = [0, 1].flatMap((d) => [record(d, 'APP', app + d * MiB), record(d, 'HCCL', hccl)]);
  writeFileSync(join(dir, 'plog-77_20240708222745354.log'), `${lines.join('\n')}\n`);
  return dir;
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    width: () => 80,
    color: () => false,
  });
  return { code, out, err };
}

const sha = (n: number): string => n.toString(16).padStart(7, '0').repeat(6).slice(0, 40);
const time = (n: number): string =>
  `2026-03-${String(1 + Math.floor(n / 24)).padStart(2, '0')}T${String(n % 24).padStart(2, '0')}:00:00Z`;

describe('history append, show and check --history', () => {
  const history = join(tmp, 'memory-history.jsonl');
  const baseline = join(tmp, 'baseline.json');

  it('twenty main runs recorded; HCCL doubled at run 11 with CANN 9.0: show names that commit', async () => {
    expect((await cli('baseline', '--out', baseline, '--plog', plog(2048 * MiB, 400 * MiB))).code).toBe(0);
    for (let n = 1; n <= 20; n++) {
      const r = await cli(
        'history',
        'append',
        '--history',
        history,
        '--commit',
        sha(n),
        '--time',
        time(n),
        '--run',
        String(500 + n),
        '--baseline',
        baseline,
        '--branch',
        'main',
        '--commit-url',
        'https://gitlab.example.com/ml/train/-/commit/{sha}',
        '--plog',
        plog(2048 * MiB, n <= 10 ? 400 * MiB : 800 * MiB),
        '--env',
        `cann=${n <= 10 ? '8.3.RC1' : '9.0.RC1'}`,
      );
      expect(r, r.err).toMatchObject({ code: 0, err: '' });
      expect(r.out).toBe(
        `recorded ${sha(n).slice(0, 7)} in ${history}: point ${n} of at most 200 (${statSync(history).size} bytes)\n`,
      );
    }
    const shown = await cli('history', 'show', '--history', history);
    expect(shown.code).toBe(0);
    expect(shown.out).toBe(
      [
        `History on main: 20 points, ${sha(1).slice(0, 7)} (${time(1)}) to ${sha(20).slice(0, 7)}`,
        `(${time(20)})`,
        `In the last 20 points: environment changed at ${sha(11).slice(0, 7)}.`,
        '',
        'KEY             LAST 20                               RANGE     LATEST',
        'DEV_MEM/*/HCCL  ▁▁▁▁▁▁▁▁▁▁██████████  400.0 MiB – 800.0 MiB  800.0 MiB',
        `    stepped 400.0 MiB → 800.0 MiB at ${sha(11).slice(0, 7)} (9 runs ago); CANN toolkit 8.3.RC1`,
        '      → 9.0.RC1 at the same run',
        'DEV_MEM/*/APP   ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄                2.0 GiB    2.0 GiB',
        '',
        'A key group (`*` for the device) shows its largest device at each point.',
        '',
      ].join('\n'),
    );
  });

  it('check --history: the failing row gets its sparkline and the commit where it moved; the history file is not written', async () => {
    const before = readFileSync(history, 'utf8');
    const r = await cli('check', '--baseline', baseline, '--plog', plog(2048 * MiB, 800 * MiB), '--history', history);
    expect(r.code).toBe(1);
    // The rows, then how to accept the change (its wrapping depends on the temporary baseline path).
    expect(r.out.slice(0, r.out.indexOf('To accept an intended change: '))).toBe(
      [
        'Memory gate failed: 2 regressed',
        '',
        'STATUS         KEY                BASELINE → CURRENT              Δ (Δ%)',
        '✗ regressed ¹  DEV_MEM/*/HCCL  400.0 MiB → 800.0 MiB  +400.0 MiB (+100%)',
        '    2 of 2 devices, worst dev0; median +400.0 MiB (+100%)',
        '    ▁▁▁▁▁▁▁▁▁▁██████████ 400.0 MiB – 800.0 MiB (20 runs on main, largest device)',
        '',
        `¹ DEV_MEM/*/HCCL (largest device): 400.0 MiB → 800.0 MiB since ${sha(11).slice(0, 7)} (9 runs`,
        '  ago on main); CANN toolkit 8.3.RC1 → 9.0.RC1 at the same run',
        '',
        '2 keys within thresholds not listed (2 pass)',
        '',
        '',
      ].join('\n'),
    );
    expect(readFileSync(history, 'utf8')).toBe(before);
  });

  it('a corrupt history stops append with its line and field and how to start over; check warns the same and gates without it; the file is left as it was', async () => {
    const broken = join(tmp, 'broken.jsonl');
    const text = readFileSync(history, 'utf8').replace('"run":"503"', '"run":503');
    writeFileSync(broken, text);
    const startOver = `To start over, delete ${broken} (or clear the CI cache that holds it): the default branch's next 'history append' creates it again`;
    const append = await cli('history', 'append', '--history', broken, '--commit', sha(21), '--plog', plog(1, 1));
    expect(append).toEqual({
      code: 2,
      out: '',
      err: `error: ${broken}:5: /run: must be a run id, got 503. ${startOver}\n`,
    });
    expect(readFileSync(broken, 'utf8')).toBe(text);
    const check = await cli(
      'check',
      '--baseline',
      baseline,
      '--plog',
      plog(2048 * MiB, 800 * MiB),
      '--history',
      broken,
    );
    expect(check.err).toBe(
      `warning: history not read, so the check has no trends and no noise band: ${broken}:5: /run: must be a run id, got 503. ${startOver}\n`,
    );
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/^Memory gate failed: 2 regressed\n/);
    expect(readFileSync(broken, 'utf8')).toBe(text);
  });

  it('history append without --baseline records no baseline change: the point keeps the last one', async () => {
    const file = join(tmp, 'kept-baseline.jsonl');
    await cli(
      'history',
      'append',
      '--history',
      file,
      '--commit',
      sha(30),
      '--baseline',
      baseline,
      '--plog',
      plog(1, 1),
    );
    const r = await cli('history', 'append', '--history', file, '--commit', sha(31), '--plog', plog(1, 1));
    expect(r.code, r.err).toBe(0);
    const [first, second] = readFileSync(file, 'utf8')
      .split('\n')
      .slice(2, 4)
      .map((l) => (JSON.parse(l) as { baseline: string | null }).baseline);
    expect(first).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(second).toBe(first);
  });

  it('usage errors name the flag', async () => {
    expect((await cli('history', 'append', '--history', history, '--plog', plog(1, 1))).err).toMatch(
      /^error: history append: --commit SHA is required\n/,
    );
    expect(
      (await cli('history', 'append', '--history', history, '--commit', 'HEAD', '--plog', plog(1, 1))).err,
    ).toMatch(/^error: history append: --commit must be a commit SHA \(4 to 64 hex digits\), got 'head'\n/);
    expect(
      (await cli('history', 'append', '--history', history, '--commit', sha(1), '--size', '0', '--plog', plog(1, 1)))
        .err,
    ).toMatch(/^error: history append: --size must be a whole number from 1 to 1000, got '0'\n/);
    expect((await cli('history', 'show', '--history', join(tmp, 'none.jsonl'))).err).toBe(
      `error: ${join(tmp, 'none.jsonl')} does not exist: 'ascend-memory-gate history append --history ${join(tmp, 'none.jsonl')} …' records the first point\n`,
    );
    expect((await cli('history', 'frobnicate')).err).toMatch(
      /^error: history: unknown 'frobnicate': append, show, html or fetch\n/,
    );
  });
});

describe('the noise band', () => {
  const history = join(tmp, 'noisy.jsonl');
  const baseline = join(tmp, 'noisy-baseline.json');
  const config = join(tmp, 'memory-gate.json');
  const APP = 2000 * MiB;
  // ±3% around APP on main, every run different: the allocator's jitter on this job.
  const JITTER = [0, 3, -2, 1, -3, 2, -1, 3, 0, -3, 2, 1, -2, 3, -1, 0, 2, -3, 1, -2];

  it('a key jittering ±3% on main, a 2% tolerance: a PR at +2.5% is within the band (said in the note); without the history it regresses', async () => {
    writeFileSync(
      config,
      JSON.stringify({ modules: { tolerance: { percent: 2 } }, history: { window: 20, minPoints: 5 } }),
    );
    expect((await cli('baseline', '--out', baseline, '--plog', plog(APP, 400 * MiB))).code).toBe(0);
    for (const [n, percent] of JITTER.entries()) {
      const r = await cli(
        'history',
        'append',
        '--history',
        history,
        '--commit',
        sha(100 + n),
        '--run',
        String(n),
        '--plog',
        plog(Math.round(APP * (1 + percent / 100)), 400 * MiB),
      );
      expect(r.code, r.err).toBe(0);
    }
    const pr = plog(Math.round(APP * 1.025), 400 * MiB);
    const report = join(tmp, 'noisy-report.json');
    const banded = await cli(
      'check',
      '--baseline',
      baseline,
      '--config',
      config,
      '--plog',
      pr,
      '--history',
      history,
      '--report',
      report,
    );
    expect(banded.code, banded.out).toBe(0);
    expect(banded.out).toContain('Memory gate passed: 4 keys within thresholds');
    expect(banded.out).toContain(
      [
        '2 keys within the noise band (beyond the tolerance, within the spread of the',
        'default branch):',
        '  DEV_MEM/dev0/APP: 2.0 GiB → 2.0 GiB, +50.0 MiB (+2.5%)',
        '  DEV_MEM/dev1/APP: 2.0 GiB → 2.0 GiB, +50.0 MiB (+2.5%)',
      ].join('\n'),
    );
    const entry = (
      JSON.parse(readFileSync(report, 'utf8')) as {
        entries: { key: string; status: string; note?: string; noise?: unknown }[];
      }
    ).entries.find((e) => e.key === 'DEV_MEM/dev0/APP');
    expect(entry).toMatchObject({
      status: 'pass',
      noise: { applied: 'band', points: 20, spread: Math.round(APP * 1.03) - Math.round(APP * 0.97) },
      note: 'Within the noise band: the last 20 values on the default branch spread 120.0 MiB (6.0% of the baseline), wider than the tolerance; a change of 50.0 MiB is no news.',
    });
    const plain = await cli('check', '--baseline', baseline, '--config', config, '--plog', pr);
    expect(plain.code).toBe(1);
    expect(plain.out).toMatch(/^Memory gate failed: 2 regressed\n/);
  });

  it('a PR beyond the band regresses and says the band was beyond; with too few values the tolerance applies and the note says so', async () => {
    const far = await cli(
      'check',
      '--baseline',
      baseline,
      '--config',
      config,
      '--plog',
      plog(Math.round(APP * 1.08), 400 * MiB),
      '--history',
      history,
      '--report',
      join(tmp, 'far.json'),
    );
    expect(far.code).toBe(1);
    const entries = (
      JSON.parse(readFileSync(join(tmp, 'far.json'), 'utf8')) as {
        entries: { key: string; status: string; note?: string }[];
      }
    ).entries;
    expect(entries.find((e) => e.key === 'DEV_MEM/dev0/APP')).toMatchObject({
      status: 'regressed',
      note: 'Beyond the noise band: the last 20 values on the default branch spread 120.0 MiB (6.0% of the baseline), and the change is 160.0 MiB.',
    });
    const short = join(tmp, 'short.jsonl');
    for (let n = 0; n < 3; n++)
      await cli('history', 'append', '--history', short, '--commit', sha(200 + n), '--plog', plog(APP, 400 * MiB));
    await cli(
      'check',
      '--baseline',
      baseline,
      '--config',
      config,
      '--plog',
      plog(Math.round(APP * 1.025), 400 * MiB),
      '--history',
      short,
      '--report',
      join(tmp, 'short.json'),
    );
    const few = (
      JSON.parse(readFileSync(join(tmp, 'short.json'), 'utf8')) as {
        entries: { key: string; status: string; note?: string }[];
      }
    ).entries;
    expect(few.find((e) => e.key === 'DEV_MEM/dev0/APP')).toMatchObject({
      status: 'regressed',
      note: 'The noise band needs 5 values of this key on the default branch and the history has 3: the configured tolerance applied.',
    });
  });
});

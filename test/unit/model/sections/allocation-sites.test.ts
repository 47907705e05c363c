// Allocation sites keyed by file and function: a line added above an allocation changes no key, more memory in a
// function fails naming the function and the line, and baselines keyed by line (earlier versions) are folded in once.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMemorySnapshot } from '../../../generators/memory-snapshot.js';
import { runCli } from '../../../../src/cli/commands.js';
import { foldLineSites, lineChanges, linesText } from '../../../../src/model/sections/allocation-sites.js';
import { GiB } from '../../../helpers/story.js';

const dir = mkdtempSync(join(tmpdir(), 'amg-sites-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The same seeded run three ways: as committed, with a line added above every allocation, and that plus 3 GiB more in layer0's forward. */
const before = join(dir, 'before.pickle');
const moved = join(dir, 'moved.pickle');
const grown = join(dir, 'grown.pickle');
const baseline = join(dir, 'baseline.json');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    width: () => 80,
    color: () => false,
  });
  return { code, out, err };
}

interface ReportEntry {
  kind: string;
  key: string;
  status: string;
  severity: string;
  baseline: number | null;
  current: number | null;
  note?: string;
}

async function check(
  pickle: string,
  against = baseline,
): Promise<{ code: number; out: string; err: string; entries: ReportEntry[]; markdown: string }> {
  const report = join(dir, 'report.json');
  const markdown = join(dir, 'report.md');
  const r = await run([
    'check',
    '--baseline',
    against,
    '--memory-snapshot',
    pickle,
    '--report',
    report,
    '--markdown',
    markdown,
  ]);
  const entries = (JSON.parse(readFileSync(report, 'utf8')) as { entries: ReportEntry[] }).entries;
  return { ...r, entries, markdown: readFileSync(markdown, 'utf8') };
}

const SITE_KEYS = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `dev0/model/layer${i}.py forward`);

beforeAll(async () => {
  writeMemorySnapshot(before, { bytes: 300_000, seed: 7 });
  writeMemorySnapshot(moved, { bytes: 300_000, seed: 7, lineShift: 1 });
  writeMemorySnapshot(grown, { bytes: 300_000, seed: 7, lineShift: 1, extraBytes: 3 * GiB });
  const r = await run(['baseline', '--out', baseline, '--memory-snapshot', before]);
  expect(r.code, r.err).toBe(0);
});

describe('allocation sites survive edits', () => {
  it('keys a site by device, file and function, with its lines and their bytes as the detail', () => {
    const sites = (
      JSON.parse(readFileSync(baseline, 'utf8')) as {
        sections: { allocationSites: Record<string, { bytes: number; blocks: number; lines: string }> };
      }
    ).sections.allocationSites;
    expect(Object.keys(sites)).toEqual(SITE_KEYS);
    const layer0 = sites['dev0/model/layer0.py forward'];
    expect(JSON.parse(layer0?.lines ?? '')).toEqual([[40, layer0?.bytes, layer0?.blocks]]);
  });

  it('passes a snapshot where one line was added above every allocation: no key is new, missing or changed', async () => {
    const { code, entries } = await check(moved);
    expect(code).toBe(0);
    const sites = entries.filter((e) => e.kind === 'allocationSite');
    expect(sites.map((e) => [e.key, e.status])).toEqual(SITE_KEYS.map((key) => [key, 'pass']));
    expect(sites.every((e) => e.baseline === e.current)).toBe(true);
  });

  it('fails the same pair when that function holds 3 GiB more, naming the function and the line', async () => {
    const { code, out, entries, markdown } = await check(grown);
    expect(code).toBe(1);
    const site = entries.find((e) => e.key === 'dev0/model/layer0.py forward');
    expect(site).toMatchObject({ kind: 'allocationSite', status: 'regressed', severity: 'fail' });
    expect((site?.current ?? 0) - (site?.baseline ?? 0)).toBe(3 * GiB);
    expect(site?.note).toBe(
      '+3.0 GiB (line 46: +3.0 GiB). 399 block(s) live at the allocated peak. From ' +
        grown.replace(`${process.cwd()}/`, '') +
        '.',
    );
    // Only that site moved: the line that moved with its bytes is no news.
    expect(entries.filter((e) => e.kind === 'allocationSite' && e.status !== 'pass').map((e) => e.key)).toEqual([
      'dev0/model/layer0.py forward',
    ]);
    expect(out.replace(/\n  /g, ' ')).toContain('dev0/model/layer0.py forward: +3.0 GiB (line 46: +3.0 GiB).');
    expect(markdown).toContain(
      '`dev0/model/layer0.py forward`: \\+3\\.0 GiB \\(line 46\\: \\+3\\.0 GiB\\)\\. 399 block',
    );
  });

  it('reads a baseline keyed by line (earlier versions) as keys by function, and says so once', async () => {
    const written = JSON.parse(readFileSync(baseline, 'utf8')) as {
      sections: { allocationSites: Record<string, Record<string, unknown>> };
    };
    const old: Record<string, Record<string, unknown>> = {};
    for (const [key, metric] of Object.entries(written.sections.allocationSites)) {
      const line = (JSON.parse(metric.lines as string) as number[][])[0]?.[0];
      const { lines: _lines, ...rest } = metric;
      old[key.replace(/ forward$/, `:${String(line)} forward`)] = rest;
    }
    expect(Object.keys(old)[0]).toBe('dev0/model/layer0.py:40 forward');
    written.sections.allocationSites = old;
    const oldFile = join(dir, 'old-baseline.json');
    writeFileSync(oldFile, JSON.stringify(written));
    const { code, err, entries } = await check(moved, oldFile);
    expect(code).toBe(0);
    expect(entries.filter((e) => e.kind === 'allocationSite').map((e) => [e.key, e.status])).toEqual(
      SITE_KEYS.map((key) => [key, 'pass']),
    );
    expect(err).toBe(
      `note: ${oldFile}: 8 allocation site(s) keyed by line (as earlier versions wrote them) were read as 8 site(s) keyed by file and function, so a line that moves changes no key; the next baseline update writes them so\n`,
    );
    // The next baseline update writes the keys by function (and says so once more, as it read the old file).
    const updated = await run(['baseline', '--out', oldFile, '--memory-snapshot', moved]);
    expect(updated.code).toBe(0);
    expect(Object.keys((JSON.parse(readFileSync(oldFile, 'utf8')) as typeof written).sections.allocationSites)).toEqual(
      SITE_KEYS,
    );
  });
});

describe('folding line-keyed sites', () => {
  it('sums the lines of one function, keeps them as lines, and the rest of the largest line', () => {
    const metric = (bytes: number, file: string) => ({
      bytes,
      blocks: 1,
      codeRoot: '/w/',
      file,
      logicalDevice: 0,
      visibleDevices: null,
    });
    const sections = {
      allocationSites: {
        'dev0/<unknown>': metric(5, 'a.pickle'),
        'dev0/m.py:12 forward': metric(10, 'a.pickle'),
        'dev0/m.py:30 forward': metric(20, 'b.pickle'),
        'dev1/m.py:12 forward': metric(7, 'a.pickle'),
      },
    };
    expect(foldLineSites(sections)).toEqual({ from: 3, to: 2 });
    expect(sections.allocationSites).toEqual({
      'dev0/<unknown>': { ...metric(5, 'a.pickle'), lines: '[]' },
      'dev0/m.py forward': { ...metric(30, 'b.pickle'), blocks: 2, lines: '[[12,10,1],[30,20,1]]' },
      'dev1/m.py forward': { ...metric(7, 'a.pickle'), lines: '[[12,7,1]]' },
    });
    expect(foldLineSites(sections)).toBeNull();
  });
});

describe('which lines changed inside a function', () => {
  it('matches lines that moved with their bytes, and names the new one', () => {
    expect(
      lineChanges(
        [[40, 100, 1]],
        [
          [41, 100, 1],
          [46, 3 * GiB, 1],
        ],
      ),
    ).toEqual([
      { line: 41, delta: 0, gone: false },
      { line: 46, delta: 3 * GiB, gone: false },
    ]);
  });

  it('matches a moved line that also grew, and says which line went', () => {
    expect(
      lineChanges(
        [
          [10, 100, 1],
          [20, 50, 1],
        ],
        [[12, 400, 1]],
      ),
    ).toEqual([
      { line: 12, delta: 300, gone: false },
      { line: 20, delta: -50, gone: true },
    ]);
  });

  it('names the largest lines of a new site, and the lines that grew against the baseline', () => {
    const m = (bytes: number, lines: number[][]) => ({ bytes, blocks: 1, lines: JSON.stringify(lines) });
    expect(
      linesText(
        m(3 * GiB + 2048, [
          [5, 1024, 1],
          [7, 3 * GiB, 1],
          [9, 1024, 1],
          [11, 0, 1],
        ]),
        undefined,
      ),
    ).toBe('line 7: 3.0 GiB, line 5: 1.0 KiB, line 9: 1.0 KiB, 1 more line(s)');
    expect(linesText(m(3 * GiB, [[7, 3 * GiB, 1]]), m(GiB, [[6, GiB, 1]]))).toBe('+2.0 GiB (line 7: +2.0 GiB)');
    expect(linesText(m(GiB, [[7, GiB, 1]]), m(GiB, [[6, GiB, 1]]))).toBe('');
  });
});

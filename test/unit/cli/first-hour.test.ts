// What a user meets in the first hour: report folders made, factors instead of huge percentages, counts and "why"
// cells that say what they mean, and a failed gate that ends with how to accept an intended change.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';
import type { GateReport } from '../../../src/gate/types.js';
import { renderHtml } from '../../../src/report/html.js';
import { renderJunit } from '../../../src/report/junit.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { renderTerminal } from '../../../src/report/terminal.js';
import { entry } from '../../helpers/entries.js';
import { MiB } from '../../helpers/story.js';
import { buildReportView } from '../../../src/report/view.js';

const dir = mkdtempSync(join(tmpdir(), 'amg-first-hour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SNAPSHOT = join(
  import.meta.dirname,
  '..',
  '..',
  'fixtures',
  'memory-snapshot',
  'constructed',
  'protocol4.pickle',
);

/** 40 B → 120 MiB: +314572700% as a percentage. */
const huge = entry({
  key: 'DEV_MEM/dev0/APP',
  baseline: 40,
  current: 120 * MiB,
  delta: 120 * MiB - 40,
  percent: ((120 * MiB - 40) / 40) * 100,
  status: 'regressed',
  severity: 'fail',
});
const failed: GateReport = { result: 'fail', counts: { regressed: 1 }, entries: [huge] };

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

describe('a change past ×100 reads as a factor in every renderer', () => {
  it('×3,145,728, not +314572700%', () => {
    const junit = renderJunit(buildReportView(failed), { timestamp: new Date(Date.UTC(2026, 11, 4)), hostname: 'h' });
    for (const text of [
      renderTerminal(buildReportView(failed)),
      renderMarkdown(buildReportView(failed)),
      renderHtml(buildReportView(failed)),
      junit,
    ]) {
      expect(text).toContain('×3,145,728');
      expect(text).not.toContain('314572700');
    }
    expect(renderTerminal(buildReportView(failed)).split('\n')[3]).toBe(
      '✗ regressed  DEV_MEM/dev0/APP    40 B → 120.0 MiB  +120.0 MiB (×3,145,728)',
    );
  });

  it('keeps percentages up to ×100', () => {
    const r: GateReport = {
      result: 'fail',
      counts: { regressed: 1 },
      entries: [{ ...huge, current: 4000, delta: 3960, percent: 9900 }],
    };
    expect(renderTerminal(buildReportView(r)).split('\n')[3]).toBe(
      '✗ regressed  DEV_MEM/dev0/APP      40 B → 3.9 KiB  +3.9 KiB (+9900%)',
    );
  });
});

describe('the counts and the "why" say what they mean', () => {
  it('counts the keys within thresholds apart from the warnings', () => {
    const r: GateReport = {
      result: 'pass',
      counts: { pass: 2, new: 1 },
      entries: [
        entry({ key: 'DEV_MEM/dev0/APP' }),
        entry({ key: 'DEV_MEM/dev0/HCCL' }),
        entry({ key: 'DEV_MEM/dev0/GE', baseline: null, delta: null, percent: null, status: 'new', severity: 'warn' }),
      ],
    };
    expect(renderTerminal(buildReportView(r)).split('\n')[0]).toBe(
      'Memory gate passed: 2 keys within thresholds (1 warning)',
    );
  });

  it("gives a new key's policy as its reason in the HTML report, not the default tolerance", () => {
    const r: GateReport = {
      result: 'pass',
      counts: { new: 1, missing: 1 },
      entries: [
        entry({ key: 'DEV_MEM/dev0/GE', baseline: null, delta: null, percent: null, status: 'new', severity: 'warn' }),
        entry({
          key: 'DEV_MEM/dev0/OLD',
          current: null,
          delta: null,
          percent: null,
          status: 'missing',
          severity: 'warn',
        }),
      ],
    };
    const html = renderHtml(buildReportView(r));
    expect(html).toContain('<td class="why" data-label="Why">not in the baseline (onNew: warn)</td>');
    expect(html).toContain('<td class="why" data-label="Why">not in this run (onMissing: warn)</td>');
    expect(html).not.toContain('default tolerance');
  });
});

describe('a failed gate ends with how to accept an intended change', () => {
  it('names the baseline command, the file and the label, last, in the terminal and the Markdown', () => {
    const terminal = renderTerminal(buildReportView(failed), {
      baselineFile: 'baselines/m.json',
      baselineUpdateLabel: 'mem-ok',
      width: 400,
    });
    expect(terminal.trimEnd().split('\n').at(-1)).toBe(
      "To accept an intended change: 'ascend-memory-gate baseline --out baselines/m.json' with this check's inputs, then commit 'baselines/m.json' (the Action: 'mode: update'); on a pull request, the label 'mem-ok' set by a maintainer lets its own baseline count.",
    );
    const markdown = renderMarkdown(buildReportView(failed), {
      baselineFile: 'baselines/m.json',
      baselineUpdateLabel: 'mem-ok',
    });
    expect(markdown.trimEnd().split('\n').at(-1)).toBe(
      "To accept an intended change: `ascend-memory-gate baseline --out baselines/m.json` with this check's inputs, then commit `baselines/m.json` (the Action: `mode: update`); on a pull request, the label `mem-ok` set by a maintainer lets its own baseline count.",
    );
  });

  it('says nothing of the kind when the gate passed, or when only an OOM failed it', () => {
    const oom: GateReport = {
      result: 'fail',
      counts: { oom: 1 },
      entries: [
        entry({
          kind: 'oom',
          key: 'dev0/oom1',
          baseline: null,
          delta: null,
          percent: null,
          status: 'oom',
          severity: 'fail',
        }),
      ],
    };
    for (const r of [
      oom,
      { result: 'pass', counts: { pass: 1 }, entries: [entry({ key: 'DEV_MEM/dev0/APP' })] } satisfies GateReport,
    ]) {
      expect(renderTerminal(buildReportView(r))).not.toContain('To accept an intended change');
      expect(renderMarkdown(buildReportView(r))).not.toContain('To accept an intended change');
    }
  });
});

describe('report folders', () => {
  it('are made when missing, for every report flag, and the verdict is printed', async () => {
    const out = join(dir, 'out');
    const r = await run([
      'check',
      '--baseline',
      join(dir, 'absent.json'),
      '--memory-snapshot',
      SNAPSHOT,
      '--html',
      join(out, 'h', 'x.html'),
      '--markdown',
      join(out, 'm', 'x.md'),
      '--report',
      join(out, 'j', 'x.json'),
      '--junit',
      join(out, 'u', 'x.xml'),
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('No baseline yet: 4 keys recorded');
    for (const f of ['h/x.html', 'm/x.md', 'j/x.json', 'u/x.xml']) expect(existsSync(join(out, f))).toBe(true);
    expect(readFileSync(join(out, 'm', 'x.md'), 'utf8')).toContain('No baseline yet: 4 keys recorded');
  });
});

describe('baseline prints a short terminal summary', () => {
  it('the counts and the ten largest changes within 80 columns, not a Markdown table of every key', async () => {
    const examples = join(import.meta.dirname, '..', '..', '..', 'examples');
    const file = join(dir, 'examples-baseline.json');
    const r = await run([
      'baseline',
      '--out',
      file,
      '--plog',
      join(examples, 'plog'),
      '--compare',
      join(examples, 'memory_compare'),
    ]);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines.slice(0, 5)).toEqual([
      `wrote ${file}:`,
      '18 added, 0 changed, 0 kept (absent from this run), 0 pruned, 0 unchanged',
      'Largest changes (10 of 18):',
      '  added    DEV_MEM/dev1/APP  1.9 GiB',
      '  added    DEV_MEM/dev0/APP  1.9 GiB',
    ]);
    expect(lines.at(-1)).toBe(`…and 8 more: git diff ${file} lists every key`);
    expect(lines).toHaveLength(14);
    expect(r.out).not.toContain('|');
  });
});

describe('a snapshot without a trace says its figures are dump-time ones', () => {
  it('labels the device "dump-time" in the terminal, the Markdown, the HTML and the JUnit report', async () => {
    const bare = join(
      import.meta.dirname,
      '..',
      '..',
      'fixtures',
      'memory-snapshot',
      'constructed',
      'bare_segments.pkl',
    );
    const out = join(dir, 'bare');
    const r = await run([
      'check',
      '--baseline',
      join(dir, 'absent.json'),
      '--memory-snapshot',
      bare,
      '--markdown',
      join(out, 'r.md'),
      '--html',
      join(out, 'r.html'),
      '--junit',
      join(out, 'r.xml'),
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('! dev0 (dump-time)    — → 65.0 MiB   — → 66.0 MiB        1.0 MiB (1.5%)');
    expect(r.out.replace(/\n/g, ' ')).toContain(
      'dump-time: the device had no trace (the snapshot was taken without _record_memory_history), so its figures are the state at dump time, not peaks',
    );
    expect(readFileSync(join(out, 'r.md'), 'utf8')).toContain(
      '| ⚠️\u00a0`dev0` | — → 65.0\u00a0MiB (dump-time) | — → 66.0\u00a0MiB (dump-time) |',
    );
    expect(readFileSync(join(out, 'r.html'), 'utf8')).toContain(
      '<td class="num" data-label="Allocated peak">— → 65.0\u00a0MiB (dump-time)</td>',
    );
    expect(readFileSync(join(out, 'r.xml'), 'utf8')).toContain(
      'dump-time: dev0/allocated: no trace was recorded on this device, so this is its state at dump time, not a peak',
    );
  });

  it('labels the figures of its keys too, in the lists of keys within thresholds', async () => {
    const bare = join(
      import.meta.dirname,
      '..',
      '..',
      'fixtures',
      'memory-snapshot',
      'constructed',
      'bare_segments.pkl',
    );
    const base = join(dir, 'bare-baseline.json');
    expect((await run(['baseline', '--out', base, '--memory-snapshot', bare])).code).toBe(0);
    const md = join(dir, 'bare-again.md');
    const r = await run(['check', '--baseline', base, '--memory-snapshot', bare, '--markdown', md]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('\n').slice(2, 4)).toEqual([
      'DEVICE                 ALLOCATED PEAK        RESERVED PEAK  RESERVED − ALLOCATED',
      'dev0 (dump-time)  65.0 MiB → 65.0 MiB  66.0 MiB → 66.0 MiB        1.0 MiB (1.5%)',
    ]);
    expect(readFileSync(md, 'utf8')).toContain(
      '| ✅\u00a0pass | `dev0/allocated` | 65.0\u00a0MiB → 65.0\u00a0MiB (dump-time) |',
    );
  });
});

describe('parse uses one definition of allocated bytes, named in its header', () => {
  it('gives an untraced device the same allocated figure at dump time as its peak (requested bytes), and says so', async () => {
    const bare = join(
      import.meta.dirname,
      '..',
      '..',
      'fixtures',
      'memory-snapshot',
      'constructed',
      'bare_segments.pkl',
    );
    const json = await run(['parse', '--memory-snapshot', bare, '--json']);
    const allocated = (
      JSON.parse(json.out) as { sections: { allocator: Record<string, { peak: number; atDump: number }> } }
    ).sections.allocator['dev0/allocated'];
    expect(allocated?.atDump).toBe(allocated?.peak);
    const table = await run(['parse', '--memory-snapshot', bare]);
    expect(table.out).toContain(
      'Caching allocator (2)\nallocated: requested bytes (what the program asked for, before the allocator\nrounds blocks up); reserved: segment bytes.',
    );
    for (const line of table.out.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});

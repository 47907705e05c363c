/**
 * The reports as people see them, in headless Chromium: every Mermaid chart parses and renders in the current
 * `mermaid` release; the PR comment, rendered as GFM with GitHub's CSS in a 780 px comment box, has no table wider
 * than the box; the HTML page at 400 px (a viewport that wide, set over CDP) has no horizontal scroll and breaks keys only at `/`; a memory snapshot's page fits 780 and 400 px.
 *
 * Skipped, with the reason printed, only where no Chromium can be had (none packaged for this machine, none installed).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { marked } from 'marked';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/commands.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { chromium, pageResult } from '../helpers/chromium.js';
import { eightDeviceStory, jobReport } from '../helpers/jobs.js';
import { GiB } from '../helpers/story.js';
import { buildReportView } from '../../src/report/view.js';

if (chromium.path === null) console.warn(`report-browser.test.ts: skipping the browser tests: ${chromium.reason}`);

const require = createRequire(import.meta.url);
const MERMAID = pathToFileURL(join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js')).href;
const GITHUB_CSS = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');

const work = mkdtempSync(join(tmpdir(), 'report-browser-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let pages = 0;

/** Runs a page whose script writes JSON into <pre id="result"> and returns it parsed. */
async function measure(html: string, windowSize: string): Promise<unknown> {
  const file = join(work, `page-${++pages}.html`);
  writeFileSync(file, html);
  const [width, height] = windowSize.split(',').map(Number);
  return JSON.parse(await pageResult(file, width, height));
}

/** The Mermaid fences of a markdown report. */
function mermaidCharts(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => m[1] ?? '');
}

const oneDevice = jobReport({ devices: 1, change: (a, _d, m) => (a === 'DEV_MEM' && m === 'APP' ? 1.5 : 1) });
const eight = eightDeviceStory();
const sixtyFour = jobReport({
  devices: 64,
  change: (a, d, m) =>
    a === 'DEV_MEM' && m === 'APP' ? 1 + (d % 5) / 10 : a === 'DEV_MEM' && m === 'HCCL' && d === 63 ? 2 : 1,
});

describe('Mermaid charts in the current mermaid package', () => {
  it.skipIf(chromium.path === null)(
    'renders every chart of the 1-, 8- and 64-device runs without an error, each with its bars',
    async () => {
      const charts = [oneDevice, eight, sixtyFour].flatMap((r) => mermaidCharts(renderMarkdown(buildReportView(r))));
      expect(charts.length).toBe(1 + 3 + 2);
      const page = `<!DOCTYPE html><html><body><div id="out"></div><pre id="result"></pre>
<script src="${MERMAID}"></script>
<script>
const charts = ${JSON.stringify(charts)};
(async () => {
  mermaid.initialize({ startOnLoad: false });
  const results = [];
  for (const [i, text] of charts.entries()) {
    try {
      const { svg } = await mermaid.render('chart' + i, text);
      const holder = document.createElement('div');
      holder.innerHTML = svg;
      document.getElementById('out').appendChild(holder);
      results.push({ ok: true, bars: holder.querySelectorAll('.bar-plot-0 rect').length, lines: holder.querySelectorAll('.line-plot-1 path, .line-plot-0 path').length, error: null });
    } catch (error) {
      results.push({ ok: false, bars: 0, lines: 0, error: String(error && error.message || error) });
    }
  }
  document.getElementById('result').textContent = JSON.stringify(results);
})();
</script></body></html>`;
      const results = (await measure(page, '1200,900')) as {
        ok: boolean;
        bars: number;
        lines: number;
        error: string | null;
      }[];
      expect(results.map((r) => r.error)).toEqual(charts.map(() => null));
      // 1 device: two bars (baseline, this run); 8 devices: 8 bars and a baseline line; 64: the 16 that changed most.
      expect(results.map((r) => r.bars)).toEqual([2, 8, 8, 8, 16, 16]);
      expect(results.map((r) => r.lines)).toEqual([0, 1, 1, 1, 1, 1]);
    },
  );

  it('pads no series: each bar is this run and each line the baseline, value for value', () => {
    const md = renderMarkdown(buildReportView(eight));
    const [app = ''] = mermaidCharts(md);
    expect(app.split('\n').slice(1)).toEqual([
      'xychart-beta',
      '  x-axis ["dev0", "dev1", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7"]',
      '  y-axis "peak (GiB)" 0 --> 40',
      '  bar [19.7, 19.7, 19.7, 39.4, 19.7, 19.7, 19.7, 19.7]',
      '  line [19.7, 19.7, 19.7, 19.7, 19.7, 19.7, 19.7, 19.7]',
    ]);
    for (const chart of [oneDevice, eight, sixtyFour].flatMap((r) =>
      mermaidCharts(renderMarkdown(buildReportView(r))),
    )) {
      const axis = /x-axis \[(.*)\]/.exec(chart)?.[1]?.split(', ') ?? [];
      for (const series of chart.matchAll(/^ {2}(bar|line) \[(.*)\]$/gm)) {
        const values = (series[2] ?? '').split(', ').map(Number);
        expect(values).toHaveLength(axis.length);
        expect(values.filter((v) => v === 0)).toEqual([]);
      }
    }
  });
});

/** GFM as GitHub renders it: marked's GFM, GitHub's markdown CSS, a comment box of 780 px. */
function githubPage(markdown: string, boxWidth: number, script: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${GITHUB_CSS}
body { margin: 0; } .markdown-body { box-sizing: border-box; width: ${boxWidth}px; padding: 16px; }</style></head>
<body><article class="markdown-body" id="box">${marked.parse(markdown, { gfm: true, async: false })}</article><pre id="result"></pre>
<script>${script}</script></body></html>`;
}

const TABLE_WIDTHS = `
const box = document.getElementById('box');
const inner = box.getBoundingClientRect().right - 16;
const tables = [...box.querySelectorAll('table')].map((t) => ({ scroll: t.scrollWidth, client: t.clientWidth, right: Math.round(t.getBoundingClientRect().right), inner: Math.round(inner) }));
document.getElementById('result').textContent = JSON.stringify(tables);`;

describe('the PR comment in a 780 px comment box', () => {
  it.skipIf(chromium.path === null)(
    'has no table wider than the box for the 8-device run with device verdicts',
    async () => {
      const md = renderMarkdown(buildReportView(eight), { maxBytes: 65_536 });
      expect(md).toContain('over-capacity');
      const tables = (await measure(githubPage(md, 780, TABLE_WIDTHS), '1000,900')) as {
        scroll: number;
        client: number;
        right: number;
        inner: number;
      }[];
      expect(tables.length).toBeGreaterThanOrEqual(3);
      for (const t of tables) {
        expect(t.scroll).toBeLessThanOrEqual(t.client);
        expect(t.right).toBeLessThanOrEqual(t.inner);
      }
    },
  );
});

const KEY_BREAKS = `
const keys = [...document.querySelectorAll('.key')];
const broken = [];
for (const key of keys) {
  const walker = document.createTreeWalker(key, NodeFilter.SHOW_TEXT);
  let previous = null; let top = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (top !== null && rect.top > top + 2 && previous !== '/' && previous !== ' ') broken.push(key.textContent);
      top = rect.top; previous = node.data[i];
    }
  }
}
document.getElementById('result').textContent = JSON.stringify({ scroll: document.documentElement.scrollWidth, width: window.innerWidth, keys: keys.length, broken });`;

describe('the HTML page at 400 px', () => {
  it.skipIf(chromium.path === null)('has no horizontal scroll and breaks no key inside a segment', async () => {
    // The page forbids scripts; the copy under test gets the measuring script instead of the CSP.
    const html = renderHtml(buildReportView(eight))
      .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
      .replace('</body>', `<pre id="result"></pre><script>${KEY_BREAKS}</script></body>`);
    const result = (await measure(html, '400,900')) as {
      scroll: number;
      width: number;
      keys: number;
      broken: string[];
    };
    expect(result.width).toBe(400);
    expect(result.keys).toBeGreaterThan(5);
    expect(result.broken).toEqual([]);
    expect(result.scroll).toBeLessThanOrEqual(result.width);
  });

  it('stays under 5 MB for 4,096 devices × 15 modules and 100,000 kernels', () => {
    const big = jobReport({
      devices: 4096,
      kernels: 100_000,
      change: (a, _d, m) => (a === 'DEV_MEM' && m === 'APP' ? 1.1 : 1),
    });
    expect(Buffer.byteLength(renderHtml(buildReportView(big)))).toBeLessThan(5 * 1024 * 1024);
    expect(GiB).toBe(1024 ** 3);
  });
});

describe('the HTML page of a memory snapshot with an OOM', () => {
  const FIX = join(import.meta.dirname, '..', 'fixtures', 'memory-snapshot');
  const quiet = { out: () => undefined, err: () => undefined, width: () => 80, color: () => false };
  /**
   * The report a user gets from an OOM dump against the baseline of an earlier snapshot of the same device, the paths
   * absolute as the Action names them: the widest figures (+34.1 GiB (+6633%)) and the longest notes.
   */
  async function oomPage(): Promise<string> {
    const earlier = join(FIX, 'corpus', 'snapshot_1768383987920985470.pkl');
    const baseline = join(work, 'snapshot-baseline.json');
    expect(await runCli(['baseline', '--out', baseline, '--memory-snapshot', earlier], quiet)).toBe(0);
    const html = join(work, 'oom.html');
    expect(
      await runCli(
        [
          'check',
          '--baseline',
          baseline,
          '--memory-snapshot',
          join(FIX, 'constructed', 'oom_snapshot_4242_20261201101500.pickle'),
          earlier,
          '--html',
          html,
        ],
        quiet,
      ),
    ).toBe(1);
    return readFileSync(html, 'utf8');
  }
  const PROBE = `
const timelines = [...document.querySelectorAll('svg.trace-timeline')].map((s) => Math.round(s.getBoundingClientRect().right));
document.getElementById('result').textContent = JSON.stringify({ scroll: document.documentElement.scrollWidth, width: window.innerWidth, timelines });`;

  for (const width of [780, 400]) {
    it.skipIf(chromium.path === null)(
      `at ${width} px has no horizontal scroll, and each device's allocator timeline fits`,
      async () => {
        const html = (await oomPage())
          .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
          .replace('</body>', `<pre id="result"></pre><script>${PROBE}</script></body>`);
        const result = (await measure(html, `${width},900`)) as { scroll: number; width: number; timelines: number[] };
        expect(result.width).toBe(width);
        // Device 0, from both files (the larger peak wins, whole): one timeline.
        expect(result.timelines).toHaveLength(1);
        for (const right of result.timelines) expect(right).toBeLessThanOrEqual(result.width);
        expect(result.scroll).toBeLessThanOrEqual(result.width);
      },
    );
  }
});

#!/usr/bin/env node
// README screenshots from the bundled examples: runs dist/cli.js on examples/regressed, renders the markdown as GitHub
// does (GFM, GitHub's CSS, a 780 px comment box; and 400 px) and the HTML report (1,000 px and 400 px) in headless
// Chromium (scripts/browser.mjs: the build from npm, or CHROMIUM=path), and writes docs/screenshots/*.png. Needs
// `npm run build`.
//
//   node scripts/screenshots.mjs [--out DIR] [--markdown FILE.md --html FILE.html --name PREFIX]
//   node scripts/screenshots.mjs --history [--out DIR]   the history's: 40 runs of main made from the bundled example
//     (HCCL doubles at run 26 with CANN 9.0, the baseline is updated at run 33), a PR's comment with its sparklines,
//     its HTML report, and the dashboard (history-*.png)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { marked } from 'marked';
import { findChromium, launch, openPage, settled } from './browser.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const { values } = parseArgs({
  options: { out: { type: 'string' }, markdown: { type: 'string' }, html: { type: 'string' }, name: { type: 'string' }, history: { type: 'boolean' } },
});
const CLI = join(ROOT, 'dist', 'cli.js');
const out = resolve(values.out ?? join(ROOT, 'docs', 'screenshots'));
const work = mkdtempSync(join(tmpdir(), 'amg-screenshots-'));
const chromium = await findChromium();
if (chromium.path === null) {
  console.error(`screenshots: no browser: ${chromium.reason}`);
  process.exit(1);
}
const browser = await launch(chromium);

try {
  mkdirSync(out, { recursive: true });
  if (values.history) await historyScreenshots();
  else await exampleScreenshots();
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}

/** The bundled regressed example (or the given markdown and HTML): comment at 780 and 400 px, HTML report at 1,000 and 400 px. */
async function exampleScreenshots() {
  let markdownFile = values.markdown;
  let htmlFile = values.html;
  if (markdownFile === undefined || htmlFile === undefined) {
    markdownFile = join(work, 'report.md');
    htmlFile = join(work, 'report.html');
    // The regressed example against the committed baseline, with the example config's 32 GiB capacity: exit 1 is the point.
    try {
      execFileSync(process.execPath, [
        join(ROOT, 'dist', 'cli.js'), 'check',
        '--baseline', join(ROOT, 'baselines', 'memory-baseline.json'),
        '--config', join(ROOT, 'examples', 'memory-gate.json'),
        '--plog', join(ROOT, 'examples', 'regressed', 'plog'),
        '--compare', join(ROOT, 'examples', 'memory_compare'),
        '--markdown', markdownFile, '--html', htmlFile,
      ], { stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (error) {
      if (error.status !== 1) throw error;
    }
  }
  const name = values.name ?? 'example';
  const markdown = readFileSync(markdownFile, 'utf8');
  await commentShots(markdown, name);
  for (const width of [1000, 400]) await shoot(htmlFile, join(out, `${name}-html-${width}.png`), width);
  console.log(`wrote ${name}-comment-780.png, ${name}-comment-400.png, ${name}-html-1000.png, ${name}-html-400.png to ${out}`);
}

/** The markdown as GitHub renders a comment (GFM, GitHub's CSS, Mermaid drawn), at 780 and 400 px. */
async function commentShots(markdown, name) {
  const mermaid = pathToFileURL(join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js')).href;
  const css = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
  for (const width of [780, 400]) {
    const page = join(work, `comment-${width}.html`);
    writeFileSync(page, `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #fff; } .markdown-body { box-sizing: border-box; width: ${width}px; padding: 16px; }</style></head>
<body><article class="markdown-body">${githubMermaid(marked.parse(markdown, { gfm: true }))}</article>
<script src="${mermaid}"></script><script>mermaid.initialize({ startOnLoad: true });</script></body></html>`);
    await shoot(page, join(out, `${name}-comment-${width}.png`), width);
  }
}

/** A commit id of run n, as 40 hex digits. */
function demoSha(n) {
  return (0x9e3779b1 * n >>> 0).toString(16).padStart(8, '0').repeat(5);
}

/**
 * The bundled example's plog as run n of main saw it: HCCL doubled from run 26 on, APP a few MiB up or down now and
 * then (the allocator's jitter), every other figure as it is.
 */
function demoPlog(n) {
  const dir = join(work, `run-${n}`, 'plog');
  for (const rank of ['rank_0', 'rank_1']) {
    const from = join(ROOT, 'examples', 'plog', rank);
    mkdirSync(join(dir, rank), { recursive: true });
    for (const file of readdirSync(from)) {
      const text = readFileSync(join(from, file), 'utf8').replace(/module_name=(\w+);([^)]*?)alloced_peak_size=(\d+)/g, (all, module, middle, peak) => {
        let value = Number(peak);
        if (module === 'HCCL' && n >= 26) value *= 2;
        if (module === 'APP' && n % 7 === 3) value += 6 * 1024 * 1024;
        return `module_name=${module};${middle}alloced_peak_size=${value}`;
      });
      writeFileSync(join(dir, rank, file), text);
    }
  }
  return dir;
}

function cli(args, allowed = [0]) {
  try {
    execFileSync(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    if (!allowed.includes(error.status)) throw error;
  }
}

/** 40 runs of main recorded with `history append`, then a PR's check against them, its HTML report and the dashboard. */
async function historyScreenshots() {
  const history = join(work, 'memory-history.jsonl');
  const baseline = join(ROOT, 'baselines', 'memory-baseline.json');
  const updated = join(work, 'baseline-after-33.json');
  for (let n = 1; n <= 40; n++) {
    const plog = demoPlog(n);
    // The team updates the baseline at run 33, after the HCCL change was accepted.
    if (n === 33) cli(['baseline', '--out', updated, '--plog', plog, '--compare', join(ROOT, 'examples', 'memory_compare')]);
    cli([
      'history', 'append', '--history', history, '--commit', demoSha(n), '--run', String(8100 + n),
      '--time', new Date(Date.UTC(2026, 2, 1) + n * 6 * 3600 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      '--branch', 'main', '--commit-url', 'https://github.com/ascend-memory-gate/ascend-memory-gate/commit/{sha}',
      '--baseline', n >= 33 ? updated : baseline, '--env', `cann=${n >= 26 ? '9.0.RC1' : '8.3.RC1'}`,
      '--plog', plog, '--compare', join(ROOT, 'examples', 'memory_compare'),
    ]);
  }
  // A pull request gated against the committed (pre-update) baseline: HCCL regressed, and the history says since when.
  const markdown = join(work, 'pr.md');
  const html = join(work, 'pr.html');
  cli(['check', '--baseline', baseline, '--plog', demoPlog(40), '--compare', join(ROOT, 'examples', 'memory_compare'), '--history', history, '--markdown', markdown, '--html', html, '--env', 'cann=9.0.RC1'], [1]);
  await commentShots(readFileSync(markdown, 'utf8'), 'history');
  await shoot(html, join(out, 'history-html-1000.png'), 1000);
  const dashboard = join(work, 'dashboard.html');
  cli(['history', 'html', '--history', history, '--out', dashboard]);
  for (const width of [1000, 400]) await shoot(dashboard, join(out, `history-dashboard-${width}.png`), width);
  console.log(`wrote history-comment-780.png, history-comment-400.png, history-html-1000.png, history-dashboard-1000.png, history-dashboard-400.png to ${out}`);
}

/** Mermaid fences as GitHub shows them: drawn, not as code. */
function githubMermaid(html) {
  return html.replace(/<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g, '<pre class="mermaid">$1</pre>');
}

/**
 * A whole-page screenshot `width` px wide (a viewport that wide, set over CDP), as tall as the page, capped at 4,000
 * px; Mermaid charts drawn first.
 */
async function shoot(file, png, width) {
  const page = await openPage(browser, file, width, 800);
  try {
    await page.waitForFunction(() => document.querySelectorAll('pre.mermaid:not([data-processed])').length === 0, { timeout: 15_000, polling: 100 });
    await settled(page);
    const height = Math.min(4000, await page.evaluate(() => document.documentElement.scrollHeight));
    await page.setViewport({ width, height, deviceScaleFactor: 1 });
    await settled(page);
    writeFileSync(png, await page.screenshot({ type: 'png' }));
  } finally {
    await page.close();
  }
}

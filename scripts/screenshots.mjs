#!/usr/bin/env node
// README screenshots from the bundled examples: runs dist/cli.js on examples/regressed, renders the markdown as GitHub
// does (GFM, GitHub's CSS, a 780 px comment box; and 400 px) and the HTML report (1,000 px and 400 px) in headless
// Chromium, and writes docs/screenshots/*.png. Needs `npm run build` and Debian's chromium (or CHROMIUM=path).
//
//   node scripts/screenshots.mjs [--out DIR] [--markdown FILE.md --html FILE.html --name PREFIX]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { marked } from 'marked';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const { values } = parseArgs({
  options: { out: { type: 'string' }, markdown: { type: 'string' }, html: { type: 'string' }, name: { type: 'string' } },
});
const out = resolve(values.out ?? join(ROOT, 'docs', 'screenshots'));
const chromium = process.env.CHROMIUM ?? 'chromium';
const work = mkdtempSync(join(tmpdir(), 'amg-screenshots-'));

try {
  mkdirSync(out, { recursive: true });
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
  const mermaid = pathToFileURL(join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js')).href;
  const css = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
  const markdown = readFileSync(markdownFile, 'utf8');
  for (const width of [780, 400]) {
    const page = join(work, `comment-${width}.html`);
    writeFileSync(page, `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #fff; } .markdown-body { box-sizing: border-box; width: ${width}px; padding: 16px; }</style></head>
<body><article class="markdown-body">${githubMermaid(marked.parse(markdown, { gfm: true }))}</article>
<script src="${mermaid}"></script><script>mermaid.initialize({ startOnLoad: true });</script></body></html>`);
    shoot(page, join(out, `${name}-comment-${width}.png`), width);
  }
  for (const width of [1000, 400]) shoot(htmlFile, join(out, `${name}-html-${width}.png`), width);
  console.log(`wrote ${name}-comment-780.png, ${name}-comment-400.png, ${name}-html-1000.png, ${name}-html-400.png to ${out}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Mermaid fences as GitHub shows them: drawn, not as code. */
function githubMermaid(html) {
  return html.replace(/<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g, '<pre class="mermaid">$1</pre>');
}

function chrome(args, file, width, height) {
  return execFileSync(chromium, [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars', '--force-device-scale-factor=1',
    '--force-color-profile=srgb', '--allow-file-access-from-files', '--virtual-time-budget=10000',
    `--user-data-dir=${join(work, 'profile')}`, `--window-size=${width},${height}`, ...args, pathToFileURL(file).href,
  ], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000 });
}

/** A whole-page screenshot: the page's height is measured first (in a copy that may run a script), capped at 4,000 px. */
function shoot(file, png, width) {
  const probe = join(work, 'probe.html');
  const html = readFileSync(file, 'utf8').replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
  writeFileSync(probe, html.replace('</body>', '<script>setTimeout(() => { document.title = "h=" + document.documentElement.scrollHeight; }, 3000);</script></body>'));
  const dom = chrome(['--dump-dom'], probe, width, 800);
  const height = Math.min(4000, Number(/<title>h=(\d+)<\/title>/.exec(dom)?.[1] ?? 1600));
  chrome([`--screenshot=${png}`], file, width, height);
}

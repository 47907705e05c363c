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
//   node scripts/screenshots.mjs --hosts [--out DIR]   the example's comment as GitLab and GitCode would render it, by
//     an emulation of each host's documented rules (HOST_RULES below), not by the live host (comment-<host>-780.png)
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
  options: {
    out: { type: 'string' },
    markdown: { type: 'string' },
    html: { type: 'string' },
    name: { type: 'string' },
    history: { type: 'boolean' },
    hosts: { type: 'boolean' },
  },
});
const CLI = join(ROOT, 'dist', 'cli.js');
/**
 * What each host's Markdown renderer is documented to do, as an emulation: GFM tables, then the host's HTML sanitizer
 * (DOMPurify with the host's allow-list; HTML comments dropped), Mermaid fences drawn or left as code. Sources are in
 * docs/hosts/gitlab.md and gitcode.md ("How the comment renders").
 */
const HOST_RULES = {
  // html-pipeline's SanitizationFilter allow-list plus span, abbr, details and summary (GitLab's doc/user/markdown.md).
  gitlab: {
    label: 'GitLab',
    mermaid: true,
    tags: [
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'h7',
      'h8',
      'br',
      'b',
      'i',
      'strong',
      'em',
      'a',
      'pre',
      'code',
      'img',
      'tt',
      'div',
      'ins',
      'del',
      'sup',
      'sub',
      'p',
      'ol',
      'ul',
      'table',
      'thead',
      'tbody',
      'tfoot',
      'blockquote',
      'dl',
      'dt',
      'dd',
      'kbd',
      'q',
      'samp',
      'var',
      'hr',
      'ruby',
      'rt',
      'rp',
      'li',
      'tr',
      'td',
      'th',
      's',
      'strike',
      'span',
      'abbr',
      'details',
      'summary',
    ],
  },
  // GitCode documents no allow-list of its own: the GitLab-derived one of its help pages, and no Mermaid (docs/hosts/gitcode.md).
  gitcode: {
    label: 'GitCode',
    mermaid: false,
    tags: [
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'br',
      'b',
      'i',
      'strong',
      'em',
      'a',
      'pre',
      'code',
      'img',
      'tt',
      'div',
      'ins',
      'del',
      'sup',
      'sub',
      'p',
      'ol',
      'ul',
      'table',
      'thead',
      'tbody',
      'tfoot',
      'blockquote',
      'dl',
      'dt',
      'dd',
      'kbd',
      'q',
      'samp',
      'var',
      'hr',
      'li',
      'tr',
      'td',
      'th',
      's',
      'strike',
      'span',
      'abbr',
      'details',
      'summary',
    ],
  },
};

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
  else if (values.hosts) await hostScreenshots();
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
      execFileSync(
        process.execPath,
        [
          join(ROOT, 'dist', 'cli.js'),
          'check',
          '--baseline',
          join(ROOT, 'baselines', 'memory-baseline.json'),
          '--config',
          join(ROOT, 'examples', 'memory-gate.json'),
          '--plog',
          join(ROOT, 'examples', 'regressed', 'plog'),
          '--compare',
          join(ROOT, 'examples', 'memory_compare'),
          '--markdown',
          markdownFile,
          '--html',
          htmlFile,
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
    } catch (error) {
      if (error.status !== 1) throw error;
    }
  }
  const name = values.name ?? 'example';
  const markdown = readFileSync(markdownFile, 'utf8');
  await commentShots(markdown, name);
  for (const width of [1000, 400]) await shoot(htmlFile, join(out, `${name}-html-${width}.png`), width);
  console.log(
    `wrote ${name}-comment-780.png, ${name}-comment-400.png, ${name}-html-1000.png, ${name}-html-400.png to ${out}`,
  );
}

/** The markdown as GitHub renders a comment (GFM, GitHub's CSS, Mermaid drawn), at 780 and 400 px. */
async function commentShots(markdown, name) {
  const mermaid = pathToFileURL(join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js')).href;
  const css = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
  for (const width of [780, 400]) {
    const page = join(work, `comment-${width}.html`);
    writeFileSync(
      page,
      `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #fff; } .markdown-body { box-sizing: border-box; width: ${width}px; padding: 16px; }</style></head>
<body><article class="markdown-body">${githubMermaid(marked.parse(markdown, { gfm: true }))}</article>
<script src="${mermaid}"></script><script>mermaid.initialize({ startOnLoad: true });</script></body></html>`,
    );
    await shoot(page, join(out, `${name}-comment-${width}.png`), width);
  }
}

/** The example's comment body as the CLI posts it on each host (marker first), rendered by that host's emulated rules at 780 px. */
async function hostScreenshots() {
  const markdownFile = join(work, 'report.md');
  // The regressed example against the committed baseline: exit 1 is the point.
  // Run from the repository with relative paths, so the comment's "to accept" line names them as a user's run would.
  try {
    execFileSync(
      process.execPath,
      [
        CLI,
        'check',
        '--baseline',
        'baselines/memory-baseline.json',
        '--plog',
        'examples/regressed/plog',
        '--compare',
        'examples/memory_compare',
        '--markdown',
        markdownFile,
      ],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch (error) {
    if (error.status !== 1) throw error;
  }
  const body = `<!-- ascend-memory-gate:default -->\n${readFileSync(markdownFile, 'utf8')}`;
  const mermaid = pathToFileURL(join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js')).href;
  const purify = pathToFileURL(join(dirname(require.resolve('dompurify')), 'purify.min.js')).href;
  const css = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
  for (const [host, rules] of Object.entries(HOST_RULES)) {
    // On GitCode the CLI leaves the chart section out (chartModules: 0 in src/cli/review.ts): the same section here.
    const posted = rules.mermaid ? body : body.replace(/\n#### Module peaks per device\n[\s\S]*?\n(?=#### )/, '\n');
    const html = marked.parse(posted, { gfm: true });
    const page = join(work, `comment-${host}.html`);
    writeFileSync(
      page,
      `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #fff; } .markdown-body { box-sizing: border-box; width: 780px; padding: 16px; }
.emulated { font: 12px sans-serif; color: #57606a; border-bottom: 1px solid #d0d7de; padding: 4px 16px; width: 780px; box-sizing: border-box; }</style></head>
<body><div class="emulated">Emulation of ${rules.label}'s documented Markdown rules (not a screenshot of ${rules.label})</div><article class="markdown-body" id="c"></article>
<script src="${purify}"></script><script>
const clean = DOMPurify.sanitize(${JSON.stringify(html)}, { ALLOWED_TAGS: ${JSON.stringify(rules.tags)}, ALLOWED_ATTR: ['href', 'src', 'alt', 'title', 'align', 'open', 'class'] });
document.getElementById('c').innerHTML = ${rules.mermaid ? 'clean.replace(/<pre><code class="language-mermaid">([\\s\\S]*?)<\\/code><\\/pre>/g, \'<pre class="mermaid">$1</pre>\')' : 'clean'};
</script><script src="${mermaid}"></script><script>mermaid.initialize({ startOnLoad: true });</script></body></html>`,
    );
    await shoot(page, join(out, `comment-${host}-780.png`), 780);
  }
  console.log(`wrote comment-gitlab-780.png, comment-gitcode-780.png to ${out}`);
}

/** A commit id of run n, as 40 hex digits. */
function demoSha(n) {
  return ((0x9e3779b1 * n) >>> 0).toString(16).padStart(8, '0').repeat(5);
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
      const text = readFileSync(join(from, file), 'utf8').replace(
        /module_name=(\w+);([^)]*?)alloced_peak_size=(\d+)/g,
        (all, module, middle, peak) => {
          let value = Number(peak);
          if (module === 'HCCL' && n >= 26) value *= 2;
          if (module === 'APP' && n % 7 === 3) value += 6 * 1024 * 1024;
          return `module_name=${module};${middle}alloced_peak_size=${value}`;
        },
      );
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
    if (n === 33)
      cli(['baseline', '--out', updated, '--plog', plog, '--compare', join(ROOT, 'examples', 'memory_compare')]);
    cli([
      'history',
      'append',
      '--history',
      history,
      '--commit',
      demoSha(n),
      '--run',
      String(8100 + n),
      '--time',
      new Date(Date.UTC(2026, 2, 1) + n * 6 * 3600 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      '--branch',
      'main',
      '--commit-url',
      'https://github.com/ascend-memory-gate/ascend-memory-gate/commit/{sha}',
      '--baseline',
      n >= 33 ? updated : baseline,
      '--env',
      `cann=${n >= 26 ? '9.0.RC1' : '8.3.RC1'}`,
      '--plog',
      plog,
      '--compare',
      join(ROOT, 'examples', 'memory_compare'),
    ]);
  }
  // A pull request gated against the committed (pre-update) baseline: HCCL regressed, and the history says since when.
  const markdown = join(work, 'pr.md');
  const html = join(work, 'pr.html');
  cli(
    [
      'check',
      '--baseline',
      baseline,
      '--plog',
      demoPlog(40),
      '--compare',
      join(ROOT, 'examples', 'memory_compare'),
      '--history',
      history,
      '--markdown',
      markdown,
      '--html',
      html,
      '--env',
      'cann=9.0.RC1',
    ],
    [1],
  );
  await commentShots(readFileSync(markdown, 'utf8'), 'history');
  await shoot(html, join(out, 'history-html-1000.png'), 1000);
  const dashboard = join(work, 'dashboard.html');
  cli(['history', 'html', '--history', history, '--out', dashboard]);
  for (const width of [1000, 400]) await shoot(dashboard, join(out, `history-dashboard-${width}.png`), width);
  console.log(
    `wrote history-comment-780.png, history-comment-400.png, history-html-1000.png, history-dashboard-1000.png, history-dashboard-400.png to ${out}`,
  );
}

/** Mermaid fences as GitHub shows them: drawn, not as code. */
function githubMermaid(html) {
  return html.replace(
    /<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g,
    '<pre class="mermaid">$1</pre>',
  );
}

/**
 * A whole-page screenshot `width` px wide (a viewport that wide, set over CDP), as tall as the page, capped at 4,000
 * px; Mermaid charts drawn first.
 */
async function shoot(file, png, width) {
  const page = await openPage(browser, file, width, 800);
  try {
    await page.waitForFunction(() => document.querySelectorAll('pre.mermaid:not([data-processed])').length === 0, {
      timeout: 15_000,
      polling: 100,
    });
    await settled(page);
    const height = Math.min(4000, await page.evaluate(() => document.documentElement.scrollHeight));
    await page.setViewport({ width, height, deviceScaleFactor: 1 });
    await settled(page);
    writeFileSync(png, await page.screenshot({ type: 'png' }));
  } finally {
    await page.close();
  }
}

// The HTML report: one self-contained file a reviewer opens from the run's artifacts, safe whatever the plog files held.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';
import { readInputs } from '../../../src/action/inputs.js';
import { HTML_CSP, renderHtml } from '../../../src/report/html.js';
import { entry } from '../../helpers/entries.js';
import { report } from '../../helpers/reports.js';
import { GiB, GROWN_APP_PEAK, MiB, SEED_APP_DELTA, SEED_APP_PEAK } from '../../helpers/story.js';
import { buildReportView } from '../../../src/report/view.js';

/** The seed story on two ranks: APP on dev1 grew 10x, HCCL on dev0 broke its budget, a new kernel, a smaller kernel. */
const appRegressed = entry({
  key: 'DEV_MEM/dev1/APP',
  baseline: SEED_APP_PEAK,
  current: GROWN_APP_PEAK,
  delta: SEED_APP_DELTA,
  percent: 900,
  status: 'regressed',
  severity: 'fail',
});
const hcclOverBudget = entry({
  key: 'DEV_MEM/dev0/HCCL',
  baseline: 419_430_400,
  current: 650_117_120,
  delta: 230_686_720,
  percent: 55,
  status: 'over-budget',
  severity: 'fail',
  rule: 'DEV_MEM/*/HCCL',
});
const newKernel = entry({
  kind: 'kernel',
  key: 'dev0/matmul_v1',
  baseline: null,
  current: 6,
  delta: null,
  percent: null,
  status: 'new',
  severity: 'warn',
});
const shrunkKernel = entry({
  kind: 'kernel',
  key: 'dev1/add_custom',
  baseline: 4096,
  current: 1024,
  delta: -3072,
  percent: -75,
  status: 'improved',
});
const app0 = entry({ key: 'DEV_MEM/dev0/APP', baseline: SEED_APP_PEAK, current: SEED_APP_PEAK });
const hccl1 = entry({ key: 'DEV_MEM/dev1/HCCL', baseline: 419_430_400, current: 419_430_400 });
const svm = entry({ key: 'SVM_MEM/RUNTIME', baseline: 19_927_040, current: 19_927_040 });
const seedReport = report([svm, newKernel, hccl1, shrunkKernel, app0, hcclOverBudget, appRegressed]);

/** Every start tag's name, in order: text from files must never add one. */
function tagNames(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => (m[1] ?? '').toLowerCase());
}

const ALLOWED_TAGS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'main',
  'h1',
  'h2',
  'p',
  'section',
  'ul',
  'li',
  'figure',
  'figcaption',
  'div',
  'svg',
  'g',
  'line',
  'text',
  'rect',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'code',
  'details',
  'summary',
  'span',
  'wbr',
  'br',
  'ol',
  'caption',
]);

/** Well-formed start and end tags with double-quoted attributes: what the renderer writes. */
const TAG = /<\/?([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z][\w:-]*(?:="[^"<>]*")?)*)\s*\/?>/g;

/** Every attribute name of every tag; and, once every tag and the doctype are removed, no `<` may be left. */
function attributeNames(html: string): { names: Set<string>; strayBrackets: number } {
  const names = new Set<string>();
  for (const m of html.matchAll(TAG))
    for (const a of (m[2] ?? '').matchAll(/\s+([a-zA-Z][\w:-]*)(?:="[^"]*")?/g)) names.add((a[1] ?? '').toLowerCase());
  const rest = html.replace('<!DOCTYPE html>', '').replace(TAG, '');
  return { names, strayBrackets: (rest.match(/[<>]/g) ?? []).length };
}

const ALLOWED_ATTRIBUTES = new Set([
  'lang',
  'charset',
  'http-equiv',
  'content',
  'name',
  'class',
  'id',
  'title',
  'width',
  'height',
  'viewbox',
  'role',
  'aria-label',
  'aria-hidden',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'text-anchor',
  'font-size',
  'font-weight',
  'data-device',
  'data-module',
  'data-label',
  'style',
  'tabindex',
  'transform',
]);

/** The Key column of every table row, in document order, as text. */
function keyColumn(html: string): string[] {
  return [...html.matchAll(/<td class="key" data-label="Key"><code>(.*?)<\/code>/g)].map((m) =>
    (m[1] ?? '').replace(/<[^>]+>/g, ''),
  );
}

describe('renderHtml: one self-contained page', () => {
  const html = renderHtml(buildReportView(seedReport));

  it('is a complete document with a CSP that forbids scripts, network and files', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')).toBe(true);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(HTML_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    // The CSP comes before anything it governs.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));
    expect(html.endsWith('</main>\n</body>\n</html>\n')).toBe(true);
  });

  it('loads nothing: no http(s) URL, no src or href, no script, stylesheet, font or image file', () => {
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/\s(src|href|xlink:href|srcset|action|formaction|data)=/i);
    expect(html).not.toMatch(/url\(|@import|@font-face/i);
    expect([...attributeNames(html).names].filter((name) => !ALLOWED_ATTRIBUTES.has(name))).toEqual([]);
    expect(tagNames(html).filter((tag) => !ALLOWED_TAGS.has(tag))).toEqual([]);
  });

  it('says the verdict in the title and heading, then counts each verdict, failures first', () => {
    expect(html).toContain('<title>✗ Memory gate failed: 1 regressed, 1 over-budget (1 warning)</title>');
    expect(html).toContain(
      '<h1 class="verdict fail">✗ Memory gate failed: 1 regressed, 1 over-budget (1 warning)</h1>',
    );
    expect([...html.matchAll(/<li class="(fail|warn|ok)">([^<]*)<\/li>/g)].map((m) => `${m[1]}: ${m[2]}`)).toEqual([
      'fail: ✗ 1 regressed',
      'fail: ✗ 1 over-budget',
      'warn: ⚠ 1 new',
      'ok: ✓ 1 improved',
      'ok: ✓ 3 pass',
    ]);
  });

  it('lists failing and warning keys first (largest growth first), then improvements, then the rest collapsed', () => {
    expect(keyColumn(html)).toEqual([
      'DEV_MEM/dev1/APP',
      'DEV_MEM/dev0/HCCL',
      'dev0/matmul_v1',
      'dev1/add_custom',
      'DEV_MEM/dev0/APP',
      'DEV_MEM/dev1/HCCL',
      'SVM_MEM/RUNTIME',
    ]);
    expect(html).toContain('<h2>Failing and warning keys (3)</h2>');
    expect(html).toContain('<h2>Improvements (1)</h2>');
    expect(html).toContain('<details class="list">\n<summary>3 keys within thresholds</summary>');
    expect(html).toContain(
      '<tr class="fail"><td class="status" data-label="Status">✗ regressed</td><td class="key" data-label="Key"><code><span class="seg">DEV_MEM/</span><wbr><span class="seg">dev1/</span><wbr><span class="seg">APP</span></code></td>' +
        '<td class="num" data-label="Baseline → current">1.9\u00a0GiB → 19.4\u00a0GiB</td><td class="num" data-label="Δ (Δ%)">+17.4\u00a0GiB (+900%)</td><td class="why" data-label="Why">default tolerance</td></tr>',
    );
    expect(html).toContain('<td class="why" data-label="Why">rule <code>DEV_MEM/*/HCCL</code></td></tr>');
  });

  it('draws the per-device stacked bars after the failing keys and before the totals, with a labelled legend and dev1 and dev0 marked failing', () => {
    expect(html.indexOf('<svg class="device-stacks"')).toBeGreaterThan(html.indexOf('<section id="problems">'));
    expect(html.indexOf('<svg class="device-stacks"')).toBeLessThan(html.indexOf('<section id="totals">'));
    expect(html.match(/<rect class="segment"/g)).toHaveLength(4);
    expect(html.match(/<line class="baseline"/g)).toHaveLength(2);
    expect(html.match(/<text class="device-label fail"[^>]*>dev\d ✗<\/text>/g)).toHaveLength(2);
    expect(
      [
        ...html.matchAll(
          /<li class="(module|baseline)"><svg[^>]*><(?:rect|line) [^>]*(?:fill|stroke)="(#[0-9a-f]{6})"[^>]*\/><\/svg>(.*?)<\/li>/g,
        ),
      ].map((m) => `${m[2]} ${m[3]}`),
    ).toEqual([
      '#4e79a7 <code>DEV_MEM/*/APP</code>',
      '#f28e2b <code>DEV_MEM/*/HCCL</code>',
      '#1f1f1f baseline (dashed): sum of the device&#39;s module peaks',
    ]);
  });

  it('is deterministic: no date unless one is passed, and that one escaped', () => {
    expect(renderHtml(buildReportView(seedReport))).toBe(html);
    expect(html).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const dated = renderHtml(buildReportView(seedReport), { generatedAt: '2026-03-01T12:00:00Z <b>' });
    expect(dated).toContain('<p class="generated">Generated 2026-03-01T12:00:00Z &lt;b&gt;</p>');
  });
});

describe('renderHtml: names from files are text, never markup', () => {
  const hostileNames = [
    '<script>document.title="pwned"</script>',
    '"><img src=x onerror="document.title=\'pwned\'">',
    '</svg><svg onload=alert(1)>',
    '</title></style></code></td></tr></table><script>alert(1)</script>',
    "' onmouseover='alert(1)",
    'dev0/evil\u001b[2J\u202Ename',
  ];
  const entries = hostileNames.flatMap((name, i) => [
    entry({
      key: `DEV_MEM/dev${i % 2}/${name}`,
      baseline: GiB,
      current: 3 * GiB,
      delta: 2 * GiB,
      percent: 200,
      status: 'regressed',
      severity: 'fail',
      rule: name,
    }),
    entry({
      kind: 'kernel',
      key: `dev1/${name}`,
      baseline: null,
      current: MiB,
      delta: null,
      percent: null,
      status: 'new',
      severity: 'warn',
    }),
  ]);
  const html = renderHtml(buildReportView(report(entries)), { title: '<b>Gate</b> "x"' });

  it('adds no element, attribute or script: every tag is one the renderer writes', () => {
    expect(tagNames(html).filter((tag) => !ALLOWED_TAGS.has(tag))).toEqual([]);
    const { names, strayBrackets } = attributeNames(html);
    expect([...names].filter((name) => !ALLOWED_ATTRIBUTES.has(name))).toEqual([]);
    // Every < and > outside the renderer's own tags (text, attribute values) is escaped.
    expect(strayBrackets).toBe(0);
    // Every element the page opens is closed by the renderer, not by a name: as many end tags as start tags.
    for (const tag of ['svg', 'table', 'title', 'style', 'code', 'td', 'tr', 'li']) {
      expect(html.match(new RegExp(`</${tag}>`, 'g'))?.length, tag).toBe(
        html.match(new RegExp(`<${tag}[\\s>]`, 'g'))?.length,
      );
    }
    expect(html.match(/<\/style>/g)).toHaveLength(1);
  });

  it('shows each hostile name escaped, in the table, the legend and the chart tooltips', () => {
    expect(keyColumn(html)).toContain('DEV_MEM/dev0/&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;');
    expect(keyColumn(html)).toContain(
      'DEV_MEM/dev1/&quot;&gt;&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;',
    );
    expect(html).toContain('rule <code>&lt;/svg&gt;&lt;svg onload=alert(1)&gt;</code>');
    // In the legend: a name's own slashes make its colour key the part after the last one.
    expect(html).toContain(
      '(DEV_MEM/*/&lt;/title&gt;&lt;/style&gt;&lt;/code&gt;&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
    );
    expect(html).toContain('data-module="DEV_MEM/*/&#39; onmouseover=&#39;alert(1)"');
    // A terminal escape and a right-to-left override are shown, not passed on.
    expect(keyColumn(html)).toContain('dev1/dev0/evil␛[2J⟨U+202E⟩name');
    expect(html).not.toMatch(/[\u001b\u202e]/);
    expect(html).toContain('<title>✗ &lt;b&gt;Gate&lt;/b&gt; &quot;x&quot; failed: 6 regressed (6 warnings)</title>');
  });

  it('renders statuses, kinds and severities this build does not know by name, and counts as counts', () => {
    const allocFailures = entry({
      key: 'dev0',
      baseline: 0,
      current: 5,
      delta: 5,
      percent: null,
      status: 'pass',
      severity: 'fail',
      unit: 'count',
      limit: 0,
      note: 'halMemAlloc failed <5> times',
    });
    const unknown = Object.assign(
      entry({ key: 'dev1', baseline: 60 * GiB, current: 66 * GiB, delta: 6 * GiB, percent: 10, severity: 'fail' }),
      {
        kind: 'device',
        status: 'over-capacity',
        severity: 'critical',
      },
    );
    const page = renderHtml(buildReportView(report([allocFailures, unknown], 'fail')));
    expect(page).toContain(
      '<thead><tr><th>Status</th><th>Key</th><th>Baseline → current</th><th>Δ (Δ%)</th><th>Why</th></tr></thead>',
    );
    expect(page).toContain(
      '<tr class="fail"><td class="status" data-label="Status">✗ pass</td><td class="key" data-label="Key"><code><span class="seg">dev0</span></code></td>' +
        '<td class="num" data-label="Baseline → current">0 → 5</td><td class="num" data-label="Δ (Δ%)">+5</td>' +
        '<td class="why" data-label="Why">halMemAlloc failed &lt;5&gt; times (limit 0)</td></tr>',
    );
    // An unknown severity is shown as a warning, never hidden; the status is spelled as the gate spells it.
    expect(page).toContain(
      '<tr class="warn"><td class="status" data-label="Status">⚠ over-capacity</td><td class="key" data-label="Key"><code><span class="seg">dev1</span></code></td>',
    );
    // No module on a device: no chart.
    expect(page).not.toContain('<svg');
  });
});

describe('asking for the HTML report', () => {
  const ROOT = resolve(import.meta.dirname, '..', '..', '..');

  it('check --html writes it for the regressed sample (APP on dev1 grew 10x) and still exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'html-cli-'));
    try {
      const file = join(dir, 'gate.html');
      const out: string[] = [];
      const code = await runCli(
        [
          'check',
          '--baseline',
          join(ROOT, 'baselines/memory-baseline.json'),
          '--plog',
          join(ROOT, 'examples/regressed/plog'),
          '--compare',
          join(ROOT, 'examples/memory_compare'),
          '--html',
          file,
        ],
        { out: (t) => out.push(t), err: (t) => out.push(t) },
      );
      expect(code).toBe(1);
      const page = readFileSync(file, 'utf8');
      expect(page).toContain('<title>✗ Memory gate failed: 1 regressed (2 warnings)</title>');
      expect(keyColumn(page)).toContain('DEV_MEM/dev1/APP');
      expect(page.match(/<text class="device-label fail"[^>]*>dev1 ✗<\/text>/g)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the Action's html-report input: empty is none, a folder is refused naming the input", () => {
    const inputs = (htmlReport: string) => readInputs((name) => (name === 'html-report' ? htmlReport : ''));
    expect(inputs('').htmlReport).toBeUndefined();
    expect(inputs(' reports/memory-gate.html ').htmlReport).toBe('reports/memory-gate.html');
    expect(() => inputs('reports/')).toThrow(
      "'html-report' must be one file path such as memory-gate.html, got 'reports/'",
    );
  });
});

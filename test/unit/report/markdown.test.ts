// The markdown report: what a reviewer reads in the job summary and the sticky PR comment, including when it is too big.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/common/errors.js';
import type { Entry } from '../../../src/gate/types.js';
import { replaceControlCharacters } from '../../../src/common/visible.js';
import { codeSpan, escapeHtml, escapeMarkdownText, tableCodeSpan } from '../../../src/report/escape.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { renderTerminal } from '../../../src/report/terminal.js';
import { eightDeviceStory, jobReport } from '../../helpers/jobs.js';
import { entry } from '../../helpers/entries.js';
import { report } from '../../helpers/reports.js';
import { GiB, GROWN_APP_PEAK, SEED_APP_DELTA, SEED_APP_PEAK } from '../../helpers/story.js';
import { buildReportView } from '../../../src/report/view.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The seed story: APP on dev0 grows 10x (2,078,195,712 → 20,781,957,120 bytes), HCCL on dev1 breaks its budget. */
const appRegressed = entry({
  key: 'DEV_MEM/dev0/APP',
  baseline: SEED_APP_PEAK,
  current: GROWN_APP_PEAK,
  delta: SEED_APP_DELTA,
  percent: 900,
  status: 'regressed',
  severity: 'fail',
});
const hcclOverBudget = entry({
  key: 'DEV_MEM/dev1/HCCL',
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
const runtimeSame = entry({ key: 'DEV_MEM/dev0/RUNTIME', baseline: 44_138_496, current: 44_138_496 });
const svmSame = entry({ key: 'SVM_MEM/RUNTIME', baseline: 19_927_040, current: 19_927_040 });

// Deliberately out of order: the renderer sorts.
const seedReport = report([svmSame, newKernel, runtimeSame, hcclOverBudget, shrunkKernel, appRegressed]);

const NB = '\u00a0';

/** The seed story as a reviewer reads it, every block. */
const FULL = `### ❌ Memory gate failed: 1 regressed, 1 over-budget (1 warning)

#### Failing and warning keys (3)

| Status | Key | Baseline → current | Δ (Δ%) |
|---|---|--:|--:|
| ❌${NB}regressed | \`DEV_MEM/dev0/APP\` | 1.9${NB}GiB → 19.4${NB}GiB | +17.4${NB}GiB (+900%) |
| ❌${NB}over-budget | \`DEV_MEM/dev1/HCCL\`${NB}¹ | 400.0${NB}MiB → 620.0${NB}MiB | +220.0${NB}MiB (+55%) |
| ⚠️${NB}new | \`dev0/matmul_v1\` | — → 6${NB}B | +6${NB}B (new) |

1. Held to the rule \`DEV_MEM/*/HCCL\` of the config.

#### Module peaks per device

The 2 modules that changed most. Bars (blue): this run's peak on each device; line (grey): the baseline's.

Module \`DEV_MEM/*/APP\`

\`\`\`mermaid
%%{init: {"xyChart": {"height": 320}, "themeVariables": {"xyChart": {"plotColorPalette": "#4e79a7"}}}}%%
xychart-beta
  x-axis ["dev0 baseline", "dev0 this run"]
  y-axis "peak (GiB)" 0 --> 20
  bar [1.94, 19.35]
\`\`\`

Module \`DEV_MEM/*/HCCL\`

\`\`\`mermaid
%%{init: {"xyChart": {"height": 320}, "themeVariables": {"xyChart": {"plotColorPalette": "#4e79a7"}}}}%%
xychart-beta
  x-axis ["dev1 baseline", "dev1 this run"]
  y-axis "peak (MiB)" 0 --> 800
  bar [400, 620]
\`\`\`

#### Per-device totals

| Device | Modules† baseline → current | Δ | Kernels Δ |
|---|--:|--:|--:|
| ⚠️${NB}\`dev0\` | 2.0${NB}GiB → 19.4${NB}GiB | +17.4${NB}GiB | +6${NB}B |
| ⚠️${NB}\`dev1\` | 400.0${NB}MiB → 620.0${NB}MiB | +220.0${NB}MiB | -3.0${NB}KiB |

† Sums over the keys with a \`devN\` segment. A sum of module peaks is an upper bound of the device peak: modules and memory attributes peak at different times, and attributes overlap (DEV\\_PROC\\_MEM is a process total). Keys without a device (host, SVM) are not counted.

#### Improvements (1)

| Status | Key | Baseline → current | Δ (Δ%) |
|---|---|--:|--:|
| ✅${NB}improved | \`dev1/add_custom\` | 4.0${NB}KiB → 1.0${NB}KiB | -3.0${NB}KiB (-75%) |

<details>
<summary>2 keys within thresholds</summary>

| Status | Key | Baseline → current |
|---|---|--:|
| ✅${NB}pass | \`DEV_MEM/dev0/RUNTIME\` | 42.1${NB}MiB → 42.1${NB}MiB |
| ✅${NB}pass | \`SVM_MEM/RUNTIME\` | 19.0${NB}MiB → 19.0${NB}MiB |

</details>

To accept an intended change: \`ascend-memory-gate baseline --out memory-baseline.json\` with this check's inputs, then commit \`memory-baseline.json\` (the Action: \`mode: update\`); on a pull request, the baseline update label (config \`baselineUpdateLabel\`) set by a maintainer lets its own baseline count.
`;

const CHARTS = FULL.slice(FULL.indexOf('#### Module peaks per device'), FULL.indexOf('\n\n#### Per-device totals'));

/** Rows of the verdict tables (failing, improvements, collapsed lists): a status icon, then a status word. */
function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => /^\| (❌|⚠️|✅|❔)\u00a0[^`]/.test(line));
}

/** The key cell of a row, as text (tags and code-span fences dropped). */
function keyOf(row: string): string {
  return (row.split(' | ')[1] ?? '')
    .replace(/<[^>]+>/g, '')
    .replace(/\u00a0.*$/, '')
    .replaceAll('`', '');
}

/** Cell delimiters GFM sees: pipes not preceded by a backslash. */
function cellDelimiters(row: string): number {
  return row.match(/(?<!\\)\|/g)?.length ?? 0;
}

describe('renderMarkdown: the full report', () => {
  it('renders the seed story as verdict, failing keys, charts, device totals, improvements and collapsed unchanged keys', () => {
    expect(renderMarkdown(buildReportView(seedReport))).toBe(FULL);
  });

  it('fits a PR comment: four columns, sizes that never break, explanations numbered under the table', () => {
    for (const line of FULL.split('\n').filter((l) => l.startsWith('| ')))
      expect(cellDelimiters(line)).toBeLessThanOrEqual(6);
    expect(FULL).not.toMatch(/\d (KiB|MiB|GiB|B)\b/);
  });

  it('puts every failure above every warning, and within each the largest growth first', () => {
    const bigWarning = entry({
      key: 'DEV_MEM/dev0/GE',
      baseline: 0,
      current: 8 * GiB,
      delta: 8 * GiB,
      percent: null,
      status: 'regressed',
      severity: 'warn',
    });
    const smallFailure = entry({
      key: 'DEV_MEM/dev0/HCCP',
      baseline: 100,
      current: 200,
      delta: 100,
      percent: 100,
      status: 'regressed',
      severity: 'fail',
    });
    const missing = entry({
      key: 'DEV_MEM/dev0/DVPP',
      baseline: 1 << 20,
      current: null,
      delta: null,
      percent: null,
      status: 'missing',
      severity: 'fail',
    });
    const added = entry({
      key: 'DEV_MEM/dev0/AICPU',
      baseline: null,
      current: 1 << 20,
      delta: null,
      percent: null,
      status: 'new',
      severity: 'fail',
    });
    const rows = tableRows(renderMarkdown(buildReportView(report([missing, bigWarning, smallFailure, added]))));
    // A new key grows by its whole size, a missing key shrinks by its whole baseline.
    expect(rows.map(keyOf)).toEqual([
      'DEV_MEM/dev0/AICPU',
      'DEV_MEM/dev0/HCCP',
      'DEV_MEM/dev0/DVPP',
      'DEV_MEM/dev0/GE',
    ]);
    expect(rows[2]).toContain(`| 1.0${NB}MiB → — | -1.0${NB}MiB (gone) |`);
  });

  it('lists improvements with the largest shrink first, and unchanged keys naturally (dev2 before dev10)', () => {
    const small = entry({
      key: 'DEV_MEM/dev0/GE',
      baseline: 2000,
      current: 1500,
      delta: -500,
      percent: -25,
      status: 'improved',
    });
    const large = entry({
      key: 'DEV_MEM/dev0/APP',
      baseline: 9000,
      current: 1000,
      delta: -8000,
      percent: -88.9,
      status: 'improved',
    });
    const dev10 = entry({ key: 'HOST_MEM/x10/APP' });
    const dev2 = entry({ key: 'HOST_MEM/x2/APP' });
    const kernel = entry({ kind: 'kernel', key: 'add' });
    const rows = tableRows(renderMarkdown(buildReportView(report([small, dev10, kernel, large, dev2]))));
    expect(rows.map(keyOf)).toEqual([
      'DEV_MEM/dev0/APP',
      'DEV_MEM/dev0/GE',
      'HOST_MEM/x2/APP',
      'HOST_MEM/x10/APP',
      'add',
    ]);
  });

  it('says the gate passed with 137 keys within thresholds and 3 warnings (140 keys: the warnings are not within thresholds)', () => {
    const entries = Array.from({ length: 140 }, (_, i) =>
      entry({
        key: `HOST_MEM/M${i}`,
        ...(i < 3 ? { status: 'new', severity: 'warn', baseline: null, delta: null, percent: null } : {}),
      }),
    );
    const lines = renderMarkdown(buildReportView(report(entries))).split('\n');
    expect(lines[0]).toBe('### ✅ Memory gate passed: 137 keys within thresholds (3 warnings)');
    expect(lines).toContain('#### Failing and warning keys (3)');
    expect(lines).toContain('<summary>137 keys within thresholds</summary>');
  });

  it('says the gate failed without a list when no entry fails (e.g. an empty snapshot)', () => {
    expect(renderMarkdown(buildReportView({ result: 'fail', counts: {}, entries: [] }))).toBe(
      '### ❌ Memory gate failed\n',
    );
  });

  it('counts 100,000 keys with a thousands separator', () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => entry({ key: `HOST_MEM/M${i}` }));
    expect(renderMarkdown(buildReportView(report(entries)), { maxBytes: 200 }).split('\n')[0]).toBe(
      '### ✅ Memory gate passed: 100,000 keys within thresholds',
    );
  });

  it('sums module peaks per device and keeps host and SVM keys out of the device totals', () => {
    const md = renderMarkdown(
      buildReportView(
        report([svmSame, entry({ key: 'HOST_MEM/RUNTIME', baseline: 5 << 20, current: 5 << 20 }), runtimeSame]),
      ),
    );
    expect(md.split('\n').filter((l) => l.startsWith('| `dev'))).toEqual([
      `| \`dev0\` | 42.1${NB}MiB → 42.1${NB}MiB | 0${NB}B |`,
    ]);
  });

  it('spells a verdict one way everywhere, and renders a status this build does not know', () => {
    const overCapacity = entry({
      kind: 'device',
      key: 'dev0',
      severity: 'fail',
      baseline: 60 * GiB,
      current: 66 * GiB,
      delta: 6 * GiB,
      percent: 10,
      status: 'over-capacity',
    });
    const unknown = Object.assign(entry({ key: 'DEV_MEM/dev2/APP', severity: 'warn' }), {
      status: 'odd_one' as Entry['status'],
    });
    const md = renderMarkdown(buildReportView(report([overCapacity, appRegressed, unknown])));
    expect(md.split('\n')[0]).toBe('### ❌ Memory gate failed: 1 regressed, 1 over-capacity (1 warning)');
    expect(tableRows(md)).toContain(
      `| ❌${NB}over-capacity | \`dev0\` | 60.0${NB}GiB → 66.0${NB}GiB | +6.0${NB}GiB (+10%) |`,
    );
    expect(tableRows(md)).toContain(
      `| ⚠️${NB}odd\\_one | \`DEV_MEM/dev2/APP\` | 1000${NB}B → 1000${NB}B | 0${NB}B (0.0%) |`,
    );
  });

  it('shows counts of a count entry (alloc failures) as numbers, not bytes', () => {
    const allocFailures = entry({
      kind: 'device',
      key: 'dev0',
      baseline: 0,
      current: 5,
      delta: 5,
      percent: null,
      status: 'regressed',
      severity: 'fail',
      unit: 'count',
    });
    expect(tableRows(renderMarkdown(buildReportView(report([allocFailures]))))).toEqual([
      `| ❌${NB}regressed | \`dev0\` | 0 → 5 | +5 |`,
    ]);
  });

  it('leaves the charts out with chartModules 0, and refuses a negative or fractional count', () => {
    expect(renderMarkdown(buildReportView(seedReport), { chartModules: 0 })).toBe(FULL.replace(`${CHARTS}\n\n`, ''));
    expect(renderMarkdown(buildReportView(seedReport), { chartModules: 1 })).toContain('The module that changed most.');
    expect(() => renderMarkdown(buildReportView(seedReport), { chartModules: -1 })).toThrow(
      'chartModules must be a non-negative integer, got -1',
    );
    expect(() => renderMarkdown(buildReportView(seedReport), { chartModules: 1.5 })).toThrow(UsageError);
  });

  it('puts the sticky-comment marker first and links the workflow run under the verdict', () => {
    const md = renderMarkdown(buildReportView(report([runtimeSame])), {
      marker: '<!-- ascend-memory-gate:default -->',
      runUrl: 'https://github.com/acme/llm/actions/runs/42',
      title: 'Memory gate (llama-7b)',
    });
    expect(md.split('\n').slice(0, 4)).toEqual([
      '<!-- ascend-memory-gate:default -->',
      '### ✅ Memory gate \\(llama\\-7b\\) passed: 1 key within thresholds',
      '',
      '[Workflow run](https://github.com/acme/llm/actions/runs/42)',
    ]);
  });

  it('refuses a marker that could close the comment early or span lines', () => {
    for (const marker of ['ascend-memory-gate', '<!-- a --> <img src=x> <!-- b -->', '<!-- a\nb -->', '<!--> -->']) {
      expect(() => renderMarkdown(buildReportView(seedReport), { marker })).toThrow(UsageError);
    }
  });

  it('refuses a run URL that is not http(s), and percent-encodes characters that would end the link', () => {
    expect(() => renderMarkdown(buildReportView(seedReport), { runUrl: 'javascript:alert(1)' })).toThrow(
      'runUrl must be an http(s) URL',
    );
    expect(() => renderMarkdown(buildReportView(seedReport), { runUrl: 'not a url' })).toThrow('runUrl is not a URL');
    const md = renderMarkdown(buildReportView(report([runtimeSame])), { runUrl: 'https://ghe.example/a b/(x)|y<z>' });
    expect(md).toContain('[Workflow run](https://ghe.example/a%20b/%28x%29%7Cy%3Cz%3E)');
  });
});

describe('renderMarkdown: roll-up across devices', () => {
  it('gives a 4,096-device job where APP grew 10% everywhere one group row, and fits a PR comment', () => {
    const big = jobReport({ devices: 4096, change: (a, _d, m) => (a === 'DEV_MEM' && m === 'APP' ? 1.1 : 1) });
    const md = renderMarkdown(buildReportView(big), { maxBytes: 65_536 });
    expect(bytes(md)).toBeLessThan(65_536);
    const rows = tableRows(md).filter((r) => r.includes('regressed'));
    expect(rows).toEqual([
      `| ❌${NB}regressed | \`DEV_MEM/*/APP\`<br>4,096 of 4,096 devices, worst \`dev0\` | 19.7${NB}GiB → 21.7${NB}GiB | +2.0${NB}GiB (+10.0%)<br>median +2.0${NB}GiB (+10.0%) |`,
    ]);
    expect(md).toContain('<summary><code>DEV_MEM/*/APP</code> regressed on 4,096 of 4,096 devices</summary>');
    expect(md).toContain('…and 4,086 more devices: see the JSON report / job summary');
    // Per-device totals: 32 rows, the rest in one sentence.
    expect(md.split('\n').filter((l) => l.startsWith('| ⚠️\u00a0`dev'))).toHaveLength(32);
    expect(md).toContain(
      '4,096 devices; not listed: 4,064 more changed or flagged (median Δ +2.0 GiB). The JSON report has every device.',
    );
    expect(bytes(renderMarkdown(buildReportView(big), { maxBytes: 1024 * 1024 }))).toBeLessThan(1024 * 1024);
  });

  it('names the worst device and the median, and lists the devices largest change first under the table', () => {
    const md = renderMarkdown(
      buildReportView(
        jobReport({ devices: 4, change: (a, d, m) => (a === 'DEV_MEM' && m === 'APP' ? 1 + d / 10 : 1) }),
      ),
    );
    expect(md).toContain('<br>3 of 4 devices, worst `dev3`');
    expect(md).toContain(`median +3.9${NB}GiB (+20%)`);
    const list = md.slice(md.indexOf('<summary><code>DEV_MEM/*/APP</code>'), md.indexOf('</details>'));
    expect(
      list
        .split('\n')
        .filter((l) => l.startsWith('| `dev'))
        .map((l) => l.split(' | ')[0]),
    ).toEqual(['| `dev3`', '| `dev2`', '| `dev1`']);
  });

  it('rolls kernels up by their device-free name like modules', () => {
    const kernels = [0, 1, 2].map((d) =>
      entry({
        kind: 'kernel',
        key: `dev${d}/aclnnMatmul`,
        baseline: 100,
        current: 300,
        delta: 200,
        percent: 200,
        status: 'regressed',
        severity: 'fail',
      }),
    );
    expect(tableRows(renderMarkdown(buildReportView(report(kernels))))[0]).toContain(
      '`*/aclnnMatmul`<br>3 of 3 devices',
    );
  });
});

describe('renderMarkdown: a first run', () => {
  it('says "No baseline yet", never "passed", gives the how-to, and lists the keys collapsed instead of as new rows', () => {
    const md = renderMarkdown(buildReportView(jobReport({ devices: 2, firstRun: true })), {
      baselineFile: '.github/memory-baseline.json',
    });
    const lines = md.split('\n');
    expect(lines[0]).toBe('### ℹ️ No baseline yet: 30 keys recorded');
    expect(md).not.toContain('passed');
    expect(md).toContain(
      '`ascend-memory-gate baseline --out .github/memory-baseline.json` with the input flags of the check',
    );
    expect(md).toContain('<summary>30 keys recorded (no baseline to compare with)</summary>');
    expect(md).not.toContain('#### Failing and warning keys');
    expect(md).not.toContain('mermaid');
    expect(tableRows(md).filter((r) => r.includes('new'))).toHaveLength(15);
  });

  it('says the gate stays closed when onMissingBaseline fails the run', () => {
    const closed = { ...jobReport({ devices: 1, firstRun: true }), result: 'fail' as const };
    expect(renderMarkdown(buildReportView(closed)).split('\n')[0]).toBe(
      '### ❌ No baseline yet: 15 keys recorded, the gate stays closed until a baseline is committed (onMissingBaseline: fail)',
    );
  });
});

describe('renderMarkdown: names from files are escaped', () => {
  const hostile = (key: string, rule: string | null = null): string => {
    const rows = tableRows(
      renderMarkdown(
        buildReportView(
          report([
            entry({
              kind: 'kernel',
              key,
              rule,
              status: 'regressed',
              severity: 'fail',
              current: 2000,
              delta: 1000,
              percent: 100,
            }),
          ]),
        ),
      ),
    );
    expect(rows).toHaveLength(1);
    const row = rows[0] ?? '';
    expect(cellDelimiters(row)).toBe(5);
    return row;
  };

  it('escapes every pipe in a kernel name, not only the first', () => {
    expect(hostile('a|b|c')).toBe(
      `| ❌${NB}regressed | \`a\\|b\\|c\` | 1000${NB}B → 2.0${NB}KiB | +1000${NB}B (+100%) |`,
    );
  });

  it('keeps a backslash before a pipe, which GFM reads as a backslash and an escaped pipe', () => {
    expect(hostile('a\\|b')).toContain('| `a\\\\|b` |');
  });

  it('fences a name holding a backtick with a longer run of backticks, and splits only long keys at /', () => {
    expect(hostile('x`y')).toContain('| ``x`y`` |');
    expect(hostile('`start')).toContain('| `` `start `` |');
    expect(hostile('dev0/aclnnFlashAttentionScoreGrad_0')).toContain(
      '| `dev0/`<wbr>`aclnnFlashAttentionScoreGrad_0` |',
    );
  });

  it('shows an HTML payload as code, never as a tag', () => {
    expect(hostile('<img src=x onerror=alert(1)>')).toContain('| `<img src=x onerror=alert(1)>` |');
  });

  it('keeps @org/team inside a code span so that nobody is pinged, the rule too', () => {
    const md = renderMarkdown(
      buildReportView(
        report([
          entry({
            kind: 'kernel',
            key: 'dev0/@org/team_kernel',
            rule: '@org/**',
            status: 'regressed',
            severity: 'fail',
            current: 2000,
            delta: 1000,
            percent: 100,
          }),
        ]),
      ),
    );
    expect(md).toContain('`dev0/@org/team_kernel`');
    expect(md).toContain('1. Held to the rule `@org/**` of the config.');
  });

  it('keeps a name with a newline on one table row, showing the line break as ␊', () => {
    expect(hostile('a\nb')).toContain('`a␊b`');
  });

  it('shows a terminal escape and a right-to-left override instead of passing them on', () => {
    expect(hostile('k\u001b[2J\u202eevil')).toContain('`k␛[2J⟨U+202E⟩evil`');
  });

  it('escapes a markdown title as text: no HTML, no mention, no emphasis', () => {
    const md = renderMarkdown(buildReportView(seedReport), { title: '<b>Gate</b> for @org/team *now*' });
    expect(md.split('\n')[0]).toBe(
      '### ❌ \\<b\\>Gate\\<\\/b\\> for @&#8203;org\\/team \\*now\\* failed: 1 regressed, 1 over-budget (1 warning)',
    );
  });

  it('escapes a finding note as text, every pipe of it', () => {
    const note = entry({
      kind: 'device',
      key: 'dev0',
      current: 5,
      baseline: null,
      delta: null,
      percent: null,
      status: 'over-capacity',
      severity: 'fail',
      limit: 4,
      note: 'a | b <i>',
    });
    expect(renderMarkdown(buildReportView(report([note])))).toContain('1. `dev0`: a \\| b \\<i\\> \\(limit 4 B\\)');
  });
});

describe('escape helpers', () => {
  it('codeSpan pads only when a backtick or a space pair would be eaten', () => {
    expect(codeSpan('abc')).toBe('`abc`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`a')).toBe('`` `a ``');
    expect(codeSpan(' a ')).toBe('`  a  `');
    expect(codeSpan('  ')).toBe('`  `');
    expect(codeSpan('')).toBe('` `');
  });

  it('tableCodeSpan escapes every pipe; codeSpan leaves pipes alone outside tables', () => {
    expect(tableCodeSpan('a|b|c')).toBe('`a\\|b\\|c`');
    expect(codeSpan('a|b')).toBe('`a|b`');
  });

  it('escapeMarkdownText escapes all ASCII punctuation and breaks @mentions', () => {
    expect(escapeMarkdownText('*x* [y](z) @me #1')).toBe('\\*x\\* \\[y\\]\\(z\\) @&#8203;me \\#1');
  });

  it('escapeHtml escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('replaceControlCharacters shows controls, separators, zero-width and lone surrogates', () => {
    expect(replaceControlCharacters('a\tb\u0000c\u007f\u0085\u2028\u200b\ud800z')).toBe(
      'a␉b␀c␡⟨U+0085⟩⟨U+2028⟩⟨U+200B⟩⟨U+D800⟩z',
    );
    expect(replaceControlCharacters('算子 😀')).toBe('算子 😀');
  });
});

describe('renderMarkdown: degrade before truncating', () => {
  const full = renderMarkdown(buildReportView(seedReport));
  const render = (maxBytes: number): string => renderMarkdown(buildReportView(seedReport), { maxBytes });
  const note = (what: string): string => `_${what} not shown to fit the size limit: see the JSON report / job summary_`;

  it('keeps everything when the report fits exactly', () => {
    expect(render(bytes(full))).toBe(full);
  });

  it('first drops the charts, with a note where they were, keeping every table', () => {
    const md = render(bytes(full) - 1);
    expect(md).toBe(full.replace(CHARTS, note('module peak charts')));
    expect(render(bytes(md))).toBe(md);
  });

  it('then drops the collapsed unchanged keys, then the improvements, then the per-device totals, each with a note', () => {
    const withoutCharts = render(bytes(full) - 1);
    const withoutUnchanged = render(bytes(withoutCharts) - 1);
    expect(withoutUnchanged).not.toContain('<details>');
    expect(withoutUnchanged).toContain(`\n\n${note('2 keys within thresholds')}\n\nTo accept an intended change`);
    const withoutImprovements = render(bytes(withoutUnchanged) - 1);
    expect(withoutImprovements).toContain(note('1 improvement'));
    expect(withoutImprovements).toContain('#### Per-device totals');
    const withoutDevices = render(bytes(withoutImprovements) - 1);
    expect(withoutDevices).toContain(note('per-device totals'));
    expect(tableRows(withoutDevices)).toHaveLength(3);
    expect(withoutDevices).toContain('1. Held to the rule');
  });

  it('then cuts failing rows from the end, with "…N more rows", never half a row, and drops explanations of cut rows', () => {
    const withoutDevices = render(bytes(render(bytes(render(bytes(render(bytes(full) - 1)) - 1)) - 1)) - 1);
    const md = render(bytes(withoutDevices) - 1);
    expect(bytes(md)).toBeLessThan(bytes(withoutDevices));
    expect(tableRows(md).map(keyOf)).toEqual(['DEV_MEM/dev0/APP', 'DEV_MEM/dev1/HCCL']);
    expect(md).toContain('\n\n…1 more row: see the JSON report / job summary\n');
  });

  it('keeps only the verdict when not even the table heading fits, and refuses a limit below the verdict', () => {
    const verdict = '### ❌ Memory gate failed: 1 regressed, 1 over-budget (1 warning)\n';
    expect(render(bytes(verdict))).toBe(verdict);
    expect(() => render(bytes(verdict) - 1)).toThrow(
      `maxBytes ${bytes(verdict) - 1} cannot hold even the verdict line (${bytes(verdict)} bytes)`,
    );
    expect(() => render(0)).toThrow(UsageError);
    expect(() => render(1.5)).toThrow('maxBytes must be a positive integer, got 1.5');
  });

  it('stays within every limit from the verdict up to the full size, cutting only between rows', () => {
    const hostileRows = Array.from({ length: 30 }, (_, i) =>
      entry({
        kind: 'kernel',
        key: `dev${i % 3}/a|b\`c<${i}>@x/算子`,
        status: 'regressed',
        severity: i % 2 ? 'fail' : 'warn',
        current: 1000 + i,
        delta: i,
        percent: i / 10,
      }),
    );
    const big = report([...seedReport.entries, ...hostileRows]);
    const fullBig = renderMarkdown(buildReportView(big));
    const verdictBytes = bytes(renderMarkdown(buildReportView(big)).split('\n')[0] ?? '') + 1;
    let previousRows = -1;
    for (let limit = verdictBytes; limit <= bytes(fullBig) + 10; limit += 13) {
      const md = renderMarkdown(buildReportView(big), { maxBytes: limit });
      expect(bytes(md)).toBeLessThanOrEqual(limit);
      const rows = tableRows(md);
      for (const row of rows) expect(row.endsWith(' |')).toBe(true);
      const more = /…(\d+) more rows?:/.exec(md);
      const problemRows = rows.filter((r) => r.startsWith('| ❌') || r.startsWith('| ⚠️')).length;
      if (more) expect(problemRows + Number(more[1])).toBe(33);
      // A larger limit never shows fewer failing rows.
      expect(problemRows).toBeGreaterThanOrEqual(previousRows);
      previousRows = problemRows;
    }
  });
});

describe('renderMarkdown: 100,000 keys', () => {
  const entries: Entry[] = [];
  for (let i = 0; i < 100_000; i++) {
    const device = `dev${i % 8}`;
    if (i < 30_000) {
      entries.push(
        entry({
          key: `DEV_MEM/${device}/M${i}`,
          baseline: 1 << 20,
          current: (1 << 20) + i,
          delta: i,
          percent: i / 10,
          status: 'regressed',
          severity: 'fail',
        }),
      );
    } else if (i < 40_000) {
      entries.push(
        entry({
          kind: 'kernel',
          key: `${device}/算子_${i}`,
          baseline: null,
          current: i,
          delta: null,
          percent: null,
          status: 'new',
          severity: 'warn',
        }),
      );
    } else if (i < 50_000) {
      entries.push(
        entry({
          kind: 'kernel',
          key: `${device}/k${i}`,
          baseline: 2 * i,
          current: i,
          delta: -i,
          percent: -50,
          status: 'improved',
        }),
      );
    } else {
      entries.push(entry({ key: `DEV_MEM/${device}/P${i}` }));
    }
  }
  const big = report(entries);

  it('fits a PR comment (65,536) with the largest regressions first and a note for the rest', () => {
    const md = renderMarkdown(buildReportView(big), { maxBytes: 65_536 });
    expect(bytes(md)).toBeLessThanOrEqual(65_536);
    expect(bytes(md)).toBeGreaterThan(65_536 - 300);
    const rows = tableRows(md);
    expect(keyOf(rows[0] ?? '')).toBe('DEV_MEM/dev7/M29999');
    const more = /\n\n…([\d,]+) more rows: see the JSON report \/ job summary\n/.exec(md);
    expect(Number(more?.[1]?.replaceAll(',', ''))).toBe(40_000 - rows.length);
    expect(md).toContain(note('50,000 keys within thresholds'));
    expect(md).toContain(note('10,000 improvements'));
  });

  it('fits a job summary (1 MiB) counting UTF-8 bytes of the multi-byte kernel names', () => {
    const md = renderMarkdown(buildReportView(big), { maxBytes: 1024 * 1024 });
    expect(bytes(md)).toBeLessThanOrEqual(1024 * 1024);
    const rows = tableRows(md);
    expect(rows.length).toBeGreaterThan(7000);
    expect(md).toContain(
      `…${(40_000 - rows.length).toLocaleString('en-US')} more rows: see the JSON report / job summary`,
    );
  });

  it('renders every failing row when there is no limit, and at most 200 rows of the collapsed list', () => {
    const md = renderMarkdown(buildReportView(big));
    expect(tableRows(md).filter((r) => !r.startsWith('| ✅'))).toHaveLength(40_000);
    expect(md).toContain('<summary>50,000 keys within thresholds</summary>');
    expect(md).toContain('…49,800 more rows: see the JSON report / job summary');
  });

  function note(what: string): string {
    return `_${what} not shown to fit the size limit: see the JSON report / job summary_`;
  }
});

describe('renderMarkdown: device findings', () => {
  const overCapacity = entry({
    kind: 'device',
    key: 'dev0',
    baseline: null,
    current: 20_826_095_616,
    delta: null,
    percent: null,
    status: 'over-capacity',
    severity: 'fail',
    limit: 16 * GiB,
    capacity: 16 * GiB,
    note: 'dev0 needs up to 19.4 GiB | more than its 16.0 GiB',
  });
  const allocFailures = entry({
    kind: 'device',
    key: 'dev1',
    baseline: null,
    current: 2,
    delta: null,
    percent: null,
    status: 'alloc-failure',
    severity: 'fail',
    unit: 'count',
    limit: 0,
    note: '2 allocation failures',
  });

  it('explains a finding in the numbered list under the table, with its limit', () => {
    const md = renderMarkdown(buildReportView(report([overCapacity, allocFailures])));
    expect(tableRows(md)).toEqual([
      `| ❌${NB}over-capacity | \`dev0\`${NB}¹ | — → 19.4${NB}GiB | +19.4${NB}GiB (new) |`,
      `| ❌${NB}alloc-failure | \`dev1\`${NB}² | — → 2 | +2 (new) |`,
    ]);
    expect(md).toContain(
      '1. `dev0`: dev0 needs up to 19\\.4 GiB \\| more than its 16\\.0 GiB \\(limit 16\\.0 GiB\\)\n2. `dev1`: 2 allocation failures \\(limit 0\\)',
    );
  });

  it('shows capacity and headroom per device when a capacity is configured', () => {
    const app = entry({
      key: 'DEV_MEM/dev0/APP',
      baseline: 2 * GiB,
      current: 20_826_095_616,
      delta: 20_826_095_616 - 2 * GiB,
      percent: 870,
    });
    const md = renderMarkdown(buildReportView(report([app, overCapacity])), { chartModules: 0 });
    expect(md).toContain('| Device | Modules† baseline → current | Δ | Capacity | Headroom |');
    expect(md).toContain(
      `| ⚠️${NB}\`dev0\` | 2.0${NB}GiB → 19.4${NB}GiB | +17.4${NB}GiB | 16.0${NB}GiB | -3.4${NB}GiB |`,
    );
  });

  it('counts a key with a verdict and a finding once in the per-device totals and the verdict', () => {
    const app = entry({ key: 'DEV_MEM/dev0/APP', baseline: 100 * GiB, current: 100 * GiB });
    const imbalance = { ...app, status: 'imbalance' as const, severity: 'warn' as const, note: 'far from the median' };
    const md = renderMarkdown(buildReportView(report([app, imbalance])), { chartModules: 0 });
    expect(md).toContain(`| ⚠️${NB}\`dev0\` | 100.0${NB}GiB → 100.0${NB}GiB | 0${NB}B |`);
    expect(md).toContain('Memory gate passed: 1 key within thresholds (1 warning)');
  });
});

describe('the 8-device story (the issue)', () => {
  it('names over-capacity one way, in the verdict, the table and the terminal', () => {
    const story = eightDeviceStory();
    const md = renderMarkdown(buildReportView(story));
    expect(md.split('\n')[0]).toBe('### ❌ Memory gate failed: 3 regressed, 1 over-capacity (3 warnings)');
    expect(renderTerminal(buildReportView(story)).split('\n')[0]).toBe(
      'Memory gate failed: 3 regressed, 1 over-capacity (3 warnings)',
    );
    expect(md).not.toContain('over capacity');
  });
});

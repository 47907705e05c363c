// The markdown report: what a reviewer reads in the job summary and the sticky PR comment, including when it is too big.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import type { Entry, GateReport } from '../../src/gate/types.js';
import { codeSpan, escapeHtml, escapeMarkdownText, replaceControlCharacters, tableCodeSpan } from '../../src/report/escape.js';
import { renderMarkdown } from '../../src/report/markdown.js';

function entry(fields: Partial<Entry> & Pick<Entry, 'key'>): Entry {
  return { kind: 'module', baseline: 1000, current: 1000, delta: 0, percent: 0, status: 'pass', severity: 'ok', rule: null, ...fields };
}

function report(entries: Entry[], result: GateReport['result'] = entries.some((e) => e.severity === 'fail') ? 'fail' : 'pass'): GateReport {
  const counts: GateReport['counts'] = {};
  for (const e of entries) counts[e.status] = (counts[e.status] ?? 0) + 1;
  return { result, counts, entries };
}

const GiB = 1024 ** 3;
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The seed story: APP on dev0 grows 10x (2,078,195,712 → 20,781,957,120 bytes), HCCL on dev1 breaks its budget. */
const appRegressed = entry({
  key: 'DEV_MEM/dev0/APP',
  baseline: 2_078_195_712,
  current: 20_781_957_120,
  delta: 18_703_761_408,
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
const newKernel = entry({ kind: 'kernel', key: 'dev0/matmul_v1', baseline: null, current: 6, delta: null, percent: null, status: 'new', severity: 'warn' });
const shrunkKernel = entry({ kind: 'kernel', key: 'dev1/add_custom', baseline: 4096, current: 1024, delta: -3072, percent: -75, status: 'improved' });
const runtimeSame = entry({ key: 'DEV_MEM/dev0/RUNTIME', baseline: 44_138_496, current: 44_138_496 });
const svmSame = entry({ key: 'SVM_MEM/RUNTIME', baseline: 19_927_040, current: 19_927_040 });

// Deliberately out of order: the renderer sorts.
const seedReport = report([svmSame, newKernel, runtimeSame, hcclOverBudget, shrunkKernel, appRegressed]);

/** The Mermaid charts of the seed story: APP on dev0 and HCCL on dev1 changed; RUNTIME (one device, unchanged) gets none. */
const CHARTS = `#### Module peaks per device

The 2 modules that changed most. \`base\` (grey): the baseline's peak on the device; \`now\` (blue): this run's.

Module \`DEV_MEM/APP\`

\`\`\`mermaid
%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "#9e9e9e, #4e79a7"}}}}%%
xychart-beta
  x-axis ["dev0 base", "dev0 now"]
  y-axis "peak (GiB)" 0 --> 20
  bar [1.94, 0]
  bar [0, 19.35]
\`\`\`

Module \`DEV_MEM/HCCL\`

\`\`\`mermaid
%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "#9e9e9e, #4e79a7"}}}}%%
xychart-beta
  x-axis ["dev1 base", "dev1 now"]
  y-axis "peak (MiB)" 0 --> 800
  bar [400, 0]
  bar [0, 620]
\`\`\``;

const FULL = `### ❌ Memory gate failed: 1 regressed, 1 over budget (1 warning)

#### Failing and warning keys (3)

| Status | Kind | Key | Baseline | Current | Δ | Δ% | Rule / why |
|---|---|---|--:|--:|--:|--:|---|
| ❌ regressed | module | \`DEV_MEM/dev0/APP\` | 1.9 GiB | 19.4 GiB | +17.4 GiB | +900.0% | default |
| ❌ over budget | module | \`DEV_MEM/dev1/HCCL\` | 400.0 MiB | 620.0 MiB | +220.0 MiB | +55.0% | \`DEV_MEM/*/HCCL\` |
| ⚠️ new | kernel | \`dev0/matmul_v1\` | — | 6 B | — | — | default |

${CHARTS}

#### Per-device totals

| Device | Modules, baseline¹ | Modules, current¹ | Δ | Kernels, baseline | Kernels, current | Δ |
|---|--:|--:|--:|--:|--:|--:|
| dev0 | 2.0 GiB | 19.4 GiB | +17.4 GiB | 0 B | 6 B | +6 B |
| dev1 | 400.0 MiB | 620.0 MiB | +220.0 MiB | 4.0 KiB | 1.0 KiB | -3.0 KiB |

¹ The sum of module peaks is an upper bound of the device peak: modules and memory attributes peak at different times, and attributes overlap (DEV_PROC_MEM is a process total). Keys without a \`devN\` segment (host, SVM) are not counted.

#### Improvements (1)

| Status | Kind | Key | Baseline | Current | Δ | Δ% | Rule / why |
|---|---|---|--:|--:|--:|--:|---|
| ✅ improved | kernel | \`dev1/add_custom\` | 4.0 KiB | 1.0 KiB | -3.0 KiB | -75.0% | default |

<details>
<summary>2 keys within thresholds</summary>

| Status | Kind | Key | Baseline | Current | Δ | Δ% | Rule / why |
|---|---|---|--:|--:|--:|--:|---|
| ✅ pass | module | \`DEV_MEM/dev0/RUNTIME\` | 42.1 MiB | 42.1 MiB | 0 B | 0.0% | default |
| ✅ pass | module | \`SVM_MEM/RUNTIME\` | 19.0 MiB | 19.0 MiB | 0 B | 0.0% | default |

</details>
`;

/** Entry rows of every table (not headers, delimiters or per-device rows), in order. */
function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Status') && !line.startsWith('| Device') && !/^\| dev\d+ \|/.test(line));
}

/** Cell delimiters GFM sees: pipes not preceded by a backslash. */
function cellDelimiters(row: string): number {
  return row.match(/(?<!\\)\|/g)?.length ?? 0;
}

describe('renderMarkdown: the full report', () => {
  it('renders the seed story as verdict, failing keys, charts, device totals, improvements and collapsed unchanged keys', () => {
    expect(renderMarkdown(seedReport)).toBe(FULL);
  });

  it('lists the regressed APP peak on dev0 first with +17.4 GiB, then the HCCL budget breach, then the new kernel warning', () => {
    const rows = tableRows(renderMarkdown(seedReport));
    expect(rows.slice(0, 3).map((r) => r.split(' | ')[2])).toEqual(['`DEV_MEM/dev0/APP`', '`DEV_MEM/dev1/HCCL`', '`dev0/matmul_v1`']);
    expect(rows[0]).toContain('| +17.4 GiB | +900.0% |');
  });

  it('puts every failure above every warning, and within each the largest growth first', () => {
    const bigWarning = entry({ key: 'DEV_MEM/dev0/GE', baseline: 0, current: 8 * GiB, delta: 8 * GiB, percent: null, status: 'regressed', severity: 'warn' });
    const smallFailure = entry({ key: 'DEV_MEM/dev0/HCCP', baseline: 100, current: 200, delta: 100, percent: 100, status: 'regressed', severity: 'fail' });
    const missing = entry({ key: 'DEV_MEM/dev0/DVPP', baseline: 1 << 20, current: null, delta: null, percent: null, status: 'missing', severity: 'fail' });
    const added = entry({ key: 'DEV_MEM/dev0/AICPU', baseline: null, current: 1 << 20, delta: null, percent: null, status: 'new', severity: 'fail' });
    const rows = tableRows(renderMarkdown(report([missing, bigWarning, smallFailure, added])));
    // A new key grows by its whole size, a missing key shrinks by its whole baseline.
    expect(rows.map((r) => r.split(' | ')[2])).toEqual([
      '`DEV_MEM/dev0/AICPU`',
      '`DEV_MEM/dev0/HCCP`',
      '`DEV_MEM/dev0/DVPP`',
      '`DEV_MEM/dev0/GE`',
    ]);
  });

  it('lists improvements with the largest shrink first, and unchanged keys naturally (dev2 before dev10)', () => {
    const small = entry({ key: 'DEV_MEM/dev0/GE', baseline: 2000, current: 1500, delta: -500, percent: -25, status: 'improved' });
    const large = entry({ key: 'DEV_MEM/dev0/APP', baseline: 9000, current: 1000, delta: -8000, percent: -88.9, status: 'improved' });
    const dev10 = entry({ key: 'DEV_MEM/dev10/APP' });
    const dev2 = entry({ key: 'DEV_MEM/dev2/APP' });
    const kernel = entry({ kind: 'kernel', key: 'dev0/add' });
    const rows = tableRows(renderMarkdown(report([small, dev10, kernel, large, dev2])));
    expect(rows.map((r) => r.split(' | ')[2])).toEqual([
      '`DEV_MEM/dev0/APP`',
      '`DEV_MEM/dev0/GE`',
      '`DEV_MEM/dev2/APP`',
      '`DEV_MEM/dev10/APP`',
      '`dev0/add`',
    ]);
  });

  it('says the gate passed with 140 keys within thresholds and 3 warnings', () => {
    const entries = Array.from({ length: 140 }, (_, i) =>
      entry({ key: `DEV_MEM/dev0/M${i}`, ...(i < 3 ? { status: 'new', severity: 'warn', baseline: null, delta: null, percent: null } : {}) }),
    );
    const lines = renderMarkdown(report(entries)).split('\n');
    expect(lines[0]).toBe('### ✅ Memory gate passed: 140 keys within thresholds (3 warnings)');
    expect(lines).toContain('#### Failing and warning keys (3)');
    expect(lines).toContain('<summary>137 keys within thresholds</summary>');
  });

  it('says "1 key" and leaves out the warning note when there is none', () => {
    expect(renderMarkdown(report([runtimeSame]))).toBe(`### ✅ Memory gate passed: 1 key within thresholds

#### Per-device totals

| Device | Modules, baseline¹ | Modules, current¹ | Δ |
|---|--:|--:|--:|
| dev0 | 42.1 MiB | 42.1 MiB | 0 B |

¹ The sum of module peaks is an upper bound of the device peak: modules and memory attributes peak at different times, and attributes overlap (DEV_PROC_MEM is a process total). Keys without a \`devN\` segment (host, SVM) are not counted.

<details>
<summary>1 key within thresholds</summary>

| Status | Kind | Key | Baseline | Current | Δ | Δ% | Rule / why |
|---|---|---|--:|--:|--:|--:|---|
| ✅ pass | module | \`DEV_MEM/dev0/RUNTIME\` | 42.1 MiB | 42.1 MiB | 0 B | 0.0% | default |

</details>
`);
  });

  it('says the gate failed without a list when no entry fails (e.g. an empty snapshot)', () => {
    expect(renderMarkdown({ result: 'fail', counts: {}, entries: [] })).toBe('### ❌ Memory gate failed\n');
  });

  it('counts 100,000 keys with a thousands separator', () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => entry({ key: `HOST_MEM/M${i}` }));
    expect(renderMarkdown(report(entries), { maxBytes: 200 }).split('\n')[0]).toBe('### ✅ Memory gate passed: 100,000 keys within thresholds');
  });

  it('sums module peaks per device and keeps host and SVM keys out of the device totals', () => {
    const md = renderMarkdown(report([svmSame, entry({ key: 'HOST_MEM/RUNTIME', baseline: 5 << 20, current: 5 << 20 }), runtimeSame]));
    const deviceRows = md.split('\n').filter((l) => /^\| dev\d/.test(l));
    expect(deviceRows).toEqual(['| dev0 | 42.1 MiB | 42.1 MiB | 0 B |']);
  });

  it('renders statuses and kinds this build does not know yet (per-device verdicts from a later issue)', () => {
    // Object.assign keeps the Entry type while carrying a status string that gate/types.ts does not list yet.
    const overCapacity = Object.assign(entry({ key: 'dev0', severity: 'fail', baseline: 60 * GiB, current: 66 * GiB, delta: 6 * GiB, percent: 10 }), {
      kind: 'device',
      status: 'over-capacity',
    });
    const md = renderMarkdown(report([overCapacity, appRegressed]));
    expect(md.split('\n')[0]).toBe('### ❌ Memory gate failed: 1 regressed, 1 over capacity');
    expect(tableRows(md)).toContain('| ❌ over capacity | device | `dev0` | 60.0 GiB | 66.0 GiB | +6.0 GiB | +10.0% | default |');
    // A device verdict is not a module or kernel: it does not enter the per-device sums.
    expect(md).toContain('| dev0 | 1.9 GiB | 19.4 GiB | +17.4 GiB |');
  });

  it('shows counts of a count entry (alloc failures) as numbers, not bytes', () => {
    const allocFailures = Object.assign(entry({ key: 'dev0', baseline: 0, current: 5, delta: 5, percent: null, status: 'regressed', severity: 'fail' }), {
      kind: 'device' as const,
      unit: 'count' as const,
    });
    expect(tableRows(renderMarkdown(report([allocFailures])))).toEqual(['| ❌ regressed | device | `dev0` | 0 | 5 | +5 | — | default |']);
  });

  it('leaves the charts out with chartModules 0, and refuses a negative or fractional count', () => {
    expect(renderMarkdown(seedReport, { chartModules: 0 })).toBe(FULL.replace(`${CHARTS}\n\n`, ''));
    expect(renderMarkdown(seedReport, { chartModules: 1 })).toContain('The module that changed most.');
    expect(() => renderMarkdown(seedReport, { chartModules: -1 })).toThrow('chartModules must be a non-negative integer, got -1');
    expect(() => renderMarkdown(seedReport, { chartModules: 1.5 })).toThrow(UsageError);
  });

  it('puts the sticky-comment marker first and links the workflow run under the verdict', () => {
    const md = renderMarkdown(report([runtimeSame]), {
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
      expect(() => renderMarkdown(seedReport, { marker })).toThrow(UsageError);
    }
  });

  it('refuses a run URL that is not http(s), and percent-encodes characters that would end the link', () => {
    expect(() => renderMarkdown(seedReport, { runUrl: 'javascript:alert(1)' })).toThrow('runUrl must be an http(s) URL');
    expect(() => renderMarkdown(seedReport, { runUrl: 'not a url' })).toThrow('runUrl is not a URL');
    const md = renderMarkdown(report([runtimeSame]), { runUrl: 'https://ghe.example/a b/(x)|y<z>' });
    expect(md).toContain('[Workflow run](https://ghe.example/a%20b/%28x%29%7Cy%3Cz%3E)');
  });
});

describe('renderMarkdown: names from files are escaped', () => {
  const hostile = (key: string, rule: string | null = null): string => {
    const rows = tableRows(renderMarkdown(report([entry({ kind: 'kernel', key, rule, status: 'regressed', severity: 'fail', current: 2000, delta: 1000, percent: 100 })])));
    expect(rows).toHaveLength(1);
    const row = rows[0] ?? '';
    expect(cellDelimiters(row)).toBe(9);
    return row;
  };

  it('escapes every pipe in a kernel name, not only the first', () => {
    expect(hostile('a|b|c')).toBe('| ❌ regressed | kernel | `a\\|b\\|c` | 1000 B | 2.0 KiB | +1000 B | +100.0% | default |');
  });

  it('keeps a backslash before a pipe, which GFM reads as a backslash and an escaped pipe', () => {
    expect(hostile('a\\|b')).toContain('| `a\\\\|b` |');
  });

  it('fences a name holding a backtick with a longer run of backticks', () => {
    expect(hostile('x`y')).toContain('| ``x`y`` |');
    expect(hostile('p``q`')).toContain('| ``` p``q` ``` |');
    expect(hostile('`start')).toContain('| `` `start `` |');
  });

  it('shows an HTML payload as code, never as a tag', () => {
    expect(hostile('<img src=x onerror=alert(1)>')).toContain('| `<img src=x onerror=alert(1)>` |');
  });

  it('keeps @org/team inside a code span so that nobody is pinged', () => {
    const row = hostile('dev0/@org/team_kernel', '@org/**');
    expect(row).toContain('| `dev0/@org/team_kernel` |');
    expect(row).toContain('| `@org/**` |');
    // Outside code spans no @ is left.
    expect(row.replace(/`[^`]*`/g, '')).not.toContain('@');
  });

  it('keeps a name with a newline on one table row, showing the line break as ␊', () => {
    expect(hostile('dev0/evil\n| injected | row |\r\n')).toContain('| `dev0/evil␊\\| injected \\| row \\|␍␊` |');
  });

  it('shows a terminal escape and a right-to-left override instead of passing them on', () => {
    expect(hostile('dev0/\u001b[2Jmatmul\u202Eevil')).toContain('| `dev0/␛[2Jmatmul⟨U+202E⟩evil` |');
  });

  it('escapes a markdown title as text: no HTML, no mention, no emphasis', () => {
    const md = renderMarkdown(seedReport, { title: '<b>Gate</b> for @org/team *now*' });
    expect(md.split('\n')[0]).toBe('### ❌ \\<b\\>Gate\\<\\/b\\> for @&#8203;org\\/team \\*now\\* failed: 1 regressed, 1 over budget (1 warning)');
  });
});

describe('escape helpers', () => {
  it('codeSpan pads only when a backtick or a space pair would be eaten', () => {
    expect(codeSpan('plain')).toBe('`plain`');
    expect(codeSpan('end`')).toBe('`` end` ``');
    expect(codeSpan(' both ')).toBe('`  both  `');
    expect(codeSpan(' lead')).toBe('` lead`');
    expect(codeSpan('   ')).toBe('`   `');
    expect(codeSpan('')).toBe('` `');
  });

  it('tableCodeSpan escapes every pipe; codeSpan leaves pipes alone outside tables', () => {
    expect(tableCodeSpan('|a|')).toBe('`\\|a\\|`');
    expect(codeSpan('|a|')).toBe('`|a|`');
  });

  it('escapeMarkdownText escapes all ASCII punctuation and breaks @mentions', () => {
    expect(escapeMarkdownText('a_b [x](y) #1 @me & <i>')).toBe('a\\_b \\[x\\]\\(y\\) \\#1 @&#8203;me \\& \\<i\\>');
  });

  it('escapeHtml escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('replaceControlCharacters shows controls, separators, zero-width and lone surrogates', () => {
    expect(replaceControlCharacters('a\tb\u0000c\u007f\u0085\u2028\u200b\ud800z')).toBe('a␉b␀c␡⟨U+0085⟩⟨U+2028⟩⟨U+200B⟩⟨U+D800⟩z');
    expect(replaceControlCharacters('算子 😀')).toBe('算子 😀');
  });
});

describe('renderMarkdown: degrade before truncating', () => {
  const full = renderMarkdown(seedReport);
  const render = (maxBytes: number): string => renderMarkdown(seedReport, { maxBytes });

  it('keeps everything when the report fits exactly', () => {
    expect(render(bytes(full))).toBe(full);
  });

  it('first drops the charts, with a note where they were, keeping every table', () => {
    const md = render(bytes(full) - 1);
    expect(md).toBe(full.replace(CHARTS, '_module peak charts not shown to fit the size limit: see the JSON report / job summary_'));
    expect(md).not.toContain('mermaid');
    expect(bytes(full) - bytes(md)).toBe(bytes(CHARTS) - bytes('_module peak charts not shown to fit the size limit: see the JSON report / job summary_'));
    expect(render(bytes(md))).toBe(md);
  });

  it('then drops the collapsed unchanged keys, with a note where they were', () => {
    const withoutCharts = render(bytes(full) - 1);
    const md = render(bytes(withoutCharts) - 1);
    expect(md).not.toContain('mermaid');
    expect(md).not.toContain('<details>');
    expect(md.endsWith('\n\n_2 keys within thresholds not shown to fit the size limit: see the JSON report / job summary_\n')).toBe(true);
    expect(md).toContain('#### Improvements (1)');
    expect(md).toContain('#### Per-device totals');
    expect(bytes(md)).toBeLessThan(bytes(withoutCharts));
    expect(render(bytes(md))).toBe(md);
  });

  it('then drops the improvements, then the per-device totals, each with a note', () => {
    const withoutUnchanged = render(bytes(render(bytes(full) - 1)) - 1);
    const withoutImprovements = render(bytes(withoutUnchanged) - 1);
    expect(withoutImprovements).not.toContain('#### Improvements');
    expect(withoutImprovements).toContain('_1 improvement not shown to fit the size limit: see the JSON report / job summary_');
    expect(withoutImprovements).toContain('#### Per-device totals');
    expect(render(bytes(withoutImprovements))).toBe(withoutImprovements);

    const withoutDevices = render(bytes(withoutImprovements) - 1);
    expect(withoutDevices).not.toContain('#### Per-device totals');
    expect(withoutDevices).toContain('_per-device totals not shown to fit the size limit: see the JSON report / job summary_');
    // All three failing and warning rows are still there.
    expect(tableRows(withoutDevices)).toHaveLength(3);
    expect(bytes(withoutDevices)).toBe(856);
  });

  it('then cuts failing rows from the end, with "…N more rows", and never half a row', () => {
    const md = render(855);
    expect(bytes(md)).toBeLessThanOrEqual(855);
    expect(tableRows(md).map((r) => r.split(' | ')[2])).toEqual(['`DEV_MEM/dev0/APP`', '`DEV_MEM/dev1/HCCL`']);
    expect(md).toContain('|\n\n…1 more row: see the JSON report / job summary\n');
  });

  it('keeps only the verdict when not even the table heading fits, and refuses a limit below the verdict', () => {
    const verdict = '### ❌ Memory gate failed: 1 regressed, 1 over budget (1 warning)\n';
    expect(render(bytes(verdict))).toBe(verdict);
    expect(() => render(bytes(verdict) - 1)).toThrow(`maxBytes ${bytes(verdict) - 1} cannot hold even the verdict line (${bytes(verdict)} bytes)`);
    expect(() => render(0)).toThrow(UsageError);
    expect(() => render(1.5)).toThrow('maxBytes must be a positive integer, got 1.5');
  });

  it('stays within every limit from the verdict up to the full size, cutting only between rows', () => {
    const hostileRows = Array.from({ length: 30 }, (_, i) =>
      entry({ kind: 'kernel', key: `dev${i % 3}/a|b\`c<${i}>@x/算子`, status: 'regressed', severity: i % 2 ? 'fail' : 'warn', current: 1000 + i, delta: i, percent: i / 10 }),
    );
    const big = report([...seedReport.entries, ...hostileRows]);
    const fullBig = renderMarkdown(big);
    const verdictBytes = bytes(renderMarkdown(big).split('\n')[0] ?? '') + 1;
    let previousRows = -1;
    for (let limit = verdictBytes; limit <= bytes(fullBig) + 10; limit += 13) {
      const md = renderMarkdown(big, { maxBytes: limit });
      expect(bytes(md)).toBeLessThanOrEqual(limit);
      const rows = tableRows(md);
      for (const row of rows) {
        expect(row.endsWith(' |')).toBe(true);
        expect(cellDelimiters(row)).toBe(9);
      }
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
      entries.push(entry({ key: `DEV_MEM/${device}/M${i}`, baseline: 1 << 20, current: (1 << 20) + i, delta: i, percent: i / 10, status: 'regressed', severity: 'fail' }));
    } else if (i < 40_000) {
      entries.push(entry({ kind: 'kernel', key: `${device}/算子_${i}`, baseline: null, current: i, delta: null, percent: null, status: 'new', severity: 'warn' }));
    } else if (i < 50_000) {
      entries.push(entry({ kind: 'kernel', key: `${device}/k${i}`, baseline: 2 * i, current: i, delta: -i, percent: -50, status: 'improved' }));
    } else {
      entries.push(entry({ key: `DEV_MEM/${device}/P${i}` }));
    }
  }
  const big = report(entries);

  it('fits a PR comment (65,536) with the largest regressions first and a note for the rest', () => {
    const md = renderMarkdown(big, { maxBytes: 65_536 });
    expect(bytes(md)).toBeLessThanOrEqual(65_536);
    expect(bytes(md)).toBeGreaterThan(65_536 - 200);
    const rows = tableRows(md);
    expect(rows[0]).toContain('`DEV_MEM/dev7/M29999`');
    const more = /\n\n…([\d,]+) more rows: see the JSON report \/ job summary\n/.exec(md);
    expect(Number(more?.[1]?.replaceAll(',', ''))).toBe(40_000 - rows.length);
    expect(md).toContain('_50,000 keys within thresholds not shown to fit the size limit: see the JSON report / job summary_');
    expect(md).toContain('_10,000 improvements not shown to fit the size limit: see the JSON report / job summary_');
  });

  it('fits a job summary (1 MiB) counting UTF-8 bytes of the multi-byte kernel names', () => {
    const md = renderMarkdown(big, { maxBytes: 1024 * 1024 });
    expect(bytes(md)).toBeLessThanOrEqual(1024 * 1024);
    const rows = tableRows(md);
    expect(rows.length).toBeGreaterThan(7000);
    expect(rows.every((r) => cellDelimiters(r) === 9)).toBe(true);
    expect(md).toContain(`…${(40_000 - rows.length).toLocaleString('en-US')} more rows: see the JSON report / job summary`);
  });

  it('renders all 100,000 rows when there is no limit', () => {
    const md = renderMarkdown(big);
    expect(tableRows(md)).toHaveLength(100_000);
    expect(md).toContain('<summary>50,000 keys within thresholds</summary>');
  });
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

  it('explains a finding with its escaped note and its limit instead of a rule', () => {
    const md = renderMarkdown(report([overCapacity, allocFailures]));
    const row = md.split('\n').find((l) => l.includes('`dev0`'));
    expect(row).toBe(
      '| ❌ over capacity | device | `dev0` | — | 19.4 GiB | — | — | dev0 needs up to 19\\.4 GiB \\| more than its 16\\.0 GiB \\(limit 16\\.0 GiB\\) |',
    );
  });

  it('prints counts as plain numbers, not bytes', () => {
    const md = renderMarkdown(report([allocFailures]));
    expect(md).toContain('| ❌ alloc failure | device | `dev1` | — | 2 | — | — | 2 allocation failures \\(limit 0\\) |');
  });

  it('counts a key with a verdict and a finding once in the per-device totals and the verdict', () => {
    const app = entry({ key: 'DEV_MEM/dev0/APP', baseline: 100 * GiB, current: 100 * GiB });
    const imbalance = { ...app, status: 'imbalance' as const, severity: 'warn' as const, note: 'far from the median' };
    const md = renderMarkdown(report([app, imbalance]), { chartModules: 0 });
    expect(md).toContain('| dev0 | 100.0 GiB | 100.0 GiB | 0 B |');
    expect(md).toContain('Memory gate passed: 1 key within thresholds (1 warning)');
  });
});

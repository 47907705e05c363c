// Trends in the Markdown report: a sparkline under each row with history, the step as a row note, what else moved on
// the default branch, the keys the noise band let pass, and the order in which they go to fit a size.
import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../../src/gate/compare.js';
import { parseGateConfig } from '../../../src/gate/thresholds.js';
import { emptyHistory } from '../../../src/history/format.js';
import { appendPoint } from '../../../src/history/store.js';
import { trendsOf } from '../../../src/history/trends.js';
import { renderHtml } from '../../../src/report/html.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { MiB } from '../../helpers/story.js';
import { buildReportView } from '../../../src/report/view.js';

const metric = (peak: number): { peak: number; current: number; allocs: number; frees: number } => ({
  peak,
  current: peak,
  allocs: 1,
  frees: 1,
});
const side = (
  values: Record<string, number>,
): { sections: { modules: Record<string, ReturnType<typeof metric>> } } => ({
  sections: { modules: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, metric(v)])) },
});

/** 20 runs of main: HCCL 400 → 800 MiB at run 11 (with a CANN change), HOST_MEM/APP 10 → 20 MiB at run 16, APP flat. */
function history(branch = 'main'): ReturnType<typeof emptyHistory> {
  const h = emptyHistory({ branch, commitUrl: 'https://github.com/o/r/commit/{sha}' });
  for (let n = 1; n <= 20; n++) {
    const values = new Map([
      ['DEV_MEM/dev0/HCCL', (n <= 10 ? 400 : 800) * MiB],
      ['DEV_MEM/dev1/HCCL', (n <= 10 ? 400 : 800) * MiB],
      ['DEV_MEM/dev0/APP', 1000 * MiB],
      ['HOST_MEM/APP', (n <= 15 ? 10 : 20) * MiB],
    ]);
    appendPoint(
      h,
      {
        commit: n.toString(16).padStart(40, 'c'),
        time: '2026-01-01T00:00:00Z',
        baseline: null,
        environment: { cann: n <= 10 ? '8.3.RC1' : '9.0.RC1' },
      },
      { keys: new Map([['modules', values]]), rollups: new Map(), devices: 2 },
    );
  }
  return h;
}

const config = parseGateConfig({}, 'c.json');
const report = compareSnapshots(
  side({
    'DEV_MEM/dev0/HCCL': 400 * MiB,
    'DEV_MEM/dev1/HCCL': 400 * MiB,
    'DEV_MEM/dev0/APP': 1000 * MiB,
    'HOST_MEM/APP': 20 * MiB,
  }),
  side({
    'DEV_MEM/dev0/HCCL': 800 * MiB,
    'DEV_MEM/dev1/HCCL': 800 * MiB,
    'DEV_MEM/dev0/APP': 1000 * MiB,
    'HOST_MEM/APP': 20 * MiB,
  }),
  config,
);
const sha = (n: number): string => n.toString(16).padStart(40, 'c');

describe('trends in the markdown report', () => {
  it('the failing row gets its sparkline and range; its step is a numbered note linking the commit; what else moved is listed after', () => {
    const md = renderMarkdown(buildReportView(report, { trends: trendsOf(history(), config) }), {});
    const lines = md.split('\n');
    expect(lines.find((l) => l.startsWith('| ❌'))).toBe(
      `| ❌\u00a0regressed | \`DEV_MEM/*/HCCL\`<br>2 of 2 devices, worst \`dev0\`\u00a0¹<br>\`▁▁▁▁▁▁▁▁▁▁██████████\` 400.0\u00a0MiB – 800.0\u00a0MiB | 400.0\u00a0MiB → 800.0\u00a0MiB | +400.0\u00a0MiB (+100%)<br>median +400.0\u00a0MiB (+100%) |`,
    );
    expect(md).toContain(
      `1. \`DEV_MEM/*/HCCL\` (largest device): 400.0\u00a0MiB → 800.0\u00a0MiB since [\`ccccccc\`](https://github.com/o/r/commit/${sha(11)}) (9 runs ago on \`main\`); CANN toolkit \`8.3.RC1\` → \`9.0.RC1\` at the same run.`,
    );
    expect(md).toContain(
      [
        '#### Moved on `main` in the last 30 runs',
        '',
        `- \`HOST_MEM/APP\`: 10.0\u00a0MiB → 20.0\u00a0MiB since [\`ccccccc\`](https://github.com/o/r/commit/${sha(16)}) (4 runs ago on \`main\`).`,
      ].join('\n'),
    );
  });

  it('a branch name and environment values from outside are escaped', () => {
    const md = renderMarkdown(buildReportView(report, { trends: trendsOf(history('<img src=x>|@team'), config) }), {});
    expect(md).toContain('(9 runs ago on `<img src=x>|@team`)');
    expect(md).not.toMatch(/[^`]<img/);
  });

  it('to fit a size, the sparklines and the list of what moved go right after the charts, before any row', () => {
    const full = renderMarkdown(buildReportView(report, { trends: trendsOf(history(), config) }), {});
    const without = renderMarkdown(buildReportView(report, { trends: trendsOf(history(), config) }), {
      chartModules: 0,
    });
    const fitted = renderMarkdown(buildReportView(report, { trends: trendsOf(history(), config) }), {
      chartModules: 0,
      maxBytes: Buffer.byteLength(without) - 1,
    });
    expect(full).toContain('▁▁▁▁▁▁▁▁▁▁██████████');
    expect(fitted).not.toContain('▁▁▁▁▁▁▁▁▁▁██████████');
    expect(fitted).toContain(
      '_what moved on the default branch not shown to fit the size limit: see the JSON report / job summary_',
    );
    expect(fitted).toContain('| ❌\u00a0regressed | `DEV_MEM/*/HCCL`<br>2 of 2 devices');
    // The step stays: it is the row's note.
    expect(fitted).toContain('1. `DEV_MEM/*/HCCL` (largest device): 400.0\u00a0MiB → 800.0\u00a0MiB since');
  });
});

describe('trends in the HTML report', () => {
  it('a chart per changed key: a point per run linking its commit, the baseline as a line, the environment change marked, the step in red', () => {
    const html = renderHtml(buildReportView(report, { trends: trendsOf(history(), config) }), {});
    const section = html.slice(
      html.indexOf('<section id="trends">'),
      html.indexOf('</section>', html.indexOf('<section id="trends">')),
    );
    expect(section).toContain('<h2>Trends on <code>main</code></h2>');
    expect(section).toContain(
      `since <a href="https://github.com/o/r/commit/${sha(11)}"><code>ccccccc</code></a> (9 runs ago); CANN toolkit 8.3.RC1 → 9.0.RC1 at the same run`,
    );
    expect(section.match(/<circle class="point/g)).toHaveLength(20);
    expect(section.match(/<circle class="point step"/g)).toHaveLength(1);
    expect(section).toContain('<title>baseline 400.0 MiB</title>');
    expect(section).toMatch(
      /<line class="marker environment"[^>]*><title>environment changed at ccccccc: cann 8\.3\.RC1 → 9\.0\.RC1<\/title>/,
    );
    expect(renderHtml(buildReportView(report))).not.toContain('id="trends"');
  });
});

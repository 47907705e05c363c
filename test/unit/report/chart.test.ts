// Pictures of module peaks per device: the Mermaid chart in the PR comment and summary, the stacked bars of the HTML report.
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../../src/gate/types.js';
import {
  chartedModules,
  devicePeaks,
  MODULE_COLORS,
  OTHER_MODULES_COLOR,
  renderDeviceStacksSvg,
  renderMermaidChart,
} from '../../../src/report/chart.js';
import { entry } from '../../helpers/entries.js';
import { GiB, MiB } from '../../helpers/story.js';

/** Two ranks: APP on dev1 grew 10x and fails, HCCL is unchanged on both, GE is new on both (no baseline). */
const twoRanks: Entry[] = [
  entry({ key: 'DEV_MEM/dev0/APP', baseline: 2 * GiB, current: 2 * GiB }),
  entry({
    key: 'DEV_MEM/dev1/APP',
    baseline: 2 * GiB,
    current: 20 * GiB,
    delta: 18 * GiB,
    percent: 900,
    status: 'regressed',
    severity: 'fail',
  }),
  entry({ key: 'DEV_MEM/dev0/HCCL', baseline: 400 * MiB, current: 400 * MiB }),
  entry({ key: 'DEV_MEM/dev1/HCCL', baseline: 400 * MiB, current: 400 * MiB }),
  entry({
    key: 'DEV_MEM/dev0/GE',
    baseline: null,
    current: 3 * MiB,
    delta: null,
    percent: null,
    status: 'new',
    severity: 'warn',
  }),
  entry({
    key: 'DEV_MEM/dev1/GE',
    baseline: null,
    current: 3.5 * MiB,
    delta: null,
    percent: null,
    status: 'new',
    severity: 'warn',
  }),
  entry({
    key: 'SVM_MEM/RUNTIME',
    baseline: 19 * MiB,
    current: 30 * MiB,
    delta: 11 * MiB,
    percent: 57.9,
    status: 'regressed',
    severity: 'fail',
  }),
  entry({
    kind: 'kernel',
    key: 'dev1/aclnnMatmul_0',
    baseline: 0,
    current: 8 * MiB,
    delta: 8 * MiB,
    percent: null,
    status: 'regressed',
    severity: 'fail',
  }),
];

const TWO_RANKS_CHART = `#### Module peaks per device

The 2 modules that changed most. Bars (blue): this run's peak on each device; line (grey): the baseline's.

Module \`DEV_MEM/*/APP\`

\`\`\`mermaid
%%{init: {"xyChart": {"height": 320}, "themeVariables": {"xyChart": {"plotColorPalette": "#4e79a7, #9e9e9e"}}}}%%
xychart-beta
  x-axis ["dev0", "dev1"]
  y-axis "peak (GiB)" 0 --> 20
  bar [2, 20]
  line [2, 2]
\`\`\`

Module \`DEV_MEM/*/GE\`, no baseline: this run only

\`\`\`mermaid
%%{init: {"xyChart": {"height": 320}, "themeVariables": {"xyChart": {"plotColorPalette": "#4e79a7"}}}}%%
xychart-beta
  x-axis ["dev0", "dev1"]
  y-axis "peak (MiB)" 0 --> 4
  bar [3, 3.5]
\`\`\``;

/** The lines a chart fence may hold: our directive, the chart type, device labels, fixed axis titles, numbers. */
const MERMAID_LINE =
  /^(%%\{init: \{"xyChart": \{"height": 320\}, "themeVariables": \{"xyChart": \{"plotColorPalette": "#[0-9a-f]{6}(, #[0-9a-f]{6})?"\}\}\}\}%%|xychart-beta|  x-axis \[("dev\d+( baseline| this run)?"(, )?)+\]|  y-axis "peak \((B|KiB|MiB|GiB|TiB)\)" 0 --> \d+(\.\d+)?|  (bar|line) \[(\d+(\.\d+)?(, )?)+\])$/;

/** The text between each ```mermaid fence and its closing fence. */
function fenceBodies(markdown: string): string[][] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => (m[1] ?? '').split('\n'));
}

describe('renderMermaidChart: per-device peaks in the PR comment', () => {
  it('draws the failing APP first, then the new GE (current only), and leaves out unchanged HCCL, SVM and kernels', () => {
    expect(renderMermaidChart(twoRanks)).toBe(TWO_RANKS_CHART);
  });

  it('puts the failing module before a larger warning, and a larger change before a smaller one', () => {
    const bigWarning = [0, 1].map((d) =>
      entry({
        key: `DEV_MEM/dev${d}/GE`,
        baseline: GiB,
        current: 9 * GiB,
        delta: 8 * GiB,
        percent: 800,
        status: 'regressed',
        severity: 'warn',
      }),
    );
    const smallFailure = entry({
      key: 'DEV_MEM/dev0/HCCP',
      baseline: 100,
      current: 200,
      delta: 100,
      percent: 100,
      status: 'regressed',
      severity: 'fail',
    });
    const shrunk = entry({
      key: 'DEV_MEM/dev0/DVPP',
      baseline: 5 * GiB,
      current: GiB,
      delta: -4 * GiB,
      percent: -80,
      status: 'improved',
    });
    const grew = entry({
      key: 'DEV_MEM/dev0/AICPU',
      baseline: GiB,
      current: 2 * GiB,
      delta: GiB,
      percent: 100,
      status: 'pass',
    });
    const peaks = devicePeaks([grew, shrunk, ...bigWarning, smallFailure]);
    expect(chartedModules(peaks, 10).map((m) => m.module)).toEqual([
      'DEV_MEM/*/HCCP',
      'DEV_MEM/*/GE',
      'DEV_MEM/*/DVPP',
      'DEV_MEM/*/AICPU',
    ]);
    expect(chartedModules(peaks, 2).map((m) => m.module)).toEqual(['DEV_MEM/*/HCCP', 'DEV_MEM/*/GE']);
    const md = renderMermaidChart([grew, shrunk, ...bigWarning, smallFailure], { modules: 1 }) ?? '';
    expect(md).toContain('The module that changed most.');
    expect(fenceBodies(md)).toHaveLength(1);
    // 100 and 200 bytes: the unit follows the values.
    expect(md).toContain(
      '  x-axis ["dev0 baseline", "dev0 this run"]\n  y-axis "peak (B)" 0 --> 200\n  bar [100, 200]',
    );
  });

  it('is omitted when nothing is per device: only kernels, only host and SVM keys, or counts', () => {
    const kernels = [
      entry({
        kind: 'kernel',
        key: 'dev0/add',
        baseline: 0,
        current: 4096,
        delta: 4096,
        status: 'regressed',
        severity: 'fail',
      }),
    ];
    const host = [
      entry({
        key: 'HOST_MEM/APP',
        baseline: MiB,
        current: 9 * MiB,
        delta: 8 * MiB,
        status: 'regressed',
        severity: 'fail',
      }),
    ];
    const counts = [
      entry({
        key: 'DEV_MEM/dev0/APP',
        baseline: 1,
        current: 9,
        delta: 8,
        status: 'regressed',
        severity: 'fail',
        unit: 'count',
      }),
    ];
    expect(renderMermaidChart(kernels)).toBeNull();
    expect(renderMermaidChart(host)).toBeNull();
    expect(renderMermaidChart(counts)).toBeNull();
    expect(renderMermaidChart([])).toBeNull();
  });

  it('is omitted for one device without a baseline, and for modules that did not change', () => {
    const fresh = entry({
      key: 'DEV_MEM/dev0/APP',
      baseline: null,
      current: 2 * GiB,
      delta: null,
      percent: null,
      status: 'new',
      severity: 'warn',
    });
    const same = [0, 1, 2].map((d) => entry({ key: `DEV_MEM/dev${d}/APP`, baseline: GiB, current: GiB }));
    expect(renderMermaidChart([fresh])).toBeNull();
    expect(renderMermaidChart(same)).toBeNull();
    // One device with a baseline that changed is worth two bars: one series, baseline and this run, nothing padded.
    const grew = entry({
      key: 'DEV_MEM/dev0/APP',
      baseline: GiB,
      current: 3 * GiB,
      delta: 2 * GiB,
      percent: 200,
      status: 'regressed',
      severity: 'fail',
    });
    expect(fenceBodies(renderMermaidChart([grew]) ?? '')).toEqual([
      [
        '%%{init: {"xyChart": {"height": 320}, "themeVariables": {"xyChart": {"plotColorPalette": "#4e79a7"}}}}%%',
        'xychart-beta',
        '  x-axis ["dev0 baseline", "dev0 this run"]',
        '  y-axis "peak (GiB)" 0 --> 3',
        '  bar [1, 3]',
      ],
    ]);
  });

  it('rounds the axis up to a round number and orders devices naturally (dev2 before dev10)', () => {
    const devices = [10, 2].map((d) =>
      entry({
        key: `DEV_MEM/dev${d}/HCCL`,
        baseline: 400 * MiB,
        current: 620 * MiB,
        delta: 220 * MiB,
        status: 'regressed',
        severity: 'fail',
      }),
    );
    expect(fenceBodies(renderMermaidChart(devices) ?? '')[0]?.slice(2)).toEqual([
      '  x-axis ["dev2", "dev10"]',
      '  y-axis "peak (MiB)" 0 --> 800',
      '  bar [620, 620]',
      '  line [400, 400]',
    ]);
  });

  it('counts a key once when findings repeat it (a verdict and a leak-suspect count), and takes its worst severity', () => {
    const verdict = entry({ key: 'DEV_MEM/dev0/APP', baseline: GiB, current: GiB });
    const leak = entry({
      key: 'DEV_MEM/dev0/APP',
      baseline: 2,
      current: 40,
      delta: 38,
      status: 'pass',
      severity: 'warn',
      unit: 'count',
    });
    const imbalance = entry({ key: 'DEV_MEM/dev0/APP', baseline: GiB, current: GiB, status: 'pass', severity: 'warn' });
    const other = entry({ key: 'DEV_MEM/dev1/APP', baseline: GiB, current: GiB });
    const peaks = devicePeaks([verdict, leak, imbalance, other]);
    expect(peaks.devices).toEqual(['dev0', 'dev1']);
    expect(peaks.modules).toHaveLength(1);
    expect(peaks.modules[0]?.byDevice.get('dev0')).toEqual({
      baseline: GiB,
      current: GiB,
      growth: 0,
      severity: 'warn',
    });
    // The warning makes the otherwise unchanged module worth a chart.
    expect(fenceBodies(renderMermaidChart([verdict, leak, imbalance, other]) ?? '')[0]?.slice(4)).toEqual([
      '  bar [1, 1]',
      '  line [1, 1]',
    ]);
  });

  it('keeps names from files out of the Mermaid text: a hostile module is a code span above a fence of fixed lines', () => {
    const hostileNames = [
      'APP"]\n  bar [999]\n%%{init: {"theme": "dark"}}%%',
      '```\n<img src=x onerror=alert(1)>\n```',
      '</svg><script>alert(1)</script>',
      'x`y @org/team',
    ];
    const entries = hostileNames.flatMap((name) =>
      [0, 1].map((d) =>
        entry({
          key: `DEV_MEM/dev${d}/${name}`,
          baseline: MiB,
          current: 2 * MiB,
          delta: MiB,
          percent: 100,
          status: 'regressed',
          severity: 'fail',
        }),
      ),
    );
    const md = renderMermaidChart(entries, { modules: 10 }) ?? '';
    const bodies = fenceBodies(md);
    expect(bodies).toHaveLength(4);
    for (const line of bodies.flat()) expect(line).toMatch(MERMAID_LINE);
    // Exactly two fence lines per chart: no name opened or closed a fence.
    expect(md.split('\n').filter((l) => l.startsWith('```'))).toHaveLength(8);
    // The names are code spans (equal changes: by name), line breaks shown as ␊, backticks out-fenced.
    expect(md.split('\n\n').filter((block) => block.startsWith('Module '))).toEqual([
      'Module ```` DEV_MEM/*/```␊<img src=x onerror=alert(1)>␊``` ````',
      'Module `DEV_MEM/*/</svg><script>alert(1)</script>`',
      'Module `DEV_MEM/*/APP"]␊  bar [999]␊%%{init: {"theme": "dark"}}%%`',
      'Module ``DEV_MEM/*/x`y @org/team``',
    ]);
  });
});

describe('renderDeviceStacksSvg: stacked bars for the HTML report', () => {
  const segmentsOf = (svg: string): string[] =>
    [
      ...svg.matchAll(
        /<rect class="segment" tabindex="0" data-module="([^"]*)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="(#[0-9a-f]{6})">/g,
      ),
    ].map((m) => `${m[1]} ${m[6]} x=${m[2]} y=${m[3]} h=${m[5]}`);

  it('stacks each device by module, largest module at the bottom, heights proportional to the bytes, the capacity as a red line', () => {
    const chart = renderDeviceStacksSvg(devicePeaks(twoRanks), {
      failingDevices: new Set(['dev1']),
      capacities: new Map([
        ['dev0', 16 * GiB],
        ['dev1', 16 * GiB],
      ]),
    });
    if (chart === null) throw new Error('expected a chart');
    // GE's 3 MiB is under 0.1 px at a 25 GiB scale: not drawn, still counted in the total label.
    expect(segmentsOf(chart.svg)).toEqual([
      'DEV_MEM/*/APP #4e79a7 x=98.4 y=285.6 h=22.4',
      'DEV_MEM/*/HCCL #f28e2b x=98.4 y=281.2 h=4.4',
      'DEV_MEM/*/APP #4e79a7 x=170.4 y=84 h=224',
      'DEV_MEM/*/HCCL #f28e2b x=170.4 y=79.6 h=4.4',
    ]);
    // Responsive: a viewBox and a width of 100%, no fixed pixel width.
    expect(
      chart.svg.startsWith(
        '<svg class="device-stacks" viewBox="0 0 244 364" style="width:100%;max-width:244px;height:auto"',
      ),
    ).toBe(true);
    // 280 px for 25 GiB: 2 GiB is 22.4 px, 20 GiB 224 px, 16 GiB capacity at y = 308 − 179.2.
    expect(chart.svg).toContain('<text x="76" y="89" text-anchor="end" font-size="14" fill="#444">20 GiB</text>');
    expect(chart.svg).toContain('>20.4 GiB</text>');
    expect(chart.svg.match(/<line class="capacity" [^>]*y1="128.8"[^>]*stroke="#b3261e"/g)).toHaveLength(2);
    // The baseline's sum (2 GiB + 400 MiB) as a dashed tick on both devices; dev1 labelled as failing.
    expect(chart.svg.match(/<line class="baseline" [^>]*y1="281.2"[^>]*stroke-dasharray="4 3">/g)).toHaveLength(2);
    expect(chart.svg).toContain('font-weight="bold" fill="#b3261e">dev1 ✗</text>');
    expect(chart.svg).toContain('fill="#222">dev0</text>');
    expect(chart.legend).toEqual([
      { label: 'DEV_MEM/*/APP', color: '#4e79a7', kind: 'module' },
      { label: 'DEV_MEM/*/HCCL', color: '#f28e2b', kind: 'module' },
      { label: 'DEV_MEM/*/GE', color: '#e15759', kind: 'module' },
      { label: "baseline (dashed): sum of the device's module peaks", color: '#1f1f1f', kind: 'baseline' },
      { label: 'device capacity', color: '#b3261e', kind: 'capacity' },
    ]);
  });

  it('gives one module name one colour across attributes, with a legend that names both', () => {
    const entries = ['DEV_MEM', 'MEM_DEV_SMALL_HBM'].flatMap((attr) =>
      ['APP', 'RUNTIME'].map((m) => entry({ key: `${attr}/dev0/${m}`, baseline: GiB, current: GiB })),
    );
    const chart = renderDeviceStacksSvg(devicePeaks(entries));
    expect(chart?.legend.filter((l) => l.kind === 'module')).toEqual([
      { label: 'APP (DEV_MEM/*/APP, MEM_DEV_SMALL_HBM/*/APP)', color: '#4e79a7', kind: 'module' },
      { label: 'RUNTIME (DEV_MEM/*/RUNTIME, MEM_DEV_SMALL_HBM/*/RUNTIME)', color: '#f28e2b', kind: 'module' },
    ]);
    expect(segmentsOf(chart?.svg ?? '').map((s) => s.split(' x=')[0])).toEqual([
      'DEV_MEM/*/APP #4e79a7',
      'MEM_DEV_SMALL_HBM/*/APP #4e79a7',
      'DEV_MEM/*/RUNTIME #f28e2b',
      'MEM_DEV_SMALL_HBM/*/RUNTIME #f28e2b',
    ]);
  });

  it('gives nine module names their own colour and the rest grey, each block still its own with a tooltip', () => {
    const entries = Array.from({ length: 12 }, (_, i) =>
      entry({
        key: `DEV_MEM/dev0/M${i}`,
        baseline: null,
        current: (20 - i) * MiB,
        delta: null,
        percent: null,
        status: 'new',
        severity: 'warn',
      }),
    );
    const chart = renderDeviceStacksSvg(devicePeaks(entries));
    expect(chart?.legend.map((l) => `${l.label} ${l.color}`)).toEqual([
      ...MODULE_COLORS.slice(0, 8).map((color, i) => `DEV_MEM/*/M${i} ${color}`),
      `4 other modules ${OTHER_MODULES_COLOR}`,
    ]);
    expect(chart?.svg).toContain('fill="#bab0ac"><title>dev0 · DEV_MEM/*/M11: 9.0 MiB (new)</title></rect>');
    expect(chart?.svg).not.toContain('class="baseline"');
    expect(renderDeviceStacksSvg(devicePeaks(entries.slice(0, 9)))?.legend.map((l) => l.color)).toEqual([
      ...MODULE_COLORS,
    ]);
  });

  it('draws every device up to 64; above, the failing devices and the most changed, 32 bars', () => {
    const many = (n: number): Entry[] =>
      Array.from({ length: n }, (_, d) =>
        entry({
          key: `DEV_MEM/dev${d}/APP`,
          baseline: GiB,
          current: GiB + d * MiB,
          delta: d * MiB,
          status: d === 7 ? 'regressed' : 'pass',
          severity: d === 7 ? 'fail' : 'ok',
        }),
      );
    expect(renderDeviceStacksSvg(devicePeaks(many(64)))?.drawn).toBe(64);
    const chart = renderDeviceStacksSvg(devicePeaks(many(4096)), { failingDevices: new Set(['dev7']) });
    expect([chart?.drawn, chart?.total]).toEqual([32, 4096]);
    const labels = [...(chart?.svg ?? '').matchAll(/data-device="(dev\d+)"/g)].map((m) => m[1]);
    expect(labels).toEqual(['dev7', ...Array.from({ length: 31 }, (_, i) => `dev${4065 + i}`)]);
  });

  it('draws a module missing from this run only in the baseline tick', () => {
    const gone = entry({
      key: 'DEV_MEM/dev0/DVPP',
      baseline: 3 * GiB,
      current: null,
      delta: null,
      percent: null,
      status: 'missing',
      severity: 'warn',
    });
    const app = entry({ key: 'DEV_MEM/dev0/APP', baseline: GiB, current: GiB });
    const chart = renderDeviceStacksSvg(devicePeaks([gone, app]));
    expect(chart?.legend.map((l) => l.label)).toEqual([
      'DEV_MEM/*/APP',
      "baseline (dashed): sum of the device's module peaks",
    ]);
    expect(chart?.svg).toContain('<title>dev0 · baseline, sum of module peaks: 4.0 GiB</title>');
  });

  it('is null without a device, and escapes hostile module names in attributes and tooltips', () => {
    expect(renderDeviceStacksSvg(devicePeaks([entry({ key: 'SVM_MEM/RUNTIME' })]))).toBeNull();
    const hostile = `"><img src=x onerror="document.title='pwned'"></svg><script>alert(1)</script>`;
    const chart = renderDeviceStacksSvg(
      devicePeaks([entry({ key: `DEV_MEM/dev0/${hostile}`, baseline: GiB, current: 2 * GiB, delta: GiB })]),
    );
    const svg = chart?.svg ?? '';
    expect(svg).not.toContain('<img');
    expect(svg).not.toContain('<script');
    expect(svg.match(/<\/svg>/g)).toHaveLength(1);
    expect(svg).toContain(
      'data-module="DEV_MEM/*/&quot;&gt;&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;"',
    );
    // The legend keeps the raw name: the HTML renderer escapes it.
    expect(chart?.legend[0]?.label).toBe(`DEV_MEM/*/${hostile}`);
  });
});

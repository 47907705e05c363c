// The gate report as ONE self-contained HTML file (inline CSS and SVG, a CSP that forbids everything else): groups and top-N, readable from 400 px up; the JSON report holds every entry.
import type { Entry, GateReport } from '../gate/types.js';
import type { Snapshot } from '../model/snapshot.js';
import { formatBytes, formatCount, formatDelta } from '../model/units.js';
import { devicePeaks, renderDeviceStacksSvg, type LegendItem } from './chart.js';
import { figureCell, type DeviceTable } from './device-table.js';
import { entryReason, formatChange, formatShortPercent, formatTransition, keepUnits } from './entry-values.js';
import { shortenName } from '../common/names.js';
import { replaceControlCharacters } from '../common/visible.js';
import { escapeHtml } from './escape.js';
import { htmlPage } from './html-page.js';
import { contextHtml } from './run-context.js';
import {
  deviceOfEntry,
  devicesPhrase,
  isRollUp,
  kindTitle,
  medianGrowth,
  medianPercent,
  worstOf,
  valueRange,
  type EntryGroup,
} from './groups.js';
import { countByStatus, plural, titledVerdict } from './partition.js';
import { traceTimelinesHtml } from './trace-timeline.js';
import { baselineCommand, type ReportView, type RowView, type Trends } from './view.js';
import type { RunChange } from './history-view.js';
import { renderTrendSvg } from './trend-chart.js';
import { stepContext, stepLevels, trendRange } from './trend-text.js';

export interface HtmlOptions {
  /** Subject of the verdict: "<title> failed: …". Default "Memory gate". */
  title?: string;
  /** Shown as given under the verdict, e.g. an ISO date. Default: none, so the same report gives the same bytes. */
  generatedAt?: string;
  /** The baseline file, named in a first run's how-to. */
  baselineFile?: string;
  /** The run's timelines (the snapshot's `series`): allocator traces are drawn per device. */
  series?: Snapshot['series'];
}

/** Trend charts drawn, failing rows first: the JSON report and `history html` have the rest. */
const TREND_CHARTS = 12;

export { HTML_CSP } from './html-page.js';

/** Symbols every common font has: colour emoji fonts are often missing (CI machines, print servers). */
const SEVERITY_ICON: Record<string, string> = { fail: '✗', warn: '⚠', ok: '✓' };
const OUTCOME_ICON: Record<ReportView['outcome'], string> = { fail: '✗', first: '⚠', pass: '✓' };

/** Devices listed under a rolled-up row; rows of the collapsed lists. The JSON report has the rest. */
const DEVICES_PER_GROUP = 20;
const COLLAPSED_ROWS = 500;

const STYLE = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; color: #1f2328; background: #fff; margin: 0; }
main { max-width: 1160px; margin: 0 auto; padding: 16px 12px 40px; }
h1 { font-size: 22px; margin: 8px 0 12px; overflow-wrap: anywhere; }
h1.fail { color: #b3261e; }
h1.pass { color: #1a7f37; }
h1.first { color: #9a6700; }
h2 { font-size: 17px; margin: 24px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
.generated { color: #59636e; margin: -8px 0 12px; }
ul.verdicts { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 6px 8px; }
ul.verdicts li { border: 1px solid #d0d7de; border-radius: 12px; padding: 1px 10px; }
ul.verdicts li.fail { border-color: #e5534b; background: #ffebe9; }
ul.verdicts li.warn { border-color: #d4a72c; background: #fff8c5; }
ul.verdicts li.ok { border-color: #4ac26b; background: #dafbe1; }
figure { margin: 0; }
.chart svg { display: block; }
figure.chart { margin: 0 0 14px; }

.chart .segment:hover, .chart .segment:focus { stroke: #000; stroke-width: 2; outline: none; }
figure.trend { margin: 12px 0; max-width: 760px; }
figure.trend figcaption { margin-bottom: 4px; overflow-wrap: anywhere; }
svg.trend .axis { font-size: 13px; fill: #59636e; }
svg.trend .point:hover, svg.trend a:focus .point { stroke: #000; stroke-width: 2; }
ul.legend { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
ul.legend li { display: flex; align-items: center; gap: 6px; }
ul.legend svg { flex: none; }
.note { color: #59636e; font-size: 12px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.status { white-space: nowrap; }
.key code { white-space: normal; word-break: keep-all; overflow-wrap: normal; }
.key .seg { white-space: nowrap; }
td.why { font-size: 12px; color: #3d444d; min-width: 12em; overflow-wrap: anywhere; }
figcaption.note { overflow-wrap: anywhere; }
tr.fail td.status { color: #b3261e; font-weight: 600; }
tr.warn td.status { color: #9a6700; font-weight: 600; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
details summary { cursor: pointer; margin: 6px 0; }
details.list summary { font-weight: 600; margin: 12px 0 6px; }
/* Below this, a figure may wrap at its arrow or before its percentage (never inside "34.6 GiB") rather than widen the page. */
@media (max-width: 960px) { td.num { white-space: normal; } }
@media (max-width: 640px) {
  table.entries, table.entries tbody, table.entries tr, table.entries td { display: block; width: auto; }
  table.entries thead { display: none; }
  table.entries tr { border: 1px solid #d0d7de; margin: 0 0 8px; padding: 4px 0; }
  table.entries td { border: none; padding: 1px 8px; text-align: left; white-space: normal; }
  table.entries td[data-label]::before { content: attr(data-label) ": "; color: #59636e; }
}
`;

/** Formats the check's view as a complete HTML document. Deterministic: the same report and options give the same string. */
export function renderHtml(view: ReportView, options: HtmlOptions = {}): string {
  const { report, firstRun, recorded, problems } = view;
  const verdict = titledVerdict(view.verdict, options.title ?? 'Memory gate');
  const icon = OUTCOME_ICON[view.outcome];

  const body: string[] = [];
  body.push(`<h1 class="verdict ${view.outcome}">${icon} ${text(verdict)}</h1>`);
  if (options.generatedAt !== undefined) body.push(`<p class="generated">Generated ${text(options.generatedAt)}</p>`);
  body.push(...contextHtml(view.context));
  if (firstRun) {
    const file = text(options.baselineFile ?? 'memory-baseline.json');
    body.push(
      `<p>Nothing was compared: there is no baseline yet. Commit one: run the workflow with <code>mode: update</code> and merge its pull request, or run <code>${baselineCommand(file)}</code> with the input flags of the check and commit <code>${file}</code>.</p>`,
    );
  }

  const verdicts = verdictCounts(report.entries);
  if (verdicts.length > 0) {
    body.push('<section id="verdicts">', '<h2>Verdicts</h2>', '<ul class="verdicts">');
    for (const { severity, status, count } of verdicts) {
      body.push(
        `<li class="${severity}">${SEVERITY_ICON[severity] ?? ''} ${text(`${formatCount(count)} ${status}`)}</li>`,
      );
    }
    body.push('</ul>', '</section>');
  }

  if (problems.length > 0) {
    const groups = view.problemRows.map((r) => r.group);
    body.push(
      '<section id="problems">',
      `<h2>Failing and warning keys (${formatCount(problems.length)})</h2>`,
      entryTable(groups),
      '</section>',
    );
  }
  if (view.trends !== undefined) {
    body.push(...trendSection([...view.problemRows, ...view.improvementRows], view.trends, view.runChanges));
  }
  body.push(...deviceSection(report));
  body.push(...totalsSection(view.devices));
  body.push(...traceTimelinesHtml(options.series, report.entries));
  if (view.improvements.length > 0) {
    body.push(
      '<section id="improvements">',
      `<h2>Improvements (${formatCount(view.improvements.length)})</h2>`,
      entryTable(view.groups(view.improvements)),
      '</section>',
    );
  }
  if (recorded.length > 0)
    body.push(
      ...collapsed(
        'recorded',
        `${plural(recorded.length, 'key')} recorded (no baseline to compare with)`,
        view.groups(recorded),
      ),
    );
  if (view.unchanged.length > 0) {
    body.push(
      ...collapsed(
        'unchanged',
        `${plural(view.unchanged.length, 'key')} within thresholds`,
        view.groups(view.unchanged),
      ),
    );
  }

  return htmlPage(`${icon} ${text(verdict)}`, STYLE, body);
}

/** A chart per changed key (or key group) the history has: its runs on the default branch, the baseline, where it stepped. */
function trendSection(rows: readonly RowView[], trends: Trends, changes: readonly RunChange[]): string[] {
  const charts: string[] = [];
  let more = 0;
  for (const { group, trend: t } of rows) {
    if (t === null) continue;
    const { subject, trend, unit } = t;
    if (charts.length >= TREND_CHARTS) {
      more++;
      continue;
    }
    const baselines = group.entries.map((e) => e.baseline).filter((b): b is number => b !== null);
    const baseline =
      baselines.length === 0 ? undefined : trend.of === 'largest' ? Math.max(...baselines) : baselines[0];
    const svg = renderTrendSvg({
      trend,
      points: trends.points,
      changes,
      unit,
      commitUrl: trends.commitUrl,
      baseline,
      label: shortenName(subject),
    });
    const s = t.step;
    const context = s === null ? null : stepContext(s.step);
    const commit =
      s === null
        ? ''
        : s.url === undefined
          ? `<code>${text(s.sha)}</code>`
          : `<a href="${text(s.url)}"><code>${text(s.sha)}</code></a>`;
    const note =
      s === null
        ? `${text(trendRange(trend, unit))} over ${text(plural(trend.values.length, 'run'))}`
        : `${text(stepLevels(s.step, unit))} since ${commit} (${text(s.ago)})${context === null ? '' : `; ${text(context)}`}`;
    charts.push(
      `<figure class="trend"><figcaption>${keyHtml(subject)}${trend.of === 'largest' ? ' <span class="note">(largest device)</span>' : ''}: ${note}</figcaption>\n<div class="chart">${svg}</div></figure>`,
    );
  }
  if (charts.length === 0) return [];
  const branch = trends.branch === undefined ? 'the default branch' : `<code>${text(trends.branch)}</code>`;
  return [
    '<section id="trends">',
    `<h2>Trends on ${branch}</h2>`,
    `<p class="note">Each run of ${branch} as a point (hover for its commit, run and value; a point links to its commit); the dashed grey line is the baseline; purple dashes mark a baseline update, orange dots an environment change; a red point is the first run of a new level.</p>`,
    ...charts,
    ...(more > 0
      ? [
          `<p class="note">…and ${text(plural(more, 'more chart'))}: <code>ascend-memory-gate history html</code> draws every key.</p>`,
        ]
      : []),
    '</section>',
  ];
}

/** A name from a file as HTML text: invisible characters shown, the five specials escaped. */
/** A figure cell's text: escaped, each number kept with its unit. */
function figure(value: string): string {
  return keepUnits(text(value));
}

function text(value: string): string {
  return escapeHtml(replaceControlCharacters(value));
}

/** A key that wraps only after a `/`: each segment is unbreakable, a <wbr> follows each slash. */
function keyHtml(key: string): string {
  const segments = shortenName(key).split('/');
  return `<code>${segments.map((s, i) => `<span class="seg">${text(i < segments.length - 1 ? `${s}/` : s)}</span>`).join('<wbr>')}</code>`;
}

function severityClass(severity: string): 'fail' | 'warn' | 'ok' {
  return severity === 'fail' || severity === 'ok' ? severity : 'warn';
}

/** Counts per severity and status: failing first, then warnings, then the rest, each in the report's status order. */
function verdictCounts(
  entries: readonly Entry[],
): { severity: 'fail' | 'warn' | 'ok'; status: string; count: number }[] {
  const out: { severity: 'fail' | 'warn' | 'ok'; status: string; count: number }[] = [];
  for (const severity of ['fail', 'warn', 'ok'] as const) {
    const group = entries.filter((e) => severityClass(e.severity) === severity);
    for (const [status, count] of countByStatus(group)) out.push({ severity, status, count });
  }
  return out;
}

function deviceSection(report: GateReport): string[] {
  const failingDevices = new Set<string>();
  const capacities = new Map<string, number>();
  for (const entry of report.entries) {
    const device = deviceOfEntry(entry);
    if (device === null) continue;
    if (entry.severity === 'fail') failingDevices.add(device);
    if (entry.capacity !== undefined) capacities.set(device, entry.capacity);
  }
  const peaks = devicePeaks(report.entries);
  const chart = renderDeviceStacksSvg(peaks, { failingDevices, capacities });
  if (chart === null) return [];
  const scope =
    chart.drawn < chart.total
      ? `${formatCount(chart.drawn)} of ${formatCount(chart.total)} devices: those with a failing verdict, then those that changed most. `
      : 'One bar per device. ';
  return [
    '<section id="devices">',
    '<h2>Module peaks per device</h2>',
    '<figure>',
    `<div class="chart">\n${chart.svg}\n</div>`,
    `<figcaption>\n${legendList(chart.legend)}\n<p class="note">${scope}This run, stacked by module peak (largest at the bottom); hover or tab to a block for its values. ` +
      'The sum of module peaks is an upper bound of the device peak: modules and memory attributes peak at different times, and attributes overlap ' +
      '(DEV_PROC_MEM is a process total). Keys without a <code>devN</code> segment (host, SVM) are not drawn. Devices in red have a failing verdict.</p>\n</figcaption>',
    '</figure>',
    ...(chart.drawn < chart.total ? [distribution(peaks.devices, peaks)] : []),
    '</section>',
  ];
}

/** Min, median and max of the device totals over every device, baseline and this run. */
function distribution(devices: readonly string[], peaks: ReturnType<typeof devicePeaks>): string {
  const totals = (pick: 'baseline' | 'current'): number[] =>
    devices
      .map((d) => peaks.modules.reduce((sum, series) => sum + (series.byDevice.get(d)?.[pick] ?? 0), 0))
      .sort((a, b) => a - b);
  const stats = (values: number[]): string => {
    const mid = Math.floor(values.length / 2);
    const median =
      values.length % 2 === 1 ? (values[mid] as number) : ((values[mid - 1] as number) + (values[mid] as number)) / 2;
    return [values[0] ?? 0, median, values[values.length - 1] ?? 0]
      .map((v) => `<td class="num">${figure(formatBytes(Math.round(v)))}</td>`)
      .join('');
  };
  return [
    `<table class="distribution"><caption class="note">Sum of module peaks over all ${formatCount(devices.length)} devices</caption>`,
    '<thead><tr><th></th><th>min</th><th>median</th><th>max</th></tr></thead>',
    `<tbody><tr><th>baseline</th>${stats(totals('baseline'))}</tr><tr><th>this run</th>${stats(totals('current'))}</tr></tbody>`,
    '</table>',
  ].join('\n');
}

function totalsSection(devices: DeviceTable | null): string[] {
  if (devices === null) return [];
  const hasCapacity = devices.rows.some((r) => r.capacity !== null);
  const [first, ...others] = devices.kinds;
  const header = ['Device'];
  if (first !== undefined) header.push(`${kindTitle(first)}: baseline → current`, 'Δ');
  if (hasCapacity) header.push('Capacity', 'Headroom');
  for (const kind of others) header.push(`${kindTitle(kind)} Δ`);
  for (const column of devices.figureColumns)
    header.push(column.gap === undefined ? `${column.title}: baseline → current` : column.title);
  const rows = devices.rows.map((r) => {
    const cells = [`<td data-label="Device">${r.flagged ? '⚠ ' : ''}<code>${text(r.device)}</code></td>`];
    const sum = first === undefined ? undefined : r.sums.get(first);
    if (first !== undefined) {
      cells.push(
        `<td class="num" data-label="${text(header[1] ?? '')}">${sum === undefined ? '—' : figure(`${formatBytes(sum.baseline)} → ${formatBytes(sum.current)}`)}</td>`,
        `<td class="num" data-label="Δ">${sum === undefined ? '—' : figure(formatDelta(sum.current - sum.baseline))}</td>`,
      );
    }
    if (hasCapacity) {
      cells.push(
        `<td class="num" data-label="Capacity">${r.capacity === null ? '—' : figure(formatBytes(r.capacity))}</td>`,
        `<td class="num" data-label="Headroom">${r.headroom === null ? '—' : figure(formatBytes(r.headroom))}</td>`,
      );
    }
    for (const kind of others) {
      const s = r.sums.get(kind);
      cells.push(
        `<td class="num" data-label="${text(`${kindTitle(kind)} Δ`)}">${s === undefined ? '—' : figure(formatDelta(s.current - s.baseline))}</td>`,
      );
    }
    for (const column of devices.figureColumns)
      cells.push(`<td class="num" data-label="${text(column.title)}">${figure(figureCell(r, column))}</td>`);
    return `<tr>${cells.join('')}</tr>`;
  });
  return [
    '<section id="totals">',
    '<h2>Per-device totals</h2>',
    `<table class="entries"><thead><tr>${header.map((h) => `<th>${text(h)}</th>`).join('')}</tr></thead><tbody>`,
    ...rows,
    '</tbody></table>',
    ...(devices.rest === null ? [] : [`<p class="note">${text(devices.rest)}</p>`]),
    ...devices.figureNotes.map((note) => `<p class="note">${text(note)}</p>`),
    '</section>',
  ];
}

function legendList(items: readonly LegendItem[]): string {
  const lines = ['<ul class="legend">'];
  for (const item of items) {
    const swatch =
      item.kind === 'baseline'
        ? `<line x1="0" y1="7" x2="14" y2="7" stroke="${item.color}" stroke-width="2" stroke-dasharray="4 3"/>`
        : item.kind === 'capacity'
          ? `<line x1="0" y1="7" x2="14" y2="7" stroke="${item.color}" stroke-width="3"/>`
          : `<rect x="0" y="0" width="14" height="14" fill="${item.color}"/>`;
    const label = item.kind === 'module' ? `<code>${text(item.label)}</code>` : text(item.label);
    lines.push(
      `<li class="${item.kind}"><svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">${swatch}</svg>${label}</li>`,
    );
  }
  lines.push('</ul>');
  return lines.join('\n');
}

const TABLE_HEAD =
  '<thead><tr><th>Status</th><th>Key</th><th>Baseline → current</th><th>Δ (Δ%)</th><th>Why</th></tr></thead>';

/** One row per group; a rolled-up row lists its devices (largest change first) in a <details>. */
function entryTable(groups: readonly EntryGroup[]): string {
  return ['<table class="entries">', TABLE_HEAD, '<tbody>', ...groups.map(groupRow), '</tbody>', '</table>'].join('\n');
}

function groupRow(group: EntryGroup): string {
  const worst = worstOf(group);
  const severity = severityClass(group.severity);
  const status = `<td class="status" data-label="Status">${SEVERITY_ICON[severity] ?? ''} ${text(group.status)}</td>`;
  const why = `<td class="why" data-label="Why">${whyHtml(worst, isRollUp(group))}</td>`;
  if (!isRollUp(group)) {
    return `<tr class="${severity}">${status}<td class="key" data-label="Key">${keyHtml(worst.key)}</td>${valueCells(worst)}${why}</tr>`;
  }
  const percent = medianPercent(group);
  const median = `median ${formatDelta(medianGrowth(group))}${percent === null ? '' : ` (${formatShortPercent(percent)})`}`;
  const shown = group.entries.slice(0, DEVICES_PER_GROUP);
  const more = group.entries.length - shown.length;
  const list = shown
    .map(
      (e) =>
        `<li><code>${text(deviceOfEntry(e) ?? shortenName(e.key))}</code> ${text(formatTransition(e))} (${text(formatChange(e))})</li>`,
    )
    .join('');
  const key =
    `<td class="key" data-label="Key">${keyHtml(group.pattern)}<br>${text(devicesPhrase(group))}, worst <code>${text(deviceOfEntry(worst) ?? '')}</code>` +
    `<details><summary>devices</summary><ol>${list}</ol>${more > 0 ? `<p class="note">…and ${text(plural(more, 'more device'))}: see the JSON report</p>` : ''}</details></td>`;
  return `<tr class="${severity}">${status}${key}${valueCells(worst, median)}${why}</tr>`;
}

function valueCells(entry: Entry, median?: string): string {
  return (
    `<td class="num" data-label="Baseline → current">${figure(formatTransition(entry))}</td>` +
    `<td class="num" data-label="Δ (Δ%)">${figure(formatChange(entry))}${median === undefined ? '' : `<br>${figure(median)}`}</td>`
  );
}

function whyHtml(entry: Entry, rolledUp: boolean): string {
  const { rule, note } = entryReason(entry);
  const parts: string[] = [];
  if (rule !== null) parts.push(`rule <code>${text(rule)}</code>`);
  if (note !== null) parts.push(`${rolledUp ? 'worst device: ' : ''}${text(note)}`);
  return parts.length === 0 ? text(defaultReason(entry)) : parts.join('; ');
}

/** What decided an entry no rule or note explains: the tolerance for a compared value, the policy for a key on one side only. */
function defaultReason(entry: Entry): string {
  const policy = entry.severity === 'ok' ? 'ignore' : entry.severity;
  if (entry.status === 'new') return `not in the baseline (onNew: ${policy})`;
  if (entry.status === 'missing') return `not in this run (onMissing: ${policy})`;
  return entry.status === 'regressed' || entry.status === 'improved' || entry.status === 'pass'
    ? 'default tolerance'
    : entry.status;
}

function collapsed(id: string, summary: string, groups: readonly EntryGroup[]): string[] {
  const shown = groups.slice(0, COLLAPSED_ROWS);
  const rows = shown.map((g) => {
    const worst = worstOf(g);
    const severity = severityClass(g.severity);
    const key = isRollUp(g) ? `${keyHtml(g.pattern)} (${text(devicesPhrase(g))})` : keyHtml(worst.key);
    const value = isRollUp(g) ? valueRange(g) : formatTransition(worst);
    return `<tr class="${severity}"><td class="status" data-label="Status">${SEVERITY_ICON[severity] ?? ''} ${text(g.status)}</td><td class="key" data-label="Key">${key}</td><td class="num" data-label="Value">${figure(value)}</td></tr>`;
  });
  const more = groups.length - shown.length;
  return [
    `<section id="${id}">`,
    '<details class="list">',
    `<summary>${text(summary)}</summary>`,
    '<table class="entries"><thead><tr><th>Status</th><th>Key</th><th>Value</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
    ...(more > 0 ? [`<p class="note">…${text(plural(more, 'more row'))}: the JSON report has every key.</p>`] : []),
    '</details>',
    '</section>',
  ];
}

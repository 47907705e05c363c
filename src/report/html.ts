// The gate report as ONE self-contained HTML file (inline CSS and SVG, a CSP that forbids everything else), for an artifact.
import type { Entry, GateReport } from '../gate/types.js';
import { formatPercent } from '../units.js';
import { devicePeaks, renderDeviceStacksSvg, type LegendItem } from './chart.js';
import { entryNote, formatEntryDelta, formatEntryValue, isCountEntry } from './entry-values.js';
import { escapeHtml, replaceControlCharacters } from './escape.js';
import { contextHtml } from './run-context.js';
import { countByStatus, deviceOf, formatCount, plural, splitSections, statusLabel, verdictText } from './sections.js';

export interface HtmlOptions {
  /** Subject of the verdict: "<title> failed: …". Default "Memory gate". */
  title?: string;
  /** Shown as given under the verdict, e.g. an ISO date. Default: none, so the same report gives the same bytes. */
  generatedAt?: string;
}

/** Nothing may load or run: no script, no network, no font or stylesheet file; inline styles and data: images only. */
export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** Symbols every common font has: colour emoji fonts are often missing (CI machines, print servers). */
const SEVERITY_ICON: Record<string, string> = { fail: '✗', warn: '⚠', ok: '✓' };

const STYLE = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; color: #1f2328; background: #fff; margin: 0; }
main { max-width: 1160px; margin: 0 auto; padding: 16px 20px 40px; }
h1 { font-size: 22px; margin: 8px 0 12px; }
h1.fail { color: #b3261e; }
h1.pass { color: #1a7f37; }
h2 { font-size: 17px; margin: 24px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
.generated { color: #59636e; margin: -8px 0 12px; }
ul.verdicts { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 6px 8px; }
ul.verdicts li { border: 1px solid #d0d7de; border-radius: 12px; padding: 1px 10px; }
ul.verdicts li.fail { border-color: #e5534b; background: #ffebe9; }
ul.verdicts li.warn { border-color: #d4a72c; background: #fff8c5; }
ul.verdicts li.ok { border-color: #4ac26b; background: #dafbe1; }
figure { margin: 0; }
.chart { overflow-x: auto; }
ul.legend { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
ul.legend li { display: flex; align-items: center; gap: 6px; }
ul.legend svg { flex: none; }
.note { color: #59636e; font-size: 12px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.key code { word-break: break-all; }
tr.fail td.status { color: #b3261e; font-weight: 600; }
tr.warn td.status { color: #9a6700; font-weight: 600; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
details summary { cursor: pointer; margin: 12px 0 6px; font-weight: 600; }
`;

/** Renders the report as a complete HTML document. Deterministic: the same report and options give the same string. */
export function renderHtml(report: GateReport, options: HtmlOptions = {}): string {
  const verdict = verdictText(report, options.title ?? 'Memory gate');
  const icon = report.result === 'fail' ? '✗' : '✓';
  const { problems, improvements, unchanged } = splitSections(report);
  const columns = tableColumns(report.entries);

  const body: string[] = [];
  body.push(`<h1 class="verdict ${report.result === 'fail' ? 'fail' : 'pass'}">${icon} ${text(verdict)}</h1>`);
  if (options.generatedAt !== undefined) body.push(`<p class="generated">Generated ${text(options.generatedAt)}</p>`);
  body.push(...contextHtml(report));

  const verdicts = verdictCounts(report.entries);
  if (verdicts.length > 0) {
    body.push('<section id="verdicts">', '<h2>Verdicts</h2>', '<ul class="verdicts">');
    for (const { severity, status, count } of verdicts) {
      body.push(`<li class="${severity}">${SEVERITY_ICON[severity] ?? ''} ${text(`${formatCount(count)} ${statusLabel(status)}`)}</li>`);
    }
    body.push('</ul>', '</section>');
  }

  body.push(...deviceSection(report));

  if (problems.length > 0) {
    body.push(`<section id="problems">`, `<h2>Failing and warning keys (${formatCount(problems.length)})</h2>`, entryTable(problems, columns), '</section>');
  }
  if (improvements.length > 0) {
    body.push(`<section id="improvements">`, `<h2>Improvements (${formatCount(improvements.length)})</h2>`, entryTable(improvements, columns), '</section>');
  }
  if (unchanged.length > 0) {
    body.push(
      '<section id="unchanged">',
      '<details>',
      `<summary>${text(plural(unchanged.length, 'key'))} within thresholds</summary>`,
      entryTable(unchanged, columns),
      '</details>',
      '</section>',
    );
  }

  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // A constant without `"` or `<`: safe in a double-quoted attribute as it is.
    `<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${icon} ${text(verdict)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A name from a file as HTML text: invisible characters shown, the five specials escaped. */
function text(value: string): string {
  return escapeHtml(replaceControlCharacters(value));
}

function severityClass(severity: string): 'fail' | 'warn' | 'ok' {
  return severity === 'fail' || severity === 'ok' ? severity : 'warn';
}

/** Counts per severity and status: failing first, then warnings, then the rest, each in the report's status order. */
function verdictCounts(entries: readonly Entry[]): { severity: 'fail' | 'warn' | 'ok'; status: string; count: number }[] {
  const out: { severity: 'fail' | 'warn' | 'ok'; status: string; count: number }[] = [];
  for (const severity of ['fail', 'warn', 'ok'] as const) {
    const group = entries.filter((e) => severityClass(e.severity) === severity);
    for (const [status, count] of countByStatus(group)) out.push({ severity, status, count });
  }
  return out;
}

function deviceSection(report: GateReport): string[] {
  const failingDevices = new Set<string>();
  for (const entry of report.entries) {
    const device = entry.severity === 'fail' ? deviceOf(entry.key) : null;
    if (device !== null) failingDevices.add(device);
  }
  const chart = renderDeviceStacksSvg(devicePeaks(report.entries), failingDevices);
  if (chart === null) return [];
  return [
    '<section id="devices">',
    '<h2>Module peaks per device</h2>',
    '<figure>',
    `<div class="chart">\n${chart.svg}\n</div>`,
    `<figcaption>\n${legendList(chart.legend)}\n<p class="note">One bar per device, this run, stacked by module peak (largest at the bottom); hover a block for its values. ` +
      'The sum of module peaks is an upper bound of the device peak: modules and memory attributes peak at different times, and attributes overlap ' +
      '(DEV_PROC_MEM is a process total). Keys without a <code>devN</code> segment (host, SVM) are not drawn. Devices in red have a failing verdict.</p>\n</figcaption>',
    '</figure>',
    '</section>',
  ];
}

function legendList(items: readonly LegendItem[]): string {
  const lines = ['<ul class="legend">'];
  for (const item of items) {
    const swatch =
      item.kind === 'baseline'
        ? `<rect x="1" y="1" width="12" height="12" fill="none" stroke="${item.color}" stroke-width="2" stroke-dasharray="4 2"/>`
        : `<rect x="0" y="0" width="14" height="14" fill="${item.color}"/>`;
    const label = item.kind === 'module' ? `<code>${text(item.label)}</code>` : text(item.label);
    lines.push(`<li class="${item.kind}"><svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">${swatch}</svg>${label}</li>`);
  }
  lines.push('</ul>');
  return lines.join('\n');
}

interface Columns {
  limit: boolean;
  note: boolean;
}

/** Limit and Note columns only when some entry carries them (device findings do; plain verdicts do not). */
function tableColumns(entries: readonly Entry[]): Columns {
  return {
    limit: entries.some((e) => entryLimit(e) !== null),
    note: entries.some((e) => entryNote(e) !== null),
  };
}

function entryLimit(entry: Entry): number | null {
  return entry.limit ?? null;
}

function entryTable(entries: readonly Entry[], columns: Columns): string {
  const header = ['Status', 'Kind', 'Key', 'Baseline', 'Current', 'Δ', 'Δ%'];
  if (columns.limit) header.push('Limit');
  header.push('Rule');
  if (columns.note) header.push('Note');
  const rows = entries.map((entry) => entryRow(entry, columns));
  return ['<table>', `<thead><tr>${header.map((h) => `<th>${h}</th>`).join('')}</tr></thead>`, '<tbody>', ...rows, '</tbody>', '</table>'].join('\n');
}

function entryRow(entry: Entry, columns: Columns): string {
  const severity = severityClass(entry.severity);
  const unit = isCountEntry(entry) ? '' : ' bytes';
  const value = (n: number | null): string =>
    n === null ? '<td class="num">—</td>' : `<td class="num" title="${n}${unit}">${text(formatEntryValue(entry, n))}</td>`;
  const cells = [
    `<td class="status">${SEVERITY_ICON[severity] ?? ''} ${text(statusLabel(entry.status))}</td>`,
    `<td>${text(entry.kind)}</td>`,
    `<td class="key"><code>${text(entry.key)}</code></td>`,
    value(entry.baseline),
    value(entry.current),
    entry.delta === null ? '<td class="num">—</td>' : `<td class="num" title="${entry.delta}${unit}">${text(formatEntryDelta(entry, entry.delta))}</td>`,
    `<td class="num">${entry.percent === null ? '—' : text(formatPercent(entry.percent))}</td>`,
  ];
  if (columns.limit) cells.push(value(entryLimit(entry)));
  cells.push(entry.rule === null ? '<td>default</td>' : `<td><code>${text(entry.rule)}</code></td>`);
  if (columns.note) cells.push(`<td>${text(entryNote(entry) ?? '')}</td>`);
  return `<tr class="${severity}">${cells.join('')}</tr>`;
}

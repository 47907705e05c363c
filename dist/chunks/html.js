import { f as formatCount, a as formatBytes, b as formatDelta } from './units.js';
import { d as devicePeaks, r as renderDeviceStacksSvg, a as deviceTable } from './device-table.js';
import { v as verdictText, i as isFirstRun, s as splitSections, d as devicesPerPattern, c as contextHtml, a as statusLabel, g as groupEntries, p as plural, b as countByStatus, e as deviceOfEntry, k as kindTitle, w as worstOf, f as isRollUp, h as devicesPhrase, j as valueRange, l as formatTransition, m as medianPercent, n as medianGrowth, o as formatShortPercent, q as formatChange, r as entryReason } from './groups.js';
import { r as replaceControlCharacters } from './errors.js';
import { e as escapeHtml } from './escape.js';
import './snapshot.js';
import './series.js';
import './roll-up.js';
import './types.js';
import './environment.js';
import './keys.js';
import 'node:crypto';

const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
const SEVERITY_ICON = { fail: '✗', warn: '⚠', ok: '✓' };
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

.chart .segment:hover, .chart .segment:focus { stroke: #000; stroke-width: 2; outline: none; }
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
td.why { font-size: 12px; color: #3d444d; min-width: 12em; }
tr.fail td.status { color: #b3261e; font-weight: 600; }
tr.warn td.status { color: #9a6700; font-weight: 600; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
details summary { cursor: pointer; margin: 6px 0; }
details.list summary { font-weight: 600; margin: 12px 0 6px; }
@media (max-width: 640px) {
  table.entries, table.entries tbody, table.entries tr, table.entries td { display: block; width: auto; }
  table.entries thead { display: none; }
  table.entries tr { border: 1px solid #d0d7de; margin: 0 0 8px; padding: 4px 0; }
  table.entries td { border: none; padding: 1px 8px; text-align: left; white-space: normal; }
  table.entries td[data-label]::before { content: attr(data-label) ": "; color: #59636e; }
}
`;
function renderHtml(report, options = {}) {
    const verdict = verdictText(report, options.title ?? 'Memory gate');
    const firstRun = isFirstRun(report);
    const icon = report.result === 'fail' ? '✗' : firstRun ? '⚠' : '✓';
    const sections = splitSections(report);
    const recorded = firstRun ? sections.problems.filter((e) => e.status === 'new') : [];
    const problems = firstRun ? sections.problems.filter((e) => e.status !== 'new') : sections.problems;
    const perPattern = devicesPerPattern(report.entries);
    const body = [];
    body.push(`<h1 class="verdict ${report.result === 'fail' ? 'fail' : firstRun ? 'first' : 'pass'}">${icon} ${text(verdict)}</h1>`);
    if (options.generatedAt !== undefined)
        body.push(`<p class="generated">Generated ${text(options.generatedAt)}</p>`);
    body.push(...contextHtml(report));
    if (firstRun) {
        const file = text(options.baselineFile ?? 'memory-baseline.json');
        body.push(`<p>Nothing was compared: there is no baseline yet. Commit one: run the workflow with <code>mode: update</code> and merge its pull request, or run <code>ascend-memory-gate baseline --out ${file} --plog …</code> and commit <code>${file}</code>.</p>`);
    }
    const verdicts = verdictCounts(report.entries);
    if (verdicts.length > 0) {
        body.push('<section id="verdicts">', '<h2>Verdicts</h2>', '<ul class="verdicts">');
        for (const { severity, status, count } of verdicts) {
            body.push(`<li class="${severity}">${SEVERITY_ICON[severity] ?? ''} ${text(`${formatCount(count)} ${statusLabel(status)}`)}</li>`);
        }
        body.push('</ul>', '</section>');
    }
    if (problems.length > 0) {
        const groups = groupEntries(problems, perPattern);
        body.push('<section id="problems">', `<h2>Failing and warning keys (${formatCount(problems.length)})</h2>`, entryTable(groups), '</section>');
    }
    body.push(...deviceSection(report));
    body.push(...totalsSection(report.entries));
    if (sections.improvements.length > 0) {
        body.push('<section id="improvements">', `<h2>Improvements (${formatCount(sections.improvements.length)})</h2>`, entryTable(groupEntries(sections.improvements, perPattern)), '</section>');
    }
    if (recorded.length > 0)
        body.push(...collapsed('recorded', `${plural(recorded.length, 'key')} recorded (no baseline to compare with)`, groupEntries(recorded, perPattern)));
    if (sections.unchanged.length > 0) {
        body.push(...collapsed('unchanged', `${plural(sections.unchanged.length, 'key')} within thresholds`, groupEntries(sections.unchanged, perPattern)));
    }
    return [
        '<!DOCTYPE html>',
        '<html lang="en">',
        '<head>',
        '<meta charset="utf-8">',
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
function text(value) {
    return escapeHtml(replaceControlCharacters(value));
}
function keyHtml(key) {
    const segments = key.split('/');
    return `<code>${segments.map((s, i) => `<span class="seg">${text(i < segments.length - 1 ? `${s}/` : s)}</span>`).join('<wbr>')}</code>`;
}
function severityClass(severity) {
    return severity === 'fail' || severity === 'ok' ? severity : 'warn';
}
function verdictCounts(entries) {
    const out = [];
    for (const severity of ['fail', 'warn', 'ok']) {
        const group = entries.filter((e) => severityClass(e.severity) === severity);
        for (const [status, count] of countByStatus(group))
            out.push({ severity, status, count });
    }
    return out;
}
function deviceSection(report) {
    const failingDevices = new Set();
    const capacities = new Map();
    for (const entry of report.entries) {
        const device = deviceOfEntry(entry);
        if (device === null)
            continue;
        if (entry.severity === 'fail')
            failingDevices.add(device);
        if (entry.capacity !== undefined)
            capacities.set(device, entry.capacity);
    }
    const peaks = devicePeaks(report.entries);
    const chart = renderDeviceStacksSvg(peaks, { failingDevices, capacities });
    if (chart === null)
        return [];
    const scope = chart.drawn < chart.total
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
function distribution(devices, peaks) {
    const totals = (pick) => devices.map((d) => peaks.modules.reduce((sum, series) => sum + (series.byDevice.get(d)?.[pick] ?? 0), 0)).sort((a, b) => a - b);
    const stats = (values) => {
        const mid = Math.floor(values.length / 2);
        const median = values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
        return [values[0] ?? 0, median, values[values.length - 1] ?? 0].map((v) => `<td class="num">${text(formatBytes(Math.round(v)))}</td>`).join('');
    };
    return [
        `<table class="distribution"><caption class="note">Sum of module peaks over all ${formatCount(devices.length)} devices</caption>`,
        '<thead><tr><th></th><th>min</th><th>median</th><th>max</th></tr></thead>',
        `<tbody><tr><th>baseline</th>${stats(totals('baseline'))}</tr><tr><th>this run</th>${stats(totals('current'))}</tr></tbody>`,
        '</table>',
    ].join('\n');
}
function totalsSection(entries) {
    const limits = deviceTable(entries);
    if (limits === null)
        return [];
    const hasCapacity = limits.rows.some((r) => r.capacity !== null);
    const [first, ...others] = limits.kinds;
    const header = ['Device'];
    if (first !== undefined)
        header.push(`${kindTitle(first)}: baseline → current`, 'Δ');
    if (hasCapacity)
        header.push('Capacity', 'Headroom');
    for (const kind of others)
        header.push(`${kindTitle(kind)} Δ`);
    const rows = limits.rows.map((r) => {
        const cells = [`<td data-label="Device">${r.flagged ? '⚠ ' : ''}<code>${text(r.device)}</code></td>`];
        const sum = first === undefined ? undefined : r.sums.get(first);
        if (first !== undefined) {
            cells.push(`<td class="num" data-label="${text(header[1] ?? '')}">${sum === undefined ? '—' : text(`${formatBytes(sum.baseline)} → ${formatBytes(sum.current)}`)}</td>`, `<td class="num" data-label="Δ">${sum === undefined ? '—' : text(formatDelta(sum.current - sum.baseline))}</td>`);
        }
        if (hasCapacity) {
            cells.push(`<td class="num" data-label="Capacity">${r.capacity === null ? '—' : text(formatBytes(r.capacity))}</td>`, `<td class="num" data-label="Headroom">${r.headroom === null ? '—' : text(formatBytes(r.headroom))}</td>`);
        }
        for (const kind of others) {
            const s = r.sums.get(kind);
            cells.push(`<td class="num" data-label="${text(`${kindTitle(kind)} Δ`)}">${s === undefined ? '—' : text(formatDelta(s.current - s.baseline))}</td>`);
        }
        return `<tr>${cells.join('')}</tr>`;
    });
    return [
        '<section id="totals">',
        '<h2>Per-device totals</h2>',
        `<table class="entries"><thead><tr>${header.map((h) => `<th>${text(h)}</th>`).join('')}</tr></thead><tbody>`,
        ...rows,
        '</tbody></table>',
        ...(limits.rest === null ? [] : [`<p class="note">${text(limits.rest)}</p>`]),
        '</section>',
    ];
}
function legendList(items) {
    const lines = ['<ul class="legend">'];
    for (const item of items) {
        const swatch = item.kind === 'baseline'
            ? `<line x1="0" y1="7" x2="14" y2="7" stroke="${item.color}" stroke-width="2" stroke-dasharray="4 3"/>`
            : item.kind === 'capacity'
                ? `<line x1="0" y1="7" x2="14" y2="7" stroke="${item.color}" stroke-width="3"/>`
                : `<rect x="0" y="0" width="14" height="14" fill="${item.color}"/>`;
        const label = item.kind === 'module' ? `<code>${text(item.label)}</code>` : text(item.label);
        lines.push(`<li class="${item.kind}"><svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">${swatch}</svg>${label}</li>`);
    }
    lines.push('</ul>');
    return lines.join('\n');
}
const TABLE_HEAD = '<thead><tr><th>Status</th><th>Key</th><th>Baseline → current</th><th>Δ (Δ%)</th><th>Why</th></tr></thead>';
function entryTable(groups) {
    return ['<table class="entries">', TABLE_HEAD, '<tbody>', ...groups.map(groupRow), '</tbody>', '</table>'].join('\n');
}
function groupRow(group) {
    const worst = worstOf(group);
    const severity = severityClass(group.severity);
    const status = `<td class="status" data-label="Status">${SEVERITY_ICON[severity] ?? ''} ${text(statusLabel(group.status))}</td>`;
    const why = `<td class="why" data-label="Why">${whyHtml(worst, isRollUp(group))}</td>`;
    if (!isRollUp(group)) {
        return `<tr class="${severity}">${status}<td class="key" data-label="Key">${keyHtml(worst.key)}</td>${valueCells(worst)}${why}</tr>`;
    }
    const percent = medianPercent(group);
    const median = `median ${formatDelta(medianGrowth(group))}${percent === null ? '' : ` (${formatShortPercent(percent)})`}`;
    const shown = group.entries.slice(0, DEVICES_PER_GROUP);
    const more = group.entries.length - shown.length;
    const list = shown.map((e) => `<li><code>${text(deviceOfEntry(e) ?? e.key)}</code> ${text(formatTransition(e))} (${text(formatChange(e))})</li>`).join('');
    const key = `<td class="key" data-label="Key">${keyHtml(group.pattern)}<br>${text(devicesPhrase(group))}, worst <code>${text(deviceOfEntry(worst) ?? '')}</code>` +
        `<details><summary>devices</summary><ol>${list}</ol>${more > 0 ? `<p class="note">…and ${text(plural(more, 'more device'))}: see the JSON report</p>` : ''}</details></td>`;
    return `<tr class="${severity}">${status}${key}${valueCells(worst, median)}${why}</tr>`;
}
function valueCells(entry, median) {
    return (`<td class="num" data-label="Baseline → current">${text(formatTransition(entry))}</td>` +
        `<td class="num" data-label="Δ (Δ%)">${text(formatChange(entry))}${median === undefined ? '' : `<br>${text(median)}`}</td>`);
}
function whyHtml(entry, rolledUp) {
    const { rule, note } = entryReason(entry);
    const parts = [];
    if (rule !== null)
        parts.push(`rule <code>${text(rule)}</code>`);
    if (note !== null)
        parts.push(`${rolledUp ? 'worst device: ' : ''}${text(note)}`);
    return parts.length === 0 ? 'default tolerance' : parts.join('; ');
}
function collapsed(id, summary, groups) {
    const shown = groups.slice(0, COLLAPSED_ROWS);
    const rows = shown.map((g) => {
        const worst = worstOf(g);
        const severity = severityClass(g.severity);
        const key = isRollUp(g) ? `${keyHtml(g.pattern)} (${text(devicesPhrase(g))})` : keyHtml(worst.key);
        const value = isRollUp(g) ? valueRange(g) : formatTransition(worst);
        return `<tr class="${severity}"><td class="status" data-label="Status">${SEVERITY_ICON[severity] ?? ''} ${text(statusLabel(g.status))}</td><td class="key" data-label="Key">${key}</td><td class="num" data-label="Value">${text(value)}</td></tr>`;
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

export { HTML_CSP, renderHtml };

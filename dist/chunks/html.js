import { b as SECTIONS, c as compareKeys, f as formatCount, d as formatBytes, V as formatDelta } from './evidence-sources.js';
import { s as sizeScale, d as decimal, a as devicePeaks, b as renderDeviceStacksSvg } from './chart.js';
import { b as baselineCommand, c as deviceOfEntry, l as kindTitle, n as figureCell, w as worstOf, i as isRollUp, j as devicesPhrase, v as valueRange, f as formatTransition, e as medianPercent, m as medianGrowth, h as formatShortPercent, a as formatChange, k as keepUnits, o as entryReason } from './view.js';
import { s as shortenName } from './names.js';
import { r as replaceControlCharacters } from './errors.js';
import { a as escapeHtml } from './escape.js';
import { h as htmlPage, r as renderTrendSvg } from './trend-chart.js';
export { H as HTML_CSP } from './trend-chart.js';
import { t as titledVerdict, f as contextHtml, p as plural, h as countByStatus } from './partition.js';
import { s as splitDevice } from './keys.js';
import { a as stepContext, t as trendRange, b as stepLevels } from './trend-text.js';
import './roll-up.js';
import './history-view.js';
import './thresholds.js';
import 'node:fs/promises';
import 'node:path';
import './reader.js';
import './_commonjsHelpers.js';
import 'node:crypto';
import './index.js';
import './limits.js';
import 'node:fs';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './trends.js';
import './format.js';
import './string-table.js';
import './moved.js';
import './groups.js';
import './types.js';

const MAX_TIMELINES = 16;
const FIGURE_COLORS = [
    { line: '#0969da', fill: '#b6d4fb' },
    { line: '#6e7781', fill: '#e6e9ec' },
    { line: '#bf8700', fill: '#f6e1a6' },
];
const WIDTH = 560;
const HEIGHT = 170;
const MARGIN = { top: 14, right: 14, bottom: 30, left: 74 };
function traceTimelinesHtml(series, entries) {
    if (series === undefined)
        return [];
    const out = [];
    for (const declaration of SECTIONS) {
        const figures = declaration.deviceRow?.figures ?? [];
        const byKey = series[declaration.name];
        if (figures.length === 0 || byKey === undefined)
            continue;
        const devices = new Map();
        for (const key of Object.keys(byKey)) {
            const s = byKey[key];
            const { device } = splitDevice(key);
            const figure = key.slice(key.lastIndexOf('/') + 1);
            const index = figures.findIndex((f) => f.figure === figure);
            if (s.axis !== 'trace' || device === null || index === -1 || s.points.length === 0)
                continue;
            let lines = devices.get(device);
            if (lines === undefined)
                devices.set(device, (lines = { device, lines: [], caption: null, flagged: false }));
            lines.lines.push({
                figure,
                title: figures[index].title,
                series: s,
                color: FIGURE_COLORS[index % FIGURE_COLORS.length],
            });
        }
        if (devices.size === 0)
            continue;
        const firstFigure = figures[0].figure;
        for (const entry of entries) {
            if (entry.kind !== declaration.kind)
                continue;
            const lines = devices.get(splitDevice(entry.key).device ?? '');
            if (lines === undefined)
                continue;
            if (entry.severity !== 'ok')
                lines.flagged = true;
            if (lines.caption === null &&
                entry.key.endsWith(`/${firstFigure}`) &&
                entry.note !== undefined &&
                entry.status !== 'fragmented')
                lines.caption = entry.note;
        }
        const all = [...devices.values()].sort((a, b) => compareKeys(a.device, b.device));
        const drawn = all.length <= MAX_TIMELINES
            ? all
            : [...all]
                .sort((a, b) => Number(b.flagged) - Number(a.flagged) || compareKeys(a.device, b.device))
                .slice(0, MAX_TIMELINES)
                .sort((a, b) => compareKeys(a.device, b.device));
        out.push('<section id="timelines">', `<h2>${text$1(declaration.title)} over the trace</h2>`);
        out.push(legend(drawn));
        for (const lines of drawn)
            out.push(deviceFigure(lines));
        const scope = drawn.length < all.length
            ? `${formatCount(drawn.length)} of ${formatCount(all.length)} devices: those with a failing or warning entry first. `
            : '';
        out.push(`<p class="note">${text$1(scope)}Window peaks over the trace's entries in order (torch_npu records no time): the largest value of each window, so a short spike stays visible. The trace may start in mid-run (a ring buffer).</p>`, '</section>');
    }
    return out;
}
function legend(drawn) {
    const seen = new Map();
    for (const d of drawn)
        for (const l of d.lines)
            if (!seen.has(l.title))
                seen.set(l.title, l.color);
    const items = [...seen].map(([title, color]) => `<li><svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><rect x="0" y="0" width="14" height="14" fill="${color.fill}" stroke="${color.line}" stroke-width="2"/></svg>${text$1(title)}</li>`);
    return `<ul class="legend">\n${items.join('\n')}\n</ul>`;
}
function deviceFigure(d) {
    const maxX = Math.max(...d.lines.map((l) => lastX(l.series)));
    const maxY = Math.max(...d.lines.flatMap((l) => l.series.points.map((p) => p[1])));
    const scale = sizeScale(Math.max(maxY, 1));
    const topBytes = scale.top * scale.unitBytes;
    const plotW = WIDTH - MARGIN.left - MARGIN.right;
    const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
    const x = (v) => MARGIN.left + (maxX === 0 ? 0 : (v / maxX) * plotW);
    const y = (v) => MARGIN.top + plotH - (Math.max(0, v) / topBytes) * plotH;
    const shown = text$1(d.device);
    const out = [];
    const labels = d.lines
        .map((l) => `${l.title} up to ${formatBytes(Math.max(...l.series.points.map((p) => p[1])))}`)
        .join(', ');
    out.push(`<svg class="trace-timeline" viewBox="0 0 ${WIDTH} ${HEIGHT}" style="width:100%;max-width:${WIDTH}px;height:auto" role="img" aria-label="${escapeHtml(replaceControlCharacters(`${d.device}: ${labels}, over the trace`))}">`);
    const steps = Math.round(scale.top / scale.step);
    for (let i = 0; i <= steps; i++) {
        const units = scale.step * i;
        const gy = y(units * scale.unitBytes);
        out.push(`<line x1="${n(MARGIN.left)}" y1="${n(gy)}" x2="${n(WIDTH - MARGIN.right)}" y2="${n(gy)}" stroke="${i === 0 ? '#6b6b6b' : '#e3e3e3'}" stroke-width="1"/>`);
        if (i % 2 === 0 || steps <= 4)
            out.push(`<text x="${n(MARGIN.left - 6)}" y="${n(gy + 4)}" text-anchor="end" font-size="12" fill="#444">${escapeHtml(`${decimal(units)} ${scale.unit}`)}</text>`);
    }
    const order = [...d.lines].sort((a, b) => Math.max(...b.series.points.map((p) => p[1])) - Math.max(...a.series.points.map((p) => p[1])));
    for (const l of order) {
        const path = stepPath(l.series, x, y);
        out.push(`<path d="${path} L${n(x(lastX(l.series)))},${n(y(0))} L${n(x(0))},${n(y(0))} Z" fill="${l.color.fill}" stroke="none"/>`);
        out.push(`<path d="${path}" fill="none" stroke="${l.color.line}" stroke-width="1.5"><title>${text$1(`${d.device} · ${l.title}`)}</title></path>`);
    }
    const first = d.lines.find((l) => l.color === FIGURE_COLORS[0]) ?? d.lines[0];
    if (first !== undefined) {
        const peak = first.series.points.reduce((best, p) => (p[1] >= best[1] ? p : best));
        const px = x(peak[0] + first.series.width / 2);
        const py = y(peak[1]);
        const label = `peak ${formatBytes(peak[1])}`;
        const anchor = px > WIDTH - 120 ? 'end' : 'start';
        out.push(`<circle cx="${n(px)}" cy="${n(py)}" r="3.5" fill="${first.color.line}"><title>${text$1(`${d.device} · ${first.title}: ${label}, near entry ${formatCount(peak[0])}`)}</title></circle>`);
        out.push(`<text x="${n(anchor === 'end' ? px - 6 : px + 6)}" y="${n(Math.max(MARGIN.top + 10, py - 5))}" text-anchor="${anchor}" font-size="12" fill="#1f2328">${escapeHtml(label)}</text>`);
    }
    out.push(`<text x="${n(MARGIN.left)}" y="${HEIGHT - 8}" font-size="12" fill="#444">0</text>`);
    out.push(`<text x="${n(WIDTH - MARGIN.right)}" y="${HEIGHT - 8}" text-anchor="end" font-size="12" fill="#444">trace entries →</text>`);
    out.push(`<text x="${n(MARGIN.left + plotW / 2)}" y="${HEIGHT - 8}" text-anchor="middle" font-size="13" font-weight="600" fill="#1f2328">${shown}</text>`);
    out.push('</svg>');
    const caption = d.caption === null ? '' : `\n<figcaption class="note"><code>${shown}</code>: ${text$1(d.caption)}</figcaption>`;
    return `<figure class="chart">\n${out.join('\n')}${caption}\n</figure>`;
}
function lastX(s) {
    const last = s.points[s.points.length - 1];
    return last === undefined ? 0 : last[0] + s.width;
}
function stepPath(s, x, y) {
    const parts = [];
    for (const [bx, by] of s.points) {
        const x0 = x(bx);
        const x1 = x(bx + s.width);
        parts.push(`${parts.length === 0 ? 'M' : 'L'}${n(x0)},${n(y(by))} L${n(x1)},${n(y(by))}`);
    }
    return parts.join(' ');
}
function text$1(value) {
    return escapeHtml(replaceControlCharacters(value));
}
function n(v) {
    return String(Math.round(v * 10) / 10);
}

const TREND_CHARTS = 12;
const SEVERITY_ICON = { fail: '✗', warn: '⚠', ok: '✓' };
const OUTCOME_ICON = { fail: '✗', first: '⚠', pass: '✓' };
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
function renderHtml(view, options = {}) {
    const { report, firstRun, recorded, problems } = view;
    const verdict = titledVerdict(view.verdict, options.title ?? 'Memory gate');
    const icon = OUTCOME_ICON[view.outcome];
    const body = [];
    body.push(`<h1 class="verdict ${view.outcome}">${icon} ${text(verdict)}</h1>`);
    if (options.generatedAt !== undefined)
        body.push(`<p class="generated">Generated ${text(options.generatedAt)}</p>`);
    body.push(...contextHtml(view.context));
    if (firstRun) {
        const file = text(options.baselineFile ?? 'memory-baseline.json');
        body.push(`<p>Nothing was compared: there is no baseline yet. Commit one: run the workflow with <code>mode: update</code> and merge its pull request, or run <code>${baselineCommand(file)}</code> with the input flags of the check and commit <code>${file}</code>.</p>`);
    }
    const verdicts = verdictCounts(report.entries);
    if (verdicts.length > 0) {
        body.push('<section id="verdicts">', '<h2>Verdicts</h2>', '<ul class="verdicts">');
        for (const { severity, status, count } of verdicts) {
            body.push(`<li class="${severity}">${SEVERITY_ICON[severity] ?? ''} ${text(`${formatCount(count)} ${status}`)}</li>`);
        }
        body.push('</ul>', '</section>');
    }
    if (problems.length > 0) {
        const groups = view.problemRows.map((r) => r.group);
        body.push('<section id="problems">', `<h2>Failing and warning keys (${formatCount(problems.length)})</h2>`, entryTable(groups), '</section>');
    }
    if (view.trends !== undefined) {
        body.push(...trendSection([...view.problemRows, ...view.improvementRows], view.trends, view.runChanges));
    }
    body.push(...deviceSection(report));
    body.push(...totalsSection(view.devices));
    body.push(...traceTimelinesHtml(options.series, report.entries));
    if (view.improvements.length > 0) {
        body.push('<section id="improvements">', `<h2>Improvements (${formatCount(view.improvements.length)})</h2>`, entryTable(view.groups(view.improvements)), '</section>');
    }
    if (recorded.length > 0)
        body.push(...collapsed('recorded', `${plural(recorded.length, 'key')} recorded (no baseline to compare with)`, view.groups(recorded)));
    if (view.unchanged.length > 0) {
        body.push(...collapsed('unchanged', `${plural(view.unchanged.length, 'key')} within thresholds`, view.groups(view.unchanged)));
    }
    return htmlPage(`${icon} ${text(verdict)}`, STYLE, body);
}
function trendSection(rows, trends, changes) {
    const charts = [];
    let more = 0;
    for (const { group, trend: t } of rows) {
        if (t === null)
            continue;
        const { subject, trend, unit } = t;
        if (charts.length >= TREND_CHARTS) {
            more++;
            continue;
        }
        const baselines = group.entries.map((e) => e.baseline).filter((b) => b !== null);
        const baseline = baselines.length === 0 ? undefined : trend.of === 'largest' ? Math.max(...baselines) : baselines[0];
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
        const commit = s === null
            ? ''
            : s.url === undefined
                ? `<code>${text(s.sha)}</code>`
                : `<a href="${text(s.url)}"><code>${text(s.sha)}</code></a>`;
        const note = s === null
            ? `${text(trendRange(trend, unit))} over ${text(plural(trend.values.length, 'run'))}`
            : `${text(stepLevels(s.step, unit))} since ${commit} (${text(s.ago)})${context === null ? '' : `; ${text(context)}`}`;
        charts.push(`<figure class="trend"><figcaption>${keyHtml(subject)}${trend.of === 'largest' ? ' <span class="note">(largest device)</span>' : ''}: ${note}</figcaption>\n<div class="chart">${svg}</div></figure>`);
    }
    if (charts.length === 0)
        return [];
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
function figure(value) {
    return keepUnits(text(value));
}
function text(value) {
    return escapeHtml(replaceControlCharacters(value));
}
function keyHtml(key) {
    const segments = shortenName(key).split('/');
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
    const totals = (pick) => devices
        .map((d) => peaks.modules.reduce((sum, series) => sum + (series.byDevice.get(d)?.[pick] ?? 0), 0))
        .sort((a, b) => a - b);
    const stats = (values) => {
        const mid = Math.floor(values.length / 2);
        const median = values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
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
function totalsSection(devices) {
    if (devices === null)
        return [];
    const hasCapacity = devices.rows.some((r) => r.capacity !== null);
    const [first, ...others] = devices.kinds;
    const header = ['Device'];
    if (first !== undefined)
        header.push(`${kindTitle(first)}: baseline → current`, 'Δ');
    if (hasCapacity)
        header.push('Capacity', 'Headroom');
    for (const kind of others)
        header.push(`${kindTitle(kind)} Δ`);
    for (const column of devices.figureColumns)
        header.push(column.gap === undefined ? `${column.title}: baseline → current` : column.title);
    const rows = devices.rows.map((r) => {
        const cells = [`<td data-label="Device">${r.flagged ? '⚠ ' : ''}<code>${text(r.device)}</code></td>`];
        const sum = first === undefined ? undefined : r.sums.get(first);
        if (first !== undefined) {
            cells.push(`<td class="num" data-label="${text(header[1] ?? '')}">${sum === undefined ? '—' : figure(`${formatBytes(sum.baseline)} → ${formatBytes(sum.current)}`)}</td>`, `<td class="num" data-label="Δ">${sum === undefined ? '—' : figure(formatDelta(sum.current - sum.baseline))}</td>`);
        }
        if (hasCapacity) {
            cells.push(`<td class="num" data-label="Capacity">${r.capacity === null ? '—' : figure(formatBytes(r.capacity))}</td>`, `<td class="num" data-label="Headroom">${r.headroom === null ? '—' : figure(formatBytes(r.headroom))}</td>`);
        }
        for (const kind of others) {
            const s = r.sums.get(kind);
            cells.push(`<td class="num" data-label="${text(`${kindTitle(kind)} Δ`)}">${s === undefined ? '—' : figure(formatDelta(s.current - s.baseline))}</td>`);
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
        .map((e) => `<li><code>${text(deviceOfEntry(e) ?? shortenName(e.key))}</code> ${text(formatTransition(e))} (${text(formatChange(e))})</li>`)
        .join('');
    const key = `<td class="key" data-label="Key">${keyHtml(group.pattern)}<br>${text(devicesPhrase(group))}, worst <code>${text(deviceOfEntry(worst) ?? '')}</code>` +
        `<details><summary>devices</summary><ol>${list}</ol>${more > 0 ? `<p class="note">…and ${text(plural(more, 'more device'))}: see the JSON report</p>` : ''}</details></td>`;
    return `<tr class="${severity}">${status}${key}${valueCells(worst, median)}${why}</tr>`;
}
function valueCells(entry, median) {
    return (`<td class="num" data-label="Baseline → current">${figure(formatTransition(entry))}</td>` +
        `<td class="num" data-label="Δ (Δ%)">${figure(formatChange(entry))}${median === undefined ? '' : `<br>${figure(median)}`}</td>`);
}
function whyHtml(entry, rolledUp) {
    const { rule, note } = entryReason(entry);
    const parts = [];
    if (rule !== null)
        parts.push(`rule <code>${text(rule)}</code>`);
    if (note !== null)
        parts.push(`${rolledUp ? 'worst device: ' : ''}${text(note)}`);
    return parts.length === 0 ? text(defaultReason(entry)) : parts.join('; ');
}
function defaultReason(entry) {
    const policy = entry.severity === 'ok' ? 'ignore' : entry.severity;
    if (entry.status === 'new')
        return `not in the baseline (onNew: ${policy})`;
    if (entry.status === 'missing')
        return `not in this run (onMissing: ${policy})`;
    return entry.status === 'regressed' || entry.status === 'improved' || entry.status === 'pass'
        ? 'default tolerance'
        : entry.status;
}
function collapsed(id, summary, groups) {
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

export { renderHtml };

import { b as SECTIONS, c as compareKeys, f as formatCount, d as formatBytes, s as sectionOfKind, I as formatDelta } from './evidence-sources.js';
import { s as sizeScale, d as decimal, a as devicePeaks, b as renderDeviceStacksSvg } from './chart.js';
import { g as trendValue, a as shortSha, b as stepContext, t as trendRange, c as stepLevels, r as runsAgo, d as deviceTable, f as figureCell } from './device-table.js';
import { I as escapeHtml, v as verdictText, f as isFirstRun, s as splitSections, d as devicesPerPattern, O as contextHtml, H as statusLabel, g as groupEntries, A as plural, K as countByStatus, i as isRollUp, w as worstOf, E as deviceOfEntry, k as kindTitle, b as devicesPhrase, J as valueRange, C as formatTransition, F as medianPercent, n as medianGrowth, G as formatShortPercent, D as formatChange, B as keepUnits, j as entryReason } from './groups.js';
import { s as shortenName } from './names.js';
import { r as replaceControlCharacters } from './errors.js';
import { s as splitDevice } from './keys.js';
import { environmentChanges } from './trends.js';

const MAX_TIMELINES = 16;
const FIGURE_COLORS = [
    { line: '#0969da', fill: '#b6d4fb' },
    { line: '#6e7781', fill: '#e6e9ec' },
    { line: '#bf8700', fill: '#f6e1a6' },
];
const WIDTH$1 = 560;
const HEIGHT$1 = 170;
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
        out.push('<section id="timelines">', `<h2>${text$2(declaration.title)} over the trace</h2>`);
        out.push(legend(drawn));
        for (const lines of drawn)
            out.push(deviceFigure(lines));
        const scope = drawn.length < all.length
            ? `${formatCount(drawn.length)} of ${formatCount(all.length)} devices: those with a failing or warning entry first. `
            : '';
        out.push(`<p class="note">${text$2(scope)}Window peaks over the trace's entries in order (torch_npu records no time): the largest value of each window, so a short spike stays visible. The trace may start in mid-run (a ring buffer).</p>`, '</section>');
    }
    return out;
}
function legend(drawn) {
    const seen = new Map();
    for (const d of drawn)
        for (const l of d.lines)
            if (!seen.has(l.title))
                seen.set(l.title, l.color);
    const items = [...seen].map(([title, color]) => `<li><svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><rect x="0" y="0" width="14" height="14" fill="${color.fill}" stroke="${color.line}" stroke-width="2"/></svg>${text$2(title)}</li>`);
    return `<ul class="legend">\n${items.join('\n')}\n</ul>`;
}
function deviceFigure(d) {
    const maxX = Math.max(...d.lines.map((l) => lastX(l.series)));
    const maxY = Math.max(...d.lines.flatMap((l) => l.series.points.map((p) => p[1])));
    const scale = sizeScale(Math.max(maxY, 1));
    const topBytes = scale.top * scale.unitBytes;
    const plotW = WIDTH$1 - MARGIN.left - MARGIN.right;
    const plotH = HEIGHT$1 - MARGIN.top - MARGIN.bottom;
    const x = (v) => MARGIN.left + (maxX === 0 ? 0 : (v / maxX) * plotW);
    const y = (v) => MARGIN.top + plotH - (Math.max(0, v) / topBytes) * plotH;
    const shown = text$2(d.device);
    const out = [];
    const labels = d.lines
        .map((l) => `${l.title} up to ${formatBytes(Math.max(...l.series.points.map((p) => p[1])))}`)
        .join(', ');
    out.push(`<svg class="trace-timeline" viewBox="0 0 ${WIDTH$1} ${HEIGHT$1}" style="width:100%;max-width:${WIDTH$1}px;height:auto" role="img" aria-label="${escapeHtml(replaceControlCharacters(`${d.device}: ${labels}, over the trace`))}">`);
    const steps = Math.round(scale.top / scale.step);
    for (let i = 0; i <= steps; i++) {
        const units = scale.step * i;
        const gy = y(units * scale.unitBytes);
        out.push(`<line x1="${n(MARGIN.left)}" y1="${n(gy)}" x2="${n(WIDTH$1 - MARGIN.right)}" y2="${n(gy)}" stroke="${i === 0 ? '#6b6b6b' : '#e3e3e3'}" stroke-width="1"/>`);
        if (i % 2 === 0 || steps <= 4)
            out.push(`<text x="${n(MARGIN.left - 6)}" y="${n(gy + 4)}" text-anchor="end" font-size="12" fill="#444">${escapeHtml(`${decimal(units)} ${scale.unit}`)}</text>`);
    }
    const order = [...d.lines].sort((a, b) => Math.max(...b.series.points.map((p) => p[1])) - Math.max(...a.series.points.map((p) => p[1])));
    for (const l of order) {
        const path = stepPath(l.series, x, y);
        out.push(`<path d="${path} L${n(x(lastX(l.series)))},${n(y(0))} L${n(x(0))},${n(y(0))} Z" fill="${l.color.fill}" stroke="none"/>`);
        out.push(`<path d="${path}" fill="none" stroke="${l.color.line}" stroke-width="1.5"><title>${text$2(`${d.device} · ${l.title}`)}</title></path>`);
    }
    const first = d.lines.find((l) => l.color === FIGURE_COLORS[0]) ?? d.lines[0];
    if (first !== undefined) {
        const peak = first.series.points.reduce((best, p) => (p[1] >= best[1] ? p : best));
        const px = x(peak[0] + first.series.width / 2);
        const py = y(peak[1]);
        const label = `peak ${formatBytes(peak[1])}`;
        const anchor = px > WIDTH$1 - 120 ? 'end' : 'start';
        out.push(`<circle cx="${n(px)}" cy="${n(py)}" r="3.5" fill="${first.color.line}"><title>${text$2(`${d.device} · ${first.title}: ${label}, near entry ${formatCount(peak[0])}`)}</title></circle>`);
        out.push(`<text x="${n(anchor === 'end' ? px - 6 : px + 6)}" y="${n(Math.max(MARGIN.top + 10, py - 5))}" text-anchor="${anchor}" font-size="12" fill="#1f2328">${escapeHtml(label)}</text>`);
    }
    out.push(`<text x="${n(MARGIN.left)}" y="${HEIGHT$1 - 8}" font-size="12" fill="#444">0</text>`);
    out.push(`<text x="${n(WIDTH$1 - MARGIN.right)}" y="${HEIGHT$1 - 8}" text-anchor="end" font-size="12" fill="#444">trace entries →</text>`);
    out.push(`<text x="${n(MARGIN.left + plotW / 2)}" y="${HEIGHT$1 - 8}" text-anchor="middle" font-size="13" font-weight="600" fill="#1f2328">${shown}</text>`);
    out.push('</svg>');
    const caption = d.caption === null ? '' : `\n<figcaption class="note"><code>${shown}</code>: ${text$2(d.caption)}</figcaption>`;
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
function text$2(value) {
    return escapeHtml(replaceControlCharacters(value));
}
function n(v) {
    return String(Math.round(v * 10) / 10);
}

const TREND_COLOR = '#0969da';
const BASELINE_COLOR = '#6e7781';
const BASELINE_UPDATE_COLOR = '#8250df';
const ENVIRONMENT_COLOR = '#bc4c00';
const WIDTH = 640;
const HEIGHT = 170;
const LEFT = 74;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 30;
function renderTrendSvg(chart) {
    const { trend, points, unit } = chart;
    const n = trend.values.length;
    const present = trend.values.filter((v) => v !== null);
    let lo = Math.min(...present, chart.baseline ?? Number.POSITIVE_INFINITY);
    let hi = Math.max(...present, chart.baseline ?? Number.NEGATIVE_INFINITY);
    if (lo === hi) {
        const pad = Math.max(1, Math.abs(lo) / 10);
        lo -= pad;
        hi += pad;
    }
    const plotW = WIDTH - LEFT - RIGHT;
    const plotH = HEIGHT - TOP - BOTTOM;
    const x = (p) => LEFT + (n <= 1 ? plotW / 2 : (p / (n - 1)) * plotW);
    const y = (v) => TOP + plotH - ((v - lo) / (hi - lo)) * plotH;
    const f = (v) => v.toFixed(1);
    const parts = [];
    parts.push(`<svg class="trend" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-label="${text$1(`${chart.label}: ${n} runs`)}" xmlns="http://www.w3.org/2000/svg">`);
    parts.push(`<rect x="${LEFT}" y="${TOP}" width="${plotW}" height="${plotH}" fill="#f6f8fa"/>`);
    const bottom = trendValue(Math.round(lo), unit);
    const top = trendValue(Math.round(hi), unit);
    parts.push(`<text x="${LEFT - 6}" y="${f(TOP + 10)}" text-anchor="end" class="axis">${text$1(top === bottom ? `+${trendValue(Math.round(hi - lo), unit)}` : top)}</text>`);
    parts.push(`<text x="${LEFT - 6}" y="${f(TOP + plotH)}" text-anchor="end" class="axis">${text$1(bottom)}</text>`);
    if (n > 0) {
        parts.push(`<text x="${LEFT}" y="${HEIGHT - 8}" class="axis">${text$1(shortSha(points[0]?.commit ?? ''))}</text>`);
        if (n > 1)
            parts.push(`<text x="${LEFT + plotW}" y="${HEIGHT - 8}" text-anchor="end" class="axis">${text$1(shortSha(points[n - 1]?.commit ?? ''))}</text>`);
    }
    for (let p = 1; p < n; p++) {
        const before = points[p - 1];
        const now = points[p];
        if (before.baseline !== now.baseline) {
            parts.push(`<line class="marker baseline-update" x1="${f(x(p))}" x2="${f(x(p))}" y1="${TOP}" y2="${TOP + plotH}" stroke="${BASELINE_UPDATE_COLOR}" stroke-width="1.5" stroke-dasharray="4 3"><title>${text$1(`baseline updated at ${shortSha(now.commit)}`)}</title></line>`);
        }
        const changes = environmentChanges(before.environment, now.environment);
        if (changes.length > 0) {
            const what = changes.map((c) => `${c.item} ${c.baseline ?? '(unset)'} → ${c.current ?? '(unset)'}`).join('; ');
            parts.push(`<line class="marker environment" x1="${f(x(p))}" x2="${f(x(p))}" y1="${TOP}" y2="${TOP + plotH}" stroke="${ENVIRONMENT_COLOR}" stroke-width="1.5" stroke-dasharray="1 3"><title>${text$1(`environment changed at ${shortSha(now.commit)}: ${what}`)}</title></line>`);
        }
    }
    if (chart.baseline !== undefined) {
        const by = f(y(chart.baseline));
        parts.push(`<line class="baseline" x1="${LEFT}" x2="${LEFT + plotW}" y1="${by}" y2="${by}" stroke="${BASELINE_COLOR}" stroke-width="1.5" stroke-dasharray="6 4"><title>${text$1(`baseline ${trendValue(chart.baseline, unit)}`)}</title></line>`);
    }
    let path = '';
    trend.values.forEach((v, p) => {
        if (v === null)
            return;
        path += `${p > 0 && trend.values[p - 1] !== null ? 'L' : 'M'}${f(x(p))} ${f(y(v))} `;
    });
    if (path !== '')
        parts.push(`<path d="${path.trim()}" fill="none" stroke="${TREND_COLOR}" stroke-width="1.5"/>`);
    const step = trend.step?.point;
    trend.values.forEach((v, p) => {
        if (v === null)
            return;
        const meta = points[p];
        const what = `${shortSha(meta.commit)}${meta.run === undefined ? '' : ` · run ${meta.run}`} · ${meta.time}: ${trendValue(v, unit)}${p === step ? ' (first run of the new level)' : ''}`;
        const dot = `<circle class="point${p === step ? ' step' : ''}" cx="${f(x(p))}" cy="${f(y(v))}" r="${p === step ? 5 : 3}" fill="${p === step ? '#cf222e' : TREND_COLOR}"><title>${text$1(what)}</title></circle>`;
        const url = chart.commitUrl(meta.commit);
        parts.push(url === undefined ? dot : `<a href="${text$1(url)}">${dot}</a>`);
    });
    parts.push('</svg>');
    return parts.join('');
}
function text$1(value) {
    return escapeHtml(replaceControlCharacters(value));
}

const TREND_CHARTS = 12;
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
        body.push(`<p>Nothing was compared: there is no baseline yet. Commit one: run the workflow with <code>mode: update</code> and merge its pull request, or run <code>ascend-memory-gate baseline --out ${file}</code> with the input flags of the check and commit <code>${file}</code>.</p>`);
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
    if (options.trends !== undefined) {
        const changed = [...groupEntries(problems, perPattern), ...groupEntries(sections.improvements, perPattern)];
        body.push(...trendSection(changed, options.trends));
    }
    body.push(...deviceSection(report));
    body.push(...totalsSection(report.entries));
    body.push(...traceTimelinesHtml(options.series, report.entries));
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
function trendSection(groups, trends) {
    const charts = [];
    let more = 0;
    for (const group of groups) {
        const rolled = isRollUp(group);
        const subject = rolled ? group.pattern : worstOf(group).key;
        const trend = rolled ? trends.forPattern(group.kind, group.pattern) : trends.forKey(group.kind, subject);
        if (trend === undefined)
            continue;
        if (charts.length >= TREND_CHARTS) {
            more++;
            continue;
        }
        const unit = sectionOfKind(group.kind)?.unit ?? 'bytes';
        const baselines = group.entries.map((e) => e.baseline).filter((b) => b !== null);
        const baseline = baselines.length === 0 ? undefined : trend.of === 'largest' ? Math.max(...baselines) : baselines[0];
        const svg = renderTrendSvg({
            trend,
            points: trends.points,
            unit,
            commitUrl: trends.commitUrl,
            baseline,
            label: shortenName(subject),
        });
        const step = trend.step;
        const context = step === null ? null : stepContext(step);
        const url = step === null ? undefined : trends.commitUrl(step.commit);
        const commit = step === null
            ? ''
            : url === undefined
                ? `<code>${text(shortSha(step.commit))}</code>`
                : `<a href="${text(url)}"><code>${text(shortSha(step.commit))}</code></a>`;
        const note = step === null
            ? `${text(trendRange(trend, unit))} over ${text(plural(trend.values.length, 'run'))}`
            : `${text(stepLevels(step, unit))} since ${commit} (${text(runsAgo(step))})${context === null ? '' : `; ${text(context)}`}`;
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
    for (const column of limits.figureColumns)
        header.push(column.gap === undefined ? `${column.title}: baseline → current` : column.title);
    const rows = limits.rows.map((r) => {
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
        for (const column of limits.figureColumns)
            cells.push(`<td class="num" data-label="${text(column.title)}">${figure(figureCell(r, column))}</td>`);
        return `<tr>${cells.join('')}</tr>`;
    });
    return [
        '<section id="totals">',
        '<h2>Per-device totals</h2>',
        `<table class="entries"><thead><tr>${header.map((h) => `<th>${text(h)}</th>`).join('')}</tr></thead><tbody>`,
        ...rows,
        '</tbody></table>',
        ...(limits.rest === null ? [] : [`<p class="note">${text(limits.rest)}</p>`]),
        ...limits.figureNotes.map((note) => `<p class="note">${text(note)}</p>`),
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
        : statusLabel(entry.status);
}
function collapsed(id, summary, groups) {
    const shown = groups.slice(0, COLLAPSED_ROWS);
    const rows = shown.map((g) => {
        const worst = worstOf(g);
        const severity = severityClass(g.severity);
        const key = isRollUp(g) ? `${keyHtml(g.pattern)} (${text(devicesPhrase(g))})` : keyHtml(worst.key);
        const value = isRollUp(g) ? valueRange(g) : formatTransition(worst);
        return `<tr class="${severity}"><td class="status" data-label="Status">${SEVERITY_ICON[severity] ?? ''} ${text(statusLabel(g.status))}</td><td class="key" data-label="Key">${key}</td><td class="num" data-label="Value">${figure(value)}</td></tr>`;
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

var html = /*#__PURE__*/Object.freeze({
    __proto__: null,
    HTML_CSP: HTML_CSP,
    renderHtml: renderHtml
});

export { BASELINE_UPDATE_COLOR as B, ENVIRONMENT_COLOR as E, HTML_CSP as H, TREND_COLOR as T, html as h, renderTrendSvg as r };

import { b as SECTIONS, f as formatCount, c as compareKeys, s as sectionOfKind, d as formatBytes } from './evidence-sources.js';
import { s as splitOf, q as isCountEntry } from './view.js';
import { r as replaceControlCharacters } from './errors.js';
import { c as codeSpan, a as escapeHtml } from './escape.js';
import { g as growth, p as plural } from './partition.js';

function devicePeaks(entries, chartedKind = SECTIONS[0]?.kind ?? '') {
    const byKey = new Map();
    for (const entry of entries) {
        const declaration = sectionOfKind(entry.kind);
        if (declaration === undefined || declaration.unit !== 'bytes' || chartedKind !== entry.kind)
            continue;
        const { device, group } = splitOf(entry);
        if (device === null)
            continue;
        const seen = byKey.get(entry.key) ?? { device, module: group, peak: null, severity: 'ok' };
        seen.severity = worse(seen.severity, chartSeverity(entry.severity));
        if (seen.peak === null && !isCountEntry(entry) && (entry.baseline !== null || entry.current !== null)) {
            seen.peak = { baseline: entry.baseline, current: entry.current, growth: growth(entry), severity: 'ok' };
        }
        byKey.set(entry.key, seen);
    }
    const modules = new Map();
    const devices = new Set();
    for (const { device, module, peak, severity } of byKey.values()) {
        if (peak === null)
            continue;
        let series = modules.get(module);
        if (series === undefined) {
            series = { module, byDevice: new Map() };
            modules.set(module, series);
        }
        devices.add(device);
        const previous = series.byDevice.get(device);
        series.byDevice.set(device, {
            baseline: addNullable(previous?.baseline ?? null, peak.baseline),
            current: addNullable(previous?.current ?? null, peak.current),
            growth: (previous?.growth ?? 0) + peak.growth,
            severity: worse(previous?.severity ?? 'ok', severity),
        });
    }
    return {
        devices: [...devices].sort(compareKeys),
        modules: [...modules.values()].sort((a, b) => compareKeys(a.module, b.module)),
    };
}
function addNullable(a, b) {
    return a === null ? b : b === null ? a : a + b;
}
function chartSeverity(severity) {
    return severity === 'fail' || severity === 'ok' ? severity : 'warn';
}
const SEVERITY_RANK = { fail: 0, warn: 1, ok: 2 };
function worse(a, b) {
    return SEVERITY_RANK[a] <= SEVERITY_RANK[b] ? a : b;
}
function hasBaseline(series) {
    return [...series.byDevice.values()].some((p) => p.baseline !== null);
}
function largestValue(series) {
    let max = 0;
    for (const p of series.byDevice.values())
        max = Math.max(max, p.baseline ?? 0, p.current ?? 0);
    return max;
}
function chartedModules(peaks, limit) {
    const score = (series) => {
        let severity = SEVERITY_RANK.ok;
        let change = 0;
        for (const p of series.byDevice.values()) {
            severity = Math.min(severity, SEVERITY_RANK[p.severity]);
            change = Math.max(change, Math.abs(p.growth));
        }
        return { severity, change, peak: largestValue(series) };
    };
    const candidates = peaks.modules
        .map((series) => ({ series, ...score(series) }))
        .filter(({ series, severity, change, peak }) => peak > 0 && (change > 0 || severity !== SEVERITY_RANK.ok) && (series.byDevice.size > 1 || hasBaseline(series)));
    candidates.sort((a, b) => a.severity - b.severity ||
        b.change - a.change ||
        b.peak - a.peak ||
        compareKeys(a.series.module, b.series.module));
    return candidates.slice(0, Math.max(0, limit)).map((c) => c.series);
}
const MERMAID_BASELINE_COLOR = '#9e9e9e';
const MERMAID_CURRENT_COLOR = '#4e79a7';
const CHART_ALL_DEVICES_UP_TO = 16;
function renderMermaidChart(entries, options = {}) {
    const charted = chartedModules(devicePeaks(entries), options.modules ?? 3);
    if (charted.length === 0)
        return null;
    const which = charted.length === 1 ? 'The module' : `The ${formatCount(charted.length)} modules`;
    const blocks = [
        '#### Module peaks per device',
        `${which} that changed most. Bars (blue): this run's peak on each device; line (grey): the baseline's.`,
    ];
    for (const series of charted) {
        const compared = hasBaseline(series);
        const all = [...series.byDevice.keys()].sort(compareKeys);
        const devices = all.length <= CHART_ALL_DEVICES_UP_TO ? all : mostChanged(series, CHART_ALL_DEVICES_UP_TO);
        const scope = devices.length < all.length
            ? `, the ${formatCount(devices.length)} of ${formatCount(all.length)} devices that changed most`
            : '';
        blocks.push(`Module ${codeSpan(series.module)}${compared ? '' : ', no baseline: this run only'}${scope}`);
        blocks.push(['```mermaid', ...mermaidLines(series, devices, compared), '```'].join('\n'));
        if (devices.length < all.length)
            blocks.push(distributionTable(series, all));
    }
    return blocks.join('\n\n');
}
function mostChanged(series, limit) {
    return [...series.byDevice]
        .sort(([da, a], [db, b]) => Math.abs(b.growth) - Math.abs(a.growth) || compareKeys(da, db))
        .slice(0, limit)
        .map(([d]) => d)
        .sort(compareKeys);
}
function distributionTable(series, devices) {
    const stats = (pick) => {
        const values = devices
            .map((d) => series.byDevice.get(d))
            .flatMap((p) => (p === undefined || pick(p) === null ? [] : [pick(p)]));
        if (values.length === 0)
            return ['—', '—', '—'];
        values.sort((a, b) => a - b);
        const mid = Math.floor(values.length / 2);
        const median = values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
        return [values[0], median, values[values.length - 1]].map((v) => formatBytes(Math.round(v)).replace(' ', '\u00a0'));
    };
    return [
        `| Over ${formatCount(devices.length)} devices | min | median | max |`,
        '|---|--:|--:|--:|',
        `| baseline | ${stats((p) => p.baseline).join(' | ')} |`,
        `| this run | ${stats((p) => p.current).join(' | ')} |`,
    ].join('\n');
}
function mermaidLines(series, devices, compared) {
    const scale = sizeScale(Math.max(...devices.map((d) => Math.max(series.byDevice.get(d)?.baseline ?? 0, series.byDevice.get(d)?.current ?? 0))));
    const value = (bytes) => decimal((bytes ?? 0) / scale.unitBytes);
    const axis = `  y-axis "peak (${scale.unit})" 0 --> ${decimal(scale.top)}`;
    const device = (d) => (/^dev\d+$/.test(d) ? d : '?');
    if (devices.length === 1 && compared) {
        const only = series.byDevice.get(devices[0]);
        return [
            `%%{init: {"xyChart": {"height": 320}, "themeVariables": {"xyChart": {"plotColorPalette": "${MERMAID_CURRENT_COLOR}"}}}}%%`,
            'xychart-beta',
            `  x-axis ["${device(devices[0])} baseline", "${device(devices[0])} this run"]`,
            axis,
            `  bar [${value(only?.baseline ?? null)}, ${value(only?.current ?? null)}]`,
        ];
    }
    const lines = [
        `%%{init: {"xyChart": {"height": 320}, "themeVariables": {"xyChart": {"plotColorPalette": "${compared ? `${MERMAID_CURRENT_COLOR}, ${MERMAID_BASELINE_COLOR}` : MERMAID_CURRENT_COLOR}"}}}}%%`,
        'xychart-beta',
        `  x-axis [${devices.map((d) => `"${device(d)}"`).join(', ')}]`,
        axis,
        `  bar [${devices.map((d) => value(series.byDevice.get(d)?.current ?? null)).join(', ')}]`,
    ];
    if (compared)
        lines.push(`  line [${devices.map((d) => value(series.byDevice.get(d)?.baseline ?? null)).join(', ')}]`);
    return lines;
}
const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
function sizeScale(maxBytes) {
    let i = 0;
    while (i < BINARY_UNITS.length - 1 && maxBytes >= 1024 ** (i + 1))
        i++;
    const unitBytes = 1024 ** i;
    const value = maxBytes / unitBytes;
    if (!(value > 0))
        return { unit: BINARY_UNITS[i] ?? 'B', unitBytes, top: 1, step: 0.2 };
    const power = 10 ** Math.floor(Math.log10(value));
    const [mantissa, steps] = ROUND_TOPS.find(([m]) => m * power >= value * (1 - 1e-12)) ?? [10, 5];
    const top = mantissa * power;
    return { unit: BINARY_UNITS[i] ?? 'B', unitBytes, top, step: top / steps };
}
const ROUND_TOPS = [
    [1, 5],
    [1.2, 4],
    [1.5, 5],
    [2, 4],
    [2.5, 5],
    [3, 6],
    [4, 4],
    [5, 5],
    [6, 6],
    [8, 4],
    [10, 5],
];
function decimal(x) {
    return String(Number(x.toFixed(2)));
}
const MODULE_COLORS = [
    '#4e79a7',
    '#f28e2b',
    '#e15759',
    '#76b7b2',
    '#59a14f',
    '#edc948',
    '#b07aa1',
    '#ff9da7',
    '#9c755f',
];
const OTHER_MODULES_COLOR = '#bab0ac';
const BASELINE_OUTLINE_COLOR = '#1f1f1f';
const ALL_BARS_UP_TO = 64;
const MAX_BARS = 32;
const CAPACITY_COLOR = '#b3261e';
const PLOT_HEIGHT = 280;
const MARGIN = { top: 28, right: 16, bottom: 56, left: 84 };
function moduleColorKey(pattern) {
    return pattern.slice(pattern.lastIndexOf('/') + 1);
}
function renderDeviceStacksSvg(peaks, options = {}) {
    const failingDevices = options.failingDevices ?? new Set();
    const capacities = options.capacities ?? new Map();
    if (peaks.devices.length === 0)
        return null;
    const totals = {
        stack: (device) => peaks.modules.reduce((sum, series) => sum + (series.byDevice.get(device)?.current ?? 0), 0),
        baseline: (device) => {
            let sum = null;
            for (const series of peaks.modules) {
                const baseline = series.byDevice.get(device)?.baseline ?? null;
                if (baseline !== null)
                    sum = (sum ?? 0) + baseline;
            }
            return sum;
        },
    };
    const devices = drawnDevices(peaks.devices, failingDevices, (d) => Math.abs(totals.stack(d) - (totals.baseline(d) ?? 0)));
    const colors = moduleColors(peaks);
    const maxBytes = Math.max(...devices.map((d) => Math.max(totals.stack(d), totals.baseline(d) ?? 0, capacities.get(d) ?? 0)));
    const layout = stackLayout(devices.length, sizeScale(maxBytes));
    const out = [];
    const label = `Module peaks per device, this run, stacked by module; dashed tick: the baseline's sum; red line: the device capacity`;
    out.push(`<svg class="device-stacks" viewBox="0 0 ${n(layout.width)} ${n(layout.height)}" style="width:100%;max-width:${n(layout.width)}px;height:auto" role="img" aria-label="${escapeHtml(label)}">`);
    out.push(...axisSvg(layout));
    for (const [index, device] of devices.entries()) {
        const bar = { device, index, failing: failingDevices.has(device), capacity: capacities.get(device) };
        out.push(...deviceBarSvg(bar, layout, colors, totals.baseline(device)));
    }
    out.push('</svg>');
    const legend = legendOf(colors, {
        baseline: devices.some((d) => totals.baseline(d) !== null),
        capacity: devices.some((d) => capacities.has(d)),
    });
    return { svg: out.join('\n'), legend, drawn: devices.length, total: peaks.devices.length };
}
function moduleColors(peaks) {
    const byName = new Map();
    for (const series of peaks.modules) {
        const total = [...series.byDevice.values()].reduce((sum, p) => sum + (p.current ?? 0), 0);
        const name = moduleColorKey(series.module);
        const entry = byName.get(name) ?? { total: 0, series: [] };
        entry.total += total;
        entry.series.push(series);
        byName.set(name, entry);
    }
    const names = [...byName]
        .filter(([, v]) => v.total > 0)
        .sort(([a, x], [b, y]) => y.total - x.total || compareKeys(a, b));
    const ownColor = names.length <= MODULE_COLORS.length ? names.length : MODULE_COLORS.length - 1;
    const colorOf = new Map(names.map(([name], i) => [name, i < ownColor ? (MODULE_COLORS[i] ?? OTHER_MODULES_COLOR) : OTHER_MODULES_COLOR]));
    const stackOrder = names.flatMap(([, v]) => [...v.series].sort((a, b) => compareKeys(a.module, b.module)));
    return { names, colorOf, stackOrder };
}
function stackLayout(devices, scale) {
    const topBytes = scale.top * scale.unitBytes;
    const slot = Math.min(72, Math.max(18, 960 / devices));
    const plotWidth = slot * devices;
    const y = (bytes) => MARGIN.top + PLOT_HEIGHT - (bytes / topBytes) * PLOT_HEIGHT;
    return {
        scale,
        slot,
        barWidth: Math.min(44, slot * 0.6),
        plotWidth,
        width: MARGIN.left + plotWidth + MARGIN.right,
        height: MARGIN.top + PLOT_HEIGHT + MARGIN.bottom,
        y,
        baseY: y(0),
        rotate: slot < 48,
    };
}
function axisSvg({ scale, y, plotWidth }) {
    const out = ['<g class="axis">'];
    const steps = Math.round(scale.top / scale.step);
    for (let i = 0; i <= steps; i++) {
        const units = scale.step * i;
        const gy = y(units * scale.unitBytes);
        out.push(`<line x1="${n(MARGIN.left)}" y1="${n(gy)}" x2="${n(MARGIN.left + plotWidth)}" y2="${n(gy)}" stroke="${i === 0 ? '#6b6b6b' : '#e3e3e3'}" stroke-width="1"/>`);
        out.push(`<text x="${n(MARGIN.left - 8)}" y="${n(gy + 5)}" text-anchor="end" font-size="14" fill="#444">${escapeHtml(`${decimal(units)} ${scale.unit}`)}</text>`);
    }
    out.push('</g>');
    return out;
}
function deviceBarSvg(bar, layout, colors, baseline) {
    const { device, index, failing, capacity } = bar;
    const { slot, barWidth, y, baseY, rotate } = layout;
    const center = MARGIN.left + slot * index + slot / 2;
    const x = center - barWidth / 2;
    const shownDevice = escapeHtml(replaceControlCharacters(device));
    const out = [`<g class="device" data-device="${shownDevice}">`];
    let stackBytes = 0;
    for (const series of colors.stackOrder) {
        const peak = series.byDevice.get(device);
        if (peak === undefined || peak.current === null || peak.current <= 0)
            continue;
        const top = y(stackBytes + peak.current);
        const bottom = y(stackBytes);
        stackBytes += peak.current;
        if (n(bottom - top) === '0')
            continue;
        const was = peak.baseline === null ? 'new' : `baseline ${formatBytes(peak.baseline)}`;
        const title = `${device} · ${series.module}: ${formatBytes(peak.current)} (${was})`;
        const color = colors.colorOf.get(moduleColorKey(series.module)) ?? OTHER_MODULES_COLOR;
        out.push(`<rect class="segment" tabindex="0" data-module="${escapeHtml(replaceControlCharacters(series.module))}" x="${n(x)}" y="${n(top)}" width="${n(barWidth)}" height="${n(bottom - top)}" fill="${color}"><title>${escapeHtml(replaceControlCharacters(title))}</title></rect>`);
    }
    let labelTop = y(stackBytes);
    if (baseline !== null) {
        const top = y(baseline);
        labelTop = Math.min(labelTop, top);
        out.push(`<line class="baseline" x1="${n(x - 3)}" y1="${n(top)}" x2="${n(x + barWidth + 3)}" y2="${n(top)}" stroke="${BASELINE_OUTLINE_COLOR}" stroke-width="2" stroke-dasharray="4 3"><title>${escapeHtml(replaceControlCharacters(`${device} · baseline, sum of module peaks: ${formatBytes(baseline)}`))}</title></line>`);
    }
    if (capacity !== undefined) {
        const cy = y(capacity);
        labelTop = Math.min(labelTop, cy);
        out.push(`<line class="capacity" x1="${n(center - slot / 2 + 1)}" y1="${n(cy)}" x2="${n(center + slot / 2 - 1)}" y2="${n(cy)}" stroke="${CAPACITY_COLOR}" stroke-width="3" stroke-dasharray="${n(slot - 4)} 2"><title>${escapeHtml(`${device} · capacity ${formatBytes(capacity)}`)}</title></line>`);
    }
    if (!rotate) {
        out.push(`<text class="total" x="${n(center)}" y="${n(labelTop - 6)}" text-anchor="middle" font-size="12" fill="#222">${escapeHtml(formatBytes(stackBytes))}</text>`);
    }
    const place = rotate
        ? `x="${n(center + 4)}" y="${n(baseY + 14)}" text-anchor="end" transform="rotate(-45 ${n(center + 4)} ${n(baseY + 14)})"`
        : `x="${n(center)}" y="${n(baseY + 20)}" text-anchor="middle"`;
    out.push(`<text class="device-label${failing ? ' fail' : ''}" ${place} font-size="14"${failing ? ' font-weight="bold" fill="#b3261e"' : ' fill="#222"'}>${shownDevice}${failing ? ' ✗' : ''}</text>`);
    out.push('</g>');
    return out;
}
function legendOf(colors, drawn) {
    const legend = [];
    const others = [];
    for (const [name, { series }] of colors.names) {
        const color = colors.colorOf.get(name) ?? OTHER_MODULES_COLOR;
        if (color === OTHER_MODULES_COLOR)
            others.push(name);
        else
            legend.push({
                label: series.length === 1
                    ? series[0].module
                    : `${name} (${series.map((s) => s.module).join(', ')})`,
                color,
                kind: 'module',
            });
    }
    if (others.length > 0)
        legend.push({ label: plural(others.length, 'other module'), color: OTHER_MODULES_COLOR, kind: 'other' });
    if (drawn.baseline)
        legend.push({
            label: "baseline (dashed): sum of the device's module peaks",
            color: BASELINE_OUTLINE_COLOR,
            kind: 'baseline',
        });
    if (drawn.capacity)
        legend.push({ label: 'device capacity', color: CAPACITY_COLOR, kind: 'capacity' });
    return legend;
}
function drawnDevices(devices, failing, change) {
    if (devices.length <= ALL_BARS_UP_TO)
        return [...devices];
    const ranked = [...devices].sort((a, b) => Number(failing.has(b)) - Number(failing.has(a)) || change(b) - change(a) || compareKeys(a, b));
    return ranked.slice(0, MAX_BARS).sort(compareKeys);
}
function n(x) {
    return String(Math.round(x * 10) / 10);
}

export { devicePeaks as a, renderDeviceStacksSvg as b, decimal as d, renderMermaidChart as r, sizeScale as s };

import { d as compareKeys } from './snapshot.js';
import { b as formatBytes } from './units.js';
import { d as formatCount, p as plural, j as deviceOf, k as isCountEntry, t as growth } from './entry-values.js';
import { c as codeSpan, e as escapeHtml, r as replaceControlCharacters } from './escape.js';

/**
 * Module peaks grouped by module and device. Only module entries with a `devN` segment and byte values count: host and
 * SVM keys have no device, kernel diffs are not peaks, device-level verdicts are totals of their own. A key with several
 * entries (its verdict and findings such as leak-suspect) counts once; its worst severity counts.
 */
function devicePeaks(entries) {
    const byKey = new Map();
    for (const entry of entries) {
        if (entry.kind !== 'module')
            continue;
        const device = deviceOf(entry.key);
        if (device === null)
            continue;
        const seen = byKey.get(entry.key) ?? { device, peak: null, severity: 'ok' };
        seen.severity = worse(seen.severity, chartSeverity(entry.severity));
        if (seen.peak === null && !isCountEntry(entry) && (entry.baseline !== null || entry.current !== null)) {
            seen.peak = { baseline: entry.baseline, current: entry.current, growth: growth(entry), severity: 'ok' };
        }
        byKey.set(entry.key, seen);
    }
    const modules = new Map();
    const devices = new Set();
    for (const [key, { device, peak, severity }] of byKey) {
        if (peak === null)
            continue;
        const module = moduleName(key, device);
        let series = modules.get(module);
        if (series === undefined) {
            series = { module, byDevice: new Map() };
            modules.set(module, series);
        }
        devices.add(device);
        const previous = series.byDevice.get(device);
        // Two keys naming one module on one device (`A/dev0/X`, `dev0/A/X`) are summed, like the per-device totals.
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
function moduleName(key, device) {
    const segments = key.split('/');
    segments.splice(segments.indexOf(device), 1);
    return segments.join('/') || key;
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
/**
 * The modules worth a chart: those that changed (grew, shrank, or got a warning or failure), most interesting first:
 * failing, then warning, then the largest |growth| on any device, then the largest peak. Left out: unchanged modules
 * (the table says "within thresholds"), modules of zeros, and a module on one device without a baseline (one bar
 * compares nothing).
 */
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
    candidates.sort((a, b) => a.severity - b.severity || b.change - a.change || b.peak - a.peak || compareKeys(a.series.module, b.series.module));
    return candidates.slice(0, Math.max(0, limit)).map((c) => c.series);
}
const MERMAID_BASELINE_COLOR = '#9e9e9e';
const MERMAID_CURRENT_COLOR = '#4e79a7';
/**
 * Markdown with one Mermaid `xychart-beta` per top module: bars per device, the baseline's (`base`, grey) beside this
 * run's (`now`, blue). xychart draws a chart's bar series on top of each other and has no legend, so each device gets
 * two x positions, each series is zero at the other's, and the x labels say which bar is which. Nothing read from a
 * file enters the Mermaid text: module names are markdown code spans above each fence. Null when there is nothing
 * per device to draw.
 */
function renderMermaidChart(entries, options = {}) {
    const charted = chartedModules(devicePeaks(entries), options.modules ?? 3);
    if (charted.length === 0)
        return null;
    const which = charted.length === 1 ? 'The module' : `The ${formatCount(charted.length)} modules`;
    const blocks = [
        '#### Module peaks per device',
        `${which} that changed most. \`base\` (grey): the baseline's peak on the device; \`now\` (blue): this run's.`,
    ];
    for (const series of charted) {
        const compared = hasBaseline(series);
        // Never a line that starts with a backtick: a name's backticks widen the span's fence, and ``` opens a code block.
        blocks.push(compared ? `Module ${codeSpan(series.module)}` : `Module ${codeSpan(series.module)}, no baseline: this run only`);
        blocks.push(['```mermaid', ...mermaidLines(series, compared), '```'].join('\n'));
    }
    return blocks.join('\n\n');
}
function mermaidLines(series, compared) {
    const devices = [...series.byDevice.keys()].sort(compareKeys);
    const scale = sizeScale(largestValue(series));
    const value = (bytes) => decimal((bytes ?? 0) / scale.unitBytes);
    // Only fixed text and numbers below: device names match /^dev\d+$/, everything else is ours.
    const colors = compared ? `${MERMAID_BASELINE_COLOR}, ${MERMAID_CURRENT_COLOR}` : MERMAID_CURRENT_COLOR;
    const lines = [`%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${colors}"}}}}%%`, 'xychart-beta'];
    if (compared) {
        lines.push(`  x-axis [${devices.flatMap((d) => [`"${d} base"`, `"${d} now"`]).join(', ')}]`);
    }
    else {
        lines.push(`  x-axis [${devices.map((d) => `"${d}"`).join(', ')}]`);
    }
    lines.push(`  y-axis "peak (${scale.unit})" 0 --> ${decimal(scale.top)}`);
    if (compared) {
        lines.push(`  bar [${devices.flatMap((d) => [value(series.byDevice.get(d)?.baseline ?? null), '0']).join(', ')}]`);
        lines.push(`  bar [${devices.flatMap((d) => ['0', value(series.byDevice.get(d)?.current ?? null)]).join(', ')}]`);
    }
    else {
        lines.push(`  bar [${devices.map((d) => value(series.byDevice.get(d)?.current ?? null)).join(', ')}]`);
    }
    return lines;
}
// ───────────────────────────── scale ─────────────────────────────
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
/** Axis tops (× 10^k) with the number of grid steps that makes each step round: 1.2 → 4 × 0.3, 3 → 6 × 0.5. */
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
/** Up to two decimals, no trailing zeros, never an exponent: Mermaid's number token is `[+-]?\d+(\.\d+)?`. */
function decimal(x) {
    return String(Number(x.toFixed(2)));
}
// ───────────────────────────── SVG (HTML report) ─────────────────────────────
/** Tableau 10 without its grey: distinct, colour-blind-aware; the grey stands for the modules beyond these. */
const MODULE_COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f'];
const OTHER_MODULES_COLOR = '#bab0ac';
const BASELINE_OUTLINE_COLOR = '#1f1f1f';
const PLOT_HEIGHT = 280;
const MARGIN = { top: 28, right: 24, bottom: 44, left: 84 };
/**
 * One bar per device, stacked by module peak (this run), largest module at the bottom, each with its own colour and a
 * tooltip; the baseline's sum as a dashed outline; devices with a failing verdict labelled in red. Null without devices.
 */
function renderDeviceStacksSvg(peaks, failingDevices = new Set()) {
    const { devices } = peaks;
    if (devices.length === 0)
        return null;
    // Stack order and colours: the modules with the largest total peak get their own colour, the rest share grey.
    const totals = peaks.modules.map((series) => ({
        series,
        total: [...series.byDevice.values()].reduce((sum, p) => sum + (p.current ?? 0), 0),
    }));
    // A module missing from this run has nothing to stack: it only counts in the baseline outline.
    const stacked = totals.filter((t) => t.total > 0);
    stacked.sort((a, b) => b.total - a.total || compareKeys(a.series.module, b.series.module));
    const ownColor = stacked.length <= MODULE_COLORS.length ? stacked.length : MODULE_COLORS.length - 1;
    const colored = stacked.slice(0, ownColor).map(({ series }, i) => ({ series, color: MODULE_COLORS[i] ?? OTHER_MODULES_COLOR }));
    const others = stacked.slice(ownColor).map(({ series }) => series);
    const stackTotal = (device) => peaks.modules.reduce((sum, series) => sum + (series.byDevice.get(device)?.current ?? 0), 0);
    const baselineTotal = (device) => {
        let sum = null;
        for (const series of peaks.modules) {
            const baseline = series.byDevice.get(device)?.baseline ?? null;
            if (baseline !== null)
                sum = (sum ?? 0) + baseline;
        }
        return sum;
    };
    const maxBytes = Math.max(...devices.map((d) => Math.max(stackTotal(d), baselineTotal(d) ?? 0)));
    const scale = sizeScale(maxBytes);
    const topBytes = scale.top * scale.unitBytes;
    const slot = Math.min(120, Math.max(24, 960 / devices.length));
    const barWidth = Math.min(64, slot * 0.55);
    const plotWidth = slot * devices.length;
    const width = MARGIN.left + plotWidth + MARGIN.right;
    const height = MARGIN.top + PLOT_HEIGHT + MARGIN.bottom;
    const y = (bytes) => MARGIN.top + PLOT_HEIGHT - (bytes / topBytes) * PLOT_HEIGHT;
    const baseY = y(0);
    const out = [];
    const label = `Module peaks per device, this run, stacked by module; dashed outline: the baseline's sum`;
    out.push(`<svg class="device-stacks" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}" role="img" aria-label="${escapeHtml(label)}">`);
    // Grid and y-axis labels.
    out.push('<g class="axis">');
    const steps = Math.round(scale.top / scale.step);
    for (let i = 0; i <= steps; i++) {
        const units = scale.step * i;
        const gy = y(units * scale.unitBytes);
        out.push(`<line x1="${n(MARGIN.left)}" y1="${n(gy)}" x2="${n(MARGIN.left + plotWidth)}" y2="${n(gy)}" stroke="${i === 0 ? '#6b6b6b' : '#e3e3e3'}" stroke-width="1"/>`);
        out.push(`<text x="${n(MARGIN.left - 8)}" y="${n(gy + 4)}" text-anchor="end" font-size="12" fill="#444">${escapeHtml(`${decimal(units)} ${scale.unit}`)}</text>`);
    }
    out.push('</g>');
    for (const [index, device] of devices.entries()) {
        const center = MARGIN.left + slot * index + slot / 2;
        const x = center - barWidth / 2;
        const shownDevice = escapeHtml(replaceControlCharacters(device));
        out.push(`<g class="device" data-device="${shownDevice}">`);
        let stackBytes = 0;
        const segment = (bytes, color, module, title) => {
            if (bytes <= 0)
                return;
            const top = y(stackBytes + bytes);
            const bottom = y(stackBytes);
            stackBytes += bytes;
            // Too thin to see at this scale: its bytes still lift the blocks above.
            if (n(bottom - top) === '0')
                return;
            out.push(`<rect class="segment" data-module="${escapeHtml(replaceControlCharacters(module))}" x="${n(x)}" y="${n(top)}" width="${n(barWidth)}" height="${n(bottom - top)}" fill="${color}"><title>${escapeHtml(replaceControlCharacters(title))}</title></rect>`);
        };
        for (const { series, color } of colored) {
            const peak = series.byDevice.get(device);
            if (peak === undefined || peak.current === null)
                continue;
            const was = peak.baseline === null ? 'new' : `baseline ${formatBytes(peak.baseline)}`;
            segment(peak.current, color, series.module, `${device} · ${series.module}: ${formatBytes(peak.current)} (${was})`);
        }
        const otherBytes = others.reduce((sum, series) => sum + (series.byDevice.get(device)?.current ?? 0), 0);
        if (others.length > 0) {
            segment(otherBytes, OTHER_MODULES_COLOR, 'other modules', `${device} · ${plural(others.length, 'other module')}: ${formatBytes(otherBytes)}`);
        }
        const baseline = baselineTotal(device);
        let labelTop = y(stackBytes);
        if (baseline !== null) {
            const top = y(baseline);
            labelTop = Math.min(labelTop, top);
            out.push(`<rect class="baseline" x="${n(x - 5)}" y="${n(top)}" width="${n(barWidth + 10)}" height="${n(baseY - top)}" fill="none" stroke="${BASELINE_OUTLINE_COLOR}" stroke-width="2" stroke-dasharray="6 4"><title>${escapeHtml(replaceControlCharacters(`${device} · baseline, sum of module peaks: ${formatBytes(baseline)}`))}</title></rect>`);
        }
        out.push(`<text class="total" x="${n(center)}" y="${n(labelTop - 6)}" text-anchor="middle" font-size="11" fill="#222">${escapeHtml(formatBytes(stackBytes))}</text>`);
        const failing = failingDevices.has(device);
        out.push(`<text class="device-label${failing ? ' fail' : ''}" x="${n(center)}" y="${n(baseY + 18)}" text-anchor="middle" font-size="13"${failing ? ' font-weight="bold" fill="#b3261e"' : ' fill="#222"'}>${shownDevice}${failing ? ' ✗' : ''}</text>`);
        out.push('</g>');
    }
    out.push('</svg>');
    const legend = colored.map(({ series, color }) => ({ label: series.module, color, kind: 'module' }));
    if (others.length > 0)
        legend.push({ label: plural(others.length, 'other module'), color: OTHER_MODULES_COLOR, kind: 'other' });
    if (devices.some((d) => baselineTotal(d) !== null)) {
        legend.push({ label: "baseline: sum of the device's module peaks", color: BASELINE_OUTLINE_COLOR, kind: 'baseline' });
    }
    return { svg: out.join('\n'), legend };
}
/** A coordinate with at most one decimal: short, and the same on every machine. */
function n(x) {
    return String(Math.round(x * 10) / 10);
}

export { renderMermaidChart as a, devicePeaks as d, renderDeviceStacksSvg as r };

// Pictures of module peaks per device: the data, a Mermaid xychart for GitHub markdown, a stacked-bar SVG for the HTML report.
import type { Entry } from '../gate/types.js';
import { SECTIONS, sectionOfKind } from '../model/sections/index.js';
import { compareKeys } from '../model/key-order.js';
import { formatBytes, formatCount } from '../model/units.js';
import { isCountEntry } from './entry-values.js';
import { replaceControlCharacters } from '../common/visible.js';
import { codeSpan, escapeHtml } from './escape.js';
import { splitOf } from './groups.js';
import { growth, plural } from './partition.js';

type ChartSeverity = 'fail' | 'warn' | 'ok';

/** One module's peak on one device. */
interface DevicePeak {
  baseline: number | null;
  current: number | null;
  /** Growth in bytes (a new module grows by its whole peak). */
  growth: number;
  /** The worst severity of the entries behind it; an unknown severity counts as warn. */
  severity: ChartSeverity;
}

/** One module across devices: the key without its `devN` segment (`DEV_MEM/dev0/APP` → `DEV_MEM/APP`). */
export interface ModulePeaks {
  module: string;
  byDevice: Map<string, DevicePeak>;
}

export interface DevicePeaks {
  /** Every device with a module peak, naturally sorted. */
  devices: string[];
  /** Modules by name. */
  modules: ModulePeaks[];
}

/**
 * Module peaks grouped by module and device. Only module entries with a `devN` segment and byte values count: host and
 * SVM keys have no device, kernel diffs are not peaks, device-level verdicts are totals of their own. A key with several
 * entries (its verdict and findings such as leak-suspect) counts once; its worst severity counts.
 */
export function devicePeaks(entries: readonly Entry[], chartedKind: string = SECTIONS[0]?.kind ?? ''): DevicePeaks {
  const byKey = new Map<string, { device: string; module: string; peak: DevicePeak | null; severity: ChartSeverity }>();
  for (const entry of entries) {
    const declaration = sectionOfKind(entry.kind);
    if (declaration === undefined || declaration.unit !== 'bytes' || chartedKind !== entry.kind) continue;
    const { device, group } = splitOf(entry);
    if (device === null) continue;
    const seen = byKey.get(entry.key) ?? { device, module: group, peak: null, severity: 'ok' as ChartSeverity };
    seen.severity = worse(seen.severity, chartSeverity(entry.severity));
    if (seen.peak === null && !isCountEntry(entry) && (entry.baseline !== null || entry.current !== null)) {
      seen.peak = { baseline: entry.baseline, current: entry.current, growth: growth(entry), severity: 'ok' };
    }
    byKey.set(entry.key, seen);
  }

  const modules = new Map<string, ModulePeaks>();
  const devices = new Set<string>();
  for (const { device, module, peak, severity } of byKey.values()) {
    if (peak === null) continue;
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

function addNullable(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

function chartSeverity(severity: string): ChartSeverity {
  return severity === 'fail' || severity === 'ok' ? severity : 'warn';
}

const SEVERITY_RANK: Record<ChartSeverity, number> = { fail: 0, warn: 1, ok: 2 };

function worse(a: ChartSeverity, b: ChartSeverity): ChartSeverity {
  return SEVERITY_RANK[a] <= SEVERITY_RANK[b] ? a : b;
}

function hasBaseline(series: ModulePeaks): boolean {
  return [...series.byDevice.values()].some((p) => p.baseline !== null);
}

function largestValue(series: ModulePeaks): number {
  let max = 0;
  for (const p of series.byDevice.values()) max = Math.max(max, p.baseline ?? 0, p.current ?? 0);
  return max;
}

/**
 * The modules worth a chart: those that changed (grew, shrank, or got a warning or failure), most interesting first:
 * failing, then warning, then the largest |growth| on any device, then the largest peak. Left out: unchanged modules
 * (the table says "within thresholds"), modules of zeros, and a module on one device without a baseline (one bar
 * compares nothing).
 */
export function chartedModules(peaks: DevicePeaks, limit: number): ModulePeaks[] {
  const score = (series: ModulePeaks): { severity: number; change: number; peak: number } => {
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
    .filter(
      ({ series, severity, change, peak }) =>
        peak > 0 && (change > 0 || severity !== SEVERITY_RANK.ok) && (series.byDevice.size > 1 || hasBaseline(series)),
    );
  candidates.sort(
    (a, b) =>
      a.severity - b.severity ||
      b.change - a.change ||
      b.peak - a.peak ||
      compareKeys(a.series.module, b.series.module),
  );
  return candidates.slice(0, Math.max(0, limit)).map((c) => c.series);
}

// ───────────────────────────── Mermaid (markdown) ─────────────────────────────

export interface MermaidChartOptions {
  /** How many modules get a chart. Default 3; 0 = no chart. */
  modules?: number;
}

const MERMAID_BASELINE_COLOR = '#9e9e9e';
const MERMAID_CURRENT_COLOR = '#4e79a7';

/** Up to this many devices a chart shows every device; above, the devices that changed most, and a distribution table. */
const CHART_ALL_DEVICES_UP_TO = 16;

/**
 * Markdown with one Mermaid `xychart-beta` per top module: this run's peak per device as bars (blue), the baseline's
 * as a line (grey), both real series of the same length: nothing is padded. One device: two bars, baseline and this
 * run. Above 16 devices: the 16 that changed most, then a min / median / max table over every device. Nothing read
 * from a file enters the Mermaid text: module names are code spans above each fence, device names match /^dev\d+$/.
 */
export function renderMermaidChart(entries: readonly Entry[], options: MermaidChartOptions = {}): string | null {
  const charted = chartedModules(devicePeaks(entries), options.modules ?? 3);
  if (charted.length === 0) return null;
  const which = charted.length === 1 ? 'The module' : `The ${formatCount(charted.length)} modules`;
  const blocks = [
    '#### Module peaks per device',
    `${which} that changed most. Bars (blue): this run's peak on each device; line (grey): the baseline's.`,
  ];
  for (const series of charted) {
    const compared = hasBaseline(series);
    const all = [...series.byDevice.keys()].sort(compareKeys);
    const devices = all.length <= CHART_ALL_DEVICES_UP_TO ? all : mostChanged(series, CHART_ALL_DEVICES_UP_TO);
    const scope =
      devices.length < all.length
        ? `, the ${formatCount(devices.length)} of ${formatCount(all.length)} devices that changed most`
        : '';
    // Never a line that starts with a backtick: a name's backticks widen the span's fence, and ``` opens a code block.
    blocks.push(`Module ${codeSpan(series.module)}${compared ? '' : ', no baseline: this run only'}${scope}`);
    blocks.push(['```mermaid', ...mermaidLines(series, devices, compared), '```'].join('\n'));
    if (devices.length < all.length) blocks.push(distributionTable(series, all));
  }
  return blocks.join('\n\n');
}

/** The devices with the largest |growth|, in device order. */
function mostChanged(series: ModulePeaks, limit: number): string[] {
  return [...series.byDevice]
    .sort(([da, a], [db, b]) => Math.abs(b.growth) - Math.abs(a.growth) || compareKeys(da, db))
    .slice(0, limit)
    .map(([d]) => d)
    .sort(compareKeys);
}

/** Min, median and max of a module over every device, baseline and this run. */
function distributionTable(series: ModulePeaks, devices: readonly string[]): string {
  const stats = (pick: (p: DevicePeak) => number | null): string[] => {
    const values = devices
      .map((d) => series.byDevice.get(d))
      .flatMap((p) => (p === undefined || pick(p) === null ? [] : [pick(p) as number]));
    if (values.length === 0) return ['—', '—', '—'];
    values.sort((a, b) => a - b);
    const mid = Math.floor(values.length / 2);
    const median =
      values.length % 2 === 1 ? (values[mid] as number) : ((values[mid - 1] as number) + (values[mid] as number)) / 2;
    return [values[0] as number, median, values[values.length - 1] as number].map((v) =>
      formatBytes(Math.round(v)).replace(' ', '\u00a0'),
    );
  };
  return [
    `| Over ${formatCount(devices.length)} devices | min | median | max |`,
    '|---|--:|--:|--:|',
    `| baseline | ${stats((p) => p.baseline).join(' | ')} |`,
    `| this run | ${stats((p) => p.current).join(' | ')} |`,
  ].join('\n');
}

/** The chart's lines: only fixed text and numbers (device names match /^dev\d+$/). */
function mermaidLines(series: ModulePeaks, devices: readonly string[], compared: boolean): string[] {
  const scale = sizeScale(
    Math.max(
      ...devices.map((d) => Math.max(series.byDevice.get(d)?.baseline ?? 0, series.byDevice.get(d)?.current ?? 0)),
    ),
  );
  const value = (bytes: number | null): string => decimal((bytes ?? 0) / scale.unitBytes);
  const axis = `  y-axis "peak (${scale.unit})" 0 --> ${decimal(scale.top)}`;
  const device = (d: string): string => (/^dev\d+$/.test(d) ? d : '?');
  if (devices.length === 1 && compared) {
    const only = series.byDevice.get(devices[0] as string);
    return [
      `%%{init: {"xyChart": {"height": 320}, "themeVariables": {"xyChart": {"plotColorPalette": "${MERMAID_CURRENT_COLOR}"}}}}%%`,
      'xychart-beta',
      `  x-axis ["${device(devices[0] as string)} baseline", "${device(devices[0] as string)} this run"]`,
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

// ───────────────────────────── scale ─────────────────────────────

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

export interface SizeScale {
  /** The largest binary unit the maximum reaches: "GiB". */
  unit: string;
  unitBytes: number;
  /** The axis top in units: the maximum rounded up to a round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × 10^k). */
  top: number;
  /** A round step between grid lines, in units: four to six steps from 0 to top. */
  step: number;
}

export function sizeScale(maxBytes: number): SizeScale {
  let i = 0;
  while (i < BINARY_UNITS.length - 1 && maxBytes >= 1024 ** (i + 1)) i++;
  const unitBytes = 1024 ** i;
  const value = maxBytes / unitBytes;
  if (!(value > 0)) return { unit: BINARY_UNITS[i] ?? 'B', unitBytes, top: 1, step: 0.2 };
  const power = 10 ** Math.floor(Math.log10(value));
  const [mantissa, steps] = ROUND_TOPS.find(([m]) => m * power >= value * (1 - 1e-12)) ?? [10, 5];
  const top = mantissa * power;
  return { unit: BINARY_UNITS[i] ?? 'B', unitBytes, top, step: top / steps };
}

/** Axis tops (× 10^k) with the number of grid steps that makes each step round: 1.2 → 4 × 0.3, 3 → 6 × 0.5. */
const ROUND_TOPS: readonly (readonly [mantissa: number, steps: number])[] = [
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
export function decimal(x: number): string {
  return String(Number(x.toFixed(2)));
}

// ───────────────────────────── SVG (HTML report) ─────────────────────────────

/** Tableau 10 without its grey: distinct, colour-blind-aware; the grey stands for the modules beyond these. */
export const MODULE_COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
] as const;
export const OTHER_MODULES_COLOR = '#bab0ac';
const BASELINE_OUTLINE_COLOR = '#1f1f1f';

export interface LegendItem {
  label: string;
  color: string;
  kind: 'module' | 'other' | 'baseline' | 'capacity';
}

export interface StackedBars {
  /** An inline `<svg>` element (no namespace attribute needed inside HTML): every text escaped; scales to its container. */
  svg: string;
  legend: LegendItem[];
  /** Devices drawn, and devices in all (more than MAX_BARS: the failing and the most changed are drawn). */
  drawn: number;
  total: number;
}

export interface StackOptions {
  /** Devices with a failing verdict: labelled in red, and always drawn. */
  failingDevices?: ReadonlySet<string>;
  /** Capacity per device (a headroom verdict's), drawn as a red line over its bar. */
  capacities?: ReadonlyMap<string, number>;
}

/** Every device gets a bar up to this many; above, the failing ones and the most changed, up to MAX_BARS. */
const ALL_BARS_UP_TO = 64;
const MAX_BARS = 32;
const CAPACITY_COLOR = '#b3261e';

const PLOT_HEIGHT = 280;
const MARGIN = { top: 28, right: 16, bottom: 56, left: 84 } as const;

/** The colour key of a module: its name without attribute or device (`DEV_MEM/{*}/APP` → `APP`), one colour across attributes. */
function moduleColorKey(pattern: string): string {
  return pattern.slice(pattern.lastIndexOf('/') + 1);
}

/**
 * One bar per device, stacked by module peak (this run), largest module at the bottom; one colour per module name
 * across attributes, each block focusable with a tooltip; the baseline's sum as a dashed outline; the capacity as a
 * red line; devices with a failing verdict labelled in red. Null without devices.
 */
export function renderDeviceStacksSvg(peaks: DevicePeaks, options: StackOptions = {}): StackedBars | null {
  const failingDevices = options.failingDevices ?? new Set<string>();
  const capacities = options.capacities ?? new Map<string, number>();
  if (peaks.devices.length === 0) return null;
  const totals: DeviceTotals = {
    stack: (device) => peaks.modules.reduce((sum, series) => sum + (series.byDevice.get(device)?.current ?? 0), 0),
    baseline: (device) => {
      let sum: number | null = null;
      for (const series of peaks.modules) {
        const baseline = series.byDevice.get(device)?.baseline ?? null;
        if (baseline !== null) sum = (sum ?? 0) + baseline;
      }
      return sum;
    },
  };
  const devices = drawnDevices(peaks.devices, failingDevices, (d) =>
    Math.abs(totals.stack(d) - (totals.baseline(d) ?? 0)),
  );
  const colors = moduleColors(peaks);
  const maxBytes = Math.max(
    ...devices.map((d) => Math.max(totals.stack(d), totals.baseline(d) ?? 0, capacities.get(d) ?? 0)),
  );
  const layout = stackLayout(devices.length, sizeScale(maxBytes));
  const out: string[] = [];
  const label = `Module peaks per device, this run, stacked by module; dashed tick: the baseline's sum; red line: the device capacity`;
  out.push(
    `<svg class="device-stacks" viewBox="0 0 ${n(layout.width)} ${n(layout.height)}" style="width:100%;max-width:${n(layout.width)}px;height:auto" role="img" aria-label="${escapeHtml(label)}">`,
  );
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

/** A device's sum of module peaks this run, and in the baseline (null when the baseline has none of its modules). */
interface DeviceTotals {
  stack: (device: string) => number;
  baseline: (device: string) => number | null;
}

/** Module names by total peak with their colours, and the series in stacking order (largest name at the bottom). */
interface ModuleColors {
  names: [string, { total: number; series: ModulePeaks[] }][];
  colorOf: Map<string, string>;
  stackOrder: ModulePeaks[];
}

/** Colours by module name: the names with the largest total peak get their own colour, the rest share grey. */
function moduleColors(peaks: DevicePeaks): ModuleColors {
  const byName = new Map<string, { total: number; series: ModulePeaks[] }>();
  for (const series of peaks.modules) {
    const total = [...series.byDevice.values()].reduce((sum, p) => sum + (p.current ?? 0), 0);
    const name = moduleColorKey(series.module);
    const entry = byName.get(name) ?? { total: 0, series: [] };
    entry.total += total;
    entry.series.push(series);
    byName.set(name, entry);
  }
  // A module missing from this run has nothing to stack: it only counts in the baseline outline.
  const names = [...byName]
    .filter(([, v]) => v.total > 0)
    .sort(([a, x], [b, y]) => y.total - x.total || compareKeys(a, b));
  const ownColor = names.length <= MODULE_COLORS.length ? names.length : MODULE_COLORS.length - 1;
  const colorOf = new Map<string, string>(
    names.map(([name], i) => [name, i < ownColor ? (MODULE_COLORS[i] ?? OTHER_MODULES_COLOR) : OTHER_MODULES_COLOR]),
  );
  const stackOrder = names.flatMap(([, v]) => [...v.series].sort((a, b) => compareKeys(a.module, b.module)));
  return { names, colorOf, stackOrder };
}

/** Where things go in the chart: slots per device, the byte scale and its y mapping. */
interface StackLayout {
  scale: ReturnType<typeof sizeScale>;
  slot: number;
  barWidth: number;
  plotWidth: number;
  width: number;
  height: number;
  y: (bytes: number) => number;
  baseY: number;
  /** Device labels turned 45° when slots are narrow (and no totals above the bars). */
  rotate: boolean;
}

function stackLayout(devices: number, scale: ReturnType<typeof sizeScale>): StackLayout {
  const topBytes = scale.top * scale.unitBytes;
  const slot = Math.min(72, Math.max(18, 960 / devices));
  const plotWidth = slot * devices;
  const y = (bytes: number): number => MARGIN.top + PLOT_HEIGHT - (bytes / topBytes) * PLOT_HEIGHT;
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

/** The horizontal grid lines with their size labels. */
function axisSvg({ scale, y, plotWidth }: StackLayout): string[] {
  const out = ['<g class="axis">'];
  const steps = Math.round(scale.top / scale.step);
  for (let i = 0; i <= steps; i++) {
    const units = scale.step * i;
    const gy = y(units * scale.unitBytes);
    out.push(
      `<line x1="${n(MARGIN.left)}" y1="${n(gy)}" x2="${n(MARGIN.left + plotWidth)}" y2="${n(gy)}" stroke="${i === 0 ? '#6b6b6b' : '#e3e3e3'}" stroke-width="1"/>`,
    );
    out.push(
      `<text x="${n(MARGIN.left - 8)}" y="${n(gy + 5)}" text-anchor="end" font-size="14" fill="#444">${escapeHtml(`${decimal(units)} ${scale.unit}`)}</text>`,
    );
  }
  out.push('</g>');
  return out;
}

/** One device's bar: its module blocks, the baseline tick, the capacity line, its total and its label. */
function deviceBarSvg(
  bar: { device: string; index: number; failing: boolean; capacity: number | undefined },
  layout: StackLayout,
  colors: ModuleColors,
  baseline: number | null,
): string[] {
  const { device, index, failing, capacity } = bar;
  const { slot, barWidth, y, baseY, rotate } = layout;
  const center = MARGIN.left + slot * index + slot / 2;
  const x = center - barWidth / 2;
  const shownDevice = escapeHtml(replaceControlCharacters(device));
  const out = [`<g class="device" data-device="${shownDevice}">`];
  let stackBytes = 0;
  for (const series of colors.stackOrder) {
    const peak = series.byDevice.get(device);
    if (peak === undefined || peak.current === null || peak.current <= 0) continue;
    const top = y(stackBytes + peak.current);
    const bottom = y(stackBytes);
    stackBytes += peak.current;
    // Too thin to draw at this scale: its bytes still lift the blocks above.
    if (n(bottom - top) === '0') continue;
    const was = peak.baseline === null ? 'new' : `baseline ${formatBytes(peak.baseline)}`;
    const title = `${device} · ${series.module}: ${formatBytes(peak.current)} (${was})`;
    const color = colors.colorOf.get(moduleColorKey(series.module)) ?? OTHER_MODULES_COLOR;
    out.push(
      `<rect class="segment" tabindex="0" data-module="${escapeHtml(replaceControlCharacters(series.module))}" x="${n(x)}" y="${n(top)}" width="${n(barWidth)}" height="${n(bottom - top)}" fill="${color}"><title>${escapeHtml(replaceControlCharacters(title))}</title></rect>`,
    );
  }
  let labelTop = y(stackBytes);
  if (baseline !== null) {
    // A dashed tick at the baseline's height: it never merges with the neighbours' when bars are narrow.
    const top = y(baseline);
    labelTop = Math.min(labelTop, top);
    out.push(
      `<line class="baseline" x1="${n(x - 3)}" y1="${n(top)}" x2="${n(x + barWidth + 3)}" y2="${n(top)}" stroke="${BASELINE_OUTLINE_COLOR}" stroke-width="2" stroke-dasharray="4 3"><title>${escapeHtml(replaceControlCharacters(`${device} · baseline, sum of module peaks: ${formatBytes(baseline)}`))}</title></line>`,
    );
  }
  if (capacity !== undefined) {
    const cy = y(capacity);
    labelTop = Math.min(labelTop, cy);
    out.push(
      `<line class="capacity" x1="${n(center - slot / 2 + 1)}" y1="${n(cy)}" x2="${n(center + slot / 2 - 1)}" y2="${n(cy)}" stroke="${CAPACITY_COLOR}" stroke-width="3" stroke-dasharray="${n(slot - 4)} 2"><title>${escapeHtml(`${device} · capacity ${formatBytes(capacity)}`)}</title></line>`,
    );
  }
  if (!rotate) {
    out.push(
      `<text class="total" x="${n(center)}" y="${n(labelTop - 6)}" text-anchor="middle" font-size="12" fill="#222">${escapeHtml(formatBytes(stackBytes))}</text>`,
    );
  }
  const place = rotate
    ? `x="${n(center + 4)}" y="${n(baseY + 14)}" text-anchor="end" transform="rotate(-45 ${n(center + 4)} ${n(baseY + 14)})"`
    : `x="${n(center)}" y="${n(baseY + 20)}" text-anchor="middle"`;
  out.push(
    `<text class="device-label${failing ? ' fail' : ''}" ${place} font-size="14"${failing ? ' font-weight="bold" fill="#b3261e"' : ' fill="#222"'}>${shownDevice}${failing ? ' ✗' : ''}</text>`,
  );
  out.push('</g>');
  return out;
}

/** The legend: the coloured module names, the grey rest counted, and the baseline and capacity marks when drawn. */
function legendOf(colors: ModuleColors, drawn: { baseline: boolean; capacity: boolean }): LegendItem[] {
  const legend: LegendItem[] = [];
  const others: string[] = [];
  for (const [name, { series }] of colors.names) {
    const color = colors.colorOf.get(name) ?? OTHER_MODULES_COLOR;
    if (color === OTHER_MODULES_COLOR) others.push(name);
    else
      legend.push({
        label:
          series.length === 1
            ? (series[0] as ModulePeaks).module
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
  if (drawn.capacity) legend.push({ label: 'device capacity', color: CAPACITY_COLOR, kind: 'capacity' });
  return legend;
}

/** Every device up to ALL_BARS_UP_TO; above, the failing devices, then the most changed, up to MAX_BARS, in device order. */
function drawnDevices(
  devices: readonly string[],
  failing: ReadonlySet<string>,
  change: (device: string) => number,
): string[] {
  if (devices.length <= ALL_BARS_UP_TO) return [...devices];
  const ranked = [...devices].sort(
    (a, b) => Number(failing.has(b)) - Number(failing.has(a)) || change(b) - change(a) || compareKeys(a, b),
  );
  return ranked.slice(0, MAX_BARS).sort(compareKeys);
}

/** A coordinate with at most one decimal: short, and the same on every machine. */
function n(x: number): string {
  return String(Math.round(x * 10) / 10);
}

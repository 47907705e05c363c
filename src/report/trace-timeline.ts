// Allocator timelines for the HTML report: per device, reserved and allocated over a memory snapshot's trace, as inline SVG.
import type { Entry } from '../gate/types.js';
import { SECTIONS, splitDevice } from '../model/sections/index.js';
import type { Series } from '../model/series.js';
import { compareKeys } from '../model/key-order.js';
import { formatBytes, formatCount } from '../model/units.js';
import { replaceControlCharacters } from '../common/visible.js';
import { decimal, sizeScale } from './chart.js';
import { escapeHtml } from './escape.js';

/** Devices drawn: every one up to this many; above, those with a failing or warning entry first, then in device order. */
const MAX_TIMELINES = 16;

/** Colours of a section's figures in declaration order (reserved grey under allocated blue), then more. */
const FIGURE_COLORS = [
  { line: '#0969da', fill: '#b6d4fb' },
  { line: '#6e7781', fill: '#e6e9ec' },
  { line: '#bf8700', fill: '#f6e1a6' },
] as const;

const WIDTH = 560;
const HEIGHT = 170;
const MARGIN = { top: 14, right: 14, bottom: 30, left: 74 } as const;

/** One device's lines: each figure's series (on the trace axis), with its title and colour. */
interface DeviceLines {
  device: string;
  lines: { figure: string; title: string; series: Series; color: (typeof FIGURE_COLORS)[number] }[];
  /** The note of the device's first figure entry (where the peak was, the file): the caption. */
  caption: string | null;
  flagged: boolean;
}

/**
 * The `<section>` of timelines, or nothing: for each section that declares device figures (allocator: allocated,
 * reserved), the timelines on the `trace` axis of each device, the figures drawn widest first (reserved as the area
 * behind, allocated in front, the gap between them is what the program did not hold), the allocated peak marked.
 */
export function traceTimelinesHtml(
  series: Readonly<Record<string, Readonly<Record<string, Series>>>> | undefined,
  entries: readonly Entry[],
): string[] {
  if (series === undefined) return [];
  const out: string[] = [];
  for (const declaration of SECTIONS) {
    const figures = declaration.deviceRow?.figures ?? [];
    const byKey = series[declaration.name];
    if (figures.length === 0 || byKey === undefined) continue;
    const devices = new Map<string, DeviceLines>();
    for (const key of Object.keys(byKey)) {
      const s = byKey[key] as Series;
      const { device } = splitDevice(key);
      const figure = key.slice(key.lastIndexOf('/') + 1);
      const index = figures.findIndex((f) => f.figure === figure);
      if (s.axis !== 'trace' || device === null || index === -1 || s.points.length === 0) continue;
      let lines = devices.get(device);
      if (lines === undefined) devices.set(device, (lines = { device, lines: [], caption: null, flagged: false }));
      lines.lines.push({
        figure,
        title: (figures[index] as { title: string }).title,
        series: s,
        color: FIGURE_COLORS[index % FIGURE_COLORS.length] as (typeof FIGURE_COLORS)[number],
      });
    }
    if (devices.size === 0) continue;
    const firstFigure = (figures[0] as { figure: string }).figure;
    for (const entry of entries) {
      if (entry.kind !== declaration.kind) continue;
      const lines = devices.get(splitDevice(entry.key).device ?? '');
      if (lines === undefined) continue;
      if (entry.severity !== 'ok') lines.flagged = true;
      if (
        lines.caption === null &&
        entry.key.endsWith(`/${firstFigure}`) &&
        entry.note !== undefined &&
        entry.status !== 'fragmented'
      )
        lines.caption = entry.note;
    }
    const all = [...devices.values()].sort((a, b) => compareKeys(a.device, b.device));
    const drawn =
      all.length <= MAX_TIMELINES
        ? all
        : [...all]
            .sort((a, b) => Number(b.flagged) - Number(a.flagged) || compareKeys(a.device, b.device))
            .slice(0, MAX_TIMELINES)
            .sort((a, b) => compareKeys(a.device, b.device));
    out.push('<section id="timelines">', `<h2>${text(declaration.title)} over the trace</h2>`);
    out.push(legend(drawn));
    for (const lines of drawn) out.push(deviceFigure(lines));
    const scope =
      drawn.length < all.length
        ? `${formatCount(drawn.length)} of ${formatCount(all.length)} devices: those with a failing or warning entry first. `
        : '';
    out.push(
      `<p class="note">${text(scope)}Window peaks over the trace's entries in order (torch_npu records no time): the largest value of each window, so a short spike stays visible. The trace may start in mid-run (a ring buffer).</p>`,
      '</section>',
    );
  }
  return out;
}

function legend(drawn: readonly DeviceLines[]): string {
  const seen = new Map<string, (typeof FIGURE_COLORS)[number]>();
  for (const d of drawn) for (const l of d.lines) if (!seen.has(l.title)) seen.set(l.title, l.color);
  const items = [...seen].map(
    ([title, color]) =>
      `<li><svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><rect x="0" y="0" width="14" height="14" fill="${color.fill}" stroke="${color.line}" stroke-width="2"/></svg>${text(title)}</li>`,
  );
  return `<ul class="legend">\n${items.join('\n')}\n</ul>`;
}

/** One device's chart: the figures as stepped areas over the trace points, widest behind, the first figure's peak marked. */
function deviceFigure(d: DeviceLines): string {
  const maxX = Math.max(...d.lines.map((l) => lastX(l.series)));
  const maxY = Math.max(...d.lines.flatMap((l) => l.series.points.map((p) => p[1])));
  const scale = sizeScale(Math.max(maxY, 1));
  const topBytes = scale.top * scale.unitBytes;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (v: number): number => MARGIN.left + (maxX === 0 ? 0 : (v / maxX) * plotW);
  const y = (v: number): number => MARGIN.top + plotH - (Math.max(0, v) / topBytes) * plotH;
  const shown = text(d.device);
  const out: string[] = [];
  const labels = d.lines
    .map((l) => `${l.title} up to ${formatBytes(Math.max(...l.series.points.map((p) => p[1])))}`)
    .join(', ');
  out.push(
    `<svg class="trace-timeline" viewBox="0 0 ${WIDTH} ${HEIGHT}" style="width:100%;max-width:${WIDTH}px;height:auto" role="img" aria-label="${escapeHtml(replaceControlCharacters(`${d.device}: ${labels}, over the trace`))}">`,
  );
  const steps = Math.round(scale.top / scale.step);
  for (let i = 0; i <= steps; i++) {
    const units = scale.step * i;
    const gy = y(units * scale.unitBytes);
    out.push(
      `<line x1="${n(MARGIN.left)}" y1="${n(gy)}" x2="${n(WIDTH - MARGIN.right)}" y2="${n(gy)}" stroke="${i === 0 ? '#6b6b6b' : '#e3e3e3'}" stroke-width="1"/>`,
    );
    if (i % 2 === 0 || steps <= 4)
      out.push(
        `<text x="${n(MARGIN.left - 6)}" y="${n(gy + 4)}" text-anchor="end" font-size="12" fill="#444">${escapeHtml(`${decimal(units)} ${scale.unit}`)}</text>`,
      );
  }
  // Widest behind: the figure with the largest values first.
  const order = [...d.lines].sort(
    (a, b) => Math.max(...b.series.points.map((p) => p[1])) - Math.max(...a.series.points.map((p) => p[1])),
  );
  for (const l of order) {
    const path = stepPath(l.series, x, y);
    out.push(
      `<path d="${path} L${n(x(lastX(l.series)))},${n(y(0))} L${n(x(0))},${n(y(0))} Z" fill="${l.color.fill}" stroke="none"/>`,
    );
    out.push(
      `<path d="${path}" fill="none" stroke="${l.color.line}" stroke-width="1.5"><title>${text(`${d.device} · ${l.title}`)}</title></path>`,
    );
  }
  const first = d.lines.find((l) => l.color === FIGURE_COLORS[0]) ?? d.lines[0];
  if (first !== undefined) {
    const peak = first.series.points.reduce((best, p) => (p[1] >= best[1] ? p : best));
    const px = x(peak[0] + first.series.width / 2);
    const py = y(peak[1]);
    const label = `peak ${formatBytes(peak[1])}`;
    const anchor = px > WIDTH - 120 ? 'end' : 'start';
    out.push(
      `<circle cx="${n(px)}" cy="${n(py)}" r="3.5" fill="${first.color.line}"><title>${text(`${d.device} · ${first.title}: ${label}, near entry ${formatCount(peak[0])}`)}</title></circle>`,
    );
    out.push(
      `<text x="${n(anchor === 'end' ? px - 6 : px + 6)}" y="${n(Math.max(MARGIN.top + 10, py - 5))}" text-anchor="${anchor}" font-size="12" fill="#1f2328">${escapeHtml(label)}</text>`,
    );
  }
  out.push(`<text x="${n(MARGIN.left)}" y="${HEIGHT - 8}" font-size="12" fill="#444">0</text>`);
  out.push(
    `<text x="${n(WIDTH - MARGIN.right)}" y="${HEIGHT - 8}" text-anchor="end" font-size="12" fill="#444">trace entries →</text>`,
  );
  out.push(
    `<text x="${n(MARGIN.left + plotW / 2)}" y="${HEIGHT - 8}" text-anchor="middle" font-size="13" font-weight="600" fill="#1f2328">${shown}</text>`,
  );
  out.push('</svg>');
  const caption =
    d.caption === null ? '' : `\n<figcaption class="note"><code>${shown}</code>: ${text(d.caption)}</figcaption>`;
  return `<figure class="chart">\n${out.join('\n')}${caption}\n</figure>`;
}

/** The trace points a series covers: its last bucket's end. */
function lastX(s: Series): number {
  const last = s.points[s.points.length - 1];
  return last === undefined ? 0 : last[0] + s.width;
}

/** A stepped line through the window peaks: each bucket's value held across its width. */
function stepPath(s: Series, x: (v: number) => number, y: (v: number) => number): string {
  const parts: string[] = [];
  for (const [bx, by] of s.points) {
    const x0 = x(bx);
    const x1 = x(bx + s.width);
    parts.push(`${parts.length === 0 ? 'M' : 'L'}${n(x0)},${n(y(by))} L${n(x1)},${n(y(by))}`);
  }
  return parts.join(' ');
}

function text(value: string): string {
  return escapeHtml(replaceControlCharacters(value));
}

/** A coordinate with at most one decimal: short, and the same on every machine. */
function n(v: number): string {
  return String(Math.round(v * 10) / 10);
}

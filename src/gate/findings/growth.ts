// The `growing` verdict: memory that keeps rising over a run (time axis) or from step to step (step axis), from one run alone.
//
// A series holds window peaks (src/model/series.ts). After a warm-up, the Theil–Sen slope (the median of the slopes between
// every two window peaks) says how fast the level rises; it ignores a few outliers and reads a saw-tooth within a band
// as flat. Time axis: the rise that slope gives across the run after warm-up must exceed the tolerance (every set
// field: a share of the series' peak, and bytes), and the last half of those windows must still be rising (a rise that
// then stays flat is a step up, e.g. optimizer state created at the first step, not growth), and the troughs must
// rise too: the lowest window peak of the last quarter must exceed that of the first quarter by half the tolerance
// (a saw-tooth slower than the windows has positive slopes inside each tooth, but its troughs stay put).
// Step axis: at least `perStep` bytes more each step, still rising over the last half, troughs rising. Windows without
// samples are absent from the series, never zeros, so a pause in sampling is no drop.
import type { Series } from '../../model/series.js';
import type { Tolerance } from '../../model/sections/types.js';
import { formatBytes } from '../../model/units.js';

/** When a timeline counts as `growing` (the config's `growth`). */
export interface GrowthConfig {
  /** Time axis: the first share of the run skipped as warm-up, in percent (0 to 90). */
  warmupPercent: number;
  /** Time axis: how much the projected rise after warm-up may be; every set field must be exceeded. `percent` is of the series' peak. */
  tolerance: Tolerance;
  /** Step axis: steps skipped as warm-up (the first step allocates weights, optimizer state, caches). */
  warmupSteps: number;
  /** Step axis: the smallest steady rise per step that counts, bytes. */
  perStep: number;
  /** Fewest window peaks after warm-up for any verdict; fewer say nothing. */
  minWindows: number;
}

/** 20% warm-up; a rise over 5% of the peak and 64 MiB; 1 MiB per step after the first step; at least 4 windows. */
export const DEFAULT_GROWTH: Readonly<GrowthConfig> = Object.freeze({
  warmupPercent: 20,
  tolerance: Object.freeze({ percent: 5, bytes: 64 * 1024 ** 2 }),
  warmupSteps: 1,
  perStep: 1024 ** 2,
  minWindows: 4,
});

export interface Growth {
  axis: Series['axis'];
  /** The first window peak after warm-up and the last one: [x, bytes]. */
  from: [number, number];
  to: [number, number];
  /** Theil–Sen slope after warm-up, bytes per axis unit (per microsecond or per step). */
  slope: number;
  /** The rise the slope gives across the part of the run after warm-up, bytes. */
  rise: number;
  /** What `rise` had to exceed: the larger bound of the tolerance (time), perStep × the steps after warm-up (step). */
  limit: number;
  /** Whether it is `growing`. */
  growing: boolean;
  /** One line for people: start → end, slope per hour or per step, a sparkline. */
  note: string;
}

const MICROS_PER_HOUR = 3.6e9;

/** Assesses one series; null when it has too few windows after warm-up to say anything. */
export function assessGrowth(series: Series, config: GrowthConfig = DEFAULT_GROWTH): Growth | null {
  const points = [...series.points].sort((a, b) => a[0] - b[0]);
  if (points.length === 0) return null;
  const first = points[0] as [number, number];
  const last = points[points.length - 1] as [number, number];
  const runEnd = last[0] + series.width;
  let after: [number, number][];
  let span: number;
  if (series.axis === 'time') {
    const cut = first[0] + (config.warmupPercent / 100) * (runEnd - first[0]);
    after = points.filter((p) => p[0] >= cut);
    span = runEnd - cut;
  } else {
    after = points.slice(config.warmupSteps);
    span = after.length > 0 ? last[0] - (after[0] as [number, number])[0] : 0;
  }
  if (after.length < Math.max(2, config.minWindows) || span <= 0) return null;
  const slope = theilSen(after);
  const tail = theilSen(after.slice(Math.floor(after.length / 2)));
  const peak = Math.max(...points.map((p) => p[1]));
  const from = after[0] as [number, number];
  const to = after[after.length - 1] as [number, number];
  const stillRising = tail >= slope / 2 && tail > 0;
  // A saw-tooth slower than the windows has positive slopes inside each tooth, but its troughs stay put: growth lifts
  // the lowest window peak of the last quarter above that of the first quarter.
  const quarter = Math.max(1, Math.floor(after.length / 4));
  const levelRise =
    Math.min(...after.slice(after.length - quarter).map((p) => p[1])) -
    Math.min(...after.slice(0, quarter).map((p) => p[1]));
  let rise: number;
  let limit: number;
  let growing: boolean;
  if (series.axis === 'time') {
    rise = Math.round(slope * span);
    const bounds = [
      config.tolerance.percent === undefined ? null : (peak * config.tolerance.percent) / 100,
      config.tolerance.bytes ?? null,
    ].filter((b): b is number => b !== null);
    limit = Math.round(Math.max(0, ...bounds));
    growing = stillRising && bounds.every((b) => rise > b) && levelRise > limit / 2;
  } else {
    rise = Math.round(slope * span);
    limit = config.perStep * span;
    growing = stillRising && slope >= config.perStep && levelRise > 0;
  }
  const shape = !stillRising && slope > 0 ? 'step' : levelRise <= 0 && slope > 0 ? 'band' : 'trend';
  const noteLimit = series.axis === 'time' ? limit : config.perStep;
  return {
    axis: series.axis,
    from,
    to,
    slope,
    rise,
    limit,
    growing,
    note: growthNote(series.axis, after, slope, rise, noteLimit, growing, shape),
  };
}

/** The median of the slopes between every two points (n ≤ 200 window peaks: at most 19,900 pairs). */
export function theilSen(points: readonly (readonly [number, number])[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const [xi, yi] = points[i] as readonly [number, number];
    for (let j = i + 1; j < points.length; j++) {
      const [xj, yj] = points[j] as readonly [number, number];
      if (xj !== xi) slopes.push((yj - yi) / (xj - xi));
    }
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  const mid = slopes.length >> 1;
  return slopes.length % 2 === 1
    ? (slopes[mid] as number)
    : ((slopes[mid - 1] as number) + (slopes[mid] as number)) / 2;
}

const SPARKS = '▁▂▃▄▅▆▇█';

/** Eight levels over at most 16 buckets of the points (each the max of its points): the shape at a glance. */
export function sparkline(points: readonly (readonly [number, number])[], width = 16): string {
  if (points.length === 0) return '';
  const n = Math.min(width, points.length);
  const buckets: number[] = [];
  for (let b = 0; b < n; b++) {
    const from = Math.floor((b * points.length) / n);
    const to = Math.floor(((b + 1) * points.length) / n);
    let max = -Infinity;
    for (let i = from; i < to; i++) max = Math.max(max, (points[i] as readonly [number, number])[1]);
    buckets.push(max);
  }
  const lo = Math.min(...buckets);
  const hi = Math.max(...buckets);
  return buckets.map((v) => SPARKS[hi === lo ? 0 : Math.round(((v - lo) / (hi - lo)) * (SPARKS.length - 1))]).join('');
}

function growthNote(
  axis: Series['axis'],
  after: readonly [number, number][],
  slope: number,
  rise: number,
  limit: number,
  growing: boolean,
  shape: 'step' | 'band' | 'trend',
): string {
  const from = (after[0] as [number, number])[1];
  const to = (after[after.length - 1] as [number, number])[1];
  const picture = `${sparkline(after)} ${formatBytes(from)} → ${formatBytes(to)}`;
  if (axis === 'time') {
    const perHour = `${signed(slope * MICROS_PER_HOUR)}/h`;
    const verdict = growing
      ? `rises ${formatBytes(rise)} across the run after warm-up, over the ${formatBytes(limit)} tolerated`
      : shape === 'step'
        ? 'rose, then stayed flat over the last half: a step up, not growth'
        : shape === 'band'
          ? 'rises and falls within one band (its troughs do not rise): not growth'
          : `projected ${signed(rise)} across the run after warm-up, within the ${formatBytes(limit)} tolerated`;
    return `${picture} after warm-up (${after.length} windows), Theil–Sen ${perHour}: ${verdict}`;
  }
  const perStep = `${signed(slope)}/step`;
  const verdict = growing
    ? `at least ${formatBytes(limit)} more every step`
    : shape === 'step'
      ? 'rose, then stayed flat over the last steps: a step up, not growth'
      : shape === 'band'
        ? 'rises and falls within one band: not growth'
        : `under the ${formatBytes(limit)} per step tolerated`;
  return `${picture} over steps ${(after[0] as [number, number])[0]}–${(after[after.length - 1] as [number, number])[0]}, Theil–Sen ${perStep}: ${verdict}`;
}

function signed(bytes: number): string {
  const rounded = Math.round(bytes);
  return rounded > 0 ? `+${formatBytes(rounded)}` : formatBytes(rounded);
}

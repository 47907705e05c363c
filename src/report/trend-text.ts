// What every renderer says of a trend: the sparkline of its last 30 points, its range, and where it stepped (the commit, how long ago, what changed with it).
import { environmentLabel } from '../gate/environment.js';
import type { StepNote, Trend } from './history-view.js';
import { formatBytes, formatCount } from '../model/units.js';

/** Eight heights: they render in a PR comment, a job summary and a terminal, with no image and no hosting. */
const SPARK_BLOCKS = '▁▂▃▄▅▆▇█';
/** A point without the figure (the key was absent from that run). */
const SPARK_GAP = '·';

/** One character per point, lowest to highest of the shown points; a flat series sits at mid height. */
export function sparkline(values: readonly (number | null)[], min: number, max: number): string {
  let out = '';
  for (const v of values) {
    if (v === null) out += SPARK_GAP;
    else if (max === min) out += SPARK_BLOCKS[3];
    else out += SPARK_BLOCKS[Math.min(7, Math.floor(((v - min) / (max - min)) * 8))];
  }
  return out;
}

/** A trend's value in its unit: bytes, or a plain count. */
export function trendValue(value: number, unit: 'bytes' | 'count'): string {
  return unit === 'count' ? formatCount(value) : formatBytes(value);
}

/**
 * "1.2 GiB – 1.4 GiB"; the one value of a flat series; "1.9 GiB, spread 6.0 MiB" when the ends read the same at one
 * decimal (a 6 MiB jitter on 1.9 GiB).
 */
export function trendRange(trend: Pick<Trend, 'min' | 'max'>, unit: 'bytes' | 'count'): string {
  if (trend.min === trend.max) return trendValue(trend.min, unit);
  const lo = trendValue(trend.min, unit);
  const hi = trendValue(trend.max, unit);
  return lo === hi ? `${lo}, spread ${trendValue(trend.max - trend.min, unit)}` : `${lo} – ${hi}`;
}

/** The points a sparkline stands for: "30 runs" (fewer when the history is shorter). */
export function trendSpan(trend: Trend): string {
  const n = trend.recent.length;
  return `${formatCount(n)} ${n === 1 ? 'run' : 'runs'}`;
}

/** The first seven characters of a commit, as Git and GitHub shorten it. */
export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}

/** "14 runs ago", "the latest run". */
export function runsAgo(step: StepNote): string {
  return step.runsAgo === 0
    ? 'the latest run'
    : `${formatCount(step.runsAgo)} ${step.runsAgo === 1 ? 'run' : 'runs'} ago`;
}

/**
 * What else happened at the step's run: "CANN toolkit 8.3 → 9.0 at the same run; the baseline changed at the same run".
 * Plain text by default; `value` and `label` format the environment's values and item names for another medium.
 */
export function stepContext(
  step: StepNote,
  value: (text: string) => string = (t) => t,
  label: (text: string) => string = (t) => t,
): string | null {
  const parts: string[] = [];
  if (step.environment.length > 0) {
    const changes = step.environment.map(
      (c) =>
        `${label(environmentLabel(c.item))} ${c.baseline === null ? '(unset)' : value(c.baseline)} → ${c.current === null ? '(unset)' : value(c.current)}`,
    );
    parts.push(`${changes.join('; ')} at the same run`);
  }
  if (step.baselineChanged) parts.push('the baseline changed at the same run');
  return parts.length === 0 ? null : parts.join('; ');
}

/** "400.0 MiB → 800.0 MiB": the levels before and after a step. */
export function stepLevels(step: StepNote, unit: 'bytes' | 'count'): string {
  return `${trendValue(step.before, unit)} → ${trendValue(step.after, unit)}`;
}

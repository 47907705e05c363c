// Where a figure moved: the latest step in a series whose new level holds to the end, found with medians so that a
// near-deterministic series with rare jitter reports nothing, a clean step its exact first point, two steps the later.
import { exceedsTolerance } from '../gate/thresholds.js';
import type { Tolerance } from '../gate/types.js';
import { median } from '../model/roll-up.js';

/** A level change: from `index` on, the series sits at `after`; before it, at `before` (medians). */
export interface Step {
  index: number;
  before: number;
  after: number;
}

/** Points the old level needs before a step, and the new level after it (a last-run spike is not a step). */
export const MIN_BEFORE = 2;
export const MIN_AFTER = 2;
/** The old level is the median of at most this many points before the step: the level just before, not the first one. */
const LEFT_WINDOW = 5;

/**
 * The latest point `c` where the series steps by more than the tolerance and stays there:
 * - the median of the points from `c` to the end differs from the median of the LEFT_WINDOW points before `c` by more
 *   than `tolerance` (every set field exceeded, relative to the old level, as the gate's tolerance is to the baseline);
 * - point `c` is nearer the new level than the old, and point `c - 1` nearer the old than the new: `c` is the first
 *   point of the new level;
 * - at most one in five points from `c` on strays nearer the old level (rare jitter does not undo a step).
 * With values spread less than the tolerance, the two medians cannot differ by more: no step is ever found.
 */
export function detectStep(values: readonly number[], tolerance: Tolerance): Step | null {
  const n = values.length;
  for (let c = n - MIN_AFTER; c >= MIN_BEFORE; c--) {
    const after = median(values.slice(c));
    const before = median(values.slice(Math.max(0, c - LEFT_WINDOW), c));
    if (!exceedsTolerance(Math.abs(after - before), before, tolerance)) continue;
    const nearer = (v: number): 'before' | 'after' | 'tie' => {
      const toBefore = Math.abs(v - before);
      const toAfter = Math.abs(v - after);
      return toAfter < toBefore ? 'after' : toBefore < toAfter ? 'before' : 'tie';
    };
    if (nearer(values[c] as number) !== 'after' || nearer(values[c - 1] as number) !== 'before') continue;
    let strays = 0;
    for (let i = c + 1; i < n; i++) if (nearer(values[i] as number) !== 'after') strays++;
    if (strays * 5 > n - c) continue;
    return { index: c, before, after };
  }
  return null;
}

// Where a figure moved: the latest step in a series whose new level holds to the end, found with medians so that a
// near-deterministic series with rare jitter reports nothing, a clean step its exact first point, two steps the later.
import { exceedsTolerance } from '../gate/thresholds.js';
import type { Tolerance } from '../gate/types.js';

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
  if (n < MIN_BEFORE + MIN_AFTER) return null;
  // Both medians lie within [min, max]: a series spread less than the tolerance allows at the level nearest zero cannot
  // step (a range across zero leaves only the bytes field to judge by, as the gate does with a baseline of 0).
  let min = values[0] as number;
  let max = min;
  for (let i = 1; i < n; i++) {
    const v = values[i] as number;
    if (v < min) min = v;
    else if (v > max) max = v;
  }
  const nearestZero = min <= 0 && max >= 0 ? 0 : Math.abs(min) < Math.abs(max) ? min : max;
  if (!exceedsTolerance(max - min, nearestZero, tolerance)) return null;
  let suffixMedians: Float64Array | undefined;
  for (let c = n - MIN_AFTER; c >= MIN_BEFORE; c--) {
    // The first point of a new level is nearer it than the point before is: the value changes there.
    if (values[c] === values[c - 1]) continue;
    suffixMedians ??= mediansFromTheEnd(values);
    const after = suffixMedians[c] as number;
    const before = windowMedian(values, Math.max(0, c - LEFT_WINDOW), c);
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

const window = new Float64Array(LEFT_WINDOW);

/** The median of values[from, to), at most LEFT_WINDOW of them: sorted by insertion in one reused buffer (no allocation). */
function windowMedian(values: readonly number[], from: number, to: number): number {
  const k = to - from;
  for (let i = 0; i < k; i++) {
    const v = values[from + i] as number;
    let j = i;
    while (j > 0 && (window[j - 1] as number) > v) {
      window[j] = window[j - 1] as number;
      j--;
    }
    window[j] = v;
  }
  const mid = k >> 1;
  return k % 2 === 1 ? (window[mid] as number) : ((window[mid - 1] as number) + (window[mid] as number)) / 2;
}

/**
 * The median of values[c..] for every c, in O(n log n): the values from the end go into two heaps, the lower half (a
 * max-heap) and the upper half (a min-heap), kept balanced. (Sorting each suffix took ~O(n² log n): seconds for 10,000
 * keys of 200 points.)
 */
export function mediansFromTheEnd(values: readonly number[]): Float64Array {
  const out = new Float64Array(values.length);
  const lower = new Heap((a, b) => a > b);
  const upper = new Heap((a, b) => a < b);
  for (let c = values.length - 1; c >= 0; c--) {
    const v = values[c] as number;
    if (lower.size === 0 || v <= lower.top()) lower.push(v);
    else upper.push(v);
    if (lower.size > upper.size + 1) upper.push(lower.pop());
    else if (upper.size > lower.size) lower.push(upper.pop());
    out[c] = lower.size > upper.size ? lower.top() : (lower.top() + upper.top()) / 2;
  }
  return out;
}

/** A binary heap of numbers in a typed array (no allocation per move); `above(a, b)`: a goes nearer the top than b. */
class Heap {
  private items = new Float64Array(16);
  size = 0;
  constructor(private readonly above: (a: number, b: number) => boolean) {}

  top(): number {
    return this.items[0] as number;
  }

  push(value: number): void {
    if (this.size === this.items.length) {
      const grown = new Float64Array(this.size * 2);
      grown.set(this.items);
      this.items = grown;
    }
    const items = this.items;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent] as number;
      if (!this.above(value, p)) break;
      items[i] = p;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const items = this.items;
    const top = items[0] as number;
    const last = items[--this.size] as number;
    const n = this.size;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && this.above(items[r] as number, items[l] as number) ? r : l;
      if (!this.above(items[child] as number, last)) break;
      items[i] = items[child] as number;
      i = child;
    }
    if (n > 0) items[i] = last;
    return top;
  }
}

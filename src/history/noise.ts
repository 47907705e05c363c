// The noise band's sample of a figure: the spread of its last `window` values on the default branch, and how many
// values that spread is over.
import type { NoiseSample } from '../gate/types.js';
import type { HistorySeries, Series } from './series.js';

/** The spread of the series' last `window` present values; null when it has none. */
function noiseSample(values: Series, window: number): NoiseSample | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let points = 0;
  for (let p = values.length - 1; p >= 0 && points < window; p--) {
    const v = values[p] as number;
    if (Number.isNaN(v)) continue;
    points++;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (points === 0) return null;
  // Values of a signed figure may lie 2^54 apart: the spread is clamped to what a report can hold exactly, and says so.
  const spread = hi - lo;
  return spread > Number.MAX_SAFE_INTEGER
    ? { spread: Number.MAX_SAFE_INTEGER, points, clamped: true }
    : { spread, points };
}

/** Samples made so far, by series (a key group's series is shared by its keys), with the window they were made for. */
export type NoiseSamples = WeakMap<Series, { window: number; sample: NoiseSample | null }>;

/** A key's noise sample from the history's series (undefined when the history has no value of it). */
export function noiseOf(
  series: HistorySeries,
  samples: NoiseSamples,
  kind: string,
  key: string,
  window: number,
): NoiseSample | undefined {
  const values = series.ofKey(kind, key);
  if (values === null) return undefined;
  const kept = samples.get(values);
  let sample = kept?.window === window ? kept.sample : undefined;
  if (sample === undefined) {
    sample = noiseSample(values, window);
    samples.set(values, { window, sample });
  }
  return sample ?? undefined;
}

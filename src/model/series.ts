// Compact, mergeable timelines: window peaks of one figure over time or over training steps, at most MAX_POINTS points.
//
// A sample (x, y) falls in the bucket floor(x / width); a bucket keeps the largest y. Widths are powers of two, so a
// series at width w coarsens to any larger width exactly (the max of two neighbours). Merging two series takes the
// larger width of the two (and coarsens further while over MAX_POINTS): the result is the same whatever the order and
// grouping of the merges, and the same as sampling every point into one series (merge(parse(A), parse(B)) == parse(A ∪ B)).
// Trace series are the exception: a trace is one process's order of events, and two processes' traces share no x, so
// two of one key are never merged point by point: the one with the larger peak wins whole, as metrics do.

/**
 * `time`: microseconds (the profilers' and dumps' timestamps); `step`: a training step number; `trace`: a point of an
 * allocator trace (entries applied: an order of events, not a clock).
 */
export type SeriesAxis = 'time' | 'step' | 'trace';

/** At most this many buckets per series: small enough for a snapshot of thousands of devices. */
export const MAX_POINTS = 200;

export interface Series {
  axis: SeriesAxis;
  /** Bucket width in axis units, a power of two (1 = one bucket per step or per microsecond). */
  width: number;
  /** [bucket start (a multiple of width), largest value in the bucket], sorted by x; empty buckets are absent, never 0. */
  points: [x: number, peak: number][];
}

/** Accumulates samples for one series; `toSeries()` gives the compact form. */
export class SeriesBuilder {
  private width = 1;
  private readonly buckets = new Map<number, number>();
  /** A trace series taken whole (the winner so far). */
  private whole: Series | null = null;

  constructor(readonly axis: SeriesAxis) {}

  add(x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const bucket = Math.floor(x / this.width);
    const prev = this.buckets.get(bucket);
    if (prev === undefined || y > prev) {
      this.buckets.set(bucket, y);
      if (prev === undefined && this.buckets.size > MAX_POINTS) this.coarsen();
    }
  }

  /** Folds a finished series in (same axis); a trace series replaces this one when its peak is larger. */
  addSeries(series: Series): void {
    if (series.axis !== this.axis) throw new Error(`cannot merge a ${series.axis} series into a ${this.axis} series`);
    if (series.axis === 'trace') {
      if (this.whole === null || wholeOrder(series, this.whole) > 0)
        this.whole = { axis: series.axis, width: series.width, points: series.points.map(([x, y]) => [x, y]) };
      return;
    }
    while (this.width < series.width) this.coarsenOnce();
    for (const [x, y] of series.points) this.add(x, y);
  }

  toSeries(): Series {
    if (this.whole !== null)
      return { axis: this.whole.axis, width: this.whole.width, points: this.whole.points.map(([x, y]) => [x, y]) };
    const points: [number, number][] = [...this.buckets]
      .sort((a, b) => a[0] - b[0])
      .map(([bucket, y]) => [bucket * this.width, y]);
    return { axis: this.axis, width: this.width, points };
  }

  private coarsen(): void {
    while (this.buckets.size > MAX_POINTS) this.coarsenOnce();
  }

  private coarsenOnce(): void {
    const next = new Map<number, number>();
    for (const [bucket, y] of this.buckets) {
      const b = Math.floor(bucket / 2);
      const prev = next.get(b);
      if (prev === undefined || y > prev) next.set(b, y);
    }
    this.width *= 2;
    this.buckets.clear();
    for (const [b, y] of next) this.buckets.set(b, y);
  }
}

/** Which of two trace series wins: the larger peak, then the longer, then the larger content (so the order never matters). */
function wholeOrder(a: Series, b: Series): number {
  const peak = (s: Series): number => s.points.reduce((m, p) => Math.max(m, p[1]), -Infinity);
  const last = (s: Series): number =>
    s.points.length === 0 ? 0 : (s.points[s.points.length - 1] as [number, number])[0] + s.width;
  const ta = JSON.stringify(a.points);
  const tb = JSON.stringify(b.points);
  return peak(a) - peak(b) || last(a) - last(b) || a.width - b.width || (ta < tb ? -1 : ta > tb ? 1 : 0);
}

/** Merges two series of one key: associative and commutative. */
export function mergeSeries(a: Series, b: Series): Series {
  const builder = new SeriesBuilder(a.axis);
  builder.addSeries(a);
  builder.addSeries(b);
  return builder.toSeries();
}

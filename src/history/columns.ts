// A section's figures over the points, held in typed arrays: one slot per figure (its latest change) and one record
// per change (figure, point, value, the figure's change before it), records in point order. A history of 100,000 keys
// is then a few arrays, not an object and two lists per key for the garbage collector to copy; reading a point's
// changes, recording one and dropping the oldest point touch the changes, not every figure.

/** No change: the end of a figure's chain of changes. */
const NONE = -1;

/**
 * Figures (numbered 0, 1, … as the key table lists them) over the points. Point numbers are those of the history
 * (0 the oldest kept); changes are stored against an origin that moves forward when the oldest point is dropped, so
 * dropping one rewrites nothing: a figure's value at point 0 is then its latest change at or before the origin.
 * Values are exact integers of at most 2^53 - 1 in magnitude (a double holds them exactly); NaN stands for absent.
 */
export class Columns {
  /** Figures held. */
  size = 0;
  /** Changes held (some before the origin: only the latest of each figure's there still counts). */
  private count = 0;
  /** The stored point number of the history's point 0. */
  private origin = 0;
  /** Per figure: its latest change, NONE for none. */
  private latestOf: Int32Array;
  /** Per change: its figure, stored point, value (NaN: gone from then on) and the figure's change before it. */
  private figureOf = new Int32Array(16);
  private pointOf = new Int32Array(16);
  private valueOf = new Float64Array(16);
  private previousOf = new Int32Array(16);

  constructor(size = 0) {
    this.latestOf = new Int32Array(Math.max(size, 16)).fill(NONE);
    this.size = size;
  }

  /** Adds `n` figures with no value yet; returns the first one's number. */
  add(n = 1): number {
    const first = this.size;
    const to = first + n;
    if (to > this.latestOf.length) {
      const wider = new Int32Array(Math.max(to, this.latestOf.length * 2)).fill(NONE);
      wider.set(this.latestOf.subarray(0, first));
      this.latestOf = wider;
    }
    this.size = to;
    return first;
  }

  /** Forgets the figures from `size` on (they must have no changes left). */
  truncate(size: number): void {
    this.latestOf.fill(NONE, size, this.size);
    this.size = Math.min(this.size, size);
  }

  /** Figure i's value becomes v at point p (NaN: absent from p on); points only grow, one change per figure and point. */
  push(i: number, p: number, v: number): void {
    const c = this.count;
    if (c === this.pointOf.length) this.growChanges();
    this.figureOf[c] = i;
    this.pointOf[c] = p + this.origin;
    this.valueOf[c] = v;
    this.previousOf[c] = this.latestOf[i] as number;
    this.latestOf[i] = c;
    this.count = c + 1;
  }

  /** Figure i's latest value (NaN when absent). */
  latest(i: number): number {
    const c = this.latestOf[i] as number;
    return c === NONE ? Number.NaN : (this.valueOf[c] as number);
  }

  /** The point figure i last changed at, -1 when it never did (0 when its latest change is at or before point 0). */
  latestPoint(i: number): number {
    const c = this.latestOf[i] as number;
    return c === NONE ? -1 : Math.max((this.pointOf[c] as number) - this.origin, 0);
  }

  /** Figure i's value at point p (NaN when absent there). */
  at(i: number, p: number): number {
    const stored = p + this.origin;
    let c = this.latestOf[i] as number;
    while (c !== NONE && (this.pointOf[c] as number) > stored) c = this.previousOf[c] as number;
    return c === NONE ? Number.NaN : (this.valueOf[c] as number);
  }

  /**
   * Whether figure i changed at point `from` or later after having a value before it (a step that started there needs
   * a change there and one before it): its kept changes, the value it has at point 0 counted as one, are two or more.
   */
  changedSince(i: number, from: number): boolean {
    const c = this.latestOf[i] as number;
    if (c === NONE) return false;
    const point = (this.pointOf[c] as number) - this.origin;
    if (point <= 0 || point < from) return false;
    const before = this.previousOf[c] as number;
    return before !== NONE && ((this.pointOf[before] as number) > this.origin || !Number.isNaN(this.valueOf[before]));
  }

  /** No kept point has a value of figure i. */
  isDead(i: number): boolean {
    const c = this.latestOf[i] as number;
    return c === NONE || ((this.pointOf[c] as number) <= this.origin && Number.isNaN(this.valueOf[c]));
  }

  /** Writes figure i's value at each of the first `out.length` points into `out` (which holds NaN: absent). */
  fill(i: number, out: Float64Array): void {
    let to = out.length;
    for (let c = this.latestOf[i] as number; c !== NONE; c = this.previousOf[c] as number) {
      const from = Math.max((this.pointOf[c] as number) - this.origin, 0);
      if (from < to) out.fill(this.valueOf[c] as number, from, to);
      if (from === 0) return;
      to = from;
    }
  }

  /** At each point where figure i has a value, the larger of that and what `out` holds. */
  fold(i: number, out: Float64Array): void {
    let to = out.length;
    for (let c = this.latestOf[i] as number; c !== NONE; c = this.previousOf[c] as number) {
      const from = Math.max((this.pointOf[c] as number) - this.origin, 0);
      const v = this.valueOf[c] as number;
      if (!Number.isNaN(v))
        for (let p = from; p < to; p++) {
          // NaN (absent) compares false: absent or smaller is replaced.
          if (!((out[p] as number) >= v)) out[p] = v;
        }
      if (from === 0) return;
      to = from;
    }
  }

  /**
   * Calls `visit` with each change at point p > 0, in figure order: the figure, its new value and the one before (NaN:
   * absent).
   */
  changesAt(p: number, visit: (i: number, now: number, before: number) => void): void {
    const stored = p + this.origin;
    for (let c = this.firstAt(stored); c < this.count && this.pointOf[c] === stored; c++) {
      const before = this.previousOf[c] as number;
      visit(
        this.figureOf[c] as number,
        this.valueOf[c] as number,
        before === NONE ? Number.NaN : this.valueOf[before]!,
      );
    }
  }

  /** Whether figure i changed at point p. */
  changedAt(i: number, p: number): boolean {
    const c = this.latestOf[i] as number;
    return c !== NONE && this.pointOf[c] === p + this.origin;
  }

  /** Puts the changes at point p (the latest point) in figure order, as a point's line lists them. */
  sortAt(p: number): void {
    const from = this.firstAt(p + this.origin);
    const to = this.count;
    let sorted = true;
    for (let c = from + 1; c < to && sorted; c++) sorted = (this.figureOf[c - 1] as number) < this.figureOf[c]!;
    if (sorted) return;
    const order = Array.from({ length: to - from }, (_, k) => from + k).sort(
      (a, b) => (this.figureOf[a] as number) - (this.figureOf[b] as number),
    );
    const figures = order.map((c) => this.figureOf[c] as number);
    const values = order.map((c) => this.valueOf[c] as number);
    const previous = order.map((c) => this.previousOf[c] as number);
    for (let k = 0; k < order.length; k++) {
      const c = from + k;
      this.figureOf[c] = figures[k] as number;
      this.valueOf[c] = values[k] as number;
      this.previousOf[c] = previous[k] as number;
      this.latestOf[figures[k] as number] = c;
    }
  }

  /** Takes back every change at point p or later. */
  undo(p: number): void {
    const stored = p + this.origin;
    while (this.count > 0 && (this.pointOf[this.count - 1] as number) >= stored) {
      const c = --this.count;
      this.latestOf[this.figureOf[c] as number] = this.previousOf[c] as number;
    }
  }

  /** The oldest point is dropped: point 1 becomes point 0. */
  dropOldest(): void {
    this.origin++;
  }

  /**
   * These figures over `points` points, those `kept[i]` numbers anew (-1: left out) and only their kept changes: after
   * a compaction, or when the changes before the origin outnumber the rest.
   */
  rebuilt(kept: Int32Array, size: number, points: number): Columns {
    const out = new Columns(size);
    for (let i = 0; i < this.size; i++) {
      const to = kept[i] as number;
      const v = this.at(i, 0);
      if (to !== -1 && !Number.isNaN(v)) out.push(to, 0, v);
    }
    let c = this.firstAt(this.origin + 1);
    for (let p = 1; p < points; p++) {
      const stored = p + this.origin;
      for (; c < this.count && this.pointOf[c] === stored; c++) {
        const to = kept[this.figureOf[c] as number] as number;
        if (to !== -1) out.push(to, p, this.valueOf[c] as number);
      }
    }
    return out;
  }

  /** Points dropped since these figures were built: their changes before then are kept for nothing but point 0. */
  get dropped(): number {
    return this.origin;
  }

  /** The first change at a stored point of `stored` or later (changes are in point order). */
  private firstAt(stored: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.pointOf[mid] as number) < stored) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private growChanges(): void {
    const capacity = this.pointOf.length * 2;
    const widen = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const wider = make(capacity);
      wider.set(a);
      return wider;
    };
    this.figureOf = widen(this.figureOf, (n) => new Int32Array(n));
    this.pointOf = widen(this.pointOf, (n) => new Int32Array(n));
    this.valueOf = widen(this.valueOf, (n) => new Float64Array(n));
    this.previousOf = widen(this.previousOf, (n) => new Int32Array(n));
  }
}

// Seeded randomness for tests and fixture generators: the same seed gives the same numbers on every machine.

/** mulberry32: uniform numbers in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** xorshift32: uniform numbers in [0, 1) from a 32-bit seed (0 counts as 1). */
export function xorshift32(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

/** Mixes seed parts into one 32-bit seed, so that (seed, stream, rank, role) give independent streams. */
function mix32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** A mulberry32 stream seeded from mix32(...seedParts), with the draws the fixture generators make. */
export class Rng {
  /** Uniform in [0, 1). */
  readonly next: () => number;

  constructor(...seedParts: number[]) {
    this.next = mulberry32(mix32(...seedParts));
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** Integer in [lo, hi), log-uniform: byte sizes span orders of magnitude. Exact beyond 32 bits. */
  logRange(lo: number, hi: number): number {
    return Math.floor(Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo))));
  }
  pick<T>(arr: readonly T[]): T {
    return arr[Math.floor(this.next() * arr.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  hex(digits: number): string {
    let s = '';
    for (let i = 0; i < digits; i++) s += '0123456789abcdef'[this.int(16)];
    return s;
  }
}

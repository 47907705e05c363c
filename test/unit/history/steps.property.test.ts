// Step detection on near-deterministic series: flat noise below the tolerance never steps, a step larger than the
// tolerance is found at exactly its first point, and of two steps the later one is named.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { median } from '../../../src/model/roll-up.js';
import { detectStep, mediansFromTheEnd, MIN_AFTER, MIN_BEFORE } from '../../../src/history/steps.js';
import { MiB } from '../../helpers/story.js';

/** Modules' default tolerance: +5% and +1 MiB, both to be exceeded. */
const TOLERANCE = { percent: 5, bytes: MiB };

/** A level with noise: each value in [level, level × (1 + noise)), rounded to a byte. */
function noisy(level: number, noise: number, shares: readonly number[]): number[] {
  return shares.map((u) => Math.round(level * (1 + u * noise)));
}

const shares = (min: number, max: number): fc.Arbitrary<number[]> =>
  fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: min, maxLength: max });

describe('detectStep', () => {
  it('a flat series whose noise spans less than the tolerance never reports a step (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 64 * MiB, max: 64 * 1024 * MiB }),
        fc.double({ min: 0, max: 0.049, noNaN: true }),
        shares(0, 200),
        (level, noise, us) => {
          expect(detectStep(noisy(level, noise, us), TOLERANCE)).toBeNull();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a step of more than the tolerance at a random point reports exactly that point, up or down (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 64 * MiB, max: 64 * 1024 * MiB }),
        // Noise within ±1%, a step of 6% to 300% (more than the 5% tolerance plus the noise), either way.
        fc.double({ min: 0, max: 0.01, noNaN: true }),
        fc.double({ min: 0.065, max: 3, noNaN: true }),
        fc.boolean(),
        shares(MIN_BEFORE, 100),
        shares(MIN_AFTER, 100),
        (level, noise, size, up, before, after) => {
          const to = up ? level * (1 + size) : level / (1 + size);
          const series = [...noisy(level, noise, before), ...noisy(to, noise, after)];
          const step = detectStep(series, TOLERANCE);
          expect(step?.index).toBe(before.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('of two steps, the later one is named (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 64 * MiB, max: 64 * 1024 * MiB }),
        fc.double({ min: 0, max: 0.01, noNaN: true }),
        fc.double({ min: 0.065, max: 1, noNaN: true }),
        fc.double({ min: 0.065, max: 1, noNaN: true }),
        shares(MIN_BEFORE, 40),
        shares(3, 40),
        shares(MIN_AFTER, 40),
        (level, noise, first, second, a, b, c) => {
          const series = [
            ...noisy(level, noise, a),
            ...noisy(level * (1 + first), noise, b),
            ...noisy(level * (1 + first) * (1 + second), noise, c),
          ];
          expect(detectStep(series, TOLERANCE)?.index).toBe(a.length + b.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('HCCL 400 → 800 MiB at point 16 of 30: the step, with both levels', () => {
    const series = [...Array(16).fill(400 * MiB), ...Array(14).fill(800 * MiB)];
    expect(detectStep(series, TOLERANCE)).toEqual({ index: 16, before: 400 * MiB, after: 800 * MiB });
  });

  it('a spike in the last run, or one run off the level and back, is no step', () => {
    expect(detectStep([...Array(20).fill(400 * MiB), 800 * MiB], TOLERANCE)).toBeNull();
    expect(detectStep([...Array(10).fill(400 * MiB), 800 * MiB, ...Array(10).fill(400 * MiB)], TOLERANCE)).toBeNull();
  });

  it('rare jitter on the new level does not undo a step; a step within the bytes allowance is none', () => {
    const series = [...Array(10).fill(400 * MiB), ...Array(4).fill(800 * MiB), 400 * MiB, ...Array(5).fill(800 * MiB)];
    expect(detectStep(series, TOLERANCE)?.index).toBe(10);
    // +100% of 512 KiB is 512 KiB: not more than the 1 MiB allowance.
    expect(detectStep([...Array(5).fill(512 * 1024), ...Array(5).fill(1024 * 1024)], TOLERANCE)).toBeNull();
  });

  it('with an empty tolerance (kernels) any lasting change is a step, and a constant series none', () => {
    expect(detectStep([0, 0, 0, 4096, 4096], {})).toEqual({ index: 3, before: 0, after: 4096 });
    expect(detectStep([4096, 4096, 4096, 4096], {})).toBeNull();
  });
});

describe('mediansFromTheEnd', () => {
  it('is the median of every suffix, as sorting each would give (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 60 }), (xs) => {
        expect([...mediansFromTheEnd(xs)]).toEqual(xs.map((_, c) => median(xs.slice(c))));
      }),
      { numRuns: 500 },
    );
  });
});

// formatCount groups thousands exactly as toLocaleString('en-US') does, without loading ICU's number formatting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../../src/model/units.js';

describe('formatCount', () => {
  it("writes every safe integer as toLocaleString('en-US') does", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1_000_000, max: 1_000_000 })), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 3000 },
    );
  });

  it('at the group edges, and for what is no safe integer', () => {
    for (const n of [
      0,
      -0,
      1,
      999,
      1000,
      -1000,
      999_999,
      1_000_000,
      4096,
      161_440,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      1.5,
      2 ** 60,
      Number.NaN,
      Infinity,
    ]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
    expect(formatCount(161_440)).toBe('161,440');
  });
});

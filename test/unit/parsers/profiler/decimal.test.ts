// Exact MB/KB → bytes: hand-checked values, every refusal, and properties against an independent BigInt formula.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cellMicros,
  decimalBytes,
  KIB,
  MIB,
  MINDSPORE_MB,
  type ByteUnit,
} from '../../../../src/parsers/profiler/decimal.js';

/** The reference: round half up of digits × unit / 10^decimals, all in BigInt, straight from the text. */
function reference(text: string, unit: ByteUnit): bigint {
  const [int = '', frac = ''] = text.split('.');
  const num = BigInt(int + frac || '0') * BigInt(unit.bytes);
  const den = 10n ** BigInt(frac.length);
  return (2n * num + den) / (2n * den);
}

describe('hand-checked conversions', () => {
  it('reads the issue example: 4599.74072265625 MB = 4,823,177,728 bytes', () => {
    // 4599.74072265625 × 2^20 = 4599 × 1,048,576 + 0.74072265625 × 1,048,576 = 4,822,400,... :
    // 4599 × 1048576 = 4,822,401,024; 0.74072265625 × 1048576 = 776,704 (= 1517/2048 × 2^20 = 1517 × 512); sum 4,823,177,728.
    expect(decimalBytes('4599.74072265625', MIB)).toBe(4_823_177_728);
  });
  it('reads whole MB, KB and zero', () => {
    expect(decimalBytes('8664.0', MIB)).toBe(8664 * 1048576); // 9,084,862,464
    expect(decimalBytes('18816.5', KIB)).toBe(18816 * 1024 + 512); // 19,268,096
    expect(decimalBytes('0.0', MIB)).toBe(0);
    expect(decimalBytes('-0.0', MIB)).toBe(0);
  });
  it("rounds msprof's round(x/1024, 3) KB half up: 900.031 KB = 921,631.744 bytes → 921,632", () => {
    expect(decimalBytes('900.031', KIB)).toBe(921_632);
    // 0.0005 KB = 0.512 bytes → 1; 0.0004 KB = 0.4096 → 0
    expect(decimalBytes('0.0005', KIB)).toBe(1);
    expect(decimalBytes('0.0004', KIB)).toBe(0);
  });
  it("converts MindSpore's KB/1000 'MB' exactly: 1.5 = 1,536,000 bytes, 0.001 = 1,024", () => {
    expect(decimalBytes('1.5', MINDSPORE_MB)).toBe(1_536_000);
    expect(decimalBytes('0.001', MINDSPORE_MB)).toBe(1024);
  });
  it('allows the TAB the writers put after time-like fields', () => {
    expect(decimalBytes('128.0\t', KIB)).toBe(131_072);
  });
  it('names why a cell has no size', () => {
    expect(decimalBytes('', MIB)).toBe('missing');
    expect(decimalBytes('N/A', MIB)).toBe('missing');
    expect(decimalBytes('-1', KIB)).toBe('negative');
    expect(decimalBytes('-0.0009765625', MIB)).toBe('negative');
    expect(decimalBytes('1.69512E+15', MIB)).toBe('exponent');
    expect(decimalBytes('9.4509e13', MIB)).toBe('exponent');
    expect(decimalBytes('12 MB', MIB)).toBe('malformed');
    expect(decimalBytes('.', MIB)).toBe('malformed');
    expect(decimalBytes('1.2.3', MIB)).toBe('malformed');
    // msprof's -1 read into uint64 and divided by 1024 (open question 3): 18014398509481983 KB ≥ 2^53 bytes.
    expect(decimalBytes('18014398509481983', KIB)).toBe('too-large');
  });
});

describe('properties', () => {
  const decimalText = fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }), fc.integer({ min: 0, max: 20 }))
    .map(([digits, decimals]) => {
      const s = digits.toString().padStart(decimals + 1, '0');
      return decimals === 0 ? s : `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`;
    });

  for (const unit of [MIB, KIB, MINDSPORE_MB]) {
    it(`is exact for every decimal of up to 20 significant digits in ${unit.label}`, () => {
      fc.assert(
        fc.property(decimalText, (text) => {
          const expected = reference(text, unit);
          const got = decimalBytes(text, unit);
          if (expected > BigInt(Number.MAX_SAFE_INTEGER)) expect(got).toBe('too-large');
          else expect(got).toBe(Number(expected));
        }),
        { numRuns: 3000 },
      );
    });
  }

  it('gives back every byte count written as bytes / 2^20 in full (Python repr of an exact float)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }), (bytes) => {
        // bytes / 2^20 = bytes × 5^20 / 10^20 exactly: a terminating decimal with at most 20 decimals.
        const scaled = (bytes * 5n ** 20n).toString().padStart(21, '0');
        const text = `${scaled.slice(0, -20)}.${scaled.slice(-20)}`.replace(/0+$/, '0');
        expect(decimalBytes(text, MIB)).toBe(Number(bytes));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('timestamps', () => {
  const micros = (t: string): number => cellMicros(t, 0, t.length);
  it("reads the writers' <int>.<3 digits>TAB and re-saved shapes in whole microseconds", () => {
    expect(micros('1736405443756384.100\t')).toBe(1736405443756384);
    expect(micros('1695115378653323.5')).toBe(1695115378653323);
    expect(micros('1695115378739328')).toBe(1695115378739328);
  });
  it('marks spreadsheet exponents apart from garbage', () => {
    expect(micros('1.69512E+15')).toBe(Infinity);
    expect(micros('')).toBeNaN();
    expect(micros('soon')).toBeNaN();
  });
});

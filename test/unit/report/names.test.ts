// Long names shortened for display: bounded, stable, and never two long names looking the same.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeSpan } from '../../../src/report/escape.js';
import { DISPLAY_NAME_LENGTH, shortenName } from '../../../src/report/names.js';

describe('shortenName', () => {
  it('keeps names up to the limit as they are', () => {
    expect(shortenName('DEV_MEM/dev0/APP')).toBe('DEV_MEM/dev0/APP');
    expect(shortenName('x'.repeat(DISPLAY_NAME_LENGTH))).toBe('x'.repeat(DISPLAY_NAME_LENGTH));
  });

  it('shortens a 5,000-character kernel name in the middle, keeping head and tail, with a hash of the whole', () => {
    const name = `dev0/${'a'.repeat(2500)}${'b'.repeat(2495)}`;
    const shown = shortenName(name, 40);
    expect(shown).toBe(`dev0/aaaaaaaa…bbbbbbbbbbbbb~${shown.slice(-12)}`);
    expect(shown).toHaveLength(40);
    expect(shortenName(name, 40)).toBe(shown);
  });

  it('two long names that differ only in the middle never look the same', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 5 }), fc.string({ minLength: 1, maxLength: 5 }), (a, b) => {
        fc.pre(a !== b);
        const pad = 'k'.repeat(3000);
        expect(shortenName(`${pad}${a}${pad}`)).not.toBe(shortenName(`${pad}${b}${pad}`));
        expect(shortenName(`${pad}${a}${pad}`).length).toBeLessThanOrEqual(DISPLAY_NAME_LENGTH);
      }),
    );
  });

  it("shortening report.json's 4,096-character key again gives what shortening the whole key gives (its hash kept)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 4097, maxLength: 9000, unit: fc.constantFrom('a', 'é', '😀', '/', '…', '~', '0') }),
        fc.integer({ min: 20, max: 4000 }),
        (name, max) => {
          expect(shortenName(shortenName(name, 4096), max)).toBe(shortenName(name, max));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a name merely ending like a hash is hashed whole: only the shape shortenName writes keeps its suffix', () => {
    const name = `${'x'.repeat(300)}~0123456789ab`;
    expect(shortenName(name).endsWith('~0123456789ab')).toBe(false);
  });

  it('is never longer than its limit, also when the tail would start inside a surrogate pair (it was one unit longer)', () => {
    // 'a' then pairs: at 40 the tail's start falls on the second half of a pair.
    const name = `a${'😀'.repeat(300)}`;
    expect(shortenName(name, 40).length).toBeLessThanOrEqual(40);
    expect(shortenName(name, 41).length).toBeLessThanOrEqual(41);
  });

  it('never splits a surrogate pair', () => {
    const shown = shortenName('😀'.repeat(3000), 41);
    // no lone surrogate: encoding to UTF-8 and back changes nothing
    expect(Buffer.from(shown, 'utf8').toString('utf8')).toBe(shown);
  });

  it('markdown code spans show long names shortened; an HTML comment in a name stays literal text in the span', () => {
    expect(codeSpan(`dev0/${'z'.repeat(5000)}`)).toHaveLength(DISPLAY_NAME_LENGTH + 2);
    expect(codeSpan('dev0/<!-- ascend-memory-gate:default -->')).toBe('`dev0/<!-- ascend-memory-gate:default -->`');
  });
});

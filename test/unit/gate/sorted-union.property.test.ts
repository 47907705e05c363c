// The gate's key union: the same list as sorting the union, whether or not the sides come sorted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedUnion } from '../../../src/gate/compare.js';
import { compareKeys } from '../../../src/model/key-order.js';

// Keys that collide under the numeric collation (dev1 / dev01) and differ only in case, to exercise ties.
const key = fc
  .tuple(
    fc.constantFrom('DEV_MEM', 'dev_mem', 'SVM_MEM'),
    fc.constantFrom('dev1', 'dev01', 'dev2', 'dev10', 'Dev2'),
    fc.constantFrom('APP', 'app', 'HCCL'),
  )
  .map((parts) => parts.join('/'));
const keys = fc.uniqueArray(key, { maxLength: 30 });

const reference = (before: string[], after: string[]): string[] =>
  [...new Set([...before, ...after])].sort(compareKeys);

describe('sortedUnion', () => {
  it('equals sorting the union, for sorted sides (the linear merge) and unsorted ones (the fallback)', () => {
    fc.assert(
      fc.property(keys, keys, fc.boolean(), (before, after, sortFirst) => {
        const a = sortFirst ? [...before].sort(compareKeys) : before;
        const b = sortFirst ? [...after].sort(compareKeys) : after;
        expect(sortedUnion(a, b)).toEqual(reference(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('equals sorting the union when both sides hold the same keys in the same order (the usual run), sorted or not', () => {
    fc.assert(
      fc.property(keys, fc.boolean(), (before, sortFirst) => {
        const a = sortFirst ? [...before].sort(compareKeys) : before;
        const union = sortedUnion(a, [...a]);
        expect(union).toEqual(reference(a, a));
        expect(union).not.toBe(a);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the baseline key first on a collation tie', () => {
    expect(compareKeys('DEV_MEM/dev1/APP', 'DEV_MEM/dev01/APP')).toBe(0);
    expect(sortedUnion(['DEV_MEM/dev01/APP'], ['DEV_MEM/dev1/APP'])).toEqual(['DEV_MEM/dev01/APP', 'DEV_MEM/dev1/APP']);
    expect(sortedUnion(['DEV_MEM/dev1/APP'], ['DEV_MEM/dev01/APP'])).toEqual(['DEV_MEM/dev1/APP', 'DEV_MEM/dev01/APP']);
  });
});

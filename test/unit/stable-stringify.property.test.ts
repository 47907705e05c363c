// stableStringify: the same text as copying every object with its keys sorted, whether or not they already are.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotBuilder, stableStringify } from '../../src/snapshot.js';

/** The straightforward form it must match byte for byte: every object copied with sorted keys, every array mapped. */
function reference(value: unknown): string {
  const sortDeep = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortDeep);
    if (v !== null && typeof v === 'object') {
      const record = v as Record<string, unknown>;
      return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortDeep(record[key])]));
    }
    return v;
  };
  return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}

/** A copy with every object's keys inserted in sorted order: the shape build() writes. */
function presorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(presorted);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, presorted(record[key])]));
  }
  return value;
}

// Keys that collide in interesting ways: integer-like ones (which objects list first), case, unicode, __proto__.
const key = fc.oneof(fc.constantFrom('a', 'B', 'b', '10', '2', '0', '__proto__', 'é', 'z', 'Z', 'dev10', 'dev2', ''), fc.string({ maxLength: 4 }));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double(), fc.integer(), fc.string({ maxLength: 5 }), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.array(fc.tuple(key, tie('value')), { maxLength: 6 }).map((entries) => Object.fromEntries(entries)),
})).value;

describe('stableStringify', () => {
  it('writes what sorting a copy of every object writes, for objects in any key order', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(stableStringify(value)).toBe(reference(value));
        expect(stableStringify(presorted(value))).toBe(reference(value));
      }),
      { numRuns: 3_000 },
    );
  });

  it('writes a non-plain object as the plain object of its fields, as before, even when already in order', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const value = { at: new Date(0), p: new Point(1, 2), list: [new Point(3, 4)], undef: undefined, nested: { a: 1, b: [1, { c: 2, d: 3 }] } };
    expect(stableStringify(value)).toBe(reference(value));
    expect(stableStringify(value)).toContain('"at": {}');
    expect(stableStringify({ b: 1, a: { d: 1, c: 2 } })).toBe('{\n  "a": {\n    "c": 2,\n    "d": 1\n  },\n  "b": 1\n}\n');
  });

  it('does not change its input', () => {
    const input = { b: { z: 1, y: [{ q: 1, p: 2 }] }, a: 0 };
    const copy = structuredClone(input);
    stableStringify(input);
    expect(input).toEqual(copy);
    expect(Object.keys(input)).toEqual(['b', 'a']);
  });

  it('keeps a key named __proto__ as a key, in build() and when sorting', () => {
    const builder = new SnapshotBuilder();
    builder.addKernel('dev0/__proto__', { diff: 1, rows: 1, added: 0, removed: 0, event: null });
    builder.addKernel('__proto__', { diff: 2, rows: 1, added: 0, removed: 0, event: null });
    const kernels = builder.build().sections.kernels as Record<string, unknown>;
    expect(Object.keys(kernels)).toEqual(['__proto__', 'dev0/__proto__']);
    expect(Object.getPrototypeOf(kernels)).toBe(Object.prototype);
    const text = stableStringify({ z: 1, ...JSON.parse('{"__proto__": {"b": 1, "a": 2}}') });
    expect(text).toBe('{\n  "__proto__": {\n    "a": 2,\n    "b": 1\n  },\n  "z": 1\n}\n');
  });
});

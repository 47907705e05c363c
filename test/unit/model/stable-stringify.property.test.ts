// stableStringify: the same text as copying every object with its keys sorted, whether or not they already are.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotBuilder } from '../../../src/model/snapshot.js';
import { stableStringify, stringifyDocument } from '../../../src/model/document-json.js';
import { compareKeys, fileKeyOrder } from '../../../src/model/key-order.js';
import { kernels as kernelsSection, modules as modulesSection } from '../../../src/model/sections/index.js';

/** The straightforward form it must match byte for byte: every object copied with sorted keys, every array mapped. */
function reference(value: unknown): string {
  const sortDeep = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortDeep);
    if (v !== null && typeof v === 'object') {
      const record = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(record)
          .sort()
          .map((key) => [key, sortDeep(record[key])]),
      );
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
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, presorted(record[key])]),
    );
  }
  return value;
}

// Keys that collide in interesting ways: integer-like ones (which objects list first), case, unicode, __proto__.
const key = fc.oneof(
  fc.constantFrom('a', 'B', 'b', '10', '2', '0', '__proto__', 'é', 'z', 'Z', 'dev10', 'dev2', ''),
  fc.string({ maxLength: 4 }),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.string({ maxLength: 5 }),
    tie('array'),
    tie('object'),
  ),
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
    const value = {
      at: new Date(0),
      p: new Point(1, 2),
      list: [new Point(3, 4)],
      undef: undefined,
      nested: { a: 1, b: [1, { c: 2, d: 3 }] },
    };
    expect(stableStringify(value)).toBe(reference(value));
    expect(stableStringify(value)).toContain('"at": {}');
    expect(stableStringify({ b: 1, a: { d: 1, c: 2 } })).toBe(
      '{\n  "a": {\n    "c": 2,\n    "d": 1\n  },\n  "b": 1\n}\n',
    );
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
    builder.add(kernelsSection, 'dev0/__proto__', { diff: 1, rows: 1, added: 0, removed: 0, event: null });
    builder.add(kernelsSection, '__proto__', { diff: 2, rows: 1, added: 0, removed: 0, event: null });
    const kernels = builder.build().sections.kernels as Record<string, unknown>;
    expect(Object.keys(kernels)).toEqual(['__proto__', 'dev0/__proto__']);
    expect(Object.getPrototypeOf(kernels)).toBe(Object.prototype);
    const text = stableStringify({ z: 1, ...JSON.parse('{"__proto__": {"b": 1, "a": 2}}') });
    expect(text).toBe('{\n  "__proto__": {\n    "a": 2,\n    "b": 1\n  },\n  "z": 1\n}\n');
  });
});

/** stringifyDocument's reference: reference() everywhere, except the records under sections.<name> and series.<name>, copied in fileKeyOrder (compareKeys, code units on a tie). */
function documentReference(document: Record<string, unknown>): string {
  const sortDeep = (v: unknown): unknown => JSON.parse(reference(v === undefined ? null : v)) as unknown;
  const natural = (byName: unknown): unknown => {
    if (byName === null || typeof byName !== 'object' || Array.isArray(byName)) return sortDeep(byName);
    const names = byName as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(names)
        .sort()
        .map((name) => {
          const record = names[name];
          if (record === null || typeof record !== 'object' || Array.isArray(record)) return [name, sortDeep(record)];
          const r = record as Record<string, unknown>;
          return [
            name,
            Object.fromEntries(
              Object.keys(r)
                .sort(fileKeyOrder)
                .map((k) => [k, sortDeep(r[k])]),
            ),
          ];
        }),
    );
  };
  const out = Object.fromEntries(
    Object.keys(document)
      .sort()
      .map((k) => [k, k === 'sections' || k === 'series' ? natural(document[k]) : sortDeep(document[k])]),
  );
  return `${JSON.stringify(out, null, 2)}\n`;
}

describe('stringifyDocument', () => {
  it('writes section and timeline keys in compareKeys order (dev2 before dev10), everything else as stableStringify does', () => {
    const builder = new SnapshotBuilder();
    for (const d of [10, 2, 1, 100])
      builder.add(modulesSection, `DEV_MEM/dev${d}/APP`, { peak: d, current: d, allocs: null, frees: null });
    builder.addSample('modules', 'DEV_MEM/dev10/APP', 'step', 1, 5);
    builder.addSample('modules', 'DEV_MEM/dev2/APP', 'step', 1, 5);
    builder.noteDevice('dev10');
    builder.noteDevice('dev2');
    const snapshot = builder.build();
    const text = stringifyDocument(snapshot);
    const order = (record: object): string[] => Object.keys(record);
    const back = JSON.parse(text) as typeof snapshot;
    expect(order(back.sections.modules as object)).toEqual([
      'DEV_MEM/dev1/APP',
      'DEV_MEM/dev2/APP',
      'DEV_MEM/dev10/APP',
      'DEV_MEM/dev100/APP',
    ]);
    expect(order(back.series.modules as object)).toEqual(['DEV_MEM/dev2/APP', 'DEV_MEM/dev10/APP']);
    // meta is not a section: code-unit order, as before.
    expect(order(back.meta.allocFailures)).toEqual(['dev10', 'dev2']);
    expect(text).toBe(documentReference(snapshot as unknown as Record<string, unknown>));
    // What build() makes is already in that order: written without a copy, and the same bytes once read back.
    expect(stringifyDocument(back)).toBe(text);
  });

  it('writes keys that compareKeys ties (dev1, dev01) in one order, whatever order they came in', () => {
    expect(compareKeys('DEV_MEM/dev1/APP', 'DEV_MEM/dev01/APP')).toBe(0);
    const metric = { allocs: null, current: 1, frees: null, peak: 1 };
    const texts = [
      ['DEV_MEM/dev1/APP', 'DEV_MEM/dev01/APP', 'DEV_MEM/dev2/APP'],
      ['DEV_MEM/dev2/APP', 'DEV_MEM/dev01/APP', 'DEV_MEM/dev1/APP'],
    ].map((order) => {
      const builder = new SnapshotBuilder();
      for (const key of order) builder.add(modulesSection, key, metric);
      return stringifyDocument(builder.build());
    });
    expect(texts[0]).toBe(texts[1]);
    expect(Object.keys((JSON.parse(texts[0] as string) as { sections: { modules: object } }).sections.modules)).toEqual(
      ['DEV_MEM/dev01/APP', 'DEV_MEM/dev1/APP', 'DEV_MEM/dev2/APP'],
    );
  });

  it('writes what build() made as copying in that order writes, for modules added in any order (build marks it as written)', () => {
    const moduleKey = fc
      .tuple(
        fc.constantFrom('DEV_MEM', 'SVM_MEM', 'dev'),
        fc.constantFrom('dev1', 'dev01', 'dev2', 'dev10', 'Dev3', 'dév4', ''),
        key,
      )
      .map((parts) => parts.join('/'));
    const peak = fc.nat(1 << 30);
    fc.assert(
      fc.property(fc.array(fc.tuple(moduleKey, peak), { maxLength: 40 }), (added) => {
        const builder = new SnapshotBuilder();
        for (const [k, p] of added) builder.add(modulesSection, k, { peak: p, current: p, allocs: null, frees: 1 });
        const snapshot = builder.build();
        const text = stringifyDocument(snapshot);
        expect(text).toBe(documentReference(snapshot as unknown as Record<string, unknown>));
        expect(stringifyDocument(JSON.parse(text) as object)).toBe(text);
      }),
      { numRuns: 1_000 },
    );
  });

  it('writes what copying in that order writes, for documents in any key order', () => {
    const record = fc.array(fc.tuple(key, json), { maxLength: 6 }).map((entries) => Object.fromEntries(entries));
    const byName = fc.oneof(
      fc.array(fc.tuple(key, fc.oneof(record, json)), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
      json,
    );
    const document = fc.record(
      { sections: byName, series: byName, meta: json, version: fc.integer() },
      { requiredKeys: ['sections'] },
    );
    fc.assert(
      fc.property(document, (doc) => {
        const expected = documentReference(doc);
        expect(stringifyDocument(doc)).toBe(expected);
        expect(stringifyDocument(JSON.parse(expected) as object)).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });
});

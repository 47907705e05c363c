// Strict JSON for configs, baselines and reports: duplicate keys and absurd nesting are errors with file:line:column,
// found without recursion; random documents never escape as an uncaught exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/common/errors.js';
import { keyTokens, MAX_JSON_DEPTH, parseJson } from '../../../src/json/reader.js';
import { parseBaseline } from '../../../src/gate/baseline.js';
import { parseGateConfig } from '../../../src/gate/thresholds.js';
import { thrown } from '../../helpers/thrown.js';

const POSITIONED = /^doc\.json:\d+:\d+: /;

/** parseJson's outcome: the value, or the InputError's message; anything else thrown fails the test. */
function outcome(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: parseJson(text, 'doc.json') };
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return { ok: false, message: (error as Error).message };
  }
}

describe('key tokens', () => {
  it('counts the matches of /"[ \\t\\r\\n]*:/g, in any text', () => {
    const piece = fc.constantFrom('"', ':', ' ', '\t', '\n', '\r', 'a', '{', '}', ',', '\\', '""', '" :', '":', '::');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        expect(keyTokens(text)).toBe(text.match(/"[ \t\r\n]*:/g)?.length ?? 0);
      }),
      { numRuns: 5_000 },
    );
    expect(keyTokens('{"a" :\n 1, "b":{"c"\r\n\t: "x:y"}}')).toBe(3);
  });
});

describe('duplicate keys', () => {
  it('a merge that kept both halves of "modules" is an error naming line:column and the pointer, not a silent loss', () => {
    const text =
      '{\n  "version": 1,\n  "modules": {"A": {"peak": 1}},\n  "kernels": {},\n  "modules": {"B": {"peak": 2}}\n}\n';
    expect(thrown(() => parseBaseline(text, 'baselines/memory-baseline.json')).message).toBe(
      'baselines/memory-baseline.json:5:3: duplicate key "modules" at /modules (first at 3:3): JSON keeps only the last one, so keep one of them (a merge conflict resolved by keeping both halves?)',
    );
  });

  it('a key spelt with an escape is the same key', () => {
    expect(outcome('{"ab": 1, "a\\u0062": 2}')).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^doc\.json:1:11: duplicate key "ab" at \/ab \(first at 1:2\)/,
      ) as unknown as string,
    });
  });

  it('nested duplicates name the pointer of the object they are in; the same key in two objects is fine', () => {
    expect(outcome('{"a": {"x": 1}, "b": {"x": 2}}')).toEqual({ ok: true, value: { a: { x: 1 }, b: { x: 2 } } });
    const r = outcome('{"rules": [{"match": "a"}, {"match": "b", "tolerance": {}, "match": "c"}]}');
    expect(r).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^doc\.json:1:60: duplicate key "match" at \/rules\/1\/match \(first at 1:29\)/),
    });
  });

  it('a config with a tolerance given twice is refused before its schema is read', () => {
    const text = '{"modules": {"tolerance": {"percent": 5}, "tolerance": {"percent": 500}}}';
    expect(() => parseGateConfig(parseJson(text, '.github/memory-gate.json'), '.github/memory-gate.json')).toThrow(
      /^\.github\/memory-gate\.json:1:43: duplicate key "tolerance" at \/modules\/tolerance/,
    );
  });

  it('random objects: an error exactly when a key repeats in one object, at its second occurrence', () => {
    const keyArb = fc.constantFrom('a', 'b', 'c', 'a\\u0062', 'ab', '~/', 'é', '\\"');
    const valueArb = fc.oneof(fc.integer(), fc.constant('"s"'), fc.constant('null'), fc.constant('[]'));
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArb, valueArb), { maxLength: 6 }), fc.nat(3), (members, wrap) => {
        const inner = `{${members.map(([k, v]) => `"${k}": ${v}`).join(', ')}}`;
        const text = `${'['.repeat(wrap)}${inner}${']'.repeat(wrap)}`;
        const decoded = members.map(([k]) => JSON.parse(`"${k}"`) as string);
        const repeated = decoded.findIndex((k, i) => decoded.indexOf(k) !== i);
        const r = outcome(text);
        if (repeated === -1) {
          expect(r).toEqual({ ok: true, value: JSON.parse(text) });
        } else {
          expect(r.ok).toBe(false);
          if (r.ok) return;
          // the second occurrence's opening quote
          const offset =
            wrap + 1 + members.slice(0, repeated).reduce((sum, [k, v]) => sum + `"${k}": ${v}, `.length, 0);
          expect(
            r.message.startsWith(`doc.json:1:${offset + 1}: duplicate key ${JSON.stringify(decoded[repeated])} at `),
          ).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('values that look like keys (\\":, " :) and spaced colons: the fast count never hides a repeat', () => {
    // parseJson counts `"` + whitespace + `:` in the text against the keys JSON.parse kept; string values holding that
    // pattern make the count larger, and only the scanner may then say whether a key repeats.
    const keyArb = fc.constantFrom('a', 'b', 'a\\u0062', 'b\\":');
    const valueArb = fc.constantFrom('1', '"x\\":"', '"\\" :"', '"::"', '{"a\\":": 2}', '["\\":"]', 'null');
    const colonArb = fc.constantFrom(':', ' :', '\n\t:', ': ');
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArb, colonArb, valueArb), { maxLength: 5 }), (members) => {
        const text = `{${members.map(([k, c, v]) => `"${k}"${c}${v}`).join(',')}}`;
        const decoded = members.map(([k]) => JSON.parse(`"${k}"`) as string);
        const repeated = decoded.some((k, i) => decoded.indexOf(k) !== i);
        const r = outcome(text);
        if (repeated) expect(r.ok ? 'parsed' : r.message).toMatch(/^doc\.json:\d+:\d+: duplicate key /);
        else expect(r).toEqual({ ok: true, value: JSON.parse(text) });
      }),
      { numRuns: 3000 },
    );
  });

  it('objects small and large (the scanner keeps up to 8 keys in a list, more in a Map): the repeat and its first place', () => {
    const keyArb = fc.integer({ min: 0, max: 29 }).map((n) => `k${n}`);
    fc.assert(
      fc.property(fc.array(keyArb, { maxLength: 30 }), (keys) => {
        const text = `{${keys.map((k) => `"${k}":0`).join(',')}}`;
        const repeated = keys.findIndex((k, i) => keys.indexOf(k) !== i);
        const r = outcome(text);
        if (repeated === -1) {
          expect(r).toEqual({ ok: true, value: JSON.parse(text) });
          return;
        }
        const column = (i: number): number => 2 + keys.slice(0, i).reduce((sum, k) => sum + `"${k}":0,`.length, 0);
        const key = keys[repeated] as string;
        expect(r).toEqual({
          ok: false,
          message: `doc.json:1:${column(repeated)}: duplicate key "${key}" at /${key} (first at 1:${column(keys.indexOf(key))}): JSON keeps only the last one, so keep one of them (a merge conflict resolved by keeping both halves?)`,
        });
      }),
      { numRuns: 3000 },
    );
  });
});

describe('depth', () => {
  it(`${MAX_JSON_DEPTH} levels parse; one more is a clear error at the bracket that opens it`, () => {
    const ok = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(outcome(ok).ok).toBe(true);
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(outcome(deep)).toEqual({
      ok: false,
      message: `doc.json:1:${MAX_JSON_DEPTH + 1}: JSON nested deeper than ${MAX_JSON_DEPTH} levels: no configuration, baseline or report needs that many`,
    });
  });

  it('5,000 nested arrays in a baseline and 100,000 unclosed ones: an error with line:column, no stack overflow', () => {
    expect(thrown(() => parseBaseline(`{"modules":\n${'['.repeat(5000)}${']'.repeat(5000)}}`, 'b.json')).message).toBe(
      `b.json:2:${MAX_JSON_DEPTH}: JSON nested deeper than ${MAX_JSON_DEPTH} levels: no configuration, baseline or report needs that many`,
    );
    expect(outcome('['.repeat(100_000))).toMatchObject({ ok: false, message: expect.stringMatching(POSITIONED) });
  });

  it('random nestings up to 100,000 deep, closed or cut anywhere: always an answer, errors always positioned', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.constantFrom('[', '{"k":', '[{"a":1,"a":'),
        fc.boolean(),
        fc.nat(),
        (depth, opener, closed, cutAt) => {
          const closer = opener === '[' ? ']' : opener === '{"k":' ? '}' : '}]';
          let text = `${opener.repeat(depth)}0${closed ? closer.repeat(depth) : ''}`;
          if (!closed) text = text.slice(0, cutAt % (text.length + 1));
          const r = outcome(text);
          if (!r.ok) expect(r.message).toMatch(POSITIONED);
          else expect(depth <= MAX_JSON_DEPTH && closed && opener !== '[{"a":1,"a":').toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('random documents', () => {
  it('valid JSON parses as JSON.parse does; any cut or insertion is either valid or a positioned error', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), fc.nat(), fc.string({ maxLength: 3 }), (json, at, insert) => {
        expect(outcome(json)).toEqual({ ok: true, value: JSON.parse(json) });
        const cut = at % (json.length + 1);
        const text = json.slice(0, cut) + insert + json.slice(cut);
        const r = outcome(text);
        if (!r.ok) expect(r.message).toMatch(POSITIONED);
      }),
      { numRuns: 3000 },
    );
  });
});

// The direct pass over the sections (src/model/sections/validate.ts) accepts exactly what the sections schema accepts: ajv,
// compiled from the same declarations, is the judge on random and mutated sections of every declared section.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCheck } from '../../../../src/json/reader.js';
import { SECTIONS } from '../../../../src/model/sections/index.js';
import { buildBaselineSchema, buildSnapshotSchema } from '../../../../src/model/sections/schema.js';
import {
  compileSectionsDocument,
  parseSectionsJson,
  sectionsConform,
} from '../../../../src/model/sections/validate.js';
import { InputError, SchemaError } from '../../../../src/common/errors.js';
import { parseBaseline } from '../../../../src/gate/baseline.js';

const ajvSnapshot = compileCheck(buildSnapshotSchema());
const meta = { files: 1, records: 1, skipped: 0, allocFailures: {} };
const document = (sections: unknown): unknown => ({ version: 2, sections, series: {}, meta });

const MAX = Number.MAX_SAFE_INTEGER;
// Values every field type meets somewhere: valid ones of each type and the near misses.
const value = fc.oneof(
  fc.constantFrom(
    0,
    1,
    4096,
    MAX,
    -1,
    -MAX,
    MAX + 2,
    -MAX - 2,
    0.5,
    -0,
    1e300,
    null,
    '',
    'x',
    '12',
    true,
    false,
    [],
    {},
    [1],
    { a: 1 },
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 3 }),
);

/** A metric of the section: every field (a valid value), then maybe mutated (a field dropped, added, or given another value). */
function metric(declaration: (typeof SECTIONS)[number]): fc.Arbitrary<unknown> {
  const names = Object.keys(declaration.fields);
  const valid: Record<string, unknown> = {};
  for (const name of names) {
    const type = declaration.fields[name]?.type;
    valid[name] =
      type === 'string' || type === 'stringOrNull' ? 'KERNEL_LAUNCH' : type === 'signedBytes' ? -4096 : 4096;
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(valid) },
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...names), value).map(([name, v]) => ({ ...valid, [name]: v })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...names)
        .map((name) => Object.fromEntries(Object.entries(valid).filter(([n]) => n !== name))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'peak', 'diff'), value)
        .map(([name, v]) => JSON.parse(JSON.stringify({ ...valid, [name]: v }))),
    },
    { weight: 1, arbitrary: value },
  );
}

const sectionEntries = fc.constantFrom(...SECTIONS).chain((declaration) =>
  fc.tuple(
    fc.constant(declaration.name),
    fc.dictionary(fc.constantFrom('dev0/a', 'DEV_MEM/dev1/APP', '__proto__', 'k', 'dev0/x":y'), metric(declaration), {
      maxKeys: 3,
    }),
  ),
);
const sections = fc.oneof(
  { weight: 6, arbitrary: fc.array(sectionEntries, { maxLength: 3 }).map((pairs) => Object.fromEntries(pairs)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('unknown', 'Modules', '__proto__'), fc.constant({}))
      .map(([name, v]) => JSON.parse(`{${JSON.stringify(name)}: ${JSON.stringify(v)}}`)),
  },
  { weight: 1, arbitrary: value },
);

describe('sectionsConform', () => {
  it('agrees with ajv on random and mutated sections of every declared section', () => {
    fc.assert(
      fc.property(sections, (s) => {
        // Through JSON, as a document is read: no undefined, -0 kept as 0, keys like __proto__ own properties.
        const parsed = JSON.parse(JSON.stringify(s) ?? 'null');
        expect(sectionsConform(parsed)).toBe(ajvSnapshot(document(parsed)));
      }),
      { numRuns: 5_000 },
    );
  });

  it('read from text, a document passes exactly when ajv passes it: the count of the text proves a metric has no other field', () => {
    const validate = compileSectionsDocument(buildSnapshotSchema());
    let passed = 0;
    fc.assert(
      fc.property(sections, (s) => {
        // A key `dev0/x":y` is written `"dev0/x\\":y"`: one key token more in the text than keys in the document.
        const text = JSON.stringify(document(s));
        const { json, sectionsChecked } = parseSectionsJson(text, 'run.json');
        let accepted = true;
        try {
          validate(json, 'run.json', sectionsChecked);
        } catch (e) {
          if (!(e instanceof SchemaError)) throw e;
          accepted = false;
        }
        expect(accepted).toBe(ajvSnapshot(JSON.parse(text)));
        if (accepted) passed++;
      }),
      { numRuns: 3_000 },
    );
    expect(passed).toBeGreaterThan(300);
  });

  it("a document with a bad metric gets ajv's own message, with the JSON pointer of the field", () => {
    const validate = compileSectionsDocument(buildBaselineSchema());
    const bad = {
      version: 2,
      sections: { modules: { 'DEV_MEM/dev0/APP': { peak: 1.5, current: 1, allocs: 1, frees: 1 } } },
    };
    let error: unknown;
    try {
      validate(bad, 'baseline.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(
      /^baseline\.json: \/sections\/modules\/DEV_MEM~1dev0~1APP\/peak: must be a non-negative integer number of bytes/,
    );
    expect(
      validate(
        { ...bad, sections: { modules: { 'DEV_MEM/dev0/APP': { peak: 1, current: 1, allocs: 1, frees: 1 } } } },
        'baseline.json',
      ),
    ).toBeTruthy();
  });

  it('the validator trusts the sections only when told the parse checked them', () => {
    const validate = compileSectionsDocument(buildBaselineSchema());
    const text = JSON.stringify({
      version: 2,
      sections: { modules: { 'DEV_MEM/dev0/APP': { allocs: 1, current: 1, frees: 1, peak: 1 } } },
    });
    const { json, sectionsChecked } = parseSectionsJson(text, 'b.json');
    expect(sectionsChecked).toBe(true);
    // Changed after the parse: without the parse's word, the validator checks the sections itself.
    (json as { sections: { modules: Record<string, Record<string, unknown>> } }).sections.modules[
      'DEV_MEM/dev0/APP'
    ]!.peak = -5;
    expect(() => validate(json, 'b.json')).toThrow(
      /\/sections\/modules\/DEV_MEM~1dev0~1APP\/peak: must be a non-negative integer/,
    );
    const bad = parseSectionsJson(text.replace('"peak":1', '"peak":-1'), 'b.json');
    expect(bad.sectionsChecked).toBe(false);
    expect(() => validate(bad.json, 'b.json', bad.sectionsChecked)).toThrow(/peak: must be a non-negative integer/);
  });

  it('a document whose sections pass but whose meta does not is refused by the full schema', () => {
    const validate = compileSectionsDocument(buildSnapshotSchema());
    expect(() => validate({ version: 2, sections: {}, series: {}, meta: { ...meta, files: -1 } }, 'run.json')).toThrow(
      /^run\.json: \/meta\/files: must be a non-negative integer, got -1$/,
    );
  });

  it('counting keys during the direct pass still finds a key given twice anywhere in a baseline, with its line', () => {
    // A valid baseline, written one key per line; then one line repeated: a field, a metric's first line, a section's.
    const metric = (peak: number): string => `{\n"allocs": 1,\n"current": 2,\n"frees": 1,\n"peak": ${peak}\n}`;
    const lines = [
      '{',
      '"sections": {',
      '"kernels": {',
      '"dev0/op": {\n"added": 0,\n"diff": 4,\n"event": "KERNEL_LAUNCH",\n"removed": 0,\n"rows": 1\n}',
      '},',
      '"modules": {',
      `"DEV_MEM/dev0/APP": ${metric(10)},`,
      `"DEV_MEM/dev1/APP": ${metric(20)}`,
      '}',
      '},',
      '"source": { "commit": "abc" },',
      '"version": 2',
      '}',
    ].join('\n');
    expect(parseBaseline(lines, 'b.json').sections.modules?.['DEV_MEM/dev1/APP']?.peak).toBe(20);
    const cases: [string, string][] = [
      ['"peak": 20', '"peak": 20,\n"peak": 21'],
      [`"DEV_MEM/dev1/APP": ${metric(20)}`, `"DEV_MEM/dev1/APP": ${metric(20)},\n"DEV_MEM/dev1/APP": ${metric(30)}`],
      ['"rows": 1', '"rows": 1,\n"rows": 1'],
      ['"version": 2', '"version": 2,\n"sections": {}'],
      ['"source": { "commit": "abc" },', '"source": { "commit": "abc", "commit": "def" },'],
    ];
    for (const [from, to] of cases) {
      const text = lines.replace(from, to);
      let error: unknown;
      try {
        parseBaseline(text, 'b.json');
      } catch (e) {
        error = e;
      }
      expect(error, to).toBeInstanceOf(InputError);
      expect((error as Error).message, to).toMatch(/^b\.json:\d+:\d+: duplicate key /);
    }
  });
});

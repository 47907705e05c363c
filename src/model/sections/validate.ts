// The snapshot's and the baseline's validators. ajv is the judge of every document, but the sections (160,000 metrics at
// 4,096 devices) are first checked by a direct pass built from the same declarations as the schema: when that pass
// accepts them, ajv checks the rest of the document with the sections left opaque (compiling and running the metric
// schemas cost ~0.4 s per 15 MB file); when it does not, the full schema runs and its first error is the message.
// A property test pins that the direct pass accepts exactly what the schema accepts.
import { compileCheck, compileSchema, countJsonKeys, parseJsonCounted } from '../../json/reader.js';
import { noteParsedText } from '../../json/parsed-texts.js';
import { noteKeys } from '../record-keys.js';
import { SECTIONS } from './index.js';
import { withOpaqueSections } from './schema.js';
import type { FieldType, SectionDeclaration } from './types.js';

const MAX = Number.MAX_SAFE_INTEGER;

/** Each field type's schema definition (sections/schema.ts FIELD_DEFINITIONS) as a JavaScript condition on `v`. */
const FIELD_CONDITIONS: Record<FieldType, string> = {
  bytes: 'typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX',
  signedBytes: 'typeof v === "number" && Number.isInteger(v) && v >= -MAX && v <= MAX',
  count: 'typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX',
  countOrNull: 'v === null || (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX)',
  bytesOrNull: 'v === null || (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX)',
  string: 'typeof v === "string"',
  stringOrNull: 'v === null || typeof v === "string"',
};

/** A section's metrics map and its own keys → the keys in it (metric keys and their field names), or -1 when a metric breaks its declaration. */
type MetricsCheck = (metrics: Record<string, unknown>, keys: readonly string[]) => number;

/**
 * The check of one section's metrics, written out from its declared fields: each field read by name (one shape, so
 * V8 reads it like a struct's member) and its condition inline. A generic loop over the field names and a predicate
 * per type took ~1.3 µs per metric, ~0.2 s for the two 160,000-metric documents of a 4,096-device check.
 *
 * `exact` also counts each metric's own keys, so that an undeclared field fails. Without it the check counts the
 * declared fields as the metric's keys, and only a key count of the whole text can prove there was no other
 * (parseSectionsJson): that skips a second walk over every metric's keys.
 */
function compileMetricsCheck(
  fields: readonly (readonly [string, FieldType, boolean?])[],
  exact: boolean,
): MetricsCheck {
  const each = fields
    .map(([name, type, optional]) => {
      const field = JSON.stringify(name);
      // A field newer than files that may still be read (`optional`): checked when present, counted then.
      if (optional === true)
        return `v = hasOwn(m, ${field}) ? m[${field}] : undefined;\n    if (v !== undefined) { if (!(${FIELD_CONDITIONS[type]})) return -1; present++; }`;
      return `${exact ? `if (!hasOwn(m, ${field})) return -1;\n    ` : ''}v = m[${field}];\n    if (!(${FIELD_CONDITIONS[type]})) return -1;`;
    })
    .join('\n    ');
  const required = fields.filter(([, , optional]) => optional !== true).length;
  const ownKeys = `let own = 0;
    for (const field in m) if (hasOwn(m, field)) own++;
    if (own !== ${required} + present) return -1;`;
  const body = `return function checkMetrics(metrics, keys) {
  let count = 0;
  for (let i = 0; i < keys.length; i++) {
    const m = metrics[keys[i]];
    if (m === null || typeof m !== "object" || Array.isArray(m)) return -1;
    let v;
    let present = 0;
    ${each}
    ${exact ? ownKeys : ''}
    count += ${1 + required} + present;
  }
  return count;
};`;
  return new Function('hasOwn', 'MAX', body)(Object.hasOwn, MAX) as MetricsCheck;
}

const fieldsOf = (s: SectionDeclaration): (readonly [string, FieldType, boolean])[] =>
  Object.entries(s.fields).map(([name, field]) => [name, field.type, field.optional === true] as const);
/** Per section: the exact check, and the one whose count parseSectionsJson proves against the text. */
const SECTION_CHECKS = new Map<string, { exact: MetricsCheck; counted: MetricsCheck }>(
  SECTIONS.map((s) => [
    s.name,
    { exact: compileMetricsCheck(fieldsOf(s), true), counted: compileMetricsCheck(fieldsOf(s), false) },
  ]),
);

/** Records with at least this many keys have them noted (keysOf) by the pass that lists them. */
const NOTED_KEYS_MIN = 1024;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `sections` matches the sections schema: declared sections only, each a map of metrics with exactly their declared fields. */
export function sectionsConform(sections: unknown): boolean {
  return sectionKeys(sections, 'exact') >= 0;
}

/**
 * The keys in `sections` (section names, metric keys, field names) when it matches the sections schema, else -1.
 * `counted`: each metric counted as holding exactly its declared fields, which the caller must prove (see compileMetricsCheck).
 */
function sectionKeys(sections: unknown, how: 'exact' | 'counted'): number {
  if (!isRecord(sections)) return -1;
  let count = 0;
  for (const name in sections) {
    const checks = SECTION_CHECKS.get(name);
    const metrics = sections[name];
    if (checks === undefined || !Object.hasOwn(sections, name) || !isRecord(metrics)) return -1;
    const keys = Object.keys(metrics);
    const inside = checks[how](metrics, keys);
    if (inside < 0) return -1;
    // The gate and the device findings read these keys again: listing a 100,000-key record costs ~25 ms each time. A
    // small record lists fast, and noting each of 4,096 node snapshots' records only fills a WeakMap for the GC.
    if (keys.length >= NOTED_KEYS_MIN) noteKeys(metrics, keys);
    count += 1 + inside;
  }
  return count;
}

/**
 * A snapshot's or baseline's text parsed as strict JSON (parseJson), its keys counted in the same pass that checks its
 * sections against their declarations (the sections counted by that pass, the rest of the document by the generic
 * walk). `sectionsChecked` says the sections passed; the validator then does not walk them again.
 *
 * The pass counts each metric as holding just its declared fields; the text's key count proves it (an undeclared field
 * is a key token more). When the counts differ for another reason (a key given twice, which parseJson then reports, or
 * `\":` inside a string), the exact check decides.
 */
export function parseSectionsJson(text: string, file: string): { json: unknown; sectionsChecked: boolean } {
  noteParsedText(text.length);
  let passed = false;
  const { value, keysCounted } = parseJsonCounted(text, file, (document) => {
    if (!isRecord(document)) return countJsonKeys(document);
    const inSections = sectionKeys(document.sections, 'counted');
    if (inSections < 0) return countJsonKeys(document);
    passed = true;
    let count = inSections;
    for (const key in document) {
      count++;
      if (key === 'sections') continue;
      const inside = countJsonKeys(document[key]);
      if (inside < 0) return -1;
      count += inside;
    }
    return count;
  });
  const sectionsChecked = passed && (keysCounted || sectionsConform((value as Record<string, unknown>).sections));
  return { json: value, sectionsChecked };
}

/**
 * A validator for a document whose `sections` property follows the sections schema (snapshot, baseline): the direct
 * pass over the sections plus ajv on the rest, or the whole schema through ajv when either says no (for its message).
 */
export function compileSectionsDocument<T>(
  schema: Record<string, unknown>,
): (data: unknown, file: string, sectionsChecked?: boolean) => T {
  const rest = compileCheck(withOpaqueSections(schema));
  const full = compileSchema<T>(schema);
  return (data, file, sectionsChecked = false) => {
    if (isRecord(data) && (sectionsChecked || sectionsConform(data.sections)) && rest(data)) return data as T;
    return full(data, file);
  };
}

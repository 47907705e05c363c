// The snapshot's and the baseline's validators. ajv is the judge of every document, but the sections (160,000 metrics at
// 4,096 devices) are first checked by a direct pass built from the same declarations as the schema: when that pass
// accepts them, ajv checks the rest of the document with the sections left opaque (compiling and running the metric
// schemas cost ~0.4 s per 15 MB file); when it does not, the full schema runs and its first error is the message.
// A property test pins that the direct pass accepts exactly what the schema accepts.
import { compileCheck, compileSchema, countJsonKeys, parseJson } from '../json-schema.js';
import { SECTIONS } from './index.js';
import type { FieldType } from './types.js';

const MAX = Number.MAX_SAFE_INTEGER;

const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Each field type's schema definition (sections/schema.ts FIELD_DEFINITIONS) as a predicate. */
const FIELD_CHECKS: Record<FieldType, (v: unknown) => boolean> = {
  bytes: (v) => isInteger(v) && v >= 0 && v <= MAX,
  signedBytes: (v) => isInteger(v) && v >= -MAX && v <= MAX,
  count: (v) => isInteger(v) && v >= 0 && v <= MAX,
  countOrNull: (v) => v === null || (isInteger(v) && v >= 0 && v <= MAX),
  bytesOrNull: (v) => v === null || (isInteger(v) && v >= 0 && v <= MAX),
  string: (v) => typeof v === 'string',
  stringOrNull: (v) => v === null || typeof v === 'string',
};

interface SectionCheck {
  names: string[];
  checks: ((v: unknown) => boolean)[];
}

const SECTION_CHECKS = new Map<string, SectionCheck>(
  SECTIONS.map((s) => {
    const names = Object.keys(s.fields);
    return [s.name, { names, checks: names.map((n) => FIELD_CHECKS[(s.fields[n] as { type: FieldType }).type]) }];
  }),
);

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `sections` matches the sections schema: declared sections only, each a map of metrics with exactly their declared fields. */
export function sectionsConform(sections: unknown): boolean {
  return sectionKeys(sections) >= 0;
}

/** The keys in `sections` (section names, metric keys, field names) when it matches the sections schema, else -1. */
function sectionKeys(sections: unknown): number {
  if (!isRecord(sections)) return -1;
  let count = 0;
  for (const name in sections) {
    const check = SECTION_CHECKS.get(name);
    const metrics = sections[name];
    if (check === undefined || !Object.hasOwn(sections, name) || !isRecord(metrics)) return -1;
    const { names, checks } = check;
    const n = names.length;
    count++;
    for (const key in metrics) {
      const metric = metrics[key];
      if (!isRecord(metric)) return -1;
      if (fieldCount(metric) !== n) return -1;
      for (let i = 0; i < n; i++) {
        const field = names[i] as string;
        if (!Object.hasOwn(metric, field) || !(checks[i] as (v: unknown) => boolean)(metric[field])) return -1;
      }
      count += 1 + n;
    }
  }
  return count;
}

/** The own enumerable keys of a parsed JSON object (for...in without an array of them). */
function fieldCount(metric: Record<string, unknown>): number {
  let fields = 0;
  for (const field in metric) if (Object.hasOwn(metric, field)) fields++;
  return fields;
}

/**
 * A snapshot's or baseline's text parsed as strict JSON (parseJson), its keys counted in the same pass that checks its
 * sections against their declarations (the sections counted by that pass, the rest of the document by the generic
 * walk). `sectionsChecked` says the sections passed; the validator then does not walk them again.
 */
export function parseSectionsJson(text: string, file: string): { json: unknown; sectionsChecked: boolean } {
  let sectionsChecked = false;
  const json = parseJson(text, file, (document) => {
    if (!isRecord(document)) return countJsonKeys(document);
    const inSections = sectionKeys(document.sections);
    if (inSections < 0) return countJsonKeys(document);
    sectionsChecked = true;
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
  return { json, sectionsChecked };
}

/**
 * A validator for a document whose `sections` property follows the sections schema (snapshot, baseline): the direct
 * pass over the sections plus ajv on the rest, or the whole schema through ajv when either says no (for its message).
 */
export function compileSectionsDocument<T>(schema: Record<string, unknown>): (data: unknown, file: string, sectionsChecked?: boolean) => T {
  const properties = schema.properties as Record<string, unknown>;
  const rest = compileCheck({ ...schema, properties: { ...properties, sections: { type: 'object' } } });
  const full = compileSchema<T>(schema);
  return (data, file, sectionsChecked = false) => {
    if (isRecord(data) && (sectionsChecked || sectionsConform(data.sections)) && rest(data)) return data as T;
    return full(data, file);
  };
}

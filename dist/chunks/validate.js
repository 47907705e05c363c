import { a as parseJsonCounted, b as compileCheck, c as compileSchema, d as countJsonKeys } from './reader.js';
import v8 from 'node:v8';
import vm from 'node:vm';
import { g as SECTIONS, n as noteKeys } from './snapshot.js';
import { M as MAX_POINTS } from './series.js';

// The snapshot's and the baseline's JSON Schemas, built from the section registry: schemas/snapshot.schema.json and
// schemas/baseline.schema.json are their published copies (`npm run schemas` writes them; a test checks they agree).
const MAX$1 = Number.MAX_SAFE_INTEGER;
/** Field types as schema definitions; each `title` reads in errors as "must be <title>". */
const FIELD_DEFINITIONS = {
    bytes: { title: 'a non-negative integer number of bytes (at most 2^53 - 1)', type: 'integer', minimum: 0, maximum: MAX$1 },
    signedBytes: { title: 'an integer number of bytes, negative or not (at most 2^53 - 1 in size)', type: 'integer', minimum: -MAX$1, maximum: MAX$1 },
    count: { title: 'a non-negative integer', type: 'integer', minimum: 0, maximum: MAX$1 },
    countOrNull: { title: 'a non-negative integer or null', type: ['integer', 'null'], minimum: 0, maximum: MAX$1 },
    bytesOrNull: { title: 'a non-negative integer number of bytes or null', type: ['integer', 'null'], minimum: 0, maximum: MAX$1 },
    string: { title: 'a string', type: 'string' },
    stringOrNull: { title: 'a string or null', type: ['string', 'null'] },
};
const SERIES = {
    description: `A timeline of window peaks: [bucket start, largest value in the bucket], at most ${MAX_POINTS} points; buckets are \`width\` wide (a power of two) in microseconds (axis time) or steps (axis step). Empty buckets are absent.`,
    type: 'object',
    additionalProperties: false,
    required: ['axis', 'width', 'points'],
    properties: {
        axis: { title: "'time' or 'step'", type: 'string', enum: ['time', 'step'] },
        width: { title: 'a positive integer', type: 'integer', minimum: 1, maximum: MAX$1 },
        points: {
            type: 'array',
            maxItems: MAX_POINTS,
            items: {
                title: 'a pair [x, peak] of integers',
                type: 'array',
                minItems: 2,
                maxItems: 2,
                additionalItems: false,
                items: [
                    { title: 'an integer', type: 'integer', minimum: -MAX$1, maximum: MAX$1 },
                    { title: 'an integer', type: 'integer', minimum: -MAX$1, maximum: MAX$1 },
                ],
            },
        },
    },
};
const META = {
    description: 'Parse statistics of the run: files read, records, skipped records, allocation failures per device.',
    type: 'object',
    additionalProperties: false,
    required: ['files', 'records', 'skipped', 'allocFailures'],
    properties: {
        files: { $ref: '#/definitions/count' },
        records: { $ref: '#/definitions/count' },
        skipped: { $ref: '#/definitions/count' },
        allocFailures: { type: 'object', additionalProperties: { $ref: '#/definitions/count' } },
        allocFailureSites: {
            description: 'The first allocation-failure lines per device, by file and line.',
            type: 'object',
            additionalProperties: {
                type: 'array',
                items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['file', 'line', 'text'],
                    properties: { file: { $ref: '#/definitions/string' }, line: { $ref: '#/definitions/count' }, text: { $ref: '#/definitions/string' } },
                },
            },
        },
        nodes: {
            description: 'Per node name, where the numbers come from: its devices, files read, records, skipped records, and the environment (CANN, driver, firmware, chip, torch, torch_npu, memory variables).',
            type: 'object',
            additionalProperties: {
                type: 'object',
                additionalProperties: false,
                required: ['devices', 'files', 'records', 'skipped', 'environment'],
                properties: {
                    devices: { type: 'array', items: { $ref: '#/definitions/string' } },
                    files: { $ref: '#/definitions/count' },
                    records: { $ref: '#/definitions/count' },
                    skipped: { $ref: '#/definitions/count' },
                    environment: { type: 'object', additionalProperties: { $ref: '#/definitions/string' } },
                },
            },
        },
    },
};
const SOURCE = {
    description: 'Where this baseline came from. Extra fields are allowed.',
    type: 'object',
    properties: {
        commit: { title: 'a string', type: 'string' },
        runId: { title: 'a string or an integer', type: ['string', 'integer'] },
        date: { title: 'a string', type: 'string', description: 'ISO 8601 date-time, e.g. 2026-06-13T17:00:34Z.' },
        repository: { title: 'a string', type: 'string', description: 'owner/name.' },
    },
};
function metricSchema(declaration) {
    return {
        type: 'object',
        additionalProperties: false,
        required: Object.keys(declaration.fields),
        properties: Object.fromEntries(Object.entries(declaration.fields).map(([name, field]) => [name, { $ref: `#/definitions/${field.type}`, description: field.description }])),
    };
}
function sectionsSchema() {
    return {
        description: 'Metrics by section, then by key. Sections: ' + SECTIONS.map((s) => `${s.name} (${s.keyShape}, compares ${s.value})`).join('; ') + '.',
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(SECTIONS.map((s) => [s.name, { description: `${s.description} Key: ${s.keyShape}.`, type: 'object', additionalProperties: metricSchema(s) }])),
    };
}
function seriesSchema() {
    return {
        description: 'Timelines by section, then by key.',
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(SECTIONS.map((s) => [s.name, { type: 'object', additionalProperties: { $ref: '#/definitions/series' } }])),
    };
}
const definitions = () => ({ ...FIELD_DEFINITIONS, series: SERIES, meta: META, source: SOURCE });
/** `ascend-memory-gate parse --json` output. */
function buildSnapshotSchema() {
    return {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'The memory evidence of one run (or one node of it): what `ascend-memory-gate parse --json` prints.',
        type: 'object',
        additionalProperties: false,
        required: ['version', 'sections', 'series', 'meta'],
        properties: {
            $schema: { type: 'string', description: 'Path or URL of this schema, for editors.' },
            version: { const: 2 },
            sections: sectionsSchema(),
            series: seriesSchema(),
            meta: { $ref: '#/definitions/meta' },
        },
        definitions: definitions(),
    };
}
/** A committed baseline: a snapshot (meta and series optional) plus provenance. */
function buildBaselineSchema() {
    return {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'Baseline of ascend-memory-gate. A committed memory snapshot (the same shape as `ascend-memory-gate parse --json`) plus optional provenance. Written with sorted keys, 2-space indent and a trailing newline so that changes review well. Version 1 files (top-level `modules` and `kernels`) are still read.',
        type: 'object',
        additionalProperties: false,
        required: ['version', 'sections'],
        properties: {
            $schema: { type: 'string', description: 'Path or URL of this schema, for editors.' },
            version: { const: 2 },
            sections: sectionsSchema(),
            series: seriesSchema(),
            meta: { $ref: '#/definitions/meta' },
            source: { $ref: '#/definitions/source' },
        },
        definitions: definitions(),
    };
}
/** Version 1 baselines (before sections): top-level `modules` and `kernels`, read and migrated to version 2. */
function buildBaselineV1Schema() {
    const modules = SECTIONS.find((s) => s.name === 'modules');
    const kernels = SECTIONS.find((s) => s.name === 'kernels');
    return {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        required: ['version', 'modules', 'kernels'],
        properties: {
            $schema: { type: 'string' },
            version: { const: 1 },
            modules: { type: 'object', additionalProperties: metricSchema(modules) },
            kernels: { type: 'object', additionalProperties: metricSchema(kernels) },
            meta: { $ref: '#/definitions/meta' },
            source: { $ref: '#/definitions/source' },
        },
        definitions: definitions(),
    };
}
/** The document's schema with `sections` left opaque (any object): what ajv checks once the direct pass has accepted them. */
function withOpaqueSections(schema) {
    return { ...schema, properties: { ...schema.properties, sections: { type: 'object' } } };
}

// Frees the texts of large JSON documents (a 4,096-device baseline and run snapshot are ~25 MB each) once they are
// parsed, before the gate builds its entries on top of them.
//
// A text read whole is one large string, external or in V8's large-object space, and only a full (mark-compact)
// collection frees it. V8 runs none on its own between reading the two documents and the end of a 4,096-device
// `check`: the heap only grows after the one mark-compact it makes while the first document is parsed, and the peak
// holds both texts (49 MB), the parse's garbage and a young generation grown to its maximum. One full collection
// there, after both documents are parsed, took ~40-70 ms and lowered the peak RSS from ~293 to ~216 MiB.
//
// Node offers no call for it without a flag on its command line, which an Action (`runs: using: node24`) cannot
// pass: `--expose-gc` is set at run time, and only a new vm context gets its `gc` (this context's globals stay as
// they are). The flag is set only when a collection is due, so small runs never touch V8's flags.
/** Below this many characters of parsed text since the last collection, no collection is made: it would free little. */
const RELEASE_MIN_CHARS = 16 * 1024 * 1024;
let parsedChars = 0;
let collect;
/** Counts a document text that is parsed and then dropped (a snapshot's, a baseline's). */
function noteParsedText(length) {
    parsedChars += length;
}
/**
 * One full collection when at least RELEASE_MIN_CHARS of text were parsed since the last: call it once those texts
 * are no longer referenced. Returns whether it collected.
 */
function releaseParsedTexts() {
    if (parsedChars < RELEASE_MIN_CHARS)
        return false;
    parsedChars = 0;
    fullCollection()();
    return true;
}
/** The `gc` function: the process's own under `node --expose-gc`, else one from a new context once the flag is set. */
function fullCollection() {
    if (collect === undefined) {
        const own = globalThis.gc;
        if (typeof own === 'function')
            collect = own;
        else {
            v8.setFlagsFromString('--expose-gc');
            collect = vm.runInNewContext('gc');
        }
    }
    return collect;
}

// The snapshot's and the baseline's validators. ajv is the judge of every document, but the sections (160,000 metrics at
// 4,096 devices) are first checked by a direct pass built from the same declarations as the schema: when that pass
// accepts them, ajv checks the rest of the document with the sections left opaque (compiling and running the metric
// schemas cost ~0.4 s per 15 MB file); when it does not, the full schema runs and its first error is the message.
// A property test pins that the direct pass accepts exactly what the schema accepts.
const MAX = Number.MAX_SAFE_INTEGER;
/** Each field type's schema definition (sections/schema.ts FIELD_DEFINITIONS) as a JavaScript condition on `v`. */
const FIELD_CONDITIONS = {
    bytes: 'typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX',
    signedBytes: 'typeof v === "number" && Number.isInteger(v) && v >= -MAX && v <= MAX',
    count: 'typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX',
    countOrNull: 'v === null || (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX)',
    bytesOrNull: 'v === null || (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX)',
    string: 'typeof v === "string"',
    stringOrNull: 'v === null || typeof v === "string"',
};
/**
 * The check of one section's metrics, written out from its declared fields: each field read by name (one shape, so
 * V8 reads it like a struct's member) and its condition inline. A generic loop over the field names and a predicate
 * per type took ~1.3 µs per metric, ~0.2 s for the two 160,000-metric documents of a 4,096-device check.
 *
 * `exact` also counts each metric's own keys, so that an undeclared field fails. Without it the check counts the
 * declared fields as the metric's keys, and only a key count of the whole text can prove there was no other
 * (parseSectionsJson): that skips a second walk over every metric's keys.
 */
function compileMetricsCheck(fields, exact) {
    const each = fields
        .map(([name, type]) => {
        const field = JSON.stringify(name);
        return `${exact ? `if (!hasOwn(m, ${field})) return -1;\n    ` : ''}v = m[${field}];\n    if (!(${FIELD_CONDITIONS[type]})) return -1;`;
    })
        .join('\n    ');
    const ownKeys = `let own = 0;
    for (const field in m) if (hasOwn(m, field)) own++;
    if (own !== ${fields.length}) return -1;`;
    const body = `return function checkMetrics(metrics, keys) {
  let count = 0;
  for (let i = 0; i < keys.length; i++) {
    const m = metrics[keys[i]];
    if (m === null || typeof m !== "object" || Array.isArray(m)) return -1;
    ${exact ? ownKeys : ''}
    let v;
    ${each}
    count += ${1 + fields.length};
  }
  return count;
};`;
    return new Function('hasOwn', 'MAX', body)(Object.hasOwn, MAX);
}
const fieldsOf = (s) => Object.entries(s.fields).map(([name, field]) => [name, field.type]);
/** Per section: the exact check, and the one whose count parseSectionsJson proves against the text. */
const SECTION_CHECKS = new Map(SECTIONS.map((s) => [s.name, { exact: compileMetricsCheck(fieldsOf(s), true), counted: compileMetricsCheck(fieldsOf(s), false) }]));
/** Records with at least this many keys have them noted (keysOf) by the pass that lists them. */
const NOTED_KEYS_MIN = 1024;
const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Whether `sections` matches the sections schema: declared sections only, each a map of metrics with exactly their declared fields. */
function sectionsConform(sections) {
    return sectionKeys(sections, 'exact') >= 0;
}
/**
 * The keys in `sections` (section names, metric keys, field names) when it matches the sections schema, else -1.
 * `counted`: each metric counted as holding exactly its declared fields, which the caller must prove (see compileMetricsCheck).
 */
function sectionKeys(sections, how) {
    if (!isRecord(sections))
        return -1;
    let count = 0;
    for (const name in sections) {
        const checks = SECTION_CHECKS.get(name);
        const metrics = sections[name];
        if (checks === undefined || !Object.hasOwn(sections, name) || !isRecord(metrics))
            return -1;
        const keys = Object.keys(metrics);
        const inside = checks[how](metrics, keys);
        if (inside < 0)
            return -1;
        // The gate and the device findings read these keys again: listing a 100,000-key record costs ~25 ms each time. A
        // small record lists fast, and noting each of 4,096 node snapshots' records only fills a WeakMap for the GC.
        if (keys.length >= NOTED_KEYS_MIN)
            noteKeys(metrics, keys);
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
function parseSectionsJson(text, file) {
    noteParsedText(text.length);
    let passed = false;
    const { value, keysCounted } = parseJsonCounted(text, file, (document) => {
        if (!isRecord(document))
            return countJsonKeys(document);
        const inSections = sectionKeys(document.sections, 'counted');
        if (inSections < 0)
            return countJsonKeys(document);
        passed = true;
        let count = inSections;
        for (const key in document) {
            count++;
            if (key === 'sections')
                continue;
            const inside = countJsonKeys(document[key]);
            if (inside < 0)
                return -1;
            count += inside;
        }
        return count;
    });
    const sectionsChecked = passed && (keysCounted || sectionsConform(value.sections));
    return { json: value, sectionsChecked };
}
/**
 * A validator for a document whose `sections` property follows the sections schema (snapshot, baseline): the direct
 * pass over the sections plus ajv on the rest, or the whole schema through ajv when either says no (for its message).
 */
function compileSectionsDocument(schema) {
    const rest = compileCheck(withOpaqueSections(schema));
    const full = compileSchema(schema);
    return (data, file, sectionsChecked = false) => {
        if (isRecord(data) && (sectionsChecked || sectionsConform(data.sections)) && rest(data))
            return data;
        return full(data, file);
    };
}

export { buildBaselineV1Schema as a, buildSnapshotSchema as b, compileSectionsDocument as c, buildBaselineSchema as d, parseSectionsJson as p, releaseParsedTexts as r };

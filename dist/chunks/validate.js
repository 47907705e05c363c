import { a as parseJsonCounted, b as compileCheck, c as compileSchema, d as countJsonKeys } from './reader.js';
import v8 from 'node:v8';
import vm from 'node:vm';
import { t as MAX_POINTS, b as SECTIONS, a1 as noteKeys } from './evidence-sources.js';

const MAX$1 = Number.MAX_SAFE_INTEGER;
const FIELD_DEFINITIONS = {
    bytes: {
        title: 'a non-negative integer number of bytes (at most 2^53 - 1)',
        type: 'integer',
        minimum: 0,
        maximum: MAX$1,
    },
    signedBytes: {
        title: 'an integer number of bytes, negative or not (at most 2^53 - 1 in size)',
        type: 'integer',
        minimum: -MAX$1,
        maximum: MAX$1,
    },
    count: { title: 'a non-negative integer', type: 'integer', minimum: 0, maximum: MAX$1 },
    countOrNull: { title: 'a non-negative integer or null', type: ['integer', 'null'], minimum: 0, maximum: MAX$1 },
    bytesOrNull: {
        title: 'a non-negative integer number of bytes or null',
        type: ['integer', 'null'],
        minimum: 0,
        maximum: MAX$1,
    },
    string: { title: 'a string', type: 'string' },
    stringOrNull: { title: 'a string or null', type: ['string', 'null'] },
};
const SERIES = {
    description: `A timeline of window peaks: [bucket start, largest value in the bucket], at most ${MAX_POINTS} points; buckets are \`width\` wide (a power of two) in microseconds (axis time), steps (axis step) or allocator trace entries (axis trace). Empty buckets are absent.`,
    type: 'object',
    additionalProperties: false,
    required: ['axis', 'width', 'points'],
    properties: {
        axis: { title: "'time', 'step' or 'trace'", type: 'string', enum: ['time', 'step', 'trace'] },
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
                    properties: {
                        file: { $ref: '#/definitions/string' },
                        line: { $ref: '#/definitions/count' },
                        text: { $ref: '#/definitions/string' },
                    },
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
        required: Object.keys(declaration.fields).filter((name) => declaration.fields[name]?.optional !== true),
        properties: Object.fromEntries(Object.entries(declaration.fields).map(([name, field]) => [
            name,
            { $ref: `#/definitions/${field.type}`, description: field.description },
        ])),
    };
}
function sectionsSchema() {
    return {
        description: 'Metrics by section, then by key. Sections: ' +
            SECTIONS.map((s) => `${s.name} (${s.keyShape}, compares ${s.value})`).join('; ') +
            '.',
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(SECTIONS.map((s) => [
            s.name,
            { description: `${s.description} Key: ${s.keyShape}.`, type: 'object', additionalProperties: metricSchema(s) },
        ])),
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
const definitions = () => ({
    ...FIELD_DEFINITIONS,
    series: SERIES,
    meta: META,
    source: SOURCE,
});
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
function withOpaqueSections(schema) {
    return { ...schema, properties: { ...schema.properties, sections: { type: 'object' } } };
}

const RELEASE_MIN_CHARS = 16 * 1024 * 1024;
let parsedChars = 0;
let collect;
function noteParsedText(length) {
    parsedChars += length;
}
function releaseParsedTexts() {
    if (parsedChars < RELEASE_MIN_CHARS)
        return false;
    parsedChars = 0;
    fullCollection()();
    return true;
}
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

const MAX = Number.MAX_SAFE_INTEGER;
const FIELD_CONDITIONS = {
    bytes: 'typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX',
    signedBytes: 'typeof v === "number" && Number.isInteger(v) && v >= -MAX && v <= MAX',
    count: 'typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX',
    countOrNull: 'v === null || (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX)',
    bytesOrNull: 'v === null || (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX)',
    string: 'typeof v === "string"',
    stringOrNull: 'v === null || typeof v === "string"',
};
function compileMetricsCheck(fields, exact) {
    const each = fields
        .map(([name, type, optional]) => {
        const field = JSON.stringify(name);
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
    return new Function('hasOwn', 'MAX', body)(Object.hasOwn, MAX);
}
const fieldsOf = (s) => Object.entries(s.fields).map(([name, field]) => [name, field.type, field.optional === true]);
const SECTION_CHECKS = new Map(SECTIONS.map((s) => [
    s.name,
    { exact: compileMetricsCheck(fieldsOf(s), true), counted: compileMetricsCheck(fieldsOf(s), false) },
]));
const NOTED_KEYS_MIN = 1024;
const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
function sectionsConform(sections) {
    return sectionKeys(sections, 'exact') >= 0;
}
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
        if (keys.length >= NOTED_KEYS_MIN)
            noteKeys(metrics, keys);
        count += 1 + inside;
    }
    return count;
}
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
function compileSectionsDocument(schema) {
    const rest = compileCheck(withOpaqueSections(schema));
    const full = compileSchema(schema);
    return (data, file, sectionsChecked = false) => {
        if (isRecord(data) && (sectionsChecked || sectionsConform(data.sections)) && rest(data))
            return data;
        return full(data, file);
    };
}

export { buildBaselineSchema as a, buildBaselineV1Schema as b, compileSectionsDocument as c, buildSnapshotSchema as d, parseSectionsJson as p, releaseParsedTexts as r };

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, readFile } from 'node:fs/promises';
import path from 'node:path';
import { I as InputError, a as SchemaError } from './sources.js';
import { p as parseJson, c as compileSchema } from './json-schema.js';
import { M as MAX_POINTS } from './series.js';
import { S as SECTIONS, h as hasNoMetrics, s as stableStringify, f as SNAPSHOT_VERSION, d as compareKeys } from './snapshot.js';
import './local.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './escape.js';
import 'node:os';
import 'node:worker_threads';

// The snapshot's and the baseline's JSON Schemas, built from the section registry: schemas/snapshot.schema.json and
// schemas/baseline.schema.json are their published copies (`npm run schemas` writes them; a test checks they agree).
const MAX = Number.MAX_SAFE_INTEGER;
/** Field types as schema definitions; each `title` reads in errors as "must be <title>". */
const FIELD_DEFINITIONS = {
    bytes: { title: 'a non-negative integer number of bytes (at most 2^53 - 1)', type: 'integer', minimum: 0, maximum: MAX },
    signedBytes: { title: 'an integer number of bytes, negative or not (at most 2^53 - 1 in size)', type: 'integer', minimum: -MAX, maximum: MAX },
    count: { title: 'a non-negative integer', type: 'integer', minimum: 0, maximum: MAX },
    countOrNull: { title: 'a non-negative integer or null', type: ['integer', 'null'], minimum: 0, maximum: MAX },
    bytesOrNull: { title: 'a non-negative integer number of bytes or null', type: ['integer', 'null'], minimum: 0, maximum: MAX },
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
        width: { title: 'a positive integer', type: 'integer', minimum: 1, maximum: MAX },
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
                    { title: 'an integer', type: 'integer', minimum: -MAX, maximum: MAX },
                    { title: 'an integer', type: 'integer', minimum: -MAX, maximum: MAX },
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

// Committed baselines: read and validate (a corrupt one is an error, never "no baseline"), merge a run in, write deterministically and atomically.
const validateBaseline = compileSchema(buildBaselineSchema());
const validateBaselineV1 = compileSchema(buildBaselineV1Schema());
/**
 * Reads a baseline. Returns null only when the file does not exist, so the caller decides what a first run means;
 * any other read error, invalid JSON or a schema violation throws an error naming the file.
 */
async function loadBaseline(file) {
    let text;
    try {
        text = await readFile(file, 'utf8');
    }
    catch (err) {
        if (errorCode(err) === 'ENOENT')
            return null;
        throw new InputError(`${file}: cannot read the baseline: ${err instanceof Error ? err.message : String(err)}`);
    }
    return parseBaseline(text, file);
}
/** Parses and validates baseline text; errors name the file and line:column (syntax) or JSON pointer (schema). */
function parseBaseline(text, file) {
    const json = parseJson(text, file);
    const version = json !== null && typeof json === 'object' && !Array.isArray(json) ? json.version : undefined;
    if (version === 1)
        return migrateV1(validateBaselineV1(json, file));
    if (typeof version === 'number' && Number.isInteger(version) && version > SNAPSHOT_VERSION) {
        throw new SchemaError(file, '/version', `is ${version}: this baseline was written by a newer ascend-memory-gate (this one reads versions 1 and ${SNAPSHOT_VERSION}); upgrade the Action or CLI`);
    }
    return validateBaseline(json, file);
}
/** Version 1 → 2: `modules` and `kernels` move under `sections`; nothing else changes. */
function migrateV1(v1) {
    const sections = {};
    if (Object.keys(v1.modules).length > 0)
        sections.modules = v1.modules;
    if (Object.keys(v1.kernels).length > 0)
        sections.kernels = v1.kernels;
    return {
        ...(v1.$schema !== undefined ? { $schema: v1.$schema } : {}),
        version: 2,
        sections,
        ...(v1.meta !== undefined ? { meta: v1.meta } : {}),
        ...(v1.source !== undefined ? { source: v1.source } : {}),
    };
}
/**
 * Folds a run into a baseline. Keys of this run replace or add; keys absent from this run are KEPT unless `prune`
 * (a rank that failed to upload must not erase its baseline). `meta` becomes this run's; `source` becomes the one
 * given (omitted when none is). An empty run is refused with an InputError, so the file is never touched.
 */
function mergeBaseline(existing, run, options = {}) {
    if (hasNoMetrics(run)) {
        throw new InputError('this run has no memory statistics: refusing to update the baseline from it (the baseline was left untouched)');
    }
    const changes = { added: [], changed: [], kept: [], pruned: [], unchanged: 0 };
    const prune = options.prune ?? false;
    const sections = {};
    for (const declaration of SECTIONS) {
        const merged = mergeRecords(existing?.sections[declaration.name] ?? {}, run.sections[declaration.name] ?? {}, prune, changes);
        if (Object.keys(merged).length > 0)
            sections[declaration.name] = merged;
    }
    const baseline = {
        ...(existing?.$schema !== undefined ? { $schema: existing.$schema } : {}),
        version: 2,
        sections,
        ...(Object.keys(run.series).length > 0 ? { series: structuredClone(run.series) } : {}),
        meta: structuredClone(run.meta),
        ...(options.source !== undefined ? { source: structuredClone(options.source) } : {}),
    };
    return { baseline, changes };
}
function mergeRecords(existing, run, prune, changes) {
    const keys = [...new Set([...Object.keys(existing), ...Object.keys(run)])].sort(compareKeys);
    const merged = [];
    for (const key of keys) {
        const before = Object.hasOwn(existing, key) ? existing[key] : undefined;
        const after = Object.hasOwn(run, key) ? run[key] : undefined;
        if (after !== undefined) {
            if (before === undefined)
                changes.added.push(key);
            else if (stableStringify(before) === stableStringify(after))
                changes.unchanged++;
            else
                changes.changed.push(key);
            merged.push([key, { ...after }]);
        }
        else if (before !== undefined) {
            if (prune) {
                changes.pruned.push(key);
            }
            else {
                changes.kept.push(key);
                merged.push([key, { ...before }]);
            }
        }
    }
    // fromEntries defines own properties, so even a kernel named __proto__ stays a key.
    return Object.fromEntries(merged);
}
/** The committed form: sorted keys at every level, 2-space indent, trailing newline. Same input, same bytes. */
function serializeBaseline(baseline) {
    return stableStringify(baseline);
}
/**
 * Writes a baseline so that readers see the old file or the new one, never half of one: creates the directory,
 * writes a temporary file next to the target, fsyncs it and renames it over the target.
 */
async function writeBaselineAtomic(file, baseline) {
    const text = serializeBaseline(baseline);
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true });
    const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    let renamed = false;
    try {
        const handle = await open(temp, 'wx');
        try {
            await handle.writeFile(text, 'utf8');
            await handle.sync();
        }
        finally {
            await handle.close();
        }
        await rename(temp, file);
        renamed = true;
    }
    finally {
        if (!renamed)
            await rm(temp, { force: true });
    }
    await syncDirectory(dir);
}
/** Makes the rename itself durable. Windows cannot open a directory for fsync; there the rename is all we get. */
async function syncDirectory(dir) {
    let handle;
    try {
        handle = await open(dir, 'r');
    }
    catch (err) {
        if (['EISDIR', 'EPERM', 'EACCES'].includes(String(errorCode(err))))
            return;
        throw err;
    }
    try {
        await handle.sync();
    }
    catch (err) {
        // Some file systems (and Windows) refuse fsync on a directory; the data itself is already synced.
        if (!['EINVAL', 'EPERM', 'EBADF', 'EISDIR'].includes(String(errorCode(err))))
            throw err;
    }
    finally {
        await handle.close();
    }
}
function errorCode(err) {
    return err !== null && typeof err === 'object' && 'code' in err ? err.code : undefined;
}

export { loadBaseline, mergeBaseline, parseBaseline, serializeBaseline, writeBaselineAtomic };

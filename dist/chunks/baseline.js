import { openSync, fstatSync, closeSync } from 'node:fs';
import { w as writeFileAtomic } from './atomic-write.js';
import { I as InputError, S as SchemaError } from './errors.js';
import { c as compileSchema } from './reader.js';
import { p as parseSectionsJson, b as buildBaselineV1Schema, c as compileSectionsDocument, a as buildBaselineSchema } from './validate.js';
import { r as readWholeText } from './whole-text.js';
import { _ as SNAPSHOT_VERSION, $ as foldLineSites, h as hasNoMetrics, b as SECTIONS, O as fileKeyOrder } from './evidence-sources.js';
import { s as stringifyDocument, a as stableStringify } from './document-json.js';
import 'node:crypto';
import 'node:fs/promises';
import 'node:path';
import './_commonjsHelpers.js';
import 'node:v8';
import 'node:vm';
import 'node:buffer';

const validateBaseline = compileSectionsDocument(buildBaselineSchema());
const validateBaselineV1 = compileSchema(buildBaselineV1Schema());
async function loadBaseline(file) {
    let text;
    try {
        const fd = openSync(file, 'r');
        try {
            text = readWholeText(fd, fstatSync(fd).size);
        }
        finally {
            closeSync(fd);
        }
    }
    catch (err) {
        if (errorCode(err) === 'ENOENT')
            return null;
        throw new InputError(`${file}: cannot read the baseline: ${err instanceof Error ? err.message : String(err)}`);
    }
    return parseBaseline(text, file);
}
function parseBaseline(text, file) {
    const { json, sectionsChecked } = parseSectionsJson(text, file);
    const version = json !== null && typeof json === 'object' && !Array.isArray(json)
        ? json.version
        : undefined;
    if (version === 1)
        return migrateV1(validateBaselineV1(json, file));
    if (typeof version === 'number' && Number.isInteger(version) && version > SNAPSHOT_VERSION) {
        throw new SchemaError(file, '/version', `is ${version}: this baseline was written by a newer ascend-memory-gate (this one reads versions 1 and ${SNAPSHOT_VERSION}); upgrade the Action or CLI`);
    }
    const folded = json !== null && typeof json === 'object' ? foldLineSites(json.sections) : null;
    const baseline = validateBaseline(json, file, sectionsChecked && folded === null);
    if (folded !== null)
        foldedBaselines.set(baseline, folded);
    return baseline;
}
const foldedBaselines = new WeakMap();
function foldedSitesNotice(baseline, file) {
    const folded = baseline === null ? undefined : foldedBaselines.get(baseline);
    if (folded === undefined)
        return null;
    return `${file}: ${folded.from} allocation site(s) keyed by line (as earlier versions wrote them) were read as ${folded.to} site(s) keyed by file and function, so a line that moves changes no key; the next baseline update writes them so`;
}
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
    const keys = [...new Set([...Object.keys(existing), ...Object.keys(run)])].sort(fileKeyOrder);
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
    return Object.fromEntries(merged);
}
function serializeBaseline(baseline) {
    const text = stringifyDocument(baseline);
    try {
        parseBaseline(text, '(baseline to write)');
    }
    catch (error) {
        if (error instanceof InputError)
            throw new InputError(`refusing to write a baseline the next check would refuse: ${error.message}`);
        throw error;
    }
    return text;
}
async function writeBaselineAtomic(file, baseline) {
    await writeFileAtomic(file, serializeBaseline(baseline));
}
function errorCode(err) {
    return err !== null && typeof err === 'object' && 'code' in err ? err.code : undefined;
}

export { foldedSitesNotice, loadBaseline, mergeBaseline, parseBaseline, serializeBaseline, writeBaselineAtomic };

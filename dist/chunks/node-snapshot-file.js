import { openSync, fstatSync, readFileSync, closeSync } from 'node:fs';
import { i as isCompressed, b as gunzipWhole } from './compressed.js';
import { I as InputError, S as SchemaError } from './errors.js';
import { p as parseSectionsJson, c as compileSectionsDocument, d as buildSnapshotSchema } from './validate.js';
import { _ as SNAPSHOT_VERSION, $ as foldLineSites } from './evidence-sources.js';
import { s as stringifyDocument } from './document-json.js';
import { r as readWholeText } from './whole-text.js';
import 'node:os';
import 'node:path';
import 'node:stream';
import 'node:stream/promises';
import 'node:zlib';
import './reader.js';
import './_commonjsHelpers.js';
import 'node:crypto';
import 'node:v8';
import 'node:vm';
import 'node:buffer';

const NODE_SNAPSHOT_SUFFIX = '.memory-snapshot.json';
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;
let validate;
function parseSnapshotText(text, file) {
    const { json, sectionsChecked } = parseSectionsJson(text, file);
    const version = json !== null && typeof json === 'object' && !Array.isArray(json)
        ? json.version
        : undefined;
    if (typeof version === 'number' && Number.isInteger(version) && version > SNAPSHOT_VERSION) {
        throw new SchemaError(file, '/version', `is ${version}: this snapshot was written by a newer ascend-memory-gate (this one reads version ${SNAPSHOT_VERSION}); use the same version on the nodes and in the gate job`);
    }
    validate ??= compileSectionsDocument(buildSnapshotSchema());
    const folded = json !== null && typeof json === 'object' ? foldLineSites(json.sections) : null;
    return validate(json, file, sectionsChecked && folded === null);
}
async function parseNodeSnapshotFile(file, into) {
    into.addSnapshot(readNodeSnapshotFile(file));
}
function readNodeSnapshotFile(file) {
    const fd = openSync(file.path, 'r');
    let text;
    try {
        const info = fstatSync(fd);
        if (info.size > MAX_SNAPSHOT_BYTES)
            throw new InputError(`${file.name}: ${info.size} bytes is too large for a memory snapshot (at most ${MAX_SNAPSHOT_BYTES})`);
        text = isCompressed(file.path)
            ? gunzipWhole(readFileSync(fd), file.name, MAX_SNAPSHOT_BYTES).toString('utf8')
            : readWholeText(fd, info.size);
    }
    finally {
        closeSync(fd);
    }
    return parseSnapshotText(text, file.name);
}
function serializeNodeSnapshot(snapshot) {
    const text = stringifyDocument(snapshot);
    parseSnapshotText(text, 'snapshot');
    return text;
}

export { NODE_SNAPSHOT_SUFFIX, parseNodeSnapshotFile, parseSnapshotText, serializeNodeSnapshot };

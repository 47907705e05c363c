import { open } from 'node:fs/promises';
import { I as InputError, c as SchemaError } from './sources.js';
import { p as parseJson, c as compileSchema } from './json-schema.js';
import { b as buildSnapshotSchema } from './schema.js';
import { b as SNAPSHOT_VERSION, s as stableStringify } from './snapshot.js';
import 'node:crypto';
import './_commonjsHelpers.js';
import './series.js';

// The `*.memory-snapshot.json` evidence source: a node's snapshot, read back and folded in exactly as if its files were parsed here.
/** What a snapshot file ends with: directories given to any source are searched for it. */
const SNAPSHOT_FILE_SUFFIX = '.memory-snapshot.json';
/** A node's snapshot is a few KB per device; anything this large is not one (and would be read whole). */
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;
let validate;
/** Parses and checks one snapshot's text: JSON (line:column), then its version, then the schema (JSON pointer). */
function parseSnapshotText(text, file) {
    const json = parseJson(text, file);
    const version = json !== null && typeof json === 'object' && !Array.isArray(json) ? json.version : undefined;
    if (typeof version === 'number' && Number.isInteger(version) && version > SNAPSHOT_VERSION) {
        throw new SchemaError(file, '/version', `is ${version}: this snapshot was written by a newer ascend-memory-gate (this one reads version ${SNAPSHOT_VERSION}); use the same version on the nodes and in the gate job`);
    }
    validate ??= compileSchema(buildSnapshotSchema());
    return validate(json, file);
}
/** The evidence source's parser: the whole snapshot (sections, series, devices, counts, nodes) into the builder. */
async function parseSnapshotFile(file, into) {
    // One open for the size check and the read: 4,096 node snapshots are 4,096 files.
    const handle = await open(file.path, 'r');
    let text;
    try {
        const { size } = await handle.stat();
        if (size > MAX_SNAPSHOT_BYTES)
            throw new InputError(`${file.name}: ${size} bytes is too large for a memory snapshot (at most ${MAX_SNAPSHOT_BYTES})`);
        text = await handle.readFile('utf8');
    }
    finally {
        await handle.close();
    }
    into.addSnapshot(parseSnapshotText(text, file.name));
}
/** The file `snapshot` writes: stable JSON, checked against the schema it will be read with. */
function serializeSnapshotFile(snapshot) {
    const text = stableStringify(snapshot);
    parseSnapshotText(text, 'snapshot');
    return text;
}

export { SNAPSHOT_FILE_SUFFIX, parseSnapshotFile, parseSnapshotText, serializeSnapshotFile };

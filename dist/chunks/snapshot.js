import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { U as UsageError } from './errors.js';
import { NODE_SNAPSHOT_SUFFIX, serializeNodeSnapshot } from './node-snapshot-file.js';
import 'node:fs';
import './compressed.js';
import 'node:os';
import 'node:stream';
import 'node:stream/promises';
import 'node:zlib';
import './validate.js';
import './reader.js';
import './_commonjsHelpers.js';
import 'node:crypto';
import 'node:v8';
import 'node:vm';
import './evidence-sources.js';
import './document-json.js';
import './whole-text.js';
import 'node:buffer';

async function writeNodeSnapshot(request) {
    const { snapshot, out } = request;
    const [node, provenance] = Object.entries(snapshot.meta.nodes ?? {})[0] ?? [undefined, undefined];
    const file = 'file' in out
        ? out.file
        : path.join(out.dir, `${(node ?? 'node').replace(/[^\w.-]/g, '_')}${NODE_SNAPSHOT_SUFFIX}`);
    const text = serializeNodeSnapshot(snapshot);
    try {
        await mkdir(path.dirname(path.resolve(file)), { recursive: true });
        await writeFile(file, text);
    }
    catch (error) {
        throw new UsageError(`snapshot: cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return {
        file,
        bytes: Buffer.byteLength(text),
        node: node ?? ('file' in out ? '?' : 'node'),
        devices: provenance?.devices.length ?? 0,
        files: snapshot.meta.files,
        records: snapshot.meta.records,
        skipped: snapshot.meta.skipped,
        environment: Object.entries(provenance?.environment ?? {}).map(([item, value]) => `${item}=${value}`),
    };
}

export { writeNodeSnapshot };

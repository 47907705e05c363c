import { a as setOutput, i as info } from '../index.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serializeNodeSnapshot, NODE_SNAPSHOT_SUFFIX } from '../chunks/node-snapshot-file.js';
import { d as formatBytes } from '../chunks/evidence-sources.js';
import { c as collectInputs, a as workDir } from './shared.js';
import 'os';
import 'crypto';
import 'fs';
import 'path';
import 'string_decoder';
import 'events';
import 'child_process';
import 'assert';
import 'timers';
import '../chunks/errors.js';
import '../chunks/thresholds.js';
import '../chunks/reader.js';
import '../chunks/_commonjsHelpers.js';
import 'node:crypto';
import '../chunks/roll-up.js';
import '../chunks/index.js';
import '../chunks/limits.js';
import 'node:fs';
import 'url';
import 'module';
import '../chunks/oom-cause.js';
import '../chunks/keys.js';
import '../chunks/compressed.js';
import 'node:os';
import 'node:stream';
import 'node:stream/promises';
import 'node:zlib';
import '../chunks/validate.js';
import 'node:v8';
import 'node:vm';
import '../chunks/document-json.js';
import '../chunks/whole-text.js';
import 'node:buffer';
import '../chunks/collect.js';
import '../chunks/parse-protocol.js';
import '../chunks/worker-start.js';
import 'node:worker_threads';

async function runSnapshotMode(inputs) {
    const { snapshot } = await collectInputs(inputs);
    const [node, provenance] = Object.entries(snapshot.meta.nodes ?? {})[0] ?? ['node', undefined];
    const text = serializeNodeSnapshot(snapshot);
    const file = path.join(workDir(), `${node.replace(/[^\w.-]/g, '_')}${NODE_SNAPSHOT_SUFFIX}`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    setOutput('snapshot-file', file);
    const environment = Object.entries(provenance?.environment ?? {}).map(([item, value]) => `${item}=${value}`);
    info(`Wrote ${file} (${formatBytes(Buffer.byteLength(text))}): node ${node}, ${provenance?.devices.length ?? 0} device(s), ` +
        `${snapshot.meta.files} file(s), ${snapshot.meta.records} record(s), ${snapshot.meta.skipped} skipped`);
    info(`Environment: ${environment.length > 0 ? environment.join(', ') : 'nothing found'}`);
}

export { runSnapshotMode };

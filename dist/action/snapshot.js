import { a as setOutput, i as info } from '../index.js';
import { d as formatBytes } from '../chunks/evidence-sources.js';
import { writeNodeSnapshot } from '../chunks/snapshot.js';
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
import 'node:fs/promises';
import 'node:path';
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
import '../chunks/node-snapshot-file.js';
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
import '../chunks/worker-start.js';
import 'node:worker_threads';
import '../chunks/parse-protocol.js';
import 'node:url';

async function runSnapshotMode(inputs) {
    const { snapshot } = await collectInputs(inputs);
    const written = await writeNodeSnapshot({ snapshot, out: { dir: workDir() } });
    setOutput('snapshot-file', written.file);
    info(`Wrote ${written.file} (${formatBytes(written.bytes)}): node ${written.node}, ${written.devices} device(s), ` +
        `${written.files} file(s), ${written.records} record(s), ${written.skipped} skipped`);
    info(`Environment: ${written.environment.length > 0 ? written.environment.join(', ') : 'nothing found'}`);
}

export { runSnapshotMode };

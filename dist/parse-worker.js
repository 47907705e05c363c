import { parentPort } from 'node:worker_threads';
import { s as serializeError } from './chunks/parse-protocol.js';
import { p as parseInputFile } from './chunks/evidence-sources.js';
import { S as SnapshotBuilder } from './chunks/snapshot.js';
import './chunks/errors.js';
import './chunks/series.js';

// A parse worker thread (started by collect.ts for large inputs): parses whole files, one task at a time, each into
// its own SnapshotBuilder, and posts back the builder's plain state or the error; the main thread merges in file order.
async function parseOne(task) {
    const builder = new SnapshotBuilder();
    try {
        // Loaded only when a file of that source comes: a plog-only run never loads csv-parse.
        await parseInputFile(task.kind, task.file, builder);
        return { index: task.index, ok: true, state: builder.toState() };
    }
    catch (error) {
        return { index: task.index, ok: false, error: serializeError(error) };
    }
}
const port = parentPort;
if (port === null)
    throw new Error('parse-worker.js runs as a worker thread of ascend-memory-gate, not on its own');
port.on('message', (task) => {
    void parseOne(task).then((result) => port.postMessage(result));
});
// Tasks come only after this: until then the main thread parses them itself instead of waiting for this thread's start-up.
port.postMessage({ ready: true });

import { parentPort } from 'node:worker_threads';
import { p as parsePlogFile, S as SnapshotBuilder, c as serializeError } from './chunks/snapshot.js';
import './chunks/errors.js';
import 'node:fs';

// A parse worker thread (started by collect.ts for large inputs): parses whole files, one task at a time, each into
// its own SnapshotBuilder, and posts back the builder's plain state or the error; the main thread merges in file order.
async function parseOne(task) {
    const builder = new SnapshotBuilder();
    try {
        if (task.kind === 'plog') {
            await parsePlogFile(task.file, builder);
        }
        else {
            // Loaded only when a memory_compare file comes: a plog-only run never loads csv-parse.
            const { parseMemoryCompareFile } = await import('./chunks/memory-compare.js');
            await parseMemoryCompareFile(task.file, builder);
        }
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

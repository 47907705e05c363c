import { parentPort } from 'node:worker_threads';
import { s as serializeError } from './chunks/parse-protocol.js';
import { p as parseInputFile, a as SnapshotBuilder } from './chunks/evidence-sources.js';
import './chunks/errors.js';

async function parseOne(task) {
    const builder = new SnapshotBuilder();
    try {
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
port.postMessage({ ready: true });

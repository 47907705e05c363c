// A parse worker thread (started by collect.ts for large inputs): parses whole files, one task at a time, each into
// its own SnapshotBuilder, and posts back the builder's plain state or the error; the main thread merges in file order.
import { parentPort } from 'node:worker_threads';
import { serializeError, type ParseResult, type ParseTask, type WorkerMessage } from './parse-protocol.js';
import { parseInputFile } from './evidence-sources.js';
import { SnapshotBuilder } from '../model/snapshot.js';

async function parseOne(task: ParseTask): Promise<ParseResult> {
  const builder = new SnapshotBuilder();
  try {
    // Loaded only when a file of that source comes: a plog-only run never loads csv-parse.
    await parseInputFile(task.kind, task.file, builder);
    return { index: task.index, ok: true, state: builder.toState() };
  } catch (error) {
    return { index: task.index, ok: false, error: serializeError(error) };
  }
}

const port = parentPort;
if (port === null) throw new Error('parse-worker.js runs as a worker thread of ascend-memory-gate, not on its own');
port.on('message', (task: ParseTask) => {
  void parseOne(task).then((result) => port.postMessage(result satisfies WorkerMessage));
});
// Tasks come only after this: until then the main thread parses them itself instead of waiting for this thread's start-up.
port.postMessage({ ready: true } satisfies WorkerMessage);

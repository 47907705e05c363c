// The evidence source `jobLog` (--job-log, job-log): a job's own log (stdout/stderr as CI or a launcher captured it, plain or .gz) into the `ooms` section and allocation failures.
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { gunzipChunks } from '../compressed.js';
import { deviceName } from '../../model/sections/index.js';
import { ooms } from '../../model/sections/ooms.js';
import { OOM_FIELD_DEFAULTS, oomCause, withOomCauses } from '../../model/oom-cause.js';
import type { Snapshot, SnapshotBuilder } from '../../model/snapshot.js';
import type { InputFile } from '../../sources/types.js';
import type { RunSettings } from '../run-settings.js';
import { JobLogScanner, type FoundOom } from './scan.js';

/** Bytes per read: large enough that per-chunk work vanishes. */
const CHUNK_BYTES = 1024 * 1024;
/** Where a chunk is read to in its buffer (text-stream.ts READ_OFFSET: the kernel's copy is slow at some distances). */
const READ_OFFSET = 2048;
const CHUNKS_PER_YIELD = 32;
/** The device an allocation failure line names none of: counted as the plog parser counts it. */
const UNKNOWN_DEVICE = 'unknown';

export interface JobLogReadOptions {
  /** Bytes per read; tests use tiny values to cross every chunk boundary. */
  chunkBytes?: number;
}

/** A log is gzip'd when its name says so or its first bytes are gzip's magic. */
function isGzip(path: string, name: string): boolean {
  if (/\.gz$/i.test(name)) return true;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/** The log's bytes (decompressed), chunk by chunk; a chunk is only valid until the next one is asked for. */
async function* chunksOf(path: string, name: string, gzip: boolean, chunkBytes: number): AsyncGenerator<Buffer> {
  // A `.zst` log (found in a folder like a `.gz` one) through the shared inflater.
  if (/\.zst$/i.test(name)) {
    yield* gunzipChunks(path, name, chunkBytes);
    return;
  }
  if (gzip) {
    for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes }).pipe(
      createGunzip({ chunkSize: Math.max(64, chunkBytes) }),
    ))
      yield chunk as Buffer;
    return;
  }
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_OFFSET + chunkBytes);
    for (let n = 0; ; n++) {
      const read = readSync(fd, buffer, READ_OFFSET, chunkBytes, null);
      if (read === 0) break;
      yield buffer.subarray(READ_OFFSET, READ_OFFSET + read);
      if (n % CHUNKS_PER_YIELD === CHUNKS_PER_YIELD - 1) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads one job log into the builder: its OOM events (one per device and figures) and its CANN allocation-failure lines. */
export async function parseJobLogFile(
  file: InputFile,
  into: SnapshotBuilder,
  options: JobLogReadOptions = {},
): Promise<void> {
  const chunkBytes = Math.max(1, options.chunkBytes ?? CHUNK_BYTES);
  const gzip = isGzip(file.path, file.name);
  into.files++;
  const scanner = new JobLogScanner();
  for await (const chunk of chunksOf(file.path, file.name, gzip, chunkBytes)) scanner.push(chunk);
  scanner.end();
  const events = [...scanner.ooms.values()];
  for (const event of events) addOom(file.name, event, into);
  for (const failure of scanner.failures) {
    const device = failure.device === null ? UNKNOWN_DEVICE : (deviceName(failure.device) ?? UNKNOWN_DEVICE);
    into.addAllocFailure(
      device,
      1,
      failure.text === null ? undefined : { file: file.name, line: failure.line, text: failure.text },
    );
  }
  into.records += events.length + scanner.failures.length;
  if (scanner.droppedOoms > 0) {
    into.addNote({
      file: file.name,
      line: 0,
      reason: `${scanner.droppedOoms} more distinct OOM messages than the ${events.length} kept were not read into the report`,
    });
  }
}

/** One OOM event as an `ooms` entry: `devN/log-<hash of the log's name and the figures>`, so one event is one key whatever the order. */
function addOom(name: string, event: FoundOom, into: SnapshotBuilder): void {
  const { message: m, line } = event;
  const device = m.device === null ? null : deviceName(String(m.device));
  // An OOM whose device the line lost still fails the gate, as an allocation failure of no known device.
  if (m.device === null || device === null) {
    into.addAllocFailure(UNKNOWN_DEVICE, 1, {
      file: name,
      line,
      text: `out of memory: a request of ${m.requested} bytes (the line names no device)`,
    });
    return;
  }
  const id = createHash('sha256').update(name).update('\0').update(JSON.stringify(m)).digest('hex').slice(0, 8);
  into.add(ooms, `${device}/log-${id}`, {
    ...OOM_FIELD_DEFAULTS,
    requested: m.requested,
    total: m.total,
    deviceFree: m.deviceFree,
    allocated: m.allocated,
    reserved: m.reserved,
    active: m.active,
    allowed: m.allowed,
    processTotal: m.processTotal,
    processes: m.processes.length === 0 ? null : JSON.stringify(m.processes),
    // The message's own figures and the default share; finish decides again with the run's config, the gate with its own.
    cause: oomCause(m).cause,
    source: 'job log',
    precision: 'printed',
    line,
    printed: event.printed,
    file: name,
    logicalDevice: m.device,
  });
}

/** Once per run, on the built snapshot: every OOM's cause, with the run's device capacity and fragmentation share when given. */
export function finishJobLogs(snapshot: Snapshot, run: RunSettings): Snapshot {
  return withOomCauses(snapshot, run.oom);
}

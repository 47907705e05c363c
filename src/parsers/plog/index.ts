// The evidence source `plog` (--plog, plog): CANN plog files, plain or .gz, read in chunks through the scanner.
import { closeSync, openSync, readSync } from 'node:fs';
import type { SnapshotBuilder } from '../../model/snapshot.js';
import type { InputFile } from '../../sources/types.js';
import { gunzipChunks, isCompressed } from '../compressed.js';
import { READ_OFFSET } from '../text-stream.js';
import { MAX_LINE_BYTES, MAX_RECORD_BYTES } from './grammar.js';
import { JUNCTION_BYTES, PlogScanner } from './scanner.js';
import { countNewlines } from './window.js';

/** Read size: large enough for few syscalls, small enough that the needle passes run on bytes still in cache. */
const CHUNK_BYTES = 1024 * 1024;
/** parsePlogFile lets other async work run after this many chunks. */
const CHUNKS_PER_YIELD = 16;

export interface PlogReadOptions {
  /** Bytes per read; tests use tiny values to cross every chunk boundary. */
  chunkBytes?: number;
}

/**
 * Streams one plog file through the scanner with bounded memory (two chunk buffers plus the scanner's window).
 *
 * Synchronous reads into two alternating buffers, not createReadStream: on a 1 GiB corpus they were ~1.7x faster,
 * because the needle passes then run on bytes this core has just copied and still holds in cache. Two buffers suffice
 * because the scanner keeps a view of the last pushed chunk only. The event loop gets a turn every few chunks.
 */
export async function parsePlogFile(
  file: InputFile,
  into: SnapshotBuilder,
  options: PlogReadOptions = {},
): Promise<void> {
  const chunkBytes = Math.max(1, options.chunkBytes ?? CHUNK_BYTES);
  if (isCompressed(file.path)) return parseGzipPlog(file, into, chunkBytes);
  const fd = openSync(file.path, 'r');
  const buffers = takeReadBuffers(chunkBytes);
  try {
    into.files++;
    // Counted from where the last count stopped: one-off line numbers further on cost one pass over the file in all.
    let countedTo = 0;
    let newlines = 0;
    const scanner = new PlogScanner(file.name, into, (offset) => {
      if (offset < countedTo) countedTo = newlines = 0;
      newlines += countFileNewlines(fd, countedTo, offset);
      countedTo = offset;
      return newlines;
    });
    let position = 0;
    for (let n = 0; ; n++) {
      const buffer = buffers[n % 2] as Buffer;
      const read = readSync(fd, buffer, READ_OFFSET, chunkBytes, position);
      if (read === 0) break;
      position += read;
      scanner.push(buffer.subarray(READ_OFFSET, READ_OFFSET + read));
      if (n % CHUNKS_PER_YIELD === CHUNKS_PER_YIELD - 1) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    scanner.end();
  } finally {
    closeSync(fd);
    spareReadBuffers = buffers;
  }
}

/** Inflated bytes a compressed plog keeps for line numbers: more than the scanner's window can hold (a long line, a junction, a record). */
const GZIP_KEPT_BYTES = MAX_LINE_BYTES + 2 * JUNCTION_BYTES + MAX_RECORD_BYTES;

/**
 * A `.gz` plog: its inflated bytes through the same scanner, in chunks of the usual size. Its bytes cannot be read again
 * for a line number, so each chunk's start and newlines before it are noted as it passes (two numbers a chunk), and the
 * bytes of the last GZIP_KEPT_BYTES are kept to count within.
 */
async function parseGzipPlog(file: InputFile, into: SnapshotBuilder, chunkBytes: number): Promise<void> {
  into.files++;
  const chunks: { start: number; before: number; bytes: Buffer | null }[] = [];
  let total = 0;
  let newlines = 0;
  let firstKept = 0;
  const scanner = new PlogScanner(file.name, into, (offset) => {
    // The last chunk that starts at or before the offset.
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((chunks[mid] as { start: number }).start <= offset) lo = mid;
      else hi = mid - 1;
    }
    const chunk = chunks[lo];
    if (chunk === undefined || offset === chunk.start) return chunk?.before ?? 0;
    // The scanner asks within its window only, which the kept bytes cover: this would be a bug, not bad input.
    if (chunk.bytes === null)
      throw new Error(`${file.name}: line number asked for byte ${offset}, before the inflated bytes kept`);
    return chunk.before + countNewlines(chunk.bytes, 0, offset - chunk.start);
  });
  let n = 0;
  for await (const chunk of gunzipChunks(file.path, file.name, chunkBytes)) {
    chunks.push({ start: total, before: newlines, bytes: chunk });
    total += chunk.length;
    newlines += countNewlines(chunk, 0, chunk.length);
    while (firstKept < chunks.length - 1) {
      const old = chunks[firstKept] as { start: number; bytes: Buffer | null };
      if (old.start + (old.bytes?.length ?? 0) >= total - GZIP_KEPT_BYTES) break;
      old.bytes = null;
      firstKept++;
    }
    scanner.push(chunk);
    if (++n % CHUNKS_PER_YIELD === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  scanner.end();
}

/**
 * Read buffers are reused from one file to the next: fresh ones per file would be garbage that only a full GC returns
 * (64 files = 128 MiB of external memory, RSS growing with the file count). A call that runs while another one holds
 * the spare pair (concurrent parses in one thread) gets its own.
 */
let spareReadBuffers: Buffer[] | null = null;

function takeReadBuffers(chunkBytes: number): Buffer[] {
  const spare = spareReadBuffers;
  spareReadBuffers = null;
  if (spare !== null && (spare[0] as Buffer).length === READ_OFFSET + chunkBytes) return spare;
  return [Buffer.allocUnsafe(READ_OFFSET + chunkBytes), Buffer.allocUnsafe(READ_OFFSET + chunkBytes)];
}

/** Newlines in a file's bytes [from, to): read again only when a record needs a line number for dropped bytes. */
function countFileNewlines(fd: number, from: number, to: number): number {
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, to - from)));
  let n = 0;
  for (let position = from; position < to;) {
    const read = readSync(fd, buffer, 0, Math.min(buffer.length, to - position), position);
    if (read === 0) break;
    n += countNewlines(buffer, 0, read);
    position += read;
  }
  return n;
}

// Reads a file as text in bounded chunks, for the CSV readers: latin1 while the bytes are ASCII (about 3x faster than
// UTF-8 and safe, since an ASCII chunk ends on a whole character), a UTF-8 decoder from the first non-ASCII chunk on.
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { gunzipChunks, isCompressed } from './compressed.js';

/**
 * Bytes per read: large enough that per-chunk work vanishes, and under V8's 128 KiB limit for ordinary heap objects, so
 * that each chunk's string lives and dies in the young generation. At 256 KiB every chunk string was a large object,
 * mapped and unmapped on its own: a 1 GiB msMemScope dump cost ~9,000 mmap/munmap calls, ~900,000 page faults and
 * ~4 s of system time (now ~340,000 faults, ~1.6 s).
 */
export const READ_CHUNK_BYTES = 120 * 1024;

/** Turns bytes into text across chunk boundaries: StringDecoder, or one that keeps invalid bytes apart. */
export interface ChunkDecoder {
  write(bytes: Buffer): string;
  end(): string;
}

/**
 * Where in its read buffer a chunk is read to: half a page in, not at the start. The kernel copies a read from the page
 * cache with `rep movsb`, which on AMD EPYC cores ran ~5x slower when the destination lay a few bytes after the source
 * modulo 4 KiB (measured: 8 to 24 bytes slow; 0, 32 and more fast). File offsets here are page-aligned, and glibc
 * returns a large buffer 16 bytes into its mapped pages (inferred: buffer offsets 0 and 8 were slow, 16 on fast), so
 * reading to offset 0 hit exactly that case: on the 1 GiB plog corpus ~0.45 s of system time went to the copy (0.1 s at
 * this offset, as for grep). 2048 is far from the slow distances whatever the buffer's page offset: 0 or 16.
 */
export const READ_OFFSET = 2048;

/** streamText lets other async work run after this many chunks. */
const CHUNKS_PER_YIELD = 64;

/**
 * Streams `path` to `push`, chunk by chunk, with a leading UTF-8 BOM dropped. `decoder` makes the decoder used from the
 * first non-ASCII chunk on (default: UTF-8, invalid bytes as U+FFFD). An error thrown by `push` stops the read and
 * closes the file. One buffer serves the whole file (a fresh 256 KiB buffer per chunk, as a read stream allocates,
 * cost a 1 GiB dump ~260,000 page faults); `push` and the decoders copy what they keep.
 */
export async function streamText(
  path: string,
  push: (text: string) => void,
  decoder: () => ChunkDecoder = () => new StringDecoder('utf8'),
  name = path,
): Promise<void> {
  let active: ChunkDecoder | null = null;
  let first = true;
  if (isCompressed(path)) {
    // A `.gz` file's inflated bytes take the same path as a plain file's reads.
    for await (let bytes of gunzipChunks(path, name, READ_CHUNK_BYTES)) {
      if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      first = false;
      if (active === null && isAscii(bytes)) push(bytes.toString('latin1'));
      else {
        active ??= decoder();
        push(active.write(bytes));
      }
    }
    if (active !== null) push(active.end());
    return;
  }
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafeSlow(READ_OFFSET + READ_CHUNK_BYTES);
    for (let n = 0; ; n++) {
      const read = readSync(fd, buffer, READ_OFFSET, READ_CHUNK_BYTES, null);
      if (read === 0) break;
      let bytes = buffer.subarray(READ_OFFSET, READ_OFFSET + read);
      // A Windows-written file's BOM would otherwise send the whole file down the slower path.
      if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      first = false;
      if (active === null && isAscii(bytes)) {
        push(bytes.toString('latin1'));
      } else {
        active ??= decoder();
        push(active.write(bytes));
      }
      if (n % CHUNKS_PER_YIELD === CHUNKS_PER_YIELD - 1) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    closeSync(fd);
  }
  if (active !== null) push(active.end());
}

/** Below this size readWholeText leaves the file to readFileSync: 4,096 node snapshots of 8 KB read faster so. */
const WHOLE_TEXT_MIN_BYTES = 1024 * 1024;

/**
 * An open file's whole text, for JSON that is read whole (node snapshots, baselines), as readFileSync(fd, 'utf8')
 * gives it (invalid bytes as U+FFFD, a BOM kept as U+FEFF). A large file's bytes are read into one buffer at
 * READ_OFFSET, then taken as latin1 when they are all ASCII (a copy), else decoded as UTF-8: ~15-40 ms for a 24.5 MB
 * baseline, against ~60-90 ms for readFileSync. `size` is what fstat said; a file that grew since is read to its end.
 */
export function readWholeText(fd: number, size: number): string {
  if (size < WHOLE_TEXT_MIN_BYTES) return readFileSync(fd, 'utf8');
  let buffer = Buffer.allocUnsafeSlow(READ_OFFSET + size + 1);
  let end = READ_OFFSET;
  for (;;) {
    if (end === buffer.length) {
      const larger = Buffer.allocUnsafeSlow(READ_OFFSET + 2 * (buffer.length - READ_OFFSET));
      buffer.copy(larger, READ_OFFSET, READ_OFFSET, end);
      buffer = larger;
    }
    const read = readSync(fd, buffer, end, buffer.length - end, null);
    if (read === 0) break;
    end += read;
  }
  const bytes = buffer.subarray(READ_OFFSET, end);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

// Reads a file as text in bounded chunks, for the CSV readers: latin1 while the bytes are ASCII (about 3x faster than
// UTF-8 and safe, since an ASCII chunk ends on a whole character), a UTF-8 decoder from the first non-ASCII chunk on.
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { READ_OFFSET } from '../common/whole-text.js';
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

export { READ_OFFSET } from '../common/whole-text.js';

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

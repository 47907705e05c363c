// Reads an open file's whole text (JSON read whole: baselines, node snapshots), for every layer that needs it.
import { isAscii } from 'node:buffer';
import { readFileSync, readSync } from 'node:fs';

/**
 * Where in its read buffer a chunk is read to: half a page in, not at the start. The kernel copies a read from the page
 * cache with `rep movsb`, which on AMD EPYC cores ran ~5x slower when the destination lay a few bytes after the source
 * modulo 4 KiB (measured: 8 to 24 bytes slow; 0, 32 and more fast). File offsets here are page-aligned, and glibc
 * returns a large buffer 16 bytes into its mapped pages (inferred: buffer offsets 0 and 8 were slow, 16 on fast), so
 * reading to offset 0 hit exactly that case: on the 1 GiB plog corpus ~0.45 s of system time went to the copy (0.1 s at
 * this offset, as for grep). 2048 is far from the slow distances whatever the buffer's page offset: 0 or 16.
 */
export const READ_OFFSET = 2048;

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

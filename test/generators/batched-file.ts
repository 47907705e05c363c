// Text written to a file in big synchronous batches: few syscalls and bounded memory for corpora of gigabytes.
import { closeSync, openSync, writeSync } from 'node:fs';
import { MiB } from '../helpers/story.js';

/** Text is flushed to disk in batches of about this size. */
export const BATCH_BYTES = 4 * MiB;

export class BatchedFile {
  readonly fd: number;
  // Lines are copied into one reused buffer at once, so they die young: no big string batches for the GC to move.
  private buf: Buffer = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  bytes = 0;
  /** Lines written with line(): the last one's number. */
  lines = 0;

  constructor(
    readonly path: string,
    private readonly eol = '\n',
  ) {
    this.fd = openSync(path, 'w');
  }
  /** Appends ASCII text as is (no line ending added). */
  raw(text: string): void {
    if (this.used + text.length > this.buf.length) {
      this.flush();
      if (text.length > this.buf.length) {
        writeSync(this.fd, text, null, 'latin1');
        this.bytes += text.length;
        return;
      }
    }
    this.used += this.buf.write(text, this.used, 'latin1');
    this.bytes += text.length;
  }
  /** Appends bytes as they are (a byte-order mark). */
  bytesRaw(bytes: Uint8Array): void {
    this.flush();
    writeSync(this.fd, bytes);
    this.bytes += bytes.length;
  }
  line(text: string): void {
    this.raw(text);
    this.raw(this.eol);
    this.lines++;
  }
  flush(): void {
    // Synchronous writes of big batches: memory stays bounded and the kernel applies the backpressure.
    if (this.used > 0) writeSync(this.fd, this.buf, 0, this.used);
    this.used = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
    this.buf = Buffer.alloc(0);
  }
}

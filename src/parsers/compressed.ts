// Compressed inputs (`*.gz` through Node's zlib, `*.zst` through fzstd, pure JS): inflated as a stream, chunk by chunk, wherever a plain file is read.
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { Decompress } from 'fzstd';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { InputError } from '../common/errors.js';

/** True for a name that ends in `.gz` or `.zst` (any case): its bytes are inflated before any reader sees them. */
export function isCompressed(name: string): boolean {
  return /\.(gz|zst)$/i.test(name);
}

/** True for a `.zst` name: Zstandard (Node 20 has no zstd of its own). */
function isZstd(name: string): boolean {
  return /\.zst$/i.test(name);
}

/** A damaged or cut-short zstd stream, as fzstd reports it (its code 5 is an early end). */
class ZstdFailure extends Error {}

/** fzstd's streaming decompressor as a Node transform: output handed on as it comes, never the whole file held. */
function zstdStream(): Transform {
  const guarded = (run: () => void, done: (error?: Error | null) => void): void => {
    try {
      run();
      done();
    } catch (error) {
      const early = (error as { code?: number }).code === 5;
      done(new ZstdFailure(early ? 'unexpected end of file' : error instanceof Error ? error.message : String(error)));
    }
  };
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      guarded(() => d.push(chunk), done);
    },
    flush(done) {
      guarded(() => d.push(new Uint8Array(0), true), done);
    },
  });
  const d = new Decompress((data) => {
    if (data.length > 0) out.push(Buffer.from(data));
  });
  return out;
}

/** The inflater for `name`: gzip or zstd by its extension, output in pieces of at most `chunkBytes` (gzip). */
function inflater(name: string, chunkBytes = 64 * 1024): Transform {
  return isZstd(name) ? zstdStream() : createGunzip({ chunkSize: Math.min(64 * 1024, Math.max(64, chunkBytes)) });
}

/** One line for a gzip stream that cannot be inflated: damaged, cut short (the job died while compressing), or not gzip. */
function gzipFailure(name: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const kind = isZstd(name) ? 'zstd' : 'gzip';
  const why =
    code === 'Z_BUF_ERROR' || /unexpected end/i.test(String((error as Error | undefined)?.message))
      ? `the ${kind} stream ends early (cut short while it was written or copied)`
      : `not a readable ${kind} file (${error instanceof Error ? error.message : String(error)})`;
  return new InputError(`${name}: ${why}: compress it again, or give the file uncompressed`);
}

/**
 * The inflated bytes of `path`, in chunks of `chunkBytes` (the last may be shorter): the reader's usual read size, so
 * that per-chunk work stays as it is for plain files. Memory: one chunk being filled and zlib's own window.
 */
export async function* gunzipChunks(
  path: string,
  name: string,
  chunkBytes: number,
): AsyncGenerator<Buffer, void, undefined> {
  const source = createReadStream(path);
  const stream = inflater(path, chunkBytes);
  // pipe() does not pass a read error on: without this, an unreadable file would leave the inflater waiting forever.
  source.on('error', (error) => stream.destroy(error));
  source.pipe(stream);
  let parts: Buffer[] = [];
  let held = 0;
  try {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      let rest = piece;
      while (held + rest.length >= chunkBytes) {
        const take = chunkBytes - held;
        parts.push(rest.subarray(0, take));
        yield parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, chunkBytes);
        parts = [];
        held = 0;
        rest = rest.subarray(take);
      }
      if (rest.length > 0) {
        // zlib may reuse its output buffer: keep a copy of what waits for the next chunk.
        parts.push(Buffer.from(rest));
        held += rest.length;
      }
    }
  } catch (error) {
    // The read stream's own failures (EACCES, ENOENT) keep their code: the caller names the file.
    if ((error as NodeJS.ErrnoException).syscall !== undefined) throw error;
    throw gzipFailure(name, error);
  } finally {
    source.destroy();
    stream.destroy();
  }
  if (held > 0) yield Buffer.concat(parts, held);
}

/** A small compressed file's whole inflated bytes, at most `maxBytes` (a node snapshot): more is refused, never held. */
export function gunzipWhole(bytes: Buffer, name: string, maxBytes: number): Buffer {
  if (isZstd(name)) return unzstdWhole(bytes, name, maxBytes);
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new InputError(`${name}: inflates to more than ${maxBytes} bytes, too large for a memory snapshot`);
    throw gzipFailure(name, error);
  }
}

/**
 * The most a `.gz` allocator snapshot may inflate to (8 GiB): the pickle reader itself has no file-size cap, so this
 * bounds the private copy on disk; the largest real snapshots measured are near 1 GiB.
 */
const MAX_INFLATED_PICKLE_BYTES = 8 * 1024 ** 3;

/**
 * `read` called on the inflated copy of the `.gz` at `path`: the pickle reader reads at offsets and needs the size, so
 * a stream does not do. The copy lives in a private folder (mode 0600), at most `maxBytes`, removed afterwards.
 */
export async function inflatePickle<T>(
  path: string,
  name: string,
  read: (inflated: string) => Promise<T> | T,
  maxBytes = MAX_INFLATED_PICKLE_BYTES,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'amg-snapshot-'));
  try {
    const inflated = join(dir, 'snapshot.pickle');
    let written = 0;
    const tooLarge = new InputError(
      `${name}: inflates to more than ${maxBytes} bytes, more than the largest memory snapshot read (${maxBytes}): give it uncompressed`,
    );
    const cap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        done(written > maxBytes ? tooLarge : null, chunk);
      },
    });
    try {
      await pipeline(
        createReadStream(path),
        inflater(path),
        cap,
        createWriteStream(inflated, { flags: 'wx', mode: 0o600 }),
      );
    } catch (error) {
      if (error === tooLarge) throw tooLarge;
      // The read stream's own failures (EACCES, ENOENT) keep their code: the caller names the file.
      if ((error as NodeJS.ErrnoException).syscall !== undefined) throw error;
      throw gzipFailure(name, error);
    }
    return await read(inflated);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** gunzipWhole for zstd: inflated piece by piece (fzstd calls back synchronously), refused once past `maxBytes`. */
function unzstdWhole(bytes: Buffer, name: string, maxBytes: number): Buffer {
  const parts: Buffer[] = [];
  let held = 0;
  const d = new Decompress((data) => {
    held += data.length;
    if (held > maxBytes)
      throw new InputError(`${name}: inflates to more than ${maxBytes} bytes, too large for a memory snapshot`);
    parts.push(Buffer.from(data));
  });
  try {
    for (let at = 0; at < bytes.length; at += 64 * 1024) d.push(bytes.subarray(at, at + 64 * 1024));
    d.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw gzipFailure(name, (error as { code?: number }).code === 5 ? new Error('unexpected end of file') : error);
  }
  return Buffer.concat(parts, held);
}

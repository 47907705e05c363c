/**
 * Minimal in-memory ZIP writer for end-to-end tests.
 *
 * Deliberately writes entry names VERBATIM (no normalisation), so tests can
 * build hostile archives (`../evil.txt`, `/abs.txt`, `a/../../x`, `..\\x`).
 * Real writers such as archiver/zip-stream sanitise names, which would defeat
 * zip-slip probes — that is why this file exists.
 *
 * Supports STORE and DEFLATE, optional data descriptors (general-purpose bit 3,
 * as produced by streaming writers like the one upload-artifact uses), UTF-8
 * names (bit 11), directory entries. No ZIP64 (entries < 4 GiB, < 65535 entries).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** Entry name exactly as written into the archive (not normalised). */
  name: string;
  /** File content; ignored for directories. */
  data?: string | Uint8Array;
  /** Compression method; default 'deflate'. */
  method?: 'store' | 'deflate';
  /** Directory entry (name should end with '/'). */
  directory?: boolean;
  /** Modification time; default 2024-01-01T00:00:00Z. */
  mtime?: Date;
}

export interface ZipOptions {
  /** Write sizes/CRC in a trailing data descriptor (bit 3) instead of the local header. Only used for deflate entries. */
  dataDescriptor?: boolean;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function dosDateTime(d: Date): { time: number; date: number } {
  const time = (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2);
  const date = ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate();
  return { time, date };
}

/** Build a ZIP archive from entries, names written verbatim. */
export function buildZip(entries: ZipEntry[], opts: ZipOptions = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const raw = e.directory ? Buffer.alloc(0) : Buffer.from(e.data ?? '');
    const method = e.directory ? 0 : e.method === 'store' ? 0 : 8;
    const body = method === 8 ? deflateRawSync(raw) : raw;
    const crc = crc32(raw);
    const dd = Boolean(opts.dataDescriptor) && method === 8;
    const flags = 0x0800 | (dd ? 0x0008 : 0);
    const { time, date } = dosDateTime(e.mtime ?? new Date(Date.UTC(2024, 0, 1)));

    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4); // version needed
    lh.writeUInt16LE(flags, 6);
    lh.writeUInt16LE(method, 8);
    lh.writeUInt16LE(time, 10);
    lh.writeUInt16LE(date, 12);
    lh.writeUInt32LE(dd ? 0 : crc, 14);
    lh.writeUInt32LE(dd ? 0 : body.length, 18);
    lh.writeUInt32LE(dd ? 0 : raw.length, 22);
    lh.writeUInt16LE(name.length, 26);
    lh.writeUInt16LE(0, 28);
    const parts: Buffer[] = [lh, name, body];
    if (dd) {
      const d = Buffer.alloc(16);
      d.writeUInt32LE(0x08074b50, 0);
      d.writeUInt32LE(crc, 4);
      d.writeUInt32LE(body.length, 8);
      d.writeUInt32LE(raw.length, 12);
      parts.push(d);
    }
    const local = Buffer.concat(parts);

    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(0x0314, 4); // made by: unix, 2.0
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(flags, 8);
    ch.writeUInt16LE(method, 10);
    ch.writeUInt16LE(time, 12);
    ch.writeUInt16LE(date, 14);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(body.length, 20);
    ch.writeUInt32LE(raw.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt16LE(0, 30); // extra
    ch.writeUInt16LE(0, 32); // comment
    ch.writeUInt16LE(0, 34); // disk
    ch.writeUInt16LE(0, 36); // internal attrs
    const unixMode = e.directory ? 0o040755 : 0o100644;
    ch.writeUInt32LE(((unixMode << 16) | (e.directory ? 0x10 : 0)) >>> 0, 38);
    ch.writeUInt32LE(offset, 42);
    centrals.push(Buffer.concat([ch, name]));

    locals.push(local);
    offset += local.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, cd, end]);
}

/** Convenience: `{ 'dir/a.txt': 'content' }` → zip (deflate). */
export function zipFiles(files: Record<string, string | Uint8Array>, opts: ZipOptions = {}): Buffer {
  return buildZip(
    Object.entries(files).map(([name, data]) => ({ name, data })),
    opts,
  );
}

/** Read back a zip built by buildZip (or any simple non-ZIP64 archive) via the central directory. For test assertions. */
export function readZip(zip: Buffer): Array<{ name: string; data: Buffer }> {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip: no end of central directory record');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const out: Array<{ name: string; data: Buffer }> = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory header');
    const method = zip.readUInt16LE(p + 10);
    const csize = zip.readUInt32LE(p + 20);
    const nlen = zip.readUInt16LE(p + 28);
    const xlen = zip.readUInt16LE(p + 30);
    const clen = zip.readUInt16LE(p + 32);
    const lho = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nlen).toString('utf8');
    const lnlen = zip.readUInt16LE(lho + 26);
    const lxlen = zip.readUInt16LE(lho + 28);
    const start = lho + 30 + lnlen + lxlen;
    const body = zip.subarray(start, start + csize);
    out.push({ name, data: method === 8 ? inflateRawSync(body) : Buffer.from(body) });
    p += 46 + nlen + xlen + clen;
  }
  return out;
}

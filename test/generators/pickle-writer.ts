// A tiny pickle writer for tests: protocol 4 as CPython writes these objects, an object met again written as a memo fetch.
//
// Dicts (Map), lists, tuples (PickleTuple), strings, integers, booleans and None. Like CPython, a dict or list is
// memoized as soon as it is opened (before its items), items go in batches of 1000 (one item alone: SETITEM/APPEND),
// and a second reference to the same object (by identity; strings by value) is a BINGET/LONG_BINGET of 2 or 5 bytes.
// No FRAME opcodes: a reader may read straight through.
import { createHash } from 'node:crypto';
import { PickleTuple, type PickleValue } from '../../src/parsers/allocator-snapshot/pickle-reader.js';

const BATCH = 1000;

/** Dicts, lists and tuples by identity, strings by value (long ones by digest) → their memo index. */
class PickleWriter {
  private readonly out: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(64 * 1024);
  private at = 0;
  private readonly objects = new Map<object, number>();
  private readonly strings = new Map<string, number>();
  // Past 16,383 characters V8 hashes a string by its length alone: thousands of such keys would make this Map quadratic,
  // so a long string is keyed by its digest (the last one remembered: a string written again is mostly the same one).
  private lastLong: [string, string] | null = null;
  private memo = 0;

  private room(n: number): void {
    if (this.at + n <= this.chunk.length) return;
    this.out.push(this.chunk.subarray(0, this.at));
    this.chunk = Buffer.allocUnsafe(Math.max(64 * 1024, n));
    this.at = 0;
  }
  byte(b: number): void {
    this.room(1);
    this.chunk[this.at++] = b;
  }
  private u32(op: number, n: number): void {
    this.room(5);
    this.chunk[this.at++] = op;
    this.chunk.writeUInt32LE(n, this.at);
    this.at += 4;
  }
  private raw(b: Buffer): void {
    this.room(b.length);
    b.copy(this.chunk, this.at);
    this.at += b.length;
  }
  private stringKey(v: string): string {
    if (v.length <= 1024) return v;
    if (this.lastLong !== null && this.lastLong[0] === v) return this.lastLong[1];
    this.lastLong = [v, `\u0000${v.length}:${createHash('sha256').update(v).digest('hex')}`];
    return this.lastLong[1];
  }
  private memoize(): number {
    this.byte(0x94);
    return this.memo++;
  }
  private get(index: number): void {
    if (index < 256) {
      this.byte(0x68);
      this.byte(index);
    } else this.u32(0x6a, index);
  }
  private int(n: number | bigint): void {
    const small = typeof n === 'number' && Number.isInteger(n);
    if (small && n >= 0 && n < 256) {
      this.byte(0x4b);
      this.byte(n);
    } else if (small && n >= 0 && n < 65536) {
      this.byte(0x4d);
      this.room(2);
      this.chunk.writeUInt16LE(n, this.at);
      this.at += 2;
    } else if (small && n >= -(2 ** 31) && n < 2 ** 31) {
      this.byte(0x4a);
      this.room(4);
      this.chunk.writeInt32LE(n, this.at);
      this.at += 4;
    } else {
      // LONG1: the shortest little-endian two's complement
      let v = BigInt(n);
      const bytes: number[] = [];
      for (;;) {
        bytes.push(Number(v & 0xffn));
        v >>= 8n;
        const last = bytes[bytes.length - 1] as number;
        if ((v === 0n && last < 0x80) || (v === -1n && last >= 0x80)) break;
      }
      this.byte(0x8a);
      this.byte(bytes.length);
      for (const b of bytes) this.byte(b);
    }
  }
  /** Items in MARK … `many` batches of `size`; a single item is followed by `one` alone (none: nothing). */
  private batches(items: readonly PickleValue[], one: number, many: number, size = BATCH): void {
    if (items.length === 1) {
      this.write(items[0] as PickleValue);
      this.byte(one);
      return;
    }
    for (let i = 0; i < items.length; i += size) {
      this.byte(0x28);
      for (const item of items.slice(i, i + size)) this.write(item);
      this.byte(many);
    }
  }
  private string(v: string): void {
    const known = this.strings.get(this.stringKey(v));
    if (known !== undefined) return this.get(known);
    const b = Buffer.from(v, 'utf8');
    if (b.length < 256) {
      this.byte(0x8c);
      this.byte(b.length);
    } else this.u32(0x58, b.length);
    this.raw(b);
    this.strings.set(this.stringKey(v), this.memoize());
  }
  private tuple(v: PickleTuple): void {
    if (v.items.length === 0) return this.byte(0x29);
    if (v.items.length > 3) this.byte(0x28);
    for (const item of v.items) this.write(item);
    this.byte(v.items.length > 3 ? 0x74 : 0x84 + v.items.length);
    this.objects.set(v, this.memoize());
  }
  write(v: PickleValue): void {
    if (v === null) return this.byte(0x4e);
    if (v === true) return this.byte(0x88);
    if (v === false) return this.byte(0x89);
    if (typeof v === 'number' || typeof v === 'bigint') return this.int(v);
    if (typeof v === 'string') return this.string(v);
    if (typeof v !== 'object') throw new Error(`cannot pickle ${typeof v}`);
    const known = this.objects.get(v);
    if (known !== undefined) return this.get(known);
    if (v instanceof Map) {
      this.byte(0x7d);
      this.objects.set(v, this.memoize());
      const pairs = [...v].flat();
      if (pairs.length !== 2) return this.batches(pairs, 0x73, 0x75, 2 * BATCH);
      // One pair alone: SETITEM.
      this.write(pairs[0] as PickleValue);
      this.write(pairs[1] as PickleValue);
      this.byte(0x73);
      return;
    }
    if (Array.isArray(v)) {
      this.byte(0x5d);
      this.objects.set(v, this.memoize());
      if (v.length > 0) this.batches(v, 0x61, 0x65);
      return;
    }
    if (v instanceof PickleTuple) return this.tuple(v);
    throw new Error('cannot pickle this object');
  }
  bytes(): Buffer {
    this.out.push(this.chunk.subarray(0, this.at));
    return Buffer.concat(this.out);
  }
}

export function pickle(value: PickleValue): Buffer {
  const w = new PickleWriter();
  w.byte(0x80);
  w.byte(4);
  w.write(value);
  w.byte(0x2e);
  return w.bytes();
}

/** A dict of a pickle from an object literal (key order kept). */
export const dict = (fields: Record<string, PickleValue>): Map<PickleValue, PickleValue> =>
  new Map(Object.entries(fields));

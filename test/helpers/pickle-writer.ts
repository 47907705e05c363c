// A tiny pickle writer for tests: protocol 4 as CPython writes these objects, an object met again written as a memo fetch.
//
// Dicts (Map), lists, tuples (PickleTuple), strings, integers, booleans and None. Like CPython, a dict or list is
// memoized as soon as it is opened (before its items), items go in batches of 1000 (one item alone: SETITEM/APPEND),
// and a second reference to the same object (by identity; strings by value) is a BINGET/LONG_BINGET of 2 or 5 bytes.
// No FRAME opcodes: a reader may read straight through.
import { createHash } from 'node:crypto';
import { PickleTuple, type PickleValue } from '../../src/parsers/allocator-snapshot/pickle-reader.js';

const BATCH = 1000;

export function pickle(value: PickleValue): Buffer {
  const out: Buffer[] = [];
  let chunk = Buffer.allocUnsafe(64 * 1024);
  let at = 0;
  const room = (n: number): void => {
    if (at + n <= chunk.length) return;
    out.push(chunk.subarray(0, at));
    chunk = Buffer.allocUnsafe(Math.max(64 * 1024, n));
    at = 0;
  };
  const byte = (b: number): void => {
    room(1);
    chunk[at++] = b;
  };
  const u32 = (op: number, n: number): void => {
    room(5);
    chunk[at++] = op;
    chunk.writeUInt32LE(n, at);
    at += 4;
  };
  const objects = new Map<object, number>();
  const strings = new Map<string, number>();
  // Past 16,383 characters V8 hashes a string by its length alone: thousands of such keys would make this Map quadratic,
  // so a long string is keyed by its digest (the last one remembered: a string written again is mostly the same one).
  let lastLong: [string, string] | null = null;
  const stringKey = (v: string): string => {
    if (v.length <= 1024) return v;
    if (lastLong !== null && lastLong[0] === v) return lastLong[1];
    lastLong = [v, `\u0000${v.length}:${createHash('sha256').update(v).digest('hex')}`];
    return lastLong[1];
  };
  let memo = 0;
  const memoize = (): number => {
    byte(0x94);
    return memo++;
  };
  const get = (index: number): void => {
    if (index < 256) {
      byte(0x68);
      byte(index);
    } else u32(0x6a, index);
  };
  const int = (n: number | bigint): void => {
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < 256) {
      byte(0x4b);
      byte(n);
    } else if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < 65536) {
      byte(0x4d);
      room(2);
      chunk.writeUInt16LE(n, at);
      at += 2;
    } else if (typeof n === 'number' && Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31) {
      byte(0x4a);
      room(4);
      chunk.writeInt32LE(n, at);
      at += 4;
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
      byte(0x8a);
      byte(bytes.length);
      for (const b of bytes) byte(b);
    }
  };
  const batches = (
    items: readonly PickleValue[],
    one: number,
    many: number,
    write: (item: PickleValue) => void,
  ): void => {
    if (items.length === 1) {
      write(items[0] as PickleValue);
      byte(one);
      return;
    }
    for (let i = 0; i < items.length; i += BATCH) {
      byte(0x28);
      for (const item of items.slice(i, i + BATCH)) write(item);
      byte(many);
    }
  };
  const write = (v: PickleValue): void => {
    if (v === null) return byte(0x4e);
    if (v === true) return byte(0x88);
    if (v === false) return byte(0x89);
    if (typeof v === 'number' || typeof v === 'bigint') return int(v);
    if (typeof v === 'string') {
      const known = strings.get(stringKey(v));
      if (known !== undefined) return get(known);
      const b = Buffer.from(v, 'utf8');
      if (b.length < 256) {
        byte(0x8c);
        byte(b.length);
      } else u32(0x58, b.length);
      room(b.length);
      b.copy(chunk, at);
      at += b.length;
      strings.set(stringKey(v), memoize());
      return;
    }
    if (typeof v !== 'object') throw new Error(`cannot pickle ${typeof v}`);
    const known = objects.get(v);
    if (known !== undefined) return get(known);
    if (v instanceof Map) {
      byte(0x7d);
      objects.set(v, memoize());
      const pairs = [...v].flat();
      if (pairs.length === 2) {
        write(pairs[0] as PickleValue);
        write(pairs[1] as PickleValue);
        byte(0x73);
        return;
      }
      for (let i = 0; i < pairs.length; i += 2 * BATCH) {
        byte(0x28);
        for (const item of pairs.slice(i, i + 2 * BATCH)) write(item);
        byte(0x75);
      }
      return;
    }
    if (Array.isArray(v)) {
      byte(0x5d);
      objects.set(v, memoize());
      if (v.length > 0) batches(v, 0x61, 0x65, write);
      return;
    }
    if (v instanceof PickleTuple) {
      if (v.items.length === 0) return byte(0x29);
      if (v.items.length > 3) byte(0x28);
      for (const item of v.items) write(item);
      byte(v.items.length > 3 ? 0x74 : 0x84 + v.items.length);
      objects.set(v, memoize());
      return;
    }
    throw new Error('cannot pickle this object');
  };
  byte(0x80);
  byte(4);
  write(value);
  byte(0x2e);
  out.push(chunk.subarray(0, at));
  return Buffer.concat(out);
}

/** A dict of a pickle from an object literal (key order kept). */
export const dict = (fields: Record<string, PickleValue>): Map<PickleValue, PickleValue> =>
  new Map(Object.entries(fields));

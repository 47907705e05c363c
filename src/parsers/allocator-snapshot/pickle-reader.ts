// A restricted, streaming unpickler for allocator memory snapshots: the 32 opcodes these files use, nothing that names a class or runs code.
//
// The file is read twice, front to back, through one small window. The first pass checks every opcode and its
// argument against the end of the file (refusing what could name a class or call code, with its byte offset) and notes
// which memo entries are ever fetched again (BINGET). The second pass builds the values, keeping in the memo only those
// entries: at protocol 4 every dict, list and string is memoized, and keeping them all would hold the whole file.
// Items appended to the segment list and to each device's trace are handed to the caller as they arrive and not kept.
// Semantics follow CPython's _pickle.c: MEMOIZE stores at len(memo), a fetched memo entry is the same object, no opcode
// reaches below the innermost MARK, STOP ends the pickle (bytes after it are ignored).
// Work stays within a few times the file's bytes: every opcode costs O(its bytes) here (long integers included), and
// a fetched dict, list or tuple is noted with the byte of its first fetch (MemoFetches), so that a caller walking
// segments, blocks or trace entries can refuse one placed twice instead of walking it again for 2 bytes of file. A
// string past KEPT_CHARS is kept as its head, a hash of the whole and its tail: no path or name of a snapshot is that
// long, and every later use of it (a dict key, a site name, fetched again for 2 bytes) then costs at most that much;
// memo indices past the next one are refused (writers number them in order); and the work done is charged to a
// WorkBudget, which refuses the file once it passes a few units per byte.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from '../../common/errors.js';
import { WorkBudget } from './work-budget.js';

/** A dict of the pickle (keys are strings in these files; a Map keeps any key as a key, `__proto__` included). */
export type PickleDict = Map<PickleValue, PickleValue>;

/** A tuple: kept apart from lists (tuples are values, such as `segment_pool_id`; lists are containers). */
export class PickleTuple {
  constructor(readonly items: readonly PickleValue[]) {}
}

/** A float (BINFLOAT): kept apart from integers, so that a float where a byte count belongs is refused. */
export class PickleFloat {
  constructor(readonly value: number) {}
}

/** Integers are numbers while exact (|n| ≤ 2^53 − 1), else bigints. */
export type PickleValue =
  number | bigint | string | boolean | null | PickleFloat | PickleTuple | PickleValue[] | PickleDict;

/** Where the streamed lists' items go, in file order. Each call's items are the caller's; the reader keeps none of them. */
export interface StreamedItems {
  /** Items of the segment list: the top-level dict's `segments`, or the top-level list itself. */
  segments(items: readonly PickleValue[]): void;
  /** Items of `device_traces[device]`. */
  traceEntries(device: number, items: readonly PickleValue[]): void;
}

export interface PickleDocument {
  /** The top-level object; its streamed lists are empty. */
  value: PickleValue;
  protocol: number;
  /** Byte offset just after STOP; the file may go on (bytes after STOP are ignored). */
  end: number;
  /** Lists whose items went to StreamedItems: the segment list, then each device's trace (its index in device_traces). */
  streamed: { segments: PickleValue[] | null; traces: Map<number, PickleValue[]> };
}

/** The byte of a dict's, list's or tuple's first memo fetch, kept on the object itself (a WeakMap of every fetched frames list cost ~50 MiB at 1 GiB). */
const FETCHED_AT = Symbol('fetched at');
type Fetched = { [FETCHED_AT]?: number };

/**
 * Where each dict, list or tuple of the file is first placed again by a memo fetch (BINGET/LONG_BINGET): the byte
 * offset of that fetch. A value met only once has none.
 */
export class MemoFetches {
  /** The byte of the first memo fetch of `value`; undefined when the file places it once (or it is a string or number). */
  of(value: PickleValue | undefined): number | undefined {
    return typeof value === 'object' && value !== null ? (value as Fetched)[FETCHED_AT] : undefined;
  }

  note(value: PickleValue, offset: number): void {
    if (typeof value === 'object' && value !== null && (value as Fetched)[FETCHED_AT] === undefined)
      (value as Fetched)[FETCHED_AT] = offset;
  }
}

/** CPython's opcode names (pickletools), by byte, for the 32 accepted opcodes and those named in messages. */
const OPCODE_NAMES: Readonly<Record<number, string>> = {
  0x80: 'PROTO',
  0x95: 'FRAME',
  0x2e: 'STOP',
  0x28: 'MARK',
  0x7d: 'EMPTY_DICT',
  0x73: 'SETITEM',
  0x75: 'SETITEMS',
  0x5d: 'EMPTY_LIST',
  0x61: 'APPEND',
  0x65: 'APPENDS',
  0x29: 'EMPTY_TUPLE',
  0x85: 'TUPLE1',
  0x86: 'TUPLE2',
  0x87: 'TUPLE3',
  0x74: 'TUPLE',
  0x8c: 'SHORT_BINUNICODE',
  0x58: 'BINUNICODE',
  0x8d: 'BINUNICODE8',
  0x4b: 'BININT1',
  0x4d: 'BININT2',
  0x4a: 'BININT',
  0x8a: 'LONG1',
  0x8b: 'LONG4',
  0x47: 'BINFLOAT',
  0x88: 'NEWTRUE',
  0x89: 'NEWFALSE',
  0x4e: 'NONE',
  0x94: 'MEMOIZE',
  0x71: 'BINPUT',
  0x72: 'LONG_BINPUT',
  0x68: 'BINGET',
  0x6a: 'LONG_BINGET',
  // Refused: they name a class or call code.
  0x63: 'GLOBAL',
  0x93: 'STACK_GLOBAL',
  0x52: 'REDUCE',
  0x62: 'BUILD',
  0x69: 'INST',
  0x6f: 'OBJ',
  0x81: 'NEWOBJ',
  0x92: 'NEWOBJ_EX',
  0x50: 'PERSID',
  0x51: 'BINPERSID',
  0x82: 'EXT1',
  0x83: 'EXT2',
  0x84: 'EXT4',
  // Never in these files.
  0x49: 'INT',
  0x4c: 'LONG',
  0x53: 'STRING',
  0x54: 'BINSTRING',
  0x55: 'SHORT_BINSTRING',
  0x56: 'UNICODE',
  0x46: 'FLOAT',
  0x42: 'BINBYTES',
  0x43: 'SHORT_BINBYTES',
  0x8e: 'BINBYTES8',
  0x96: 'BYTEARRAY8',
  0x97: 'NEXT_BUFFER',
  0x98: 'READONLY_BUFFER',
  0x64: 'DICT',
  0x6c: 'LIST',
  0x67: 'GET',
  0x70: 'PUT',
  0x30: 'POP',
  0x31: 'POP_MARK',
  0x32: 'DUP',
  0x8f: 'EMPTY_SET',
  0x90: 'ADDITEMS',
  0x91: 'FROZENSET',
};

const REFUSED = new Set([0x63, 0x93, 0x52, 0x62, 0x69, 0x6f, 0x81, 0x92, 0x50, 0x51, 0x82, 0x83, 0x84]);

/** A string longer than this is no field of a memory snapshot (paths, names): refused rather than buffered. */
const MAX_STRING_BYTES = 16 * 1024 * 1024;
/** Bytes read from the file at a time. */
const WINDOW_BYTES = 1024 * 1024;

/** `name: byte N: why`: every error of the reader names the file and the byte offset. */
function atByte(name: string, offset: number, reason: string): InputError {
  return new InputError(`${name}: byte ${offset}: ${reason}`);
}

function opcodeName(op: number): string {
  return `${OPCODE_NAMES[op] ?? 'unknown opcode'} (0x${op.toString(16).padStart(2, '0')})`;
}

/** The file through one window: `pos` indexes `buf`, which holds file bytes from `start`. */
class FileWindow {
  readonly buf = Buffer.allocUnsafe(WINDOW_BYTES);
  start = 0;
  pos = 0;
  end = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  offset(): number {
    return this.start + this.pos;
  }

  /** Makes `n` bytes (n ≤ the window) readable at pos; false when the file ends first. */
  fill(n: number): boolean {
    if (this.end - this.pos >= n) return true;
    this.buf.copy(this.buf, 0, this.pos, this.end);
    this.start += this.pos;
    this.end -= this.pos;
    this.pos = 0;
    while (this.end < n) {
      const read = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, this.start + this.end);
      if (read === 0) return false;
      this.end += read;
    }
    return true;
  }

  /** Moves past `n` bytes without reading them; false when the file ends first. */
  skip(n: number): boolean {
    if (this.pos + n <= this.end) {
      this.pos += n;
      return true;
    }
    const target = this.start + this.pos + n;
    this.start = target;
    this.pos = 0;
    this.end = 0;
    return target <= this.size;
  }

  /** `n` bytes as a buffer of their own (a string longer than the window is read straight into it). */
  take(n: number): Buffer {
    if (n <= this.buf.length && this.fill(n)) {
      const out = this.buf.subarray(this.pos, this.pos + n);
      this.pos += n;
      return out;
    }
    const out = Buffer.allocUnsafe(n);
    const have = this.end - this.pos;
    this.buf.copy(out, 0, this.pos, this.end);
    let got = have;
    const from = this.start + this.pos;
    while (got < n) {
      const read = readSync(this.fd, out, got, n - got, from + got);
      if (read === 0) throw new Error('file shrank while being read');
      got += read;
    }
    this.start = from + n;
    this.pos = 0;
    this.end = 0;
    return out;
  }
}

/**
 * How often each memo index is fetched (BINGET) in the whole file, counted by the first pass: 0 never (nothing is kept
 * for it), 255 at least 255 times (kept to the end). One byte per index up to COUNTED_INDICES, a Map beyond.
 */
class FetchCounts {
  private counts = new Uint8Array(4096);
  private readonly sparse = new Map<number, number>();
  private static readonly COUNTED_INDICES = 2 ** 28;
  static readonly MANY = 255;

  get(i: number): number {
    if (i >= FetchCounts.COUNTED_INDICES) return this.sparse.get(i) ?? 0;
    return i < this.counts.length ? (this.counts[i] as number) : 0;
  }

  set(i: number, n: number): void {
    if (i >= FetchCounts.COUNTED_INDICES) {
      this.sparse.set(i, n);
      return;
    }
    if (i >= this.counts.length) {
      let length = this.counts.length * 2;
      while (length <= i) length *= 2;
      const grown = new Uint8Array(length);
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[i] = n;
  }

  /** One more fetch of `i` (saturating at MANY). */
  count(i: number): void {
    const n = this.get(i);
    if (n < FetchCounts.MANY) this.set(i, n + 1);
  }
}

/**
 * The memo as CPython keeps it: MEMOIZE stores at len(memo), the number of distinct indices stored so far, which
 * BINPUT may also add to (at len(memo): every writer numbers entries in order; the first pass refuses a put past it)
 * or overwrite, so the stored indices are 0…count−1. In the second pass a value is kept only while fetches of its
 * index remain: at protocol 4 every dict and list is memoized, and most are never fetched (trace entries) or fetched
 * once or twice (an allocation's frames list, by its free entries).
 */
class Memo {
  private count = 0;
  private readonly values = new Map<number, PickleValue>();

  /** `fetches`: the first pass's counts, which the second pass uses up; null in the first pass. */
  constructor(private readonly fetches: FetchCounts | null) {}

  /** Index MEMOIZE stores at. */
  next(): number {
    return this.count;
  }

  put(index: number, value: PickleValue | undefined): void {
    if (index === this.count) this.count++;
    if (this.fetches !== null && value !== undefined && this.fetches.get(index) > 0) this.values.set(index, value);
  }

  has(index: number): boolean {
    return index < this.count;
  }

  /** The stored value itself; dropped after the file's last fetch of it. */
  fetch(index: number): PickleValue {
    const value = this.values.get(index) as PickleValue;
    const fetches = this.fetches as FetchCounts;
    const left = fetches.get(index);
    if (left < FetchCounts.MANY) {
      if (left <= 1) this.values.delete(index);
      fetches.set(index, left - 1);
    }
    return value;
  }
}

/**
 * Reads the pickle at `path` (`name` in messages). Throws an InputError naming the file, the byte offset and the opcode
 * for a refused or unsupported opcode, a truncated file, or a malformed structure. `memoFetches` gets every dict, list
 * and tuple fetched again from the memo, as the items that hold them are streamed.
 */
export function readPickle(
  path: string,
  name: string,
  streamedItems: StreamedItems,
  memoFetches = new MemoFetches(),
  work?: WorkBudget,
): PickleDocument {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const budget = work ?? new WorkBudget(name, size);
    // Each pass reads every byte once.
    budget.charge(size, 'reading its bytes');
    const fetches = scan(new FileWindow(fd, size), name);
    budget.charge(size, 'reading its bytes');
    return decode(new FileWindow(fd, size), name, fetches, streamedItems, memoFetches, budget);
  } finally {
    closeSync(fd);
  }
}

/** The first pass: every opcode checked, arguments measured against the end of the file, memo fetches counted. */
function scan(w: FileWindow, name: string): FetchCounts {
  const fetches = new FetchCounts();
  const memo = new Memo(null);
  readProtocol(w, name);
  for (;;) {
    const at = w.offset();
    if (!w.fill(1)) throw truncated(name, w.size, null, at);
    const op = w.buf[w.pos++] as number;
    if (op === 0x2e) return fetches; // STOP
    const fixed = fixedArgument(op);
    if (fixed >= 0) {
      if (!w.fill(fixed)) throw truncated(name, w.size, op, at);
      const b = w.buf;
      const p = w.pos;
      switch (op) {
        case 0x68: // BINGET
        case 0x6a: {
          // LONG_BINGET
          const index = op === 0x68 ? (b[p] as number) : b.readUInt32LE(p);
          if (!memo.has(index))
            throw atByte(
              name,
              at,
              `${opcodeName(op)} fetches memo entry ${index}, which nothing stored before it: the file is corrupt`,
            );
          fetches.count(index);
          break;
        }
        case 0x94: // MEMOIZE
          memo.put(memo.next(), undefined);
          break;
        case 0x71: // BINPUT
        case 0x72: {
          // LONG_BINPUT: an index past the next one would make the memo as long as the index (2^32 at most)
          const index = op === 0x71 ? (b[p] as number) : b.readUInt32LE(p);
          if (index > memo.next())
            throw atByte(
              name,
              at,
              `${opcodeName(op)} stores memo entry ${index}, past the next one (${memo.next()}): pickle writers number memo entries in order, so this is no memory snapshot: refused, nothing of it was used`,
            );
          memo.put(index, undefined);
          break;
        }
        case 0x80: // PROTO
          checkProtocol(b[p] as number, name, at);
          break;
        default:
      }
      w.pos += fixed;
      continue;
    }
    // Opcodes with a length-prefixed argument: strings and long integers.
    const length = variableLength(op, w, name, at);
    if (!w.skip(length)) throw truncated(name, w.size, op, at);
  }
}

/**
 * Bytes of a fixed-size argument, -1 for a length-prefixed one; throws for an opcode outside the accepted 32. Checked
 * here, in the first pass: a refused file is refused before anything of it is decoded.
 */
function fixedArgument(op: number): number {
  switch (op) {
    case 0x28:
    case 0x7d:
    case 0x73:
    case 0x75:
    case 0x5d:
    case 0x61:
    case 0x65:
    case 0x29:
    case 0x85:
    case 0x86:
    case 0x87:
    case 0x74:
    case 0x88:
    case 0x89:
    case 0x4e:
    case 0x94:
      return 0;
    case 0x4b:
    case 0x71:
    case 0x68:
    case 0x80:
      return 1;
    case 0x4d:
      return 2;
    case 0x4a:
    case 0x72:
    case 0x6a:
      return 4;
    case 0x47:
    case 0x95:
      return 8;
    case 0x8c:
    case 0x58:
    case 0x8d:
    case 0x8a:
    case 0x8b:
      return -1;
    default:
      return -2;
  }
}

/** The length of a string's or long's bytes, after reading its length prefix; throws for any other opcode. */
function variableLength(op: number, w: FileWindow, name: string, at: number): number {
  const prefix = op === 0x8c || op === 0x8a ? 1 : op === 0x58 || op === 0x8b ? 4 : op === 0x8d ? 8 : 0;
  if (prefix === 0) throw unexpectedOpcode(op, name, at);
  if (!w.fill(prefix)) throw truncated(name, w.size, op, at);
  let length: number;
  if (prefix === 1) length = w.buf[w.pos] as number;
  else if (op === 0x58) length = w.buf.readUInt32LE(w.pos);
  else if (op === 0x8b) length = w.buf.readInt32LE(w.pos);
  else {
    const wide = w.buf.readBigUInt64LE(w.pos);
    length = wide > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(wide);
  }
  w.pos += prefix;
  if (length < 0) throw atByte(name, at, `${opcodeName(op)} has a negative length (${length}): the file is corrupt`);
  const isString = op === 0x8c || op === 0x58 || op === 0x8d;
  if (isString && length > MAX_STRING_BYTES) {
    throw atByte(
      name,
      at,
      `${opcodeName(op)} holds a string of ${length} bytes, more than any field of a memory snapshot (${MAX_STRING_BYTES}): the file is not a memory snapshot`,
    );
  }
  if (!isString && length > MAX_STRING_BYTES)
    throw atByte(name, at, `${opcodeName(op)} holds an integer of ${length} bytes: the file is not a memory snapshot`);
  return length;
}

function unexpectedOpcode(op: number, name: string, at: number): InputError {
  if (REFUSED.has(op)) {
    return atByte(
      name,
      at,
      `${opcodeName(op)} names a class or calls code, which a memory snapshot never does: refused, nothing of the file was used`,
    );
  }
  return atByte(
    name,
    at,
    `unsupported opcode ${opcodeName(op)}: torch_npu's memory snapshots never use it, so this is no memory snapshot`,
  );
}

function truncated(name: string, size: number, op: number | null, at: number): InputError {
  const inside = op === null ? 'before the STOP opcode' : `inside ${opcodeName(op)} at byte ${at}`;
  return new InputError(
    `${name}: byte ${size}: the file ends ${inside}: it was cut short (the job died while dumping, or the copy is incomplete)`,
  );
}

function readProtocol(w: FileWindow, name: string): number {
  if (!w.fill(2) || w.buf[0] !== 0x80) {
    throw atByte(
      name,
      0,
      'no PROTO opcode: not a pickle of protocol 2 or later (torch_npu writes 2, 4 or 5; protocol 0/1 files are refused)',
    );
  }
  const protocol = w.buf[1] as number;
  checkProtocol(protocol, name, 0);
  w.pos = 2;
  return protocol;
}

function checkProtocol(protocol: number, name: string, at: number): void {
  if (protocol < 2 || protocol > 5)
    throw atByte(name, at, `pickle protocol ${protocol}: only protocols 2 to 5 are read`);
}

/** The n bytes b[from, from + n) as little-endian two's complement, a number while exact, else a bigint. */
function signedLittleEndian(b: Buffer, from: number, n: number): number | bigint {
  if (n === 0) return 0;
  const last = b[from + n - 1] as number;
  if (n <= 6) {
    // At most 48 bits: exact in a double.
    let value = 0;
    for (let i = from + n - 1; i >= from; i--) value = value * 256 + (b[i] as number);
    return last >= 0x80 ? value - 2 ** (8 * n) : value;
  }
  // Through hex, in one linear pass: shifting a bigint byte by byte costs n^2 (hours for a 1 MiB LONG4).
  let value = BigInt(
    `0x${Buffer.from(b.subarray(from, from + n))
      .reverse()
      .toString('hex')}`,
  );
  if (last >= 0x80) value -= 1n << BigInt(8 * n);
  return value >= -BigInt(Number.MAX_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** True for an integer of at most 64 bits (signed or unsigned): any address, size or stream a snapshot holds. */
export function within64Bits(n: bigint): boolean {
  return n >= -(1n << 63n) && n < 1n << 64n;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Longest string kept whole: PATH_MAX, as report.json's keys; no path, name or key of a snapshot is longer. */
const KEPT_CHARS = 4096;
const KEPT_HEAD = 2041;
const KEPT_TAIL = 2040;

/**
 * A string past KEPT_CHARS as its first 2,041 characters, `…~`, 12 hex digits of the SHA-256 of the whole, `…` and its
 * last 2,040 (4,096 in all; the tail keeps a path's `.py`). Past 16,383 characters V8 hashes a string by its length
 * alone, so thousands of such strings as Map keys (a dict's keys, actions, sites) would be compared with each other
 * whole; kept short, each later use costs at most KEPT_CHARS, however often the memo places it.
 */
function kept(s: string): string {
  if (s.length <= KEPT_CHARS) return s;
  const hash = createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 12);
  // Never half a surrogate pair at either cut.
  const h = s.charCodeAt(KEPT_HEAD - 1);
  const head = s.slice(0, h >= 0xd800 && h <= 0xdbff ? KEPT_HEAD - 1 : KEPT_HEAD);
  const t = s.charCodeAt(s.length - KEPT_TAIL);
  const tail = s.slice(t >= 0xdc00 && t <= 0xdfff ? s.length - KEPT_TAIL + 1 : s.length - KEPT_TAIL);
  return `${head}…~${hash}…${tail}`;
}

/** UTF-8 as CPython decodes a pickle's strings ('surrogatepass': a lone surrogate's 3-byte form is that surrogate). */
function decodeString(b: Buffer, name: string, at: number): string {
  let ascii = true;
  for (let i = 0; i < b.length; i++) {
    if ((b[i] as number) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return b.toString('latin1');
  try {
    return utf8.decode(b);
  } catch {
    return decodeSurrogatePass(b, name, at);
  }
}

function decodeSurrogatePass(b: Buffer, name: string, at: number): string {
  let out = '';
  let run = 0;
  for (let i = 0; i < b.length;) {
    // A lone surrogate U+D800–U+DFFF is ED A0..BF 80..BF; strict UTF-8 refuses it, surrogatepass does not.
    if (
      b[i] === 0xed &&
      i + 2 < b.length &&
      (b[i + 1] as number) >= 0xa0 &&
      (b[i + 1] as number) <= 0xbf &&
      ((b[i + 2] as number) & 0xc0) === 0x80
    ) {
      if (run < i) out += strict(b.subarray(run, i), name, at);
      out += String.fromCharCode(0xd000 | (((b[i + 1] as number) & 0x3f) << 6) | ((b[i + 2] as number) & 0x3f));
      i += 3;
      run = i;
    } else i++;
  }
  if (run < b.length) out += strict(b.subarray(run), name, at);
  return out;
}

function strict(b: Buffer, name: string, at: number): string {
  try {
    return utf8.decode(b);
  } catch {
    throw atByte(name, at, 'a string is not UTF-8: the file is corrupt');
  }
}

/** The second pass: the values, with the streamed lists' items handed on as they are appended. */
function decode(
  w: FileWindow,
  name: string,
  fetches: FetchCounts,
  streamedItems: StreamedItems,
  memoFetches: MemoFetches,
  work: WorkBudget,
): PickleDocument {
  const stack: PickleValue[] = [];
  /** Stack lengths at each open MARK, innermost last. */
  const marks: number[] = [];
  const memo = new Memo(fetches);
  const streamed: PickleDocument['streamed'] = { segments: null, traces: new Map() };
  const protocol = readProtocol(w, name);
  let at = 0;
  work.position = () => at;
  /** A string's bytes decoded (and hashed once, as a key): twice its length; past KEPT_CHARS, a third time (SHA-256). */
  const text = (b: Buffer): string => {
    work.charge(b.length * (b.length > KEPT_CHARS ? 3 : 2), 'decoding strings');
    return kept(decodeString(b, name, at));
  };

  const fail = (reason: string): InputError => atByte(name, at, reason);
  /** The innermost MARK's position: nothing below it may be popped. */
  const fence = (): number => (marks.length === 0 ? 0 : (marks[marks.length - 1] as number));
  const pop = (op: number): PickleValue => {
    if (stack.length <= fence())
      throw fail(`${opcodeName(op)} finds nothing to take above the last MARK: the file is corrupt`);
    return stack.pop() as PickleValue;
  };
  const top = (op: number): PickleValue => {
    if (stack.length <= fence()) throw fail(`${opcodeName(op)} finds nothing above the last MARK: the file is corrupt`);
    return stack[stack.length - 1] as PickleValue;
  };
  const popMark = (op: number): PickleValue[] => {
    const mark = marks.pop();
    if (mark === undefined) throw fail(`${opcodeName(op)} without a MARK before it: the file is corrupt`);
    work.charge(stack.length - mark, 'copying items');
    return stack.splice(mark);
  };

  /**
   * Where the list at stack index `j` will sit in the finished object, for the layouts writers produce (CPython's
   * batches of MARK … APPENDS, a lone APPEND, torch::jit::Pickler's MARK … APPENDS): the top-level dict's values are
   * at even indices above its MARK at 1 (or at 2, set alone), device_traces' lists above its own MARK (or alone right
   * above it). `fenceAt` is the innermost MARK at or below j. Any other list is built in place, as CPython would.
   */
  const placeOf = (j: number, fenceAt: number, below: number): 'segments' | number | null => {
    if (j === 0) return Array.isArray(stack[0]) ? 'segments' : null;
    const key = topKeyAt(j, fenceAt);
    if (key === 'segments') return 'segments';
    if (key !== null) return null;
    // An element of device_traces: its index is the lists already in it plus those before it in this batch.
    if (fenceAt >= 3 && topKeyAt(fenceAt - 1, below) === 'device_traces')
      return (stack[fenceAt - 1] as PickleValue[]).length + j - fenceAt;
    if (fenceAt <= 1 && j >= 3 && topKeyAt(j - 1, fenceAt) === 'device_traces')
      return (stack[j - 1] as PickleValue[]).length;
    return null;
  };
  const topKeyAt = (v: number, markBelow: number): string | null => {
    if (v < 2 || v % 2 !== 0 || !(stack[0] instanceof Map) || !Array.isArray(stack[v])) return null;
    if (!(markBelow === 1 || (markBelow === 0 && v === 2))) return null;
    const key = stack[v - 1];
    return typeof key === 'string' ? key : null;
  };

  /** V8 hashes a bigint by its lowest 64 bits: many wider keys sharing them in one dict would be compared whole. */
  const checkKey = (op: number, key: PickleValue): void => {
    if (typeof key === 'bigint' && !within64Bits(key))
      throw fail(
        `${opcodeName(op)} sets a dict key that is an integer past 64 bits (${key}): no dict of a memory snapshot is keyed so: refused, nothing of it was used`,
      );
  };

  /** APPEND/APPENDS: a streamed list's items go to the caller, any other list keeps them. */
  const append = (op: number, j: number, items: PickleValue[]): void => {
    const list = stack[j];
    if (!Array.isArray(list))
      throw fail(`${opcodeName(op)} appends to something that is not a list: the file is corrupt`);
    const fenceAt = fence();
    const place =
      items.length === 0 ? null : placeOf(j, fenceAt, marks.length >= 2 ? (marks[marks.length - 2] as number) : 0);
    if (place === 'segments' && (streamed.segments === null || streamed.segments === list) && list.length === 0) {
      streamed.segments = list;
      streamedItems.segments(items);
      return;
    }
    if (typeof place === 'number' && (streamed.traces.get(place) ?? list) === list && list.length === 0) {
      streamed.traces.set(place, list);
      streamedItems.traceEntries(place, items);
      return;
    }
    work.charge(items.length, 'copying items');
    for (let i = 0; i < items.length; i++) list.push(items[i] as PickleValue);
  };

  for (;;) {
    at = w.offset();
    if (!w.fill(1)) throw truncated(name, w.size, null, at);
    const op = w.buf[w.pos++] as number;
    // The first pass measured every argument, so each fill below succeeds.
    switch (op) {
      case 0x2e: {
        // STOP
        if (marks.length > 0 || stack.length !== 1)
          throw fail(
            `STOP with ${stack.length} object(s) and ${marks.length} open MARK(s) on the stack: the file is corrupt`,
          );
        return { value: stack[0] as PickleValue, protocol, end: at + 1, streamed };
      }
      case 0x95: // FRAME: a read-ahead hint
        w.fill(8);
        w.pos += 8;
        break;
      case 0x80: // PROTO (again)
        w.fill(1);
        w.pos += 1;
        break;
      case 0x28: // MARK
        marks.push(stack.length);
        break;
      case 0x7d: // EMPTY_DICT
        stack.push(new Map());
        break;
      case 0x5d: // EMPTY_LIST
        stack.push([]);
        break;
      case 0x29: // EMPTY_TUPLE
        stack.push(new PickleTuple([]));
        break;
      case 0x85: // TUPLE1
        stack.push(new PickleTuple([pop(op)]));
        break;
      case 0x86: {
        // TUPLE2
        const b = pop(op);
        stack.push(new PickleTuple([pop(op), b]));
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop(op);
        const b = pop(op);
        stack.push(new PickleTuple([pop(op), b, c]));
        break;
      }
      case 0x74: // TUPLE
        stack.push(new PickleTuple(popMark(op)));
        break;
      case 0x73: {
        // SETITEM
        const value = pop(op);
        const key = pop(op);
        const dict = top(op);
        if (!(dict instanceof Map))
          throw fail('SETITEM (0x73) sets an item of something that is not a dict: the file is corrupt');
        checkKey(op, key);
        dict.set(key, value);
        break;
      }
      case 0x75: {
        // SETITEMS: the pairs are set from the stack in place (one per trace entry: no array made for them)
        const mark = marks.pop();
        if (mark === undefined) throw fail('SETITEMS (0x75) without a MARK before it: the file is corrupt');
        if (mark === 0 || mark - 1 < fence())
          throw fail('SETITEMS (0x75) finds no dict below its MARK: the file is corrupt');
        const dict = stack[mark - 1];
        if (!(dict instanceof Map))
          throw fail('SETITEMS (0x75) sets items of something that is not a dict: the file is corrupt');
        if ((stack.length - mark) % 2 !== 0) throw fail('SETITEMS (0x75) with a key and no value: the file is corrupt');
        work.charge(stack.length - mark, 'copying items');
        for (let i = mark; i < stack.length; i += 2) {
          checkKey(op, stack[i] as PickleValue);
          dict.set(stack[i] as PickleValue, stack[i + 1] as PickleValue);
        }
        stack.length = mark;
        break;
      }
      case 0x61: {
        // APPEND
        const item = pop(op);
        top(op);
        append(op, stack.length - 1, [item]);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popMark(op);
        top(op);
        append(op, stack.length - 1, items);
        break;
      }
      case 0x8c: // SHORT_BINUNICODE
        w.fill(1);
        stack.push(text(w.take(w.buf[w.pos++] as number)));
        break;
      case 0x58: {
        // BINUNICODE
        w.fill(4);
        const n = w.buf.readUInt32LE(w.pos);
        w.pos += 4;
        stack.push(text(w.take(n)));
        break;
      }
      case 0x8d: {
        // BINUNICODE8 (the first pass bounded the length)
        w.fill(8);
        const n = Number(w.buf.readBigUInt64LE(w.pos));
        w.pos += 8;
        stack.push(text(w.take(n)));
        break;
      }
      case 0x4b: // BININT1
        w.fill(1);
        stack.push(w.buf[w.pos++] as number);
        break;
      case 0x4d: // BININT2
        w.fill(2);
        stack.push(w.buf.readUInt16LE(w.pos));
        w.pos += 2;
        break;
      case 0x4a: // BININT: signed
        w.fill(4);
        stack.push(w.buf.readInt32LE(w.pos));
        w.pos += 4;
        break;
      case 0x8a: {
        // LONG1: read in the window (addresses take one per trace entry)
        w.fill(1);
        const n = w.buf[w.pos] as number;
        w.fill(1 + n);
        stack.push(signedLittleEndian(w.buf, w.pos + 1, n));
        w.pos += 1 + n;
        break;
      }
      case 0x8b: {
        // LONG4
        w.fill(4);
        const n = w.buf.readInt32LE(w.pos);
        w.pos += 4;
        const b = w.take(n);
        stack.push(signedLittleEndian(b, 0, n));
        break;
      }
      case 0x47: // BINFLOAT: big-endian
        w.fill(8);
        stack.push(new PickleFloat(w.buf.readDoubleBE(w.pos)));
        w.pos += 8;
        break;
      case 0x88: // NEWTRUE
        stack.push(true);
        break;
      case 0x89: // NEWFALSE
        stack.push(false);
        break;
      case 0x4e: // NONE
        stack.push(null);
        break;
      case 0x94: // MEMOIZE
        memo.put(memo.next(), top(op));
        break;
      case 0x71: // BINPUT
        w.fill(1);
        memo.put(w.buf[w.pos++] as number, top(op));
        break;
      case 0x72: // LONG_BINPUT
        w.fill(4);
        memo.put(w.buf.readUInt32LE(w.pos), top(op));
        w.pos += 4;
        break;
      case 0x68: {
        // BINGET: the same object again
        w.fill(1);
        const value = memo.fetch(w.buf[w.pos++] as number);
        memoFetches.note(value, at);
        stack.push(value);
        break;
      }
      case 0x6a: {
        // LONG_BINGET
        w.fill(4);
        const value = memo.fetch(w.buf.readUInt32LE(w.pos));
        memoFetches.note(value, at);
        stack.push(value);
        w.pos += 4;
        break;
      }
      default:
        // The first pass refused every other opcode.
        throw unexpectedOpcode(op, name, at);
    }
  }
}

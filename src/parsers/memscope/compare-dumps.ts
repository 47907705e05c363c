// msMemScope's `--compare` (csrc/analysis/memory_compare.cpp at f069acf) re-implemented: two event dumps in, the
// memory_compare CSV out, byte for byte, without the tool.
//
// Per device, the op (ATEN_END/ATB_END) or kernel (KERNEL_LAUNCH) launches of each dump, in time order, are aligned
// by Myers' greedy diff on their names; a launch's value is the Attr `size` of the first framework-pool row (PTA or
// MINDSPORE) at or after it in time. Held in memory: per device, the selected launches and the framework-pool rows of
// both dumps (two numbers and two small ints each), and the diff's frontier.
import { InputError } from '../../common/errors.js';
import { DumpReader, streamDump, type DumpRow, type DumpWarning } from './dump-reader.js';
import { f64, i32, u8 } from './columns.js';
import { MAX_KEYS, StdUnorderedOrder } from './std-order.js';

export type CompareLevel = 'op' | 'kernel' | 'op,kernel';

export const COMPARE_HEADER = ',,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n';

/** Default bound on the edit distance per device: past it the diff is refused instead of running for minutes. */
export const DEFAULT_MAX_EDITS = 10_000;

export interface CompareOptions {
  level?: CompareLevel;
  maxEdits?: number;
  onWarning?: (warning: DumpWarning) => void;
  /** Receives the CSV in pieces of about 1 MiB instead of `csv` (large outputs). */
  sink?: (text: string) => void;
}

const UINT64_MAX = (1n << 64n) - 1n;
const INVALID_NAME_START = new Set(['=', '+', '-', '@']);
/** Row kinds kept per device. */
const LAUNCH = 0;
const POOL_PTA = 1;
const POOL_MINDSPORE = 2;
const POOL_EMPTY = 3;

/** `std::stoull(text, &pos, 0)` with Utility::StrToUint64's whole-string check; null where it returns false. */
export function stoull0(text: string): bigint | null {
  const m = /^[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
  if (m === null) return null;
  const digits = m[2] as string;
  let value: bigint;
  if (/^0[xX]/.test(digits)) value = BigInt(digits);
  else if (digits.length > 1 && digits[0] === '0') value = BigInt(`0o${digits.slice(1)}`);
  else value = BigInt(digits);
  if (value > UINT64_MAX) return null;
  return m[1] === '-' ? (UINT64_MAX + 1n - value) % (UINT64_MAX + 1n) : value;
}

/** `std::stoll(text, &pos)` as Utility::StrToInt64 leaves its output: the numeric prefix, or 0 when it throws. */
export function stollPrefix(text: string): bigint {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(text);
  if (m === null) return 0n;
  const v = BigInt(m[1] as string);
  if (v > (1n << 63n) - 1n || v < -(1n << 63n)) return 0n;
  return v;
}

/** Utility::ExtractAttrValueByKey(attr, "size"): the first `size` followed by `:` (any preceding character), to `,` or `}`. */
export function toolAttrSize(attr: string): string {
  let at = attr.indexOf('size');
  while (at !== -1 && (at + 4 >= attr.length || attr.charCodeAt(at + 4) !== 58)) at = attr.indexOf('size', at + 1);
  if (at === -1) return '';
  const start = at + 5;
  let end = attr.indexOf(',', start);
  if (end === -1) end = attr.indexOf('}', start);
  return end === -1 ? '' : attr.slice(start, end);
}

const SAFE: Record<string, string> = { '\n': '\\n', '\f': '\\f', '\r': '\\r', '\b': '\\b', '\t': '\\t', '\v': '\\v', '\u007f': '\\u007F' };
/** Utility::ToSafeString: control characters written as escapes. */
export function toSafeString(text: string): string {
  return /[\n\f\r\b\t\v\u007f]/.test(text) ? text.replace(/[\n\f\r\b\t\v\u007f]/g, (c) => SAFE[c] as string) : text;
}

/** Keeps one copy of each distinct string (op names repeat), detached from the chunk it was sliced from. */
class Interner {
  readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  id(text: string): number {
    const found = this.ids.get(text);
    if (found !== undefined) return found;
    const copy = Buffer.from(text, 'utf8').toString('utf8');
    this.ids.set(copy, this.strings.length);
    this.strings.push(copy);
    return this.strings.length - 1;
  }
}

/** The kept rows of one device of one dump, in file order: 21 bytes a row. */
class DeviceRows {
  /** Timestamp as an offset from the file's first one (exact while the trace spans under 104 days of ns). */
  ts = f64();
  kind = u8();
  /** Name id for launches; the size for pool rows (sizes past 2^53 are in `bigSizes`). */
  a = f64();
  /** Event id for launches. */
  b = i32();
  bigSizes = new Map<number, bigint>();
  invalidName: string | null = null;
}

/** A launch sequence ready to diff: names, events, values (values past 2^53 in `bigValues`). */
interface Sequence {
  names: Int32Array;
  events: Int32Array;
  values: Float64Array;
  bigValues: Map<number, bigint>;
}

/** Reads one dump's rows for the compare. */
class CompareSide {
  readonly devices = new Map<string, DeviceRows>();
  /** Valid devices in order of first appearance: the key order of msMemScope's per-file map. */
  readonly order = new StdUnorderedOrder();
  readonly deviceKeys = new Map<string, bigint>();
  warnedToolFields = false;
  originHi = NaN;
  originLo = 0;
  constructor(readonly file: string) {}
}

interface SharedState {
  framework: string;
  frameworkWhere: string;
  names: Interner;
  events: Interner;
  selected: Set<string>;
}

/** A timestamp cell as [seconds part, nanoseconds part] (the value / 1e9 and its remainder), exact for any uint64. */
function splitTimestamp(text: string): [number, number] {
  if (/^(0|[1-9]\d{0,14})$/.test(text)) return [Math.floor(Number(text) / 1e9), Number(text) % 1e9];
  if (/^[1-9]\d{15,18}$/.test(text)) return [Number(text.slice(0, -9)), Number(text.slice(-9))];
  const v = stoull0(text) ?? UINT64_MAX;
  return [Number(v / 1_000_000_000n), Number(v % 1_000_000_000n)];
}

function readRow(side: CompareSide, state: SharedState, row: DumpRow, warn: (w: DumpWarning) => void): void {
  if (row.toolFieldCount !== 12 && !side.warnedToolFields) {
    side.warnedToolFields = true;
    warn({ file: side.file, line: row.line, reason: `msMemScope's reader sees ${row.toolFieldCount} fields here, not 12, and would reject the whole file; compared as the row was meant` });
  }
  const type = row.eventType;
  if (type === 'PTA' || type === 'MINDSPORE') {
    if (state.framework === '') {
      state.framework = type;
      state.frameworkWhere = `${side.file}:${row.line}`;
    } else if (state.framework !== type) {
      throw new InputError(`${side.file}:${row.line}: a ${type} pool row after ${state.framework} rows (${state.frameworkWhere}): msMemScope compares dumps of one framework and rejects this file`);
    }
  }
  const dev = row.device;
  if (dev === '9999' || dev === 'host' || dev === 'N/A') return;
  let key = side.deviceKeys.get(dev);
  if (key === undefined) {
    const parsed = stoull0(dev);
    if (parsed === null) return;
    key = parsed;
    side.deviceKeys.set(dev, key);
  }
  const name = key.toString();
  let rows = side.devices.get(name);
  if (rows === undefined) {
    if (side.devices.size >= MAX_KEYS) throw new InputError(`${side.file}:${row.line}: more than ${MAX_KEYS} devices in one dump`);
    rows = new DeviceRows();
    side.devices.set(name, rows);
    side.order.insert(key);
  }
  let kind: number;
  if (state.selected.has(type)) kind = LAUNCH;
  else if (type === 'PTA') kind = POOL_PTA;
  else if (type === 'MINDSPORE') kind = POOL_MINDSPORE;
  else if (type === '') kind = POOL_EMPTY;
  else return;
  const [hi, lo] = splitTimestamp(row.timestamp);
  if (Number.isNaN(side.originHi)) {
    side.originHi = hi;
    side.originLo = lo;
  }
  rows.ts.push((hi - side.originHi) * 1e9 + (lo - side.originLo));
  rows.kind.push(kind);
  if (kind === LAUNCH) {
    const launchName = toSafeString(row.name);
    if (rows.invalidName === null && INVALID_NAME_START.has(launchName.charAt(0))) rows.invalidName = `${side.file}:${row.line}: ${launchName}`;
    rows.a.push(state.names.id(launchName));
    rows.b.push(state.events.id(toSafeString(row.event)));
  } else {
    const sizeText = toolAttrSize(row.attr);
    const size = /^-?\d{1,15}$/.test(sizeText) ? Number(sizeText) : stollPrefix(toSafeString(sizeText));
    if (typeof size === 'number' || (size >= -(2n ** 52n) && size <= 2n ** 52n)) {
      rows.a.push(Number(size));
    } else {
      rows.bigSizes.set(rows.a.length, size);
      rows.a.push(0);
    }
    rows.b.push(0);
  }
}

/** Time-sorts one device's rows and gives its launch sequence with each launch's value. */
function sequenceOf(rows: DeviceRows | undefined, framework: string, warn: (w: DumpWarning) => void, file: string): Sequence {
  const empty = { names: new Int32Array(0), events: new Int32Array(0), values: new Float64Array(0), bigValues: new Map<number, bigint>() };
  if (rows === undefined) return empty;
  if (rows.invalidName !== null) {
    const [, line, name] = /^.*?:(\d+): (.*)$/s.exec(rows.invalidName) ?? ['', '0', rows.invalidName];
    warn({ file, line: Number(line), reason: `a launch name starting with = + - or @ (${name}): msMemScope drops this device's launches` });
    return empty;
  }
  const n = rows.kind.length;
  const ts = rows.ts.data;
  const kinds = rows.kind.data;
  const index = new Uint32Array(n);
  for (let i = 0; i < n; i++) index[i] = i;
  // Stable: equal timestamps keep file order (msMemScope's std::sort is unstable only past 16 rows of one device).
  index.sort((x, y) => (ts[x] as number) - (ts[y] as number) || x - y);
  const frameworkKind = framework === 'PTA' ? POOL_PTA : framework === 'MINDSPORE' ? POOL_MINDSPORE : POOL_EMPTY;
  let launches = 0;
  for (let i = 0; i < n; i++) if (kinds[i] === LAUNCH) launches++;
  const names = new Int32Array(launches);
  const events = new Int32Array(launches);
  const values = new Float64Array(launches);
  const bigValues = new Map<number, bigint>();
  let next = 0;
  let nextBig: bigint | undefined;
  let k = launches;
  for (let s = n - 1; s >= 0; s--) {
    const r = index[s] as number;
    const kind = kinds[r];
    if (kind === LAUNCH) {
      k--;
      names[k] = rows.a.data[r] as number;
      events[k] = rows.b.data[r] as number;
      values[k] = next;
      if (nextBig !== undefined) bigValues.set(k, nextBig);
    } else if (kind === frameworkKind) {
      next = rows.a.data[r] as number;
      nextBig = rows.bigSizes.get(r);
    }
  }
  return { names, events, values, bigValues };
}

/**
 * The furthest-reaching points of every round of Myers' greedy diff: `rounds[d][k + d]` is the base index reached on
 * diagonal k (= base index − current index) after d edits. (D+1)² integers: 107 MB at D = 5,000; the path is rebuilt
 * from them with the same tie rule, so no node objects are kept (msMemScope's shared_ptr nodes cost ~40× that).
 */
export interface MyersTrace {
  rounds: Int32Array[];
  /** The round and diagonal that reached (n, m). */
  d: number;
  k: number;
}

/** MemoryCompare::BuildPath: Myers' greedy forward diff with msMemScope's tie rules, bounded to `maxEdits` edits. */
export function myersPath(a: Int32Array, b: Int32Array, maxEdits: number): MyersTrace | null {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return null;
  const rounds: Int32Array[] = [];
  let prev = new Int32Array(0);
  for (let d = 0; d <= n + m; d++) {
    if (d > maxEdits) return null;
    const v = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      let i: number;
      // "Down" (a compare-only launch, i unchanged) from diagonal k+1, else "right" (a base-only launch) from k-1.
      if (d === 0) i = 0;
      else if (k === -d || (k !== d && (prev[k - 1 + d - 1] as number) < (prev[k + 1 + d - 1] as number))) i = prev[k + 1 + d - 1] as number;
      else i = (prev[k - 1 + d - 1] as number) + 1;
      let j = i - k;
      while (i < n && j < m && a[i] === b[j]) {
        i++;
        j++;
      }
      v[k + d] = i;
      if (i >= n && j >= m) {
        rounds.push(v);
        return { rounds, d, k };
      }
    }
    rounds.push(v);
    prev = v;
  }
  return null;
}

/** MemoryCompare::BuildDiff: the aligned pairs in sequence order, as two index columns; -1 is the missing side. */
export function alignment(trace: MyersTrace | null): { base: Int32Array; current: Int32Array } {
  const base: number[] = [];
  const current: number[] = [];
  if (trace !== null) {
    const { rounds } = trace;
    let { d, k } = trace;
    let end = (rounds[d] as Int32Array)[k + d] as number;
    for (;;) {
      let start = 0;
      let prevK = 0;
      let down = false;
      if (d > 0) {
        const prev = rounds[d - 1] as Int32Array;
        down = k === -d || (k !== d && (prev[k - 1 + d - 1] as number) < (prev[k + 1 + d - 1] as number));
        prevK = down ? k + 1 : k - 1;
        start = down ? (prev[k + 1 + d - 1] as number) : (prev[k - 1 + d - 1] as number) + 1;
      }
      // The snake after the edit: matched pairs, last first.
      for (let i = end - 1; i >= start; i--) {
        base.push(i);
        current.push(i - k);
      }
      if (d === 0) break;
      if (down) {
        base.push(-1);
        current.push(start - k - 1);
      } else {
        base.push(start - 1);
        current.push(-1);
      }
      end = (rounds[d - 1] as Int32Array)[prevK + d - 1] as number;
      k = prevK;
      d--;
    }
  }
  return { base: Int32Array.from(base.reverse()), current: Int32Array.from(current.reverse()) };
}

/** GetSubResult on int64: Compare − Base, or Compare when that overflows. */
function subResult(a: bigint, b: bigint): bigint {
  const d = a - b;
  return d > (1n << 63n) - 1n || d < -(1n << 63n) ? a : d;
}

export interface CompareResult {
  /** The whole CSV, or '' when it went to `sink`. */
  csv: string;
  rows: number;
  devices: string[];
}

/** Compares two dump files; throws InputError for anything msMemScope would fail on, or a diff past the edit bound. */
export async function compareDumpFiles(
  base: { path: string; name: string },
  current: { path: string; name: string },
  options: CompareOptions = {},
): Promise<CompareResult> {
  const warn = options.onWarning ?? (() => {});
  const state = newState(options.level ?? 'op');
  const sides: CompareSide[] = [];
  for (const f of [base, current]) {
    const side = new CompareSide(f.name);
    const reader = new DumpReader(f.name, (row) => readRow(side, state, row, warn), warn, true);
    await streamDump(f.path, reader);
    sides.push(side);
  }
  return finishCompare(sides[0] as CompareSide, sides[1] as CompareSide, state, options);
}

/** The same over dump texts in memory (tests). */
export function compareDumpTexts(base: { name: string; text: string }, current: { name: string; text: string }, options: CompareOptions = {}): CompareResult {
  const warn = options.onWarning ?? (() => {});
  const state = newState(options.level ?? 'op');
  const sides = [base, current].map((f) => {
    const side = new CompareSide(f.name);
    const reader = new DumpReader(f.name, (row) => readRow(side, state, row, warn), warn, true);
    reader.push(f.text);
    reader.finish();
    return side;
  });
  return finishCompare(sides[0] as CompareSide, sides[1] as CompareSide, state, options);
}

function newState(level: CompareLevel): SharedState {
  const selected = new Set<string>();
  if (level.includes('op')) selected.add('ATEN_END').add('ATB_END');
  if (level.includes('kernel')) selected.add('KERNEL_LAUNCH');
  return { framework: '', frameworkWhere: '', names: new Interner(), events: new Interner(), selected };
}

function finishCompare(base: CompareSide, current: CompareSide, state: SharedState, options: CompareOptions): CompareResult {
  const warn = options.onWarning ?? (() => {});
  const maxEdits = options.maxEdits ?? DEFAULT_MAX_EDITS;
  for (const side of [base, current]) {
    if (side.devices.size === 0) throw new InputError(`${side.file}: no row with a device id: nothing to compare (msMemScope: "Memory comparison failed!")`);
  }
  if (state.framework === 'MINDSPORE' && state.selected.has('ATEN_END')) {
    throw new InputError(`${state.frameworkWhere}: a MindSpore dump cannot be compared at op level (msMemScope refuses it too); use --level kernel`);
  }
  const deviceSet = new StdUnorderedOrder();
  for (const side of [base, current]) for (const key of side.order.order()) deviceSet.insert(key);
  const results = new StdUnorderedOrder();
  const byDevice = new Map<bigint, { a: Sequence; b: Sequence; pairs: { base: Int32Array; current: Int32Array } }>();
  for (const key of deviceSet.order()) {
    const dev = key.toString();
    const a = sequenceOf(base.devices.get(dev), state.framework, warn, base.file);
    const b = sequenceOf(current.devices.get(dev), state.framework, warn, current.file);
    if (a.names.length === 0 && b.names.length === 0) continue;
    const path = myersPath(a.names, b.names, maxEdits);
    if (path === null) {
      throw new InputError(`device ${dev}: the ${a.names.length} and ${b.names.length} launches differ by more than ${maxEdits} edits; refusing a diff that would run for too long (compare a shorter trace, or raise --max-edits)`);
    }
    const pairs = alignment(path);
    if (pairs.base.length > 0) {
      results.insert(key);
      byDevice.set(key, { a, b, pairs });
    }
  }
  if (byDevice.size === 0) {
    throw new InputError(`no ${[...state.selected].join('/')} launches on any device of ${base.file} or ${current.file}: nothing to compare (msMemScope writes no file either)`);
  }
  const pieces: string[] = [];
  let piece = COMPARE_HEADER;
  const flush = (force: boolean) => {
    if (!force && piece.length < 1 << 20) return;
    if (options.sink) options.sink(piece);
    else pieces.push(piece);
    piece = '';
  };
  let rows = 0;
  const devices: string[] = [];
  const value = (seq: Sequence, k: number): bigint => seq.bigValues.get(k) ?? BigInt(seq.values[k] as number);
  for (const key of results.order()) {
    const { a, b, pairs } = byDevice.get(key) as { a: Sequence; b: Sequence; pairs: { base: Int32Array; current: Int32Array } };
    const dev = key.toString();
    for (let r = 0; r < pairs.base.length; r++) {
      const i = pairs.base[r] as number;
      const j = pairs.current[r] as number;
      const nameId = j >= 0 ? (b.names[j] as number) : (a.names[i] as number);
      const eventId = j >= 0 ? (b.events[j] as number) : (a.events[i] as number);
      const va = i >= 0 ? (a.values[i] as number) : 0;
      const vb = j >= 0 ? (b.values[j] as number) : 0;
      let diff: string;
      if ((i >= 0 && a.bigValues.has(i)) || (j >= 0 && b.bigValues.has(j))) {
        diff = String(subResult(j >= 0 ? value(b, j) : 0n, i >= 0 ? value(a, i) : 0n));
      } else {
        diff = String(vb - va);
      }
      const baseText = i >= 0 ? (a.bigValues.has(i) ? String(value(a, i)) : String(va)) : 'N/A';
      const currentText = j >= 0 ? (b.bigValues.has(j) ? String(value(b, j)) : String(vb)) : 'N/A';
      piece += `${state.events.strings[eventId]},${state.names.strings[nameId]},${dev},${baseText},${currentText},${diff}\n`;
      flush(false);
    }
    rows += pairs.base.length;
    devices.push(dev);
  }
  flush(true);
  return { csv: pieces.join(''), rows, devices };
}

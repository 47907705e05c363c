// msMemScope's `--compare` (csrc/analysis/memory_compare.cpp at f069acf) re-implemented: two event dumps in, the
// memory_compare CSV out, byte for byte, without the tool.
//
// Per device, the op (ATEN_END/ATB_END) or kernel (KERNEL_LAUNCH) launches of each dump, in time order, are aligned
// by Myers' greedy diff on their names; a launch's value is the Attr `size` of the first framework-pool row (PTA or
// MINDSPORE) at or after it in time. The kept rows go through time-order.ts (sorted in chunks, spilled to a temporary
// file past one chunk); replaying them gives each device's launch sequence with its values directly, so memory holds
// one chunk while reading, then 16 bytes per launch, and the diff's rounds. Names keep the dump's own bytes (bytes
// that are not UTF-8 are written back as they were) and pass through msMemScope's ToSafeString.
import { InputError } from '../../common/errors.js';
import { decodeEscaped } from '../escaped-utf8.js';
import { DumpReader, streamDump, type DumpRow, type DumpWarning } from './dump-reader.js';
import { MAX_KEYS, StdUnorderedOrder } from './std-order.js';
import { EventSpool } from './time-order.js';

export type CompareLevel = 'op' | 'kernel' | 'op,kernel';

export const COMPARE_HEADER =
  ',,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n';

/** Default bound on the edit distance per device: past it the diff is refused instead of running for minutes. */
export const DEFAULT_MAX_EDITS = 10_000;

export interface CompareOptions {
  level?: CompareLevel;
  maxEdits?: number;
  onWarning?: (warning: DumpWarning) => void;
  /** Receives the CSV in pieces of about 1 MiB instead of `csv` (large outputs); a promise returned holds the next piece back. */
  sink?: (text: string) => void | Promise<void>;
  /** Events per sorted chunk (tests: a small one sends a small dump through the temporary file). */
  chunkEvents?: number;
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
function stollPrefix(text: string): bigint {
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

const SAFE: Record<string, string> = {
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
  '\b': '\\b',
  '\t': '\\t',
  '\v': '\\v',
  '\u007f': '\\u007F',
};
/** Utility::ToSafeString: control characters written as escapes. */
function toSafeString(text: string): string {
  return /[\n\f\r\b\t\v\u007f]/.test(text) ? text.replace(/[\n\f\r\b\t\v\u007f]/g, (c) => SAFE[c] as string) : text;
}

/**
 * The CSV as it may go to a terminal: what ToSafeString leaves (ESC, other C0 and C1 controls) written in its own
 * `\uXXXX` style, and bytes that are not UTF-8 as `\xHH`. Row breaks stay. A file or a pipe gets msMemScope's bytes.
 */
export function terminalSafe(csv: string): string {
  return csv.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\udc80-\udcff]/g, (c) => {
    const code = c.charCodeAt(0);
    if (code >= 0xdc80) return `\\x${(code - 0xdc00).toString(16).toUpperCase()}`;
    return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

/** Keeps one copy of each distinct string (op names repeat), detached from the chunk it was sliced from. */
class Interner {
  readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  id(text: string): number {
    const found = this.ids.get(text);
    if (found !== undefined) return found;
    const copy = text.split('').join('');
    this.ids.set(copy, this.strings.length);
    this.strings.push(copy);
    return this.strings.length - 1;
  }
}

/** A launch sequence ready to diff: names, events, values (values past 2^53 in `bigValues`). */
interface Sequence {
  names: Int32Array;
  events: Int32Array;
  values: Float64Array;
  bigValues: Map<number, bigint>;
}

/** One device's sequence while the replay builds it: sized by the launches counted while reading. */
class SequenceBuilder {
  readonly names: Int32Array;
  readonly events: Int32Array;
  readonly values: Float64Array;
  readonly bigValues = new Map<number, bigint>();
  length = 0;
  /** Launches since the last framework-pool row: their value is the next such row's size. */
  waiting = 0;

  constructor(launches: number) {
    this.names = new Int32Array(launches);
    this.events = new Int32Array(launches);
    this.values = new Float64Array(launches);
  }

  done(): Sequence {
    return { names: this.names, events: this.events, values: this.values, bigValues: this.bigValues };
  }
}

/** Reads one dump's rows for the compare: the kept rows into a spool, devices in order of first appearance. */
class CompareSide {
  readonly spool: EventSpool;
  /** Device keys (uint64) by index, in order of first appearance: the key order of msMemScope's per-file map. */
  readonly deviceKeys: bigint[] = [];
  readonly deviceIndex = new Map<string, number>();
  readonly order = new StdUnorderedOrder();
  readonly deviceOfText = new Map<string, number>();
  /** Per device: the first launch name starting with = + - @ (msMemScope then drops the device's launches). */
  readonly invalidName = new Map<number, { line: number; name: string }>();
  /** Sizes past what a double holds exactly, by index + 1 in u3. */
  readonly bigSizes: bigint[] = [];
  /** Launches per device, so that each sequence is allocated once, at its size. */
  readonly launches: number[] = [];
  warnedToolFields = false;
  constructor(
    readonly file: string,
    chunkEvents?: number,
  ) {
    this.spool = new EventSpool(chunkEvents);
  }
}

interface SharedState {
  framework: string;
  frameworkWhere: string;
  names: Interner;
  events: Interner;
  selected: Set<string>;
}

/** A timestamp cell as [value / 1e9, value % 1e9], exact for any uint64; unparsable sorts last, as UINT64_MAX (stoull). */
function splitTimestamp(text: string): [number, number] {
  if (/^(0|[1-9]\d{0,14})$/.test(text)) return [Math.floor(Number(text) / 1e9), Number(text) % 1e9];
  if (/^[1-9]\d{15,18}$/.test(text)) return [Number(text.slice(0, -9)), Number(text.slice(-9))];
  const v = stoull0(text) ?? UINT64_MAX;
  return [Number(v / 1_000_000_000n), Number(v % 1_000_000_000n)];
}

function readRow(side: CompareSide, state: SharedState, row: DumpRow, warn: (w: DumpWarning) => void): void {
  if (row.toolFieldCount !== 12 && !side.warnedToolFields) {
    side.warnedToolFields = true;
    warn({
      file: side.file,
      line: row.line,
      reason: `msMemScope's reader sees ${row.toolFieldCount} fields here, not 12, and would reject the whole file; compared as the row was meant`,
    });
  }
  const type = row.eventType;
  if (type === 'PTA' || type === 'MINDSPORE') {
    if (state.framework === '') {
      state.framework = type;
      state.frameworkWhere = `${side.file}:${row.line}`;
    } else if (state.framework !== type) {
      throw new InputError(
        `${side.file}:${row.line}: a ${type} pool row after ${state.framework} rows (${state.frameworkWhere}): msMemScope compares dumps of one framework and rejects this file`,
      );
    }
  }
  const dev = row.device;
  if (dev === '9999' || dev === 'host' || dev === 'N/A') return;
  let device = side.deviceOfText.get(dev);
  if (device === undefined) {
    const key = stoull0(dev);
    if (key === null) return;
    const name = key.toString();
    device = side.deviceIndex.get(name);
    if (device === undefined) {
      if (side.deviceKeys.length >= MAX_KEYS)
        throw new InputError(`${side.file}:${row.line}: more than ${MAX_KEYS} devices in one dump`);
      device = side.deviceKeys.length;
      side.deviceKeys.push(key);
      side.launches.push(0);
      side.deviceIndex.set(name, device);
      side.order.insert(key);
    }
    side.deviceOfText.set(dev.split('').join(''), device);
  }
  let kind: number;
  if (state.selected.has(type)) kind = LAUNCH;
  else if (type === 'PTA') kind = POOL_PTA;
  else if (type === 'MINDSPORE') kind = POOL_MINDSPORE;
  else if (type === '') kind = POOL_EMPTY;
  else return;
  const [hi, lo] = splitTimestamp(row.timestamp);
  if (kind === LAUNCH) {
    const launchName = toSafeString(row.name);
    if (!side.invalidName.has(device) && INVALID_NAME_START.has(launchName.charAt(0)))
      side.invalidName.set(device, { line: row.line, name: launchName });
    side.launches[device] = (side.launches[device] as number) + 1;
    side.spool.add(
      hi,
      lo,
      kind,
      row.line,
      0,
      0,
      0,
      device,
      state.names.id(launchName),
      state.events.id(toSafeString(row.event)),
      0,
    );
    return;
  }
  const sizeText = toolAttrSize(row.attr);
  const size = /^-?\d{1,15}$/.test(sizeText) ? Number(sizeText) : stollPrefix(toSafeString(sizeText));
  if (typeof size === 'number' || (size >= -(2n ** 52n) && size <= 2n ** 52n)) {
    side.spool.add(hi, lo, kind, row.line, Number(size), 0, 0, device, 0, 0, 0);
  } else {
    side.bigSizes.push(size);
    side.spool.add(hi, lo, kind, row.line, 0, 0, 0, device, 0, 0, side.bigSizes.length);
  }
}

/** Replays one side's kept rows in time order into each device's launch sequence with each launch's value. */
function sequencesOf(side: CompareSide, framework: string): SequenceBuilder[] {
  const frameworkKind = framework === 'PTA' ? POOL_PTA : framework === 'MINDSPORE' ? POOL_MINDSPORE : POOL_EMPTY;
  const builders = side.launches.map((n) => new SequenceBuilder(n));
  side.spool.replay((e) => {
    const b = builders[e.u0] as SequenceBuilder;
    if (e.kind === LAUNCH) {
      b.names[b.length] = e.u1;
      b.events[b.length] = e.u2;
      b.length++;
      b.waiting++;
      return;
    }
    if (e.kind !== frameworkKind || b.waiting === 0) return;
    // The launches since the last framework-pool row take this row's size: the first such row at or after them.
    const big = e.u3 === 0 ? undefined : side.bigSizes[e.u3 - 1];
    for (let k = b.length - b.waiting; k < b.length; k++) {
      b.values[k] = e.f0;
      if (big !== undefined) b.bigValues.set(k, big);
    }
    b.waiting = 0;
  });
  return builders;
}

/** A device's sequence, or an empty one when the device has none or msMemScope drops it (a name starting with = + - @). */
function sequenceOf(
  side: CompareSide,
  builders: SequenceBuilder[],
  dev: string,
  warn: (w: DumpWarning) => void,
): Sequence {
  const empty = {
    names: new Int32Array(0),
    events: new Int32Array(0),
    values: new Float64Array(0),
    bigValues: new Map<number, bigint>(),
  };
  const device = side.deviceIndex.get(dev);
  if (device === undefined) return empty;
  const invalid = side.invalidName.get(device);
  if (invalid !== undefined) {
    warn({
      file: side.file,
      line: invalid.line,
      reason: `a launch name starting with = + - or @ (${invalid.name}): msMemScope drops this device's launches`,
    });
    return empty;
  }
  return (builders[device] as SequenceBuilder).done();
}

/** Rounds of the diff kept whole: every CHECKPOINT_EVERY-th; the others are recomputed from them, a block at a time. */
const CHECKPOINT_EVERY = 64;

/**
 * The furthest-reaching points of Myers' greedy diff: round d holds, for each diagonal k (= base index − current
 * index) from −d to d, the base index reached after d edits. Keeping every round costs (D+1)² integers (107 MB at
 * D = 5,000); every CHECKPOINT_EVERY-th round is kept instead (D²/64 integers) and round(d) recomputes the others
 * from the checkpoint below, one block of rounds at a time, exactly as the forward pass made them.
 */
export class MyersTrace {
  private blockStart = -1;
  private block: Int32Array[] = [];

  readonly n: number;
  readonly m: number;

  constructor(
    private readonly a: Int32Array,
    private readonly b: Int32Array,
    private readonly checkpoints: Map<number, Int32Array>,
    /** The round and diagonal that reached (n, m). */
    readonly d: number,
    readonly k: number,
  ) {
    this.n = a.length;
    this.m = b.length;
  }

  /** Round d (0 ≤ d ≤ this.d). */
  round(d: number): Int32Array {
    const start = d - (d % CHECKPOINT_EVERY);
    if (start !== this.blockStart) {
      const block: Int32Array[] = [this.checkpoints.get(start) as Int32Array];
      for (let r = start + 1; r < start + CHECKPOINT_EVERY && r <= this.d; r++)
        block.push(nextRound(this.a, this.b, block[block.length - 1] as Int32Array, r).v);
      this.block = block;
      this.blockStart = start;
    }
    return this.block[d - start] as Int32Array;
  }
}

/** Round d from round d − 1 (d = 0: from nothing), with msMemScope's tie rule; `reached` is the k that got to (n, m), or null. */
function nextRound(
  a: Int32Array,
  b: Int32Array,
  prev: Int32Array,
  d: number,
): { v: Int32Array; reached: number | null } {
  const n = a.length;
  const m = b.length;
  const v = new Int32Array(2 * d + 1);
  for (let k = -d; k <= d; k += 2) {
    let i: number;
    // "Down" (a compare-only launch, i unchanged) from diagonal k+1, else "right" (a base-only launch) from k-1.
    if (d === 0) i = 0;
    else if (k === -d || (k !== d && (prev[k - 1 + d - 1] as number) < (prev[k + 1 + d - 1] as number)))
      i = prev[k + 1 + d - 1] as number;
    else i = (prev[k - 1 + d - 1] as number) + 1;
    let j = i - k;
    while (i < n && j < m && a[i] === b[j]) {
      i++;
      j++;
    }
    v[k + d] = i;
    if (i >= n && j >= m) return { v, reached: k };
  }
  return { v, reached: null };
}

/** MemoryCompare::BuildPath: Myers' greedy forward diff with msMemScope's tie rules, bounded to `maxEdits` edits. */
export function myersPath(a: Int32Array, b: Int32Array, maxEdits: number): MyersTrace | null {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return null;
  const checkpoints = new Map<number, Int32Array>();
  let prev: Int32Array = new Int32Array(0);
  for (let d = 0; d <= n + m; d++) {
    if (d > maxEdits) return null;
    const { v, reached } = nextRound(a, b, prev, d);
    if (d % CHECKPOINT_EVERY === 0) checkpoints.set(d, v);
    if (reached !== null) return new MyersTrace(a, b, checkpoints, d, reached);
    prev = v;
  }
  return null;
}

/** MemoryCompare::BuildDiff: the aligned pairs in sequence order, as two index columns; -1 is the missing side. */
export function alignment(trace: MyersTrace | null): { base: Int32Array; current: Int32Array } {
  if (trace === null) return { base: new Int32Array(0), current: new Int32Array(0) };
  // (n + m + D) / 2 pairs: the matches and one per edit. Filled from the end, as the walk back finds them.
  const size = (trace.n + trace.m + trace.d) / 2;
  const base = new Int32Array(size);
  const current = new Int32Array(size);
  let at = size;
  let { d, k } = trace;
  let end = trace.round(d)[k + d] as number;
  for (;;) {
    let start = 0;
    let prevK = 0;
    let down = false;
    let prev: Int32Array | null = null;
    if (d > 0) {
      prev = trace.round(d - 1);
      down = k === -d || (k !== d && (prev[k - 1 + d - 1] as number) < (prev[k + 1 + d - 1] as number));
      prevK = down ? k + 1 : k - 1;
      start = down ? (prev[k + 1 + d - 1] as number) : (prev[k - 1 + d - 1] as number) + 1;
    }
    // The snake after the edit: matched pairs, last first.
    for (let i = end - 1; i >= start; i--) {
      at--;
      base[at] = i;
      current[at] = i - k;
    }
    if (d === 0 || prev === null) break;
    at--;
    if (down) {
      base[at] = -1;
      current[at] = start - k - 1;
    } else {
      base[at] = start - 1;
      current[at] = -1;
    }
    end = prev[prevK + d - 1] as number;
    k = prevK;
    d--;
  }
  if (at !== 0) throw new Error(`internal error: the diff's walk back found ${size - at} pairs, not ${size}`);
  return { base, current };
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
  try {
    for (const f of [base, current]) {
      const side = new CompareSide(f.name, options.chunkEvents);
      sides.push(side);
      const reader = new DumpReader(f.name, (row) => readRow(side, state, row, warn), warn, true);
      await streamDump(f.path, reader);
      side.spool.seal();
    }
    const { rows, devices, pieces } = finishCompare(sides[0] as CompareSide, sides[1] as CompareSide, state, options);
    const kept: string[] = [];
    for (const piece of pieces) {
      // A sink that returns a promise (a full pipe) holds the rendering back until it settles: memory stays bounded.
      if (options.sink === undefined) kept.push(piece);
      else await options.sink(piece);
    }
    return { csv: kept.join(''), rows, devices };
  } finally {
    for (const side of sides) side.spool.close();
  }
}

/** The same over dump texts (or bytes) in memory (tests). */
export function compareDumpTexts(
  base: { name: string; text: string | Buffer },
  current: { name: string; text: string | Buffer },
  options: CompareOptions = {},
): CompareResult {
  const warn = options.onWarning ?? (() => {});
  const state = newState(options.level ?? 'op');
  const sides: CompareSide[] = [];
  try {
    for (const f of [base, current]) {
      const side = new CompareSide(f.name, options.chunkEvents);
      sides.push(side);
      const reader = new DumpReader(f.name, (row) => readRow(side, state, row, warn), warn, true);
      reader.push(typeof f.text === 'string' ? f.text : decodeEscaped(f.text));
      reader.finish();
    }
    const { rows, devices, pieces } = finishCompare(sides[0] as CompareSide, sides[1] as CompareSide, state, options);
    return { csv: [...pieces].join(''), rows, devices };
  } finally {
    for (const side of sides) side.spool.close();
  }
}

function newState(level: CompareLevel): SharedState {
  const selected = new Set<string>();
  if (level.includes('op')) selected.add('ATEN_END').add('ATB_END');
  if (level.includes('kernel')) selected.add('KERNEL_LAUNCH');
  return { framework: '', frameworkWhere: '', names: new Interner(), events: new Interner(), selected };
}

/** The aligned rows of the two sides: how many, on which devices, and the CSV pieces (rendered when taken). */
interface Compared {
  rows: number;
  devices: string[];
  pieces: Generator<string>;
}

function finishCompare(base: CompareSide, current: CompareSide, state: SharedState, options: CompareOptions): Compared {
  const warn = options.onWarning ?? (() => {});
  const maxEdits = options.maxEdits ?? DEFAULT_MAX_EDITS;
  for (const side of [base, current]) {
    if (side.deviceKeys.length === 0)
      throw new InputError(
        `${side.file}: no row with a device id: nothing to compare (msMemScope: "Memory comparison failed!")`,
      );
  }
  if (state.framework === 'MINDSPORE' && state.selected.has('ATEN_END')) {
    throw new InputError(
      `${state.frameworkWhere}: a MindSpore dump cannot be compared at op level (msMemScope refuses it too); use --level kernel`,
    );
  }
  const baseBuilders = sequencesOf(base, state.framework);
  const currentBuilders = sequencesOf(current, state.framework);
  const deviceSet = new StdUnorderedOrder();
  for (const side of [base, current]) for (const key of side.order.order()) deviceSet.insert(key);
  const results = new StdUnorderedOrder();
  const byDevice = new Map<bigint, { a: Sequence; b: Sequence; pairs: { base: Int32Array; current: Int32Array } }>();
  for (const key of deviceSet.order()) {
    const dev = key.toString();
    const a = sequenceOf(base, baseBuilders, dev, warn);
    const b = sequenceOf(current, currentBuilders, dev, warn);
    if (a.names.length === 0 && b.names.length === 0) continue;
    const path = myersPath(a.names, b.names, maxEdits);
    if (path === null) {
      throw new InputError(
        `device ${dev}: the ${a.names.length} and ${b.names.length} launches differ by more than ${maxEdits} edits; refusing a diff that would run for too long (compare a shorter trace, or raise --max-edits)`,
      );
    }
    const pairs = alignment(path);
    if (pairs.base.length > 0) {
      results.insert(key);
      byDevice.set(key, { a, b, pairs });
    }
  }
  if (byDevice.size === 0) {
    throw new InputError(
      `no ${[...state.selected].join('/')} launches on any device of ${base.file} or ${current.file}: nothing to compare (msMemScope writes no file either)`,
    );
  }
  const devices = results.order().map((key) => key.toString());
  let rows = 0;
  for (const { pairs } of byDevice.values()) rows += pairs.base.length;
  return { rows, devices, pieces: renderRows(results.order(), byDevice, state) };
}

/** The CSV in pieces of about 1 MiB, rendered as they are taken: a slow reader of the output holds back the rendering. */
function* renderRows(
  order: readonly bigint[],
  byDevice: Map<bigint, { a: Sequence; b: Sequence; pairs: { base: Int32Array; current: Int32Array } }>,
  state: SharedState,
): Generator<string> {
  let piece = COMPARE_HEADER;
  const value = (seq: Sequence, k: number): bigint => seq.bigValues.get(k) ?? BigInt(seq.values[k] as number);
  for (const key of order) {
    const { a, b, pairs } = byDevice.get(key) as {
      a: Sequence;
      b: Sequence;
      pairs: { base: Int32Array; current: Int32Array };
    };
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
      if (piece.length >= 1 << 20) {
        yield piece;
        piece = '';
      }
    }
  }
  yield piece;
}

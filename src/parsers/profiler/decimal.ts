// Exact decimal → integer bytes for the profilers' MB/KB cells, without binary floating-point error.
//
// A cell `W.F` (F of d digits) in a unit of 2^twos × 5^fives bytes is W × unit + F × 2^(twos-d) × 5^(fives-d) bytes:
// integers and one ratio of integers, rounded half up. With up to 15 digits on each side of the dot and few decimals it
// is done with integer-valued doubles, which are exact below 2^53; anything longer takes BigInt. No fraction is ever
// held in a binary float.

/** A size unit as 2^twos × 5^fives bytes (every unit the writers use is of that form). */
export interface ByteUnit {
  /** As written in the header: `MB`, `KB`. */
  label: string;
  /** Bytes per unit, for messages. */
  bytes: number;
  twos: number;
  fives: number;
}

/** torch_npu's MB: bytes / 1024.0**2 (`Constant.B_TO_MB`). */
export const MIB: ByteUnit = { label: 'MB', bytes: 2 ** 20, twos: 20, fives: 0 };
/** msprof's KB and torch_npu's Size(KB): bytes / 1024.0. */
export const KIB: ByteUnit = { label: 'KB', bytes: 2 ** 10, twos: 10, fives: 0 };
/** MindSpore's "MB": bytes / 1024 / 1000 (`MemoryRecordBean.KB_TO_MB = 1000`) = 2^13 × 5^3 bytes. */
export const MINDSPORE_MB: ByteUnit = { label: 'MB (MindSpore: KB/1000)', bytes: 1_024_000, twos: 13, fives: 3 };

/** Why a cell gave no byte count. */
type CellIssue =
  /** Empty, `N/A` or `NULL`: the writer had no value (APP rows have no Allocated). */
  | 'missing'
  /** A negative value: the writers' "unknown" (msprof's -1 sentinel, a release seen without its allocation). */
  | 'negative'
  /** Exponent notation (`1.69512E+15`): a spreadsheet re-saved the file and rounded its numbers. */
  | 'exponent'
  /** Not a decimal number at all. */
  | 'malformed'
  /** 2^53 bytes or more: not a memory size (e.g. msprof's -1 read as unsigned); it cannot be compared exactly anyway. */
  | 'too-large';

/** Either integer bytes (≥ 0) or why there are none. */
export type BytesOrIssue = number | CellIssue;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** More fraction digits than this go to BigInt (the tables below stop here). */
const MAX_FAST_DECIMALS = 30;

/** Per unit and per count of decimals d: a fraction F of d digits is round(F × mult / den) bytes, mult and den integers. */
interface Scale {
  mult: number[];
  den: number[];
  fast: boolean[];
}

const scales = new Map<ByteUnit, Scale>();

// The unit of the previous call: a file uses one or two units, so this skips the map on almost every cell.
let lastUnit: ByteUnit | null = null;
let lastScale: Scale | null = null;

function scaleOf(unit: ByteUnit): Scale {
  if (unit === lastUnit) return lastScale as Scale;
  let scale = scales.get(unit);
  if (scale === undefined) {
    scale = { mult: [], den: [], fast: [] };
    for (let d = 0; d <= MAX_FAST_DECIMALS; d++) {
      const p2 = unit.twos - d;
      const p5 = unit.fives - d;
      const mult = 2 ** Math.max(p2, 0) * 5 ** Math.max(p5, 0);
      const den = 2 ** Math.max(-p2, 0) * 5 ** Math.max(-p5, 0);
      scale.mult.push(mult);
      scale.den.push(den);
      // Exact when every fraction of d digits times mult stays below 2^53 (see cellBytes).
      scale.fast.push(Number.isSafeInteger(den) && 10 ** d * mult <= MAX_SAFE);
    }
    scales.set(unit, scale);
  }
  lastUnit = unit;
  lastScale = scale;
  return scale;
}

const ZERO = 48;
const DOT = 46;
const MINUS = 45;
const PLUS = 43;
const TAB = 9;
const SPACE = 32;

/**
 * The exact bytes of the decimal in s[from, to) in `unit`, rounded half up; a trailing TAB or space is allowed
 * (the writers put a TAB after time fields and a re-save may move it).
 */
export function cellBytes(s: string, from: number, to: number, unit: ByteUnit): BytesOrIssue {
  while (to > from && (s.charCodeAt(to - 1) === TAB || s.charCodeAt(to - 1) === SPACE)) to--;
  while (from < to && s.charCodeAt(from) === SPACE) from++;
  if (from === to) return 'missing';
  let i = from;
  let c = s.charCodeAt(i);
  let negative = false;
  if (c === MINUS || c === PLUS) {
    negative = c === MINUS;
    i++;
  }
  // The integer part and the fraction as integers (exact while each has at most 15 digits), and the count of decimals.
  let whole = 0;
  let wholeDigits = 0;
  for (; i < to; i++) {
    c = s.charCodeAt(i) - ZERO;
    if (c < 0 || c > 9) break;
    whole = whole * 10 + c;
    wholeDigits++;
  }
  let frac = 0;
  let decimals = 0;
  if (i < to && s.charCodeAt(i) === DOT) {
    for (i++; i < to; i++) {
      c = s.charCodeAt(i) - ZERO;
      if (c < 0 || c > 9) break;
      frac = frac * 10 + c;
      decimals++;
    }
  }
  if (i < to) {
    c = s.charCodeAt(i);
    if ((c === 69 || c === 101) && wholeDigits + decimals > 0) return 'exponent';
    return nonNumber(s.slice(from, to));
  }
  if (wholeDigits + decimals === 0) return 'malformed';
  if (whole === 0 && frac === 0) return 0; // zero, however written (-0.0 included)
  if (negative) return 'negative';
  const scale = scaleOf(unit);
  if (wholeDigits > 15 || decimals > MAX_FAST_DECIMALS || scale.fast[decimals] !== true)
    return slowBytes(s.slice(from, to), unit);
  const bytes = whole * unit.bytes;
  if (bytes > MAX_SAFE) return 'too-large';
  if (frac === 0) return bytes;
  // frac × mult / den in exact integers: num < 10^decimals × mult ≤ 2^53 (the `fast` condition), so num, q × den
  // and r are exact; the float division only guesses q, corrected by one either way.
  const mult = scale.mult[decimals] as number;
  const den = scale.den[decimals] as number;
  const num = frac * mult;
  let q = Math.floor(num / den);
  let r = num - q * den;
  if (r < 0) {
    q--;
    r += den;
  } else if (r >= den) {
    q++;
    r -= den;
  }
  const total = bytes + q + (2 * r >= den ? 1 : 0);
  return total > MAX_SAFE ? 'too-large' : total;
}

/** The same over a whole string. */
export function decimalBytes(text: string, unit: ByteUnit): BytesOrIssue {
  return cellBytes(text, 0, text.length, unit);
}

/** The BigInt path: any number of digits. */
function slowBytes(text: string, unit: ByteUnit): BytesOrIssue {
  const dot = text.indexOf('.');
  const digits = (dot === -1 ? text : text.slice(0, dot) + text.slice(dot + 1)).replace(/^\+/, '');
  const decimals = dot === -1 ? 0 : text.length - dot - 1;
  const num = BigInt(digits) * 2n ** BigInt(unit.twos) * 5n ** BigInt(unit.fives);
  const den = 10n ** BigInt(decimals);
  const bytes = (2n * num + den) / (2n * den);
  return bytes > BigInt(MAX_SAFE) ? 'too-large' : Number(bytes);
}

function nonNumber(text: string): CellIssue {
  const t = text.trim().toUpperCase();
  return t === 'N/A' || t === 'NA' || t === 'NULL' || t === 'NONE' ? 'missing' : 'malformed';
}

/**
 * A timestamp cell (`1736405443756384.100\t`, or `1695115378653323.5` after a re-save) in whole microseconds: series
 * windows are a power of two of whole microseconds wide, so the fraction never moves a sample to another window and is
 * only checked to be digits. NaN when it is not a plain decimal, or past 2^53 - 1 µs (year 2255: no exact time, and a
 * timeline point must be an exact integer); Infinity marks exponent notation (spreadsheet damage: `1.69512E+15`).
 */
export function cellMicros(s: string, from: number, to: number): number {
  while (to > from && (s.charCodeAt(to - 1) === TAB || s.charCodeAt(to - 1) === SPACE)) to--;
  let whole = 0;
  let i = from;
  for (; i < to; i++) {
    const digit = s.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) break;
    whole = whole * 10 + digit;
  }
  if (i === from) return NaN;
  if (i < to) {
    if (s.charCodeAt(i) !== DOT) return exponentAt(s, i, to) ? Infinity : NaN;
    for (i++; i < to; i++) {
      const digit = s.charCodeAt(i) - ZERO;
      if (digit < 0 || digit > 9) return exponentAt(s, i, to) ? Infinity : NaN;
    }
  }
  return whole <= MAX_SAFE ? whole : NaN;
}

function exponentAt(s: string, i: number, to: number): boolean {
  const c = s.charCodeAt(i);
  return (c === 69 || c === 101) && i + 1 < to;
}

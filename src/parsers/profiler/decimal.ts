// Exact decimal → integer bytes for the profilers' MB/KB cells, without binary floating-point error.
//
// A cell `M × 10^-d` in a unit of 2^twos × 5^fives bytes is M × 2^(twos-d) × 5^(fives-d) bytes: a ratio of integers,
// rounded half up. Up to 15 digits (M < 2^53) and small exponents it is done with integer-valued doubles, whose
// %, − and exact division are exact below 2^53; anything longer takes BigInt. Nothing here ever multiplies a float.

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
export type CellIssue =
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

/** Per unit and per count of decimals d: bytes = round(M × mult / den), mult and den integers, fast when mult × den < 2^53. */
interface Scale {
  mult: number[];
  den: number[];
  fast: boolean[];
}

const scales = new Map<ByteUnit, Scale>();

function scaleOf(unit: ByteUnit): Scale {
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
      scale.fast.push(Number.isSafeInteger(mult) && Number.isSafeInteger(den) && mult * den <= MAX_SAFE);
    }
    scales.set(unit, scale);
  }
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
 * (the writers put a TAB after time fields and a re-save may move it). `unit` null: a plain decimal, returned as is
 * only when it is an integer (counts, ids).
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
  // M accumulates every digit (leading zeros skipped); `digits` counts its significant digits, `decimals` those after the dot.
  let m = 0;
  let digits = 0;
  let decimals = 0;
  let seenDigit = false;
  let seenDot = false;
  for (; i < to; i++) {
    c = s.charCodeAt(i);
    const digit = c - ZERO;
    if (digit >= 0 && digit <= 9) {
      seenDigit = true;
      if (seenDot) decimals++;
      if (digits > 0 || digit !== 0) {
        digits++;
        if (digits <= 15) m = m * 10 + digit;
      }
    } else if (c === DOT && !seenDot) {
      seenDot = true;
    } else {
      break;
    }
  }
  if (i < to) {
    if ((c === 69 || c === 101) && seenDigit) return 'exponent';
    return nonNumber(s.slice(from, to));
  }
  if (!seenDigit) return 'malformed';
  if (digits === 0) return 0; // zero, however written (-0.0 included)
  if (negative) return 'negative';
  const scale = scaleOf(unit);
  if (digits <= 15 && decimals <= MAX_FAST_DECIMALS && scale.fast[decimals] === true) {
    const mult = scale.mult[decimals] as number;
    const den = scale.den[decimals] as number;
    // m = q × den + r exactly; bytes = q × mult + round(r × mult / den), every step an exact integer below 2^53.
    const r = m % den;
    const q = (m - r) / den;
    const whole = q * mult;
    if (whole > MAX_SAFE) return 'too-large';
    const frac = r * mult;
    const r2 = frac % den;
    const q2 = (frac - r2) / den;
    const bytes = whole + q2 + (2 * r2 >= den ? 1 : 0);
    return bytes > MAX_SAFE ? 'too-large' : bytes;
  }
  return slowBytes(s.slice(from, to), unit);
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
 * A timestamp cell in microseconds (`1736405443756384.100\t`, or `1695115378653323.5` after a re-save), as a double:
 * only windows of the timeline are built from it, never a size. NaN when it is not a plain decimal; Infinity marks
 * exponent notation (spreadsheet damage: `1.69512E+15`).
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
  if (i === to) return whole;
  if (s.charCodeAt(i) !== DOT) return exponentAt(s, i, to) ? Infinity : NaN;
  let frac = 0;
  let scale = 1;
  for (i++; i < to; i++) {
    const digit = s.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return exponentAt(s, i, to) ? Infinity : NaN;
    if (scale < 1e9) {
      frac = frac * 10 + digit;
      scale *= 10;
    }
  }
  return whole + frac / scale;
}

function exponentAt(s: string, i: number, to: number): boolean {
  const c = s.charCodeAt(i);
  return (c === 69 || c === 101) && i + 1 < to;
}

// Byte sizes: exact parsing of driver integers and config strings, and human formatting for tables.
import { InputError } from '../common/errors.js';

const UNITS: Record<string, number> = {
  B: 1,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  KIB: 1024,
  MIB: 1024 ** 2,
  GIB: 1024 ** 3,
  TIB: 1024 ** 4,
};

/** The largest magnitude a byte figure holds exactly: 2^53 - 1 (9,007,199,254,740,991 bytes, 8 PiB). */
export const MAX_EXACT_BYTES = Number.MAX_SAFE_INTEGER;

/** How every message says that a figure would leave the exact range. */
export const BEYOND_EXACT = '2^53 - 1 bytes';

/**
 * The one reading of an integer cell that every parser shares: decimal digits with an optional sign, exact or refused.
 * The number when its magnitude is at most 2^53 - 1; `too-large` past it (never rounded: 9007199254740993 must not
 * become ...992, nor 2^64 - 1 a float); null when the text is not a decimal integer.
 */
export function readExactInteger(text: string): number | 'too-large' | null {
  if (!/^[+-]?\d+$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : 'too-large';
}

/** a + b when the sum is exact, else null: the caller names the line that would have taken it out of range. */
export function exactSum(a: number, b: number): number | null {
  const sum = a + b;
  return Number.isSafeInteger(sum) ? sum : null;
}

/**
 * Parses a decimal byte count as printed by the driver (unsigned, up to 64 bits).
 * Returns null when the text is not a plain decimal integer; throws when it is one
 * but exceeds 2^53 - 1, because rounding a byte count silently would be worse than failing.
 */
export function parseExactInteger(text: string, where: string): number | null {
  if (!/^-?\d+$/.test(text)) return null;
  const value = readExactInteger(text);
  if (value === 'too-large')
    throw new InputError(`${where}: ${text} is larger than ${BEYOND_EXACT} and cannot be compared exactly`);
  return value;
}

/**
 * Parses a size from a config or input: an integer number of bytes, or a string such as
 * "64MiB", "1.5 GiB", "200MB", "512B". Binary units (KiB, MiB, GiB, TiB) and decimal units (KB, MB, GB, TB).
 * Returns null when the text is not a size, and for a string without a unit other than 0 ("5": 5% or 5 bytes?).
 */
export function parseSize(value: string | number): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$/i.exec(value);
  if (!m || (m[2] === undefined && Number(m[1]) !== 0)) return null;
  const unit = UNITS[(m[2] ?? 'B').toUpperCase()];
  if (unit === undefined) return null;
  const bytes = Math.round(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** The number when the text is a bare number other than 0 (no unit, no %), which no size or tolerance accepts: else null. */
export function bareNumber(text: string): string | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  return m === null || Number(m[1]) === 0 ? null : (m[1] as string);
}

/** "19.4 GiB", "420.0 MiB", "512 B": binary units, one decimal. */
export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  let n = Math.abs(bytes);
  if (n < 1024) return `${sign}${n} B`;
  const names = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = -1;
  while (n >= 1024 && i < names.length - 1) {
    n /= 1024;
    i++;
  }
  return `${sign}${n.toFixed(1)} ${names[i]}`;
}

/** A delta with an explicit sign: "+1.5 GiB", "-4.0 KiB", "0 B". */
export function formatDelta(bytes: number): string {
  return bytes > 0 ? `+${formatBytes(bytes)}` : formatBytes(bytes);
}

/** Above this factor (current / baseline) a change reads as the factor: `×3,145,728`, not `+314572700%`. */
const FACTOR_FROM = 100;

/** A growth past ×100 as its factor, rounded to a whole number (`×3,145,728`); null for smaller changes. */
export function formatFactor(percent: number): string | null {
  const factor = 1 + percent / 100;
  return factor > FACTOR_FROM && Number.isFinite(factor) ? `×${formatCount(Math.round(factor))}` : null;
}

/**
 * A count with thousands separators, as `toLocaleString('en-US')` writes it ("4,096"). Integers are grouped here: the
 * first toLocaleString of a process loads ICU's number formatting, ~16 ms of every run that prints a count.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.length % 3 === 0 ? '' : digits.slice(0, digits.length % 3);
  for (let i = digits.length % 3; i < digits.length; i += 3) out += `${out === '' ? '' : ','}${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

// Decodes file bytes as UTF-8 without merging invalid bytes into U+FFFD, and shows such bytes visibly in names.
//
// Invalid bytes decode to lone low surrogates U+DC80–U+DCFF (Python's "surrogateescape"): valid UTF-8 never yields a
// lone surrogate, so two names that differ only in their invalid bytes stay two names. visibleName() then writes each
// such byte as `\xHH`, and doubles a real backslash only where it would otherwise read as an escape.
import { isUtf8 } from 'node:buffer';

/** Streaming decoder: chunks may cut a character anywhere; write() holds back an incomplete one for the next chunk. */
export class EscapedUtf8Decoder {
  private carry: Buffer | null = null;

  write(chunk: Buffer): string {
    let bytes = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
    this.carry = null;
    const cut = completeLength(bytes);
    if (cut < bytes.length) {
      this.carry = Buffer.from(bytes.subarray(cut));
      bytes = bytes.subarray(0, cut);
    }
    return decodeEscaped(bytes);
  }

  /** What is still held back: bytes of a character the file never finished, each escaped. */
  end(): string {
    const rest = this.carry;
    this.carry = null;
    return rest === null ? '' : decodeEscaped(rest);
  }
}

/** Length of `bytes` without a trailing, incomplete (so far valid) multi-byte sequence. */
function completeLength(bytes: Buffer): number {
  const n = bytes.length;
  for (let k = 1; k <= 3 && k <= n; k++) {
    const b = bytes[n - k] as number;
    if (b < 0x80) return n;
    if (b >= 0xc0) return sequenceLength(b) > k ? n - k : n;
  }
  return n;
}

/** The length a lead byte announces (2–4), or 0 for a byte that cannot start a sequence. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Whether bytes[i..i+len) is one well-formed UTF-8 sequence (no overlong form, no surrogate, at most U+10FFFF). */
function wellFormedAt(bytes: Buffer, i: number, len: number): boolean {
  if (i + len > bytes.length) return false;
  const lead = bytes[i] as number;
  const second = bytes[i + 1] as number;
  // The second byte's range depends on the lead (Unicode Table 3-7); later bytes are plain continuations.
  let lo = 0x80;
  let hi = 0xbf;
  if (lead === 0xe0) lo = 0xa0;
  else if (lead === 0xed) hi = 0x9f;
  else if (lead === 0xf0) lo = 0x90;
  else if (lead === 0xf4) hi = 0x8f;
  if (second < lo || second > hi) return false;
  for (let k = 2; k < len; k++) {
    const b = bytes[i + k] as number;
    if (b < 0x80 || b > 0xbf) return false;
  }
  return true;
}

/** Decodes `bytes` as UTF-8, each byte that is not part of a well-formed sequence becoming U+DC00 + byte. */
export function decodeEscaped(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let out = '';
  let runStart = 0;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = sequenceLength(b);
    if (len > 0 && wellFormedAt(bytes, i, len)) {
      i += len;
      continue;
    }
    out += bytes.toString('utf8', runStart, i) + String.fromCharCode(0xdc00 + b);
    i++;
    runStart = i;
  }
  return out + bytes.toString('utf8', runStart);
}

const LONE_BYTE = /[\udc80-\udcff]/;

/** The inverse of decodeEscaped: UTF-8, each escaped byte (a lone U+DC80–U+DCFF) written back as the byte it was. */
export function encodeEscaped(text: string): Buffer {
  if (!LONE_BYTE.test(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc80 || c > 0xdcff || isHighSurrogate(text.charCodeAt(i - 1))) continue;
    parts.push(Buffer.from(text.slice(runStart, i), 'utf8'), Buffer.from([c - 0xdc00]));
    runStart = i + 1;
  }
  parts.push(Buffer.from(text.slice(runStart), 'utf8'));
  return Buffer.concat(parts);
}

const NEEDS_ESCAPING = /[\\\udc80-\udcff]/;

/**
 * A decoded name as it is shown and keyed: an invalid byte as `\xHH`; a real backslash as `\\` only where it is
 * followed by a backslash or by `x` and two hex digits (so every other name, `a\b` included, is unchanged). Distinct
 * byte strings give distinct names: `\xHH` is an invalid byte, `\\` a backslash, any other `\` itself.
 */
export function visibleName(name: string): string {
  if (!NEEDS_ESCAPING.test(name)) return name;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff && !isHighSurrogate(name.charCodeAt(i - 1))) {
      out += `\\x${(c - 0xdc00).toString(16).toUpperCase()}`;
    } else if (c === 0x5c && readsAsEscape(name, i + 1)) {
      out += '\\\\';
    } else {
      out += name[i];
    }
  }
  return out;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Whether what is written for name[i..] starts with `\` or `xHH`, so that a single backslash before it would read as an escape. */
function readsAsEscape(name: string, i: number): boolean {
  const c = name.charCodeAt(i);
  if (c === 0x5c) return true;
  if (c >= 0xdc80 && c <= 0xdcff && !isHighSurrogate(name.charCodeAt(i - 1))) return true;
  return (c === 0x78 || c === 0x58) && isHex(name.charCodeAt(i + 1)) && isHex(name.charCodeAt(i + 2));
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

// Libraries that encode strings to UTF-8 (csv-parse does) turn a lone surrogate into U+FFFD. Before such a call, each
// escaped byte is written as MARK + a char of its own, and MARK itself doubled; restore() undoes it. Neither holds a
// CSV delimiter, quote or line break, so the library splits the text exactly as it would split the original.
const MARK = '\ufdd0';
const MARK_CODE = 0xfdd0;
/** Escaped byte 0xHH is protected as MARK + U+0100+HH. */
const PROTECTED_BASE = 0x0100;
const LONE_OR_MARK = /[\udc80-\udcff\ufdd0]/;

/** `text` with every escaped byte (lone U+DC80–U+DCFF) and every MARK written as plain characters. */
export function protectEscapedBytes(text: string): string {
  if (!LONE_OR_MARK.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === MARK_CODE) out += MARK + MARK;
    else if (c >= 0xdc80 && c <= 0xdcff && !isHighSurrogate(text.charCodeAt(i - 1)))
      out += MARK + String.fromCharCode(PROTECTED_BASE + c - 0xdc00);
    else out += text[i];
  }
  return out;
}

/** The inverse of protectEscapedBytes, on any piece of its output that does not cut a MARK pair. */
export function restoreEscapedBytes(text: string): string {
  if (!text.includes(MARK)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== MARK_CODE) {
      out += text[i];
      continue;
    }
    const next = text.charCodeAt(++i);
    out += next === MARK_CODE ? MARK : String.fromCharCode(0xdc00 + next - PROTECTED_BASE);
  }
  return out;
}

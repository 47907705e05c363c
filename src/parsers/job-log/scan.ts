// Finds caching-allocator OOM messages and CANN allocation failures in a job log's bytes, chunk by chunk, with bounded memory.
//
// A job log is mostly progress lines: only the lines around a needle's hit (Buffer.indexOf on the raw chunk, native)
// are ever decoded. A line is read whole once its newline has arrived; a line longer than MAX_LINE_BYTES is read in
// parts (a hit in it keeps the text to the part's end), so memory never grows with the line.
import { readOomMessage, type OomMessage } from './oom-message.js';

const NL = 0x0a;
const OOM_NEEDLE = Buffer.from('out of memory', 'latin1');
/** CANN-level allocation failures, as plogs print them (plog.ts ALLOC_FAILURE) and as job logs echo them. */
const FAILURE_NEEDLES = [Buffer.from('EL0004', 'latin1'), Buffer.from('halMemAlloc', 'latin1'), Buffer.from('207001', 'latin1')];
const FAILURE_LINE = /\bhalMemAlloc\s+failed\b|\bEL0004\b|\b(?:ACL_ERROR_RT_MEMORY_ALLOCATION|error\s*code\s*(?:is|=|:)?\s*207001|ret(?:Code)?\s*[=:]\s*207001)\b/i;
/** The same device spellings plog.ts reads on failure lines: the first one wins. */
const FAILURE_DEVICE = /(?:\b|drv_?)(?:device_?id|dev_?id)\s*[=:]?\s*(\d{1,9})\b|\bdevice\s*[=:([]?\s*(\d{1,9})\b|\bdev\s?(\d{1,9})\b|\b(?:NPU|GPU)\s?(\d{1,9})\b/i;
const LONGEST_NEEDLE = 13;

/** Bytes of one line that are looked at, at most; a longer line is read in parts. */
export const MAX_LINE_BYTES = 256 * 1024;
/** Characters after a hit that the message reader sees: every field of both generations fits. */
const MESSAGE_CHARS = 4096;
/** Distinct OOM events kept per file (by device and figures); more are counted, not kept. */
export const MAX_EVENTS_PER_FILE = 1000;
/** Failure lines whose text is kept per device (the builder keeps 5 by file and line). */
const FAILURE_SITES_PER_DEVICE = 5;
const FAILURE_TEXT_CHARS = 299;

/** One OOM event: the first place its (device, figures) was printed. */
export interface FoundOom {
  message: OomMessage;
  /** Byte offset of its line's start in the (decompressed) log. */
  lineOffset: number;
  /** How many times these figures were printed in this log (re-raised, two loggers, several ranks' copies). */
  printed: number;
}

export interface FoundFailure {
  /** `devN` digits, or null when the line names no device. */
  device: string | null;
  lineOffset: number;
  /** The line, shortened; null past the per-device sample. */
  text: string | null;
}

export class JobLogScanner {
  /** Events by device and figures, first print first. */
  readonly ooms = new Map<string, FoundOom>();
  /** Distinct events beyond MAX_EVENTS_PER_FILE. */
  droppedOoms = 0;
  readonly failures: FoundFailure[] = [];
  private readonly sitesPerDevice = new Map<string | null, number>();
  /** The unfinished last line of what was pushed (a copy), and its offset in the log. */
  private carry: Buffer = Buffer.alloc(0);
  private carryOffset = 0;
  /** Where the carry's line starts, when it was cut (a line longer than MAX_LINE_BYTES): its first part was read already. */
  private carryCut = false;

  /** One chunk of the log, in order; the scanner copies what it keeps. */
  push(chunk: Buffer): void {
    const window = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const base = this.carryOffset;
    const last = window.lastIndexOf(NL);
    const complete = last + 1;
    if (complete > 0) this.scan(window, base, 0, complete, this.carryCut);
    let rest = window.subarray(complete);
    let restOffset = base + complete;
    let cut = complete === 0 && this.carryCut;
    if (rest.length > MAX_LINE_BYTES) {
      // A very long line: read what arrived, keep only a tail in which a needle may continue.
      this.scan(rest, restOffset, 0, rest.length, cut);
      const keep = LONGEST_NEEDLE - 1;
      restOffset += rest.length - keep;
      rest = rest.subarray(rest.length - keep);
      cut = true;
    }
    this.carry = Buffer.from(rest);
    this.carryOffset = restOffset;
    this.carryCut = cut;
  }

  /** The last line, when the log does not end with a newline (a crash cut it). */
  end(): void {
    if (this.carry.length > 0) this.scan(this.carry, this.carryOffset, 0, this.carry.length, this.carryCut);
    this.carry = Buffer.alloc(0);
  }

  /** Every hit in window[from, to), a run of whole lines (the first one cut when `cut`). */
  private scan(window: Buffer, base: number, from: number, to: number, cut: boolean): void {
    const part = window.subarray(from, to);
    for (let hit = part.indexOf(OOM_NEEDLE); hit !== -1; hit = part.indexOf(OOM_NEEDLE, hit + OOM_NEEDLE.length)) {
      const lineStart = part.lastIndexOf(NL, hit) + 1;
      const lineEnd = endOfLine(part, hit);
      const message = readOomMessage(part.toString('latin1', hit + OOM_NEEDLE.length, Math.min(lineEnd, hit + OOM_NEEDLE.length + MESSAGE_CHARS)));
      if (message === null) continue;
      this.addOom(message, base + from + (lineStart === 0 && cut ? 0 : lineStart));
    }
    let lastLine = -1;
    const failureLines: number[] = [];
    for (const needle of FAILURE_NEEDLES) {
      for (let hit = part.indexOf(needle); hit !== -1; hit = part.indexOf(needle, hit + needle.length)) {
        const lineStart = part.lastIndexOf(NL, hit) + 1;
        if (lineStart === lastLine || failureLines.includes(lineStart)) continue;
        lastLine = lineStart;
        failureLines.push(lineStart);
      }
    }
    failureLines.sort((a, b) => a - b);
    for (const lineStart of failureLines) {
      const line = part.toString('utf8', lineStart, Math.min(endOfLine(part, lineStart), lineStart + MESSAGE_CHARS));
      if (!FAILURE_LINE.test(line)) continue;
      const d = FAILURE_DEVICE.exec(line);
      const digits = d === null ? null : (d[1] ?? d[2] ?? d[3] ?? d[4] ?? null);
      const device = digits === null ? null : String(Number(digits));
      const sited = this.sitesPerDevice.get(device) ?? 0;
      this.sitesPerDevice.set(device, sited + 1);
      const text = sited < FAILURE_SITES_PER_DEVICE ? shorten(line) : null;
      this.failures.push({ device, lineOffset: base + from + lineStart, text });
    }
  }

  private addOom(message: OomMessage, lineOffset: number): void {
    const id = figuresId(message);
    const known = this.ooms.get(id);
    if (known !== undefined) {
      known.printed++;
      return;
    }
    if (this.ooms.size >= MAX_EVENTS_PER_FILE) {
      this.droppedOoms++;
      return;
    }
    this.ooms.set(id, { message, lineOffset, printed: 1 });
  }
}

/** One event per (device, figures): what a re-raised or twice-logged message prints again. */
export function figuresId(m: OomMessage): string {
  return JSON.stringify([m.device, m.requested, m.total, m.allocated, m.active, m.deviceFree, m.allowed, m.reserved, m.processTotal, m.processes]);
}

function endOfLine(buf: Buffer, from: number): number {
  const nl = buf.indexOf(NL, from);
  return nl === -1 ? buf.length : nl;
}

function shorten(line: string): string {
  const s = line.replace(/\s+/g, ' ').trim();
  return s.length > FAILURE_TEXT_CHARS ? `${s.slice(0, FAILURE_TEXT_CHARS)}…` : s;
}

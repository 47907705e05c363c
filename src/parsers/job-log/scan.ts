// Finds caching-allocator OOM messages and CANN allocation failures in a job log's bytes, chunk by chunk, with bounded memory.
//
// A job log is mostly progress lines: only the lines around a needle's hit (Buffer.indexOf on the raw chunk, native)
// are ever decoded. A line is read whole once its newline has arrived; a line longer than MAX_LINE_BYTES is read in
// parts (a hit in it keeps the text to the part's end), so memory never grows with the line.
import { readOomMessage, type OomMessage } from './oom-message.js';

const NL = 0x0a;
const OOM_NEEDLE = Buffer.from('out of memory', 'latin1');
/** CANN-level allocation failures, as plogs print them (plog/grammar.ts ALLOC_FAILURE) and as job logs echo them. */
// Needles whose first bytes are rare in logs: `207001` alone (digits of every timestamp) cost 5x a pass of `out of memory`.
const FAILURE_NEEDLES = [
  Buffer.from('EL0004', 'latin1'),
  Buffer.from('halMemAlloc', 'latin1'),
  Buffer.from('code is 207001', 'latin1'),
  Buffer.from('MEMORY_ALLOCATION', 'latin1'),
];
const FAILURE_LINE = /\bhalMemAlloc\s+failed\b|\bEL0004\b|\bACL_ERROR_RT_MEMORY_ALLOCATION\b|\berror code is 207001\b/;
/** The same device spellings plog/grammar.ts reads on failure lines: the first one wins. */
const FAILURE_DEVICE =
  /(?:\b|drv_?)(?:device_?id|dev_?id)\s*[=:]?\s*(\d{1,9})\b|\bdevice\s*[=:([]?\s*(\d{1,9})\b|\bdev\s?(\d{1,9})\b|\b(?:NPU|GPU)\s?(\d{1,9})\b/i;
const LONGEST_NEEDLE = Math.max(OOM_NEEDLE.length, ...FAILURE_NEEDLES.map((n) => n.length));

/** Bytes of one line that are looked at, at most; a longer line is read in parts. */
export const MAX_LINE_BYTES = 256 * 1024;
/** Characters after a hit that the message reader sees: every field of both generations fits. */
const MESSAGE_CHARS = 4096;
/** Distinct OOM events kept per file (by device and figures); more are counted, not kept. */
const MAX_EVENTS_PER_FILE = 1000;
/** Failure lines whose text is kept per device (the builder keeps 5 by file and line). */
const FAILURE_SITES_PER_DEVICE = 5;
const FAILURE_TEXT_CHARS = 299;

/** One OOM event: the first place its (device, figures) was printed. */
export interface FoundOom {
  message: OomMessage;
  /** Its line in the (decompressed) log, from 1. */
  line: number;
  /** How many times these figures were printed in this log (re-raised, two loggers, several ranks' copies). */
  printed: number;
}

export interface FoundFailure {
  /** `devN` digits, or null when the line names no device. */
  device: string | null;
  /** Its line in the log, from 1. */
  line: number;
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
  /** The unfinished last line of what was pushed (a copy). */
  private carry: Buffer = Buffer.alloc(0);
  /** Newlines in everything pushed before the carry: the carry holds none, so these are all before it. */
  private newlines = 0;

  /**
   * One chunk of the log, in order; the scanner copies what it keeps. The chunk is searched where it lies: only the line
   * that began in the previous chunk is copied (joining 1 MiB chunks to their carry cost ~1 s per GiB of memcpy).
   */
  push(chunk: Buffer): void {
    const first = chunk.indexOf(NL);
    if (first === -1) {
      this.keep(this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]));
      return;
    }
    let lines = this.newlines;
    if (this.carry.length > 0) {
      // The line the previous chunk left unfinished, now whole.
      this.scan(Buffer.concat([this.carry, chunk.subarray(0, first + 1)]), 0, this.carry.length + first + 1, lines);
      lines += 1;
    } else {
      this.scan(chunk, 0, first + 1, lines);
      lines += 1;
    }
    const complete = chunk.lastIndexOf(NL) + 1;
    if (complete > first + 1) this.scan(chunk, first + 1, complete, lines);
    this.newlines += countNewlines(chunk);
    this.carry = Buffer.alloc(0);
    this.keep(chunk.subarray(complete));
  }

  /** Keeps an unfinished line (a copy); one longer than MAX_LINE_BYTES is read now, and only a tail a needle may continue in is kept. */
  private keep(rest: Buffer): void {
    if (rest.length > MAX_LINE_BYTES) {
      this.scan(rest, 0, rest.length, this.newlines);
      rest = rest.subarray(rest.length - (LONGEST_NEEDLE - 1));
    }
    this.carry = Buffer.from(rest);
  }

  /** The last line, when the log does not end with a newline (a crash cut it). */
  end(): void {
    if (this.carry.length > 0) this.scan(this.carry, 0, this.carry.length, this.newlines);
    this.carry = Buffer.alloc(0);
  }

  /** Every hit in window[from, to), a run of whole lines (the first may be the rest of a line read in parts), after `linesBefore` newlines of the log. */
  private scan(window: Buffer, from: number, to: number, linesBefore: number): void {
    const part = window.subarray(from, to);
    // Hits by line start: an OOM message's hit, or -1 for a line with a CANN needle; in order, so lines count forward once.
    const hits: [number, number][] = [];
    for (let hit = part.indexOf(OOM_NEEDLE); hit !== -1; hit = part.indexOf(OOM_NEEDLE, hit + OOM_NEEDLE.length))
      hits.push([part.lastIndexOf(NL, hit) + 1, hit]);
    for (const needle of FAILURE_NEEDLES) {
      for (let hit = part.indexOf(needle); hit !== -1; hit = part.indexOf(needle, hit + needle.length))
        hits.push([part.lastIndexOf(NL, hit) + 1, -1]);
    }
    if (hits.length === 0) return;
    hits.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let counted = 0;
    let line = linesBefore + 1;
    let failureLine = -1;
    for (const [lineStart, hit] of hits) {
      line += countNewlines(part, counted, lineStart);
      counted = lineStart;
      if (hit >= 0) {
        const lineEnd = endOfLine(part, hit);
        const message = readOomMessage(
          part.toString('latin1', hit + OOM_NEEDLE.length, Math.min(lineEnd, hit + OOM_NEEDLE.length + MESSAGE_CHARS)),
        );
        if (message !== null) this.addOom(message, line);
        continue;
      }
      if (lineStart === failureLine) continue;
      failureLine = lineStart;
      const text = part.toString('utf8', lineStart, Math.min(endOfLine(part, lineStart), lineStart + MESSAGE_CHARS));
      if (!FAILURE_LINE.test(text)) continue;
      const d = FAILURE_DEVICE.exec(text);
      const digits = d === null ? null : (d[1] ?? d[2] ?? d[3] ?? d[4] ?? null);
      const device = digits === null ? null : String(Number(digits));
      const sited = this.sitesPerDevice.get(device) ?? 0;
      this.sitesPerDevice.set(device, sited + 1);
      this.failures.push({ device, line, text: sited < FAILURE_SITES_PER_DEVICE ? shorten(text) : null });
    }
  }

  private addOom(message: OomMessage, line: number): void {
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
    this.ooms.set(id, { message, line, printed: 1 });
  }
}

/** One event per (device, figures): what a re-raised or twice-logged message prints again. */
function figuresId(m: OomMessage): string {
  return JSON.stringify([
    m.device,
    m.requested,
    m.total,
    m.allocated,
    m.active,
    m.deviceFree,
    m.allowed,
    m.reserved,
    m.processTotal,
    m.processes,
  ]);
}

/**
 * Newlines in buf[from, to): four bytes at a time where the bytes are 4-aligned (a word has a zero byte where it
 * matched 0x0a; the sum below sets exactly those bytes' high bits, with no borrow between bytes), ~2x faster than one
 * indexOf call per newline on a training log's ~120-byte lines.
 */
export function countNewlines(buf: Buffer, from = 0, to = buf.length): number {
  let n = 0;
  let i = from;
  const head = Math.min(to, from + ((4 - ((buf.byteOffset + from) & 3)) & 3));
  for (; i < head; i++) if (buf[i] === NL) n++;
  const words = (to - i) >> 2;
  if (words > 0) {
    const view = new Int32Array(buf.buffer, buf.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      const x = (view[k] as number) ^ 0x0a0a0a0a;
      const t = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
      if (t !== 0) n += Math.imul((t >>> 7) & 0x01010101, 0x01010101) >>> 24;
    }
    i += words << 2;
  }
  for (; i < to; i++) if (buf[i] === NL) n++;
  return n;
}

function endOfLine(buf: Buffer, from: number): number {
  const nl = buf.indexOf(NL, from);
  return nl === -1 ? buf.length : nl;
}

function shorten(line: string): string {
  const s = line.replace(/\s+/g, ' ').trim();
  return s.length > FAILURE_TEXT_CHARS ? `${s.slice(0, FAILURE_TEXT_CHARS)}…` : s;
}

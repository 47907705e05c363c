// Finds the plog records worth reading in a file's chunks: byte needles, chunk junctions, the record around each hit.
//
// How it stays fast and bounded: chunks stay Buffers; two short byte needles ("Bytes", "ERR") found with
// Buffer.indexOf mark the few interesting spots, and only the logical record around a hit (its physical line plus
// wrapped continuation lines, at most MAX_RECORD_LINES / MAX_RECORD_BYTES) is decoded and matched. Between chunks only
// the incomplete last line and MAX_RECORD_BYTES of context are kept. Line numbers are counted only once a record
// needs one. Known limit: a wrap that cuts the word "Bytes" (or "ERROR") itself hides that record from the search.
import type { SnapshotBuilder } from '../../model/snapshot.js';
import { FastRecordReader } from './fast-record.js';
import { ALLOC_FAILURE, MAX_LINE_BYTES, MAX_RECORD_BYTES, NL } from './grammar.js';
import { countNewlines, type NewlinesBefore } from './window.js';

// Needles shorter than 8 bytes that start with a rare upper-case byte: Node then searches with memchr on that byte,
// several times faster than its Boyer-Moore path for 8+ byte needles such as "Mem stats" (measured on 1 GiB).
/** "(Bytes)" in every record head, "<n>Bytes" in Cached_size lines. */
const STATS_NEEDLE = 0;
/** Allocation failures are only counted on ERROR lines (`ERROR]`, or `ERR0R]` in damaged pastes): one needle finds them all. */
const ERROR_NEEDLE = 1;
const NEEDLES: readonly Buffer[] = [Buffer.from('Bytes'), Buffer.from('ERR')];
/**
 * What indexOf actually looks for, per needle: its tail from SEARCH_SKIP bytes on, whose first byte is rarer in logs
 * than the needle's own ('R' is three quarters as frequent as 'E' in plog text, so memchr stops less often). A tail
 * hit counts only when the skipped head precedes it, so the hits are the same.
 */
const SEARCH_SKIP: readonly number[] = [0, 1];
const SEARCH_TAILS: readonly Buffer[] = NEEDLES.map((n, i) => n.subarray(SEARCH_SKIP[i] as number));
/** Bytes of a new chunk copied behind the kept bytes; the rest of the chunk is scanned where it lies, uncopied. */
export const JUNCTION_BYTES = 4 * MAX_RECORD_BYTES;

/** Junction buffers handed from one finished scanner to the next (see PlogScanner.junction); one scanner owns them at a time. */
let spareJunctions: (Buffer | undefined)[] | null = null;

function takeSpareJunctions(): (Buffer | undefined)[] {
  const spare = spareJunctions ?? [undefined, undefined];
  spareJunctions = null;
  return spare;
}

/**
 * The streaming core shared by parsePlogText and parsePlogFile: push(chunk)… end().
 *
 * Line numbers are counted only when a record needs one (a skipped record, a fatal value). If the bytes before the
 * kept window were already dropped, `newlinesBefore` counts them once, from the source; from then on the scanner
 * counts newlines as bytes pass, since a file with one bad record often has more.
 */
export class PlogScanner extends FastRecordReader {
  /** Start of the line of a hit whose record may continue into data not read yet. */
  private pendingLine: number | null = null;
  /** Per needle: offset of its next occurrence, or -1 for none before `searched`. */
  private readonly nextAt: number[] = NEEDLES.map(() => -1);
  private readonly searched: number[] = NEEDLES.map(() => 0);

  /** The two junction buffers (allocated on first use, or the last scanner's), and which one the next junction goes to. */
  private junctions: (Buffer | undefined)[] = takeSpareJunctions();
  private nextJunction = 0;

  /** Scans the next bytes of the file. The scanner may keep a view of `chunk` until the next push, never longer. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    const chunkStart = this.bufStart + this.buf.length;
    if (this.buf.length > 0) {
      // Only the junction is copied: the kept bytes plus the chunk's first bytes, enough to finish every record there.
      const head = chunk.length <= JUNCTION_BYTES ? chunk : chunk.subarray(0, JUNCTION_BYTES);
      this.buf = this.junction(this.buf, head);
      this.scan(false);
      if (head === chunk) return;
      this.buf =
        this.bufStart >= chunkStart
          ? chunk.subarray(this.bufStart - chunkStart)
          : Buffer.concat([this.buf, chunk.subarray(JUNCTION_BYTES)]);
    } else {
      this.buf = chunk;
      this.bufStart = chunkStart;
    }
    this.scan(false);
  }

  /**
   * `kept` followed by `head`, in one of two junction buffers used in turn. A fresh buffer per chunk would be garbage
   * that V8 only returns when external memory forces a GC: ~80 KiB per MiB read, tens of MiB of RSS on a large input.
   * Two suffice: `kept` is a view into the chunk, a buffer of its own, or the junction used last, never the other one.
   */
  private junction(kept: Buffer, head: Buffer): Buffer {
    const length = kept.length + head.length;
    let target = this.junctions[this.nextJunction];
    if (target === undefined || target.length < length) {
      target = Buffer.allocUnsafeSlow(Math.max(length, JUNCTION_BYTES + 2 * MAX_RECORD_BYTES));
      this.junctions[this.nextJunction] = target;
    }
    this.nextJunction ^= 1;
    kept.copy(target, 0);
    head.copy(target, kept.length);
    return target.subarray(0, length);
  }

  /** End of file: the last line counts even without a newline. */
  end(): void {
    this.scan(true);
    // The next scanner (the next file) reuses the junction buffers; this one keeps no view into them after end().
    this.buf = Buffer.alloc(0);
    spareJunctions = this.junctions;
    this.junctions = [undefined, undefined];
  }

  private scan(final: boolean): void {
    const end = this.bufStart + this.buf.length;
    // Bytes before `complete` are whole lines; `closed` says nothing can continue the line that ends there.
    let complete = final ? end : this.bufStart + this.buf.lastIndexOf(NL) + 1;
    let closed = final;
    if (final && this.buf.length > 0 && this.buf[this.buf.length - 1] !== NL) this.cutEnd = end;
    if (!closed && end - complete > MAX_LINE_BYTES) {
      complete = end;
      closed = true;
    }
    this.pendingLine = null;
    for (;;) {
      const needle = this.nextNeedle();
      if (needle < 0) break;
      const hit = this.nextAt[needle] as number;
      if (hit >= complete) break;
      if (needle === STATS_NEEDLE ? !this.mayBeStats(hit) : !this.mayBeLevel(hit)) {
        this.search(needle, hit + 1);
        continue;
      }
      if (needle === STATS_NEEDLE) {
        const lineEnd = this.fastRecord(hit, complete, closed);
        if (lineEnd >= 0) {
          this.floor = this.scanFrom = lineEnd + 1;
          continue;
        }
      }
      const hitEnd = this.lineEndOf(hit, complete);
      // For an ERROR hit: 1 failure words follow it on its line (so the record holding the line has some), 0 none,
      // -1 not known yet.
      const failureAhead = needle === ERROR_NEEDLE ? this.failureWordsAfter(hit, hitEnd, complete) : -1;
      if (failureAhead === 0 && this.startsRecord(hitEnd + 1, complete)) {
        this.search(needle, hit + 1);
        continue;
      }
      const hitLine = this.lineStartOf(hit);
      const [start, lines, anchored] = this.walkBack(hitLine, hitEnd);
      const recordEnd = this.walkForward(start, lines, hitEnd, complete, closed);
      if (recordEnd < 0) {
        this.pendingLine = hitLine;
        break;
      }
      if (needle === ERROR_NEEDLE && failureAhead !== 1 && !this.mayBeFailure(start, recordEnd)) {
        this.search(needle, hit + 1);
        continue;
      }
      this.readRecord(start, recordEnd, anchored);
      this.floor = this.scanFrom = recordEnd;
    }
    if (final && end > this.scanFrom && this.buf[this.buf.length - 1] !== NL) {
      // A process killed mid-write leaves a last line without newline; read it even if the cut came before "Bytes".
      const lastLine = this.lineStartOf(end);
      if (lastLine >= this.scanFrom) {
        const [start, , anchored] = this.walkBack(lastLine, end);
        this.readRecord(start, end, anchored);
      }
    }
    if (closed) this.floor = this.scanFrom = Math.max(this.scanFrom, complete);
    // Keep what a later walk back may reach: MAX_RECORD_BYTES before the first line not read yet.
    const unread = this.pendingLine ?? complete;
    this.keep(
      closed ? end : Math.max(this.floor, this.lineStartOf(Math.max(this.bufStart, unread - MAX_RECORD_BYTES))),
    );
  }

  /** The needle whose next occurrence at or after scanFrom comes first, or -1. */
  private nextNeedle(): number {
    const end = this.bufStart + this.buf.length;
    let best = -1;
    let bestAt = Infinity;
    for (let i = 0; i < NEEDLES.length; i++) {
      let at = this.nextAt[i] as number;
      if (at >= 0 && at < this.scanFrom) at = this.search(i, this.scanFrom);
      else if (at < 0 && (this.searched[i] as number) < end) {
        // Back up by the needle's length: it may straddle the end of the data searched before.
        at = this.search(i, Math.max(this.scanFrom, (this.searched[i] as number) - (NEEDLES[i] as Buffer).length + 1));
      }
      if (at >= 0 && at < bestAt) {
        best = i;
        bestAt = at;
      }
    }
    return best;
  }

  private search(needle: number, from: number): number {
    const start = Math.max(from, this.bufStart) - this.bufStart;
    const skip = SEARCH_SKIP[needle] as number;
    const tail = SEARCH_TAILS[needle] as Buffer;
    let at = this.buf.indexOf(tail, start + skip);
    if (skip > 0) {
      const head = NEEDLES[needle] as Buffer;
      while (at >= 0 && !this.headBefore(at, head, skip)) at = this.buf.indexOf(tail, at + 1);
      if (at >= 0) at -= skip;
    }
    this.nextAt[needle] = at < 0 ? -1 : this.bufStart + at;
    this.searched[needle] = this.bufStart + this.buf.length;
    return this.nextAt[needle] as number;
  }

  /** Whether the first `skip` bytes of `needle` end right before buf[at]. */
  private headBefore(at: number, needle: Buffer, skip: number): boolean {
    for (let k = 1; k <= skip; k++) if (this.buf[at - k] !== needle[skip - k]) return false;
    return true;
  }

  /** A cheap look at the byte before "Bytes": `(` for a record head, a digit or a space for a Cached_size value. */
  private mayBeStats(at: number): boolean {
    if (at === this.bufStart) return true;
    const before = this.buf[at - 1 - this.bufStart] as number;
    const digit = before >= 0x30 && before <= 0x39;
    return before === 0x28 || digit || before === 0x20 || before === 0x09 || before === 0x0a || before === 0x0d;
  }

  /** A cheap look after "ERR": `OR]` (or `0R]`, a damaged paste's zero) makes it a level tag. */
  private mayBeLevel(at: number): boolean {
    const i = at - this.bufStart + 3;
    if (i + 2 >= this.buf.length) return true;
    const o = this.buf[i];
    return (o === 0x4f || o === 0x30) && this.buf[i + 1] === 0x52 && this.buf[i + 2] === 0x5d;
  }

  /**
   * An ERROR record is read whole only if it holds the words of an allocation failure. Its line breaks need no
   * replacing: ALLOC_FAILURE's `\s` and `\b` treat CR and LF as they treat a space.
   */
  private mayBeFailure(start: number, end: number): boolean {
    return ALLOC_FAILURE.test(this.buf.toString('latin1', start - this.bufStart, end - this.bufStart));
  }

  /**
   * Whether the words of an allocation failure follow an ERROR hit on its line: 1 yes, 0 no, -1 not known yet (the
   * next line is not here). With 0 and a next line that starts a record, the common ERROR line is done with; with 1,
   * every record holding the line holds the words too (a match never starts at the hit's `E`, and the characters
   * around the line are line breaks, which `\b` and `\s` read as spaces), so mayBeFailure need not look again.
   */
  private failureWordsAfter(hit: number, hitEnd: number, complete: number): number {
    if (hitEnd + 1 >= complete) return -1;
    return ALLOC_FAILURE.test(this.buf.toString('latin1', hit - this.bufStart, hitEnd - this.bufStart)) ? 1 : 0;
  }
}

/**
 * Feeds one file's bytes, in chunks, through a scanner. `newlinesBefore(n)` counts the newlines in the file's first
 * n bytes; it is only called when a record needs a line number for bytes already dropped.
 */
export function scanPlogChunks(
  name: string,
  chunks: Iterable<Buffer>,
  into: SnapshotBuilder,
  newlinesBefore: NewlinesBefore,
): void {
  into.files++;
  const scanner = new PlogScanner(name, into, newlinesBefore);
  for (const chunk of chunks) scanner.push(chunk);
  scanner.end();
}

/** Parses an in-memory plog (tests, small inputs): the same scanner as parsePlogFile, in one chunk. */
export function parsePlogText(name: string, text: string | Buffer, into: SnapshotBuilder): void {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  scanPlogChunks(name, [bytes], into, (offset) => countNewlines(bytes, 0, offset));
}

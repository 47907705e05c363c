// Reads the driver's memory statistics (every known generation), allocation failures and their devices out of CANN plog files.
//
// How it stays fast and bounded: chunks stay Buffers; two short byte needles ("Bytes", "ERR") found with
// Buffer.indexOf mark the few interesting spots, and only the logical record around a hit (its physical line plus
// wrapped continuation lines, at most MAX_RECORD_LINES / MAX_RECORD_BYTES) is decoded and matched. Between chunks only
// the incomplete last line and MAX_RECORD_BYTES of context are kept. Line numbers are counted only once a record
// needs one. Known limit: a wrap that cuts the word "Bytes" (or "ERROR") itself hides that record from the search.
import { closeSync, openSync, readSync } from 'node:fs';
import { gunzipChunks, isCompressed } from './compressed.js';
import { InputError, ParseError } from '../common/errors.js';
import { deviceName } from '../model/sections/keys.js';
import { MAX_SITES_PER_DEVICE, type AllocFailureSite, type SnapshotBuilder } from '../model/snapshot.js';
import type { InputFile } from '../sources/types.js';
import { parseExactInteger } from '../model/units.js';
import { READ_OFFSET } from './text-stream.js';
import { modules, type ModuleMetric } from '../model/sections/index.js';

/** A wrapped record is reassembled over at most this many physical lines... */
export const MAX_RECORD_LINES = 64;
/** ...and this many bytes, so that garbage without `[LEVEL]` prefixes cannot grow a record without bound. */
export const MAX_RECORD_BYTES = 16 * 1024;
/** A physical line longer than this is cut where the buffer ends: no newline for megabytes is garbage, not a log. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** Read size: large enough for few syscalls, small enough that the needle passes run on bytes still in cache. */
const CHUNK_BYTES = 1024 * 1024;
/** parsePlogFile lets other async work run after this many chunks. */
const CHUNKS_PER_YIELD = 16;

const NL = 0x0a;

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
const JUNCTION_BYTES = 4 * MAX_RECORD_BYTES;

/** Level words as they start a line, `ERR0R` being a damaged paste's `ERROR`; each is followed by `]`. */
const LEVEL_WORDS: readonly Buffer[] = ['ERROR', 'ERR0R', 'WARNING', 'INFO', 'DEBUG', 'EVENT', 'TRACE'].map((level) =>
  Buffer.from(`${level}]`),
);
/** Tags that start a record pasted with its level and `DRV(...)` prefix cut off. */
const CUT_PREFIX_TAGS: readonly Buffer[] = ['[devmm]', '[drv]', '[ascend]'].map((tag) => Buffer.from(tag));
/** A line that starts at the attribute word, its prefix cut off: `DEV_MEM dev0 Mem stats`, `HOST_MEM Cached_size:`. */
const ATTRIBUTE_START = /^[A-Z][A-Z0-9_]*[ \t]+(?:dev\d+[ \t]+)?(?:[Mm]em[ \t]+stats|Cached_size\b)/;
/** `grep -n` output: `<path>:<line>:` (or `<line>:` for one file) before the line itself. */
const GREP_PREFIX = /:\d+:/g;
/** How far into a line a `grep -n` prefix (a path) may reach. */
const MAX_GREP_PREFIX_BYTES = 1024;

/** `[LEVEL] MODULE(`: where a plog line, or a line glued onto another one, begins; damaged pastes lose the `[`. */
const SEGMENT = /\[?(ERROR|ERR0R|WARNING|INFO|DEBUG|EVENT|TRACE)\]\s*[A-Za-z][A-Za-z0-9_-]*\(/g;

// The driver prints the attribute right after its `[function]` tag; anchoring on `]` (or on the start of a record whose
// prefix was cut, or on a `grep -n` prefix's `:`) keeps a word cut by a wrap ("DEV_" + "MEM") from passing as an attribute.
const HEAD = /[\]:]\s*([A-Z][A-Z0-9_]*)\s+(?:dev(\d+)\s+)?(?:([Mm]em\s+stats\s*\(Bytes\))|Cached_size\b)/g;
/** HEAD, also at the start of a record whose prefix was cut off (only where a record surely starts). */
const HEAD_AT_START = new RegExp(HEAD.source.replace('[\\]:]', '(?:^|[\\]:])'), 'g');
/** v1/v2/v3 body: `. (module_name=X; module_id=N; current…; alloc(ated)_peak_size…; alloc_cnt…; free_cnt…)` or `total_size=N)`. */
const BODY_V1 =
  /\.\s*\(\s*module_name\s*=\s*([A-Z][A-Z0-9_]*)\s*;\s*module_id\s*=\s*\d+\s*;\s*(?:current_alloced_size\s*=\s*(\d+)\s*;\s*(alloced|allocated)_peak_size\s*=\s*(\d+)\s*;\s*alloc_cnt\s*=\s*(\d+)\s*;\s*free_cnt\s*=\s*(\d+)|total_size\s*=\s*(\d+))\s*\)/y;
/** v0 body: `: module_name=X, module_id=N current_alloced_size=N, alloced_peak_size=N.` (no comma after module_id). */
const BODY_V0 =
  /\s*:\s*module_name\s*=\s*([A-Z][A-Z0-9_]*)\s*,\s*module_id\s*=\s*\d+\s*,?\s*current_alloced_size\s*=\s*(\d+)\s*,\s*alloced_peak_size\s*=\s*(\d+)\s*\./y;
/** v2 `HOST_MEM Cached_size:12582912Bytes`: the unit is required, so a line cut inside the number never passes. */
const BODY_CACHED = /\s*:\s*(\d+)\s*Bytes\b/y;

// Conservative on purpose: only ERROR lines, and only the driver's own failure, an explicit "out of memory", or the
// framework's error code for a failed allocation (EL0004).
const ALLOC_FAILURE = /\bhalMemAlloc\s+failed\b|\bout\s+of\s+memory\b|\bMemory_Allocation_Failure\b|\bEL0004\b/i;
/**
 * device_id=N (or `device_id N` in a damaged paste), deviceId=N, drvDevId=N, devId=N, dev_id=N, device N / device(N) /
 * device[N], devN / dev N: the first one wins.
 */
const FAILURE_DEVICE = /(?:\b|drv_?)(?:device_?id|dev_?id)\s*[=:]?\s*(\d+)|\bdevice\s*[=:([]?\s*(\d+)|\bdev\s?(\d+)\b/i;
/** A failure site's text is cut to this many characters and an ellipsis: the 300 the snapshot keeps. */
const FAILURE_TEXT_CHARS = 299;
/** An allocation failure that names no device is still an out-of-memory signal: it is counted under this name. */
export const UNKNOWN_DEVICE = 'unknown';

/** Junction buffers handed from one finished scanner to the next (see PlogScanner.junction); one scanner owns them at a time. */
let spareJunctions: (Buffer | undefined)[] | null = null;

function takeSpareJunctions(): (Buffer | undefined)[] {
  const spare = spareJunctions ?? [undefined, undefined];
  spareJunctions = null;
  return spare;
}

/** Counts the newlines in the first `offset` bytes of the file being scanned (bytes the scanner already dropped). */
export type NewlinesBefore = (offset: number) => number;

/**
 * The streaming core shared by parsePlogText and parsePlogFile: push(chunk)… end().
 *
 * Line numbers are counted only when a record needs one (a skipped record, a fatal value). If the bytes before the
 * kept window were already dropped, `newlinesBefore` counts them once, from the source; from then on the scanner
 * counts newlines as bytes pass, since a file with one bad record often has more.
 */
export class PlogScanner {
  private buf: Buffer = Buffer.alloc(0);
  /** File offset of buf[0]; always the start of a line. */
  private bufStart = 0;
  /** Hits before this offset have been read. */
  private scanFrom = 0;
  /** End of the last record read: a walk back to find where a record starts stops here. */
  private floor = 0;
  /** Start of the line of a hit whose record may continue into data not read yet. */
  private pendingLine: number | null = null;
  /** Per needle: offset of its next occurrence, or -1 for none before `searched`. */
  private readonly nextAt: number[] = NEEDLES.map(() => -1);
  private readonly searched: number[] = NEEDLES.map(() => 0);

  private readonly cursor = new ByteCursor();
  /** Failure lines per device in this file so far: the first MAX_SITES_PER_DEVICE get a site. */
  private readonly sitedFailures = new Map<string, number>();
  private readonly keys = keyCache;
  /** A file offset that fastRecord found to start a record (the line after its record), or -1. */
  private knownStart = -1;
  /** Set by fastBody: where the record's head starts (an index into buf), and its module name's bytes (-1: none). */
  private fastHead = 0;
  private fastModuleFrom = -1;
  private fastModuleTo = -1;
  /** The file's end when its last line has no newline (a writer killed mid-record), else -1. */
  private cutEnd = -1;
  /** The record being read ends at cutEnd: a record skipped now was cut off, not malformed. */
  private readingCut = false;

  /** The two junction buffers (allocated on first use, or the last scanner's), and which one the next junction goes to. */
  private junctions: (Buffer | undefined)[] = takeSpareJunctions();
  private nextJunction = 0;

  /** Newlines before countedTo; counting starts with the first record that needs a line number. */
  private countedTo = 0;
  private newlinesCounted = 0;
  private counting = false;

  constructor(
    readonly name: string,
    private readonly into: SnapshotBuilder,
    private readonly newlinesBefore: NewlinesBefore,
  ) {}

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

  /** Drops the bytes before `from` (a line start), counting their newlines first when line numbers are in use. */
  private keep(from: number): void {
    if (this.counting && this.countedTo < from) {
      this.newlinesCounted += countNewlines(this.buf, this.countedTo - this.bufStart, from - this.bufStart);
      this.countedTo = from;
    }
    this.buf = this.buf.subarray(from - this.bufStart);
    this.bufStart = from;
    this.floor = Math.max(this.floor, from);
    this.scanFrom = Math.max(this.scanFrom, from);
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

  /**
   * The common case, read in place without decoding: one record on one physical line that starts with `[` and is
   * followed by a line that starts a record, in the driver's exact spelling (`]ATTR[ devN] Mem stats (Bytes). (…)`,
   * v0's `mem stats(Bytes): …`, `Cached_size:NBytes`) and ending the line. Anything else (wraps, odd spacing, pastes,
   * values of 16+ digits) returns -1 and takes the general path, which reads the same records.
   * Returns the offset of the newline that ends the record's line (found by the parse itself, not by a search).
   *
   * A record followed on its line by another line's `[LEVEL] MODULE(` (lines glued by concurrent writers) is read here
   * too, and the rest of the line, from that glue point on, by the general path: exactly the segments the general path
   * would read after this record's own. This record's segment is then not read by regex, so it must hold no other
   * head: no `Cached_size` before the record (a `Mem stats (Bytes)` head there would have been an earlier hit).
   */
  private fastRecord(hit: number, complete: number, closed: boolean): number {
    const b = this.buf;
    const o = this.bufStart;
    const h = hit - o;
    const cur = this.cursor;
    cur.b = b;
    const metric = this.fastBody(h);
    if (metric === null) return -1;
    // The record ends its line: a newline (after a CR in CRLF files) right after it. The parsed bytes hold no newline,
    // so this is the first newline after the hit, where the general path's line ends too.
    let eol = cur.i;
    if (b[eol] === 0x0d) eol++;
    /** Where a glued line's next segment starts (an offset), or -1. */
    let glued = -1;
    if (b[eol] !== NL) {
      if (!this.segmentStartsAt(cur.i, complete - o)) return -1;
      glued = cur.i + o;
      const end = this.lineEndOf(glued, complete);
      if (end >= complete) return -1;
      eol = end - o;
    }
    const hitEnd = eol + o;
    // Before the head: ` dev<N>` (optional), then the attribute word right after the `]` of the function tag.
    let q = this.fastHead;
    let d = q;
    while (d > 0 && isDigit(b[d - 1] as number)) d--;
    const deviceTo = q;
    if (d < q && q - d <= 9 && cur.at(d - 4, SPACE_DEV)) q = d - 4;
    else d = deviceTo;
    let a = q;
    while (a > 0 && isWordByte(b[a - 1] as number)) a--;
    const first = b[a] as number;
    if (a === q || first < 0x41 || first > 0x5a || b[a - 1] !== 0x5d) return -1;
    if (!this.fastLineAlone(hit, hitEnd, complete, closed, glued >= 0, a)) return -1;
    const key = this.keys.keyOf(b, a, q, d, deviceTo, this.fastModuleFrom, this.fastModuleTo);
    this.into.records++;
    this.into.add(modules, key.key, metric);
    if (key.device !== null) this.into.noteDevice(key.device);
    // Unanchored, as the general path reads every segment after a line's first.
    if (glued >= 0) this.readRecord(glued, hitEnd + 1, false);
    return hitEnd;
  }

  /**
   * fastRecord's first step: the record's body from the hit on, in one of the three exact spellings, with the cursor
   * left after it; sets fastHead and fastModuleFrom/To. Null when the bytes are in no exact spelling.
   */
  private fastBody(h: number): ModuleMetric | null {
    const b = this.buf;
    const cur = this.cursor;
    if (b[h - 1] === 0x28 && cur.at(h - 12, MEM_STATS_OPEN)) {
      this.fastHead = h - 12;
      return this.fastV1Body(h);
    }
    if (b[h - 1] === 0x28 && cur.at(h - 11, V0_MEM_STATS_OPEN)) {
      this.fastHead = h - 11;
      return this.fastV0Body(h);
    }
    // `Cached_size:<digits>Bytes`
    let d = h;
    while (d > 0 && isDigit(b[d - 1] as number)) d--;
    if (d === h || h - d > 15 || !cur.at(d - 13, CACHED_OPEN)) return null;
    this.fastHead = d - 13;
    cur.i = d;
    const size = cur.digits();
    if (size < 0 || !cur.take(BYTES)) return null;
    this.fastModuleFrom = this.fastModuleTo = -1;
    return { peak: size, current: size, allocs: null, frees: null };
  }

  /** `Mem stats (Bytes). (module_name=…; module_id=…; …)`: the v1/v2 counters or v3's total. */
  private fastV1Body(h: number): ModuleMetric | null {
    const cur = this.cursor;
    cur.i = h;
    if (!cur.take(V1_BODY_START)) return null;
    this.fastModuleFrom = cur.i;
    this.fastModuleTo = cur.word();
    if (this.fastModuleTo < 0 || !cur.take(V1_MODULE_ID) || cur.digits() < 0) return null;
    let metric: ModuleMetric;
    if (cur.take(V3_TOTAL)) {
      const total = cur.digits();
      if (total < 0) return null;
      metric = { peak: total, current: total, allocs: null, frees: null };
    } else {
      if (!cur.take(V1_CURRENT)) return null;
      const current = cur.digits();
      if (current < 0 || !cur.take(V1_ALLOC)) return null;
      if (!cur.take(V1_ED) && !cur.take(V2_ATED)) return null;
      if (!cur.take(V1_PEAK)) return null;
      const peak = cur.digits();
      if (peak < 0 || !cur.take(V1_ALLOC_CNT)) return null;
      const allocs = cur.digits();
      if (allocs < 0 || !cur.take(V1_FREE_CNT)) return null;
      const frees = cur.digits();
      if (frees < 0) return null;
      metric = { current, peak, allocs, frees };
    }
    return cur.take(CLOSE_PAREN) ? metric : null;
  }

  /** v0's `mem stats(Bytes): module_name=…, module_id=…, current=…, peak=….` */
  private fastV0Body(h: number): ModuleMetric | null {
    const cur = this.cursor;
    cur.i = h;
    if (!cur.take(V0_BODY_START)) return null;
    this.fastModuleFrom = cur.i;
    this.fastModuleTo = cur.word();
    if (this.fastModuleTo < 0 || !cur.take(V0_MODULE_ID) || cur.digits() < 0 || !cur.take(V0_CURRENT)) return null;
    const current = cur.digits();
    if (current < 0 || !cur.take(V0_PEAK)) return null;
    const peak = cur.digits();
    if (peak < 0 || !cur.take(PERIOD)) return null;
    return { current, peak, allocs: null, frees: null };
  }

  /**
   * fastRecord's last check: the record is one logical line (it starts with `[`, a record start, and the next line is
   * not its wrap), and a glued segment's record holds no `Cached_size` before the attribute at `a` (an index into buf).
   */
  private fastLineAlone(
    hit: number,
    hitEnd: number,
    complete: number,
    closed: boolean,
    glued: boolean,
    a: number,
  ): boolean {
    const o = this.bufStart;
    const lineStart = this.lineStartOf(hit) - o;
    if (
      this.buf[lineStart] !== 0x5b ||
      (lineStart + o !== this.knownStart && !this.startsRecord(lineStart + o, complete))
    )
      return false;
    const next = hitEnd + 1;
    if (next >= complete ? !closed : !this.startsRecord(next, complete)) return false;
    if (glued && this.mentionsCachedSize(lineStart, a)) return false;
    // The next record's line, when it holds a hit too, need not be looked at again (the bytes there do not change).
    if (next < complete) this.knownStart = next;
    return true;
  }

  /**
   * Whether buf[i] starts a segment in the strict form `[LEVEL] Name(` (spaces only after `]`): a match of SEGMENT, so
   * the general path splits the line right there. `limit` is an index into buf.
   */
  private segmentStartsAt(i: number, limit: number): boolean {
    const b = this.buf;
    if (b[i] !== 0x5b || !this.tagAt(i + 1, limit, LEVEL_WORDS)) return false;
    let k = i + 2;
    while (b[k] !== 0x5d) k++;
    k++;
    while (k < limit && b[k] === 0x20) k++;
    const first = b[k] as number;
    if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a))) return false;
    for (k++; k < limit; k++) {
      const c = b[k] as number;
      if (c === 0x28) return true;
      const name =
        (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
      if (!name) return false;
    }
    return false;
  }

  /**
   * Whether buf[from, to) holds the word `Cached_size` (indices into buf). A loop over these few bytes, not indexOf:
   * that would search on past `to`, up to the next record of that kind (on the 1 GiB corpus, ~1 s in all).
   */
  private mentionsCachedSize(from: number, to: number): boolean {
    const b = this.buf;
    const first = CACHED_WORD[0] as number;
    for (let k = from, last = to - CACHED_WORD.length; k <= last; k++) {
      if (b[k] !== first) continue;
      let n = 1;
      while (n < CACHED_WORD.length && b[k + n] === CACHED_WORD[n]) n++;
      if (n === CACHED_WORD.length) return true;
    }
    return false;
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

  /** Start of the line that holds `at` (never before the floor, which is itself a line start). */
  private lineStartOf(at: number): number {
    if (at <= this.bufStart) return this.bufStart;
    const nl = this.buf.lastIndexOf(NL, at - 1 - this.bufStart);
    return Math.max(this.bufStart + nl + 1, this.floor);
  }

  /** Offset of the newline that ends the line holding `at` (< complete), or `complete` when the data ends first. */
  private lineEndOf(at: number, complete: number): number {
    // No newline lies at or after `complete`: it is the end of the data or just after the last newline.
    const nl = this.buf.indexOf(NL, at - this.bufStart);
    return nl < 0 ? complete : this.bufStart + nl;
  }

  /**
   * Whether the line at `at` starts a record of its own (so it is no wrapped continuation): a `[LEVEL]` prefix, or
   * as pasted into reports, a level that lost its `[` (`ERROR]`, `ERR0R]`), a prefix cut at `[devmm]` or at the
   * attribute word, any of these behind a `grep -n` `<path>:<line>:` prefix.
   */
  private startsRecord(at: number, complete: number): boolean {
    let i = at - this.bufStart;
    // A UTF-8 byte order mark (files saved on Windows) may precede the first line's prefix.
    if (at === 0 && this.buf[0] === 0xef && this.buf[1] === 0xbb && this.buf[2] === 0xbf) i += 3;
    const limit = complete - this.bufStart;
    if (this.startsRecordAt(i, limit) && !this.wrapInsideWord(i)) return true;
    const first = this.buf[i];
    // Lines of a normal log start with `[`; an upper-case start was looked at above: neither has a grep prefix.
    if (first === 0x5b || first === undefined || i >= limit) return false;
    const lineEnd = this.buf.indexOf(NL, i);
    const end = Math.min(lineEnd < 0 || lineEnd > limit ? limit : lineEnd, i + MAX_GREP_PREFIX_BYTES);
    const head = this.buf.toString('latin1', i, end);
    GREP_PREFIX.lastIndex = 0;
    for (let m = GREP_PREFIX.exec(head), n = 0; m !== null && n < 4; m = GREP_PREFIX.exec(head), n++) {
      if (this.startsRecordAt(i + GREP_PREFIX.lastIndex, limit)) return true;
      GREP_PREFIX.lastIndex = m.index + 1;
    }
    return false;
  }

  /**
   * Whether the line at buf[i] continues a word cut by a wrap: the lines before end in `]` and a bare upper-case word
   * (`…_show 148]MEM_DEV_` + `HBM dev0 Mem stats`), so this line's first word is no attribute of its own.
   */
  private wrapInsideWord(i: number): boolean {
    if (i === 0 || this.buf[i - 1] !== NL) return false;
    // Back over the word's earlier pieces (a wrap may cut it more than once) to what precedes the word.
    for (let k = i - 2, stop = Math.max(0, i - 130); k >= stop; k--) {
      const b = this.buf[k] as number;
      if (b === 0x5d) return true;
      const word = (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b === 0x5f || b === NL || b === 0x0d;
      if (!word) return false;
    }
    return false;
  }

  /** startsRecord without the grep prefix; `i` is an index into buf. */
  private startsRecordAt(i: number, limit: number): boolean {
    const first = this.buf[i];
    if (first === 0x5b) return this.tagAt(i + 1, limit, LEVEL_WORDS) || this.tagAt(i, limit, CUT_PREFIX_TAGS);
    if (first === undefined || first < 0x41 || first > 0x5a) return false;
    if (this.tagAt(i, limit, LEVEL_WORDS)) return true;
    const lineEnd = this.buf.indexOf(NL, i);
    const end = Math.min(lineEnd < 0 || lineEnd > limit ? limit : lineEnd, i + 128);
    return ATTRIBUTE_START.test(this.buf.toString('latin1', i, end));
  }

  /** Whether one of `tags` starts at buf[i]. Byte by byte in JS: the tags are short, a native call costs more. */
  private tagAt(i: number, limit: number, tags: readonly Buffer[]): boolean {
    for (const tag of tags) {
      if (i + tag.length > limit || this.buf[i] !== tag[0] || this.buf[i + 1] !== tag[1]) continue;
      let k = 2;
      while (k < tag.length && this.buf[i + k] === tag[k]) k++;
      if (k === tag.length) return true;
    }
    return false;
  }

  /**
   * Where the logical record holding the hit line starts, how many lines that makes up to the hit line, and whether
   * that start is a record's own (false: no record start within reach, the hit line is read alone).
   */
  private walkBack(hitLine: number, hitEnd: number): [number, number, boolean] {
    if (this.startsRecord(hitLine, hitEnd + 1)) return [hitLine, 1, true];
    let at = hitLine;
    let lines = 1;
    while (at > this.floor && lines < MAX_RECORD_LINES) {
      const prev = this.lineStartOf(at - 1);
      if (hitEnd + 1 - prev > MAX_RECORD_BYTES) break;
      lines++;
      if (this.startsRecord(prev, at)) return [prev, lines, true];
      at = prev;
    }
    // No record start within reach: the hit line is read on its own, but its first word is no attribute for sure.
    return [hitLine, 1, false];
  }

  /** End of the logical record (after its last newline), or -1 when the next line is not here yet. Same bounds as walkBack. */
  private walkForward(start: number, lines: number, hitEnd: number, complete: number, closed: boolean): number {
    let lineEnd = hitEnd;
    for (;;) {
      if (lineEnd >= complete) return complete;
      const next = lineEnd + 1;
      if (next >= complete) return closed ? complete : -1;
      if (lines >= MAX_RECORD_LINES || this.startsRecord(next, complete)) return next;
      const nextEnd = this.lineEndOf(next, complete);
      if (nextEnd + 1 - start > MAX_RECORD_BYTES) return next;
      lines++;
      lineEnd = nextEnd;
    }
  }

  /**
   * Joins the record's lines with spaces (keeping offsets) and reads each `[LEVEL] X(` segment on its own. `anchored`:
   * the record starts where a record starts, so an attribute word right at its start is one (a prefix cut off).
   */
  private readRecord(start: number, end: number, anchored: boolean): void {
    this.readingCut = end === this.cutEnd;
    const text = this.buf.toString('latin1', start - this.bufStart, end - this.bufStart).replace(/[\r\n]/g, ' ');
    let segmentStart = 0;
    let level: string | null = null;
    SEGMENT.lastIndex = 0;
    for (let m = SEGMENT.exec(text); m !== null; m = SEGMENT.exec(text)) {
      if (m.index > segmentStart)
        this.readSegment(
          text.slice(segmentStart, m.index),
          level,
          start + segmentStart,
          anchored && segmentStart === 0,
        );
      segmentStart = m.index;
      level = m[1] as string;
    }
    this.readSegment(text.slice(segmentStart), level, start + segmentStart, anchored && segmentStart === 0);
  }

  private readSegment(text: string, level: string | null, at: number, anchored: boolean): void {
    const head = anchored ? HEAD_AT_START : HEAD;
    head.lastIndex = 0;
    for (let m = head.exec(text); m !== null; m = head.exec(text)) {
      const attr = m[1] as string;
      const device = m[2] === undefined ? null : deviceOf(m[2]);
      if (device === null && m[2] !== undefined) {
        this.skip(at, `device number out of range in memory-statistics record: ${excerpt(text, m.index + 1)}`);
        continue;
      }
      const prefix = device === null ? attr : `${attr}/${device}`;
      const bodyAt = head.lastIndex;
      let parsed: { module: string; metric: ModuleMetric } | null;
      if (m[3] === undefined) parsed = this.readCached(text, bodyAt, at);
      else parsed = this.readStats(text, bodyAt, at);
      if (parsed === null) {
        this.skip(at, `truncated or malformed memory-statistics record: ${excerpt(text, m.index + 1)}`);
        continue;
      }
      this.into.records++;
      this.into.add(modules, `${prefix}/${parsed.module}`, parsed.metric);
      if (device !== null) this.into.noteDevice(device);
    }
    if ((level === 'ERROR' || level === 'ERR0R') && ALLOC_FAILURE.test(text)) {
      const d = FAILURE_DEVICE.exec(text);
      const digits = d === null ? null : (d[1] ?? d[2] ?? d[3] ?? null);
      const device = (digits === null ? null : deviceOf(digits)) ?? UNKNOWN_DEVICE;
      // Where: for the first failures per device of each file (the builder keeps the first by file and line, whatever
      // order files come in, and those are among them). A one-off line count, not a count of every later newline.
      const sited = this.sitedFailures.get(device) ?? 0;
      this.sitedFailures.set(device, sited + 1);
      const where =
        sited < MAX_SITES_PER_DEVICE && this.siteMayBeKept(device)
          ? { file: this.name, line: this.lineAt(at, false), text: excerpt(text, 0, FAILURE_TEXT_CHARS) }
          : undefined;
      this.into.addAllocFailure(device, 1, where);
    }
  }

  /**
   * Whether a failure site from this file could still be among the builder's first MAX_SITES_PER_DEVICE by file and
   * line: not when it already holds that many, all from this file or files before it. Its line number (a count of
   * every newline before it) is then not worth computing.
   */
  private siteMayBeKept(device: string): boolean {
    const kept = this.into.allocFailureSitesOf(device);
    if (kept === undefined || kept.length < MAX_SITES_PER_DEVICE) return true;
    return (kept[kept.length - 1] as AllocFailureSite).file > this.name;
  }

  private readStats(text: string, from: number, at: number): { module: string; metric: ModuleMetric } | null {
    BODY_V1.lastIndex = from;
    const v1 = BODY_V1.exec(text);
    if (v1 !== null) {
      const module = v1[1] as string;
      if (v1[7] !== undefined) {
        const total = this.exact(v1[7], 'total_size', at);
        return { module, metric: { peak: total, current: total, allocs: null, frees: null } };
      }
      return {
        module,
        metric: {
          current: this.exact(v1[2] as string, 'current_alloced_size', at),
          peak: this.exact(v1[4] as string, `${v1[3] as string}_peak_size`, at),
          allocs: this.exact(v1[5] as string, 'alloc_cnt', at),
          frees: this.exact(v1[6] as string, 'free_cnt', at),
        },
      };
    }
    BODY_V0.lastIndex = from;
    const v0 = BODY_V0.exec(text);
    if (v0 === null) return null;
    return {
      module: v0[1] as string,
      metric: {
        current: this.exact(v0[2] as string, 'current_alloced_size', at),
        peak: this.exact(v0[3] as string, 'alloced_peak_size', at),
        allocs: null,
        frees: null,
      },
    };
  }

  private readCached(text: string, from: number, at: number): { module: string; metric: ModuleMetric } | null {
    BODY_CACHED.lastIndex = from;
    const m = BODY_CACHED.exec(text);
    if (m === null) return null;
    const size = this.exact(m[1] as string, 'Cached_size', at);
    return { module: 'CACHED', metric: { peak: size, current: size, allocs: null, frees: null } };
  }

  /** The one case that stops the run: a byte count above 2^53 - 1 cannot be compared exactly, and rounding would lie. */
  private exact(digits: string, field: string, at: number): number {
    let value: number | null;
    try {
      value = parseExactInteger(digits, this.name);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      this.fail(
        at,
        `${field}=${digits} is larger than 2^53 - 1 and cannot be compared exactly; no result is better than a rounded one`,
      );
    }
    // The body regexes only capture digits, so parseExactInteger cannot return null here.
    return value as number;
  }

  private skip(at: number, reason: string): void {
    this.into.addSkipped({
      file: this.name,
      line: this.lineAt(at),
      reason,
      ...(this.readingCut ? { cut: true as const } : {}),
    });
  }

  private fail(at: number, reason: string): never {
    throw new ParseError(this.name, this.lineAt(at), reason);
  }

  /**
   * The 1-based physical line holding `at` (which is always inside the kept window). `persist`: go on counting the
   * newlines of bytes as they pass (a file with one bad record often has more); false for a one-off (a failure site),
   * so that one early line number does not make the scanner count every newline of the rest of the file.
   */
  private lineAt(at: number, persist = true): number {
    const wasCounting = this.counting;
    if (!this.counting || this.countedTo < this.bufStart) {
      // The bytes before the window are gone (or were never counted): count them once, from the source.
      this.countedTo = this.bufStart;
      this.newlinesCounted = this.newlinesBefore(this.bufStart);
      this.counting = true;
    }
    if (at >= this.countedTo)
      this.newlinesCounted += countNewlines(this.buf, this.countedTo - this.bufStart, at - this.bufStart);
    else this.newlinesCounted -= countNewlines(this.buf, at - this.bufStart, this.countedTo - this.bufStart);
    this.countedTo = at;
    if (!persist && !wasCounting) this.counting = false;
    return this.newlinesCounted + 1;
  }
}

// The driver's exact spelling, for PlogScanner.fastRecord.
const MEM_STATS_OPEN = Buffer.from(' Mem stats (');
const V0_MEM_STATS_OPEN = Buffer.from(' mem stats(');
const CACHED_OPEN = Buffer.from(' Cached_size:');
const CACHED_WORD = Buffer.from('Cached_size');
const SPACE_DEV = Buffer.from(' dev');
const V1_BODY_START = Buffer.from('Bytes). (module_name=');
const V1_MODULE_ID = Buffer.from('; module_id=');
const V3_TOTAL = Buffer.from('; total_size=');
const V1_CURRENT = Buffer.from('; current_alloced_size=');
const V1_ALLOC = Buffer.from('; alloc');
const V1_ED = Buffer.from('ed');
const V2_ATED = Buffer.from('ated');
const V1_PEAK = Buffer.from('_peak_size=');
const V1_ALLOC_CNT = Buffer.from('; alloc_cnt=');
const V1_FREE_CNT = Buffer.from('; free_cnt=');
const CLOSE_PAREN = Buffer.from(')');
const V0_BODY_START = Buffer.from('Bytes): module_name=');
const V0_MODULE_ID = Buffer.from(', module_id=');
const V0_CURRENT = Buffer.from(' current_alloced_size=');
const V0_PEAK = Buffer.from(', alloced_peak_size=');
const PERIOD = Buffer.from('.');
const BYTES = Buffer.from('Bytes');

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A byte of an attribute or module word: A-Z, 0-9, `_`. */
function isWordByte(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

/** Reads a Buffer forward from `i`: exact byte strings, upper-case words, decimal integers. */
class ByteCursor {
  i = 0;
  b: Buffer = Buffer.alloc(0);

  /** Whether `bytes` lie at `at` (without moving). */
  at(at: number, bytes: Buffer): boolean {
    if (at < 0 || at + bytes.length > this.b.length) return false;
    for (let k = 0; k < bytes.length; k++) if (this.b[at + k] !== bytes[k]) return false;
    return true;
  }

  /** Moves past `bytes` if they come next. */
  take(bytes: Buffer): boolean {
    if (!this.at(this.i, bytes)) return false;
    this.i += bytes.length;
    return true;
  }

  /** Moves past `[A-Z][A-Z0-9_]*` and returns where it ends, or -1 (not moved). */
  word(): number {
    const from = this.i;
    const first = this.b[from] as number;
    if (!(first >= 0x41 && first <= 0x5a)) return -1;
    let k = from + 1;
    while (k < this.b.length && isWordByte(this.b[k] as number)) k++;
    this.i = k;
    return k;
  }

  /** 1 to 15 decimal digits (exact in a double), or -1 (16+ digits are left to the general path's exact check). */
  digits(): number {
    let k = this.i;
    let value = 0;
    while (k < this.b.length) {
      const c = this.b[k] as number;
      if (c < 0x30 || c > 0x39) break;
      value = value * 10 + (c - 0x30);
      k++;
    }
    if (k === this.i || k - this.i > 15) return -1;
    this.i = k;
    return value;
  }
}

/** A module key and its device, as fastRecord finds them again and again: built once per distinct spelling. */
interface CachedKey {
  /** attr bytes, 0xff, device digits, 0xff, module bytes (empty module: CACHED). */
  spelling: Buffer;
  key: string;
  device: string | null;
}

/**
 * Keys by the bytes that spell them, so that the few hundred keys of a log are decoded and joined once, not once per
 * record, and the Map lookups in the builder hash a string they have seen (V8 caches a string's hash).
 */
class KeyCache {
  private readonly byHash = new Map<number, CachedKey[]>();
  private size = 0;

  /** Attribute b[a,q), device digits b[d,deviceTo) (empty: none), module b[moduleFrom,moduleTo) (moduleFrom -1: CACHED). */
  keyOf(b: Buffer, a: number, q: number, d: number, deviceTo: number, moduleFrom: number, moduleTo: number): CachedKey {
    let h = 0x811c9dc5;
    for (let k = a; k < q; k++) h = Math.imul(h ^ (b[k] as number), 0x01000193);
    h = Math.imul(h ^ 0xff, 0x01000193);
    for (let k = d; k < deviceTo; k++) h = Math.imul(h ^ (b[k] as number), 0x01000193);
    h = Math.imul(h ^ 0xff, 0x01000193);
    for (let k = moduleFrom; k < moduleTo; k++) h = Math.imul(h ^ (b[k] as number), 0x01000193);
    const bucket = this.byHash.get(h);
    if (bucket !== undefined) {
      for (const c of bucket) if (spells(c.spelling, b, a, q, d, deviceTo, moduleFrom, moduleTo)) return c;
    }
    const attr = b.toString('latin1', a, q);
    const device = d < deviceTo ? `dev${Number(b.toString('latin1', d, deviceTo))}` : null;
    const module = moduleFrom < 0 ? 'CACHED' : b.toString('latin1', moduleFrom, moduleTo);
    const entry: CachedKey = {
      spelling: Buffer.concat([
        b.subarray(a, q),
        FF,
        b.subarray(d, deviceTo),
        FF,
        moduleFrom < 0 ? EMPTY : b.subarray(moduleFrom, moduleTo),
      ]),
      key: device === null ? `${attr}/${module}` : `${attr}/${device}/${module}`,
      device,
    };
    // Bounded: a log of garbage keys must not grow this without end; the cache is only a shortcut.
    if (this.size >= 4096) {
      this.byHash.clear();
      this.size = 0;
    }
    this.byHash.set(h, [...(bucket ?? []), entry]);
    this.size++;
    return entry;
  }
}

const FF = Buffer.from([0xff]);
const EMPTY = Buffer.alloc(0);

function spells(
  s: Buffer,
  b: Buffer,
  a: number,
  q: number,
  d: number,
  deviceTo: number,
  moduleFrom: number,
  moduleTo: number,
): boolean {
  const moduleLength = moduleFrom < 0 ? 0 : moduleTo - moduleFrom;
  if (s.length !== q - a + 1 + (deviceTo - d) + 1 + moduleLength) return false;
  let i = 0;
  for (let k = a; k < q; k++) if (s[i++] !== b[k]) return false;
  if (s[i++] !== 0xff) return false;
  for (let k = d; k < deviceTo; k++) if (s[i++] !== b[k]) return false;
  if (s[i++] !== 0xff) return false;
  for (let k = moduleFrom; k < moduleTo; k++) if (s[i++] !== b[k]) return false;
  return true;
}

/** Shared by all scanners of a thread: keys repeat across the files of one run. */
const keyCache = new KeyCache();

/** Newlines in buf[from, to). */
export function countNewlines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = from < to ? buf.indexOf(NL, from) : -1; i !== -1 && i < to; i = buf.indexOf(NL, i + 1)) n++;
  return n;
}

/** The start of a record for a message: one line, bounded, whitespace collapsed, UTF-8 decoded again. */
function excerpt(text: string, from: number, chars = 120): string {
  const s = Buffer.from(text.slice(from, from + chars), 'latin1')
    .toString('utf8')
    .replace(/\s+/g, ' ')
    .trim();
  return from + chars < text.length ? `${s}…` : s;
}

/** A device number as every parser names it (`03` → `dev3`), or null when it is too long to be one. */
function deviceOf(digits: string): string | null {
  return digits.replace(/^0+(?=\d)/, '').length > 9 ? null : deviceName(digits);
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

export interface PlogReadOptions {
  /** Bytes per read; tests use tiny values to cross every chunk boundary. */
  chunkBytes?: number;
}

/**
 * Streams one plog file through the scanner with bounded memory (two chunk buffers plus the scanner's window).
 *
 * Synchronous reads into two alternating buffers, not createReadStream: on a 1 GiB corpus they were ~1.7x faster,
 * because the needle passes then run on bytes this core has just copied and still holds in cache. Two buffers suffice
 * because the scanner keeps a view of the last pushed chunk only. The event loop gets a turn every few chunks.
 */
export async function parsePlogFile(
  file: InputFile,
  into: SnapshotBuilder,
  options: PlogReadOptions = {},
): Promise<void> {
  const chunkBytes = Math.max(1, options.chunkBytes ?? CHUNK_BYTES);
  if (isCompressed(file.path)) return parseGzipPlog(file, into, chunkBytes);
  const fd = openSync(file.path, 'r');
  const buffers = takeReadBuffers(chunkBytes);
  try {
    into.files++;
    // Counted from where the last count stopped: one-off line numbers further on cost one pass over the file in all.
    let countedTo = 0;
    let newlines = 0;
    const scanner = new PlogScanner(file.name, into, (offset) => {
      if (offset < countedTo) countedTo = newlines = 0;
      newlines += countFileNewlines(fd, countedTo, offset);
      countedTo = offset;
      return newlines;
    });
    let position = 0;
    for (let n = 0; ; n++) {
      const buffer = buffers[n % 2] as Buffer;
      const read = readSync(fd, buffer, READ_OFFSET, chunkBytes, position);
      if (read === 0) break;
      position += read;
      scanner.push(buffer.subarray(READ_OFFSET, READ_OFFSET + read));
      if (n % CHUNKS_PER_YIELD === CHUNKS_PER_YIELD - 1) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    scanner.end();
  } finally {
    closeSync(fd);
    spareReadBuffers = buffers;
  }
}

/** Inflated bytes a compressed plog keeps for line numbers: more than the scanner's window can hold (a long line, a junction, a record). */
const GZIP_KEPT_BYTES = MAX_LINE_BYTES + 2 * JUNCTION_BYTES + MAX_RECORD_BYTES;

/**
 * A `.gz` plog: its inflated bytes through the same scanner, in chunks of the usual size. Its bytes cannot be read again
 * for a line number, so each chunk's start and newlines before it are noted as it passes (two numbers a chunk), and the
 * bytes of the last GZIP_KEPT_BYTES are kept to count within.
 */
async function parseGzipPlog(file: InputFile, into: SnapshotBuilder, chunkBytes: number): Promise<void> {
  into.files++;
  const chunks: { start: number; before: number; bytes: Buffer | null }[] = [];
  let total = 0;
  let newlines = 0;
  let firstKept = 0;
  const scanner = new PlogScanner(file.name, into, (offset) => {
    // The last chunk that starts at or before the offset.
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((chunks[mid] as { start: number }).start <= offset) lo = mid;
      else hi = mid - 1;
    }
    const chunk = chunks[lo];
    if (chunk === undefined || offset === chunk.start) return chunk?.before ?? 0;
    // The scanner asks within its window only, which the kept bytes cover: this would be a bug, not bad input.
    if (chunk.bytes === null)
      throw new Error(`${file.name}: line number asked for byte ${offset}, before the inflated bytes kept`);
    return chunk.before + countNewlines(chunk.bytes, 0, offset - chunk.start);
  });
  let n = 0;
  for await (const chunk of gunzipChunks(file.path, file.name, chunkBytes)) {
    chunks.push({ start: total, before: newlines, bytes: chunk });
    total += chunk.length;
    newlines += countNewlines(chunk, 0, chunk.length);
    while (firstKept < chunks.length - 1) {
      const old = chunks[firstKept] as { start: number; bytes: Buffer | null };
      if (old.start + (old.bytes?.length ?? 0) >= total - GZIP_KEPT_BYTES) break;
      old.bytes = null;
      firstKept++;
    }
    scanner.push(chunk);
    if (++n % CHUNKS_PER_YIELD === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  scanner.end();
}

/**
 * Read buffers are reused from one file to the next: fresh ones per file would be garbage that only a full GC returns
 * (64 files = 128 MiB of external memory, RSS growing with the file count). A call that runs while another one holds
 * the spare pair (concurrent parses in one thread) gets its own.
 */
let spareReadBuffers: Buffer[] | null = null;

function takeReadBuffers(chunkBytes: number): Buffer[] {
  const spare = spareReadBuffers;
  spareReadBuffers = null;
  if (spare !== null && (spare[0] as Buffer).length === READ_OFFSET + chunkBytes) return spare;
  return [Buffer.allocUnsafe(READ_OFFSET + chunkBytes), Buffer.allocUnsafe(READ_OFFSET + chunkBytes)];
}

/** Newlines in a file's bytes [from, to): read again only when a record needs a line number for dropped bytes. */
function countFileNewlines(fd: number, from: number, to: number): number {
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, to - from)));
  let n = 0;
  for (let position = from; position < to;) {
    const read = readSync(fd, buffer, 0, Math.min(buffer.length, to - position), position);
    if (read === 0) break;
    n += countNewlines(buffer, 0, read);
    position += read;
  }
  return n;
}

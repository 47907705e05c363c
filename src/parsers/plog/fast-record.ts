// The plog fast path: the common one-line record read in place, byte by byte, in the driver's exact spelling.
//
// Its key comes from the key cache; anything else goes to the general path (record-text.ts), which reads it the same.
import { modules, type ModuleMetric } from '../../model/sections/index.js';
import { ByteCursor, isDigit, isWordByte } from './byte-cursor.js';
import { NL } from './grammar.js';
import { keyCache } from './key-cache.js';
import { RecordReader } from './record-text.js';

/** Reads the driver's exact spellings without decoding them; the scanner calls fastRecord on each "Bytes" hit. */
export class FastRecordReader extends RecordReader {
  private readonly cursor = new ByteCursor();
  private readonly keys = keyCache;
  /** A file offset that fastRecord found to start a record (the line after its record), or -1. */
  private knownStart = -1;
  /** Set by fastBody: where the record's head starts (an index into buf), and its module name's bytes (-1: none). */
  private fastHead = 0;
  private fastModuleFrom = -1;
  private fastModuleTo = -1;

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
  protected fastRecord(hit: number, complete: number, closed: boolean): number {
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
}

// The driver's exact spelling, for fastRecord.
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

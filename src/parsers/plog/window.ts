// The bytes a plog scanner keeps of a file: line starts and ends, record starts, wrapped records, line numbers.
import {
  ATTRIBUTE_START,
  CUT_PREFIX_TAGS,
  GREP_PREFIX,
  LEVEL_WORDS,
  MAX_GREP_PREFIX_BYTES,
  MAX_RECORD_BYTES,
  MAX_RECORD_LINES,
  NL,
} from './grammar.js';

/** Counts the newlines in the first `offset` bytes of the file being scanned (bytes the scanner already dropped). */
export type NewlinesBefore = (offset: number) => number;

/** The kept window of a file, addressed by file offsets; the reader classes built on it find records in it. */
export class RecordWindow {
  protected buf: Buffer = Buffer.alloc(0);
  /** File offset of buf[0]; always the start of a line. */
  protected bufStart = 0;
  /** Hits before this offset have been read. */
  protected scanFrom = 0;
  /** End of the last record read: a walk back to find where a record starts stops here. */
  protected floor = 0;

  /** Newlines before countedTo; counting starts with the first record that needs a line number. */
  private countedTo = 0;
  private newlinesCounted = 0;
  private counting = false;

  constructor(private readonly newlinesBefore: NewlinesBefore) {}

  /** Drops the bytes before `from` (a line start), counting their newlines first when line numbers are in use. */
  protected keep(from: number): void {
    if (this.counting && this.countedTo < from) {
      this.newlinesCounted += countNewlines(this.buf, this.countedTo - this.bufStart, from - this.bufStart);
      this.countedTo = from;
    }
    this.buf = this.buf.subarray(from - this.bufStart);
    this.bufStart = from;
    this.floor = Math.max(this.floor, from);
    this.scanFrom = Math.max(this.scanFrom, from);
  }

  /** Start of the line that holds `at` (never before the floor, which is itself a line start). */
  protected lineStartOf(at: number): number {
    if (at <= this.bufStart) return this.bufStart;
    const nl = this.buf.lastIndexOf(NL, at - 1 - this.bufStart);
    return Math.max(this.bufStart + nl + 1, this.floor);
  }

  /** Offset of the newline that ends the line holding `at` (< complete), or `complete` when the data ends first. */
  protected lineEndOf(at: number, complete: number): number {
    // No newline lies at or after `complete`: it is the end of the data or just after the last newline.
    const nl = this.buf.indexOf(NL, at - this.bufStart);
    return nl < 0 ? complete : this.bufStart + nl;
  }

  /**
   * Whether the line at `at` starts a record of its own (so it is no wrapped continuation): a `[LEVEL]` prefix, or
   * as pasted into reports, a level that lost its `[` (`ERROR]`, `ERR0R]`), a prefix cut at `[devmm]` or at the
   * attribute word, any of these behind a `grep -n` `<path>:<line>:` prefix.
   */
  protected startsRecord(at: number, complete: number): boolean {
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
  protected walkBack(hitLine: number, hitEnd: number): [number, number, boolean] {
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
  protected walkForward(start: number, lines: number, hitEnd: number, complete: number, closed: boolean): number {
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
   * Whether buf[i] starts a segment in the strict form `[LEVEL] Name(` (spaces only after `]`): a match of SEGMENT, so
   * the general path splits the line right there. `limit` is an index into buf.
   */
  protected segmentStartsAt(i: number, limit: number): boolean {
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
   * The 1-based physical line holding `at` (which is always inside the kept window). `persist`: go on counting the
   * newlines of bytes as they pass (a file with one bad record often has more); false for a one-off (a failure site),
   * so that one early line number does not make the scanner count every newline of the rest of the file.
   */
  protected lineAt(at: number, persist = true): number {
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

/** Newlines in buf[from, to). */
export function countNewlines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = from < to ? buf.indexOf(NL, from) : -1; i !== -1 && i < to; i = buf.indexOf(NL, i + 1)) n++;
  return n;
}

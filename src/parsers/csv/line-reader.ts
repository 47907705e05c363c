// Cuts decoded text, delivered in chunks cut anywhere, into whole lines for every CSV-like source (memory_compare, the
// profilers' CSVs, msMemScope dumps): the UTF-8 BOM, the line split across two chunks, CRLF, and the bound on a line.
//
// What a record is (one line, or several while a quoted field is open) stays the reader's: this class hands its
// scanner each chunk, flat, and keeps only what the scanner could not finish.

/** A CSV reader's side: it reads whole records out of text and says what it left. */
export interface RecordScanner {
  /** Reads every complete record of s from `from` on (every record, the last one unfinished too, when atEnd); returns the unread rest. */
  scan(s: string, from: number, atEnd: boolean): string;
  /** The error for an unfinished record over the limit (the scanner knows its line). */
  tooLong(pending: string): Error;
}

export interface LineReaderOptions {
  /** An unfinished record longer than this is an error (memory stays bounded on a file that is not text). */
  maxRecordChars: number;
  /** Drop a UTF-8 BOM at the start of the file (files written on Windows). Default true. */
  bom?: boolean;
}

export class CsvLineReader {
  private pending = '';
  private started = false;

  constructor(
    private readonly scanner: RecordScanner,
    private readonly options: LineReaderOptions,
  ) {}

  push(text: string): void {
    if (text.length === 0) return;
    if (!this.started) {
      this.started = true;
      if (this.options.bom !== false && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let from = 0;
    if (this.pending.length > 0) {
      // Finish the split line on its own, so the big chunk stays one flat string: V8 reads those fastest.
      const nl = text.indexOf('\n');
      if (nl === -1) {
        this.pending += text;
        this.checkPending();
        return;
      }
      const rest = this.scanner.scan(this.pending + text.slice(0, nl + 1), 0, false);
      if (rest.length > 0) {
        // Still inside a quoted record: rare, so joining the strings is fine.
        this.pending = this.scanner.scan(rest + text.slice(nl + 1), 0, false);
        this.checkPending();
        return;
      }
      from = nl + 1;
    }
    this.pending = this.scanner.scan(text, from, false);
    this.checkPending();
  }

  /** The end of the file: what is left is read as the last record. */
  end(): void {
    const rest = this.pending;
    this.pending = '';
    if (rest.length > 0) this.scanner.scan(rest, 0, true);
  }

  private checkPending(): void {
    if (this.pending.length > this.options.maxRecordChars) throw this.scanner.tooLong(this.pending);
  }
}

const CR = 13;

/** The end of the line that ends at `nl`, without the CR of a CRLF. */
export function trimCr(s: string, pos: number, nl: number): number {
  return nl > pos && s.charCodeAt(nl - 1) === CR ? nl - 1 : nl;
}

/** The index of `needle` in s from `from` on, or s.length when there is none. */
export function indexOrEnd(s: string, needle: string, from: number): number {
  const i = s.indexOf(needle, from);
  return i === -1 ? s.length : i;
}

/** Double quotes in s[from, to). */
export function countQuotes(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('"', from); i !== -1 && i < to; i = s.indexOf('"', i + 1)) n++;
  return n;
}

// Streams a CSV file as rows of cell boundaries, in bounded memory: LF, CRLF (mixed too), BOM, quoted fields via csv-parse.
//
// The profilers never quote (Python's csv.writer quotes only a field with a comma, quote or newline, and operator
// names have none), so a line without a double quote is split on commas in place, with no string per cell: that
// is how a 1 GiB memory_record.csv streams faster than Python's C csv reader counts it. A line with a quote is
// joined with the next lines until its quotes balance, then read by csv-parse.
import { EscapedUtf8Decoder, protectEscapedBytes, restoreEscapedBytes } from '../escaped-utf8.js';
import { streamText } from '../text-stream.js';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { ParseError } from '../../common/errors.js';
import { countQuotes, CsvLineReader, indexOrEnd, trimCr, type RecordScanner } from '../csv/line-reader.js';

/** At most this many cells are located per row; a longer row is reported with its true count. */
const MAX_CELLS = 32;
/** A record longer than this is not a profiler row; the cap keeps memory bounded on a binary file. */
const MAX_RECORD_CHARS = 1 << 20;

/** One row: cell k is s[starts[k], ends[k]); valid until the next row is delivered. */
export class Row {
  s = '';
  count = 0;
  /** 1-based line of the row's first physical line. */
  line = 0;
  readonly starts = new Int32Array(MAX_CELLS);
  readonly ends = new Int32Array(MAX_CELLS);

  /** Cell k as a string (for names and messages; number cells are read in place). */
  cell(k: number): string {
    return this.s.slice(this.starts[k], this.ends[k]);
  }

  /** Whether cell k is exactly `text`, without slicing. */
  cellIs(k: number, text: string): boolean {
    const from = this.starts[k] as number;
    return (this.ends[k] as number) - from === text.length && this.s.startsWith(text, from);
  }

  /** Splits s[from, to) on commas (no quotes in it). */
  split(s: string, from: number, to: number, line: number): void {
    this.s = s;
    this.line = line;
    let n = 0;
    let start = from;
    for (;;) {
      let comma = s.indexOf(',', start);
      if (comma === -1 || comma > to) comma = to;
      if (n < MAX_CELLS) {
        this.starts[n] = start;
        this.ends[n] = comma;
      }
      n++;
      if (comma === to) break;
      start = comma + 1;
    }
    this.count = n;
  }

  /** Takes cells already split (a quoted record). */
  fromCells(cells: readonly string[], line: number): void {
    this.s = cells.join('');
    this.line = line;
    let at = 0;
    for (let k = 0; k < cells.length && k < MAX_CELLS; k++) {
      this.starts[k] = at;
      at += (cells[k] as string).length;
      this.ends[k] = at;
    }
    this.count = cells.length;
  }
}

/** Receives every non-blank row in file order; throwing StopReading ends the file early. */
export type RowSink = (row: Row) => void;

/** Thrown by a sink that has seen enough (a damaged file): reading stops, nothing else happens. */
export class StopReading extends Error {}

/** Streams the file at `path` (shown as `name`) row by row. */
export async function readCsvRows(path: string, name: string, sink: RowSink): Promise<void> {
  const splitter = new RowSplitter(name, sink);
  try {
    // Bytes that are not UTF-8 stay apart (escaped-utf8.ts): `op\xC0` and `op\xFF` must not become one U+FFFD name.
    await streamText(
      path,
      (text) => splitter.push(text),
      () => new EscapedUtf8Decoder(),
      name,
    );
    splitter.end();
  } catch (err) {
    if (!(err instanceof StopReading)) throw err;
  }
}

/** The same over text in memory (tests, small inputs). */
export function readCsvText(text: string, name: string, sink: RowSink): void {
  readCsvChunks([text], name, sink);
}

/** The same over text already cut into chunks anywhere (how a stream delivers it). */
export function readCsvChunks(chunks: readonly string[], name: string, sink: RowSink): void {
  const splitter = new RowSplitter(name, sink);
  try {
    for (const chunk of chunks) splitter.push(chunk);
    splitter.end();
  } catch (err) {
    if (!(err instanceof StopReading)) throw err;
  }
}

/** Cuts decoded text, in any slicing, into rows. */
class RowSplitter implements RecordScanner {
  private readonly lines: CsvLineReader = new CsvLineReader(this, { maxRecordChars: MAX_RECORD_CHARS });
  /** Physical lines consumed; the next line is consumedLines + 1. */
  private consumedLines = 0;
  private readonly row = new Row();

  constructor(
    private readonly file: string,
    private readonly sink: RowSink,
  ) {}

  push(text: string): void {
    this.lines.push(text);
  }

  end(): void {
    this.lines.end();
  }

  /** The error for an unfinished record over MAX_RECORD_CHARS (the line reader asks). */
  tooLong(): Error {
    return new ParseError(
      this.file,
      this.consumedLines + 1,
      `a record longer than ${MAX_RECORD_CHARS} characters (or a quote that never closes): not a profiler CSV?`,
    );
  }

  /** Delivers every complete row of s from `from` on; returns the unconsumed rest. */
  scan(s: string, from: number, atEnd: boolean): string {
    const len = s.length;
    let pos = from;
    let nextQuote = indexOrEnd(s, '"', from);
    while (pos < len) {
      let nl = s.indexOf('\n', pos);
      if (nl === -1) {
        if (!atEnd) break;
        nl = len;
      }
      const line = this.consumedLines + 1;
      if (nextQuote < pos) nextQuote = indexOrEnd(s, '"', pos);
      if (nextQuote < nl) {
        // Quotes balance at the end of a record: extend it line by line until they do.
        let quotes = countQuotes(s, pos, nl);
        let lines = 1;
        while (quotes % 2 === 1) {
          if (nl >= len) break;
          let next = s.indexOf('\n', nl + 1);
          if (next === -1) {
            if (!atEnd) return s.slice(pos);
            next = len;
          }
          quotes += countQuotes(s, nl + 1, next);
          lines++;
          nl = next;
        }
        this.quoted(s.slice(pos, trimCr(s, pos, nl)), line);
        this.consumedLines += lines;
      } else {
        const end = trimCr(s, pos, nl);
        this.consumedLines++;
        if (end > pos) {
          this.row.split(s, pos, end, line);
          this.sink(this.row);
        }
      }
      pos = nl + 1;
    }
    return pos >= len ? '' : s.slice(pos);
  }

  private quoted(text: string, line: number): void {
    let records: string[][];
    try {
      // csv-parse re-encodes text as UTF-8, which would turn an escaped byte into U+FFFD: protect them through it.
      records = parseCsv(protectEscapedBytes(text), {
        record_delimiter: ['\r\n', '\n'],
        bom: false,
        cast: false,
        relax_quotes: true,
        relax_column_count: true,
      });
    } catch (err) {
      if (err instanceof CsvError) {
        const reason =
          err.code === 'CSV_QUOTE_NOT_CLOSED'
            ? 'a quoted field is never closed'
            : `malformed quoted field (${err.code})`;
        throw new ParseError(this.file, line, reason);
      }
      throw err;
    }
    const cells = records[0];
    if (records.length !== 1 || cells === undefined)
      throw new ParseError(this.file, line, `malformed quoted record: ${records.length} records on one row`);
    this.row.fromCells(cells.map(restoreEscapedBytes), line);
    this.sink(this.row);
  }
}

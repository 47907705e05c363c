// Reads msLeaks/msMemScope memory_compare CSVs (all three header generations) into per-kernel diff sums, streaming.
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { InputError, ParseError } from '../common/errors.js';
import { StringTable } from '../common/string-table.js';
import { kernels as kernelsSection } from '../model/sections/index.js';
import { deviceName } from '../model/sections/keys.js';
import type { SkippedRecord, SnapshotBuilder } from '../model/snapshot.js';
import type { InputFile } from '../sources/types.js';
import { parseExactInteger } from '../model/units.js';
import {
  decodeEscaped,
  EscapedUtf8Decoder,
  protectEscapedBytes,
  restoreEscapedBytes,
  visibleName,
} from './escaped-utf8.js';
import { streamText } from './text-stream.js';
import { CsvLineReader, indexOrEnd, trimCr, type RecordScanner } from './csv/line-reader.js';

/** One shape of the two header rows; columns are addressed by position because two of them share a name. */
interface HeaderGeneration {
  label: string;
  row1: string;
  row2: string;
  /** The current shape starts every row with an Event column. */
  hasEvent: boolean;
}

const GENERATIONS: readonly HeaderGeneration[] = [
  {
    label: 'current, Aug 2025 on',
    row1: ',,,Base,Compare',
    row2: 'Event,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)',
    hasEvent: true,
  },
  {
    label: 'Mar-Jul 2025',
    row1: ',,Base,Compare',
    row2: 'Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)',
    hasEvent: false,
  },
  {
    label: 'Feb 2025, stepintercompare_<ts>.csv',
    row1: ',,Base,Compare',
    row2: 'Name,Device Id,Allocated Memory,Allocated Memory,Diff Memory',
    hasEvent: false,
  },
];

/** A line (or a quoted record) longer than this is not a memory_compare row; the cap keeps memory bounded. */
const MAX_RECORD_CHARS = 1 << 20;
const DQUOTE = 34;
const CR = 13;
const COMMA = 44;
const MINUS = 45;
/**
 * For rows with quotes. The row's own line ending is already cut off, so any newline left is inside quotes.
 * A quote inside an unquoted field is kept literally: the tool never escapes names, so `a"b` is a name.
 */
const CSV_OPTIONS = { record_delimiter: '\n', bom: false, cast: false, columns: false, relax_quotes: true } as const;
/** An Event end position meaning "this header generation has no Event column". */
const NO_EVENT = -1;
/** The events memory_compare rows carry; a row with another one is skipped. */
const EVENTS: readonly string[] = ['KERNEL_LAUNCH', 'OP_LAUNCH'];
/** Skipped rows kept per file for warnings; the rest are only counted. */
const MAX_SKIPPED_KEPT = 1000;

/** The running aggregate of one `dev<D>/<Name>` within one file. */
interface KernelTally {
  diff: number;
  rows: number;
  added: number;
  removed: number;
  event: string | null;
  /** The line of the row whose event labels this kernel. */
  line: number;
}

/**
 * One device's kernels by name, in order of first appearance. A row's name is looked up where it lies in the chunk,
 * by a hash of its characters (hashOf) and a comparison in place: no string is cut per row, as a Map lookup needs.
 */
class KernelTable {
  readonly names: string[] = [];
  readonly tallies: KernelTally[] = [];
  private readonly table = new StringTable();

  /** The tally of the name s[from, to) whose hashOf is `hash`, or undefined. */
  find(s: string, from: number, to: number, hash: number): KernelTally | undefined {
    const entry = this.table.indexOf(s, from, to, hash);
    return entry === -1 ? undefined : this.tallies[entry];
  }

  /** Adds a name that find() did not hold. */
  add(name: string, hash: number, tally: KernelTally): void {
    this.table.add(name, 0, name.length, hash);
    this.names.push(name);
    this.tallies.push(tally);
  }
}

/** Whether s[from, to) holds a CR (outside quotes, csv-parse decides what it means). */
function holdsCr(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === CR) return true;
  return false;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a (32 bits) over the UTF-16 code units of s[from, to); plainRow computes the same while it finds the Name's end. */
function hashOf(s: string, from: number, to: number): number {
  let h = FNV_OFFSET;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/**
 * Streams one memory_compare CSV and folds it into a snapshot.
 * The file is read as physical lines, so every error names the line where its record starts.
 */
export async function parseMemoryCompareFile(file: InputFile, into: SnapshotBuilder): Promise<void> {
  const reader = new MemoryCompareReader(file.name);
  // Bytes that are not UTF-8 are kept apart (escaped), never merged into U+FFFD.
  await streamText(
    file.path,
    (text) => reader.push(text),
    () => new EscapedUtf8Decoder(),
    file.name,
  );
  reader.finish(into);
}

/** The same parser over text already in memory (tests, small inputs). */
export function parseMemoryCompareText(name: string, text: string | Buffer, into: SnapshotBuilder): void {
  const reader = new MemoryCompareReader(name);
  reader.push(typeof text === 'string' ? text : decodeEscaped(text));
  reader.finish(into);
}

/**
 * The parser core: fed decoded text in any slicing, it validates the two header rows itself and
 * aggregates data rows. Rows without a double quote (everything the tool writes) are split on commas
 * directly, which is exact under RFC 4180; rows with a quote go to csv-parse, one call per chunk.
 */
class MemoryCompareReader implements RecordScanner {
  private readonly lines: CsvLineReader = new CsvLineReader(this, { maxRecordChars: MAX_RECORD_CHARS });
  /** Physical lines fully consumed so far; the next line is `consumedLines + 1`. */
  private consumedLines = 0;
  private headerRow1: string | null = null;
  private generation: HeaderGeneration | null = null;
  private width = 0;
  private rows = 0;
  /** Where the cell read by scanInteger ends: its comma, or the row's end. */
  private cellTo = 0;
  /** Rows with a double quote, held back for one csv-parse call per chunk, and their first lines. */
  private quotedTexts: string[] = [];
  private quotedLines: number[] = [];
  /** Device Id → name → tally, in order of first appearance. */
  private readonly byDeviceId = new Map<number, KernelTable>();
  /** The device of the previous row and its kernels. */
  private lastDeviceId = -1;
  private lastKernels: KernelTable | null = null;
  /** Inconsistent rows: the first MAX_SKIPPED_KEPT for warnings, and how many in all. */
  private readonly skippedKept: SkippedRecord[] = [];
  private skippedRows = 0;

  constructor(private readonly file: string) {}

  /** Hands this reader whole lines (and quoted records) from text cut anywhere. */
  push(text: string): void {
    this.lines.push(text);
  }

  /** The error for an unfinished record over MAX_RECORD_CHARS (the line reader asks). */
  tooLong(pending: string): Error {
    const why = pending.includes('"') ? 'a quoted field that never closes, or ' : '';
    return new ParseError(
      this.file,
      this.consumedLines + 1,
      `${why}a record longer than ${MAX_RECORD_CHARS} characters: not a memory_compare CSV?`,
    );
  }

  finish(into: SnapshotBuilder): void {
    this.lines.end();
    if (this.consumedLines === 0) {
      throw new ParseError(this.file, 1, 'empty file: expected the two memory_compare header rows');
    }
    if (this.generation === null) {
      throw new ParseError(this.file, 2, `header row 2 is missing: expected ${this.expectedRow2()}`);
    }
    for (const [id, kernels] of this.byDeviceId) {
      const device = deviceName(id) as string;
      into.noteDevice(device);
      for (let k = 0; k < kernels.names.length; k++) {
        const name = kernels.names[k] as string;
        const t = kernels.tallies[k] as KernelTally;
        into.add(kernelsSection, `${device}/${visibleName(name)}`, {
          diff: t.diff,
          rows: t.rows,
          added: t.added,
          removed: t.removed,
          event: t.event,
        });
      }
    }
    for (const record of this.skippedKept) into.addSkipped(record);
    into.skipped += this.skippedRows - this.skippedKept.length;
    into.files += 1;
    into.records += this.rows;
  }

  /** Consumes every complete line (or quoted record) of `s` from `from` on and returns the unconsumed rest. */
  scan(s: string, from: number, atEnd: boolean): string {
    let rest: string;
    try {
      rest = this.scanRecords(s, from, atEnd);
    } catch (err) {
      // Held-back quoted rows all precede the failing row, so an error among them is the one to report.
      this.flushQuoted();
      throw err;
    }
    this.flushQuoted();
    return rest;
  }

  private scanRecords(s: string, from: number, atEnd: boolean): string {
    const len = s.length;
    let pos = from;
    // The next double quote: searched once per chunk, not per line, because the tool never writes one.
    let nextQuote = indexOrEnd(s, '"', from);
    while (pos < len) {
      let nl = s.indexOf('\n', pos);
      if (nl === -1) {
        if (!atEnd) break;
        nl = len;
      }
      const line = this.consumedLines + 1;
      if (nextQuote < pos) nextQuote = indexOrEnd(s, '"', pos);
      if (
        this.generation !== null &&
        nextQuote < nl &&
        this.quotedNameRow(s, pos, nextQuote, trimCr(s, pos, nl), line)
      ) {
        // The common quoted row, read in place: only its Name is quoted.
        this.consumedLines++;
      } else if (this.generation !== null && nextQuote < nl) {
        // A quoted field may hold newlines: extend the record until no quoted field is open.
        let open = endsInsideQuotes(s, pos, nl, false);
        let lines = 1;
        while (open && nl < len) {
          let next = s.indexOf('\n', nl + 1);
          if (next === -1) {
            if (!atEnd) return s.slice(pos);
            next = len;
          }
          open = endsInsideQuotes(s, nl + 1, next, true);
          lines++;
          nl = next;
        }
        const text = s.slice(pos, trimCr(s, pos, nl));
        const fields = splitQuotedRecord(text);
        if (fields !== null) {
          this.quotedFields(fields, line);
        } else {
          // One csv-parse call per record costs ~15 us in setup alone: hold such rows back and parse them together.
          this.quotedTexts.push(text);
          this.quotedLines.push(line);
        }
        this.consumedLines += lines;
      } else {
        const end = trimCr(s, pos, nl);
        if (this.generation === null) this.headerLine(s.slice(pos, end), line);
        else if (end > pos) this.plainRow(s, pos, end, line);
        // else: a blank line carries no row; csv readers commonly skip it, so do we.
        this.consumedLines++;
      }
      pos = nl + 1;
    }
    return pos >= len ? '' : s.slice(pos);
  }

  private headerLine(text: string, line: number): void {
    // Header labels are compared without case: the tool's docs spell "(Byte)" where the writer prints "(byte)".
    const lower = text.toLowerCase();
    if (this.headerRow1 === null) {
      if (!GENERATIONS.some((g) => g.row1.toLowerCase() === lower)) {
        const expected = unique(GENERATIONS.map((g) => quote(g.row1))).join(' or ');
        throw new ParseError(
          this.file,
          line,
          `header row 1 does not match any known memory_compare header: expected ${expected}, got ${quote(text)}`,
        );
      }
      this.headerRow1 = lower;
      return;
    }
    const generation = GENERATIONS.find(
      (g) => g.row1.toLowerCase() === this.headerRow1 && g.row2.toLowerCase() === lower,
    );
    if (generation === undefined) {
      throw new ParseError(
        this.file,
        line,
        `header row 2 does not match any known memory_compare header: expected ${this.expectedRow2()}, got ${quote(text)}`,
      );
    }
    this.generation = generation;
    this.width = generation.hasEvent ? 6 : 5;
  }

  private expectedRow2(): string {
    return GENERATIONS.filter((g) => this.headerRow1 === null || g.row1.toLowerCase() === this.headerRow1)
      .map((g) => `${quote(g.row2)} (${g.label})`)
      .join(' or ');
  }

  /**
   * A row with no double quote: RFC 4180 makes it a plain comma split. Cells are read in place, unsliced;
   * the four number cells are parsed in the same pass that finds their commas.
   */
  private plainRow(s: string, pos: number, end: number, line: number): void {
    let eventTo = NO_EVENT;
    let nameFrom = pos;
    if (this.width === 6) {
      eventTo = s.indexOf(',', pos);
      if (eventTo === -1 || eventTo >= end) throw this.widthError(s, pos, end, line);
      nameFrom = eventTo + 1;
    }
    // The name's end and its hashOf in one pass.
    let hash = FNV_OFFSET;
    let nameTo = nameFrom;
    for (; nameTo < end; nameTo++) {
      const c = s.charCodeAt(nameTo);
      if (c === COMMA) break;
      hash = Math.imul(hash ^ c, FNV_PRIME);
    }
    if (nameTo >= end) throw this.widthError(s, pos, end, line);
    this.rowAfterName(s, pos, end, line, eventTo, s, nameFrom, nameTo, hash >>> 0, nameTo);
  }

  /**
   * A row whose only double quotes are those of its Name, quoted because the name holds a comma or a quote
   * (`KERNEL_LAUNCH,"Slice_""begin""",0,…`): the Name is unquoted here and the other cells are read in place, as
   * plainRow reads them. `quote` is the row's first double quote. Returns false, having read nothing, for
   * any other shape (a quote in another cell, text after the closing quote, a quote never closed on this line): the
   * general path reads those.
   */
  private quotedNameRow(s: string, pos: number, quote: number, end: number, line: number): boolean {
    let eventTo = NO_EVENT;
    let nameFrom = pos;
    if (this.width === 6) {
      eventTo = s.indexOf(',', pos);
      if (eventTo === -1 || eventTo >= quote) return false;
      nameFrom = eventTo + 1;
    }
    if (nameFrom !== quote || holdsCr(s, pos, quote)) return false;
    const field = quotedField(s, quote, end);
    if (field === null) return false;
    const { value: name, close } = field;
    if (close >= end || s.charCodeAt(close) !== COMMA) return false;
    const after = s.indexOf('"', close);
    if (after !== -1 && after < end) return false;
    if (holdsCr(s, close, end)) return false;
    this.rowAfterName(s, pos, end, line, eventTo, name, 0, name.length, hashOf(name, 0, name.length), close);
    return true;
  }

  /** The cells after the Name (whose comma is at `nameEnd`), read in place, and the row folded in. */
  private rowAfterName(
    s: string,
    pos: number,
    end: number,
    line: number,
    eventTo: number,
    nameText: string,
    nameFrom: number,
    nameTo: number,
    hash: number,
    nameEnd: number,
  ): void {
    const device = this.scanInteger(s, nameEnd + 1, end);
    const deviceTo = this.cellTo;
    if (deviceTo === end) throw this.widthAfterName(s, eventTo, nameEnd, end, line);
    const base = this.scanInteger(s, deviceTo + 1, end);
    const baseTo = this.cellTo;
    if (baseTo === end) throw this.widthAfterName(s, eventTo, nameEnd, end, line);
    const compare = this.scanInteger(s, baseTo + 1, end);
    const compareTo = this.cellTo;
    if (compareTo === end) throw this.widthAfterName(s, eventTo, nameEnd, end, line);
    const diff = this.scanInteger(s, compareTo + 1, end);
    if (this.cellTo !== end) throw this.widthAfterName(s, eventTo, nameEnd, end, line);
    this.addRow(
      s,
      pos,
      eventTo,
      nameText,
      nameFrom,
      nameTo,
      hash,
      device === device && s.charCodeAt(nameEnd + 1) !== MINUS
        ? this.kernelsOfId(device)
        : this.kernelsOf(s.slice(nameEnd + 1, deviceTo), line),
      base === base ? base : this.bytesOrMissing(s.slice(deviceTo + 1, baseTo), 'Base', line),
      compare === compare ? compare : this.bytesOrMissing(s.slice(baseTo + 1, compareTo), 'Compare', line),
      diff === diff ? diff : this.bytesOrMissing(s.slice(compareTo + 1, end), 'Diff Memory', line),
      line,
    );
  }

  /**
   * Reads the cell at `from` as a decimal integer of at most 15 digits, which a double always holds exactly,
   * and leaves the cell's end (its comma, or `end`) in `cellTo`. Anything else is NaN and takes the careful path.
   */
  private scanInteger(s: string, from: number, end: number): number {
    let i = from;
    const negative = i < end && s.charCodeAt(i) === MINUS;
    if (negative) i++;
    const digitsFrom = i;
    let value = 0;
    for (; i < end; i++) {
      const digit = s.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (i < end && s.charCodeAt(i) !== COMMA) {
      const comma = s.indexOf(',', i);
      this.cellTo = comma === -1 || comma >= end ? end : comma;
      return NaN;
    }
    this.cellTo = i;
    if (i === digitsFrom || i - digitsFrom > 15) return NaN;
    return negative ? -value : value;
  }

  /** Parses the held-back quoted rows in one csv-parse call; if that fails, row by row to name the bad one. */
  private flushQuoted(): void {
    const texts = this.quotedTexts;
    if (texts.length === 0) return;
    const lines = this.quotedLines;
    this.quotedTexts = [];
    this.quotedLines = [];
    let records: string[][] | null = null;
    try {
      // Each text is one whole record whose own newlines are inside quotes, so '\n' separates them again.
      records = parseCsv(protectEscapedBytes(texts.join('\n')), CSV_OPTIONS);
    } catch (err) {
      if (!(err instanceof CsvError)) throw err;
    }
    if (records === null || records.length !== texts.length) {
      for (let i = 0; i < texts.length; i++) this.quotedRecord(texts[i] as string, lines[i] as number);
      return;
    }
    for (let i = 0; i < records.length; i++)
      this.quotedFields((records[i] as string[]).map(restoreEscapedBytes), lines[i] as number);
  }

  /** One record with quotes, possibly over several lines: csv-parse reads it. */
  private quotedRecord(text: string, line: number): void {
    let records: string[][];
    try {
      records = parseCsv(protectEscapedBytes(text), CSV_OPTIONS);
    } catch (err) {
      if (err instanceof CsvError) {
        const unclosed = err.code === 'CSV_QUOTE_NOT_CLOSED';
        const at = !unclosed && typeof err.lines === 'number' ? line + err.lines - 1 : line;
        const reason = unclosed ? 'a quoted field is never closed' : `malformed quoted field (${err.code})`;
        throw new ParseError(this.file, at, reason);
      }
      throw err;
    }
    const record = records[0];
    if (records.length !== 1 || record === undefined) {
      throw new ParseError(this.file, line, `malformed quoted record: read ${records.length} records from one row`);
    }
    this.quotedFields(record.map(restoreEscapedBytes), line);
  }

  private quotedFields(record: string[], line: number): void {
    if (record.length !== this.width) throw this.widthMismatch(line, record.length);
    const o = this.width - 5;
    const cell = (k: number): string => record[o + k] as string;
    const event = o === 1 ? (record[0] as string) : '';
    const name = cell(0);
    this.addRow(
      event,
      0,
      o === 1 ? event.length : NO_EVENT,
      name,
      0,
      name.length,
      hashOf(name, 0, name.length),
      this.kernelsOf(cell(1), line),
      this.bytesOrMissing(cell(2), 'Base', line),
      this.bytesOrMissing(cell(3), 'Compare', line),
      this.bytesOrMissing(cell(4), 'Diff Memory', line),
      line,
    );
  }

  /**
   * Folds one row in. The Event cell is s[eventFrom, eventTo), sliced only for a new kernel (NO_EVENT: no
   * such column); the Name is nameText[nameFrom, nameTo) with `hash` its hashOf, also sliced only for a new kernel;
   * null bytes mean N/A (the kernel did not run on that side, which counts as 0).
   */
  private addRow(
    s: string,
    eventFrom: number,
    eventTo: number,
    nameText: string,
    nameFrom: number,
    nameTo: number,
    hash: number,
    kernels: KernelTable,
    base: number | null,
    compare: number | null,
    diff: number | null,
    line: number,
  ): void {
    if (nameFrom === nameTo) throw new ParseError(this.file, line, 'empty Name: every row must name its kernel');
    // Rows the tool cannot have written are skipped, each with a warning: a wrong number is worse than a missing one.
    if (eventTo !== NO_EVENT && !isKnownEvent(s, eventFrom, eventTo)) {
      return this.skipRow(
        line,
        `unknown Event ${quote(s.slice(eventFrom, eventTo))}: expected KERNEL_LAUNCH or OP_LAUNCH`,
      );
    }
    if ((base !== null && base < 0) || (compare !== null && compare < 0)) {
      const [column, value] = base !== null && base < 0 ? ['Base', base] : ['Compare', compare];
      return this.skipRow(line, `negative ${column} ${value}: a byte count cannot be negative`);
    }
    // The writer always prints Compare − Base (a missing side counts as 0); N/A only when both sides are missing.
    const expected = (compare ?? 0) - (base ?? 0);
    if (diff === null ? base !== null || compare !== null : diff !== expected) {
      const shown = (v: number | null): string => (v === null ? 'N/A' : String(v));
      return this.skipRow(
        line,
        `Diff Memory ${shown(diff)} is not Compare − Base (${shown(compare)} − ${shown(base)} = ${expected})`,
      );
    }
    let tally = kernels.find(nameText, nameFrom, nameTo, hash);
    if (tally === undefined) {
      const event = eventTo === NO_EVENT ? null : ownCopy(s.slice(eventFrom, eventTo));
      tally = { diff: 0, rows: 0, added: 0, removed: 0, event, line };
      kernels.add(ownCopy(nameText.slice(nameFrom, nameTo)), hash, tally);
    } else if (line < tally.line) {
      // The earliest row's event labels the kernel; held-back quoted rows arrive after later plain rows.
      tally.event = eventTo === NO_EVENT ? null : ownCopy(s.slice(eventFrom, eventTo));
      tally.line = line;
    }
    const sum = tally.diff + (diff ?? 0);
    if (!Number.isSafeInteger(sum)) {
      throw new ParseError(
        this.file,
        line,
        `the sum of Diff Memory for ${quote(nameText.slice(nameFrom, nameTo))} leaves the exact range of 2^53 - 1 bytes`,
      );
    }
    tally.diff = sum;
    tally.rows++;
    // Base N/A: the launch exists only in the compare run; Compare N/A: only in the base run.
    if (base === null) tally.added++;
    if (compare === null) tally.removed++;
    this.rows++;
  }

  private skipRow(line: number, reason: string): void {
    this.skippedRows++;
    if (this.skippedKept.length < MAX_SKIPPED_KEPT)
      this.skippedKept.push({ file: this.file, line, reason: `inconsistent row skipped: ${reason}` });
  }

  /** The kernels of the device in a Device Id cell: a plain integer, so `0` and `00` are one device. */
  private kernelsOf(cell: string, line: number): KernelTable {
    const id = /^\d{1,15}$/.test(cell) ? Number(cell) : NaN;
    if (id !== id)
      throw new ParseError(this.file, line, `unknown Device Id ${quote(cell)}: expected a plain integer such as 0`);
    return this.kernelsOfId(id);
  }

  private kernelsOfId(id: number): KernelTable {
    // Rows come in long runs of one device: skip the map lookup then.
    if (id === this.lastDeviceId) return this.lastKernels as KernelTable;
    let kernels = this.byDeviceId.get(id);
    if (kernels === undefined) {
      kernels = new KernelTable();
      this.byDeviceId.set(id, kernels);
    }
    this.lastDeviceId = id;
    this.lastKernels = kernels;
    return kernels;
  }

  /** A byte count, or null for N/A. */
  private bytesOrMissing(cell: string, column: string, line: number): number | null {
    if (cell === 'N/A') return null;
    let value: number | null;
    try {
      value = parseExactInteger(cell, column);
    } catch (err) {
      if (err instanceof InputError) throw new ParseError(this.file, line, err.message);
      throw err;
    }
    if (value === null)
      throw new ParseError(this.file, line, `${column} is not an integer byte count or N/A: ${quote(cell)}`);
    return value;
  }

  /** A width error found after the Name: the cells up to the Name, then one per comma after it (a quoted Name may hold commas). */
  private widthAfterName(s: string, eventTo: number, nameEnd: number, rowEnd: number, line: number): ParseError {
    return this.widthMismatch(line, (eventTo === NO_EVENT ? 1 : 2) + countCommas(s, nameEnd, rowEnd));
  }

  private widthError(s: string, rowStart: number, rowEnd: number, line: number): ParseError {
    return this.widthMismatch(line, countCommas(s, rowStart, rowEnd) + 1);
  }

  private widthMismatch(line: number, cells: number): ParseError {
    const columns = this.generation?.hasEvent
      ? 'Event,Name,Device Id,Base,Compare,Diff'
      : 'Name,Device Id,Base,Compare,Diff';
    return new ParseError(this.file, line, `expected ${this.width} cells (${columns}), got ${cells}`);
  }
}

/**
 * The RFC 4180 fields of one record that holds a double quote (its own line ending cut off), for the common shapes:
 * quoted fields closed right before a comma or the end (`""` inside is a quote), unquoted fields (a quote inside is
 * literal, as with csv-parse's relax_quotes). Null for anything csv-parse must decide: text after a closing quote, a
 * quote never closed, a CR or LF outside quotes.
 */
export function splitQuotedRecord(text: string): string[] | null {
  const fields: string[] = [];
  const n = text.length;
  for (let i = 0; ;) {
    if (text.charCodeAt(i) === DQUOTE) {
      const field = quotedField(text, i, n);
      if (field === null) return null;
      i = field.close;
      fields.push(field.value);
      if (i === n) return fields;
      if (text.charCodeAt(i) !== COMMA) return null;
      i++;
    } else {
      const comma = text.indexOf(',', i);
      const end = comma === -1 ? n : comma;
      const cr = text.indexOf('\r', i);
      const lf = text.indexOf('\n', i);
      if ((cr !== -1 && cr < end) || (lf !== -1 && lf < end)) return null;
      fields.push(text.slice(i, end));
      if (comma === -1) return fields;
      i = comma + 1;
    }
  }
}

/**
 * The quoted field whose opening quote is s[open]: its value (`""` inside read as one quote) and the index after its
 * closing quote; null when it does not close before `end`.
 */
function quotedField(s: string, open: number, end: number): { value: string; close: number } | null {
  let value = '';
  for (let from = open + 1; ;) {
    const q = s.indexOf('"', from);
    if (q === -1 || q >= end) return null;
    if (q + 1 < end && s.charCodeAt(q + 1) === DQUOTE) {
      value += s.slice(from, q + 1);
      from = q + 2;
      continue;
    }
    return { value: value + s.slice(from, q), close: q + 1 };
  }
}

/** Whether s[from, to) is one of EVENTS, compared in place. */
function isKnownEvent(s: string, from: number, to: number): boolean {
  for (const event of EVENTS) if (to - from === event.length && s.startsWith(event, from)) return true;
  return false;
}

/**
 * Whether a quoted field is still open at `to`. A quote opens a field only at its start (a quote inside
 * an unquoted field is literal, as with csv-parse's relax_quotes and Python's csv); `""` inside is escaped.
 */
function endsInsideQuotes(s: string, from: number, to: number, inQuotes: boolean): boolean {
  let fieldStart = !inQuotes;
  for (let i = from; i < to; i++) {
    const ch = s.charCodeAt(i);
    if (inQuotes) {
      if (ch === DQUOTE) {
        if (i + 1 < to && s.charCodeAt(i + 1) === DQUOTE) i++;
        else inQuotes = false;
      }
    } else if (ch === DQUOTE && fieldStart) {
      inQuotes = true;
      fieldStart = false;
    } else {
      fieldStart = ch === COMMA;
    }
  }
  return inQuotes;
}

/** A fresh copy of text cut from a chunk: V8 slices share their parent, and a kept name must not pin 1 MiB. */
function ownCopy(text: string): string {
  return text.split('').join('');
}

function countCommas(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf(',', from); i !== -1 && i < to; i = s.indexOf(',', i + 1)) n++;
  return n;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Quotes text from the file for a message, cut short so a binary file cannot flood the log. */
function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

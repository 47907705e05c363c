// Streams an msMemScope event dump (memscope_dump_*.csv / leaks_dump_*.csv, header generations G3–G5) row by row.
//
// Rows are split the way the tool writes them: Attr and MSTX names are wrapped in double quotes that are never
// escaped, so a field starting with `"` runs to the next `"`; a MSTX message that itself holds a quote is recovered
// by looking for the closing quote that is followed by a timestamp. Malformed rows become warnings with file:line.
import { EscapedUtf8Decoder } from '../escaped-utf8.js';
import { streamText } from '../text-stream.js';
import { CsvLineReader, type RecordScanner } from '../csv/line-reader.js';
import { InputError, ParseError } from '../../common/errors.js';

/** Which header the file carries (§1.1 of the format spec). */
type DumpGeneration = 'G3' | 'G4' | 'G5';

/** One data row. The object is reused for every row: copy what you keep. */
export interface DumpRow {
  /** 1-based physical line. */
  line: number;
  id: string;
  event: string;
  eventType: string;
  name: string;
  timestamp: string;
  pid: string;
  tid: string;
  device: string;
  ptr: string;
  attr: string;
  callStackPython: string;
  callStackC: string;
  /** Fields msMemScope's own reader would see on this line (it rejects the whole file unless 12); 0 unless counted. */
  toolFieldCount: number;
}

export interface DumpWarning {
  file: string;
  line: number;
  reason: string;
  /** The file's last row, without its line end, could not be read: the file was cut off there. */
  cut?: true;
}

export interface DumpHeader {
  generation: DumpGeneration;
  /** The header's timestamp unit; the values may disagree (see `DumpReader.timestampUnit`). */
  headerUnit: 'us' | 'ns';
  columns: number;
}

const BASE_COLUMNS = 'ID,Event,Event Type,Name,Timestamp(%),Process Id,Thread Id,Device Id,Ptr,Attr';
const CALL_STACKS = ['Call Stack(Python)', 'Call Stack(C)'];

/** Older header families: named with their generation and the msMemScope/msLeaks versions that wrote them. */
const UNSUPPORTED: readonly { test: (header: string) => boolean; message: string }[] = [
  {
    test: (h) => h.startsWith('Record Index,Timestamp(us),Event,Event Type'),
    message: 'generation G2 (msLeaks, 2025-02-24 to 2025-05-05: "Record Index,Timestamp(us),Event,Event Type,...")',
  },
  {
    test: (h) => h.startsWith('type,name,processID,threadID'),
    message: 'generation G1 (msLeaks, 2025-01-21 to 2025-02-23: "type,name,processID,...")',
  },
  {
    test: (h) => /^(aclItfRecord|kernelLaunch|torch_npu|malloc|free|mstx)\b/.test(h),
    message: 'generation G0 (msLeaks prototype, before 2025-01-21: rows without a header)',
  },
];

/** Recognises the header line; throws a ParseError naming the generation for G0–G2 and anything else. */
function readHeader(file: string, rawLine: string): DumpHeader {
  const header = rawLine
    .replace(/^\uFEFF/, '')
    .replace(/[\r\n]/g, '')
    .trim();
  for (const unit of ['us', 'ns'] as const) {
    const base = BASE_COLUMNS.replace('%', unit);
    for (let extra = 0; extra <= 2; extra++) {
      if (header === [base, ...CALL_STACKS.slice(0, extra)].join(',')) {
        const generation: DumpGeneration = unit === 'us' ? 'G3' : extra === 2 ? 'G5' : 'G4';
        return { generation, headerUnit: unit, columns: 10 + extra };
      }
    }
  }
  for (const old of UNSUPPORTED) {
    if (old.test(header)) {
      throw new ParseError(
        file,
        1,
        `an msLeaks dump of ${old.message} is not supported; dumps from msMemScope 2025-05-06 on (header "ID,Event,Event Type,Name,Timestamp(...),...") are`,
      );
    }
  }
  throw new ParseError(
    file,
    1,
    `not an msMemScope event dump: the first line should be "${BASE_COLUMNS.replace('%', 'ns')},Call Stack(Python),Call Stack(C)"`,
  );
}

/** Timestamps below this are microseconds whatever the header says (10^17 ns is 1973; 10^17 µs is year 5138). */
const MICROSECONDS_BELOW = 1e17;
const MAX_LINE_CHARS = 16 << 20;

/**
 * The reader core: fed decoded text in any slicing, it checks the header and calls `onRow` for each data row.
 * Warnings (bad rows, unit mismatches) go to `onWarning`; the header is thrown on (nothing else can be read).
 */
export class DumpReader implements RecordScanner {
  header: DumpHeader | null = null;
  /** Decided from the first timestamp's magnitude: G3-era data under a G5 header is microseconds. */
  timestampUnit: 'us' | 'ns' | null = null;
  rows = 0;
  /** No BOM handling: msMemScope writes none, and its own reader would not skip one. */
  private readonly lines: CsvLineReader = new CsvLineReader(this, { maxRecordChars: MAX_LINE_CHARS, bom: false });
  private lineNo = 0;
  private readonly row: DumpRow = {
    line: 0,
    id: '',
    event: '',
    eventType: '',
    name: '',
    timestamp: '',
    pid: '',
    tid: '',
    device: '',
    ptr: '',
    attr: '',
    callStackPython: '',
    callStackC: '',
    toolFieldCount: 0,
  };

  private readonly splitter = new RowSplitter();

  /** `countToolFields`: also count the fields msMemScope's own reader would see (compare-dumps warns when not 12). */
  constructor(
    readonly file: string,
    private readonly onRow: (row: DumpRow) => void,
    private readonly onWarning: (warning: DumpWarning) => void,
    private readonly countToolFields = false,
  ) {}

  push(text: string): void {
    this.lines.push(text);
  }

  /** Reads the complete lines of s from `from` on, and at the end of the file the last one, newline or not. */
  scan(data: string, from: number, atEnd: boolean): string {
    for (;;) {
      const nl = data.indexOf('\n', from);
      if (nl === -1) break;
      this.line(data, from, nl);
      from = nl + 1;
    }
    if (atEnd && from < data.length) {
      // A last line without a newline is read (and reported if it was cut off).
      this.line(data, from, data.length, true);
      return '';
    }
    return from === 0 ? data : data.slice(from);
  }

  /** The error for a pending line over MAX_LINE_CHARS (the line reader asks). */
  tooLong(): Error {
    return new ParseError(
      this.file,
      this.lineNo + 1,
      `a line longer than ${MAX_LINE_CHARS} characters: not an msMemScope dump row`,
    );
  }

  /** Ends the file: a last line without a newline is read (and reported if it was cut off). */
  finish(): void {
    this.lines.end();
    if (this.header === null) throw new ParseError(this.file, 1, 'empty file: not an msMemScope event dump');
  }

  private warn(line: number, reason: string, cut = false): void {
    this.onWarning({ file: this.file, line, reason, ...(cut ? { cut: true as const } : {}) });
  }

  private line(data: string, from: number, to: number, last = false): void {
    const lineNo = ++this.lineNo;
    if (to > from && data.charCodeAt(to - 1) === 13) to--;
    if (this.header === null) {
      this.header = readHeader(this.file, data.slice(from, to));
      return;
    }
    if (to === from) {
      this.warn(lineNo, 'blank line (skipped; msMemScope itself rejects the whole file here)');
      return;
    }
    const row = this.row;
    row.line = lineNo;
    if (this.countToolFields) row.toolFieldCount = toolFieldCount(data, from, to);
    const reason = this.splitter.split(data, from, to, row, this.header.columns);
    if (reason !== null) {
      this.warn(
        lineNo,
        last ? `truncated last row: ${reason} (skipped; the file may have been cut off)` : `${reason} (skipped)`,
        last,
      );
      return;
    }
    if (this.timestampUnit === null) this.decideUnit(row);
    this.rows++;
    this.onRow(row);
  }

  private decideUnit(row: DumpRow): void {
    if (!/^\d+$/.test(row.timestamp)) return;
    const value = Number(row.timestamp);
    this.timestampUnit = value < MICROSECONDS_BELOW ? 'us' : 'ns';
    const header = this.header as DumpHeader;
    if (this.timestampUnit !== header.headerUnit) {
      this.warn(
        row.line,
        `timestamps are ${this.timestampUnit === 'us' ? 'microseconds' : 'nanoseconds'} (${row.timestamp}) under a Timestamp(${header.headerUnit}) header: read as ${this.timestampUnit === 'us' ? 'µs' : 'ns'}`,
      );
    }
  }
}

const QUOTE = 34;
const COMMA = 44;

/** Splits lines into a DumpRow: one instance reused for every line (no closures or arrays per row). */
class RowSplitter {
  private data = '';
  private pos = 0;
  private to = 0;

  /** Splits one line into `row`; returns why it cannot be a row, or null. */
  split(data: string, from: number, to: number, row: DumpRow, columns: number): string | null {
    this.data = data;
    this.pos = from;
    this.to = to;
    const id = this.next();
    const event = this.next();
    const eventType = this.next();
    if (id === null || event === null || eventType === null)
      return `${fieldsSeen(data, from, to)} field(s) where a row has ${columns}`;
    row.id = id;
    row.event = event;
    row.eventType = eventType;
    // Name: MSTX messages are quoted without escaping; the closing quote is the one followed by ",<timestamp>,".
    if (this.pos <= to && data.charCodeAt(this.pos) === QUOTE) {
      const re = /",(\d+|N\/A|),/g;
      re.lastIndex = this.pos + 1;
      const m = re.exec(data);
      if (m === null || m.index >= to) return 'a quoted Name with no closing quote';
      row.name = data.slice(this.pos + 1, m.index);
      this.pos = m.index + 2;
    } else {
      const name = this.next();
      if (name === null) return 'a row cut off after Event Type';
      row.name = name;
    }
    const timestamp = this.next();
    const pid = this.next();
    const tid = this.next();
    const device = this.next();
    const ptr = this.next();
    if (timestamp === null || pid === null || tid === null || device === null || ptr === null)
      return 'a row cut off before Attr';
    row.timestamp = timestamp;
    row.pid = pid;
    row.tid = tid;
    row.device = device;
    row.ptr = ptr;
    const attr = this.pos > to ? null : this.quoted();
    if (attr === null) return 'an Attr field with no closing quote';
    if (attr.length > 0 && (attr.charCodeAt(0) !== 123 || attr.charCodeAt(attr.length - 1) !== 125))
      return `an Attr that is not {…}: ${clip(attr)}`;
    row.attr = attr;
    if (this.pos <= to) {
      const py = this.quoted();
      const c = this.pos > to ? '' : data.charCodeAt(this.pos) === QUOTE ? this.quoted() : data.slice(this.pos, to);
      if (py === null || c === null) return 'a call-stack field with no closing quote';
      row.callStackPython = py;
      row.callStackC = c;
    } else {
      row.callStackPython = '';
      row.callStackC = '';
    }
    return null;
  }

  private next(): string | null {
    const { data, to } = this;
    const c = this.pos;
    if (c > to) return null;
    const comma = data.indexOf(',', c);
    const end = comma === -1 || comma > to ? to : comma;
    this.pos = end + 1;
    return data.slice(c, end);
  }

  private quoted(): string | null {
    const { data, to } = this;
    if (data.charCodeAt(this.pos) !== QUOTE) return this.next();
    const close = data.indexOf('"', this.pos + 1);
    if (close === -1 || close >= to) return null;
    const value = data.slice(this.pos + 1, close);
    this.pos = close + 1;
    if (this.pos < to && data.charCodeAt(this.pos) !== COMMA) return null;
    this.pos++;
    return value;
  }
}

function fieldsSeen(data: string, from: number, to: number): number {
  let n = 1;
  for (let i = data.indexOf(',', from); i !== -1 && i < to; i = data.indexOf(',', i + 1)) n++;
  return n;
}

/** msMemScope's ReadQuotedField loop over one line: the number of fields it produces. */
function toolFieldCount(data: string, from: number, to: number): number {
  let n = 0;
  let pos = from;
  for (;;) {
    n++;
    if (pos < to && data.charCodeAt(pos) === QUOTE) {
      const close = data.indexOf('"', pos + 1);
      if (close === -1 || close >= to) return n;
      pos = close + 1;
      if (pos >= to) return n;
      if (data.charCodeAt(pos) === COMMA) pos++;
      continue;
    }
    const comma = data.indexOf(',', pos);
    if (comma === -1 || comma >= to) return n;
    pos = comma + 1;
  }
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Streams a dump file through `reader`, decoding ASCII chunks as latin1 (3× faster) until a non-ASCII byte shows up;
 * bytes that are not UTF-8 stay apart (escaped-utf8.ts): `op\xC0` and `op\xFF` are two names, not one U+FFFD.
 */
export async function streamDump(path: string, reader: DumpReader): Promise<void> {
  try {
    await streamText(
      path,
      (text) => reader.push(text),
      () => new EscapedUtf8Decoder(),
      reader.file,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string') throw new InputError(`${reader.file}: cannot read the dump (${code})`);
    throw error;
  }
  reader.finish();
}

/**
 * The value of `key` in an Attr `{k:v,k:v}`, or null. A key matches only at a token start (after `{` or `,`), and a
 * value runs to the next `,`; for `inefficient_type` the unquoted comma list continues over tokens without a `:`.
 */
export function attrValue(attr: string, key: string): string | null {
  return attrValueOf(attr, `${key}:`);
}

/** attrValue with the `key:` needle built once by the caller (the hot path reads three keys per MALLOC). */
export function attrValueOf(attr: string, needle: string): string | null {
  let at = attr.indexOf(needle);
  while (at !== -1) {
    const before = at === 0 ? 123 : attr.charCodeAt(at - 1);
    if (before === 123 || before === COMMA) break;
    at = attr.indexOf(needle, at + 1);
  }
  if (at === -1) return null;
  const start = at + needle.length;
  let end = attr.indexOf(',', start);
  if (end === -1) end = attr.length - 1;
  // A token without ':' continues the previous value (the unquoted `inefficient_type:a,b` list).
  while (end < attr.length - 1 && attr.charCodeAt(end) === COMMA) {
    const nextComma = attr.indexOf(',', end + 1);
    const tokenEnd = nextComma === -1 ? attr.length - 1 : nextComma;
    if (attr.slice(end + 1, tokenEnd).includes(':')) break;
    end = tokenEnd;
  }
  return attr.slice(start, end);
}

import { p as parse, C as CsvError } from './sync.js';
import { P as ParseError, I as InputError } from './errors.js';
import { S as StringTable } from './string-table.js';
import { J as kernels, g as parseExactInteger } from './evidence-sources.js';
import { d as deviceName } from './keys.js';
import { s as streamText, E as EscapedUtf8Decoder, C as CsvLineReader, v as visibleName, i as indexOrEnd, t as trimCr, p as protectEscapedBytes, r as restoreEscapedBytes, d as decodeEscaped } from './line-reader.js';
import 'node:buffer';
import 'node:fs';
import 'node:string_decoder';
import './whole-text.js';
import './compressed.js';
import 'node:os';
import 'node:path';
import 'node:stream';
import 'node:stream/promises';
import 'node:zlib';

const GENERATIONS = [
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
const MAX_RECORD_CHARS = 1 << 20;
const DQUOTE = 34;
const CR = 13;
const COMMA = 44;
const MINUS = 45;
const CSV_OPTIONS = { record_delimiter: '\n', bom: false, cast: false, columns: false, relax_quotes: true };
const NO_EVENT = -1;
const EVENTS = ['KERNEL_LAUNCH', 'OP_LAUNCH'];
const MAX_SKIPPED_KEPT = 1000;
class KernelTable {
    names = [];
    tallies = [];
    table = new StringTable();
    find(s, from, to, hash) {
        const entry = this.table.indexOf(s, from, to, hash);
        return entry === -1 ? undefined : this.tallies[entry];
    }
    add(name, hash, tally) {
        this.table.add(name, 0, name.length, hash);
        this.names.push(name);
        this.tallies.push(tally);
    }
}
function holdsCr(s, from, to) {
    for (let i = from; i < to; i++)
        if (s.charCodeAt(i) === CR)
            return true;
    return false;
}
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
function hashOf(s, from, to) {
    let h = FNV_OFFSET;
    for (let i = from; i < to; i++)
        h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
    return h >>> 0;
}
async function parseMemoryCompareFile(file, into) {
    const reader = new MemoryCompareReader(file.name);
    await streamText(file.path, (text) => reader.push(text), () => new EscapedUtf8Decoder(), file.name);
    reader.finish(into);
}
function parseMemoryCompareText(name, text, into) {
    const reader = new MemoryCompareReader(name);
    reader.push(typeof text === 'string' ? text : decodeEscaped(text));
    reader.finish(into);
}
class MemoryCompareReader {
    file;
    lines = new CsvLineReader(this, { maxRecordChars: MAX_RECORD_CHARS });
    consumedLines = 0;
    headerRow1 = null;
    generation = null;
    width = 0;
    rows = 0;
    cellTo = 0;
    quotedTexts = [];
    quotedLines = [];
    byDeviceId = new Map();
    lastDeviceId = -1;
    lastKernels = null;
    skippedKept = [];
    skippedRows = 0;
    constructor(file) {
        this.file = file;
    }
    push(text) {
        this.lines.push(text);
    }
    tooLong(pending) {
        const why = pending.includes('"') ? 'a quoted field that never closes, or ' : '';
        return new ParseError(this.file, this.consumedLines + 1, `${why}a record longer than ${MAX_RECORD_CHARS} characters: not a memory_compare CSV?`);
    }
    finish(into) {
        this.lines.end();
        if (this.consumedLines === 0) {
            throw new ParseError(this.file, 1, 'empty file: expected the two memory_compare header rows');
        }
        if (this.generation === null) {
            throw new ParseError(this.file, 2, `header row 2 is missing: expected ${this.expectedRow2()}`);
        }
        for (const [id, kernels$1] of this.byDeviceId) {
            const device = deviceName(id);
            into.noteDevice(device);
            for (let k = 0; k < kernels$1.names.length; k++) {
                const name = kernels$1.names[k];
                const t = kernels$1.tallies[k];
                into.add(kernels, `${device}/${visibleName(name)}`, {
                    diff: t.diff,
                    rows: t.rows,
                    added: t.added,
                    removed: t.removed,
                    event: t.event,
                });
            }
        }
        for (const record of this.skippedKept)
            into.addSkipped(record);
        into.skipped += this.skippedRows - this.skippedKept.length;
        into.files += 1;
        into.records += this.rows;
    }
    scan(s, from, atEnd) {
        let rest;
        try {
            rest = this.scanRecords(s, from, atEnd);
        }
        catch (err) {
            this.flushQuoted();
            throw err;
        }
        this.flushQuoted();
        return rest;
    }
    scanRecords(s, from, atEnd) {
        const len = s.length;
        let pos = from;
        let nextQuote = indexOrEnd(s, '"', from);
        while (pos < len) {
            let nl = s.indexOf('\n', pos);
            if (nl === -1) {
                if (!atEnd)
                    break;
                nl = len;
            }
            const line = this.consumedLines + 1;
            if (nextQuote < pos)
                nextQuote = indexOrEnd(s, '"', pos);
            if (this.generation !== null &&
                nextQuote < nl &&
                this.quotedNameRow(s, pos, nextQuote, trimCr(s, pos, nl), line)) {
                this.consumedLines++;
            }
            else if (this.generation !== null && nextQuote < nl) {
                let open = endsInsideQuotes(s, pos, nl, false);
                let lines = 1;
                while (open && nl < len) {
                    let next = s.indexOf('\n', nl + 1);
                    if (next === -1) {
                        if (!atEnd)
                            return s.slice(pos);
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
                }
                else {
                    this.quotedTexts.push(text);
                    this.quotedLines.push(line);
                }
                this.consumedLines += lines;
            }
            else {
                const end = trimCr(s, pos, nl);
                if (this.generation === null)
                    this.headerLine(s.slice(pos, end), line);
                else if (end > pos)
                    this.plainRow(s, pos, end, line);
                this.consumedLines++;
            }
            pos = nl + 1;
        }
        return pos >= len ? '' : s.slice(pos);
    }
    headerLine(text, line) {
        const lower = text.toLowerCase();
        if (this.headerRow1 === null) {
            if (!GENERATIONS.some((g) => g.row1.toLowerCase() === lower)) {
                const expected = unique(GENERATIONS.map((g) => quote(g.row1))).join(' or ');
                throw new ParseError(this.file, line, `header row 1 does not match any known memory_compare header: expected ${expected}, got ${quote(text)}`);
            }
            this.headerRow1 = lower;
            return;
        }
        const generation = GENERATIONS.find((g) => g.row1.toLowerCase() === this.headerRow1 && g.row2.toLowerCase() === lower);
        if (generation === undefined) {
            throw new ParseError(this.file, line, `header row 2 does not match any known memory_compare header: expected ${this.expectedRow2()}, got ${quote(text)}`);
        }
        this.generation = generation;
        this.width = generation.hasEvent ? 6 : 5;
    }
    expectedRow2() {
        return GENERATIONS.filter((g) => this.headerRow1 === null || g.row1.toLowerCase() === this.headerRow1)
            .map((g) => `${quote(g.row2)} (${g.label})`)
            .join(' or ');
    }
    plainRow(s, pos, end, line) {
        let eventTo = NO_EVENT;
        let nameFrom = pos;
        if (this.width === 6) {
            eventTo = s.indexOf(',', pos);
            if (eventTo === -1 || eventTo >= end)
                throw this.widthError(s, pos, end, line);
            nameFrom = eventTo + 1;
        }
        let hash = FNV_OFFSET;
        let nameTo = nameFrom;
        for (; nameTo < end; nameTo++) {
            const c = s.charCodeAt(nameTo);
            if (c === COMMA)
                break;
            hash = Math.imul(hash ^ c, FNV_PRIME);
        }
        if (nameTo >= end)
            throw this.widthError(s, pos, end, line);
        this.rowAfterName(s, pos, end, line, eventTo, s, nameFrom, nameTo, hash >>> 0, nameTo);
    }
    quotedNameRow(s, pos, quote, end, line) {
        let eventTo = NO_EVENT;
        let nameFrom = pos;
        if (this.width === 6) {
            eventTo = s.indexOf(',', pos);
            if (eventTo === -1 || eventTo >= quote)
                return false;
            nameFrom = eventTo + 1;
        }
        if (nameFrom !== quote || holdsCr(s, pos, quote))
            return false;
        const field = quotedField(s, quote, end);
        if (field === null)
            return false;
        const { value: name, close } = field;
        if (close >= end || s.charCodeAt(close) !== COMMA)
            return false;
        const after = s.indexOf('"', close);
        if (after !== -1 && after < end)
            return false;
        if (holdsCr(s, close, end))
            return false;
        this.rowAfterName(s, pos, end, line, eventTo, name, 0, name.length, hashOf(name, 0, name.length), close);
        return true;
    }
    rowAfterName(s, pos, end, line, eventTo, nameText, nameFrom, nameTo, hash, nameEnd) {
        const device = this.scanInteger(s, nameEnd + 1, end);
        const deviceTo = this.cellTo;
        if (deviceTo === end)
            throw this.widthAfterName(s, eventTo, nameEnd, end, line);
        const base = this.scanInteger(s, deviceTo + 1, end);
        const baseTo = this.cellTo;
        if (baseTo === end)
            throw this.widthAfterName(s, eventTo, nameEnd, end, line);
        const compare = this.scanInteger(s, baseTo + 1, end);
        const compareTo = this.cellTo;
        if (compareTo === end)
            throw this.widthAfterName(s, eventTo, nameEnd, end, line);
        const diff = this.scanInteger(s, compareTo + 1, end);
        if (this.cellTo !== end)
            throw this.widthAfterName(s, eventTo, nameEnd, end, line);
        this.addRow(s, pos, eventTo, nameText, nameFrom, nameTo, hash, device === device && s.charCodeAt(nameEnd + 1) !== MINUS
            ? this.kernelsOfId(device)
            : this.kernelsOf(s.slice(nameEnd + 1, deviceTo), line), base === base ? base : this.bytesOrMissing(s.slice(deviceTo + 1, baseTo), 'Base', line), compare === compare ? compare : this.bytesOrMissing(s.slice(baseTo + 1, compareTo), 'Compare', line), diff === diff ? diff : this.bytesOrMissing(s.slice(compareTo + 1, end), 'Diff Memory', line), line);
    }
    scanInteger(s, from, end) {
        let i = from;
        const negative = i < end && s.charCodeAt(i) === MINUS;
        if (negative)
            i++;
        const digitsFrom = i;
        let value = 0;
        for (; i < end; i++) {
            const digit = s.charCodeAt(i) - 48;
            if (digit < 0 || digit > 9)
                break;
            value = value * 10 + digit;
        }
        if (i < end && s.charCodeAt(i) !== COMMA) {
            const comma = s.indexOf(',', i);
            this.cellTo = comma === -1 || comma >= end ? end : comma;
            return NaN;
        }
        this.cellTo = i;
        if (i === digitsFrom || i - digitsFrom > 15)
            return NaN;
        return negative ? -value : value;
    }
    flushQuoted() {
        const texts = this.quotedTexts;
        if (texts.length === 0)
            return;
        const lines = this.quotedLines;
        this.quotedTexts = [];
        this.quotedLines = [];
        let records = null;
        try {
            records = parse(protectEscapedBytes(texts.join('\n')), CSV_OPTIONS);
        }
        catch (err) {
            if (!(err instanceof CsvError))
                throw err;
        }
        if (records === null || records.length !== texts.length) {
            for (let i = 0; i < texts.length; i++)
                this.quotedRecord(texts[i], lines[i]);
            return;
        }
        for (let i = 0; i < records.length; i++)
            this.quotedFields(records[i].map(restoreEscapedBytes), lines[i]);
    }
    quotedRecord(text, line) {
        let records;
        try {
            records = parse(protectEscapedBytes(text), CSV_OPTIONS);
        }
        catch (err) {
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
    quotedFields(record, line) {
        if (record.length !== this.width)
            throw this.widthMismatch(line, record.length);
        const o = this.width - 5;
        const cell = (k) => record[o + k];
        const event = o === 1 ? record[0] : '';
        const name = cell(0);
        this.addRow(event, 0, o === 1 ? event.length : NO_EVENT, name, 0, name.length, hashOf(name, 0, name.length), this.kernelsOf(cell(1), line), this.bytesOrMissing(cell(2), 'Base', line), this.bytesOrMissing(cell(3), 'Compare', line), this.bytesOrMissing(cell(4), 'Diff Memory', line), line);
    }
    addRow(s, eventFrom, eventTo, nameText, nameFrom, nameTo, hash, kernels, base, compare, diff, line) {
        if (nameFrom === nameTo)
            throw new ParseError(this.file, line, 'empty Name: every row must name its kernel');
        if (eventTo !== NO_EVENT && !isKnownEvent(s, eventFrom, eventTo)) {
            return this.skipRow(line, `unknown Event ${quote(s.slice(eventFrom, eventTo))}: expected KERNEL_LAUNCH or OP_LAUNCH`);
        }
        if ((base !== null && base < 0) || (compare !== null && compare < 0)) {
            const [column, value] = base !== null && base < 0 ? ['Base', base] : ['Compare', compare];
            return this.skipRow(line, `negative ${column} ${value}: a byte count cannot be negative`);
        }
        const expected = (compare ?? 0) - (base ?? 0);
        if (diff === null ? base !== null || compare !== null : diff !== expected) {
            const shown = (v) => (v === null ? 'N/A' : String(v));
            return this.skipRow(line, `Diff Memory ${shown(diff)} is not Compare − Base (${shown(compare)} − ${shown(base)} = ${expected})`);
        }
        let tally = kernels.find(nameText, nameFrom, nameTo, hash);
        if (tally === undefined) {
            const event = eventTo === NO_EVENT ? null : ownCopy(s.slice(eventFrom, eventTo));
            tally = { diff: 0, rows: 0, added: 0, removed: 0, event, line };
            kernels.add(ownCopy(nameText.slice(nameFrom, nameTo)), hash, tally);
        }
        else if (line < tally.line) {
            tally.event = eventTo === NO_EVENT ? null : ownCopy(s.slice(eventFrom, eventTo));
            tally.line = line;
        }
        const sum = tally.diff + (diff ?? 0);
        if (!Number.isSafeInteger(sum)) {
            throw new ParseError(this.file, line, `the sum of Diff Memory for ${quote(nameText.slice(nameFrom, nameTo))} leaves the exact range of 2^53 - 1 bytes`);
        }
        tally.diff = sum;
        tally.rows++;
        if (base === null)
            tally.added++;
        if (compare === null)
            tally.removed++;
        this.rows++;
    }
    skipRow(line, reason) {
        this.skippedRows++;
        if (this.skippedKept.length < MAX_SKIPPED_KEPT)
            this.skippedKept.push({ file: this.file, line, reason: `inconsistent row skipped: ${reason}` });
    }
    kernelsOf(cell, line) {
        const id = /^\d{1,15}$/.test(cell) ? Number(cell) : NaN;
        if (id !== id)
            throw new ParseError(this.file, line, `unknown Device Id ${quote(cell)}: expected a plain integer such as 0`);
        return this.kernelsOfId(id);
    }
    kernelsOfId(id) {
        if (id === this.lastDeviceId)
            return this.lastKernels;
        let kernels = this.byDeviceId.get(id);
        if (kernels === undefined) {
            kernels = new KernelTable();
            this.byDeviceId.set(id, kernels);
        }
        this.lastDeviceId = id;
        this.lastKernels = kernels;
        return kernels;
    }
    bytesOrMissing(cell, column, line) {
        if (cell === 'N/A')
            return null;
        let value;
        try {
            value = parseExactInteger(cell, column);
        }
        catch (err) {
            if (err instanceof InputError)
                throw new ParseError(this.file, line, err.message);
            throw err;
        }
        if (value === null)
            throw new ParseError(this.file, line, `${column} is not an integer byte count or N/A: ${quote(cell)}`);
        return value;
    }
    widthAfterName(s, eventTo, nameEnd, rowEnd, line) {
        return this.widthMismatch(line, (eventTo === NO_EVENT ? 1 : 2) + countCommas(s, nameEnd, rowEnd));
    }
    widthError(s, rowStart, rowEnd, line) {
        return this.widthMismatch(line, countCommas(s, rowStart, rowEnd) + 1);
    }
    widthMismatch(line, cells) {
        const columns = this.generation?.hasEvent
            ? 'Event,Name,Device Id,Base,Compare,Diff'
            : 'Name,Device Id,Base,Compare,Diff';
        return new ParseError(this.file, line, `expected ${this.width} cells (${columns}), got ${cells}`);
    }
}
function splitQuotedRecord(text) {
    const fields = [];
    const n = text.length;
    for (let i = 0;;) {
        if (text.charCodeAt(i) === DQUOTE) {
            const field = quotedField(text, i, n);
            if (field === null)
                return null;
            i = field.close;
            fields.push(field.value);
            if (i === n)
                return fields;
            if (text.charCodeAt(i) !== COMMA)
                return null;
            i++;
        }
        else {
            const comma = text.indexOf(',', i);
            const end = comma === -1 ? n : comma;
            const cr = text.indexOf('\r', i);
            const lf = text.indexOf('\n', i);
            if ((cr !== -1 && cr < end) || (lf !== -1 && lf < end))
                return null;
            fields.push(text.slice(i, end));
            if (comma === -1)
                return fields;
            i = comma + 1;
        }
    }
}
function quotedField(s, open, end) {
    let value = '';
    for (let from = open + 1;;) {
        const q = s.indexOf('"', from);
        if (q === -1 || q >= end)
            return null;
        if (q + 1 < end && s.charCodeAt(q + 1) === DQUOTE) {
            value += s.slice(from, q + 1);
            from = q + 2;
            continue;
        }
        return { value: value + s.slice(from, q), close: q + 1 };
    }
}
function isKnownEvent(s, from, to) {
    for (const event of EVENTS)
        if (to - from === event.length && s.startsWith(event, from))
            return true;
    return false;
}
function endsInsideQuotes(s, from, to, inQuotes) {
    let fieldStart = !inQuotes;
    for (let i = from; i < to; i++) {
        const ch = s.charCodeAt(i);
        if (inQuotes) {
            if (ch === DQUOTE) {
                if (i + 1 < to && s.charCodeAt(i + 1) === DQUOTE)
                    i++;
                else
                    inQuotes = false;
            }
        }
        else if (ch === DQUOTE && fieldStart) {
            inQuotes = true;
            fieldStart = false;
        }
        else {
            fieldStart = ch === COMMA;
        }
    }
    return inQuotes;
}
function ownCopy(text) {
    return text.split('').join('');
}
function countCommas(s, from, to) {
    let n = 0;
    for (let i = s.indexOf(',', from); i !== -1 && i < to; i = s.indexOf(',', i + 1))
        n++;
    return n;
}
function unique(values) {
    return [...new Set(values)];
}
function quote(text) {
    return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

export { parseMemoryCompareFile, parseMemoryCompareText, splitQuotedRecord };

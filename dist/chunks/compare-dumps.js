import { P as ParseError, I as InputError } from './errors.js';
import 'node:buffer';
import { C as CsvLineReader, s as streamText, E as EscapedUtf8Decoder } from './line-reader.js';
import { mkdtempSync, openSync, writeSync, closeSync, rmSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BASE_COLUMNS = 'ID,Event,Event Type,Name,Timestamp(%),Process Id,Thread Id,Device Id,Ptr,Attr';
const CALL_STACKS = ['Call Stack(Python)', 'Call Stack(C)'];
const UNSUPPORTED = [
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
function readHeader(file, rawLine) {
    const header = rawLine
        .replace(/^\uFEFF/, '')
        .replace(/[\r\n]/g, '')
        .trim();
    for (const unit of ['us', 'ns']) {
        const base = BASE_COLUMNS.replace('%', unit);
        for (let extra = 0; extra <= 2; extra++) {
            if (header === [base, ...CALL_STACKS.slice(0, extra)].join(',')) {
                const generation = unit === 'us' ? 'G3' : extra === 2 ? 'G5' : 'G4';
                return { generation, headerUnit: unit, columns: 10 + extra };
            }
        }
    }
    for (const old of UNSUPPORTED) {
        if (old.test(header)) {
            throw new ParseError(file, 1, `an msLeaks dump of ${old.message} is not supported; dumps from msMemScope 2025-05-06 on (header "ID,Event,Event Type,Name,Timestamp(...),...") are`);
        }
    }
    throw new ParseError(file, 1, `not an msMemScope event dump: the first line should be "${BASE_COLUMNS.replace('%', 'ns')},Call Stack(Python),Call Stack(C)"`);
}
const MICROSECONDS_BELOW = 1e17;
const MAX_LINE_CHARS = 16 << 20;
class DumpReader {
    file;
    onRow;
    onWarning;
    countToolFields;
    header = null;
    timestampUnit = null;
    rows = 0;
    lines = new CsvLineReader(this, { maxRecordChars: MAX_LINE_CHARS, bom: false });
    lineNo = 0;
    row = {
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
    splitter = new RowSplitter();
    constructor(file, onRow, onWarning, countToolFields = false) {
        this.file = file;
        this.onRow = onRow;
        this.onWarning = onWarning;
        this.countToolFields = countToolFields;
    }
    push(text) {
        this.lines.push(text);
    }
    scan(data, from, atEnd) {
        for (;;) {
            const nl = data.indexOf('\n', from);
            if (nl === -1)
                break;
            this.line(data, from, nl);
            from = nl + 1;
        }
        if (atEnd && from < data.length) {
            this.line(data, from, data.length, true);
            return '';
        }
        return from === 0 ? data : data.slice(from);
    }
    tooLong() {
        return new ParseError(this.file, this.lineNo + 1, `a line longer than ${MAX_LINE_CHARS} characters: not an msMemScope dump row`);
    }
    finish() {
        this.lines.end();
        if (this.header === null)
            throw new ParseError(this.file, 1, 'empty file: not an msMemScope event dump');
    }
    warn(line, reason, cut = false) {
        this.onWarning({ file: this.file, line, reason, ...(cut ? { cut: true } : {}) });
    }
    line(data, from, to, last = false) {
        const lineNo = ++this.lineNo;
        if (to > from && data.charCodeAt(to - 1) === 13)
            to--;
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
        if (this.countToolFields)
            row.toolFieldCount = toolFieldCount(data, from, to);
        const reason = this.splitter.split(data, from, to, row, this.header.columns);
        if (reason !== null) {
            this.warn(lineNo, last ? `truncated last row: ${reason} (skipped; the file may have been cut off)` : `${reason} (skipped)`, last);
            return;
        }
        if (this.timestampUnit === null)
            this.decideUnit(row);
        this.rows++;
        this.onRow(row);
    }
    decideUnit(row) {
        if (!/^\d+$/.test(row.timestamp))
            return;
        const value = Number(row.timestamp);
        this.timestampUnit = value < MICROSECONDS_BELOW ? 'us' : 'ns';
        const header = this.header;
        if (this.timestampUnit !== header.headerUnit) {
            this.warn(row.line, `timestamps are ${this.timestampUnit === 'us' ? 'microseconds' : 'nanoseconds'} (${row.timestamp}) under a Timestamp(${header.headerUnit}) header: read as ${this.timestampUnit === 'us' ? 'µs' : 'ns'}`);
        }
    }
}
const QUOTE = 34;
const COMMA = 44;
class RowSplitter {
    data = '';
    pos = 0;
    to = 0;
    split(data, from, to, row, columns) {
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
        if (this.pos <= to && data.charCodeAt(this.pos) === QUOTE) {
            const re = /",(\d+|N\/A|),/g;
            re.lastIndex = this.pos + 1;
            const m = re.exec(data);
            if (m === null || m.index >= to)
                return 'a quoted Name with no closing quote';
            row.name = data.slice(this.pos + 1, m.index);
            this.pos = m.index + 2;
        }
        else {
            const name = this.next();
            if (name === null)
                return 'a row cut off after Event Type';
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
        if (attr === null)
            return 'an Attr field with no closing quote';
        if (attr.length > 0 && (attr.charCodeAt(0) !== 123 || attr.charCodeAt(attr.length - 1) !== 125))
            return `an Attr that is not {…}: ${clip(attr)}`;
        row.attr = attr;
        if (this.pos <= to) {
            const py = this.quoted();
            const c = this.pos > to ? '' : data.charCodeAt(this.pos) === QUOTE ? this.quoted() : data.slice(this.pos, to);
            if (py === null || c === null)
                return 'a call-stack field with no closing quote';
            row.callStackPython = py;
            row.callStackC = c;
        }
        else {
            row.callStackPython = '';
            row.callStackC = '';
        }
        return null;
    }
    next() {
        const { data, to } = this;
        const c = this.pos;
        if (c > to)
            return null;
        const comma = data.indexOf(',', c);
        const end = comma === -1 || comma > to ? to : comma;
        this.pos = end + 1;
        return data.slice(c, end);
    }
    quoted() {
        const { data, to } = this;
        if (data.charCodeAt(this.pos) !== QUOTE)
            return this.next();
        const close = data.indexOf('"', this.pos + 1);
        if (close === -1 || close >= to)
            return null;
        const value = data.slice(this.pos + 1, close);
        this.pos = close + 1;
        if (this.pos < to && data.charCodeAt(this.pos) !== COMMA)
            return null;
        this.pos++;
        return value;
    }
}
function fieldsSeen(data, from, to) {
    let n = 1;
    for (let i = data.indexOf(',', from); i !== -1 && i < to; i = data.indexOf(',', i + 1))
        n++;
    return n;
}
function toolFieldCount(data, from, to) {
    let n = 0;
    let pos = from;
    for (;;) {
        n++;
        if (pos < to && data.charCodeAt(pos) === QUOTE) {
            const close = data.indexOf('"', pos + 1);
            if (close === -1 || close >= to)
                return n;
            pos = close + 1;
            if (pos >= to)
                return n;
            if (data.charCodeAt(pos) === COMMA)
                pos++;
            continue;
        }
        const comma = data.indexOf(',', pos);
        if (comma === -1 || comma >= to)
            return n;
        pos = comma + 1;
    }
}
function clip(text) {
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
async function streamDump(path, reader) {
    try {
        await streamText(path, (text) => reader.push(text), () => new EscapedUtf8Decoder(), reader.file);
    }
    catch (error) {
        const code = error.code;
        if (typeof code === 'string')
            throw new InputError(`${reader.file}: cannot read the dump (${code})`);
        throw error;
    }
    reader.finish();
}
function attrValueOf(attr, needle) {
    let at = attr.indexOf(needle);
    while (at !== -1) {
        const before = at === 0 ? 123 : attr.charCodeAt(at - 1);
        if (before === 123 || before === COMMA)
            break;
        at = attr.indexOf(needle, at + 1);
    }
    if (at === -1)
        return null;
    const start = at + needle.length;
    let end = attr.indexOf(',', start);
    if (end === -1)
        end = attr.length - 1;
    while (end < attr.length - 1 && attr.charCodeAt(end) === COMMA) {
        const nextComma = attr.indexOf(',', end + 1);
        const tokenEnd = nextComma === -1 ? attr.length - 1 : nextComma;
        if (attr.slice(end + 1, tokenEnd).includes(':'))
            break;
        end = tokenEnd;
    }
    return attr.slice(start, end);
}

const FAST_BUCKETS = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];
const PRIMES = [
    17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113, 127, 137, 139, 149, 157,
    167, 179, 193, 199, 211, 227, 241, 257,
];
const MAX_KEYS = 257;
class StdUnorderedOrder {
    beforeBegin = { key: -1n, next: null };
    buckets = [null];
    nextResize = 0;
    keys = new Set();
    get size() {
        return this.keys.size;
    }
    insert(key) {
        if (this.keys.has(key))
            return;
        if (this.keys.size >= MAX_KEYS)
            throw new RangeError(`more than ${MAX_KEYS} devices`);
        const grow = this.needRehash(this.buckets.length, this.keys.size, 1);
        if (grow > 0)
            this.rehash(grow);
        this.keys.add(key);
        const node = { key, next: null };
        const bkt = this.bucketOf(key);
        const before = this.buckets[bkt];
        if (before) {
            node.next = before.next;
            before.next = node;
        }
        else {
            node.next = this.beforeBegin.next;
            this.beforeBegin.next = node;
            if (node.next)
                this.buckets[this.bucketOf(node.next.key)] = node;
            this.buckets[bkt] = this.beforeBegin;
        }
    }
    order() {
        const out = [];
        for (let n = this.beforeBegin.next; n; n = n.next)
            out.push(n.key);
        return out;
    }
    bucketOf(key) {
        return Number(key % BigInt(this.buckets.length));
    }
    needRehash(nBkt, nElt, nIns) {
        if (nElt + nIns <= this.nextResize)
            return 0;
        const minBkts = Math.max(nElt + nIns, this.nextResize ? 0 : 11);
        if (minBkts >= nBkt)
            return this.nextBucketCount(Math.max(Math.floor(minBkts) + 1, nBkt * 2));
        this.nextResize = nBkt;
        return 0;
    }
    nextBucketCount(n) {
        if (n < FAST_BUCKETS.length) {
            const b = FAST_BUCKETS[n];
            this.nextResize = b;
            return b;
        }
        const p = PRIMES.find((q) => q >= n);
        if (p === undefined)
            throw new RangeError(`more than ${MAX_KEYS} devices`);
        this.nextResize = p;
        return p;
    }
    rehash(count) {
        const buckets = new Array(count).fill(null);
        let p = this.beforeBegin.next;
        this.beforeBegin.next = null;
        this.buckets = buckets;
        let bbeginBkt = 0;
        while (p) {
            const next = p.next;
            const bkt = this.bucketOf(p.key);
            const before = buckets[bkt];
            if (!before) {
                p.next = this.beforeBegin.next;
                this.beforeBegin.next = p;
                buckets[bkt] = this.beforeBegin;
                if (p.next)
                    buckets[bbeginBkt] = p;
                bbeginBkt = bkt;
            }
            else {
                p.next = before.next;
                before.next = p;
            }
            p = next;
        }
    }
}

const CHUNK_EVENTS = 1 << 19;
const RECORD_BYTES = 64;
const READ_EVENTS = 4096;
class Chunk {
    capacity;
    tsHi;
    tsLo;
    kind;
    line;
    f0;
    f1;
    f2;
    u0;
    u1;
    u2;
    u3;
    count = 0;
    constructor(capacity) {
        this.capacity = capacity;
        this.tsHi = new Float64Array(capacity);
        this.tsLo = new Uint32Array(capacity);
        this.kind = new Uint8Array(capacity);
        this.line = new Float64Array(capacity);
        this.f0 = new Float64Array(capacity);
        this.f1 = new Float64Array(capacity);
        this.f2 = new Float64Array(capacity);
        this.u0 = new Uint32Array(capacity);
        this.u1 = new Uint32Array(capacity);
        this.u2 = new Uint32Array(capacity);
        this.u3 = new Uint32Array(capacity);
    }
    order() {
        const { tsHi, tsLo } = this;
        const index = new Array(this.count);
        let sorted = true;
        for (let i = 0; i < this.count; i++) {
            index[i] = i;
            if (i > 0 &&
                (tsHi[i] < tsHi[i - 1] ||
                    (tsHi[i] === tsHi[i - 1] && tsLo[i] < tsLo[i - 1])))
                sorted = false;
        }
        if (!sorted)
            index.sort((a, b) => tsHi[a] - tsHi[b] || tsLo[a] - tsLo[b] || a - b);
        return index;
    }
}
class EventSpool {
    chunkEvents;
    chunk;
    runs = [];
    dir = null;
    fd = null;
    written = 0;
    events = 0;
    constructor(chunkEvents = CHUNK_EVENTS) {
        this.chunkEvents = chunkEvents;
        this.chunk = new Chunk(Math.min(chunkEvents, 4096));
    }
    add(tsHi, tsLo, kind, line, f0, f1, f2, u0, u1, u2, u3) {
        let c = this.chunk;
        if (c.count === c.capacity)
            c = this.grow();
        const i = c.count++;
        c.tsHi[i] = tsHi;
        c.tsLo[i] = tsLo;
        c.kind[i] = kind;
        c.line[i] = line;
        c.f0[i] = f0;
        c.f1[i] = f1;
        c.f2[i] = f2;
        c.u0[i] = u0;
        c.u1[i] = u1;
        c.u2[i] = u2;
        c.u3[i] = u3;
        this.events++;
    }
    grow() {
        const c = this.chunk;
        if (c.capacity >= this.chunkEvents) {
            this.spill();
            return this.chunk;
        }
        const bigger = new Chunk(Math.min(c.capacity * 2, this.chunkEvents));
        bigger.tsHi.set(c.tsHi);
        bigger.tsLo.set(c.tsLo);
        bigger.kind.set(c.kind);
        bigger.line.set(c.line);
        bigger.f0.set(c.f0);
        bigger.f1.set(c.f1);
        bigger.f2.set(c.f2);
        bigger.u0.set(c.u0);
        bigger.u1.set(c.u1);
        bigger.u2.set(c.u2);
        bigger.u3.set(c.u3);
        bigger.count = c.count;
        this.chunk = bigger;
        return bigger;
    }
    spill() {
        const c = this.chunk;
        if (c.count === 0)
            return;
        if (this.fd === null) {
            this.dir = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'ascend-memory-gate-dump-'));
            this.fd = openSync(join(this.dir, 'runs.bin'), 'w+');
        }
        const order = c.order();
        const buffer = Buffer.allocUnsafeSlow(READ_EVENTS * RECORD_BYTES);
        const f = new Float64Array(buffer.buffer, buffer.byteOffset, READ_EVENTS * 8);
        const u = new Uint32Array(buffer.buffer, buffer.byteOffset, READ_EVENTS * 16);
        const run = { offset: this.written, count: c.count };
        for (let from = 0; from < order.length; from += READ_EVENTS) {
            const to = Math.min(order.length, from + READ_EVENTS);
            for (let k = from; k < to; k++) {
                const i = order[k];
                const d = (k - from) * 8;
                f[d] = c.tsHi[i];
                f[d + 1] = c.line[i];
                f[d + 2] = c.f0[i];
                f[d + 3] = c.f1[i];
                f[d + 4] = c.f2[i];
                const w = d * 2;
                u[w + 10] = c.tsLo[i];
                u[w + 11] = c.u0[i];
                u[w + 12] = c.u1[i];
                u[w + 13] = c.u2[i];
                u[w + 14] = c.u3[i];
                u[w + 15] = c.kind[i];
            }
            const bytes = (to - from) * RECORD_BYTES;
            let done = 0;
            while (done < bytes)
                done += writeSync(this.fd, buffer, done, bytes - done, this.written + done);
            this.written += bytes;
        }
        this.runs.push(run);
        c.count = 0;
    }
    seal() {
        if (this.runs.length === 0)
            return;
        this.spill();
        this.chunk = new Chunk(1);
    }
    replay(visit) {
        const event = { kind: 0, line: 0, f0: 0, f1: 0, f2: 0, u0: 0, u1: 0, u2: 0, u3: 0 };
        if (this.runs.length === 0) {
            const c = this.chunk;
            for (const i of c.order()) {
                event.kind = c.kind[i];
                event.line = c.line[i];
                event.f0 = c.f0[i];
                event.f1 = c.f1[i];
                event.f2 = c.f2[i];
                event.u0 = c.u0[i];
                event.u1 = c.u1[i];
                event.u2 = c.u2[i];
                event.u3 = c.u3[i];
                visit(event);
            }
            return;
        }
        this.seal();
        this.merge(visit, event);
    }
    merge(visit, event) {
        const fd = this.fd;
        const readers = this.runs.map((run, index) => new RunReader(fd, run, index));
        const heap = readers.filter((r) => r.next());
        const before = (a, b) => a.tsHi < b.tsHi || (a.tsHi === b.tsHi && (a.tsLo < b.tsLo || (a.tsLo === b.tsLo && a.index < b.index)));
        const siftDown = (from) => {
            let i = from;
            for (;;) {
                const l = 2 * i + 1;
                if (l >= heap.length)
                    return;
                const r = l + 1;
                const m = r < heap.length && before(heap[r], heap[l]) ? r : l;
                if (!before(heap[m], heap[i]))
                    return;
                const t = heap[i];
                heap[i] = heap[m];
                heap[m] = t;
                i = m;
            }
        };
        for (let i = (heap.length >> 1) - 1; i >= 0; i--)
            siftDown(i);
        while (heap.length > 0) {
            const top = heap[0];
            top.read(event);
            visit(event);
            if (!top.next()) {
                const last = heap.pop();
                if (heap.length === 0)
                    break;
                heap[0] = last;
            }
            siftDown(0);
        }
    }
    close() {
        if (this.fd !== null)
            closeSync(this.fd);
        this.fd = null;
        if (this.dir !== null)
            rmSync(this.dir, { recursive: true, force: true });
        this.dir = null;
    }
}
class RunReader {
    fd;
    run;
    index;
    buffer = Buffer.allocUnsafeSlow(READ_EVENTS * RECORD_BYTES);
    f = new Float64Array(this.buffer.buffer, this.buffer.byteOffset, READ_EVENTS * 8);
    u = new Uint32Array(this.buffer.buffer, this.buffer.byteOffset, READ_EVENTS * 16);
    loaded = 0;
    at = -1;
    consumed = 0;
    tsHi = 0;
    tsLo = 0;
    constructor(fd, run, index) {
        this.fd = fd;
        this.run = run;
        this.index = index;
    }
    next() {
        if (this.consumed === this.run.count)
            return false;
        this.at++;
        if (this.at >= this.loaded) {
            const events = Math.min(READ_EVENTS, this.run.count - this.consumed);
            const bytes = events * RECORD_BYTES;
            let done = 0;
            while (done < bytes) {
                const n = readSync(this.fd, this.buffer, done, bytes - done, this.run.offset + this.consumed * RECORD_BYTES + done);
                if (n === 0)
                    throw new Error('the temporary file of a dump replay was cut short');
                done += n;
            }
            this.loaded = events;
            this.at = 0;
        }
        this.consumed++;
        this.tsHi = this.f[this.at * 8];
        this.tsLo = this.u[this.at * 16 + 10];
        return true;
    }
    read(event) {
        const d = this.at * 8;
        const w = d * 2;
        const { f, u } = this;
        event.line = f[d + 1];
        event.f0 = f[d + 2];
        event.f1 = f[d + 3];
        event.f2 = f[d + 4];
        event.u0 = u[w + 11];
        event.u1 = u[w + 12];
        event.u2 = u[w + 13];
        event.u3 = u[w + 14];
        event.kind = u[w + 15];
    }
}

const COMPARE_HEADER = ',,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n';
const DEFAULT_MAX_EDITS = 10_000;
const UINT64_MAX = (1n << 64n) - 1n;
const INVALID_NAME_START = new Set(['=', '+', '-', '@']);
const LAUNCH = 0;
const POOL_PTA = 1;
const POOL_MINDSPORE = 2;
const POOL_EMPTY = 3;
function stoull0(text) {
    const m = /^[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
    if (m === null)
        return null;
    const digits = m[2];
    let value;
    if (/^0[xX]/.test(digits))
        value = BigInt(digits);
    else if (digits.length > 1 && digits[0] === '0')
        value = BigInt(`0o${digits.slice(1)}`);
    else
        value = BigInt(digits);
    if (value > UINT64_MAX)
        return null;
    return m[1] === '-' ? (UINT64_MAX + 1n - value) % (UINT64_MAX + 1n) : value;
}
function stollPrefix(text) {
    const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(text);
    if (m === null)
        return 0n;
    const v = BigInt(m[1]);
    if (v > (1n << 63n) - 1n || v < -(1n << 63n))
        return 0n;
    return v;
}
function toolAttrSize(attr) {
    let at = attr.indexOf('size');
    while (at !== -1 && (at + 4 >= attr.length || attr.charCodeAt(at + 4) !== 58))
        at = attr.indexOf('size', at + 1);
    if (at === -1)
        return '';
    const start = at + 5;
    let end = attr.indexOf(',', start);
    if (end === -1)
        end = attr.indexOf('}', start);
    return end === -1 ? '' : attr.slice(start, end);
}
const SAFE = {
    '\n': '\\n',
    '\f': '\\f',
    '\r': '\\r',
    '\b': '\\b',
    '\t': '\\t',
    '\v': '\\v',
    '\u007f': '\\u007F',
};
function toSafeString(text) {
    return /[\n\f\r\b\t\v\u007f]/.test(text) ? text.replace(/[\n\f\r\b\t\v\u007f]/g, (c) => SAFE[c]) : text;
}
function terminalSafe(csv) {
    return csv.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\udc80-\udcff]/g, (c) => {
        const code = c.charCodeAt(0);
        if (code >= 0xdc80)
            return `\\x${(code - 0xdc00).toString(16).toUpperCase()}`;
        return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    });
}
class Interner {
    strings = [];
    ids = new Map();
    id(text) {
        const found = this.ids.get(text);
        if (found !== undefined)
            return found;
        const copy = text.split('').join('');
        this.ids.set(copy, this.strings.length);
        this.strings.push(copy);
        return this.strings.length - 1;
    }
}
class SequenceBuilder {
    names;
    events;
    values;
    bigValues = new Map();
    length = 0;
    waiting = 0;
    constructor(launches) {
        this.names = new Int32Array(launches);
        this.events = new Int32Array(launches);
        this.values = new Float64Array(launches);
    }
    done() {
        return { names: this.names, events: this.events, values: this.values, bigValues: this.bigValues };
    }
}
class CompareSide {
    file;
    spool;
    deviceKeys = [];
    deviceIndex = new Map();
    order = new StdUnorderedOrder();
    deviceOfText = new Map();
    invalidName = new Map();
    bigSizes = [];
    launches = [];
    warnedToolFields = false;
    constructor(file, chunkEvents) {
        this.file = file;
        this.spool = new EventSpool(chunkEvents);
    }
}
function splitTimestamp(text) {
    if (/^(0|[1-9]\d{0,14})$/.test(text))
        return [Math.floor(Number(text) / 1e9), Number(text) % 1e9];
    if (/^[1-9]\d{15,18}$/.test(text))
        return [Number(text.slice(0, -9)), Number(text.slice(-9))];
    const v = stoull0(text) ?? UINT64_MAX;
    return [Number(v / 1000000000n), Number(v % 1000000000n)];
}
function readRow(side, state, row, warn) {
    if (row.toolFieldCount !== 12 && !side.warnedToolFields) {
        side.warnedToolFields = true;
        warn({
            file: side.file,
            line: row.line,
            reason: `msMemScope's reader sees ${row.toolFieldCount} fields here, not 12, and would reject the whole file; compared as the row was meant`,
        });
    }
    const type = row.eventType;
    if (type === 'PTA' || type === 'MINDSPORE') {
        if (state.framework === '') {
            state.framework = type;
            state.frameworkWhere = `${side.file}:${row.line}`;
        }
        else if (state.framework !== type) {
            throw new InputError(`${side.file}:${row.line}: a ${type} pool row after ${state.framework} rows (${state.frameworkWhere}): msMemScope compares dumps of one framework and rejects this file`);
        }
    }
    const dev = row.device;
    if (dev === '9999' || dev === 'host' || dev === 'N/A')
        return;
    let device = side.deviceOfText.get(dev);
    if (device === undefined) {
        const key = stoull0(dev);
        if (key === null)
            return;
        const name = key.toString();
        device = side.deviceIndex.get(name);
        if (device === undefined) {
            if (side.deviceKeys.length >= MAX_KEYS)
                throw new InputError(`${side.file}:${row.line}: more than ${MAX_KEYS} devices in one dump`);
            device = side.deviceKeys.length;
            side.deviceKeys.push(key);
            side.launches.push(0);
            side.deviceIndex.set(name, device);
            side.order.insert(key);
        }
        side.deviceOfText.set(dev.split('').join(''), device);
    }
    let kind;
    if (state.selected.has(type))
        kind = LAUNCH;
    else if (type === 'PTA')
        kind = POOL_PTA;
    else if (type === 'MINDSPORE')
        kind = POOL_MINDSPORE;
    else if (type === '')
        kind = POOL_EMPTY;
    else
        return;
    const [hi, lo] = splitTimestamp(row.timestamp);
    if (kind === LAUNCH) {
        const launchName = toSafeString(row.name);
        if (!side.invalidName.has(device) && INVALID_NAME_START.has(launchName.charAt(0)))
            side.invalidName.set(device, { line: row.line, name: launchName });
        side.launches[device] = side.launches[device] + 1;
        side.spool.add(hi, lo, kind, row.line, 0, 0, 0, device, state.names.id(launchName), state.events.id(toSafeString(row.event)), 0);
        return;
    }
    const sizeText = toolAttrSize(row.attr);
    const size = /^-?\d{1,15}$/.test(sizeText) ? Number(sizeText) : stollPrefix(toSafeString(sizeText));
    if (typeof size === 'number' || (size >= -(2n ** 52n) && size <= 2n ** 52n)) {
        side.spool.add(hi, lo, kind, row.line, Number(size), 0, 0, device, 0, 0, 0);
    }
    else {
        side.bigSizes.push(size);
        side.spool.add(hi, lo, kind, row.line, 0, 0, 0, device, 0, 0, side.bigSizes.length);
    }
}
function sequencesOf(side, framework) {
    const frameworkKind = framework === 'PTA' ? POOL_PTA : framework === 'MINDSPORE' ? POOL_MINDSPORE : POOL_EMPTY;
    const builders = side.launches.map((n) => new SequenceBuilder(n));
    side.spool.replay((e) => {
        const b = builders[e.u0];
        if (e.kind === LAUNCH) {
            b.names[b.length] = e.u1;
            b.events[b.length] = e.u2;
            b.length++;
            b.waiting++;
            return;
        }
        if (e.kind !== frameworkKind || b.waiting === 0)
            return;
        const big = e.u3 === 0 ? undefined : side.bigSizes[e.u3 - 1];
        for (let k = b.length - b.waiting; k < b.length; k++) {
            b.values[k] = e.f0;
            if (big !== undefined)
                b.bigValues.set(k, big);
        }
        b.waiting = 0;
    });
    return builders;
}
function sequenceOf(side, builders, dev, warn) {
    const empty = {
        names: new Int32Array(0),
        events: new Int32Array(0),
        values: new Float64Array(0),
        bigValues: new Map(),
    };
    const device = side.deviceIndex.get(dev);
    if (device === undefined)
        return empty;
    const invalid = side.invalidName.get(device);
    if (invalid !== undefined) {
        warn({
            file: side.file,
            line: invalid.line,
            reason: `a launch name starting with = + - or @ (${invalid.name}): msMemScope drops this device's launches`,
        });
        return empty;
    }
    return builders[device].done();
}
const CHECKPOINT_EVERY = 64;
class MyersTrace {
    a;
    b;
    checkpoints;
    d;
    k;
    blockStart = -1;
    block = [];
    n;
    m;
    constructor(a, b, checkpoints, d, k) {
        this.a = a;
        this.b = b;
        this.checkpoints = checkpoints;
        this.d = d;
        this.k = k;
        this.n = a.length;
        this.m = b.length;
    }
    round(d) {
        const start = d - (d % CHECKPOINT_EVERY);
        if (start !== this.blockStart) {
            const block = [this.checkpoints.get(start)];
            for (let r = start + 1; r < start + CHECKPOINT_EVERY && r <= this.d; r++)
                block.push(nextRound(this.a, this.b, block[block.length - 1], r).v);
            this.block = block;
            this.blockStart = start;
        }
        return this.block[d - start];
    }
}
function nextRound(a, b, prev, d) {
    const n = a.length;
    const m = b.length;
    const v = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
        let i;
        if (d === 0)
            i = 0;
        else if (k === -d || (k !== d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1]))
            i = prev[k + 1 + d - 1];
        else
            i = prev[k - 1 + d - 1] + 1;
        let j = i - k;
        while (i < n && j < m && a[i] === b[j]) {
            i++;
            j++;
        }
        v[k + d] = i;
        if (i >= n && j >= m)
            return { v, reached: k };
    }
    return { v, reached: null };
}
function myersPath(a, b, maxEdits) {
    const n = a.length;
    const m = b.length;
    if (n === 0 && m === 0)
        return null;
    const checkpoints = new Map();
    let prev = new Int32Array(0);
    for (let d = 0; d <= n + m; d++) {
        if (d > maxEdits)
            return null;
        const { v, reached } = nextRound(a, b, prev, d);
        if (d % CHECKPOINT_EVERY === 0)
            checkpoints.set(d, v);
        if (reached !== null)
            return new MyersTrace(a, b, checkpoints, d, reached);
        prev = v;
    }
    return null;
}
function alignment(trace) {
    if (trace === null)
        return { base: new Int32Array(0), current: new Int32Array(0) };
    const size = (trace.n + trace.m + trace.d) / 2;
    const base = new Int32Array(size);
    const current = new Int32Array(size);
    let at = size;
    let { d, k } = trace;
    let end = trace.round(d)[k + d];
    for (;;) {
        let start = 0;
        let prevK = 0;
        let down = false;
        let prev = null;
        if (d > 0) {
            prev = trace.round(d - 1);
            down = k === -d || (k !== d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1]);
            prevK = down ? k + 1 : k - 1;
            start = down ? prev[k + 1 + d - 1] : prev[k - 1 + d - 1] + 1;
        }
        for (let i = end - 1; i >= start; i--) {
            at--;
            base[at] = i;
            current[at] = i - k;
        }
        if (d === 0 || prev === null)
            break;
        at--;
        if (down) {
            base[at] = -1;
            current[at] = start - k - 1;
        }
        else {
            base[at] = start - 1;
            current[at] = -1;
        }
        end = prev[prevK + d - 1];
        k = prevK;
        d--;
    }
    if (at !== 0)
        throw new Error(`internal error: the diff's walk back found ${size - at} pairs, not ${size}`);
    return { base, current };
}
function subResult(a, b) {
    const d = a - b;
    return d > (1n << 63n) - 1n || d < -(1n << 63n) ? a : d;
}
async function compareDumpFiles(base, current, options = {}) {
    const warn = options.onWarning ?? (() => { });
    const state = newState(options.level ?? 'op');
    const sides = [];
    try {
        for (const f of [base, current]) {
            const side = new CompareSide(f.name, options.chunkEvents);
            sides.push(side);
            const reader = new DumpReader(f.name, (row) => readRow(side, state, row, warn), warn, true);
            await streamDump(f.path, reader);
            side.spool.seal();
        }
        const { rows, devices, pieces } = finishCompare(sides[0], sides[1], state, options);
        const kept = [];
        for (const piece of pieces) {
            if (options.sink === undefined)
                kept.push(piece);
            else
                await options.sink(piece);
        }
        return { csv: kept.join(''), rows, devices };
    }
    finally {
        for (const side of sides)
            side.spool.close();
    }
}
function newState(level) {
    const selected = new Set();
    if (level.includes('op'))
        selected.add('ATEN_END').add('ATB_END');
    if (level.includes('kernel'))
        selected.add('KERNEL_LAUNCH');
    return { framework: '', frameworkWhere: '', names: new Interner(), events: new Interner(), selected };
}
function finishCompare(base, current, state, options) {
    const warn = options.onWarning ?? (() => { });
    const maxEdits = options.maxEdits ?? DEFAULT_MAX_EDITS;
    for (const side of [base, current]) {
        if (side.deviceKeys.length === 0)
            throw new InputError(`${side.file}: no row with a device id: nothing to compare (msMemScope: "Memory comparison failed!")`);
    }
    if (state.framework === 'MINDSPORE' && state.selected.has('ATEN_END')) {
        throw new InputError(`${state.frameworkWhere}: a MindSpore dump cannot be compared at op level (msMemScope refuses it too); use --level kernel`);
    }
    const baseBuilders = sequencesOf(base, state.framework);
    const currentBuilders = sequencesOf(current, state.framework);
    const deviceSet = new StdUnorderedOrder();
    for (const side of [base, current])
        for (const key of side.order.order())
            deviceSet.insert(key);
    const results = new StdUnorderedOrder();
    const byDevice = new Map();
    for (const key of deviceSet.order()) {
        const dev = key.toString();
        const a = sequenceOf(base, baseBuilders, dev, warn);
        const b = sequenceOf(current, currentBuilders, dev, warn);
        if (a.names.length === 0 && b.names.length === 0)
            continue;
        const path = myersPath(a.names, b.names, maxEdits);
        if (path === null) {
            throw new InputError(`device ${dev}: the ${a.names.length} and ${b.names.length} launches differ by more than ${maxEdits} edits; refusing a diff that would run for too long (compare a shorter trace, or raise --max-edits)`);
        }
        const pairs = alignment(path);
        if (pairs.base.length > 0) {
            results.insert(key);
            byDevice.set(key, { a, b, pairs });
        }
    }
    if (byDevice.size === 0) {
        throw new InputError(`no ${[...state.selected].join('/')} launches on any device of ${base.file} or ${current.file}: nothing to compare (msMemScope writes no file either)`);
    }
    const devices = results.order().map((key) => key.toString());
    let rows = 0;
    for (const { pairs } of byDevice.values())
        rows += pairs.base.length;
    return { rows, devices, pieces: renderRows(results.order(), byDevice, state) };
}
function* renderRows(order, byDevice, state) {
    let piece = COMPARE_HEADER;
    const value = (seq, k) => seq.bigValues.get(k) ?? BigInt(seq.values[k]);
    for (const key of order) {
        const { a, b, pairs } = byDevice.get(key);
        const dev = key.toString();
        for (let r = 0; r < pairs.base.length; r++) {
            const i = pairs.base[r];
            const j = pairs.current[r];
            const nameId = j >= 0 ? b.names[j] : a.names[i];
            const eventId = j >= 0 ? b.events[j] : a.events[i];
            const va = i >= 0 ? a.values[i] : 0;
            const vb = j >= 0 ? b.values[j] : 0;
            let diff;
            if ((i >= 0 && a.bigValues.has(i)) || (j >= 0 && b.bigValues.has(j))) {
                diff = String(subResult(j >= 0 ? value(b, j) : 0n, i >= 0 ? value(a, i) : 0n));
            }
            else {
                diff = String(vb - va);
            }
            const baseText = i >= 0 ? (a.bigValues.has(i) ? String(value(a, i)) : String(va)) : 'N/A';
            const currentText = j >= 0 ? (b.bigValues.has(j) ? String(value(b, j)) : String(vb)) : 'N/A';
            piece += `${state.events.strings[eventId]},${state.names.strings[nameId]},${dev},${baseText},${currentText},${diff}\n`;
            if (piece.length >= 1 << 20) {
                yield piece;
                piece = '';
            }
        }
    }
    yield piece;
}

export { DumpReader as D, EventSpool as E, attrValueOf as a, DEFAULT_MAX_EDITS as b, compareDumpFiles as c, streamDump as s, terminalSafe as t };

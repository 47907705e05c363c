import { createHash } from 'node:crypto';
import { openSync, readSync, closeSync, createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { g as gunzipChunks } from './compressed.js';
import { w as ooms } from './evidence-sources.js';
import { w as withOomCauses, O as OOM_FIELD_DEFAULTS, o as oomCause } from './oom-cause.js';
import { d as deviceName } from './keys.js';
import 'node:os';
import 'node:path';
import 'node:stream';
import 'node:stream/promises';
import './errors.js';

const UNIT = {
    bytes: 1,
    B: 1,
    KiB: 1024,
    MiB: 1024 ** 2,
    GiB: 1024 ** 3,
    TiB: 1024 ** 4,
    PiB: 1024 ** 5,
    EiB: 1024 ** 6,
};
const SIZE = String.raw `(\d{1,19}(?:\.\d{1,6})?) ?(bytes|B|KiB|MiB|GiB|TiB|PiB|EiB)\b`;
const REQUEST = new RegExp(String.raw `^\W{0,3}(?:Tried to allocate ${SIZE}|Allocation was preemptively rejected\b[^.]*\.\s*Requested size: ${SIZE}|Tried to allocate more than 1EB memory)`);
const PAREN_HEAD = /^\s*\((?:NPU|GPU|XPU|CUDA) (\d{1,9});/;
const PAREN_FIELD = new RegExp(String.raw `^\s*${SIZE} (total capacity|already allocated|current active|free|allowed|reserved in total by PyTorch|cached)\b`);
const SENTENCE_DEVICE = new RegExp(String.raw `^\s*\.?\s*(?:NPU|GPU|XPU|CUDA) (\d{1,9}) has a total capac(?:i)?ty of ${SIZE} of which ${SIZE} is free\.`);
const PROCESS = new RegExp(String.raw `Process (\d{1,10}) has ${SIZE} memory in use\.`, 'g');
const THIS_PROCESS = new RegExp(String.raw `Including non-PyTorch memory, this process has ${SIZE} memory in use\.`);
const ALLOWED = new RegExp(String.raw `${SIZE} allowed;`);
const OF_ALLOCATED = new RegExp(String.raw `Of the allocated memory ${SIZE} is allocated by PyTorch,(?: with ${SIZE} allocated in private pools \(e\.g\., CUDA Graphs\),)? and ${SIZE} is reserved by PyTorch but unallocated`);
const ONE_EB = 1024 ** 6;
const MAX_PROCESSES = 16;
function bytesOf(digits, unit) {
    if (digits === undefined || unit === undefined)
        return null;
    const scale = UNIT[unit];
    if (scale === undefined)
        return null;
    const value = Math.round(Number(digits) * scale);
    return Number.isSafeInteger(value) ? value : null;
}
function readOomMessage(text) {
    const head = REQUEST.exec(text);
    if (head === null)
        return null;
    const requested = head[1] !== undefined ? bytesOf(head[1], head[2]) : head[3] !== undefined ? bytesOf(head[3], head[4]) : ONE_EB;
    if (requested === null)
        return null;
    const message = {
        device: null,
        requested,
        total: null,
        allocated: null,
        active: null,
        deviceFree: null,
        allowed: null,
        reserved: null,
        processTotal: null,
        processes: [],
        form: 'request only',
    };
    const rest = text.slice(head[0].length);
    const paren = PAREN_HEAD.exec(rest);
    if (paren !== null) {
        const close = rest.indexOf(')');
        readParenthesised(message, Number(paren[1]), rest.slice(paren[0].length, close === -1 ? undefined : close));
        return message;
    }
    const sentence = SENTENCE_DEVICE.exec(rest);
    if (sentence !== null)
        readSentences(message, sentence, rest.slice(sentence[0].length));
    return message;
}
function readParenthesised(message, device, fields) {
    message.form = 'parenthesised';
    message.device = device;
    let cached = null;
    for (const part of fields.split(';')) {
        const field = PAREN_FIELD.exec(part);
        if (field === null)
            continue;
        const bytes = bytesOf(field[1], field[2]);
        switch (field[3]) {
            case 'total capacity':
                message.total = bytes;
                break;
            case 'already allocated':
                message.allocated = bytes;
                break;
            case 'current active':
                message.active = bytes;
                break;
            case 'free':
                message.deviceFree = bytes;
                break;
            case 'allowed':
                message.allowed = bytes;
                break;
            case 'reserved in total by PyTorch':
                message.reserved = bytes;
                break;
            case 'cached':
                cached = bytes;
                break;
        }
    }
    if (message.reserved === null && cached !== null && message.allocated !== null)
        message.reserved = message.allocated + cached;
}
function readSentences(message, sentence, after) {
    message.form = 'sentences';
    message.device = Number(sentence[1]);
    message.total = bytesOf(sentence[2], sentence[3]);
    message.deviceFree = bytesOf(sentence[4], sentence[5]);
    PROCESS.lastIndex = 0;
    for (let m = PROCESS.exec(after); m !== null && message.processes.length < MAX_PROCESSES; m = PROCESS.exec(after)) {
        const bytes = bytesOf(m[2], m[3]);
        if (bytes !== null)
            message.processes.push([Number(m[1]), bytes]);
    }
    const own = THIS_PROCESS.exec(after);
    if (own !== null)
        message.processTotal = bytesOf(own[1], own[2]);
    const allowed = ALLOWED.exec(after);
    if (allowed !== null)
        message.allowed = bytesOf(allowed[1], allowed[2]);
    const of = OF_ALLOCATED.exec(after);
    if (of !== null) {
        message.allocated = bytesOf(of[1], of[2]);
        const cached = bytesOf(of[5], of[6]);
        message.reserved = message.allocated === null || cached === null ? null : message.allocated + cached;
    }
}

const NL = 0x0a;
const OOM_NEEDLE = Buffer.from('out of memory', 'latin1');
const FAILURE_NEEDLES = [
    Buffer.from('EL0004', 'latin1'),
    Buffer.from('halMemAlloc', 'latin1'),
    Buffer.from('code is 207001', 'latin1'),
    Buffer.from('MEMORY_ALLOCATION', 'latin1'),
];
const FAILURE_LINE = /\bhalMemAlloc\s+failed\b|\bEL0004\b|\bACL_ERROR_RT_MEMORY_ALLOCATION\b|\berror code is 207001\b/;
const FAILURE_DEVICE = /(?:\b|drv_?)(?:device_?id|dev_?id)\s*[=:]?\s*(\d{1,9})\b|\bdevice\s*[=:([]?\s*(\d{1,9})\b|\bdev\s?(\d{1,9})\b|\b(?:NPU|GPU)\s?(\d{1,9})\b/i;
const LONGEST_NEEDLE = Math.max(OOM_NEEDLE.length, ...FAILURE_NEEDLES.map((n) => n.length));
const MAX_LINE_BYTES = 256 * 1024;
const MESSAGE_CHARS = 4096;
const MAX_EVENTS_PER_FILE = 1000;
const FAILURE_SITES_PER_DEVICE = 5;
const FAILURE_TEXT_CHARS = 299;
class JobLogScanner {
    ooms = new Map();
    droppedOoms = 0;
    failures = [];
    sitesPerDevice = new Map();
    carry = Buffer.alloc(0);
    newlines = 0;
    push(chunk) {
        const first = chunk.indexOf(NL);
        if (first === -1) {
            this.keep(this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]));
            return;
        }
        let lines = this.newlines;
        if (this.carry.length > 0) {
            this.scan(Buffer.concat([this.carry, chunk.subarray(0, first + 1)]), 0, this.carry.length + first + 1, lines);
            lines += 1;
        }
        else {
            this.scan(chunk, 0, first + 1, lines);
            lines += 1;
        }
        const complete = chunk.lastIndexOf(NL) + 1;
        if (complete > first + 1)
            this.scan(chunk, first + 1, complete, lines);
        this.newlines += countNewlines(chunk);
        this.carry = Buffer.alloc(0);
        this.keep(chunk.subarray(complete));
    }
    keep(rest) {
        if (rest.length > MAX_LINE_BYTES) {
            this.scan(rest, 0, rest.length, this.newlines);
            rest = rest.subarray(rest.length - (LONGEST_NEEDLE - 1));
        }
        this.carry = Buffer.from(rest);
    }
    end() {
        if (this.carry.length > 0)
            this.scan(this.carry, 0, this.carry.length, this.newlines);
        this.carry = Buffer.alloc(0);
    }
    scan(window, from, to, linesBefore) {
        const part = window.subarray(from, to);
        const hits = [];
        for (let hit = part.indexOf(OOM_NEEDLE); hit !== -1; hit = part.indexOf(OOM_NEEDLE, hit + OOM_NEEDLE.length))
            hits.push([part.lastIndexOf(NL, hit) + 1, hit]);
        for (const needle of FAILURE_NEEDLES) {
            for (let hit = part.indexOf(needle); hit !== -1; hit = part.indexOf(needle, hit + needle.length))
                hits.push([part.lastIndexOf(NL, hit) + 1, -1]);
        }
        if (hits.length === 0)
            return;
        hits.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
        let counted = 0;
        let line = linesBefore + 1;
        let failureLine = -1;
        for (const [lineStart, hit] of hits) {
            line += countNewlines(part, counted, lineStart);
            counted = lineStart;
            if (hit >= 0) {
                const lineEnd = endOfLine(part, hit);
                const message = readOomMessage(part.toString('latin1', hit + OOM_NEEDLE.length, Math.min(lineEnd, hit + OOM_NEEDLE.length + MESSAGE_CHARS)));
                if (message !== null)
                    this.addOom(message, line);
                continue;
            }
            if (lineStart === failureLine)
                continue;
            failureLine = lineStart;
            const text = part.toString('utf8', lineStart, Math.min(endOfLine(part, lineStart), lineStart + MESSAGE_CHARS));
            if (!FAILURE_LINE.test(text))
                continue;
            const d = FAILURE_DEVICE.exec(text);
            const digits = d === null ? null : (d[1] ?? d[2] ?? d[3] ?? d[4] ?? null);
            const device = digits === null ? null : String(Number(digits));
            const sited = this.sitesPerDevice.get(device) ?? 0;
            this.sitesPerDevice.set(device, sited + 1);
            this.failures.push({ device, line, text: sited < FAILURE_SITES_PER_DEVICE ? shorten(text) : null });
        }
    }
    addOom(message, line) {
        const id = figuresId(message);
        const known = this.ooms.get(id);
        if (known !== undefined) {
            known.printed++;
            return;
        }
        if (this.ooms.size >= MAX_EVENTS_PER_FILE) {
            this.droppedOoms++;
            return;
        }
        this.ooms.set(id, { message, line, printed: 1 });
    }
}
function figuresId(m) {
    return JSON.stringify([
        m.device,
        m.requested,
        m.total,
        m.allocated,
        m.active,
        m.deviceFree,
        m.allowed,
        m.reserved,
        m.processTotal,
        m.processes,
    ]);
}
function countNewlines(buf, from = 0, to = buf.length) {
    let n = 0;
    let i = from;
    const head = Math.min(to, from + ((4 - ((buf.byteOffset + from) & 3)) & 3));
    for (; i < head; i++)
        if (buf[i] === NL)
            n++;
    const words = (to - i) >> 2;
    if (words > 0) {
        const view = new Int32Array(buf.buffer, buf.byteOffset + i, words);
        for (let k = 0; k < words; k++) {
            const x = view[k] ^ 0x0a0a0a0a;
            const t = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
            if (t !== 0)
                n += Math.imul((t >>> 7) & 0x01010101, 0x01010101) >>> 24;
        }
        i += words << 2;
    }
    for (; i < to; i++)
        if (buf[i] === NL)
            n++;
    return n;
}
function endOfLine(buf, from) {
    const nl = buf.indexOf(NL, from);
    return nl === -1 ? buf.length : nl;
}
function shorten(line) {
    const s = line.replace(/\s+/g, ' ').trim();
    return s.length > FAILURE_TEXT_CHARS ? `${s.slice(0, FAILURE_TEXT_CHARS)}…` : s;
}

const CHUNK_BYTES = 1024 * 1024;
const READ_OFFSET = 2048;
const CHUNKS_PER_YIELD = 32;
const UNKNOWN_DEVICE = 'unknown';
function isGzip(path, name) {
    if (/\.gz$/i.test(name))
        return true;
    const fd = openSync(path, 'r');
    try {
        const head = Buffer.alloc(2);
        return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
    }
    finally {
        closeSync(fd);
    }
}
async function* chunksOf(path, name, gzip, chunkBytes) {
    if (/\.zst$/i.test(name)) {
        yield* gunzipChunks(path, name, chunkBytes);
        return;
    }
    if (gzip) {
        for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes }).pipe(createGunzip({ chunkSize: Math.max(64, chunkBytes) })))
            yield chunk;
        return;
    }
    const fd = openSync(path, 'r');
    try {
        const buffer = Buffer.allocUnsafe(READ_OFFSET + chunkBytes);
        for (let n = 0;; n++) {
            const read = readSync(fd, buffer, READ_OFFSET, chunkBytes, null);
            if (read === 0)
                break;
            yield buffer.subarray(READ_OFFSET, READ_OFFSET + read);
            if (n % CHUNKS_PER_YIELD === CHUNKS_PER_YIELD - 1)
                await new Promise((resolve) => setImmediate(resolve));
        }
    }
    finally {
        closeSync(fd);
    }
}
async function parseJobLogFile(file, into, options = {}) {
    const chunkBytes = Math.max(1, options.chunkBytes ?? CHUNK_BYTES);
    const gzip = isGzip(file.path, file.name);
    into.files++;
    const scanner = new JobLogScanner();
    for await (const chunk of chunksOf(file.path, file.name, gzip, chunkBytes))
        scanner.push(chunk);
    scanner.end();
    const events = [...scanner.ooms.values()];
    for (const event of events)
        addOom(file.name, event, into);
    for (const failure of scanner.failures) {
        const device = failure.device === null ? UNKNOWN_DEVICE : (deviceName(failure.device) ?? UNKNOWN_DEVICE);
        into.addAllocFailure(device, 1, failure.text === null ? undefined : { file: file.name, line: failure.line, text: failure.text });
    }
    into.records += events.length + scanner.failures.length;
    if (scanner.droppedOoms > 0) {
        into.addNote({
            file: file.name,
            line: 0,
            reason: `${scanner.droppedOoms} more distinct OOM messages than the ${events.length} kept were not read into the report`,
        });
    }
}
function addOom(name, event, into) {
    const { message: m, line } = event;
    const device = m.device === null ? null : deviceName(String(m.device));
    if (m.device === null || device === null) {
        into.addAllocFailure(UNKNOWN_DEVICE, 1, {
            file: name,
            line,
            text: `out of memory: a request of ${m.requested} bytes (the line names no device)`,
        });
        return;
    }
    const id = createHash('sha256').update(name).update('\0').update(JSON.stringify(m)).digest('hex').slice(0, 8);
    into.add(ooms, `${device}/log-${id}`, {
        ...OOM_FIELD_DEFAULTS,
        requested: m.requested,
        total: m.total,
        deviceFree: m.deviceFree,
        allocated: m.allocated,
        reserved: m.reserved,
        active: m.active,
        allowed: m.allowed,
        processTotal: m.processTotal,
        processes: m.processes.length === 0 ? null : JSON.stringify(m.processes),
        cause: oomCause(m).cause,
        source: 'job log',
        precision: 'printed',
        line,
        printed: event.printed,
        file: name,
        logicalDevice: m.device,
    });
}
function finishJobLogs(snapshot, run) {
    return withOomCauses(snapshot, run.oom);
}

export { finishJobLogs, parseJobLogFile };

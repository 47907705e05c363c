import { openSync, readSync, closeSync } from 'node:fs';
import { i as isCompressed, g as gunzipChunks } from './compressed.js';
import 'node:buffer';
import 'node:string_decoder';
import { R as READ_OFFSET } from './whole-text.js';
import { e as modules, M as MAX_SITES_PER_DEVICE, g as parseExactInteger } from './evidence-sources.js';
import { I as InputError, P as ParseError } from './errors.js';
import { d as deviceName } from './keys.js';
import 'node:os';
import 'node:path';
import 'node:stream';
import 'node:stream/promises';
import 'node:zlib';

const MAX_RECORD_LINES = 64;
const MAX_RECORD_BYTES = 16 * 1024;
const MAX_LINE_BYTES = 1024 * 1024;
const NL = 0x0a;
const LEVEL_WORDS = ['ERROR', 'ERR0R', 'WARNING', 'INFO', 'DEBUG', 'EVENT', 'TRACE'].map((level) => Buffer.from(`${level}]`));
const CUT_PREFIX_TAGS = ['[devmm]', '[drv]', '[ascend]'].map((tag) => Buffer.from(tag));
const ATTRIBUTE_START = /^[A-Z][A-Z0-9_]*[ \t]+(?:dev\d+[ \t]+)?(?:[Mm]em[ \t]+stats|Cached_size\b)/;
const GREP_PREFIX = /:\d+:/g;
const MAX_GREP_PREFIX_BYTES = 1024;
const SEGMENT = /\[?(ERROR|ERR0R|WARNING|INFO|DEBUG|EVENT|TRACE)\]\s*[A-Za-z][A-Za-z0-9_-]*\(/g;
const HEAD = /[\]:]\s*([A-Z][A-Z0-9_]*)\s+(?:dev(\d+)\s+)?(?:([Mm]em\s+stats\s*\(Bytes\))|Cached_size\b)/g;
const HEAD_AT_START = new RegExp(HEAD.source.replace('[\\]:]', '(?:^|[\\]:])'), 'g');
const BODY_V1 = /\.\s*\(\s*module_name\s*=\s*([A-Z][A-Z0-9_]*)\s*;\s*module_id\s*=\s*\d+\s*;\s*(?:current_alloced_size\s*=\s*(\d+)\s*;\s*(alloced|allocated)_peak_size\s*=\s*(\d+)\s*;\s*alloc_cnt\s*=\s*(\d+)\s*;\s*free_cnt\s*=\s*(\d+)|total_size\s*=\s*(\d+))\s*\)/y;
const BODY_V0 = /\s*:\s*module_name\s*=\s*([A-Z][A-Z0-9_]*)\s*,\s*module_id\s*=\s*\d+\s*,?\s*current_alloced_size\s*=\s*(\d+)\s*,\s*alloced_peak_size\s*=\s*(\d+)\s*\./y;
const BODY_CACHED = /\s*:\s*(\d+)\s*Bytes\b/y;
const ALLOC_FAILURE = /\bhalMemAlloc\s+failed\b|\bout\s+of\s+memory\b|\bMemory_Allocation_Failure\b|\bEL0004\b/i;
const FAILURE_DEVICE = /(?:\b|drv_?)(?:device_?id|dev_?id)\s*[=:]?\s*(\d+)|\bdevice\s*[=:([]?\s*(\d+)|\bdev\s?(\d+)\b/i;
const FAILURE_TEXT_CHARS = 299;
const UNKNOWN_DEVICE = 'unknown';

function isDigit(c) {
    return c >= 0x30 && c <= 0x39;
}
function isWordByte(c) {
    return (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}
class ByteCursor {
    i = 0;
    b = Buffer.alloc(0);
    at(at, bytes) {
        if (at < 0 || at + bytes.length > this.b.length)
            return false;
        for (let k = 0; k < bytes.length; k++)
            if (this.b[at + k] !== bytes[k])
                return false;
        return true;
    }
    take(bytes) {
        if (!this.at(this.i, bytes))
            return false;
        this.i += bytes.length;
        return true;
    }
    word() {
        const from = this.i;
        const first = this.b[from];
        if (!(first >= 0x41 && first <= 0x5a))
            return -1;
        let k = from + 1;
        while (k < this.b.length && isWordByte(this.b[k]))
            k++;
        this.i = k;
        return k;
    }
    digits() {
        let k = this.i;
        let value = 0;
        while (k < this.b.length) {
            const c = this.b[k];
            if (c < 0x30 || c > 0x39)
                break;
            value = value * 10 + (c - 0x30);
            k++;
        }
        if (k === this.i || k - this.i > 15)
            return -1;
        this.i = k;
        return value;
    }
}

class KeyCache {
    byHash = new Map();
    size = 0;
    keyOf(b, a, q, d, deviceTo, moduleFrom, moduleTo) {
        let h = 0x811c9dc5;
        for (let k = a; k < q; k++)
            h = Math.imul(h ^ b[k], 0x01000193);
        h = Math.imul(h ^ 0xff, 0x01000193);
        for (let k = d; k < deviceTo; k++)
            h = Math.imul(h ^ b[k], 0x01000193);
        h = Math.imul(h ^ 0xff, 0x01000193);
        for (let k = moduleFrom; k < moduleTo; k++)
            h = Math.imul(h ^ b[k], 0x01000193);
        const bucket = this.byHash.get(h);
        if (bucket !== undefined) {
            for (const c of bucket)
                if (spells(c.spelling, b, a, q, d, deviceTo, moduleFrom, moduleTo))
                    return c;
        }
        const attr = b.toString('latin1', a, q);
        const device = d < deviceTo ? `dev${Number(b.toString('latin1', d, deviceTo))}` : null;
        const module = moduleFrom < 0 ? 'CACHED' : b.toString('latin1', moduleFrom, moduleTo);
        const entry = {
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
function spells(s, b, a, q, d, deviceTo, moduleFrom, moduleTo) {
    const moduleLength = moduleFrom < 0 ? 0 : moduleTo - moduleFrom;
    if (s.length !== q - a + 1 + (deviceTo - d) + 1 + moduleLength)
        return false;
    let i = 0;
    for (let k = a; k < q; k++)
        if (s[i++] !== b[k])
            return false;
    if (s[i++] !== 0xff)
        return false;
    for (let k = d; k < deviceTo; k++)
        if (s[i++] !== b[k])
            return false;
    if (s[i++] !== 0xff)
        return false;
    for (let k = moduleFrom; k < moduleTo; k++)
        if (s[i++] !== b[k])
            return false;
    return true;
}
const keyCache = new KeyCache();

class RecordWindow {
    newlinesBefore;
    buf = Buffer.alloc(0);
    bufStart = 0;
    scanFrom = 0;
    floor = 0;
    countedTo = 0;
    newlinesCounted = 0;
    counting = false;
    constructor(newlinesBefore) {
        this.newlinesBefore = newlinesBefore;
    }
    keep(from) {
        if (this.counting && this.countedTo < from) {
            this.newlinesCounted += countNewlines(this.buf, this.countedTo - this.bufStart, from - this.bufStart);
            this.countedTo = from;
        }
        this.buf = this.buf.subarray(from - this.bufStart);
        this.bufStart = from;
        this.floor = Math.max(this.floor, from);
        this.scanFrom = Math.max(this.scanFrom, from);
    }
    lineStartOf(at) {
        if (at <= this.bufStart)
            return this.bufStart;
        const nl = this.buf.lastIndexOf(NL, at - 1 - this.bufStart);
        return Math.max(this.bufStart + nl + 1, this.floor);
    }
    lineEndOf(at, complete) {
        const nl = this.buf.indexOf(NL, at - this.bufStart);
        return nl < 0 ? complete : this.bufStart + nl;
    }
    startsRecord(at, complete) {
        let i = at - this.bufStart;
        if (at === 0 && this.buf[0] === 0xef && this.buf[1] === 0xbb && this.buf[2] === 0xbf)
            i += 3;
        const limit = complete - this.bufStart;
        if (this.startsRecordAt(i, limit) && !this.wrapInsideWord(i))
            return true;
        const first = this.buf[i];
        if (first === 0x5b || first === undefined || i >= limit)
            return false;
        const lineEnd = this.buf.indexOf(NL, i);
        const end = Math.min(lineEnd < 0 || lineEnd > limit ? limit : lineEnd, i + MAX_GREP_PREFIX_BYTES);
        const head = this.buf.toString('latin1', i, end);
        GREP_PREFIX.lastIndex = 0;
        for (let m = GREP_PREFIX.exec(head), n = 0; m !== null && n < 4; m = GREP_PREFIX.exec(head), n++) {
            if (this.startsRecordAt(i + GREP_PREFIX.lastIndex, limit))
                return true;
            GREP_PREFIX.lastIndex = m.index + 1;
        }
        return false;
    }
    wrapInsideWord(i) {
        if (i === 0 || this.buf[i - 1] !== NL)
            return false;
        for (let k = i - 2, stop = Math.max(0, i - 130); k >= stop; k--) {
            const b = this.buf[k];
            if (b === 0x5d)
                return true;
            const word = (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b === 0x5f || b === NL || b === 0x0d;
            if (!word)
                return false;
        }
        return false;
    }
    startsRecordAt(i, limit) {
        const first = this.buf[i];
        if (first === 0x5b)
            return this.tagAt(i + 1, limit, LEVEL_WORDS) || this.tagAt(i, limit, CUT_PREFIX_TAGS);
        if (first === undefined || first < 0x41 || first > 0x5a)
            return false;
        if (this.tagAt(i, limit, LEVEL_WORDS))
            return true;
        const lineEnd = this.buf.indexOf(NL, i);
        const end = Math.min(lineEnd < 0 || lineEnd > limit ? limit : lineEnd, i + 128);
        return ATTRIBUTE_START.test(this.buf.toString('latin1', i, end));
    }
    tagAt(i, limit, tags) {
        for (const tag of tags) {
            if (i + tag.length > limit || this.buf[i] !== tag[0] || this.buf[i + 1] !== tag[1])
                continue;
            let k = 2;
            while (k < tag.length && this.buf[i + k] === tag[k])
                k++;
            if (k === tag.length)
                return true;
        }
        return false;
    }
    walkBack(hitLine, hitEnd) {
        if (this.startsRecord(hitLine, hitEnd + 1))
            return [hitLine, 1, true];
        let at = hitLine;
        let lines = 1;
        while (at > this.floor && lines < MAX_RECORD_LINES) {
            const prev = this.lineStartOf(at - 1);
            if (hitEnd + 1 - prev > MAX_RECORD_BYTES)
                break;
            lines++;
            if (this.startsRecord(prev, at))
                return [prev, lines, true];
            at = prev;
        }
        return [hitLine, 1, false];
    }
    walkForward(start, lines, hitEnd, complete, closed) {
        let lineEnd = hitEnd;
        for (;;) {
            if (lineEnd >= complete)
                return complete;
            const next = lineEnd + 1;
            if (next >= complete)
                return closed ? complete : -1;
            if (lines >= MAX_RECORD_LINES || this.startsRecord(next, complete))
                return next;
            const nextEnd = this.lineEndOf(next, complete);
            if (nextEnd + 1 - start > MAX_RECORD_BYTES)
                return next;
            lines++;
            lineEnd = nextEnd;
        }
    }
    segmentStartsAt(i, limit) {
        const b = this.buf;
        if (b[i] !== 0x5b || !this.tagAt(i + 1, limit, LEVEL_WORDS))
            return false;
        let k = i + 2;
        while (b[k] !== 0x5d)
            k++;
        k++;
        while (k < limit && b[k] === 0x20)
            k++;
        const first = b[k];
        if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a)))
            return false;
        for (k++; k < limit; k++) {
            const c = b[k];
            if (c === 0x28)
                return true;
            const name = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
            if (!name)
                return false;
        }
        return false;
    }
    lineAt(at, persist = true) {
        const wasCounting = this.counting;
        if (!this.counting || this.countedTo < this.bufStart) {
            this.countedTo = this.bufStart;
            this.newlinesCounted = this.newlinesBefore(this.bufStart);
            this.counting = true;
        }
        if (at >= this.countedTo)
            this.newlinesCounted += countNewlines(this.buf, this.countedTo - this.bufStart, at - this.bufStart);
        else
            this.newlinesCounted -= countNewlines(this.buf, at - this.bufStart, this.countedTo - this.bufStart);
        this.countedTo = at;
        if (!persist && !wasCounting)
            this.counting = false;
        return this.newlinesCounted + 1;
    }
}
function countNewlines(buf, from, to) {
    let n = 0;
    for (let i = from < to ? buf.indexOf(NL, from) : -1; i !== -1 && i < to; i = buf.indexOf(NL, i + 1))
        n++;
    return n;
}

class RecordReader extends RecordWindow {
    name;
    into;
    sitedFailures = new Map();
    cutEnd = -1;
    readingCut = false;
    constructor(name, into, newlinesBefore) {
        super(newlinesBefore);
        this.name = name;
        this.into = into;
    }
    readRecord(start, end, anchored) {
        this.readingCut = end === this.cutEnd;
        const text = this.buf.toString('latin1', start - this.bufStart, end - this.bufStart).replace(/[\r\n]/g, ' ');
        let segmentStart = 0;
        let level = null;
        SEGMENT.lastIndex = 0;
        for (let m = SEGMENT.exec(text); m !== null; m = SEGMENT.exec(text)) {
            if (m.index > segmentStart)
                this.readSegment(text.slice(segmentStart, m.index), level, start + segmentStart, anchored && segmentStart === 0);
            segmentStart = m.index;
            level = m[1];
        }
        this.readSegment(text.slice(segmentStart), level, start + segmentStart, anchored && segmentStart === 0);
    }
    readSegment(text, level, at, anchored) {
        const head = anchored ? HEAD_AT_START : HEAD;
        head.lastIndex = 0;
        for (let m = head.exec(text); m !== null; m = head.exec(text)) {
            const attr = m[1];
            const device = m[2] === undefined ? null : deviceOf(m[2]);
            if (device === null && m[2] !== undefined) {
                this.skip(at, `device number out of range in memory-statistics record: ${excerpt(text, m.index + 1)}`);
                continue;
            }
            const prefix = device === null ? attr : `${attr}/${device}`;
            const bodyAt = head.lastIndex;
            let parsed;
            if (m[3] === undefined)
                parsed = this.readCached(text, bodyAt, at);
            else
                parsed = this.readStats(text, bodyAt, at);
            if (parsed === null) {
                this.skip(at, `truncated or malformed memory-statistics record: ${excerpt(text, m.index + 1)}`);
                continue;
            }
            this.into.records++;
            this.into.add(modules, `${prefix}/${parsed.module}`, parsed.metric);
            if (device !== null)
                this.into.noteDevice(device);
        }
        if ((level === 'ERROR' || level === 'ERR0R') && ALLOC_FAILURE.test(text)) {
            const d = FAILURE_DEVICE.exec(text);
            const digits = d === null ? null : (d[1] ?? d[2] ?? d[3] ?? null);
            const device = (digits === null ? null : deviceOf(digits)) ?? UNKNOWN_DEVICE;
            const sited = this.sitedFailures.get(device) ?? 0;
            this.sitedFailures.set(device, sited + 1);
            const where = sited < MAX_SITES_PER_DEVICE && this.siteMayBeKept(device)
                ? { file: this.name, line: this.lineAt(at, false), text: excerpt(text, 0, FAILURE_TEXT_CHARS) }
                : undefined;
            this.into.addAllocFailure(device, 1, where);
        }
    }
    siteMayBeKept(device) {
        const kept = this.into.allocFailureSitesOf(device);
        if (kept === undefined || kept.length < MAX_SITES_PER_DEVICE)
            return true;
        return kept[kept.length - 1].file > this.name;
    }
    readStats(text, from, at) {
        BODY_V1.lastIndex = from;
        const v1 = BODY_V1.exec(text);
        if (v1 !== null) {
            const module = v1[1];
            if (v1[7] !== undefined) {
                const total = this.exact(v1[7], 'total_size', at);
                return { module, metric: { peak: total, current: total, allocs: null, frees: null } };
            }
            return {
                module,
                metric: {
                    current: this.exact(v1[2], 'current_alloced_size', at),
                    peak: this.exact(v1[4], `${v1[3]}_peak_size`, at),
                    allocs: this.exact(v1[5], 'alloc_cnt', at),
                    frees: this.exact(v1[6], 'free_cnt', at),
                },
            };
        }
        BODY_V0.lastIndex = from;
        const v0 = BODY_V0.exec(text);
        if (v0 === null)
            return null;
        return {
            module: v0[1],
            metric: {
                current: this.exact(v0[2], 'current_alloced_size', at),
                peak: this.exact(v0[3], 'alloced_peak_size', at),
                allocs: null,
                frees: null,
            },
        };
    }
    readCached(text, from, at) {
        BODY_CACHED.lastIndex = from;
        const m = BODY_CACHED.exec(text);
        if (m === null)
            return null;
        const size = this.exact(m[1], 'Cached_size', at);
        return { module: 'CACHED', metric: { peak: size, current: size, allocs: null, frees: null } };
    }
    exact(digits, field, at) {
        let value;
        try {
            value = parseExactInteger(digits, this.name);
        }
        catch (err) {
            if (!(err instanceof InputError))
                throw err;
            this.fail(at, `${field}=${digits} is larger than 2^53 - 1 and cannot be compared exactly; no result is better than a rounded one`);
        }
        return value;
    }
    skip(at, reason) {
        this.into.addSkipped({
            file: this.name,
            line: this.lineAt(at),
            reason,
            ...(this.readingCut ? { cut: true } : {}),
        });
    }
    fail(at, reason) {
        throw new ParseError(this.name, this.lineAt(at), reason);
    }
}
function excerpt(text, from, chars = 120) {
    const s = Buffer.from(text.slice(from, from + chars), 'latin1')
        .toString('utf8')
        .replace(/\s+/g, ' ')
        .trim();
    return from + chars < text.length ? `${s}…` : s;
}
function deviceOf(digits) {
    return digits.replace(/^0+(?=\d)/, '').length > 9 ? null : deviceName(digits);
}

class FastRecordReader extends RecordReader {
    cursor = new ByteCursor();
    keys = keyCache;
    knownStart = -1;
    fastHead = 0;
    fastModuleFrom = -1;
    fastModuleTo = -1;
    fastRecord(hit, complete, closed) {
        const b = this.buf;
        const o = this.bufStart;
        const h = hit - o;
        const cur = this.cursor;
        cur.b = b;
        const metric = this.fastBody(h);
        if (metric === null)
            return -1;
        let eol = cur.i;
        if (b[eol] === 0x0d)
            eol++;
        let glued = -1;
        if (b[eol] !== NL) {
            if (!this.segmentStartsAt(cur.i, complete - o))
                return -1;
            glued = cur.i + o;
            const end = this.lineEndOf(glued, complete);
            if (end >= complete)
                return -1;
            eol = end - o;
        }
        const hitEnd = eol + o;
        let q = this.fastHead;
        let d = q;
        while (d > 0 && isDigit(b[d - 1]))
            d--;
        const deviceTo = q;
        if (d < q && q - d <= 9 && cur.at(d - 4, SPACE_DEV))
            q = d - 4;
        else
            d = deviceTo;
        let a = q;
        while (a > 0 && isWordByte(b[a - 1]))
            a--;
        const first = b[a];
        if (a === q || first < 0x41 || first > 0x5a || b[a - 1] !== 0x5d)
            return -1;
        if (!this.fastLineAlone(hit, hitEnd, complete, closed, glued >= 0, a))
            return -1;
        const key = this.keys.keyOf(b, a, q, d, deviceTo, this.fastModuleFrom, this.fastModuleTo);
        this.into.records++;
        this.into.add(modules, key.key, metric);
        if (key.device !== null)
            this.into.noteDevice(key.device);
        if (glued >= 0)
            this.readRecord(glued, hitEnd + 1, false);
        return hitEnd;
    }
    fastBody(h) {
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
        let d = h;
        while (d > 0 && isDigit(b[d - 1]))
            d--;
        if (d === h || h - d > 15 || !cur.at(d - 13, CACHED_OPEN))
            return null;
        this.fastHead = d - 13;
        cur.i = d;
        const size = cur.digits();
        if (size < 0 || !cur.take(BYTES))
            return null;
        this.fastModuleFrom = this.fastModuleTo = -1;
        return { peak: size, current: size, allocs: null, frees: null };
    }
    fastV1Body(h) {
        const cur = this.cursor;
        cur.i = h;
        if (!cur.take(V1_BODY_START))
            return null;
        this.fastModuleFrom = cur.i;
        this.fastModuleTo = cur.word();
        if (this.fastModuleTo < 0 || !cur.take(V1_MODULE_ID) || cur.digits() < 0)
            return null;
        let metric;
        if (cur.take(V3_TOTAL)) {
            const total = cur.digits();
            if (total < 0)
                return null;
            metric = { peak: total, current: total, allocs: null, frees: null };
        }
        else {
            if (!cur.take(V1_CURRENT))
                return null;
            const current = cur.digits();
            if (current < 0 || !cur.take(V1_ALLOC))
                return null;
            if (!cur.take(V1_ED) && !cur.take(V2_ATED))
                return null;
            if (!cur.take(V1_PEAK))
                return null;
            const peak = cur.digits();
            if (peak < 0 || !cur.take(V1_ALLOC_CNT))
                return null;
            const allocs = cur.digits();
            if (allocs < 0 || !cur.take(V1_FREE_CNT))
                return null;
            const frees = cur.digits();
            if (frees < 0)
                return null;
            metric = { current, peak, allocs, frees };
        }
        return cur.take(CLOSE_PAREN) ? metric : null;
    }
    fastV0Body(h) {
        const cur = this.cursor;
        cur.i = h;
        if (!cur.take(V0_BODY_START))
            return null;
        this.fastModuleFrom = cur.i;
        this.fastModuleTo = cur.word();
        if (this.fastModuleTo < 0 || !cur.take(V0_MODULE_ID) || cur.digits() < 0 || !cur.take(V0_CURRENT))
            return null;
        const current = cur.digits();
        if (current < 0 || !cur.take(V0_PEAK))
            return null;
        const peak = cur.digits();
        if (peak < 0 || !cur.take(PERIOD))
            return null;
        return { current, peak, allocs: null, frees: null };
    }
    fastLineAlone(hit, hitEnd, complete, closed, glued, a) {
        const o = this.bufStart;
        const lineStart = this.lineStartOf(hit) - o;
        if (this.buf[lineStart] !== 0x5b ||
            (lineStart + o !== this.knownStart && !this.startsRecord(lineStart + o, complete)))
            return false;
        const next = hitEnd + 1;
        if (next >= complete ? !closed : !this.startsRecord(next, complete))
            return false;
        if (glued && this.mentionsCachedSize(lineStart, a))
            return false;
        if (next < complete)
            this.knownStart = next;
        return true;
    }
    mentionsCachedSize(from, to) {
        const b = this.buf;
        const first = CACHED_WORD[0];
        for (let k = from, last = to - CACHED_WORD.length; k <= last; k++) {
            if (b[k] !== first)
                continue;
            let n = 1;
            while (n < CACHED_WORD.length && b[k + n] === CACHED_WORD[n])
                n++;
            if (n === CACHED_WORD.length)
                return true;
        }
        return false;
    }
}
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

const STATS_NEEDLE = 0;
const ERROR_NEEDLE = 1;
const NEEDLES = [Buffer.from('Bytes'), Buffer.from('ERR')];
const SEARCH_SKIP = [0, 1];
const SEARCH_TAILS = NEEDLES.map((n, i) => n.subarray(SEARCH_SKIP[i]));
const JUNCTION_BYTES = 4 * MAX_RECORD_BYTES;
let spareJunctions = null;
function takeSpareJunctions() {
    const spare = spareJunctions ?? [undefined, undefined];
    spareJunctions = null;
    return spare;
}
class PlogScanner extends FastRecordReader {
    pendingLine = null;
    nextAt = NEEDLES.map(() => -1);
    searched = NEEDLES.map(() => 0);
    junctions = takeSpareJunctions();
    nextJunction = 0;
    push(chunk) {
        if (chunk.length === 0)
            return;
        const chunkStart = this.bufStart + this.buf.length;
        if (this.buf.length > 0) {
            const head = chunk.length <= JUNCTION_BYTES ? chunk : chunk.subarray(0, JUNCTION_BYTES);
            this.buf = this.junction(this.buf, head);
            this.scan(false);
            if (head === chunk)
                return;
            this.buf =
                this.bufStart >= chunkStart
                    ? chunk.subarray(this.bufStart - chunkStart)
                    : Buffer.concat([this.buf, chunk.subarray(JUNCTION_BYTES)]);
        }
        else {
            this.buf = chunk;
            this.bufStart = chunkStart;
        }
        this.scan(false);
    }
    junction(kept, head) {
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
    end() {
        this.scan(true);
        this.buf = Buffer.alloc(0);
        spareJunctions = this.junctions;
        this.junctions = [undefined, undefined];
    }
    scan(final) {
        const end = this.bufStart + this.buf.length;
        let complete = final ? end : this.bufStart + this.buf.lastIndexOf(NL) + 1;
        let closed = final;
        if (final && this.buf.length > 0 && this.buf[this.buf.length - 1] !== NL)
            this.cutEnd = end;
        if (!closed && end - complete > MAX_LINE_BYTES) {
            complete = end;
            closed = true;
        }
        this.pendingLine = null;
        for (;;) {
            const needle = this.nextNeedle();
            if (needle < 0)
                break;
            const hit = this.nextAt[needle];
            if (hit >= complete)
                break;
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
            const lastLine = this.lineStartOf(end);
            if (lastLine >= this.scanFrom) {
                const [start, , anchored] = this.walkBack(lastLine, end);
                this.readRecord(start, end, anchored);
            }
        }
        if (closed)
            this.floor = this.scanFrom = Math.max(this.scanFrom, complete);
        const unread = this.pendingLine ?? complete;
        this.keep(closed ? end : Math.max(this.floor, this.lineStartOf(Math.max(this.bufStart, unread - MAX_RECORD_BYTES))));
    }
    nextNeedle() {
        const end = this.bufStart + this.buf.length;
        let best = -1;
        let bestAt = Infinity;
        for (let i = 0; i < NEEDLES.length; i++) {
            let at = this.nextAt[i];
            if (at >= 0 && at < this.scanFrom)
                at = this.search(i, this.scanFrom);
            else if (at < 0 && this.searched[i] < end) {
                at = this.search(i, Math.max(this.scanFrom, this.searched[i] - NEEDLES[i].length + 1));
            }
            if (at >= 0 && at < bestAt) {
                best = i;
                bestAt = at;
            }
        }
        return best;
    }
    search(needle, from) {
        const start = Math.max(from, this.bufStart) - this.bufStart;
        const skip = SEARCH_SKIP[needle];
        const tail = SEARCH_TAILS[needle];
        let at = this.buf.indexOf(tail, start + skip);
        if (skip > 0) {
            const head = NEEDLES[needle];
            while (at >= 0 && !this.headBefore(at, head, skip))
                at = this.buf.indexOf(tail, at + 1);
            if (at >= 0)
                at -= skip;
        }
        this.nextAt[needle] = at < 0 ? -1 : this.bufStart + at;
        this.searched[needle] = this.bufStart + this.buf.length;
        return this.nextAt[needle];
    }
    headBefore(at, needle, skip) {
        for (let k = 1; k <= skip; k++)
            if (this.buf[at - k] !== needle[skip - k])
                return false;
        return true;
    }
    mayBeStats(at) {
        if (at === this.bufStart)
            return true;
        const before = this.buf[at - 1 - this.bufStart];
        const digit = before >= 0x30 && before <= 0x39;
        return before === 0x28 || digit || before === 0x20 || before === 0x09 || before === 0x0a || before === 0x0d;
    }
    mayBeLevel(at) {
        const i = at - this.bufStart + 3;
        if (i + 2 >= this.buf.length)
            return true;
        const o = this.buf[i];
        return (o === 0x4f || o === 0x30) && this.buf[i + 1] === 0x52 && this.buf[i + 2] === 0x5d;
    }
    mayBeFailure(start, end) {
        return ALLOC_FAILURE.test(this.buf.toString('latin1', start - this.bufStart, end - this.bufStart));
    }
    failureWordsAfter(hit, hitEnd, complete) {
        if (hitEnd + 1 >= complete)
            return -1;
        return ALLOC_FAILURE.test(this.buf.toString('latin1', hit - this.bufStart, hitEnd - this.bufStart)) ? 1 : 0;
    }
}

const CHUNK_BYTES = 1024 * 1024;
const CHUNKS_PER_YIELD = 16;
async function parsePlogFile(file, into, options = {}) {
    const chunkBytes = Math.max(1, options.chunkBytes ?? CHUNK_BYTES);
    if (isCompressed(file.path))
        return parseGzipPlog(file, into, chunkBytes);
    const fd = openSync(file.path, 'r');
    const buffers = takeReadBuffers(chunkBytes);
    try {
        into.files++;
        let countedTo = 0;
        let newlines = 0;
        const scanner = new PlogScanner(file.name, into, (offset) => {
            if (offset < countedTo)
                countedTo = newlines = 0;
            newlines += countFileNewlines(fd, countedTo, offset);
            countedTo = offset;
            return newlines;
        });
        let position = 0;
        for (let n = 0;; n++) {
            const buffer = buffers[n % 2];
            const read = readSync(fd, buffer, READ_OFFSET, chunkBytes, position);
            if (read === 0)
                break;
            position += read;
            scanner.push(buffer.subarray(READ_OFFSET, READ_OFFSET + read));
            if (n % CHUNKS_PER_YIELD === CHUNKS_PER_YIELD - 1)
                await new Promise((resolve) => setImmediate(resolve));
        }
        scanner.end();
    }
    finally {
        closeSync(fd);
        spareReadBuffers = buffers;
    }
}
const GZIP_KEPT_BYTES = MAX_LINE_BYTES + 2 * JUNCTION_BYTES + MAX_RECORD_BYTES;
async function parseGzipPlog(file, into, chunkBytes) {
    into.files++;
    const chunks = [];
    let total = 0;
    let newlines = 0;
    let firstKept = 0;
    const scanner = new PlogScanner(file.name, into, (offset) => {
        let lo = 0;
        let hi = chunks.length - 1;
        while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if (chunks[mid].start <= offset)
                lo = mid;
            else
                hi = mid - 1;
        }
        const chunk = chunks[lo];
        if (chunk === undefined || offset === chunk.start)
            return chunk?.before ?? 0;
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
            const old = chunks[firstKept];
            if (old.start + (old.bytes?.length ?? 0) >= total - GZIP_KEPT_BYTES)
                break;
            old.bytes = null;
            firstKept++;
        }
        scanner.push(chunk);
        if (++n % CHUNKS_PER_YIELD === 0)
            await new Promise((resolve) => setImmediate(resolve));
    }
    scanner.end();
}
let spareReadBuffers = null;
function takeReadBuffers(chunkBytes) {
    const spare = spareReadBuffers;
    spareReadBuffers = null;
    if (spare !== null && spare[0].length === READ_OFFSET + chunkBytes)
        return spare;
    return [Buffer.allocUnsafe(READ_OFFSET + chunkBytes), Buffer.allocUnsafe(READ_OFFSET + chunkBytes)];
}
function countFileNewlines(fd, from, to) {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, to - from)));
    let n = 0;
    for (let position = from; position < to;) {
        const read = readSync(fd, buffer, 0, Math.min(buffer.length, to - position), position);
        if (read === 0)
            break;
        n += countNewlines(buffer, 0, read);
        position += read;
    }
    return n;
}

export { parsePlogFile };

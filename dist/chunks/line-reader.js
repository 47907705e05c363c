import { isAscii, isUtf8 } from 'node:buffer';
import { openSync, readSync, closeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { R as READ_OFFSET } from './whole-text.js';
import { i as isCompressed, g as gunzipChunks } from './compressed.js';

const READ_CHUNK_BYTES = 120 * 1024;
const CHUNKS_PER_YIELD = 64;
async function streamText(path, push, decoder = () => new StringDecoder('utf8'), name = path) {
    let active = null;
    let first = true;
    if (isCompressed(path)) {
        for await (let bytes of gunzipChunks(path, name, READ_CHUNK_BYTES)) {
            if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
                bytes = bytes.subarray(3);
            first = false;
            if (active === null && isAscii(bytes))
                push(bytes.toString('latin1'));
            else {
                active ??= decoder();
                push(active.write(bytes));
            }
        }
        if (active !== null)
            push(active.end());
        return;
    }
    const fd = openSync(path, 'r');
    try {
        const buffer = Buffer.allocUnsafeSlow(READ_OFFSET + READ_CHUNK_BYTES);
        for (let n = 0;; n++) {
            const read = readSync(fd, buffer, READ_OFFSET, READ_CHUNK_BYTES, null);
            if (read === 0)
                break;
            let bytes = buffer.subarray(READ_OFFSET, READ_OFFSET + read);
            if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
                bytes = bytes.subarray(3);
            first = false;
            if (active === null && isAscii(bytes)) {
                push(bytes.toString('latin1'));
            }
            else {
                active ??= decoder();
                push(active.write(bytes));
            }
            if (n % CHUNKS_PER_YIELD === CHUNKS_PER_YIELD - 1)
                await new Promise((resolve) => setImmediate(resolve));
        }
    }
    finally {
        closeSync(fd);
    }
    if (active !== null)
        push(active.end());
}

class EscapedUtf8Decoder {
    carry = null;
    write(chunk) {
        let bytes = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
        this.carry = null;
        const cut = completeLength(bytes);
        if (cut < bytes.length) {
            this.carry = Buffer.from(bytes.subarray(cut));
            bytes = bytes.subarray(0, cut);
        }
        return decodeEscaped(bytes);
    }
    end() {
        const rest = this.carry;
        this.carry = null;
        return rest === null ? '' : decodeEscaped(rest);
    }
}
function completeLength(bytes) {
    const n = bytes.length;
    for (let k = 1; k <= 3 && k <= n; k++) {
        const b = bytes[n - k];
        if (b < 0x80)
            return n;
        if (b >= 0xc0)
            return sequenceLength(b) > k ? n - k : n;
    }
    return n;
}
function sequenceLength(lead) {
    if (lead >= 0xc2 && lead <= 0xdf)
        return 2;
    if (lead >= 0xe0 && lead <= 0xef)
        return 3;
    if (lead >= 0xf0 && lead <= 0xf4)
        return 4;
    return 0;
}
function wellFormedAt(bytes, i, len) {
    if (i + len > bytes.length)
        return false;
    const lead = bytes[i];
    const second = bytes[i + 1];
    let lo = 0x80;
    let hi = 0xbf;
    if (lead === 0xe0)
        lo = 0xa0;
    else if (lead === 0xed)
        hi = 0x9f;
    else if (lead === 0xf0)
        lo = 0x90;
    else if (lead === 0xf4)
        hi = 0x8f;
    if (second < lo || second > hi)
        return false;
    for (let k = 2; k < len; k++) {
        const b = bytes[i + k];
        if (b < 0x80 || b > 0xbf)
            return false;
    }
    return true;
}
function decodeEscaped(bytes) {
    if (isUtf8(bytes))
        return bytes.toString('utf8');
    let out = '';
    let runStart = 0;
    for (let i = 0; i < bytes.length;) {
        const b = bytes[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        const len = sequenceLength(b);
        if (len > 0 && wellFormedAt(bytes, i, len)) {
            i += len;
            continue;
        }
        out += bytes.toString('utf8', runStart, i) + String.fromCharCode(0xdc00 + b);
        i++;
        runStart = i;
    }
    return out + bytes.toString('utf8', runStart);
}
const LONE_BYTE = /[\udc80-\udcff]/;
function encodeEscaped(text) {
    if (!LONE_BYTE.test(text))
        return Buffer.from(text, 'utf8');
    const parts = [];
    let runStart = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c < 0xdc80 || c > 0xdcff || isHighSurrogate(text.charCodeAt(i - 1)))
            continue;
        parts.push(Buffer.from(text.slice(runStart, i), 'utf8'), Buffer.from([c - 0xdc00]));
        runStart = i + 1;
    }
    parts.push(Buffer.from(text.slice(runStart), 'utf8'));
    return Buffer.concat(parts);
}
const NEEDS_ESCAPING = /[\\\udc80-\udcff]/;
function visibleName(name) {
    if (!NEEDS_ESCAPING.test(name))
        return name;
    let out = '';
    for (let i = 0; i < name.length; i++) {
        const c = name.charCodeAt(i);
        if (c >= 0xdc80 && c <= 0xdcff && !isHighSurrogate(name.charCodeAt(i - 1))) {
            out += `\\x${(c - 0xdc00).toString(16).toUpperCase()}`;
        }
        else if (c === 0x5c && readsAsEscape(name, i + 1)) {
            out += '\\\\';
        }
        else {
            out += name[i];
        }
    }
    return out;
}
function isHighSurrogate(c) {
    return c >= 0xd800 && c <= 0xdbff;
}
function readsAsEscape(name, i) {
    const c = name.charCodeAt(i);
    if (c === 0x5c)
        return true;
    if (c >= 0xdc80 && c <= 0xdcff && !isHighSurrogate(name.charCodeAt(i - 1)))
        return true;
    return (c === 0x78 || c === 0x58) && isHex(name.charCodeAt(i + 1)) && isHex(name.charCodeAt(i + 2));
}
function isHex(c) {
    return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
const MARK = '\ufdd0';
const MARK_CODE = 0xfdd0;
const PROTECTED_BASE = 0x0100;
const LONE_OR_MARK = /[\udc80-\udcff\ufdd0]/;
function protectEscapedBytes(text) {
    if (!LONE_OR_MARK.test(text))
        return text;
    let out = '';
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === MARK_CODE)
            out += MARK + MARK;
        else if (c >= 0xdc80 && c <= 0xdcff && !isHighSurrogate(text.charCodeAt(i - 1)))
            out += MARK + String.fromCharCode(PROTECTED_BASE + c - 0xdc00);
        else
            out += text[i];
    }
    return out;
}
function restoreEscapedBytes(text) {
    if (!text.includes(MARK))
        return text;
    let out = '';
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== MARK_CODE) {
            out += text[i];
            continue;
        }
        const next = text.charCodeAt(++i);
        out += next === MARK_CODE ? MARK : String.fromCharCode(0xdc00 + next - PROTECTED_BASE);
    }
    return out;
}

class CsvLineReader {
    scanner;
    options;
    pending = '';
    started = false;
    constructor(scanner, options) {
        this.scanner = scanner;
        this.options = options;
    }
    push(text) {
        if (text.length === 0)
            return;
        if (!this.started) {
            this.started = true;
            if (this.options.bom !== false && text.charCodeAt(0) === 0xfeff)
                text = text.slice(1);
        }
        let from = 0;
        if (this.pending.length > 0) {
            const nl = text.indexOf('\n');
            if (nl === -1) {
                this.pending += text;
                this.checkPending();
                return;
            }
            const rest = this.scanner.scan(this.pending + text.slice(0, nl + 1), 0, false);
            if (rest.length > 0) {
                this.pending = this.scanner.scan(rest + text.slice(nl + 1), 0, false);
                this.checkPending();
                return;
            }
            from = nl + 1;
        }
        this.pending = this.scanner.scan(text, from, false);
        this.checkPending();
    }
    end() {
        const rest = this.pending;
        this.pending = '';
        if (rest.length > 0)
            this.scanner.scan(rest, 0, true);
    }
    checkPending() {
        if (this.pending.length > this.options.maxRecordChars)
            throw this.scanner.tooLong(this.pending);
    }
}
const CR = 13;
function trimCr(s, pos, nl) {
    return nl > pos && s.charCodeAt(nl - 1) === CR ? nl - 1 : nl;
}
function indexOrEnd(s, needle, from) {
    const i = s.indexOf(needle, from);
    return i === -1 ? s.length : i;
}
function countQuotes(s, from, to) {
    let n = 0;
    for (let i = s.indexOf('"', from); i !== -1 && i < to; i = s.indexOf('"', i + 1))
        n++;
    return n;
}

export { CsvLineReader as C, EscapedUtf8Decoder as E, countQuotes as c, decodeEscaped as d, encodeEscaped as e, indexOrEnd as i, protectEscapedBytes as p, restoreEscapedBytes as r, streamText as s, trimCr as t, visibleName as v };

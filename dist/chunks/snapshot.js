import { openSync, readSync, closeSync } from 'node:fs';

// Error types that carry where bad input came from, so every message names the file and line or JSON pointer.
/** Bad input data: a file that cannot be parsed, a corrupt baseline. Exit code 2. */
class InputError extends Error {
    constructor(message) {
        super(message);
        this.name = 'InputError';
    }
}
/** A parse error at a known file and 1-based line. */
class ParseError extends InputError {
    file;
    line;
    reason;
    constructor(file, line, reason) {
        super(`${file}:${line}: ${reason}`);
        this.file = file;
        this.line = line;
        this.reason = reason;
        this.name = 'ParseError';
    }
}
/** A JSON document that failed its schema, with the JSON pointer of the bad field. */
class SchemaError extends InputError {
    file;
    pointer;
    reason;
    constructor(file, pointer, reason) {
        super(`${file}: ${pointer || '/'}: ${reason}`);
        this.file = file;
        this.pointer = pointer;
        this.reason = reason;
        this.name = 'SchemaError';
    }
}
/** Wrong command-line arguments or Action inputs. Exit code 2. */
class UsageError extends Error {
    constructor(message) {
        super(message);
        this.name = 'UsageError';
    }
}

// The messages between collect.ts and its parse workers (parse-worker.ts), and errors as plain data across threads.
function serializeError(error) {
    if (!(error instanceof Error))
        return { name: 'Error', message: String(error) };
    const out = { name: error.name, message: error.message };
    if (error.stack !== undefined)
        out.stack = error.stack;
    if (error instanceof ParseError) {
        out.name = 'ParseError';
        out.file = error.file;
        out.line = error.line;
        out.reason = error.reason;
    }
    else if (error instanceof SchemaError) {
        out.name = 'SchemaError';
        out.file = error.file;
        out.pointer = error.pointer;
        out.reason = error.reason;
    }
    else if (error instanceof InputError) {
        out.name = 'InputError';
    }
    else if (error instanceof UsageError) {
        out.name = 'UsageError';
    }
    const sys = error;
    if (typeof sys.code === 'string')
        out.code = sys.code;
    if (typeof sys.errno === 'number')
        out.errno = sys.errno;
    if (typeof sys.syscall === 'string')
        out.syscall = sys.syscall;
    if (typeof sys.path === 'string')
        out.path = sys.path;
    return out;
}
/** The same class and message as in the worker, so that the CLI and the Action report it exactly as in-process. */
function deserializeError(e) {
    let error;
    if (e.name === 'ParseError' && e.file !== undefined && e.line !== undefined && e.reason !== undefined) {
        error = new ParseError(e.file, e.line, e.reason);
    }
    else if (e.name === 'SchemaError' && e.file !== undefined && e.pointer !== undefined && e.reason !== undefined) {
        error = new SchemaError(e.file, e.pointer, e.reason);
    }
    else if (e.name === 'InputError') {
        error = new InputError(e.message);
    }
    else if (e.name === 'UsageError') {
        error = new UsageError(e.message);
    }
    else {
        error = new Error(e.message);
        error.name = e.name;
    }
    const sys = error;
    if (e.code !== undefined)
        sys.code = e.code;
    if (e.errno !== undefined)
        sys.errno = e.errno;
    if (e.syscall !== undefined)
        sys.syscall = e.syscall;
    if (e.path !== undefined)
        sys.path = e.path;
    // The worker's stack says where it failed; the main thread's would only show the message loop.
    if (e.stack !== undefined)
        error.stack = e.stack;
    return error;
}

/** Device names the same way in every parser: `03`, `dev03`, `NPU:3` → `dev3`; null when it is not a device number. */
function deviceName(raw) {
    const text = String(raw).trim();
    const m = /^(?:dev|NPU:?|npu:?)?0*(\d+)$/.exec(text);
    if (m === null)
        return null;
    return `dev${Number(m[1])}`;
}

// Byte sizes: exact parsing of driver integers and config strings, and human formatting for tables.
const UNITS = {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    TB: 1e12,
    KIB: 1024,
    MIB: 1024 ** 2,
    GIB: 1024 ** 3,
    TIB: 1024 ** 4,
};
/**
 * Parses a decimal byte count as printed by the driver (unsigned, up to 64 bits).
 * Returns null when the text is not a plain decimal integer; throws when it is one
 * but exceeds 2^53 - 1, because rounding a byte count silently would be worse than failing.
 */
function parseExactInteger(text, where) {
    if (!/^-?\d+$/.test(text))
        return null;
    const value = Number(text);
    if (!Number.isSafeInteger(value)) {
        throw new InputError(`${where}: ${text} is larger than 2^53 - 1 bytes and cannot be compared exactly`);
    }
    return value;
}
/**
 * Parses a size from a config or input: an integer number of bytes, or a string such as
 * "64MiB", "1.5 GiB", "200MB". Binary units (KiB, MiB, GiB, TiB) and decimal units (KB, MB, GB, TB).
 * Returns null when the text is not a size.
 */
function parseSize(value) {
    if (typeof value === 'number')
        return Number.isSafeInteger(value) && value >= 0 ? value : null;
    const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$/i.exec(value);
    if (!m)
        return null;
    const unit = UNITS[(m[2] ?? 'B').toUpperCase()];
    if (unit === undefined)
        return null;
    const bytes = Math.round(Number(m[1]) * unit);
    return Number.isSafeInteger(bytes) ? bytes : null;
}
/** "19.4 GiB", "420.0 MiB", "512 B": binary units, one decimal. */
function formatBytes(bytes) {
    const sign = bytes < 0 ? '-' : '';
    let n = Math.abs(bytes);
    if (n < 1024)
        return `${sign}${n} B`;
    const names = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
    let i = -1;
    while (n >= 1024 && i < names.length - 1) {
        n /= 1024;
        i++;
    }
    return `${sign}${n.toFixed(1)} ${names[i]}`;
}
/** A delta with an explicit sign: "+1.5 GiB", "-4.0 KiB", "0 B". */
function formatDelta(bytes) {
    return bytes > 0 ? `+${formatBytes(bytes)}` : formatBytes(bytes);
}
/** A percentage with an explicit sign and one decimal, or "n/a" when undefined (baseline 0 or absent). */
function formatPercent(percent) {
    if (percent === null || !Number.isFinite(percent))
        return 'n/a';
    const s = percent.toFixed(1);
    return percent > 0 ? `+${s}%` : `${s}%`;
}

// Reads the driver's memory statistics (every known generation), allocation failures and their devices out of CANN plog files.
//
// How it stays fast and bounded: chunks stay Buffers; two short byte needles ("Bytes", "ERR") found with
// Buffer.indexOf mark the few interesting spots, and only the logical record around a hit (its physical line plus
// wrapped continuation lines, at most MAX_RECORD_LINES / MAX_RECORD_BYTES) is decoded and matched. Between chunks only
// the incomplete last line and MAX_RECORD_BYTES of context are kept. Line numbers are counted only once a record
// needs one. Known limit: a wrap that cuts the word "Bytes" (or "ERROR") itself hides that record from the search.
/** A wrapped record is reassembled over at most this many physical lines... */
const MAX_RECORD_LINES = 64;
/** ...and this many bytes, so that garbage without `[LEVEL]` prefixes cannot grow a record without bound. */
const MAX_RECORD_BYTES = 16 * 1024;
/** A physical line longer than this is cut where the buffer ends: no newline for megabytes is garbage, not a log. */
const MAX_LINE_BYTES = 1024 * 1024;
/** Read size: large enough for few syscalls, small enough that the needle passes run on bytes still in cache. */
const CHUNK_BYTES = 1024 * 1024;
/** parsePlogFile lets other async work run after this many chunks. */
const CHUNKS_PER_YIELD = 16;
const NL = 0x0a;
// Needles shorter than 8 bytes that start with a rare upper-case byte: Node then searches with memchr on that byte,
// several times faster than its Boyer-Moore path for 8+ byte needles such as "Mem stats" (measured on 1 GiB).
/** "(Bytes)" in every record head, "<n>Bytes" in Cached_size lines. */
const STATS_NEEDLE = 0;
/** Allocation failures are only counted on ERROR lines (`ERROR]`, or `ERR0R]` in damaged pastes): one needle finds them all. */
const ERROR_NEEDLE = 1;
const NEEDLES = [Buffer.from('Bytes'), Buffer.from('ERR')];
/**
 * What indexOf actually looks for, per needle: its tail from SEARCH_SKIP bytes on, whose first byte is rarer in logs
 * than the needle's own ('R' is three quarters as frequent as 'E' in plog text, so memchr stops less often). A tail
 * hit counts only when the skipped head precedes it, so the hits are the same.
 */
const SEARCH_SKIP = [0, 1];
const SEARCH_TAILS = NEEDLES.map((n, i) => n.subarray(SEARCH_SKIP[i]));
/** Bytes of a new chunk copied behind the kept bytes; the rest of the chunk is scanned where it lies, uncopied. */
const JUNCTION_BYTES = 4 * MAX_RECORD_BYTES;
/** Level words as they start a line, `ERR0R` being a damaged paste's `ERROR`; each is followed by `]`. */
const LEVEL_WORDS = ['ERROR', 'ERR0R', 'WARNING', 'INFO', 'DEBUG', 'EVENT', 'TRACE'].map((level) => Buffer.from(`${level}]`));
/** Tags that start a record pasted with its level and `DRV(...)` prefix cut off. */
const CUT_PREFIX_TAGS = ['[devmm]', '[drv]', '[ascend]'].map((tag) => Buffer.from(tag));
/** A line that starts at the attribute word, its prefix cut off: `DEV_MEM dev0 Mem stats`, `HOST_MEM Cached_size:`. */
const ATTRIBUTE_START = /^[A-Z][A-Z0-9_]*[ \t]+(?:dev\d+[ \t]+)?(?:[Mm]em[ \t]+stats|Cached_size\b)/;
/** `grep -n` output: `<path>:<line>:` (or `<line>:` for one file) before the line itself. */
const GREP_PREFIX = /:\d+:/g;
/** How far into a line a `grep -n` prefix (a path) may reach. */
const MAX_GREP_PREFIX_BYTES = 1024;
/** `[LEVEL] MODULE(`: where a plog line, or a line glued onto another one, begins; damaged pastes lose the `[`. */
const SEGMENT = /\[?(ERROR|ERR0R|WARNING|INFO|DEBUG|EVENT|TRACE)\]\s*[A-Za-z][A-Za-z0-9_-]*\(/g;
// The driver prints the attribute right after its `[function]` tag; anchoring on `]` (or on the start of a record whose
// prefix was cut, or on a `grep -n` prefix's `:`) keeps a word cut by a wrap ("DEV_" + "MEM") from passing as an attribute.
const HEAD = /[\]:]\s*([A-Z][A-Z0-9_]*)\s+(?:dev(\d+)\s+)?(?:([Mm]em\s+stats\s*\(Bytes\))|Cached_size\b)/g;
/** HEAD, also at the start of a record whose prefix was cut off (only where a record surely starts). */
const HEAD_AT_START = new RegExp(HEAD.source.replace('[\\]:]', '(?:^|[\\]:])'), 'g');
/** v1/v2/v3 body: `. (module_name=X; module_id=N; current…; alloc(ated)_peak_size…; alloc_cnt…; free_cnt…)` or `total_size=N)`. */
const BODY_V1 = /\.\s*\(\s*module_name\s*=\s*([A-Z][A-Z0-9_]*)\s*;\s*module_id\s*=\s*\d+\s*;\s*(?:current_alloced_size\s*=\s*(\d+)\s*;\s*(alloced|allocated)_peak_size\s*=\s*(\d+)\s*;\s*alloc_cnt\s*=\s*(\d+)\s*;\s*free_cnt\s*=\s*(\d+)|total_size\s*=\s*(\d+))\s*\)/y;
/** v0 body: `: module_name=X, module_id=N current_alloced_size=N, alloced_peak_size=N.` (no comma after module_id). */
const BODY_V0 = /\s*:\s*module_name\s*=\s*([A-Z][A-Z0-9_]*)\s*,\s*module_id\s*=\s*\d+\s*,?\s*current_alloced_size\s*=\s*(\d+)\s*,\s*alloced_peak_size\s*=\s*(\d+)\s*\./y;
/** v2 `HOST_MEM Cached_size:12582912Bytes`: the unit is required, so a line cut inside the number never passes. */
const BODY_CACHED = /\s*:\s*(\d+)\s*Bytes\b/y;
// Conservative on purpose: only ERROR lines, and only the driver's own failure, an explicit "out of memory", or the
// framework's error code for a failed allocation (EL0004).
const ALLOC_FAILURE = /\bhalMemAlloc\s+failed\b|\bout\s+of\s+memory\b|\bMemory_Allocation_Failure\b|\bEL0004\b/i;
/**
 * device_id=N (or `device_id N` in a damaged paste), deviceId=N, drvDevId=N, devId=N, dev_id=N, device N / device(N) /
 * device[N], devN / dev N: the first one wins.
 */
const FAILURE_DEVICE = /(?:\b|drv_?)(?:device_?id|dev_?id)\s*[=:]?\s*(\d+)|\bdevice\s*[=:([]?\s*(\d+)|\bdev\s?(\d+)\b/i;
/** Failure lines kept per device for the report: the first few show where the job ran out of memory. */
const FAILURE_SITES_PER_DEVICE = 5;
/** A failure site's text is cut to this many characters. */
const FAILURE_TEXT_CHARS = 240;
/** An allocation failure that names no device is still an out-of-memory signal: it is counted under this name. */
const UNKNOWN_DEVICE = 'unknown';
/** Per builder: device → its first failure sites (held here until the snapshot model carries them). */
const failureSitesOf = new WeakMap();
/** Counts one failure line on `device`, keeping its site while the device has fewer than FAILURE_SITES_PER_DEVICE. */
function addAllocFailureLine(into, device, site) {
    into.addAllocFailure(device, 1);
    let sites = failureSitesOf.get(into);
    if (sites === undefined)
        failureSitesOf.set(into, (sites = new Map()));
    const list = sites.get(device) ?? [];
    if (list.length >= FAILURE_SITES_PER_DEVICE)
        return;
    list.push(site());
    sites.set(device, list);
}
/** Junction buffers handed from one finished scanner to the next (see PlogScanner.junction); one scanner owns them at a time. */
let spareJunctions = null;
function takeSpareJunctions() {
    const spare = spareJunctions ?? [undefined, undefined];
    spareJunctions = null;
    return spare;
}
/**
 * The streaming core shared by parsePlogText and parsePlogFile: push(chunk)… end().
 *
 * Line numbers are counted only when a record needs one (a skipped record, a fatal value). If the bytes before the
 * kept window were already dropped, `newlinesBefore` counts them once, from the source; from then on the scanner
 * counts newlines as bytes pass, since a file with one bad record often has more.
 */
class PlogScanner {
    name;
    into;
    newlinesBefore;
    buf = Buffer.alloc(0);
    /** File offset of buf[0]; always the start of a line. */
    bufStart = 0;
    /** Hits before this offset have been read. */
    scanFrom = 0;
    /** End of the last record read: a walk back to find where a record starts stops here. */
    floor = 0;
    /** Start of the line of a hit whose record may continue into data not read yet. */
    pendingLine = null;
    /** Per needle: offset of its next occurrence, or -1 for none before `searched`. */
    nextAt = NEEDLES.map(() => -1);
    searched = NEEDLES.map(() => 0);
    /** The two junction buffers (allocated on first use, or the last scanner's), and which one the next junction goes to. */
    junctions = takeSpareJunctions();
    nextJunction = 0;
    /** Newlines before countedTo; counting starts with the first record that needs a line number. */
    countedTo = 0;
    newlinesCounted = 0;
    counting = false;
    constructor(name, into, newlinesBefore) {
        this.name = name;
        this.into = into;
        this.newlinesBefore = newlinesBefore;
    }
    /** Scans the next bytes of the file. The scanner may keep a view of `chunk` until the next push, never longer. */
    push(chunk) {
        if (chunk.length === 0)
            return;
        const chunkStart = this.bufStart + this.buf.length;
        if (this.buf.length > 0) {
            // Only the junction is copied: the kept bytes plus the chunk's first bytes, enough to finish every record there.
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
    /**
     * `kept` followed by `head`, in one of two junction buffers used in turn. A fresh buffer per chunk would be garbage
     * that V8 only returns when external memory forces a GC: ~80 KiB per MiB read, tens of MiB of RSS on a large input.
     * Two suffice: `kept` is a view into the chunk, a buffer of its own, or the junction used last, never the other one.
     */
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
    /** End of file: the last line counts even without a newline. */
    end() {
        this.scan(true);
        // The next scanner (the next file) reuses the junction buffers; this one keeps no view into them after end().
        this.buf = Buffer.alloc(0);
        spareJunctions = this.junctions;
        this.junctions = [undefined, undefined];
    }
    scan(final) {
        const end = this.bufStart + this.buf.length;
        // Bytes before `complete` are whole lines; `closed` says nothing can continue the line that ends there.
        let complete = final ? end : this.bufStart + this.buf.lastIndexOf(NL) + 1;
        let closed = final;
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
            const hitEnd = this.lineEndOf(hit, complete);
            if (needle === ERROR_NEEDLE && this.surelyNoFailure(hit, hitEnd, complete)) {
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
            if (needle === ERROR_NEEDLE && !this.mayBeFailure(start, recordEnd)) {
                this.search(needle, hit + 1);
                continue;
            }
            this.readRecord(start, recordEnd, anchored);
            this.floor = this.scanFrom = recordEnd;
        }
        if (final && end > this.scanFrom && this.buf[this.buf.length - 1] !== NL) {
            // A process killed mid-write leaves a last line without newline; read it even if the cut came before "Bytes".
            const lastLine = this.lineStartOf(end);
            if (lastLine >= this.scanFrom) {
                const [start, , anchored] = this.walkBack(lastLine, end);
                this.readRecord(start, end, anchored);
            }
        }
        if (closed)
            this.floor = this.scanFrom = Math.max(this.scanFrom, complete);
        // Keep what a later walk back may reach: MAX_RECORD_BYTES before the first line not read yet.
        const unread = this.pendingLine ?? complete;
        this.keep(closed ? end : Math.max(this.floor, this.lineStartOf(Math.max(this.bufStart, unread - MAX_RECORD_BYTES))));
    }
    /** Drops the bytes before `from` (a line start), counting their newlines first when line numbers are in use. */
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
    /** The needle whose next occurrence at or after scanFrom comes first, or -1. */
    nextNeedle() {
        const end = this.bufStart + this.buf.length;
        let best = -1;
        let bestAt = Infinity;
        for (let i = 0; i < NEEDLES.length; i++) {
            let at = this.nextAt[i];
            if (at >= 0 && at < this.scanFrom)
                at = this.search(i, this.scanFrom);
            else if (at < 0 && this.searched[i] < end) {
                // Back up by the needle's length: it may straddle the end of the data searched before.
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
    /** Whether the first `skip` bytes of `needle` end right before buf[at]. */
    headBefore(at, needle, skip) {
        for (let k = 1; k <= skip; k++)
            if (this.buf[at - k] !== needle[skip - k])
                return false;
        return true;
    }
    /** A cheap look at the byte before "Bytes": `(` for a record head, a digit or a space for a Cached_size value. */
    mayBeStats(at) {
        if (at === this.bufStart)
            return true;
        const before = this.buf[at - 1 - this.bufStart];
        const digit = before >= 0x30 && before <= 0x39;
        return before === 0x28 || digit || before === 0x20 || before === 0x09 || before === 0x0a || before === 0x0d;
    }
    /** A cheap look after "ERR": `OR]` (or `0R]`, a damaged paste's zero) makes it a level tag. */
    mayBeLevel(at) {
        const i = at - this.bufStart + 3;
        if (i + 2 >= this.buf.length)
            return true;
        const o = this.buf[i];
        return (o === 0x4f || o === 0x30) && this.buf[i + 1] === 0x52 && this.buf[i + 2] === 0x5d;
    }
    /** An ERROR record is read whole only if it holds the words of an allocation failure. */
    mayBeFailure(start, end) {
        return ALLOC_FAILURE.test(this.buf.toString('latin1', start - this.bufStart, end - this.bufStart).replace(/[\r\n]/g, ' '));
    }
    /** The common ERROR line, fast: no failure words after the hit, and the next line starts a new record. */
    surelyNoFailure(hit, hitEnd, complete) {
        if (hitEnd + 1 >= complete)
            return false;
        const rest = this.buf.toString('latin1', hit - this.bufStart, hitEnd - this.bufStart);
        return !ALLOC_FAILURE.test(rest) && this.startsRecord(hitEnd + 1, complete);
    }
    /** Start of the line that holds `at` (never before the floor, which is itself a line start). */
    lineStartOf(at) {
        if (at <= this.bufStart)
            return this.bufStart;
        const nl = this.buf.lastIndexOf(NL, at - 1 - this.bufStart);
        return Math.max(this.bufStart + nl + 1, this.floor);
    }
    /** Offset of the newline that ends the line holding `at` (< complete), or `complete` when the data ends first. */
    lineEndOf(at, complete) {
        // No newline lies at or after `complete`: it is the end of the data or just after the last newline.
        const nl = this.buf.indexOf(NL, at - this.bufStart);
        return nl < 0 ? complete : this.bufStart + nl;
    }
    /**
     * Whether the line at `at` starts a record of its own (so it is no wrapped continuation): a `[LEVEL]` prefix, or
     * as pasted into reports, a level that lost its `[` (`ERROR]`, `ERR0R]`), a prefix cut at `[devmm]` or at the
     * attribute word, any of these behind a `grep -n` `<path>:<line>:` prefix.
     */
    startsRecord(at, complete) {
        let i = at - this.bufStart;
        // A UTF-8 byte order mark (files saved on Windows) may precede the first line's prefix.
        if (at === 0 && this.buf[0] === 0xef && this.buf[1] === 0xbb && this.buf[2] === 0xbf)
            i += 3;
        const limit = complete - this.bufStart;
        if (this.startsRecordAt(i, limit) && !this.wrapInsideWord(i))
            return true;
        const first = this.buf[i];
        // Lines of a normal log start with `[`; an upper-case start was looked at above: neither has a grep prefix.
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
    /**
     * Whether the line at buf[i] continues a word cut by a wrap: the lines before end in `]` and a bare upper-case word
     * (`…_show 148]MEM_DEV_` + `HBM dev0 Mem stats`), so this line's first word is no attribute of its own.
     */
    wrapInsideWord(i) {
        if (i === 0 || this.buf[i - 1] !== NL)
            return false;
        // Back over the word's earlier pieces (a wrap may cut it more than once) to what precedes the word.
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
    /** startsRecord without the grep prefix; `i` is an index into buf. */
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
    /** Whether one of `tags` starts at buf[i]. Byte by byte in JS: the tags are short, a native call costs more. */
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
    /**
     * Where the logical record holding the hit line starts, how many lines that makes up to the hit line, and whether
     * that start is a record's own (false: no record start within reach, the hit line is read alone).
     */
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
        // No record start within reach: the hit line is read on its own, but its first word is no attribute for sure.
        return [hitLine, 1, false];
    }
    /** End of the logical record (after its last newline), or -1 when the next line is not here yet. Same bounds as walkBack. */
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
    /**
     * Joins the record's lines with spaces (keeping offsets) and reads each `[LEVEL] X(` segment on its own. `anchored`:
     * the record starts where a record starts, so an attribute word right at its start is one (a prefix cut off).
     */
    readRecord(start, end, anchored) {
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
            this.into.addModule(`${prefix}/${parsed.module}`, parsed.metric);
            if (device !== null)
                this.into.noteDevice(device);
        }
        if ((level === 'ERROR' || level === 'ERR0R') && ALLOC_FAILURE.test(text)) {
            const d = FAILURE_DEVICE.exec(text);
            const digits = d === null ? null : (d[1] ?? d[2] ?? d[3] ?? null);
            const device = (digits === null ? null : deviceOf(digits)) ?? UNKNOWN_DEVICE;
            addAllocFailureLine(this.into, device, () => ({ file: this.name, line: this.lineAt(at), text: excerpt(text, 0, FAILURE_TEXT_CHARS) }));
        }
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
    /** The one case that stops the run: a byte count above 2^53 - 1 cannot be compared exactly, and rounding would lie. */
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
        // The body regexes only capture digits, so parseExactInteger cannot return null here.
        return value;
    }
    skip(at, reason) {
        this.into.addSkipped({ file: this.name, line: this.lineAt(at), reason });
    }
    fail(at, reason) {
        throw new ParseError(this.name, this.lineAt(at), reason);
    }
    /** The 1-based physical line holding `at` (which is always inside the kept window). */
    lineAt(at) {
        if (!this.counting || this.countedTo < this.bufStart) {
            // The bytes before the window are gone (or were never counted): count them once, from the source.
            this.countedTo = this.bufStart;
            this.newlinesCounted = this.newlinesBefore(this.bufStart);
            this.counting = true;
        }
        if (at >= this.countedTo)
            this.newlinesCounted += countNewlines(this.buf, this.countedTo - this.bufStart, at - this.bufStart);
        else
            this.newlinesCounted -= countNewlines(this.buf, at - this.bufStart, this.countedTo - this.bufStart);
        this.countedTo = at;
        return this.newlinesCounted + 1;
    }
}
/** Newlines in buf[from, to). */
function countNewlines(buf, from, to) {
    let n = 0;
    for (let i = from < to ? buf.indexOf(NL, from) : -1; i !== -1 && i < to; i = buf.indexOf(NL, i + 1))
        n++;
    return n;
}
/** The start of a record for a message: one line, bounded, whitespace collapsed, UTF-8 decoded again. */
function excerpt(text, from, chars = 120) {
    const s = Buffer.from(text.slice(from, from + chars), 'latin1').toString('utf8').replace(/\s+/g, ' ').trim();
    return from + chars < text.length ? `${s}…` : s;
}
/** A device number as every parser names it (`03` → `dev3`), or null when it is too long to be one. */
function deviceOf(digits) {
    return digits.replace(/^0+(?=\d)/, '').length > 9 ? null : deviceName(digits);
}
/**
 * Streams one plog file through the scanner with bounded memory (two chunk buffers plus the scanner's window).
 *
 * Synchronous reads into two alternating buffers, not createReadStream: on a 1 GiB corpus they were ~1.7x faster,
 * because the needle passes then run on bytes this core has just copied and still holds in cache. Two buffers suffice
 * because the scanner keeps a view of the last pushed chunk only. The event loop gets a turn every few chunks.
 */
async function parsePlogFile(file, into, options = {}) {
    const chunkBytes = Math.max(1, options.chunkBytes ?? CHUNK_BYTES);
    const fd = openSync(file.path, 'r');
    const buffers = takeReadBuffers(chunkBytes);
    try {
        into.files++;
        const scanner = new PlogScanner(file.name, into, (offset) => countFileNewlines(fd, offset));
        let position = 0;
        for (let n = 0;; n++) {
            const buffer = buffers[n % 2];
            const read = readSync(fd, buffer, 0, chunkBytes, position);
            if (read === 0)
                break;
            position += read;
            scanner.push(buffer.subarray(0, read));
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
/**
 * Read buffers are reused from one file to the next: fresh ones per file would be garbage that only a full GC returns
 * (64 files = 128 MiB of external memory, RSS growing with the file count). A call that runs while another one holds
 * the spare pair (concurrent parses in one thread) gets its own.
 */
let spareReadBuffers = null;
function takeReadBuffers(chunkBytes) {
    const spare = spareReadBuffers;
    spareReadBuffers = null;
    if (spare !== null && spare[0].length === chunkBytes)
        return spare;
    return [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)];
}
/** Newlines in a file's first `length` bytes: read again only when a record needs a line number for dropped bytes. */
function countFileNewlines(fd, length) {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, length)));
    let n = 0;
    for (let position = 0; position < length;) {
        const read = readSync(fd, buffer, 0, Math.min(buffer.length, length - position), position);
        if (read === 0)
            break;
        n += countNewlines(buffer, 0, read);
        position += read;
    }
    return n;
}

// The metric model every parser fills and every later stage reads, and its stable JSON form.
/** Builds a snapshot from many files; keeps the record with the largest value per key, never sums across files. */
class SnapshotBuilder {
    modules = new Map();
    kernels = new Map();
    allocFailures = new Map();
    skippedRecords = [];
    files = 0;
    records = 0;
    skipped = 0;
    /** Several dumps, processes or ranks for one key: the largest peak wins whole; on a tie the later one. */
    addModule(key, metric) {
        const prev = this.modules.get(key);
        if (prev === undefined || metric.peak >= prev.peak)
            this.modules.set(key, { ...metric });
    }
    /** Each file is one node's view of a kernel: the aggregate with the larger diff wins; on a tie the later one. */
    addKernel(key, metric) {
        const prev = this.kernels.get(key);
        if (prev === undefined || metric.diff >= prev.diff)
            this.kernels.set(key, { ...metric });
    }
    /** Marks a device as seen, so that allocFailures lists it with 0. */
    noteDevice(device) {
        if (!this.allocFailures.has(device))
            this.allocFailures.set(device, 0);
    }
    addAllocFailure(device, count = 1) {
        this.allocFailures.set(device, (this.allocFailures.get(device) ?? 0) + count);
    }
    addSkipped(record) {
        this.skipped++;
        // Keep a bounded sample for warnings: a garbage file must not grow memory without bound.
        if (this.skippedRecords.length < 1000)
            this.skippedRecords.push(record);
    }
    /** Folds another builder's results in, as if its files had been read after this one's. */
    merge(from) {
        const other = from instanceof SnapshotBuilder ? from.toState() : from;
        for (const [k, v] of other.modules)
            this.addModule(k, v);
        for (const [k, v] of other.kernels)
            this.addKernel(k, v);
        for (const [d, n] of other.allocFailures) {
            this.noteDevice(d);
            this.addAllocFailure(d, n);
        }
        this.files += other.files;
        this.records += other.records;
        this.skipped += other.skipped;
        for (const r of other.skippedRecords)
            if (this.skippedRecords.length < 1000)
                this.skippedRecords.push(r);
    }
    /**
     * Everything this builder holds, as plain data that survives structured cloning (postMessage to or from a worker
     * thread: Maps keep their insertion order there). `merge(state)` folds it in exactly as `merge(builder)` would.
     */
    toState() {
        return {
            modules: this.modules,
            kernels: this.kernels,
            allocFailures: this.allocFailures,
            skippedRecords: this.skippedRecords,
            files: this.files,
            records: this.records,
            skipped: this.skipped,
        };
    }
    build() {
        return {
            version: 1,
            modules: sortedRecord(this.modules),
            kernels: sortedRecord(this.kernels),
            meta: {
                files: this.files,
                records: this.records,
                skipped: this.skipped,
                allocFailures: sortedRecord(this.allocFailures),
            },
        };
    }
}
function sortedRecord(map) {
    // fromEntries, not assignment: a kernel named `__proto__` must stay a key.
    return Object.fromEntries([...map.keys()].sort(compareKeys).map((key) => [key, map.get(key)]));
}
/** Orders keys so that dev2 sorts before dev10 and the table reads naturally. */
function compareKeys(a, b) {
    keyCollator ??= new Intl.Collator('en', { numeric: true });
    return keyCollator.compare(a, b);
}
// One collator for all comparisons: localeCompare builds one per call, 3 s for 100k keys. Built on first use: it costs
// ~9 ms, which parse workers (they never sort) and runs that stop early should not pay at start-up.
let keyCollator;
/** JSON with object keys sorted at every level, 2-space indent and a trailing newline: diffs review well. */
function stableStringify(value) {
    return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}
function sortDeep(value) {
    if (Array.isArray(value))
        return value.map(sortDeep);
    if (value !== null && typeof value === 'object') {
        const record = value;
        return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortDeep(record[key])]));
    }
    return value;
}
/** True when the snapshot holds no metric at all: a run that must fail loudly, never pass. */
function isEmptySnapshot(snapshot) {
    return Object.keys(snapshot.modules).length === 0 && Object.keys(snapshot.kernels).length === 0;
}

export { InputError as I, ParseError as P, SnapshotBuilder as S, UsageError as U, formatBytes as a, formatDelta as b, compareKeys as c, deserializeError as d, serializeError as e, formatPercent as f, parseSize as g, SchemaError as h, isEmptySnapshot as i, deviceName as j, parseExactInteger as k, parsePlogFile as p, stableStringify as s };

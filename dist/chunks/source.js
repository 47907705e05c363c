import { readFileSync, readdirSync, openSync, fstatSync, closeSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { I as InputError } from './errors.js';
import { i as isCompressed, a as inflatePickle } from './compressed.js';
import { w as withOomCauses, O as OOM_FIELD_DEFAULTS } from './oom-cause.js';
import { r as oomModules, t as MAX_POINTS, m as metricsOf, u as allocationSites, w as ooms, x as allocator, y as linesField } from './evidence-sources.js';
import { d as decimalBytes, M as MIB } from './decimal.js';
import { createHash } from 'node:crypto';
import { r as rewriteKeys, s as sectionRewrite } from './rewrite-keys.js';
import { f as findDeviceSegment } from './keys.js';
import 'node:os';
import 'node:stream';
import 'node:stream/promises';
import 'node:zlib';

const HEADER = 'moduleName,curMemSize(MB),memPeakSize(MB)';
const NAME = /^device_(\d{1,9})_memUsageInfo_(\d{14})\.csv$/;
const OOM_DUMP = /_(\d{14})\.(?:pickle|pkl)$/;
const PAIRING_SECONDS = 60;
function isMemUsageFile(name) {
    return NAME.test(path.basename(name));
}
function parseMemUsageFile(filePath, name, into) {
    const m = NAME.exec(path.basename(name));
    if (m === null)
        throw new InputError(`${name}: not a torch_npu memUsageInfo table (device_<N>_memUsageInfo_<YYYYmmddHHMMSS>.csv)`);
    const device = Number(m[1]);
    const lines = readFileSync(filePath, 'utf8')
        .replace(/^\ufeff/, '')
        .split(/\r?\n/);
    if (lines[0] !== HEADER)
        throw new InputError(`${name}:1: the header is not ${HEADER}: not a torch_npu memUsageInfo table`);
    into.files++;
    for (let i = 1; i < lines.length; i++) {
        const line = lines[i];
        if (line === '')
            continue;
        const cells = line.split(',');
        const peakText = cells.pop() ?? '';
        const currentText = cells.pop() ?? '';
        const module = cells.join(',');
        const current = decimalBytes(currentText, MIB);
        const peak = decimalBytes(peakText, MIB);
        if (module === '' || typeof current !== 'number' || typeof peak !== 'number') {
            into.addSkipped({ file: name, line: i + 1, reason: 'not a `module,curMemSize(MB),memPeakSize(MB)` row' });
            continue;
        }
        into.records++;
        into.add(oomModules, `dev${device}/${module}`, {
            peak,
            current,
            file: name,
            logicalDevice: device,
            visibleDevices: null,
        });
    }
}
function memUsageBeside(dumpPath, dumpName, devices) {
    let entries;
    try {
        entries = readdirSync(path.dirname(dumpPath));
    }
    catch {
        return [];
    }
    const stamp = OOM_DUMP.exec(path.basename(dumpPath))?.[1];
    const byDevice = new Map();
    for (const file of entries) {
        const m = NAME.exec(file);
        if (m === null || !devices.has(Number(m[1])))
            continue;
        const distance = stamp === undefined ? 0 : Math.abs(seconds(m[2]) - seconds(stamp));
        if (stamp !== undefined && distance > PAIRING_SECONDS)
            continue;
        const list = byDevice.get(Number(m[1])) ?? [];
        list.push({ file, distance });
        byDevice.set(Number(m[1]), list);
    }
    const out = [];
    for (const [, candidates] of [...byDevice].sort((a, b) => a[0] - b[0])) {
        if (stamp === undefined && candidates.length > 1)
            continue;
        candidates.sort((a, b) => a.distance - b.distance || (a.file < b.file ? -1 : 1));
        const file = candidates[0].file;
        out.push({ path: path.join(path.dirname(dumpPath), file), name: path.join(path.dirname(dumpName), file) });
    }
    return out;
}
function seconds(stamp) {
    const n = (from, to) => Number(stamp.slice(from, to));
    return ((((n(0, 4) * 12 + n(4, 6)) * 31 + n(6, 8)) * 24 + n(8, 10)) * 60 + n(10, 12)) * 60 + n(12, 14);
}

const UNKNOWN_SITE = '<unknown>';
const STDLIB = /\/lib\/python\d+\.\d+\//;
function isInternalFrame(filename) {
    if (filename === '' || filename === '??' || filename.startsWith('<') || !filename.endsWith('.py'))
        return true;
    if (filename.includes('/torch/') || filename.includes('/torch_npu/'))
        return true;
    return STDLIB.test(filename) && !filename.includes('site-packages/');
}
const PACKAGES = /^.*\/(?:site|dist)-packages\//s;
function relativeFile(file, root) {
    const pkg = PACKAGES.exec(file);
    if (pkg !== null)
        return { file: file.slice(pkg[0].length), codeRoot: pkg[0] };
    if (root !== null && file.startsWith(root))
        return { file: file.slice(root.length), codeRoot: root };
    return { file, codeRoot: '' };
}
function relativeSite(site, root) {
    const m = SITE.exec(site);
    if (m === null || site === UNKNOWN_SITE)
        return { site, codeRoot: '' };
    const { file, codeRoot } = relativeFile(m[1], root);
    return { site: file + site.slice(m[1].length), codeRoot };
}
const SITE = /^(.*):(-?\d+) (.*)$/s;
const FUNCTION_SITE = /^(.*\.py) ([^ ]*)$/s;
function commonFolder(files) {
    let common = null;
    for (const file of files) {
        if (!file.startsWith('/') || PACKAGES.test(file))
            continue;
        if (common === null)
            common = file.slice(0, file.lastIndexOf('/') + 1);
        while (common !== '' && !file.startsWith(common))
            common = common.slice(0, common.lastIndexOf('/', common.length - 2) + 1);
    }
    return common === null || common === '' || common === '/' ? null : common;
}
const UNKNOWN = { site: UNKNOWN_SITE, frame: null };
class SiteNames {
    work;
    frameDicts = new WeakMap();
    framesLists = new WeakMap();
    files = new Map();
    constructor(work) {
        this.work = work;
    }
    siteOf(frames) {
        if (!Array.isArray(frames))
            return UNKNOWN;
        const cached = this.framesLists.get(frames);
        if (cached !== undefined)
            return cached;
        let site = UNKNOWN;
        for (const frame of frames) {
            this.work.charge(1, 'naming allocation sites');
            const user = this.userFrame(frame);
            if (user === null)
                continue;
            site = user.site;
            break;
        }
        this.framesLists.set(frames, site);
        return site;
    }
    addUserFiles(frames, into) {
        if (!Array.isArray(frames))
            return;
        this.work.charge(frames.length, 'naming allocation sites');
        for (const frame of frames) {
            const user = this.userFrame(frame);
            if (user !== null)
                into.add(user.filename);
        }
    }
    userFrame(frame) {
        if (!(frame instanceof Map))
            return null;
        let known = this.frameDicts.get(frame);
        if (known !== undefined)
            return known;
        known = null;
        const filename = frame.get('filename');
        const sites = typeof filename === 'string' ? this.sitesIn(filename) : null;
        if (typeof filename === 'string' && sites !== null) {
            const line = frame.get('line');
            const name = frame.get('name');
            const fn = typeof name === 'string' ? name : '';
            const lineText = typeof line === 'number' || typeof line === 'bigint' ? String(line) : '0';
            let byName = sites.get(lineText);
            if (byName === undefined)
                sites.set(lineText, (byName = new Map()));
            let site = byName.get(fn);
            if (site === undefined) {
                this.work.charge(2 * (filename.length + lineText.length + fn.length), 'naming allocation sites');
                site = {
                    site: `${filename}:${lineText} ${fn}`,
                    frame: {
                        file: filename,
                        line: typeof line === 'number' && Number.isSafeInteger(line) ? line : 0,
                        name: fn.replaceAll(' ', '_'),
                    },
                };
                byName.set(fn, site);
            }
            known = { filename, site };
        }
        this.frameDicts.set(frame, known);
        return known;
    }
    sitesIn(filename) {
        let sites = this.files.get(filename);
        if (sites === undefined) {
            this.work.charge(4 * filename.length, 'naming allocation sites');
            sites = isInternalFrame(filename) ? null : new Map();
            this.files.set(filename, sites);
        }
        return sites;
    }
}

const MAX_OOM_SITES = 32;
class TraceTimeline {
    width = 1;
    peaks = [];
    add(point, value) {
        let bucket = Math.floor(point / this.width);
        while (bucket >= MAX_POINTS) {
            for (let i = 0; i < this.peaks.length; i += 2)
                this.peaks[i / 2] = Math.max(this.peaks[i], this.peaks[i + 1] ?? -Infinity);
            this.peaks.length = Math.ceil(this.peaks.length / 2);
            this.width *= 2;
            bucket = Math.floor(point / this.width);
        }
        if (bucket === this.peaks.length)
            this.peaks.push(value);
        else if (value > this.peaks[bucket])
            this.peaks[bucket] = value;
    }
    toSeries(offset) {
        return { axis: 'trace', width: this.width, points: this.peaks.map((peak, i) => [i * this.width, peak + offset]) };
    }
}
function exactSum(a, b, what) {
    const sum = a + b;
    if (!Number.isSafeInteger(sum))
        throw new RangeError(`${what()} passes 2^53 - 1 bytes and cannot be counted exactly`);
    return sum;
}
class DumpState {
    reserved = 0;
    allocated = 0;
    liveRequested = 0;
    largestSegment = 0;
    largestFreeBlock = 0;
    segments = 0;
    live = new Map();
    addSegment(total, allocated) {
        this.reserved = exactSum(this.reserved, total, () => 'reserved bytes (the sum of total_size)');
        this.allocated = exactSum(this.allocated, allocated, () => 'allocated bytes (the sum of allocated_size)');
        if (total > this.largestSegment)
            this.largestSegment = total;
        this.segments++;
    }
    addFreeBlock(size) {
        if (size > this.largestFreeBlock)
            this.largestFreeBlock = size;
    }
    addLiveBlock(address, use) {
        this.liveRequested = exactSum(this.liveRequested, use.size, () => 'live requested bytes');
        this.live.set(address, use);
    }
}
class TraceWalk {
    work;
    names;
    entries = 0;
    allocated = 0;
    reserved = 0;
    peakAllocated = 0;
    peakAllocatedPoint = 0;
    reservedAtPeakAllocated = 0;
    peakReserved = 0;
    peakReservedPoint = 0;
    allocatedAtPeakReserved = 0;
    slots = new Map();
    epoch = 0;
    ooms = [];
    oomTouches = [];
    allocatedTimeline = new TraceTimeline();
    reservedTimeline = new TraceTimeline();
    actions = new Map();
    constructor(work, names) {
        this.work = work;
        this.names = names;
        this.allocatedTimeline.add(0, 0);
        this.reservedTimeline.add(0, 0);
    }
    alloc(address, size, frames) {
        this.touch(address, true, size, frames);
        this.allocated = exactSum(this.allocated, size, () => "the trace's allocated bytes");
    }
    freeCompleted(address, size, frames) {
        this.touch(address, false, size, frames);
        this.allocated = exactSum(this.allocated, -size, () => "the trace's allocated bytes");
    }
    segment(size) {
        this.reserved = exactSum(this.reserved, size, () => "the trace's reserved bytes");
    }
    oom(size, deviceFree) {
        this.ooms.push({ index: this.entries, size, deviceFree, allocated: 0, reserved: 0, touched: null });
    }
    next(action) {
        this.work.charge(8 + this.oomTouches.length, 'walking the trace');
        this.actions.set(action, (this.actions.get(action) ?? 0) + 1);
        const point = ++this.entries;
        if (this.allocated >= this.peakAllocated) {
            this.peakAllocated = this.allocated;
            this.peakAllocatedPoint = point;
            this.reservedAtPeakAllocated = this.reserved;
            this.epoch++;
        }
        if (this.reserved >= this.peakReserved) {
            this.peakReserved = this.reserved;
            this.peakReservedPoint = point;
            this.allocatedAtPeakReserved = this.allocated;
        }
        const oom = this.ooms[this.ooms.length - 1];
        if (oom !== undefined && oom.index === point - 1) {
            oom.allocated = this.allocated;
            oom.reserved = this.reserved;
            if (this.oomTouches.length < MAX_OOM_SITES)
                this.oomTouches.push((oom.touched = new Map()));
        }
        this.allocatedTimeline.add(point, this.allocated);
        this.reservedTimeline.add(point, this.reserved);
    }
    touch(address, alloc, size, frames) {
        let slot = this.slots.get(address);
        if (slot === undefined) {
            slot = {
                lastAlloc: false,
                lastFrames: undefined,
                epoch: -1,
                firstAlloc: false,
                firstSize: 0,
                firstFrames: undefined,
                beforeAlloc: false,
                beforeFrames: undefined,
            };
            this.slots.set(address, slot);
        }
        if (slot.epoch !== this.epoch) {
            slot.epoch = this.epoch;
            slot.firstAlloc = alloc;
            slot.firstSize = size;
            slot.firstFrames = frames;
            slot.beforeAlloc = slot.lastAlloc;
            slot.beforeFrames = slot.lastFrames;
        }
        for (let i = 0; i < this.oomTouches.length; i++) {
            const touched = this.oomTouches[i];
            if (!touched.has(address))
                touched.set(address, {
                    firstAlloc: alloc,
                    firstSize: size,
                    firstFrames: frames,
                    beforeAlloc: slot.lastAlloc,
                    beforeFrames: slot.lastFrames,
                });
        }
        slot.lastAlloc = alloc;
        slot.lastFrames = frames;
    }
    finish(dump) {
        const allocatedOffset = dump.liveRequested - this.allocated;
        const reservedOffset = dump.reserved - this.reserved;
        const value = (offset, sum, what) => exactSum(offset, sum, () => what);
        const peakTouched = new Map();
        this.work.charge(this.slots.size, 'walking the trace');
        for (const [address, slot] of this.slots)
            if (slot.epoch === this.epoch)
                peakTouched.set(address, slot);
        return {
            traceEntries: this.entries,
            peakAllocated: {
                bytes: value(allocatedOffset, this.peakAllocated, 'peak allocated bytes'),
                point: this.peakAllocatedPoint,
                reserved: value(reservedOffset, this.reservedAtPeakAllocated, 'reserved bytes at the allocated peak'),
            },
            peakReserved: {
                bytes: value(reservedOffset, this.peakReserved, 'peak reserved bytes'),
                point: this.peakReservedPoint,
                allocated: value(allocatedOffset, this.allocatedAtPeakReserved, 'allocated bytes at the reserved peak'),
            },
            sites: bySite(this.liveAt(peakTouched, dump), this.names, this.work),
            ooms: this.ooms.map((o) => ({
                index: o.index,
                size: o.size,
                deviceFree: o.deviceFree,
                allocated: value(allocatedOffset, o.allocated, 'allocated bytes at an OOM'),
                reserved: value(reservedOffset, o.reserved, 'reserved bytes at an OOM'),
                entriesAfter: this.entries - o.index - 1,
                sites: o.touched === null ? null : bySite(this.liveAt(o.touched, dump), this.names, this.work),
            })),
            timeline: {
                allocated: this.allocatedTimeline.toSeries(allocatedOffset),
                reserved: this.reservedTimeline.toSeries(reservedOffset),
            },
        };
    }
    liveAt(touched, dump) {
        const live = [];
        this.work.charge(touched.size + dump.live.size, 'walking the trace');
        for (const around of touched.values()) {
            if (!around.firstAlloc)
                live.push({ size: around.firstSize, frames: around.beforeAlloc ? around.beforeFrames : around.firstFrames });
        }
        for (const [address, block] of dump.live) {
            if (touched.has(address))
                continue;
            const slot = this.slots.get(address);
            live.push(slot !== undefined && slot.lastAlloc ? { size: block.size, frames: slot.lastFrames } : block);
        }
        return live;
    }
}
function untracedFigures(dump, names, work) {
    return {
        traceEntries: 0,
        peakAllocated: { bytes: dump.liveRequested, point: 0, reserved: dump.reserved },
        peakReserved: { bytes: dump.reserved, point: 0, allocated: dump.liveRequested },
        sites: bySite([...dump.live.values()], names, work),
        ooms: [],
        timeline: null,
    };
}
function bySite(live, names, work) {
    const sites = new Map();
    const where = new Map();
    const userFiles = new Set();
    const seen = new Set();
    work.charge(live.length, 'naming allocation sites');
    for (const { size, frames } of live) {
        const { site, frame } = names.siteOf(frames);
        const s = sites.get(site);
        if (s === undefined) {
            sites.set(site, { bytes: size, blocks: 1 });
            if (frame !== null)
                where.set(site, frame);
        }
        else {
            s.bytes = exactSum(s.bytes, size, () => `the bytes of site ${site}`);
            s.blocks++;
        }
        if (Array.isArray(frames) && !seen.has(frames)) {
            seen.add(frames);
            names.addUserFiles(frames, userFiles);
        }
    }
    return { sites, frames: where, userFiles };
}

const WORK_PER_BYTE = 8;
const WORK_FLOOR = 16 * 1024 * 1024;
class WorkBudget {
    name;
    size;
    used = 0;
    limit;
    position = () => 0;
    constructor(name, size) {
        this.name = name;
        this.size = size;
        this.limit = WORK_FLOOR + WORK_PER_BYTE * size;
    }
    charge(units, what) {
        this.used += units;
        if (this.used > this.limit)
            throw this.exceeded(what);
    }
    ratio() {
        return this.size === 0 ? 0 : this.used / this.size;
    }
    exceeded(what) {
        const en = (n) => n.toLocaleString('en');
        return new InputError(`${this.name}: byte ${this.position()}: reading it takes more than ${en(this.limit)} units of work (${WORK_PER_BYTE} per byte of its ${en(this.size)} and ${WORK_FLOOR / (1024 * 1024)} MiB; spent ${what}): no snapshot torch_npu writes comes near that, so the file was built to keep the reader busy: refused, nothing of it was used (if torch_npu did write it, report it with the file)`);
    }
}

class PickleTuple {
    items;
    constructor(items) {
        this.items = items;
    }
}
class PickleFloat {
    value;
    constructor(value) {
        this.value = value;
    }
}
const FETCHED_AT = Symbol('fetched at');
class MemoFetches {
    of(value) {
        return typeof value === 'object' && value !== null ? value[FETCHED_AT] : undefined;
    }
    note(value, offset) {
        if (typeof value === 'object' && value !== null && value[FETCHED_AT] === undefined)
            value[FETCHED_AT] = offset;
    }
}
const OPCODE_NAMES = {
    0x80: 'PROTO',
    0x95: 'FRAME',
    0x2e: 'STOP',
    0x28: 'MARK',
    0x7d: 'EMPTY_DICT',
    0x73: 'SETITEM',
    0x75: 'SETITEMS',
    0x5d: 'EMPTY_LIST',
    0x61: 'APPEND',
    0x65: 'APPENDS',
    0x29: 'EMPTY_TUPLE',
    0x85: 'TUPLE1',
    0x86: 'TUPLE2',
    0x87: 'TUPLE3',
    0x74: 'TUPLE',
    0x8c: 'SHORT_BINUNICODE',
    0x58: 'BINUNICODE',
    0x8d: 'BINUNICODE8',
    0x4b: 'BININT1',
    0x4d: 'BININT2',
    0x4a: 'BININT',
    0x8a: 'LONG1',
    0x8b: 'LONG4',
    0x47: 'BINFLOAT',
    0x88: 'NEWTRUE',
    0x89: 'NEWFALSE',
    0x4e: 'NONE',
    0x94: 'MEMOIZE',
    0x71: 'BINPUT',
    0x72: 'LONG_BINPUT',
    0x68: 'BINGET',
    0x6a: 'LONG_BINGET',
    0x63: 'GLOBAL',
    0x93: 'STACK_GLOBAL',
    0x52: 'REDUCE',
    0x62: 'BUILD',
    0x69: 'INST',
    0x6f: 'OBJ',
    0x81: 'NEWOBJ',
    0x92: 'NEWOBJ_EX',
    0x50: 'PERSID',
    0x51: 'BINPERSID',
    0x82: 'EXT1',
    0x83: 'EXT2',
    0x84: 'EXT4',
    0x49: 'INT',
    0x4c: 'LONG',
    0x53: 'STRING',
    0x54: 'BINSTRING',
    0x55: 'SHORT_BINSTRING',
    0x56: 'UNICODE',
    0x46: 'FLOAT',
    0x42: 'BINBYTES',
    0x43: 'SHORT_BINBYTES',
    0x8e: 'BINBYTES8',
    0x96: 'BYTEARRAY8',
    0x97: 'NEXT_BUFFER',
    0x98: 'READONLY_BUFFER',
    0x64: 'DICT',
    0x6c: 'LIST',
    0x67: 'GET',
    0x70: 'PUT',
    0x30: 'POP',
    0x31: 'POP_MARK',
    0x32: 'DUP',
    0x8f: 'EMPTY_SET',
    0x90: 'ADDITEMS',
    0x91: 'FROZENSET',
};
const REFUSED = new Set([0x63, 0x93, 0x52, 0x62, 0x69, 0x6f, 0x81, 0x92, 0x50, 0x51, 0x82, 0x83, 0x84]);
const MAX_STRING_BYTES = 16 * 1024 * 1024;
const WINDOW_BYTES = 1024 * 1024;
function atByte(name, offset, reason) {
    return new InputError(`${name}: byte ${offset}: ${reason}`);
}
function opcodeName(op) {
    return `${OPCODE_NAMES[op] ?? 'unknown opcode'} (0x${op.toString(16).padStart(2, '0')})`;
}
class FileWindow {
    fd;
    size;
    buf = Buffer.allocUnsafe(WINDOW_BYTES);
    start = 0;
    pos = 0;
    end = 0;
    constructor(fd, size) {
        this.fd = fd;
        this.size = size;
    }
    offset() {
        return this.start + this.pos;
    }
    fill(n) {
        if (this.end - this.pos >= n)
            return true;
        this.buf.copy(this.buf, 0, this.pos, this.end);
        this.start += this.pos;
        this.end -= this.pos;
        this.pos = 0;
        while (this.end < n) {
            const read = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, this.start + this.end);
            if (read === 0)
                return false;
            this.end += read;
        }
        return true;
    }
    skip(n) {
        if (this.pos + n <= this.end) {
            this.pos += n;
            return true;
        }
        const target = this.start + this.pos + n;
        this.start = target;
        this.pos = 0;
        this.end = 0;
        return target <= this.size;
    }
    take(n) {
        if (n <= this.buf.length && this.fill(n)) {
            const out = this.buf.subarray(this.pos, this.pos + n);
            this.pos += n;
            return out;
        }
        const out = Buffer.allocUnsafe(n);
        const have = this.end - this.pos;
        this.buf.copy(out, 0, this.pos, this.end);
        let got = have;
        const from = this.start + this.pos;
        while (got < n) {
            const read = readSync(this.fd, out, got, n - got, from + got);
            if (read === 0)
                throw new Error('file shrank while being read');
            got += read;
        }
        this.start = from + n;
        this.pos = 0;
        this.end = 0;
        return out;
    }
}
class FetchCounts {
    counts = new Uint8Array(4096);
    sparse = new Map();
    static COUNTED_INDICES = 2 ** 28;
    static MANY = 255;
    get(i) {
        if (i >= FetchCounts.COUNTED_INDICES)
            return this.sparse.get(i) ?? 0;
        return i < this.counts.length ? this.counts[i] : 0;
    }
    set(i, n) {
        if (i >= FetchCounts.COUNTED_INDICES) {
            this.sparse.set(i, n);
            return;
        }
        if (i >= this.counts.length) {
            let length = this.counts.length * 2;
            while (length <= i)
                length *= 2;
            const grown = new Uint8Array(length);
            grown.set(this.counts);
            this.counts = grown;
        }
        this.counts[i] = n;
    }
    count(i) {
        const n = this.get(i);
        if (n < FetchCounts.MANY)
            this.set(i, n + 1);
    }
}
class Memo {
    fetches;
    count = 0;
    values = new Map();
    constructor(fetches) {
        this.fetches = fetches;
    }
    next() {
        return this.count;
    }
    put(index, value) {
        if (index === this.count)
            this.count++;
        if (this.fetches !== null && value !== undefined && this.fetches.get(index) > 0)
            this.values.set(index, value);
    }
    has(index) {
        return index < this.count;
    }
    fetch(index) {
        const value = this.values.get(index);
        const fetches = this.fetches;
        const left = fetches.get(index);
        if (left < FetchCounts.MANY) {
            if (left <= 1)
                this.values.delete(index);
            fetches.set(index, left - 1);
        }
        return value;
    }
}
function readPickle(path, name, streamedItems, memoFetches = new MemoFetches(), work) {
    const fd = openSync(path, 'r');
    try {
        const size = fstatSync(fd).size;
        const budget = work ?? new WorkBudget(name, size);
        budget.charge(size, 'reading its bytes');
        const fetches = scan(new FileWindow(fd, size), name);
        budget.charge(size, 'reading its bytes');
        return decode(new FileWindow(fd, size), name, fetches, streamedItems, memoFetches, budget);
    }
    finally {
        closeSync(fd);
    }
}
function scan(w, name) {
    const fetches = new FetchCounts();
    const memo = new Memo(null);
    readProtocol(w, name);
    for (;;) {
        const at = w.offset();
        if (!w.fill(1))
            throw truncated(name, w.size, null, at);
        const op = w.buf[w.pos++];
        if (op === 0x2e)
            return fetches;
        const fixed = fixedArgument(op);
        if (fixed >= 0) {
            if (!w.fill(fixed))
                throw truncated(name, w.size, op, at);
            const b = w.buf;
            const p = w.pos;
            switch (op) {
                case 0x68:
                case 0x6a: {
                    const index = op === 0x68 ? b[p] : b.readUInt32LE(p);
                    if (!memo.has(index))
                        throw atByte(name, at, `${opcodeName(op)} fetches memo entry ${index}, which nothing stored before it: the file is corrupt`);
                    fetches.count(index);
                    break;
                }
                case 0x94:
                    memo.put(memo.next(), undefined);
                    break;
                case 0x71:
                case 0x72: {
                    const index = op === 0x71 ? b[p] : b.readUInt32LE(p);
                    if (index > memo.next())
                        throw atByte(name, at, `${opcodeName(op)} stores memo entry ${index}, past the next one (${memo.next()}): pickle writers number memo entries in order, so this is no memory snapshot: refused, nothing of it was used`);
                    memo.put(index, undefined);
                    break;
                }
                case 0x80:
                    checkProtocol(b[p], name, at);
                    break;
            }
            w.pos += fixed;
            continue;
        }
        const length = variableLength(op, w, name, at);
        if (!w.skip(length))
            throw truncated(name, w.size, op, at);
    }
}
function fixedArgument(op) {
    switch (op) {
        case 0x28:
        case 0x7d:
        case 0x73:
        case 0x75:
        case 0x5d:
        case 0x61:
        case 0x65:
        case 0x29:
        case 0x85:
        case 0x86:
        case 0x87:
        case 0x74:
        case 0x88:
        case 0x89:
        case 0x4e:
        case 0x94:
            return 0;
        case 0x4b:
        case 0x71:
        case 0x68:
        case 0x80:
            return 1;
        case 0x4d:
            return 2;
        case 0x4a:
        case 0x72:
        case 0x6a:
            return 4;
        case 0x47:
        case 0x95:
            return 8;
        case 0x8c:
        case 0x58:
        case 0x8d:
        case 0x8a:
        case 0x8b:
            return -1;
        default:
            return -2;
    }
}
function variableLength(op, w, name, at) {
    const prefix = op === 0x8c || op === 0x8a ? 1 : op === 0x58 || op === 0x8b ? 4 : op === 0x8d ? 8 : 0;
    if (prefix === 0)
        throw unexpectedOpcode(op, name, at);
    if (!w.fill(prefix))
        throw truncated(name, w.size, op, at);
    let length;
    if (prefix === 1)
        length = w.buf[w.pos];
    else if (op === 0x58)
        length = w.buf.readUInt32LE(w.pos);
    else if (op === 0x8b)
        length = w.buf.readInt32LE(w.pos);
    else {
        const wide = w.buf.readBigUInt64LE(w.pos);
        length = wide > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(wide);
    }
    w.pos += prefix;
    if (length < 0)
        throw atByte(name, at, `${opcodeName(op)} has a negative length (${length}): the file is corrupt`);
    const isString = op === 0x8c || op === 0x58 || op === 0x8d;
    if (isString && length > MAX_STRING_BYTES) {
        throw atByte(name, at, `${opcodeName(op)} holds a string of ${length} bytes, more than any field of a memory snapshot (${MAX_STRING_BYTES}): the file is not a memory snapshot`);
    }
    if (!isString && length > MAX_STRING_BYTES)
        throw atByte(name, at, `${opcodeName(op)} holds an integer of ${length} bytes: the file is not a memory snapshot`);
    return length;
}
function unexpectedOpcode(op, name, at) {
    if (REFUSED.has(op)) {
        return atByte(name, at, `${opcodeName(op)} names a class or calls code, which a memory snapshot never does: refused, nothing of the file was used`);
    }
    return atByte(name, at, `unsupported opcode ${opcodeName(op)}: torch_npu's memory snapshots never use it, so this is no memory snapshot`);
}
function truncated(name, size, op, at) {
    const inside = op === null ? 'before the STOP opcode' : `inside ${opcodeName(op)} at byte ${at}`;
    return new InputError(`${name}: byte ${size}: the file ends ${inside}: it was cut short (the job died while dumping, or the copy is incomplete)`);
}
function readProtocol(w, name) {
    if (!w.fill(2) || w.buf[0] !== 0x80) {
        throw atByte(name, 0, 'no PROTO opcode: not a pickle of protocol 2 or later (torch_npu writes 2, 4 or 5; protocol 0/1 files are refused)');
    }
    const protocol = w.buf[1];
    checkProtocol(protocol, name, 0);
    w.pos = 2;
    return protocol;
}
function checkProtocol(protocol, name, at) {
    if (protocol < 2 || protocol > 5)
        throw atByte(name, at, `pickle protocol ${protocol}: only protocols 2 to 5 are read`);
}
function signedLittleEndian(b, from, n) {
    if (n === 0)
        return 0;
    const last = b[from + n - 1];
    if (n <= 6) {
        let value = 0;
        for (let i = from + n - 1; i >= from; i--)
            value = value * 256 + b[i];
        return last >= 0x80 ? value - 2 ** (8 * n) : value;
    }
    let value = BigInt(`0x${Buffer.from(b.subarray(from, from + n))
        .reverse()
        .toString('hex')}`);
    if (last >= 0x80)
        value -= 1n << BigInt(8 * n);
    return value >= -BigInt(Number.MAX_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
function within64Bits(n) {
    return n >= -(1n << 63n) && n < 1n << 64n;
}
const utf8 = new TextDecoder('utf-8', { fatal: true });
const KEPT_CHARS = 4096;
const KEPT_HEAD = 2041;
const KEPT_TAIL = 2040;
function kept(s) {
    if (s.length <= KEPT_CHARS)
        return s;
    const hash = createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 12);
    const h = s.charCodeAt(KEPT_HEAD - 1);
    const head = s.slice(0, h >= 0xd800 && h <= 0xdbff ? KEPT_HEAD - 1 : KEPT_HEAD);
    const t = s.charCodeAt(s.length - KEPT_TAIL);
    const tail = s.slice(t >= 0xdc00 && t <= 0xdfff ? s.length - KEPT_TAIL + 1 : s.length - KEPT_TAIL);
    return `${head}…~${hash}…${tail}`;
}
function decodeString(b, name, at) {
    let ascii = true;
    for (let i = 0; i < b.length; i++) {
        if (b[i] >= 0x80) {
            ascii = false;
            break;
        }
    }
    if (ascii)
        return b.toString('latin1');
    try {
        return utf8.decode(b);
    }
    catch {
        return decodeSurrogatePass(b, name, at);
    }
}
function decodeSurrogatePass(b, name, at) {
    let out = '';
    let run = 0;
    for (let i = 0; i < b.length;) {
        if (b[i] === 0xed &&
            i + 2 < b.length &&
            b[i + 1] >= 0xa0 &&
            b[i + 1] <= 0xbf &&
            (b[i + 2] & 0xc0) === 0x80) {
            if (run < i)
                out += strict(b.subarray(run, i), name, at);
            out += String.fromCharCode(0xd000 | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f));
            i += 3;
            run = i;
        }
        else
            i++;
    }
    if (run < b.length)
        out += strict(b.subarray(run), name, at);
    return out;
}
function strict(b, name, at) {
    try {
        return utf8.decode(b);
    }
    catch {
        throw atByte(name, at, 'a string is not UTF-8: the file is corrupt');
    }
}
function decode(w, name, fetches, streamedItems, memoFetches, work) {
    const stack = [];
    const marks = [];
    const memo = new Memo(fetches);
    const streamed = { segments: null, traces: new Map() };
    const protocol = readProtocol(w, name);
    let at = 0;
    work.position = () => at;
    const text = (b) => {
        work.charge(b.length * (b.length > KEPT_CHARS ? 3 : 2), 'decoding strings');
        return kept(decodeString(b, name, at));
    };
    const fail = (reason) => atByte(name, at, reason);
    const fence = () => (marks.length === 0 ? 0 : marks[marks.length - 1]);
    const pop = (op) => {
        if (stack.length <= fence())
            throw fail(`${opcodeName(op)} finds nothing to take above the last MARK: the file is corrupt`);
        return stack.pop();
    };
    const top = (op) => {
        if (stack.length <= fence())
            throw fail(`${opcodeName(op)} finds nothing above the last MARK: the file is corrupt`);
        return stack[stack.length - 1];
    };
    const popMark = (op) => {
        const mark = marks.pop();
        if (mark === undefined)
            throw fail(`${opcodeName(op)} without a MARK before it: the file is corrupt`);
        work.charge(stack.length - mark, 'copying items');
        return stack.splice(mark);
    };
    const placeOf = (j, fenceAt, below) => {
        if (j === 0)
            return Array.isArray(stack[0]) ? 'segments' : null;
        const key = topKeyAt(j, fenceAt);
        if (key === 'segments')
            return 'segments';
        if (key !== null)
            return null;
        if (fenceAt >= 3 && topKeyAt(fenceAt - 1, below) === 'device_traces')
            return stack[fenceAt - 1].length + j - fenceAt;
        if (fenceAt <= 1 && j >= 3 && topKeyAt(j - 1, fenceAt) === 'device_traces')
            return stack[j - 1].length;
        return null;
    };
    const topKeyAt = (v, markBelow) => {
        if (v < 2 || v % 2 !== 0 || !(stack[0] instanceof Map) || !Array.isArray(stack[v]))
            return null;
        if (!(markBelow === 1 || (markBelow === 0 && v === 2)))
            return null;
        const key = stack[v - 1];
        return typeof key === 'string' ? key : null;
    };
    const checkKey = (op, key) => {
        if (typeof key === 'bigint' && !within64Bits(key))
            throw fail(`${opcodeName(op)} sets a dict key that is an integer past 64 bits (${key}): no dict of a memory snapshot is keyed so: refused, nothing of it was used`);
    };
    const append = (op, j, items) => {
        const list = stack[j];
        if (!Array.isArray(list))
            throw fail(`${opcodeName(op)} appends to something that is not a list: the file is corrupt`);
        const fenceAt = fence();
        const place = items.length === 0 ? null : placeOf(j, fenceAt, marks.length >= 2 ? marks[marks.length - 2] : 0);
        if (place === 'segments' && (streamed.segments === null || streamed.segments === list) && list.length === 0) {
            streamed.segments = list;
            streamedItems.segments(items);
            return;
        }
        if (typeof place === 'number' && (streamed.traces.get(place) ?? list) === list && list.length === 0) {
            streamed.traces.set(place, list);
            streamedItems.traceEntries(place, items);
            return;
        }
        work.charge(items.length, 'copying items');
        for (let i = 0; i < items.length; i++)
            list.push(items[i]);
    };
    for (;;) {
        at = w.offset();
        if (!w.fill(1))
            throw truncated(name, w.size, null, at);
        const op = w.buf[w.pos++];
        switch (op) {
            case 0x2e: {
                if (marks.length > 0 || stack.length !== 1)
                    throw fail(`STOP with ${stack.length} object(s) and ${marks.length} open MARK(s) on the stack: the file is corrupt`);
                return { value: stack[0], protocol, end: at + 1, streamed };
            }
            case 0x95:
                w.fill(8);
                w.pos += 8;
                break;
            case 0x80:
                w.fill(1);
                w.pos += 1;
                break;
            case 0x28:
                marks.push(stack.length);
                break;
            case 0x7d:
                stack.push(new Map());
                break;
            case 0x5d:
                stack.push([]);
                break;
            case 0x29:
                stack.push(new PickleTuple([]));
                break;
            case 0x85:
                stack.push(new PickleTuple([pop(op)]));
                break;
            case 0x86: {
                const b = pop(op);
                stack.push(new PickleTuple([pop(op), b]));
                break;
            }
            case 0x87: {
                const c = pop(op);
                const b = pop(op);
                stack.push(new PickleTuple([pop(op), b, c]));
                break;
            }
            case 0x74:
                stack.push(new PickleTuple(popMark(op)));
                break;
            case 0x73: {
                const value = pop(op);
                const key = pop(op);
                const dict = top(op);
                if (!(dict instanceof Map))
                    throw fail('SETITEM (0x73) sets an item of something that is not a dict: the file is corrupt');
                checkKey(op, key);
                dict.set(key, value);
                break;
            }
            case 0x75: {
                const mark = marks.pop();
                if (mark === undefined)
                    throw fail('SETITEMS (0x75) without a MARK before it: the file is corrupt');
                if (mark === 0 || mark - 1 < fence())
                    throw fail('SETITEMS (0x75) finds no dict below its MARK: the file is corrupt');
                const dict = stack[mark - 1];
                if (!(dict instanceof Map))
                    throw fail('SETITEMS (0x75) sets items of something that is not a dict: the file is corrupt');
                if ((stack.length - mark) % 2 !== 0)
                    throw fail('SETITEMS (0x75) with a key and no value: the file is corrupt');
                work.charge(stack.length - mark, 'copying items');
                for (let i = mark; i < stack.length; i += 2) {
                    checkKey(op, stack[i]);
                    dict.set(stack[i], stack[i + 1]);
                }
                stack.length = mark;
                break;
            }
            case 0x61: {
                const item = pop(op);
                top(op);
                append(op, stack.length - 1, [item]);
                break;
            }
            case 0x65: {
                const items = popMark(op);
                top(op);
                append(op, stack.length - 1, items);
                break;
            }
            case 0x8c:
                w.fill(1);
                stack.push(text(w.take(w.buf[w.pos++])));
                break;
            case 0x58: {
                w.fill(4);
                const n = w.buf.readUInt32LE(w.pos);
                w.pos += 4;
                stack.push(text(w.take(n)));
                break;
            }
            case 0x8d: {
                w.fill(8);
                const n = Number(w.buf.readBigUInt64LE(w.pos));
                w.pos += 8;
                stack.push(text(w.take(n)));
                break;
            }
            case 0x4b:
                w.fill(1);
                stack.push(w.buf[w.pos++]);
                break;
            case 0x4d:
                w.fill(2);
                stack.push(w.buf.readUInt16LE(w.pos));
                w.pos += 2;
                break;
            case 0x4a:
                w.fill(4);
                stack.push(w.buf.readInt32LE(w.pos));
                w.pos += 4;
                break;
            case 0x8a: {
                w.fill(1);
                const n = w.buf[w.pos];
                w.fill(1 + n);
                stack.push(signedLittleEndian(w.buf, w.pos + 1, n));
                w.pos += 1 + n;
                break;
            }
            case 0x8b: {
                w.fill(4);
                const n = w.buf.readInt32LE(w.pos);
                w.pos += 4;
                const b = w.take(n);
                stack.push(signedLittleEndian(b, 0, n));
                break;
            }
            case 0x47:
                w.fill(8);
                stack.push(new PickleFloat(w.buf.readDoubleBE(w.pos)));
                w.pos += 8;
                break;
            case 0x88:
                stack.push(true);
                break;
            case 0x89:
                stack.push(false);
                break;
            case 0x4e:
                stack.push(null);
                break;
            case 0x94:
                memo.put(memo.next(), top(op));
                break;
            case 0x71:
                w.fill(1);
                memo.put(w.buf[w.pos++], top(op));
                break;
            case 0x72:
                w.fill(4);
                memo.put(w.buf.readUInt32LE(w.pos), top(op));
                w.pos += 4;
                break;
            case 0x68: {
                w.fill(1);
                const value = memo.fetch(w.buf[w.pos++]);
                memoFetches.note(value, at);
                stack.push(value);
                break;
            }
            case 0x6a: {
                w.fill(4);
                const value = memo.fetch(w.buf.readUInt32LE(w.pos));
                memoFetches.note(value, at);
                stack.push(value);
                w.pos += 4;
                break;
            }
            default:
                throw unexpectedOpcode(op, name, at);
        }
    }
}

const LIVE_STATES = new Set(['active_allocated', 'active_pending_free']);
const PLACED_TWICE = "torch's _snapshot() never shares a segment, block or trace entry between two places, so no torch wrote this file: refused, nothing of it was used";
function snapshotFigures(path, name, fileSize, work = new WorkBudget(name, fileSize)) {
    const names = new SiteNames(work);
    const dumps = new Map();
    const walks = new Map();
    let segmentIndex = 0;
    const dumpOf = (device) => {
        let dump = dumps.get(device);
        if (dump === undefined)
            dumps.set(device, (dump = new DumpState()));
        return dump;
    };
    const walkOf = (device) => {
        let walk = walks.get(device);
        if (walk === undefined)
            walks.set(device, (walk = new TraceWalk(work, names)));
        return walk;
    };
    const memoFetches = new MemoFetches();
    const once = placedOnce(name, memoFetches);
    const checked = checkedIn(name);
    const addSegments = (items) => {
        work.charge(items.length, 'walking segments');
        for (const item of items) {
            const index = segmentIndex++;
            once(item, () => `segment ${index}`);
            checked(() => `segment ${index}`, () => addSegment(item, dumpOf, (value, what) => once(value, () => `segment ${index}'s ${what()}`), work));
        }
    };
    const addEntries = (device, items) => {
        const walk = walkOf(device);
        for (const item of items) {
            once(item, () => `device_traces[${device}][${walk.entries}]`);
            checked(() => `device_traces[${device}][${walk.entries}]`, () => addEntry(item, walk));
        }
    };
    const streamedItems = { segments: addSegments, traceEntries: addEntries };
    const document = readPickle(path, name, streamedItems, memoFetches, work);
    const top = document.value;
    let topLevel;
    let traceLists = 0;
    if (Array.isArray(top)) {
        topLevel = 'list';
        if (document.streamed.segments !== null && document.streamed.segments !== top)
            throw layoutError(name);
        addSegments(top);
    }
    else if (top instanceof Map) {
        topLevel = 'dict';
        traceLists = readSnapshotDict(top, name, document.streamed, streamedItems, once);
    }
    else {
        throw new InputError(`${name}: the pickle holds ${describe(top)}, not a memory snapshot (a dict of segments and device_traces, or a list of segments)`);
    }
    return {
        devices: finishDevices(dumps, walks, (dump) => untracedFigures(dump, names, work), checked),
        topLevel,
        traceLists,
        segments: segmentIndex,
        protocol: document.protocol,
        trailingBytes: fileSize - document.end,
    };
}
function placedOnce(name, memoFetches) {
    return (value, what) => {
        const at = memoFetches.of(value);
        if (at !== undefined)
            throw new InputError(`${name}: byte ${at}: ${what()} is placed a second time here, by a memo fetch: ${PLACED_TWICE}`);
    };
}
function checkedIn(name) {
    return (where, read) => {
        try {
            return read();
        }
        catch (error) {
            if (error instanceof FieldError || error instanceof RangeError)
                throw new InputError(`${name}: ${where()}: ${error.message}`);
            throw error;
        }
    };
}
function readSnapshotDict(top, name, streamed, read, once) {
    const segments = top.get('segments');
    const traces = top.get('device_traces');
    if (!Array.isArray(segments))
        throw new InputError(`${name}: the top-level dict has no 'segments' list: not a memory snapshot`);
    if (traces !== undefined && !Array.isArray(traces))
        throw new InputError(`${name}: 'device_traces' is not a list: not a memory snapshot`);
    if (streamed.segments !== null && streamed.segments !== segments)
        throw layoutError(name);
    read.segments(segments);
    const lists = traces ?? [];
    for (const [device, list] of streamed.traces)
        if (lists[device] !== list)
            throw layoutError(name);
    lists.forEach((list, device) => {
        if (!Array.isArray(list))
            throw new InputError(`${name}: device_traces[${device}] is not a list: not a memory snapshot`);
        if (list.length > 0 && streamed.traces.has(device))
            throw layoutError(name);
        if (list.length > 0)
            once(list, () => `device_traces[${device}]`);
        if (list.length > 0)
            read.traceEntries(device, list);
    });
    return lists.length;
}
function finishDevices(dumps, walks, untraced, checked) {
    const indices = [...new Set([...dumps.keys(), ...[...walks].filter(([, w]) => w.entries > 0).map(([d]) => d)])].sort((a, b) => a - b);
    return indices.map((device) => {
        const dump = dumps.get(device) ?? new DumpState();
        const walk = walks.get(device);
        const figures = checked(() => `device ${device}`, () => (walk !== undefined && walk.entries > 0 ? walk.finish(dump) : untraced(dump)));
        return { device, dump, actions: walk?.actions ?? new Map(), ...figures };
    });
}
function layoutError(name) {
    return new InputError(`${name}: its segments or traces are laid out in a way no torch_npu or PyTorch writer uses (a list filled from two places): not read`);
}
class FieldError extends Error {
}
function addSegment(item, dumpOf, once, work) {
    const segment = dict(item, 'is not a dict');
    const device = deviceIndex(segment.get('device'));
    const total = bytes(segment, 'total_size');
    const allocated = bytes(segment, 'allocated_size');
    const dump = dumpOf(device);
    dump.addSegment(total, allocated);
    const blocks = segment.get('blocks');
    if (blocks === undefined)
        return;
    if (!Array.isArray(blocks))
        throw new FieldError("'blocks' is not a list");
    once(blocks, () => 'blocks list');
    work.charge(8 * blocks.length, 'walking segments');
    for (let i = 0; i < blocks.length; i++) {
        once(blocks[i], () => `block ${i}`);
        const block = dict(blocks[i], `block ${i} is not a dict`);
        const state = block.get('state');
        if (typeof state !== 'string')
            throw new FieldError(`block ${i}: 'state' is not a string`);
        if (state === 'inactive')
            dump.addFreeBlock(bytes(block, 'size', `block ${i}: `));
        else if (LIVE_STATES.has(state)) {
            dump.addLiveBlock(address(block.get('address'), `block ${i}: 'address'`), {
                size: bytes(block, 'requested_size', `block ${i}: `),
                frames: block.get('frames'),
            });
        }
    }
}
function addEntry(item, walk) {
    const entry = dict(item, 'is not a dict');
    const action = entry.get('action');
    if (typeof action !== 'string')
        throw new FieldError("'action' is not a string");
    switch (action) {
        case 'alloc':
            walk.alloc(address(entry.get('addr'), "'addr'"), bytes(entry, 'size'), entry.get('frames'));
            break;
        case 'free_completed':
            walk.freeCompleted(address(entry.get('addr'), "'addr'"), bytes(entry, 'size'), entry.get('frames'));
            break;
        case 'segment_alloc':
        case 'segment_map':
            walk.segment(bytes(entry, 'size'));
            break;
        case 'segment_free':
        case 'segment_unmap':
            walk.segment(-bytes(entry, 'size'));
            break;
        case 'oom':
            walk.oom(bytes(entry, 'size'), bytes(entry, 'device_free'));
            break;
    }
    walk.next(action);
}
function dict(value, what) {
    if (!(value instanceof Map))
        throw new FieldError(what);
    return value;
}
function bytes(record, key, prefix = '') {
    const value = record.get(key);
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0)
        return value;
    if (typeof value === 'bigint' && value > 0n)
        throw new FieldError(`${prefix}'${key}' is ${value} bytes, past 2^53 - 1: no exact byte figure can hold it`);
    throw new FieldError(`${prefix}'${key}' is ${value === undefined ? 'missing' : describe(value)}, not a byte count`);
}
function address(value, what) {
    if ((typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'bigint' && within64Bits(value)))
        return value;
    if (typeof value === 'bigint')
        throw new FieldError(`${what} is ${value}, past 64 bits: not an address`);
    throw new FieldError(`${what} is ${value === undefined ? 'missing' : describe(value)}, not an address`);
}
function deviceIndex(value) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1e9)
        return value;
    throw new FieldError(`'device' is ${value === undefined ? 'missing' : describe(value)}, not a device index`);
}
function describe(value) {
    if (value === null)
        return 'None';
    if (Array.isArray(value))
        return 'a list';
    if (value instanceof Map)
        return 'a dict';
    if (value instanceof PickleTuple)
        return 'a tuple';
    if (value instanceof PickleFloat)
        return `the float ${value.value}`;
    if (typeof value === 'string')
        return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    return String(value);
}

function relativeToSourceRoot(snapshot, root) {
    const dir = root.path.endsWith('/') ? root.path : `${root.path}/`;
    const bounds = { start: 0, end: 0 };
    const split = (site, shape) => {
        const m = shape.exec(site);
        return m === null ? null : { file: m[1], rest: site.slice(m[1].length) };
    };
    const moved = (site, codeRoot, shape = FUNCTION_SITE) => {
        const parts = split(site, shape);
        if (parts === null)
            return null;
        const file = `${codeRoot}${parts.file}`;
        return file.startsWith(dir) ? `${file.slice(dir.length)}${parts.rest}` : null;
    };
    const oomSites = (metric) => {
        try {
            const parsed = JSON.parse(metric.sites);
            return Array.isArray(parsed)
                ? parsed.filter((p) => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'number' && typeof p[2] === 'string')
                : [];
        }
        catch {
            return [];
        }
    };
    const sites = metricsOf(snapshot, allocationSites);
    const siteOfKey = (key) => (findDeviceSegment(key, bounds) ? key.slice(bounds.end + 1) : null);
    if (!root.strict) {
        const anyUnder = Object.entries(sites).some(([key, metric]) => {
            const site = siteOfKey(key);
            return site !== null && moved(site, metric.codeRoot) !== null;
        }) ||
            Object.values(metricsOf(snapshot, ooms)).some((metric) => oomSites(metric).some(([site, , codeRoot]) => moved(site, codeRoot, SITE) !== null));
        if (!anyUnder)
            return snapshot;
    }
    return rewriteKeys(snapshot, Object.fromEntries([
        sectionRewrite(allocationSites, (key, metric) => {
            const site = siteOfKey(key);
            const relative = site === null ? null : moved(site, metric.codeRoot);
            return relative === null
                ? { key, metric }
                : { key: `${key.slice(0, bounds.end)}/${relative}`, metric: { ...metric, codeRoot: dir } };
        }),
        sectionRewrite(ooms, (key, metric) => {
            const list = oomSites(metric).map(([site, bytes, codeRoot]) => {
                const relative = moved(site, codeRoot, SITE);
                return relative === null ? [site, bytes, codeRoot] : [relative, bytes, dir];
            });
            return { key, metric: { ...metric, sites: JSON.stringify(list) } };
        }),
    ]));
}

const OOM_SITES = 5;
async function parseAllocatorSnapshotFile(file, into) {
    if (isMemUsageFile(file.name)) {
        readable(() => parseMemUsageFile(file.path, file.name, into), file.name);
        return;
    }
    const figures = await readSnapshotFigures(file);
    into.files++;
    into.records += figures.segments;
    const root = userCodeRoot(figures.devices);
    const oomDevices = new Set();
    for (const d of figures.devices) {
        into.records += d.traceEntries;
        const dev = `dev${d.device}`;
        const origin = { file: file.name, logicalDevice: d.device, visibleDevices: null };
        const dump = {
            traceEntries: d.traceEntries,
            segments: d.dump.segments,
            largestSegment: d.dump.largestSegment,
            largestFreeBlock: d.dump.largestFreeBlock,
        };
        const a = d.peakAllocated;
        const r = d.peakReserved;
        into.add(allocator, `${dev}/allocated`, {
            peak: a.bytes,
            atDump: d.dump.liveRequested,
            allocated: a.bytes,
            reserved: a.reserved,
            point: a.point,
            ...dump,
            ...origin,
        });
        into.add(allocator, `${dev}/reserved`, {
            peak: r.bytes,
            atDump: d.dump.reserved,
            allocated: r.allocated,
            reserved: r.bytes,
            point: r.point,
            ...dump,
            ...origin,
        });
        if (d.timeline !== null) {
            into.addSeries(allocator.name, `${dev}/allocated`, d.timeline.allocated);
            into.addSeries(allocator.name, `${dev}/reserved`, d.timeline.reserved);
        }
        for (const [site, metric] of functionSites(d.sites, root, file.name))
            into.add(allocationSites, `${dev}/${site}`, { ...metric, ...origin });
        if (d.ooms.length > 0)
            oomDevices.add(d.device);
        addDeviceOoms(into, d, origin, root);
    }
    if (oomDevices.size > 0)
        for (const table of memUsageBeside(file.path, file.name, oomDevices))
            readable(() => parseMemUsageFile(table.path, table.name, into), table.name);
}
async function readSnapshotFigures(file) {
    return isCompressed(file.path)
        ? await readable(() => inflatePickle(file.path, file.name, (inflated) => snapshotFigures(inflated, file.name, statSync(inflated).size)), file.name)
        : readable(() => snapshotFigures(file.path, file.name, file.size ?? statSync(file.path).size), file.name);
}
function userCodeRoot(devices) {
    const userFiles = new Set();
    for (const d of devices) {
        for (const file of d.sites.userFiles)
            userFiles.add(file);
        for (const o of d.ooms)
            for (const file of o.sites?.userFiles ?? [])
                userFiles.add(file);
    }
    return commonFolder(userFiles);
}
function addDeviceOoms(into, d, origin, root) {
    const dev = `dev${d.device}`;
    d.ooms.forEach((o, i) => {
        const largest = d.dump.largestFreeBlock;
        into.add(ooms, `${dev}/oom${i + 1}`, {
            ...OOM_FIELD_DEFAULTS,
            requested: o.size,
            deviceFree: o.deviceFree,
            allocated: o.allocated,
            reserved: o.reserved,
            largestFreeBlock: largest,
            entriesAfter: o.entriesAfter,
            sites: JSON.stringify(o.sites === null
                ? []
                : topSites(o.sites.sites).map(([recorded, bytes]) => {
                    const { site, codeRoot } = relativeSite(recorded, root);
                    return [site, bytes, codeRoot];
                })),
            ...origin,
        });
    });
}
function finishAllocatorSnapshots(snapshot, run) {
    const sourceRoot = sourceRootOf(run);
    return withOomCauses(sourceRoot === undefined ? snapshot : relativeToSourceRoot(snapshot, sourceRoot), run.oom);
}
function sourceRootOf(run) {
    const given = run.options?.['source-root'];
    if (given !== undefined)
        return { path: path.resolve(given), strict: true };
    return run.checkout === undefined ? undefined : { path: run.checkout, strict: false };
}
function functionSites(live, root, name) {
    const grouped = new Map();
    for (const [recorded, { bytes, blocks }] of live.sites) {
        const frame = live.frames.get(recorded);
        const where = frame === undefined ? { file: '', codeRoot: '' } : relativeFile(frame.file, root);
        const site = frame === undefined ? UNKNOWN_SITE : `${where.file} ${frame.name}`;
        let g = grouped.get(site);
        if (g === undefined)
            grouped.set(site, (g = { bytes: 0, blocks: 0, lines: new Map(), codeRoot: where.codeRoot }));
        g.bytes = exactBytes(g.bytes + bytes, site, name);
        g.blocks += blocks;
        if (frame !== undefined) {
            const line = g.lines.get(frame.line);
            g.lines.set(frame.line, line === undefined
                ? [frame.line, bytes, blocks]
                : [frame.line, exactBytes(line[1] + bytes, site, name), line[2] + blocks]);
        }
    }
    return new Map([...grouped].map(([site, g]) => [
        site,
        { bytes: g.bytes, blocks: g.blocks, lines: linesField(g.lines.values()), codeRoot: g.codeRoot },
    ]));
}
function exactBytes(sum, site, name) {
    if (!Number.isSafeInteger(sum))
        throw new InputError(`${name}: the bytes of site ${site} pass 2^53 - 1 and cannot be counted exactly`);
    return sum;
}
function topSites(sites) {
    return [...sites]
        .map(([site, { bytes }]) => [site, bytes])
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .slice(0, OOM_SITES);
}
function readable(read, name) {
    try {
        const value = read();
        return (value instanceof Promise ? value.catch((error) => Promise.reject(permission(error, name))) : value);
    }
    catch (error) {
        throw permission(error, name);
    }
}
function permission(error, name) {
    if (error.code !== 'EACCES')
        return error;
    return new InputError(`${name}: permission denied: torch_npu's release branches write memory snapshots with mode 0200 (not even their owner may read them); add \`chmod u+r ${name}\` (or \`chmod -R u+r\` on its folder) to the training step after the dump`);
}

export { finishAllocatorSnapshots, parseAllocatorSnapshotFile };

import { createHash } from 'node:crypto';
import { P as ParseError, I as InputError } from './errors.js';
import { w as withOomCauses, O as OOM_FIELD_DEFAULTS, o as oomCause } from './oom-cause.js';
import { z as MAX_EXACT_BYTES, A as readExactInteger, B as BEYOND_EXACT, j as exactSum, C as steps, E as unfreed, F as owners, G as opFootprint, H as inefficient, v as valueOf, I as stepLeaks, w as ooms } from './evidence-sources.js';
import { parseMemoryCompareText } from './memory-compare.js';
import { E as EventSpool, a as attrValueOf, D as DumpReader, s as streamDump, c as compareDumpFiles } from './compare-dumps.js';
import 'node:buffer';
import { d as deviceName } from './keys.js';
import { v as visibleName } from './line-reader.js';
import './sync.js';
import './string-table.js';
import 'node:fs';
import 'node:os';
import 'node:path';
import 'node:string_decoder';
import './whole-text.js';
import './compressed.js';
import 'node:stream';
import 'node:stream/promises';
import 'node:zlib';

const FRAMEWORK_POOLS = new Set(['PTA', 'ATB', 'MINDSPORE']);
const KNOWN_EVENTS = new Set([
    'MALLOC',
    'FREE',
    'ACCESS',
    'MSTX',
    'OP_LAUNCH',
    'KERNEL_LAUNCH',
    'SYSTEM',
    'CLEAN_UP',
    'SNAPSHOT',
    'OOM_DETAIL',
    'N/A',
]);
const MALLOC = 0;
const FREE = 1;
const SHADOW_FREE = 2;
const RANGE_START = 3;
const STEP_RANGE_START = 4;
const RANGE_END = 5;
const STEP_MARK = 6;
const OP_START = 7;
const OP_END = 8;
const MAX_DUMP_OOMS = 100;
const SHADOW_RE = /[{,]shadow:true[,}]/;
const ID_CELL = /^(\d{1,20}|N\/A)$/;
const DEVICE_CELL = /^(\d{1,20}|N\/A|cpu|host)$/;
class Strings {
    list = [''];
    ids = new Map([['', 0]]);
    id(text) {
        const found = this.ids.get(text);
        if (found !== undefined)
            return found;
        const copy = text.split('').join('');
        this.ids.set(copy, this.list.length);
        this.list.push(copy);
        return this.list.length - 1;
    }
}
class DumpRecorder {
    file;
    warn;
    spool;
    strings = new Strings();
    pids = new Strings();
    groups = [];
    groupIds = new Map();
    liveKeys = new Strings();
    opLevels = [];
    opLevelIds = new Map();
    stacks = new Strings();
    bigPtrs = new Map();
    hasOwners = false;
    ooms = [];
    droppedOoms = 0;
    unknownEvents = new Set();
    lastGroup = { pid: '', device: '', pool: '', id: -1 };
    tsHi = 0;
    tsLo = 0;
    constructor(file, warn, chunkEvents) {
        this.file = file;
        this.warn = warn;
        this.spool = new EventSpool(chunkEvents);
    }
    skip(row, reason) {
        this.warn({ file: this.file, line: row.line, reason: `${reason} (skipped)` });
    }
    time(text) {
        const len = text.length;
        if (len === 0 || len > 20)
            return false;
        const split = len > 9 ? len - 9 : 0;
        let hi = 0;
        let lo = 0;
        for (let i = 0; i < len; i++) {
            const d = text.charCodeAt(i) - 48;
            if (d < 0 || d > 9)
                return false;
            if (i < split)
                hi = hi * 10 + d;
            else
                lo = lo * 10 + d;
        }
        this.tsHi = hi;
        this.tsLo = lo;
        return true;
    }
    ptrKey(text) {
        const len = text.length;
        const hex = len > 2 && text.charCodeAt(0) === 48 && (text.charCodeAt(1) | 32) === 120;
        if (hex ? len > 18 : len === 0 || len > 20)
            return NaN;
        let value = 0;
        for (let i = hex ? 2 : 0; i < len; i++) {
            const c = text.charCodeAt(i);
            let d;
            if (c >= 48 && c <= 57)
                d = c - 48;
            else if (hex && (c | 32) >= 97 && (c | 32) <= 102)
                d = (c | 32) - 87;
            else
                return NaN;
            value = value * (hex ? 16 : 10) + d;
        }
        if (value <= MAX_EXACT_BYTES)
            return value;
        const digits = BigInt(text).toString();
        let id = this.bigPtrs.get(digits);
        if (id === undefined)
            this.bigPtrs.set(digits, (id = this.bigPtrs.size));
        return -(id + 1);
    }
    liveKeyOf(pid, pool) {
        const last = this.lastLive;
        if (last.id !== -1 && last.pid === pid && last.pool === pool)
            return last.id;
        const id = this.liveKeys.id(`${pid}|${pool}`);
        this.lastLive = { pid, pool, id };
        return id;
    }
    lastLive = { pid: '', pool: '', id: -1 };
    lastStack = { pid: '', tid: '', device: '', family: -1, id: -1, level: -1 };
    recentNames = [];
    recentNameIds = [];
    nameId(name) {
        const names = this.recentNames;
        for (let i = 0; i < names.length; i++)
            if (names[i] === name)
                return this.recentNameIds[i];
        const id = this.strings.id(name);
        if (names.length === 8) {
            names.pop();
            this.recentNameIds.pop();
        }
        names.unshift(this.strings.list[id]);
        this.recentNameIds.unshift(id);
        return id;
    }
    groupOfRow(pid, rawDevice, pool) {
        const last = this.lastGroup;
        if (last.id !== -1 && last.pid === pid && last.device === rawDevice && last.pool === pool)
            return last.id;
        const device = deviceName(rawDevice) ?? rawDevice;
        const key = `${pid}|${device}|${pool}`;
        let g = this.groupIds.get(key);
        if (g === undefined) {
            g = this.groups.length;
            this.groupIds.set(key, g);
            const pidId = this.pids.id(pid);
            this.groups.push({
                pid: pidId,
                device: this.strings.list[this.strings.id(device)],
                pool: this.strings.list[this.strings.id(pool)],
                liveKey: this.liveKeyOf(pid, pool),
                opLevel: FRAMEWORK_POOLS.has(pool) ? this.opLevelOf(device, pidId) : -1,
            });
        }
        this.lastGroup = { pid, device: rawDevice, pool, id: g };
        return g;
    }
    opLevelOf(device, pid) {
        const key = `${device}|${pid}`;
        let id = this.opLevelIds.get(key);
        if (id === undefined) {
            id = this.opLevels.length;
            this.opLevelIds.set(key, id);
            this.opLevels.push({ device, pid });
        }
        return id;
    }
    idsOk(row, op) {
        if (!ID_CELL.test(row.pid))
            return (this.skip(row, `a ${row.event} row whose Process Id is not a number or N/A`), false);
        if (op && !ID_CELL.test(row.tid))
            return (this.skip(row, `a ${row.event} row whose Thread Id is not a number or N/A`), false);
        if ((op || row.event === 'MALLOC') && !DEVICE_CELL.test(row.device))
            return (this.skip(row, `a ${row.event} row whose Device Id is not a number, N/A, cpu or host`), false);
        return true;
    }
    row(row) {
        switch (row.event) {
            case 'MALLOC':
                this.malloc(row);
                return;
            case 'FREE':
                this.free(row);
                return;
            case 'MSTX':
                this.mstx(row);
                return;
            case 'SYSTEM':
                if (row.eventType === 'STEP')
                    this.systemStep(row);
                return;
            case 'OP_LAUNCH':
                this.op(row);
                return;
            case 'OOM_DETAIL':
                if (row.eventType === 'OOM_TRIGGER')
                    this.oomTrigger(row);
                return;
            default:
                if (!KNOWN_EVENTS.has(row.event) && !this.unknownEvents.has(row.event)) {
                    this.unknownEvents.add(row.event);
                    this.warn({
                        file: this.file,
                        line: row.line,
                        reason: `unknown Event '${row.event.slice(0, 40)}' (rows of it are skipped)`,
                    });
                }
        }
    }
    malloc(row) {
        if (!this.idsOk(row, false))
            return;
        const sizeText = attrValueOf(row.attr, 'size:');
        const size = sizeText === null ? null : readExactInteger(sizeText);
        if (size === 'too-large')
            return this.skip(row, `a MALLOC whose size ${sizeText} is 2^53 bytes or more: not a size that can be compared exactly`);
        const id = readExactInteger(row.id);
        const ptr = this.ptrKey(row.ptr);
        if (!this.time(row.timestamp) || size === null || Number.isNaN(ptr) || typeof id !== 'number' || id < 0) {
            return this.skip(row, 'a MALLOC without a numeric timestamp, ID, Ptr and Attr size');
        }
        const owner = row.attr.includes('owner:') ? (attrValueOf(row.attr, 'owner:') ?? '') : '';
        if (owner !== '')
            this.hasOwners = true;
        const firstFrame = firstCallSite(row.callStackPython) || firstCallSite(row.callStackC);
        const inefficient = row.attr.includes('inefficient_type:')
            ? (attrValueOf(row.attr, 'inefficient_type:') ?? '')
            : '';
        this.spool.add(this.tsHi, this.tsLo, MALLOC, row.line, ptr, Math.abs(size), id, this.groupOfRow(row.pid, row.device, row.eventType), owner === '' ? 0 : this.strings.id(owner), firstFrame === '' ? 0 : this.strings.id(firstFrame), inefficient === '' ? 0 : this.strings.id(inefficient));
    }
    oomTrigger(row) {
        const device = /^\d{1,6}$/.test(row.device) && row.device !== '9999' ? deviceName(row.device) : null;
        const sizeText = attrValueOf(row.attr, 'req_size:');
        const requested = sizeText === null ? null : readExactInteger(sizeText);
        if (device === null || typeof requested !== 'number' || requested < 0) {
            return this.skip(row, 'an OOM_TRIGGER without a numeric Device Id and Attr req_size of at most 2^53 - 1 bytes');
        }
        if (this.ooms.length >= MAX_DUMP_OOMS)
            return void this.droppedOoms++;
        const func = (attrValueOf(row.attr, 'func:') ?? '').slice(0, 80);
        this.ooms.push({
            device,
            logicalDevice: Number(row.device),
            requested,
            func,
            pid: row.pid.slice(0, 20),
            timestamp: row.timestamp.slice(0, 20),
            line: row.line,
        });
    }
    free(row) {
        if (!this.idsOk(row, false))
            return;
        const ptr = this.ptrKey(row.ptr);
        if (!this.time(row.timestamp) || Number.isNaN(ptr))
            return this.skip(row, 'a FREE without a numeric timestamp and Ptr');
        const kind = SHADOW_RE.test(row.attr) ? SHADOW_FREE : FREE;
        this.spool.add(this.tsHi, this.tsLo, kind, row.line, ptr, 0, 0, this.liveKeyOf(row.pid, row.eventType), 0, 0, 0);
    }
    mstx(row) {
        const start = row.eventType === 'Range_start';
        if (!start && row.eventType !== 'Range_end')
            return;
        let range = 0;
        if (!start) {
            const m = /^Range end from id (\d+)$/.exec(row.name);
            const value = m === null ? null : readExactInteger(m[1]);
            if (typeof value !== 'number')
                return;
            range = value;
        }
        if (!this.time(row.timestamp))
            return this.skip(row, `an MSTX ${row.eventType} without a numeric timestamp`);
        if (!this.idsOk(row, false))
            return;
        const kind = start ? (row.name === 'step start' ? STEP_RANGE_START : RANGE_START) : RANGE_END;
        this.spool.add(this.tsHi, this.tsLo, kind, row.line, range, 0, 0, this.pids.id(row.pid), 0, 0, 0);
    }
    systemStep(row) {
        if (!this.idsOk(row, false))
            return;
        const n = readExactInteger(row.name.replace(/"/g, ''));
        if (!this.time(row.timestamp) || typeof n !== 'number')
            return this.skip(row, 'a SYSTEM/STEP row without a step number');
        this.spool.add(this.tsHi, this.tsLo, STEP_MARK, row.line, n, 0, 0, this.pids.id(row.pid), 0, 0, 0);
    }
    op(row) {
        const type = row.eventType;
        const start = type === 'ATEN_START' || type === 'ATB_START';
        if (!start && type !== 'ATEN_END' && type !== 'ATB_END')
            return;
        if (!this.time(row.timestamp))
            return this.skip(row, `an ${type} without a numeric timestamp`);
        if (!this.idsOk(row, true))
            return;
        const family = type.charCodeAt(2) === 69 ? 0 : 1;
        let last = this.lastStack;
        if (last.id === -1 ||
            last.pid !== row.pid ||
            last.tid !== row.tid ||
            last.device !== row.device ||
            last.family !== family) {
            const device = deviceName(row.device) ?? row.device;
            const id = this.stacks.id(`${row.pid}|${row.tid}|${row.device}|${family}`);
            last = this.lastStack = {
                pid: row.pid,
                tid: row.tid,
                device: row.device,
                family,
                id,
                level: this.opLevelOf(device, this.pids.id(row.pid)),
            };
        }
        this.spool.add(this.tsHi, this.tsLo, start ? OP_START : OP_END, row.line, 0, 0, 0, last.id, this.nameId(row.name), last.level, family);
    }
}
function firstCallSite(stack) {
    if (stack === '' || stack === 'N/A')
        return '';
    const cut = stack.search(/;|\\n|\n/);
    return (cut === -1 ? stack : stack.slice(0, cut)).trim().slice(0, 200);
}

function cmp$1(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
function topLabels(items) {
    const byLabel = new Map();
    for (const [label, bytes] of items) {
        const t = byLabel.get(label) ?? { bytes: 0, count: 0, size: bytes };
        t.bytes += bytes;
        t.count++;
        if (t.size !== bytes)
            t.size = NaN;
        byLabel.set(label, t);
    }
    return [...byLabel]
        .sort((x, y) => y[1].bytes - x[1].bytes || cmp$1(x[0], y[0]))
        .slice(0, 3)
        .map(([label, t]) => Number.isNaN(t.size) ? `${label} ${t.bytes} B in ${t.count}` : `${label} ${t.size}×${t.count}`);
}
function ownerBucket(owner, pool) {
    const tokens = owner.split('@');
    if (tokens[0] === 'CANN')
        return tokens[1] === 'HCCL' ? 'hccl' : 'cann-other';
    const labels = tokens.slice(1);
    if (labels.includes('kv_cache'))
        return 'kv-cache';
    if (labels.includes('weight') || labels.includes('weights'))
        return 'weights';
    if (labels.includes('gradient'))
        return 'gradients';
    if (labels.includes('optimizer_state'))
        return 'optimizer';
    const framework = tokens[0] || pool;
    if (framework === 'PTA_WORKSPACE' || framework === 'ATB')
        return 'workspace';
    if (framework === 'PTA' || framework === 'MINDSPORE')
        return 'activations';
    if (framework === 'HAL')
        return 'cann-other';
    return 'unlabelled';
}

class Blocks {
    capacity = 1024;
    group = new Int32Array(this.capacity);
    size = new Float64Array(this.capacity);
    id = new Float64Array(this.capacity);
    owner = new Int32Array(this.capacity);
    callSite = new Int32Array(this.capacity);
    line = new Float64Array(this.capacity);
    ownerKey = new Int32Array(this.capacity);
    state = new Uint8Array(this.capacity);
    serial = new Float64Array(this.capacity);
    freeSlots = [];
    used = 0;
    alive = 0;
    take() {
        const slot = this.freeSlots.pop() ?? this.used++;
        if (slot >= this.capacity)
            this.grow();
        this.alive++;
        return slot;
    }
    release(slot) {
        this.state[slot] = 0;
        this.serial[slot] = this.serial[slot] + 1;
        this.freeSlots.push(slot);
        this.alive--;
    }
    get highWater() {
        return this.used;
    }
    grow() {
        const n = this.capacity * 2;
        const f64 = (a) => {
            const b = new Float64Array(n);
            b.set(a);
            return b;
        };
        const i32 = (a) => {
            const b = new Int32Array(n);
            b.set(a);
            return b;
        };
        this.group = i32(this.group);
        this.size = f64(this.size);
        this.id = f64(this.id);
        this.owner = i32(this.owner);
        this.callSite = i32(this.callSite);
        this.line = f64(this.line);
        this.ownerKey = i32(this.ownerKey);
        const state = new Uint8Array(n);
        state.set(this.state);
        this.state = state;
        this.serial = f64(this.serial);
        this.capacity = n;
    }
}

class DumpReplay {
    r;
    warn;
    blocks = new Blocks();
    live;
    groupLevel;
    groupMax;
    groupSteps;
    pidSteps;
    opLevel;
    stacksOfLevel;
    stacks;
    stackLevel;
    ownerKeys = new Strings();
    ownerLevel = [];
    ownerPeak = [];
    bucketMemo = new Map();
    ops;
    inefficient = new Map();
    leaks = new Map();
    orphanFrees = 0;
    constructor(r, warn) {
        this.r = r;
        this.warn = warn;
        const groups = r.groups.length;
        this.live = Array.from({ length: r.liveKeys.list.length }, () => new Map());
        this.groupLevel = new Float64Array(groups);
        this.groupMax = new Float64Array(groups);
        this.groupSteps = Array.from({ length: groups }, () => ({ start: [], peak: [], end: [] }));
        this.pidSteps = Array.from({ length: r.pids.list.length }, () => ({
            kind: 'none',
            ranges: 0,
            stepOfRange: new Map(),
            steps: [],
            open: -1,
            groups: [],
            pending: [],
            pendingFrom: 0,
        }));
        r.groups.forEach((g, i) => {
            if (FRAMEWORK_POOLS.has(g.pool))
                this.pidSteps[g.pid].groups.push(i);
        });
        this.opLevel = new Float64Array(r.opLevels.length);
        this.stacksOfLevel = Array.from({ length: r.opLevels.length }, () => []);
        this.stacks = Array.from({ length: r.stacks.list.length }, () => []);
        this.stackLevel = new Int32Array(r.stacks.list.length).fill(-1);
        this.ops = Array.from({ length: r.opLevels.length }, () => new Map());
    }
    fail(line, what) {
        throw new ParseError(this.r.file, line, `${what} would pass ${BEYOND_EXACT}: no exact figure (is the file damaged?)`);
    }
    event(e) {
        switch (e.kind) {
            case MALLOC:
                return this.malloc(e);
            case FREE:
            case SHADOW_FREE:
                return this.free(e);
            case RANGE_START:
            case STEP_RANGE_START:
                return this.rangeStart(e);
            case RANGE_END:
                return this.rangeEnd(e);
            case STEP_MARK:
                return this.stepMark(e);
            case OP_START:
                return this.opStart(e);
            case OP_END:
                return this.opEnd(e);
        }
    }
    change(group, ownerKey, delta, line) {
        const g = this.r.groups[group];
        const level = exactSum(this.groupLevel[group], delta);
        if (level === null)
            this.fail(line, `the allocated bytes of ${g.device}/${g.pool}`);
        this.groupLevel[group] = level;
        if (level > this.groupMax[group])
            this.groupMax[group] = level;
        const pid = this.pidSteps[g.pid];
        if (pid.open !== -1 && g.opLevel !== -1) {
            const peaks = this.groupSteps[group].peak;
            if (level > peaks[pid.open])
                peaks[pid.open] = level;
        }
        const owned = exactSum(this.ownerLevel[ownerKey], delta);
        if (owned === null)
            this.fail(line, `the live bytes of ${this.ownerKeys.list[ownerKey]}`);
        this.ownerLevel[ownerKey] = owned;
        if (owned > this.ownerPeak[ownerKey])
            this.ownerPeak[ownerKey] = owned;
        if (g.opLevel !== -1) {
            const op = exactSum(this.opLevel[g.opLevel], delta);
            if (op === null)
                this.fail(line, `the framework bytes of ${g.device}`);
            this.opLevel[g.opLevel] = op;
            for (const s of this.stacksOfLevel[g.opLevel]) {
                const frames = this.stacks[s];
                const top = frames[frames.length - 1];
                if (top !== undefined && op > top.max)
                    top.max = op;
            }
        }
    }
    ownerKeyOf(group, groupId, owner) {
        const memo = owner * this.r.groups.length + groupId;
        let key = this.bucketMemo.get(memo);
        if (key === undefined) {
            key = this.ownerKeys.id(`${group.device}|${ownerBucket(this.r.strings.list[owner], group.pool)}`);
            this.bucketMemo.set(memo, key);
            while (this.ownerLevel.length <= key) {
                this.ownerLevel.push(0);
                this.ownerPeak.push(0);
            }
        }
        return key;
    }
    malloc(e) {
        const b = this.blocks;
        const groupId = e.u0;
        const group = this.r.groups[groupId];
        const open = this.live[group.liveKey];
        const earlier = open.get(e.f0);
        if (earlier !== undefined)
            b.state[earlier] = 2;
        const slot = b.take();
        b.group[slot] = groupId;
        b.size[slot] = e.f1;
        b.id[slot] = e.f2;
        b.owner[slot] = e.u1;
        b.callSite[slot] = e.u2;
        b.line[slot] = e.line;
        b.state[slot] = 1;
        b.ownerKey[slot] = this.ownerKeyOf(group, groupId, e.u1);
        open.set(e.f0, slot);
        this.change(groupId, b.ownerKey[slot], e.f1, e.line);
        if (e.u3 !== 0)
            this.countInefficient(group, this.r.strings.list[e.u3], e.f1, e.line);
        const pid = this.pidSteps[group.pid];
        if (pid.steps.length > 0 && group.opLevel !== -1)
            pid.pending.push(slot, b.serial[slot], pid.steps.length - 1);
        if (pid.pending.length - pid.pendingFrom > 3 * (2 * b.alive + 1024))
            this.compactPending(pid);
    }
    free(e) {
        const open = this.live[e.u0];
        const slot = open.get(e.f0);
        if (slot === undefined) {
            this.orphanFrees++;
            return;
        }
        open.delete(e.f0);
        const b = this.blocks;
        if (e.kind === SHADOW_FREE) {
            b.state[slot] = 2;
            return;
        }
        this.change(b.group[slot], b.ownerKey[slot], -b.size[slot], e.line);
        b.release(slot);
    }
    countInefficient(group, text, bytes, line) {
        for (const type of new Set(text
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t !== ''))) {
            const key = `${group.device}|${type}`;
            let c = this.inefficient.get(key);
            if (c === undefined)
                this.inefficient.set(key, (c = { device: group.device, type, count: 0, bytes: 0 }));
            const sum = exactSum(c.bytes, bytes);
            if (sum === null)
                this.fail(line, `the ${type} bytes of ${group.device}`);
            c.count++;
            c.bytes = sum;
        }
    }
    compactPending(pid) {
        const b = this.blocks;
        const kept = [];
        for (let i = pid.pendingFrom; i < pid.pending.length; i += 3) {
            const slot = pid.pending[i];
            if (b.serial[slot] === pid.pending[i + 1] && b.state[slot] !== 0)
                kept.push(slot, pid.pending[i + 1], pid.pending[i + 2]);
        }
        pid.pending = kept;
        pid.pendingFrom = 0;
    }
    startStep(pid, pidId, step) {
        const ordinal = pid.steps.length;
        pid.steps.push({ pid: this.r.pids.list[pidId], step, closed: false });
        for (const g of pid.groups) {
            const s = this.groupSteps[g];
            const level = this.groupLevel[g];
            s.start[ordinal] = level;
            s.peak[ordinal] = level;
        }
        pid.open = ordinal;
    }
    endStep(pid, closed) {
        const ordinal = pid.open;
        if (ordinal === -1)
            return;
        for (const g of pid.groups)
            this.groupSteps[g].end[ordinal] = this.groupLevel[g];
        pid.steps[ordinal].closed = closed;
        pid.open = -1;
        if (closed)
            this.checkLeaks(pid, ordinal);
    }
    checkLeaks(pid, ordinal) {
        const b = this.blocks;
        const q = pid.pending;
        let i = pid.pendingFrom;
        for (; i < q.length && q[i + 2] < ordinal; i += 3) {
            const slot = q[i];
            if (b.serial[slot] !== q[i + 1] || b.state[slot] === 0)
                continue;
            const birth = pid.steps[q[i + 2]];
            if (birth.step < 2)
                continue;
            this.recordLeak(slot, birth.step, pid.steps[ordinal].step);
        }
        pid.pendingFrom = i;
        if (i > 4096 && i * 2 > q.length) {
            pid.pending = q.slice(i);
            pid.pendingFrom = 0;
        }
    }
    recordLeak(slot, birthStep, seenAtEndOf) {
        const b = this.blocks;
        const g = this.r.groups[b.group[slot]];
        const key = `${g.device}|${g.pool}`;
        let entry = this.leaks.get(key);
        if (entry === undefined)
            this.leaks.set(key, (entry = { leak: { device: g.device, pool: g.pool, count: 0, bytes: 0, examples: [], top: [] }, labels: [] }));
        const bytes = b.size[slot];
        const sum = exactSum(entry.leak.bytes, bytes);
        if (sum === null)
            this.fail(b.line[slot], `the step-leak bytes of ${g.device}/${g.pool}`);
        entry.leak.bytes = sum;
        entry.leak.count++;
        const label = this.labelOf(slot, g.pool);
        entry.labels.push([label, bytes]);
        keepSmallest(entry.leak.examples, { id: b.id[slot], bytes, birthStep, seenAtEndOf, owner: label }, 20);
    }
    labelOf(slot, pool) {
        const b = this.blocks;
        const owner = b.owner[slot];
        if (owner !== 0)
            return this.r.strings.list[owner];
        const site = b.callSite[slot];
        if (site !== 0)
            return this.r.strings.list[site];
        return pool;
    }
    rangeStart(e) {
        const pid = this.pidSteps[e.u0];
        pid.ranges++;
        if (e.kind !== STEP_RANGE_START)
            return;
        if (pid.kind === 'none')
            pid.kind = 'range';
        if (pid.kind !== 'range')
            return;
        this.endStep(pid, false);
        pid.stepOfRange.set(pid.ranges, pid.steps.length);
        this.startStep(pid, e.u0, pid.steps.length + 1);
    }
    rangeEnd(e) {
        const pid = this.pidSteps[e.u0];
        if (pid.kind !== 'range')
            return;
        const ordinal = pid.stepOfRange.get(e.f0);
        if (ordinal === undefined || pid.steps[ordinal].closed)
            return;
        if (ordinal !== pid.open) {
            this.warn({
                file: this.r.file,
                line: e.line,
                reason: `the Range_end of step ${pid.steps[ordinal].step} comes after the next step started: that step ended at the next one's start, unclosed`,
            });
            return;
        }
        this.endStep(pid, true);
    }
    stepMark(e) {
        const pid = this.pidSteps[e.u0];
        if (pid.kind === 'none') {
            pid.kind = 'step';
            pid.steps.push({ pid: this.r.pids.list[e.u0], step: e.f0, closed: false });
            for (const g of pid.groups) {
                const s = this.groupSteps[g];
                s.start[0] = 0;
                s.peak[0] = this.groupMax[g];
            }
            pid.open = 0;
        }
        if (pid.kind !== 'step')
            return;
        if (pid.open !== -1)
            pid.steps[pid.open].step = e.f0;
        this.endStep(pid, true);
        this.startStep(pid, e.u0, e.f0 + 1);
    }
    opStart(e) {
        const stack = e.u0;
        if (this.stackLevel[stack] === -1) {
            this.stackLevel[stack] = e.u2;
            this.stacksOfLevel[e.u2].push(stack);
        }
        this.stacks[stack].push({ name: e.u1, base: this.opLevel[e.u2], max: -Infinity });
    }
    opEnd(e) {
        const frames = this.stacks[e.u0];
        for (let i = frames.length - 1; i >= 0; i--) {
            const open = frames[i];
            if (open.name !== e.u1)
                continue;
            let max = open.max;
            for (let k = i + 1; k < frames.length; k++)
                if (frames[k].max > max)
                    max = frames[k].max;
            frames.length = i;
            const parent = frames[i - 1];
            if (parent !== undefined && max > parent.max)
                parent.max = max;
            const level = this.opLevel[e.u2];
            const net = level - open.base;
            const peak = Math.max(0, max - open.base);
            const ops = this.ops[e.u2];
            const f = ops.get(e.u1);
            if (f === undefined)
                ops.set(e.u1, {
                    device: this.r.opLevels[e.u2].device,
                    name: this.r.strings.list[e.u1],
                    launches: 1,
                    net,
                    peak,
                });
            else {
                f.launches++;
                if (net > f.net)
                    f.net = net;
                if (peak > f.peak)
                    f.peak = peak;
            }
            return;
        }
        const name = this.r.strings.list[e.u1];
        this.warn({
            file: this.r.file,
            line: e.line,
            reason: `an op end of ${name.slice(0, 80)} with no start of it earlier in time on its thread (skipped)`,
        });
    }
    finish(unit, rows) {
        for (const pid of this.pidSteps)
            this.endStep(pid, false);
        const r = this.r;
        const steps = [];
        const stepRows = [];
        for (const pid of this.pidSteps) {
            steps.push(...pid.steps);
            for (const g of pid.groups) {
                const group = r.groups[g];
                const s = this.groupSteps[g];
                pid.steps.forEach((step, ordinal) => {
                    const start = s.start[ordinal] ?? 0;
                    stepRows.push({
                        device: group.device,
                        pool: group.pool,
                        pid: step.pid,
                        step: step.step,
                        start,
                        peak: s.peak[ordinal] ?? 0,
                        end: s.end[ordinal] ?? 0,
                        closed: step.closed,
                    });
                });
            }
        }
        steps.sort((a, b) => cmp(a.pid, b.pid) || a.step - b.step);
        stepRows.sort((a, b) => cmp(a.device, b.device) || cmp(a.pool, b.pool) || cmp(a.pid, b.pid) || a.step - b.step);
        const stepLeaks = [...this.leaks.values()].map(({ leak, labels }) => ({ ...leak, top: topLabels(labels) }));
        stepLeaks.sort((x, y) => cmp(x.device, y.device) || cmp(x.pool, y.pool));
        const owners = [];
        if (r.hasOwners) {
            this.ownerKeys.list.forEach((key, i) => {
                if (i === 0)
                    return;
                const [device, bucket] = key.split('|');
                owners.push({ device, bucket, peak: this.ownerPeak[i] });
            });
            owners.sort((x, y) => cmp(x.device, y.device) || cmp(x.bucket, y.bucket));
        }
        const devices = [...new Set(r.groups.map((g) => g.device).filter((d) => /^dev\d+$/.test(d)))];
        return {
            file: r.file,
            unit,
            rows,
            steps,
            stepRows,
            stepLeaks,
            unfreed: this.unfreed(),
            owners,
            ops: this.opFootprints(),
            inefficient: [...this.inefficient.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.type, y.type)),
            devices,
            orphanFrees: this.orphanFrees,
            ooms: r.ooms,
            droppedOoms: r.droppedOoms,
        };
    }
    opFootprints() {
        const byKey = new Map();
        for (const ops of this.ops) {
            for (const f of ops.values()) {
                const key = `${f.device}|${f.name}`;
                const prev = byKey.get(key);
                if (prev === undefined)
                    byKey.set(key, { ...f });
                else {
                    prev.launches += f.launches;
                    if (f.net > prev.net)
                        prev.net = f.net;
                    if (f.peak > prev.peak)
                        prev.peak = f.peak;
                }
            }
        }
        return [...byKey.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.name, y.name));
    }
    unfreed() {
        const b = this.blocks;
        const out = new Map();
        for (let slot = 0; slot < b.highWater; slot++) {
            if (b.state[slot] === 0)
                continue;
            const g = this.r.groups[b.group[slot]];
            const label = this.labelOf(slot, g.pool);
            const key = `${g.device}|${g.pool}|${label}`;
            let u = out.get(key);
            if (u === undefined)
                out.set(key, (u = { device: g.device, pool: g.pool, label, blocks: 0, bytes: 0, ids: [], sizes: [] }));
            const sum = exactSum(u.bytes, b.size[slot]);
            if (sum === null)
                this.fail(b.line[slot], `the unfreed bytes of ${g.device}/${g.pool}/${label}`);
            u.bytes = sum;
            u.blocks++;
            u.sizes.push(b.size[slot]);
            u.ids.push(b.id[slot]);
        }
        for (const u of out.values()) {
            u.ids.sort((x, y) => x - y);
            u.ids.length = Math.min(u.ids.length, 20);
            u.sizes.sort((x, y) => y - x);
        }
        return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.pool, y.pool) || cmp(x.label, y.label));
    }
}
function keepSmallest(list, block, n) {
    if (list.length === n && block.id >= list[n - 1].id)
        return;
    let at = list.length;
    while (at > 0 && list[at - 1].id > block.id)
        at--;
    list.splice(at, 0, block);
    if (list.length > n)
        list.length = n;
}
function cmp(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}

async function readDumpFacts(path, name, onWarning, options = {}) {
    const recorder = new DumpRecorder(name, onWarning, options.chunkEvents);
    try {
        const reader = new DumpReader(name, (row) => recorder.row(row), onWarning);
        await streamDump(path, reader);
        return replay(recorder, reader, onWarning);
    }
    finally {
        recorder.spool.close();
    }
}
function replay(recorder, reader, onWarning) {
    const replay = new DumpReplay(recorder, onWarning);
    recorder.spool.replay((e) => replay.event(e));
    return replay.finish(reader.timestampUnit ?? reader.header?.headerUnit ?? 'ns', reader.rows);
}

function dumpFigures(facts) {
    const metrics = {
        steps: new Map(),
        unfreed: new Map(),
        owners: new Map(),
        opFootprint: new Map(),
        inefficient: new Map(),
    };
    const samples = [];
    const v = visibleName;
    for (const r of facts.stepRows) {
        put(steps, metrics.steps, `${v(r.device)}/${v(r.pool)}/step${r.step}/peak`, { bytes: r.peak, step: r.step });
        put(steps, metrics.steps, `${v(r.device)}/${v(r.pool)}/step${r.step}/end`, { bytes: r.end, step: r.step });
        samples.push({ section: 'steps', key: `${v(r.device)}/${v(r.pool)}/peak`, step: r.step, bytes: r.peak });
        samples.push({ section: 'steps', key: `${v(r.device)}/${v(r.pool)}/end`, step: r.step, bytes: r.end });
    }
    for (const u of facts.unfreed) {
        put(unfreed, metrics.unfreed, `${v(u.device)}/${v(u.pool)}/${v(u.label)}`, {
            bytes: u.bytes,
            blocks: u.blocks,
            largest: u.sizes[0] ?? 0,
            ids: u.ids.slice(0, 10).join(' '),
            sizes: sizeCounts(u.sizes),
        });
    }
    for (const o of facts.owners)
        put(owners, metrics.owners, `${v(o.device)}/${o.bucket}`, { peak: o.peak });
    for (const f of facts.ops) {
        const metric = { net: f.net, peak: f.peak, launches: f.launches };
        put(opFootprint, metrics.opFootprint, `${v(f.device)}/${v(f.name)}`, metric);
    }
    for (const c of facts.inefficient)
        put(inefficient, metrics.inefficient, `${v(c.device)}/${v(c.type)}`, { bytes: c.bytes, count: c.count });
    const stepLeaks = facts.stepLeaks.map((l) => ({ ...l, device: v(l.device), pool: v(l.pool), top: l.top.map(v) }));
    return { metrics, samples, stepLeaks, openSteps: facts.steps.filter((s) => !s.closed).length };
}
function put(section, into, key, metric) {
    const prev = into.get(key);
    if (prev === undefined || valueOf(section, metric) > valueOf(section, prev))
        into.set(key, metric);
}
function sizeCounts(sizes) {
    const counts = new Map();
    for (const s of sizes)
        counts.set(s, (counts.get(s) ?? 0) + 1);
    return [...counts]
        .sort((a, b) => b[0] - a[0])
        .slice(0, 20)
        .map(([size, n]) => (n === 1 ? `${size}` : `${size}x${n}`))
        .join(' ');
}

function skippedInto(into) {
    return (w) => {
        const m = /^(.*?) \((?:rows of it are )?skipped[^)]*\)$/s.exec(w.reason);
        if (m !== null)
            into.addSkipped({
                file: w.file,
                line: w.line,
                reason: m[1],
                ...(w.cut === true ? { cut: true } : {}),
            });
        else
            into.addNote({ file: w.file, line: w.line, reason: w.reason });
    };
}
async function parseDumpFile(file, into) {
    const facts = await readDumpFacts(file.path, file.name, skippedInto(into));
    into.files++;
    into.records += facts.rows;
    const figures = dumpFigures(facts);
    const m = figures.metrics;
    for (const [key, metric] of m.steps)
        into.add(steps, key, metric);
    for (const [key, metric] of m.unfreed)
        into.add(unfreed, key, metric);
    for (const [key, metric] of m.owners)
        into.add(owners, key, metric);
    for (const [key, metric] of m.opFootprint)
        into.add(opFootprint, key, metric);
    for (const [key, metric] of m.inefficient)
        into.add(inefficient, key, metric);
    for (const s of figures.samples)
        into.addSample(s.section, s.key, 'step', s.step, s.bytes);
    for (const leak of figures.stepLeaks) {
        into.add(stepLeaks, `${leak.device}/${leak.pool}`, {
            bytes: leak.bytes,
            blocks: leak.count,
            top: leak.top.join('; '),
        });
    }
    for (const oom of facts.ooms) {
        const id = createHash('sha256')
            .update(file.name)
            .update('\0')
            .update(`${oom.pid}|${oom.timestamp}|${oom.requested}`)
            .digest('hex')
            .slice(0, 8);
        into.add(ooms, `${oom.device}/dump-${id}`, {
            ...OOM_FIELD_DEFAULTS,
            requested: oom.requested,
            cause: oomCause({ requested: oom.requested, total: null, deviceFree: null, allocated: null, reserved: null })
                .cause,
            source: 'msMemScope dump',
            precision: 'exact',
            line: oom.line,
            file: file.name,
            logicalDevice: oom.logicalDevice,
        });
        into.noteDevice(oom.device);
    }
    if (facts.droppedOoms > 0)
        into.addNote({
            file: file.name,
            line: 0,
            reason: `${facts.droppedOoms} more OOM_TRIGGER rows than the ${facts.ooms.length} kept were not read into the report`,
        });
    for (const device of facts.devices)
        into.noteDevice(device);
}
function finishDumps(snapshot, run) {
    return withOomCauses(snapshot, run.oom);
}
async function parseBaseDumpFile() { }
async function compareBaseDumps(files, into) {
    const bases = [...(files.dumpBase ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const currents = [...(files.dump ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (bases.length === 0)
        return;
    if (bases.length === currents.length && bases.every((b, i) => b.path === currents[i]?.path))
        return;
    if (bases.length !== currents.length) {
        throw new InputError(`memscope-dump-base has ${bases.length} dump(s) but memscope-dump has ${currents.length}: give one base dump per dump (they are paired in sorted path order)`);
    }
    for (let i = 0; i < bases.length; i++) {
        const base = bases[i];
        const current = currents[i];
        const result = await compareDumpFiles(base, current, { onWarning: skippedInto(into) });
        parseMemoryCompareText(`compare-dumps ${base.name} ${current.name}`, result.csv, into);
    }
}

export { compareBaseDumps, finishDumps, parseBaseDumpFile, parseDumpFile };

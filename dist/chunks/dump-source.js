import { I as InputError } from './errors.js';
import { parseMemoryCompareText } from './memory-compare.js';
import { s as streamDump, D as DumpReader, i as i32, f as f64, a as attrValueOf, c as compareDumpFiles } from './compare-dumps.js';
import { d as deviceName } from './keys.js';
import './sync.js';
import './units.js';
import 'node:buffer';
import './text-stream.js';
import 'node:fs';
import 'node:string_decoder';

const FRAMEWORK_POOLS = new Set(['PTA', 'ATB', 'MINDSPORE']);
const KNOWN_EVENTS = new Set(['MALLOC', 'FREE', 'ACCESS', 'MSTX', 'OP_LAUNCH', 'KERNEL_LAUNCH', 'SYSTEM', 'CLEAN_UP', 'SNAPSHOT', 'OOM_DETAIL', 'N/A']);
const SHADOW_RE = /[{,]shadow:true[,}]/;
function intern(map, list, text) {
    const found = map.get(text);
    if (found !== undefined)
        return found;
    const copy = Buffer.from(text, 'utf8').toString('utf8');
    map.set(copy, list.length);
    list.push(copy);
    return list.length - 1;
}
function ptrValue(ptr) {
    if (ptr.startsWith('0x') || ptr.startsWith('0X'))
        return parseInt(ptr.slice(2), 16);
    if (/^\d+$/.test(ptr))
        return Number(ptr);
    return NaN;
}
class DumpFactsCollector {
    file;
    warn;
    strings = [''];
    stringIds = new Map([['', 0]]);
    groups = [];
    groupIds = new Map();
    blocks = { count: 0, mallocTs: f64(), freeTs: f64(), size: f64(), id: f64(), group: i32(), owner: i32(), callSite: i32(), inefficient: i32() };
    live = new Map();
    markers = [];
    ops = { count: 0, device: i32(), pid: i32(), name: i32(), startTs: f64(), endTs: f64() };
    devices = [];
    deviceIds = new Map();
    pids = [];
    pidIds = new Map();
    openOps = new Map();
    originHi = NaN;
    originLo = 0;
    origin = '';
    orphanFrees = 0;
    hasOwners = false;
    hasInefficient = false;
    unknownEvents = new Set();
    constructor(file, warn) {
        this.file = file;
        this.warn = warn;
    }
    ts(text) {
        const len = text.length;
        if (len === 0 || len > 20)
            return NaN;
        for (let i = 0; i < len; i++) {
            const c = text.charCodeAt(i);
            if (c < 48 || c > 57)
                return NaN;
        }
        const hi = len > 9 ? Number(text.slice(0, len - 9)) : 0;
        const lo = len > 9 ? Number(text.slice(len - 9)) : Number(text);
        if (Number.isNaN(this.originHi)) {
            this.originHi = hi;
            this.originLo = lo;
            this.origin = text;
        }
        return (hi - this.originHi) * 1e9 + (lo - this.originLo);
    }
    device(raw) {
        return deviceName(raw) ?? raw;
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
            default:
                if (!KNOWN_EVENTS.has(row.event) && !this.unknownEvents.has(row.event)) {
                    this.unknownEvents.add(row.event);
                    this.warn({ file: this.file, line: row.line, reason: `unknown Event '${row.event.slice(0, 40)}' (rows of it are skipped)` });
                }
        }
    }
    size(row) {
        const text = attrValueOf(row.attr, 'size:');
        if (text === null || !/^-?\d+$/.test(text))
            return NaN;
        return Math.abs(Number(text));
    }
    lastGroup = { pid: '', device: '', pool: '', id: -1 };
    groupOfRow(pid, rawDevice, pool) {
        const last = this.lastGroup;
        if (last.id !== -1 && last.pid === pid && last.device === rawDevice && last.pool === pool)
            return last.id;
        const id = this.groupOf(pid, this.device(rawDevice), pool);
        this.lastGroup = { pid, device: rawDevice, pool, id };
        return id;
    }
    groupOf(pid, device, pool) {
        const key = `${pid}|${device}|${pool}`;
        let g = this.groupIds.get(key);
        if (g === undefined) {
            g = this.groups.length;
            this.groupIds.set(key, g);
            this.groups.push({ pid: Buffer.from(pid).toString(), device: Buffer.from(device).toString(), pool: Buffer.from(pool).toString() });
        }
        return g;
    }
    malloc(row) {
        const ts = this.ts(row.timestamp);
        const size = this.size(row);
        const ptr = ptrValue(row.ptr);
        if (Number.isNaN(ts) || Number.isNaN(size) || Number.isNaN(ptr)) {
            this.warn({ file: this.file, line: row.line, reason: `a MALLOC without a numeric timestamp, Ptr and Attr size (skipped)` });
            return;
        }
        const b = this.blocks;
        const index = b.count++;
        b.mallocTs.push(ts);
        b.freeTs.push(NaN);
        b.size.push(size);
        b.id.push(Number(row.id));
        b.group.push(this.groupOfRow(row.pid, row.device, row.eventType));
        const owner = row.attr.includes('owner:') ? (attrValueOf(row.attr, 'owner:') ?? '') : '';
        if (owner !== '')
            this.hasOwners = true;
        b.owner.push(owner === '' ? 0 : intern(this.stringIds, this.strings, owner));
        const firstFrame = firstCallSite(row.callStackPython) || firstCallSite(row.callStackC);
        b.callSite.push(firstFrame === '' ? 0 : intern(this.stringIds, this.strings, firstFrame));
        const inefficient = row.attr.includes('inefficient_type:') ? (attrValueOf(row.attr, 'inefficient_type:') ?? '') : '';
        if (inefficient !== '')
            this.hasInefficient = true;
        b.inefficient.push(inefficient === '' ? 0 : intern(this.stringIds, this.strings, inefficient));
        const open = this.liveOf(row.pid, row.eventType, true);
        open.set(ptr, index);
    }
    lastLive = null;
    liveOf(pid, pool, create) {
        const last = this.lastLive;
        if (last !== null && last.pid === pid && last.pool === pool)
            return last.open;
        const key = `${pid}|${pool}`;
        let open = this.live.get(key);
        if (open === undefined) {
            if (!create)
                return undefined;
            open = new Map();
            this.live.set(key, open);
        }
        this.lastLive = { pid, pool, open };
        return open;
    }
    free(row) {
        const ptr = ptrValue(row.ptr);
        const open = this.liveOf(row.pid, row.eventType, false);
        const index = open?.get(ptr);
        if (index === undefined || open === undefined) {
            this.orphanFrees++;
            return;
        }
        open.delete(ptr);
        if (SHADOW_RE.test(row.attr))
            return;
        const ts = this.ts(row.timestamp);
        this.blocks.freeTs.data[index] = Number.isNaN(ts) ? this.blocks.mallocTs.data[index] : ts;
    }
    mstx(row) {
        const ts = this.ts(row.timestamp);
        if (Number.isNaN(ts))
            return;
        if (row.eventType === 'Range_start') {
            this.markers.push({ pid: row.pid, ts, kind: 'range-start', isStep: row.name === 'step start', value: 0, line: row.line });
        }
        else if (row.eventType === 'Range_end') {
            const m = /Range end from id (\d+)/.exec(row.name);
            if (m !== null)
                this.markers.push({ pid: row.pid, ts, kind: 'range-end', isStep: false, value: Number(m[1]), line: row.line });
        }
    }
    systemStep(row) {
        const ts = this.ts(row.timestamp);
        const n = Number(row.name.replace(/"/g, ''));
        if (Number.isNaN(ts) || !Number.isInteger(n)) {
            this.warn({ file: this.file, line: row.line, reason: `a SYSTEM/STEP row without a step number (skipped)` });
            return;
        }
        this.markers.push({ pid: row.pid, ts, kind: 'step', isStep: true, value: n, line: row.line });
    }
    lastOps = null;
    op(row) {
        const type = row.eventType;
        const start = type === 'ATEN_START' || type === 'ATB_START';
        if (!start && type !== 'ATEN_END' && type !== 'ATB_END')
            return;
        const ts = this.ts(row.timestamp);
        if (Number.isNaN(ts))
            return;
        let stack;
        const last = this.lastOps;
        if (last !== null && last.pid === row.pid && last.tid === row.tid && last.device === row.device && last.family === type.charCodeAt(2)) {
            stack = last.stack;
        }
        else {
            const key = `${row.pid}|${row.tid}|${row.device}|${type.slice(0, 3)}`;
            stack = this.openOps.get(key);
            if (stack === undefined && start)
                this.openOps.set(key, (stack = []));
            if (stack !== undefined)
                this.lastOps = { pid: row.pid, tid: row.tid, device: row.device, family: type.charCodeAt(2), stack };
        }
        if (start) {
            stack.push([row.name, ts]);
            return;
        }
        if (stack === undefined)
            return;
        for (let i = stack.length - 1; i >= 0; i--) {
            const open = stack[i];
            if (open[0] !== row.name)
                continue;
            stack.length = i;
            const o = this.ops;
            o.count++;
            o.device.push(intern(this.deviceIds, this.devices, this.device(row.device)));
            o.pid.push(intern(this.pidIds, this.pids, row.pid));
            o.name.push(intern(this.stringIds, this.strings, row.name));
            o.startTs.push(open[1]);
            o.endTs.push(ts);
            return;
        }
    }
    finish(unit, rows) {
        const b = this.blocks;
        const o = this.ops;
        return {
            file: this.file,
            unit,
            origin: this.origin,
            groups: this.groups,
            strings: this.strings,
            blocks: {
                count: b.count,
                mallocTs: b.mallocTs.done(),
                freeTs: b.freeTs.done(),
                size: b.size.done(),
                id: b.id.done(),
                group: b.group.done(),
                owner: b.owner.done(),
                callSite: b.callSite.done(),
                inefficient: b.inefficient.done(),
            },
            markers: this.markers,
            ops: { count: o.count, device: o.device.done(), pid: o.pid.done(), name: o.name.done(), startTs: o.startTs.done(), endTs: o.endTs.done() },
            devices: this.devices,
            pids: this.pids,
            orphanFrees: this.orphanFrees,
            rows,
            hasOwners: this.hasOwners,
            hasInefficient: this.hasInefficient,
        };
    }
}
function firstCallSite(stack) {
    if (stack === '' || stack === 'N/A')
        return '';
    const cut = stack.search(/;|\\n|\n/);
    return (cut === -1 ? stack : stack.slice(0, cut)).trim().slice(0, 200);
}
async function readDumpFacts(path, name, onWarning) {
    const collector = new DumpFactsCollector(name, onWarning);
    const reader = new DumpReader(name, (row) => collector.row(row), onWarning);
    await streamDump(path, reader);
    return collector.finish(reader.timestampUnit ?? reader.header?.headerUnit ?? 'ns', reader.rows);
}

function findSteps(facts) {
    const byPid = new Map();
    for (const m of facts.markers) {
        let list = byPid.get(m.pid);
        if (list === undefined)
            byPid.set(m.pid, (list = []));
        list.push(m);
    }
    const out = [];
    const lastTs = facts.blocks.count === 0 ? 0 : Math.max(...maxOf(facts.blocks.mallocTs), ...maxOf(facts.blocks.freeTs.filter((t) => !Number.isNaN(t))), ...maxOf(facts.ops.endTs));
    for (const [pid, markers] of byPid) {
        markers.sort((a, b) => a.ts - b.ts || a.line - b.line);
        const first = markers.find((m) => m.isStep);
        if (first === undefined)
            continue;
        const steps = [];
        if (first.kind === 'step') {
            let start = -Infinity;
            let step = 1;
            for (const m of markers) {
                if (m.kind !== 'step')
                    continue;
                steps.push({ pid, step: m.value, startTs: start, endTs: m.ts, closed: true });
                start = m.ts;
                step = m.value + 1;
            }
            steps.push({ pid, step, startTs: start, endTs: Math.max(lastTs, start), closed: false });
        }
        else {
            let rangeId = 0;
            const stepOfRange = new Map();
            for (const m of markers) {
                if (m.kind === 'range-start') {
                    rangeId++;
                    if (!m.isStep)
                        continue;
                    const open = steps[steps.length - 1];
                    if (open !== undefined && !open.closed && open.endTs === Infinity)
                        open.endTs = m.ts;
                    const s = { pid, step: steps.length + 1, startTs: m.ts, endTs: Infinity, closed: false };
                    steps.push(s);
                    stepOfRange.set(rangeId, s);
                }
                else if (m.kind === 'range-end') {
                    const s = stepOfRange.get(m.value);
                    if (s !== undefined && !s.closed) {
                        s.endTs = m.ts;
                        s.closed = true;
                    }
                }
            }
            for (const s of steps)
                if (s.endTs === Infinity)
                    s.endTs = Math.max(lastTs, s.startTs);
        }
        out.push(...steps);
    }
    return out;
}
function maxOf(values) {
    let m = -Infinity;
    for (let i = 0; i < values.length; i++)
        if (values[i] > m)
            m = values[i];
    return [m];
}
function events(facts, take) {
    const b = facts.blocks;
    const list = [];
    for (let i = 0; i < b.count; i++) {
        if (!take(i))
            continue;
        list.push(i * 2);
        if (!Number.isNaN(b.freeTs[i]))
            list.push(i * 2 + 1);
    }
    const tsOf = (e) => ((e & 1) === 0 ? b.mallocTs[e >> 1] : b.freeTs[e >> 1]);
    list.sort((x, y) => tsOf(x) - tsOf(y) || (y & 1) - (x & 1) || x - y);
    const ts = new Float64Array(list.length);
    const delta = new Float64Array(list.length);
    list.forEach((e, k) => {
        ts[k] = tsOf(e);
        delta[k] = (e & 1) === 0 ? b.size[e >> 1] : -b.size[e >> 1];
    });
    return { ts, delta };
}
function upper(ts, t, strict) {
    let lo = 0;
    let hi = ts.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (strict ? ts[mid] <= t : ts[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
function stepTable(facts, steps) {
    const rows = [];
    facts.groups.forEach((g, gi) => {
        if (!FRAMEWORK_POOLS.has(g.pool))
            return;
        const mine = steps.filter((s) => s.pid === g.pid);
        if (mine.length === 0)
            return;
        const { ts, delta } = events(facts, (i) => facts.blocks.group[i] === gi);
        const level = new Float64Array(ts.length + 1);
        for (let k = 0; k < ts.length; k++)
            level[k + 1] = level[k] + delta[k];
        for (const s of mine) {
            const from = upper(ts, s.startTs, false);
            const to = upper(ts, s.endTs, true);
            const start = level[from];
            let peak = start;
            for (let k = from + 1; k <= to; k++)
                if (level[k] > peak)
                    peak = level[k];
            rows.push({ device: g.device, pool: g.pool, pid: g.pid, step: s.step, start, peak, end: level[to], closed: s.closed });
        }
    });
    return rows.sort((a, b) => cmp(a.device, b.device) || cmp(a.pool, b.pool) || cmp(a.pid, b.pid) || a.step - b.step);
}
function cmp(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
function stepLeaks(facts, steps) {
    const b = facts.blocks;
    const byPid = new Map();
    for (const s of steps) {
        let list = byPid.get(s.pid);
        if (list === undefined)
            byPid.set(s.pid, (list = []));
        list.push(s);
    }
    for (const list of byPid.values())
        list.sort((x, y) => x.startTs - y.startTs);
    const out = new Map();
    for (let i = 0; i < b.count; i++) {
        const g = facts.groups[b.group[i]];
        if (g === undefined || !FRAMEWORK_POOLS.has(g.pool))
            continue;
        const list = byPid.get(g.pid);
        if (list === undefined)
            continue;
        const born = b.mallocTs[i];
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (list[mid].startTs < born)
                lo = mid + 1;
            else
                hi = mid;
        }
        const k = lo - 1;
        if (k === -1 || list[k].step < 2)
            continue;
        let check;
        for (let s = k + 1; s < list.length && check === undefined; s++) {
            const candidate = list[s];
            if (candidate.closed && candidate.startTs > born)
                check = candidate;
        }
        if (check === undefined)
            continue;
        const freed = b.freeTs[i];
        if (!Number.isNaN(freed) && freed <= check.endTs)
            continue;
        const key = `${g.device}|${g.pool}`;
        let leak = out.get(key);
        if (leak === undefined)
            out.set(key, (leak = { device: g.device, pool: g.pool, count: 0, bytes: 0, blocks: [], top: [] }));
        leak.count++;
        leak.bytes += b.size[i];
        leak.blocks.push({ id: b.id[i], bytes: b.size[i], birthStep: list[k].step, seenAtEndOf: check.step, owner: labelOf(facts, i, g.pool) });
    }
    for (const leak of out.values())
        leak.top = topLabels(leak.blocks.map((x) => [x.owner, x.bytes]));
    return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.pool, y.pool));
}
function labelOf(facts, block, pool) {
    const owner = facts.blocks.owner[block];
    if (owner !== 0)
        return facts.strings[owner];
    const site = facts.blocks.callSite[block];
    if (site !== 0)
        return facts.strings[site];
    return pool;
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
        .sort((x, y) => y[1].bytes - x[1].bytes || cmp(x[0], y[0]))
        .slice(0, 3)
        .map(([label, t]) => (Number.isNaN(t.size) ? `${label} ${t.bytes} B in ${t.count}` : `${label} ${t.size}×${t.count}`));
}
function unfreedAtEnd(facts) {
    const b = facts.blocks;
    const out = new Map();
    for (let i = 0; i < b.count; i++) {
        if (!Number.isNaN(b.freeTs[i]))
            continue;
        const g = facts.groups[b.group[i]];
        if (g === undefined)
            continue;
        const label = labelOf(facts, i, g.pool);
        const key = `${g.device}|${g.pool}|${label}`;
        let u = out.get(key);
        if (u === undefined)
            out.set(key, (u = { device: g.device, pool: g.pool, label, blocks: 0, bytes: 0, ids: [], sizes: [] }));
        u.blocks++;
        u.bytes += b.size[i];
        if (u.ids.length < 20)
            u.ids.push(b.id[i]);
        u.sizes.push(b.size[i]);
    }
    for (const u of out.values()) {
        u.ids.sort((x, y) => x - y);
        u.sizes.sort((x, y) => y - x);
    }
    return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.pool, y.pool) || cmp(x.label, y.label));
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
function ownerPeaks(facts) {
    if (!facts.hasOwners)
        return [];
    const b = facts.blocks;
    const bucketOf = new Map();
    const keyOf = [];
    for (let i = 0; i < b.count; i++) {
        const g = facts.groups[b.group[i]];
        if (g === undefined)
            continue;
        const owner = facts.strings[b.owner[i]];
        const memo = `${owner}|${g.pool}`;
        let bucket = bucketOf.get(memo);
        if (bucket === undefined)
            bucketOf.set(memo, (bucket = ownerBucket(owner, g.pool)));
        keyOf[i] = `${g.device}|${bucket}`;
    }
    const out = [];
    for (const key of [...new Set(keyOf.filter((k) => k !== undefined))].sort()) {
        const { delta } = events(facts, (i) => keyOf[i] === key);
        let level = 0;
        let peak = 0;
        for (const d of delta) {
            level += d;
            if (level > peak)
                peak = level;
        }
        const [device, bucket] = key.split('|');
        out.push({ device, bucket, peak });
    }
    return out;
}
function opFootprint(facts) {
    const ops = facts.ops;
    if (ops.count === 0)
        return [];
    const b = facts.blocks;
    const out = new Map();
    const byPair = new Map();
    for (let o = 0; o < ops.count; o++) {
        const pair = ops.device[o] * 0x100000 + ops.pid[o];
        let list = byPair.get(pair);
        if (list === undefined)
            byPair.set(pair, (list = []));
        list.push(o);
    }
    for (const list of byPair.values()) {
        const first = list[0];
        const device = facts.devices[ops.device[first]];
        const pid = facts.pids[ops.pid[first]];
        const { ts, delta } = events(facts, (i) => {
            const g = facts.groups[b.group[i]];
            return g !== undefined && g.device === device && g.pid === pid && FRAMEWORK_POOLS.has(g.pool);
        });
        const level = new Float64Array(ts.length + 1);
        for (let k = 0; k < ts.length; k++)
            level[k + 1] = level[k] + delta[k];
        for (const o of list) {
            const from = upper(ts, ops.startTs[o], false);
            const to = upper(ts, ops.endTs[o], true);
            const base = level[from];
            let peak = 0;
            for (let k = from + 1; k <= to; k++)
                if (level[k] - base > peak)
                    peak = level[k] - base;
            const net = level[to] - base;
            const nameId = ops.name[o];
            const key = `${device}|${nameId}`;
            const f = out.get(key);
            if (f === undefined)
                out.set(key, { device, name: facts.strings[nameId], launches: 1, net, peak });
            else {
                f.launches++;
                if (net > f.net)
                    f.net = net;
                if (peak > f.peak)
                    f.peak = peak;
            }
        }
    }
    return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.name, y.name));
}
function inefficientMemory(facts) {
    if (!facts.hasInefficient)
        return [];
    const b = facts.blocks;
    const out = new Map();
    for (let i = 0; i < b.count; i++) {
        const text = facts.strings[b.inefficient[i]];
        if (text === '')
            continue;
        const g = facts.groups[b.group[i]];
        if (g === undefined)
            continue;
        for (const type of new Set(text.split(',').map((t) => t.trim()).filter((t) => t !== ''))) {
            const key = `${g.device}|${type}`;
            let c = out.get(key);
            if (c === undefined)
                out.set(key, (c = { device: g.device, type, count: 0, bytes: 0 }));
            c.count++;
            c.bytes += b.size[i];
        }
    }
    return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.type, y.type));
}

function dumpFigures(facts) {
    const metrics = new Map();
    const put = (section, key, metric, field = 'bytes') => {
        let m = metrics.get(section);
        if (m === undefined)
            metrics.set(section, (m = new Map()));
        const prev = m.get(key);
        if (prev === undefined || metric[field] > prev[field])
            m.set(key, metric);
    };
    const steps = findSteps(facts);
    const samples = [];
    for (const r of stepTable(facts, steps)) {
        put('steps', `${r.device}/${r.pool}/step${r.step}/peak`, { bytes: r.peak, step: r.step });
        put('steps', `${r.device}/${r.pool}/step${r.step}/end`, { bytes: r.end, step: r.step });
        samples.push({ section: 'steps', key: `${r.device}/${r.pool}/peak`, step: r.step, bytes: r.peak });
        samples.push({ section: 'steps', key: `${r.device}/${r.pool}/end`, step: r.step, bytes: r.end });
    }
    for (const u of unfreedAtEnd(facts)) {
        put('unfreed', `${u.device}/${u.pool}/${u.label}`, { bytes: u.bytes, blocks: u.blocks, largest: u.sizes[0] ?? 0, ids: u.ids.slice(0, 10).join(' '), sizes: sizeCounts(u.sizes) });
    }
    for (const o of ownerPeaks(facts))
        put('owners', `${o.device}/${o.bucket}`, { peak: o.peak }, 'peak');
    for (const f of opFootprint(facts))
        put('opFootprint', `${f.device}/${f.name}`, { net: f.net, peak: f.peak, launches: f.launches }, 'net');
    for (const c of inefficientMemory(facts))
        put('inefficient', `${c.device}/${c.type}`, { bytes: c.bytes, count: c.count });
    return { metrics, samples, stepLeaks: stepLeaks(facts, steps), openSteps: steps.filter((s) => !s.closed).length };
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
            into.addSkipped({ file: w.file, line: w.line, reason: m[1] });
    };
}
async function parseDumpFile(file, into) {
    const facts = await readDumpFacts(file.path, file.name, skippedInto(into));
    into.files++;
    into.records += facts.rows;
    const figures = dumpFigures(facts);
    for (const [sectionName, metrics] of figures.metrics)
        for (const [key, metric] of metrics)
            into.addMetric(sectionName, key, metric);
    for (const s of figures.samples)
        into.addSample(s.section, s.key, 'step', s.step, s.bytes);
    for (const leak of figures.stepLeaks) {
        into.addMetric('stepLeaks', `${leak.device}/${leak.pool}`, { bytes: leak.bytes, blocks: leak.count, top: leak.top.join('; ') });
    }
    for (const g of facts.groups)
        if (/^dev\d+$/.test(g.device))
            into.noteDevice(g.device);
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

export { compareBaseDumps, parseBaseDumpFile, parseDumpFile };

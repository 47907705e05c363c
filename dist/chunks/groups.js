import { S as StringTable, a as hashSpliced } from './string-table.js';
import './evidence-sources.js';
import { f as findDeviceSegment } from './keys.js';

class KeyGroups {
    keys;
    size = 0;
    groups = 0;
    groupOf = new Int32Array(0);
    nextMember = new Int32Array(0);
    starts = new Int32Array(0);
    ends = new Int32Array(0);
    firsts = new Int32Array(0);
    lasts = new Int32Array(0);
    table = new StringTable();
    patterns = new Map();
    bounds = { start: 0, end: 0 };
    constructor(keys) {
        this.keys = keys;
        this.extend();
    }
    deviceStart(i) {
        return this.starts[i];
    }
    deviceEnd(i) {
        return this.ends[i];
    }
    nextOf(i) {
        return this.nextMember[i];
    }
    byPrefix() {
        const prefixes = new Map();
        const prefixOf = new Int32Array(this.groups);
        for (let g = 0; g < this.groups; g++) {
            const i = this.firsts[g];
            const prefix = this.keys[i].slice(0, this.starts[i]);
            let id = prefixes.get(prefix);
            if (id === undefined)
                prefixes.set(prefix, (id = prefixes.size));
            prefixOf[g] = id;
        }
        const starts = new Int32Array(prefixes.size + 1);
        for (let g = 0; g < this.groups; g++)
            starts[prefixOf[g] + 1]++;
        for (let p = 0; p < prefixes.size; p++)
            starts[p + 1] = starts[p + 1] + starts[p];
        const out = new Int32Array(this.groups);
        for (let g = 0; g < this.groups; g++)
            out[starts[prefixOf[g]]++] = g;
        return out;
    }
    first(g) {
        return this.firsts[g];
    }
    extend() {
        const { keys, bounds } = this;
        const from = this.size;
        const to = keys.length;
        if (to === from)
            return;
        this.grow(to);
        const { groupOf, nextMember, starts, ends, firsts, lasts, table } = this;
        for (let i = from; i < to; i++) {
            const key = keys[i];
            nextMember[i] = -1;
            if (!findDeviceSegment(key, bounds)) {
                groupOf[i] = -1;
                continue;
            }
            const { start, end } = bounds;
            starts[i] = start;
            ends[i] = end;
            const hash = hashSpliced(key, start, end, STAR);
            let g = table.indexOfSpliced(key, start, end, STAR, hash);
            if (g === -1) {
                g = table.addSpliced(key, start, end, STAR, hash);
                this.groups++;
                firsts[g] = i;
                lasts[g] = i;
            }
            else {
                nextMember[lasts[g]] = i;
                lasts[g] = i;
            }
            groupOf[i] = g;
        }
        this.size = to;
    }
    pattern(g) {
        let text = this.patterns.get(g);
        if (text === undefined) {
            const i = this.firsts[g];
            const key = this.keys[i];
            this.patterns.set(g, (text = `${key.slice(0, this.starts[i])}*${key.slice(this.ends[i])}`));
        }
        return text;
    }
    compareSubject(g, text) {
        const i = this.firsts[g];
        const key = this.keys[i];
        const s = this.starts[i];
        const e = this.ends[i];
        if (s === 0 && e === key.length)
            return 'dev*' < text ? -1 : 'dev*' > text ? 1 : 0;
        const length = key.length - e + s + 1;
        const common = Math.min(length, text.length);
        for (let k = 0; k < common; k++) {
            const d = charAround(key, s, e, k) - text.charCodeAt(k);
            if (d !== 0)
                return d;
        }
        return length - text.length;
    }
    find(pattern) {
        if (!pattern.includes('*'))
            return undefined;
        const g = this.table.indexOf(pattern);
        return g === -1 ? undefined : g;
    }
    members(g, visit) {
        for (let i = this.firsts[g]; i !== -1; i = this.nextMember[i])
            visit(i);
    }
    memberList(g) {
        const out = [];
        for (let i = this.firsts[g]; i !== -1; i = this.nextMember[i])
            out.push(i);
        return out;
    }
    grow(to) {
        if (to <= this.groupOf.length)
            return;
        const capacity = Math.max(to, this.groupOf.length * 2);
        const widen = (a) => {
            const wider = new Int32Array(capacity);
            wider.set(a.subarray(0, this.size));
            return wider;
        };
        this.groupOf = widen(this.groupOf);
        this.nextMember = widen(this.nextMember);
        this.starts = widen(this.starts);
        this.ends = widen(this.ends);
        this.firsts = widen(this.firsts);
        this.lasts = widen(this.lasts);
    }
}
function charAround(text, start, end, k) {
    return k < start ? text.charCodeAt(k) : k === start ? STAR : text.charCodeAt(end + k - start - 1);
}
const STAR = 0x2a;
const cached = new WeakMap();
function groupsOf(keys) {
    let groups = cached.get(keys);
    if (groups === undefined || groups.size > keys.length)
        cached.set(keys, (groups = new KeyGroups(keys)));
    else
        groups.extend();
    return groups;
}
function forgetGroups(keys) {
    cached.delete(keys);
}
class ByPattern {
    table = new StringTable();
    values = [];
    get(key, start, end) {
        const e = this.table.indexOfSpliced(key, start, end, STAR);
        return e === -1 ? undefined : this.values[e];
    }
    set(key, start, end, value) {
        this.values[this.table.addSpliced(key, start, end, STAR)] = value;
    }
}

export { ByPattern as B, KeyGroups as K, forgetGroups as f, groupsOf as g };

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
    hashes = new Int32Array(0);
    slots = new Int32Array(64);
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
        const { groupOf, nextMember, starts, ends, firsts, lasts, hashes } = this;
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
            const hash = hashAround(key, start, end);
            const slots = this.slots;
            const mask = slots.length - 1;
            let slot = hash & mask;
            let g = -1;
            for (let found = slots[slot]; found !== 0; found = slots[(slot = (slot + 1) & mask)]) {
                if (hashes[found - 1] === hash && this.sameText(firsts[found - 1], key, start, end)) {
                    g = found - 1;
                    break;
                }
            }
            if (g === -1) {
                g = this.groups++;
                firsts[g] = i;
                lasts[g] = i;
                hashes[g] = hash;
                slots[slot] = g + 1;
                if (this.groups * 2 > slots.length)
                    this.rehash();
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
        const star = pattern.indexOf('*');
        if (star === -1)
            return undefined;
        const hash = hashAround(pattern, star, star + 1);
        const { slots, hashes, firsts } = this;
        const mask = slots.length - 1;
        for (let slot = hash & mask, found = slots[slot]; found !== 0; found = slots[(slot = (slot + 1) & mask)]) {
            if (hashes[found - 1] === hash && this.sameText(firsts[found - 1], pattern, star, star + 1))
                return found - 1;
        }
        return undefined;
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
    sameText(i, text, start, end) {
        const key = this.keys[i];
        const s = this.starts[i];
        const e = this.ends[i];
        const length = text.length - end + start;
        if (key.length - e + s !== length)
            return false;
        if (s === start) {
            for (let k = 0; k < s; k++)
                if (key.charCodeAt(k) !== text.charCodeAt(k))
                    return false;
            for (let k = e, j = end; k < key.length; k++, j++)
                if (key.charCodeAt(k) !== text.charCodeAt(j))
                    return false;
            return true;
        }
        for (let k = 0; k <= length; k++)
            if (charAround(key, s, e, k) !== charAround(text, start, end, k))
                return false;
        return true;
    }
    rehash() {
        const slots = new Int32Array(this.slots.length * 2);
        const mask = slots.length - 1;
        for (let g = 0; g < this.groups; g++) {
            let slot = this.hashes[g] & mask;
            while (slots[slot] !== 0)
                slot = (slot + 1) & mask;
            slots[slot] = g + 1;
        }
        this.slots = slots;
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
        this.hashes = widen(this.hashes);
    }
}
function charAround(text, start, end, k) {
    return k < start ? text.charCodeAt(k) : k === start ? STAR : text.charCodeAt(end + k - start - 1);
}
const STAR = 0x2a;
function hashAround(text, start, end) {
    let h = 0x811c9dc5;
    for (let k = 0; k < start; k++)
        h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
    h = Math.imul(h ^ STAR, 0x01000193);
    for (let k = end; k < text.length; k++)
        h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
    return h & 0x3fffffff;
}
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
    slots = new Int32Array(64);
    texts = [];
    starts = [];
    ends = [];
    hashes = [];
    values = [];
    get(key, start, end) {
        const hash = hashAround(key, start, end);
        const mask = this.slots.length - 1;
        for (let slot = hash & mask, found = this.slots[slot]; found !== 0; found = this.slots[(slot = (slot + 1) & mask)]) {
            const e = found - 1;
            if (this.hashes[e] === hash &&
                samePattern(this.texts[e], this.starts[e], this.ends[e], key, start, end))
                return this.values[e];
        }
        return undefined;
    }
    set(key, start, end, value) {
        const hash = hashAround(key, start, end);
        const e = this.values.length;
        this.texts.push(key);
        this.starts.push(start);
        this.ends.push(end);
        this.hashes.push(hash);
        this.values.push(value);
        if ((e + 1) * 2 > this.slots.length)
            this.rehash();
        else
            this.place(e);
    }
    place(e) {
        const mask = this.slots.length - 1;
        let slot = this.hashes[e] & mask;
        while (this.slots[slot] !== 0)
            slot = (slot + 1) & mask;
        this.slots[slot] = e + 1;
    }
    rehash() {
        this.slots = new Int32Array(this.slots.length * 2);
        for (let e = 0; e < this.values.length; e++)
            this.place(e);
    }
}
function samePattern(a, as, ae, b, bs, be) {
    const length = a.length - ae + as;
    if (b.length - be + bs !== length)
        return false;
    for (let k = 0; k <= length; k++)
        if (charAround(a, as, ae, k) !== charAround(b, bs, be, k))
            return false;
    return true;
}

export { ByPattern as B, KeyGroups as K, forgetGroups as f, groupsOf as g };

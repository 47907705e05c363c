import { createHash } from 'node:crypto';
import { m as median, r as runEnvironmentOf, b as runValue } from './roll-up.js';
import { b as SECTIONS, k as keysOf, m as metricsOf } from './evidence-sources.js';
import { K as KeyGroups } from './groups.js';
import './errors.js';
import './string-table.js';
import './keys.js';

const ROLL_UP_ABOVE_DEVICES = 64;
function pointValues(snapshot) {
    const compared = SECTIONS.filter((d) => d.compared !== false && Object.hasOwn(snapshot.sections, d.name));
    const grouped = new Map(compared.map((d) => [d.name, new KeyGroups(keysOf(metricsOf(snapshot, d.name)))]));
    const devices = new Set();
    for (const groups of grouped.values()) {
        const { keys, groupOf } = groups;
        let last = -1;
        for (let i = 0; i < keys.length; i++) {
            if (groupOf[i] === -1)
                continue;
            if (last === -1 || !sameDevice(groups, last, i))
                devices.add(deviceId(keys[i], groups.deviceStart(i) + 3, groups.deviceEnd(i)));
            last = i;
        }
    }
    const keys = new Map();
    const rollups = new Map();
    const rolled = devices.size > ROLL_UP_ABOVE_DEVICES;
    for (const declaration of compared) {
        const metrics = metricsOf(snapshot, declaration.name);
        const groups = grouped.get(declaration.name);
        const list = groups.keys;
        const figures = figuresOf(declaration, metrics, list);
        if (!rolled) {
            keys.set(declaration.name, new KeyValues(list.slice(), figures));
            continue;
        }
        const values = new KeyValues([], new Float64Array(list.length));
        keys.set(declaration.name, values);
        for (let i = 0; i < list.length; i++)
            if (groups.groupOf[i] === -1)
                values.push(list[i], figures[i]);
        const byPattern = new Map();
        for (const g of groups.byPrefix()) {
            const first = groups.first(g);
            if (groups.nextOf(first) === -1) {
                values.push(list[first], figures[first]);
                continue;
            }
            const members = groups.memberList(g);
            const figuresOf = new Float64Array(members.length);
            let worst = 0;
            let min = Number.POSITIVE_INFINITY;
            let max = Number.NEGATIVE_INFINITY;
            for (let m = 0; m < members.length; m++) {
                const v = figures[members[m]];
                figuresOf[m] = v;
                if (v < min)
                    min = v;
                if (v > max) {
                    max = v;
                    worst = m;
                }
            }
            const w = members[worst];
            const worstDevice = deviceName(deviceId(list[w], groups.deviceStart(w) + 3, groups.deviceEnd(w)));
            byPattern.set(groups.pattern(g), {
                min,
                median: Math.round(median(figuresOf)),
                max,
                devices: members.length,
                worst: worstDevice,
            });
        }
        if (byPattern.size > 0)
            rollups.set(declaration.name, byPattern);
    }
    return { keys, rollups, devices: devices.size };
}
function figuresOf(declaration, metrics, list) {
    const field = declaration.value;
    const out = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) {
        const v = metrics[list[i]][field];
        out[i] = typeof v === 'number' ? v : 0;
    }
    return out;
}
class KeyValues {
    names;
    figures;
    index;
    constructor(names, figures) {
        this.names = names;
        this.figures = figures;
    }
    push(name, value) {
        this.figures[this.names.length] = value;
        this.names.push(name);
        this.index = undefined;
    }
    get size() {
        return this.names.length;
    }
    get(key) {
        const i = this.indexOf(key);
        return i === undefined ? undefined : this.figures[i];
    }
    has(key) {
        return this.indexOf(key) !== undefined;
    }
    forEach(visit) {
        for (let i = 0; i < this.names.length; i++)
            visit(this.figures[i], this.names[i], this);
    }
    *entries() {
        for (let i = 0; i < this.names.length; i++)
            yield [this.names[i], this.figures[i]];
    }
    keys() {
        return this.names.values();
    }
    *values() {
        for (let i = 0; i < this.names.length; i++)
            yield this.figures[i];
    }
    [Symbol.iterator]() {
        return this.entries();
    }
    indexOf(key) {
        if (this.index === undefined) {
            this.index = new Map();
            for (let i = 0; i < this.names.length; i++)
                this.index.set(this.names[i], i);
        }
        return this.index.get(key);
    }
}
function sameDevice(groups, a, b) {
    const from = groups.deviceStart(a);
    const length = groups.deviceEnd(a) - from;
    if (groups.deviceEnd(b) - groups.deviceStart(b) !== length)
        return false;
    const ka = groups.keys[a];
    const kb = groups.keys[b];
    const offset = groups.deviceStart(b) - from;
    for (let k = from; k < from + length; k++)
        if (ka.charCodeAt(k) !== kb.charCodeAt(k + offset))
            return false;
    return true;
}
function deviceId(key, from, to) {
    if (to - from > 15 || (to - from > 1 && key.charCodeAt(from) === 0x30))
        return key.slice(from, to);
    let n = 0;
    for (let i = from; i < to; i++)
        n = n * 10 + key.charCodeAt(i) - 0x30;
    return n;
}
function deviceName(id) {
    return `dev${id}`;
}
function pointEnvironment(snapshot) {
    const environment = runEnvironmentOf(snapshot.meta);
    const out = {};
    if (environment === undefined)
        return out;
    const items = new Set();
    for (const node of Object.values(environment))
        for (const item of Object.keys(node))
            items.add(item);
    for (const item of [...items].sort()) {
        const value = runValue(environment, item);
        if (value !== null)
            Object.defineProperty(out, item, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
}
function baselineHash(bytes) {
    return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export { KeyValues, baselineHash, pointEnvironment, pointValues };

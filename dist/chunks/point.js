import { createHash } from 'node:crypto';
import { m as median, r as runEnvironmentOf, b as runValue } from './roll-up.js';
import { b as SECTIONS, k as keysOf, m as metricsOf, v as valueOf } from './evidence-sources.js';
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
        for (let i = 0; i < keys.length; i++)
            if (groupOf[i] !== -1)
                devices.add(deviceId(keys[i], groups.deviceStart(i) + 3, groups.deviceEnd(i)));
    }
    const keys = new Map();
    const rollups = new Map();
    const rolled = devices.size > ROLL_UP_ABOVE_DEVICES;
    for (const declaration of compared) {
        const metrics = metricsOf(snapshot, declaration.name);
        const groups = grouped.get(declaration.name);
        const list = groups.keys;
        const values = new Map();
        keys.set(declaration.name, values);
        if (!rolled) {
            for (let i = 0; i < list.length; i++)
                values.set(list[i], valueOf(declaration, metrics[list[i]]));
            continue;
        }
        const figures = new Float64Array(list.length);
        for (let i = 0; i < list.length; i++) {
            const key = list[i];
            const value = valueOf(declaration, metrics[key]);
            if (groups.groupOf[i] === -1)
                values.set(key, value);
            else
                figures[i] = value;
        }
        const byPattern = new Map();
        for (const g of groups.byPrefix()) {
            const first = groups.first(g);
            if (groups.nextOf(first) === -1) {
                values.set(list[first], figures[first]);
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

export { baselineHash, pointEnvironment, pointValues };

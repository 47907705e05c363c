import { createHash } from 'node:crypto';
import { r as runEnvironmentOf, b as runValue } from './environment.js';
import { r as rollUp } from './roll-up.js';
import { a as SECTIONS, k as keysOf, m as metricsOf, v as valueOf } from './snapshot.js';
import { f as findDeviceSegment } from './keys.js';
import './units.js';
import './errors.js';
import './series.js';

const ROLL_UP_ABOVE_DEVICES = 64;
function pointValues(snapshot) {
    const at = { start: 0, end: 0 };
    const compared = SECTIONS.filter((d) => d.compared !== false && Object.hasOwn(snapshot.sections, d.name));
    const lists = new Map(compared.map((d) => [d.name, keysOf(metricsOf(snapshot, d.name))]));
    const devices = new Set();
    for (const declaration of compared) {
        const list = lists.get(declaration.name);
        for (let i = 0; i < list.length; i++) {
            const key = list[i];
            if (findDeviceSegment(key, at))
                devices.add(deviceId(key, at.start + 3, at.end));
        }
    }
    const keys = new Map();
    const rollups = new Map();
    const rolled = devices.size > ROLL_UP_ABOVE_DEVICES;
    for (const declaration of compared) {
        const metrics = metricsOf(snapshot, declaration.name);
        const list = lists.get(declaration.name);
        const values = new Map();
        keys.set(declaration.name, values);
        if (!rolled) {
            for (let i = 0; i < list.length; i++)
                values.set(list[i], valueOf(declaration, metrics[list[i]]));
            continue;
        }
        const byPrefix = new Map();
        for (let i = 0; i < list.length; i++) {
            const key = list[i];
            const value = valueOf(declaration, metrics[key]);
            if (!findDeviceSegment(key, at)) {
                values.set(key, value);
                continue;
            }
            const prefix = key.slice(0, at.start);
            let bySuffix = byPrefix.get(prefix);
            if (bySuffix === undefined)
                byPrefix.set(prefix, (bySuffix = new Map()));
            const suffix = key.slice(at.end);
            const device = deviceId(key, at.start + 3, at.end);
            const group = bySuffix.get(suffix);
            if (group === undefined)
                bySuffix.set(suffix, { first: key, device, value, devices: null, values: null });
            else if (group.devices === null) {
                group.devices = [group.device, device];
                group.values = [group.value, value];
            }
            else {
                group.devices.push(device);
                group.values.push(value);
            }
        }
        const byPattern = new Map();
        for (const [prefix, bySuffix] of byPrefix) {
            for (const [suffix, group] of bySuffix) {
                if (group.devices === null)
                    values.set(group.first, group.value);
                else
                    byPattern.set(`${prefix}*${suffix}`, rollUp(group.devices.map(deviceName), group.values));
            }
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

export { ROLL_UP_ABOVE_DEVICES, baselineHash, pointEnvironment, pointValues };

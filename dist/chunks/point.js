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
    const compared = SECTIONS.filter((s) => s.compared !== false && Object.hasOwn(snapshot.sections, s.name));
    const at = { start: 0, end: 0 };
    const devices = new Set();
    for (const declaration of compared) {
        for (const key of keysOf(metricsOf(snapshot, declaration.name)))
            if (findDeviceSegment(key, at))
                devices.add(key.slice(at.start, at.end));
    }
    const keys = new Map();
    const rollups = new Map();
    const rolled = devices.size > ROLL_UP_ABOVE_DEVICES;
    for (const declaration of compared) {
        const metrics = metricsOf(snapshot, declaration.name);
        const values = new Map();
        keys.set(declaration.name, values);
        if (!rolled) {
            for (const key of keysOf(metrics))
                values.set(key, valueOf(declaration, metrics[key]));
            continue;
        }
        const groups = new Map();
        for (const key of keysOf(metrics)) {
            const value = valueOf(declaration, metrics[key]);
            if (!findDeviceSegment(key, at)) {
                values.set(key, value);
                continue;
            }
            const pattern = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
            let group = groups.get(pattern);
            if (group === undefined)
                groups.set(pattern, (group = { keys: [], devices: [], values: [] }));
            group.keys.push(key);
            group.devices.push(key.slice(at.start, at.end));
            group.values.push(value);
        }
        const byPattern = new Map();
        for (const [pattern, group] of groups) {
            if (group.keys.length === 1)
                values.set(group.keys[0], group.values[0]);
            else
                byPattern.set(pattern, rollUp(group.devices, group.values));
        }
        if (byPattern.size > 0)
            rollups.set(declaration.name, byPattern);
    }
    return { keys, rollups, devices: devices.size };
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

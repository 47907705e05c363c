import { stat, readFile } from 'node:fs/promises';
import { w as writeFileAtomic } from './atomic-write.js';
import { I as InputError } from './errors.js';
import { HISTORY_MAX_BYTES, ROLLUP_WIDTH, pointLine, latestAloneBytes, serializeHistory, historyName, emptySection, lastValue, tableBytes, parseHistory } from './format.js';
import { f as forgetGroups } from './groups.js';
import { D as DEFAULT_HISTORY_SIZE } from './limits.js';
import 'node:crypto';
import 'node:path';
import './string-table.js';
import './reader.js';
import './_commonjsHelpers.js';
import './names.js';
import './evidence-sources.js';
import './keys.js';
import 'node:fs';
import 'fs';
import 'path';
import 'url';
import 'module';

const DEFAULT_BOUNDS = { maxPoints: DEFAULT_HISTORY_SIZE, maxBytes: HISTORY_MAX_BYTES };
function appendPoint(history, meta, values, limits = DEFAULT_BOUNDS) {
    if (!(Number.isSafeInteger(limits.maxPoints) && limits.maxPoints >= 1))
        throw new InputError(`a history keeps 1 or more points, got ${limits.maxPoints}`);
    const p = history.points.length;
    const table = tableOf(history);
    history.points.push({ ...meta, environment: shortenedValues(meta.environment) });
    try {
        for (const [name, byKey] of values.keys)
            record(history, name, byKey, (s) => s.keyColumns, keyPosition, 1, p, (v) => [v]);
        for (const [name, byPattern] of values.rollups)
            record(history, name, byPattern, (s) => s.rollupColumns, rollupPosition, ROLLUP_WIDTH, p, rollupSlots);
        for (const [name, section] of history.sections) {
            if (!values.keys.has(name))
                endAll(section.keyColumns, p);
            if (!values.rollups.has(name))
                endAll(section.rollupColumns, p);
        }
        history.lines.push(pointLine(history, p));
        const alone = serializedBytes(history) > limits.maxBytes ? latestAloneBytes(history) : 0;
        if (alone > limits.maxBytes) {
            throw new InputError(`this run's point alone takes ${alone} bytes, more than the history's limit of ${limits.maxBytes}: it was not recorded (too many keys that do not roll up across devices?)`);
        }
    }
    catch (error) {
        undoPoint(history, p);
        restoreTable(history, table);
        throw error;
    }
    let dropped = 0;
    while (history.points.length > limits.maxPoints) {
        dropOldest(history);
        dropped++;
    }
    let text = serializeHistory(history);
    while (Buffer.byteLength(text) > limits.maxBytes && history.points.length > 1) {
        dropOldest(history);
        dropped++;
        text = serializeHistory(history);
    }
    if (dropped > 0 && compact(history))
        text = serializeHistory(history);
    return { text, dropped, points: history.points.length };
}
function recordPoint(history, meta, values, limits = DEFAULT_BOUNDS) {
    const last = history.points[history.points.length - 1];
    const replaced = last !== undefined && meta.run !== undefined && last.run === meta.run && last.commit === meta.commit;
    if (replaced)
        undoPoint(history, history.points.length - 1);
    return { ...appendPoint(history, meta, values, limits), replaced };
}
function keyPosition(section, key, hint) {
    if (section.keys[hint] === key)
        return hint;
    let i = section.keyIndex.get(key);
    if (i === undefined) {
        i = section.keys.length;
        section.keyIndex.set(key, i);
        section.keys.push(key);
        section.keyColumns.push({ at: [], values: [] });
    }
    return i;
}
function rollupPosition(section, pattern, hint) {
    if (section.rollups[hint] === pattern)
        return hint;
    let i = section.rollupIndex.get(pattern);
    if (i === undefined) {
        i = section.rollups.length;
        section.rollupIndex.set(pattern, i);
        section.rollups.push(pattern);
        for (let k = 0; k < ROLLUP_WIDTH; k++)
            section.rollupColumns.push({ at: [], values: [] });
    }
    return i;
}
function rollupSlots(r) {
    const device = /^dev(\d{1,9})$/.exec(r.worst);
    if (device === null)
        throw new InputError(`roll-up worst device '${r.worst}' is not a device name (devN)`);
    return [r.min, r.median, r.max, r.devices, Number(device[1])];
}
function record(history, name, byName, columnsOf, position, width, p, slots) {
    let section = history.sections.get(name);
    if (section === undefined)
        history.sections.set(name, (section = emptySection()));
    const columns = columnsOf(section);
    const seen = new Uint8Array(columns.length + byName.size * ROLLUP_WIDTH);
    let hint = 0;
    for (const [full, value] of byName) {
        const key = historyName(full);
        const index = position(section, key, hint);
        hint = index + 1;
        const at = index * width;
        const figures = slots(value);
        for (let k = 0; k < figures.length; k++) {
            const column = columns[at + k];
            const now = figures[k];
            if (!Number.isSafeInteger(now))
                throw new InputError(`${name} ${key}: ${now} is not an exact integer`);
            seen[at + k] = 1;
            const before = lastValue(column);
            if (before === now)
                continue;
            if (!Number.isSafeInteger(now - (before ?? 0)))
                throw new InputError(`${name} ${key}: ${before} → ${now} is a change past 2^53 - 1, which the history cannot write exactly`);
            column.at.push(p);
            column.values.push(now);
        }
    }
    for (let i = 0; i < columns.length; i++)
        if (seen[i] !== 1)
            end(columns[i], p);
}
function shortenedValues(environment) {
    const out = {};
    for (const [item, value] of Object.entries(environment))
        Object.defineProperty(out, item, {
            value: historyName(value),
            enumerable: true,
            writable: true,
            configurable: true,
        });
    return out;
}
function endAll(columns, p) {
    for (const column of columns)
        end(column, p);
}
function end(column, p) {
    if (lastValue(column) === null)
        return;
    column.at.push(p);
    column.values.push(null);
}
function serializedBytes(history) {
    let bytes = 0;
    for (const line of history.lines)
        bytes += Buffer.byteLength(line) + 1;
    return bytes + tableBytes(history);
}
function tableOf(history) {
    return new Map([...history.sections].map(([name, s]) => [name, { keys: s.keys.length, rollups: s.rollups.length }]));
}
function restoreTable(history, table) {
    for (const [name, section] of [...history.sections]) {
        const was = table.get(name);
        if (was === undefined) {
            history.sections.delete(name);
            continue;
        }
        if (section.keys.length > was.keys)
            forgetGroups(section.keys);
        for (const key of section.keys.splice(was.keys))
            section.keyIndex.delete(key);
        section.keyColumns.length = was.keys;
        for (const pattern of section.rollups.splice(was.rollups))
            section.rollupIndex.delete(pattern);
        section.rollupColumns.length = was.rollups * ROLLUP_WIDTH;
    }
}
function undoPoint(history, p) {
    history.points.length = p;
    history.lines.length = Math.min(history.lines.length, p);
    for (const section of history.sections.values()) {
        for (const column of [...section.keyColumns, ...section.rollupColumns]) {
            while (column.at.length > 0 && column.at[column.at.length - 1] >= p) {
                column.at.pop();
                column.values.pop();
            }
        }
    }
}
function dropOldest(history) {
    history.points.shift();
    history.lines.shift();
    for (const section of history.sections.values()) {
        for (const column of section.keyColumns)
            shiftColumn(column);
        for (const column of section.rollupColumns)
            shiftColumn(column);
    }
    if (history.points.length > 0)
        history.lines[0] = pointLine(history, 0);
}
function shiftColumn(column) {
    const { at, values } = column;
    if (at.length === 0)
        return;
    if (at[0] === 0 && at.length > 1 && at[1] === 1) {
        at.shift();
        values.shift();
    }
    else if (at[0] === 0)
        at[0] = 1;
    while (values.length > 0 && values[0] === null) {
        at.shift();
        values.shift();
    }
    for (let i = 0; i < at.length; i++)
        at[i] = at[i] - 1;
}
const COMPACT_FROM = 16;
function compact(history) {
    let dead = 0;
    let all = 0;
    for (const section of history.sections.values()) {
        for (const column of section.keyColumns) {
            all++;
            if (isDead(column))
                dead++;
        }
        for (let i = 0; i < section.rollupColumns.length; i += ROLLUP_WIDTH) {
            all++;
            if (section.rollupColumns.slice(i, i + ROLLUP_WIDTH).every(isDead))
                dead++;
        }
    }
    if (dead < COMPACT_FROM || dead * 4 < all)
        return false;
    for (const [name, section] of [...history.sections]) {
        const kept = emptySection();
        section.keys.forEach((key, i) => {
            const column = section.keyColumns[i];
            if (isDead(column))
                return;
            kept.keyIndex.set(key, kept.keys.length);
            kept.keys.push(key);
            kept.keyColumns.push(column);
        });
        section.rollups.forEach((pattern, i) => {
            const columns = section.rollupColumns.slice(i * ROLLUP_WIDTH, (i + 1) * ROLLUP_WIDTH);
            if (columns.every(isDead))
                return;
            kept.rollupIndex.set(pattern, kept.rollups.length);
            kept.rollups.push(pattern);
            kept.rollupColumns.push(...columns);
        });
        if (kept.keys.length === 0 && kept.rollups.length === 0)
            history.sections.delete(name);
        else
            history.sections.set(name, kept);
    }
    history.lines = history.points.map((_, p) => pointLine(history, p));
    return true;
}
function isDead(column) {
    return column.values.every((v) => v === null);
}
async function readHistoryFile(file) {
    let text;
    try {
        const { size } = await stat(file);
        if (size > HISTORY_MAX_BYTES)
            throw new InputError(`${file}: ${size} bytes, past the ${HISTORY_MAX_BYTES} (8 MiB) a history ever holds: not read`);
        text = await readFile(file, 'utf8');
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return null;
        throw error;
    }
    return parseHistory(text, file);
}
function startOverHint(file) {
    return `To start over, delete ${file} (or clear the CI cache that holds it): the default branch's next 'history append' creates it again`;
}
async function writeHistoryFile(file, text) {
    await writeFileAtomic(file, text);
}

export { appendPoint, readHistoryFile, recordPoint, startOverHint, writeHistoryFile };

import { stat, readFile } from 'node:fs/promises';
import { w as writeFileAtomic } from './atomic-write.js';
import { I as InputError } from './errors.js';
import { HISTORY_MAX_BYTES, pointLine, latestAloneBytes, serializeHistory, historyName, ROLLUP_WIDTH, tableBytes, emptySection, parseHistory } from './format.js';
import { f as forgetGroups } from './groups.js';
import { KeyValues } from './point.js';
import { D as DEFAULT_HISTORY_SIZE } from './limits.js';
import 'node:crypto';
import 'node:path';
import './string-table.js';
import './reader.js';
import './_commonjsHelpers.js';
import './names.js';
import './evidence-sources.js';
import './keys.js';
import './roll-up.js';
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
            recordKeys(history, name, byKey, p);
        for (const [name, byPattern] of values.rollups)
            recordRollups(history, name, byPattern, p);
        for (const [name, section] of history.sections) {
            if (!values.keys.has(name))
                endAll(section.keyColumns, p);
            if (!values.rollups.has(name))
                endAll(section.rollupColumns, p);
            section.keyColumns.sortAt(p);
            section.rollupColumns.sortAt(p);
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
    while (serializedBytes(history) > limits.maxBytes && history.points.length > 1) {
        dropOldest(history);
        dropped++;
    }
    if (dropped > 0)
        compact(history);
    return { text: serializeHistory(history), dropped, points: history.points.length };
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
        section.keyColumns.add();
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
        section.rollupColumns.add(ROLLUP_WIDTH);
    }
    return i;
}
function worstDevice(r) {
    const device = /^dev(\d{1,9})$/.exec(r.worst);
    if (device === null)
        throw new InputError(`roll-up worst device '${r.worst}' is not a device name (devN)`);
    return Number(device[1]);
}
function sectionFor(history, name) {
    let section = history.sections.get(name);
    if (section === undefined)
        history.sections.set(name, (section = emptySection()));
    return section;
}
function recordKeys(history, name, byKey, p) {
    const section = sectionFor(history, name);
    const columns = section.keyColumns;
    const seen = new Uint8Array(columns.size + byKey.size);
    let hint = 0;
    const one = (full, value) => {
        const key = historyName(full);
        const i = keyPosition(section, key, hint);
        hint = i + 1;
        seen[i] = 1;
        recordFigure(columns, i, p, value, name, key);
    };
    if (byKey instanceof KeyValues) {
        const { names, figures } = byKey;
        for (let k = 0; k < names.length; k++)
            one(names[k], figures[k]);
    }
    else
        for (const [full, value] of byKey)
            one(full, value);
    endUnseen(columns, seen, p);
}
function recordRollups(history, name, byPattern, p) {
    const section = sectionFor(history, name);
    const columns = section.rollupColumns;
    const seen = new Uint8Array(columns.size + byPattern.size * ROLLUP_WIDTH);
    let hint = 0;
    for (const [full, rollup] of byPattern) {
        const pattern = historyName(full);
        const r = rollupPosition(section, pattern, hint);
        hint = r + 1;
        const at = r * ROLLUP_WIDTH;
        const device = worstDevice(rollup);
        seen.fill(1, at, at + ROLLUP_WIDTH);
        recordFigure(columns, at, p, rollup.min, name, pattern);
        recordFigure(columns, at + 1, p, rollup.median, name, pattern);
        recordFigure(columns, at + 2, p, rollup.max, name, pattern);
        recordFigure(columns, at + 3, p, rollup.devices, name, pattern);
        recordFigure(columns, at + 4, p, device, name, pattern);
    }
    endUnseen(columns, seen, p);
}
function recordFigure(columns, i, p, now, name, key) {
    if (!Number.isSafeInteger(now))
        throw new InputError(`${name} ${key}: ${now} is not an exact integer`);
    const before = columns.latest(i);
    if (before === now)
        return;
    if (!Number.isSafeInteger(now - (Number.isNaN(before) ? 0 : before)))
        throw new InputError(`${name} ${key}: ${before} → ${now} is a change past 2^53 - 1, which the history cannot write exactly`);
    columns.push(i, p, now);
}
function endUnseen(columns, seen, p) {
    for (let i = 0; i < columns.size; i++)
        if (seen[i] !== 1)
            end(columns, i, p);
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
    for (let i = 0; i < columns.size; i++)
        end(columns, i, p);
}
function end(columns, i, p) {
    if (!Number.isNaN(columns.latest(i)))
        columns.push(i, p, Number.NaN);
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
        section.keyColumns.truncate(was.keys);
        for (const pattern of section.rollups.splice(was.rollups))
            section.rollupIndex.delete(pattern);
        section.rollupColumns.truncate(was.rollups * ROLLUP_WIDTH);
    }
}
function undoPoint(history, p) {
    history.points.length = p;
    history.lines.length = Math.min(history.lines.length, p);
    for (const section of history.sections.values()) {
        section.keyColumns.undo(p);
        section.rollupColumns.undo(p);
    }
}
function dropOldest(history) {
    history.points.shift();
    history.lines.shift();
    const points = history.points.length;
    for (const section of history.sections.values()) {
        section.keyColumns.dropOldest();
        section.rollupColumns.dropOldest();
        if (section.keyColumns.dropped > points)
            section.keyColumns = renumbered(section.keyColumns, points);
        if (section.rollupColumns.dropped > points)
            section.rollupColumns = renumbered(section.rollupColumns, points);
    }
    if (points > 0)
        history.lines[0] = pointLine(history, 0);
}
function renumbered(columns, points) {
    const same = new Int32Array(columns.size);
    for (let i = 0; i < same.length; i++)
        same[i] = i;
    return columns.rebuilt(same, columns.size, points);
}
const COMPACT_FROM = 16;
function compact(history) {
    let dead = 0;
    let all = 0;
    for (const section of history.sections.values()) {
        const { keyColumns, rollupColumns } = section;
        for (let i = 0; i < keyColumns.size; i++) {
            all++;
            if (keyColumns.isDead(i))
                dead++;
        }
        for (let r = 0; r < section.rollups.length; r++) {
            all++;
            if (rollupDead(rollupColumns, r))
                dead++;
        }
    }
    if (dead < COMPACT_FROM || dead * 4 < all)
        return false;
    for (const [name, section] of [...history.sections]) {
        const kept = emptySection();
        const keyNumbers = new Int32Array(section.keys.length).fill(-1);
        section.keys.forEach((key, i) => {
            if (section.keyColumns.isDead(i))
                return;
            keyNumbers[i] = kept.keys.length;
            kept.keyIndex.set(key, kept.keys.length);
            kept.keys.push(key);
        });
        const rollupNumbers = new Int32Array(section.rollups.length * ROLLUP_WIDTH).fill(-1);
        section.rollups.forEach((pattern, r) => {
            if (rollupDead(section.rollupColumns, r))
                return;
            for (let k = 0; k < ROLLUP_WIDTH; k++)
                rollupNumbers[r * ROLLUP_WIDTH + k] = kept.rollups.length * ROLLUP_WIDTH + k;
            kept.rollupIndex.set(pattern, kept.rollups.length);
            kept.rollups.push(pattern);
        });
        const points = history.points.length;
        kept.keyColumns = section.keyColumns.rebuilt(keyNumbers, kept.keys.length, points);
        kept.rollupColumns = section.rollupColumns.rebuilt(rollupNumbers, kept.rollups.length * ROLLUP_WIDTH, points);
        if (kept.keys.length === 0 && kept.rollups.length === 0)
            history.sections.delete(name);
        else
            history.sections.set(name, kept);
    }
    history.lines = history.points.map((_, p) => pointLine(history, p));
    return true;
}
function rollupDead(columns, r) {
    for (let k = 0; k < ROLLUP_WIDTH; k++)
        if (!columns.isDead(r * ROLLUP_WIDTH + k))
            return false;
    return true;
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

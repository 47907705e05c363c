import { P as setOwn, Q as isWritten, O as fileKeyOrder } from './evidence-sources.js';

function stableStringify(value) {
    return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}
function stringifyDocument(document) {
    const record = document;
    const out = {};
    for (const key of Object.keys(record).sort()) {
        const value = record[key];
        const byName = key === 'sections' || key === 'series' ? value : null;
        setOwn(out, key, byName !== null && typeof byName === 'object' && !Array.isArray(byName)
            ? naturalRecords(byName)
            : sortDeep(value));
    }
    return `${JSON.stringify(out, null, 2)}\n`;
}
function naturalRecords(byName) {
    const out = {};
    for (const name of Object.keys(byName).sort()) {
        const record = byName[name];
        setOwn(out, name, record !== null && typeof record === 'object' && !Array.isArray(record)
            ? naturalRecord(record)
            : sortDeep(record));
    }
    return out;
}
function naturalRecord(record) {
    if (isWritten(record))
        return record;
    const keys = Object.keys(record);
    let inOrder = true;
    for (let i = 1; inOrder && i < keys.length; i++)
        inOrder = fileKeyOrder(keys[i - 1], keys[i]) < 0;
    if (!inOrder)
        keys.sort(fileKeyOrder);
    let copy = inOrder ? undefined : {};
    for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const item = record[key];
        const sorted = item === null || typeof item !== 'object' ? item : sortDeep(item);
        if (copy === undefined && sorted !== item) {
            copy = {};
            for (let k = 0; k < i; k++)
                setOwn(copy, keys[k], record[keys[k]]);
        }
        if (copy !== undefined)
            setOwn(copy, key, sorted);
    }
    return copy ?? record;
}
function sortDeep(value) {
    if (value === null || typeof value !== 'object')
        return value;
    if (Array.isArray(value)) {
        let copy;
        for (let i = 0; i < value.length; i++) {
            const item = value[i];
            if (item === null || typeof item !== 'object')
                continue;
            const sorted = sortDeep(item);
            if (sorted !== item)
                (copy ??= value.slice())[i] = sorted;
        }
        return copy ?? value;
    }
    const record = value;
    const keys = Object.keys(record);
    const prototype = Object.getPrototypeOf(record);
    let inOrder = prototype === Object.prototype || prototype === null;
    for (let i = 1; inOrder && i < keys.length; i++)
        inOrder = keys[i - 1] < keys[i];
    if (!inOrder) {
        const sorted = {};
        for (const key of keys.sort())
            setOwn(sorted, key, sortDeep(record[key]));
        return sorted;
    }
    let changed;
    for (let i = 0; i < keys.length; i++) {
        const item = record[keys[i]];
        if (item === null || typeof item !== 'object')
            continue;
        const sorted = sortDeep(item);
        if (sorted !== item)
            (changed ??= keys.map((key) => record[key]))[i] = sorted;
    }
    if (changed === undefined)
        return record;
    const copy = {};
    for (let i = 0; i < keys.length; i++)
        setOwn(copy, keys[i], changed[i]);
    return copy;
}

export { stableStringify as a, stringifyDocument as s };

import { I as InputError } from './errors.js';

const UNITS = {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    TB: 1e12,
    KIB: 1024,
    MIB: 1024 ** 2,
    GIB: 1024 ** 3,
    TIB: 1024 ** 4,
};
const MAX_EXACT_BYTES = Number.MAX_SAFE_INTEGER;
const BEYOND_EXACT = '2^53 - 1 bytes';
function readExactInteger(text) {
    if (!/^[+-]?\d+$/.test(text))
        return null;
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : 'too-large';
}
function exactSum(a, b) {
    const sum = a + b;
    return Number.isSafeInteger(sum) ? sum : null;
}
function parseExactInteger(text, where) {
    if (!/^-?\d+$/.test(text))
        return null;
    const value = readExactInteger(text);
    if (value === 'too-large')
        throw new InputError(`${where}: ${text} is larger than ${BEYOND_EXACT} and cannot be compared exactly`);
    return value;
}
function parseSize(value) {
    if (typeof value === 'number')
        return Number.isSafeInteger(value) && value >= 0 ? value : null;
    const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$/i.exec(value);
    if (!m)
        return null;
    const unit = UNITS[(m[2] ?? 'B').toUpperCase()];
    if (unit === undefined)
        return null;
    const bytes = Math.round(Number(m[1]) * unit);
    return Number.isSafeInteger(bytes) ? bytes : null;
}
function formatBytes(bytes) {
    const sign = bytes < 0 ? '-' : '';
    let n = Math.abs(bytes);
    if (n < 1024)
        return `${sign}${n} B`;
    const names = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
    let i = -1;
    while (n >= 1024 && i < names.length - 1) {
        n /= 1024;
        i++;
    }
    return `${sign}${n.toFixed(1)} ${names[i]}`;
}
function formatDelta(bytes) {
    return bytes > 0 ? `+${formatBytes(bytes)}` : formatBytes(bytes);
}
function formatCount(n) {
    if (!Number.isSafeInteger(n) || Object.is(n, -0))
        return n.toLocaleString('en-US');
    const digits = String(Math.abs(n));
    let out = digits.length % 3 === 0 ? '' : digits.slice(0, digits.length % 3);
    for (let i = digits.length % 3; i < digits.length; i += 3)
        out += `${out === '' ? '' : ','}${digits.slice(i, i + 3)}`;
    return n < 0 ? `-${out}` : out;
}

export { BEYOND_EXACT as B, MAX_EXACT_BYTES as M, formatBytes as a, formatDelta as b, parseSize as c, exactSum as e, formatCount as f, parseExactInteger as p, readExactInteger as r };

const MIB = { label: 'MB', bytes: 2 ** 20, twos: 20, fives: 0 };
const KIB = { label: 'KB', bytes: 2 ** 10, twos: 10, fives: 0 };
const MINDSPORE_MB = { label: 'MB (MindSpore: KB/1000)', bytes: 1_024_000, twos: 13, fives: 3 };
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_FAST_DECIMALS = 30;
const scales = new Map();
let lastUnit = null;
let lastScale = null;
function scaleOf(unit) {
    if (unit === lastUnit)
        return lastScale;
    let scale = scales.get(unit);
    if (scale === undefined) {
        scale = { mult: [], den: [], fast: [] };
        for (let d = 0; d <= MAX_FAST_DECIMALS; d++) {
            const p2 = unit.twos - d;
            const p5 = unit.fives - d;
            const mult = 2 ** Math.max(p2, 0) * 5 ** Math.max(p5, 0);
            const den = 2 ** Math.max(-p2, 0) * 5 ** Math.max(-p5, 0);
            scale.mult.push(mult);
            scale.den.push(den);
            scale.fast.push(Number.isSafeInteger(den) && 10 ** d * mult <= MAX_SAFE);
        }
        scales.set(unit, scale);
    }
    lastUnit = unit;
    lastScale = scale;
    return scale;
}
const ZERO = 48;
const DOT = 46;
const MINUS = 45;
const PLUS = 43;
const TAB = 9;
const SPACE = 32;
function cellBytes(s, from, to, unit) {
    while (to > from && (s.charCodeAt(to - 1) === TAB || s.charCodeAt(to - 1) === SPACE))
        to--;
    while (from < to && s.charCodeAt(from) === SPACE)
        from++;
    if (from === to)
        return 'missing';
    let i = from;
    let c = s.charCodeAt(i);
    let negative = false;
    if (c === MINUS || c === PLUS) {
        negative = c === MINUS;
        i++;
    }
    let whole = 0;
    let wholeDigits = 0;
    for (; i < to; i++) {
        c = s.charCodeAt(i) - ZERO;
        if (c < 0 || c > 9)
            break;
        whole = whole * 10 + c;
        wholeDigits++;
    }
    let frac = 0;
    let decimals = 0;
    if (i < to && s.charCodeAt(i) === DOT) {
        for (i++; i < to; i++) {
            c = s.charCodeAt(i) - ZERO;
            if (c < 0 || c > 9)
                break;
            frac = frac * 10 + c;
            decimals++;
        }
    }
    if (i < to) {
        c = s.charCodeAt(i);
        if ((c === 69 || c === 101) && wholeDigits + decimals > 0)
            return 'exponent';
        return nonNumber(s.slice(from, to));
    }
    if (wholeDigits + decimals === 0)
        return 'malformed';
    if (whole === 0 && frac === 0)
        return 0;
    if (negative)
        return 'negative';
    const scale = scaleOf(unit);
    if (wholeDigits > 15 || decimals > MAX_FAST_DECIMALS || scale.fast[decimals] !== true)
        return slowBytes(s.slice(from, to), unit);
    const bytes = whole * unit.bytes;
    if (bytes > MAX_SAFE)
        return 'too-large';
    if (frac === 0)
        return bytes;
    const mult = scale.mult[decimals];
    const den = scale.den[decimals];
    const num = frac * mult;
    let q = Math.floor(num / den);
    let r = num - q * den;
    if (r < 0) {
        q--;
        r += den;
    }
    else if (r >= den) {
        q++;
        r -= den;
    }
    const total = bytes + q + (2 * r >= den ? 1 : 0);
    return total > MAX_SAFE ? 'too-large' : total;
}
function decimalBytes(text, unit) {
    return cellBytes(text, 0, text.length, unit);
}
function slowBytes(text, unit) {
    const dot = text.indexOf('.');
    const digits = (dot === -1 ? text : text.slice(0, dot) + text.slice(dot + 1)).replace(/^\+/, '');
    const decimals = dot === -1 ? 0 : text.length - dot - 1;
    const num = BigInt(digits) * 2n ** BigInt(unit.twos) * 5n ** BigInt(unit.fives);
    const den = 10n ** BigInt(decimals);
    const bytes = (2n * num + den) / (2n * den);
    return bytes > BigInt(MAX_SAFE) ? 'too-large' : Number(bytes);
}
function nonNumber(text) {
    const t = text.trim().toUpperCase();
    return t === 'N/A' || t === 'NA' || t === 'NULL' || t === 'NONE' ? 'missing' : 'malformed';
}
function cellMicros(s, from, to) {
    while (to > from && (s.charCodeAt(to - 1) === TAB || s.charCodeAt(to - 1) === SPACE))
        to--;
    let whole = 0;
    let i = from;
    for (; i < to; i++) {
        const digit = s.charCodeAt(i) - ZERO;
        if (digit < 0 || digit > 9)
            break;
        whole = whole * 10 + digit;
    }
    if (i === from)
        return NaN;
    if (i < to) {
        if (s.charCodeAt(i) !== DOT)
            return exponentAt(s, i, to) ? Infinity : NaN;
        for (i++; i < to; i++) {
            const digit = s.charCodeAt(i) - ZERO;
            if (digit < 0 || digit > 9)
                return exponentAt(s, i, to) ? Infinity : NaN;
        }
    }
    return whole <= MAX_SAFE ? whole : NaN;
}
function exponentAt(s, i, to) {
    const c = s.charCodeAt(i);
    return (c === 69 || c === 101) && i + 1 < to;
}

export { KIB as K, MIB as M, MINDSPORE_MB as a, cellBytes as b, cellMicros as c, decimalBytes as d };

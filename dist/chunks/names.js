import { createHash } from 'node:crypto';

const DISPLAY_NAME_LENGTH = 256;
const HASH_LENGTH = 12;
const SUFFIX = /~[0-9a-f]{12}$/;
function shortenName(name, max = DISPLAY_NAME_LENGTH) {
    if (name.length <= max)
        return name;
    const again = isShortened(name);
    const suffix = again
        ? name.slice(-13)
        : `~${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, HASH_LENGTH)}`;
    const body = again ? name.slice(0, -13) : name;
    const room = Math.max(2, max - suffix.length - 1);
    const headLength = Math.ceil(room / 2);
    const head = cutAt(body, headLength);
    let from = body.length - (room - head.length);
    const first = body.charCodeAt(from);
    if (first >= 0xdc00 && first <= 0xdfff)
        from++;
    const tail = body.slice(from);
    return `${head}…${tail}${suffix}`;
}
function isShortened(name) {
    return SUFFIX.test(name) && name.includes('…');
}
function cutAt(text, n) {
    const code = text.charCodeAt(n - 1);
    return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

export { shortenName as s };

import { r as replaceControlCharacters } from './errors.js';
import { createHash } from 'node:crypto';

const DISPLAY_NAME_LENGTH = 256;
function shortenName(name, max = DISPLAY_NAME_LENGTH) {
    if (name.length <= max)
        return name;
    const suffix = `~${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 12)}`;
    const room = Math.max(2, max - suffix.length - 1);
    const headLength = Math.ceil(room / 2);
    const head = cutAt(name, headLength);
    const tail = name.slice(cutAt(name, name.length - (room - head.length)).length);
    return `${head}…${tail}${suffix}`;
}
function cutAt(text, n) {
    const code = text.charCodeAt(n - 1);
    return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

function codeSpan(text) {
    const content = replaceControlCharacters(shortenName(text));
    if (content === '')
        return '` `';
    let longestRun = 0;
    for (const run of content.match(/`+/g) ?? [])
        longestRun = Math.max(longestRun, run.length);
    const fence = '`'.repeat(longestRun + 1);
    const pad = content.startsWith('`') || content.endsWith('`') || (content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content));
    return pad ? `${fence} ${content} ${fence}` : `${fence}${content}${fence}`;
}
function tableCodeSpan(text) {
    return codeSpan(text).replaceAll('|', '\\|');
}
function escapeMarkdownText(text) {
    return replaceControlCharacters(text).replace(/[!-/:-@[-`{-~]/g, (ch) => (ch === '@' ? '@&#8203;' : `\\${ch}`));
}
function escapeHtml(text) {
    return text.replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] ?? ch);
}
const HTML_ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export { escapeHtml as a, codeSpan as c, escapeMarkdownText as e, shortenName as s, tableCodeSpan as t };

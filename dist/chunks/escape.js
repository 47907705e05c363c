import { r as replaceControlCharacters } from './errors.js';
import { createHash } from 'node:crypto';

// Long names (a MindSpore scope, a hostile file) shown shortened in the middle with a stable hash of the whole name,
// so two long names that differ anywhere never look the same, and the same name always looks the same.
/** Longest name shown whole in a report's displays (markdown tables, the limits table). */
const DISPLAY_NAME_LENGTH = 256;
/**
 * `name` when it has at most `max` characters; else its head and tail around `…`, then `~` and 12 hex digits of the
 * SHA-256 of the whole name, `max` characters in all. Never splits a surrogate pair.
 */
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
/** The first `n` UTF-16 units of `text`, one fewer when `n` would end inside a surrogate pair. */
function cutAt(text, n) {
    const code = text.charCodeAt(n - 1);
    return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

// Makes names read from files (module and kernel keys, rules) safe to show in markdown, HTML and terminals.
/**
 * A CommonMark code span holding `text` literally: the fence is one backtick longer than the longest backtick run
 * inside, and padded with a space when the content starts or ends with a backtick (a pad is stripped on render).
 * Inside a code span `<`, `&`, `@`, `*` are literal: no HTML, no entity, no mention, no emphasis.
 */
function codeSpan(text) {
    // Shortened before escaping: the hash is of the name as written.
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
/**
 * A code span for a GFM table cell: every `|` becomes `\|` (all of them), because the table splits cells before
 * inline parsing. GFM removes the backslash again inside the code span, and a `\` already before a `|` stays intact
 * (cmark-gfm's cell scanner takes the longest match, so `\\|` is `\` + escaped pipe, not a cell break).
 */
function tableCodeSpan(text) {
    return codeSpan(text).replaceAll('|', '\\|');
}
/**
 * Plain markdown text (not in a code span): every ASCII punctuation character is backslash-escaped, which CommonMark
 * allows for all of them, and `@` gets a zero-width space after it so that `@org/team` pings nobody.
 */
function escapeMarkdownText(text) {
    return replaceControlCharacters(text).replace(/[!-/:-@[-`{-~]/g, (ch) => (ch === '@' ? '@&#8203;' : `\\${ch}`));
}
/** Text for an HTML element or a quoted attribute value. */
function escapeHtml(text) {
    return text.replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] ?? ch);
}
const HTML_ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export { escapeMarkdownText as a, codeSpan as c, escapeHtml as e, shortenName as s, tableCodeSpan as t };

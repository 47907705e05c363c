import { r as replaceControlCharacters } from './errors.js';
import { s as shortenName } from './names.js';

function codeSpan(text) {
    const content = replaceControlCharacters(shortenName(text));
    if (content === '')
        return '` `';
    let longestRun = 0;
    for (const run of content.match(/`+/g) ?? [])
        longestRun = Math.max(longestRun, run.length);
    const fence = '`'.repeat(longestRun + 1);
    const pad = content.startsWith('`') ||
        content.endsWith('`') ||
        (content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content));
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

export { escapeHtml as a, codeSpan as c, escapeMarkdownText as e, tableCodeSpan as t };

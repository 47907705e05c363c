// Makes names read from files (module and kernel keys, rules) safe to show in markdown, HTML and terminals.
import { shortenName } from './names.js';

/**
 * C0 controls, DEL, C1 controls, line/paragraph separators, zero-width and bidi-override characters, lone surrogates:
 * each would break a table row, drive a terminal (ESC) or make one key look like another (Trojan Source).
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]/gu;

/** Shows invisible and control characters: `\n` → `␊`, ESC → `␛`, U+202E → `⟨U+202E⟩`. */
export function replaceControlCharacters(text: string): string {
  return text.replace(INVISIBLE, (ch) => {
    const code = ch.charCodeAt(0);
    // C0 controls and DEL have one-column "control pictures" (U+2400…U+2421); the rest get their code point.
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
  });
}

/**
 * A CommonMark code span holding `text` literally: the fence is one backtick longer than the longest backtick run
 * inside, and padded with a space when the content starts or ends with a backtick (a pad is stripped on render).
 * Inside a code span `<`, `&`, `@`, `*` are literal: no HTML, no entity, no mention, no emphasis.
 */
export function codeSpan(text: string): string {
  // Shortened before escaping: the hash is of the name as written.
  const content = replaceControlCharacters(shortenName(text));
  if (content === '') return '` `';
  let longestRun = 0;
  for (const run of content.match(/`+/g) ?? []) longestRun = Math.max(longestRun, run.length);
  const fence = '`'.repeat(longestRun + 1);
  const pad =
    content.startsWith('`') || content.endsWith('`') || (content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content));
  return pad ? `${fence} ${content} ${fence}` : `${fence}${content}${fence}`;
}

/**
 * A code span for a GFM table cell: every `|` becomes `\|` (all of them), because the table splits cells before
 * inline parsing. GFM removes the backslash again inside the code span, and a `\` already before a `|` stays intact
 * (cmark-gfm's cell scanner takes the longest match, so `\\|` is `\` + escaped pipe, not a cell break).
 */
export function tableCodeSpan(text: string): string {
  return codeSpan(text).replaceAll('|', '\\|');
}

/**
 * Plain markdown text (not in a code span): every ASCII punctuation character is backslash-escaped, which CommonMark
 * allows for all of them, and `@` gets a zero-width space after it so that `@org/team` pings nobody.
 */
export function escapeMarkdownText(text: string): string {
  return replaceControlCharacters(text).replace(/[!-/:-@[-`{-~]/g, (ch) => (ch === '@' ? '@&#8203;' : `\\${ch}`));
}

/** Text for an HTML element or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] ?? ch);
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Makes names read from files (module and kernel keys, rules) safe to show in markdown, HTML and terminals.
import { replaceControlCharacters } from '../common/visible.js';
import { shortenName } from './names.js';

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
    content.startsWith('`') ||
    content.endsWith('`') ||
    (content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content));
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

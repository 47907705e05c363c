// Long names (a MindSpore scope, a kernel name, a hostile file) shortened in the middle with a stable hash of the whole
// name: the ONE shortening every display uses (markdown, HTML, JUnit, annotations, the failure reason, the terminal,
// the dashboard, report.json at its own length, the history), so the `~hash` seen in one can be found in the others.
import { createHash } from 'node:crypto';

/** Longest name shown whole in a report's displays. */
export const DISPLAY_NAME_LENGTH = 256;

/** `~` and 12 hex digits: what ends a shortened name. */
const HASH_LENGTH = 12;
const SUFFIX_LENGTH = HASH_LENGTH + 1;
const SUFFIX = /~[0-9a-f]{12}$/;

/**
 * `name` when it has at most `max` characters; else its head and tail around `…`, then `~` and 12 hex digits of the
 * SHA-256 of the whole name, `max` characters in all. Never splits a surrogate pair. A name this function already
 * shortened (report.json's keys, at 4,096) keeps its hash when shortened again, so a display made from report.json
 * shows what a display made from the whole key shows.
 */
export function shortenName(name: string, max: number = DISPLAY_NAME_LENGTH): string {
  if (name.length <= max) return name;
  const again = isShortened(name);
  const suffix = again
    ? name.slice(-SUFFIX_LENGTH)
    : `~${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, HASH_LENGTH)}`;
  const body = again ? name.slice(0, -SUFFIX_LENGTH) : name;
  const room = Math.max(2, max - suffix.length - 1);
  const headLength = Math.ceil(room / 2);
  const head = cutAt(body, headLength);
  // The tail starts after a whole pair, never at its second half: the name stays within max.
  let from = body.length - (room - head.length);
  const first = body.charCodeAt(from);
  if (first >= 0xdc00 && first <= 0xdfff) from++;
  const tail = body.slice(from);
  return `${head}…${tail}${suffix}`;
}

/**
 * True for text holding shortenName's output: the hash at the end and its `…`. A key the history or report.json holds
 * shortened may be shown under another prefix (a key group's star for the device), and keeps the whole key's hash there too.
 */
function isShortened(name: string): boolean {
  return SUFFIX.test(name) && name.includes('…');
}

/** The first `n` UTF-16 units of `text`, one fewer when `n` would end inside a surrogate pair. */
function cutAt(text: string, n: number): string {
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

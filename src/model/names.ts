// Long names (a MindSpore scope, a hostile file) shortened in the middle with a stable hash of the whole name, so two
// long names that differ anywhere never look the same, and the same name always looks the same: one function for the
// reports' displays, the JSON report's keys and the history's names.
import { createHash } from 'node:crypto';

/** Longest name shown whole in a report's displays (markdown tables, the limits table). */
export const DISPLAY_NAME_LENGTH = 256;

/**
 * `name` when it has at most `max` characters; else its head and tail around `…`, then `~` and 12 hex digits of the
 * SHA-256 of the whole name, `max` characters in all. Never splits a surrogate pair.
 */
export function shortenName(name: string, max: number = DISPLAY_NAME_LENGTH): string {
  if (name.length <= max) return name;
  const suffix = `~${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 12)}`;
  const room = Math.max(2, max - suffix.length - 1);
  const headLength = Math.ceil(room / 2);
  const head = cutAt(name, headLength);
  const tail = name.slice(cutAt(name, name.length - (room - head.length)).length);
  return `${head}…${tail}${suffix}`;
}

/** The first `n` UTF-16 units of `text`, one fewer when `n` would end inside a surrogate pair. */
function cutAt(text: string, n: number): string {
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

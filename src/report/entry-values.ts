// How an entry's numbers read: bytes by default, plain counts for entries that say `unit: 'count'` (e.g. alloc failures).
import type { Entry } from '../gate/types.js';
import { formatBytes, formatDelta } from '../units.js';
import { formatCount } from './sections.js';

/** True for an entry whose values are counts, not bytes. */
export function isCountEntry(entry: Entry): boolean {
  return entry.unit === 'count';
}

/** The entry's optional free-text note, or null. */
export function entryNote(entry: Entry): string | null {
  return entry.note !== undefined && entry.note !== '' ? entry.note : null;
}

/** A baseline or current value: "19.4 GiB", or "3" for a count. */
export function formatEntryValue(entry: Entry, value: number): string {
  return isCountEntry(entry) ? formatCount(value) : formatBytes(value);
}

/** A delta with an explicit sign: "+17.4 GiB", or "+3" for a count. */
export function formatEntryDelta(entry: Entry, delta: number): string {
  if (!isCountEntry(entry)) return formatDelta(delta);
  return delta > 0 ? `+${formatCount(delta)}` : formatCount(delta);
}

/** What decided the entry, as plain text: a finding's note (with its limit), else the rule's glob, else "default". */
export function entryReason(entry: Entry): { rule: string | null; note: string | null } {
  const note = entryNote(entry);
  if (note !== null) {
    const limit = entry.limit !== undefined ? ` (limit ${formatEntryValue(entry, entry.limit)})` : '';
    return { rule: entry.rule, note: `${note}${limit}` };
  }
  return { rule: entry.rule, note: null };
}

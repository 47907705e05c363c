// How an entry's numbers read: bytes by default, plain counts for entries that say `unit: 'count'` (e.g. alloc failures).
import type { Entry } from '../gate/types.js';
import { shortenName } from '../common/names.js';
import { formatBytes, formatCount, formatDelta, formatFactor } from '../model/units.js';
import { UNTRACED_NOTE } from '../model/sections/allocator.js';

/** True for an entry whose values are counts, not bytes. */
export function isCountEntry(entry: Entry): boolean {
  return entry.unit === 'count';
}

/** The entry's optional free-text note, or null. */
function entryNote(entry: Entry): string | null {
  return entry.note !== undefined && entry.note !== '' ? entry.note : null;
}

/** A baseline or current value: "19.4 GiB", or "3" for a count. */
export function formatEntryValue(entry: Entry, value: number): string {
  return isCountEntry(entry) ? formatCount(value) : formatBytes(value);
}

/** A delta with an explicit sign: "+17.4 GiB", or "+3" for a count. */
function formatEntryDelta(entry: Entry, delta: number): string {
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

/** A percent change as the tables show it: "+100%", "+9.7%", "-0.4%"; one decimal below 10%; past ×100 the factor, "×3,145,728". */
export function formatShortPercent(percent: number): string {
  const factor = formatFactor(percent);
  if (factor !== null) return factor;
  const digits = Math.abs(percent) >= 10 ? 0 : 1;
  const s = percent.toFixed(digits);
  return percent > 0 ? `+${s}%` : `${s}%`;
}

/**
 * Our own formatted figures (no text from files) with each number kept with its unit by a no-break space: a table
 * cell may wrap at the arrow or before the percentage, never inside "34.6 GiB".
 */
export function keepUnits(text: string): string {
  return text.replace(/(\d) (?=[KMGTP]?i?B\b)/g, '$1\u00a0');
}

/** "19.7 GiB → 39.4 GiB"; a side the entry lacks is "—"; a figure of a snapshot without a trace says "(dump-time)". */
export function formatTransition(entry: Entry): string {
  const side = (v: number | null): string => (v === null ? '—' : formatEntryValue(entry, v));
  return `${side(entry.baseline)} → ${side(entry.current)}${entry.note?.startsWith(UNTRACED_NOTE) === true ? ' (dump-time)' : ''}`;
}

/** "+19.7 GiB (+100%)"; a new or missing key grows or shrinks by its whole value: "+4.0 GiB (new)". */
export function formatChange(entry: Entry): string {
  if (entry.delta !== null) {
    const delta = formatEntryDelta(entry, entry.delta);
    return entry.percent === null || !Number.isFinite(entry.percent)
      ? delta
      : `${delta} (${formatShortPercent(entry.percent)})`;
  }
  if (entry.baseline === null && entry.current !== null) return `${formatEntryDelta(entry, entry.current)} (new)`;
  if (entry.current === null && entry.baseline !== null) return `${formatEntryDelta(entry, -entry.baseline)} (gone)`;
  return '—';
}

/** The sentence a reviewer needs: `DEV_MEM/dev3/APP regressed: 19.7 GiB → 39.4 GiB (+19.7 GiB, +100%)`; a long key shortened. */
export function entrySentence(entry: Entry): string {
  const change = formatChange(entry).replace(' (', ', ').replace(/\)$/, '');
  return `${shortenName(entry.key)} ${entry.status}: ${formatTransition(entry)} (${change})`;
}

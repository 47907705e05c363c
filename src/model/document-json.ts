// The stable JSON writer of snapshots and baselines: object keys sorted, section keys in natural order, so diffs review well.
import { fileKeyOrder } from './key-order.js';
import { isWritten, setOwn } from './record-keys.js';

/** JSON with object keys sorted at every level, 2-space indent and a trailing newline: diffs review well. */
export function stableStringify(value: unknown): string {
  return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}

/**
 * A snapshot or baseline as its file holds it: stableStringify, except that the keys of each section's and each
 * timeline's record are in fileKeyOrder (DEV_MEM/dev2/APP before DEV_MEM/dev10/APP), the order people read a
 * baseline's diff in and the gate walks both sides in. What build() and mergeBaseline() make is already in that
 * order and is written without a copy. (A key that is a canonical array index, `7`, is held first by every JS object
 * and so written first; reading the file back gives the same object.)
 */
export function stringifyDocument(document: object): string {
  const record = document as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    const value = record[key];
    const byName =
      key === 'sections' || key === 'series' ? (value as Record<string, Record<string, unknown>> | null) : null;
    setOwn(
      out,
      key,
      byName !== null && typeof byName === 'object' && !Array.isArray(byName)
        ? naturalRecords(byName)
        : sortDeep(value),
    );
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Section name (code-unit order) → its record, keys in fileKeyOrder and each value sortDeep'ed. */
function naturalRecords(byName: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(byName).sort()) {
    const record = byName[name];
    setOwn(
      out,
      name,
      record !== null && typeof record === 'object' && !Array.isArray(record)
        ? naturalRecord(record)
        : sortDeep(record),
    );
  }
  return out;
}

function naturalRecord(record: Record<string, unknown>): Record<string, unknown> {
  if (isWritten(record)) return record;
  const keys = Object.keys(record);
  let inOrder = true;
  for (let i = 1; inOrder && i < keys.length; i++) inOrder = fileKeyOrder(keys[i - 1] as string, keys[i] as string) < 0;
  if (!inOrder) keys.sort(fileKeyOrder);
  let copy: Record<string, unknown> | undefined = inOrder ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = record[key];
    const sorted = item === null || typeof item !== 'object' ? item : sortDeep(item);
    if (copy === undefined && sorted !== item) {
      copy = {};
      for (let k = 0; k < i; k++) setOwn(copy, keys[k] as string, record[keys[k] as string]);
    }
    if (copy !== undefined) setOwn(copy, key, sorted);
  }
  return copy ?? record;
}

/**
 * The value with object keys sorted at every level. Parts already in order (what build() and the gate write) are
 * returned as they are, not copied: the same JSON, without a second copy of 160,000 metrics.
 */
function sortDeep(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || typeof item !== 'object') continue;
      const sorted = sortDeep(item);
      if (sorted !== item) (copy ??= value.slice())[i] = sorted;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Only a plain object can stand for its sorted copy: a Date or class instance becomes a plain object of its fields.
  const prototype: unknown = Object.getPrototypeOf(record);
  let inOrder = prototype === Object.prototype || prototype === null;
  for (let i = 1; inOrder && i < keys.length; i++) inOrder = (keys[i - 1] as string) < (keys[i] as string);
  if (!inOrder) {
    const sorted: Record<string, unknown> = {};
    for (const key of keys.sort()) setOwn(sorted, key, sortDeep(record[key]));
    return sorted;
  }
  let changed: unknown[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const item = record[keys[i] as string];
    // Numbers and strings (most of a snapshot) need no call.
    if (item === null || typeof item !== 'object') continue;
    const sorted = sortDeep(item);
    if (sorted !== item) (changed ??= keys.map((key) => record[key]))[i] = sorted;
  }
  if (changed === undefined) return record;
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) setOwn(copy, keys[i] as string, changed[i]);
  return copy;
}

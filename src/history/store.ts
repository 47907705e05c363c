// Appending a point to a history, bounded by a number of points and a size (oldest first out), and the history as a
// local file (the CLI's store: a CI cache on GitLab or Jenkins). The Action keeps the same text on a branch.
import { readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../common/atomic-write.js';
import { InputError } from '../common/errors.js';
import type { RollUp } from '../model/roll-up.js';
import {
  emptySection,
  HISTORY_MAX_BYTES,
  historyName,
  latestAloneBytes,
  tableBytes,
  parseHistory,
  pointLine,
  ROLLUP_WIDTH,
  serializeHistory,
  type Columns,
  type History,
  type PointMeta,
  type SectionHistory,
} from './format.js';
import { forgetGroups } from './groups.js';
import { KeyValues, type PointValues } from './point.js';

import { DEFAULT_HISTORY_SIZE } from './limits.js';

export interface HistoryBounds {
  /** At most this many points (1 or more). */
  maxPoints: number;
  /** At most this many bytes of file. */
  maxBytes: number;
}

const DEFAULT_BOUNDS: HistoryBounds = { maxPoints: DEFAULT_HISTORY_SIZE, maxBytes: HISTORY_MAX_BYTES };

/** What an append did. */
export interface Appended {
  text: string;
  /** Points dropped, oldest first out, to stay within the limits. */
  dropped: number;
  /** Points the history holds now. */
  points: number;
}

/**
 * Appends one point (changing `history` in place) and returns the file's new text. Oldest points go first while the
 * history holds more than `maxPoints` or its text is larger than `maxBytes`; a point larger than `maxBytes` on its own
 * is refused with an InputError, and the history is left as it was.
 */
export function appendPoint(
  history: History,
  meta: PointMeta,
  values: PointValues,
  limits: HistoryBounds = DEFAULT_BOUNDS,
): Appended {
  if (!(Number.isSafeInteger(limits.maxPoints) && limits.maxPoints >= 1))
    throw new InputError(`a history keeps 1 or more points, got ${limits.maxPoints}`);
  const p = history.points.length;
  const table = tableOf(history);
  history.points.push({ ...meta, environment: shortenedValues(meta.environment) });
  try {
    for (const [name, byKey] of values.keys) recordKeys(history, name, byKey, p);
    for (const [name, byPattern] of values.rollups) recordRollups(history, name, byPattern, p);
    for (const [name, section] of history.sections) {
      // A figure this run does not have is gone from this point on.
      if (!values.keys.has(name)) endAll(section.keyColumns, p);
      if (!values.rollups.has(name)) endAll(section.rollupColumns, p);
      section.keyColumns.sortAt(p);
      section.rollupColumns.sortAt(p);
    }
    history.lines.push(pointLine(history, p));
    // The point alone is checked only when the whole file would not fit (it never does when the file does).
    const alone = serializedBytes(history) > limits.maxBytes ? latestAloneBytes(history) : 0;
    if (alone > limits.maxBytes) {
      throw new InputError(
        `this run's point alone takes ${alone} bytes, more than the history's limit of ${limits.maxBytes}: it was not recorded (too many keys that do not roll up across devices?)`,
      );
    }
  } catch (error) {
    undoPoint(history, p);
    restoreTable(history, table);
    throw error;
  }
  let dropped = 0;
  while (history.points.length > limits.maxPoints) {
    dropOldest(history);
    dropped++;
  }
  // Measured line by line: the file's text is made once, at the end.
  while (serializedBytes(history) > limits.maxBytes && history.points.length > 1) {
    dropOldest(history);
    dropped++;
  }
  // Keys only die when points go: a history that dropped none has nothing to compact.
  if (dropped > 0) compact(history);
  return { text: serializeHistory(history), dropped, points: history.points.length };
}

/**
 * Records a run: appended, or when the latest point is the same run of the same commit (a re-run attempt, or a write
 * retried after an answer that never came), in its place.
 */
export function recordPoint(
  history: History,
  meta: PointMeta,
  values: PointValues,
  limits: HistoryBounds = DEFAULT_BOUNDS,
): Appended & { replaced: boolean } {
  const last = history.points[history.points.length - 1];
  const replaced = last !== undefined && meta.run !== undefined && last.run === meta.run && last.commit === meta.commit;
  if (replaced) undoPoint(history, history.points.length - 1);
  return { ...appendPoint(history, meta, values, limits), replaced };
}

/** A key's place in its section's list (added at the end when new); `hint` is tried first, with no hashing. */
function keyPosition(section: SectionHistory, key: string, hint: number): number {
  // A run lists its keys in the order the last one did, which is the table's: the next place is usually the one.
  if (section.keys[hint] === key) return hint;
  let i = section.keyIndex.get(key);
  if (i === undefined) {
    i = section.keys.length;
    section.keyIndex.set(key, i);
    section.keys.push(key);
    section.keyColumns.add();
  }
  return i;
}

/** A roll-up's place in its section's list, as keyPosition. */
function rollupPosition(section: SectionHistory, pattern: string, hint: number): number {
  if (section.rollups[hint] === pattern) return hint;
  let i = section.rollupIndex.get(pattern);
  if (i === undefined) {
    i = section.rollups.length;
    section.rollupIndex.set(pattern, i);
    section.rollups.push(pattern);
    section.rollupColumns.add(ROLLUP_WIDTH);
  }
  return i;
}

/** The worst device's number (`dev12` → 12), as every device name this tool writes is. */
function worstDevice(r: RollUp): number {
  const device = /^dev(\d{1,9})$/.exec(r.worst);
  if (device === null) throw new InputError(`roll-up worst device '${r.worst}' is not a device name (devN)`);
  return Number(device[1]);
}

/** The section called `name`, made empty when the history has none yet. */
function sectionFor(history: History, name: string): SectionHistory {
  let section = history.sections.get(name);
  if (section === undefined) history.sections.set(name, (section = emptySection()));
  return section;
}

/** Records each key's value at point p, in one pass; keys the run does not have are gone from p on. */
function recordKeys(history: History, name: string, byKey: ReadonlyMap<string, number>, p: number): void {
  const section = sectionFor(history, name);
  const columns = section.keyColumns;
  const seen = new Uint8Array(columns.size + byKey.size);
  let hint = 0;
  const one = (full: string, value: number): void => {
    const key = historyName(full);
    const i = keyPosition(section, key, hint);
    hint = i + 1;
    seen[i] = 1;
    recordFigure(columns, i, p, value, name, key);
  };
  // A point's own lists are walked as lists; any other map (a caller's) by its entries.
  if (byKey instanceof KeyValues) {
    const { names, figures } = byKey;
    for (let k = 0; k < names.length; k++) one(names[k] as string, figures[k] as number);
  } else for (const [full, value] of byKey) one(full, value);
  endUnseen(columns, seen, p);
}

/** Records each roll-up's five values at point p; roll-ups the run does not have are gone from p on. */
function recordRollups(history: History, name: string, byPattern: ReadonlyMap<string, RollUp>, p: number): void {
  const section = sectionFor(history, name);
  const columns = section.rollupColumns;
  const seen = new Uint8Array(columns.size + byPattern.size * ROLLUP_WIDTH);
  let hint = 0;
  for (const [full, rollup] of byPattern) {
    const pattern = historyName(full);
    const r = rollupPosition(section, pattern, hint);
    hint = r + 1;
    const at = r * ROLLUP_WIDTH;
    const device = worstDevice(rollup);
    seen.fill(1, at, at + ROLLUP_WIDTH);
    recordFigure(columns, at, p, rollup.min, name, pattern);
    recordFigure(columns, at + 1, p, rollup.median, name, pattern);
    recordFigure(columns, at + 2, p, rollup.max, name, pattern);
    recordFigure(columns, at + 3, p, rollup.devices, name, pattern);
    recordFigure(columns, at + 4, p, device, name, pattern);
  }
  endUnseen(columns, seen, p);
}

/** Figure i's value at point p: a change only when it differs from its latest. */
function recordFigure(columns: Columns, i: number, p: number, now: number, name: string, key: string): void {
  if (!Number.isSafeInteger(now)) throw new InputError(`${name} ${key}: ${now} is not an exact integer`);
  const before = columns.latest(i);
  if (before === now) return;
  if (!Number.isSafeInteger(now - (Number.isNaN(before) ? 0 : before)))
    throw new InputError(
      `${name} ${key}: ${before} → ${now} is a change past 2^53 - 1, which the history cannot write exactly`,
    );
  columns.push(i, p, now);
}

function endUnseen(columns: Columns, seen: Uint8Array, p: number): void {
  for (let i = 0; i < columns.size; i++) if (seen[i] !== 1) end(columns, i, p);
}

/** An environment with every value as the history writes it. */
function shortenedValues(environment: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [item, value] of Object.entries(environment))
    Object.defineProperty(out, item, {
      value: historyName(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

function endAll(columns: Columns, p: number): void {
  for (let i = 0; i < columns.size; i++) end(columns, i, p);
}

/** The figure is absent from point p on. */
function end(columns: Columns, i: number, p: number): void {
  if (!Number.isNaN(columns.latest(i))) columns.push(i, p, Number.NaN);
}

/** The file's bytes without making its text. */
function serializedBytes(history: History): number {
  let bytes = 0;
  for (const line of history.lines) bytes += Buffer.byteLength(line) + 1;
  return bytes + tableBytes(history);
}

/** How long each section's key and roll-up lists are, to take back what a failed append added. */
function tableOf(history: History): Map<string, { keys: number; rollups: number }> {
  return new Map([...history.sections].map(([name, s]) => [name, { keys: s.keys.length, rollups: s.rollups.length }]));
}

function restoreTable(history: History, table: Map<string, { keys: number; rollups: number }>): void {
  for (const [name, section] of [...history.sections]) {
    const was = table.get(name);
    if (was === undefined) {
      history.sections.delete(name);
      continue;
    }
    if (section.keys.length > was.keys) forgetGroups(section.keys);
    for (const key of section.keys.splice(was.keys)) section.keyIndex.delete(key);
    section.keyColumns.truncate(was.keys);
    for (const pattern of section.rollups.splice(was.rollups)) section.rollupIndex.delete(pattern);
    section.rollupColumns.truncate(was.rollups * ROLLUP_WIDTH);
  }
}

/** Takes back a point whose values could not be recorded. */
function undoPoint(history: History, p: number): void {
  history.points.length = p;
  history.lines.length = Math.min(history.lines.length, p);
  for (const section of history.sections.values()) {
    section.keyColumns.undo(p);
    section.rollupColumns.undo(p);
  }
}

/** Drops the oldest point: the next one becomes the first and is written whole; every other line stays as it is. */
function dropOldest(history: History): void {
  history.points.shift();
  history.lines.shift();
  const points = history.points.length;
  for (const section of history.sections.values()) {
    section.keyColumns.dropOldest();
    section.rollupColumns.dropOldest();
    // Once more points were dropped than are kept, the changes before them are let go of.
    if (section.keyColumns.dropped > points) section.keyColumns = renumbered(section.keyColumns, points);
    if (section.rollupColumns.dropped > points) section.rollupColumns = renumbered(section.rollupColumns, points);
  }
  if (points > 0) history.lines[0] = pointLine(history, 0);
}

/** The same figures with only their kept changes. */
function renumbered(columns: Columns, points: number): Columns {
  const same = new Int32Array(columns.size);
  for (let i = 0; i < same.length; i++) same[i] = i;
  return columns.rebuilt(same, columns.size, points);
}

/** Keys no kept point has, once they are a quarter of the table (and at least this many), are dropped from it. */
const COMPACT_FROM = 16;

/**
 * Drops the keys and roll-ups that no kept point has from the table, rewriting every line (their positions move): only
 * when they are many, since a rewrite makes the next version of the file differ everywhere.
 */
function compact(history: History): boolean {
  let dead = 0;
  let all = 0;
  for (const section of history.sections.values()) {
    const { keyColumns, rollupColumns } = section;
    for (let i = 0; i < keyColumns.size; i++) {
      all++;
      if (keyColumns.isDead(i)) dead++;
    }
    for (let r = 0; r < section.rollups.length; r++) {
      all++;
      if (rollupDead(rollupColumns, r)) dead++;
    }
  }
  if (dead < COMPACT_FROM || dead * 4 < all) return false;
  for (const [name, section] of [...history.sections]) {
    const kept = emptySection();
    const keyNumbers = new Int32Array(section.keys.length).fill(-1);
    section.keys.forEach((key, i) => {
      if (section.keyColumns.isDead(i)) return;
      keyNumbers[i] = kept.keys.length;
      kept.keyIndex.set(key, kept.keys.length);
      kept.keys.push(key);
    });
    const rollupNumbers = new Int32Array(section.rollups.length * ROLLUP_WIDTH).fill(-1);
    section.rollups.forEach((pattern, r) => {
      if (rollupDead(section.rollupColumns, r)) return;
      for (let k = 0; k < ROLLUP_WIDTH; k++)
        rollupNumbers[r * ROLLUP_WIDTH + k] = kept.rollups.length * ROLLUP_WIDTH + k;
      kept.rollupIndex.set(pattern, kept.rollups.length);
      kept.rollups.push(pattern);
    });
    const points = history.points.length;
    kept.keyColumns = section.keyColumns.rebuilt(keyNumbers, kept.keys.length, points);
    kept.rollupColumns = section.rollupColumns.rebuilt(rollupNumbers, kept.rollups.length * ROLLUP_WIDTH, points);
    if (kept.keys.length === 0 && kept.rollups.length === 0) history.sections.delete(name);
    else history.sections.set(name, kept);
  }
  history.lines = history.points.map((_, p) => pointLine(history, p));
  return true;
}

function rollupDead(columns: Columns, r: number): boolean {
  for (let k = 0; k < ROLLUP_WIDTH; k++) if (!columns.isDead(r * ROLLUP_WIDTH + k)) return false;
  return true;
}

// ───────────────────────────── the local file (CLI) ─────────────────────────────

/** Reads a history file; null when it does not exist (a first append creates it). Any other problem is an error. */
export async function readHistoryFile(file: string): Promise<History | null> {
  let text: string;
  try {
    // A file past the cap is refused before it is read: it could be any size.
    const { size } = await stat(file);
    if (size > HISTORY_MAX_BYTES)
      throw new InputError(
        `${file}: ${size} bytes, past the ${HISTORY_MAX_BYTES} (8 MiB) a history ever holds: not read`,
      );
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseHistory(text, file);
}

/** What a warning or an error about a history file that cannot be read adds: how to start over. */
export function startOverHint(file: string): string {
  return `To start over, delete ${file} (or clear the CI cache that holds it): the default branch's next 'history append' creates it again`;
}

/** Writes the history's text atomically: a reader (a concurrent job's cache restore) never sees half a file. */
export async function writeHistoryFile(file: string, text: string): Promise<void> {
  await writeFileAtomic(file, text);
}

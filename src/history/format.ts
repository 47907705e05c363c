// The history file: JSON Lines, a header, the key table, then one line per point, oldest first, each point's values
// written as changes from the point before it. An append adds a line at the end and dropping the oldest point rewrites
// the next one whole: consecutive versions differ in a few places, so git's deltas between them stay small.
import { InputError, SchemaError } from '../common/errors.js';
import { hashText, StringTable } from '../common/string-table.js';
import { compileSchema, countJsonKeys, keyTokens, lineColumn, scanJson, type SchemaValidator } from '../json/reader.js';
import { shortenName } from '../model/names.js';
import { SECTIONS, type SectionDeclaration } from '../model/sections/index.js';
import { Columns } from './columns.js';
import {
  HISTORY_FORMAT,
  HISTORY_VERSION,
  historyHeaderSchema,
  historyKeysSchema,
  historyPointSchema,
} from './schema.js';

/** A history file never grows past this: GitHub's contents and blob APIs serve far more, but every run reads it whole. */
export const HISTORY_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The longest name (key, roll-up pattern, environment value) a history holds: longer ones are written as the JSON report
 * writes its keys, shortened in the middle with a hash of the whole name (src/model/names.ts), which the reader accepts.
 */
const HISTORY_NAME_LENGTH = 4096;

/** A name as the history writes it. */
export function historyName(name: string): string {
  return name.length > HISTORY_NAME_LENGTH ? shortenName(name, HISTORY_NAME_LENGTH) : name;
}

/** The history's first line: what it is, and where its points come from. */
export interface HistoryHeader {
  format: typeof HISTORY_FORMAT;
  version: typeof HISTORY_VERSION;
  /** The gate these points belong to (the Action's `comment-key`). */
  gate?: string;
  /** The branch that records them (the default branch). */
  branch?: string;
  /** A commit's page, `{sha}` standing for the commit: `https://github.com/o/r/commit/{sha}`. */
  commitUrl?: string;
}

/** What a point says about its run, besides the values. */
export interface PointMeta {
  commit: string;
  /** The CI run (GitHub's run id, a pipeline or build number). */
  run?: string;
  attempt?: number;
  /** ISO 8601. */
  time: string;
  /** `sha256:<hex>` of the baseline file the run was gated against; null when there was none. */
  baseline: string | null;
  /** The run's environment, item → value (`cann` → `8.3.RC1`); {} when none was recorded. */
  environment: Record<string, string>;
}

export { Columns };

/** A roll-up across devices takes five columns, in this order. */
const ROLLUP_FIELDS = ['min', 'median', 'max', 'devices', 'worst'] as const;
export const ROLLUP_WIDTH = ROLLUP_FIELDS.length;

/**
 * One section's figures: its keys (figure i of keyColumns is key i) and its roll-ups across devices (ROLLUP_WIDTH
 * figures each: roll-up r's are r * ROLLUP_WIDTH and on).
 */
export interface SectionHistory {
  keys: string[];
  keyColumns: Columns;
  keyIndex: Map<string, number>;
  /** Device-free patterns (`DEV_MEM/{*}/APP`) kept as a roll-up, for points of more than 64 devices. */
  rollups: string[];
  rollupColumns: Columns;
  rollupIndex: Map<string, number>;
}

export interface History {
  header: HistoryHeader;
  points: PointMeta[];
  /** By section name, in the order the file lists them. */
  sections: Map<string, SectionHistory>;
  /** Each point's line as written: an unchanged point is written back byte for byte. */
  lines: string[];
  /** What reading it left out, one line each (sections this version does not know, a commit URL that is no URL). */
  warnings?: string[];
}

export function emptyHistory(header: Omit<HistoryHeader, 'format' | 'version'> = {}): History {
  return {
    header: { format: HISTORY_FORMAT, version: HISTORY_VERSION, ...header },
    points: [],
    sections: new Map(),
    lines: [],
  };
}

export function emptySection(): SectionHistory {
  return sectionOfKeys([]);
}

/**
 * A section of these keys (the list is the section's own from now on), a figure each and no roll-ups. Its key index is
 * made on first use: a check that records a run listing its keys in the table's order, and reads trends of key groups,
 * never asks a 100,000-key table for a key by name, and that Map cost more than the rest of reading the file.
 */
function sectionOfKeys(keys: string[]): SectionHistory {
  const keyColumns = new Columns(keys.length);
  let keyIndex: Map<string, number> | undefined;
  return {
    keys,
    keyColumns,
    get keyIndex(): Map<string, number> {
      if (keyIndex === undefined) {
        keyIndex = new Map();
        for (let i = 0; i < this.keys.length; i++) keyIndex.set(this.keys[i] as string, i);
      }
      return keyIndex;
    },
    rollups: [],
    rollupColumns: new Columns(),
    rollupIndex: new Map(),
  };
}

/** A value as the file writes it: null for absent (NaN). */
export function orNull(v: number): number | null {
  return Number.isNaN(v) ? null : v;
}

// ───────────────────────────── writing ─────────────────────────────

/** The whole file: header, key table, point lines; a trailing newline. */
export function serializeHistory(history: History): string {
  return `${[headerLine(history.header), keysLine(history), ...history.lines].join('\n')}\n`;
}

/** The bytes of the file if it held only its latest point. */
export function latestAloneBytes(history: History): number {
  return tableBytes(history) + Buffer.byteLength(pointLine(history, history.points.length - 1, true)) + 1;
}

/** The bytes of the header and key table lines, with their line breaks. */
export function tableBytes(history: History): number {
  keysLine(history);
  const { bytes } = keysLines.get(history) as MadeKeysLine;
  return Buffer.byteLength(headerLine(history.header)) + bytes + 2;
}

function headerLine(header: HistoryHeader): string {
  // Fields in a fixed order, absent ones left out.
  const { format, version, gate, branch, commitUrl } = header;
  return JSON.stringify({
    format,
    version,
    ...(gate !== undefined ? { gate } : {}),
    ...(branch !== undefined ? { branch } : {}),
    ...(commitUrl !== undefined ? { commitUrl } : {}),
  });
}

/** The key table's line, made again only when the table grew (keys are only ever appended, or the table rebuilt). */
const keysLines = new WeakMap<History, MadeKeysLine>();

/** The key table's line as last made, its bytes (measured once: the table of 100,000 keys is 2 MB) and what it was of. */
interface MadeKeysLine {
  size: string;
  text: string;
  bytes: number;
  sections: Map<string, SectionHistory>;
}

function keysLine(history: History): string {
  let size = `${history.sections.size}`;
  for (const [name, section] of history.sections) size += `,${name}:${section.keys.length}:${section.rollups.length}`;
  const cached = keysLines.get(history);
  if (cached !== undefined && cached.size === size && cached.sections === history.sections) return cached.text;
  const text = keysLineOf(history);
  keysLines.set(history, { size, text, bytes: Buffer.byteLength(text), sections: history.sections });
  return text;
}

function keysLineOf(history: History): string {
  const keys: Record<string, string[]> = {};
  const rollups: Record<string, string[]> = {};
  for (const [name, section] of history.sections) {
    keys[name] = section.keys;
    if (section.rollups.length > 0) rollups[name] = section.rollups;
  }
  return JSON.stringify(Object.keys(rollups).length > 0 ? { keys, rollups } : { keys });
}

/**
 * The line of point `p`: its meta, its environment when it differs from the point before (always on the first), and
 * its values: every one on the first point, the changes since the point before on the others.
 */
export function pointLine(history: History, p: number, whole = p === 0): string {
  const meta = history.points[p] as PointMeta;
  const line: Record<string, unknown> = { commit: meta.commit };
  if (meta.run !== undefined) line.run = meta.run;
  if (meta.attempt !== undefined) line.attempt = meta.attempt;
  line.time = meta.time;
  line.baseline = meta.baseline;
  const previous = p === 0 ? undefined : history.points[p - 1];
  if (whole || previous === undefined || !sameEnvironment(previous.environment, meta.environment))
    line.environment = sortedItems(meta.environment);
  if (whole) {
    const values = denseOf(history, p, (s) => s.keyColumns);
    const rollups = denseOf(history, p, (s) => s.rollupColumns);
    if (Object.keys(values).length > 0) line.values = values;
    if (Object.keys(rollups).length > 0) line.rollups = rollups;
  } else {
    const changes = changesOf(history, p, (s) => s.keyColumns);
    const rollupChanges = changesOf(history, p, (s) => s.rollupColumns);
    if (Object.keys(changes).length > 0) line.changes = changes;
    if (Object.keys(rollupChanges).length > 0) line.rollupChanges = rollupChanges;
  }
  return JSON.stringify(line);
}

/** Point p's values, one per figure, trailing absent ones left out; sections with none left out. */
function denseOf(
  history: History,
  p: number,
  columnsOf: (s: SectionHistory) => Columns,
): Record<string, (number | null)[]> {
  const out: Record<string, (number | null)[]> = {};
  for (const [name, section] of history.sections) {
    const columns = columnsOf(section);
    let end = columns.size;
    while (end > 0 && Number.isNaN(columns.at(end - 1, p))) end--;
    if (end === 0) continue;
    const dense = new Array<number | null>(end);
    for (let i = 0; i < end; i++) dense[i] = orNull(columns.at(i, p));
    out[name] = dense;
  }
  return out;
}

/** Pairs (positions skipped since the last pair, difference or null) of the figures that change at point p. */
function changesOf(
  history: History,
  p: number,
  columnsOf: (s: SectionHistory) => Columns,
): Record<string, (number | null)[]> {
  const out: Record<string, (number | null)[]> = {};
  for (const [name, section] of history.sections) {
    const pairs: (number | null)[] = [];
    let next = 0;
    columnsOf(section).changesAt(p, (i, now, before) => {
      pairs.push(i - next, Number.isNaN(now) ? null : now - (Number.isNaN(before) ? 0 : before));
      next = i + 1;
    });
    if (pairs.length > 0) out[name] = pairs;
  }
  return out;
}

function sameEnvironment(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

function sortedItems(items: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(items).sort())
    Object.defineProperty(out, k, { value: items[k], enumerable: true, writable: true, configurable: true });
  return out;
}

// ───────────────────────────── reading ─────────────────────────────

interface HeaderLine {
  format: typeof HISTORY_FORMAT;
  version: typeof HISTORY_VERSION;
  gate?: string;
  branch?: string;
  commitUrl?: string;
}
interface KeysLine {
  keys: Record<string, string[]>;
  rollups?: Record<string, string[]>;
}
interface PointLineJson {
  commit: string;
  run?: string;
  attempt?: number;
  time: string;
  baseline: string | null;
  environment?: Record<string, string>;
  values?: Record<string, (number | null)[]>;
  rollups?: Record<string, (number | null)[]>;
  changes?: Record<string, (number | null)[]>;
  rollupChanges?: Record<string, (number | null)[]>;
}

const validateHeader = compileSchema<HeaderLine>(historyHeaderSchema);
const validateKeysLine = compileSchema<KeysLine>(historyKeysSchema);
const validatePointLine = compileSchema<PointLineJson>(historyPointSchema);

/** A key or roll-up pattern as the key table's schema takes it (1 to 4096 code points: checked in UTF-16 units). */
const isName = (v: unknown): boolean => typeof v === 'string' && v.length >= 1 && v.length <= 4096;
/** A value or change as the point schema takes it: an exact integer, or null. */
const isValue = (v: unknown): boolean => v === null || Number.isSafeInteger(v);

const validateKeys = (json: unknown, at: string): KeysLine =>
  validatedWithLists(validateKeysLine, json, at, ['keys', 'rollups'], isName);
const validatePoint = (json: unknown, at: string): PointLineJson =>
  validatedWithLists(validatePointLine, json, at, ['values', 'rollups', 'changes', 'rollupChanges'], isValue);

/**
 * A line checked against its schema with its long lists (`field` → section → list) checked here, item by item: the
 * schema's checks walked 100,000 keys and values per read. The schema checks the line with those lists emptied; when
 * either check fails, the whole line is checked as it is, so that the error is the schema's, as before.
 */
function validatedWithLists<T>(
  validate: SchemaValidator<T>,
  json: unknown,
  at: string,
  fields: readonly string[],
  item: (v: unknown) => boolean,
): T {
  if (!isObject(json)) return validate(json, at);
  const shell: Record<string, unknown> = { ...json };
  for (const field of fields) {
    const bySection = shell[field];
    if (!Object.hasOwn(shell, field) || !isObject(bySection)) continue;
    const emptied: Record<string, unknown> = {};
    for (const [name, list] of Object.entries(bySection)) {
      if (!Array.isArray(list) || !list.every(item)) return validate(json, at);
      Object.defineProperty(emptied, name, { value: [], enumerable: true, writable: true, configurable: true });
    }
    shell[field] = emptied;
  }
  try {
    validate(shell, at);
  } catch {
    return validate(json, at);
  }
  return json as T;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Reads a history file. Every problem is an InputError naming the file, the line and the JSON pointer (or column) of
 * what is wrong: a history is never half read, and a corrupt one is never taken for an empty one. Values no evidence
 * can produce (a negative module figure, a roll-up whose min is above its max) are problems too, and so is a file past
 * HISTORY_MAX_BYTES. What can be left out without lying is left out and said in `warnings`: sections this version does
 * not declare (a newer release wrote them) and a commit URL that is no http(s) URL.
 */
export function parseHistory(text: string, file: string): History {
  // Counted in UTF-16 units first: only a text near the cap is measured in bytes.
  if (text.length * 3 > HISTORY_MAX_BYTES && Buffer.byteLength(text) > HISTORY_MAX_BYTES) {
    throw new InputError(
      `${file}: ${Buffer.byteLength(text)} bytes, past the ${HISTORY_MAX_BYTES} (8 MiB) a history ever holds: not read`,
    );
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body === '')
    throw new InputError(
      `${file}: empty, not a history file (its first line is the header {"format":"${HISTORY_FORMAT}",…})`,
    );
  const rawLines = body.split('\n');
  if (rawLines[rawLines.length - 1] !== '')
    throw new InputError(`${file}:${rawLines.length}: the last line has no line break: the file was cut short`);
  rawLines.pop();
  const lines = rawLines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const warnings: string[] = [];
  const header = readHeader(lines[0] as string, file, warnings);
  const history: History = { header, points: [], sections: new Map(), lines: [] };
  if (lines.length < 2) throw new InputError(`${file}:2: the key table line is missing`);
  const at2 = `${file}:2`;
  const table = validateKeys(parseLine(lines[1] as string, file, 2), at2);
  // A section this version does not declare is skipped whole (a newer release writes sections an older one lacks).
  const unknown = new Set<string>();
  for (const name of [...Object.keys(table.keys), ...Object.keys(table.rollups ?? {})])
    if (!DECLARED.has(name)) unknown.add(name);
  for (const [name, keys] of Object.entries(table.keys))
    if (!unknown.has(name)) history.sections.set(name, sectionOf(keys, at2, `/keys/${name}`));
  for (const [name, patterns] of Object.entries(table.rollups ?? {})) {
    if (unknown.has(name)) continue;
    const section = history.sections.get(name) ?? emptySection();
    if (!history.sections.has(name)) history.sections.set(name, section);
    addNames(section.rollups, section.rollupIndex, patterns, at2, `/rollups/${name}`);
    section.rollupColumns.add(section.rollups.length * ROLLUP_WIDTH);
  }
  for (let n = 2; n < lines.length; n++) readPoint(history, lines[n] as string, file, n + 1, unknown);
  if (unknown.size > 0) {
    const names = [...unknown].map((n) => `'${n}'`).join(', ');
    warnings.push(
      `${at2}: section${unknown.size === 1 ? '' : 's'} ${names} ${unknown.size === 1 ? 'is' : 'are'} not known to this version (a newer ascend-memory-gate wrote ${unknown.size === 1 ? 'it' : 'them'}): skipped; a run this version records drops ${unknown.size === 1 ? 'it' : 'them'} from the file, upgrade to keep ${unknown.size === 1 ? 'it' : 'them'}`,
    );
    // The lines as read name the skipped sections' positions: written again from what was kept.
    history.lines = history.points.map((_, p) => pointLine(history, p));
  }
  if (warnings.length > 0) history.warnings = warnings;
  return history;
}

/** Section names this version declares. */
const DECLARED = new Map<string, SectionDeclaration>(SECTIONS.map((d) => [d.name, d]));

function readHeader(line: string, file: string, warnings: string[]): HistoryHeader {
  const at = `${file}:1`;
  const json = parseLine(line, file, 1);
  const version =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as { version?: unknown }).version
      : undefined;
  if (typeof version === 'number' && Number.isInteger(version) && version > HISTORY_VERSION) {
    throw new SchemaError(
      at,
      '/version',
      `is ${version}: this history was written by a newer ascend-memory-gate (this one reads version ${HISTORY_VERSION}); upgrade the Action or CLI`,
    );
  }
  const header: HistoryHeader = { ...validateHeader(json, at) };
  // The schema's pattern lets through what no URL parser takes (`https://[{sha}`): the links are left out, not the history.
  if (header.commitUrl !== undefined && !isCommitUrl(header.commitUrl)) {
    warnings.push(
      `${at}: /commitUrl: ${JSON.stringify(header.commitUrl.slice(0, 200))} is not an http(s) URL once {sha} is filled in: commits are shown without links`,
    );
    delete header.commitUrl;
  }
  return header;
}

/** Whether a commit URL template gives an http(s) URL for a commit SHA. */
function isCommitUrl(template: string): boolean {
  if (!template.includes('{sha}')) return false;
  try {
    const url = new URL(template.replaceAll('{sha}', '0123456789abcdef0123456789abcdef01234567'));
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function sectionOf(keys: string[], at: string, pointer: string): SectionHistory {
  const twice = firstRepeat(keys);
  if (twice !== -1)
    throw new SchemaError(
      at,
      `${pointer}/${twice}`,
      `${JSON.stringify((keys[twice] as string).slice(0, 200))} is listed twice`,
    );
  return sectionOfKeys(keys);
}

/** The position of the first name that an earlier one repeats, -1 for none (a Map of 100,000 names cost ~20-50 ms). */
function firstRepeat(names: readonly string[]): number {
  const table = new StringTable();
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const hash = hashText(name);
    if (table.indexOf(name, 0, name.length, hash) !== -1) return i;
    table.add(name, 0, name.length, hash);
  }
  return -1;
}

function addNames(list: string[], index: Map<string, number>, names: string[], at: string, pointer: string): void {
  for (const name of names) {
    if (index.has(name))
      throw new SchemaError(at, `${pointer}/${list.length}`, `${JSON.stringify(name.slice(0, 200))} is listed twice`);
    index.set(name, list.length);
    list.push(name);
  }
}

function readPoint(history: History, line: string, file: string, n: number, unknown: ReadonlySet<string>): void {
  const at = `${file}:${n}`;
  const json = validatePoint(parseLine(line, file, n), at);
  const p = history.points.length;
  const first = p === 0;
  if (first && (json.changes !== undefined || json.rollupChanges !== undefined)) {
    throw new SchemaError(
      at,
      json.changes !== undefined ? '/changes' : '/rollupChanges',
      'the first point writes its values whole (values, rollups), not changes',
    );
  }
  if (!first && (json.values !== undefined || json.rollups !== undefined)) {
    throw new SchemaError(
      at,
      json.values !== undefined ? '/values' : '/rollups',
      'only the first point writes its values whole; later points write changes',
    );
  }
  if (first && json.environment === undefined)
    throw new SchemaError(at, '/environment', 'the first point must say its environment ({} for none)');
  const environment = json.environment ?? (history.points[p - 1] as PointMeta).environment;
  const meta: PointMeta = {
    commit: json.commit,
    time: json.time,
    baseline: json.baseline,
    environment: { ...environment },
  };
  if (json.run !== undefined) meta.run = json.run;
  if (json.attempt !== undefined) meta.attempt = json.attempt;
  if (Number.isNaN(Date.parse(json.time)))
    throw new SchemaError(at, '/time', `is not a date: ${JSON.stringify(json.time)}`);
  history.points.push(meta);
  history.lines.push(line);
  const read = { history, at, unknown };
  if (first) {
    applyDense(read, json.values ?? {}, false, '/values');
    applyDense(read, json.rollups ?? {}, true, '/rollups');
  } else {
    applyChanges(read, p, json.changes ?? {}, false, '/changes');
    applyChanges(read, p, json.rollupChanges ?? {}, true, '/rollupChanges');
  }
}

/** What reading one point line needs: the history so far, where the line is, the sections skipped. */
interface PointRead {
  history: History;
  at: string;
  unknown: ReadonlySet<string>;
}

/** The section a point names; undefined for one skipped (not declared by this version). */
function sectionNamed(read: PointRead, name: string, pointer: string): SectionHistory | undefined {
  const section = read.history.sections.get(name);
  if (section !== undefined) return section;
  if (read.unknown.has(name)) return undefined;
  throw new SchemaError(read.at, pointer, `names section '${name}', which the key table (line 2) does not list`);
}

/**
 * A value the evidence cannot produce: a negative figure of a section whose compared field is never negative (only
 * `signedBytes` fields are, such as a kernel's Diff Memory), a roll-up of no device, a worst device below 0.
 */
function checkValue(
  read: PointRead,
  name: string,
  section: SectionHistory,
  rollup: boolean,
  position: number,
  value: number | null,
  pointer: string,
): void {
  if (value === null || value >= 0) return;
  const declaration = DECLARED.get(name) as SectionDeclaration;
  const slot = rollup ? position % ROLLUP_WIDTH : -1;
  const subject = rollup
    ? `the roll-up ${JSON.stringify(section.rollups[Math.floor(position / ROLLUP_WIDTH)] ?? '')} ${ROLLUP_FIELDS[slot]}`
    : JSON.stringify(section.keys[position] ?? '');
  if (slot >= 3)
    throw new SchemaError(
      read.at,
      pointer,
      `makes ${subject} ${value}, which is never negative: this is not a history ascend-memory-gate wrote`,
    );
  if (declaration.fields[declaration.value]?.type === 'signedBytes') return;
  throw new SchemaError(
    read.at,
    pointer,
    `makes ${subject} ${value}, but a ${declaration.kind} figure (${declaration.value}) is never negative: this is not a history ascend-memory-gate wrote`,
  );
}

/** A roll-up's five values at its latest point must be all there or all gone, with min ≤ median ≤ max over at least one device. */
function checkRollup(read: PointRead, section: SectionHistory, r: number, pointer: string): void {
  const values = ROLLUP_FIELDS.map((_, k) => orNull(section.rollupColumns.latest(r * ROLLUP_WIDTH + k)));
  if (values.every((v) => v === null)) return;
  const pattern = JSON.stringify(section.rollups[r] ?? '');
  if (values.some((v) => v === null))
    throw new SchemaError(
      read.at,
      pointer,
      `leaves the roll-up ${pattern} with some of its five values and not others`,
    );
  const [min, median, max, devices] = values as number[];
  if (!((min as number) <= (median as number) && (median as number) <= (max as number))) {
    throw new SchemaError(
      read.at,
      pointer,
      `makes the roll-up ${pattern} min ${min}, median ${median}, max ${max}: min ≤ median ≤ max always holds for what ascend-memory-gate writes`,
    );
  }
  if ((devices as number) < 1)
    throw new SchemaError(
      read.at,
      pointer,
      `makes the roll-up ${pattern} of ${devices} devices: a roll-up is of at least one`,
    );
}

/** The first point's values, in position order. */
function applyDense(read: PointRead, dense: Record<string, (number | null)[]>, rollup: boolean, pointer: string): void {
  for (const [name, values] of Object.entries(dense)) {
    const section = sectionNamed(read, name, `${pointer}/${name}`);
    if (section === undefined) continue;
    const columns = rollup ? section.rollupColumns : section.keyColumns;
    const positions = columns.size;
    if (values.length > positions)
      throw new SchemaError(
        read.at,
        `${pointer}/${name}`,
        `has ${values.length} values, but the key table (line 2) has ${positions} positions`,
      );
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number | null;
      // Only a negative value can be wrong: the pointer is made for those alone.
      if (v !== null && v < 0) checkValue(read, name, section, rollup, i, v, `${pointer}/${name}/${i}`);
      if (v !== null) columns.push(i, 0, v);
    }
    if (rollup) {
      for (let r = 0; r * ROLLUP_WIDTH < values.length; r++) {
        // Columns past the list are made empty later: a roll-up cut short is checked with its missing values as gone.
        if ((r + 1) * ROLLUP_WIDTH > values.length)
          throw new SchemaError(
            read.at,
            `${pointer}/${name}`,
            `ends inside the roll-up ${JSON.stringify(section.rollups[r] ?? '')}: a roll-up has ${ROLLUP_WIDTH} values`,
          );
        checkRollup(read, section, r, `${pointer}/${name}/${r * ROLLUP_WIDTH}`);
      }
    }
  }
}

function applyChanges(
  read: PointRead,
  p: number,
  changes: Record<string, (number | null)[]>,
  rollup: boolean,
  pointer: string,
): void {
  const { at } = read;
  for (const [name, pairs] of Object.entries(changes)) {
    const where = `${pointer}/${name}`;
    const section = sectionNamed(read, name, where);
    if (section === undefined) continue;
    const columns = rollup ? section.rollupColumns : section.keyColumns;
    if (pairs.length % 2 !== 0)
      throw new SchemaError(at, where, `must hold pairs (positions skipped, change), got ${pairs.length} numbers`);
    // Each roll-up this point changes, with the pointer of its first change.
    const touched = new Map<number, string>();
    let i = 0;
    for (let k = 0; k < pairs.length; k += 2) {
      const skip = pairs[k];
      if (skip === null || skip === undefined || skip < 0)
        throw new SchemaError(
          at,
          `${where}/${k}`,
          `must be a number of positions skipped (0 or more), got ${String(skip)}`,
        );
      i += skip;
      if (i >= columns.size)
        throw new SchemaError(
          at,
          `${where}/${k}`,
          `reaches position ${i}, but the key table (line 2) has ${columns.size}`,
        );
      if (columns.changedAt(i, p)) throw new SchemaError(at, `${where}/${k}`, `changes position ${i} twice`);
      const change = pairs[k + 1] as number | null;
      const before = columns.latest(i);
      let value: number | null = null;
      if (change !== null) {
        value = (Number.isNaN(before) ? 0 : before) + change;
        if (!Number.isSafeInteger(value))
          throw new SchemaError(at, `${where}/${k + 1}`, `makes a value past 2^53 - 1, which cannot be exact`);
      } else if (Number.isNaN(before)) {
        throw new SchemaError(at, `${where}/${k + 1}`, `removes position ${i}, which the point before does not have`);
      }
      if (change === 0 && !Number.isNaN(before))
        throw new SchemaError(
          at,
          `${where}/${k + 1}`,
          `is a change of 0 at position ${i}: unchanged values are not written`,
        );
      if (value !== null && value < 0) checkValue(read, name, section, rollup, i, value, `${where}/${k + 1}`);
      columns.push(i, p, value ?? Number.NaN);
      if (rollup && !touched.has(Math.floor(i / ROLLUP_WIDTH)))
        touched.set(Math.floor(i / ROLLUP_WIDTH), `${where}/${k + 1}`);
      i++;
    }
    for (const [r, first] of touched) checkRollup(read, section, r, first);
  }
}

/**
 * One line's JSON, strict as every JSON this tool reads (a key given twice, nesting past 100 levels): errors name
 * `file:line:column`.
 */
function parseLine(line: string, file: string, n: number): unknown {
  let value: unknown;
  let parsed = true;
  try {
    value = JSON.parse(line);
  } catch {
    parsed = false;
  }
  if (parsed && keyTokens(line) === countJsonKeys(value)) return value;
  const problem = scanJson(line, { strict: true });
  if (problem === null) {
    if (parsed) return value;
    throw new InputError(`${file}:${n}: not valid JSON`);
  }
  const { column } = lineColumn(line, problem.offset);
  // The scanner places an earlier key as line:column of the text it read, which is this one line.
  const reason = problem.reason.replace(/\(first at 1:(\d+)\)/, '(first at column $1)');
  throw new InputError(`${file}:${n}:${column}: ${problem.kind === 'syntax' ? 'not valid JSON: ' : ''}${reason}`);
}

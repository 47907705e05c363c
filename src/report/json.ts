// The `--report` JSON: written with every status counted, and read back from untrusted uploads only through the schema.
import { SchemaError } from '../common/errors.js';
import type { Entry, GateReport } from '../gate/types.js';
import { splitDevice } from '../model/sections/index.js';
import { devicesPerPattern, groupEntries, isRollUp, medianGrowth, patternCountsOf } from './groups.js';
import { growth } from './partition.js';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { compileSchema, parseJson } from '../json/reader.js';
import { stableStringify } from '../model/document-json.js';
import { shortenName } from './names.js';
import {
  MAX_ENTRIES,
  MAX_KEY_LENGTH,
  MAX_NOTE_LENGTH,
  REPORT_STATUSES,
  reportFrameSchema,
  reportSchema,
} from './report-schema.js';

/** Optional context written next to the verdicts. */
export interface ReportExtras {
  /** The baseline file the run compared against, as the user named it. */
  baselineFile?: string;
  /** ISO 8601 time of the run, e.g. `2026-06-13T17:00:34Z`. Left out unless given, so output stays reproducible. */
  generatedAt?: string;
}

/**
 * A roll-up across devices: entries of one kind, status and severity whose keys differ only in the device
 * (`DEV_MEM/{*}/APP`). Only groups of two or more entries are written (no `groups` without one); every entry stays in `entries`.
 */
export interface GroupDocument {
  kind: string;
  status: string;
  severity: string;
  /** The key with its device segment replaced by `*` (`dev*` for whole-device keys). */
  pattern: string;
  /** Indices into `entries`, the largest absolute change first. */
  entries: number[];
  /** Devices that have a key of this kind and pattern anywhere in the report. */
  ofDevices: number;
  /** Median change of the members (delta, or the whole value of a new or missing key), rounded. */
  medianDelta: number;
}

/** A parsed report: the gate's verdicts plus whatever extras the writer added, and the roll-ups. */
export type ReportDocument = GateReport & ReportExtras & { groups?: GroupDocument[] };

/**
 * The report as stable JSON; counts list every known status (0 when absent). Throws SchemaError if it could not be read
 * back. The same text writeJsonReport streams to a file.
 */
export function renderJsonReport(report: GateReport, extra: ReportExtras = {}): string {
  return [...jsonReportChunks(report, extra)].join('');
}

/**
 * Writes the report to a file in pieces: at 4,096 devices the text is ~40 MB, and neither it nor a second copy of the
 * entries is ever held whole (the file is written to a temporary name and renamed, so a failed write leaves no half report).
 */
export async function writeJsonReport(file: string, report: GateReport, extra: ReportExtras = {}): Promise<void> {
  const chunks = jsonReportChunks(report, extra);
  // The checks run before the first byte is written: the first chunk comes after them.
  const first = chunks.next();
  const temporary = `${file}.${process.pid}.tmp`;
  // A failure names the report the user asked for, not the temporary file.
  const named = (error: unknown): unknown => {
    const errno = error as NodeJS.ErrnoException;
    if (error instanceof Error && errno.path === temporary) errno.path = file;
    return error;
  };
  // A report folder that does not exist yet (`--report out/report.json`) is made, as for the other reports.
  await mkdir(dirname(resolve(file)), { recursive: true }).catch((error: unknown) => {
    if (error instanceof Error) (error as NodeJS.ErrnoException).path = file;
    throw error;
  });
  const handle = await open(temporary, 'w').catch((error: unknown) => {
    throw named(error);
  });
  try {
    let pending = first.done === true ? '' : first.value;
    for (const chunk of chunks) {
      pending += chunk;
      if (pending.length >= WRITE_BYTES) {
        await handle.write(pending);
        pending = '';
      }
    }
    await handle.write(pending);
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw named(error);
  }
  await handle.close();
  await rename(temporary, file).catch(async (error: unknown) => {
    await rm(temporary, { force: true });
    throw named(error);
  });
}

/** About this much text is written at a time. */
const WRITE_BYTES = 1 << 20;
/** Entries serialized per JSON.stringify call. */
const BATCH = 2048;

/**
 * stableStringify of the report document, in pieces. Every object is built with its keys in code-unit order (what
 * stableStringify writes), and the entries and groups are written a batch at a time into the frame of the rest.
 */
function* jsonReportChunks(report: GateReport, extra: ReportExtras): Generator<string, void, undefined> {
  const counts: Record<string, number> = Object.fromEntries([...REPORT_STATUSES].sort().map((status) => [status, 0]));
  for (const [status, n] of Object.entries(report.counts)) if (n !== undefined) counts[status] = n;
  const groups = groupsOf(report.entries);
  const frame = {
    ...(extra.baselineFile !== undefined ? { baselineFile: extra.baselineFile } : {}),
    counts,
    ...(report.disjointBaseline !== undefined ? { disjointBaseline: report.disjointBaseline } : {}),
    entries: [] as ReturnType<typeof entryDocument>[],
    ...(report.environment !== undefined ? { environment: report.environment } : {}),
    ...(extra.generatedAt !== undefined ? { generatedAt: extra.generatedAt } : {}),
    ...(groups.length > 0 ? { groups: [] as GroupDocument[] } : {}),
    ...(report.history !== undefined
      ? { history: { branch: report.history.branch, commit: report.history.commit } }
      : {}),
    ...(report.missingArtifacts !== undefined ? { missingArtifacts: report.missingArtifacts } : {}),
    ...(report.notRead !== undefined ? { notRead: report.notRead } : {}),
    result: report.result,
  };
  // Refuse to write what the comment job would refuse to read: the error surfaces in the run that caused it.
  checkOwnReport(frame, report.entries, groups);
  // The frame with a marker where each list goes; a list is written as JSON.stringify(list, null, 2) would inside it.
  const text = stableStringify({
    ...frame,
    entries: MARK_ENTRIES,
    ...(groups.length > 0 ? { groups: MARK_GROUPS } : {}),
  });
  const entriesAt = text.indexOf(JSON.stringify(MARK_ENTRIES));
  const groupsAt = groups.length > 0 ? text.indexOf(JSON.stringify(MARK_GROUPS)) : -1;
  yield text.slice(0, entriesAt);
  yield* listChunks(report.entries, entryDocument);
  if (groupsAt === -1) {
    yield text.slice(entriesAt + JSON.stringify(MARK_ENTRIES).length);
    return;
  }
  yield text.slice(entriesAt + JSON.stringify(MARK_ENTRIES).length, groupsAt);
  yield* listChunks(groups, (g) => g);
  yield text.slice(groupsAt + JSON.stringify(MARK_GROUPS).length);
}

// Strings that JSON-encode to themselves in the frame; the top-level lists sit at indent 2.
const MARK_ENTRIES = '\u0000entries\u0000';
const MARK_GROUPS = '\u0000groups\u0000';

/**
 * A top-level list as `JSON.stringify(document, null, 2)` writes it at indent 2, a batch at a time. The items' keys are
 * already in code-unit order (entryDocument, groupsOf), so plain JSON.stringify writes what stableStringify would.
 */
function* listChunks<T, D>(items: readonly T[], document: (item: T) => D): Generator<string, void, undefined> {
  if (items.length === 0) {
    yield '[]';
    return;
  }
  yield '[';
  for (let start = 0; start < items.length; start += BATCH) {
    // Wrapped in an object, the batch's items come out at the list's indent: {\n  "l": [\n    {…},\n    {…}\n  ]\n}.
    const json = JSON.stringify({ l: items.slice(start, start + BATCH).map(document) }, null, 2);
    const written = json.slice(json.indexOf('[') + 1, json.lastIndexOf('\n  ]'));
    yield start === 0 ? written : `,${written}`;
  }
  yield '\n  ]';
}

/** One entry as the report writes it, keys in code-unit order: baseline, capacity, current, delta, key, kind, limit, noise, note, percent, rule, severity, status, unit. */
function entryDocument(e: Entry): Record<string, unknown> {
  const entry: Record<string, unknown> = { baseline: e.baseline };
  if (e.capacity !== undefined) entry.capacity = e.capacity;
  entry.current = e.current;
  entry.delta = e.delta;
  // The schema bounds keys (an untrusted upload must not be unbounded): longer ones are written shortened, hashed.
  entry.key = shortenName(e.key, MAX_KEY_LENGTH);
  entry.kind = e.kind;
  if (e.limit !== undefined) entry.limit = e.limit;
  if (e.noise !== undefined) entry.noise = { applied: e.noise.applied, points: e.noise.points, spread: e.noise.spread };
  if (e.note !== undefined) entry.note = e.note;
  entry.percent = e.percent;
  entry.rule = e.rule === null ? null : shortenName(e.rule, MAX_KEY_LENGTH);
  entry.severity = e.severity;
  entry.status = e.status;
  if (e.unit !== undefined) entry.unit = e.unit;
  return entry;
}

/** The roll-ups of the entries, with indices into them; members ordered by absolute change, largest first. */
export function groupsOf(entries: readonly Entry[]): GroupDocument[] {
  const perPattern = devicesPerPattern(entries);
  const perEntry = patternCountsOf(entries);
  // Only entries that can share a group: a device-bearing key whose (kind, pattern) has one entry in the whole report
  // (each of 100,000 kernels, say) is a group of one, never written.
  const index = new Map<Entry, number>();
  entries.forEach((e, i) => {
    const counts = perEntry[i];
    if (counts === null || (counts?.entries ?? 0) > 1) index.set(e, i);
  });
  const candidates = [...index.keys()];
  // Worst growth first, then report order: each entry's |growth| and index computed once, not per comparison.
  const size = new Float64Array(candidates.length);
  const at = new Float64Array(candidates.length);
  candidates.forEach((e, i) => {
    size[i] = Math.abs(growth(e));
    at[i] = index.get(e) ?? 0;
  });
  const order = Array.from(candidates, (_, i) => i).sort(
    (a, b) => (size[b] as number) - (size[a] as number) || (at[a] as number) - (at[b] as number),
  );
  const ordered = order.map((i) => candidates[i] as Entry);
  return (
    groupEntries(ordered, perPattern)
      // Keys past MAX_KEY_LENGTH are written shortened, each with its own hash: they share no pattern the reader could check.
      .filter((g) => isRollUp(g) && g.entries.every((e) => e.key.length <= MAX_KEY_LENGTH))
      .map((g) => ({
        // Keys in code-unit order, as stableStringify writes them.
        entries: g.entries.map((e) => index.get(e) ?? -1),
        kind: g.kind,
        medianDelta: Math.round(medianGrowth(g)),
        ofDevices: g.ofDevices,
        pattern: g.pattern,
        severity: g.severity,
        status: g.status,
      }))
      .sort((a, b) => (a.entries[0] ?? 0) - (b.entries[0] ?? 0))
  );
}

/**
 * Reads a report that may come from an untrusted pull-request run: JSON, then the schema (no extra fields, bounded
 * strings and entry count, integer byte counts, known statuses), then counts and result agreeing with the entries.
 */
export function parseReportJson(text: string, file: string): ReportDocument {
  return checkReport(parseJson(text, file), file);
}

// The first error only: a hostile file must not make ajv collect millions.
const validateReport = compileSchema<ReportDocument>(reportSchema);
const validateReportFrame = compileSchema<ReportDocument>(reportFrameSchema);

function checkReport(untrusted: unknown, file: string): ReportDocument {
  const data = validateReport(untrusted, file);
  checkConsistency(data, file);
  return data;
}

/**
 * The writer's check of its own document: the schema on everything but entries and groups (ajv over 160,000 entries the
 * code just built took ~0.3 s), the bounds a built entry can break (how many, a note's length, an integer that is not
 * one), and the counts and result against the entries. Tests read every written report back through parseReportJson.
 */
function checkOwnReport(frame: unknown, entries: readonly Entry[], groups: readonly GroupDocument[]): void {
  const data = validateReportFrame(frame, 'report');
  const bounded = (what: string, count: number): void => {
    if (count > MAX_ENTRIES)
      throw new SchemaError(
        'report',
        `/${what}`,
        `must have at most ${MAX_ENTRIES} items, got ${count}: the reader refuses larger reports`,
      );
  };
  bounded('entries', entries.length);
  bounded('groups', groups.length);
  const integer = (v: unknown): boolean => v === null || v === undefined || Number.isSafeInteger(v);
  entries.forEach((e, i) => {
    if (e.note !== undefined && e.note.length > MAX_NOTE_LENGTH)
      throw new SchemaError(
        'report',
        `/entries/${i}/note`,
        `must be at most ${MAX_NOTE_LENGTH} characters, got ${e.note.length}`,
      );
    for (const field of ['baseline', 'current', 'delta', 'limit', 'capacity'] as const) {
      if (!integer(e[field]))
        throw new SchemaError(
          'report',
          `/entries/${i}/${field}`,
          `must be an integer number of bytes, got ${String(e[field])}`,
        );
    }
  });
  checkConsistency({ ...data, entries: entries as ReportDocument['entries'] }, 'report', false);
}

/** Counts and result agree with the entries; with `groups`, each group's members are checked too (the writer built its groups from these entries). */
function checkConsistency(data: ReportDocument, file: string, groups = true): void {
  const seen = new Map<string, number>();
  let firstFailing = -1;
  data.entries.forEach((entry, i) => {
    seen.set(entry.status, (seen.get(entry.status) ?? 0) + 1);
    if (firstFailing === -1 && entry.severity === 'fail') firstFailing = i;
  });
  for (const status of REPORT_STATUSES) {
    const counted = data.counts[status] ?? 0;
    const listed = seen.get(status) ?? 0;
    if (counted !== listed) {
      throw new SchemaError(
        file,
        `/counts/${status}`,
        `is ${counted} but ${listed} ${listed === 1 ? 'entry has' : 'entries have'} status '${status}'`,
      );
    }
  }
  if (data.result === 'pass' && firstFailing !== -1) {
    throw new SchemaError(file, '/result', `is 'pass' but /entries/${firstFailing} has severity 'fail'`);
  }
  if (data.result === 'pass' && data.disjointBaseline?.severity === 'fail') {
    throw new SchemaError(file, '/result', "is 'pass' but /disjointBaseline has severity 'fail'");
  }
  if (groups) checkGroups(data, file);
}

/** Each group's members exist, belong to no other group, and share its kind, status, severity and pattern. */
function checkGroups(data: ReportDocument, file: string): void {
  const taken = new Set<number>();
  (data.groups ?? []).forEach((group, g) => {
    group.entries.forEach((i, j) => {
      const where = `/groups/${g}/entries/${j}`;
      const entry = data.entries[i];
      if (entry === undefined)
        throw new SchemaError(file, where, `is ${i}, but there are ${data.entries.length} entries`);
      if (taken.has(i)) throw new SchemaError(file, where, `lists /entries/${i} a second time`);
      taken.add(i);
      const { group: pattern } = splitDevice(entry.key);
      if (
        entry.kind !== group.kind ||
        entry.status !== group.status ||
        entry.severity !== group.severity ||
        (pattern === '*' ? 'dev*' : pattern) !== group.pattern
      ) {
        throw new SchemaError(
          file,
          where,
          `is /entries/${i}, which is not a ${group.kind} ${group.status} key of ${group.pattern}`,
        );
      }
    });
  });
}

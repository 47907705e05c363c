// Committed baselines: read and validate (a corrupt one is an error, never "no baseline"), merge a run in, write deterministically and atomically.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { writeFileAtomic } from '../common/atomic-write.js';
import { InputError, SchemaError } from '../common/errors.js';
import { compileSchema } from '../json/reader.js';
import { buildBaselineSchema, buildBaselineV1Schema } from '../model/sections/schema.js';
import { readWholeText } from '../common/whole-text.js';
import { compileSectionsDocument, parseSectionsJson } from '../model/sections/validate.js';
import { SECTIONS, type Metric } from '../model/sections/index.js';
import { foldLineSites, type FoldedSites } from '../model/sections/allocation-sites.js';
import type { Series } from '../model/series.js';
import {
  hasNoMetrics,
  SNAPSHOT_VERSION,
  type SectionMetrics,
  type Snapshot,
  type SnapshotMeta,
} from '../model/snapshot.js';
import { stableStringify, stringifyDocument } from '../model/document-json.js';
import { fileKeyOrder } from '../model/key-order.js';

/** Where a baseline came from. Extra fields are kept as written. */
export interface BaselineSource {
  commit?: string;
  runId?: string | number;
  /** ISO 8601 date-time. */
  date?: string;
  /** owner/name. */
  repository?: string;
  [field: string]: unknown;
}

/** A snapshot as committed under baselines/ (schemas/baseline.schema.json): `meta` optional, plus provenance. */
export interface Baseline {
  $schema?: string;
  version: 2;
  /** Section name → key → metric (src/model/sections/). */
  sections: Record<string, SectionMetrics>;
  /** Timelines of the run that last wrote this baseline, when it had any. */
  series?: Record<string, Record<string, Series>>;
  /** Parse statistics of the run that last wrote this baseline. */
  meta?: SnapshotMeta;
  source?: BaselineSource;
}

/** A version-1 baseline as written before sections existed: read, then migrated. */
interface BaselineV1 {
  $schema?: string;
  version: 1;
  modules: Record<string, Metric>;
  kernels: Record<string, Metric>;
  meta?: SnapshotMeta;
  source?: BaselineSource;
}

/** What a merge did, key by key: section by section (registry order), each sorted like the report. */
export interface BaselineChanges {
  /** In this run, not in the old baseline. */
  added: string[];
  /** In both, with any field different. */
  changed: string[];
  /** In the old baseline only, kept because prune was off. */
  kept: string[];
  /** In the old baseline only, dropped because prune was on. */
  pruned: string[];
  /** In both, identical. */
  unchanged: number;
}

const validateBaseline = compileSectionsDocument<Baseline>(buildBaselineSchema());
const validateBaselineV1 = compileSchema<BaselineV1>(buildBaselineV1Schema());

/**
 * Reads a baseline. Returns null only when the file does not exist, so the caller decides what a first run means;
 * any other read error, invalid JSON or a schema violation throws an error naming the file.
 */
export async function loadBaseline(file: string): Promise<Baseline | null> {
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      text = readWholeText(fd, fstatSync(fd).size);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return null;
    throw new InputError(`${file}: cannot read the baseline: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseBaseline(text, file);
}

/** Parses and validates baseline text; errors name the file and line:column (syntax) or JSON pointer (schema). */
export function parseBaseline(text: string, file: string): Baseline {
  const { json, sectionsChecked } = parseSectionsJson(text, file);
  const version =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as { version?: unknown }).version
      : undefined;
  if (version === 1) return migrateV1(validateBaselineV1(json, file));
  if (typeof version === 'number' && Number.isInteger(version) && version > SNAPSHOT_VERSION) {
    throw new SchemaError(
      file,
      '/version',
      `is ${version}: this baseline was written by a newer ascend-memory-gate (this one reads versions 1 and ${SNAPSHOT_VERSION}); upgrade the Action or CLI`,
    );
  }
  // Allocation sites keyed by line (before 1.1) are read as the sites by function this version writes.
  const folded =
    json !== null && typeof json === 'object' ? foldLineSites((json as { sections?: unknown }).sections) : null;
  const baseline = validateBaseline(json, file, sectionsChecked && folded === null);
  if (folded !== null) foldedBaselines.set(baseline, folded);
  return baseline;
}

const foldedBaselines = new WeakMap<Baseline, FoldedSites>();

/**
 * What reading `baseline` folded, as one sentence naming `file` (null when nothing was keyed by line): said once per
 * run, by the caller, so the user knows why the next baseline update changes the file.
 */
export function foldedSitesNotice(baseline: Baseline | null, file: string): string | null {
  const folded = baseline === null ? undefined : foldedBaselines.get(baseline);
  if (folded === undefined) return null;
  return `${file}: ${folded.from} allocation site(s) keyed by line (as earlier versions wrote them) were read as ${folded.to} site(s) keyed by file and function, so a line that moves changes no key; the next baseline update writes them so`;
}

/** Version 1 → 2: `modules` and `kernels` move under `sections`; nothing else changes. */
function migrateV1(v1: BaselineV1): Baseline {
  const sections: Record<string, SectionMetrics> = {};
  if (Object.keys(v1.modules).length > 0) sections.modules = v1.modules;
  if (Object.keys(v1.kernels).length > 0) sections.kernels = v1.kernels;
  return {
    ...(v1.$schema !== undefined ? { $schema: v1.$schema } : {}),
    version: 2,
    sections,
    ...(v1.meta !== undefined ? { meta: v1.meta } : {}),
    ...(v1.source !== undefined ? { source: v1.source } : {}),
  };
}

/**
 * Folds a run into a baseline. Keys of this run replace or add; keys absent from this run are KEPT unless `prune`
 * (a rank that failed to upload must not erase its baseline). `meta` becomes this run's; `source` becomes the one
 * given (omitted when none is). An empty run is refused with an InputError, so the file is never touched.
 */
export function mergeBaseline(
  existing: Baseline | null,
  run: Snapshot,
  options: { prune?: boolean; source?: BaselineSource } = {},
): { baseline: Baseline; changes: BaselineChanges } {
  if (hasNoMetrics(run)) {
    throw new InputError(
      'this run has no memory statistics: refusing to update the baseline from it (the baseline was left untouched)',
    );
  }
  const changes: BaselineChanges = { added: [], changed: [], kept: [], pruned: [], unchanged: 0 };
  const prune = options.prune ?? false;
  const sections: Record<string, SectionMetrics> = {};
  for (const declaration of SECTIONS) {
    const merged = mergeRecords(
      existing?.sections[declaration.name] ?? {},
      run.sections[declaration.name] ?? {},
      prune,
      changes,
    );
    if (Object.keys(merged).length > 0) sections[declaration.name] = merged;
  }
  const baseline: Baseline = {
    ...(existing?.$schema !== undefined ? { $schema: existing.$schema } : {}),
    version: 2,
    sections,
    ...(Object.keys(run.series).length > 0 ? { series: structuredClone(run.series) } : {}),
    meta: structuredClone(run.meta),
    ...(options.source !== undefined ? { source: structuredClone(options.source) } : {}),
  };
  return { baseline, changes };
}

function mergeRecords<M extends object>(
  existing: Record<string, M>,
  run: Record<string, M>,
  prune: boolean,
  changes: BaselineChanges,
): Record<string, M> {
  const keys = [...new Set([...Object.keys(existing), ...Object.keys(run)])].sort(fileKeyOrder);
  const merged: [string, M][] = [];
  for (const key of keys) {
    const before = Object.hasOwn(existing, key) ? existing[key] : undefined;
    const after = Object.hasOwn(run, key) ? run[key] : undefined;
    if (after !== undefined) {
      if (before === undefined) changes.added.push(key);
      else if (stableStringify(before) === stableStringify(after)) changes.unchanged++;
      else changes.changed.push(key);
      merged.push([key, { ...after }]);
    } else if (before !== undefined) {
      if (prune) {
        changes.pruned.push(key);
      } else {
        changes.kept.push(key);
        merged.push([key, { ...before }]);
      }
    }
  }
  // fromEntries defines own properties, so even a kernel named __proto__ stays a key.
  return Object.fromEntries(merged);
}

/**
 * The committed form: sorted keys at every level (each section's keys in compareKeys order, dev2 before dev10), 2-space
 * indent, trailing newline. Same input, same bytes.
 */
export function serializeBaseline(baseline: Baseline): string {
  const text = stringifyDocument(baseline);
  // The one check before any baseline is written (baseline --out, update mode's file, commit and pull request): the
  // text is read back as `check` reads it, so a figure past 2^53 - 1 or any other schema violation is refused here.
  try {
    parseBaseline(text, '(baseline to write)');
  } catch (error) {
    if (error instanceof InputError)
      throw new InputError(`refusing to write a baseline the next check would refuse: ${error.message}`);
    throw error;
  }
  return text;
}

/** Writes a baseline so that readers see the old file or the new one, never half of one (common/atomic-write.ts). */
export async function writeBaselineAtomic(file: string, baseline: Baseline): Promise<void> {
  await writeFileAtomic(file, serializeBaseline(baseline));
}

function errorCode(err: unknown): unknown {
  return err !== null && typeof err === 'object' && 'code' in err ? err.code : undefined;
}

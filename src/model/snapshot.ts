// The metric model every parser fills and every later stage reads: the snapshot's types and its builder.
//
// A snapshot holds one map key → metric per declared section (src/model/sections/), timelines per section key, and parse
// statistics. Combining two metrics of one key, two series, or two whole snapshots never depends on the order: the same
// files give the same snapshot however they are split between threads, nodes or runs.
import {
  combineMetrics,
  section,
  type Fields,
  type Metric,
  type MetricFields,
  type MetricToWrite,
  type Section,
  type SectionDeclaration,
} from './sections/index.js';
import { compareKeys, fileKeyOrder } from './key-order.js';
import { isEmptyRecord, keysOf, noteWritten, setOwn } from './record-keys.js';
import { SeriesBuilder, type Series, type SeriesAxis } from './series.js';

/** The snapshot format written by this version; older versions are read (migrated), newer ones refused. */
export const SNAPSHOT_VERSION = 2;

/** Where an allocation failure was logged: shown in reports so an OOM can be found in the logs. */
export interface AllocFailureSite {
  file: string;
  line: number;
  /** The failure line, shortened to MAX_SITE_TEXT characters. */
  text: string;
}

/** Failure lines kept per device, the first by file and line. */
export const MAX_SITES_PER_DEVICE = 5;
const MAX_SITE_TEXT = 300;

export interface SnapshotMeta {
  files: number;
  records: number;
  skipped: number;
  /** Allocation-failure lines per device (`dev0`), with 0 for every device seen in a record. */
  allocFailures: Record<string, number>;
  /** The first failure lines per device (by file, then line), when any failure was seen. */
  allocFailureSites?: Record<string, AllocFailureSite[]>;
  /** Per node name, where the numbers come from (`snapshot` on a training node, or --env / --node-environment). */
  nodes?: Record<string, NodeProvenance>;
}

/** What one node's environment says: item (`cann`, `PYTORCH_NPU_ALLOC_CONF`, …) → value. */
export type EnvironmentItems = Record<string, string>;

/** One node's part of a run: its devices, what it read, and the environment behind its numbers. */
export interface NodeProvenance {
  /** Devices seen in its records (`dev0`, …), sorted. */
  devices: string[];
  files: number;
  records: number;
  skipped: number;
  /** Item (`cann`, `driver`, `PYTORCH_NPU_ALLOC_CONF`, …) → value. */
  environment: EnvironmentItems;
}

/** A section's metrics by key. */
export type SectionMetrics = Record<string, Metric>;

export interface Snapshot {
  version: 2;
  /** Section name → key → metric; only sections with at least one key are present. */
  sections: Record<string, SectionMetrics>;
  /** Section name → key → timeline of window peaks. */
  series: Record<string, Record<string, Series>>;
  meta: SnapshotMeta;
}

/** A record that looked like memory statistics but could not be read whole. */
export interface SkippedRecord {
  file: string;
  line: number;
  reason: string;
  /** The file ends inside this record (no line end after it): the writer probably died while writing it. */
  cut?: true;
}

/** A SnapshotBuilder's content as plain, structured-clonable data: what a parse worker posts back per file. */
export interface BuilderState {
  sections: ReadonlyMap<string, ReadonlyMap<string, Metric>>;
  series: ReadonlyMap<string, ReadonlyMap<string, Series>>;
  allocFailures: ReadonlyMap<string, number>;
  allocFailureSites: ReadonlyMap<string, readonly AllocFailureSite[]>;
  nodes: ReadonlyMap<string, NodeProvenance>;
  skippedRecords: readonly SkippedRecord[];
  notes: readonly SkippedRecord[];
  files: number;
  records: number;
  skipped: number;
}

/**
 * The metrics of one section (empty when the snapshot has none). Given the section's declaration, they are typed by its
 * fields: the baseline schema (files) and the builder's add() (parsers) hold every metric to them.
 */
export function metricsOf<F extends Fields>(
  snapshot: Pick<Snapshot, 'sections'>,
  section: Section<F>,
): Readonly<Record<string, MetricFields<F>>>;
/** The metrics of a section named at run time (code that walks every section), as plain records. */
export function metricsOf(snapshot: Pick<Snapshot, 'sections'>, name: string): SectionMetrics;
export function metricsOf(snapshot: Pick<Snapshot, 'sections'>, section: string | SectionDeclaration): SectionMetrics {
  const name = typeof section === 'string' ? section : section.name;
  return Object.hasOwn(snapshot.sections, name) ? (snapshot.sections[name] as SectionMetrics) : {};
}

/** Notes kept per run: one per file and kind is the usual case. */
const MAX_NOTES = 100;

/** Builds a snapshot from many files; per key the metric with the larger compared value wins whole, never summed. */
export class SnapshotBuilder {
  private readonly sections = new Map<string, Map<string, Metric>>();
  /**
   * Sections taken whole from snapshots (addSnapshot), in arrival order, while no other metric of that section has
   * arrived. One snapshot (a gate run on a stored run) hands its 160,000 metrics on without copying them into a Map and
   * out again; it keeps the file's key order, and whoever needs an order sorts (the gate, the reports,
   * stableStringify). Many snapshots whose keys arrive in fileKeyOrder with none twice (4,096 node snapshots read in
   * natural order of their paths, one device each) are joined by build() without a Map and without a sort.
   */
  private readonly parts = new Map<string, SectionMetrics[]>();
  private readonly series = new Map<string, Map<string, SeriesBuilder>>();
  private readonly allocFailures = new Map<string, number>();
  private readonly allocFailureSites = new Map<string, AllocFailureSite[]>();
  private readonly nodes = new Map<string, NodeProvenance>();
  readonly skippedRecords: SkippedRecord[] = [];
  /** What a reader noticed and worked around without skipping anything (µs under a Timestamp(ns) header): warnings. */
  readonly notes: SkippedRecord[] = [];
  files = 0;
  records = 0;
  skipped = 0;
  private lastDeclaration: SectionDeclaration | undefined;

  /**
   * Keeps a metric of a key: several dumps, processes, files or ranks for one key combine, the larger compared value
   * winning whole (src/model/sections/). With `copy` false the metric is kept as it is: data nobody changes (a snapshot
   * file's, another builder's), which 4,096 node snapshots would otherwise copy 160,000 times.
   */
  private putMetric(sectionName: string, key: string, metric: Metric, copy: boolean): void {
    const declaration = this.declaration(sectionName);
    const metrics = this.sections.get(sectionName) ?? this.sectionMap(sectionName);
    const prev = metrics.get(key);
    if (prev === undefined) metrics.set(key, copy ? { ...metric } : metric);
    else {
      const kept = combineMetrics(declaration, prev, metric);
      if (kept !== prev) metrics.set(key, copy ? { ...kept } : kept);
    }
  }

  /**
   * One metric of a section, its fields checked against the section's declaration where the parser writes it. The only
   * write of one metric: code that walks sections named at run time hands whole ones over (merge, addSnapshot).
   */
  add<F extends Fields>(section: Section<F>, key: string, metric: MetricToWrite<F>): void {
    this.putMetric(section.name, key, metric, true);
  }

  /** One sample of a section key's timeline: x in microseconds (`time`) or a step number (`step`), y in bytes. */
  addSample(sectionName: string, key: string, axis: SeriesAxis, x: number, y: number): void {
    this.seriesBuilder(sectionName, key, axis).add(x, y);
  }

  /** A whole timeline of a section key, folded into what this builder has. */
  addSeries(sectionName: string, key: string, series: Series): void {
    this.seriesBuilder(sectionName, key, series.axis).addSeries(series);
  }

  /** Marks a device as seen, so that allocFailures lists it with 0. */
  noteDevice(device: string): void {
    if (!this.allocFailures.has(device)) this.allocFailures.set(device, 0);
  }

  /** Allocation failures on a device (`unknown` when the line names none), and where the first ones were logged. */
  addAllocFailure(device: string, count = 1, where?: AllocFailureSite): void {
    this.allocFailures.set(device, (this.allocFailures.get(device) ?? 0) + count);
    if (where !== undefined) this.addSite(device, where);
  }

  /** A node's provenance; the same node twice (two snapshots of one machine) folds into one, whatever the order. */
  addNode(name: string, node: NodeProvenance): void {
    const prev = this.nodes.get(name);
    this.nodes.set(name, prev === undefined ? cloneNode(node) : combineNodes(prev, node));
  }

  /** The failure sites kept so far for a device (the first by file, then line). */
  allocFailureSitesOf(device: string): readonly AllocFailureSite[] | undefined {
    return this.allocFailureSites.get(device);
  }

  addSkipped(record: SkippedRecord): void {
    this.skipped++;
    // Keep a bounded sample for warnings: a garbage file must not grow memory without bound. A file's cut-off last
    // record is kept past the sample (at most one per file, bounded too): it says where the job died.
    if (this.skippedRecords.length < 1000 || (record.cut === true && this.skippedRecords.length < 2000))
      this.skippedRecords.push(record);
  }

  /** A warning about a file that loses nothing (the reader decided how to read it): a bounded sample is kept. */
  addNote(note: SkippedRecord): void {
    if (this.notes.length < MAX_NOTES) this.notes.push(note);
  }

  /** Folds another builder's results in, as if its files had been read after this one's. */
  merge(from: SnapshotBuilder | BuilderState): void {
    const other = from instanceof SnapshotBuilder ? from.toState() : from;
    for (const [name, metrics] of other.sections) for (const [k, v] of metrics) this.putMetric(name, k, v, false);
    for (const [name, byKey] of other.series) for (const [k, s] of byKey) this.addSeries(name, k, s);
    for (const [d, n] of other.allocFailures) {
      this.noteDevice(d);
      this.addAllocFailure(d, n);
    }
    for (const [d, sites] of other.allocFailureSites) for (const site of sites) this.addSite(d, site);
    for (const [name, node] of other.nodes) this.addNode(name, node);
    this.files += other.files;
    this.records += other.records;
    this.skipped += other.skipped;
    for (const r of other.skippedRecords)
      if (this.skippedRecords.length < 1000 || (r.cut === true && this.skippedRecords.length < 2000))
        this.skippedRecords.push(r);
    for (const n of other.notes) this.addNote(n);
  }

  /** Folds a finished snapshot in (a node's snapshot, a stored run): the same result as parsing its files here. */
  addSnapshot(snapshot: Snapshot): void {
    for (const [name, metrics] of Object.entries(snapshot.sections)) {
      if (!this.sections.has(name)) {
        this.declaration(name);
        const parts = this.parts.get(name);
        if (parts === undefined) this.parts.set(name, [metrics]);
        else parts.push(metrics);
        continue;
      }
      for (const k of Object.keys(metrics)) this.putMetric(name, k, metrics[k] as Metric, false);
    }
    for (const [name, byKey] of Object.entries(snapshot.series))
      for (const [k, s] of Object.entries(byKey)) this.addSeries(name, k, s);
    for (const [d, n] of Object.entries(snapshot.meta.allocFailures)) {
      this.noteDevice(d);
      this.addAllocFailure(d, n);
    }
    for (const [d, sites] of Object.entries(snapshot.meta.allocFailureSites ?? {}))
      for (const site of sites) this.addSite(d, site);
    for (const [name, node] of Object.entries(snapshot.meta.nodes ?? {})) this.addNode(name, node);
    this.files += snapshot.meta.files;
    this.records += snapshot.meta.records;
    this.skipped += snapshot.meta.skipped;
  }

  /**
   * Everything this builder holds, as plain data that survives structured cloning (postMessage to or from a worker
   * thread: Maps keep their insertion order there). `merge(state)` folds it in exactly as `merge(builder)` would.
   */
  toState(): BuilderState {
    for (const name of [...this.parts.keys()]) this.sectionMap(name);
    const series = new Map<string, Map<string, Series>>();
    for (const [name, byKey] of this.series) series.set(name, new Map([...byKey].map(([k, b]) => [k, b.toSeries()])));
    return {
      sections: this.sections,
      series,
      allocFailures: this.allocFailures,
      allocFailureSites: this.allocFailureSites,
      nodes: this.nodes,
      skippedRecords: this.skippedRecords,
      notes: this.notes,
      files: this.files,
      records: this.records,
      skipped: this.skipped,
    };
  }

  build(): Snapshot {
    const sections: Record<string, SectionMetrics> = {};
    for (const name of [...new Set([...this.sections.keys(), ...this.parts.keys()])].sort()) {
      const parts = this.parts.get(name);
      if (parts?.length === 1) {
        const adopted = parts[0] as SectionMetrics;
        if (!isEmptyRecord(adopted)) sections[name] = adopted;
        continue;
      }
      if (parts !== undefined) {
        const joined = joinInOrder(parts);
        if (joined !== undefined) {
          if (!isEmptyRecord(joined)) sections[name] = joined;
          continue;
        }
      }
      const metrics = this.sections.get(name) ?? this.sectionMap(name);
      // Keys in fileKeyOrder and fields in code-unit order: the order stringifyDocument writes and snapshot files
      // are read back in, so writing 160,000 metrics copies nothing and the gate's union of two sides is a linear merge.
      if (metrics.size > 0) {
        const keys = [...metrics.keys()].sort(fileKeyOrder);
        const record: SectionMetrics = {};
        for (const key of keys) setOwn(record, key, fieldsInOrder(metrics.get(key) as Metric));
        noteWritten(record, keys);
        sections[name] = record;
      }
    }
    const series: Record<string, Record<string, Series>> = {};
    for (const name of [...this.series.keys()].sort()) {
      const byKey = this.series.get(name) as Map<string, SeriesBuilder>;
      series[name] = sortedRecord(new Map([...byKey].map(([k, b]) => [k, b.toSeries()])), fileKeyOrder);
    }
    const meta: SnapshotMeta = {
      files: this.files,
      records: this.records,
      skipped: this.skipped,
      allocFailures: sortedRecord(this.allocFailures, compareKeys),
    };
    if (this.allocFailureSites.size > 0) meta.allocFailureSites = sortedRecord(this.allocFailureSites, compareKeys);
    if (this.nodes.size > 0)
      meta.nodes = sortedRecord(new Map([...this.nodes].map(([name, node]) => [name, cloneNode(node)])), compareKeys);
    return { version: SNAPSHOT_VERSION, sections, series, meta };
  }

  private declaration(name: string): SectionDeclaration {
    if (this.lastDeclaration?.name === name) return this.lastDeclaration;
    this.lastDeclaration = section(name);
    return this.lastDeclaration;
  }

  /** The section's Map, made on first use; the sections taken whole are folded into it first, in arrival order. */
  private sectionMap(name: string): Map<string, Metric> {
    const metrics = new Map<string, Metric>();
    const parts = this.parts.get(name) ?? [];
    this.parts.delete(name);
    this.sections.set(name, metrics);
    for (const part of parts) for (const key of keysOf(part)) this.putMetric(name, key, part[key] as Metric, false);
    return metrics;
  }

  private seriesBuilder(sectionName: string, key: string, axis: SeriesAxis): SeriesBuilder {
    this.declaration(sectionName);
    let byKey = this.series.get(sectionName);
    if (byKey === undefined) {
      byKey = new Map();
      this.series.set(sectionName, byKey);
    }
    let builder = byKey.get(key);
    if (builder === undefined) {
      builder = new SeriesBuilder(axis);
      byKey.set(key, builder);
    } else if (builder.axis !== axis) {
      throw new Error(`series ${sectionName}/${key} is on the ${builder.axis} axis, not ${axis}`);
    }
    return builder;
  }

  /** Keeps the first MAX_SITES_PER_DEVICE sites by (file, line): the same whatever order files are read in. */
  private addSite(device: string, where: AllocFailureSite): void {
    const site = {
      file: where.file,
      line: where.line,
      text: where.text.length > MAX_SITE_TEXT ? `${where.text.slice(0, MAX_SITE_TEXT - 1)}…` : where.text,
    };
    const sites = this.allocFailureSites.get(device) ?? [];
    if (sites.some((s) => s.file === site.file && s.line === site.line)) return;
    sites.push(site);
    sites.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
    if (sites.length > MAX_SITES_PER_DEVICE) sites.length = MAX_SITES_PER_DEVICE;
    this.allocFailureSites.set(device, sites);
  }
}

function cloneNode(node: NodeProvenance): NodeProvenance {
  const environment = Object.fromEntries(
    Object.keys(node.environment)
      .sort()
      .map((k) => [k, node.environment[k] as string]),
  );
  return {
    devices: [...node.devices].sort(compareKeys),
    files: node.files,
    records: node.records,
    skipped: node.skipped,
    environment,
  };
}

/** Devices united, counts added, per item the larger value: associative and commutative. */
function combineNodes(a: NodeProvenance, b: NodeProvenance): NodeProvenance {
  const environment = { ...a.environment };
  for (const [item, value] of Object.entries(b.environment)) {
    // Own properties only, defined rather than assigned: an item may be called `constructor` or `__proto__`.
    const prev = Object.hasOwn(environment, item) ? environment[item] : undefined;
    if (prev === undefined || value > prev)
      Object.defineProperty(environment, item, { value, enumerable: true, writable: true, configurable: true });
  }
  return cloneNode({
    devices: [...new Set([...a.devices, ...b.devices])],
    files: a.files + b.files,
    records: a.records + b.records,
    skipped: a.skipped + b.skipped,
    environment,
  });
}

/**
 * Sections taken whole, joined into one record as build() would make it from a Map of them (keys in fileKeyOrder,
 * fields in code-unit order), or undefined when their keys do not arrive in strictly increasing fileKeyOrder (a key
 * twice, or out of order), and the Map must combine and sort them. Keys that arrive so are one ascending run, which
 * the Map path's sort leaves as it is: the same record, without 160,000 Map entries (merging 4,096 node snapshots:
 * 1.44 -> 1.27 s median in paired runs).
 */
export function joinInOrder(parts: readonly SectionMetrics[]): SectionMetrics | undefined {
  const record: SectionMetrics = {};
  const keys: string[] = [];
  let previous: string | undefined;
  for (const part of parts) {
    for (const key of keysOf(part)) {
      if (previous !== undefined && fileKeyOrder(previous, key) >= 0) return undefined;
      setOwn(record, key, fieldsInOrder(part[key] as Metric));
      keys.push(key);
      previous = key;
    }
  }
  noteWritten(record, keys);
  return record;
}

/**
 * The metric with its fields in code-unit order: itself when they already are (a snapshot file's metrics), else a copy
 * (parsers list fields in the declaration's order: peak, current, allocs, frees). Done once per key in build(), not per
 * record: on the record-dense plog corpus a per-record copy cost ~0.35 s.
 */
function fieldsInOrder(metric: Metric): Metric {
  const keys = Object.keys(metric);
  let inOrder = true;
  for (let i = 1; inOrder && i < keys.length; i++) inOrder = (keys[i - 1] as string) < (keys[i] as string);
  if (inOrder) return metric;
  const copy: Record<string, number | string | null> = {};
  for (const key of keys.sort()) setOwn(copy, key, metric[key] as number | string | null);
  return copy;
}

/** The map as a record, keys in `order`. */
function sortedRecord<V>(map: Map<string, V>, order: (a: string, b: string) => number): Record<string, V> {
  const record: Record<string, V> = {};
  for (const key of [...map.keys()].sort(order)) setOwn(record, key, map.get(key) as V);
  return record;
}

/** True when the snapshot holds no metric in any section: nothing to compare with a baseline. */
export function hasNoMetrics(snapshot: Pick<Snapshot, 'sections'>): boolean {
  return Object.values(snapshot.sections).every(isEmptyRecord);
}

/** Allocation failures over every device. */
function totalAllocFailures(meta: Pick<SnapshotMeta, 'allocFailures'>): number {
  return Object.values(meta.allocFailures).reduce((a, b) => a + b, 0);
}

/**
 * True when the snapshot holds no evidence at all: no metric, no timeline and no allocation failure. Such a run must
 * fail loudly (exit 2), never pass. A run that only logged allocation failures (a job that died of an out-of-memory)
 * is evidence: the gate fails it with alloc-failure.
 */
export function isEmptySnapshot(snapshot: Pick<Snapshot, 'sections' | 'series' | 'meta'>): boolean {
  return hasNoMetrics(snapshot) && Object.keys(snapshot.series).length === 0 && totalAllocFailures(snapshot.meta) === 0;
}

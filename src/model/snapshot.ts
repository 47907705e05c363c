// The metric model every parser fills and every later stage reads, and its stable JSON form.
//
// A snapshot holds one map key → metric per declared section (src/model/sections/), timelines per section key, and parse
// statistics. Combining two metrics of one key, two series, or two whole snapshots never depends on the order: the same
// files give the same snapshot however they are split between threads, nodes or runs.
import { combineMetrics, section, type Metric, type SectionDeclaration } from './sections/index.js';
import { SeriesBuilder, type Series, type SeriesAxis } from './series.js';

/** The snapshot format written by this version; older versions are read (migrated), newer ones refused. */
export const SNAPSHOT_VERSION = 2;

/** One `<ATTR>[/dev<N>]/<MODULE>` line of the driver's memory statistics (section `modules`). */
export type ModuleMetric = {
  /** alloced/allocated_peak_size, total_size for DEV_PROC_MEM, the size for CACHED. */
  peak: number;
  /** current_alloced_size, or the peak where the format has none. */
  current: number;
  allocs: number | null;
  frees: number | null;
};

/** Per-kernel aggregate of a memory_compare CSV: `dev<D>/<Name>` (section `kernels`). */
export type KernelMetric = {
  /** Sum of Diff Memory over every row (launch) of this kernel on this device. */
  diff: number;
  rows: number;
  /** Rows whose Base is N/A: launches only in the compare run. */
  added: number;
  /** Rows whose Compare is N/A: launches only in the base run. */
  removed: number;
  /** KERNEL_LAUNCH / OP_LAUNCH, or null for header generations without an Event column. */
  event: string | null;
};

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

/** The metrics of one section (empty when the snapshot has none). */
export function metricsOf(snapshot: Pick<Snapshot, 'sections'>, name: string): SectionMetrics {
  return Object.hasOwn(snapshot.sections, name) ? (snapshot.sections[name] as SectionMetrics) : {};
}

/** The `modules` section with its declared field types (the schema or the plog parser guarantees them). */
export function modulesOf(snapshot: Pick<Snapshot, 'sections'>): Record<string, ModuleMetric> {
  return metricsOf(snapshot, 'modules') as Record<string, ModuleMetric>;
}

/** The `kernels` section with its declared field types. */
export function kernelsOf(snapshot: Pick<Snapshot, 'sections'>): Record<string, KernelMetric> {
  return metricsOf(snapshot, 'kernels') as Record<string, KernelMetric>;
}

/** Builds a snapshot from many files; per key the metric with the larger compared value wins whole, never summed. */
/** Notes kept per run: one per file and kind is the usual case. */
const MAX_NOTES = 100;

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

  /** Several dumps, processes, files or ranks for one key: the larger compared value wins whole (src/model/sections/). */
  addMetric(sectionName: string, key: string, metric: Metric): void {
    this.putMetric(sectionName, key, metric, true);
  }

  /**
   * addMetric; with `copy` false the metric is kept as it is: data nobody changes (a snapshot file's, another builder's),
   * which 4,096 node snapshots would otherwise copy 160,000 times.
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

  /** A plog statistics record: section `modules`. */
  addModule(key: string, metric: ModuleMetric): void {
    this.addMetric('modules', key, metric);
  }

  /** A memory_compare aggregate: section `kernels`. */
  addKernel(key: string, metric: KernelMetric): void {
    this.addMetric('kernels', key, metric);
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
        asWritten.add(record);
        noteKeys(record, keys);
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
  asWritten.add(record);
  noteKeys(record, keys);
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

/**
 * Section records that build() made: keys in fileKeyOrder, each metric's fields in code-unit order, which is how
 * stringifyDocument writes them, so it need not check 160,000 keys again (~0.2 s of merging 4,096 node snapshots).
 * Nothing in this program adds a key to a section record or a field to a metric once it is built.
 */
const asWritten = new WeakSet<object>();

/** The map as a record, keys in `order`. */
function sortedRecord<V>(map: Map<string, V>, order: (a: string, b: string) => number): Record<string, V> {
  const record: Record<string, V> = {};
  for (const key of [...map.keys()].sort(order)) setOwn(record, key, map.get(key) as V);
  return record;
}

/** record[key] = value without a [key, value] pair per entry, and a key named `__proto__` stays a key (not the prototype). */
function setOwn<V>(record: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/**
 * Orders keys so that dev2 sorts before dev10 and the table reads naturally: exactly the order of
 * `Intl.Collator('en', {numeric: true})`, which it falls back to whenever its fast path for printable ASCII cannot decide.
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const fast = compareAsciiKeys(a, b);
  if (fast !== undefined) return fast;
  return (keyCollator ??= checkedCollator()).compare(a, b);
}

// One collator for all comparisons: localeCompare builds one per call, 3 s for 100k keys. Built on first use, which
// most runs never reach: the first collator of a process costs ~10 ms on Node 20 and ~50 ms on Node 24 (ICU's data).
let keyCollator: Intl.Collator | undefined;

/**
 * The collator's primary order of the printable ASCII characters 0x20-0x7e, as primaryRanks derives it from ICU (the
 * same in ICU 78.2 of Node 20 and 78.3 of Node 24): a letter and its capital share a rank (they differ only at the
 * tertiary level, which the fast path leaves to the collator); digits rank as the number group. Written out so that a
 * run whose keys the fast path orders alone never builds a collator; a test and checkedCollator compare it with ICU's.
 */
export const ASCII_PRIMARY_RANKS: Int16Array = Int16Array.from([
  ...new Array<number>(0x20).fill(-1),
  0,
  6,
  10,
  22,
  32,
  23,
  21,
  9,
  11,
  12,
  18,
  26,
  3,
  2,
  8,
  19,
  33,
  34,
  35,
  36,
  37,
  38,
  39,
  40,
  41,
  42,
  5,
  4,
  27,
  28,
  29,
  7,
  17,
  43,
  44,
  45,
  46,
  47,
  48,
  49,
  50,
  51,
  52,
  53,
  54,
  55,
  56,
  57,
  58,
  59,
  60,
  61,
  62,
  63,
  64,
  65,
  66,
  67,
  68,
  13,
  20,
  14,
  25,
  1,
  24,
  43,
  44,
  45,
  46,
  47,
  48,
  49,
  50,
  51,
  52,
  53,
  54,
  55,
  56,
  57,
  58,
  59,
  60,
  61,
  62,
  63,
  64,
  65,
  66,
  67,
  68,
  15,
  30,
  16,
  31,
  -1,
]);

/**
 * The numeric collator, after checking that this ICU ranks printable ASCII as `table` (the fast path's) says. If it
 * does not, the fast path and the collator could disagree within one sort, so the run stops rather than write keys in
 * an order that depends on how they arrived.
 */
export function checkedCollator(table: Int16Array = ASCII_PRIMARY_RANKS): Intl.Collator {
  const derived = primaryRanks();
  if (derived.some((rank, c) => rank !== table[c])) {
    throw new Error(
      `this Node.js's ICU ${process.versions.icu ?? '(unknown version)'} orders ASCII characters differently from ascend-memory-gate's built-in table; run the gate with the Node.js version its Action declares, and report this`,
    );
  }
  return new Intl.Collator('en', { numeric: true });
}

/** The collator's primary ranks of printable ASCII, derived from ICU (what ASCII_PRIMARY_RANKS holds). */
export function primaryRanks(): Int16Array {
  const base = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  const chars = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).sort(base.compare);
  const ranks = new Int16Array(0x80).fill(-1);
  let rank = 0;
  for (let i = 0; i < chars.length; i++) {
    if (i > 0 && base.compare(chars[i - 1] as string, chars[i] as string) !== 0) rank++;
    ranks[(chars[i] as string).charCodeAt(0)] = rank;
  }
  return ranks;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isPrintable = (c: number): boolean => c >= 0x20 && c <= 0x7e;

/**
 * The collator's answer when a primary (base-letter or number) difference decides it, reading only printable ASCII up
 * to that difference; undefined when it cannot tell (no primary difference: the keys differ only in case or leading
 * zeros; another character; a control character), and the collator decides. `i` and `j` walk `a` and `b`: they part
 * after numbers that are equal but written with different leading zeros (`_07f` against `_7d`).
 */
function compareAsciiKeys(a: string, b: string): number | undefined {
  const ranks = ASCII_PRIMARY_RANKS;
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && j < b.length) {
      const c = a.charCodeAt(i);
      if (c !== b.charCodeAt(j)) break;
      if (!isPrintable(c)) return undefined;
      i++;
      j++;
    }
    // In a number (the common part ends in a digit, or a digit differs), the whole digit runs compare by value.
    const ca = i < a.length ? a.charCodeAt(i) : -1;
    const cb = j < b.length ? b.charCodeAt(j) : -1;
    if ((i > 0 && isDigit(a.charCodeAt(i - 1))) || isDigit(ca) || isDigit(cb)) {
      // The digits right before i and j were read in step, so they are the same on both sides.
      let back = 0;
      while (i - back > 0 && isDigit(a.charCodeAt(i - back - 1))) back++;
      const startA = i - back;
      const startB = j - back;
      let endA = i;
      while (endA < a.length && isDigit(a.charCodeAt(endA))) endA++;
      let endB = j;
      while (endB < b.length && isDigit(b.charCodeAt(endB))) endB++;
      // A run that goes on in another script's digits (full-width, Arabic-Indic), or past an ignorable control
      // character, may be one longer number to the collator.
      if (
        (endA < a.length && !isPrintable(a.charCodeAt(endA))) ||
        (endB < b.length && !isPrintable(b.charCodeAt(endB)))
      )
        return undefined;
      if (endA > startA && endB > startB && (endA > i || endB > j)) {
        const order = compareDigitRuns(a, startA, endA, b, startB, endB);
        if (order !== undefined) return order;
        // The same number (leading zeros differ): the collator reads on after it, and so does this.
        i = endA;
        j = endB;
        continue;
      }
      // One side has no digit here: a number against a character (or the end) ranks like its first digit.
      if (endA === startA && endB > startB) return rankAgainst(ca, ranks);
      if (endB === startB && endA > startA) {
        const flipped = rankAgainst(cb, ranks);
        return flipped === undefined ? undefined : -flipped;
      }
      // Both runs end here: the numbers are equal and identical, the characters after them decide.
    }
    if (ca === -1 || cb === -1) {
      // One key ends first: the shorter sorts first when the longer goes on with a printable character.
      const next = ca === -1 ? cb : ca;
      if (!isPrintable(next)) return undefined;
      return ca === -1 ? -1 : 1;
    }
    if (!isPrintable(ca) || !isPrintable(cb)) return undefined;
    const ra = ranks[ca] as number;
    const rb = ranks[cb] as number;
    if (ra !== rb) return ra < rb ? -1 : 1;
    // A letter against its capital: the collator weighs case only when no primary difference follows anywhere in the
    // keys (`Add_7` sorts after `aclnnAdd`: c before d), so read on. Kernel names mix cases (aclnn…, Add_…, MatMul…);
    // stopping here built the collator, and ~1,300 of its comparisons, in every run that held such names.
    i++;
    j++;
  }
}

/** A non-digit character (or the end, -1) against a number, which ranks with the digits: the sign, or undefined. */
function rankAgainst(c: number, ranks: Int16Array): number | undefined {
  if (c === -1) return -1;
  if (!isPrintable(c)) return undefined;
  return (ranks[c] as number) < (ranks[0x30] as number) ? -1 : 1;
}

/** Two digit runs by value (leading zeros ignored); undefined when the values are equal (the collator breaks that tie). */
function compareDigitRuns(
  a: string,
  startA: number,
  endA: number,
  b: string,
  startB: number,
  endB: number,
): number | undefined {
  while (startA < endA - 1 && a.charCodeAt(startA) === 0x30) startA++;
  while (startB < endB - 1 && b.charCodeAt(startB) === 0x30) startB++;
  const lengthA = endA - startA;
  const lengthB = endB - startB;
  if (lengthA !== lengthB) return lengthA < lengthB ? -1 : 1;
  for (let k = 0; k < lengthA; k++) {
    const d = a.charCodeAt(startA + k) - b.charCodeAt(startB + k);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return undefined;
}

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

/**
 * The order of a section's keys in files: compareKeys, and code-unit order where it sees a tie (`dev1` and `dev01` are
 * the same number to it), so that the same keys are written in the same order whatever order they were merged in.
 */
export function fileKeyOrder(a: string, b: string): number {
  return compareKeys(a, b) || (a < b ? -1 : a > b ? 1 : 0);
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
  if (asWritten.has(record)) return record;
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

/** True when the snapshot holds no metric in any section: nothing to compare with a baseline. */
export function hasNoMetrics(snapshot: Pick<Snapshot, 'sections'>): boolean {
  return Object.values(snapshot.sections).every(isEmptyRecord);
}

/**
 * No own key at all. A record of 100,000 keys is a dictionary, and for...in on one lists and orders every key before it
 * yields the first (~30 ms), so a record once seen to hold a key is remembered: nothing in this program deletes a
 * section's key. A record whose keys are known (keysOf) answers from them.
 */
function isEmptyRecord(record: object): boolean {
  const known = knownKeys.get(record);
  if (known !== undefined) return known.length === 0;
  if (holdsKeys.has(record)) return false;
  for (const key in record) {
    if (Object.hasOwn(record, key)) {
      holdsKeys.add(record);
      return false;
    }
  }
  return true;
}

const holdsKeys = new WeakSet<object>();

/**
 * Own keys of section records, listed once by a pass that had to list them anyway (the direct section check of a file,
 * build()), for the gate and the device findings, which read each side's keys again: Object.keys on a 100,000-key
 * dictionary costs ~25 ms, and a 4,096-device check asked for six of them. Nothing in this program adds a key to a
 * section record or deletes one once it is read or built.
 */
const knownKeys = new WeakMap<object, readonly string[]>();

/** Records `keys` as the own keys of `record` (read-only from now on, as the record is). */
export function noteKeys(record: object, keys: readonly string[]): void {
  knownKeys.set(record, keys);
}

/** The own keys of a section record, in its order: the list noted for it, else Object.keys. Callers must not change it. */
export function keysOf(record: object): readonly string[] {
  return knownKeys.get(record) ?? Object.keys(record);
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

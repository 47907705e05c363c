// The metric model every parser fills and every later stage reads, and its stable JSON form.

/** One `<ATTR>[/dev<N>]/<MODULE>` line of the driver's memory statistics. */
export interface ModuleMetric {
  /** alloced/allocated_peak_size, total_size for DEV_PROC_MEM, the size for CACHED. */
  peak: number;
  /** current_alloced_size, or the peak where the format has none. */
  current: number;
  allocs: number | null;
  frees: number | null;
}

/** Per-kernel aggregate of a memory_compare CSV: `dev<D>/<Name>`. */
export interface KernelMetric {
  /** Sum of Diff Memory over every row (launch) of this kernel on this device. */
  diff: number;
  rows: number;
  /** Rows whose Base is N/A: launches only in the compare run. */
  added: number;
  /** Rows whose Compare is N/A: launches only in the base run. */
  removed: number;
  /** KERNEL_LAUNCH / OP_LAUNCH, or null for header generations without an Event column. */
  event: string | null;
}

export interface SnapshotMeta {
  files: number;
  records: number;
  skipped: number;
  /** Allocation-failure lines per device (`dev0`), with 0 for every device seen in a record. */
  allocFailures: Record<string, number>;
}

export interface Snapshot {
  version: 1;
  modules: Record<string, ModuleMetric>;
  kernels: Record<string, KernelMetric>;
  meta: SnapshotMeta;
}

/** A record that looked like memory statistics but could not be read whole. */
export interface SkippedRecord {
  file: string;
  line: number;
  reason: string;
}

/** A SnapshotBuilder's content as plain, structured-clonable data: what a parse worker posts back per file. */
export interface BuilderState {
  modules: ReadonlyMap<string, ModuleMetric>;
  kernels: ReadonlyMap<string, KernelMetric>;
  allocFailures: ReadonlyMap<string, number>;
  skippedRecords: readonly SkippedRecord[];
  files: number;
  records: number;
  skipped: number;
}

/** Builds a snapshot from many files; keeps the record with the largest value per key, never sums across files. */
export class SnapshotBuilder {
  private readonly modules = new Map<string, ModuleMetric>();
  private readonly kernels = new Map<string, KernelMetric>();
  private readonly allocFailures = new Map<string, number>();
  readonly skippedRecords: SkippedRecord[] = [];
  files = 0;
  records = 0;
  skipped = 0;

  /** Several dumps, processes or ranks for one key: the largest peak wins whole; on a tie the later one. */
  addModule(key: string, metric: ModuleMetric): void {
    const prev = this.modules.get(key);
    if (prev === undefined || metric.peak >= prev.peak) this.modules.set(key, { ...metric });
  }

  /** Each file is one node's view of a kernel: the aggregate with the larger diff wins; on a tie the later one. */
  addKernel(key: string, metric: KernelMetric): void {
    const prev = this.kernels.get(key);
    if (prev === undefined || metric.diff >= prev.diff) this.kernels.set(key, { ...metric });
  }

  /** Marks a device as seen, so that allocFailures lists it with 0. */
  noteDevice(device: string): void {
    if (!this.allocFailures.has(device)) this.allocFailures.set(device, 0);
  }

  addAllocFailure(device: string, count = 1): void {
    this.allocFailures.set(device, (this.allocFailures.get(device) ?? 0) + count);
  }

  addSkipped(record: SkippedRecord): void {
    this.skipped++;
    // Keep a bounded sample for warnings: a garbage file must not grow memory without bound.
    if (this.skippedRecords.length < 1000) this.skippedRecords.push(record);
  }

  /** Folds another builder's results in, as if its files had been read after this one's. */
  merge(from: SnapshotBuilder | BuilderState): void {
    const other = from instanceof SnapshotBuilder ? from.toState() : from;
    for (const [k, v] of other.modules) this.addModule(k, v);
    for (const [k, v] of other.kernels) this.addKernel(k, v);
    for (const [d, n] of other.allocFailures) {
      this.noteDevice(d);
      this.addAllocFailure(d, n);
    }
    this.files += other.files;
    this.records += other.records;
    this.skipped += other.skipped;
    for (const r of other.skippedRecords) if (this.skippedRecords.length < 1000) this.skippedRecords.push(r);
  }

  /**
   * Everything this builder holds, as plain data that survives structured cloning (postMessage to or from a worker
   * thread: Maps keep their insertion order there). `merge(state)` folds it in exactly as `merge(builder)` would.
   */
  toState(): BuilderState {
    return {
      modules: this.modules,
      kernels: this.kernels,
      allocFailures: this.allocFailures,
      skippedRecords: this.skippedRecords,
      files: this.files,
      records: this.records,
      skipped: this.skipped,
    };
  }

  build(): Snapshot {
    return {
      version: 1,
      modules: sortedRecord(this.modules),
      kernels: sortedRecord(this.kernels),
      meta: {
        files: this.files,
        records: this.records,
        skipped: this.skipped,
        allocFailures: sortedRecord(this.allocFailures),
      },
    };
  }
}

function sortedRecord<V>(map: Map<string, V>): Record<string, V> {
  // fromEntries, not assignment: a kernel named `__proto__` must stay a key.
  return Object.fromEntries([...map.keys()].sort(compareKeys).map((key) => [key, map.get(key) as V]));
}

/** Orders keys so that dev2 sorts before dev10 and the table reads naturally. */
export function compareKeys(a: string, b: string): number {
  keyCollator ??= new Intl.Collator('en', { numeric: true });
  return keyCollator.compare(a, b);
}

// One collator for all comparisons: localeCompare builds one per call, 3 s for 100k keys. Built on first use: it costs
// ~9 ms, which parse workers (they never sort) and runs that stop early should not pay at start-up.
let keyCollator: Intl.Collator | undefined;

/** JSON with object keys sorted at every level, 2-space indent and a trailing newline: diffs review well. */
export function stableStringify(value: unknown): string {
  return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortDeep(record[key])]));
  }
  return value;
}

/** True when the snapshot holds no metric at all: a run that must fail loudly, never pass. */
export function isEmptySnapshot(snapshot: Pick<Snapshot, 'modules' | 'kernels'>): boolean {
  return Object.keys(snapshot.modules).length === 0 && Object.keys(snapshot.kernels).length === 0;
}

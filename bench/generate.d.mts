// Types of bench/generate.mjs, so the TypeScript tests can import the corpus generator.
import type { Snapshot } from '../src/model/snapshot.js';

export interface GenerateOptions {
  /** Directory to write into (created if missing). */
  out: string;
  /** Total plog bytes over all ranks: a number or "1GiB", "64MiB". Default 1 GiB. */
  plogBytes?: number | string;
  /** Rank folders `plog/rank_<r>/`. Default 8. */
  ranks?: number;
  /** Data rows of the big memory_compare CSV; 0 writes no CSV at all. Default 1,000,000. */
  csvRows?: number;
  /** Devices: rank r runs on device r % devices; the CSV covers them all. Default 8. */
  devices?: number;
  /** PRNG seed: the same options give the same bytes. Default 42. */
  seed?: number;
  /** A plog file rotates once it reaches this size. Default 20 MiB, as the driver does. */
  rotateBytes?: number | string;
  /** Also write the two older CSV header generations into `compare-legacy/`. Default true (with csvRows > 0). */
  legacyCsv?: boolean;
  /** Share of plog lines that are records (a record-dense, failure-heavy run), in [0, 0.5). Default 0: one dump at exit. */
  recordShare?: number;
  /** Share of CSV rows whose kernel name needs RFC 4180 quoting, in [0, 0.5). Default 0. */
  quotedShare?: number;
}

export interface GenerateResult {
  out: string;
  /** `out/plog`: the tree to pass as --plog. */
  plogDir: string;
  /** The big current-header CSV, or null with csvRows 0. */
  csvPath: string | null;
  /** `out/compare-legacy` with the Mar–Jul 2025 and Feb 2025 header files, or null. */
  legacyDir: string | null;
  options: Required<Omit<GenerateOptions, 'plogBytes' | 'rotateBytes'>> & { plogBytes: number; rotateBytes: number };
  plog: {
    files: number;
    bytes: number;
    records: number;
    truncated: number;
    glued: number;
    wrapped: number;
    allocFailures: number;
  };
  csv: { rows: number; bytes: number };
  /** The snapshots also written as expected-plog.json, expected-compare.json, expected.json, expected-compare-legacy.json. */
  expected: { plog: Snapshot; compare: Snapshot | null; all: Snapshot; legacy: Snapshot | null };
}

export declare const DEFAULTS: Readonly<Required<Omit<GenerateOptions, 'out'>>>;
export declare const CSV_NAME: string;
export declare const LEGACY_CSV_NAMES: readonly string[];
export declare function generate(opts: GenerateOptions): Promise<GenerateResult>;
export declare function parseSize(value: number | string): number;
export declare function stableStringify(value: unknown): string;

export interface MemoryRecordResult {
  path: string;
  /** Data rows written (APP, PTA and PTA+GE). */
  rows: number;
  bytes: number;
  /** What `parse --profiler` must find: the components section and meta.records. */
  expected: { components: Record<string, { peak: number }>; records: number };
}

/** `<rank>_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv`, relative to a corpus directory. */
export declare const MEMORY_RECORD_NAME: string;
/** Writes a torch_npu memory_record.csv of about `bytes` bytes (at least 16 MiB) for one device. */
export declare function generateMemoryRecord(opts: {
  path: string;
  bytes: number | string;
  seed?: number;
}): MemoryRecordResult;

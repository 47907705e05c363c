// The bench's deterministic corpus: a multi-rank plog tree and memory_compare CSVs, with the snapshots a correct parser
// must produce. No clock, no Math.random: the same options give the same bytes (the CLI: bench/generate.mjs).
//
// Writes:
//   DIR/plog/rank_<r>/plog-<pid>_<YYYYMMDDhhmmssSSS>.log   rotated at rotateBytes, like the real driver log
//   DIR/memory_compare_20250901120000.csv                    current header, csvRows data rows
//   DIR/compare-legacy/*.csv                                 the two older header generations (small)
//   DIR/expected-plog.json      snapshot of --plog DIR/plog
//   DIR/expected-compare.json   snapshot of --compare DIR/memory_compare_20250901120000.csv
//   DIR/expected.json           snapshot of both together
//   DIR/expected-compare-legacy.json  snapshot of the files in DIR/compare-legacy
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Snapshot } from '../../src/model/snapshot.js';
import { parseSize } from '../helpers/size.js';
import { GiB, KiB, MiB } from '../helpers/story.js';
import { ExpectedSnapshot, stableStringify } from './expected-snapshot.js';
import { CSV_NAME, writeCompare } from './memory-compare.js';
import { writePlogTree, type PlogStats } from './plog.js';

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

/** The options with every default filled in and the sizes in bytes. */
type CorpusOptions = Required<Omit<GenerateOptions, 'plogBytes' | 'rotateBytes'>> & {
  plogBytes: number;
  rotateBytes: number;
};

export interface GenerateResult {
  out: string;
  /** `out/plog`: the tree to pass as --plog. */
  plogDir: string;
  /** The big current-header CSV, or null with csvRows 0. */
  csvPath: string | null;
  /** `out/compare-legacy` with the Mar–Jul 2025 and Feb 2025 header files, or null. */
  legacyDir: string | null;
  options: CorpusOptions;
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

const DEFAULTS: Readonly<Required<Omit<GenerateOptions, 'out'>>> = Object.freeze({
  plogBytes: GiB,
  ranks: 8,
  csvRows: 1_000_000,
  devices: 8,
  seed: 42,
  rotateBytes: 20 * MiB,
  legacyCsv: true,
  recordShare: 0,
  quotedShare: 0,
});

function normalizeOptions(opts: GenerateOptions): CorpusOptions {
  if (!opts || typeof opts.out !== 'string' || opts.out === '')
    throw new Error('generate: "out" (a directory) is required');
  const given = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
  const o = { ...DEFAULTS, ...given } as Record<string, unknown>;
  o.out = resolve(o.out as string);
  o.plogBytes = parseSize(o.plogBytes as number | string);
  o.rotateBytes = parseSize(o.rotateBytes as number | string);
  for (const k of ['ranks', 'csvRows', 'devices', 'seed']) {
    const n = (o[k] = Number(o[k]));
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`generate: "${k}" must be a non-negative integer`);
  }
  for (const k of ['recordShare', 'quotedShare']) {
    const f = (o[k] = Number(o[k]));
    if (!(f >= 0 && f < 0.5)) throw new Error(`generate: "${k}" must be a fraction in [0, 0.5)`);
  }
  const c = o as CorpusOptions;
  if (c.ranks < 1) throw new Error('generate: "ranks" must be at least 1');
  if (c.devices < 1) throw new Error('generate: "devices" must be at least 1');
  if (c.rotateBytes < 64 * KiB) throw new Error('generate: "rotateBytes" must be at least 64KiB');
  c.legacyCsv = Boolean(c.legacyCsv) && c.csvRows > 0;
  return c;
}

function plogFigures(stats: PlogStats): GenerateResult['plog'] {
  return {
    files: stats.plogFiles,
    bytes: stats.plogBytes,
    records: stats.plogRecords,
    truncated: stats.truncated,
    glued: stats.glued,
    wrapped: stats.wrapped,
    allocFailures: stats.allocFailures,
  };
}

/** Writes the corpus and its expected snapshots into `opts.out`. */
export async function generate(opts: GenerateOptions): Promise<GenerateResult> {
  const o = normalizeOptions(opts);
  mkdirSync(join(o.out, 'plog'), { recursive: true });
  const { expected: plog, stats } = writePlogTree(o, new Map());
  const write = (name: string, snapshot: Snapshot): void => writeFileSync(join(o.out, name), stableStringify(snapshot));
  const plogSnapshot = plog.build();
  write('expected-plog.json', plogSnapshot);
  let compareSnapshot: Snapshot | null = null;
  let legacySnapshot: Snapshot | null = null;
  let csvBytes = 0;
  const all = new ExpectedSnapshot().merge(plog);
  if (o.csvRows > 0) {
    const cmp = writeCompare(o);
    csvBytes = cmp.bytes;
    compareSnapshot = cmp.expected.build();
    write('expected-compare.json', compareSnapshot);
    all.merge(cmp.expected);
    if (cmp.legacy) {
      legacySnapshot = cmp.legacy.build();
      write('expected-compare-legacy.json', legacySnapshot);
    }
  }
  const allSnapshot = all.build();
  write('expected.json', allSnapshot);
  return {
    out: o.out,
    plogDir: join(o.out, 'plog'),
    csvPath: o.csvRows > 0 ? join(o.out, CSV_NAME) : null,
    legacyDir: legacySnapshot ? join(o.out, 'compare-legacy') : null,
    options: { ...o },
    plog: plogFigures(stats),
    csv: { rows: o.csvRows, bytes: csvBytes },
    expected: { plog: plogSnapshot, compare: compareSnapshot, all: allSnapshot, legacy: legacySnapshot },
  };
}

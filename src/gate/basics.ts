// The gate's words that the findings share with the rest, with an entry's status left open: the findings' registry closes it (types.ts).
import type { Tolerance } from '../model/sections/types.js';
import type { Snapshot, SnapshotMeta } from '../model/snapshot.js';

export type { Tolerance };

/** A config rule: the first whose glob matches a key wins; its fields override the defaults. */
export interface Rule {
  /** Glob over key segments: `*` is one segment, `**` any number. */
  match: string;
  tolerance?: Tolerance;
  /** Absolute ceiling on the current value, whatever the baseline. */
  budget?: number;
  ignore?: boolean;
}

export interface KindThresholds {
  tolerance: Tolerance;
  rules: Rule[];
}

export type Policy = 'warn' | 'fail' | 'ignore';

/** What a status means for the job: fail turns it red, warn is shown, ok is collapsed. */
export type Severity = 'fail' | 'warn' | 'ok';

/** The statuses of the baseline comparison (compare.ts), in the order reports list them around the findings'. */
export const VERDICTS_BEFORE_FINDINGS = ['regressed', 'over-budget'] as const;
export const VERDICTS_AFTER_FINDINGS = ['new', 'missing', 'improved', 'ignored', 'pass'] as const;

/** A status of the baseline comparison. */
export type VerdictStatus = (typeof VERDICTS_BEFORE_FINDINGS)[number] | (typeof VERDICTS_AFTER_FINDINGS)[number];

/**
 * A section's kind (`module`, `kernel`, … from src/model/sections/), or `device`: entries about a whole device (`dev0`),
 * headroom and allocation failures.
 */
export type EntryKind = string;

/** Which bound held a key, when the noise band was asked: the band (the spread was wider), or the configured tolerance. */
interface NoiseVerdict {
  applied: 'band' | 'tolerance';
  /** The points of history that were read (fewer than minPoints: the tolerance applied). */
  points: number;
  /** Their spread, max - min; null when there were none. */
  spread: number | null;
}

/**
 * One verdict, with status `S`. Modules compare `peak`, kernels compare `diff`, devices their estimated peak (or
 * allocation failures). A key may have several entries: its baseline verdict and, as separate entries with other
 * statuses, findings such as leak-suspect or imbalance. baseline/current/delta/percent always compare this run with the
 * baseline run.
 */
export interface EntryOf<S extends string> {
  kind: EntryKind;
  key: string;
  baseline: number | null;
  current: number | null;
  /** current − baseline, null when either side is absent. */
  delta: number | null;
  /** delta / |baseline| × 100, null when the baseline is absent or 0. */
  percent: number | null;
  status: S;
  severity: Severity;
  /** The `match` of the rule that decided, or null for the defaults (and for findings). */
  rule: string | null;
  /** What baseline/current/delta/limit count; absent means bytes. 'count': allocations (leak-suspect, alloc-failure). */
  unit?: 'bytes' | 'count';
  /** The bound `current` was held against, in `unit`: capacity, capacity − headroom, reference × factor, tolerated count, median ± tolerance. */
  limit?: number;
  /** A headroom verdict's device capacity in bytes, so reports can draw it and show the headroom left. */
  capacity?: number;
  /** One sentence on how the values were derived and why the verdict, for people; plain text (escape it). */
  note?: string;
  /** Set when the noise band was asked about this key's change (config `history`). */
  noise?: NoiseVerdict;
}

/** One side of the comparison: a snapshot, a baseline, or just its sections; `meta.allocFailures` feeds alloc-failure. */
export type GateInput = Pick<Snapshot, 'sections'> &
  Partial<Pick<Snapshot, 'series'>> & { meta?: Partial<Pick<SnapshotMeta, 'allocFailures' | 'allocFailureSites'>> };

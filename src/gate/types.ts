// The gate's vocabulary: thresholds in, verdicts out. Shared by compare (pure), report renderers and the Action.
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

/** Free memory a device must keep below its capacity: a share of the capacity, or bytes. */
export type Headroom = { percent: number } | { bytes: number };

/** One device's physical memory and the headroom it must keep; `devices.devN` overrides `device` field by field. */
export interface DeviceLimits {
  /** Physical memory of the device in bytes; no headroom verdict without it. */
  capacity?: number;
  minHeadroom?: Headroom;
}

/** Which reference costs of the CANN docs apply to GE and RUNTIME. */
export type Profile = 'training' | 'inference';

/** What HCCL should cost (CANN docs): links × 4 MiB (single-op) or links × ops × 0.3 MiB (graph), + domains × 2 × buffSize. */
export interface HcclReference {
  links: number;
  mode: 'single-op' | 'graph';
  /** Operators in the graph; used in graph mode only. */
  ops: number;
  /** Communication domains, each with a send and a receive buffer. */
  domains: number;
  /** HCCL_BUFFSIZE in bytes (the variable is in MB, which HCCL reads as MiB: default 200 MiB). */
  buffSize: number;
}

/** How much the outstanding allocation count (alloc_cnt − free_cnt) may grow: every set field must be exceeded. */
export interface CountTolerance {
  count?: number;
  /** Relative to the baseline's outstanding count. */
  percent?: number;
}

/** The verdicts beyond the baseline comparison; each one's policy is set in `verdicts`. */
export type FindingStatus =
  | 'over-capacity'
  | 'low-headroom'
  | 'alloc-failure'
  | 'oom'
  | 'leak-suspect'
  | 'step-leak'
  | 'fragmented'
  | 'above-reference'
  | 'imbalance'
  | 'growing';

/** When a timeline counts as `growing` (src/gate/findings/growth.ts). */
export interface GrowthConfig {
  /** Time axis: the first share of the run skipped as warm-up, in percent (0 to 90). */
  warmupPercent: number;
  /** Time axis: how much the projected rise after warm-up may be; every set field must be exceeded. `percent` is of the series' peak. */
  tolerance: Tolerance;
  /** Step axis: steps skipped as warm-up (the first step allocates weights, optimizer state, caches). */
  warmupSteps: number;
  /** Step axis: the smallest steady rise per step that counts, bytes. */
  perStep: number;
  /** Fewest window peaks after warm-up for any verdict; fewer say nothing. */
  minWindows: number;
}

/** The whole threshold config, sizes already in bytes. */
export interface GateConfig {
  /** Per section (src/model/sections/): its default tolerance and rules, under the section's name in the config file. */
  sections: Record<string, KindThresholds>;
  onNew: Policy;
  /** A first run (no baseline file, or one without keys): warn passes with "No baseline yet", fail closes the gate until one is committed. */
  onMissingBaseline: 'warn' | 'fail';
  /** A baseline that shares no key with this run (another input, renamed keys): fail (default), or warn for a new input's first run. */
  onDisjointBaseline: 'warn' | 'fail';
  onMissing: Policy;
  /** What an environment change since the baseline, or nodes that disagree, do to the verdict. */
  environment: EnvironmentPolicy;
  failOnImprovement: boolean;
  /** Limits of every device. */
  device: DeviceLimits;
  /** Per-device overrides by name (`dev3`), merged field by field over `device`. */
  devices: Record<string, DeviceLimits>;
  /** null: GE and RUNTIME are held against the larger of the two profiles' references. */
  profile: Profile | null;
  /** null: HCCL has no reference cost (it depends on the cluster). */
  hccl: HcclReference | null;
  /** above-reference when a new key's peak > reference × factor (the docs' numbers are "about"). */
  reference: { factor: number };
  leaks: CountTolerance;
  /** A device's module peak deviating from the median of the same module on the other devices. */
  imbalance: { tolerance: Tolerance; minDevices: number };
  /** Memory that keeps rising over a run (time series) or from step to step (step series). */
  growth: GrowthConfig;
  /**
   * `fragmented` when, at a memory snapshot's allocated peak, (reserved − allocated) / reserved exceeds `percent` and
   * reserved − allocated exceeds `bytes` (both must be exceeded).
   */
  fragmentation: { percent: number; bytes: number };
  /** OOM causes: fragmentation needs cached ≥ the request and ≥ this share of the device (src/model/oom-cause.ts). */
  oom: { fragmentationPercent: number };
  /** warn, fail or ignore (not assessed) per finding. */
  verdicts: Record<FindingStatus, Policy>;
  /** The label (settable by maintainers only) that lets a pull request's own baseline and config be used on it. */
  baselineUpdateLabel: string;
  /** The noise band (opt-in): null gates with the configured tolerances alone. */
  history: NoiseBandConfig | null;
}

/**
 * `history` in the config: a key regresses only when it exceeds the baseline by more than the larger of its tolerance
 * and the spread (max - min) of its last `window` values on the default branch, never by more than `ceiling` allows.
 */
export interface NoiseBandConfig {
  window: number;
  /** Fewer values than this: the configured tolerance applies. */
  minPoints: number;
  /** The widest the band may be, as a tolerance: its larger field's allowance at the baseline value. */
  ceiling: Tolerance;
}

/** What the history says of a key for the noise band: the spread of its last `window` values and how many there were. */
export interface NoiseSample {
  spread: number;
  /** The spread was past 2^53 - 1 (a signed figure at both ends of its range): `spread` is 2^53 - 1, a lower bound. */
  clamped?: boolean;
  points: number;
}

/** The noise band's source (the history): a key's sample, or undefined when the history has no value of it. */
export type NoiseLookup = (kind: string, key: string, window: number) => NoiseSample | undefined;

/** Which bound held a key, when the noise band was asked: the band (the spread was wider), or the configured tolerance. */
export interface NoiseVerdict {
  applied: 'band' | 'tolerance';
  /** The points of history that were read (fewer than minPoints: the tolerance applied). */
  points: number;
  /** Their spread, max - min; null when there were none. */
  spread: number | null;
}

/**
 * A section's kind (`module`, `kernel`, … from src/model/sections/), or `device`: entries about a whole device (`dev0`),
 * headroom and allocation failures.
 */
export type EntryKind = string;

export type Status = 'regressed' | 'over-budget' | 'improved' | 'new' | 'missing' | 'ignored' | 'pass' | FindingStatus;

/** Every status, in the order verdicts and reports list them: the one list (the report schema is built from it). */
export const STATUSES = [
  'regressed',
  'over-budget',
  'over-capacity',
  'alloc-failure',
  'oom',
  'leak-suspect',
  'step-leak',
  'low-headroom',
  'fragmented',
  'above-reference',
  'imbalance',
  'growing',
  'new',
  'missing',
  'improved',
  'ignored',
  'pass',
] as const satisfies readonly Status[];

// Fails to compile when Status gains a value that STATUSES does not list.
true satisfies [Exclude<Status, (typeof STATUSES)[number]>] extends [never] ? true : never;

/** What a status means for the job: fail turns it red, warn is shown, ok is collapsed. */
export type Severity = 'fail' | 'warn' | 'ok';

/**
 * One verdict. Modules compare `peak`, kernels compare `diff`, devices their estimated peak (or allocation failures).
 * A key may have several entries: its baseline verdict and, as separate entries with other statuses, findings
 * such as leak-suspect or imbalance. baseline/current/delta/percent always compare this run with the baseline run.
 */
export interface Entry {
  kind: EntryKind;
  key: string;
  baseline: number | null;
  current: number | null;
  /** current − baseline, null when either side is absent. */
  delta: number | null;
  /** delta / |baseline| × 100, null when the baseline is absent or 0. */
  percent: number | null;
  status: Status;
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

/** What an assessor sees: both sides whole (sections, series, meta) and the config. */
export interface FindingContext {
  baseline: GateInput;
  current: GateInput;
  config: GateConfig;
}

/**
 * Findings about this run. An entry whose kind and key are a section key's follows that key's verdict in the report;
 * others (kind `device`) come after every key. An assessor returns its entries already in the order to show them.
 */
export type FindingAssessor = (context: FindingContext) => Entry[];

export interface GateReport {
  result: 'pass' | 'fail';
  counts: Partial<Record<Status, number>>;
  entries: Entry[];
  /** The environment changed since the baseline, or this run's nodes disagree (gate/environment.ts). */
  environment?: EnvironmentFindings;
  /** Artifacts that never arrived (`missing-artifacts: warn`): their ranks were gated as missing. */
  missingArtifacts?: string[];
  /** The baseline and this run share no key: nothing was compared (config `onDisjointBaseline`). */
  disjointBaseline?: DisjointBaseline;
  /** Records the readers skipped or found cut off: counted, a sample named by file and line. */
  notRead?: NotRead;
  /** The history the run read (the Action): its branch and that branch's commit, which comment mode reads it at. */
  history?: HistoryRead;
}

/** Each side's key count and first key (`modules DEV_MEM/dev0/APP`), when they have none in common. */
export interface DisjointBaseline {
  severity: 'fail' | 'warn';
  baseline: { keys: number; first: string };
  run: { keys: number; first: string };
}

/** A record not read: where, and why. */
export interface RecordNotRead {
  file: string;
  line: number;
  reason: string;
}

export interface NotRead {
  /** Every record skipped, over every file (the sample below is bounded). */
  count: number;
  /** The first few, in file order. */
  sample: RecordNotRead[];
  /** Files whose last record was cut off (the process probably died while writing it), first few. */
  cut: RecordNotRead[];
}

/** Which version of the default branch's history a run read. */
export interface HistoryRead {
  branch: string;
  /** The history branch's commit (40 or 64 hex digits). */
  commit: string;
}

/** `environment` in the config: what a change does to the verdict, and items never compared. */
export interface EnvironmentPolicy {
  onChange: Policy;
  /** Item names (exact) left out of both comparisons, e.g. `ASCEND_RT_VISIBLE_DEVICES`. */
  ignore: string[];
}

/** One item whose value differs between the baseline run and this run; null = not recorded on that side. */
export interface EnvironmentChange {
  item: string;
  baseline: string | null;
  current: string | null;
}

/** One item on which the nodes of this run disagree: each value with the nodes that report it (null = not recorded). */
export interface EnvironmentSplit {
  item: string;
  values: { value: string | null; nodes: string[] }[];
}

export interface EnvironmentFindings {
  changes: EnvironmentChange[];
  splits: EnvironmentSplit[];
  /** From `onChange`: what these findings do to the verdict. */
  severity: Severity;
}

// The gate's vocabulary: thresholds in, verdicts out. Shared by compare (pure), report renderers and the Action.
// The findings' part (their statuses and config options) is derived from their registry, src/gate/findings/index.ts.
import { FINDING_STATUSES, type FindingOptions, type FindingStatus } from './findings/index.js';
import {
  VERDICTS_AFTER_FINDINGS,
  VERDICTS_BEFORE_FINDINGS,
  type EntryOf,
  type KindThresholds,
  type Policy,
  type Severity,
  type Tolerance,
  type VerdictStatus,
} from './basics.js';

export type { EntryKind, GateInput, KindThresholds, Policy, Rule, Severity, Tolerance } from './basics.js';
export type { FindingStatus };
/** The config's own properties; each finding's options are added from the registry (GateConfig). */
interface CoreConfig {
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
  /** The label (settable by maintainers only) that lets a pull request's own baseline and config be used on it. */
  baselineUpdateLabel: string;
  /** The noise band (opt-in): null gates with the configured tolerances alone. */
  history: NoiseBandConfig | null;
}

/** The whole threshold config, sizes already in bytes: the core, every finding's options, and `verdicts` (warn, fail or ignore per finding). */
export type GateConfig = CoreConfig & FindingOptions & { verdicts: Record<FindingStatus, Policy> };

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

export type Status = VerdictStatus | FindingStatus;

/**
 * Every status, in the order verdicts and reports list them: the one list (the report schema is built from it). The
 * findings' come from their registry, in its order.
 */
export const STATUSES: readonly Status[] = [
  ...VERDICTS_BEFORE_FINDINGS,
  ...FINDING_STATUSES,
  ...VERDICTS_AFTER_FINDINGS,
];

/** One verdict or finding; see EntryOf. */
export type Entry = EntryOf<Status>;

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

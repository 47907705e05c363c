// The gate's vocabulary: thresholds in, verdicts out. Shared by compare (pure), report renderers and the Action.

/** How much a value may move before it counts. Every set field must be exceeded for a regression. */
export interface Tolerance {
  /** Relative to the baseline value: delta > baseline × percent / 100. */
  percent?: number;
  /** Absolute: delta > bytes. */
  bytes?: number;
}

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

/** The whole threshold config, sizes already in bytes. */
export interface GateConfig {
  modules: KindThresholds;
  kernels: KindThresholds;
  onNew: Policy;
  onMissing: Policy;
  failOnImprovement: boolean;
}

export type EntryKind = 'module' | 'kernel';

export type Status = 'regressed' | 'over-budget' | 'improved' | 'new' | 'missing' | 'ignored' | 'pass';

/** What a status means for the job: fail turns it red, warn is shown, ok is collapsed. */
export type Severity = 'fail' | 'warn' | 'ok';

/** One key's verdict. Modules compare `peak`, kernels compare `diff`. */
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
  /** The `match` of the rule that decided, or null for the defaults. */
  rule: string | null;
}

export interface GateReport {
  result: 'pass' | 'fail';
  counts: Partial<Record<Status, number>>;
  entries: Entry[];
}

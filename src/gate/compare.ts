// The gate itself: one verdict per module and kernel key from a baseline, this run and the thresholds. Pure, no I/O.
import { compareKeys, type Snapshot } from '../snapshot.js';
import { matchRule } from './thresholds.js';
import type { Entry, EntryKind, GateConfig, GateReport, KindThresholds, Policy, Severity, Status, Tolerance } from './types.js';

/** Every status, in the order reports list them; counts always carry all of them. */
export const STATUSES: readonly Status[] = ['regressed', 'over-budget', 'improved', 'new', 'missing', 'ignored', 'pass'];

/**
 * Compares this run with the baseline. Modules compare `peak`, kernels compare `diff`; delta = current − baseline.
 *
 * Per key, the first matching rule (else the kind's defaults) decides, in this order:
 * 1. `ignore` → ignored (ok).
 * 2. `budget` set and current > budget → over-budget (fail), whatever the baseline, also for new keys.
 * 3. only in this run → new; only in the baseline → missing; severity from onNew / onMissing (ignore → ok).
 * 4. delta exceeds every field of the tolerance → regressed (fail).
 * 5. −delta exceeds it the same way → improved: ok (listed as an improvement), or fail with failOnImprovement.
 * 6. otherwise pass (ok).
 *
 * Entries come sorted by kind (modules first) then key; the result is 'fail' iff some entry's severity is 'fail'.
 */
export function compareSnapshots(
  baseline: Pick<Snapshot, 'modules' | 'kernels'>,
  current: Pick<Snapshot, 'modules' | 'kernels'>,
  config: GateConfig,
): GateReport {
  const entries = [
    ...compareKind('module', valuesOf(baseline.modules, (m) => m.peak), valuesOf(current.modules, (m) => m.peak), config.modules, config),
    ...compareKind('kernel', valuesOf(baseline.kernels, (k) => k.diff), valuesOf(current.kernels, (k) => k.diff), config.kernels, config),
  ];
  const counts: Record<Status, number> = { regressed: 0, 'over-budget': 0, improved: 0, new: 0, missing: 0, ignored: 0, pass: 0 };
  for (const entry of entries) counts[entry.status]++;
  return {
    result: entries.some((entry) => entry.severity === 'fail') ? 'fail' : 'pass',
    counts,
    entries,
  };
}

function valuesOf<M>(metrics: Record<string, M>, pick: (metric: M) => number): Map<string, number> {
  return new Map(Object.entries(metrics).map(([key, metric]) => [key, pick(metric)]));
}

function compareKind(
  kind: EntryKind,
  baseline: Map<string, number>,
  current: Map<string, number>,
  thresholds: KindThresholds,
  config: GateConfig,
): Entry[] {
  const keys = [...new Set([...baseline.keys(), ...current.keys()])].sort(compareKeys);
  return keys.map((key) => judge(kind, key, baseline.get(key) ?? null, current.get(key) ?? null, thresholds, config));
}

/** The verdict for one key; see compareSnapshots for the order of the checks. */
export function judge(
  kind: EntryKind,
  key: string,
  baseline: number | null,
  current: number | null,
  thresholds: KindThresholds,
  config: Pick<GateConfig, 'onNew' | 'onMissing' | 'failOnImprovement'>,
): Entry {
  const rule = matchRule(thresholds.rules, key);
  const delta = baseline !== null && current !== null ? current - baseline : null;
  const entry = (status: Status, severity: Severity): Entry => ({
    kind,
    key,
    baseline,
    current,
    delta,
    percent: percentChange(baseline, current),
    status,
    severity,
    rule: rule?.match ?? null,
  });

  if (rule?.ignore === true) return entry('ignored', 'ok');
  if (rule?.budget !== undefined && current !== null && current > rule.budget) return entry('over-budget', 'fail');
  if (baseline === null) return entry('new', policySeverity(config.onNew));
  if (current === null || delta === null) return entry('missing', policySeverity(config.onMissing));
  const tolerance = rule?.tolerance ?? thresholds.tolerance;
  if (exceedsTolerance(delta, baseline, tolerance)) return entry('regressed', 'fail');
  if (exceedsTolerance(-delta, baseline, tolerance)) return entry('improved', config.failOnImprovement ? 'fail' : 'ok');
  return entry('pass', 'ok');
}

/**
 * True when a positive change exceeds EVERY field set on the tolerance:
 * - `bytes`: change > bytes;
 * - `percent`: change > |baseline| × percent / 100 (|baseline| because kernel diffs can be negative), and with a
 *   baseline of 0 any positive change exceeds it.
 * A change exactly at a limit does not exceed it; an empty tolerance {} is exceeded by any positive change.
 */
export function exceedsTolerance(change: number, baseline: number, tolerance: Tolerance): boolean {
  if (change <= 0) return false;
  if (tolerance.bytes !== undefined && change <= tolerance.bytes) return false;
  // Multiplying instead of dividing keeps "exactly at the limit" exact for integer percents.
  if (tolerance.percent !== undefined && baseline !== 0 && change * 100 <= Math.abs(baseline) * tolerance.percent) return false;
  return true;
}

/** delta / |baseline| × 100, or null when either side is absent or the baseline is 0. */
export function percentChange(baseline: number | null, current: number | null): number | null {
  if (baseline === null || current === null || baseline === 0) return null;
  return ((current - baseline) / Math.abs(baseline)) * 100;
}

function policySeverity(policy: Policy): Severity {
  return policy === 'ignore' ? 'ok' : policy;
}

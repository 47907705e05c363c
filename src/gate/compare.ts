// The gate itself: one verdict per module and kernel key from a baseline, this run and the thresholds, plus the device-level findings. Pure, no I/O.
import { compareKeys, type Snapshot, type SnapshotMeta } from '../snapshot.js';
import { assessDevices } from './devices.js';
import { exceedsTolerance, matchRule, percentChange } from './thresholds.js';
import { STATUSES, type Entry, type EntryKind, type GateConfig, type GateReport, type KindThresholds, type Policy, type Severity, type Status } from './types.js';

/** One side of the comparison: a snapshot, a baseline, or just its metrics; `meta.allocFailures` feeds alloc-failure. */
export type GateInput = Pick<Snapshot, 'modules' | 'kernels'> & { meta?: Partial<Pick<SnapshotMeta, 'allocFailures'>> };

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
 * Then the device-level findings (devices.ts), each a separate entry: a module key may be followed by leak-suspect,
 * above-reference and imbalance entries with the same key; `device` entries (`dev0`) hold headroom and alloc-failure.
 *
 * Entries come sorted by kind (modules, kernels, devices) then key, a key's baseline verdict before its findings;
 * counts hold every status; the result is 'fail' iff some entry's severity is 'fail'.
 */
export function compareSnapshots(baseline: GateInput, current: GateInput, config: GateConfig): GateReport {
  const modules = compareKind('module', valuesOf(baseline.modules, (m) => m.peak), valuesOf(current.modules, (m) => m.peak), config.modules, config);
  const kernels = compareKind('kernel', valuesOf(baseline.kernels, (k) => k.diff), valuesOf(current.kernels, (k) => k.diff), config.kernels, config);
  const { moduleFindings, deviceEntries } = assessDevices(baseline, current, config);
  const entries = [...withFindings(modules, moduleFindings), ...kernels, ...deviceEntries];
  const counts: Partial<Record<Status, number>> = {};
  for (const status of STATUSES) counts[status] = 0;
  for (const entry of entries) counts[entry.status] = (counts[entry.status] ?? 0) + 1;
  return {
    result: entries.some((entry) => entry.severity === 'fail') ? 'fail' : 'pass',
    counts,
    entries,
  };
}

/** Each key's verdict followed by its findings (already in key and status order). */
function withFindings(verdicts: Entry[], findings: Entry[]): Entry[] {
  if (findings.length === 0) return verdicts;
  const byKey = new Map<string, Entry[]>();
  for (const finding of findings) {
    const list = byKey.get(finding.key);
    if (list === undefined) byKey.set(finding.key, [finding]);
    else list.push(finding);
  }
  const out: Entry[] = [];
  for (const verdict of verdicts) {
    out.push(verdict);
    const list = byKey.get(verdict.key);
    if (list !== undefined) {
      out.push(...list);
      byKey.delete(verdict.key);
    }
  }
  // Every finding is about a key of this run, which has a verdict; anything else would still be shown, last.
  for (const list of byKey.values()) out.push(...list);
  return out;
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

function policySeverity(policy: Policy): Severity {
  return policy === 'ignore' ? 'ok' : policy;
}

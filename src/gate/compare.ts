// The gate itself: one verdict per key of every section from a baseline, this run and the thresholds, plus the findings. Pure, no I/O.
import { SECTIONS, valueOf, type SectionDeclaration } from '../model/sections/index.js';
import type { Metric } from '../model/sections/types.js';
import { compareKeys, keysOf, metricsOf, type SectionMetrics } from '../model/snapshot.js';
import { FINDINGS } from './findings/index.js';
import { exceedsTolerance, matchRule, percentChange, sectionThresholds } from './thresholds.js';
import { STATUSES, type Entry, type EntryKind, type GateConfig, type GateInput, type GateReport, type KindThresholds, type Policy, type Rule, type Severity, type Status } from './types.js';

/**
 * Compares this run with the baseline, section by section (src/model/sections/): each section compares its declared value
 * (`peak` for modules, `diff` for kernels, …); delta = current − baseline.
 *
 * Per key, the first matching rule (else the section's defaults) decides, in this order:
 * 1. `ignore` → ignored (ok).
 * 2. `budget` set and current > budget → over-budget (fail), whatever the baseline, also for new keys.
 * 3. only in this run → new; only in the baseline → missing; severity from onNew / onMissing (ignore → ok).
 * 4. delta exceeds every field of the tolerance → regressed (fail).
 * 5. −delta exceeds it the same way → improved: ok (listed as an improvement), or fail with failOnImprovement.
 * 6. otherwise pass (ok).
 *
 * Then the findings (findings/index.ts), each a separate entry: a key may be followed by findings with the same kind and key
 * (leak-suspect, above-reference, imbalance, growing, …); entries of no section's key (`device` entries) come last.
 *
 * Entries come sorted by section (registry order) then key, a key's verdict before its findings; counts hold every
 * status; the result is 'fail' iff some entry's severity is 'fail'.
 */
export function compareSnapshots(baseline: GateInput, current: GateInput, config: GateConfig): GateReport {
  const verdicts = SECTIONS.filter((d) => d.compared !== false).flatMap((declaration) => compareSection(declaration, baseline, current, config));
  const findings = FINDINGS.flatMap((assess) => assess({ baseline, current, config }));
  const entries = withFindings(verdicts, findings);
  // One indexed pass over 160,000 entries (a for...of in code that runs once is not optimized yet, and allocates an
  // iterator result per entry): the statuses counted in a Map, the object made from it.
  const byStatus = new Map<Status, number>();
  let failed = false;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Entry;
    byStatus.set(entry.status, (byStatus.get(entry.status) ?? 0) + 1);
    if (entry.severity === 'fail') failed = true;
  }
  const counts: Partial<Record<Status, number>> = {};
  for (const status of STATUSES) counts[status] = 0;
  for (const [status, n] of byStatus) counts[status] = n;
  return { result: failed ? 'fail' : 'pass', counts, entries };
}

/** Each key's verdict followed by its findings (in the order the assessors gave them); the rest last, in that order. */
export function withFindings(verdicts: Entry[], findings: Entry[]): Entry[] {
  if (findings.length === 0) return verdicts;
  // By kind, then key: a verdict's key is looked up as it is (no kind + key string made per verdict, 160,000 of them).
  const byKind = new Map<string, Map<string, Entry[]>>();
  /** The lists in the order their first finding came; a list taken by its verdict is emptied. */
  const lists: Entry[][] = [];
  for (const finding of findings) {
    let byKey = byKind.get(finding.kind);
    if (byKey === undefined) byKind.set(finding.kind, (byKey = new Map()));
    const list = byKey.get(finding.key);
    if (list !== undefined) list.push(finding);
    else {
      const made = [finding];
      byKey.set(finding.key, made);
      lists.push(made);
    }
  }
  const out: Entry[] = [];
  let byKey: Map<string, Entry[]> | undefined;
  let kind: string | undefined;
  for (let i = 0; i < verdicts.length; i++) {
    const verdict = verdicts[i] as Entry;
    out.push(verdict);
    if (verdict.kind !== kind) {
      kind = verdict.kind;
      byKey = byKind.get(kind);
    }
    const list = byKey?.get(verdict.key);
    if (list !== undefined && list.length > 0) {
      for (const finding of list) out.push(finding);
      list.length = 0;
    }
  }
  for (const list of lists) for (const finding of list) out.push(finding);
  return out;
}

function compareSection(declaration: SectionDeclaration, baseline: GateInput, current: GateInput, config: GateConfig): Entry[] {
  // Each side's value read straight from its metric object (no per-key Map of values, 160,000 keys at 4,096 devices).
  const before = metricsOf(baseline, declaration.name);
  const after = metricsOf(current, declaration.name);
  const value = (metrics: SectionMetrics, key: string): number | null => (Object.hasOwn(metrics, key) ? valueOf(declaration, metrics[key] as Metric) : null);
  const thresholds = sectionThresholds(config, declaration);
  const keys = sortedUnion(keysOf(before), keysOf(after));
  const unit = declaration.unit === 'bytes' ? undefined : declaration.unit;
  return keys.map((key) => {
    const entry = judge(declaration.kind, key, value(before, key), value(after, key), thresholds, config);
    return unit === undefined ? entry : { ...entry, unit };
  });
}

/**
 * Every key of both sides, sorted by compareKeys, each once: the same list as sorting their union, in linear time when
 * both sides come sorted (build() makes sections so, and stringifyDocument writes snapshot and baseline files so):
 * sorting 160,000 keys costs ~17 comparisons each, ~0.2 s.
 * On a tie the baseline's key comes first, as the stable sort of the union (baseline keys first) puts it.
 */
export function sortedUnion(before: readonly string[], after: readonly string[]): string[] {
  // The usual case, a run with the baseline's keys: one side to check, nothing to merge.
  if (sameKeys(before, after) && isSorted(before)) return [...before];
  if (!isSorted(before) || !isSorted(after)) return [...new Set([...before, ...after])].sort(compareKeys);
  const keys: string[] = [];
  const seen = new Set(before);
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (j < after.length && seen.has(after[j] as string)) {
      j++;
      continue;
    }
    if (j >= after.length || (i < before.length && compareKeys(before[i] as string, after[j] as string) <= 0)) keys.push(before[i++] as string);
    else keys.push(after[j++] as string);
  }
  return keys;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (compareKeys(keys[i - 1] as string, keys[i] as string) > 0) return false;
  return true;
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
  const status = statusOf(rule, baseline, current, delta, thresholds);
  // One object per key (160,000 of them at 4,096 devices), its fields always in this order.
  return { kind, key, baseline, current, delta, percent: percentChange(baseline, current), status, severity: severityOf(status, config), rule: rule?.match ?? null };
}

function statusOf(rule: Rule | undefined, baseline: number | null, current: number | null, delta: number | null, thresholds: KindThresholds): Status {
  if (rule?.ignore === true) return 'ignored';
  if (rule?.budget !== undefined && current !== null && current > rule.budget) return 'over-budget';
  if (baseline === null) return 'new';
  if (current === null || delta === null) return 'missing';
  const tolerance = rule?.tolerance ?? thresholds.tolerance;
  if (exceedsTolerance(delta, baseline, tolerance)) return 'regressed';
  if (exceedsTolerance(-delta, baseline, tolerance)) return 'improved';
  return 'pass';
}

function severityOf(status: Status, config: Pick<GateConfig, 'onNew' | 'onMissing' | 'failOnImprovement'>): Severity {
  switch (status) {
    case 'new':
      return policySeverity(config.onNew);
    case 'missing':
      return policySeverity(config.onMissing);
    case 'over-budget':
    case 'regressed':
      return 'fail';
    case 'improved':
      return config.failOnImprovement ? 'fail' : 'ok';
    default:
      return 'ok';
  }
}

function policySeverity(policy: Policy): Severity {
  return policy === 'ignore' ? 'ok' : policy;
}

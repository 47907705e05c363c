// The gate itself: one verdict per key of every section from a baseline, this run and the thresholds, plus the findings. Pure, no I/O.
import { SECTIONS, valueOf, type SectionDeclaration } from '../model/sections/index.js';
import type { Metric } from '../model/sections/types.js';
import { metricsOf, type SectionMetrics } from '../model/snapshot.js';
import { compareKeys } from '../model/key-order.js';
import { keysOf } from '../model/record-keys.js';
import { disjointOf } from './disjoint.js';
import { FINDINGS, type AnyFinding } from './findings/index.js';
import { exceedsTolerance, matchRule, percentChange, sectionThresholds } from './tolerance.js';
import { formatBytes, formatCount } from '../model/units.js';
import {
  STATUSES,
  type Entry,
  type EntryKind,
  type GateConfig,
  type GateInput,
  type GateReport,
  type KindThresholds,
  type NoiseBandConfig,
  type NoiseLookup,
  type Policy,
  type Rule,
  type Severity,
  type Status,
  type Tolerance,
} from './types.js';

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
export function compareSnapshots(
  baseline: GateInput,
  current: GateInput,
  config: GateConfig,
  noise?: NoiseLookup,
): GateReport {
  const band = config.history !== null && noise !== undefined ? { config: config.history, noise } : undefined;
  const verdicts = SECTIONS.filter((d) => d.compared !== false).flatMap((declaration) =>
    compareSection(declaration, baseline, current, config, band),
  );
  const findings = (FINDINGS as readonly AnyFinding[]).flatMap(
    (finding) => finding.assess({ baseline, current, config }) as Entry[],
  );
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
  // Nothing compared is no pass earned: a baseline of another input shares no key with the run.
  const disjoint = disjointOf(verdicts, config);
  if (disjoint === null) return { result: failed ? 'fail' : 'pass', counts, entries };
  return {
    result: failed || disjoint.severity === 'fail' ? 'fail' : 'pass',
    counts,
    entries,
    disjointBaseline: disjoint,
  };
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

/** The noise band as the gate applies it: the config's `history` and the default branch's spreads. */
export interface Band {
  config: NoiseBandConfig;
  noise: NoiseLookup;
}

function compareSection(
  declaration: SectionDeclaration,
  baseline: GateInput,
  current: GateInput,
  config: GateConfig,
  band: Band | undefined,
): Entry[] {
  // Each side's value read straight from its metric object (no per-key Map of values, 160,000 keys at 4,096 devices).
  const before = metricsOf(baseline, declaration.name);
  const after = metricsOf(current, declaration.name);
  const value = (metrics: SectionMetrics, key: string): number | null =>
    Object.hasOwn(metrics, key) ? valueOf(declaration, metrics[key] as Metric) : null;
  const thresholds = sectionThresholds(config, declaration);
  const keys = sortedUnion(keysOf(before), keysOf(after));
  const unit = declaration.unit === 'bytes' ? undefined : declaration.unit;
  const describe = declaration.describe;
  return keys.map((key) => {
    let entry = judge(declaration.kind, key, value(before, key), value(after, key), thresholds, config);
    if (band !== undefined && (entry.status === 'regressed' || entry.status === 'improved'))
      entry = withNoiseBand(entry, thresholds, band, config, unit);
    const withUnit = unit === undefined ? entry : { ...entry, unit };
    // The declaration's sentence on this run's metric (the baseline's for a missing key), unless the noise band said why.
    if (describe === undefined || withUnit.note !== undefined) return withUnit;
    const metric = Object.hasOwn(after, key) ? after[key] : before[key];
    const was = Object.hasOwn(after, key) && Object.hasOwn(before, key) ? before[key] : undefined;
    return metric === undefined ? withUnit : { ...withUnit, note: describe(key, metric, was) };
  });
}

/**
 * The noise band on a key that its tolerance alone would call regressed (or improved): it stays so only when its change
 * also exceeds the spread of its last `window` values on the default branch, capped at the ceiling. The note says which
 * bound applied, or that the history had too few values and the tolerance applied.
 */
export function withNoiseBand(
  entry: Entry,
  thresholds: KindThresholds,
  band: Band,
  config: Pick<GateConfig, 'onNew' | 'onMissing' | 'failOnImprovement'>,
  unit?: 'count',
): Entry {
  const { window, minPoints, ceiling } = band.config;
  const baseline = entry.baseline as number;
  const change = Math.abs(entry.delta as number);
  const sample = band.noise(entry.kind, entry.key, window);
  const amount = (v: number): string => (unit === 'count' ? formatCount(v) : formatBytes(v));
  const share = (v: number): string =>
    baseline === 0 ? '' : ` (${((v / Math.abs(baseline)) * 100).toFixed(1)}% of the baseline)`;
  if (sample === undefined || sample.points < minPoints) {
    const points = sample?.points ?? 0;
    return banded(
      entry,
      entry.status,
      entry.severity,
      `The noise band needs ${minPoints} values of this key on the default branch and the history has ${points}: the configured tolerance applied.`,
      { applied: 'tolerance', points, spread: sample?.spread ?? null },
    );
  }
  const cap = allowance(ceiling, baseline);
  const width = Math.min(sample.spread, cap);
  const capped = sample.spread > cap ? `, capped at the ceiling ${amount(cap)}` : '';
  const spread = `the last ${sample.points} values on the default branch spread ${sample.clamped === true ? `more than ${amount(sample.spread)} (2^53 − 1, where the figure is clamped)` : `${amount(sample.spread)}${share(sample.spread)}`}${capped}`;
  const rule = matchRule(thresholds.rules, entry.key);
  if (change <= width) {
    const status: Status = 'pass';
    return banded(
      entry,
      status,
      severityOf(status, config),
      `Within the noise band: ${spread}, wider than the tolerance; a change of ${amount(change)} is no news.`,
      { applied: 'band', points: sample.points, spread: sample.spread },
    );
  }
  const tolerance = rule?.tolerance ?? thresholds.tolerance;
  if (width > allowance(tolerance, baseline)) {
    return banded(
      entry,
      entry.status,
      entry.severity,
      `Beyond the noise band: ${spread}, and the change is ${amount(change)}.`,
      {
        applied: 'band',
        points: sample.points,
        spread: sample.spread,
      },
    );
  }
  return banded(
    entry,
    entry.status,
    entry.severity,
    `The configured tolerance applied: ${spread}, less than it allows.`,
    {
      applied: 'tolerance',
      points: sample.points,
      spread: sample.spread,
    },
  );
}

/**
 * The entry as the noise band leaves it: the same fields in the same order (status and severity maybe replaced), then
 * the note and the band's figures. An entry as judge made it (its section's unit added at most) is written out field
 * by field, since spreading thousands of them takes V8's slow clone path (bench/RESULTS.md); any other is spread.
 */
function banded(
  entry: Entry,
  status: Status,
  severity: Severity,
  note: string,
  noise: NonNullable<Entry['noise']>,
): Entry {
  // Entry's other optional fields (noise-band.test.ts lists them all): an entry holding any of them is not judge's.
  if (
    entry.limit !== undefined ||
    entry.capacity !== undefined ||
    entry.note !== undefined ||
    entry.noise !== undefined
  )
    return { ...entry, status, severity, note, noise };
  const { kind, key, baseline, current, delta, percent, rule } = entry;
  if (entry.unit === undefined)
    return { kind, key, baseline, current, delta, percent, status, severity, rule, note, noise };
  return { kind, key, baseline, current, delta, percent, status, severity, rule, unit: entry.unit, note, noise };
}

/** What a tolerance lets a value grow by at a baseline: its largest set field (a change must exceed every one). */
function allowance(tolerance: Tolerance, baseline: number): number {
  const bytes = tolerance.bytes ?? 0;
  const percent =
    tolerance.percent !== undefined && baseline !== 0 ? (Math.abs(baseline) * tolerance.percent) / 100 : 0;
  return Math.max(bytes, percent);
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
    if (j >= after.length || (i < before.length && compareKeys(before[i] as string, after[j] as string) <= 0))
      keys.push(before[i++] as string);
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
  return {
    kind,
    key,
    baseline,
    current,
    delta,
    percent: percentChange(baseline, current),
    status,
    severity: severityOf(status, config),
    rule: rule?.match ?? null,
  };
}

function statusOf(
  rule: Rule | undefined,
  baseline: number | null,
  current: number | null,
  delta: number | null,
  thresholds: KindThresholds,
): Status {
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

// Re-judges a report uploaded by an untrusted run against the trusted baseline and config: every verdict, count and the
// result are derived again from the report's own figures, and each claim that does not follow is named. Pure, no I/O.
import { disjointOf } from './disjoint.js';
import { SECTIONS, sectionOfKind, valueOf, type SectionDeclaration } from '../model/sections/index.js';
import type { Metric } from '../model/sections/types.js';
import { hasNoMetrics, metricsOf } from '../model/snapshot.js';
import { compareKeys } from '../model/key-order.js';
import { keysOf } from '../model/record-keys.js';
import { VERDICTS_AFTER_FINDINGS, VERDICTS_BEFORE_FINDINGS } from './basics.js';
import { judge, withFindings, withNoiseBand, type Band } from './compare.js';
import { applyEnvironment } from './environment.js';
import { FINDINGS, findingOrder, writerOf, type AnyFinding } from './findings/index.js';
import { sectionThresholds } from './tolerance.js';
import {
  STATUSES,
  type Entry,
  type FindingStatus,
  type GateConfig,
  type GateInput,
  type GateReport,
  type NoiseLookup,
  type Policy,
  type Severity,
  type Status,
} from './types.js';

/** One claim of the report that the trusted limits do not give. */
export interface Discrepancy {
  /** JSON pointer into the uploaded report: `/entries/5/status`, `/counts/pass`, `/result`; `/entries` for an entry it lacks. */
  pointer: string;
  /** The entry's key, or null for counts and the result. */
  key: string | null;
  /** What the claim is about; `entry` is an entry that should not be there (claimed) or is missing (re-judged). */
  field:
    | 'entry'
    | 'status'
    | 'severity'
    | 'baseline'
    | 'current'
    | 'delta'
    | 'percent'
    | 'rule'
    | 'unit'
    | 'limit'
    | 'capacity'
    | 'environment'
    | 'count'
    | 'result';
  claimed: ClaimedValue;
  rejudged: ClaimedValue;
  /** For figures: what they count (absent = bytes). */
  unit?: 'bytes' | 'count';
}

/** A figure, a status, rule or result, or (for `entry`) a whole verdict; null = absent. */
export type ClaimedValue = string | number | null | Verdict;

/** An entry's verdict, as `entry` discrepancies show it. */
interface Verdict {
  status: Status;
  severity: Severity;
}

export interface Rejudged {
  /** The report as the trusted limits judge the uploaded figures. */
  report: GateReport;
  /** Every claim that does not follow, in the report's order (entries, then the entries it lacks, counts, result). */
  discrepancies: Discrepancy[];
}

export interface TrustedLimits {
  /** The trusted baseline; null when there is none (a first run). */
  baseline: GateInput | null;
  config: GateConfig;
  /** The default branch's history (trusted: only its runs write it), for the noise band of a config with `history`. */
  noise?: NoiseLookup;
}

/** Statuses of the baseline comparison (compare.ts); every other status is a finding's. */
const VERDICT_STATUSES: ReadonlySet<Status> = new Set([...VERDICTS_BEFORE_FINDINGS, ...VERDICTS_AFTER_FINDINGS]);

/** The findings derived again here (their `rejudge.derivedFrom`), and the sections whose figures they read. */
const DERIVED_FINDINGS: readonly AnyFinding[] = (FINDINGS as readonly AnyFinding[]).filter(
  (f) => 'derivedFrom' in f.rejudge,
);
const DERIVED_FROM: ReadonlySet<string> = new Set(
  DERIVED_FINDINGS.flatMap((f) => ('derivedFrom' in f.rejudge ? f.rejudge.derivedFrom : [])),
);

/** What a finding says when the report holds no verdict for its key: the verdict was taken away, and that fails. */
const ORPHAN_FINDING_NOTE =
  "The uploaded report has no verdict for this finding's key (dropped or relabelled): it fails.";

/** What an entry no gate writes says. */
const UNKNOWN_ENTRY_NOTE =
  'The uploaded report has an entry no gate writes (this status is never given to this kind of key): it fails.';

/** What a second verdict for one key says: honest reports have one per key. */
export const SECOND_VERDICT_NOTE =
  'The uploaded report has a second verdict for this key (relabelled or forged): it fails.';

/** What a report says of a baseline key it has no entry for: its figure is unknown, and that fails. */
export const DROPPED_ENTRY_NOTE =
  'The uploaded report has no entry for this baseline key (dropped or renamed): its figure is unknown, so it fails.';

/**
 * Derives again, from the trusted baseline and config, everything in `claimed` that follows from its figures (each
 * entry's `current`, which only the run that measured it knows):
 * - per key of every compared section: baseline value, delta, percent, rule, status and severity (compare.ts's judge,
 *   and the noise band from the trusted history when the config has one);
 *   a trusted baseline key with no entry is `missing` and fails, and so does a second verdict for one key;
 * - the findings declared `derivedFrom` sections (src/gate/findings/): assessed again over those sections' figures as
 *   the report holds them and the trusted baseline and config (each device's headroom, CANN reference costs on a first
 *   run, imbalance between devices);
 * - the findings declared `kept`, whose evidence the report does not hold (leak suspects, allocation failures, OOMs,
 *   fragmentation, growth, step leaks): the severity the trusted `verdicts` give their status; one whose key lost its
 *   verdict (in the sections the finding reads from the key's own metric) fails;
 * - an entry no finding is declared to write (a status on a kind it is never written for) fails;
 * - the environment findings' severity, the counts and the result.
 * Keys are matched in the form the report writes them (`keyAsWritten`: the report shortens keys past its limit).
 */
export function rejudgeReport(
  claimed: GateReport,
  trusted: TrustedLimits,
  keyAsWritten: (key: string) => string = (key) => key,
): Rejudged {
  const { config } = trusted;
  const baseline = trusted.baseline ?? { sections: {} };
  const discrepancies: Discrepancy[] = [];
  const claims = sortClaims(claimed, trusted, keyAsWritten, discrepancies);
  const findings = [
    ...rejudgeDerived(claims, baseline, config, keyAsWritten, discrepancies),
    ...rejudgeKept(claims, config, discrepancies),
  ];
  const verdicts = [...claims.verdicts, ...droppedKeys(claims, config, discrepancies)];
  const sectionOrder = new Map(SECTIONS.map((d, i) => [d.kind, i]));
  verdicts.sort(
    (a, b) => (sectionOrder.get(a.kind) ?? 0) - (sectionOrder.get(b.kind) ?? 0) || compareKeys(a.key, b.key),
  );
  findings.sort(findingOrder(sectionOrder));
  const report = assembled(
    claimed,
    trusted,
    verdicts,
    [...withFindings(verdicts, findings), ...claims.others],
    discrepancies,
  );
  // The entries' claims in the report's order (those it lacks last), then the counts and the result.
  const position = (d: Discrepancy): number => {
    const index = /^\/entries\/(\d+)/.exec(d.pointer);
    return index ? Number(index[1]) : d.pointer === '/entries' ? Number.MAX_SAFE_INTEGER : Number.POSITIVE_INFINITY;
  };
  discrepancies.sort((a, b) => position(a) - position(b) || 0);
  for (const status of STATUSES) {
    const before = claimed.counts[status] ?? 0;
    const after = report.counts[status] ?? 0;
    if (before !== after)
      discrepancies.push({ pointer: `/counts/${status}`, key: null, field: 'count', claimed: before, rejudged: after });
  }
  if (claimed.result !== report.result)
    discrepancies.push({
      pointer: '/result',
      key: null,
      field: 'result',
      claimed: claimed.result,
      rejudged: report.result,
    });
  return { report, discrepancies };
}

/** A report's entries sorted by how each is re-judged, with the verdicts already judged again. */
interface Claims {
  /** Per compared section (by entry kind): its trusted baseline keys, by the form the report writes them. */
  trustedKeys: Map<string, Map<string, TrustedKey>>;
  /** Per compared section (by entry kind): the keys that have a verdict. */
  seen: Map<string, Set<string>>;
  verdicts: Entry[];
  /** The report's figures of the sections derived findings read, under their whole keys. */
  figures: Record<string, Record<string, Metric>>;
  /** Claimed findings that are derived here, by kind, key and status, with where they stand in the report. */
  derivable: Map<string, { entry: Entry; index: number }[]>;
  kept: { entry: Entry; index: number }[];
  /** Entries that fail whatever else holds: second verdicts and entries no gate writes. */
  others: Entry[];
}

/** Judges every verdict entry again and sorts the findings by how they are re-judged. */
function sortClaims(
  claimed: GateReport,
  trusted: TrustedLimits,
  keyAsWritten: (key: string) => string,
  discrepancies: Discrepancy[],
): Claims {
  const { config } = trusted;
  const band: Band | undefined =
    config.history !== null && trusted.noise !== undefined
      ? { config: config.history, noise: trusted.noise }
      : undefined;
  const baseline = trusted.baseline ?? { sections: {} };
  const compared = SECTIONS.filter((d) => d.compared !== false);
  const claims: Claims = {
    trustedKeys: new Map(compared.map((d) => [d.kind, trustedKeysOf(d, baseline, keyAsWritten)])),
    seen: new Map(compared.map((d) => [d.kind, new Set<string>()])),
    verdicts: [],
    figures: Object.fromEntries([...DERIVED_FROM].map((name) => [name, {}])),
    derivable: new Map(),
    kept: [],
    others: [],
  };
  claimed.entries.forEach((entry, i) => {
    const at = `/entries/${i}`;
    const declaration = sectionOfKind(entry.kind);
    const keys = claims.seen.get(entry.kind);
    const finding = findingClass(entry);
    if (declaration !== undefined && keys !== undefined && VERDICT_STATUSES.has(entry.status)) {
      const trustedKey = claims.trustedKeys.get(entry.kind)?.get(entry.key);
      const rejudged = rejudgeVerdict(entry, at, declaration, trustedKey, config, keyAsWritten, discrepancies, band);
      if (keys.has(entry.key)) {
        // A second verdict for one key: a finding relabelled (whose own status is lost), or a forged entry. It fails.
        const failed: Entry = { ...rejudged, severity: 'fail' };
        discrepancies.push({
          pointer: at,
          key: entry.key,
          field: 'entry',
          claimed: described(entry),
          rejudged: described(failed),
        });
        claims.others.push({ ...failed, note: SECOND_VERDICT_NOTE });
        return;
      }
      keys.add(entry.key);
      claims.verdicts.push(rejudged);
      const figured = claims.figures[declaration.name];
      if (figured !== undefined && entry.current !== null)
        figured[trustedKey?.key ?? entry.key] = figureOf(declaration, entry.current);
    } else if (finding === 'derived') {
      const id = findingId(entry);
      claims.derivable.set(id, [...(claims.derivable.get(id) ?? []), { entry, index: i }]);
    } else if (finding === 'kept') {
      claims.kept.push({ entry, index: i });
    } else {
      // No gate writes such an entry (a status on a kind it is never written for): a relabelled verdict, so it fails.
      const rejudged = { status: entry.status, severity: 'fail' as const };
      discrepancies.push({ pointer: at, key: entry.key, field: 'entry', claimed: described(entry), rejudged });
      claims.others.push({ ...entry, severity: 'fail', note: UNKNOWN_ENTRY_NOTE });
    }
  });
  return claims;
}

/**
 * The derived findings (headroom, reference costs, imbalance) as the gate would write them for the report's figures;
 * claimed ones these figures do not give are dropped, unless the key's verdict is gone too (relabelled), which fails.
 */
function rejudgeDerived(
  claims: Claims,
  baseline: GateInput,
  config: GateConfig,
  keyAsWritten: (key: string) => string,
  discrepancies: Discrepancy[],
): Entry[] {
  const findings: Entry[] = [];
  const derivedEntries = DERIVED_FINDINGS.flatMap(
    (finding) => finding.assess({ baseline, current: { sections: claims.figures }, config }) as Entry[],
  );
  for (const derived of derivedEntries) {
    const entry: Entry = { ...derived, key: keyAsWritten(derived.key) };
    const match = claims.derivable.get(findingId(entry))?.shift();
    if (match === undefined)
      discrepancies.push({
        pointer: '/entries',
        key: entry.key,
        field: 'entry',
        claimed: null,
        rejudged: described(entry),
      });
    else compareFinding(match.entry, entry, `/entries/${match.index}`, discrepancies);
    findings.push(entry);
  }
  for (const rest of claims.derivable.values()) {
    for (const { entry, index } of rest) {
      const pointer = `/entries/${index}`;
      const orphan = claims.seen.get(entry.kind)?.has(entry.key) === false;
      const rejudged = orphan ? { status: entry.status, severity: 'fail' as const } : null;
      discrepancies.push({ pointer, key: entry.key, field: 'entry', claimed: described(entry), rejudged });
      if (orphan) findings.push({ ...entry, severity: 'fail', note: ORPHAN_FINDING_NOTE });
    }
  }
  return findings;
}

/** The kept findings with the trusted config's severity; one read from a key's own metric fails without its verdict. */
function rejudgeKept(claims: Claims, config: GateConfig, discrepancies: Discrepancy[]): Entry[] {
  const findings: Entry[] = [];
  for (const { entry, index } of claims.kept) {
    const finding = rejudgeKeptFinding(entry, `/entries/${index}`, config, discrepancies);
    if (finding === null) continue;
    const rejudging = writerOf(finding)?.finding.rejudge;
    const declaration = sectionOfKind(finding.kind);
    if (
      rejudging !== undefined &&
      'kept' in rejudging &&
      declaration !== undefined &&
      rejudging.withVerdict.includes(declaration.name) &&
      !claims.seen.get(finding.kind)?.has(finding.key)
    ) {
      discrepancies.push({
        pointer: `/entries/${index}/severity`,
        key: finding.key,
        field: 'severity',
        claimed: finding.severity,
        rejudged: 'fail',
      });
      finding.severity = 'fail';
      finding.note = ORPHAN_FINDING_NOTE;
    }
    findings.push(finding);
  }
  return findings;
}

/** Every trusted baseline key has a verdict in an honest report, even when the run did not produce it (missing). */
function droppedKeys(claims: Claims, config: GateConfig, discrepancies: Discrepancy[]): Entry[] {
  const dropped: Entry[] = [];
  for (const declaration of SECTIONS.filter((d) => d.compared !== false)) {
    const keys = claims.seen.get(declaration.kind) as Set<string>;
    for (const [written, { key, value }] of claims.trustedKeys.get(declaration.kind) ?? []) {
      if (keys.has(written)) continue;
      const judged = unitOf(
        judge(declaration.kind, key, value, null, sectionThresholds(config, declaration), config),
        declaration,
      );
      const entry: Entry =
        judged.status === 'ignored'
          ? { ...judged, key: written }
          : { ...judged, key: written, severity: 'fail', note: DROPPED_ENTRY_NOTE };
      discrepancies.push({
        pointer: '/entries',
        key: written,
        field: 'entry',
        claimed: null,
        rejudged: described(entry),
      });
      dropped.push(entry);
    }
  }
  return dropped;
}

/** The re-judged report around its entries: what the run says (history read, records not read), what the config says. */
function assembled(
  claimed: GateReport,
  trusted: TrustedLimits,
  verdicts: Entry[],
  entries: Entry[],
  discrepancies: Discrepancy[],
): GateReport {
  const { config } = trusted;
  let report: GateReport = { result: 'pass', counts: countsOf(entries), entries };
  if (claimed.missingArtifacts !== undefined) report.missingArtifacts = claimed.missingArtifacts;
  // Which history the run read: comment mode has read it there (when that commit is on the branch) for the noise band.
  if (claimed.history !== undefined) report.history = claimed.history;
  if (claimed.environment !== undefined) {
    // What changed is the run's to say; what a change does to the verdict is the trusted config's.
    const severity = policySeverity(config.environment.onChange);
    if (severity !== claimed.environment.severity)
      discrepancies.push({
        pointer: '/environment/severity',
        key: null,
        field: 'environment',
        claimed: claimed.environment.severity,
        rejudged: severity,
      });
    report = applyEnvironment(report, { ...claimed.environment, severity });
  }
  // Recomputed from the trusted baseline's verdicts: what a disjoint baseline does is the trusted config's.
  const disjoint = disjointOf(verdicts, config);
  if (disjoint !== null) report.disjointBaseline = disjoint;
  if (claimed.notRead !== undefined) report.notRead = claimed.notRead;
  const failed =
    disjoint?.severity === 'fail' ||
    entries.some((e) => e.severity === 'fail') ||
    report.environment?.severity === 'fail' ||
    (config.onMissingBaseline === 'fail' && (trusted.baseline === null || hasNoMetrics(trusted.baseline)));
  return { ...report, result: failed ? 'fail' : 'pass' };
}

/** A section's trusted baseline keys, by the form the report writes them, with the key itself and its compared value. */
function trustedKeysOf(
  declaration: SectionDeclaration,
  baseline: GateInput,
  keyAsWritten: (key: string) => string,
): Map<string, TrustedKey> {
  const metrics = metricsOf(baseline, declaration.name);
  const out = new Map<string, TrustedKey>();
  for (const key of keysOf(metrics))
    out.set(keyAsWritten(key), {
      key,
      value: valueOf(declaration, metrics[key] as Metric),
      metric: metrics[key] as Metric,
    });
  return out;
}

/** A trusted baseline key: whole, its compared value and its metric. */
interface TrustedKey {
  key: string;
  value: number;
  metric: Metric;
}

/** One key's verdict judged again: the trusted baseline value against the report's current. */
function rejudgeVerdict(
  entry: Entry,
  at: string,
  declaration: SectionDeclaration,
  trusted: TrustedKey | undefined,
  config: GateConfig,
  keyAsWritten: (key: string) => string,
  discrepancies: Discrepancy[],
  band: Band | undefined,
): Entry {
  const baseline = trusted?.value ?? null;
  // The rule is matched against the whole key when the baseline knows it (the report may hold it shortened).
  const thresholds = sectionThresholds(config, declaration);
  let judged = unitOf(
    judge(declaration.kind, trusted?.key ?? entry.key, baseline, entry.current, thresholds, config),
    declaration,
  );
  // The noise band, as the gate applies it: from the trusted history, never from the report's own claim.
  if (band !== undefined && (judged.status === 'regressed' || judged.status === 'improved')) {
    judged = unitOf(
      withNoiseBand(judged, thresholds, band, config, declaration.unit === 'count' ? 'count' : undefined),
      declaration,
    );
  }
  let rejudged: Entry = { ...judged, key: entry.key, rule: judged.rule === null ? null : keyAsWritten(judged.rule) };
  // The section's sentence on the key's metric, as compare.ts writes it unless the noise band said why: the run's own
  // (only the run holds its metric: the claimed note stays), or the trusted baseline's for a key the run lacks.
  const describe = declaration.describe;
  if (describe !== undefined && rejudged.note === undefined) {
    const note =
      entry.current !== null ? entry.note : trusted === undefined ? undefined : describe(trusted.key, trusted.metric);
    if (note !== undefined) rejudged = { ...rejudged, note };
  }
  const unit = rejudged.unit ?? 'bytes';
  const differ = (
    field: 'baseline' | 'delta' | 'percent' | 'rule' | 'unit',
    claimed: string | number | null,
    value: string | number | null,
  ): void => {
    if (claimed !== value)
      discrepancies.push({
        pointer: `${at}/${field}`,
        key: entry.key,
        field,
        claimed,
        rejudged: value,
        ...(field === 'rule' || field === 'unit' ? {} : { unit }),
      });
  };
  differ('baseline', entry.baseline, rejudged.baseline);
  if (entry.status !== rejudged.status)
    discrepancies.push({
      pointer: `${at}/status`,
      key: entry.key,
      field: 'status',
      claimed: entry.status,
      rejudged: rejudged.status,
    });
  else if (entry.severity !== rejudged.severity)
    discrepancies.push({
      pointer: `${at}/severity`,
      key: entry.key,
      field: 'severity',
      claimed: entry.severity,
      rejudged: rejudged.severity,
    });
  // delta and percent follow from the baseline: listed only when they are wrong on their own.
  if (entry.baseline === rejudged.baseline) {
    differ('delta', entry.delta, rejudged.delta);
    differ('percent', entry.percent, rejudged.percent);
  }
  differ('rule', entry.rule, rejudged.rule);
  differ('unit', entry.unit ?? null, rejudged.unit ?? null);
  return rejudged;
}

/** `derived` again here from the report's figures, `kept` as claimed (their evidence is not in the report), or neither: no finding writes it. */
function findingClass(entry: Entry): 'derived' | 'kept' | null {
  const writer = writerOf(entry);
  if (writer === undefined) return null;
  return 'derivedFrom' in writer.finding.rejudge ? 'derived' : 'kept';
}

/** A verdict's figure as a metric of its section: the compared value, every other field unknown. */
function figureOf(declaration: SectionDeclaration, current: number): Metric {
  return {
    ...Object.fromEntries(Object.keys(declaration.fields).map((field) => [field, null])),
    [declaration.value]: current,
  };
}

/** Which derived finding an entry claims to be: one per finding and key (a device has one headroom verdict, whatever its status). */
function findingId(entry: Pick<Entry, 'kind' | 'key' | 'status'>): string {
  return `${entry.kind}\0${entry.key}\0${writerOf(entry)?.finding.name ?? entry.status}`;
}

/** A claimed derived finding against the one derived here: status, severity and the figures it was held to. */
function compareFinding(claimed: Entry, derived: Entry, at: string, discrepancies: Discrepancy[]): void {
  if (claimed.status !== derived.status)
    discrepancies.push({
      pointer: `${at}/status`,
      key: claimed.key,
      field: 'status',
      claimed: claimed.status,
      rejudged: derived.status,
    });
  else if (claimed.severity !== derived.severity)
    discrepancies.push({
      pointer: `${at}/severity`,
      key: claimed.key,
      field: 'severity',
      claimed: claimed.severity,
      rejudged: derived.severity,
    });
  const unit = derived.unit ?? 'bytes';
  for (const field of ['baseline', 'current', 'limit', 'capacity'] as const) {
    const before = claimed[field] ?? null;
    const after = derived[field] ?? null;
    if (before !== after)
      discrepancies.push({
        pointer: `${at}/${field}`,
        key: claimed.key,
        field,
        claimed: before,
        rejudged: after,
        unit,
      });
  }
}

/** A finding whose evidence the report does not hold: its severity from the trusted `verdicts`; null when they ignore it. */
function rejudgeKeptFinding(entry: Entry, at: string, config: GateConfig, discrepancies: Discrepancy[]): Entry | null {
  const policy = config.verdicts[entry.status as FindingStatus];
  if (policy === 'ignore') {
    discrepancies.push({ pointer: at, key: entry.key, field: 'entry', claimed: described(entry), rejudged: null });
    return null;
  }
  if (entry.severity !== policy)
    discrepancies.push({
      pointer: `${at}/severity`,
      key: entry.key,
      field: 'severity',
      claimed: entry.severity,
      rejudged: policy,
    });
  return { ...entry, severity: policy };
}

/** A non-byte section's entries carry its unit, as compare.ts writes them. */
function unitOf(entry: Entry, declaration: SectionDeclaration): Entry {
  return declaration.unit === 'bytes' ? entry : { ...entry, unit: declaration.unit };
}

/** An entry's verdict, for an `entry` discrepancy. */
function described(entry: Pick<Entry, 'status' | 'severity'>): Verdict {
  return { status: entry.status, severity: entry.severity };
}

function countsOf(entries: readonly Entry[]): Partial<Record<Status, number>> {
  const counts: Partial<Record<Status, number>> = {};
  for (const status of STATUSES) counts[status] = 0;
  for (const entry of entries) counts[entry.status] = (counts[entry.status] ?? 0) + 1;
  return counts;
}

function policySeverity(policy: Policy): Severity {
  return policy === 'ignore' ? 'ok' : policy;
}

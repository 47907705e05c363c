// The report's entries partitioned for the renderers (problems, improvements, the rest, each in display order), and the verdict sentence.
import type { Entry, GateReport } from '../gate/types.js';
import { compareKeys } from '../model/key-order.js';
import { formatCount } from '../model/units.js';
import { REPORT_KINDS, REPORT_STATUSES } from './report-schema.js';
import { contextFailure } from './run-context.js';

/** The report's entries split into the renderers' sections, each already in display order. */
export interface EntryPartition {
  /** Severity fail, then warn (and any unknown severity: shown, never hidden); largest growth first. */
  problems: Entry[];
  /** Status improved with severity ok; largest shrink first. */
  improvements: Entry[];
  /** Everything else with severity ok (pass, ignored, …): collapsed; by kind, then key (in the gate's order with `orderUnchanged: false`). */
  unchanged: Entry[];
}

/** Growth in bytes, also for a new key (its whole current) or a missing key (minus its baseline). */
export function growth(entry: Entry): number {
  return entry.delta ?? (entry.current ?? 0) - (entry.baseline ?? 0);
}

export function partitionEntries(report: GateReport, options: { orderUnchanged?: boolean } = {}): EntryPartition {
  const problems: Entry[] = [];
  const improvements: Entry[] = [];
  const unchanged: Entry[] = [];
  // Indexed: this runs once per report over every entry, before V8 optimizes it, and for...of would allocate an
  // iterator result per entry (160,000 at 4,096 devices).
  const entries = report.entries;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Entry;
    if (entry.severity !== 'ok') problems.push(entry);
    else if (entry.status === 'improved') improvements.push(entry);
    else unchanged.push(entry);
  }
  problems.sort((a, b) => severityRank(a) - severityRank(b) || growth(b) - growth(a) || byKindAndKey(a, b));
  improvements.sort((a, b) => growth(a) - growth(b) || byKindAndKey(a, b));
  // The gate already lists entries by kind then key: check in one pass (cheap) before a sort of ~10^5 collated keys.
  // A caller that only counts them (the terminal) skips even that pass: ~40 ms at 160,000 keys.
  if (options.orderUnchanged !== false) orderEntries(unchanged);
  return { problems, improvements, unchanged };
}

/** Entries by kind, then key, sorted in place unless they already are (the gate lists them so: one pass checks it). */
export function orderEntries(entries: Entry[]): Entry[] {
  if (!isSortedBy(entries, byKindAndKey)) entries.sort(byKindAndKey);
  return entries;
}

function isSortedBy<T>(items: readonly T[], compare: (a: T, b: T) => number): boolean {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1] as T, items[i] as T) > 0) return false;
  return true;
}

function severityRank(entry: Entry): number {
  return entry.severity === 'fail' ? 0 : entry.severity === 'warn' ? 1 : 2;
}

function byKindAndKey(a: Entry, b: Entry): number {
  return kindRank(a.kind) - kindRank(b.kind) || compareKeys(a.kind, b.kind) || compareKeys(a.key, b.key);
}

function kindRank(kind: string): number {
  const known: readonly string[] = REPORT_KINDS;
  const i = known.indexOf(kind);
  return i === -1 ? known.length : i;
}

/**
 * A first run: no entry has a baseline value and none is missing (the baseline file is absent or empty). Derived
 * from the entries, so a report read back from JSON says the same.
 */
export function isFirstRun(report: Pick<GateReport, 'entries'>): boolean {
  return report.entries.length > 0 && report.entries.every((e) => e.baseline === null && e.status !== 'missing');
}

/** Worst first: failing before warning before the rest, then the largest absolute change, then kind and key. */
export function worstFirst(a: Entry, b: Entry): number {
  return severityRank(a) - severityRank(b) || Math.abs(growth(b)) - Math.abs(growth(a)) || byKindAndKey(a, b);
}

/** Statuses of the given entries with their counts, in REPORT_STATUSES order, unknown statuses after, by name. */
export function countByStatus(entries: readonly Entry[]): [status: string, count: number][] {
  const counts = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) {
    const status = (entries[i] as Entry).status;
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const known: readonly string[] = REPORT_STATUSES;
  const rank = (s: string): number => (known.includes(s) ? known.indexOf(s) : known.length);
  return [...counts].sort(([a], [b]) => rank(a) - rank(b) || compareKeys(a, b));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** The verdict worded once: `rest` follows the format's title when `titled` (` failed: 2 regressed`), else stands alone. */
export interface Verdict {
  titled: boolean;
  rest: string;
}

/**
 * The verdict without decoration: "Memory gate failed: 2 regressed, 1 over budget (3 warnings)" or
 * "Memory gate passed: 140 keys within thresholds". `title` is inserted as given: escape it for the target first.
 */
export function verdictText(report: GateReport, title: string): string {
  return titledVerdict(verdictOf(report), title);
}

export function titledVerdict(verdict: Verdict, title: string): string {
  return verdict.titled ? `${title}${verdict.rest}` : verdict.rest;
}

export function verdictOf(report: GateReport): Verdict {
  const firstRun = isFirstRun(report);
  // On a first run every key is new by definition: those are not warnings, the recorded keys are the news.
  const warnings = report.entries.filter(
    (e) => e.severity !== 'ok' && e.severity !== 'fail' && !(firstRun && e.status === 'new'),
  ).length;
  const warningNote = warnings > 0 ? ` (${plural(warnings, 'warning')})` : '';
  if (firstRun) {
    const keys = new Set(report.entries.map((e) => `${e.kind}\u0000${e.key}`)).size;
    // Findings that need no baseline (an OOM, allocation failures) fail a first run on their own: they are the verdict.
    const failing = countByStatus(report.entries.filter((e) => e.severity === 'fail' && e.status !== 'new'));
    if (failing.length > 0) {
      const why = failing.map(([status, n]) => `${formatCount(n)} ${status}`).join(', ');
      return { titled: true, rest: ` failed: ${why} (no baseline yet: ${plural(keys, 'key')} recorded)${warningNote}` };
    }
    const closed =
      report.result === 'fail' ? ', the gate stays closed until a baseline is committed (onMissingBaseline: fail)' : '';
    return { titled: false, rest: `No baseline yet: ${plural(keys, 'key')} recorded${closed}${warningNote}` };
  }
  if (report.result === 'fail') {
    const failing = [
      ...countByStatus(report.entries.filter((e) => e.severity === 'fail')).map(
        ([status, n]) => `${formatCount(n)} ${status}`,
      ),
      ...[contextFailure(report)].filter((why) => why !== null),
    ].join(', ');
    return { titled: true, rest: ` failed${failing ? `: ${failing}` : ''}${warningNote}` };
  }
  // Keys compared with the baseline and within its thresholds (passed or improved): a new or missing key was not
  // compared, and a warning is counted as one, not as a key within thresholds.
  const within = new Set<string>();
  for (const e of report.entries)
    if (e.severity === 'ok' && (e.status === 'pass' || e.status === 'improved')) within.add(`${e.kind}\u0000${e.key}`);
  return { titled: true, rest: ` passed: ${plural(within.size, 'key')} within thresholds${warningNote}` };
}

/** Statuses a new baseline settles: the figures moved (or came or went) and the change may be intended. */
const BASELINE_STATUSES: ReadonlySet<string> = new Set(['regressed', 'improved', 'new', 'missing']);

/**
 * How to accept an intended change, for the end of a failed report: null when the gate passed or nothing that failed
 * is settled by a new baseline (an OOM, a budget). `code` formats a command or name for the target.
 */
/** A failing check that a new baseline would settle: the formats then say how to accept an intended change. */
export function acceptsBaseline(report: GateReport): boolean {
  return (
    report.result === 'fail' && report.entries.some((e) => e.severity === 'fail' && BASELINE_STATUSES.has(e.status))
  );
}

/** How to accept an intended change (when `acceptsBaseline`), worded once; `code` decorates commands and names per format. */
export function acceptChangeText(
  baselineFile: string,
  label: string | undefined,
  code: (text: string) => string,
): string {
  const labelText =
    label === undefined
      ? `the baseline update label (config ${code('baselineUpdateLabel')})`
      : `the label ${code(label)}`;
  return (
    `To accept an intended change: ${code(`ascend-memory-gate baseline --out ${baselineFile}`)} with this check's inputs, then commit ${code(baselineFile)} ` +
    `(the Action: ${code('mode: update')}); on a pull request, ${labelText} set by a maintainer lets its own baseline count.`
  );
}

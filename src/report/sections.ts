// What every renderer shows, in which order: the verdict, the failing/warning keys, improvements, the rest, device totals.
import type { Entry, GateReport } from '../gate/types.js';
import { compareKeys } from '../snapshot.js';
import { REPORT_KINDS, REPORT_STATUSES } from './report-schema.js';
import { contextFailure } from './run-context.js';

/** The report's entries split into the renderers' sections, each already in display order. */
export interface ReportSections {
  /** Severity fail, then warn (and any unknown severity: shown, never hidden); largest growth first. */
  problems: Entry[];
  /** Status improved with severity ok; largest shrink first. */
  improvements: Entry[];
  /** Everything else with severity ok (pass, ignored, …): collapsed; by kind, then key. */
  unchanged: Entry[];
}

/** Growth in bytes, also for a new key (its whole current) or a missing key (minus its baseline). */
export function growth(entry: Entry): number {
  return entry.delta ?? (entry.current ?? 0) - (entry.baseline ?? 0);
}

export function splitSections(report: GateReport): ReportSections {
  const problems: Entry[] = [];
  const improvements: Entry[] = [];
  const unchanged: Entry[] = [];
  for (const entry of report.entries) {
    if (entry.severity !== 'ok') problems.push(entry);
    else if (entry.status === 'improved') improvements.push(entry);
    else unchanged.push(entry);
  }
  problems.sort((a, b) => severityRank(a) - severityRank(b) || growth(b) - growth(a) || byKindAndKey(a, b));
  improvements.sort((a, b) => growth(a) - growth(b) || byKindAndKey(a, b));
  unchanged.sort(byKindAndKey);
  return { problems, improvements, unchanged };
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

/** "over-budget" → "over budget": works for statuses this build does not know yet. */
export function statusLabel(status: string): string {
  return status.replaceAll('-', ' ');
}

/** Statuses of the given entries with their counts, in REPORT_STATUSES order, unknown statuses after, by name. */
export function countByStatus(entries: readonly Entry[]): [status: string, count: number][] {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.status, (counts.get(entry.status) ?? 0) + 1);
  const known: readonly string[] = REPORT_STATUSES;
  const rank = (s: string): number => (known.includes(s) ? known.indexOf(s) : known.length);
  return [...counts].sort(([a], [b]) => rank(a) - rank(b) || compareKeys(a, b));
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/**
 * The verdict without decoration: "Memory gate failed: 2 regressed, 1 over budget (3 warnings)" or
 * "Memory gate passed: 140 keys within thresholds". `title` is inserted as given: escape it for the target first.
 */
export function verdictText(report: GateReport, title: string): string {
  const warnings = report.entries.filter((e) => e.severity !== 'ok' && e.severity !== 'fail').length;
  const warningNote = warnings > 0 ? ` (${plural(warnings, 'warning')})` : '';
  if (report.result === 'fail') {
    const failing = [
      ...countByStatus(report.entries.filter((e) => e.severity === 'fail')).map(([status, n]) => `${formatCount(n)} ${statusLabel(status)}`),
      ...[contextFailure(report)].filter((why) => why !== null),
    ].join(', ');
    return `${title} failed${failing ? `: ${failing}` : ''}${warningNote}`;
  }
  const keys = new Set(report.entries.map((e) => `${e.kind}\u0000${e.key}`)).size;
  return `${title} passed: ${plural(keys, 'key')} within thresholds${warningNote}`;
}

/** Sums per `devN` key segment: module peaks (an upper bound of the device peak) and kernel diffs. */
export interface DeviceTotals {
  device: string;
  modules: { baseline: number; current: number } | null;
  kernels: { baseline: number; current: number } | null;
}

const DEVICE_SEGMENT = /^dev\d+$/;

/** The first `devN` segment of a key (`DEV_MEM/dev0/APP`, `dev3/matmul_v1`), or null for host and SVM keys. */
export function deviceOf(key: string): string | null {
  for (const segment of key.split('/')) if (DEVICE_SEGMENT.test(segment)) return segment;
  return null;
}

export function deviceTotals(entries: readonly Entry[]): DeviceTotals[] {
  const byDevice = new Map<string, DeviceTotals>();
  // A key can carry several entries (its verdict, then findings such as imbalance with the same values): count it once.
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.kind !== 'module' && entry.kind !== 'kernel') continue;
    const id = `${entry.kind}\u0000${entry.key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const device = deviceOf(entry.key);
    if (device === null) continue;
    let totals = byDevice.get(device);
    if (totals === undefined) {
      totals = { device, modules: null, kernels: null };
      byDevice.set(device, totals);
    }
    const side = entry.kind === 'module' ? 'modules' : 'kernels';
    const sum = (totals[side] ??= { baseline: 0, current: 0 });
    sum.baseline += entry.baseline ?? 0;
    sum.current += entry.current ?? 0;
  }
  return [...byDevice.values()].sort((a, b) => compareKeys(a.device, b.device));
}

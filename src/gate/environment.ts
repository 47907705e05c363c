// The environment behind the numbers, compared: baseline run vs this run, and the nodes of one run against each other. Pure.
import type { EnvironmentItems } from '../model/snapshot.js';
import type {
  Entry,
  EnvironmentChange,
  EnvironmentFindings,
  EnvironmentPolicy,
  EnvironmentSplit,
  GateReport,
  Severity,
} from './types.js';

/** A run's environment, per node name: merging two runs' maps is a union, whatever the order. */
export type RunEnvironment = Record<string, EnvironmentItems>;

/** A run's environment from its snapshot's (or baseline's) nodes; nodes that recorded none are left out. */
export function runEnvironmentOf(
  meta: { nodes?: Record<string, { environment: EnvironmentItems }> } | undefined,
): RunEnvironment | undefined {
  const nodes = Object.entries(meta?.nodes ?? {}).filter(([, node]) => Object.keys(node.environment).length > 0);
  return nodes.length === 0 ? undefined : Object.fromEntries(nodes.map(([name, node]) => [name, node.environment]));
}

export const DEFAULT_ENVIRONMENT_POLICY: EnvironmentPolicy = { onChange: 'warn', ignore: [] };

/** Labels people know the items by; any other item shows under its own name. */
const LABELS: Record<string, string> = {
  cann: 'CANN toolkit',
  driver: 'driver',
  firmware: 'firmware',
  chip: 'chip',
  torch: 'torch',
  torch_npu: 'torch_npu',
};

export function environmentLabel(item: string): string {
  // An item is any name a run gives (`constructor` too): only own entries are labels.
  return Object.hasOwn(LABELS, item) ? (LABELS[item] as string) : item;
}

/** A node's value of an item, or undefined: own properties only, so `toString` is unset until a run sets it. */
function itemValue(node: EnvironmentItems, item: string): string | undefined {
  return Object.hasOwn(node, item) ? node[item] : undefined;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Every item any node reports, sorted; ignored items left out. */
function itemsOf(environment: RunEnvironment, ignore: ReadonlySet<string>): string[] {
  const items = new Set<string>();
  for (const node of Object.values(environment))
    for (const item of Object.keys(node)) if (!ignore.has(item)) items.add(item);
  return [...items].sort(byText);
}

/** The run's value of an item: the one value when every node agrees, else the distinct values joined with ` | `. */
export function runValue(environment: RunEnvironment, item: string): string | null {
  const values = new Set<string>();
  let unset = false;
  for (const node of Object.values(environment)) {
    const value = itemValue(node, item);
    if (value === undefined) unset = true;
    else values.add(value);
  }
  if (values.size === 0) return null;
  const sorted = [...values].sort(byText);
  return unset ? [...sorted, '(unset)'].join(' | ') : sorted.join(' | ');
}

/**
 * Baseline vs this run, and this run's nodes against each other. A side that recorded no environment at all (an old
 * baseline, raw files parsed on the gate's runner) is not compared: "everything changed" would say nothing.
 */
export function compareEnvironments(
  baseline: RunEnvironment | undefined,
  current: RunEnvironment | undefined,
  policy: EnvironmentPolicy = DEFAULT_ENVIRONMENT_POLICY,
): EnvironmentFindings {
  const severity: Severity = policy.onChange === 'fail' ? 'fail' : policy.onChange === 'warn' ? 'warn' : 'ok';
  if (policy.onChange === 'ignore' || current === undefined || Object.keys(current).length === 0)
    return { changes: [], splits: [], severity };
  const ignore = new Set(policy.ignore);
  const changes: EnvironmentChange[] = [];
  if (baseline !== undefined && Object.keys(baseline).length > 0) {
    const items = new Set([...itemsOf(baseline, ignore), ...itemsOf(current, ignore)]);
    for (const item of [...items].sort(byText)) {
      const before = runValue(baseline, item);
      const after = runValue(current, item);
      if (before !== after) changes.push({ item, baseline: before, current: after });
    }
  }
  const splits: EnvironmentSplit[] = [];
  const nodes = Object.keys(current).sort(byText);
  for (const item of itemsOf(current, ignore)) {
    const groups = new Map<string | null, string[]>();
    for (const node of nodes) {
      const value = itemValue(current[node]!, item) ?? null;
      groups.set(value, [...(groups.get(value) ?? []), node]);
    }
    if (groups.size > 1) {
      const values = [...groups].map(([value, names]) => ({ value, nodes: names }));
      values.sort((a, b) => b.nodes.length - a.nodes.length || byText(a.value ?? '', b.value ?? ''));
      splits.push({ item, values });
    }
  }
  return { changes, splits, severity };
}

/** Whether the findings say anything. */
export function hasEnvironmentFindings(findings: EnvironmentFindings | undefined): findings is EnvironmentFindings {
  return (
    findings !== undefined && findings.severity !== 'ok' && (findings.changes.length > 0 || findings.splits.length > 0)
  );
}

/** `CANN toolkit 8.3.RC1 → 9.0.RC1; torch_npu 2.5.1 → 2.6.0`: one line for notes and annotations. */
function describeChanges(changes: EnvironmentChange[]): string {
  return changes
    .map((c) => `${environmentLabel(c.item)} ${c.baseline ?? '(unset)'} → ${c.current ?? '(unset)'}`)
    .join('; ');
}

/** Statuses that say a value grew: each one's note says it happened across the environment change. */
const GROWTH = new Set(['regressed', 'over-budget']);

/**
 * The report with the environment findings attached: regressions note the change they happened across, and with
 * `onChange: fail` a change (or a split) fails the run. The entries' own verdicts are never altered.
 */
export function applyEnvironment(report: GateReport, findings: EnvironmentFindings): GateReport {
  if (!hasEnvironmentFindings(findings)) return report;
  const across =
    findings.changes.length > 0
      ? `Across the environment change since the baseline (${describeChanges(findings.changes)}).`
      : null;
  const entries = across
    ? report.entries.map((e): Entry =>
        GROWTH.has(e.status) ? { ...e, note: e.note ? `${e.note} ${across}` : across } : e,
      )
    : report.entries;
  const result = findings.severity === 'fail' ? 'fail' : report.result;
  return { ...report, entries, result, environment: findings };
}

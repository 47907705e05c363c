// The registry: every section, in report order. Adding a section is one file here and one line below.
import { allocationSites } from './allocation-sites.js';
import { allocator } from './allocator.js';
import { components } from './components.js';
import { graphs } from './graphs.js';
import { inefficient } from './inefficient.js';
import { kernels } from './kernels.js';
import { modules } from './modules.js';
import { opFootprint } from './op-footprint.js';
import { oomModules } from './oom-modules.js';
import { ooms } from './ooms.js';
import { operators } from './operators.js';
import { owners } from './owners.js';
import { stepLeaks } from './step-leaks.js';
import { steps } from './steps.js';
import { unfreed } from './unfreed.js';
import type { Metric, SectionDeclaration } from './types.js';

export type { DeviceSplit, Fields, Metric, MetricFields, MetricToWrite, Section, SectionDeclaration } from './types.js';
export type { KernelMetric } from './kernels.js';
export type { ModuleMetric } from './modules.js';
export { kernels, modules };
export { deviceName, findDeviceSegment, splitDevice, type SegmentBounds } from './keys.js';

export const SECTIONS: readonly SectionDeclaration[] = [
  modules,
  components,
  operators,
  graphs,
  kernels,
  steps,
  stepLeaks,
  unfreed,
  owners,
  opFootprint,
  inefficient,
  allocator,
  allocationSites,
  ooms,
  oomModules,
];

const byName = new Map(SECTIONS.map((s) => [s.name, s]));
const byKind = new Map(SECTIONS.map((s) => [s.kind, s]));

/** The section called `name`; throws for a name no declaration has (a programming error, not bad input). */
export function section(name: string): SectionDeclaration {
  const found = byName.get(name);
  if (found === undefined) throw new Error(`no section is declared with the name '${name}'`);
  return found;
}

/** The section whose entries have this kind, or undefined for kinds of no section (`device`). */
export function sectionOfKind(kind: string): SectionDeclaration | undefined {
  return byKind.get(kind);
}

/** The compared value of a metric. */
export function valueOf(declaration: SectionDeclaration, metric: Metric): number {
  const v = metric[declaration.value];
  return typeof v === 'number' ? v : 0;
}

/**
 * Two metrics of one key (several dumps, processes, files or ranks): the one with the larger compared value wins
 * whole; nothing is summed. A tie is broken by the metrics' content, so the result never depends on the order.
 */
export function combineMetrics(declaration: SectionDeclaration, a: Metric, b: Metric): Metric {
  const va = valueOf(declaration, a);
  const vb = valueOf(declaration, b);
  if (va !== vb) return va > vb ? a : b;
  // The same record again (common: a log repeats its statistics): `a`, as the content comparison would say, unserialized.
  if (sameMetric(a, b)) return a;
  return canonical(a) >= canonical(b) ? a : b;
}

/** Whether two metrics hold the same fields with the same values (in any key order). */
function sameMetric(a: Metric, b: Metric): boolean {
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k] || !Object.prototype.hasOwnProperty.call(b, k)) return false;
    n++;
  }
  for (const _ in b) if (--n < 0) return false;
  return n === 0;
}

function canonical(metric: Metric): string {
  return JSON.stringify(
    Object.keys(metric)
      .sort()
      .map((k) => [k, metric[k]]),
  );
}

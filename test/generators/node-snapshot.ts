// Node snapshots (`*.memory-snapshot.json`) of generated jobs at scale, written as the tool writes them: the scale
// bench's (bench/scale.mjs) baseline and run of N devices × 15 modules + K kernels, and one node's snapshot per device.
import type { Snapshot, SnapshotMeta } from '../../src/model/snapshot.js';
import { MiB, MODULES } from '../helpers/story.js';

const moduleMetric = (peak: number): Record<string, number> => ({ peak, current: peak, allocs: 10, frees: 4 });
const kernelMetric = (diff: number): Record<string, number | string> => ({
  diff,
  rows: 3,
  added: 0,
  removed: 0,
  event: 'KERNEL_LAUNCH',
});
const meta = (devices: string[]): SnapshotMeta => ({
  files: devices.length,
  records: devices.length * MODULES.length,
  skipped: 0,
  allocFailures: Object.fromEntries(devices.map((d) => [d, 0])),
});

/**
 * A run of `devices` devices × 15 modules and `kernels` kernels: each module's peak alike on every device (within 5%,
 * as data-parallel ranks are), `grow` scaling every 97th key (a regression, and an imbalance finding, each).
 */
export function scaleRun(devices: number, kernels: number, grow = 1): Snapshot {
  const names = Array.from({ length: devices }, (_, d) => `dev${d}`);
  const modules: Record<string, Record<string, number>> = {};
  let i = 0;
  for (const [d, name] of names.entries()) {
    for (const [j, m] of MODULES.entries()) {
      const jitter = 1 + ((d * 7919 + j * 104729) % 50) / 1000;
      const peak = Math.round((1 + j) * 64 * MiB * jitter * (i++ % 97 === 0 ? grow : 1));
      modules[`DEV_MEM/${name}/${m}`] = moduleMetric(peak);
    }
  }
  const kernelMetrics: Record<string, Record<string, number | string>> = {};
  for (let k = 0; k < kernels; k++) kernelMetrics[`dev${k % devices}/aclnnOp_${k}`] = kernelMetric((k % 7) * 4096);
  return { version: 2, sections: { kernels: kernelMetrics, modules }, series: {}, meta: meta(names) };
}

/** Device `d`'s node snapshot (node `node-<d / 8>`): 15 modules and `kernels` kernels. */
export function deviceSnapshot(d: number, kernels: number): Snapshot {
  const modules = Object.fromEntries(MODULES.map((m, j) => [`DEV_MEM/dev${d}/${m}`, moduleMetric((j + 1) * 64 * MiB)]));
  const kernelMetrics = Object.fromEntries(
    Array.from({ length: kernels }, (_, k) => [`dev${d}/aclnnOp_${k}`, kernelMetric(k * 4096)]),
  );
  const nodes = {
    [`node-${d >> 3}`]: {
      devices: [`dev${d}`],
      files: 1,
      records: MODULES.length,
      skipped: 0,
      environment: { cann: '8.3.RC1' },
    },
  };
  return {
    version: 2,
    sections: { kernels: kernelMetrics, modules },
    series: {},
    meta: { ...meta([`dev${d}`]), nodes },
  };
}

const collator = new Intl.Collator('en', { numeric: true });
const sorted = (v: unknown, order?: (a: string, b: string) => number): unknown =>
  Array.isArray(v)
    ? v.map((x) => sorted(x))
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort(order)
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;
const naturalSections = (byName: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.keys(byName)
      .sort()
      .map((name) => [name, sorted(byName[name], collator.compare)]),
  );

/**
 * JSON as the tool writes baselines and node snapshots (stringifyDocument): keys sorted at every level, 2-space indent,
 * each section's keys in natural order (dev2 before dev10).
 */
export function asWritten(v: Snapshot): string {
  const document = sorted(v) as Record<string, unknown>;
  document.sections = naturalSections(v.sections);
  document.series = naturalSections(v.series);
  return `${JSON.stringify(document, null, 2)}\n`;
}

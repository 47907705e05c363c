// Generated jobs for report tests: N devices × 15 modules (+ kernels), a baseline and a run, compared by the real gate.
import { compareSnapshots } from '../../src/gate/compare.js';
import { DEFAULT_CONFIG } from '../../src/gate/thresholds.js';
import type { GateConfig, GateInput, GateReport } from '../../src/gate/types.js';
import { GiB, MiB } from './story.js';

/**
 * 15 module keys per device with the peaks of a busy 910B: 12 in DEV_MEM, 3 in MEM_DEV_SMALL_HBM (one module name
 * under two attributes, which the reports group apart), so not the plain name list MODULES of story.ts.
 */
const MODULE_PEAKS = [
  ['DEV_MEM', 'APP', 19.7 * GiB],
  ['DEV_MEM', 'HCCL', 620 * MiB],
  ['DEV_MEM', 'RUNTIME', 26 * MiB],
  ['DEV_MEM', 'GE', 3 * MiB],
  ['DEV_MEM', 'AICPU', 12 * MiB],
  ['DEV_MEM', 'DVPP', 2 * MiB],
  ['DEV_MEM', 'TSCH', 4 * MiB],
  ['DEV_MEM', 'HCCP', 9 * MiB],
  ['DEV_MEM', 'DRV', 1 * MiB],
  ['DEV_MEM', 'PROFILING', 5 * MiB],
  ['DEV_MEM', 'FMK', 7 * MiB],
  ['DEV_MEM', 'CUSTOM', 3 * MiB],
  ['MEM_DEV_SMALL_HBM', 'APP', 1.5 * GiB],
  ['MEM_DEV_SMALL_HBM', 'RUNTIME', 40 * MiB],
  ['MEM_DEV_SMALL_HBM', 'GE', 8 * MiB],
] as const;

export interface JobSpec {
  devices: number;
  /** Factor on a module's peak in this run, per key (`DEV_MEM/dev3/APP`); default 1. */
  change?: (attribute: string, device: number, module: string) => number;
  /** Factor on a module's peak in the baseline as well (an imbalance already there). */
  baselineChange?: (attribute: string, device: number, module: string) => number;
  /** Kernel keys `devN/kernel_i`, spread over the devices; every 7th grows. */
  kernels?: number;
  /** No baseline: a first run. */
  firstRun?: boolean;
  config?: Partial<GateConfig>;
}

function metric(peak: number): { peak: number; current: number; allocs: number; frees: number } {
  const p = Math.round(peak);
  return { peak: p, current: p, allocs: 100, frees: 100 };
}

type Metrics = Record<string, Record<string, number | string | null>>;

export function jobSnapshots(spec: JobSpec): { baseline: GateInput; current: GateInput } {
  const side = (): { modules: Metrics; kernels: Metrics; failures: Record<string, number> } => ({
    modules: {},
    kernels: {},
    failures: {},
  });
  const before = side();
  const after = side();
  for (let d = 0; d < spec.devices; d++) {
    for (const [attribute, module, peak] of MODULE_PEAKS) {
      const key = `${attribute}/dev${d}/${module}`;
      const was = peak * (spec.baselineChange?.(attribute, d, module) ?? 1);
      before.modules[key] = metric(was);
      after.modules[key] = metric(was * (spec.change?.(attribute, d, module) ?? 1));
    }
    before.failures[`dev${d}`] = 0;
    after.failures[`dev${d}`] = 0;
  }
  for (let k = 0; k < (spec.kernels ?? 0); k++) {
    const key = `dev${k % spec.devices}/aclnnKernel_${Math.floor(k / spec.devices)}`;
    const diff = 4096 * ((k % 13) + 1);
    before.kernels[key] = { diff, rows: 2, added: 0, removed: 0, event: 'KERNEL_LAUNCH' };
    after.kernels[key] = { diff: k % 7 === 0 ? diff * 2 : diff, rows: 2, added: 0, removed: 0, event: 'KERNEL_LAUNCH' };
  }
  const input = (s: ReturnType<typeof side>): GateInput => ({
    sections: { modules: s.modules, kernels: s.kernels },
    meta: { allocFailures: s.failures },
  });
  if (spec.firstRun === true) return { baseline: { sections: {} }, current: input(after) };
  return { baseline: input(before), current: input(after) };
}

/** The gate's report for the job, with the default config and the spec's overrides. */
export function jobReport(spec: JobSpec): GateReport {
  const { baseline, current } = jobSnapshots(spec);
  return compareSnapshots(baseline, current, { ...DEFAULT_CONFIG, ...spec.config });
}

/**
 * The 8-device story: APP doubled on dev3 (19.7 → 39.4 GiB, over a 32 GiB capacity), HCCL grew 30% on dev5
 * (an imbalance and a regression), RUNTIME grew 9.7 MiB on dev0, GE new-looking growth nowhere; capacity 32 GiB.
 */
export function eightDeviceStory(): GateReport {
  return jobReport({
    devices: 8,
    change: (attribute, d, module) => {
      if (attribute === 'DEV_MEM' && module === 'APP' && d === 3) return 2;
      if (attribute === 'DEV_MEM' && module === 'HCCL' && d === 5) return 1.3;
      if (attribute === 'DEV_MEM' && module === 'RUNTIME' && d === 0) return (26 + 9.7) / 26;
      return 1;
    },
    config: { device: { capacity: 32 * GiB, minHeadroom: { percent: 10 } } },
  });
}

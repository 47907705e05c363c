// What the device findings share: module keys split into attribute, device and module, read once per side, and each device's estimated peak. Pure, no I/O.
import { compareKeys } from '../../model/key-order.js';
import { keysOf } from '../../model/record-keys.js';
import type { EntryOf, KindThresholds, Rule } from '../basics.js';
import { matchRule, percentChange } from '../tolerance.js';
import { type ModuleMetric } from '../../model/sections/index.js';

/** The process-total attribute (v3 `total_size`): the same memory as the module statistics, so never added to them. */
export const PROCESS_TOTAL_ATTRIBUTE = 'DEV_PROC_MEM';

/** The profiler's view of the same driver modules (npu_module_mem.csv): a second reading of that memory, never added to the plog's. */
export const PROFILER_MODULES_ATTRIBUTE = 'NPU_MODULE_MEM';

// ---------------------------------------------------------------------------------------------------------------
// Keys

/** A module key split: `DEV_MEM/dev0/APP` → {attribute DEV_MEM, device dev0, module APP}; `SVM_MEM/RUNTIME` has no device. */
export interface ModuleKeyParts {
  attribute: string;
  device: string | null;
  module: string;
}

/** A device segment: `dev0`. */
export const DEVICE_NAME = /^dev\d+$/;

export function parseModuleKey(key: string): ModuleKeyParts | null {
  // Slashes found by indexOf, not split: the gate reads every module key of both sides several times.
  const first = key.indexOf('/');
  if (first === -1) return null;
  const second = key.indexOf('/', first + 1);
  if (second === -1) return { attribute: key.slice(0, first), device: null, module: key.slice(first + 1) };
  if (key.includes('/', second + 1)) return null;
  const device = key.slice(first + 1, second);
  return DEVICE_NAME.test(device) ? { attribute: key.slice(0, first), device, module: key.slice(second + 1) } : null;
}

/**
 * A module key with its parts, read once per modules object: every assessment below walks the same 60,000 keys, by
 * index (each walk runs once per side, before V8 optimizes it, and for...of would allocate an iterator result per key).
 */
export interface IndexedModule {
  key: string;
  metric: ModuleMetric;
  parts: ModuleKeyParts | null;
}

const moduleIndexes = new WeakMap<Record<string, ModuleMetric>, IndexedModule[]>();

/** The modules of one side, keys split, in the side's key order; computed once per modules object. */
export function indexModules(modules: Record<string, ModuleMetric>): IndexedModule[] {
  let index = moduleIndexes.get(modules);
  if (index === undefined) {
    index = keysOf(modules).map((key) => ({ key, metric: modules[key] as ModuleMetric, parts: parseModuleKey(key) }));
    moduleIndexes.set(modules, index);
  }
  return index;
}

// ---------------------------------------------------------------------------------------------------------------
// A device's peak

/**
 * What one device's module statistics say about its peak. The driver prints peaks per module, not per device, so:
 * - `moduleSum` adds the peaks of every module in every attribute of the device (DEV_MEM, MEM_DEV_*_HBM/DDR, DVPP_MEM…),
 *   and the CACHED sizes (memory the driver holds for reuse, counted in no module). Peaks of different modules may be
 *   reached at different times, so the sum is an UPPER BOUND of the device's peak;
 * - `processTotal` is DEV_PROC_MEM (`total_size`), already the process's total on the device: the same memory again,
 *   so it is never added to the modules;
 * - `profilerModuleSum` adds the profiler's NPU_MODULE_MEM module peaks (npu_module_mem.csv): the driver's modules read
 *   by another tool, so never added to the plog's either;
 * - `bytes`, the estimate, is the largest of the three.
 * Keys ignored by a rule still count: ignoring a key's changes does not free its memory.
 */
export interface DeviceEstimate {
  device: string;
  bytes: number;
  moduleSum: number;
  /** Module keys in moduleSum (CACHED included). */
  moduleCount: number;
  /** The part of moduleSum that is CACHED. */
  cached: number;
  /** Attributes of moduleSum, sorted. */
  attributes: string[];
  /** Sum of DEV_PROC_MEM peaks on the device (one per process module), or null without such records. */
  processTotal: number | null;
  /** Sum of the profiler's NPU_MODULE_MEM module peaks on the device, or null without them. */
  profilerModuleSum: number | null;
}

export function estimateDevicePeaks(modules: Record<string, ModuleMetric>): Map<string, DeviceEstimate> {
  const estimates = new Map<string, DeviceEstimate>();
  for (const { metric, parts } of indexModules(modules)) {
    if (parts === null || parts.device === null) continue;
    let estimate = estimates.get(parts.device);
    if (estimate === undefined) {
      estimate = {
        device: parts.device,
        bytes: 0,
        moduleSum: 0,
        moduleCount: 0,
        cached: 0,
        attributes: [],
        processTotal: null,
        profilerModuleSum: null,
      };
      estimates.set(parts.device, estimate);
    }
    if (parts.attribute === PROCESS_TOTAL_ATTRIBUTE) {
      estimate.processTotal = (estimate.processTotal ?? 0) + metric.peak;
    } else if (parts.attribute === PROFILER_MODULES_ATTRIBUTE) {
      estimate.profilerModuleSum = (estimate.profilerModuleSum ?? 0) + metric.peak;
    } else {
      estimate.moduleSum += metric.peak;
      estimate.moduleCount++;
      if (parts.module === 'CACHED') estimate.cached += metric.peak;
      if (!estimate.attributes.includes(parts.attribute)) estimate.attributes.push(parts.attribute);
    }
  }
  for (const estimate of estimates.values()) {
    estimate.attributes.sort(compareKeys);
    estimate.bytes = Math.max(estimate.moduleSum, estimate.processTotal ?? 0, estimate.profilerModuleSum ?? 0);
  }
  return estimates;
}

export function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------------------------------

const NO_RULES: readonly Rule[] = [];

/** Whether the modules section's rules ignore the key (an ignored key's changes are not findings either). */
export function isIgnored(key: string, config: { sections: Record<string, KindThresholds> }): boolean {
  return matchRule(config.sections.modules?.rules ?? NO_RULES, key)?.ignore === true;
}

/** The comparison fields every entry carries: this run against the baseline run. */
export function compared(
  kind: string,
  key: string,
  baseline: number | null,
  current: number,
): Pick<EntryOf<string>, 'kind' | 'key' | 'baseline' | 'current' | 'delta' | 'percent'> {
  return {
    kind,
    key,
    baseline,
    current,
    delta: baseline === null ? null : current - baseline,
    percent: percentChange(baseline, current),
  };
}

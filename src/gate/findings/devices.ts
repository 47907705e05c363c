// The reading an engineer does by hand beyond "what grew": headroom against the card, allocation failures, leak suspects, CANN reference costs on a first run, and rank imbalance. Pure, no I/O.
import { compareKeys, keysOf, modulesOf, type ModuleMetric, type Snapshot, type SnapshotMeta } from '../../model/snapshot.js';
import { median } from '../../model/roll-up.js';
import { formatBytes } from '../../model/units.js';
import { section } from '../../model/sections/index.js';
import { exceedsTolerance, matchRule, percentChange } from '../thresholds.js';
import type { Entry, FindingStatus, GateConfig, Headroom, HcclReference, Profile, Rule, Severity, Status } from '../types.js';

/** What the device assessments get from each side: the snapshot's sections and, when known, allocation failures per device. */
export type DeviceEvidence = Pick<Snapshot, 'sections'> & { meta?: Partial<Pick<SnapshotMeta, 'allocFailures' | 'allocFailureSites'>> };

/** What they read of it: the `modules` section. */
type ModuleEvidence = { modules: Record<string, ModuleMetric>; meta?: Partial<Pick<SnapshotMeta, 'allocFailures' | 'allocFailureSites'>> };

function moduleEvidence(side: DeviceEvidence): ModuleEvidence {
  return side.meta === undefined ? { modules: modulesOf(side) } : { modules: modulesOf(side), meta: side.meta };
}

/** Findings about a run, on top of the baseline verdicts: module findings share their module's key, device entries are per `devN`. */
export interface DeviceAssessment {
  /** leak-suspect, above-reference and imbalance; kind 'module', keyed like the module (`DEV_MEM/dev0/APP`). */
  moduleFindings: Entry[];
  /** Headroom (over-capacity, low-headroom or pass, when a capacity is configured) and alloc-failure; kind 'device', key `dev0`. */
  deviceEntries: Entry[];
}

const MiB = 1024 ** 2;

/** The statuses of findings in the order a key lists them. */
export const FINDING_STATUSES: readonly FindingStatus[] = [
  'over-capacity',
  'low-headroom',
  'alloc-failure',
  'leak-suspect',
  'above-reference',
  'imbalance',
  'growing',
];

/** The process-total attribute (v3 `total_size`): the same memory as the module statistics, so never added to them. */
export const PROCESS_TOTAL_ATTRIBUTE = 'DEV_PROC_MEM';

/** The profiler's view of the same driver modules (npu_module_mem.csv): a second reading of that memory, never added to the plog's. */
export const PROFILER_MODULES_ATTRIBUTE = 'NPU_MODULE_MEM';

export function assessDevices(baselineSide: DeviceEvidence, currentSide: DeviceEvidence, config: GateConfig): DeviceAssessment {
  const baseline = moduleEvidence(baselineSide);
  const current = moduleEvidence(currentSide);
  const moduleFindings = [
    ...assessLeaks(baseline, current, config),
    ...assessReferences(baseline, current, config),
    ...assessImbalance(baseline, current, config),
  ];
  const deviceEntries = [...assessHeadroom(baseline, current, config), ...assessAllocFailures(baseline, current, config)];
  const statusOrder: readonly Status[] = FINDING_STATUSES;
  // On one device the headroom verdict comes before alloc-failure; pass (a headroom verdict too) is no finding and ranks first.
  const rank = (status: Status): number => (statusOrder.includes(status) ? statusOrder.indexOf(status) : -1);
  const order = (a: Entry, b: Entry): number => compareKeys(a.key, b.key) || rank(a.status) - rank(b.status);
  return { moduleFindings: moduleFindings.sort(order), deviceEntries: deviceEntries.sort(order) };
}

// ---------------------------------------------------------------------------------------------------------------
// Keys

/** A module key split: `DEV_MEM/dev0/APP` → {attribute DEV_MEM, device dev0, module APP}; `SVM_MEM/RUNTIME` has no device. */
export interface ModuleKeyParts {
  attribute: string;
  device: string | null;
  module: string;
}

const DEVICE_NAME = /^dev\d+$/;

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
interface IndexedModule {
  key: string;
  metric: ModuleMetric;
  parts: ModuleKeyParts | null;
}

const moduleIndexes = new WeakMap<Record<string, ModuleMetric>, IndexedModule[]>();

/** The modules of one side, keys split, in the side's key order; computed once per modules object. */
function indexModules(modules: Record<string, ModuleMetric>): IndexedModule[] {
  let index = moduleIndexes.get(modules);
  if (index === undefined) {
    index = keysOf(modules).map((key) => ({ key, metric: modules[key] as ModuleMetric, parts: parseModuleKey(key) }));
    moduleIndexes.set(modules, index);
  }
  return index;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Headroom against the device

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
      estimate = { device: parts.device, bytes: 0, moduleSum: 0, moduleCount: 0, cached: 0, attributes: [], processTotal: null, profilerModuleSum: null };
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

/** A device's limits: `devices.devN` over `device`, field by field. */
export function deviceLimits(device: string, config: Pick<GateConfig, 'device' | 'devices'>): { capacity?: number; minHeadroom?: Headroom } {
  const override = Object.hasOwn(config.devices, device) ? config.devices[device] : undefined;
  return { ...config.device, ...override };
}

/** The headroom a device must keep, in bytes: a percent of the capacity rounds up. */
export function requiredHeadroom(capacity: number, minHeadroom: Headroom | undefined): number {
  if (minHeadroom === undefined) return 0;
  if ('bytes' in minHeadroom) return minHeadroom.bytes;
  return Math.ceil((capacity * minHeadroom.percent) / 100);
}

function assessHeadroom(baseline: ModuleEvidence, current: ModuleEvidence, config: GateConfig): Entry[] {
  // No capacity anywhere in the config: no device has a headroom verdict, so no estimate is needed.
  if (config.device.capacity === undefined && Object.values(config.devices).every((d) => d.capacity === undefined)) return [];
  const before = estimateDevicePeaks(baseline.modules);
  const entries: Entry[] = [];
  for (const estimate of estimateDevicePeaks(current.modules).values()) {
    const { capacity, minHeadroom } = deviceLimits(estimate.device, config);
    if (capacity === undefined) continue;
    const required = requiredHeadroom(capacity, minHeadroom);
    const headroomLimit = Math.max(0, capacity - required);
    const minimum = minHeadroom === undefined ? 'none' : 'percent' in minHeadroom ? `${minHeadroom.percent}% = ${formatBytes(required)}` : formatBytes(required);
    const estimateText = `estimated peak ${formatBytes(estimate.bytes)}`;
    let status: 'over-capacity' | 'low-headroom' | 'pass';
    let limit: number;
    let verdict: string;
    if (estimate.bytes > capacity) {
      status = 'over-capacity';
      limit = capacity;
      verdict = `${estimateText} is over the capacity ${formatBytes(capacity)} by ${formatBytes(estimate.bytes - capacity)}`;
    } else if (estimate.bytes > headroomLimit) {
      status = 'low-headroom';
      limit = headroomLimit;
      verdict = `${estimateText} leaves ${formatBytes(capacity - estimate.bytes)} of the capacity ${formatBytes(capacity)}, less than the minimum headroom (${minimum})`;
    } else {
      status = 'pass';
      limit = headroomLimit;
      verdict = `${estimateText} leaves ${formatBytes(capacity - estimate.bytes)} of the capacity ${formatBytes(capacity)} (minimum headroom ${minimum})`;
    }
    let severity: Severity = 'ok';
    if (status !== 'pass') {
      const policy = config.verdicts[status];
      if (policy === 'ignore') continue;
      severity = policy;
    }
    const baselineBytes = before.get(estimate.device)?.bytes ?? null;
    entries.push({
      ...compared('device', estimate.device, baselineBytes, estimate.bytes),
      status,
      severity,
      rule: null,
      unit: 'bytes',
      limit,
      capacity,
      note: `${verdict}. ${describeEstimate(estimate)}`,
    });
  }
  return entries;
}

function describeEstimate(estimate: DeviceEstimate): string {
  if (estimate.profilerModuleSum === null) return describePlogEstimate(estimate);
  const profiler = `the sum of the profiler's ${PROFILER_MODULES_ATTRIBUTE} module peaks (${formatBytes(estimate.profilerModuleSum)})`;
  if (estimate.moduleCount === 0 && estimate.processTotal === null) return `An upper bound: ${profiler}, which need not coincide`;
  const larger = estimate.profilerModuleSum > Math.max(estimate.moduleSum, estimate.processTotal ?? 0);
  return `${describePlogEstimate(estimate)}; ${profiler} is a second reading of the same memory, never added${larger ? ', and the larger: the estimate' : ''}`;
}

function describePlogEstimate(estimate: DeviceEstimate): string {
  const total = `the process total ${PROCESS_TOTAL_ATTRIBUTE} (${formatBytes(estimate.processTotal ?? 0)})`;
  if (estimate.moduleCount === 0) return `From ${total}`;
  const cached = estimate.cached > 0 ? `, CACHED ${formatBytes(estimate.cached)} included` : '';
  const modules = `the sum of ${plural(estimate.moduleCount, 'module peak')} in ${estimate.attributes.join(', ')}`;
  if (estimate.processTotal === null) return `An upper bound: ${modules}${cached ? ` (${cached.slice(2)})` : ''}, which need not coincide`;
  return estimate.processTotal > estimate.moduleSum
    ? `From ${total}, larger than ${modules} (${formatBytes(estimate.moduleSum)}${cached}); the two are never added`
    : `An upper bound: ${modules} (${formatBytes(estimate.moduleSum)}${cached}), which need not coincide, larger than ${total}; the two are never added`;
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Allocation failures

function assessAllocFailures(baseline: ModuleEvidence, current: ModuleEvidence, config: GateConfig): Entry[] {
  const policy = config.verdicts['alloc-failure'];
  if (policy === 'ignore') return [];
  const failures = current.meta?.allocFailures ?? {};
  const before = baseline.meta?.allocFailures ?? {};
  const entries: Entry[] = [];
  for (const [device, count] of Object.entries(failures)) {
    if (count <= 0) continue;
    const where = DEVICE_NAME.test(device) ? `on ${device}` : 'on a device the failure line does not name';
    // Where to look in the logs: the first failure line the parser kept for this device.
    const site = current.meta?.allocFailureSites?.[device]?.[0];
    const first = site === undefined ? '' : `; first at ${site.file}:${site.line}`;
    entries.push({
      ...compared('device', device, Object.hasOwn(before, device) ? (before[device] ?? null) : null, count),
      status: 'alloc-failure',
      severity: policy,
      rule: null,
      unit: 'count',
      limit: 0,
      note: `${count} allocation ${count === 1 ? 'failure' : 'failures'} (halMemAlloc failed) ${where}${first}: a job that survived an out-of-memory by retrying is not healthy, and one that died of it left only these lines`,
    });
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Leak suspects

/** Outstanding allocations at exit (alloc_cnt − free_cnt), or null when the record has no counts (v0, v3, CACHED). */
export function outstandingAllocations(metric: ModuleMetric): number | null {
  return metric.allocs === null || metric.frees === null ? null : metric.allocs - metric.frees;
}

function assessLeaks(baseline: ModuleEvidence, current: ModuleEvidence, config: GateConfig): Entry[] {
  const policy = config.verdicts['leak-suspect'];
  if (policy === 'ignore') return [];
  const { count, percent } = config.leaks;
  const entries: Entry[] = [];
  const index = indexModules(current.modules);
  for (let i = 0; i < index.length; i++) {
    const { key, metric } = index[i] as IndexedModule;
    const old = Object.hasOwn(baseline.modules, key) ? baseline.modules[key] : undefined;
    if (old === undefined || isIgnored(key, config)) continue;
    const before = outstandingAllocations(old);
    const after = outstandingAllocations(metric);
    if (before === null || after === null) continue;
    const growth = after - before;
    if (!exceedsTolerance(growth, before, { bytes: count, percent })) continue;
    // Growth must exceed every set field, so the tolerated growth is the largest of them; floor keeps "> limit" exact.
    const allowed = Math.max(count ?? 0, percent !== undefined ? Math.floor((Math.abs(before) * percent) / 100) : 0);
    const share = percent !== undefined ? `${percent}% of ${before}` : null;
    const tolerance = count !== undefined && share !== null ? `the larger of ${count} and ${share}` : (share ?? (count !== undefined ? `${count}` : 'none'));
    entries.push({
      ...compared('module', key, before, after),
      status: 'leak-suspect',
      severity: policy,
      rule: null,
      unit: 'count',
      limit: before + allowed,
      note:
        `outstanding allocations at exit (alloc_cnt - free_cnt) grew from ${before} to ${after} (+${growth}), ` +
        `more than the ${before + allowed} tolerated (growth allowed: ${tolerance}): a leak or a growing pool`,
    });
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------------------------
// 4. CANN reference costs on a first run

/**
 * Reference peaks of CANN components from the CANN troubleshooting guide ("查看CANN各组件内存统计信息"), PyTorch.
 * The guide writes "M"; the driver counts bytes and CANN's sizes (HCCL_BUFFSIZE) are MiB, so M = MiB.
 */
export const REFERENCE_COSTS: Readonly<Record<Profile, Readonly<Record<'GE' | 'RUNTIME', number>>>> = {
  training: { GE: 3 * MiB, RUNTIME: 26 * MiB },
  inference: { GE: 86 * MiB, RUNTIME: 18 * MiB },
};

/** HCCL link costs from the same guide: 4 MiB per link in single-op mode, 0.3 MiB per link and operator in graph mode. */
export const HCCL_LINK_COST = { singleOp: 4 * MiB, graphPerOp: 0.3 * MiB } as const;

/** A component's expected peak and how it was worked out, or null when the guide gives none (or HCCL is not configured). */
export interface ReferenceCost {
  bytes: number;
  basis: string;
}

export function referenceCost(module: string, profile: Profile | null, hccl: HcclReference | null): ReferenceCost | null {
  if (module === 'GE' || module === 'RUNTIME') {
    if (profile !== null) return { bytes: REFERENCE_COSTS[profile][module], basis: `the ${profile} reference for ${module}` };
    const training = REFERENCE_COSTS.training[module];
    const inference = REFERENCE_COSTS.inference[module];
    return {
      bytes: Math.max(training, inference),
      basis: `the larger of the training (${formatBytes(training)}) and inference (${formatBytes(inference)}) references for ${module}; set "profile"`,
    };
  }
  if (module === 'HCCL' && hccl !== null) {
    const links =
      hccl.mode === 'graph'
        ? { bytes: Math.round(hccl.links * hccl.ops * HCCL_LINK_COST.graphPerOp), text: `${plural(hccl.links, 'link')} x ${plural(hccl.ops, 'op')} x 0.3 MiB` }
        : { bytes: hccl.links * HCCL_LINK_COST.singleOp, text: `${plural(hccl.links, 'link')} x 4 MiB` };
    const buffers = hccl.domains * 2 * hccl.buffSize;
    return {
      bytes: links.bytes + buffers,
      basis: `the HCCL reference ${links.text} + ${plural(hccl.domains, 'domain')} x 2 x ${formatBytes(hccl.buffSize)}`,
    };
  }
  return null;
}

/** The attribute the guide's references are about. */
const REFERENCE_ATTRIBUTE = 'DEV_MEM';

function assessReferences(baseline: ModuleEvidence, current: ModuleEvidence, config: GateConfig): Entry[] {
  const policy = config.verdicts['above-reference'];
  if (policy === 'ignore') return [];
  const entries: Entry[] = [];
  const index = indexModules(current.modules);
  for (let i = 0; i < index.length; i++) {
    const { key, metric, parts } = index[i] as IndexedModule;
    // Only a key with no baseline: once there is one, the baseline is the better reference.
    if (Object.hasOwn(baseline.modules, key) || isIgnored(key, config)) continue;
    if (parts === null || parts.attribute !== REFERENCE_ATTRIBUTE || parts.device === null) continue;
    const reference = referenceCost(parts.module, config.profile, config.hccl);
    if (reference === null) continue;
    const limit = Math.floor(reference.bytes * config.reference.factor);
    if (metric.peak <= limit) continue;
    entries.push({
      ...compared('module', key, null, metric.peak),
      status: 'above-reference',
      severity: policy,
      rule: null,
      unit: 'bytes',
      limit,
      note: `no baseline yet: peak ${formatBytes(metric.peak)} is above ${config.reference.factor} x ${formatBytes(reference.bytes)}, ${reference.basis}`,
    });
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Rank imbalance

/** Peaks of every device-bearing module key by group (`DEV_MEM/{*}/APP`), skipping keys ignored by a rule. */
function imbalanceGroups(modules: ModuleEvidence['modules'], config: GateConfig): Map<string, { key: string; peak: number }[]> {
  const groups = new Map<string, { key: string; peak: number }[]>();
  // By attribute, then module: no `${attribute}/*/${module}` string per key, only per group.
  const byAttribute = new Map<string, Map<string, { key: string; peak: number }[]>>();
  const index = indexModules(modules);
  for (let i = 0; i < index.length; i++) {
    const { key, metric, parts } = index[i] as IndexedModule;
    if (parts === null || parts.device === null || isIgnored(key, config)) continue;
    let byModule = byAttribute.get(parts.attribute);
    if (byModule === undefined) byAttribute.set(parts.attribute, (byModule = new Map()));
    let members = byModule.get(parts.module);
    if (members === undefined) {
      byModule.set(parts.module, (members = []));
      groups.set(`${parts.attribute}/*/${parts.module}`, members);
    }
    members.push({ key, peak: metric.peak });
  }
  return groups;
}

/** How far a peak may stray from its group's median: the larger of the set fields. */
function allowedDeviation(middle: number, tolerance: GateConfig['imbalance']['tolerance']): number {
  return Math.max(tolerance.bytes ?? 0, tolerance.percent !== undefined ? (middle * tolerance.percent) / 100 : 0);
}

/**
 * Keys off their group's median in the baseline run too (its own imbalance): an imbalance that is no news. Keys of
 * groups with fewer than minDevices devices in the baseline count as balanced (nothing to compare with then).
 */
function imbalancedInBaseline(baseline: ModuleEvidence, config: GateConfig): Set<string> {
  const { tolerance, minDevices } = config.imbalance;
  const out = new Set<string>();
  for (const members of imbalanceGroups(baseline.modules, config).values()) {
    if (members.length < minDevices) continue;
    const middle = median(members.map((m) => m.peak));
    for (const { key, peak } of members) if (exceedsTolerance(Math.abs(peak - middle), middle, tolerance)) out.add(key);
  }
  return out;
}

function assessImbalance(baseline: ModuleEvidence, current: ModuleEvidence, config: GateConfig): Entry[] {
  const policy = config.verdicts.imbalance;
  if (policy === 'ignore') return [];
  const groups = imbalanceGroups(current.modules, config);
  const known = imbalancedInBaseline(baseline, config);
  const { tolerance, minDevices } = config.imbalance;
  const entries: Entry[] = [];
  for (const [group, members] of groups) {
    if (members.length < minDevices) continue;
    const middle = median(members.map((m) => m.peak));
    const allowed = allowedDeviation(middle, tolerance);
    const toleranceText = [tolerance.percent !== undefined ? `${tolerance.percent}%` : null, tolerance.bytes !== undefined ? formatBytes(tolerance.bytes) : null]
      .filter((part) => part !== null)
      .join(' and ');
    for (const { key, peak } of members) {
      const deviation = peak - middle;
      if (!exceedsTolerance(Math.abs(deviation), middle, tolerance)) continue;
      const above = deviation > 0;
      const share = middle === 0 ? '' : `${((Math.abs(deviation) / middle) * 100).toFixed(1)}% `;
      const old = Object.hasOwn(baseline.modules, key) ? baseline.modules[key] : undefined;
      // News: a new key, a key that moved beyond its own tolerance, or one that was balanced in the baseline.
      // An imbalance the baseline already had stays in the report (severity ok) but is not repeated as a warning.
      const keyTolerance = matchRule(config.sections.modules?.rules ?? NO_RULES, key)?.tolerance ?? config.sections.modules?.tolerance ?? section('modules').tolerance;
      const news = old === undefined || exceedsTolerance(Math.abs(peak - old.peak), old.peak, keyTolerance) || !known.has(key);
      entries.push({
        ...compared('module', key, old?.peak ?? null, peak),
        status: 'imbalance',
        severity: news ? policy : 'ok',
        rule: null,
        unit: 'bytes',
        // The bound crossed, as an integer: floor/ceil keep "current > limit" / "current < limit" exact.
        limit: above ? Math.floor(middle + allowed) : Math.ceil(middle - allowed),
        note:
          `${share}${above ? 'above' : 'below'} the median ${formatBytes(middle)} of ${group} on ${members.length} devices ` +
          `(tolerated: ${toleranceText === '' ? 'nothing' : toleranceText}): a pipeline stage, or one rank leaking` +
          (news ? '' : '; already so in the baseline, so not repeated as a warning'),
      });
    }
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------------------------

const NO_RULES: readonly Rule[] = [];

function isIgnored(key: string, config: GateConfig): boolean {
  return matchRule(config.sections.modules?.rules ?? NO_RULES, key)?.ignore === true;
}

/** The comparison fields every entry carries: this run against the baseline run. */
function compared(kind: Entry['kind'], key: string, baseline: number | null, current: number): Pick<Entry, 'kind' | 'key' | 'baseline' | 'current' | 'delta' | 'percent'> {
  return { kind, key, baseline, current, delta: baseline === null ? null : current - baseline, percent: percentChange(baseline, current) };
}

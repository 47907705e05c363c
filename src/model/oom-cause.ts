// The one rule that names an out-of-memory's cause from its figures, whichever evidence they came from (job log, allocator snapshot, msMemScope).
//
// With C = V − A (cached by PyTorch, not allocated) and O = T − V − F (held outside PyTorch's caching allocator), the
// first rule that holds names the cause (FORMATS-oom-messages.md §4): R > T, F ≥ R, O ≥ V, C ≥ R and C ≥ share of T
// (and, when a snapshot shows the largest free block, that block < R), else capacity. Pure, total: no figure can make it divide, go negative or throw (A > T happens on shared memory).

import { oomModules } from './sections/oom-modules.js';
import { ooms, type OomMetric } from './sections/ooms.js';
import type { OomModuleMetric } from './sections/oom-modules.js';
import { metricsOf, type SectionMetrics } from './snapshot.js';

/** The five causes, and `unknown` when the figures lack what the rule needs. Written as is in snapshots and reports. */
export const OOM_CAUSES = [
  'request-exceeds-device',
  'free-but-refused',
  'outside-allocator',
  'fragmentation',
  'capacity',
  'unknown',
] as const;

export type OomCause = (typeof OOM_CAUSES)[number];

/** An OOM's figures in bytes; null where the evidence does not say. */
export interface OomFigures {
  /** R: the request. */
  requested: number;
  /** T: the device's total memory. */
  total: number | null;
  /** F: free device memory the driver reported. */
  deviceFree: number | null;
  /** A: allocated by PyTorch's caching allocator. */
  allocated: number | null;
  /** V: reserved by PyTorch's caching allocator. */
  reserved: number | null;
  /** The largest free cached block, when a memory snapshot says (absent or null: unknown); one as large as R is no fragmentation. */
  largestFreeBlock?: number | null;
}

/** The cause and the two derived quantities, both ≥ 0 (null when a figure they need is missing). */
export interface OomVerdict {
  cause: OomCause;
  /** C = max(0, V − A): reserved but not allocated. */
  cached: number | null;
  /** O = max(0, T − V − F): held outside the caching allocator. */
  outside: number | null;
}

/** The default share of the device that cached memory must reach for fragmentation, in percent. */
export const DEFAULT_FRAGMENTATION_PERCENT = 5;

const known = (n: number | null): n is number => n !== null && Number.isFinite(n) && n >= 0;

/** The rule: the first that holds names the cause; `fragmentationPercent` is the share of T that C must reach. */
export function oomCause(f: OomFigures, fragmentationPercent: number = DEFAULT_FRAGMENTATION_PERCENT): OomVerdict {
  const { requested: r, total: t, deviceFree: free, allocated: a, reserved: v } = f;
  const cached = known(a) && known(v) ? Math.max(0, v - a) : null;
  const outside = known(t) && known(v) && known(free) ? Math.max(0, t - v - free) : null;
  const verdict = (cause: OomCause): OomVerdict => ({ cause, cached, outside });
  if (known(t) && r > t) return verdict('request-exceeds-device');
  if (known(free) && free >= r) return verdict('free-but-refused');
  if (cached === null || outside === null || !known(v) || !known(t)) return verdict('unknown');
  if (outside >= v) return verdict('outside-allocator');
  // C ≥ share × T, compared as C × 100 ≥ T × share: no division, exact for byte figures.
  // "…but no block that large": a snapshot that shows a free block of R or more rules fragmentation out.
  const noBlock = !known(f.largestFreeBlock ?? null) || (f.largestFreeBlock as number) < r;
  if (noBlock && cached >= r && cached * 100 >= t * Math.max(0, fragmentationPercent)) return verdict('fragmentation');
  return verdict('capacity');
}

/** What a run says beyond the OOM's own figures: the configured capacity of a device, and the fragmentation share. */
export interface OomRuleSettings {
  fragmentationPercent: number;
  /** `device.capacity` (or `devices.devN.capacity`) of a device (`dev3`), or null when none is configured. */
  capacityOf(device: string): number | null;
}

/** Where T came from: the message itself, the configured capacity, or torch_npu's memUsageInfo table (Σ current + free). */
export type TotalSource = 'message' | 'config' | 'memUsageInfo';

/** The `ooms` fields a source that lacks them writes as null (every declared field is present in a metric). */
export const OOM_FIELD_DEFAULTS = {
  deviceFree: null,
  allocated: null,
  reserved: null,
  largestFreeBlock: null,
  entriesAfter: null,
  sites: '[]',
  total: null,
  active: null,
  allowed: null,
  processTotal: null,
  processes: null,
  cause: 'unknown',
  source: 'memory snapshot',
  precision: 'exact',
  line: null,
  printed: 1,
  visibleDevices: null,
} as const satisfies Partial<OomMetric>;

/**
 * An `ooms` metric's figures for the rule. T: the message's own total; else the configured capacity of `device`; else,
 * for a snapshot OOM with torch_npu's module table of that device, Σ of the modules' current bytes + the device's free
 * bytes (the table lists what the driver's modules held at the OOM: an inference that they and the free bytes make the
 * device).
 */
export function oomFiguresOf(
  metric: OomMetric,
  device: string | null,
  modulesCurrent: number | null,
  settings?: Pick<OomRuleSettings, 'capacityOf'>,
): { figures: OomFigures; totalFrom: TotalSource | null } {
  const free = metric.deviceFree;
  // Written before `total` existed: absent, as unknown as null.
  let total = metric.total ?? null;
  let totalFrom: TotalSource | null = total === null ? null : 'message';
  const configured = device === null || settings === undefined ? null : settings.capacityOf(device);
  if (total === null && configured !== null) [total, totalFrom] = [configured, 'config'];
  if (total === null && modulesCurrent !== null && free !== null)
    [total, totalFrom] = [modulesCurrent + free, 'memUsageInfo'];
  return {
    figures: {
      requested: metric.requested,
      total,
      deviceFree: free,
      allocated: metric.allocated,
      reserved: metric.reserved,
      largestFreeBlock: metric.largestFreeBlock,
    },
    totalFrom,
  };
}

/** Σ current of the `oomModules` keys of one device (`dev0/…`), or null when it has none. */
export function modulesCurrentOf(modules: Readonly<Record<string, OomModuleMetric>>, device: string): number | null {
  let sum: number | null = null;
  const prefix = `${device}/`;
  for (const [key, metric] of Object.entries(modules)) if (key.startsWith(prefix)) sum = (sum ?? 0) + metric.current;
  return sum;
}

/** The device segment of an `ooms` key (`dev3/log-…` → `dev3`), or null. */
export function oomDevice(key: string): string | null {
  const m = /^(dev\d+)\//.exec(key);
  return m === null ? null : (m[1] as string);
}

/** The snapshot with every `ooms` metric's `cause` decided by the rule (T from the metric, the settings or the module table). */
export function withOomCauses<S extends { sections: Record<string, SectionMetrics> }>(
  snapshot: S,
  settings?: OomRuleSettings,
): S {
  if (!Object.hasOwn(snapshot.sections, ooms.name)) return snapshot;
  const events = metricsOf(snapshot, ooms);
  const modules = metricsOf(snapshot, oomModules);
  const next: Record<string, OomMetric> = {};
  let changed = false;
  for (const [key, metric] of Object.entries(events)) {
    const device = oomDevice(key);
    const { figures } = oomFiguresOf(
      metric,
      device,
      device === null ? null : modulesCurrentOf(modules, device),
      settings,
    );
    const { cause } = oomCause(figures, settings?.fragmentationPercent);
    if (metric.cause !== cause) changed = true;
    next[key] = metric.cause === cause ? metric : { ...metric, cause };
  }
  return changed ? { ...snapshot, sections: { ...snapshot.sections, ooms: next } } : snapshot;
}

// Logical device indices of a process (torch_npu's npu:N) to physical devices, by the ASCEND_RT_VISIBLE_DEVICES its node recorded.
import { findDeviceSegment, SECTIONS, type Metric, type SegmentBounds } from './sections/index.js';
import { rewriteKeys, type KeyRewrite } from './rewrite-keys.js';
import type { Snapshot } from './snapshot.js';

/** `4,5,6,7` → [4, 5, 6, 7]; null when the value is not a list of device numbers (a UUID list, `all`, empty). */
function parseVisibleDevices(value: string): number[] | null {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => !/^\d{1,9}$/.test(p))) return null;
  return parts.map(Number);
}

/**
 * The snapshot with the keys of sections declaring logical devices moved to physical ones: logical index N is the
 * N-th device of `visibleDevices`. Metrics already mapped (their `visibleDevices` is set: a node snapshot read again)
 * and indices past the list stay as they are. Unchanged when the value is not a device list.
 */
export function mapLogicalDevices(snapshot: Snapshot, visibleDevices: string): Snapshot {
  const physical = parseVisibleDevices(visibleDevices);
  if (physical === null) return snapshot;
  const bounds: SegmentBounds = { start: 0, end: 0 };
  const rewrite: KeyRewrite = (key, metric) => {
    const logical = metric.logicalDevice;
    if (metric.visibleDevices !== null || typeof logical !== 'number' || !findDeviceSegment(key, bounds))
      return { key, metric };
    const device = physical[logical];
    if (device === undefined) return { key, metric };
    const moved: Metric = { ...metric, visibleDevices };
    return { key: `${key.slice(0, bounds.start)}dev${device}${key.slice(bounds.end)}`, metric: moved };
  };
  return rewriteKeys(
    snapshot,
    Object.fromEntries(SECTIONS.filter((s) => s.logicalDevices === true).map((s) => [s.name, rewrite])),
  );
}

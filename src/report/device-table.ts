// Per-device totals for every renderer: sums per section, capacity and headroom, and which devices are worth a row.
import type { Entry } from '../gate/types.js';
import { SECTIONS, sectionOfKind } from '../model/sections/index.js';
import { compareKeys } from '../model/snapshot.js';
import { formatCount, formatDelta } from '../model/units.js';
import { splitOf } from './groups.js';

/** One device: its keys' sums per section kind, and its capacity when one is configured. */
export interface DeviceRow {
  device: string;
  /** Sums of baseline and current values per entry kind (of a section whose unit is bytes), in SECTIONS order. */
  sums: Map<string, { baseline: number; current: number }>;
  /** From the headroom verdict's device entry; null without a configured capacity. */
  capacity: number | null;
  /** capacity − the device estimate; null without a capacity. */
  headroom: number | null;
  /** Some entry on this device warns or fails. */
  flagged: boolean;
  /** Some sum moved. */
  changed: boolean;
}

export interface DeviceTableLimits {
  /** Kinds summed, in SECTIONS order. */
  kinds: string[];
  rows: DeviceRow[];
  /** What the rows leave out, in one sentence; null when every device has a row. */
  rest: string | null;
  /** Devices in all. */
  total: number;
}

/** Up to this many devices, every one gets a row; above it, only devices that changed or are flagged. */
export const ALL_DEVICES_UP_TO = 16;
/** Most rows above ALL_DEVICES_UP_TO: flagged first, then the largest changes. */
export const MAX_DEVICE_ROWS = 32;

/** Per-device totals of the report, or null without a device. */
export function deviceTable(entries: readonly Entry[]): DeviceTableLimits | null {
  const byDevice = new Map<string, DeviceRow>();
  const row = (device: string): DeviceRow => {
    let r = byDevice.get(device);
    if (r === undefined) byDevice.set(device, (r = { device, sums: new Map(), capacity: null, headroom: null, flagged: false, changed: false }));
    return r;
  };
  // A key can carry several entries (its verdict, then findings with the same values): count it once.
  const seen = new Set<string>();
  for (const entry of entries) {
    const { device } = splitOf(entry);
    if (device === null) continue;
    const r = row(device);
    if (entry.severity !== 'ok') r.flagged = true;
    if (entry.capacity !== undefined && entry.current !== null) {
      r.capacity = entry.capacity;
      r.headroom = entry.capacity - entry.current;
    }
    const declaration = sectionOfKind(entry.kind);
    if (declaration === undefined || declaration.unit !== 'bytes' || entry.unit === 'count') continue;
    const id = `${entry.kind}\u0000${entry.key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    let sum = r.sums.get(entry.kind);
    if (sum === undefined) r.sums.set(entry.kind, (sum = { baseline: 0, current: 0 }));
    sum.baseline += entry.baseline ?? 0;
    sum.current += entry.current ?? 0;
  }
  if (byDevice.size === 0) return null;
  const all = [...byDevice.values()];
  for (const r of all) r.changed = [...r.sums.values()].some((s) => s.current !== s.baseline);
  const present = new Set(all.flatMap((r) => [...r.sums.keys()]));
  const kinds = SECTIONS.map((s) => s.kind).filter((k) => present.has(k));
  if (kinds.length === 0 && all.every((r) => r.capacity === null)) return null;
  all.sort((a, b) => compareKeys(a.device, b.device));
  if (all.length <= ALL_DEVICES_UP_TO) return { kinds, rows: all, rest: null, total: all.length };

  const change = (r: DeviceRow): number => [...r.sums.values()].reduce((s, v) => s + Math.abs(v.current - v.baseline), 0);
  const worth = all.filter((r) => r.flagged || r.changed);
  worth.sort((a, b) => Number(b.flagged) - Number(a.flagged) || change(b) - change(a) || compareKeys(a.device, b.device));
  const rows = worth.slice(0, MAX_DEVICE_ROWS).sort((a, b) => compareKeys(a.device, b.device));
  const hidden = all.length - rows.length;
  if (hidden === 0) return { kinds, rows, rest: null, total: all.length };
  const hiddenChanged = worth.length - rows.length;
  const unchanged = all.length - worth.length;
  const parts: string[] = [];
  if (hiddenChanged > 0) {
    const deltas = worth.slice(MAX_DEVICE_ROWS).map((r) => [...r.sums.values()].reduce((s, v) => s + v.current - v.baseline, 0));
    parts.push(`${formatCount(hiddenChanged)} more changed or flagged (median Δ ${formatDelta(median(deltas))})`);
  }
  if (unchanged > 0) parts.push(`${formatCount(unchanged)} unchanged and not flagged`);
  return { kinds, rows, rest: `${formatCount(all.length)} devices; not listed: ${parts.join(', ')}. The JSON report has every device.`, total: all.length };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : Math.round(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
}

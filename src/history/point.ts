// What one point of the history records of a run: the compared value of every key, or above 64 devices each key
// group's roll-up across devices; and the run's environment and baseline as one line each.
import { createHash } from 'node:crypto';
import { runEnvironmentOf, runValue } from '../gate/environment.js';
import { rollUp, type RollUp } from '../model/roll-up.js';
import { findDeviceSegment, SECTIONS, valueOf, type Metric, type SegmentBounds } from '../model/sections/index.js';
import { keysOf, metricsOf, type Snapshot } from '../model/snapshot.js';

/** Up to this many devices a point keeps every key; above, the roll-up of each key group across devices. */
export const ROLL_UP_ABOVE_DEVICES = 64;

/** A run's figures as a point records them. */
export interface PointValues {
  /** Section → key → compared value. */
  keys: Map<string, Map<string, number>>;
  /** Section → device-free pattern (`DEV_MEM/{*}/APP`) → roll-up; only for runs of more than 64 devices. */
  rollups: Map<string, Map<string, RollUp>>;
  /** Devices the run has keys of. */
  devices: number;
}

/**
 * The compared value of every key of every compared section. Above ROLL_UP_ABOVE_DEVICES devices, a key group of two or
 * more devices is kept as its roll-up (min, median, max, devices, worst device); a key of no device, and a group that
 * only one device has (a kernel name only one rank runs), stay as they are: the roll-up of one value is that value.
 */
export function pointValues(snapshot: Pick<Snapshot, 'sections'>): PointValues {
  const at: SegmentBounds = { start: 0, end: 0 };
  const compared = SECTIONS.filter((d) => d.compared !== false && Object.hasOwn(snapshot.sections, d.name));
  // Each section's keys listed once (a record of 100,000 keys not listed before costs ~30 ms to list).
  const lists = new Map(compared.map((d) => [d.name, keysOf(metricsOf(snapshot, d.name))]));
  // Devices first (no string made per key): whether this point keeps keys or roll-ups.
  const devices = new Set<number | string>();
  for (const declaration of compared) {
    const list = lists.get(declaration.name) as readonly string[];
    for (let i = 0; i < list.length; i++) {
      const key = list[i] as string;
      if (findDeviceSegment(key, at)) devices.add(deviceId(key, at.start + 3, at.end));
    }
  }
  const keys = new Map<string, Map<string, number>>();
  const rollups = new Map<string, Map<string, RollUp>>();
  const rolled = devices.size > ROLL_UP_ABOVE_DEVICES;
  for (const declaration of compared) {
    const metrics = metricsOf(snapshot, declaration.name);
    const list = lists.get(declaration.name) as readonly string[];
    const values = new Map<string, number>();
    keys.set(declaration.name, values);
    if (!rolled) {
      for (let i = 0; i < list.length; i++) values.set(list[i] as string, valueOf(declaration, metrics[list[i] as string] as Metric));
      continue;
    }
    // Each key's group by the text before and after its device segment: one pattern string per group, not per key.
    const byPrefix = new Map<string, Map<string, Group>>();
    for (let i = 0; i < list.length; i++) {
      const key = list[i] as string;
      const value = valueOf(declaration, metrics[key] as Metric);
      if (!findDeviceSegment(key, at)) {
        values.set(key, value);
        continue;
      }
      const prefix = key.slice(0, at.start);
      let bySuffix = byPrefix.get(prefix);
      if (bySuffix === undefined) byPrefix.set(prefix, (bySuffix = new Map()));
      const suffix = key.slice(at.end);
      const device = deviceId(key, at.start + 3, at.end);
      const group = bySuffix.get(suffix);
      if (group === undefined) bySuffix.set(suffix, { first: key, device, value, devices: null, values: null });
      else if (group.devices === null) {
        group.devices = [group.device, device];
        group.values = [group.value, value];
      } else {
        group.devices.push(device);
        (group.values as number[]).push(value);
      }
    }
    const byPattern = new Map<string, RollUp>();
    for (const [prefix, bySuffix] of byPrefix) {
      for (const [suffix, group] of bySuffix) {
        if (group.devices === null) values.set(group.first, group.value);
        else byPattern.set(`${prefix}*${suffix}`, rollUp(group.devices.map(deviceName), group.values as number[]) as RollUp);
      }
    }
    if (byPattern.size > 0) rollups.set(declaration.name, byPattern);
  }
  return { keys, rollups, devices: devices.size };
}

/**
 * A key group's members while a point is made: the first one's key, device and value, and lists only once a second
 * member comes (100,000 kernel names on one device each make 100,000 groups of one).
 */
interface Group {
  first: string;
  device: number | string;
  value: number;
  devices: (number | string)[] | null;
  values: number[] | null;
}

/**
 * A device segment's digits key[from, to) as one value per device name: the number when written without leading
 * zeros and short enough to be exact, else the digits (`dev007` and `dev7` are two devices, as their names are).
 */
function deviceId(key: string, from: number, to: number): number | string {
  if (to - from > 15 || (to - from > 1 && key.charCodeAt(from) === 0x30)) return key.slice(from, to);
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + key.charCodeAt(i) - 0x30;
  return n;
}

function deviceName(id: number | string): string {
  return `dev${id}`;
}

/** A run's environment as one value per item (`runValue`: nodes that disagree are joined with ` | `); {} when none was recorded. */
export function pointEnvironment(snapshot: Pick<Snapshot, 'meta'>): Record<string, string> {
  const environment = runEnvironmentOf(snapshot.meta);
  const out: Record<string, string> = {};
  if (environment === undefined) return out;
  const items = new Set<string>();
  for (const node of Object.values(environment)) for (const item of Object.keys(node)) items.add(item);
  for (const item of [...items].sort()) {
    const value = runValue(environment, item);
    if (value !== null) Object.defineProperty(out, item, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** How a point names the baseline file it was gated against: `sha256:` and the hash of its bytes. */
export function baselineHash(bytes: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

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
  const compared = SECTIONS.filter((s) => s.compared !== false && Object.hasOwn(snapshot.sections, s.name));
  const at: SegmentBounds = { start: 0, end: 0 };
  const devices = new Set<string>();
  for (const declaration of compared) {
    for (const key of keysOf(metricsOf(snapshot, declaration.name))) if (findDeviceSegment(key, at)) devices.add(key.slice(at.start, at.end));
  }
  const keys = new Map<string, Map<string, number>>();
  const rollups = new Map<string, Map<string, RollUp>>();
  const rolled = devices.size > ROLL_UP_ABOVE_DEVICES;
  for (const declaration of compared) {
    const metrics = metricsOf(snapshot, declaration.name);
    const values = new Map<string, number>();
    keys.set(declaration.name, values);
    if (!rolled) {
      for (const key of keysOf(metrics)) values.set(key, valueOf(declaration, metrics[key] as Metric));
      continue;
    }
    const groups = new Map<string, { keys: string[]; devices: string[]; values: number[] }>();
    for (const key of keysOf(metrics)) {
      const value = valueOf(declaration, metrics[key] as Metric);
      if (!findDeviceSegment(key, at)) {
        values.set(key, value);
        continue;
      }
      const pattern = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
      let group = groups.get(pattern);
      if (group === undefined) groups.set(pattern, (group = { keys: [], devices: [], values: [] }));
      group.keys.push(key);
      group.devices.push(key.slice(at.start, at.end));
      group.values.push(value);
    }
    const byPattern = new Map<string, RollUp>();
    for (const [pattern, group] of groups) {
      if (group.keys.length === 1) values.set(group.keys[0] as string, group.values[0] as number);
      else byPattern.set(pattern, rollUp(group.devices, group.values) as RollUp);
    }
    if (byPattern.size > 0) rollups.set(declaration.name, byPattern);
  }
  return { keys, rollups, devices: devices.size };
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

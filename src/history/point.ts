// What one point of the history records of a run: the compared value of every key, or above 64 devices each key
// group's roll-up across devices; and the run's environment and baseline as one line each.
import { createHash } from 'node:crypto';
import { runEnvironmentOf, runValue } from '../gate/environment.js';
import { median, type RollUp } from '../model/roll-up.js';
import { SECTIONS, type Metric, type SectionDeclaration } from '../model/sections/index.js';
import { metricsOf, type SectionMetrics, type Snapshot } from '../model/snapshot.js';
import { keysOf } from '../model/record-keys.js';
import { KeyGroups } from './groups.js';

/** Up to this many devices a point keeps every key; above, the roll-up of each key group across devices. */
const ROLL_UP_ABOVE_DEVICES = 64;

/** A run's figures as a point records them. */
export interface PointValues {
  /** Section → key → compared value. */
  keys: Map<string, ReadonlyMap<string, number>>;
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
  const compared = SECTIONS.filter((d) => d.compared !== false && Object.hasOwn(snapshot.sections, d.name));
  // Each section's keys listed once (a record of 100,000 keys not listed before costs ~30 ms to list) and grouped by
  // device-free pattern once, with no string made per key.
  const grouped = new Map(compared.map((d) => [d.name, new KeyGroups(keysOf(metricsOf(snapshot, d.name)))]));
  // Devices first: whether this point keeps keys or roll-ups.
  const devices = new Set<number | string>();
  for (const groups of grouped.values()) {
    const { keys, groupOf } = groups;
    // Keys come device by device: a key whose device is the one before it adds nothing.
    let last = -1;
    for (let i = 0; i < keys.length; i++) {
      if (groupOf[i] === -1) continue;
      if (last === -1 || !sameDevice(groups, last, i))
        devices.add(deviceId(keys[i] as string, groups.deviceStart(i) + 3, groups.deviceEnd(i)));
      last = i;
    }
  }
  const keys = new Map<string, ReadonlyMap<string, number>>();
  const rollups = new Map<string, Map<string, RollUp>>();
  const rolled = devices.size > ROLL_UP_ABOVE_DEVICES;
  for (const declaration of compared) {
    const metrics = metricsOf(snapshot, declaration.name);
    const groups = grouped.get(declaration.name) as KeyGroups;
    const list = groups.keys;
    const figures = figuresOf(declaration, metrics, list);
    if (!rolled) {
      keys.set(declaration.name, new KeyValues(list.slice(), figures));
      continue;
    }
    // Keys of no device as they come; then the groups, those whose text before the device segment comes first first,
    // and of one such text in the order they first come (a group of one device stays its key).
    const values = new KeyValues([], new Float64Array(list.length));
    keys.set(declaration.name, values);
    for (let i = 0; i < list.length; i++)
      if (groups.groupOf[i] === -1) values.push(list[i] as string, figures[i] as number);
    const byPattern = new Map<string, RollUp>();
    for (const g of groups.byPrefix()) {
      const first = groups.first(g);
      if (groups.nextOf(first) === -1) {
        values.push(list[first] as string, figures[first] as number);
        continue;
      }
      const members = groups.memberList(g);
      const figuresOf = new Float64Array(members.length);
      let worst = 0;
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let m = 0; m < members.length; m++) {
        const v = figures[members[m] as number] as number;
        figuresOf[m] = v;
        if (v < min) min = v;
        // The first device of the largest value, as rollUp names it.
        if (v > max) {
          max = v;
          worst = m;
        }
      }
      const w = members[worst] as number;
      const worstDevice = deviceName(deviceId(list[w] as string, groups.deviceStart(w) + 3, groups.deviceEnd(w)));
      byPattern.set(groups.pattern(g), {
        min,
        median: Math.round(median(figuresOf)),
        max,
        devices: members.length,
        worst: worstDevice,
      });
    }
    if (byPattern.size > 0) rollups.set(declaration.name, byPattern);
  }
  return { keys, rollups, devices: devices.size };
}

/** Each key's compared value (valueOf's, the field read once per section rather than per key). */
function figuresOf(declaration: SectionDeclaration, metrics: SectionMetrics, list: readonly string[]): Float64Array {
  const field = declaration.value;
  const out = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const v = (metrics[list[i] as string] as Metric)[field];
    out[i] = typeof v === 'number' ? v : 0;
  }
  return out;
}

/**
 * A section's keys and their values in the order a point records them, as a read-only Map: two lists instead of a Map
 * of 100,000 entries, which recording the point walks once in order. Looking a key up builds its index on first use.
 */
export class KeyValues implements ReadonlyMap<string, number> {
  private index: Map<string, number> | undefined;

  constructor(
    readonly names: string[],
    /** Values by position; may be longer than `names` (the places not used yet). */
    readonly figures: Float64Array,
  ) {}

  /** Adds a key not held yet (while the point is made). */
  push(name: string, value: number): void {
    this.figures[this.names.length] = value;
    this.names.push(name);
    this.index = undefined;
  }

  get size(): number {
    return this.names.length;
  }

  get(key: string): number | undefined {
    const i = this.indexOf(key);
    return i === undefined ? undefined : (this.figures[i] as number);
  }

  has(key: string): boolean {
    return this.indexOf(key) !== undefined;
  }

  forEach(visit: (value: number, key: string, map: ReadonlyMap<string, number>) => void): void {
    for (let i = 0; i < this.names.length; i++) visit(this.figures[i] as number, this.names[i] as string, this);
  }

  *entries(): MapIterator<[string, number]> {
    for (let i = 0; i < this.names.length; i++) yield [this.names[i] as string, this.figures[i] as number];
  }

  keys(): MapIterator<string> {
    return this.names.values();
  }

  *values(): MapIterator<number> {
    for (let i = 0; i < this.names.length; i++) yield this.figures[i] as number;
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }

  private indexOf(key: string): number | undefined {
    if (this.index === undefined) {
      this.index = new Map();
      for (let i = 0; i < this.names.length; i++) this.index.set(this.names[i] as string, i);
    }
    return this.index.get(key);
  }
}

/** Whether keys a and b (both of a group) name one device: their device segments hold the same text. */
function sameDevice(groups: KeyGroups, a: number, b: number): boolean {
  const from = groups.deviceStart(a);
  const length = groups.deviceEnd(a) - from;
  if (groups.deviceEnd(b) - groups.deviceStart(b) !== length) return false;
  const ka = groups.keys[a] as string;
  const kb = groups.keys[b] as string;
  const offset = groups.deviceStart(b) - from;
  for (let k = from; k < from + length; k++) if (ka.charCodeAt(k) !== kb.charCodeAt(k + offset)) return false;
  return true;
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
    if (value !== null)
      Object.defineProperty(out, item, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** How a point names the baseline file it was gated against: `sha256:` and the hash of its bytes. */
export function baselineHash(bytes: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

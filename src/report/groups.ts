// Roll-up across devices: entries of one kind, status and device-free key (`DEV_MEM/*/APP`) become one group, for every section alike.
import type { Entry } from '../gate/types.js';
import {
  findDeviceSegment,
  sectionOfKind,
  splitDevice,
  type DeviceSplit,
  type SegmentBounds,
} from '../model/sections/index.js';
import { median } from '../model/roll-up.js';
import { formatEntryValue } from './entry-values.js';
import { growth } from './partition.js';
import { formatCount } from '../model/units.js';

/** The entries of one (kind, status, severity, device-free key): one row in every renderer. */
export interface EntryGroup {
  kind: string;
  status: string;
  severity: string;
  /** The key with its device segment replaced by `*` (`DEV_MEM/{*}/APP`); the key itself for a key of no device. */
  pattern: string;
  /** Members, worst first (the order the renderer asked for). */
  entries: Entry[];
  /** Devices that have a key of this kind and pattern anywhere in the report: the "of" in "12 of 4,096 devices". */
  ofDevices: number;
}

// Every renderer asks each entry for its device several times (groups, totals, charts): split each key once. By key, not
// by entry: a key's findings share its split, and a plain Map costs the garbage collector less than a WeakMap of
// 160,000 entries. Bounded: a long-lived process (tests, a watch loop) starts over past MAX_SPLITS keys.
const splits = new Map<string, DeviceSplit>();
const MAX_SPLITS = 1 << 20;

/** The entry's device and device-free key, as src/model/sections/keys.ts splitDevice says; computed once per key. */
export function splitOf(entry: Entry): DeviceSplit {
  let split = splits.get(entry.key);
  if (split === undefined) {
    if (splits.size >= MAX_SPLITS) splits.clear();
    splits.set(entry.key, (split = splitDevice(entry.key)));
  }
  return split;
}

/** A whole-device key rolls up to `*`: shown as `dev*`, any device. */
function displayPattern(pattern: string): string {
  return pattern === '*' ? 'dev*' : pattern;
}

/** A group of several entries is shown as one row; a group of one is its entry's row. */
export function isRollUp(group: EntryGroup): boolean {
  return group.entries.length > 1;
}

/** The first (worst) member. */
export function worstOf(group: EntryGroup): Entry {
  return group.entries[0] as Entry;
}

/** Per (kind, device-free key): how many devices have such a key, and how many entries there are. */
export interface PatternCount {
  devices: number;
  entries: number;
}

/** Devices and entries per (kind, device-free key), for "N of M devices": a kind's counts are made when first asked for. */
export interface DevicesPerPattern {
  get(kind: string): ReadonlyMap<string, PatternCount> | undefined;
}

/** A pattern's counts while they are being made: its devices are kept as the first one's id until a second arrives (most kernel patterns have one). */
interface Counting extends PatternCount {
  first: number | string;
  more: Set<number | string> | null;
}

/**
 * The counts of one entry list, kind by kind on first use: the terminal asks only for the kinds it shows (the modules of
 * 4,096 devices), not for 100,000 kernels that passed. Each key of the kind is split in place (splitOf would keep two
 * strings and an object per key).
 */
class PatternCounts implements DevicesPerPattern {
  private readonly byKind = new Map<string, ReadonlyMap<string, PatternCount>>();
  /** Per entry (by index): its (kind, pattern)'s counts, null for a key of no device; filled kind by kind. */
  readonly perEntry: (PatternCount | null)[];

  constructor(private readonly all: readonly Entry[]) {
    this.perEntry = new Array<PatternCount | null>(all.length).fill(null);
  }

  get(kind: string): ReadonlyMap<string, PatternCount> | undefined {
    let counts = this.byKind.get(kind);
    if (counts === undefined) this.byKind.set(kind, (counts = this.count(kind)));
    return counts.size > 0 ? counts : undefined;
  }

  /** Every kind's counts, and so every entry's. */
  countAll(): void {
    for (let i = 0; i < this.all.length; i++) this.get((this.all[i] as Entry).kind);
  }

  private count(kind: string): ReadonlyMap<string, PatternCount> {
    const { all, perEntry } = this;
    const byPattern = new Map<string, Counting>();
    const at: SegmentBounds = { start: 0, end: 0 };
    for (let i = 0; i < all.length; i++) {
      const entry = all[i] as Entry;
      if (entry.kind !== kind) continue;
      const key = entry.key;
      if (!findDeviceSegment(key, at)) continue;
      const group = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
      const device = deviceId(key, at.start + 3, at.end);
      let seen = byPattern.get(group);
      if (seen === undefined) byPattern.set(group, (seen = { first: device, more: null, devices: 1, entries: 1 }));
      else {
        seen.entries++;
        if (seen.more !== null) seen.more.add(device);
        else if (device !== seen.first) seen.more = new Set([seen.first, device]);
        seen.devices = seen.more?.size ?? 1;
      }
      perEntry[i] = seen;
    }
    for (const seen of byPattern.values()) seen.more = null;
    return byPattern;
  }
}

// Every renderer of one report (summary, comment, terminal, HTML, JSON) asks for the same counts over the same entries.
const perPatternOf = new WeakMap<readonly Entry[], PatternCounts>();

function patternCounts(all: readonly Entry[]): PatternCounts {
  let counts = perPatternOf.get(all);
  if (counts === undefined) perPatternOf.set(all, (counts = new PatternCounts(all)));
  return counts;
}

/** How many devices (and entries) of the kind and pattern each (kind, pattern) has, over every entry of the report; made once per entry list and kind. */
export function devicesPerPattern(all: readonly Entry[]): DevicesPerPattern {
  return patternCounts(all);
}

/** Per entry of `all` (by index): its (kind, pattern)'s counts, or null for a key of no device. Shares devicesPerPattern's counts. */
export function patternCountsOf(all: readonly Entry[]): readonly (PatternCount | null)[] {
  const counts = patternCounts(all);
  counts.countAll();
  return counts.perEntry;
}

/**
 * A device segment's digits key[from, to) as one value per device name: the number itself when it is written without
 * leading zeros and fits a double exactly, else the digits (`dev007` and `dev7` are two devices, as their names are).
 */
function deviceId(key: string, from: number, to: number): number | string {
  if (to - from > 15 || (to - from > 1 && key.charCodeAt(from) === 0x30)) return key.slice(from, to);
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + key.charCodeAt(i) - 0x30;
  return n;
}

/**
 * Groups `entries` (already in display order, worst first) by kind, status, severity and device-free key. Groups come in
 * the order of their first member, so the renderer's order is kept; members keep it too.
 */
export function groupEntries(entries: readonly Entry[], perPattern: DevicesPerPattern): EntryGroup[] {
  // kind + status + severity (a handful of classes), then the device-free key (or the whole key of a key of no device).
  const classes = new Map<string, { withDevice: Map<string, EntryGroup>; withoutDevice: Map<string, EntryGroup> }>();
  const groups: EntryGroup[] = [];
  for (const entry of entries) {
    const { device, group: pattern } = splitOf(entry);
    const classId = `${entry.kind}\u0000${entry.status}\u0000${entry.severity}`;
    let byPattern = classes.get(classId);
    if (byPattern === undefined)
      classes.set(classId, (byPattern = { withDevice: new Map(), withoutDevice: new Map() }));
    const map = device === null ? byPattern.withoutDevice : byPattern.withDevice;
    const id = device === null ? entry.key : pattern;
    let group = map.get(id);
    if (group === undefined) {
      group = {
        kind: entry.kind,
        status: entry.status,
        severity: entry.severity,
        pattern: device === null ? entry.key : displayPattern(pattern),
        entries: [],
        ofDevices: device === null ? 0 : (perPattern.get(entry.kind)?.get(pattern)?.devices ?? 1),
      };
      map.set(id, group);
      groups.push(group);
    }
    group.entries.push(entry);
  }
  return groups;
}

/** The device of an entry (`dev3`), or null. */
export function deviceOfEntry(entry: Entry): string | null {
  return splitOf(entry).device;
}

/** The median of the members' growth (delta, or the whole value of a new/missing key). */
export function medianGrowth(group: EntryGroup): number {
  return median(group.entries.map(growth));
}

/** The median percent change of the members that have one, or null. */
export function medianPercent(group: EntryGroup): number | null {
  const values = group.entries.map((e) => e.percent).filter((p): p is number => p !== null && Number.isFinite(p));
  return values.length === 0 ? null : median(values);
}

/** "4,096 of 4,096 devices". */
export function devicesPhrase(group: EntryGroup): string {
  const n = group.entries.length;
  const of = Math.max(group.ofDevices, n);
  return `${formatCount(n)} of ${formatCount(of)} ${of === 1 ? 'device' : 'devices'}`;
}

/** Heading of a kind in reports: the section's title (`Modules`), or the kind itself for kinds of no section (`device`). */
export function kindTitle(kind: string): string {
  return sectionOfKind(kind)?.title ?? `${kind.charAt(0).toUpperCase()}${kind.slice(1)}s`;
}

/** "1.0 GiB – 1.2 GiB" over the members' current values (the baseline where a member has none); "—" when none has either. */
export function valueRange(group: EntryGroup): string {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const e of group.entries) {
    const v = e.current ?? e.baseline;
    if (v === null) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (!Number.isFinite(lo)) return '—';
  const worst = worstOf(group);
  return lo === hi ? formatEntryValue(worst, lo) : `${formatEntryValue(worst, lo)} – ${formatEntryValue(worst, hi)}`;
}

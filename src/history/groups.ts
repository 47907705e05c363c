// Keys grouped by their device-free pattern (`DEV_MEM/dev3/APP` → `DEV_MEM/{*}/APP`) without making a string per key:
// a point and the trends group 100,000 keys at a time, and a fresh pattern string per key (two slices, a concatenation,
// then its hash) was most of what grouping them cost. Each key's text around its device segment is hashed in place and
// compared with its group's first member; a group's pattern is made only when asked for.
import { hashSpliced, StringTable } from '../common/string-table.js';
import { findDeviceSegment, type SegmentBounds } from '../model/sections/index.js';

/** Keys of one list, by device-free pattern; grows with the list (`extend`), keys are never removed. */
export class KeyGroups {
  /** The list grouped (read, never changed). */
  readonly keys: readonly string[];
  /** Keys grouped so far (the list may have grown since). */
  size = 0;
  /** Groups so far. */
  groups = 0;
  /** Each key's group; -1 for a key with no device segment. */
  groupOf = new Int32Array(0);
  /** Each key's next member of its group (key order), -1 for the last. */
  private nextMember = new Int32Array(0);
  /** Each key's device segment: key[start, end). */
  private starts = new Int32Array(0);
  private ends = new Int32Array(0);
  /** Per group (as many places as keys): its first and last member. */
  private firsts = new Int32Array(0);
  private lasts = new Int32Array(0);
  /** The groups' patterns, group g the table's entry g: a Map of 100,000 pattern strings cost more than the rest. */
  private readonly table = new StringTable();
  /** Patterns made so far, by group. */
  private readonly patterns = new Map<number, string>();
  private readonly bounds: SegmentBounds = { start: 0, end: 0 };

  constructor(keys: readonly string[]) {
    this.keys = keys;
    this.extend();
  }

  /** Key i's device segment: key[deviceStart(i), deviceEnd(i)) (for a key of a group). */
  deviceStart(i: number): number {
    return this.starts[i] as number;
  }

  deviceEnd(i: number): number {
    return this.ends[i] as number;
  }

  /** The member after key i in its group, -1 for the last. */
  nextOf(i: number): number {
    return this.nextMember[i] as number;
  }

  /**
   * The groups, those whose text before the device segment comes first first, and of one such text in the order they
   * first come (as nested maps prefix → suffix → group list them).
   */
  byPrefix(): Int32Array {
    const prefixes = new Map<string, number>();
    const prefixOf = new Int32Array(this.groups);
    for (let g = 0; g < this.groups; g++) {
      const i = this.firsts[g] as number;
      const prefix = (this.keys[i] as string).slice(0, this.starts[i]);
      let id = prefixes.get(prefix);
      if (id === undefined) prefixes.set(prefix, (id = prefixes.size));
      prefixOf[g] = id;
    }
    // A counting sort by prefix, stable: groups of one prefix keep their order.
    const starts = new Int32Array(prefixes.size + 1);
    for (let g = 0; g < this.groups; g++) (starts[(prefixOf[g] as number) + 1] as number)++;
    for (let p = 0; p < prefixes.size; p++) starts[p + 1] = (starts[p + 1] as number) + (starts[p] as number);
    const out = new Int32Array(this.groups);
    for (let g = 0; g < this.groups; g++) out[(starts[prefixOf[g] as number] as number)++] = g;
    return out;
  }

  /** Group g's first member. */
  first(g: number): number {
    return this.firsts[g] as number;
  }

  /** Groups the keys the list gained since the last call. */
  extend(): void {
    const { keys, bounds } = this;
    const from = this.size;
    const to = keys.length;
    if (to === from) return;
    this.grow(to);
    const { groupOf, nextMember, starts, ends, firsts, lasts, table } = this;
    for (let i = from; i < to; i++) {
      const key = keys[i] as string;
      nextMember[i] = -1;
      if (!findDeviceSegment(key, bounds)) {
        groupOf[i] = -1;
        continue;
      }
      const { start, end } = bounds;
      starts[i] = start;
      ends[i] = end;
      const hash = hashSpliced(key, start, end, STAR);
      let g = table.indexOfSpliced(key, start, end, STAR, hash);
      if (g === -1) {
        g = table.addSpliced(key, start, end, STAR, hash);
        this.groups++;
        firsts[g] = i;
        lasts[g] = i;
      } else {
        nextMember[lasts[g] as number] = i;
        lasts[g] = i;
      }
      groupOf[i] = g;
    }
    this.size = to;
  }

  /** Group g's pattern: its first member with the device segment replaced by `*`. */
  pattern(g: number): string {
    let text = this.patterns.get(g);
    if (text === undefined) {
      const i = this.firsts[g] as number;
      const key = this.keys[i] as string;
      this.patterns.set(g, (text = `${key.slice(0, this.starts[i])}*${key.slice(this.ends[i])}`));
    }
    return text;
  }

  /**
   * Group g's subject as reports name it (its pattern; `dev*` for the keys that are only a device) against `text`, by
   * code units as `<` orders strings: <0 when it comes first. No string made.
   */
  compareSubject(g: number, text: string): number {
    const i = this.firsts[g] as number;
    const key = this.keys[i] as string;
    const s = this.starts[i] as number;
    const e = this.ends[i] as number;
    if (s === 0 && e === key.length) return 'dev*' < text ? -1 : 'dev*' > text ? 1 : 0;
    const length = key.length - e + s + 1;
    const common = Math.min(length, text.length);
    for (let k = 0; k < common; k++) {
      const d = charAround(key, s, e, k) - text.charCodeAt(k);
      if (d !== 0) return d;
    }
    return length - text.length;
  }

  /** The group of a pattern (`DEV_MEM/{*}/APP`: a key with its device segment replaced by `*`); undefined when none. */
  find(pattern: string): number | undefined {
    if (!pattern.includes('*')) return undefined;
    const g = this.table.indexOf(pattern);
    return g === -1 ? undefined : g;
  }

  /** Calls `visit` with each member of group g, in key order. */
  members(g: number, visit: (key: number) => void): void {
    for (let i = this.firsts[g] as number; i !== -1; i = this.nextMember[i] as number) visit(i);
  }

  /** The members of group g, in key order. */
  memberList(g: number): number[] {
    const out: number[] = [];
    for (let i = this.firsts[g] as number; i !== -1; i = this.nextMember[i] as number) out.push(i);
    return out;
  }

  private grow(to: number): void {
    if (to <= this.groupOf.length) return;
    const capacity = Math.max(to, this.groupOf.length * 2);
    const widen = (a: Int32Array) => {
      const wider = new Int32Array(capacity);
      wider.set(a.subarray(0, this.size));
      return wider;
    };
    this.groupOf = widen(this.groupOf);
    this.nextMember = widen(this.nextMember);
    this.starts = widen(this.starts);
    this.ends = widen(this.ends);
    this.firsts = widen(this.firsts);
    this.lasts = widen(this.lasts);
  }
}

/** Character k of text with text[start, end) replaced by `*`. */
function charAround(text: string, start: number, end: number, k: number): number {
  return k < start ? text.charCodeAt(k) : k === start ? STAR : text.charCodeAt(end + k - start - 1);
}

const STAR = 0x2a;

/**
 * The groups of a key list, kept while the list only grows (a history's key table between appends): the trends of the
 * gate's noise band and those of the report, made before and after this run's point, group the keys once.
 */
const cached = new WeakMap<readonly string[], KeyGroups>();

export function groupsOf(keys: readonly string[]): KeyGroups {
  let groups = cached.get(keys);
  if (groups === undefined || groups.size > keys.length) cached.set(keys, (groups = new KeyGroups(keys)));
  else groups.extend();
  return groups;
}

/** Drops the groups of a list whose keys were taken back (a failed append): made again from the list on next use. */
export function forgetGroups(keys: readonly string[]): void {
  cached.delete(keys);
}

/**
 * Values by the device-free pattern of the keys asked with (`DEV_MEM/dev7/APP` → `DEV_MEM/{*}/APP`), found with no
 * string made per key: the noise band asks for 18,000 keys of a few dozen groups.
 */
export class ByPattern<T> {
  private readonly table = new StringTable();
  private readonly values: T[] = [];

  /** The value stored for key's pattern (its device segment key[start, end)); undefined when none. */
  get(key: string, start: number, end: number): T | undefined {
    const e = this.table.indexOfSpliced(key, start, end, STAR);
    return e === -1 ? undefined : this.values[e];
  }

  /** Stores a value for key's pattern, which get() did not find. */
  set(key: string, start: number, end: number, value: T): void {
    this.values[this.table.addSpliced(key, start, end, STAR)] = value;
  }
}

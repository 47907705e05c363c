// The history as the reports read it: a key's or key group's value over the points, its last 30 points, the step where
// it moved (with the commit, and what else changed at that run), and the spread the noise band needs.
import { matchRule, sectionThresholds } from '../gate/thresholds.js';
import type { EnvironmentChange, GateConfig, NoiseLookup, NoiseSample, Tolerance } from '../gate/types.js';
import {
  findDeviceSegment,
  section as sectionNamed,
  sectionOfKind,
  type SegmentBounds,
} from '../model/sections/index.js';
import { ByPattern, groupsOf, type KeyGroups } from './groups.js';
import {
  historyName,
  ROLLUP_WIDTH,
  valueAt,
  type Column,
  type History,
  type PointMeta,
  type SectionHistory,
} from './format.js';
import { detectStep, type Step } from './steps.js';

/** Points a sparkline shows. */
export const RECENT_POINTS = 30;

/** Figures, those that moved most lately, searched for a step for the list of what moved. */
export const MOVED_CANDIDATES = 100;

/** Where a figure moved, as a report says it: `400 MiB → 800 MiB since a1b2c3d (14 runs ago)`. */
export interface StepNote {
  /** The level before and after (medians, rounded to whole units). */
  before: number;
  after: number;
  /** The first point of the new level. */
  point: number;
  commit: string;
  /** Points recorded after it. */
  runsAgo: number;
  /** What the environment did at that run (empty when nothing changed). */
  environment: EnvironmentChange[];
  /** The baseline file changed at that run. */
  baselineChanged: boolean;
}

/** A row's figure on the default branch. */
export interface Trend {
  /** `key`: the key's own value; `largest`: the largest over the key group's devices at each point. */
  of: 'key' | 'largest';
  /** One value per point of the history (null where the figure is absent), oldest first. */
  values: (number | null)[];
  /** The last RECENT_POINTS of them. */
  recent: (number | null)[];
  /** Lowest and highest of `recent` (the values that have one). */
  min: number;
  max: number;
  step: StepNote | null;
}

/** One figure that moved recently, for the report's list of what moved on the default branch. */
export interface Moved {
  kind: string;
  /** The key, or the key group (`DEV_MEM/{*}/HCCL`). */
  subject: string;
  trend: Trend;
}

/** The history's answers to the reports and the gate. */
export interface Trends {
  /** The branch the points come from, when the history says. */
  branch: string | undefined;
  points: readonly PointMeta[];
  /** A commit's page, when the history names the repository's URL pattern; undefined otherwise. */
  commitUrl(sha: string): string | undefined;
  /** A key's trend: its own values, or when the history kept only its group's roll-up, the group's largest. */
  forKey(kind: string, key: string): Trend | undefined;
  /** A key group's trend (`DEV_MEM/{*}/APP`, `dev*` for whole-device keys): the largest over its devices at each point. */
  forPattern(kind: string, pattern: string): Trend | undefined;
  /** Steps whose new level started within the last RECENT_POINTS points (among the 100 figures that moved most), the latest first, then the largest. */
  moved(): Moved[];
  /**
   * The key's last `window` values' spread, for the noise band; undefined when the history has no value of it. It needs
   * no config: pass it to the gate (runGate's `noise`) and make the report's trends with `withConfig` once the gate's
   * config is known, so that both read one set of series.
   */
  noise: NoiseLookup;
  /**
   * These trends with the step tolerances of `config`, sharing the series made so far (the largest of each key group,
   * the noise band's samples) while the history is unchanged; after a point was recorded, the trends of it afresh.
   */
  withConfig(config: Pick<GateConfig, 'sections'>): Trends;
}

/**
 * The noise band's source: each key's spread on the default branch (needs no config). A caller that also renders trends
 * of the same history should make them once (`trendsOf(history)`), pass their `noise` to the gate and render
 * `withConfig(gateConfig)`, which reuses the series the band made.
 */
export function noiseLookup(history: History): NoiseLookup {
  return trendsOf(history).noise;
}

/** What the trends of one history share whatever their config: the series made from it, and the history as it was. */
interface SharedSeries {
  points: number;
  lastLine: string | undefined;
  largest: Map<string, (number | null)[] | null>;
  samples: WeakMap<(number | null)[], { window: number; sample: NoiseSample | null }>;
}

function sharedSeries(history: History): SharedSeries {
  return {
    points: history.points.length,
    lastLine: history.lines[history.lines.length - 1],
    largest: new Map(),
    samples: new WeakMap(),
  };
}

/**
 * Trends of a history; step tolerances come from the config (each key's rule, else its section's tolerance; without a
 * config, each section's declared default).
 */
export function trendsOf(history: History, config: Pick<GateConfig, 'sections'> = { sections: {} }): Trends {
  return trendsSharing(history, config, sharedSeries(history));
}

function trendsSharing(history: History, config: Pick<GateConfig, 'sections'>, shared: SharedSeries): Trends {
  const cache = new Map<string, Trend | null>();
  const n = history.points.length;

  /** The section's keys by device-free pattern (shared by every Trends of this history while its key table only grows). */
  const groupsOfSection = (section: SectionHistory): KeyGroups => groupsOf(section.keys);

  const toleranceOf = (kind: string, key: string): Tolerance => {
    const declaration = sectionOfKind(kind);
    if (declaration === undefined) return {};
    const thresholds = sectionThresholds(config, declaration);
    return matchRule(thresholds.rules, key)?.tolerance ?? thresholds.tolerance;
  };

  const trend = (of: Trend['of'], values: (number | null)[], tolerance: Tolerance): Trend | null => {
    const recent = values.slice(-RECENT_POINTS);
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const v of recent) {
      if (v === null) continue;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (!Number.isFinite(min)) return null;
    return { of, values, recent, min, max, step: stepNote(history, values, tolerance) };
  };

  const keyValues = (column: Column): (number | null)[] => {
    const out = new Array<number | null>(n).fill(null);
    for (let i = 0; i < column.at.length; i++) {
      const from = column.at[i] as number;
      const to = i + 1 < column.at.length ? (column.at[i + 1] as number) : n;
      out.fill(column.values[i] as number | null, from, to);
    }
    return out;
  };

  const { largest, samples } = shared;
  /** The largest over the pattern's devices at each point (made once per pattern). */
  const largestValues = (name: string, section: SectionHistory, pattern: string): (number | null)[] | null => {
    const id = `${name}\u0000${pattern}`;
    let values = largest.get(id);
    if (values === undefined) largest.set(id, (values = foldLargest(name, section, pattern)));
    return values;
  };

  /** From its keys where points kept every key, its roll-up's max elsewhere. */
  const foldLargest = (_name: string, section: SectionHistory, pattern: string): (number | null)[] | null => {
    const groups = groupsOfSection(section);
    const group = groups.find(pattern);
    const rollup = section.rollupIndex.get(historyName(pattern));
    if (group === undefined && rollup === undefined) return null;
    const out = new Array<number | null>(n).fill(null);
    if (group !== undefined) groups.members(group, (i) => foldColumn(out, section.keyColumns[i] as Column, n));
    if (rollup !== undefined) foldColumn(out, section.rollupColumns[rollup * ROLLUP_WIDTH + 2] as Column, n);
    return out;
  };

  const sectionOf = (kind: string): { name: string; section: SectionHistory } | undefined => {
    const declaration = sectionOfKind(kind);
    if (declaration === undefined) return undefined;
    const section = history.sections.get(declaration.name);
    return section === undefined ? undefined : { name: declaration.name, section };
  };

  const forPattern = (kind: string, pattern: string): Trend | undefined => {
    const id = `p\u0000${kind}\u0000${pattern}`;
    if (cache.has(id)) return cache.get(id) ?? undefined;
    const found = sectionOf(kind);
    // Reports show whole-device keys' pattern `*` as `dev*`.
    const inHistory = pattern === 'dev*' ? '*' : pattern;
    const values = found === undefined ? null : largestValues(found.name, found.section, inHistory);
    const made = values === null ? null : trend('largest', values, toleranceOf(kind, inHistory));
    cache.set(id, made);
    return made ?? undefined;
  };

  const forKey = (kind: string, key: string): Trend | undefined => {
    const id = `k\u0000${kind}\u0000${key}`;
    if (cache.has(id)) return cache.get(id) ?? undefined;
    const found = sectionOf(kind);
    let made: Trend | null = null;
    if (found !== undefined) {
      // A name past the history's length is found as the history wrote it.
      const i = found.section.keyIndex.get(historyName(key));
      if (i !== undefined)
        made = trend('key', keyValues(found.section.keyColumns[i] as Column), toleranceOf(kind, key));
      else {
        // Points of more than 64 devices kept the key's group, not the key: its largest device stands for it.
        const at: SegmentBounds = { start: 0, end: 0 };
        if (findDeviceSegment(key, at))
          made = forPattern(kind, `${key.slice(0, at.start)}*${key.slice(at.end)}`) ?? null;
      }
    }
    cache.set(id, made);
    return made ?? undefined;
  };

  /** A key's values: its own, or its group's largest where the points kept only the group's roll-up. */
  const valuesOfKey = (kind: string, key: string): (number | null)[] | null => {
    const found = sectionOf(kind);
    if (found === undefined) return null;
    const i = found.section.keyIndex.get(historyName(key));
    if (i !== undefined) return keyValues(found.section.keyColumns[i] as Column);
    if (!findDeviceSegment(key, bounds)) return null;
    // The keys of one group share their group's series: found by the text around the device segment, its pattern
    // made once per group.
    const { start, end } = bounds;
    let byPattern = groupSeries.get(found.name);
    if (byPattern === undefined) groupSeries.set(found.name, (byPattern = new ByPattern()));
    let values = byPattern.get(key, start, end);
    if (values === undefined) {
      values = largestValues(found.name, found.section, `${key.slice(0, start)}*${key.slice(end)}`);
      byPattern.set(key, start, end, values);
    }
    return values;
  };
  const bounds: SegmentBounds = { start: 0, end: 0 };
  const groupSeries = new Map<string, ByPattern<(number | null)[] | null>>();

  // Per series: the keys of one group share their group's series where the points kept only its roll-up.
  const noise = (kind: string, key: string, window: number): NoiseSample | undefined => {
    const values = valuesOfKey(kind, key);
    if (values === null) return undefined;
    const kept = samples.get(values);
    let sample = kept?.window === window ? kept.sample : undefined;
    if (sample === undefined) {
      let lo = Number.POSITIVE_INFINITY;
      let hi = Number.NEGATIVE_INFINITY;
      let points = 0;
      for (let p = values.length - 1; p >= 0 && points < window; p--) {
        const v = values[p] as number | null;
        if (v === null) continue;
        points++;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      // Values of a signed figure may lie 2^54 apart: the spread is clamped to what a report can hold exactly, and says so.
      const spread = hi - lo;
      sample =
        points === 0
          ? null
          : spread > Number.MAX_SAFE_INTEGER
            ? { spread: Number.MAX_SAFE_INTEGER, points, clamped: true }
            : { spread, points };
      samples.set(values, { window, sample });
    }
    return sample ?? undefined;
  };

  let movedList: Moved[] | undefined;
  const moved = (): Moved[] => (movedList ??= findMoved());
  /**
   * The figures that moved most in the last RECENT_POINTS points (by how far their latest value is from their value
   * just before that span, read from the change lists, no series made), and of those, the ones that stepped: steps
   * are looked for in MOVED_CANDIDATES figures at most, so 100,000 kernels cost one pass over their change lists and
   * a selection of the top ones, not 100,000 step searches (nor a sort of them all).
   */
  const findMoved = (): Moved[] => {
    const then = n - 1 - RECENT_POINTS;
    const recent = n - RECENT_POINTS;
    const top = new TopMoved(MOVED_CANDIDATES);
    let order = 0;
    for (const [name, section] of history.sections) {
      const kind = sectionNamed(name).kind;
      const groups = groupsOfSection(section);
      const { keys, keyColumns, rollups, rollupColumns } = section;
      // Each roll-up's group of keys (when keys of it were kept too), and each group's roll-up.
      const groupOfRollup = new Int32Array(rollups.length).fill(-1);
      const rollupOfGroup = new Int32Array(groups.groups).fill(-1);
      for (let r = 0; r < rollups.length; r++) {
        const g = groups.find(rollups[r] as string);
        if (g === undefined) continue;
        groupOfRollup[r] = g;
        rollupOfGroup[g] = r;
      }
      // Groups with a member that changed lately, in the order their first such member comes.
      const lately: number[] = [];
      const seen = new Uint8Array(groups.groups);
      for (let i = 0; i < keys.length; i++) {
        // Only a figure that changed lately can have stepped lately: the rest cost one look at their last change.
        const column = keyColumns[i] as Column;
        if (!changedSince(column, recent)) continue;
        const g = groups.groupOf[i] as number;
        if (g !== -1) {
          if (seen[g] === 0) {
            seen[g] = 1;
            lately.push(g);
          }
          continue;
        }
        const key = keys[i] as string;
        const moved = Math.abs(latest(column) - at(column, then));
        const worst = top.worst();
        if (worst === undefined || moved > worst.moved || (moved === worst.moved && key < worst.subject))
          top.offer({ kind, subject: key, pattern: false, moved, order });
        order++;
      }
      /** The group's largest now and then, over its members and its roll-up's max. */
      const largestMove = (g: number, r: number): number => {
        let now = Number.NEGATIVE_INFINITY;
        let before = Number.NEGATIVE_INFINITY;
        if (g !== -1) {
          for (let i = groups.first(g); i !== -1; i = groups.nextOf(i)) {
            const column = keyColumns[i] as Column;
            const a = latest(column);
            const b = at(column, then);
            if (a > now) now = a;
            if (b > before) before = b;
          }
        }
        if (r !== -1) {
          const column = rollupColumns[r * ROLLUP_WIDTH + 2] as Column;
          const a = latest(column);
          const b = at(column, then);
          if (a > now) now = a;
          if (b > before) before = b;
        }
        return Math.abs(now - before);
      };
      // A group's subject is made only when it is among the top ones so far: 60,000 kernels that moved alike are
      // told apart by comparing their patterns in place.
      const offerGroup = (g: number, r: number, moved: number): void => {
        const worst = top.worst();
        if (
          worst === undefined ||
          moved > worst.moved ||
          (moved === worst.moved && groups.compareSubject(g, worst.subject) < 0)
        ) {
          const pattern = groups.pattern(g);
          top.offer({ kind, subject: pattern === '*' ? 'dev*' : pattern, pattern: true, moved, order });
        }
        order++;
      };
      for (const g of lately) offerGroup(g, rollupOfGroup[g] as number, largestMove(g, rollupOfGroup[g] as number));
      // Roll-ups whose group no key of which changed lately: listed when their own max did.
      for (let r = 0; r < rollups.length; r++) {
        const g = groupOfRollup[r] as number;
        if (g !== -1 && seen[g] === 1) continue;
        const rollup = rollupColumns[r * ROLLUP_WIDTH + 2] as Column;
        if (!changedSince(rollup, recent)) continue;
        const moved = largestMove(g, r);
        if (g !== -1) offerGroup(g, r, moved);
        else {
          const pattern = rollups[r] as string;
          const subject = pattern === '*' ? 'dev*' : pattern;
          const worst = top.worst();
          if (worst === undefined || moved > worst.moved || (moved === worst.moved && subject < worst.subject))
            top.offer({ kind, subject, pattern: true, moved, order });
          order++;
        }
      }
    }
    const candidates = top.sorted();
    const out: Moved[] = [];
    for (const c of candidates) {
      const t = c.pattern ? forPattern(c.kind, c.subject) : forKey(c.kind, c.subject);
      if (t?.step != null && t.step.runsAgo < RECENT_POINTS) out.push({ kind: c.kind, subject: c.subject, trend: t });
    }
    const change = (m: Moved): number => Math.abs((m.trend.step as StepNote).after - (m.trend.step as StepNote).before);
    return out.sort(
      (a, b) =>
        (a.trend.step as StepNote).runsAgo - (b.trend.step as StepNote).runsAgo ||
        change(b) - change(a) ||
        (a.subject < b.subject ? -1 : 1),
    );
  };

  const template = history.header.commitUrl;
  return {
    branch: history.header.branch,
    points: history.points,
    commitUrl: (sha) =>
      template === undefined || !/^[0-9a-f]{4,64}$/.test(sha) ? undefined : template.replaceAll('{sha}', sha),
    forKey,
    forPattern,
    moved,
    noise,
    withConfig: (other) =>
      trendsSharing(
        history,
        other,
        shared.points === history.points.length && shared.lastLine === history.lines[history.lines.length - 1]
          ? shared
          : sharedSeries(history),
      ),
  };
}

/** A step that started at point `from` or later needs a change there (and one before it). */
function changedSince(column: Column, from: number): boolean {
  const { at } = column;
  return at.length >= 2 && (at[at.length - 1] as number) >= from;
}

/** The column's value at point p, 0 when absent there (or before the first point). */
function at(column: Column, p: number): number {
  return p < 0 ? 0 : (valueAt(column, p) ?? 0);
}

/** The column's value at the latest point, 0 when absent. */
function latest(column: Column): number {
  return column.values.length === 0 ? 0 : ((column.values[column.values.length - 1] as number | null) ?? 0);
}

/** Folds a column into `out`: at each point where it has a value, the larger of that and what `out` holds. */
function foldColumn(out: (number | null)[], column: Column, n: number): void {
  const { at, values } = column;
  for (let c = 0; c < at.length; c++) {
    const v = values[c] as number | null;
    if (v === null) continue;
    const to = c + 1 < at.length ? (at[c + 1] as number) : n;
    for (let p = at[c] as number; p < to; p++) {
      const was = out[p] as number | null;
      if (was === null || v > was) out[p] = v;
    }
  }
}

interface Candidate {
  kind: string;
  subject: string;
  pattern: boolean;
  moved: number;
  /** The order figures were looked at in: the last tie-break, as a stable sort of them all would keep. */
  order: number;
}

/** a comes before b: moved further, then by subject (code units), then looked at first. */
function before(a: Candidate, b: Candidate): boolean {
  if (a.moved !== b.moved) return a.moved > b.moved;
  if (a.subject !== b.subject) return a.subject < b.subject;
  return a.order < b.order;
}

/** The first `size` candidates in `before` order, kept in a heap whose top is the last of them: one pass, no sort of them all. */
class TopMoved {
  private readonly heap: Candidate[] = [];
  constructor(private readonly size: number) {}

  /**
   * The last of the kept candidates once `size` are kept (undefined before): a later one is kept only when it comes
   * before it, which on a tie of move and subject it does not (it was looked at later).
   */
  worst(): Candidate | undefined {
    return this.heap.length < this.size ? undefined : this.heap[0];
  }

  offer(c: Candidate): void {
    const heap = this.heap;
    if (heap.length < this.size) {
      heap.push(c);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(heap[parent] as Candidate, c)) break;
        heap[i] = heap[parent] as Candidate;
        i = parent;
      }
      heap[i] = c;
      return;
    }
    if (this.size === 0 || !before(c, heap[0] as Candidate)) return;
    // Replace the last of the kept ones and sift down.
    let i = 0;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const later = r < n && before(heap[l] as Candidate, heap[r] as Candidate) ? r : l;
      if (!before(c, heap[later] as Candidate)) break;
      heap[i] = heap[later] as Candidate;
      i = later;
    }
    heap[i] = c;
  }

  sorted(): Candidate[] {
    return [...this.heap].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  }
}

/** The step of a figure's values over the points, with the run's commit, what changed with it, and how long ago. */
function stepNote(history: History, values: readonly (number | null)[], tolerance: Tolerance): StepNote | null {
  const points: number[] = [];
  const present: number[] = [];
  values.forEach((v, p) => {
    if (v !== null) {
      points.push(p);
      present.push(v);
    }
  });
  const step: Step | null = detectStep(present, tolerance);
  if (step === null) return null;
  const point = points[step.index] as number;
  const meta = history.points[point] as PointMeta;
  // What changed at that run: against the point just before it (whether or not the figure was there).
  const previous = history.points[point - 1] as PointMeta;
  return {
    before: Math.round(step.before),
    after: Math.round(step.after),
    point,
    commit: meta.commit,
    runsAgo: history.points.length - 1 - point,
    environment: environmentChanges(previous.environment, meta.environment),
    baselineChanged: previous.baseline !== meta.baseline,
  };
}

/** Items whose value differs between two points' environments, by item name. */
export function environmentChanges(before: Record<string, string>, after: Record<string, string>): EnvironmentChange[] {
  const items = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes: EnvironmentChange[] = [];
  for (const item of items) {
    const b = Object.hasOwn(before, item) ? (before[item] as string) : null;
    const a = Object.hasOwn(after, item) ? (after[item] as string) : null;
    if (b !== a) changes.push({ item, baseline: b, current: a });
  }
  return changes;
}

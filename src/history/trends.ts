// The history as the reports read it: a key's or key group's value over the points, its last 30 points, the step where
// it moved (with the commit, and what else changed at that run), and the spread the noise band needs.
import { matchRule, sectionThresholds } from '../gate/thresholds.js';
import type { EnvironmentChange, GateConfig, NoiseLookup, NoiseSample, Tolerance } from '../gate/types.js';
import { findDeviceSegment, section as sectionNamed, sectionOfKind, type SegmentBounds } from '../model/sections/index.js';
import { ROLLUP_WIDTH, valueAt, type Column, type History, type PointMeta, type SectionHistory } from './format.js';
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
  /** The key's last `window` values' spread, for the noise band; undefined when the history has no value of it. */
  noise(kind: string, key: string, window: number): NoiseSample | undefined;
}

/** The noise band's source: each key's spread on the default branch (needs no config). */
export function noiseLookup(history: History): NoiseLookup {
  return trendsOf(history).noise;
}

/**
 * Trends of a history; step tolerances come from the config (each key's rule, else its section's tolerance; without a
 * config, each section's declared default).
 */
export function trendsOf(history: History, config: Pick<GateConfig, 'sections'> = { sections: {} }): Trends {
  const cache = new Map<string, Trend | null>();
  const patterns = new Map<string, Map<string, number[]>>();
  const n = history.points.length;

  /** Key indices of each device-free pattern of a section, made on first use. */
  const membersOf = (name: string, section: SectionHistory): Map<string, number[]> => {
    let byPattern = patterns.get(name);
    if (byPattern !== undefined) return byPattern;
    byPattern = new Map();
    const at: SegmentBounds = { start: 0, end: 0 };
    section.keys.forEach((key, i) => {
      if (!findDeviceSegment(key, at)) return;
      const pattern = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
      const list = byPattern!.get(pattern);
      if (list === undefined) byPattern!.set(pattern, [i]);
      else list.push(i);
    });
    patterns.set(name, byPattern);
    return byPattern;
  };

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

  const largest = new Map<string, (number | null)[] | null>();
  /** The largest over the pattern's devices at each point (made once per pattern). */
  const largestValues = (name: string, section: SectionHistory, pattern: string): (number | null)[] | null => {
    const id = `${name}\u0000${pattern}`;
    let values = largest.get(id);
    if (values === undefined) largest.set(id, (values = foldLargest(name, section, pattern)));
    return values;
  };

  /** From its keys where points kept every key, its roll-up's max elsewhere. */
  const foldLargest = (name: string, section: SectionHistory, pattern: string): (number | null)[] | null => {
    const members = membersOf(name, section).get(pattern) ?? [];
    const rollup = section.rollupIndex.get(pattern);
    if (members.length === 0 && rollup === undefined) return null;
    const out = new Array<number | null>(n).fill(null);
    const fold = (values: (number | null)[]): void => {
      for (let p = 0; p < n; p++) {
        const v = values[p] as number | null;
        if (v !== null && (out[p] === null || v > (out[p] as number))) out[p] = v;
      }
    };
    for (const i of members) fold(keyValues(section.keyColumns[i] as Column));
    if (rollup !== undefined) fold(keyValues(section.rollupColumns[rollup * ROLLUP_WIDTH + 2] as Column));
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
      const i = found.section.keyIndex.get(key);
      if (i !== undefined) made = trend('key', keyValues(found.section.keyColumns[i] as Column), toleranceOf(kind, key));
      else {
        // Points of more than 64 devices kept the key's group, not the key: its largest device stands for it.
        const at: SegmentBounds = { start: 0, end: 0 };
        if (findDeviceSegment(key, at)) made = forPattern(kind, `${key.slice(0, at.start)}*${key.slice(at.end)}`) ?? null;
      }
    }
    cache.set(id, made);
    return made ?? undefined;
  };

  /** A key's values: its own, or its group's largest where the points kept only the group's roll-up. */
  const valuesOfKey = (kind: string, key: string): (number | null)[] | null => {
    const found = sectionOf(kind);
    if (found === undefined) return null;
    const i = found.section.keyIndex.get(key);
    if (i !== undefined) return keyValues(found.section.keyColumns[i] as Column);
    const at: SegmentBounds = { start: 0, end: 0 };
    return findDeviceSegment(key, at) ? largestValues(found.name, found.section, `${key.slice(0, at.start)}*${key.slice(at.end)}`) : null;
  };

  // Per series: the keys of one group share their group's series where the points kept only its roll-up.
  const samples = new WeakMap<(number | null)[], { window: number; sample: NoiseSample | null }>();
  const noise = (kind: string, key: string, window: number): NoiseSample | undefined => {
    const values = valuesOfKey(kind, key);
    if (values === null) return undefined;
    let sample = samples.get(values)?.window === window ? samples.get(values)?.sample : undefined;
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
      sample = points === 0 ? null : { spread: hi - lo, points };
      samples.set(values, { window, sample });
    }
    return sample ?? undefined;
  };

  /** A step that started within the last RECENT_POINTS points needs a change there (and one before it). */
  const recentlyChanged = (columns: readonly Column[]): boolean =>
    columns.some((c) => c.at.length >= 2 && (c.at[c.at.length - 1] as number) >= n - RECENT_POINTS);

  let movedList: Moved[] | undefined;
  const moved = (): Moved[] => (movedList ??= findMoved());
  /**
   * The figures that moved most in the last RECENT_POINTS points (by how far their latest value is from their value
   * just before that span, read from the change lists, no series made), and of those, the ones that stepped: steps
   * are looked for in MOVED_CANDIDATES figures at most, so 100,000 kernels cost a sort, not 100,000 step searches.
   */
  const findMoved = (): Moved[] => {
    const then = n - 1 - RECENT_POINTS;
    const at = (column: Column, p: number): number => (p < 0 ? 0 : (valueAt(column, p) ?? 0));
    const candidates: { kind: string; subject: string; pattern: boolean; moved: number }[] = [];
    const bounds: SegmentBounds = { start: 0, end: 0 };
    for (const [name, section] of history.sections) {
      const kind = sectionNamed(name).kind;
      const patterns = new Set<string>();
      section.keys.forEach((key, i) => {
        // Only a figure that changed lately can have stepped lately: the rest cost one look at their last change.
        const column = section.keyColumns[i] as Column;
        if (!recentlyChanged([column])) return;
        if (findDeviceSegment(key, bounds)) patterns.add(`${key.slice(0, bounds.start)}*${key.slice(bounds.end)}`);
        else candidates.push({ kind, subject: key, pattern: false, moved: Math.abs(at(column, n - 1) - at(column, then)) });
      });
      for (const pattern of section.rollups) patterns.add(pattern);
      for (const pattern of patterns) {
        const members = membersOf(name, section).get(pattern) ?? [];
        const rollup = section.rollupIndex.get(pattern);
        const columns = [...members.map((i) => section.keyColumns[i] as Column), ...(rollup === undefined ? [] : [section.rollupColumns[rollup * ROLLUP_WIDTH + 2] as Column])];
        if (!recentlyChanged(columns)) continue;
        // The group's largest now and then.
        const largestAt = (p: number): number => columns.reduce((m, c) => Math.max(m, at(c, p)), Number.NEGATIVE_INFINITY);
        candidates.push({ kind, subject: pattern === '*' ? 'dev*' : pattern, pattern: true, moved: Math.abs(largestAt(n - 1) - largestAt(then)) });
      }
    }
    candidates.sort((a, b) => b.moved - a.moved || (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
    const out: Moved[] = [];
    for (const c of candidates.slice(0, MOVED_CANDIDATES)) {
      const t = c.pattern ? forPattern(c.kind, c.subject) : forKey(c.kind, c.subject);
      if (t?.step != null && t.step.runsAgo < RECENT_POINTS) out.push({ kind: c.kind, subject: c.subject, trend: t });
    }
    const change = (m: Moved): number => Math.abs((m.trend.step as StepNote).after - (m.trend.step as StepNote).before);
    return out.sort((a, b) => (a.trend.step as StepNote).runsAgo - (b.trend.step as StepNote).runsAgo || change(b) - change(a) || (a.subject < b.subject ? -1 : 1));
  };

  const template = history.header.commitUrl;
  return {
    branch: history.header.branch,
    points: history.points,
    commitUrl: (sha) => (template === undefined || !/^[0-9a-f]{4,64}$/.test(sha) ? undefined : template.replaceAll('{sha}', sha)),
    forKey,
    forPattern,
    moved,
    noise,
  };
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

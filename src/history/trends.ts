// The history as the reports read it: a key's or key group's value over the points, its last 30 points, the step where
// it moved (with the commit, and what else changed at that run), and the spread the noise band needs.
import { matchRule, sectionThresholds } from '../gate/thresholds.js';
import type { EnvironmentChange, GateConfig, NoiseLookup, Tolerance } from '../gate/types.js';
import { findDeviceSegment, sectionOfKind, type SegmentBounds } from '../model/sections/index.js';
import { historyName, type History, type PointMeta } from './format.js';
import { findMoved, MOVED_CANDIDATES, RECENT_POINTS } from './moved.js';
import { noiseOf, type NoiseSamples } from './noise.js';
import { HistorySeries, seriesValues, sharedSeries, stillShared, type Series, type SharedSeries } from './series.js';
import { detectStep, type Step } from './steps.js';

export { MOVED_CANDIDATES, RECENT_POINTS };

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

/** What the trends of one history share whatever their config: the series made from it, and the noise samples. */
interface Shared {
  series: SharedSeries;
  samples: NoiseSamples;
  /** Each series as the reports take it, made once: trends of one key group under two configs share it. */
  values: WeakMap<Series, (number | null)[]>;
}

function shared(history: History): Shared {
  return { series: sharedSeries(history), samples: new WeakMap(), values: new WeakMap() };
}

/**
 * Trends of a history; step tolerances come from the config (each key's rule, else its section's tolerance; without a
 * config, each section's declared default).
 */
export function trendsOf(history: History, config: Pick<GateConfig, 'sections'> = { sections: {} }): Trends {
  return trendsSharing(history, config, shared(history));
}

/** A key's step tolerance: its rule's, else its section's (each section's declared default without a config). */
function toleranceOf(config: Pick<GateConfig, 'sections'>, kind: string, key: string): Tolerance {
  const declaration = sectionOfKind(kind);
  if (declaration === undefined) return {};
  const thresholds = sectionThresholds(config, declaration);
  return matchRule(thresholds.rules, key)?.tolerance ?? thresholds.tolerance;
}

function trendsSharing(history: History, config: Pick<GateConfig, 'sections'>, kept: Shared): Trends {
  const cache = new Map<string, Trend | null>();
  const series = new HistorySeries(history, kept.series);
  const trend = (of: Trend['of'], made: Series, tolerance: Tolerance): Trend | null => {
    let values = kept.values.get(made);
    if (values === undefined) kept.values.set(made, (values = seriesValues(made)));
    return trendOf(history, of, values, tolerance);
  };

  const forPattern = (kind: string, pattern: string): Trend | undefined => {
    const id = `p\u0000${kind}\u0000${pattern}`;
    if (cache.has(id)) return cache.get(id) ?? undefined;
    const found = series.section(kind);
    // Reports show whole-device keys' pattern `*` as `dev*`.
    const inHistory = pattern === 'dev*' ? '*' : pattern;
    const values = found === undefined ? null : series.largest(found.name, found.section, inHistory);
    const made = values === null ? null : trend('largest', values, toleranceOf(config, kind, inHistory));
    cache.set(id, made);
    return made ?? undefined;
  };

  const forKey = (kind: string, key: string): Trend | undefined => {
    const id = `k\u0000${kind}\u0000${key}`;
    if (cache.has(id)) return cache.get(id) ?? undefined;
    const found = series.section(kind);
    let made: Trend | null = null;
    if (found !== undefined) {
      // A name past the history's length is found as the history wrote it.
      const i = found.section.keyIndex.get(historyName(key));
      if (i !== undefined) made = trend('key', series.ofKeyAt(found.section, i), toleranceOf(config, kind, key));
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

  let movedList: Moved[] | undefined;
  const template = history.header.commitUrl;
  return {
    branch: history.header.branch,
    points: history.points,
    commitUrl: (sha) =>
      template === undefined || !/^[0-9a-f]{4,64}$/.test(sha) ? undefined : template.replaceAll('{sha}', sha),
    forKey,
    forPattern,
    moved: () => (movedList ??= findMoved(history, (s) => series.groups(s), { forKey, forPattern })),
    noise: (kind, key, window) => noiseOf(series, kept.samples, kind, key, window),
    withConfig: (other) => trendsSharing(history, other, stillShared(kept.series, history) ? kept : shared(history)),
  };
}

/** A figure's trend: its last RECENT_POINTS values' range and its step; null when none of those has a value. */
function trendOf(history: History, of: Trend['of'], values: (number | null)[], tolerance: Tolerance): Trend | null {
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

// A figure's values over a history's points, made from its columns: a key's own, or the largest over a key group's
// devices (its keys where points kept them, its roll-up's max elsewhere). Held in Float64Arrays, NaN where a point does
// not have the figure: the noise band reads one per key asked, and a typed array is one allocation, not 200 boxes.
import { findDeviceSegment, sectionOfKind, type SegmentBounds } from '../model/sections/index.js';
import { historyName, ROLLUP_WIDTH, type Columns, type History, type SectionHistory } from './format.js';
import { ByPattern, groupsOf, type KeyGroups } from './groups.js';

/**
 * One value per point, oldest first; NaN where the point does not have the figure. The values are exact integers of at
 * most 2^53 - 1 in magnitude, which a double holds exactly.
 */
export type Series = Float64Array;

/** The series as the reports take it: null where absent. */
export function seriesValues(series: Series): (number | null)[] {
  const out = new Array<number | null>(series.length);
  for (let p = 0; p < series.length; p++) {
    const v = series[p] as number;
    out[p] = Number.isNaN(v) ? null : v;
  }
  return out;
}

/** Figure i's value at point p, 0 when absent there (or before the first point). */
export function valueOrZero(columns: Columns, i: number, p: number): number {
  if (p < 0) return 0;
  const v = columns.at(i, p);
  return Number.isNaN(v) ? 0 : v;
}

/** Figure i's value at the latest point, 0 when absent. */
export function latest(columns: Columns, i: number): number {
  const v = columns.latest(i);
  return Number.isNaN(v) ? 0 : v;
}

/** What the trends of one history share whatever their config: the series made from it, and the history as it was. */
export interface SharedSeries {
  points: number;
  lastLine: string | undefined;
  /** The largest over a key group's devices, by section name and pattern (null: the history has neither). */
  largest: Map<string, Series | null>;
}

export function sharedSeries(history: History): SharedSeries {
  return { points: history.points.length, lastLine: history.lines[history.lines.length - 1], largest: new Map() };
}

/** Whether `shared` was made from the history as it is now (no point recorded since). */
export function stillShared(shared: SharedSeries, history: History): boolean {
  return shared.points === history.points.length && shared.lastLine === history.lines[history.lines.length - 1];
}

/** A history's series by section kind and key or key group. */
export class HistorySeries {
  private readonly n: number;
  private readonly bounds: SegmentBounds = { start: 0, end: 0 };
  /** Per section: a key's group's series by the text around its device segment (its pattern made once per group). */
  private readonly groupSeries = new Map<string, ByPattern<Series | null>>();

  constructor(
    readonly history: History,
    private readonly shared: SharedSeries,
  ) {
    this.n = history.points.length;
  }

  /** The section's keys by device-free pattern (shared by every reader of this history while its key table only grows). */
  groups(section: SectionHistory): KeyGroups {
    return groupsOf(section.keys);
  }

  /** The history's section of a kind of key, with its name. */
  section(kind: string): { name: string; section: SectionHistory } | undefined {
    const declaration = sectionOfKind(kind);
    if (declaration === undefined) return undefined;
    const section = this.history.sections.get(declaration.name);
    return section === undefined ? undefined : { name: declaration.name, section };
  }

  /** Key i's own series. */
  ofKeyAt(section: SectionHistory, i: number): Series {
    const out = new Float64Array(this.n).fill(Number.NaN);
    section.keyColumns.fill(i, out);
    return out;
  }

  /** The largest over the pattern's devices at each point (made once per pattern). */
  largest(name: string, section: SectionHistory, pattern: string): Series | null {
    const id = `${name}\u0000${pattern}`;
    let values = this.shared.largest.get(id);
    if (values === undefined) this.shared.largest.set(id, (values = this.foldLargest(section, pattern)));
    return values;
  }

  /** A key's series: its own, or its group's largest where the points kept only the group's roll-up. */
  ofKey(kind: string, key: string): Series | null {
    const found = this.section(kind);
    if (found === undefined) return null;
    const i = found.section.keyIndex.get(historyName(key));
    if (i !== undefined) return this.ofKeyAt(found.section, i);
    if (!findDeviceSegment(key, this.bounds)) return null;
    // The keys of one group share their group's series: found by the text around the device segment.
    const { start, end } = this.bounds;
    let byPattern = this.groupSeries.get(found.name);
    if (byPattern === undefined) this.groupSeries.set(found.name, (byPattern = new ByPattern()));
    let values = byPattern.get(key, start, end);
    if (values === undefined) {
      values = this.largest(found.name, found.section, `${key.slice(0, start)}*${key.slice(end)}`);
      byPattern.set(key, start, end, values);
    }
    return values;
  }

  /** From its keys where points kept every key, its roll-up's max elsewhere. */
  private foldLargest(section: SectionHistory, pattern: string): Series | null {
    const groups = this.groups(section);
    const group = groups.find(pattern);
    const rollup = section.rollupIndex.get(historyName(pattern));
    if (group === undefined && rollup === undefined) return null;
    const n = this.n;
    const out = new Float64Array(n).fill(Number.NaN);
    if (group !== undefined) groups.members(group, (i) => section.keyColumns.fold(i, out));
    if (rollup !== undefined) section.rollupColumns.fold(rollup * ROLLUP_WIDTH + 2, out);
    return out;
  }
}

// What `history show` and the dashboard show, worked out once from the history and its trends: the points and what
// changed at each, per section one row per key group (a key of no device on its own) or the keys a glob picks, those
// that moved lately first. Trends are made for the rows shown only. The terminal and the page only format it.
import { globMatches } from '../gate/thresholds.js';
import type { History, PointMeta } from '../history/format.js';
import { environmentChanges, RECENT_POINTS, type StepNote, type Trend, type Trends } from '../history/trends.js';
import { findDeviceSegment, section as sectionNamed, type SegmentBounds } from '../model/sections/index.js';

/** A row before its trend is made: 100,000 kernel names are 100,000 subjects, of which a page shows a few. */
export interface HistorySubject {
  /** The section's name (`modules`). */
  section: string;
  kind: string;
  /** The key group (`DEV_MEM/{*}/APP`, `dev*` for whole-device keys) or the key. */
  subject: string;
  pattern: boolean;
  unit: 'bytes' | 'count';
}

export interface HistoryRow extends HistorySubject {
  trend: Trend;
}

// The one door from the report formats into the history: they read these names from here.
export { RECENT_POINTS, type PointMeta, type StepNote, type Trend, type Trends };

/** What changed at a run against the run before it, in the words the terminal, the page and the charts use. */
export interface RunChange {
  baselineUpdated: boolean;
  /** `cann 8.3.RC1 → 9.0.RC1; driver (unset) → 25.0`, or null when the environment is the same. */
  environment: string | null;
}

export interface HistoryView {
  branch: string | undefined;
  gate: string | undefined;
  /** The sections' names, in the history's order. */
  sections: readonly string[];
  points: readonly PointMeta[];
  /** Per point, what changed against the point before (nothing at the first). */
  changes: readonly RunChange[];
  /** The commit's page, when the history names a template. */
  commitUrl(sha: string): string | undefined;
  /** Every key group and key of no device, those that moved lately first; with a glob, the ones it matches in the history's order. */
  subjects(glob?: string): HistorySubject[];
  /** The rows of these subjects, with their trends. */
  rows(subjects: readonly HistorySubject[]): HistoryRow[];
}

/** Built once per `history show` or `history html`. */
export function buildHistoryView(history: History, trends: Trends): HistoryView {
  return {
    branch: history.header.branch,
    gate: history.header.gate,
    sections: [...history.sections.keys()],
    points: history.points,
    changes: runChanges(history.points),
    commitUrl: trends.commitUrl,
    subjects: (glob) =>
      glob === undefined ? movedFirst(historySubjects(history), trends) : historySubjects(history, glob),
    rows: (subjects) => rowsOf(subjects, trends),
  };
}

/** Each point's changes against the point before it. */
export function runChanges(points: readonly PointMeta[]): RunChange[] {
  return points.map((now, p) => {
    const before = p === 0 ? undefined : (points[p - 1] as PointMeta);
    if (before === undefined) return { baselineUpdated: false, environment: null };
    const changes = environmentChanges(before.environment, now.environment);
    return {
      baselineUpdated: before.baseline !== now.baseline,
      environment:
        changes.length === 0
          ? null
          : changes.map((c) => `${c.item} ${c.baseline ?? '(unset)'} → ${c.current ?? '(unset)'}`).join('; '),
    };
  });
}

/** Per section (in the history's order), the key groups and keys of no device; with a glob, the groups it matches and, apart, keys it matches in other groups. */
function historySubjects(history: History, glob?: string): HistorySubject[] {
  const out: HistorySubject[] = [];
  const at: SegmentBounds = { start: 0, end: 0 };
  for (const [name, section] of history.sections) {
    const declaration = sectionNamed(name);
    const seen = new Set<string>();
    const add = (subject: string, pattern: boolean): void => {
      const shown = pattern && subject === '*' ? 'dev*' : subject;
      const id = `${pattern ? 'p' : 'k'}${shown}`;
      if (seen.has(id)) return;
      seen.add(id);
      out.push({ section: name, kind: declaration.kind, subject: shown, pattern, unit: declaration.unit });
    };
    for (const key of section.keys) {
      if (!findDeviceSegment(key, at)) {
        if (glob === undefined || globMatches(glob, key)) add(key, false);
        continue;
      }
      const pattern = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
      if (glob === undefined || globMatches(glob, pattern)) add(pattern, true);
      else if (globMatches(glob, key)) add(key, false);
    }
    for (const pattern of section.rollups) if (glob === undefined || globMatches(glob, pattern)) add(pattern, true);
  }
  return out;
}

/** The subjects that moved lately (trends.moved(), the latest first) ahead of the others, which keep their order. */
function movedFirst(subjects: readonly HistorySubject[], trends: Trends): HistorySubject[] {
  const rank = new Map(trends.moved().map((m, i) => [`${m.kind}\u0000${m.subject}`, i]));
  const moved = subjects.filter((s) => rank.has(`${s.kind}\u0000${s.subject}`));
  moved.sort(
    (a, b) => (rank.get(`${a.kind}\u0000${a.subject}`) as number) - (rank.get(`${b.kind}\u0000${b.subject}`) as number),
  );
  return [...moved, ...subjects.filter((s) => !rank.has(`${s.kind}\u0000${s.subject}`))];
}

/** The rows of these subjects: their trends, made now; a subject the history has no value of is left out. */
function rowsOf(subjects: readonly HistorySubject[], trends: Trends): HistoryRow[] {
  const rows: HistoryRow[] = [];
  for (const s of subjects) {
    const trend = s.pattern ? trends.forPattern(s.kind, s.subject) : trends.forKey(s.kind, s.subject);
    if (trend !== undefined) rows.push({ ...s, trend });
  }
  return rows;
}

// The history as rows for `history show` and the dashboard: per section, one row per key group (a key of no device on
// its own), or the keys a glob picks; those that moved lately first. Trends are made for the rows shown only.
import { globMatches } from '../gate/thresholds.js';
import type { History } from '../history/format.js';
import type { Trend, Trends } from '../history/trends.js';
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

/** Per section (in the history's order), the key groups and keys of no device; with a glob, the groups it matches and, apart, keys it matches in other groups. */
export function historySubjects(history: History, glob?: string): HistorySubject[] {
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
export function movedFirst(subjects: readonly HistorySubject[], trends: Trends): HistorySubject[] {
  const rank = new Map(trends.moved().map((m, i) => [`${m.kind}\u0000${m.subject}`, i]));
  const moved = subjects.filter((s) => rank.has(`${s.kind}\u0000${s.subject}`));
  moved.sort(
    (a, b) => (rank.get(`${a.kind}\u0000${a.subject}`) as number) - (rank.get(`${b.kind}\u0000${b.subject}`) as number),
  );
  return [...moved, ...subjects.filter((s) => !rank.has(`${s.kind}\u0000${s.subject}`))];
}

/** The rows of these subjects: their trends, made now; a subject the history has no value of is left out. */
export function rowsOf(subjects: readonly HistorySubject[], trends: Trends): HistoryRow[] {
  const rows: HistoryRow[] = [];
  for (const s of subjects) {
    const trend = s.pattern ? trends.forPattern(s.kind, s.subject) : trends.forKey(s.kind, s.subject);
    if (trend !== undefined) rows.push({ ...s, trend });
  }
  return rows;
}

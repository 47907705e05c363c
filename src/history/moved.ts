// What moved on the default branch lately: the figures that moved most in the last RECENT_POINTS points (by how far
// their latest value is from their value just before that span, read from the change lists, no series made), and of
// those, the ones that stepped. Steps are looked for in MOVED_CANDIDATES figures at most, so 100,000 kernels cost one
// pass over their change lists and a selection of the top ones, not 100,000 step searches (nor a sort of them all).
import { section as sectionNamed } from '../model/sections/index.js';
import { ROLLUP_WIDTH, type History, type SectionHistory } from './format.js';
import type { KeyGroups } from './groups.js';
import { latest, valueOrZero } from './series.js';

/** Points a sparkline shows, and the span a step must have started in to be listed as moved. */
export const RECENT_POINTS = 30;

/** Figures, those that moved most lately, searched for a step for the list of what moved. */
export const MOVED_CANDIDATES = 100;

/** What the search needs of a trend: where its step is. */
export interface MovedTrend {
  step: { before: number; after: number; runsAgo: number } | null;
}

/** One figure that moved recently. */
export interface MovedOf<T extends MovedTrend> {
  kind: string;
  /** The key, or the key group (`DEV_MEM/{*}/HCCL`). */
  subject: string;
  trend: T;
}

/** The trends the candidates are looked up in. */
export interface MovedSource<T extends MovedTrend> {
  forKey(kind: string, key: string): T | undefined;
  forPattern(kind: string, pattern: string): T | undefined;
}

/** Steps whose new level started within the last RECENT_POINTS points, the latest first, then the largest. */
export function findMoved<T extends MovedTrend>(
  history: History,
  groupsOf: (section: SectionHistory) => KeyGroups,
  trends: MovedSource<T>,
): MovedOf<T>[] {
  const search = new MovedSearch(history.points.length, MOVED_CANDIDATES);
  for (const [name, section] of history.sections) search.section(sectionNamed(name).kind, section, groupsOf(section));
  const out: MovedOf<T>[] = [];
  for (const c of search.top.sorted()) {
    const t = c.pattern ? trends.forPattern(c.kind, c.subject) : trends.forKey(c.kind, c.subject);
    if (t?.step != null && t.step.runsAgo < RECENT_POINTS) out.push({ kind: c.kind, subject: c.subject, trend: t });
  }
  const change = (m: MovedOf<T>): number => Math.abs(m.trend.step!.after - m.trend.step!.before);
  return out.sort(
    (a, b) =>
      a.trend.step!.runsAgo - b.trend.step!.runsAgo || change(b) - change(a) || (a.subject < b.subject ? -1 : 1),
  );
}

/** The candidates of every section, offered to one TopMoved in the order the figures are looked at. */
class MovedSearch {
  readonly top: TopMoved;
  /** The point just before the recent span, and the span's first point. */
  private readonly then: number;
  private readonly recent: number;
  private order = 0;

  constructor(n: number, size: number) {
    this.then = n - 1 - RECENT_POINTS;
    this.recent = n - RECENT_POINTS;
    this.top = new TopMoved(size);
  }

  /** Offers a section's keys that changed lately (grouped where they have a device), then its roll-ups. */
  section(kind: string, section: SectionHistory, groups: KeyGroups): void {
    const { keys, keyColumns, rollups } = section;
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
      if (!keyColumns.changedSince(i, this.recent)) continue;
      const g = groups.groupOf[i] as number;
      if (g === -1)
        this.offerText(
          kind,
          keys[i] as string,
          false,
          Math.abs(latest(keyColumns, i) - valueOrZero(keyColumns, i, this.then)),
        );
      else if (seen[g] === 0) {
        seen[g] = 1;
        lately.push(g);
      }
    }
    for (const g of lately) {
      const r = rollupOfGroup[g] as number;
      this.offerGroup(kind, groups, g, this.largestMove(section, groups, g, r));
    }
    // Roll-ups whose group no key of which changed lately: listed when their own max did.
    for (let r = 0; r < rollups.length; r++) {
      const g = groupOfRollup[r] as number;
      if (g !== -1 && seen[g] === 1) continue;
      if (!section.rollupColumns.changedSince(r * ROLLUP_WIDTH + 2, this.recent)) continue;
      const moved = this.largestMove(section, groups, g, r);
      if (g !== -1) this.offerGroup(kind, groups, g, moved);
      else {
        const pattern = rollups[r] as string;
        this.offerText(kind, pattern === '*' ? 'dev*' : pattern, true, moved);
      }
    }
  }

  /** A figure named by its text: kept when it comes before the last of the top ones so far. */
  private offerText(kind: string, subject: string, pattern: boolean, moved: number): void {
    const worst = this.top.worst();
    if (worst === undefined || moved > worst.moved || (moved === worst.moved && subject < worst.subject))
      this.top.offer({ kind, subject, pattern, moved, order: this.order });
    this.order++;
  }

  /**
   * A group's subject is made only when it is among the top ones so far: 60,000 kernels that moved alike are told apart
   * by comparing their patterns in place.
   */
  private offerGroup(kind: string, groups: KeyGroups, g: number, moved: number): void {
    const worst = this.top.worst();
    if (
      worst === undefined ||
      moved > worst.moved ||
      (moved === worst.moved && groups.compareSubject(g, worst.subject) < 0)
    ) {
      const pattern = groups.pattern(g);
      this.top.offer({ kind, subject: pattern === '*' ? 'dev*' : pattern, pattern: true, moved, order: this.order });
    }
    this.order++;
  }

  /** The group's largest now and then, over its members and its roll-up's max: how far it moved. */
  private largestMove(section: SectionHistory, groups: KeyGroups, g: number, r: number): number {
    const { keyColumns, rollupColumns } = section;
    let now = Number.NEGATIVE_INFINITY;
    let before = Number.NEGATIVE_INFINITY;
    if (g !== -1)
      for (let i = groups.first(g); i !== -1; i = groups.nextOf(i)) {
        now = Math.max(now, latest(keyColumns, i));
        before = Math.max(before, valueOrZero(keyColumns, i, this.then));
      }
    if (r !== -1) {
      now = Math.max(now, latest(rollupColumns, r * ROLLUP_WIDTH + 2));
      before = Math.max(before, valueOrZero(rollupColumns, r * ROLLUP_WIDTH + 2, this.then));
    }
    return Math.abs(now - before);
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

// What a gate report page shows, worked out once: the verdict's outcome, the first-run split, the rows with their reasons, trends and steps, what moved, the noise band, the devices; Markdown, terminal and HTML only format it.
import type { Entry, GateReport } from '../gate/types.js';
import { sectionOfKind, splitDevice } from '../model/sections/index.js';
import { deviceTable, type DeviceTable } from './device-table.js';
import { entryReason } from './entry-values.js';
import { devicesPerPattern, groupEntries, isRollUp, worstOf, type EntryGroup } from './groups.js';
import { RECENT_POINTS, runChanges, type RunChange, type StepNote, type Trend, type Trends } from './history-view.js';
import {
  acceptsBaseline,
  countByStatus,
  isFirstRun,
  orderEntries,
  partitionEntries,
  verdictOf,
  type Verdict,
} from './partition.js';
import { contextBlocks, type ContextBlock } from './run-context.js';
import { runsAgo, shortSha } from './trend-text.js';

export { RECENT_POINTS, type Trends };

/** Steps listed besides the rows' own, in every format. */
const MOVED_SHOWN = 10;

type Unit = 'bytes' | 'count';

/** Where a figure stepped on the default branch, in the words every format uses. */
export interface StepView {
  /** The key or pattern that stepped. */
  subject: string;
  /** The figure is a key group's largest device at each run. */
  largest: boolean;
  step: StepNote;
  unit: Unit;
  /** The commit's short sha and, when the history has a template, its URL. */
  sha: string;
  url: string | undefined;
  /** `14 runs ago`, `the latest run`. */
  ago: string;
}

/** A row's figure on the default branch. */
interface TrendView {
  subject: string;
  trend: Trend;
  unit: Unit;
  /** The row is a key group rolled up across devices. */
  rolled: boolean;
  /** For a single key drawn as its group's largest device: the group's pattern, else null. */
  largestOf: string | null;
  step: StepView | null;
}

/** One row of the failing, improved or banded lists: a group of one key, or a pattern rolled up across devices. */
export interface RowView {
  group: EntryGroup;
  worst: Entry;
  rolled: boolean;
  /** A rule other than the default, and a finding's note (about the worst entry). */
  rule: string | null;
  note: string | null;
  trend: TrendView | null;
}

interface MovedView {
  kind: string;
  step: StepView;
}

export interface ReportView {
  report: GateReport;
  /** `fail`, `first` (a first run that did not fail) or `pass`. */
  outcome: 'fail' | 'first' | 'pass';
  /** The verdict's sentence; each format puts its title in (partition.ts titledVerdict). */
  verdict: Verdict;
  /** What the run's context says (baseline shares no key, environment changes, artifacts missing, records not read). */
  context: ContextBlock[];
  /** A new baseline would settle the failure: the formats say how to accept an intended change. */
  acceptsBaseline: boolean;
  firstRun: boolean;
  /** Failing and warning entries, worst first; on a first run without its new keys. */
  problems: Entry[];
  /** A first run's new keys: recorded, not warnings. */
  recorded: Entry[];
  /** Every failing and warning entry worst first, a first run's new keys among them (the JUnit suites). */
  problemsWithRecorded: Entry[];
  improvements: Entry[];
  /** Sorted by kind, then key, when first read: a format that only counts them reads `notListed` instead. */
  readonly unchanged: Entry[];
  /** The improved and unchanged keys counted by status, in the report's status order. */
  readonly notListed: { count: number; byStatus: [status: string, count: number][] };
  /** Keys past their tolerance that the noise band let pass, by kind, then key. */
  banded: Entry[];
  /** The problems as rows: one per pattern across devices. */
  problemRows: RowView[];
  /** The problems as one row per key (a terminal's `--all`), and what moved besides them; worked out when first read. */
  readonly perKey: { problemRows: RowView[]; moved: ReportView['moved'] };
  improvementRows: RowView[];
  bandedRows: RowView[];
  /** Groups of the given entries, counted against every device of the report. */
  groups(entries: readonly Entry[]): EntryGroup[];
  trends: Trends | undefined;
  /** What changed at each of the history's points, for the trend charts; empty without trends. Worked out when first read. */
  readonly runChanges: readonly RunChange[];
  /** What moved on the default branch besides the problem rows: the first MOVED_SHOWN and how many more. */
  moved: { shown: MovedView[]; more: number } | null;
  devices: DeviceTable | null;
}

export interface ViewOptions {
  /** The default branch's history: sparklines, steps and what moved. */
  trends?: Trends | undefined;
}

/** Built once per check; every format of that check reads the same view. */
export function buildReportView(report: GateReport, options: ViewOptions = {}): ReportView {
  const firstRun = isFirstRun(report);
  // The unchanged keys are sorted only when a format lists them (a pass over 160,000 keys costs ~40 ms).
  const partition = partitionEntries(report, { orderUnchanged: false });
  // On a first run every key is new: the keys are recorded in one list, not one warning row each.
  const recorded = firstRun ? partition.problems.filter((e) => e.status === 'new') : [];
  const problems = firstRun ? partition.problems.filter((e) => e.status !== 'new') : partition.problems;
  const banded = orderEntries(partition.unchanged.filter((e) => e.status === 'pass' && e.noise?.applied === 'band'));
  const perPattern = devicesPerPattern(report.entries);
  const groups = (entries: readonly Entry[]): EntryGroup[] => groupEntries(entries, perPattern);
  const trends = options.trends;
  const row = (group: EntryGroup): RowView => rowView(group, trends);
  const problemGroups = groups(problems);
  const moved = (listed: readonly EntryGroup[]): ReportView['moved'] =>
    trends === undefined ? null : movedOf(trends, listed);
  let unchanged: Entry[] | undefined;
  let notListed: ReportView['notListed'] | undefined;
  let perKey: ReportView['perKey'] | undefined;
  let changes: RunChange[] | undefined;
  return {
    report,
    outcome: report.result === 'fail' ? 'fail' : firstRun ? 'first' : 'pass',
    verdict: verdictOf(report),
    context: contextBlocks(report),
    acceptsBaseline: acceptsBaseline(report),
    firstRun,
    problems,
    recorded,
    problemsWithRecorded: partition.problems,
    improvements: partition.improvements,
    get unchanged() {
      return (unchanged ??= orderEntries(partition.unchanged));
    },
    get notListed() {
      return (notListed ??= {
        count: partition.improvements.length + partition.unchanged.length,
        byStatus: countByStatus([...partition.improvements, ...partition.unchanged]),
      });
    },
    banded,
    problemRows: problemGroups.map(row),
    get perKey() {
      if (perKey === undefined) {
        const keyGroups = problems.map((e) => groups([e])[0] as EntryGroup);
        perKey = { problemRows: keyGroups.map(row), moved: moved(keyGroups) };
      }
      return perKey;
    },
    improvementRows: groups(partition.improvements).map(row),
    bandedRows: groups(banded).map(row),
    groups,
    trends,
    get runChanges() {
      return (changes ??= trends === undefined ? [] : runChanges(trends.points));
    },
    moved: moved(problemGroups),
    devices: deviceTable(report.entries),
  };
}

function unitOfKind(kind: string): Unit {
  return sectionOfKind(kind)?.unit ?? 'bytes';
}

function rowView(group: EntryGroup, trends: Trends | undefined): RowView {
  const worst = worstOf(group);
  const { rule, note } = entryReason(worst);
  return { group, worst, rolled: isRollUp(group), rule, note, trend: trendOf(group, trends) };
}

/** The group's figure on the default branch: a rolled-up row's pattern, else its key. */
function trendOf(group: EntryGroup, trends: Trends | undefined): TrendView | null {
  if (trends === undefined) return null;
  const rolled = isRollUp(group);
  const subject = rolled ? group.pattern : worstOf(group).key;
  const trend = rolled ? trends.forPattern(group.kind, group.pattern) : trends.forKey(group.kind, subject);
  if (trend === undefined) return null;
  const unit = unitOfKind(group.kind);
  return {
    subject,
    trend,
    unit,
    rolled,
    largestOf: trend.of === 'largest' && !rolled ? splitDevice(subject).group : null,
    step: stepOf(subject, trend, unit, trends),
  };
}

function stepOf(subject: string, trend: Trend, unit: Unit, trends: Trends): StepView | null {
  const step = trend.step;
  if (step === null) return null;
  return {
    subject,
    largest: trend.of === 'largest',
    step,
    unit,
    sha: shortSha(step.commit),
    url: trends.commitUrl(step.commit),
    ago: runsAgo(step),
  };
}

/** What moved on the default branch in its last runs, for figures the rows do not show. */
function movedOf(trends: Trends, groups: readonly EntryGroup[]): { shown: MovedView[]; more: number } | null {
  const listed = new Set(groups.map((g) => `${g.kind}\u0000${isRollUp(g) ? g.pattern : worstOf(g).key}`));
  const moved = trends.moved().filter((m) => !listed.has(`${m.kind}\u0000${m.subject}`));
  if (moved.length === 0) return null;
  return {
    shown: moved.slice(0, MOVED_SHOWN).map((m) => ({
      kind: m.kind,
      step: stepOf(m.subject, m.trend, unitOfKind(m.kind), trends) as StepView,
    })),
    more: Math.max(0, moved.length - MOVED_SHOWN),
  };
}

/** The command that records a first baseline, named in every format's first-run how-to. */
export function baselineCommand(file: string): string {
  return `ascend-memory-gate baseline --out ${file}`;
}

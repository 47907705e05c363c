// The report as JUnit XML, for the CI systems that show test reports with no setup (GitLab's merge-request test widget,
// Jenkins' `junit` step): one testsuite per section, one testcase per key or device group. Pure: the caller writes it.
import type { Entry, Status } from '../gate/types.js';
import { visible } from '../common/visible.js';
import { annotationText, failureReason } from './annotation.js';
import { entrySentence } from './entry-values.js';
import { devicesPhrase, isRollUp, kindTitle, worstOf, type EntryGroup } from './groups.js';
import { shortenName } from './names.js';
import { REPORT_KINDS } from './report-schema.js';
import { contextTerminal } from './run-context.js';
import type { ReportView } from './view.js';
import { titledVerdict } from './partition.js';
import { sectionOfKind } from '../model/sections/index.js';
import { UNTRACED_NOTE } from '../model/sections/allocator.js';
import { formatCount } from '../model/units.js';

/** What the schema requires that a report does not hold: when and where the gate ran. */
export interface JunitContext {
  /** When the gate ran; written in UTC, to the second, without a zone (the Ant schema's pattern). */
  timestamp: Date;
  /** The machine the gate ran on. */
  hostname: string;
}

/** Members listed in a group's failure text before "…N more": as many as the report's device lists show. */
const MEMBERS_LISTED = 10;

/** Statuses that judged no pair of values: no baseline (new), nothing this run (missing), or a rule's `ignore`. */
const NOT_JUDGED: ReadonlySet<string> = new Set(['new', 'missing', 'ignored']);

/**
 * Text for an XML 1.0 attribute or element: what XML cannot carry (controls, lone surrogates, U+FFFE/U+FFFF) made
 * visible as the other reports show it, then the five markup characters escaped; newlines kept in element text.
 */
function xml(text: string, keepNewlines = false): string {
  return visible(text, keepNewlines)
    .replace(/[\ufffe\uffff]/g, (ch) => `⟨U+${ch.charCodeAt(0).toString(16).toUpperCase()}⟩`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** `2026-12-02T08:15:00`: UTC, whole seconds, no zone (xs:dateTime restricted by the Ant schema's pattern). */
function timestampText(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('the JUnit timestamp is not a valid date');
  return date.toISOString().slice(0, 19);
}

/** The section name a kind belongs to (`modules`), or the kind made plural for kinds of no section (`devices`). */
function sectionName(kind: string): string {
  return sectionOfKind(kind)?.name ?? `${kind}s`;
}

interface TestCase {
  name: string;
  outcome: 'passed' | 'failure' | 'skipped';
  status: string;
  message: string;
  text: string;
}

/** A group's one line: the worst member's sentence, its rule and note, and for a roll-up how many devices it stands for. */
function groupMessage(group: EntryGroup): string {
  const line = annotationText(worstOf(group));
  return isRollUp(group) ? `${devicesPhrase(group)}, worst ${line}` : line;
}

/** The failure's text: the entry's line, or a roll-up's members worst first (the first MEMBERS_LISTED, then how many more). */
function failureText(group: EntryGroup): string {
  if (!isRollUp(group)) return annotationText(worstOf(group));
  const shown = group.entries.slice(0, MEMBERS_LISTED).map((e) => entrySentence(e));
  const more = group.entries.length - shown.length;
  return [...shown, ...(more > 0 ? [`…${formatCount(more)} more`] : [])].join('\n');
}

/** The statuses of a key's comparison with the baseline; every other status is a finding, a test of its own. */
const BASELINE_VERDICTS: ReadonlySet<string> = new Set<Status>([
  'regressed',
  'over-budget',
  'improved',
  'new',
  'missing',
  'ignored',
  'pass',
]);

/**
 * The row's key (`DEV_MEM/dev1/APP`) or roll-up pattern (`DEV_MEM/{*}/APP`), with the status only for a finding
 * (`DEV_MEM/dev1/HCCL imbalance`): CI systems track a test by its name, so a key that regresses stays the same test.
 */
function caseName(group: EntryGroup): string {
  const name = shortenName(isRollUp(group) ? group.pattern : worstOf(group).key);
  return BASELINE_VERDICTS.has(group.status) ? name : `${name} ${group.status}`;
}

/** A suite's cases, with the status added to names two roll-ups of one pattern share (`DEV_MEM/{*}/GE pass`, `… improved`). */
function namedCases(groups: readonly EntryGroup[]): TestCase[] {
  const cases = groups.map(testCase);
  const seen = new Map<string, number>();
  for (const c of cases) seen.set(c.name, (seen.get(c.name) ?? 0) + 1);
  return cases.map((c) =>
    (seen.get(c.name) ?? 0) > 1 && BASELINE_VERDICTS.has(c.status) ? { ...c, name: `${c.name} ${c.status}` } : c,
  );
}

function testCase(group: EntryGroup): TestCase {
  const name = caseName(group);
  const message = groupMessage(group);
  if (group.severity === 'fail')
    return { name, outcome: 'failure', status: group.status, message, text: failureText(group) };
  if (NOT_JUDGED.has(group.status)) return { name, outcome: 'skipped', status: group.status, message, text: '' };
  return { name, outcome: 'passed', status: group.status, message, text: '' };
}

interface Suite {
  name: string;
  package: string;
  cases: TestCase[];
  /** Warnings and the like, for the suite's system-out: JUnit has no "passed with a warning". */
  out: string[];
}

/** The verdict of the whole gate as one test case: failing exactly when the job fails, whatever failed it. */
function verdictSuite(view: ReportView): Suite {
  const report = view.report;
  const verdict = titledVerdict(view.verdict, 'Memory gate');
  const failed = report.result === 'fail';
  return {
    name: 'Memory gate',
    package: 'gate',
    cases: [
      {
        name: 'verdict',
        outcome: failed ? 'failure' : 'passed',
        status: 'memory-gate',
        message: failed ? failureReason(report) : verdict,
        text: failed ? verdict : '',
      },
    ],
    // What surrounds the verdict (a disjoint baseline, records not read, …), as the terminal says it.
    out: [verdict, ...contextTerminal(view.context, visible).filter((line) => line !== '')],
  };
}

/** One suite per kind in the report, in report order; in each, groups worst first as every renderer lists them. */
function sectionSuites(view: ReportView): Suite[] {
  const byKind = new Map<string, Entry[]>();
  for (const list of [view.problemsWithRecorded, view.improvements, view.unchanged]) {
    for (let i = 0; i < list.length; i++) {
      const entry = list[i] as Entry;
      let entries = byKind.get(entry.kind);
      if (entries === undefined) byKind.set(entry.kind, (entries = []));
      entries.push(entry);
    }
  }
  const known: readonly string[] = REPORT_KINDS;
  const rank = (kind: string): number => (known.includes(kind) ? known.indexOf(kind) : known.length);
  return [...byKind]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([kind, entries]) => {
      const groups = view.groups(entries);
      const out = groups.filter((g) => g.severity === 'warn').map((g) => `warning: ${groupMessage(g)}`);
      // A passing testcase shows no note: say which figures are dump-time ones (a snapshot without a trace).
      const dumpTime = [
        ...new Set(entries.filter((e) => e.note?.startsWith(UNTRACED_NOTE) === true).map((e) => e.key)),
      ];
      for (const key of dumpTime)
        out.push(
          `dump-time: ${key}: no trace was recorded on this device, so this is its state at dump time, not a peak`,
        );
      return { name: kindTitle(kind), package: sectionName(kind), cases: namedCases(groups), out };
    });
}

function renderCase(c: TestCase, classname: string): string {
  const open = `    <testcase name="${xml(c.name)}" classname="${xml(classname)}" time="0"`;
  if (c.outcome === 'passed') return `${open}/>`;
  if (c.outcome === 'skipped') return `${open}>\n      <skipped message="${xml(c.message)}"/>\n    </testcase>`;
  return `${open}>\n      <failure message="${xml(c.message)}" type="${xml(c.status)}">${xml(c.text, true)}</failure>\n    </testcase>`;
}

function renderSuite(suite: Suite, id: number, context: JunitContext): string {
  const failures = suite.cases.filter((c) => c.outcome === 'failure').length;
  const skipped = suite.cases.filter((c) => c.outcome === 'skipped').length;
  const classname = `ascend-memory-gate.${suite.package}`;
  return [
    `  <testsuite name="${xml(suite.name)}" package="${xml(suite.package)}" id="${id}" tests="${suite.cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="0" timestamp="${timestampText(context.timestamp)}" hostname="${xml(context.hostname || 'localhost')}">`,
    '    <properties/>',
    ...suite.cases.map((c) => renderCase(c, classname)),
    suite.out.length > 0 ? `    <system-out>${xml(suite.out.join('\n'), true)}</system-out>` : '    <system-out/>',
    '    <system-err/>',
    '  </testsuite>',
  ].join('\n');
}

/**
 * The report as a JUnit XML document, valid against both the Apache Ant schema (windyroad JUnit.xsd: a bare
 * `testsuites` root, `properties`, `system-out` and `system-err` in every suite, `package`, `id`, `timestamp`,
 * `hostname`) and Jenkins' junit-10.xsd. The first suite holds the gate's own verdict, so the file fails exactly when
 * the job does (a first run under `onMissingBaseline: fail`, an environment change under `onChange: fail`).
 * A testcase fails for a failing verdict (its message: the key's sentence and the verdict's note), is skipped for a key
 * not judged (no baseline, not in this run, ignored), and passes otherwise; warnings go to the suite's system-out.
 */
export function renderJunit(view: ReportView, context: JunitContext): string {
  const suites = [verdictSuite(view), ...sectionSuites(view)];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites>',
    ...suites.map((s, i) => renderSuite(s, i, context)),
    '</testsuites>',
    '',
  ].join('\n');
}

// The gate report as GitHub markdown (job summary, PR comment, --markdown file): verdict and the rows that matter first, rolled up across devices, degraded block by block to fit a size.
import { UsageError } from '../common/errors.js';
import { renderMermaidChart } from './chart.js';
import { formatChange, formatTransition, keepUnits } from './entry-values.js';
import { shortenName } from '../common/names.js';
import { replaceControlCharacters } from '../common/visible.js';
import { codeSpan, escapeHtml, escapeMarkdownText, tableCodeSpan } from './escape.js';
import { contextMarkdown } from './run-context.js';
import {
  deviceOfEntry,
  devicesPhrase,
  isRollUp,
  medianGrowth,
  medianPercent,
  worstOf,
  valueRange,
  kindTitle,
  type EntryGroup,
} from './groups.js';
import { acceptChangeText, plural, titledVerdict } from './partition.js';
import { figureCell, type DeviceTable } from './device-table.js';
import { formatBytes, formatCount, formatDelta } from '../model/units.js';
import { formatShortPercent } from './entry-values.js';
import { superscript } from '../common/text-layout.js';
import { sparkline, stepContext, stepLevels, trendRange } from './trend-text.js';
import { baselineCommand, RECENT_POINTS, type ReportView, type RowView, type StepView, type Trends } from './view.js';

export interface MarkdownOptions {
  /** Subject of the verdict line, shown as plain text: "<title> failed: …". Default "Memory gate". */
  title?: string;
  /**
   * Upper bound on the output's UTF-8 byte length. A UTF-16 or code-point count never exceeds the UTF-8 length,
   * so a character limit (65,536 for a PR comment) can be passed as is; 1 MiB for a job summary. Default: no limit.
   */
  maxBytes?: number;
  /** A hidden HTML comment such as `<!-- ascend-memory-gate:default -->`, put first so a sticky comment can be found. */
  marker?: string;
  /** The workflow run's URL, linked under the verdict. http(s) only. */
  runUrl?: string;
  /** A block rendered elsewhere (limits-changed.ts), shown first, under the marker; it is never dropped, so keep it bounded. */
  preface?: string;
  /** Mermaid charts of per-device peaks, baseline vs current, for this many modules (those that changed most). Default 3; 0 = none. */
  chartModules?: number;
  /** The baseline file, named in a first run's how-to and in how to accept an intended change. Default `memory-baseline.json`. */
  baselineFile?: string;
  /** The config's baselineUpdateLabel, named in how to accept an intended change. */
  baselineUpdateLabel?: string;
}

const SEE_ELSEWHERE = 'see the JSON report / job summary';

const SEVERITY_ICON: Record<string, string> = { fail: '❌', warn: '⚠️', ok: '✅' };

/** Four short columns: fits a PR comment at 780 px. Explanations go to a numbered list under the table. */
const ENTRY_HEADER = ['| Status | Key | Baseline → current | Δ (Δ%) |', '|---|---|--:|--:|'];

/** Devices listed under a rolled-up row, largest change first; the rest are counted. */
const DEVICES_PER_GROUP = 10;
/** Rows of the collapsed lists (unchanged, recorded on a first run) before "N more". */
const COLLAPSED_ROWS = 200;

const NBSP = '\u00a0';

/** What a per-device sum means: it adds keys that peak at different times. */
export const DEVICE_FOOTNOTE =
  'Sums over the keys with a `devN` segment. A sum of module peaks is an upper bound of the device peak: modules and memory attributes ' +
  'peak at different times, and attributes overlap (DEV\\_PROC\\_MEM is a process total). Keys without a device (host, SVM) are not counted.';

/** Formats the check's view; with maxBytes, drops the charts, device lists, unchanged rows, improvements, device totals, then trailing rows. */
export function renderMarkdown(view: ReportView, options: MarkdownOptions = {}): string {
  const maxBytes = options.maxBytes;
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
    throw new UsageError(`maxBytes must be a positive integer, got ${String(maxBytes)}`);
  }
  const chartModules = options.chartModules;
  if (chartModules !== undefined && !(Number.isSafeInteger(chartModules) && chartModules >= 0)) {
    throw new UsageError(`chartModules must be a non-negative integer, got ${String(chartModules)}`);
  }
  const parts = buildParts(view, options);
  const all = parts.problemRows.length;

  for (const level of LEVELS) {
    const text = compose(parts, level, all);
    if (maxBytes === undefined || utf8Length(text) <= maxBytes) return text;
  }
  const limit = maxBytes ?? Number.POSITIVE_INFINITY;

  // Cut whole rows from the end: the most rows that fit together with the "…N more rows" note (binary search).
  let lo = 0;
  let hi = all;
  if (utf8Length(compose(parts, ALL_DROPPED, 0)) <= limit) {
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (utf8Length(compose(parts, ALL_DROPPED, mid)) <= limit) lo = mid;
      else hi = mid - 1;
    }
    return compose(parts, ALL_DROPPED, lo);
  }
  const verdictOnly = joinBlocks([parts.head]);
  if (utf8Length(verdictOnly) <= limit) return verdictOnly;
  throw new UsageError(`maxBytes ${limit} cannot hold even the verdict line (${utf8Length(verdictOnly)} bytes)`);
}

/** Validates a sticky-comment marker: one HTML comment that cannot end early or hide anything after it. */
export function checkMarker(marker: string): string {
  const inner = marker.startsWith('<!--') && marker.endsWith('-->') ? marker.slice(4, -3) : null;
  if (
    inner === null ||
    inner.includes('-->') ||
    inner.includes('--!>') ||
    inner.includes('<!--') ||
    inner.startsWith('>') ||
    inner.startsWith('->') ||
    /[\r\n]/.test(inner)
  ) {
    throw new UsageError(
      `marker must be one single-line HTML comment like '<!-- ascend-memory-gate:default -->', got ${JSON.stringify(marker)}`,
    );
  }
  return marker;
}

interface Level {
  dropChart: boolean;
  /** The sparklines under the rows and the list of what moved on the default branch. */
  dropTrends: boolean;
  dropDeviceLists: boolean;
  dropUnchanged: boolean;
  dropImprovements: boolean;
  dropDevices: boolean;
}

const ALL_DROPPED: Level = {
  dropChart: true,
  dropTrends: true,
  dropDeviceLists: true,
  dropUnchanged: true,
  dropImprovements: true,
  dropDevices: true,
};

/**
 * The degrade steps in order: pictures of what the tables say first (charts, then sparklines and what moved), then the
 * per-device lists, unchanged rows, improvements, device totals.
 */
const LEVELS: readonly Level[] = [
  {
    dropChart: false,
    dropTrends: false,
    dropDeviceLists: false,
    dropUnchanged: false,
    dropImprovements: false,
    dropDevices: false,
  },
  {
    dropChart: true,
    dropTrends: false,
    dropDeviceLists: false,
    dropUnchanged: false,
    dropImprovements: false,
    dropDevices: false,
  },
  {
    dropChart: true,
    dropTrends: true,
    dropDeviceLists: false,
    dropUnchanged: false,
    dropImprovements: false,
    dropDevices: false,
  },
  {
    dropChart: true,
    dropTrends: true,
    dropDeviceLists: true,
    dropUnchanged: false,
    dropImprovements: false,
    dropDevices: false,
  },
  {
    dropChart: true,
    dropTrends: true,
    dropDeviceLists: true,
    dropUnchanged: true,
    dropImprovements: false,
    dropDevices: false,
  },
  {
    dropChart: true,
    dropTrends: true,
    dropDeviceLists: true,
    dropUnchanged: true,
    dropImprovements: true,
    dropDevices: false,
  },
  ALL_DROPPED,
];

/** One table row and what it refers to. */
interface Row {
  /** Status, key, values; the key cell gets the reference marks, numbered when composed. */
  cells: string[];
  /** Explanations (markdown) this row refers to. */
  notes: string[];
  /** The `<details>` device list under a rolled-up row, or null. */
  devices: string | null;
  /** The row's sparkline and range on the default branch, shown under its key; null without history. */
  trend: string | null;
}

/** Every block pre-rendered once; compose() only picks and joins. */
interface Parts {
  /** Marker, verdict heading and run link, and a first run's how-to. */
  head: string;
  problemHeading: string | null;
  problemRows: Row[];
  recorded: string | null;
  chart: string | null;
  devices: string | null;
  improvements: Row[];
  improvementCount: number;
  unchanged: string | null;
  unchangedCount: number;
  /** What the sparklines under the rows show, said once under the table; null when no row has one. */
  trendLegend: string | null;
  /** What moved on the default branch besides the rows, or null. */
  moved: string | null;
  /** Keys past their tolerance that the noise band let pass. */
  banded: Row[];
  bandedCount: number;
  /** How to accept an intended change, last; never dropped (one paragraph). */
  accept: string | null;
}

function buildParts(view: ReportView, options: MarkdownOptions): Parts {
  const { report, firstRun, problems, recorded } = view;
  const title = escapeMarkdownText(options.title ?? 'Memory gate');
  const icon = OUTCOME_ICON[view.outcome];
  const headLines: string[] = [];
  if (options.marker !== undefined) headLines.push(checkMarker(options.marker));
  if (options.preface !== undefined) headLines.push(options.preface, '');
  headLines.push(`### ${icon} ${titledVerdict(view.verdict, title)}`);
  if (options.runUrl !== undefined) headLines.push('', `[Workflow run](${linkDestination(options.runUrl)})`);
  for (const block of contextMarkdown(view.context)) headLines.push('', block);
  if (firstRun) headLines.push('', firstRunHowTo(options.baselineFile ?? 'memory-baseline.json'));

  const trends = view.trends;
  const problemRows = view.problemRows.map((r) => groupRow(r, trends));
  const rowCount = view.problemRows.length;
  return {
    head: headLines.join('\n'),
    problemHeading:
      problems.length > 0
        ? `#### Failing and warning keys (${formatCount(problems.length)}${rowCount < problems.length ? ` in ${plural(rowCount, 'row')}` : ''})`
        : null,
    problemRows,
    recorded: recorded.length > 0 ? recordedList(view.groups(recorded), recorded.length) : null,
    chart:
      firstRun || options.chartModules === 0
        ? null
        : renderMermaidChart(report.entries, { modules: options.chartModules ?? 3 }),
    devices: view.devices === null ? null : renderDevices(view.devices),
    improvements: view.improvementRows.map((r) => groupRow(r, trends)),
    improvementCount: view.improvements.length,
    unchanged: view.unchanged.length > 0 ? unchangedList(view.groups(view.unchanged), view.unchanged.length) : null,
    unchangedCount: view.unchanged.length,
    trendLegend: trends !== undefined && problemRows.some((r) => r.trend !== null) ? trendLegend(trends) : null,
    moved: trends === undefined ? null : movedList(view, trends),
    banded: view.bandedRows.map((r) => groupRow(r, trends)),
    bandedCount: view.banded.length,
    accept: view.acceptsBaseline
      ? acceptChangeText(options.baselineFile ?? 'memory-baseline.json', options.baselineUpdateLabel, (t) =>
          tableCodeSpan(t),
        )
      : null,
  };
}

const OUTCOME_ICON: Record<ReportView['outcome'], string> = { fail: '❌', first: 'ℹ️', pass: '✅' };

/** The legend of the sparklines, once under the table. */
function trendLegend(trends: Trends): string {
  return `Under each key: its last ${formatCount(RECENT_POINTS)} runs on ${branchName(trends)}, lowest ▁ to highest █ (a key group: its largest device at each run).`;
}

function branchName(trends: Trends): string {
  return trends.branch === undefined ? 'the default branch' : codeSpan(trends.branch);
}

/** What moved on the default branch in its last 30 runs, for figures the rows do not show. */
function movedList(view: ReportView, trends: Trends): string | null {
  if (view.moved === null) return null;
  const lines = [`#### Moved on ${branchName(trends)} in the last ${formatCount(RECENT_POINTS)} runs`, ''];
  for (const m of view.moved.shown) lines.push(`- ${stepMarkdown(m.step, trends)}`);
  if (view.moved.more > 0)
    lines.push(`- …and ${plural(view.moved.more, 'more')}: \`ascend-memory-gate history show\` lists them`);
  return lines.join('\n');
}

/** `DEV_MEM/{*}/HCCL` (largest device): 400.0 MiB → 800.0 MiB since [`a1b2c3d`](…) (14 runs ago on `main`); CANN toolkit 8.3.RC1 → 9.0.RC1 at the same run. */
function stepMarkdown(s: StepView, trends: Trends): string {
  const commit = s.url === undefined ? codeSpan(s.sha) : `[${codeSpan(s.sha)}](${linkDestination(s.url)})`;
  const context = stepContext(s.step, codeSpan, escapeMarkdownText);
  const largest = s.largest ? ' (largest device)' : '';
  return `${codeSpan(s.subject)}${largest}: ${keepUnits(stepLevels(s.step, s.unit))} since ${commit} (${s.ago} on ${branchName(trends)})${context === null ? '' : `; ${context}`}.`;
}

/** A row's sparkline and range, and its step as one of the row's notes. */
function rowTrend(row: RowView, trends: Trends | undefined, notes: string[]): string | null {
  const t = row.trend;
  if (trends === undefined || t === null) return null;
  if (t.step !== null) notes.push(stepMarkdown(t.step, trends));
  const of = t.largestOf === null ? '' : ` (largest of ${tableCodeSpan(t.largestOf)})`;
  return `${tableCodeSpan(sparkline(t.trend.recent, t.trend.min, t.trend.max))} ${keepUnits(trendRange(t.trend, t.unit))}${of}`;
}

function firstRunHowTo(baselineFile: string): string {
  const file = tableCodeSpan(baselineFile);
  return [
    'Nothing was compared: there is no baseline yet. To start gating, commit one:',
    `- **GitHub Actions**: run the workflow with \`mode: update\` (see \`examples/workflows/update-baseline.yml\`) and merge the pull request it opens;`,
    `- **locally**: \`${baselineCommand(baselineFile.includes('`') ? 'FILE' : baselineFile)}\` with the input flags of the check, then commit ${file}.`,
  ].join('\n');
}

function compose(parts: Parts, level: Level, rowCount: number): string {
  const blocks: string[] = [parts.head];
  if (parts.problemHeading !== null) {
    const shown = parts.problemRows.slice(0, rowCount);
    blocks.push(rowCount > 0 ? `${parts.problemHeading}\n\n${table(shown, level.dropTrends)}` : parts.problemHeading);
    if (parts.trendLegend !== null && !level.dropTrends && shown.some((r) => r.trend !== null))
      blocks.push(parts.trendLegend);
    // A blank line before each note: a line right under a table would become one more table row.
    const cut = parts.problemRows.length - rowCount;
    if (cut > 0) blocks.push(moreRowsNote(cut));
    const notes = explanations(shown);
    if (notes !== null) blocks.push(notes);
    const lists = shown.map((r) => r.devices).filter((d): d is string => d !== null);
    if (lists.length > 0)
      blocks.push(level.dropDeviceLists ? omittedNote('the per-device lists of rolled-up rows') : lists.join('\n\n'));
  }
  if (parts.moved !== null)
    blocks.push(level.dropTrends ? omittedNote('what moved on the default branch') : parts.moved);
  if (parts.banded.length > 0) {
    blocks.push(
      `#### Within the noise band (${formatCount(parts.bandedCount)})\n\nPast the tolerance, within the spread of the default branch: these pass.\n\n${table(parts.banded, level.dropTrends)}`,
    );
    const notes = explanations(parts.banded);
    if (notes !== null) blocks.push(notes);
  }
  if (parts.recorded !== null)
    blocks.push(level.dropUnchanged ? omittedNote('the list of recorded keys') : parts.recorded);
  if (parts.chart !== null) blocks.push(level.dropChart ? omittedNote('module peak charts') : parts.chart);
  if (parts.devices !== null) blocks.push(level.dropDevices ? omittedNote('per-device totals') : parts.devices);
  if (parts.improvements.length > 0) {
    if (level.dropImprovements) blocks.push(omittedNote(plural(parts.improvementCount, 'improvement')));
    else {
      blocks.push(
        `#### Improvements (${formatCount(parts.improvementCount)})\n\n${table(parts.improvements, level.dropTrends)}`,
      );
      const notes = explanations(parts.improvements);
      if (notes !== null) blocks.push(notes);
    }
  }
  if (parts.unchanged !== null) {
    blocks.push(
      level.dropUnchanged ? omittedNote(`${plural(parts.unchangedCount, 'key')} within thresholds`) : parts.unchanged,
    );
  }
  if (parts.accept !== null) blocks.push(parts.accept);
  return joinBlocks(blocks);
}

/** The rows as one table, each reference mark numbered in order of first use; the same explanation keeps one number. */
function table(rows: readonly Row[], dropTrends = true): string {
  const numbers = new Map<string, number>();
  const lines = rows.map((row) => {
    const marks = row.notes.map((note) => {
      let n = numbers.get(note);
      if (n === undefined) numbers.set(note, (n = numbers.size + 1));
      return superscript(n);
    });
    const [status = '', key = '', ...rest] = row.cells;
    const withMarks = marks.length > 0 ? `${key}${NBSP}${marks.join('˒')}` : key;
    const withTrend = row.trend !== null && !dropTrends ? `${withMarks}<br>${row.trend}` : withMarks;
    return `| ${[status, withTrend, ...rest].join(' | ')} |`;
  });
  return [...ENTRY_HEADER, ...lines].join('\n');
}

/** The numbered explanations of the rows, in the numbering table() gives them. */
function explanations(rows: readonly Row[]): string | null {
  const seen = new Set<string>();
  const list: string[] = [];
  for (const row of rows) {
    for (const note of row.notes) {
      if (seen.has(note)) continue;
      seen.add(note);
      list.push(`${list.length + 1}. ${note}`);
    }
  }
  return list.length === 0 ? null : list.join('\n');
}

function joinBlocks(blocks: string[]): string {
  return `${blocks.join('\n\n')}\n`;
}

function moreRowsNote(rows: number): string {
  return `…${formatCount(rows)} more ${rows === 1 ? 'row' : 'rows'}: ${SEE_ELSEWHERE}`;
}

function omittedNote(what: string): string {
  return `_${what} not shown to fit the size limit: ${SEE_ELSEWHERE}_`;
}

/** A table row for a group: the entry itself for a group of one, else the pattern, device count, worst device and median. */
function groupRow(row: RowView, trends: Trends | undefined): Row {
  const { group, worst } = row;
  const icon = SEVERITY_ICON[group.severity] ?? '❔';
  const status = `${icon}${NBSP}${statusText(group.status)}`;
  if (!row.rolled) {
    const notes = entryNotes(row, null);
    const trend = rowTrend(row, trends, notes);
    return {
      cells: [status, keyCode(worst.key), keepUnits(formatTransition(worst)), keepUnits(formatChange(worst))],
      notes,
      devices: null,
      trend,
    };
  }
  const device = deviceOfEntry(worst) ?? '';
  const median = medianGrowth(group);
  const percent = medianPercent(group);
  const medianText = `median ${formatDelta(median)}${percent === null ? '' : ` (${formatShortPercent(percent)})`}`;
  const notes = entryNotes(row, device);
  const trend = rowTrend(row, trends, notes);
  return {
    cells: [
      status,
      `${keyCode(group.pattern)}<br>${devicesPhrase(group)}, worst ${tableCodeSpan(device)}`,
      keepUnits(formatTransition(worst)),
      `${keepUnits(formatChange(worst))}<br>${keepUnits(medianText)}`,
    ],
    notes,
    devices: deviceList(group),
    trend,
  };
}

/** The explanations of a row: a rule other than the default, and a finding's note with its limit. */
function entryNotes(row: RowView, worstDevice: string | null): string[] {
  const { rule, note, worst: entry } = row;
  const notes: string[] = [];
  // A list item, not a table cell: plain code spans (a `\|` would show its backslash here).
  if (rule !== null) notes.push(`Held to the rule ${codeSpan(rule)} of the config.`);
  if (note !== null) {
    const subject = worstDevice === null ? codeSpan(entry.key) : `${codeSpan(entry.key)} (the worst device)`;
    notes.push(`${subject}: ${escapeMarkdownText(note)}`);
  }
  return notes;
}

/** The devices of a rolled-up row, largest change first, in a `<details>` under the table. */
function deviceList(group: EntryGroup): string {
  const shown = group.entries.slice(0, DEVICES_PER_GROUP);
  const rows = shown.map(
    (e) =>
      `| ${tableCodeSpan(deviceOfEntry(e) ?? e.key)} | ${keepUnits(formatTransition(e))} | ${keepUnits(formatChange(e))} |`,
  );
  const more = group.entries.length - shown.length;
  return [
    '<details>',
    `<summary><code>${escapeHtml(replaceControlCharacters(shortenName(group.pattern)))}</code> ${escapeHtml(group.status)} on ${devicesPhrase(group)}</summary>`,
    '',
    '| Device | Baseline → current | Δ (Δ%) |',
    '|---|--:|--:|',
    ...rows,
    ...(more > 0 ? ['', `…and ${plural(more, 'more device')}: ${SEE_ELSEWHERE}`] : []),
    '',
    '</details>',
  ].join('\n');
}

/** A first run's keys: one line per module (rolled up across devices), collapsed. */
function recordedList(groups: readonly EntryGroup[], keys: number): string {
  return collapsedTable(groups, `${plural(keys, 'key')} recorded (no baseline to compare with)`);
}

function unchangedList(groups: readonly EntryGroup[], keys: number): string {
  return collapsedTable(groups, `${plural(keys, 'key')} within thresholds`);
}

function collapsedTable(groups: readonly EntryGroup[], summary: string): string {
  const shown = groups.slice(0, COLLAPSED_ROWS);
  const rows = shown.map((g) => {
    const worst = worstOf(g);
    const key = isRollUp(g) ? `${keyCode(g.pattern)} (${devicesPhrase(g)})` : keyCode(worst.key);
    const value = isRollUp(g) ? keepUnits(valueRange(g)) : keepUnits(formatTransition(worst));
    return `| ${SEVERITY_ICON[g.severity] ?? '❔'}${NBSP}${statusText(g.status)} | ${key} | ${value} |`;
  });
  const more = groups.length - shown.length;
  return [
    '<details>',
    `<summary>${escapeHtml(summary)}</summary>`,
    '',
    '| Status | Key | Baseline → current |',
    '|---|---|--:|',
    ...rows,
    ...(more > 0 ? ['', `…${plural(more, 'more row')}: ${SEE_ELSEWHERE}`] : []),
    '',
    '</details>',
  ].join('\n');
}

/** Keys up to this long are one code span; longer ones may wrap after a `/`. */
const KEY_WRAP_FROM = 25;

/**
 * A key as a code span (literal: no markdown, HTML, mention or emoji inside; every pipe escaped for the table). A long
 * key is one code span per segment joined by `<wbr>`, so it wraps only after a `/`, never inside a segment.
 */
function keyCode(whole: string): string {
  // Shortened whole first: the hash is the whole key's, as in report.json and JUnit (not a segment's).
  const key = shortenName(whole);
  if ([...key].length < KEY_WRAP_FROM || !key.includes('/')) return tableCodeSpan(key);
  const segments = key.split('/');
  return segments.map((s, i) => tableCodeSpan(i < segments.length - 1 ? `${s}/` : s)).join('<wbr>');
}

/** A status as written everywhere (`over-capacity`); one this build does not know is escaped like any text. */
function statusText(status: string): string {
  return /^[a-z]+(?:-[a-z]+)*$/.test(status) ? status : escapeMarkdownText(status);
}

function renderDevices(devices: DeviceTable): string {
  const hasCapacity = devices.rows.some((t) => t.capacity !== null);
  const [first, ...others] = devices.kinds;
  const header = ['Device'];
  if (first !== undefined) header.push(`${kindTitle(first)}† baseline → current`, 'Δ');
  if (hasCapacity) header.push('Capacity', 'Headroom');
  for (const kind of others) header.push(`${kindTitle(kind)} Δ`);
  for (const column of devices.figureColumns)
    header.push(column.gap === undefined ? `${column.title} baseline → current` : column.title);
  const rows = devices.rows.map((t) => {
    const cells = [`${t.flagged ? `⚠️${NBSP}` : ''}${tableCodeSpan(t.device)}`];
    const sum = (kind: string): { baseline: number; current: number } | undefined => t.sums.get(kind);
    if (first !== undefined) {
      const s = sum(first);
      cells.push(
        s === undefined ? '—' : keepUnits(`${formatBytes(s.baseline)} → ${formatBytes(s.current)}`),
        s === undefined ? '—' : keepUnits(formatDelta(s.current - s.baseline)),
      );
    }
    if (hasCapacity)
      cells.push(
        t.capacity === null ? '—' : keepUnits(formatBytes(t.capacity)),
        t.headroom === null ? '—' : keepUnits(formatBytes(t.headroom)),
      );
    for (const kind of others) {
      const s = sum(kind);
      cells.push(s === undefined ? '—' : keepUnits(formatDelta(s.current - s.baseline)));
    }
    for (const column of devices.figureColumns) cells.push(keepUnits(figureCell(t, column)));
    return `| ${cells.join(' | ')} |`;
  });
  const align = header.map((_, i) => (i === 0 ? '---' : '--:'));
  const lines = ['#### Per-device totals', '', `| ${header.join(' | ')} |`, `|${align.join('|')}|`, ...rows];
  // Our own sentence of counts and sizes: nothing from a file.
  if (devices.rest !== null) lines.push('', devices.rest);
  if (first !== undefined || devices.figureColumns.length === 0)
    lines.push(
      '',
      `† ${DEVICE_FOOTNOTE}${hasCapacity ? ' Headroom: the capacity minus the device estimate of the headroom verdict.' : ''}`,
    );
  for (const note of devices.figureNotes) lines.push('', escapeMarkdownText(note));
  return lines.join('\n');
}

/** An http(s) URL made safe as a link destination: the URL serializer encodes spaces and `<>"`, we add `()|`. */
function linkDestination(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`runUrl is not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new UsageError(`runUrl must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  return parsed.href.replace(
    /[()|'\\*_[\]]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

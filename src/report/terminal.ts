// The gate verdict as plain text for a terminal (check): aligned, no line wider than the width, no color unless asked.
import { UsageError } from '../common/errors.js';
import type { Entry } from '../gate/types.js';
import { splitDevice } from '../model/sections/index.js';
import { formatCount, formatDelta } from '../model/units.js';
import {
  alignedTable,
  clip,
  displayWidth,
  distinctFrom,
  GAP,
  indented,
  padEnd,
  padStart,
  superscript,
  truncateDistinct,
  truncateEnd,
  truncateMiddle,
  wrap,
  type Cell,
  type Column,
} from '../common/text-layout.js';
import { formatChange, formatShortPercent, formatTransition } from './entry-values.js';
import { shortenName } from '../common/names.js';
import { replaceControlCharacters } from '../common/visible.js';
import { contextTerminal } from './run-context.js';
import { deviceOfEntry, devicesPhrase, medianGrowth, medianPercent } from './groups.js';
import { acceptChangeText, plural, titledVerdict } from './partition.js';
import { sparkline, stepContext, stepLevels, trendRange, trendSpan } from './trend-text.js';
import { baselineCommand, RECENT_POINTS, type ReportView, type RowView, type StepView, type Trends } from './view.js';
import { figureCell, type DeviceTable } from './device-table.js';

export interface TerminalOptions {
  /** ANSI colours: red failures, yellow warnings, green pass. Default off. */
  color?: boolean;
  /** Terminal columns; no line is wider. Default 80. */
  width?: number;
  /** List every key on its own row instead of one row per module across devices, with no row limit. */
  all?: boolean;
  /** The baseline file, named in a first run's how-to and in how to accept an intended change. */
  baselineFile?: string;
  /** The config's baselineUpdateLabel, named in how to accept an intended change. */
  baselineUpdateLabel?: string;
}

/** Rows of the verdict table before "N more rows" (unless `all`): a screenful. */
const MAX_ROWS = 30;
const MIN_KEY_WIDTH = 12;

const ANSI = {
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  green: '\u001b[32m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  reset: '\u001b[0m',
} as const;

const SEVERITY_MARK: Record<string, string> = { fail: '✗', warn: '!', ok: '✓' };

const OUTCOME_COLOR: Record<ReportView['outcome'], string> = { fail: ANSI.red, first: ANSI.yellow, pass: ANSI.green };

/**
 * The verdict line, the failing and warning rows (one per module across devices, worst first), their explanations as
 * a numbered list, then a count of the keys not listed. No line is wider than `width`: keys are cut in the middle.
 */
export function renderTerminal(view: ReportView, options: TerminalOptions = {}): string {
  const width = options.width ?? 80;
  if (!(Number.isSafeInteger(width) && width > 0)) {
    throw new UsageError(`width must be a positive integer, got ${String(options.width)}`);
  }
  const color = options.color === true;
  const paint = (code: string, text: string): string => (color ? `${code}${text}${ANSI.reset}` : text);
  const { recorded } = view;
  const lines = headLines(view, options, width, paint);
  const { problemRows: groups, moved } = options.all === true ? view.perKey : view;
  if (groups.length > 0) {
    const shownGroups = options.all === true ? groups : groups.slice(0, MAX_ROWS);
    const notes: string[] = [];
    const rows = shownGroups.map((row) => tableRow(row, notes, view.trends));
    lines.push('', ...verdictTable(rows, width, paint));
    if (shownGroups.length < groups.length)
      lines.push(
        ...wrap(
          `…${plural(groups.length - shownGroups.length, 'more row')}: --all lists every key, --report FILE.json writes them all`,
          width,
        ),
      );
    if (notes.length > 0) {
      lines.push('');
      notes.forEach((note, i) => lines.push(...wrap(`${superscript(i + 1)} ${note}`, width, '  ')));
    }
  }

  lines.push(...deviceFigures(view.devices, width));

  if (recorded.length > 0) {
    const patterns = view.groups(recorded).length;
    // Named by their section when they are all of one (`15 modules`), else as rows: an OOM snapshot's keys are no modules.
    const kinds = new Set(recorded.map((e) => e.kind));
    const noun = kinds.size === 1 ? (recorded[0] as Entry).kind : 'row';
    lines.push(
      '',
      ...wrap(
        `${plural(recorded.length, groups.length > 0 ? 'more key' : 'key')} recorded (${plural(patterns, noun)} across devices); --report FILE.json lists them`,
        width,
      ),
    );
  }
  const banded = view.banded;
  if (banded.length > 0) {
    lines.push(
      '',
      ...wrap(
        `${plural(banded.length, 'key')} within the noise band (beyond the tolerance, within the spread of the default branch):`,
        width,
      ),
    );
    for (const e of banded.slice(0, MAX_ROWS))
      lines.push(...indented(`${shownKey(e.key)}: ${formatTransition(e)}, ${formatChange(e)}`, width, '  ', '    '));
    if (banded.length > MAX_ROWS) lines.push(`  …${plural(banded.length - MAX_ROWS, 'more key')}`);
  }
  if (view.trends !== undefined) lines.push(...movedLines(moved, view.trends, width));
  lines.push(...closingLines(view, options, width));
  return `${lines.join('\n')}\n`;
}

/** The verdict, what the run's context says, and a first run's how-to. */
function headLines(
  view: ReportView,
  options: TerminalOptions,
  width: number,
  paint: (code: string, text: string) => string,
): string[] {
  const verdictColor = OUTCOME_COLOR[view.outcome];
  const lines = wrap(titledVerdict(view.verdict, 'Memory gate'), width).map((l) =>
    paint(`${ANSI.bold}${verdictColor}`, l),
  );
  // What the run's context says (environment changes, missing artifacts) comes before any row.
  // Lines that fit keep their indentation and blank lines stay; only longer ones wrap, under their own indent.
  for (const line of contextTerminal(view.context, shown))
    lines.push(...(displayWidth(line) <= width ? [line] : wrap(line, width, /^ */.exec(line)?.[0] ?? '')));
  if (view.firstRun) {
    const file = options.baselineFile ?? 'FILE';
    lines.push(
      ...wrap(
        `Nothing was compared. Record a baseline with '${baselineCommand(shown(file))}' and the input flags of this check (or the Action's mode: update), and commit it.`,
        width,
      ),
    );
  }
  return lines;
}

/** The count of the keys not listed, and how to accept an intended change. */
function closingLines(view: ReportView, options: TerminalOptions, width: number): string[] {
  const lines: string[] = [];
  const rest = view.notListed;
  if (rest.count > 0) {
    const byStatus = rest.byStatus.map(([status, n]) => `${formatCount(n)} ${shown(status)}`).join(', ');
    lines.push('', ...wrap(`${plural(rest.count, 'key')} within thresholds not listed (${byStatus})`, width));
  }
  if (view.acceptsBaseline) {
    const label = options.baselineUpdateLabel === undefined ? undefined : shown(options.baselineUpdateLabel);
    const file = shown(options.baselineFile ?? 'FILE');
    lines.push(
      '',
      ...wrap(
        acceptChangeText(file, label, (t) => `'${t}'`),
        width,
      ),
    );
  }
  return lines;
}

/**
 * The figures sections declare per device (memory snapshots: allocated and reserved peaks and their gap), one row per
 * device as the other reports pick them; nothing when no section's figures are in the report.
 */
function deviceFigures(devices: DeviceTable | null, width: number): string[] {
  if (devices === null || devices.figureColumns.length === 0) return [];
  const columns: Column[] = [
    { header: 'DEVICE', align: 'left' },
    ...devices.figureColumns.map((c): Column => ({ header: c.title.toUpperCase(), align: 'right' })),
  ];
  const rows = devices.rows
    .filter((r) => r.figures.size > 0)
    .map((r): Cell[] => [
      // 80 columns: the row says dump-time once, by its device, not after each figure.
      { text: `${r.flagged ? '! ' : ''}${shown(r.device)}${r.dumpTime ? ' (dump-time)' : ''}` },
      ...devices.figureColumns.map((c): Cell => ({ text: figureCell(r, c, false) })),
    ]);
  const out = ['', ...alignedTable(columns, rows, { flexColumn: 0, width })];
  if (devices.rest !== null) out.push(...wrap(devices.rest, width));
  for (const note of devices.figureNotes) out.push(...wrap(note, width));
  return out.map((line) => clip(line, width));
}

interface TableRow {
  severity: string;
  status: string;
  key: string;
  transition: string;
  change: string;
  /** A rolled-up row's second line: device count, worst device, median. */
  detail: string | null;
  /** The row's sparkline and range on the default branch, when the history has it. */
  trend: string | null;
}

/** A row's trend: the group's largest device (or the key) on the default branch; its step becomes a note. */
function rowTrend(row: RowView, trends: Trends | undefined, refer: (text: string) => void): string | null {
  const t = row.trend;
  if (trends === undefined || t === null) return null;
  if (t.step !== null) refer(stepSentence(t.step, trends));
  const of =
    t.trend.of === 'largest'
      ? `, largest device${t.rolled ? '' : ` of ${shownKey(splitDevice(t.subject).group)}`}`
      : '';
  return `${sparkline(t.trend.recent, t.trend.min, t.trend.max)} ${trendRange(t.trend, t.unit)} (${trendSpan(t.trend)}${onBranch(trends)}${of})`;
}

function onBranch(trends: Trends): string {
  return trends.branch === undefined ? '' : ` on ${shown(trends.branch)}`;
}

/** `DEV_MEM/{*}/HCCL: 400.0 MiB → 800.0 MiB since a1b2c3d (14 runs ago); CANN toolkit 8.3 → 9.0 at the same run`. */
function stepSentence(s: StepView, trends: Trends): string {
  const context = stepContext(s.step);
  const largest = s.largest ? ' (largest device)' : '';
  return `${shownKey(s.subject)}${largest}: ${stepLevels(s.step, s.unit)} since ${s.sha} (${s.ago}${onBranch(trends)})${context === null ? '' : `; ${shown(context)}`}`;
}

/** What moved on the default branch in its last 30 runs, for figures the rows above do not show. */
function movedLines(moved: ReportView['moved'], trends: Trends, width: number): string[] {
  if (moved === null) return [];
  const lines = [
    '',
    ...wrap(
      `Moved on ${trends.branch === undefined ? 'the default branch' : shown(trends.branch)} in the last ${RECENT_POINTS} runs:`,
      width,
    ),
  ];
  for (const m of moved.shown) lines.push(...indented(stepSentence(m.step, trends), width, '  ', '    '));
  if (moved.more > 0)
    lines.push(
      ...indented(`…${plural(moved.more, 'more')}: ascend-memory-gate history show lists them`, width, '  ', '    '),
    );
  return lines;
}

function tableRow(row: RowView, notes: string[], trends: Trends | undefined): TableRow {
  const { group, worst, rule, note } = row;
  const marks: string[] = [];
  const refer = (text: string): void => {
    let i = notes.indexOf(text);
    if (i === -1) i = notes.push(text) - 1;
    marks.push(superscript(i + 1));
  };
  if (rule !== null) refer(`held to the rule ${shown(rule)} of the config`);
  if (note !== null) refer(`${shownKey(worst.key)}${row.rolled ? ' (the worst device)' : ''}: ${shown(note)}`);
  const trend = rowTrend(row, trends, refer);
  const status = `${SEVERITY_MARK[group.severity] ?? '?'} ${shown(group.status)}${marks.length > 0 ? ` ${marks.join(',')}` : ''}`;
  if (!row.rolled) {
    return {
      severity: group.severity,
      status,
      key: shownKey(worst.key),
      transition: formatTransition(worst),
      change: formatChange(worst),
      detail: null,
      trend,
    };
  }
  const percent = medianPercent(group);
  const detail = `${devicesPhrase(group)}, worst ${shown(deviceOfEntry(worst) ?? '?')}; median ${formatDelta(medianGrowth(group))}${percent === null ? '' : ` (${formatShortPercent(percent)})`}`;
  return {
    severity: group.severity,
    status,
    key: shownKey(group.pattern),
    transition: formatTransition(worst),
    change: formatChange(worst),
    detail,
    trend,
  };
}

/**
 * STATUS, KEY, BASELINE → CURRENT, Δ (Δ%): the key column takes what the others leave of the width and keys are cut in
 * the middle to fit; when even that is too narrow, the baseline → current column goes first.
 */
function verdictTable(rows: TableRow[], width: number, paint: (code: string, text: string) => string): string[] {
  const headers = ['STATUS', 'KEY', 'BASELINE → CURRENT', 'Δ (Δ%)'];
  const col = (get: (r: TableRow) => string, header: string): number =>
    rows.reduce((w, r) => Math.max(w, displayWidth(get(r))), displayWidth(header));
  const statusWidth = col((r) => r.status, headers[0] as string);
  let transitionWidth = col((r) => r.transition, headers[2] as string);
  const changeWidth = col((r) => r.change, headers[3] as string);
  const keyNeed = col((r) => r.key, headers[1] as string);
  let fixed = statusWidth + transitionWidth + changeWidth + GAP.length * 3;
  if (width - fixed < MIN_KEY_WIDTH) {
    transitionWidth = 0;
    fixed = statusWidth + changeWidth + GAP.length * 2;
  }
  const keyWidth = Math.max(1, Math.min(keyNeed, width - fixed));
  const distinct = distinctFrom(rows.map((r) => r.key));
  const line = (
    status: string,
    key: string,
    transition: string,
    change: string,
    paintStatus?: (s: string) => string,
    index?: number,
  ): string => {
    const s = padEnd(status, statusWidth);
    const cut =
      index === undefined ? truncateMiddle(key, keyWidth) : truncateDistinct(key, keyWidth, distinct[index] ?? 0);
    const parts = [paintStatus ? paintStatus(s) : s, padEnd(cut, keyWidth)];
    if (transitionWidth > 0) parts.push(padStart(transition, transitionWidth));
    parts.push(padStart(change, changeWidth));
    return clip(parts.join(GAP).trimEnd(), width);
  };
  const out = [line(headers[0] as string, headers[1] as string, headers[2] as string, headers[3] as string)];
  rows.forEach((r, index) => {
    out.push(line(r.status, r.key, r.transition, r.change, (s) => paint(severityColor(r.severity), s), index));
    if (r.detail !== null)
      out.push(truncateEnd(`${' '.repeat(Math.min(statusWidth + GAP.length, 4))}${r.detail}`, width));
    if (r.trend !== null)
      out.push(truncateEnd(`${' '.repeat(Math.min(statusWidth + GAP.length, 4))}${r.trend}`, width));
  });
  return out;
}

function severityColor(severity: string): string {
  return severity === 'fail' ? ANSI.red : severity === 'ok' ? ANSI.green : ANSI.yellow;
}

/** A name from a file, with control characters (ESC above all) made visible so it cannot drive the terminal. */
function shown(text: string): string {
  return replaceControlCharacters(text);
}

/** A key or pattern: shortened as every display shortens it (past 256 characters, the whole key's hash), then shown. */
function shownKey(key: string): string {
  return shown(shortenName(key));
}

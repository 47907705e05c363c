// Plain-text tables for a terminal: the gate verdict (check) and a snapshot's metrics (parse), aligned, no color unless asked.
import { UsageError } from '../common/errors.js';
import type { Entry, GateReport } from '../gate/types.js';
import { RECENT_POINTS, type StepNote, type Trend, type Trends } from '../history/trends.js';
import { SECTIONS, sectionOfKind, splitDevice, type SectionDeclaration } from '../model/sections/index.js';
import { compareKeys, hasNoMetrics, metricsOf, type Snapshot } from '../model/snapshot.js';
import { formatBytes, formatCount, formatDelta } from '../model/units.js';
import { entryReason, formatChange, formatShortPercent, formatTransition } from './entry-values.js';
import { shortenName } from '../common/names.js';
import { replaceControlCharacters } from '../common/visible.js';
import { contextTerminal } from './run-context.js';
import {
  deviceOfEntry,
  devicesPerPattern,
  devicesPhrase,
  groupEntries,
  isRollUp,
  medianGrowth,
  medianPercent,
  worstOf,
  type EntryGroup,
} from './groups.js';
import { acceptChangeText, countByStatus, isFirstRun, plural, partitionEntries, verdictText } from './partition.js';
import { runsAgo, shortSha, sparkline, stepContext, stepLevels, trendRange, trendSpan } from './trend-text.js';
import { deviceTable, figureCell } from './device-table.js';

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
  /** The default branch's history: a sparkline under each row that has one, and where figures stepped. */
  trends?: Trends;
}

/** Rows of the verdict table before "N more rows" (unless `all`): a screenful. */
const MAX_ROWS = 30;
const MIN_KEY_WIDTH = 12;
/** The `parse` table's key column without a known width: one long key cannot widen every row. */
const DEFAULT_KEY_WIDTH = 60;
const GAP = '  ';

const ANSI = {
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  green: '\u001b[32m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  reset: '\u001b[0m',
} as const;

const SEVERITY_MARK: Record<string, string> = { fail: '✗', warn: '!', ok: '✓' };

/**
 * The verdict line, the failing and warning rows (one per module across devices, worst first), their explanations as
 * a numbered list, then a count of the keys not listed. No line is wider than `width`: keys are cut in the middle.
 */
export function renderTerminal(report: GateReport, options: TerminalOptions = {}): string {
  const width = options.width ?? 80;
  if (!(Number.isSafeInteger(width) && width > 0)) {
    throw new UsageError(`width must be a positive integer, got ${String(options.width)}`);
  }
  const color = options.color === true;
  const paint = (code: string, text: string): string => (color ? `${code}${text}${ANSI.reset}` : text);
  const firstRun = isFirstRun(report);
  // The unchanged keys are only counted here (the last line), so they need no order.
  const sections = partitionEntries(report, { orderUnchanged: false });
  const recorded = firstRun ? sections.problems.filter((e) => e.status === 'new') : [];
  const problems = firstRun ? sections.problems.filter((e) => e.status !== 'new') : sections.problems;
  const verdictColor = report.result === 'fail' ? ANSI.red : firstRun ? ANSI.yellow : ANSI.green;
  const lines = wrap(verdictText(report, 'Memory gate'), width).map((l) => paint(`${ANSI.bold}${verdictColor}`, l));
  // What the run's context says (environment changes, missing artifacts) comes before any row.
  // Lines that fit keep their indentation and blank lines stay; only longer ones wrap, under their own indent.
  for (const line of contextTerminal(report, shown))
    lines.push(...(displayWidth(line) <= width ? [line] : wrap(line, width, /^ */.exec(line)?.[0] ?? '')));
  if (firstRun) {
    const file = options.baselineFile ?? 'FILE';
    lines.push(
      ...wrap(
        `Nothing was compared. Record a baseline with 'ascend-memory-gate baseline --out ${shown(file)}' and the input flags of this check (or the Action's mode: update), and commit it.`,
        width,
      ),
    );
  }

  const perPattern = devicesPerPattern(report.entries);
  const groups =
    options.all === true
      ? problems.map((e) => groupEntries([e], perPattern)[0] as EntryGroup)
      : groupEntries(problems, perPattern);
  if (groups.length > 0) {
    const shownGroups = options.all === true ? groups : groups.slice(0, MAX_ROWS);
    const notes: string[] = [];
    const rows = shownGroups.map((group) => tableRow(group, notes, options.trends));
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

  lines.push(...deviceFigures(report, width));

  if (recorded.length > 0) {
    const patterns = groupEntries(recorded, perPattern).length;
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
  const banded = sections.unchanged.filter((e) => e.noise?.applied === 'band' && e.status === 'pass');
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
  if (options.trends !== undefined) lines.push(...movedLines(options.trends, groups, width));
  const rest = [...sections.improvements, ...sections.unchanged];
  if (rest.length > 0) {
    const byStatus = countByStatus(rest)
      .map(([status, n]) => `${formatCount(n)} ${shown(status)}`)
      .join(', ');
    lines.push('', ...wrap(`${plural(rest.length, 'key')} within thresholds not listed (${byStatus})`, width));
  }
  const accept = acceptChangeText(
    report,
    shown(options.baselineFile ?? 'FILE'),
    options.baselineUpdateLabel === undefined ? undefined : shown(options.baselineUpdateLabel),
    (t) => `'${t}'`,
  );
  if (accept !== null) lines.push('', ...wrap(accept, width));
  return `${lines.join('\n')}\n`;
}

/**
 * The figures sections declare per device (memory snapshots: allocated and reserved peaks and their gap), one row per
 * device as the other reports pick them; nothing when no section's figures are in the report.
 */
function deviceFigures(report: GateReport, width: number): string[] {
  const devices = deviceTable(report.entries);
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

/** Steps listed after the rows, besides those the rows' notes name. */
const MOVED_SHOWN = 10;

/** A row's trend: the group's largest device (or the key) on the default branch; its step becomes a note. */
function rowTrend(group: EntryGroup, trends: Trends | undefined, refer: (text: string) => void): string | null {
  if (trends === undefined) return null;
  const trend = isRollUp(group)
    ? trends.forPattern(group.kind, group.pattern)
    : trends.forKey(group.kind, worstOf(group).key);
  if (trend === undefined) return null;
  const unit = unitOfKind(group.kind);
  const subject = isRollUp(group) ? group.pattern : worstOf(group).key;
  if (trend.step !== null) refer(stepSentence(subject, trend, unit, trends));
  const of =
    trend.of === 'largest' ? `, largest device${isRollUp(group) ? '' : ` of ${shownKey(patternOfKey(subject))}`}` : '';
  return `${sparkline(trend.recent, trend.min, trend.max)} ${trendRange(trend, unit)} (${trendSpan(trend)}${onBranch(trends)}${of})`;
}

function onBranch(trends: Trends): string {
  return trends.branch === undefined ? '' : ` on ${shown(trends.branch)}`;
}

function patternOfKey(key: string): string {
  return splitDevice(key).group;
}

function unitOfKind(kind: string): 'bytes' | 'count' {
  return sectionOfKind(kind)?.unit ?? 'bytes';
}

/** `DEV_MEM/{*}/HCCL: 400.0 MiB → 800.0 MiB since a1b2c3d (14 runs ago); CANN toolkit 8.3 → 9.0 at the same run`. */
function stepSentence(subject: string, trend: Trend, unit: 'bytes' | 'count', trends: Trends): string {
  const step = trend.step as StepNote;
  const context = stepContext(step);
  const largest = trend.of === 'largest' ? ' (largest device)' : '';
  return `${shownKey(subject)}${largest}: ${stepLevels(step, unit)} since ${shortSha(step.commit)} (${runsAgo(step)}${onBranch(trends)})${context === null ? '' : `; ${shown(context)}`}`;
}

/** What moved on the default branch in its last 30 runs, for figures the rows above do not show. */
function movedLines(trends: Trends, groups: readonly EntryGroup[], width: number): string[] {
  const listed = new Set(groups.map((g) => `${g.kind}\u0000${isRollUp(g) ? g.pattern : worstOf(g).key}`));
  const moved = trends.moved().filter((m) => !listed.has(`${m.kind}\u0000${m.subject}`));
  if (moved.length === 0) return [];
  const lines = [
    '',
    ...wrap(
      `Moved on ${trends.branch === undefined ? 'the default branch' : shown(trends.branch)} in the last ${RECENT_POINTS} runs:`,
      width,
    ),
  ];
  for (const m of moved.slice(0, MOVED_SHOWN))
    lines.push(...indented(stepSentence(m.subject, m.trend, unitOfKind(m.kind), trends), width, '  ', '    '));
  if (moved.length > MOVED_SHOWN)
    lines.push(
      ...indented(
        `…${plural(moved.length - MOVED_SHOWN, 'more')}: ascend-memory-gate history show lists them`,
        width,
        '  ',
        '    ',
      ),
    );
  return lines;
}

function tableRow(group: EntryGroup, notes: string[], trends: Trends | undefined): TableRow {
  const worst = worstOf(group);
  const marks: string[] = [];
  const { rule, note } = entryReason(worst);
  const refer = (text: string): void => {
    let i = notes.indexOf(text);
    if (i === -1) i = notes.push(text) - 1;
    marks.push(superscript(i + 1));
  };
  if (rule !== null) refer(`held to the rule ${shown(rule)} of the config`);
  if (note !== null) refer(`${shownKey(worst.key)}${isRollUp(group) ? ' (the worst device)' : ''}: ${shown(note)}`);
  const trend = rowTrend(group, trends, refer);
  const status = `${SEVERITY_MARK[group.severity] ?? '?'} ${shown(group.status)}${marks.length > 0 ? ` ${marks.join(',')}` : ''}`;
  if (!isRollUp(group)) {
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

/**
 * Per key, where it starts to differ from the other keys: the longest prefix (in code points) it shares with any of
 * them. 0 for a key that shares none, or the only key.
 */
export function distinctFrom(keys: readonly string[]): number[] {
  const chars = keys.map((k) => [...k]);
  return chars.map((a, i) => {
    let longest = 0;
    chars.forEach((b, j) => {
      if (i === j || keys[i] === keys[j]) return;
      let n = 0;
      while (n < a.length && n < b.length && a[n] === b[n]) n++;
      if (n > longest) longest = n;
    });
    return longest;
  });
}

/** Where a word of a key starts: after a path, line or name separator. */
const WORD_BREAK = new Set(['/', ':', ' ', '.']);

/**
 * A key cut to the width so that the part where it differs from the other rows shows (`dev0/…:14 train_one_step`, not
 * five rows of `dev0/mem…ne_step`): the shared prefix gives way first, keeping the key's start; when what follows it
 * is too long too, its end is cut. A key that shares no prefix is cut in the middle.
 */
export function truncateDistinct(text: string, width: number, from: number): string {
  if (displayWidth(text) <= width) return text;
  const chars = [...text];
  if (from <= 0 || from >= chars.length || width < 3) return truncateMiddle(text, width);
  // Back to the start of the word the difference is in (`layer0.py`, not `0.py`; `:10`, not `0`), when that still fits.
  let start = from;
  let word = from;
  while (word > 0 && !WORD_BREAK.has(chars[word - 1] as string)) word--;
  const fits = (at: number): boolean => displayWidth(chars.slice(at).join('')) + 2 <= width;
  // From the word when it fits, else from the difference when that fits, else from the word with the end cut.
  if (fits(word) || !fits(from)) start = word;
  const tail = chars.slice(start).join('');
  if (displayWidth(tail) + 1 <= width) {
    // As much of the start as fits before the `…`.
    let head = '';
    for (const ch of chars.slice(0, start)) {
      if (displayWidth(head + ch) + 1 + displayWidth(tail) > width) break;
      head += ch;
    }
    return `${head}…${tail}`;
  }
  // What follows the shared part does not fit either: a short start, then as much of it as fits, cut at its end.
  let head = '';
  for (const ch of chars.slice(0, Math.min(start, Math.max(1, Math.floor(width / 4))))) {
    if (displayWidth(head + ch) + 2 > width) break;
    head += ch;
  }
  return `${head}${truncateEnd(`…${tail}`, width - displayWidth(head))}`;
}

function padEnd(text: string, w: number): string {
  return text + ' '.repeat(Math.max(0, w - displayWidth(text)));
}

function padStart(text: string, w: number): string {
  return ' '.repeat(Math.max(0, w - displayWidth(text))) + text;
}

/** A line never wider than the width (a safety net: columns are sized to fit). */
function clip(text: string, width: number): string {
  return displayWidth(stripAnsi(text)) <= width ? text : truncateEnd(text, width);
}

function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** `DEV_MEM/dev3/…/APP_LONG_NAME`: the start and the end of a key stay, the middle becomes `…`. */
export function truncateMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  // A shortened name keeps its hash, the one that finds it in report.json and JUnit.
  const suffix = SHORTENED_SUFFIX.exec(text)?.[1];
  if (suffix !== undefined && width >= 2 * suffix.length)
    return `${truncateMiddle(text.slice(0, -suffix.length), width - suffix.length)}${suffix}`;
  const chars = [...text];
  const keep = width - 1;
  const headWidth = Math.ceil(keep / 2);
  let head = '';
  for (const ch of chars) {
    if (displayWidth(head + ch) > headWidth) break;
    head += ch;
  }
  let tail = '';
  for (let i = chars.length - 1; i >= 0; i--) {
    const next = (chars[i] as string) + tail;
    if (displayWidth(head) + displayWidth(next) + 1 > width) break;
    tail = next;
  }
  return `${head}…${tail}`;
}

function truncateEnd(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(out + ch) + 1 > width) break;
    out += ch;
  }
  return `${out}…`;
}

/** Words wrapped to the width, the first line indented by `first`, the others by `rest`. */
export function indented(text: string, width: number, first: string, rest: string): string[] {
  return wrap(text, Math.max(1, width - first.length), ' '.repeat(Math.max(0, rest.length - first.length))).map(
    (line) => `${first}${line}`,
  );
}

/** Words wrapped to the width, continuation lines indented; a word longer than a line is cut in the middle. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const prefix = lines.length === 0 ? '' : indent;
    const candidate = current === '' ? `${prefix}${word}` : `${current} ${word}`;
    if (displayWidth(candidate) <= width) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = truncateMiddle(`${indent}${word}`, width);
  }
  if (current !== '') lines.push(current);
  return lines;
}

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

function superscript(n: number): string {
  return [...String(n)].map((d) => SUPERSCRIPT_DIGITS[Number(d)] ?? d).join('');
}

/**
 * The `parse` command's table: every section's metrics (compared value human and exact, then the other fields), then
 * the meta line. With a `width` (a terminal), a section's last columns are left out until its table fits, and a line
 * says which (`parse --json` has every field); without one (a file), every column is kept.
 */
export function renderSnapshotTable(snapshot: Snapshot, width?: number): string {
  const lines: string[] = [];
  for (const declaration of SECTIONS) {
    // A snapshot read from a file of an older version keeps its code-unit order (dev10 before dev2); people read compareKeys order.
    const metrics = Object.entries(metricsOf(snapshot, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]));
    if (metrics.length === 0) {
      // The two historic sections always say so; others appear only when a run has them.
      if (declaration.name === 'modules' || declaration.name === 'kernels')
        lines.push(`${declaration.title}: none`, '');
      continue;
    }
    lines.push(`${declaration.title} (${formatCount(metrics.length)})`);
    if (declaration.tableNote !== undefined)
      lines.push(...(width === undefined ? [declaration.tableNote] : wrap(declaration.tableNote, width)));
    const others = Object.keys(declaration.fields).filter((f) => f !== declaration.value);
    const columns: Column[] = [
      { header: 'KEY', align: 'left' },
      { header: declaration.value.toUpperCase(), align: 'right' },
      // The exact figure of the compared value, in its unit: "PEAK  EXACT", not "BYTES  BYTES BYTES".
      { header: 'EXACT', align: 'right' },
      ...others.map((f): Column => ({ header: f.toUpperCase(), align: isText(declaration, f) ? 'left' : 'right' })),
    ];
    const rows = metrics.map(([key, metric]): Cell[] => [
      { text: shown(key) },
      { text: fieldText(declaration, declaration.value, metric[declaration.value]) },
      { text: String(metric[declaration.value]) },
      ...others.map((f): Cell => ({ text: fieldText(declaration, f, metric[f]) })),
    ]);
    let kept = columns.length;
    if (width !== undefined) {
      // Columns after the key, from the last, until the rest leaves the key at least MIN_KEY_WIDTH columns.
      const cellWidth = (i: number): number =>
        rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(columns[i]?.header ?? ''));
      const need = (n: number): number =>
        Array.from({ length: n - 1 }, (_, i) => cellWidth(i + 1) + GAP.length).reduce((a, b) => a + b, 0);
      while (kept > 2 && need(kept) + MIN_KEY_WIDTH > width) kept--;
    }
    const table = alignedTable(
      columns.slice(0, kept),
      rows.map((r) => r.slice(0, kept)),
      { flexColumn: 0, width },
    );
    lines.push(...(width === undefined ? table : table.map((line) => clip(line, width))));
    if (kept < columns.length) {
      const left = columns
        .slice(kept)
        .map((c) => c.header)
        .join(', ');
      lines.push(...wrap(`Left out to fit ${width} columns: ${left} (parse --json has every field).`, width ?? 80));
    }
    lines.push('');
  }
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();

  const { files, records, skipped, allocFailures } = snapshot.meta;
  const devices = Object.entries(allocFailures);
  // allocFailures lists the devices plog saw (4,096 zeros on a large job): only the devices that had failures are named.
  const failing = devices.filter(([, n]) => n > 0);
  const failures =
    failing.length > 0
      ? `${failing
          .slice(0, 8)
          .map(([d, n]) => `${shown(d)} ${formatCount(n)}`)
          .join(', ')}${failing.length > 8 ? ` and ${formatCount(failing.length - 8)} more device(s)` : ''}`
      : devices.length > 0
        ? `none on ${plural(devices.length, 'device')}`
        : hasNoMetrics(snapshot)
          ? 'none (no device seen)'
          : 'none';
  const meta = `${plural(files, 'file')}, ${plural(records, 'record')}, ${formatCount(skipped)} skipped; alloc failures: ${failures}`;
  lines.push('', ...(width === undefined ? [meta] : wrap(meta, width)));
  return `${lines.join('\n')}\n`;
}

interface Column {
  header: string;
  align: 'left' | 'right';
}

interface Cell {
  text: string;
  /** Applied after padding, so escape codes never count toward the width. */
  paint?: (padded: string) => string;
}

/**
 * Columns padded to their widest cell. The flex column (the key) is capped; a wider key is printed whole, ending its
 * line, and the row's remaining cells continue on the next line under their columns.
 */
function alignedTable(
  columns: Column[],
  rows: Cell[][],
  layout: { flexColumn: number; width: number | undefined },
): string[] {
  const widths = columns.map((column, i) =>
    rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(column.header)),
  );
  const others =
    widths.reduce((sum, w, i) => (i === layout.flexColumn ? sum : sum + w), 0) + GAP.length * (columns.length - 1);
  const cap = layout.width === undefined ? DEFAULT_KEY_WIDTH : Math.max(MIN_KEY_WIDTH, layout.width - others);
  // The column is as wide as the widest key that fits the cap: the keys that do not fit never widen it.
  const flexWidth = rows.reduce(
    (w, row) => {
      const keyWidth = displayWidth(row[layout.flexColumn]?.text ?? '');
      return keyWidth <= cap ? Math.max(w, keyWidth) : w;
    },
    displayWidth(columns[layout.flexColumn]?.header ?? ''),
  );
  widths[layout.flexColumn] = flexWidth;

  const pad = (text: string, i: number): string => {
    const fill = ' '.repeat(Math.max(0, (widths[i] ?? 0) - displayWidth(text)));
    return columns[i]?.align === 'right' ? fill + text : text + fill;
  };
  const line = (cells: Cell[], from: number, to: number): string =>
    cells
      .slice(from, to)
      .map((cell, j) => {
        const padded = pad(cell.text, from + j);
        return cell.paint ? cell.paint(padded) : padded;
      })
      .join(GAP);

  const out = [
    columns
      .map((c, i) => pad(c.header, i))
      .join(GAP)
      .trimEnd(),
  ];
  for (const cells of rows) {
    const flexCell = cells[layout.flexColumn];
    if (flexCell === undefined || displayWidth(flexCell.text) <= flexWidth) {
      out.push(line(cells, 0, cells.length).trimEnd());
      continue;
    }
    // The long key ends its line; the values continue below, each under its own column.
    const before = line(cells, 0, layout.flexColumn);
    out.push(`${before}${before ? GAP : ''}${flexCell.text}`);
    const indent = widths.slice(0, layout.flexColumn + 1).reduce((sum, w) => sum + w + GAP.length, 0);
    out.push(`${' '.repeat(indent)}${line(cells, layout.flexColumn + 1, cells.length)}`.trimEnd());
  }
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

/** The `~hash` ending a shortened name (and the punctuation after it in a sentence): kept when the name is cut to a width. */
const SHORTENED_SUFFIX = /…[^]*(~[0-9a-f]{12}[:;,.)]?)$/;

/** Terminal columns of a string: East Asian wide characters and most emoji take two, combining marks none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0xfe00 && cp <= 0xfe0f)) continue;
    width += isWide(cp) ? 2 : 1;
  }
  return width;
}

const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function isWide(cp: number): boolean {
  return WIDE_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
}

function isText(declaration: SectionDeclaration, field: string): boolean {
  const type = declaration.fields[field]?.type;
  return type === 'string' || type === 'stringOrNull';
}

/** A metric field as the parse table shows it: sizes human (signed sizes with their sign), counts as numbers, '-' for null. */
function fieldText(declaration: SectionDeclaration, field: string, value: number | string | null | undefined): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return shown(value);
  switch (declaration.fields[field]?.type) {
    case 'bytes':
    case 'bytesOrNull':
      return formatBytes(value);
    case 'signedBytes':
      return formatDelta(value);
    default:
      return String(value);
  }
}

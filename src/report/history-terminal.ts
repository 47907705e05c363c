// `history show`: the default branch's trends in a terminal, one row per key group (or key), its sparkline, range and latest value, and where it stepped.
import { formatCount } from '../model/units.js';
import { replaceControlCharacters } from '../common/visible.js';
import { RECENT_POINTS, type HistoryRow, type HistoryView } from './history-view.js';
import { plural } from './partition.js';
import { clip, displayWidth, GAP, indented, padEnd, padStart, truncateMiddle, wrap } from '../common/text-layout.js';
import { runsAgo, shortSha, sparkline, stepContext, stepLevels, trendRange, trendValue } from './trend-text.js';

export interface HistoryTerminalOptions {
  /** Terminal columns; no line is wider. Default 80. */
  width?: number;
  /** A glob over keys (`DEV_MEM/{*}/HCCL`, `dev3/{**}`): only the key groups and keys it matches. */
  key?: string;
}

/** Rows shown without --key: the ones that moved first. */
const MAX_ROWS = 60;

/** Formats the history's view: every key group (keys of no device on their own), those that moved first; with `key`, those it matches. */
export function renderHistoryTerminal(view: HistoryView, options: HistoryTerminalOptions = {}): string {
  const width = options.width ?? 80;
  const lines: string[] = [];
  const n = view.points.length;
  const branch = view.branch === undefined ? '' : ` on ${shown(view.branch)}`;
  const gate = view.gate === undefined ? '' : ` of gate ${shown(view.gate)}`;
  if (n === 0) return `History${gate}${branch}: no points yet\n`;
  const first = view.points[0]!;
  const last = view.points[n - 1]!;
  lines.push(
    ...wrap(
      `History${gate}${branch}: ${plural(n, 'point')}, ${shortSha(first.commit)} (${first.time}) to ${shortSha(last.commit)} (${last.time})`,
      width,
    ),
  );
  lines.push(...recentMarks(view, width));

  const ordered = view.subjects(options.key);
  const shownRows = view.rows(options.key === undefined ? ordered.slice(0, MAX_ROWS) : ordered);
  if (shownRows.length === 0) {
    lines.push('', options.key === undefined ? 'No figures.' : `No key matches ${shown(options.key)}.`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(...trendTable(shownRows, n, width));
  if (options.key === undefined && ordered.length > MAX_ROWS)
    lines.push(
      '',
      ...wrap(
        `…${plural(ordered.length - MAX_ROWS, 'more key group')}: --key PATTERN (a glob over keys) lists the ones it matches`,
        width,
      ),
    );
  lines.push('', ...wrap('A key group (`*` for the device) shows its largest device at each point.', width));
  return `${lines.join('\n')}\n`;
}

/** One line, when the recent points hold any: where the baseline was updated and where the environment changed. */
function recentMarks(view: HistoryView, width: number): string[] {
  const n = view.points.length;
  // Changes within the recent points: the first of them is not compared with the point before it.
  const from = Math.max(0, n - RECENT_POINTS);
  const recent = view.points.slice(from).map((meta, i) => ({ meta, change: i === 0 ? null : view.changes[from + i]! }));
  const baselineUpdates = recent.filter((r) => r.change?.baselineUpdated === true).map((r) => shortSha(r.meta.commit));
  const environmentChanges = recent
    .filter((r) => r.change !== null && r.change.environment !== null)
    .map((r) => shortSha(r.meta.commit));
  const marks: string[] = [];
  if (baselineUpdates.length > 0) marks.push(`baseline updated at ${baselineUpdates.join(', ')}`);
  if (environmentChanges.length > 0) marks.push(`environment changed at ${environmentChanges.join(', ')}`);
  if (marks.length === 0) return [];
  return wrap(`In the last ${formatCount(recent.length)} points: ${marks.join('; ')}.`, width);
}

/** The table after a blank line: its header, then per row its key, sparkline, range and latest value, and its step. */
function trendTable(shownRows: readonly HistoryRow[], n: number, width: number): string[] {
  const lines: string[] = [];
  const cells = shownRows.map((r) => ({
    subject: shown(r.subject),
    spark: sparkline(r.trend.recent, r.trend.min, r.trend.max),
    range: trendRange(r.trend, r.unit),
    latest: latestOf(r),
  }));
  const sparkWidth = Math.max(5, ...cells.map((c) => displayWidth(c.spark)));
  const rangeWidth = Math.max(5, ...cells.map((c) => displayWidth(c.range)));
  const latestWidth = Math.max(6, ...cells.map((c) => displayWidth(c.latest)));
  const keyWidth = Math.max(
    12,
    Math.min(
      Math.max(3, ...cells.map((c) => displayWidth(c.subject))),
      width - sparkWidth - rangeWidth - latestWidth - GAP.length * 3,
    ),
  );
  const pad = (text: string, w: number, right = false): string => (right ? padStart(text, w) : padEnd(text, w));
  lines.push(
    '',
    [
      pad('KEY', keyWidth),
      pad(`LAST ${Math.min(RECENT_POINTS, n)}`, sparkWidth),
      pad('RANGE', rangeWidth, true),
      pad('LATEST', latestWidth, true),
    ]
      .join(GAP)
      .trimEnd(),
  );
  shownRows.forEach((row, i) => {
    const c = cells[i]!;
    lines.push(
      clip(
        [
          pad(truncateMiddle(c.subject, keyWidth), keyWidth),
          pad(c.spark, sparkWidth),
          pad(c.range, rangeWidth, true),
          pad(c.latest, latestWidth, true),
        ]
          .join(GAP)
          .trimEnd(),
        width,
      ),
    );
    lines.push(...stepLines(row, width));
  });
  return lines;
}

/** Where the row stepped, indented under it; none when it did not. */
function stepLines(row: HistoryRow, width: number): string[] {
  const step = row.trend.step;
  if (step === null) return [];
  const context = stepContext(step);
  return indented(
    `stepped ${stepLevels(step, row.unit)} at ${shortSha(step.commit)} (${runsAgo(step)})${context === null ? '' : `; ${shown(context)}`}`,
    width,
    '    ',
    '      ',
  );
}

function latestOf(row: HistoryRow): string {
  const last = row.trend.values[row.trend.values.length - 1];
  return last === null || last === undefined ? 'absent' : trendValue(last, row.unit);
}

function shown(text: string): string {
  return replaceControlCharacters(text);
}

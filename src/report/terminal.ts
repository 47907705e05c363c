// Plain-text tables for a terminal: the gate verdict (check) and a snapshot's metrics (parse), aligned, no color unless asked.
import { UsageError } from '../errors.js';
import type { Entry, GateReport } from '../gate/types.js';
import { SECTIONS, type SectionDeclaration } from '../sections/index.js';
import { metricsOf, type Snapshot } from '../snapshot.js';
import { formatBytes, formatDelta, formatPercent } from '../units.js';
import { entryReason, formatEntryDelta, formatEntryValue } from './entry-values.js';
import { replaceControlCharacters } from './escape.js';
import { contextTerminal } from './run-context.js';
import { countByStatus, formatCount, plural, splitSections, verdictText } from './sections.js';

export interface TerminalOptions {
  /** ANSI colors: red failures, yellow warnings, green pass. Default off. */
  color?: boolean;
  /** Terminal columns: the key column shrinks to fit, and longer keys get a line of their own. Default: keys up to 60 columns. */
  width?: number;
}

/** Keys wider than this get their own line when no terminal width is known, so one long key cannot widen every row. */
const DEFAULT_KEY_WIDTH = 60;
const MIN_KEY_WIDTH = 16;
const GAP = '  ';

const ANSI = { red: '\u001b[31m', yellow: '\u001b[33m', green: '\u001b[32m', bold: '\u001b[1m', reset: '\u001b[0m' } as const;

function terminalReason(entry: Entry): string {
  const { rule, note } = entryReason(entry);
  if (note !== null) return shown(rule === null ? note : `${rule}: ${note}`);
  return rule === null ? 'default' : shown(rule);
}

/** The verdict line, the failing and warning keys (failures first, largest growth first), then a count of the keys not listed. */
export function renderTerminal(report: GateReport, options: TerminalOptions = {}): string {
  if (options.width !== undefined && !(Number.isSafeInteger(options.width) && options.width > 0)) {
    throw new UsageError(`width must be a positive integer, got ${String(options.width)}`);
  }
  const color = options.color === true;
  const paint = (code: string, text: string): string => (color ? `${code}${text}${ANSI.reset}` : text);
  const { problems, improvements, unchanged } = splitSections(report);
  const lines = [paint(`${ANSI.bold}${report.result === 'fail' ? ANSI.red : ANSI.green}`, verdictText(report, 'Memory gate')), ...contextTerminal(report, shown)];

  if (problems.length > 0) {
    const columns: Column[] = [
      { header: 'SEVERITY', align: 'left' },
      { header: 'STATUS', align: 'left' },
      { header: 'KIND', align: 'left' },
      { header: 'KEY', align: 'left' },
      { header: 'BASELINE', align: 'right' },
      { header: 'CURRENT', align: 'right' },
      { header: 'DELTA', align: 'right' },
      { header: 'DELTA%', align: 'right' },
      { header: 'RULE / WHY', align: 'left' },
    ];
    const rows = problems.map((entry): Cell[] => [
      { text: shown(entry.severity), paint: (s) => paint(severityColor(entry), s) },
      { text: shown(entry.status) },
      { text: shown(entry.kind) },
      { text: shown(entry.key) },
      { text: entry.baseline === null ? '-' : formatEntryValue(entry, entry.baseline) },
      { text: entry.current === null ? '-' : formatEntryValue(entry, entry.current) },
      { text: entry.delta === null ? '-' : formatEntryDelta(entry, entry.delta) },
      { text: entry.percent === null ? '-' : formatPercent(entry.percent) },
      { text: terminalReason(entry) },
    ]);
    lines.push('', ...alignedTable(columns, rows, { flexColumn: 3, width: options.width }));
  }

  const rest = [...improvements, ...unchanged];
  if (rest.length > 0) {
    const byStatus = countByStatus(rest)
      .map(([status, n]) => `${formatCount(n)} ${shown(status)}`)
      .join(', ');
    lines.push('', `${plural(rest.length, 'key')} within thresholds not listed (${byStatus})`);
  }
  return `${lines.join('\n')}\n`;
}

/** The `parse` command's table: every section's metrics (compared value human and exact, then the other fields), then the meta line. */
export function renderSnapshotTable(snapshot: Snapshot): string {
  const lines: string[] = [];
  for (const declaration of SECTIONS) {
    const metrics = Object.entries(metricsOf(snapshot, declaration.name));
    if (metrics.length === 0) {
      // The two historic sections always say so; others appear only when a run has them.
      if (declaration.name === 'modules' || declaration.name === 'kernels') lines.push(`${declaration.title}: none`, '');
      continue;
    }
    lines.push(`${declaration.title} (${formatCount(metrics.length)})`);
    const others = Object.keys(declaration.fields).filter((f) => f !== declaration.value);
    const columns: Column[] = [
      { header: 'KEY', align: 'left' },
      { header: declaration.value.toUpperCase(), align: 'right' },
      { header: `${declaration.value.toUpperCase()} ${declaration.unit === 'bytes' ? 'BYTES' : 'EXACT'}`, align: 'right' },
      ...others.map((f): Column => ({ header: f.toUpperCase(), align: isText(declaration, f) ? 'left' : 'right' })),
    ];
    const rows = metrics.map(([key, metric]): Cell[] => [
      { text: shown(key) },
      { text: fieldText(declaration, declaration.value, metric[declaration.value]) },
      { text: String(metric[declaration.value]) },
      ...others.map((f): Cell => ({ text: fieldText(declaration, f, metric[f]) })),
    ]);
    lines.push(...alignedTable(columns, rows, { flexColumn: 0, width: undefined }), '');
  }
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();

  const { files, records, skipped, allocFailures } = snapshot.meta;
  const devices = Object.entries(allocFailures);
  const failures = devices.length === 0 ? 'none (no device seen)' : devices.map(([d, n]) => `${shown(d)} ${n}`).join(', ');
  lines.push(
    '',
    `${plural(files, 'file')}, ${plural(records, 'record')}, ${formatCount(skipped)} skipped; alloc failures: ${failures}`,
  );
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
function alignedTable(columns: Column[], rows: Cell[][], layout: { flexColumn: number; width: number | undefined }): string[] {
  const widths = columns.map((column, i) =>
    rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(column.header)),
  );
  const others = widths.reduce((sum, w, i) => (i === layout.flexColumn ? sum : sum + w), 0) + GAP.length * (columns.length - 1);
  const cap = layout.width === undefined ? DEFAULT_KEY_WIDTH : Math.max(MIN_KEY_WIDTH, layout.width - others);
  // The column is as wide as the widest key that fits the cap: the keys that do not fit never widen it.
  const flexWidth = rows.reduce((w, row) => {
    const keyWidth = displayWidth(row[layout.flexColumn]?.text ?? '');
    return keyWidth <= cap ? Math.max(w, keyWidth) : w;
  }, displayWidth(columns[layout.flexColumn]?.header ?? ''));
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

  const out = [columns.map((c, i) => pad(c.header, i)).join(GAP).trimEnd()];
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

function severityColor(entry: Entry): string {
  return entry.severity === 'fail' ? ANSI.red : entry.severity === 'ok' ? ANSI.green : ANSI.yellow;
}

/** A name from a file, with control characters (ESC above all) made visible so it cannot drive the terminal. */
function shown(text: string): string {
  return replaceControlCharacters(text);
}

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

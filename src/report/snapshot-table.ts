// The `parse` command's table in a terminal or a file: every section's metrics, aligned, then the meta line.
import {
  alignedTable,
  clip,
  displayWidth,
  GAP,
  MIN_FLEX_WIDTH,
  wrap,
  type Cell,
  type Column,
} from '../common/text-layout.js';
import { replaceControlCharacters } from '../common/visible.js';
import { SECTIONS, type SectionDeclaration } from '../model/sections/index.js';
import { hasNoMetrics, metricsOf, type Snapshot } from '../model/snapshot.js';
import { compareKeys } from '../model/key-order.js';
import { formatBytes, formatCount, formatDelta } from '../model/units.js';
import { plural } from './partition.js';

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
      // Columns after the key, from the last, until the rest leaves the key at least MIN_FLEX_WIDTH columns.
      const cellWidth = (i: number): number =>
        rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(columns[i]?.header ?? ''));
      const need = (n: number): number =>
        Array.from({ length: n - 1 }, (_, i) => cellWidth(i + 1) + GAP.length).reduce((a, b) => a + b, 0);
      while (kept > 2 && need(kept) + MIN_FLEX_WIDTH > width) kept--;
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

/** A name from a file, with control characters (ESC above all) made visible so it cannot drive the terminal. */
function shown(text: string): string {
  return replaceControlCharacters(text);
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

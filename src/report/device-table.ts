// Per-device totals for every renderer: sums per section, a section's named figures (allocated, reserved), capacity and headroom, and which devices are worth a row.
import type { Entry } from '../gate/types.js';
import { SECTIONS, sectionOfKind, type SectionDeclaration } from '../model/sections/index.js';
import { compareKeys } from '../model/key-order.js';
import { formatBytes, formatCount, formatDelta } from '../model/units.js';
import { splitOf } from './groups.js';
import { UNTRACED_NOTE } from '../model/sections/allocator.js';

/** One device: its keys' sums per section kind, and its capacity when one is configured. */
export interface DeviceRow {
  device: string;
  /** Sums of baseline and current values per entry kind (of a section whose unit is bytes), in SECTIONS order. */
  sums: Map<string, { baseline: number; current: number }>;
  /** Figures of sections that declare them (`deviceRow.figures`), by column id (`allocator/reserved`); null: that side has none. */
  figures: Map<string, { baseline: number | null; current: number | null }>;
  /** From the headroom verdict's device entry; null without a configured capacity. */
  capacity: number | null;
  /** capacity − the device estimate; null without a capacity. */
  headroom: number | null;
  /** Some entry on this device warns or fails. */
  flagged: boolean;
  /** Some sum moved. */
  changed: boolean;
  /** Its figures are dump-time ones: the device had no trace (a memory snapshot taken without _record_memory_history). */
  dumpTime: boolean;
}

/** A column of one figure of a section (`deviceRow.figures`), or of its gap (the last figure minus the first). */
export interface FigureColumn {
  /** `allocator/reserved`; a gap's is `allocator/gap`. */
  id: string;
  title: string;
  /** For a gap: the ids it is `to` − `from` of. */
  gap?: { from: string; to: string };
}

export interface DeviceTable {
  /** Kinds summed, in SECTIONS order. */
  kinds: string[];
  /** Figure and gap columns present in some row, in SECTIONS order. */
  figureColumns: FigureColumn[];
  /** What the figure columns mean (the sections' `deviceRow.note`s), one sentence each. */
  figureNotes: string[];
  rows: DeviceRow[];
  /** What the rows leave out, in one sentence; null when every device has a row. */
  rest: string | null;
  /** Devices in all. */
  total: number;
}

/** Up to this many devices, every one gets a row; above it, only devices that changed or are flagged. */
const ALL_DEVICES_UP_TO = 16;
/** Most rows above ALL_DEVICES_UP_TO: flagged first, then the largest changes. */
const MAX_DEVICE_ROWS = 32;

/** Per-device totals of the report, or null without a device. */
export function deviceTable(entries: readonly Entry[]): DeviceTable | null {
  const all = deviceRowsOf(entries);
  if (all.length === 0) return null;
  for (const r of all)
    r.changed =
      [...r.sums.values()].some((s) => s.current !== s.baseline) ||
      [...r.figures.values()].some((f) => f.current !== f.baseline);
  const present = new Set(all.flatMap((r) => [...r.sums.keys()]));
  const kinds = SECTIONS.map((s) => s.kind).filter((k) => present.has(k));
  const { figureColumns, figureNotes } = figureColumnsOf(new Set(all.flatMap((r) => [...r.figures.keys()])));
  if (all.some((r) => r.dumpTime)) figureNotes.push(DUMP_TIME_NOTE);
  if (kinds.length === 0 && figureColumns.length === 0 && all.every((r) => r.capacity === null)) return null;
  all.sort((a, b) => compareKeys(a.device, b.device));
  const columns = { kinds, figureColumns, figureNotes };
  if (all.length <= ALL_DEVICES_UP_TO) return { ...columns, rows: all, rest: null, total: all.length };
  return { ...columns, ...rowsWorthListing(all), total: all.length };
}

/** A row per device some entry is of, in the order they are met: flags, capacity, sums and figures. */
function deviceRowsOf(entries: readonly Entry[]): DeviceRow[] {
  const byDevice = new Map<string, DeviceRow>();
  const row = (device: string): DeviceRow => {
    let r = byDevice.get(device);
    if (r === undefined)
      byDevice.set(
        device,
        (r = {
          device,
          sums: new Map(),
          figures: new Map(),
          capacity: null,
          headroom: null,
          flagged: false,
          changed: false,
          dumpTime: false,
        }),
      );
    return r;
  };
  // A key can carry several entries (its verdict, then findings with the same values): count it once.
  const seen = new Set<string>();
  for (const entry of entries) {
    const { device } = splitOf(entry);
    if (device === null) continue;
    const r = row(device);
    if (entry.severity !== 'ok') r.flagged = true;
    if (entry.capacity !== undefined && entry.current !== null) {
      r.capacity = entry.capacity;
      r.headroom = entry.capacity - entry.current;
    }
    const declaration = sectionOfKind(entry.kind);
    if (declaration === undefined || declaration.unit !== 'bytes' || entry.unit === 'count') continue;
    const id = `${entry.kind}\u0000${entry.key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    if (declaration.deviceRow !== undefined) {
      const figure = figureOf(declaration, entry.key);
      if (figure !== null)
        r.figures.set(`${declaration.name}/${figure}`, { baseline: entry.baseline, current: entry.current });
      if (figure !== null && entry.note?.startsWith(UNTRACED_NOTE) === true) r.dumpTime = true;
      continue;
    }
    let sum = r.sums.get(entry.kind);
    if (sum === undefined) r.sums.set(entry.kind, (sum = { baseline: 0, current: 0 }));
    sum.baseline += entry.baseline ?? 0;
    sum.current += entry.current ?? 0;
  }
  return [...byDevice.values()];
}

/**
 * Above ALL_DEVICES_UP_TO devices, the rows worth a line (flagged first, then the largest changes, at most
 * MAX_DEVICE_ROWS, in device order) and what they leave out.
 */
function rowsWorthListing(all: readonly DeviceRow[]): { rows: DeviceRow[]; rest: string | null } {
  const change = (r: DeviceRow): number =>
    [...r.sums.values()].reduce((s, v) => s + Math.abs(v.current - v.baseline), 0);
  const worth = all.filter((r) => r.flagged || r.changed);
  worth.sort(
    (a, b) => Number(b.flagged) - Number(a.flagged) || change(b) - change(a) || compareKeys(a.device, b.device),
  );
  const rows = worth.slice(0, MAX_DEVICE_ROWS).sort((a, b) => compareKeys(a.device, b.device));
  const hidden = all.length - rows.length;
  if (hidden === 0) return { rows, rest: null };
  const hiddenChanged = worth.length - rows.length;
  const unchanged = all.length - worth.length;
  const parts: string[] = [];
  if (hiddenChanged > 0) {
    const deltas = worth
      .slice(MAX_DEVICE_ROWS)
      .map((r) => [...r.sums.values()].reduce((s, v) => s + v.current - v.baseline, 0));
    parts.push(`${formatCount(hiddenChanged)} more changed or flagged (median Δ ${formatDelta(median(deltas))})`);
  }
  if (unchanged > 0) parts.push(`${formatCount(unchanged)} unchanged and not flagged`);
  return {
    rows,
    rest: `${formatCount(all.length)} devices; not listed: ${parts.join(', ')}. The JSON report has every device.`,
  };
}

/** Under a table with a dump-time row. */
const DUMP_TIME_NOTE =
  'dump-time: the device had no trace (the snapshot was taken without _record_memory_history), so its figures are the state at dump time, not peaks: allocated is the live requested bytes then.';

/** The figure a key of a section with `deviceRow` holds (`dev0/reserved` → `reserved`), or null for a key that is no figure. */
function figureOf(declaration: SectionDeclaration, key: string): string | null {
  const figure = key.slice(key.lastIndexOf('/') + 1);
  return declaration.deviceRow?.figures.some((f) => f.figure === figure) === true ? figure : null;
}

/** The columns of the figures some row has, section by section, each section's gap after its figures. */
function figureColumnsOf(present: ReadonlySet<string>): { figureColumns: FigureColumn[]; figureNotes: string[] } {
  const figureColumns: FigureColumn[] = [];
  const figureNotes: string[] = [];
  for (const declaration of SECTIONS) {
    const row = declaration.deviceRow;
    if (row === undefined || row.figures.length === 0) continue;
    const ids = row.figures.map((f) => `${declaration.name}/${f.figure}`);
    if (!ids.some((id) => present.has(id))) continue;
    row.figures.forEach((f, i) => figureColumns.push({ id: ids[i] as string, title: f.title }));
    if (row.gap !== undefined && ids.length >= 2) {
      figureColumns.push({
        id: `${declaration.name}/gap`,
        title: row.gap,
        gap: { from: ids[0] as string, to: ids[ids.length - 1] as string },
      });
    }
    if (row.note !== undefined) figureNotes.push(row.note);
  }
  return { figureColumns, figureNotes };
}

/** A figure column's value in a row: the figure's current value, or for a gap `to − from` (null when either is absent). */
function figureValue(
  row: DeviceRow,
  column: FigureColumn,
): { baseline: number | null; current: number | null } | undefined {
  if (column.gap === undefined) return row.figures.get(column.id);
  const from = row.figures.get(column.gap.from);
  const to = row.figures.get(column.gap.to);
  if (from === undefined || to === undefined) return undefined;
  const minus = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a - b);
  return { baseline: minus(to.baseline, from.baseline), current: minus(to.current, from.current) };
}

/** A gap as a share of the column it is taken from (`reserved`): `31.2%`; null without both values. */
function gapShare(row: DeviceRow, column: FigureColumn): string | null {
  if (column.gap === undefined) return null;
  const to = row.figures.get(column.gap.to)?.current ?? null;
  const gap = figureValue(row, column)?.current ?? null;
  if (to === null || gap === null || to <= 0) return null;
  return `${((gap / to) * 100).toFixed(1)}%`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : Math.round(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
}

/** A figure's `baseline → current` (`(dump-time)` after it for an untraced device, unless the caller labels the row), or a gap's current value with its share: `10.8 GiB (31.2%)`; `—` without one. */
export function figureCell(row: DeviceRow, column: FigureColumn, labelDumpTime = true): string {
  const value = figureValue(row, column);
  if (value === undefined) return '—';
  const side = (v: number | null): string => (v === null ? '—' : formatBytes(v));
  if (column.gap === undefined)
    return `${side(value.baseline)} → ${side(value.current)}${row.dumpTime && labelDumpTime ? ' (dump-time)' : ''}`;
  const share = gapShare(row, column);
  return value.current === null ? '—' : `${formatBytes(value.current)}${share === null ? '' : ` (${share})`}`;
}

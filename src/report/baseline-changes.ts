// What a baseline update changes, key by key: the body of the baseline pull request and the `baseline` command's output.
import type { Baseline, BaselineChanges } from '../gate/baseline.js';
import { SECTIONS, valueOf as metricValue } from '../model/sections/index.js';
import { formatBytes, formatDelta } from '../model/units.js';
import { tableCodeSpan } from './escape.js';
import { replaceControlCharacters as shown } from '../common/visible.js';
import { displayWidth, truncateMiddle, wrap } from '../common/text-layout.js';

export type Side = Pick<Baseline, 'sections'>;

/** The compared value of a key (a module's peak, a kernel's diff, …), from the first section that has it; null when none does. */
export function valueOf(side: Side | null, key: string): number | null {
  if (side === null) return null;
  for (const declaration of SECTIONS) {
    const metrics = side.sections[declaration.name];
    if (metrics !== undefined && Object.hasOwn(metrics, key))
      return metricValue(declaration, metrics[key] as NonNullable<(typeof metrics)[string]>);
  }
  return null;
}

/** One line: "3 added, 1 changed, 2 kept (absent from this run), 0 pruned, 40 unchanged". */
function summarizeBaselineChanges(changes: BaselineChanges): string {
  return (
    `${changes.added.length} added, ${changes.changed.length} changed, ` +
    `${changes.kept.length} kept (absent from this run), ${changes.pruned.length} pruned, ${changes.unchanged} unchanged`
  );
}

/**
 * A markdown table of every added, changed, kept and pruned key with before, after and Δ in human sizes.
 * Whole rows are dropped, never cut, to stay under `maxChars` (a PR body takes 65,536).
 */
export function renderBaselineChanges(
  before: Side | null,
  after: Side,
  changes: BaselineChanges,
  maxChars = 60_000,
): string {
  const lines = [`### Memory baseline update`, '', summarizeBaselineChanges(changes), ''];
  const rows: [string, string][] = [
    ...changes.added.map((k) => ['added', k] as [string, string]),
    ...changes.changed.map((k) => ['changed', k] as [string, string]),
    ...changes.pruned.map((k) => ['pruned', k] as [string, string]),
    ...changes.kept.map((k) => ['kept', k] as [string, string]),
  ];
  if (rows.length === 0) return [...lines, 'The new baseline holds the same values as the old one.', ''].join('\n');
  lines.push('| change | key | before | after | Δ |', '|---|---|---:|---:|---:|');
  const footer =
    changes.kept.length > 0
      ? [
          '',
          '_Kept_ keys were not produced by this run (a rank that failed to upload, say) and keep their old values; update with `prune` to drop them.',
        ]
      : [];
  // Room for the header, the footer and the "more keys" note.
  let budget = maxChars - lines.join('\n').length - footer.join('\n').length - 100;
  let shown = 0;
  for (const [change, key] of rows) {
    const old = valueOf(before, key);
    const now = change === 'pruned' ? null : valueOf(after, key);
    const delta = old !== null && now !== null ? formatDelta(now - old) : '';
    const row = `| ${change} | ${tableCodeSpan(key)} | ${old === null ? '' : formatBytes(old)} | ${now === null ? '' : formatBytes(now)} | ${delta} |`;
    if (row.length + 1 > budget) break;
    budget -= row.length + 1;
    lines.push(row);
    shown++;
  }
  if (shown < rows.length) lines.push('', `…and ${rows.length - shown} more keys: see the baseline file's diff.`);
  lines.push(...footer);
  return `${lines.join('\n')}\n`;
}

/** Keys the `baseline` command lists in a terminal: the largest changes. */
const TERMINAL_ROWS = 10;

/**
 * The `baseline` command's terminal output: the summary line, then the largest changes (added, changed, pruned), one
 * line each within `width` (keys cut in the middle), and how many more the file's diff holds. Kept keys are counted.
 */
export function renderBaselineChangesTerminal(
  file: string,
  before: Side | null,
  after: Side,
  changes: BaselineChanges,
  width: number,
): string {
  const rows = [
    ...changes.added.map((key) => ({ change: 'added', key, old: null, now: valueOf(after, key) })),
    ...changes.changed.map((key) => ({ change: 'changed', key, old: valueOf(before, key), now: valueOf(after, key) })),
    ...changes.pruned.map((key) => ({ change: 'pruned', key, old: valueOf(before, key), now: null })),
  ].map((r) => ({ ...r, size: Math.abs((r.now ?? 0) - (r.old ?? 0)) }));
  rows.sort((a, b) => b.size - a.size || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const lines = [...wrap(`wrote ${shown(file)}:`, width), ...wrap(summarizeBaselineChanges(changes), width)];
  const listed = rows.slice(0, TERMINAL_ROWS);
  if (listed.length > 0) {
    lines.push(rows.length > listed.length ? `Largest changes (${listed.length} of ${rows.length}):` : 'Changes:');
    for (const r of listed) {
      const values =
        r.change === 'added'
          ? formatBytes(r.now ?? 0)
          : r.change === 'pruned'
            ? `${formatBytes(r.old ?? 0)} dropped`
            : `${formatBytes(r.old ?? 0)} → ${formatBytes(r.now ?? 0)} (${formatDelta((r.now ?? 0) - (r.old ?? 0))})`;
      const head = `  ${r.change.padEnd(9)}`;
      const room = Math.max(8, width - displayWidth(head) - displayWidth(values) - 2);
      lines.push(`${head}${truncateMiddle(shown(r.key), room)}  ${values}`);
    }
    if (rows.length > listed.length)
      lines.push(`…and ${rows.length - listed.length} more: git diff ${shown(file)} lists every key`);
  }
  return `${lines.join('\n')}\n`;
}

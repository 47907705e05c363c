// "This report is not trustworthy": the claims of an uploaded report that the trusted limits do not give, as comment mode
// shows them first (src/gate/rejudge.ts finds them). Pure.
import type { ClaimedValue, Discrepancy } from '../gate/rejudge.js';
import { formatBytes, formatCount } from '../model/units.js';
import { codeSpan, tableCodeSpan } from './escape.js';

/** Rows shown; the rest are counted (the comment has 65,536 characters for everything). */
const MAX_ROWS = 20;

/** The first discrepancy in one line, for the job's warning: `/entries/5/status of DEV_MEM/dev1/APP says 'pass', re-judged 'regressed'`. */
export function describeDiscrepancy(d: Discrepancy): string {
  const plain = (value: ClaimedValue, side: 'claimed' | 'rejudged'): string => {
    if (value === null) return d.field === 'entry' ? 'no entry' : 'absent';
    if (typeof value === 'object') return `${value.status} (${value.severity})`;
    if (typeof value === 'number')
      return isFigure(d) ? figure(d, value, side === 'claimed' ? d.rejudged : d.claimed) : String(value);
    return `'${value}'`;
  };
  return `${d.pointer}${d.key === null ? '' : ` of ${d.key}`} says ${plain(d.claimed, 'claimed')}, re-judged ${plain(d.rejudged, 'rejudged')}`;
}

/**
 * The warning comment mode puts first: how many claims do not follow, from which limits (`limits`: markdown naming
 * them, e.g. "the baseline and config of the base commit `abc`"), and a table of them.
 */
export function renderNotTrustworthy(
  discrepancies: readonly Discrepancy[],
  limits: string,
  uploader: 'pull-request' | 'run' = 'pull-request',
): string {
  const review =
    uploader === 'pull-request'
      ? "review the pull request's changes to the workflow, baseline and config"
      : "review the changes of the run's commit to the workflow, baseline and config";
  const lines = [
    `#### ⛔ This report is not trustworthy: ${discrepancies.length} of its claims do not follow from the trusted limits`,
    '',
    `${uploader === 'pull-request' ? "The pull request's run" : 'The run'} uploaded a report whose claims differ from what ${limits} give for the figures it reports. ` +
      "The verdict below is re-judged here from those limits and the run's figures; the figures themselves (what the run measured) " +
      `cannot be checked here: ${review}.`,
    '',
    '| Where | Key | The report says | Re-judged |',
    '|---|---|---|---|',
  ];
  for (const d of discrepancies.slice(0, MAX_ROWS)) {
    lines.push(
      `| ${codeSpan(d.pointer)} | ${d.key === null ? '' : tableCodeSpan(d.key)} | ${cell(d, d.claimed, d.rejudged)} | ${cell(d, d.rejudged, d.claimed)} |`,
    );
  }
  if (discrepancies.length > MAX_ROWS)
    lines.push(
      '',
      `…and ${formatCount(discrepancies.length - MAX_ROWS)} more: the job's report.json holds the re-judged entries.`,
    );
  return lines.join('\n');
}

function isFigure(d: Discrepancy): boolean {
  return d.field === 'baseline' || d.field === 'delta' || d.field === 'limit' || d.field === 'capacity';
}

/** A table cell: figures in their unit (exact when the rounded forms would look alike), names and statuses as code. */
function cell(d: Discrepancy, value: ClaimedValue, other: ClaimedValue): string {
  if (value === null) return d.field === 'entry' ? 'no entry' : 'absent';
  if (typeof value === 'object') return `${codeSpan(value.status)} (${value.severity})`;
  if (typeof value === 'number') {
    if (isFigure(d)) return figure(d, value, other);
    if (d.field === 'percent') return `${value}%`;
    return formatCount(value);
  }
  return tableCodeSpan(value);
}

/** `1.9 GiB`, or `2,078,195,713 B` when the other side rounds to the same text. */
function figure(d: Discrepancy, value: number, other: ClaimedValue): string {
  if (d.unit === 'count') return formatCount(value);
  const shown = formatBytes(value);
  return typeof other === 'number' && formatBytes(other) === shown ? `${formatCount(value)} B` : shown;
}

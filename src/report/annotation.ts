// The text of workflow annotations and of the job's one-line failure reason: the same human units as the tables.
import { disjointText } from '../gate/disjoint.js';
import type { Entry, GateReport } from '../gate/types.js';
import { entryReason, entrySentence } from './entry-values.js';
import { isFirstRun, verdictText, worstFirst } from './partition.js';
import { formatCount } from '../model/units.js';
import { shortenName } from '../common/names.js';

/** One line a reviewer can act on: the key, its verdict, values in human units, and the rule or the finding's note. */
export function annotationText(e: Entry): string {
  const { rule, note } = entryReason(e);
  const why = [rule ? `rule ${rule}` : '', note ?? ''].filter(Boolean).join('; ');
  return `${entrySentence(e)}${why ? ` [${why}]` : ''}`;
}

/** An annotation's title: the key (shortened as everywhere) and its verdict. */
export function annotationTitle(e: Entry): string {
  return `Memory gate: ${shortenName(e.key)} ${e.status}`;
}

/** The failing entries, worst first (by severity, then absolute change): the first annotation is the worst finding. */
export function failingWorstFirst(report: Pick<GateReport, 'entries'>): Entry[] {
  return report.entries.filter((e) => e.severity === 'fail').sort(worstFirst);
}

/** The job's one-line failure reason: the worst failing finding, and how many more there are. */
export function failureReason(report: Pick<GateReport, 'entries' | 'disjointBaseline'>): string {
  const failing = failingWorstFirst(report);
  const worst = failing[0];
  // Nothing compared fails on its own, failing entries or not: that is the news.
  if (report.disjointBaseline?.severity === 'fail')
    return `Memory gate failed: ${disjointText(report.disjointBaseline)}`;
  // A first run failed by "onMissingBaseline": "fail" has no failing entry: say why the gate is closed.
  if (worst === undefined)
    return isFirstRun(report)
      ? `Memory gate: ${verdictText({ result: 'fail', counts: {}, entries: report.entries }, 'Memory gate')}`
      : 'Memory gate failed';
  const more = failing.length > 1 ? ` and ${formatCount(failing.length - 1)} more failing` : '';
  return `Memory gate failed: ${entrySentence(worst)}${more}`;
}

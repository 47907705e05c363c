// The text of a failing key's workflow annotation: plain, exact values, since GitHub shows it beside the run.
import type { Entry } from '../gate/types.js';
import { entryReason, formatEntryDelta, isCountEntry } from './entry-values.js';

/** One line a reviewer can act on: exact values with their unit, the rule or the finding's explanation. */
export function annotationText(e: Entry): string {
  const unit = isCountEntry(e) ? '' : ' bytes';
  const values =
    e.baseline !== null && e.current !== null
      ? `${e.baseline} → ${e.current}${unit} (${formatEntryDelta(e, e.current - e.baseline)})`
      : `${e.current ?? e.baseline}${unit}${e.current === null ? ' in the baseline only' : e.baseline === null ? ', no baseline' : ''}`;
  const { rule, note } = entryReason(e);
  const why = [rule ? `rule ${rule}` : '', note ?? ''].filter(Boolean).join('; ');
  return `${e.kind} ${e.key}: ${e.status}, ${values}${why ? ` [${why}]` : ''}`;
}

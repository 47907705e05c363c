import { i as isFirstRun, v as verdictText, t as entrySentence, u as worstFirst, r as entryReason } from './groups.js';
import { a as formatCount } from './units.js';

/** One line a reviewer can act on: the key, its verdict, values in human units, and the rule or the finding's note. */
function annotationText(e) {
    const { rule, note } = entryReason(e);
    const why = [rule ? `rule ${rule}` : '', note ?? ''].filter(Boolean).join('; ');
    return `${entrySentence(e)}${why ? ` [${why}]` : ''}`;
}
/** The failing entries, worst first (by severity, then absolute change): the first annotation is the worst finding. */
function failingWorstFirst(report) {
    return report.entries.filter((e) => e.severity === 'fail').sort(worstFirst);
}
/** The job's one-line failure reason: the worst failing finding, and how many more there are. */
function failureReason(report) {
    const failing = failingWorstFirst(report);
    const worst = failing[0];
    // A first run failed by "onMissingBaseline": "fail" has no failing entry: say why the gate is closed.
    if (worst === undefined)
        return isFirstRun(report) ? `Memory gate: ${verdictText({ result: 'fail', entries: report.entries }, 'Memory gate')}` : 'Memory gate failed';
    const more = failing.length > 1 ? ` and ${formatCount(failing.length - 1)} more failing` : '';
    return `Memory gate failed: ${entrySentence(worst)}${more}`;
}

export { failingWorstFirst as a, annotationText as b, failureReason as f };

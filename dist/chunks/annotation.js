import { b as isFirstRun, v as verdictText, e as entrySentence, c as worstFirst, f as entryReason } from './groups.js';
import { f as formatCount } from './units.js';

function annotationText(e) {
    const { rule, note } = entryReason(e);
    const why = [rule ? `rule ${rule}` : '', note ?? ''].filter(Boolean).join('; ');
    return `${entrySentence(e)}${why ? ` [${why}]` : ''}`;
}
function failingWorstFirst(report) {
    return report.entries.filter((e) => e.severity === 'fail').sort(worstFirst);
}
function failureReason(report) {
    const failing = failingWorstFirst(report);
    const worst = failing[0];
    if (worst === undefined)
        return isFirstRun(report) ? `Memory gate: ${verdictText({ result: 'fail', entries: report.entries }, 'Memory gate')}` : 'Memory gate failed';
    const more = failing.length > 1 ? ` and ${formatCount(failing.length - 1)} more failing` : '';
    return `Memory gate failed: ${entrySentence(worst)}${more}`;
}

export { failingWorstFirst as a, annotationText as b, failureReason as f };

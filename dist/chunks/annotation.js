import { b as disjointText } from './types.js';
import { r as entrySentence, o as entryReason } from './view.js';
import { k as isFirstRun, v as verdictText, w as worstFirst } from './partition.js';
import { f as formatCount } from './evidence-sources.js';
import { s as shortenName } from './names.js';

function annotationText(e) {
    const { rule, note } = entryReason(e);
    const why = [rule ? `rule ${rule}` : '', note ?? ''].filter(Boolean).join('; ');
    return `${entrySentence(e)}${why ? ` [${why}]` : ''}`;
}
function annotationTitle(e) {
    return `Memory gate: ${shortenName(e.key)} ${e.status}`;
}
function failingWorstFirst(report) {
    return report.entries.filter((e) => e.severity === 'fail').sort(worstFirst);
}
function failureReason(report) {
    const failing = failingWorstFirst(report);
    const worst = failing[0];
    if (report.disjointBaseline?.severity === 'fail')
        return `Memory gate failed: ${disjointText(report.disjointBaseline)}`;
    if (worst === undefined)
        return isFirstRun(report)
            ? `Memory gate: ${verdictText({ result: 'fail', entries: report.entries }, 'Memory gate')}`
            : 'Memory gate failed';
    const more = failing.length > 1 ? ` and ${formatCount(failing.length - 1)} more failing` : '';
    return `Memory gate failed: ${entrySentence(worst)}${more}`;
}

export { failingWorstFirst as a, annotationTitle as b, annotationText as c, failureReason as f };

import { d as FINDING_STATUSES } from './index.js';

function disjointOf(verdicts, config) {
    let baselineKeys = 0;
    let runKeys = 0;
    let baselineFirst;
    let runFirst;
    for (const entry of verdicts) {
        const inBaseline = entry.baseline !== null;
        const inRun = entry.current !== null;
        if (inBaseline && inRun)
            return null;
        if (inBaseline) {
            baselineKeys++;
            baselineFirst ??= entry;
        }
        if (inRun) {
            runKeys++;
            runFirst ??= entry;
        }
    }
    if (baselineFirst === undefined || runFirst === undefined)
        return null;
    return {
        severity: config.onDisjointBaseline,
        baseline: { keys: baselineKeys, first: `${baselineFirst.kind} ${baselineFirst.key}` },
        run: { keys: runKeys, first: `${runFirst.kind} ${runFirst.key}` },
    };
}
function disjointText(d) {
    return (`the baseline shares no key with this run, so nothing was compared (baseline: ${d.baseline.keys} key(s), first ${d.baseline.first}; ` +
        `this run: ${d.run.keys} key(s), first ${d.run.first})`);
}

const VERDICTS_BEFORE_FINDINGS = ['regressed', 'over-budget'];
const VERDICTS_AFTER_FINDINGS = ['new', 'missing', 'improved', 'ignored', 'pass'];

const STATUSES = [
    ...VERDICTS_BEFORE_FINDINGS,
    ...FINDING_STATUSES,
    ...VERDICTS_AFTER_FINDINGS,
];

export { STATUSES as S, VERDICTS_BEFORE_FINDINGS as V, VERDICTS_AFTER_FINDINGS as a, disjointText as b, disjointOf as d };

import { b as SECTIONS, m as metricsOf, k as keysOf, c as compareKeys, v as valueOf, f as formatCount, d as formatBytes } from './evidence-sources.js';
import { S as STATUSES, d as disjointOf } from './types.js';
import { F as FINDINGS, s as sectionThresholds, m as matchRule, p as percentChange, e as exceedsTolerance } from './index.js';

function compareSnapshots(baseline, current, config, noise) {
    const band = config.history !== null && noise !== undefined ? { config: config.history, noise } : undefined;
    const verdicts = SECTIONS.filter((d) => d.compared !== false).flatMap((declaration) => compareSection(declaration, baseline, current, config, band));
    const findings = FINDINGS.flatMap((finding) => finding.assess({ baseline, current, config }));
    const entries = withFindings(verdicts, findings);
    const byStatus = new Map();
    let failed = false;
    for (let i = 0; i < entries.length; i++) {
        const entry = entries[i];
        byStatus.set(entry.status, (byStatus.get(entry.status) ?? 0) + 1);
        if (entry.severity === 'fail')
            failed = true;
    }
    const counts = {};
    for (const status of STATUSES)
        counts[status] = 0;
    for (const [status, n] of byStatus)
        counts[status] = n;
    const disjoint = disjointOf(verdicts, config);
    if (disjoint === null)
        return { result: failed ? 'fail' : 'pass', counts, entries };
    return {
        result: failed || disjoint.severity === 'fail' ? 'fail' : 'pass',
        counts,
        entries,
        disjointBaseline: disjoint,
    };
}
function withFindings(verdicts, findings) {
    if (findings.length === 0)
        return verdicts;
    const byKind = new Map();
    const lists = [];
    for (const finding of findings) {
        let byKey = byKind.get(finding.kind);
        if (byKey === undefined)
            byKind.set(finding.kind, (byKey = new Map()));
        const list = byKey.get(finding.key);
        if (list !== undefined)
            list.push(finding);
        else {
            const made = [finding];
            byKey.set(finding.key, made);
            lists.push(made);
        }
    }
    const out = [];
    let byKey;
    let kind;
    for (let i = 0; i < verdicts.length; i++) {
        const verdict = verdicts[i];
        out.push(verdict);
        if (verdict.kind !== kind) {
            kind = verdict.kind;
            byKey = byKind.get(kind);
        }
        const list = byKey?.get(verdict.key);
        if (list !== undefined && list.length > 0) {
            for (const finding of list)
                out.push(finding);
            list.length = 0;
        }
    }
    for (const list of lists)
        for (const finding of list)
            out.push(finding);
    return out;
}
function compareSection(declaration, baseline, current, config, band) {
    const before = metricsOf(baseline, declaration.name);
    const after = metricsOf(current, declaration.name);
    const value = (metrics, key) => Object.hasOwn(metrics, key) ? valueOf(declaration, metrics[key]) : null;
    const thresholds = sectionThresholds(config, declaration);
    const keys = sortedUnion(keysOf(before), keysOf(after));
    const unit = declaration.unit === 'bytes' ? undefined : declaration.unit;
    const describe = declaration.describe;
    return keys.map((key) => {
        let entry = judge(declaration.kind, key, value(before, key), value(after, key), thresholds, config);
        if (band !== undefined && (entry.status === 'regressed' || entry.status === 'improved'))
            entry = withNoiseBand(entry, thresholds, band, config, unit);
        const withUnit = unit === undefined ? entry : { ...entry, unit };
        if (describe === undefined || withUnit.note !== undefined)
            return withUnit;
        const metric = Object.hasOwn(after, key) ? after[key] : before[key];
        const was = Object.hasOwn(after, key) && Object.hasOwn(before, key) ? before[key] : undefined;
        return metric === undefined ? withUnit : { ...withUnit, note: describe(key, metric, was) };
    });
}
function withNoiseBand(entry, thresholds, band, config, unit) {
    const { window, minPoints, ceiling } = band.config;
    const baseline = entry.baseline;
    const change = Math.abs(entry.delta);
    const sample = band.noise(entry.kind, entry.key, window);
    const amount = (v) => (unit === 'count' ? formatCount(v) : formatBytes(v));
    const share = (v) => baseline === 0 ? '' : ` (${((v / Math.abs(baseline)) * 100).toFixed(1)}% of the baseline)`;
    if (sample === undefined || sample.points < minPoints) {
        const points = sample?.points ?? 0;
        return banded(entry, entry.status, entry.severity, `The noise band needs ${minPoints} values of this key on the default branch and the history has ${points}: the configured tolerance applied.`, { applied: 'tolerance', points, spread: sample?.spread ?? null });
    }
    const cap = allowance(ceiling, baseline);
    const width = Math.min(sample.spread, cap);
    const capped = sample.spread > cap ? `, capped at the ceiling ${amount(cap)}` : '';
    const spread = `the last ${sample.points} values on the default branch spread ${sample.clamped === true ? `more than ${amount(sample.spread)} (2^53 − 1, where the figure is clamped)` : `${amount(sample.spread)}${share(sample.spread)}`}${capped}`;
    const rule = matchRule(thresholds.rules, entry.key);
    if (change <= width) {
        const status = 'pass';
        return banded(entry, status, severityOf(status, config), `Within the noise band: ${spread}, wider than the tolerance; a change of ${amount(change)} is no news.`, { applied: 'band', points: sample.points, spread: sample.spread });
    }
    const tolerance = rule?.tolerance ?? thresholds.tolerance;
    if (width > allowance(tolerance, baseline)) {
        return banded(entry, entry.status, entry.severity, `Beyond the noise band: ${spread}, and the change is ${amount(change)}.`, {
            applied: 'band',
            points: sample.points,
            spread: sample.spread,
        });
    }
    return banded(entry, entry.status, entry.severity, `The configured tolerance applied: ${spread}, less than it allows.`, {
        applied: 'tolerance',
        points: sample.points,
        spread: sample.spread,
    });
}
function banded(entry, status, severity, note, noise) {
    if (entry.limit !== undefined ||
        entry.capacity !== undefined ||
        entry.note !== undefined ||
        entry.noise !== undefined)
        return { ...entry, status, severity, note, noise };
    const { kind, key, baseline, current, delta, percent, rule } = entry;
    if (entry.unit === undefined)
        return { kind, key, baseline, current, delta, percent, status, severity, rule, note, noise };
    return { kind, key, baseline, current, delta, percent, status, severity, rule, unit: entry.unit, note, noise };
}
function allowance(tolerance, baseline) {
    const bytes = tolerance.bytes ?? 0;
    const percent = tolerance.percent !== undefined && baseline !== 0 ? (Math.abs(baseline) * tolerance.percent) / 100 : 0;
    return Math.max(bytes, percent);
}
function sortedUnion(before, after) {
    if (sameKeys(before, after) && isSorted(before))
        return [...before];
    if (!isSorted(before) || !isSorted(after))
        return [...new Set([...before, ...after])].sort(compareKeys);
    const keys = [];
    const seen = new Set(before);
    let i = 0;
    let j = 0;
    while (i < before.length || j < after.length) {
        if (j < after.length && seen.has(after[j])) {
            j++;
            continue;
        }
        if (j >= after.length || (i < before.length && compareKeys(before[i], after[j]) <= 0))
            keys.push(before[i++]);
        else
            keys.push(after[j++]);
    }
    return keys;
}
function sameKeys(a, b) {
    if (a.length !== b.length)
        return false;
    for (let i = 0; i < a.length; i++)
        if (a[i] !== b[i])
            return false;
    return true;
}
function isSorted(keys) {
    for (let i = 1; i < keys.length; i++)
        if (compareKeys(keys[i - 1], keys[i]) > 0)
            return false;
    return true;
}
function judge(kind, key, baseline, current, thresholds, config) {
    const rule = matchRule(thresholds.rules, key);
    const delta = baseline !== null && current !== null ? current - baseline : null;
    const status = statusOf(rule, baseline, current, delta, thresholds);
    return {
        kind,
        key,
        baseline,
        current,
        delta,
        percent: percentChange(baseline, current),
        status,
        severity: severityOf(status, config),
        rule: rule?.match ?? null,
    };
}
function statusOf(rule, baseline, current, delta, thresholds) {
    if (rule?.ignore === true)
        return 'ignored';
    if (rule?.budget !== undefined && current !== null && current > rule.budget)
        return 'over-budget';
    if (baseline === null)
        return 'new';
    if (current === null || delta === null)
        return 'missing';
    const tolerance = rule?.tolerance ?? thresholds.tolerance;
    if (exceedsTolerance(delta, baseline, tolerance))
        return 'regressed';
    if (exceedsTolerance(-delta, baseline, tolerance))
        return 'improved';
    return 'pass';
}
function severityOf(status, config) {
    switch (status) {
        case 'new':
            return policySeverity(config.onNew);
        case 'missing':
            return policySeverity(config.onMissing);
        case 'over-budget':
        case 'regressed':
            return 'fail';
        case 'improved':
            return config.failOnImprovement ? 'fail' : 'ok';
        default:
            return 'ok';
    }
}
function policySeverity(policy) {
    return policy === 'ignore' ? 'ok' : policy;
}

export { withNoiseBand as a, compareSnapshots as c, judge as j, withFindings as w };

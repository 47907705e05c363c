function runEnvironmentOf(meta) {
    const nodes = Object.entries(meta?.nodes ?? {}).filter(([, node]) => Object.keys(node.environment).length > 0);
    return nodes.length === 0 ? undefined : Object.fromEntries(nodes.map(([name, node]) => [name, node.environment]));
}
const DEFAULT_ENVIRONMENT_POLICY = { onChange: 'warn', ignore: [] };
const LABELS = {
    cann: 'CANN toolkit',
    driver: 'driver',
    firmware: 'firmware',
    chip: 'chip',
    torch: 'torch',
    torch_npu: 'torch_npu',
};
function environmentLabel(item) {
    return Object.hasOwn(LABELS, item) ? LABELS[item] : item;
}
function itemValue(node, item) {
    return Object.hasOwn(node, item) ? node[item] : undefined;
}
const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
function itemsOf(environment, ignore) {
    const items = new Set();
    for (const node of Object.values(environment))
        for (const item of Object.keys(node))
            if (!ignore.has(item))
                items.add(item);
    return [...items].sort(byText);
}
function runValue(environment, item) {
    const values = new Set();
    let unset = false;
    for (const node of Object.values(environment)) {
        const value = itemValue(node, item);
        if (value === undefined)
            unset = true;
        else
            values.add(value);
    }
    if (values.size === 0)
        return null;
    const sorted = [...values].sort(byText);
    return unset ? [...sorted, '(unset)'].join(' | ') : sorted.join(' | ');
}
function compareEnvironments(baseline, current, policy = DEFAULT_ENVIRONMENT_POLICY) {
    const severity = policy.onChange === 'fail' ? 'fail' : policy.onChange === 'warn' ? 'warn' : 'ok';
    if (policy.onChange === 'ignore' || current === undefined || Object.keys(current).length === 0)
        return { changes: [], splits: [], severity };
    const ignore = new Set(policy.ignore);
    const changes = [];
    if (baseline !== undefined && Object.keys(baseline).length > 0) {
        const items = new Set([...itemsOf(baseline, ignore), ...itemsOf(current, ignore)]);
        for (const item of [...items].sort(byText)) {
            const before = runValue(baseline, item);
            const after = runValue(current, item);
            if (before !== after)
                changes.push({ item, baseline: before, current: after });
        }
    }
    const splits = [];
    const nodes = Object.keys(current).sort(byText);
    for (const item of itemsOf(current, ignore)) {
        const groups = new Map();
        for (const node of nodes) {
            const value = itemValue(current[node], item) ?? null;
            groups.set(value, [...(groups.get(value) ?? []), node]);
        }
        if (groups.size > 1) {
            const values = [...groups].map(([value, names]) => ({ value, nodes: names }));
            values.sort((a, b) => b.nodes.length - a.nodes.length || byText(a.value ?? '', b.value ?? ''));
            splits.push({ item, values });
        }
    }
    return { changes, splits, severity };
}
function hasEnvironmentFindings(findings) {
    return (findings !== undefined && findings.severity !== 'ok' && (findings.changes.length > 0 || findings.splits.length > 0));
}
function describeChanges(changes) {
    return changes
        .map((c) => `${environmentLabel(c.item)} ${c.baseline ?? '(unset)'} → ${c.current ?? '(unset)'}`)
        .join('; ');
}
const GROWTH = new Set(['regressed', 'over-budget']);
function applyEnvironment(report, findings) {
    if (!hasEnvironmentFindings(findings))
        return report;
    const across = findings.changes.length > 0
        ? `Across the environment change since the baseline (${describeChanges(findings.changes)}).`
        : null;
    const entries = across
        ? report.entries.map((e) => GROWTH.has(e.status) ? { ...e, note: e.note ? `${e.note} ${across}` : across } : e)
        : report.entries;
    const result = findings.severity === 'fail' ? 'fail' : report.result;
    return { ...report, entries, result, environment: findings };
}

function median(values) {
    const sorted = Float64Array.from(values).sort();
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1
        ? sorted[mid]
        : (sorted[mid - 1] + sorted[mid]) / 2;
}

export { DEFAULT_ENVIRONMENT_POLICY as D, applyEnvironment as a, runValue as b, compareEnvironments as c, environmentLabel as e, hasEnvironmentFindings as h, median as m, runEnvironmentOf as r };

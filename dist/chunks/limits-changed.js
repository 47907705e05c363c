import { d as formatBytes, c as compareKeys } from './evidence-sources.js';
import { valueOf } from './baseline-changes.js';
import { c as codeSpan, t as tableCodeSpan } from './escape.js';
import './errors.js';
import './text-layout.js';
import './names.js';
import 'node:crypto';

function baselineLimitChanges(base, head) {
    const keys = new Set();
    for (const side of [base, head])
        if (side !== null)
            for (const metrics of Object.values(side.sections))
                for (const key of Object.keys(metrics ?? {}))
                    keys.add(key);
    const changes = [];
    for (const key of [...keys].sort(compareKeys)) {
        const before = valueOf(base, key);
        const after = valueOf(head, key);
        if (before !== after)
            changes.push({ source: 'baseline', key, before, after });
    }
    return changes;
}
function configLimitChanges(base, head) {
    const { sections: baseSections, ...baseRest } = base;
    const { sections: headSections, ...headRest } = head;
    const before = leaves({ ...baseSections, ...baseRest });
    const after = leaves({ ...headSections, ...headRest });
    const changes = [];
    for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
        const b = before.get(key) ?? null;
        const a = after.get(key) ?? null;
        if (b !== a)
            changes.push({ source: 'config', key, before: b, after: a });
    }
    return changes;
}
function leaves(root) {
    const out = new Map();
    const stack = [['', root]];
    while (stack.length > 0) {
        const [at, value] = stack.pop();
        if (value !== null && typeof value === 'object') {
            for (const [k, v] of Object.entries(value))
                stack.push([at === '' ? k : Array.isArray(value) ? `${at}[${k}]` : `${at}.${k}`, v]);
        }
        else if (value !== undefined) {
            out.set(at, value);
        }
    }
    return out;
}
const MAX_ROWS = 40;
const PULL_REQUEST = {
    short: 'PR',
    long: 'pull request',
    labelPermission: '`pull-requests: write`',
};
function renderLimitsChanged(used, words = PULL_REQUEST) {
    const { short, long } = words;
    const base = codeSpan(used.baseSha.slice(0, 12));
    const label = codeSpan(used.label);
    if (used.changes.length === 0) {
        const limits = `Limits: the baseline and config of the base commit ${base}; this ${long} does not change them.`;
        return used.labelNotCounted === undefined
            ? limits
            : `${limits} ${labelNotCountedText(used.labelNotCounted, used.label, words)}`;
    }
    const lines = [`#### ⚠️ Limits changed by this ${short} (${used.changes.length})`, ''];
    lines.push(used.from === 'pull-request'
        ? `**This ${long}'s own limits were used**: it carries the label ${label}, which only maintainers can set. Without it, the gate uses those of the base commit ${base}.`
        : used.labelNotCounted !== undefined
            ? `**These changes were not used**: ${labelNotCountedText(used.labelNotCounted, used.label, words)} The gate ran against the baseline and config of the base commit ${base}.`
            : `**These changes were not used**: the gate ran against the baseline and config of the base commit ${base}. To gate with them, a maintainer (triage or write access) reviews them and adds the label ${label}.`, '', `| Limit | Key | Base | This ${short} | Change |`, '|---|---|--:|--:|--:|');
    for (const change of used.changes.slice(0, MAX_ROWS)) {
        lines.push(`| ${change.source} | ${tableCodeSpan(change.key)} | ${shown(change, change.before)} | ${shown(change, change.after)} | ${ratio(change)} |`);
    }
    if (used.changes.length > MAX_ROWS)
        lines.push('', `…and ${used.changes.length - MAX_ROWS} more: see the ${long}'s diff of the baseline and config.`);
    return lines.join('\n');
}
function labelNotCountedText(why, labelName, words = PULL_REQUEST) {
    const { long } = words;
    const label = codeSpan(labelName);
    const files = why.files.map(codeSpan).join(' and ');
    const since = codeSpan(why.since.slice(0, 12));
    const at = codeSpan(why.at.slice(0, 12));
    const reason = why.how === 'push'
        ? `the label ${label} was set before the push ${since} → ${at}, which changes ${files}, so no maintainer has reviewed these limits.`
        : why.how === 'label'
            ? `the label ${label} was set when the ${long}'s head was ${since}; ${at}${why.runId !== undefined ? ` (the head of run ${why.runId})` : ''} changes ${files} since, so no maintainer has reviewed these limits.`
            : `the label ${label} is on this ${long}, but which limits a maintainer saw cannot be told (${why.unknown ?? 'no record'}), so it does not count.`;
    const removal = why.removed
        ? 'The label was removed: a maintainer reviews the changes and sets it again.'
        : `The token cannot remove the label (it needs ${words.labelPermission}): a maintainer removes it and sets it again after reviewing the changes.`;
    return `${reason} ${removal}`;
}
function shown(change, value) {
    if (value === null)
        return 'absent';
    if (change.source === 'baseline' && typeof value === 'number')
        return formatBytes(value);
    return tableCodeSpan(JSON.stringify(value));
}
function ratio(change) {
    const { before, after } = change;
    if (typeof before !== 'number' || typeof after !== 'number' || before === 0)
        return '';
    return `×${(after / before).toFixed(2)}`;
}

export { PULL_REQUEST, baselineLimitChanges, configLimitChanges, renderLimitsChanged };

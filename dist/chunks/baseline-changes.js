import { a as SECTIONS, v as valueOf$1 } from './snapshot.js';
import { b as formatDelta, a as formatBytes } from './units.js';
import { t as tableCodeSpan } from './escape.js';
import './series.js';
import './errors.js';
import 'node:crypto';

function valueOf(side, key) {
    if (side === null)
        return null;
    for (const declaration of SECTIONS) {
        const metrics = side.sections[declaration.name];
        if (metrics !== undefined && Object.hasOwn(metrics, key))
            return valueOf$1(declaration, metrics[key]);
    }
    return null;
}
function summarizeBaselineChanges(changes) {
    return (`${changes.added.length} added, ${changes.changed.length} changed, ` +
        `${changes.kept.length} kept (absent from this run), ${changes.pruned.length} pruned, ${changes.unchanged} unchanged`);
}
function renderBaselineChanges(before, after, changes, maxChars = 60_000) {
    const lines = [`### Memory baseline update`, '', summarizeBaselineChanges(changes), ''];
    const rows = [
        ...changes.added.map((k) => ['added', k]),
        ...changes.changed.map((k) => ['changed', k]),
        ...changes.pruned.map((k) => ['pruned', k]),
        ...changes.kept.map((k) => ['kept', k]),
    ];
    if (rows.length === 0)
        return [...lines, 'The new baseline holds the same values as the old one.', ''].join('\n');
    lines.push('| change | key | before | after | Δ |', '|---|---|---:|---:|---:|');
    const footer = changes.kept.length > 0
        ? ['', '_Kept_ keys were not produced by this run (a rank that failed to upload, say) and keep their old values; update with `prune` to drop them.']
        : [];
    let budget = maxChars - lines.join('\n').length - footer.join('\n').length - 100;
    let shown = 0;
    for (const [change, key] of rows) {
        const old = valueOf(before, key);
        const now = change === 'pruned' ? null : valueOf(after, key);
        const delta = old !== null && now !== null ? formatDelta(now - old) : '';
        const row = `| ${change} | ${tableCodeSpan(key)} | ${old === null ? '' : formatBytes(old)} | ${now === null ? '' : formatBytes(now)} | ${delta} |`;
        if (row.length + 1 > budget)
            break;
        budget -= row.length + 1;
        lines.push(row);
        shown++;
    }
    if (shown < rows.length)
        lines.push('', `…and ${rows.length - shown} more keys: see the baseline file's diff.`);
    lines.push(...footer);
    return `${lines.join('\n')}\n`;
}

export { renderBaselineChanges, summarizeBaselineChanges, valueOf };

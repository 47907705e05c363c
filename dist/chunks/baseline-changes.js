import { V as formatDelta, d as formatBytes, b as SECTIONS, v as valueOf$1 } from './evidence-sources.js';
import { t as tableCodeSpan } from './escape.js';
import { r as replaceControlCharacters } from './errors.js';
import { w as wrap, d as displayWidth, t as truncateMiddle } from './text-layout.js';
import './names.js';
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
        ? [
            '',
            '_Kept_ keys were not produced by this run (a rank that failed to upload, say) and keep their old values; update with `prune` to drop them.',
        ]
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
const TERMINAL_ROWS = 10;
function renderBaselineChangesTerminal(file, before, after, changes, width) {
    const rows = [
        ...changes.added.map((key) => ({ change: 'added', key, old: null, now: valueOf(after, key) })),
        ...changes.changed.map((key) => ({ change: 'changed', key, old: valueOf(before, key), now: valueOf(after, key) })),
        ...changes.pruned.map((key) => ({ change: 'pruned', key, old: valueOf(before, key), now: null })),
    ].map((r) => ({ ...r, size: Math.abs((r.now ?? 0) - (r.old ?? 0)) }));
    rows.sort((a, b) => b.size - a.size || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const lines = [...wrap(`wrote ${replaceControlCharacters(file)}:`, width), ...wrap(summarizeBaselineChanges(changes), width)];
    const listed = rows.slice(0, TERMINAL_ROWS);
    if (listed.length > 0) {
        lines.push(rows.length > listed.length ? `Largest changes (${listed.length} of ${rows.length}):` : 'Changes:');
        for (const r of listed) {
            const values = r.change === 'added'
                ? formatBytes(r.now ?? 0)
                : r.change === 'pruned'
                    ? `${formatBytes(r.old ?? 0)} dropped`
                    : `${formatBytes(r.old ?? 0)} → ${formatBytes(r.now ?? 0)} (${formatDelta((r.now ?? 0) - (r.old ?? 0))})`;
            const head = `  ${r.change.padEnd(9)}`;
            const room = Math.max(8, width - displayWidth(head) - displayWidth(values) - 2);
            lines.push(`${head}${truncateMiddle(replaceControlCharacters(r.key), room)}  ${values}`);
        }
        if (rows.length > listed.length)
            lines.push(`…and ${rows.length - listed.length} more: git diff ${replaceControlCharacters(file)} lists every key`);
    }
    return `${lines.join('\n')}\n`;
}

export { renderBaselineChanges, renderBaselineChangesTerminal, valueOf };

import { w as wrap, M as MIN_FLEX_WIDTH, a as alignedTable, c as clip, G as GAP, d as displayWidth } from './text-layout.js';
import { r as replaceControlCharacters } from './errors.js';
import { b as SECTIONS, m as metricsOf, c as compareKeys, f as formatCount, h as hasNoMetrics, V as formatDelta, d as formatBytes } from './evidence-sources.js';
import { p as plural } from './partition.js';
import './types.js';
import './index.js';
import './limits.js';
import 'node:fs';
import 'node:fs/promises';
import 'node:path';
import './_commonjsHelpers.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './roll-up.js';
import './oom-cause.js';
import './keys.js';
import './escape.js';
import './names.js';
import 'node:crypto';

function renderSnapshotTable(snapshot, width) {
    const lines = [];
    for (const declaration of SECTIONS) {
        const metrics = Object.entries(metricsOf(snapshot, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]));
        if (metrics.length === 0) {
            if (declaration.name === 'modules' || declaration.name === 'kernels')
                lines.push(`${declaration.title}: none`, '');
            continue;
        }
        lines.push(`${declaration.title} (${formatCount(metrics.length)})`);
        if (declaration.tableNote !== undefined)
            lines.push(...(width === undefined ? [declaration.tableNote] : wrap(declaration.tableNote, width)));
        const others = Object.keys(declaration.fields).filter((f) => f !== declaration.value);
        const columns = [
            { header: 'KEY', align: 'left' },
            { header: declaration.value.toUpperCase(), align: 'right' },
            { header: 'EXACT', align: 'right' },
            ...others.map((f) => ({ header: f.toUpperCase(), align: isText(declaration, f) ? 'left' : 'right' })),
        ];
        const rows = metrics.map(([key, metric]) => [
            { text: shown(key) },
            { text: fieldText(declaration, declaration.value, metric[declaration.value]) },
            { text: String(metric[declaration.value]) },
            ...others.map((f) => ({ text: fieldText(declaration, f, metric[f]) })),
        ]);
        let kept = columns.length;
        if (width !== undefined) {
            const cellWidth = (i) => rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(columns[i]?.header ?? ''));
            const need = (n) => Array.from({ length: n - 1 }, (_, i) => cellWidth(i + 1) + GAP.length).reduce((a, b) => a + b, 0);
            while (kept > 2 && need(kept) + MIN_FLEX_WIDTH > width)
                kept--;
        }
        const table = alignedTable(columns.slice(0, kept), rows.map((r) => r.slice(0, kept)), { flexColumn: 0, width });
        lines.push(...(width === undefined ? table : table.map((line) => clip(line, width))));
        if (kept < columns.length) {
            const left = columns
                .slice(kept)
                .map((c) => c.header)
                .join(', ');
            lines.push(...wrap(`Left out to fit ${width} columns: ${left} (parse --json has every field).`, width ?? 80));
        }
        lines.push('');
    }
    if (lines.length > 0 && lines[lines.length - 1] === '')
        lines.pop();
    const { files, records, skipped, allocFailures } = snapshot.meta;
    const devices = Object.entries(allocFailures);
    const failing = devices.filter(([, n]) => n > 0);
    const failures = failing.length > 0
        ? `${failing
            .slice(0, 8)
            .map(([d, n]) => `${shown(d)} ${formatCount(n)}`)
            .join(', ')}${failing.length > 8 ? ` and ${formatCount(failing.length - 8)} more device(s)` : ''}`
        : devices.length > 0
            ? `none on ${plural(devices.length, 'device')}`
            : hasNoMetrics(snapshot)
                ? 'none (no device seen)'
                : 'none';
    const meta = `${plural(files, 'file')}, ${plural(records, 'record')}, ${formatCount(skipped)} skipped; alloc failures: ${failures}`;
    lines.push('', ...(width === undefined ? [meta] : wrap(meta, width)));
    return `${lines.join('\n')}\n`;
}
function shown(text) {
    return replaceControlCharacters(text);
}
function isText(declaration, field) {
    const type = declaration.fields[field]?.type;
    return type === 'string' || type === 'stringOrNull';
}
function fieldText(declaration, field, value) {
    if (value === null || value === undefined)
        return '-';
    if (typeof value === 'string')
        return shown(value);
    switch (declaration.fields[field]?.type) {
        case 'bytes':
        case 'bytesOrNull':
            return formatBytes(value);
        case 'signedBytes':
            return formatDelta(value);
        default:
            return String(value);
    }
}

export { renderSnapshotTable };

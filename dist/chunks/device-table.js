import { e as environmentLabel } from './roll-up.js';
import { f as formatCount, d as formatBytes, s as sectionOfKind, U as UNTRACED_NOTE, b as SECTIONS, c as compareKeys, I as formatDelta } from './evidence-sources.js';
import { L as splitOf } from './groups.js';

const SPARK_BLOCKS = '▁▂▃▄▅▆▇█';
const SPARK_GAP = '·';
function sparkline(values, min, max) {
    let out = '';
    for (const v of values) {
        if (v === null)
            out += SPARK_GAP;
        else if (max === min)
            out += SPARK_BLOCKS[3];
        else
            out += SPARK_BLOCKS[Math.min(7, Math.floor(((v - min) / (max - min)) * 8))];
    }
    return out;
}
function trendValue(value, unit) {
    return unit === 'count' ? formatCount(value) : formatBytes(value);
}
function trendRange(trend, unit) {
    if (trend.min === trend.max)
        return trendValue(trend.min, unit);
    const lo = trendValue(trend.min, unit);
    const hi = trendValue(trend.max, unit);
    return lo === hi ? `${lo}, spread ${trendValue(trend.max - trend.min, unit)}` : `${lo} – ${hi}`;
}
function trendSpan(trend) {
    const n = trend.recent.length;
    return `${formatCount(n)} ${n === 1 ? 'run' : 'runs'}`;
}
function shortSha(sha) {
    return sha.slice(0, 7);
}
function runsAgo(step) {
    return step.runsAgo === 0
        ? 'the latest run'
        : `${formatCount(step.runsAgo)} ${step.runsAgo === 1 ? 'run' : 'runs'} ago`;
}
function stepContext(step, value = (t) => t, label = (t) => t) {
    const parts = [];
    if (step.environment.length > 0) {
        const changes = step.environment.map((c) => `${label(environmentLabel(c.item))} ${c.baseline === null ? '(unset)' : value(c.baseline)} → ${c.current === null ? '(unset)' : value(c.current)}`);
        parts.push(`${changes.join('; ')} at the same run`);
    }
    if (step.baselineChanged)
        parts.push('the baseline changed at the same run');
    return parts.length === 0 ? null : parts.join('; ');
}
function stepLevels(step, unit) {
    return `${trendValue(step.before, unit)} → ${trendValue(step.after, unit)}`;
}

const ALL_DEVICES_UP_TO = 16;
const MAX_DEVICE_ROWS = 32;
function deviceTable(entries) {
    const byDevice = new Map();
    const row = (device) => {
        let r = byDevice.get(device);
        if (r === undefined)
            byDevice.set(device, (r = {
                device,
                sums: new Map(),
                figures: new Map(),
                capacity: null,
                headroom: null,
                flagged: false,
                changed: false,
                dumpTime: false,
            }));
        return r;
    };
    const seen = new Set();
    for (const entry of entries) {
        const { device } = splitOf(entry);
        if (device === null)
            continue;
        const r = row(device);
        if (entry.severity !== 'ok')
            r.flagged = true;
        if (entry.capacity !== undefined && entry.current !== null) {
            r.capacity = entry.capacity;
            r.headroom = entry.capacity - entry.current;
        }
        const declaration = sectionOfKind(entry.kind);
        if (declaration === undefined || declaration.unit !== 'bytes' || entry.unit === 'count')
            continue;
        const id = `${entry.kind}\u0000${entry.key}`;
        if (seen.has(id))
            continue;
        seen.add(id);
        if (declaration.deviceRow !== undefined) {
            const figure = figureOf(declaration, entry.key);
            if (figure !== null)
                r.figures.set(`${declaration.name}/${figure}`, { baseline: entry.baseline, current: entry.current });
            if (figure !== null && entry.note?.startsWith(UNTRACED_NOTE) === true)
                r.dumpTime = true;
            continue;
        }
        let sum = r.sums.get(entry.kind);
        if (sum === undefined)
            r.sums.set(entry.kind, (sum = { baseline: 0, current: 0 }));
        sum.baseline += entry.baseline ?? 0;
        sum.current += entry.current ?? 0;
    }
    if (byDevice.size === 0)
        return null;
    const all = [...byDevice.values()];
    for (const r of all)
        r.changed =
            [...r.sums.values()].some((s) => s.current !== s.baseline) ||
                [...r.figures.values()].some((f) => f.current !== f.baseline);
    const present = new Set(all.flatMap((r) => [...r.sums.keys()]));
    const kinds = SECTIONS.map((s) => s.kind).filter((k) => present.has(k));
    const { figureColumns, figureNotes } = figureColumnsOf(new Set(all.flatMap((r) => [...r.figures.keys()])));
    if (all.some((r) => r.dumpTime))
        figureNotes.push(DUMP_TIME_NOTE);
    if (kinds.length === 0 && figureColumns.length === 0 && all.every((r) => r.capacity === null))
        return null;
    all.sort((a, b) => compareKeys(a.device, b.device));
    const columns = { kinds, figureColumns, figureNotes };
    if (all.length <= ALL_DEVICES_UP_TO)
        return { ...columns, rows: all, rest: null, total: all.length };
    const change = (r) => [...r.sums.values()].reduce((s, v) => s + Math.abs(v.current - v.baseline), 0);
    const worth = all.filter((r) => r.flagged || r.changed);
    worth.sort((a, b) => Number(b.flagged) - Number(a.flagged) || change(b) - change(a) || compareKeys(a.device, b.device));
    const rows = worth.slice(0, MAX_DEVICE_ROWS).sort((a, b) => compareKeys(a.device, b.device));
    const hidden = all.length - rows.length;
    if (hidden === 0)
        return { ...columns, rows, rest: null, total: all.length };
    const hiddenChanged = worth.length - rows.length;
    const unchanged = all.length - worth.length;
    const parts = [];
    if (hiddenChanged > 0) {
        const deltas = worth
            .slice(MAX_DEVICE_ROWS)
            .map((r) => [...r.sums.values()].reduce((s, v) => s + v.current - v.baseline, 0));
        parts.push(`${formatCount(hiddenChanged)} more changed or flagged (median Δ ${formatDelta(median(deltas))})`);
    }
    if (unchanged > 0)
        parts.push(`${formatCount(unchanged)} unchanged and not flagged`);
    return {
        ...columns,
        rows,
        rest: `${formatCount(all.length)} devices; not listed: ${parts.join(', ')}. The JSON report has every device.`,
        total: all.length,
    };
}
const DUMP_TIME_NOTE = 'dump-time: the device had no trace (the snapshot was taken without _record_memory_history), so its figures are the state at dump time, not peaks: allocated is the live requested bytes then.';
function figureOf(declaration, key) {
    const figure = key.slice(key.lastIndexOf('/') + 1);
    return declaration.deviceRow?.figures.some((f) => f.figure === figure) === true ? figure : null;
}
function figureColumnsOf(present) {
    const figureColumns = [];
    const figureNotes = [];
    for (const declaration of SECTIONS) {
        const row = declaration.deviceRow;
        if (row === undefined || row.figures.length === 0)
            continue;
        const ids = row.figures.map((f) => `${declaration.name}/${f.figure}`);
        if (!ids.some((id) => present.has(id)))
            continue;
        row.figures.forEach((f, i) => figureColumns.push({ id: ids[i], title: f.title }));
        if (row.gap !== undefined && ids.length >= 2) {
            figureColumns.push({
                id: `${declaration.name}/gap`,
                title: row.gap,
                gap: { from: ids[0], to: ids[ids.length - 1] },
            });
        }
        if (row.note !== undefined)
            figureNotes.push(row.note);
    }
    return { figureColumns, figureNotes };
}
function figureValue(row, column) {
    if (column.gap === undefined)
        return row.figures.get(column.id);
    const from = row.figures.get(column.gap.from);
    const to = row.figures.get(column.gap.to);
    if (from === undefined || to === undefined)
        return undefined;
    const minus = (a, b) => (a === null || b === null ? null : a - b);
    return { baseline: minus(to.baseline, from.baseline), current: minus(to.current, from.current) };
}
function gapShare(row, column) {
    if (column.gap === undefined)
        return null;
    const to = row.figures.get(column.gap.to)?.current ?? null;
    const gap = figureValue(row, column)?.current ?? null;
    if (to === null || gap === null || to <= 0)
        return null;
    return `${((gap / to) * 100).toFixed(1)}%`;
}
function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1
        ? sorted[mid]
        : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}
function figureCell(row, column, labelDumpTime = true) {
    const value = figureValue(row, column);
    if (value === undefined)
        return '—';
    const side = (v) => (v === null ? '—' : formatBytes(v));
    if (column.gap === undefined)
        return `${side(value.baseline)} → ${side(value.current)}${row.dumpTime && labelDumpTime ? ' (dump-time)' : ''}`;
    const share = gapShare(row, column);
    return value.current === null ? '—' : `${formatBytes(value.current)}${share === null ? '' : ` (${share})`}`;
}

export { shortSha as a, stepContext as b, stepLevels as c, deviceTable as d, trendSpan as e, figureCell as f, trendValue as g, runsAgo as r, sparkline as s, trendRange as t };

import { s as sectionOfKind, W as UNTRACED_NOTE, b as SECTIONS, c as compareKeys, f as formatCount, T as formatDelta, d as formatBytes } from './evidence-sources.js';
import { s as splitOf, l as devicesPerPattern, n as groupEntries, i as isRollUp, w as worstOf, h as entryReason } from './groups.js';
import { runChanges } from './history-view.js';
import { i as isFirstRun, l as partitionEntries, o as orderEntries, a as countByStatus, m as acceptsBaseline, n as contextBlocks, q as verdictOf } from './partition.js';
import { r as runsAgo, c as shortSha } from './trend-text.js';
import { s as splitDevice } from './keys.js';
import { R as RECENT_POINTS } from './moved.js';
import './thresholds.js';
import './format.js';

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

const MOVED_SHOWN = 10;
function buildReportView(report, options = {}) {
    const firstRun = isFirstRun(report);
    const partition = partitionEntries(report, { orderUnchanged: false });
    const recorded = firstRun ? partition.problems.filter((e) => e.status === 'new') : [];
    const problems = firstRun ? partition.problems.filter((e) => e.status !== 'new') : partition.problems;
    const banded = orderEntries(partition.unchanged.filter((e) => e.status === 'pass' && e.noise?.applied === 'band'));
    const perPattern = devicesPerPattern(report.entries);
    const groups = (entries) => groupEntries(entries, perPattern);
    const trends = options.trends;
    const row = (group) => rowView(group, trends);
    const problemGroups = groups(problems);
    const moved = (listed) => trends === undefined ? null : movedOf(trends, listed);
    let unchanged;
    let notListed;
    let perKey;
    let changes;
    return {
        report,
        outcome: report.result === 'fail' ? 'fail' : firstRun ? 'first' : 'pass',
        verdict: verdictOf(report),
        context: contextBlocks(report),
        acceptsBaseline: acceptsBaseline(report),
        firstRun,
        problems,
        recorded,
        problemsWithRecorded: partition.problems,
        improvements: partition.improvements,
        get unchanged() {
            return (unchanged ??= orderEntries(partition.unchanged));
        },
        get notListed() {
            return (notListed ??= {
                count: partition.improvements.length + partition.unchanged.length,
                byStatus: countByStatus([...partition.improvements, ...partition.unchanged]),
            });
        },
        banded,
        problemRows: problemGroups.map(row),
        get perKey() {
            if (perKey === undefined) {
                const keyGroups = problems.map((e) => groups([e])[0]);
                perKey = { problemRows: keyGroups.map(row), moved: moved(keyGroups) };
            }
            return perKey;
        },
        improvementRows: groups(partition.improvements).map(row),
        bandedRows: groups(banded).map(row),
        groups,
        trends,
        get runChanges() {
            return (changes ??= trends === undefined ? [] : runChanges(trends.points));
        },
        moved: moved(problemGroups),
        devices: deviceTable(report.entries),
    };
}
function unitOfKind(kind) {
    return sectionOfKind(kind)?.unit ?? 'bytes';
}
function rowView(group, trends) {
    const worst = worstOf(group);
    const { rule, note } = entryReason(worst);
    return { group, worst, rolled: isRollUp(group), rule, note, trend: trendOf(group, trends) };
}
function trendOf(group, trends) {
    if (trends === undefined)
        return null;
    const rolled = isRollUp(group);
    const subject = rolled ? group.pattern : worstOf(group).key;
    const trend = rolled ? trends.forPattern(group.kind, group.pattern) : trends.forKey(group.kind, subject);
    if (trend === undefined)
        return null;
    const unit = unitOfKind(group.kind);
    return {
        subject,
        trend,
        unit,
        rolled,
        largestOf: trend.of === 'largest' && !rolled ? splitDevice(subject).group : null,
        step: stepOf(subject, trend, unit, trends),
    };
}
function stepOf(subject, trend, unit, trends) {
    const step = trend.step;
    if (step === null)
        return null;
    return {
        subject,
        largest: trend.of === 'largest',
        step,
        unit,
        sha: shortSha(step.commit),
        url: trends.commitUrl(step.commit),
        ago: runsAgo(step),
    };
}
function movedOf(trends, groups) {
    const listed = new Set(groups.map((g) => `${g.kind}\u0000${isRollUp(g) ? g.pattern : worstOf(g).key}`));
    const moved = trends.moved().filter((m) => !listed.has(`${m.kind}\u0000${m.subject}`));
    if (moved.length === 0)
        return null;
    return {
        shown: moved.slice(0, MOVED_SHOWN).map((m) => ({
            kind: m.kind,
            step: stepOf(m.subject, m.trend, unitOfKind(m.kind), trends),
        })),
        more: Math.max(0, moved.length - MOVED_SHOWN),
    };
}
function baselineCommand(file) {
    return `ascend-memory-gate baseline --out ${file}`;
}

var view = /*#__PURE__*/Object.freeze({
    __proto__: null,
    RECENT_POINTS: RECENT_POINTS,
    baselineCommand: baselineCommand,
    buildReportView: buildReportView,
    trendOf: trendOf
});

export { baselineCommand as a, buildReportView as b, figureCell as f, view as v };

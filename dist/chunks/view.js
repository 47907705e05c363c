import { W as UNTRACED_NOTE, f as formatCount, d as formatBytes, V as formatDelta, a0 as formatFactor, s as sectionOfKind, b as SECTIONS, c as compareKeys } from './evidence-sources.js';
import { m as median$1 } from './roll-up.js';
import { s as shortenName } from './names.js';
import { g as growth, k as isFirstRun, l as partitionEntries, o as orderEntries, h as countByStatus, m as acceptsBaseline, n as contextBlocks, q as verdictOf } from './partition.js';
import { s as splitDevice, f as findDeviceSegment } from './keys.js';
import { runChanges } from './history-view.js';
import { r as runsAgo, c as shortSha } from './trend-text.js';

function isCountEntry(entry) {
    return entry.unit === 'count';
}
function entryNote(entry) {
    return entry.note !== undefined && entry.note !== '' ? entry.note : null;
}
function formatEntryValue(entry, value) {
    return isCountEntry(entry) ? formatCount(value) : formatBytes(value);
}
function formatEntryDelta(entry, delta) {
    if (!isCountEntry(entry))
        return formatDelta(delta);
    return delta > 0 ? `+${formatCount(delta)}` : formatCount(delta);
}
function entryReason(entry) {
    const note = entryNote(entry);
    if (note !== null) {
        const limit = entry.limit !== undefined ? ` (limit ${formatEntryValue(entry, entry.limit)})` : '';
        return { rule: entry.rule, note: `${note}${limit}` };
    }
    return { rule: entry.rule, note: null };
}
function formatShortPercent(percent) {
    const factor = formatFactor(percent);
    if (factor !== null)
        return factor;
    const digits = Math.abs(percent) >= 10 ? 0 : 1;
    const s = percent.toFixed(digits);
    return percent > 0 ? `+${s}%` : `${s}%`;
}
function keepUnits(text) {
    return text.replace(/(\d) (?=[KMGTP]?i?B\b)/g, '$1\u00a0');
}
function formatTransition(entry) {
    const side = (v) => (v === null ? '—' : formatEntryValue(entry, v));
    return `${side(entry.baseline)} → ${side(entry.current)}${entry.note?.startsWith(UNTRACED_NOTE) === true ? ' (dump-time)' : ''}`;
}
function formatChange(entry) {
    if (entry.delta !== null) {
        const delta = formatEntryDelta(entry, entry.delta);
        return entry.percent === null || !Number.isFinite(entry.percent)
            ? delta
            : `${delta} (${formatShortPercent(entry.percent)})`;
    }
    if (entry.baseline === null && entry.current !== null)
        return `${formatEntryDelta(entry, entry.current)} (new)`;
    if (entry.current === null && entry.baseline !== null)
        return `${formatEntryDelta(entry, -entry.baseline)} (gone)`;
    return '—';
}
function entrySentence(entry) {
    const change = formatChange(entry).replace(' (', ', ').replace(/\)$/, '');
    return `${shortenName(entry.key)} ${entry.status}: ${formatTransition(entry)} (${change})`;
}

const splits = new Map();
const MAX_SPLITS = 1 << 20;
function splitOf(entry) {
    let split = splits.get(entry.key);
    if (split === undefined) {
        if (splits.size >= MAX_SPLITS)
            splits.clear();
        splits.set(entry.key, (split = splitDevice(entry.key)));
    }
    return split;
}
function displayPattern(pattern) {
    return pattern === '*' ? 'dev*' : pattern;
}
function isRollUp(group) {
    return group.entries.length > 1;
}
function worstOf(group) {
    return group.entries[0];
}
class PatternCounts {
    all;
    byKind = new Map();
    perEntry;
    constructor(all) {
        this.all = all;
        this.perEntry = new Array(all.length).fill(null);
    }
    get(kind) {
        let counts = this.byKind.get(kind);
        if (counts === undefined)
            this.byKind.set(kind, (counts = this.count(kind)));
        return counts.size > 0 ? counts : undefined;
    }
    countAll() {
        for (let i = 0; i < this.all.length; i++)
            this.get(this.all[i].kind);
    }
    count(kind) {
        const { all, perEntry } = this;
        const byPattern = new Map();
        const at = { start: 0, end: 0 };
        for (let i = 0; i < all.length; i++) {
            const entry = all[i];
            if (entry.kind !== kind)
                continue;
            const key = entry.key;
            if (!findDeviceSegment(key, at))
                continue;
            const group = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
            const device = deviceId(key, at.start + 3, at.end);
            let seen = byPattern.get(group);
            if (seen === undefined)
                byPattern.set(group, (seen = { first: device, more: null, devices: 1, entries: 1 }));
            else {
                seen.entries++;
                if (seen.more !== null)
                    seen.more.add(device);
                else if (device !== seen.first)
                    seen.more = new Set([seen.first, device]);
                seen.devices = seen.more?.size ?? 1;
            }
            perEntry[i] = seen;
        }
        for (const seen of byPattern.values())
            seen.more = null;
        return byPattern;
    }
}
const perPatternOf = new WeakMap();
function patternCounts(all) {
    let counts = perPatternOf.get(all);
    if (counts === undefined)
        perPatternOf.set(all, (counts = new PatternCounts(all)));
    return counts;
}
function devicesPerPattern(all) {
    return patternCounts(all);
}
function patternCountsOf(all) {
    const counts = patternCounts(all);
    counts.countAll();
    return counts.perEntry;
}
function deviceId(key, from, to) {
    if (to - from > 15 || (to - from > 1 && key.charCodeAt(from) === 0x30))
        return key.slice(from, to);
    let n = 0;
    for (let i = from; i < to; i++)
        n = n * 10 + key.charCodeAt(i) - 0x30;
    return n;
}
function groupEntries(entries, perPattern) {
    const classes = new Map();
    const groups = [];
    for (const entry of entries) {
        const { device, group: pattern } = splitOf(entry);
        const classId = `${entry.kind}\u0000${entry.status}\u0000${entry.severity}`;
        let byPattern = classes.get(classId);
        if (byPattern === undefined)
            classes.set(classId, (byPattern = { withDevice: new Map(), withoutDevice: new Map() }));
        const map = device === null ? byPattern.withoutDevice : byPattern.withDevice;
        const id = device === null ? entry.key : pattern;
        let group = map.get(id);
        if (group === undefined) {
            group = {
                kind: entry.kind,
                status: entry.status,
                severity: entry.severity,
                pattern: device === null ? entry.key : displayPattern(pattern),
                entries: [],
                ofDevices: device === null ? 0 : (perPattern.get(entry.kind)?.get(pattern)?.devices ?? 1),
            };
            map.set(id, group);
            groups.push(group);
        }
        group.entries.push(entry);
    }
    return groups;
}
function deviceOfEntry(entry) {
    return splitOf(entry).device;
}
function medianGrowth(group) {
    return median$1(group.entries.map(growth));
}
function medianPercent(group) {
    const values = group.entries.map((e) => e.percent).filter((p) => p !== null && Number.isFinite(p));
    return values.length === 0 ? null : median$1(values);
}
function devicesPhrase(group) {
    const n = group.entries.length;
    const of = Math.max(group.ofDevices, n);
    return `${formatCount(n)} of ${formatCount(of)} ${of === 1 ? 'device' : 'devices'}`;
}
function kindTitle(kind) {
    return sectionOfKind(kind)?.title ?? `${kind.charAt(0).toUpperCase()}${kind.slice(1)}s`;
}
function valueRange(group) {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const e of group.entries) {
        const v = e.current ?? e.baseline;
        if (v === null)
            continue;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
    }
    if (!Number.isFinite(lo))
        return '—';
    const worst = worstOf(group);
    return lo === hi ? formatEntryValue(worst, lo) : `${formatEntryValue(worst, lo)} – ${formatEntryValue(worst, hi)}`;
}

const ALL_DEVICES_UP_TO = 16;
const MAX_DEVICE_ROWS = 32;
function deviceTable(entries) {
    const all = deviceRowsOf(entries);
    if (all.length === 0)
        return null;
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
    return { ...columns, ...rowsWorthListing(all), total: all.length };
}
function deviceRowsOf(entries) {
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
    return [...byDevice.values()];
}
function rowsWorthListing(all) {
    const change = (r) => [...r.sums.values()].reduce((s, v) => s + Math.abs(v.current - v.baseline), 0);
    const worth = all.filter((r) => r.flagged || r.changed);
    worth.sort((a, b) => Number(b.flagged) - Number(a.flagged) || change(b) - change(a) || compareKeys(a.device, b.device));
    const rows = worth.slice(0, MAX_DEVICE_ROWS).sort((a, b) => compareKeys(a.device, b.device));
    const hidden = all.length - rows.length;
    if (hidden === 0)
        return { rows, rest: null };
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
        rows,
        rest: `${formatCount(all.length)} devices; not listed: ${parts.join(', ')}. The JSON report has every device.`,
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

export { formatChange as a, baselineCommand as b, deviceOfEntry as c, devicesPerPattern as d, medianPercent as e, formatTransition as f, groupEntries as g, formatShortPercent as h, isRollUp as i, devicesPhrase as j, keepUnits as k, kindTitle as l, medianGrowth as m, figureCell as n, entryReason as o, patternCountsOf as p, isCountEntry as q, entrySentence as r, splitOf as s, buildReportView as t, valueRange as v, worstOf as w };

import { W as UNTRACED_NOTE, a0 as formatFactor, f as formatCount, d as formatBytes, T as formatDelta, s as sectionOfKind } from './evidence-sources.js';
import { m as median } from './roll-up.js';
import { s as shortenName } from './names.js';
import { g as growth } from './partition.js';
import { s as splitDevice, f as findDeviceSegment } from './keys.js';

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
    return median(group.entries.map(growth));
}
function medianPercent(group) {
    const values = group.entries.map((e) => e.percent).filter((p) => p !== null && Number.isFinite(p));
    return values.length === 0 ? null : median(values);
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

export { devicesPhrase as a, medianGrowth as b, formatShortPercent as c, deviceOfEntry as d, formatChange as e, formatTransition as f, keepUnits as g, entryReason as h, isRollUp as i, entrySentence as j, kindTitle as k, devicesPerPattern as l, medianPercent as m, groupEntries as n, isCountEntry as o, patternCountsOf as p, splitOf as s, valueRange as v, worstOf as w };

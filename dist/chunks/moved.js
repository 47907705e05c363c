import { s as sectionOfKind, T as section } from './evidence-sources.js';
import { historyName, ROLLUP_WIDTH } from './format.js';
import { g as groupsOf, B as ByPattern } from './groups.js';
import { f as findDeviceSegment } from './keys.js';

function seriesValues(series) {
    const out = new Array(series.length);
    for (let p = 0; p < series.length; p++) {
        const v = series[p];
        out[p] = Number.isNaN(v) ? null : v;
    }
    return out;
}
function valueOrZero(columns, i, p) {
    if (p < 0)
        return 0;
    const v = columns.at(i, p);
    return Number.isNaN(v) ? 0 : v;
}
function latest(columns, i) {
    const v = columns.latest(i);
    return Number.isNaN(v) ? 0 : v;
}
function sharedSeries(history) {
    return { points: history.points.length, lastLine: history.lines[history.lines.length - 1], largest: new Map() };
}
function stillShared(shared, history) {
    return shared.points === history.points.length && shared.lastLine === history.lines[history.lines.length - 1];
}
class HistorySeries {
    history;
    shared;
    n;
    bounds = { start: 0, end: 0 };
    groupSeries = new Map();
    constructor(history, shared) {
        this.history = history;
        this.shared = shared;
        this.n = history.points.length;
    }
    groups(section) {
        return groupsOf(section.keys);
    }
    section(kind) {
        const declaration = sectionOfKind(kind);
        if (declaration === undefined)
            return undefined;
        const section = this.history.sections.get(declaration.name);
        return section === undefined ? undefined : { name: declaration.name, section };
    }
    ofKeyAt(section, i) {
        const out = new Float64Array(this.n).fill(Number.NaN);
        section.keyColumns.fill(i, out);
        return out;
    }
    largest(name, section, pattern) {
        const id = `${name}\u0000${pattern}`;
        let values = this.shared.largest.get(id);
        if (values === undefined)
            this.shared.largest.set(id, (values = this.foldLargest(section, pattern)));
        return values;
    }
    ofKey(kind, key) {
        const found = this.section(kind);
        if (found === undefined)
            return null;
        const i = found.section.keyIndex.get(historyName(key));
        if (i !== undefined)
            return this.ofKeyAt(found.section, i);
        if (!findDeviceSegment(key, this.bounds))
            return null;
        const { start, end } = this.bounds;
        let byPattern = this.groupSeries.get(found.name);
        if (byPattern === undefined)
            this.groupSeries.set(found.name, (byPattern = new ByPattern()));
        let values = byPattern.get(key, start, end);
        if (values === undefined) {
            values = this.largest(found.name, found.section, `${key.slice(0, start)}*${key.slice(end)}`);
            byPattern.set(key, start, end, values);
        }
        return values;
    }
    foldLargest(section, pattern) {
        const groups = this.groups(section);
        const group = groups.find(pattern);
        const rollup = section.rollupIndex.get(historyName(pattern));
        if (group === undefined && rollup === undefined)
            return null;
        const n = this.n;
        const out = new Float64Array(n).fill(Number.NaN);
        if (group !== undefined)
            groups.members(group, (i) => section.keyColumns.fold(i, out));
        if (rollup !== undefined)
            section.rollupColumns.fold(rollup * ROLLUP_WIDTH + 2, out);
        return out;
    }
}

const RECENT_POINTS = 30;
const MOVED_CANDIDATES = 100;
function findMoved(history, groupsOf, trends) {
    const search = new MovedSearch(history.points.length, MOVED_CANDIDATES);
    for (const [name, section$1] of history.sections)
        search.section(section(name).kind, section$1, groupsOf(section$1));
    const out = [];
    for (const c of search.top.sorted()) {
        const t = c.pattern ? trends.forPattern(c.kind, c.subject) : trends.forKey(c.kind, c.subject);
        if (t?.step != null && t.step.runsAgo < RECENT_POINTS)
            out.push({ kind: c.kind, subject: c.subject, trend: t });
    }
    const change = (m) => Math.abs(m.trend.step.after - m.trend.step.before);
    return out.sort((a, b) => a.trend.step.runsAgo - b.trend.step.runsAgo || change(b) - change(a) || (a.subject < b.subject ? -1 : 1));
}
class MovedSearch {
    top;
    then;
    recent;
    order = 0;
    constructor(n, size) {
        this.then = n - 1 - RECENT_POINTS;
        this.recent = n - RECENT_POINTS;
        this.top = new TopMoved(size);
    }
    section(kind, section, groups) {
        const { keys, keyColumns, rollups } = section;
        const groupOfRollup = new Int32Array(rollups.length).fill(-1);
        const rollupOfGroup = new Int32Array(groups.groups).fill(-1);
        for (let r = 0; r < rollups.length; r++) {
            const g = groups.find(rollups[r]);
            if (g === undefined)
                continue;
            groupOfRollup[r] = g;
            rollupOfGroup[g] = r;
        }
        const lately = [];
        const seen = new Uint8Array(groups.groups);
        for (let i = 0; i < keys.length; i++) {
            if (!keyColumns.changedSince(i, this.recent))
                continue;
            const g = groups.groupOf[i];
            if (g === -1)
                this.offerText(kind, keys[i], false, Math.abs(latest(keyColumns, i) - valueOrZero(keyColumns, i, this.then)));
            else if (seen[g] === 0) {
                seen[g] = 1;
                lately.push(g);
            }
        }
        for (const g of lately) {
            const r = rollupOfGroup[g];
            this.offerGroup(kind, groups, g, this.largestMove(section, groups, g, r));
        }
        for (let r = 0; r < rollups.length; r++) {
            const g = groupOfRollup[r];
            if (g !== -1 && seen[g] === 1)
                continue;
            if (!section.rollupColumns.changedSince(r * ROLLUP_WIDTH + 2, this.recent))
                continue;
            const moved = this.largestMove(section, groups, g, r);
            if (g !== -1)
                this.offerGroup(kind, groups, g, moved);
            else {
                const pattern = rollups[r];
                this.offerText(kind, pattern === '*' ? 'dev*' : pattern, true, moved);
            }
        }
    }
    offerText(kind, subject, pattern, moved) {
        const worst = this.top.worst();
        if (worst === undefined || moved > worst.moved || (moved === worst.moved && subject < worst.subject))
            this.top.offer({ kind, subject, pattern, moved, order: this.order });
        this.order++;
    }
    offerGroup(kind, groups, g, moved) {
        const worst = this.top.worst();
        if (worst === undefined ||
            moved > worst.moved ||
            (moved === worst.moved && groups.compareSubject(g, worst.subject) < 0)) {
            const pattern = groups.pattern(g);
            this.top.offer({ kind, subject: pattern === '*' ? 'dev*' : pattern, pattern: true, moved, order: this.order });
        }
        this.order++;
    }
    largestMove(section, groups, g, r) {
        const { keyColumns, rollupColumns } = section;
        let now = Number.NEGATIVE_INFINITY;
        let before = Number.NEGATIVE_INFINITY;
        if (g !== -1)
            for (let i = groups.first(g); i !== -1; i = groups.nextOf(i)) {
                now = Math.max(now, latest(keyColumns, i));
                before = Math.max(before, valueOrZero(keyColumns, i, this.then));
            }
        if (r !== -1) {
            now = Math.max(now, latest(rollupColumns, r * ROLLUP_WIDTH + 2));
            before = Math.max(before, valueOrZero(rollupColumns, r * ROLLUP_WIDTH + 2, this.then));
        }
        return Math.abs(now - before);
    }
}
function before(a, b) {
    if (a.moved !== b.moved)
        return a.moved > b.moved;
    if (a.subject !== b.subject)
        return a.subject < b.subject;
    return a.order < b.order;
}
class TopMoved {
    size;
    heap = [];
    constructor(size) {
        this.size = size;
    }
    worst() {
        return this.heap.length < this.size ? undefined : this.heap[0];
    }
    offer(c) {
        const heap = this.heap;
        if (heap.length < this.size) {
            heap.push(c);
            let i = heap.length - 1;
            while (i > 0) {
                const parent = (i - 1) >> 1;
                if (!before(heap[parent], c))
                    break;
                heap[i] = heap[parent];
                i = parent;
            }
            heap[i] = c;
            return;
        }
        if (this.size === 0 || !before(c, heap[0]))
            return;
        let i = 0;
        const n = heap.length;
        for (;;) {
            const l = 2 * i + 1;
            if (l >= n)
                break;
            const r = l + 1;
            const later = r < n && before(heap[l], heap[r]) ? r : l;
            if (!before(c, heap[later]))
                break;
            heap[i] = heap[later];
            i = later;
        }
        heap[i] = c;
    }
    sorted() {
        return [...this.heap].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    }
}

export { HistorySeries as H, MOVED_CANDIDATES as M, RECENT_POINTS as R, sharedSeries as a, seriesValues as b, findMoved as f, stillShared as s };

import './thresholds.js';
import { F as section, s as sectionOfKind } from './evidence-sources.js';
import { B as ByPattern, g as groupsOf } from './groups2.js';
import { historyName, ROLLUP_WIDTH, valueAt } from './format.js';
import { e as exceedsTolerance, s as sectionThresholds, m as matchRule } from './index.js';
import { f as findDeviceSegment } from './keys.js';
import 'node:fs/promises';
import 'node:path';
import './errors.js';
import './reader.js';
import './_commonjsHelpers.js';
import 'node:crypto';
import './roll-up.js';
import './limits.js';
import 'node:fs';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './names.js';

const MIN_BEFORE = 2;
const MIN_AFTER = 2;
const LEFT_WINDOW = 5;
function detectStep(values, tolerance) {
    const n = values.length;
    if (n < MIN_BEFORE + MIN_AFTER)
        return null;
    let min = values[0];
    let max = min;
    for (let i = 1; i < n; i++) {
        const v = values[i];
        if (v < min)
            min = v;
        else if (v > max)
            max = v;
    }
    const nearestZero = min <= 0 && max >= 0 ? 0 : Math.abs(min) < Math.abs(max) ? min : max;
    if (!exceedsTolerance(max - min, nearestZero, tolerance))
        return null;
    let suffixMedians;
    for (let c = n - MIN_AFTER; c >= MIN_BEFORE; c--) {
        if (values[c] === values[c - 1])
            continue;
        suffixMedians ??= mediansFromTheEnd(values);
        const after = suffixMedians[c];
        const before = windowMedian(values, Math.max(0, c - LEFT_WINDOW), c);
        if (!exceedsTolerance(Math.abs(after - before), before, tolerance))
            continue;
        const nearer = (v) => {
            const toBefore = Math.abs(v - before);
            const toAfter = Math.abs(v - after);
            return toAfter < toBefore ? 'after' : toBefore < toAfter ? 'before' : 'tie';
        };
        if (nearer(values[c]) !== 'after' || nearer(values[c - 1]) !== 'before')
            continue;
        let strays = 0;
        for (let i = c + 1; i < n; i++)
            if (nearer(values[i]) !== 'after')
                strays++;
        if (strays * 5 > n - c)
            continue;
        return { index: c, before, after };
    }
    return null;
}
const window = new Float64Array(LEFT_WINDOW);
function windowMedian(values, from, to) {
    const k = to - from;
    for (let i = 0; i < k; i++) {
        const v = values[from + i];
        let j = i;
        while (j > 0 && window[j - 1] > v) {
            window[j] = window[j - 1];
            j--;
        }
        window[j] = v;
    }
    const mid = k >> 1;
    return k % 2 === 1 ? window[mid] : (window[mid - 1] + window[mid]) / 2;
}
function mediansFromTheEnd(values) {
    const out = new Float64Array(values.length);
    const lower = new Heap((a, b) => a > b);
    const upper = new Heap((a, b) => a < b);
    for (let c = values.length - 1; c >= 0; c--) {
        const v = values[c];
        if (lower.size === 0 || v <= lower.top())
            lower.push(v);
        else
            upper.push(v);
        if (lower.size > upper.size + 1)
            upper.push(lower.pop());
        else if (upper.size > lower.size)
            lower.push(upper.pop());
        out[c] = lower.size > upper.size ? lower.top() : (lower.top() + upper.top()) / 2;
    }
    return out;
}
class Heap {
    above;
    items = new Float64Array(16);
    size = 0;
    constructor(above) {
        this.above = above;
    }
    top() {
        return this.items[0];
    }
    push(value) {
        if (this.size === this.items.length) {
            const grown = new Float64Array(this.size * 2);
            grown.set(this.items);
            this.items = grown;
        }
        const items = this.items;
        let i = this.size++;
        while (i > 0) {
            const parent = (i - 1) >> 1;
            const p = items[parent];
            if (!this.above(value, p))
                break;
            items[i] = p;
            i = parent;
        }
        items[i] = value;
    }
    pop() {
        const items = this.items;
        const top = items[0];
        const last = items[--this.size];
        const n = this.size;
        let i = 0;
        for (;;) {
            const l = 2 * i + 1;
            if (l >= n)
                break;
            const r = l + 1;
            const child = r < n && this.above(items[r], items[l]) ? r : l;
            if (!this.above(items[child], last))
                break;
            items[i] = items[child];
            i = child;
        }
        if (n > 0)
            items[i] = last;
        return top;
    }
}

const RECENT_POINTS = 30;
const MOVED_CANDIDATES = 100;
function noiseLookup(history) {
    return trendsOf(history).noise;
}
function sharedSeries(history) {
    return {
        points: history.points.length,
        lastLine: history.lines[history.lines.length - 1],
        largest: new Map(),
        samples: new WeakMap(),
    };
}
function trendsOf(history, config = { sections: {} }) {
    return trendsSharing(history, config, sharedSeries(history));
}
function trendsSharing(history, config, shared) {
    const cache = new Map();
    const n = history.points.length;
    const groupsOfSection = (section) => groupsOf(section.keys);
    const toleranceOf = (kind, key) => {
        const declaration = sectionOfKind(kind);
        if (declaration === undefined)
            return {};
        const thresholds = sectionThresholds(config, declaration);
        return matchRule(thresholds.rules, key)?.tolerance ?? thresholds.tolerance;
    };
    const trend = (of, values, tolerance) => {
        const recent = values.slice(-RECENT_POINTS);
        let min = Number.POSITIVE_INFINITY;
        let max = Number.NEGATIVE_INFINITY;
        for (const v of recent) {
            if (v === null)
                continue;
            if (v < min)
                min = v;
            if (v > max)
                max = v;
        }
        if (!Number.isFinite(min))
            return null;
        return { of, values, recent, min, max, step: stepNote(history, values, tolerance) };
    };
    const keyValues = (column) => {
        const out = new Array(n).fill(null);
        for (let i = 0; i < column.at.length; i++) {
            const from = column.at[i];
            const to = i + 1 < column.at.length ? column.at[i + 1] : n;
            out.fill(column.values[i], from, to);
        }
        return out;
    };
    const { largest, samples } = shared;
    const largestValues = (name, section, pattern) => {
        const id = `${name}\u0000${pattern}`;
        let values = largest.get(id);
        if (values === undefined)
            largest.set(id, (values = foldLargest(name, section, pattern)));
        return values;
    };
    const foldLargest = (_name, section, pattern) => {
        const groups = groupsOfSection(section);
        const group = groups.find(pattern);
        const rollup = section.rollupIndex.get(historyName(pattern));
        if (group === undefined && rollup === undefined)
            return null;
        const out = new Array(n).fill(null);
        if (group !== undefined)
            groups.members(group, (i) => foldColumn(out, section.keyColumns[i], n));
        if (rollup !== undefined)
            foldColumn(out, section.rollupColumns[rollup * ROLLUP_WIDTH + 2], n);
        return out;
    };
    const sectionOf = (kind) => {
        const declaration = sectionOfKind(kind);
        if (declaration === undefined)
            return undefined;
        const section = history.sections.get(declaration.name);
        return section === undefined ? undefined : { name: declaration.name, section };
    };
    const forPattern = (kind, pattern) => {
        const id = `p\u0000${kind}\u0000${pattern}`;
        if (cache.has(id))
            return cache.get(id) ?? undefined;
        const found = sectionOf(kind);
        const inHistory = pattern === 'dev*' ? '*' : pattern;
        const values = found === undefined ? null : largestValues(found.name, found.section, inHistory);
        const made = values === null ? null : trend('largest', values, toleranceOf(kind, inHistory));
        cache.set(id, made);
        return made ?? undefined;
    };
    const forKey = (kind, key) => {
        const id = `k\u0000${kind}\u0000${key}`;
        if (cache.has(id))
            return cache.get(id) ?? undefined;
        const found = sectionOf(kind);
        let made = null;
        if (found !== undefined) {
            const i = found.section.keyIndex.get(historyName(key));
            if (i !== undefined)
                made = trend('key', keyValues(found.section.keyColumns[i]), toleranceOf(kind, key));
            else {
                const at = { start: 0, end: 0 };
                if (findDeviceSegment(key, at))
                    made = forPattern(kind, `${key.slice(0, at.start)}*${key.slice(at.end)}`) ?? null;
            }
        }
        cache.set(id, made);
        return made ?? undefined;
    };
    const valuesOfKey = (kind, key) => {
        const found = sectionOf(kind);
        if (found === undefined)
            return null;
        const i = found.section.keyIndex.get(historyName(key));
        if (i !== undefined)
            return keyValues(found.section.keyColumns[i]);
        if (!findDeviceSegment(key, bounds))
            return null;
        const { start, end } = bounds;
        let byPattern = groupSeries.get(found.name);
        if (byPattern === undefined)
            groupSeries.set(found.name, (byPattern = new ByPattern()));
        let values = byPattern.get(key, start, end);
        if (values === undefined) {
            values = largestValues(found.name, found.section, `${key.slice(0, start)}*${key.slice(end)}`);
            byPattern.set(key, start, end, values);
        }
        return values;
    };
    const bounds = { start: 0, end: 0 };
    const groupSeries = new Map();
    const noise = (kind, key, window) => {
        const values = valuesOfKey(kind, key);
        if (values === null)
            return undefined;
        const kept = samples.get(values);
        let sample = kept?.window === window ? kept.sample : undefined;
        if (sample === undefined) {
            let lo = Number.POSITIVE_INFINITY;
            let hi = Number.NEGATIVE_INFINITY;
            let points = 0;
            for (let p = values.length - 1; p >= 0 && points < window; p--) {
                const v = values[p];
                if (v === null)
                    continue;
                points++;
                if (v < lo)
                    lo = v;
                if (v > hi)
                    hi = v;
            }
            const spread = hi - lo;
            sample =
                points === 0
                    ? null
                    : spread > Number.MAX_SAFE_INTEGER
                        ? { spread: Number.MAX_SAFE_INTEGER, points, clamped: true }
                        : { spread, points };
            samples.set(values, { window, sample });
        }
        return sample ?? undefined;
    };
    let movedList;
    const moved = () => (movedList ??= findMoved());
    const findMoved = () => {
        const then = n - 1 - RECENT_POINTS;
        const recent = n - RECENT_POINTS;
        const top = new TopMoved(MOVED_CANDIDATES);
        let order = 0;
        for (const [name, section$1] of history.sections) {
            const kind = section(name).kind;
            const groups = groupsOfSection(section$1);
            const { keys, keyColumns, rollups, rollupColumns } = section$1;
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
                const column = keyColumns[i];
                if (!changedSince(column, recent))
                    continue;
                const g = groups.groupOf[i];
                if (g !== -1) {
                    if (seen[g] === 0) {
                        seen[g] = 1;
                        lately.push(g);
                    }
                    continue;
                }
                const key = keys[i];
                const moved = Math.abs(latest(column) - at(column, then));
                const worst = top.worst();
                if (worst === undefined || moved > worst.moved || (moved === worst.moved && key < worst.subject))
                    top.offer({ kind, subject: key, pattern: false, moved, order });
                order++;
            }
            const largestMove = (g, r) => {
                let now = Number.NEGATIVE_INFINITY;
                let before = Number.NEGATIVE_INFINITY;
                if (g !== -1) {
                    for (let i = groups.first(g); i !== -1; i = groups.nextOf(i)) {
                        const column = keyColumns[i];
                        const a = latest(column);
                        const b = at(column, then);
                        if (a > now)
                            now = a;
                        if (b > before)
                            before = b;
                    }
                }
                if (r !== -1) {
                    const column = rollupColumns[r * ROLLUP_WIDTH + 2];
                    const a = latest(column);
                    const b = at(column, then);
                    if (a > now)
                        now = a;
                    if (b > before)
                        before = b;
                }
                return Math.abs(now - before);
            };
            const offerGroup = (g, r, moved) => {
                const worst = top.worst();
                if (worst === undefined ||
                    moved > worst.moved ||
                    (moved === worst.moved && groups.compareSubject(g, worst.subject) < 0)) {
                    const pattern = groups.pattern(g);
                    top.offer({ kind, subject: pattern === '*' ? 'dev*' : pattern, pattern: true, moved, order });
                }
                order++;
            };
            for (const g of lately)
                offerGroup(g, rollupOfGroup[g], largestMove(g, rollupOfGroup[g]));
            for (let r = 0; r < rollups.length; r++) {
                const g = groupOfRollup[r];
                if (g !== -1 && seen[g] === 1)
                    continue;
                const rollup = rollupColumns[r * ROLLUP_WIDTH + 2];
                if (!changedSince(rollup, recent))
                    continue;
                const moved = largestMove(g, r);
                if (g !== -1)
                    offerGroup(g, r, moved);
                else {
                    const pattern = rollups[r];
                    const subject = pattern === '*' ? 'dev*' : pattern;
                    const worst = top.worst();
                    if (worst === undefined || moved > worst.moved || (moved === worst.moved && subject < worst.subject))
                        top.offer({ kind, subject, pattern: true, moved, order });
                    order++;
                }
            }
        }
        const candidates = top.sorted();
        const out = [];
        for (const c of candidates) {
            const t = c.pattern ? forPattern(c.kind, c.subject) : forKey(c.kind, c.subject);
            if (t?.step != null && t.step.runsAgo < RECENT_POINTS)
                out.push({ kind: c.kind, subject: c.subject, trend: t });
        }
        const change = (m) => Math.abs(m.trend.step.after - m.trend.step.before);
        return out.sort((a, b) => a.trend.step.runsAgo - b.trend.step.runsAgo ||
            change(b) - change(a) ||
            (a.subject < b.subject ? -1 : 1));
    };
    const template = history.header.commitUrl;
    return {
        branch: history.header.branch,
        points: history.points,
        commitUrl: (sha) => template === undefined || !/^[0-9a-f]{4,64}$/.test(sha) ? undefined : template.replaceAll('{sha}', sha),
        forKey,
        forPattern,
        moved,
        noise,
        withConfig: (other) => trendsSharing(history, other, shared.points === history.points.length && shared.lastLine === history.lines[history.lines.length - 1]
            ? shared
            : sharedSeries(history)),
    };
}
function changedSince(column, from) {
    const { at } = column;
    return at.length >= 2 && at[at.length - 1] >= from;
}
function at(column, p) {
    return p < 0 ? 0 : (valueAt(column, p) ?? 0);
}
function latest(column) {
    return column.values.length === 0 ? 0 : (column.values[column.values.length - 1] ?? 0);
}
function foldColumn(out, column, n) {
    const { at, values } = column;
    for (let c = 0; c < at.length; c++) {
        const v = values[c];
        if (v === null)
            continue;
        const to = c + 1 < at.length ? at[c + 1] : n;
        for (let p = at[c]; p < to; p++) {
            const was = out[p];
            if (was === null || v > was)
                out[p] = v;
        }
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
function stepNote(history, values, tolerance) {
    const points = [];
    const present = [];
    values.forEach((v, p) => {
        if (v !== null) {
            points.push(p);
            present.push(v);
        }
    });
    const step = detectStep(present, tolerance);
    if (step === null)
        return null;
    const point = points[step.index];
    const meta = history.points[point];
    const previous = history.points[point - 1];
    return {
        before: Math.round(step.before),
        after: Math.round(step.after),
        point,
        commit: meta.commit,
        runsAgo: history.points.length - 1 - point,
        environment: environmentChanges(previous.environment, meta.environment),
        baselineChanged: previous.baseline !== meta.baseline,
    };
}
function environmentChanges(before, after) {
    const items = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    const changes = [];
    for (const item of items) {
        const b = Object.hasOwn(before, item) ? before[item] : null;
        const a = Object.hasOwn(after, item) ? after[item] : null;
        if (b !== a)
            changes.push({ item, baseline: b, current: a });
    }
    return changes;
}

export { MOVED_CANDIDATES, RECENT_POINTS, environmentChanges, noiseLookup, trendsOf };

import { exceedsTolerance, sectionThresholds, matchRule } from './thresholds.js';
import { g as section, s as sectionOfKind } from './snapshot.js';
import { ROLLUP_WIDTH, valueAt } from './format.js';
import { f as findDeviceSegment } from './keys.js';
import 'node:fs/promises';
import 'node:path';
import './local.js';
import 'node:fs';
import './_commonjsHelpers.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './errors.js';
import './evidence-sources.js';
import './reader.js';
import 'node:crypto';
import './units.js';
import './environment.js';
import './series.js';

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
function trendsOf(history, config = { sections: {} }) {
    const cache = new Map();
    const patterns = new Map();
    const n = history.points.length;
    const membersOf = (name, section) => {
        let byPattern = patterns.get(name);
        if (byPattern !== undefined)
            return byPattern;
        byPattern = new Map();
        const at = { start: 0, end: 0 };
        section.keys.forEach((key, i) => {
            if (!findDeviceSegment(key, at))
                return;
            const pattern = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
            const list = byPattern.get(pattern);
            if (list === undefined)
                byPattern.set(pattern, [i]);
            else
                list.push(i);
        });
        patterns.set(name, byPattern);
        return byPattern;
    };
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
    const largest = new Map();
    const largestValues = (name, section, pattern) => {
        const id = `${name}\u0000${pattern}`;
        let values = largest.get(id);
        if (values === undefined)
            largest.set(id, (values = foldLargest(name, section, pattern)));
        return values;
    };
    const foldLargest = (name, section, pattern) => {
        const members = membersOf(name, section).get(pattern) ?? [];
        const rollup = section.rollupIndex.get(pattern);
        if (members.length === 0 && rollup === undefined)
            return null;
        const out = new Array(n).fill(null);
        const fold = (values) => {
            for (let p = 0; p < n; p++) {
                const v = values[p];
                if (v !== null && (out[p] === null || v > out[p]))
                    out[p] = v;
            }
        };
        for (const i of members)
            fold(keyValues(section.keyColumns[i]));
        if (rollup !== undefined)
            fold(keyValues(section.rollupColumns[rollup * ROLLUP_WIDTH + 2]));
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
            const i = found.section.keyIndex.get(key);
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
        const i = found.section.keyIndex.get(key);
        if (i !== undefined)
            return keyValues(found.section.keyColumns[i]);
        const at = { start: 0, end: 0 };
        return findDeviceSegment(key, at) ? largestValues(found.name, found.section, `${key.slice(0, at.start)}*${key.slice(at.end)}`) : null;
    };
    const samples = new WeakMap();
    const noise = (kind, key, window) => {
        const values = valuesOfKey(kind, key);
        if (values === null)
            return undefined;
        let sample = samples.get(values)?.window === window ? samples.get(values)?.sample : undefined;
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
            sample = points === 0 ? null : { spread: hi - lo, points };
            samples.set(values, { window, sample });
        }
        return sample ?? undefined;
    };
    const recentlyChanged = (columns) => columns.some((c) => c.at.length >= 2 && c.at[c.at.length - 1] >= n - RECENT_POINTS);
    let movedList;
    const moved = () => (movedList ??= findMoved());
    const findMoved = () => {
        const then = n - 1 - RECENT_POINTS;
        const at = (column, p) => (p < 0 ? 0 : (valueAt(column, p) ?? 0));
        const candidates = [];
        const bounds = { start: 0, end: 0 };
        for (const [name, section$1] of history.sections) {
            const kind = section(name).kind;
            const patterns = new Set();
            section$1.keys.forEach((key, i) => {
                const column = section$1.keyColumns[i];
                if (!recentlyChanged([column]))
                    return;
                if (findDeviceSegment(key, bounds))
                    patterns.add(`${key.slice(0, bounds.start)}*${key.slice(bounds.end)}`);
                else
                    candidates.push({ kind, subject: key, pattern: false, moved: Math.abs(at(column, n - 1) - at(column, then)) });
            });
            for (const pattern of section$1.rollups)
                patterns.add(pattern);
            for (const pattern of patterns) {
                const members = membersOf(name, section$1).get(pattern) ?? [];
                const rollup = section$1.rollupIndex.get(pattern);
                const columns = [...members.map((i) => section$1.keyColumns[i]), ...(rollup === undefined ? [] : [section$1.rollupColumns[rollup * ROLLUP_WIDTH + 2]])];
                if (!recentlyChanged(columns))
                    continue;
                const largestAt = (p) => columns.reduce((m, c) => Math.max(m, at(c, p)), Number.NEGATIVE_INFINITY);
                candidates.push({ kind, subject: pattern === '*' ? 'dev*' : pattern, pattern: true, moved: Math.abs(largestAt(n - 1) - largestAt(then)) });
            }
        }
        candidates.sort((a, b) => b.moved - a.moved || (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
        const out = [];
        for (const c of candidates.slice(0, MOVED_CANDIDATES)) {
            const t = c.pattern ? forPattern(c.kind, c.subject) : forKey(c.kind, c.subject);
            if (t?.step != null && t.step.runsAgo < RECENT_POINTS)
                out.push({ kind: c.kind, subject: c.subject, trend: t });
        }
        const change = (m) => Math.abs(m.trend.step.after - m.trend.step.before);
        return out.sort((a, b) => a.trend.step.runsAgo - b.trend.step.runsAgo || change(b) - change(a) || (a.subject < b.subject ? -1 : 1));
    };
    const template = history.header.commitUrl;
    return {
        branch: history.header.branch,
        points: history.points,
        commitUrl: (sha) => (template === undefined || !/^[0-9a-f]{4,64}$/.test(sha) ? undefined : template.replaceAll('{sha}', sha)),
        forKey,
        forPattern,
        moved,
        noise,
    };
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

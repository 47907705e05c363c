import './thresholds.js';
import { s as sectionOfKind } from './evidence-sources.js';
import { historyName } from './format.js';
import { H as HistorySeries, s as stillShared, f as findMoved, a as sharedSeries, b as seriesValues, R as RECENT_POINTS } from './moved.js';
export { M as MOVED_CANDIDATES } from './moved.js';
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
import './string-table.js';
import './names.js';
import './groups.js';

function noiseSample(values, window) {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let points = 0;
    for (let p = values.length - 1; p >= 0 && points < window; p--) {
        const v = values[p];
        if (Number.isNaN(v))
            continue;
        points++;
        if (v < lo)
            lo = v;
        if (v > hi)
            hi = v;
    }
    if (points === 0)
        return null;
    const spread = hi - lo;
    return spread > Number.MAX_SAFE_INTEGER
        ? { spread: Number.MAX_SAFE_INTEGER, points, clamped: true }
        : { spread, points };
}
function noiseOf(series, samples, kind, key, window) {
    const values = series.ofKey(kind, key);
    if (values === null)
        return undefined;
    const kept = samples.get(values);
    let sample = kept?.window === window ? kept.sample : undefined;
    if (sample === undefined) {
        sample = noiseSample(values, window);
        samples.set(values, { window, sample });
    }
    return sample ?? undefined;
}

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

function noiseLookup(history) {
    return trendsOf(history).noise;
}
function shared(history) {
    return { series: sharedSeries(history), samples: new WeakMap(), values: new WeakMap() };
}
function trendsOf(history, config = { sections: {} }) {
    return trendsSharing(history, config, shared(history));
}
function toleranceOf(config, kind, key) {
    const declaration = sectionOfKind(kind);
    if (declaration === undefined)
        return {};
    const thresholds = sectionThresholds(config, declaration);
    return matchRule(thresholds.rules, key)?.tolerance ?? thresholds.tolerance;
}
function trendsSharing(history, config, kept) {
    const cache = new Map();
    const series = new HistorySeries(history, kept.series);
    const trend = (of, made, tolerance) => {
        let values = kept.values.get(made);
        if (values === undefined)
            kept.values.set(made, (values = seriesValues(made)));
        return trendOf(history, of, values, tolerance);
    };
    const forPattern = (kind, pattern) => {
        const id = `p\u0000${kind}\u0000${pattern}`;
        if (cache.has(id))
            return cache.get(id) ?? undefined;
        const found = series.section(kind);
        const inHistory = pattern === 'dev*' ? '*' : pattern;
        const values = found === undefined ? null : series.largest(found.name, found.section, inHistory);
        const made = values === null ? null : trend('largest', values, toleranceOf(config, kind, inHistory));
        cache.set(id, made);
        return made ?? undefined;
    };
    const forKey = (kind, key) => {
        const id = `k\u0000${kind}\u0000${key}`;
        if (cache.has(id))
            return cache.get(id) ?? undefined;
        const found = series.section(kind);
        let made = null;
        if (found !== undefined) {
            const i = found.section.keyIndex.get(historyName(key));
            if (i !== undefined)
                made = trend('key', series.ofKeyAt(found.section, i), toleranceOf(config, kind, key));
            else {
                const at = { start: 0, end: 0 };
                if (findDeviceSegment(key, at))
                    made = forPattern(kind, `${key.slice(0, at.start)}*${key.slice(at.end)}`) ?? null;
            }
        }
        cache.set(id, made);
        return made ?? undefined;
    };
    let movedList;
    const template = history.header.commitUrl;
    return {
        branch: history.header.branch,
        points: history.points,
        commitUrl: (sha) => template === undefined || !/^[0-9a-f]{4,64}$/.test(sha) ? undefined : template.replaceAll('{sha}', sha),
        forKey,
        forPattern,
        moved: () => (movedList ??= findMoved(history, (s) => series.groups(s), { forKey, forPattern })),
        noise: (kind, key, window) => noiseOf(series, kept.samples, kind, key, window),
        withConfig: (other) => trendsSharing(history, other, stillShared(kept.series, history) ? kept : shared(history)),
    };
}
function trendOf(history, of, values, tolerance) {
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

export { RECENT_POINTS, environmentChanges, noiseLookup, trendsOf };

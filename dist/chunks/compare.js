import { e as modulesOf, g as section, c as compareKeys, k as keysOf, m as metricsOf, v as valueOf, a as SECTIONS, o as originText } from './snapshot.js';
import { m as median } from './roll-up.js';
import { a as formatBytes, f as formatCount } from './units.js';
import { exceedsTolerance, matchRule, percentChange, sectionThresholds, DEFAULT_CONFIG } from './thresholds.js';
import { f as findDeviceSegment } from './keys.js';
import { S as STATUSES } from './types.js';

function moduleEvidence(side) {
    return side.meta === undefined ? { modules: modulesOf(side) } : { modules: modulesOf(side), meta: side.meta };
}
const MiB = 1024 ** 2;
const FINDING_STATUSES = [
    'over-capacity',
    'low-headroom',
    'alloc-failure',
    'leak-suspect',
    'above-reference',
    'imbalance',
    'growing',
];
const PROCESS_TOTAL_ATTRIBUTE = 'DEV_PROC_MEM';
const PROFILER_MODULES_ATTRIBUTE = 'NPU_MODULE_MEM';
function assessDevices(baselineSide, currentSide, config) {
    const baseline = moduleEvidence(baselineSide);
    const current = moduleEvidence(currentSide);
    const moduleFindings = [
        ...assessLeaks(baseline, current, config),
        ...assessReferences(baseline, current, config),
        ...assessImbalance(baseline, current, config),
    ];
    const deviceEntries = [...assessHeadroom(baseline, current, config), ...assessAllocFailures(baseline, current, config)];
    const statusOrder = FINDING_STATUSES;
    const rank = (status) => (statusOrder.includes(status) ? statusOrder.indexOf(status) : -1);
    const order = (a, b) => compareKeys(a.key, b.key) || rank(a.status) - rank(b.status);
    return { moduleFindings: moduleFindings.sort(order), deviceEntries: deviceEntries.sort(order) };
}
const DEVICE_NAME = /^dev\d+$/;
function parseModuleKey(key) {
    const first = key.indexOf('/');
    if (first === -1)
        return null;
    const second = key.indexOf('/', first + 1);
    if (second === -1)
        return { attribute: key.slice(0, first), device: null, module: key.slice(first + 1) };
    if (key.includes('/', second + 1))
        return null;
    const device = key.slice(first + 1, second);
    return DEVICE_NAME.test(device) ? { attribute: key.slice(0, first), device, module: key.slice(second + 1) } : null;
}
const moduleIndexes = new WeakMap();
function indexModules(modules) {
    let index = moduleIndexes.get(modules);
    if (index === undefined) {
        index = keysOf(modules).map((key) => ({ key, metric: modules[key], parts: parseModuleKey(key) }));
        moduleIndexes.set(modules, index);
    }
    return index;
}
function estimateDevicePeaks(modules) {
    const estimates = new Map();
    for (const { metric, parts } of indexModules(modules)) {
        if (parts === null || parts.device === null)
            continue;
        let estimate = estimates.get(parts.device);
        if (estimate === undefined) {
            estimate = { device: parts.device, bytes: 0, moduleSum: 0, moduleCount: 0, cached: 0, attributes: [], processTotal: null, profilerModuleSum: null };
            estimates.set(parts.device, estimate);
        }
        if (parts.attribute === PROCESS_TOTAL_ATTRIBUTE) {
            estimate.processTotal = (estimate.processTotal ?? 0) + metric.peak;
        }
        else if (parts.attribute === PROFILER_MODULES_ATTRIBUTE) {
            estimate.profilerModuleSum = (estimate.profilerModuleSum ?? 0) + metric.peak;
        }
        else {
            estimate.moduleSum += metric.peak;
            estimate.moduleCount++;
            if (parts.module === 'CACHED')
                estimate.cached += metric.peak;
            if (!estimate.attributes.includes(parts.attribute))
                estimate.attributes.push(parts.attribute);
        }
    }
    for (const estimate of estimates.values()) {
        estimate.attributes.sort(compareKeys);
        estimate.bytes = Math.max(estimate.moduleSum, estimate.processTotal ?? 0, estimate.profilerModuleSum ?? 0);
    }
    return estimates;
}
function deviceLimits(device, config) {
    const override = Object.hasOwn(config.devices, device) ? config.devices[device] : undefined;
    return { ...config.device, ...override };
}
function requiredHeadroom(capacity, minHeadroom) {
    if (minHeadroom === undefined)
        return 0;
    if ('bytes' in minHeadroom)
        return minHeadroom.bytes;
    return Math.ceil((capacity * minHeadroom.percent) / 100);
}
function assessHeadroom(baseline, current, config) {
    if (config.device.capacity === undefined && Object.values(config.devices).every((d) => d.capacity === undefined))
        return [];
    const before = estimateDevicePeaks(baseline.modules);
    const entries = [];
    for (const estimate of estimateDevicePeaks(current.modules).values()) {
        const { capacity, minHeadroom } = deviceLimits(estimate.device, config);
        if (capacity === undefined)
            continue;
        const required = requiredHeadroom(capacity, minHeadroom);
        const headroomLimit = Math.max(0, capacity - required);
        const minimum = minHeadroom === undefined ? 'none' : 'percent' in minHeadroom ? `${minHeadroom.percent}% = ${formatBytes(required)}` : formatBytes(required);
        const estimateText = `estimated peak ${formatBytes(estimate.bytes)}`;
        let status;
        let limit;
        let verdict;
        if (estimate.bytes > capacity) {
            status = 'over-capacity';
            limit = capacity;
            verdict = `${estimateText} is over the capacity ${formatBytes(capacity)} by ${formatBytes(estimate.bytes - capacity)}`;
        }
        else if (estimate.bytes > headroomLimit) {
            status = 'low-headroom';
            limit = headroomLimit;
            verdict = `${estimateText} leaves ${formatBytes(capacity - estimate.bytes)} of the capacity ${formatBytes(capacity)}, less than the minimum headroom (${minimum})`;
        }
        else {
            status = 'pass';
            limit = headroomLimit;
            verdict = `${estimateText} leaves ${formatBytes(capacity - estimate.bytes)} of the capacity ${formatBytes(capacity)} (minimum headroom ${minimum})`;
        }
        let severity = 'ok';
        if (status !== 'pass') {
            const policy = config.verdicts[status];
            if (policy === 'ignore')
                continue;
            severity = policy;
        }
        const baselineBytes = before.get(estimate.device)?.bytes ?? null;
        entries.push({
            ...compared('device', estimate.device, baselineBytes, estimate.bytes),
            status,
            severity,
            rule: null,
            unit: 'bytes',
            limit,
            capacity,
            note: `${verdict}. ${describeEstimate(estimate)}`,
        });
    }
    return entries;
}
function describeEstimate(estimate) {
    if (estimate.profilerModuleSum === null)
        return describePlogEstimate(estimate);
    const profiler = `the sum of the profiler's ${PROFILER_MODULES_ATTRIBUTE} module peaks (${formatBytes(estimate.profilerModuleSum)})`;
    if (estimate.moduleCount === 0 && estimate.processTotal === null)
        return `An upper bound: ${profiler}, which need not coincide`;
    const larger = estimate.profilerModuleSum > Math.max(estimate.moduleSum, estimate.processTotal ?? 0);
    return `${describePlogEstimate(estimate)}; ${profiler} is a second reading of the same memory, never added${larger ? ', and the larger: the estimate' : ''}`;
}
function describePlogEstimate(estimate) {
    const total = `the process total ${PROCESS_TOTAL_ATTRIBUTE} (${formatBytes(estimate.processTotal ?? 0)})`;
    if (estimate.moduleCount === 0)
        return `From ${total}`;
    const cached = estimate.cached > 0 ? `, CACHED ${formatBytes(estimate.cached)} included` : '';
    const modules = `the sum of ${plural(estimate.moduleCount, 'module peak')} in ${estimate.attributes.join(', ')}`;
    if (estimate.processTotal === null)
        return `An upper bound: ${modules}${cached ? ` (${cached.slice(2)})` : ''}, which need not coincide`;
    return estimate.processTotal > estimate.moduleSum
        ? `From ${total}, larger than ${modules} (${formatBytes(estimate.moduleSum)}${cached}); the two are never added`
        : `An upper bound: ${modules} (${formatBytes(estimate.moduleSum)}${cached}), which need not coincide, larger than ${total}; the two are never added`;
}
function plural(n, one) {
    return `${n} ${one}${n === 1 ? '' : 's'}`;
}
function assessAllocFailures(baseline, current, config) {
    const policy = config.verdicts['alloc-failure'];
    if (policy === 'ignore')
        return [];
    const failures = current.meta?.allocFailures ?? {};
    const before = baseline.meta?.allocFailures ?? {};
    const entries = [];
    for (const [device, count] of Object.entries(failures)) {
        if (count <= 0)
            continue;
        const where = DEVICE_NAME.test(device) ? `on ${device}` : 'on a device the failure line does not name';
        const site = current.meta?.allocFailureSites?.[device]?.[0];
        const first = site === undefined ? '' : `; first at ${site.file}:${site.line}`;
        entries.push({
            ...compared('device', device, Object.hasOwn(before, device) ? (before[device] ?? null) : null, count),
            status: 'alloc-failure',
            severity: policy,
            rule: null,
            unit: 'count',
            limit: 0,
            note: `${count} allocation ${count === 1 ? 'failure' : 'failures'} (halMemAlloc failed) ${where}${first}: a job that survived an out-of-memory by retrying is not healthy, and one that died of it left only these lines`,
        });
    }
    return entries;
}
function outstandingAllocations(metric) {
    return metric.allocs === null || metric.frees === null ? null : metric.allocs - metric.frees;
}
function assessLeaks(baseline, current, config) {
    const policy = config.verdicts['leak-suspect'];
    if (policy === 'ignore')
        return [];
    const { count, percent } = config.leaks;
    const entries = [];
    const index = indexModules(current.modules);
    for (let i = 0; i < index.length; i++) {
        const { key, metric } = index[i];
        const old = Object.hasOwn(baseline.modules, key) ? baseline.modules[key] : undefined;
        if (old === undefined || isIgnored(key, config))
            continue;
        const before = outstandingAllocations(old);
        const after = outstandingAllocations(metric);
        if (before === null || after === null)
            continue;
        const growth = after - before;
        if (!exceedsTolerance(growth, before, { bytes: count, percent }))
            continue;
        const allowed = Math.max(count ?? 0, percent !== undefined ? Math.floor((Math.abs(before) * percent) / 100) : 0);
        const share = percent !== undefined ? `${percent}% of ${before}` : null;
        const tolerance = count !== undefined && share !== null ? `the larger of ${count} and ${share}` : (share ?? (count !== undefined ? `${count}` : 'none'));
        entries.push({
            ...compared('module', key, before, after),
            status: 'leak-suspect',
            severity: policy,
            rule: null,
            unit: 'count',
            limit: before + allowed,
            note: `outstanding allocations at exit (alloc_cnt - free_cnt) grew from ${before} to ${after} (+${growth}), ` +
                `more than the ${before + allowed} tolerated (growth allowed: ${tolerance}): a leak or a growing pool`,
        });
    }
    return entries;
}
const REFERENCE_COSTS = {
    training: { GE: 3 * MiB, RUNTIME: 26 * MiB },
    inference: { GE: 86 * MiB, RUNTIME: 18 * MiB },
};
const HCCL_LINK_COST = { singleOp: 4 * MiB, graphPerOp: 0.3 * MiB };
function referenceCost(module, profile, hccl) {
    if (module === 'GE' || module === 'RUNTIME') {
        if (profile !== null)
            return { bytes: REFERENCE_COSTS[profile][module], basis: `the ${profile} reference for ${module}` };
        const training = REFERENCE_COSTS.training[module];
        const inference = REFERENCE_COSTS.inference[module];
        return {
            bytes: Math.max(training, inference),
            basis: `the larger of the training (${formatBytes(training)}) and inference (${formatBytes(inference)}) references for ${module}; set "profile"`,
        };
    }
    if (module === 'HCCL' && hccl !== null) {
        const links = hccl.mode === 'graph'
            ? { bytes: Math.round(hccl.links * hccl.ops * HCCL_LINK_COST.graphPerOp), text: `${plural(hccl.links, 'link')} x ${plural(hccl.ops, 'op')} x 0.3 MiB` }
            : { bytes: hccl.links * HCCL_LINK_COST.singleOp, text: `${plural(hccl.links, 'link')} x 4 MiB` };
        const buffers = hccl.domains * 2 * hccl.buffSize;
        return {
            bytes: links.bytes + buffers,
            basis: `the HCCL reference ${links.text} + ${plural(hccl.domains, 'domain')} x 2 x ${formatBytes(hccl.buffSize)}`,
        };
    }
    return null;
}
const REFERENCE_ATTRIBUTE = 'DEV_MEM';
function assessReferences(baseline, current, config) {
    const policy = config.verdicts['above-reference'];
    if (policy === 'ignore')
        return [];
    const entries = [];
    const index = indexModules(current.modules);
    for (let i = 0; i < index.length; i++) {
        const { key, metric, parts } = index[i];
        if (Object.hasOwn(baseline.modules, key) || isIgnored(key, config))
            continue;
        if (parts === null || parts.attribute !== REFERENCE_ATTRIBUTE || parts.device === null)
            continue;
        const reference = referenceCost(parts.module, config.profile, config.hccl);
        if (reference === null)
            continue;
        const limit = Math.floor(reference.bytes * config.reference.factor);
        if (metric.peak <= limit)
            continue;
        entries.push({
            ...compared('module', key, null, metric.peak),
            status: 'above-reference',
            severity: policy,
            rule: null,
            unit: 'bytes',
            limit,
            note: `no baseline yet: peak ${formatBytes(metric.peak)} is above ${config.reference.factor} x ${formatBytes(reference.bytes)}, ${reference.basis}`,
        });
    }
    return entries;
}
function imbalanceGroups(modules, config) {
    const groups = new Map();
    const byAttribute = new Map();
    const index = indexModules(modules);
    for (let i = 0; i < index.length; i++) {
        const { key, metric, parts } = index[i];
        if (parts === null || parts.device === null || isIgnored(key, config))
            continue;
        let byModule = byAttribute.get(parts.attribute);
        if (byModule === undefined)
            byAttribute.set(parts.attribute, (byModule = new Map()));
        let members = byModule.get(parts.module);
        if (members === undefined) {
            byModule.set(parts.module, (members = []));
            groups.set(`${parts.attribute}/*/${parts.module}`, members);
        }
        members.push({ key, peak: metric.peak });
    }
    return groups;
}
function allowedDeviation(middle, tolerance) {
    return Math.max(tolerance.bytes ?? 0, tolerance.percent !== undefined ? (middle * tolerance.percent) / 100 : 0);
}
function imbalancedInBaseline(baseline, config) {
    const { tolerance, minDevices } = config.imbalance;
    const out = new Set();
    for (const members of imbalanceGroups(baseline.modules, config).values()) {
        if (members.length < minDevices)
            continue;
        const middle = median(members.map((m) => m.peak));
        for (const { key, peak } of members)
            if (exceedsTolerance(Math.abs(peak - middle), middle, tolerance))
                out.add(key);
    }
    return out;
}
function assessImbalance(baseline, current, config) {
    const policy = config.verdicts.imbalance;
    if (policy === 'ignore')
        return [];
    const groups = imbalanceGroups(current.modules, config);
    const known = imbalancedInBaseline(baseline, config);
    const { tolerance, minDevices } = config.imbalance;
    const entries = [];
    for (const [group, members] of groups) {
        if (members.length < minDevices)
            continue;
        const middle = median(members.map((m) => m.peak));
        const allowed = allowedDeviation(middle, tolerance);
        const toleranceText = [tolerance.percent !== undefined ? `${tolerance.percent}%` : null, tolerance.bytes !== undefined ? formatBytes(tolerance.bytes) : null]
            .filter((part) => part !== null)
            .join(' and ');
        for (const { key, peak } of members) {
            const deviation = peak - middle;
            if (!exceedsTolerance(Math.abs(deviation), middle, tolerance))
                continue;
            const above = deviation > 0;
            const share = middle === 0 ? '' : `${((Math.abs(deviation) / middle) * 100).toFixed(1)}% `;
            const old = Object.hasOwn(baseline.modules, key) ? baseline.modules[key] : undefined;
            const keyTolerance = matchRule(config.sections.modules?.rules ?? NO_RULES, key)?.tolerance ?? config.sections.modules?.tolerance ?? section('modules').tolerance;
            const news = old === undefined || exceedsTolerance(Math.abs(peak - old.peak), old.peak, keyTolerance) || !known.has(key);
            entries.push({
                ...compared('module', key, old?.peak ?? null, peak),
                status: 'imbalance',
                severity: news ? policy : 'ok',
                rule: null,
                unit: 'bytes',
                limit: above ? Math.floor(middle + allowed) : Math.ceil(middle - allowed),
                note: `${share}${above ? 'above' : 'below'} the median ${formatBytes(middle)} of ${group} on ${members.length} devices ` +
                    `(tolerated: ${toleranceText === '' ? 'nothing' : toleranceText}): a pipeline stage, or one rank leaking` +
                    (news ? '' : '; already so in the baseline, so not repeated as a warning'),
            });
        }
    }
    return entries;
}
const NO_RULES = [];
function isIgnored(key, config) {
    return matchRule(config.sections.modules?.rules ?? NO_RULES, key)?.ignore === true;
}
function compared(kind, key, baseline, current) {
    return { kind, key, baseline, current, delta: baseline === null ? null : current - baseline, percent: percentChange(baseline, current) };
}

const stepLeakFindings = ({ baseline, current, config }) => {
    const policy = config.verdicts['step-leak'];
    if (policy === 'ignore')
        return [];
    const declaration = section('stepLeaks');
    const before = metricsOf(baseline, declaration.name);
    const entries = [];
    for (const [key, metric] of Object.entries(metricsOf(current, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]))) {
        const bytes = valueOf(declaration, metric);
        if (bytes <= 0)
            continue;
        const old = Object.hasOwn(before, key) ? valueOf(declaration, before[key]) : null;
        entries.push({
            kind: declaration.kind,
            key,
            baseline: old,
            current: bytes,
            delta: old === null ? null : bytes - old,
            percent: percentChange(old, bytes),
            status: 'step-leak',
            severity: policy,
            rule: null,
            limit: 0,
            note: `${metric.blocks} block(s), ${bytes} bytes allocated during a step k >= 2 were still live at the end of step k+1 ` +
                `(msMemScope's leak rule)${metric.top ? `; most: ${metric.top}` : ''}`,
        });
    }
    return entries;
};
const unfreedFindings = ({ baseline, current, config }) => {
    const policy = config.verdicts['leak-suspect'];
    if (policy === 'ignore')
        return [];
    const declaration = section('unfreed');
    const thresholds = sectionThresholds(config, declaration);
    const before = metricsOf(baseline, declaration.name);
    const after = metricsOf(current, declaration.name);
    if (Object.keys(before).length === 0)
        return [];
    const entries = [];
    for (const [key, metric] of Object.entries(after).sort((a, b) => compareKeys(a[0], b[0]))) {
        const rule = matchRule(thresholds.rules, key);
        if (rule?.ignore === true)
            continue;
        const bytes = valueOf(declaration, metric);
        const old = Object.hasOwn(before, key) ? valueOf(declaration, before[key]) : 0;
        const tolerance = rule?.tolerance ?? thresholds.tolerance;
        if (!exceedsTolerance(bytes - old, old, tolerance))
            continue;
        const allowed = Math.max(tolerance.bytes ?? 0, tolerance.percent !== undefined ? Math.floor((old * tolerance.percent) / 100) : 0);
        entries.push({
            kind: declaration.kind,
            key,
            baseline: Object.hasOwn(before, key) ? old : null,
            current: bytes,
            delta: bytes - old,
            percent: percentChange(old, bytes),
            status: 'leak-suspect',
            severity: policy,
            rule: rule?.match ?? null,
            limit: old + allowed,
            note: `memory never freed while tracing grew from ${old} to ${bytes} bytes (${metric.blocks} block(s)), more than the ${old + allowed} tolerated` +
                newBlocksNote(Object.hasOwn(before, key) ? before[key]?.sizes : '', metric.sizes),
        });
    }
    return entries;
};
function newBlocksNote(before, after) {
    const parse = (text) => {
        const counts = new Map();
        if (typeof text !== 'string')
            return counts;
        for (const token of text.split(' ')) {
            const m = /^(\d+)(?:x(\d+))?$/.exec(token);
            if (m !== null)
                counts.set(Number(m[1]), Number(m[2] ?? 1));
        }
        return counts;
    };
    const old = parse(before);
    const added = [];
    for (const [size, n] of parse(after)) {
        const extra = n - (old.get(size) ?? 0);
        if (extra > 0)
            added.push(extra === 1 ? `${size} B` : `${size} B ×${extra}`);
    }
    return added.length === 0 ? '' : `; new blocks: ${added.join(', ')}`;
}

const DEFAULT_GROWTH = DEFAULT_CONFIG.growth;
const assessGrowing = ({ current, config }) => {
    const policy = config.verdicts.growing;
    if (policy === 'ignore')
        return [];
    const entries = [];
    for (const declaration of SECTIONS) {
        const byKey = current.series?.[declaration.name];
        if (byKey === undefined)
            continue;
        const rules = config.sections[declaration.name]?.rules ?? [];
        for (const key of Object.keys(byKey).sort(compareKeys)) {
            if (matchRule(rules, key)?.ignore === true)
                continue;
            const series = byKey[key];
            if (series.axis === 'trace')
                continue;
            const growth = assessGrowth(series, config.growth);
            if (growth === null || !growth.growing)
                continue;
            entries.push({
                kind: declaration.kind,
                key,
                baseline: null,
                current: growth.rise,
                delta: null,
                percent: null,
                status: 'growing',
                severity: policy,
                rule: null,
                unit: 'bytes',
                limit: growth.limit,
                note: growth.note,
            });
        }
    }
    return entries;
};
const MICROS_PER_HOUR = 3.6e9;
function assessGrowth(series, config = DEFAULT_GROWTH) {
    const points = [...series.points].sort((a, b) => a[0] - b[0]);
    if (points.length === 0)
        return null;
    const first = points[0];
    const last = points[points.length - 1];
    const runEnd = last[0] + series.width;
    let after;
    let span;
    if (series.axis === 'time') {
        const cut = first[0] + (config.warmupPercent / 100) * (runEnd - first[0]);
        after = points.filter((p) => p[0] >= cut);
        span = runEnd - cut;
    }
    else {
        after = points.slice(config.warmupSteps);
        span = after.length > 0 ? last[0] - after[0][0] : 0;
    }
    if (after.length < Math.max(2, config.minWindows) || span <= 0)
        return null;
    const slope = theilSen(after);
    const tail = theilSen(after.slice(Math.floor(after.length / 2)));
    const peak = Math.max(...points.map((p) => p[1]));
    const from = after[0];
    const to = after[after.length - 1];
    const stillRising = tail >= slope / 2 && tail > 0;
    const quarter = Math.max(1, Math.floor(after.length / 4));
    const levelRise = Math.min(...after.slice(after.length - quarter).map((p) => p[1])) - Math.min(...after.slice(0, quarter).map((p) => p[1]));
    let rise;
    let limit;
    let growing;
    if (series.axis === 'time') {
        rise = Math.round(slope * span);
        const bounds = [config.tolerance.percent === undefined ? null : (peak * config.tolerance.percent) / 100, config.tolerance.bytes ?? null].filter((b) => b !== null);
        limit = Math.round(Math.max(0, ...bounds));
        growing = stillRising && bounds.every((b) => rise > b) && levelRise > limit / 2;
    }
    else {
        rise = Math.round(slope * span);
        limit = config.perStep * span;
        growing = stillRising && slope >= config.perStep && levelRise > 0;
    }
    const shape = !stillRising && slope > 0 ? 'step' : levelRise <= 0 && slope > 0 ? 'band' : 'trend';
    const noteLimit = series.axis === 'time' ? limit : config.perStep;
    return { axis: series.axis, from, to, slope, rise, limit, growing, note: growthNote(series.axis, after, slope, rise, noteLimit, growing, shape) };
}
function theilSen(points) {
    const slopes = [];
    for (let i = 0; i < points.length; i++) {
        const [xi, yi] = points[i];
        for (let j = i + 1; j < points.length; j++) {
            const [xj, yj] = points[j];
            if (xj !== xi)
                slopes.push((yj - yi) / (xj - xi));
        }
    }
    if (slopes.length === 0)
        return 0;
    slopes.sort((a, b) => a - b);
    const mid = slopes.length >> 1;
    return slopes.length % 2 === 1 ? slopes[mid] : (slopes[mid - 1] + slopes[mid]) / 2;
}
const SPARKS = '▁▂▃▄▅▆▇█';
function sparkline(points, width = 16) {
    if (points.length === 0)
        return '';
    const n = Math.min(width, points.length);
    const buckets = [];
    for (let b = 0; b < n; b++) {
        const from = Math.floor((b * points.length) / n);
        const to = Math.floor(((b + 1) * points.length) / n);
        let max = -Infinity;
        for (let i = from; i < to; i++)
            max = Math.max(max, points[i][1]);
        buckets.push(max);
    }
    const lo = Math.min(...buckets);
    const hi = Math.max(...buckets);
    return buckets.map((v) => SPARKS[hi === lo ? 0 : Math.round(((v - lo) / (hi - lo)) * (SPARKS.length - 1))]).join('');
}
function growthNote(axis, after, slope, rise, limit, growing, shape) {
    const from = after[0][1];
    const to = after[after.length - 1][1];
    const picture = `${sparkline(after)} ${formatBytes(from)} → ${formatBytes(to)}`;
    if (axis === 'time') {
        const perHour = `${signed(slope * MICROS_PER_HOUR)}/h`;
        const verdict = growing
            ? `rises ${formatBytes(rise)} across the run after warm-up, over the ${formatBytes(limit)} tolerated`
            : shape === 'step'
                ? 'rose, then stayed flat over the last half: a step up, not growth'
                : shape === 'band'
                    ? 'rises and falls within one band (its troughs do not rise): not growth'
                    : `projected ${signed(rise)} across the run after warm-up, within the ${formatBytes(limit)} tolerated`;
        return `${picture} after warm-up (${after.length} windows), Theil–Sen ${perHour}: ${verdict}`;
    }
    const perStep = `${signed(slope)}/step`;
    const verdict = growing
        ? `at least ${formatBytes(limit)} more every step`
        : shape === 'step'
            ? 'rose, then stayed flat over the last steps: a step up, not growth'
            : shape === 'band'
                ? 'rises and falls within one band: not growth'
                : `under the ${formatBytes(limit)} per step tolerated`;
    return `${picture} over steps ${after[0][0]}–${after[after.length - 1][0]}, Theil–Sen ${perStep}: ${verdict}`;
}
function signed(bytes) {
    const rounded = Math.round(bytes);
    return rounded > 0 ? `+${formatBytes(rounded)}` : formatBytes(rounded);
}

const NAMED = 3;
const number = (m, field) => (typeof m[field] === 'number' ? m[field] : 0);
const oomFindings = ({ current, config }) => {
    const policy = config.verdicts.oom;
    if (policy === 'ignore')
        return [];
    const declaration = section('ooms');
    const modules = metricsOf(current, 'oomModules');
    const entries = [];
    for (const [key, metric] of Object.entries(metricsOf(current, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]))) {
        entries.push({
            kind: declaration.kind,
            key,
            baseline: null,
            current: number(metric, 'requested'),
            delta: null,
            percent: null,
            status: 'oom',
            severity: policy,
            rule: null,
            unit: 'bytes',
            note: explainOom(key, metric, modules),
        });
    }
    return entries;
};
function explainOom(key, m, modules) {
    const requested = number(m, 'requested');
    const allocated = number(m, 'allocated');
    const reserved = number(m, 'reserved');
    const largest = number(m, 'largestFreeBlock');
    const cached = reserved - allocated;
    const after = number(m, 'entriesAfter');
    const largestWhen = after === 0 ? 'at dump time, which the OOM triggered' : `at dump time, ${after} trace entries after the OOM: the block layout at the OOM itself is not recorded`;
    const head = `a request of ${formatBytes(requested)} failed with ${formatBytes(number(m, 'deviceFree'))} free on the device; ` +
        `the allocator held ${formatBytes(reserved)} reserved, ${formatBytes(allocated)} of it allocated, so ${formatBytes(Math.max(0, cached))} were cached`;
    const holders = holdersText(m.sites);
    const table = modulesText(key, modules);
    const tail = `${holders === '' ? '' : ` Largest holders at the OOM: ${holders}.`}${table === '' ? '' : ` torch_npu's module table at the OOM: ${table}.`} ${originText(m)}`;
    if (m.kind === 'fragmentation') {
        return (`Fragmentation: ${head}, more than the request, but no free block was that large (the largest: ${formatBytes(largest)}, ${largestWhen}). ` +
            'Set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True so segments grow in place instead of leaving holes (or free the large blocks earlier).' +
            tail);
    }
    const remedy = 'Hold less at that point (smaller micro-batch, activation recomputation, optimizer state sharded or offloaded) or run on more devices.';
    if (largest >= requested) {
        return (`Capacity: ${head}, and a free block of ${formatBytes(largest)} (${largestWhen}) was as large as the request, yet could not serve it: ` +
            'it belongs to another stream or memory pool, or a memory-fraction limit (set_per_process_memory_fraction) stopped the allocator. ' +
            `What this request could use was full. ${remedy}${tail}`);
    }
    return `Capacity: ${head}, ${cached < requested ? 'less than the request' : 'in blocks smaller than the request'}: the device is full. ${remedy}${tail}`;
}
function holdersText(sites) {
    let parsed;
    try {
        parsed = JSON.parse(String(sites));
    }
    catch {
        return '';
    }
    if (!Array.isArray(parsed))
        return '';
    return parsed
        .filter((p) => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'number')
        .slice(0, NAMED)
        .map(([site, bytes]) => `${site} ${formatBytes(bytes)}`)
        .join(', ');
}
function modulesText(key, modules) {
    const bounds = { start: 0, end: 0 };
    if (!findDeviceSegment(key, bounds))
        return '';
    const prefix = `${key.slice(0, bounds.end)}/`;
    return Object.entries(modules)
        .filter(([k]) => k.startsWith(prefix))
        .sort((a, b) => number(b[1], 'current') - number(a[1], 'current') || compareKeys(a[0], b[0]))
        .slice(0, NAMED)
        .map(([k, m]) => `${k.slice(prefix.length)} ${formatBytes(number(m, 'current'))} (peak ${formatBytes(number(m, 'peak'))})`)
        .join(', ');
}
const fragmentedFindings = ({ baseline, current, config }) => {
    const policy = config.verdicts.fragmented;
    if (policy === 'ignore')
        return [];
    const declaration = section('allocator');
    const { percent, bytes } = config.fragmentation;
    const before = metricsOf(baseline, declaration.name);
    const gapOf = (m) => number(m, 'reserved') - number(m, 'allocated');
    const entries = [];
    for (const [key, metric] of Object.entries(metricsOf(current, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]))) {
        if (!key.endsWith('/allocated'))
            continue;
        const reserved = number(metric, 'reserved');
        const gap = gapOf(metric);
        if (reserved <= 0 || gap <= bytes || gap * 100 <= reserved * percent)
            continue;
        const old = Object.hasOwn(before, key) ? gapOf(before[key]) : null;
        const where = number(metric, 'traceEntries') === 0
            ? 'at dump time (no trace was recorded)'
            : `at the allocated peak (trace point ${number(metric, 'point')} of ${number(metric, 'traceEntries')})`;
        entries.push({
            kind: declaration.kind,
            key,
            baseline: old,
            current: gap,
            delta: old === null ? null : gap - old,
            percent: percentChange(old, gap),
            status: 'fragmented',
            severity: policy,
            rule: null,
            unit: 'bytes',
            note: `${where[0]?.toUpperCase() ?? ''}${where.slice(1)} ${formatBytes(gap)} of the ${formatBytes(reserved)} reserved were not allocated (${((gap / reserved) * 100).toFixed(1)}%, over ${percent}% and ${formatBytes(bytes)}): ` +
                'cached blocks the program could not use, and rounding. PYTORCH_NPU_ALLOC_CONF=expandable_segments:True lets segments grow instead of caching holes. ' +
                originText(metric),
        });
    }
    return entries;
};

const deviceFindings = ({ baseline, current, config }) => {
    const { moduleFindings, deviceEntries } = assessDevices(baseline, current, config);
    return [...moduleFindings, ...deviceEntries];
};
const FINDINGS = [deviceFindings, oomFindings, fragmentedFindings, assessGrowing, stepLeakFindings, unfreedFindings];

function compareSnapshots(baseline, current, config, noise) {
    const band = config.history !== null && noise !== undefined ? { config: config.history, noise } : undefined;
    const verdicts = SECTIONS.filter((d) => d.compared !== false).flatMap((declaration) => compareSection(declaration, baseline, current, config, band));
    const findings = FINDINGS.flatMap((assess) => assess({ baseline, current, config }));
    const entries = withFindings(verdicts, findings);
    const byStatus = new Map();
    let failed = false;
    for (let i = 0; i < entries.length; i++) {
        const entry = entries[i];
        byStatus.set(entry.status, (byStatus.get(entry.status) ?? 0) + 1);
        if (entry.severity === 'fail')
            failed = true;
    }
    const counts = {};
    for (const status of STATUSES)
        counts[status] = 0;
    for (const [status, n] of byStatus)
        counts[status] = n;
    return { result: failed ? 'fail' : 'pass', counts, entries };
}
function withFindings(verdicts, findings) {
    if (findings.length === 0)
        return verdicts;
    const byKind = new Map();
    const lists = [];
    for (const finding of findings) {
        let byKey = byKind.get(finding.kind);
        if (byKey === undefined)
            byKind.set(finding.kind, (byKey = new Map()));
        const list = byKey.get(finding.key);
        if (list !== undefined)
            list.push(finding);
        else {
            const made = [finding];
            byKey.set(finding.key, made);
            lists.push(made);
        }
    }
    const out = [];
    let byKey;
    let kind;
    for (let i = 0; i < verdicts.length; i++) {
        const verdict = verdicts[i];
        out.push(verdict);
        if (verdict.kind !== kind) {
            kind = verdict.kind;
            byKey = byKind.get(kind);
        }
        const list = byKey?.get(verdict.key);
        if (list !== undefined && list.length > 0) {
            for (const finding of list)
                out.push(finding);
            list.length = 0;
        }
    }
    for (const list of lists)
        for (const finding of list)
            out.push(finding);
    return out;
}
function compareSection(declaration, baseline, current, config, band) {
    const before = metricsOf(baseline, declaration.name);
    const after = metricsOf(current, declaration.name);
    const value = (metrics, key) => (Object.hasOwn(metrics, key) ? valueOf(declaration, metrics[key]) : null);
    const thresholds = sectionThresholds(config, declaration);
    const keys = sortedUnion(keysOf(before), keysOf(after));
    const unit = declaration.unit === 'bytes' ? undefined : declaration.unit;
    const describe = declaration.describe;
    return keys.map((key) => {
        let entry = judge(declaration.kind, key, value(before, key), value(after, key), thresholds, config);
        if (band !== undefined && (entry.status === 'regressed' || entry.status === 'improved'))
            entry = withNoiseBand(entry, thresholds, band, config, unit);
        const withUnit = unit === undefined ? entry : { ...entry, unit };
        if (describe === undefined || withUnit.note !== undefined)
            return withUnit;
        const metric = Object.hasOwn(after, key) ? after[key] : before[key];
        return metric === undefined ? withUnit : { ...withUnit, note: describe(key, metric) };
    });
}
function withNoiseBand(entry, thresholds, band, config, unit) {
    const { window, minPoints, ceiling } = band.config;
    const baseline = entry.baseline;
    const change = Math.abs(entry.delta);
    const sample = band.noise(entry.kind, entry.key, window);
    const amount = (v) => (unit === 'count' ? formatCount(v) : formatBytes(v));
    const share = (v) => (baseline === 0 ? '' : ` (${((v / Math.abs(baseline)) * 100).toFixed(1)}% of the baseline)`);
    if (sample === undefined || sample.points < minPoints) {
        const points = sample?.points ?? 0;
        return {
            ...entry,
            note: `The noise band needs ${minPoints} values of this key on the default branch and the history has ${points}: the configured tolerance applied.`,
            noise: { applied: 'tolerance', points, spread: sample?.spread ?? null },
        };
    }
    const cap = allowance(ceiling, baseline);
    const width = Math.min(sample.spread, cap);
    const capped = sample.spread > cap ? `, capped at the ceiling ${amount(cap)}` : '';
    const spread = `the last ${sample.points} values on the default branch spread ${amount(sample.spread)}${share(sample.spread)}${capped}`;
    const rule = matchRule(thresholds.rules, entry.key);
    if (change <= width) {
        const status = 'pass';
        return {
            ...entry,
            status,
            severity: severityOf(status, config),
            note: `Within the noise band: ${spread}, wider than the tolerance; a change of ${amount(change)} is no news.`,
            noise: { applied: 'band', points: sample.points, spread: sample.spread },
        };
    }
    const tolerance = rule?.tolerance ?? thresholds.tolerance;
    if (width > allowance(tolerance, baseline)) {
        return { ...entry, note: `Beyond the noise band: ${spread}, and the change is ${amount(change)}.`, noise: { applied: 'band', points: sample.points, spread: sample.spread } };
    }
    return { ...entry, note: `The configured tolerance applied: ${spread}, less than it allows.`, noise: { applied: 'tolerance', points: sample.points, spread: sample.spread } };
}
function allowance(tolerance, baseline) {
    const bytes = tolerance.bytes ?? 0;
    const percent = tolerance.percent !== undefined && baseline !== 0 ? (Math.abs(baseline) * tolerance.percent) / 100 : 0;
    return Math.max(bytes, percent);
}
function sortedUnion(before, after) {
    if (sameKeys(before, after) && isSorted(before))
        return [...before];
    if (!isSorted(before) || !isSorted(after))
        return [...new Set([...before, ...after])].sort(compareKeys);
    const keys = [];
    const seen = new Set(before);
    let i = 0;
    let j = 0;
    while (i < before.length || j < after.length) {
        if (j < after.length && seen.has(after[j])) {
            j++;
            continue;
        }
        if (j >= after.length || (i < before.length && compareKeys(before[i], after[j]) <= 0))
            keys.push(before[i++]);
        else
            keys.push(after[j++]);
    }
    return keys;
}
function sameKeys(a, b) {
    if (a.length !== b.length)
        return false;
    for (let i = 0; i < a.length; i++)
        if (a[i] !== b[i])
            return false;
    return true;
}
function isSorted(keys) {
    for (let i = 1; i < keys.length; i++)
        if (compareKeys(keys[i - 1], keys[i]) > 0)
            return false;
    return true;
}
function judge(kind, key, baseline, current, thresholds, config) {
    const rule = matchRule(thresholds.rules, key);
    const delta = baseline !== null && current !== null ? current - baseline : null;
    const status = statusOf(rule, baseline, current, delta, thresholds);
    return { kind, key, baseline, current, delta, percent: percentChange(baseline, current), status, severity: severityOf(status, config), rule: rule?.match ?? null };
}
function statusOf(rule, baseline, current, delta, thresholds) {
    if (rule?.ignore === true)
        return 'ignored';
    if (rule?.budget !== undefined && current !== null && current > rule.budget)
        return 'over-budget';
    if (baseline === null)
        return 'new';
    if (current === null || delta === null)
        return 'missing';
    const tolerance = rule?.tolerance ?? thresholds.tolerance;
    if (exceedsTolerance(delta, baseline, tolerance))
        return 'regressed';
    if (exceedsTolerance(-delta, baseline, tolerance))
        return 'improved';
    return 'pass';
}
function severityOf(status, config) {
    switch (status) {
        case 'new':
            return policySeverity(config.onNew);
        case 'missing':
            return policySeverity(config.onMissing);
        case 'over-budget':
        case 'regressed':
            return 'fail';
        case 'improved':
            return config.failOnImprovement ? 'fail' : 'ok';
        default:
            return 'ok';
    }
}
function policySeverity(policy) {
    return policy === 'ignore' ? 'ok' : policy;
}

export { FINDING_STATUSES as F, assessDevices as a, withNoiseBand as b, compareSnapshots as c, judge as j, withFindings as w };

import { Y as parseSize, k as keysOf, c as compareKeys, m as metricsOf, e as modules, d as formatBytes, x as allocator, Z as originText, b as SECTIONS, r as oomModules, w as ooms, I as stepLeaks, E as unfreed$1, T as section } from './evidence-sources.js';
import { p as picomatch } from './limits.js';
import { S as SchemaError } from './errors.js';
import { m as median } from './roll-up.js';
import { D as DEFAULT_FRAGMENTATION_PERCENT, a as oomDevice, b as oomFiguresOf, m as modulesCurrentOf, o as oomCause } from './oom-cause.js';
import { f as findDeviceSegment } from './keys.js';

const GLOB_OPTIONS = { dot: true, windows: false };
const matchers = new Map();
function globMatches(glob, key) {
    let matcher = matchers.get(glob);
    if (matcher === undefined) {
        matcher = picomatch(glob, GLOB_OPTIONS);
        matchers.set(glob, matcher);
    }
    return matcher(key);
}
function matchRule(rules, key) {
    for (let i = 0; i < rules.length; i++)
        if (globMatches(rules[i].match, key))
            return rules[i];
    return undefined;
}
function exceedsTolerance(change, baseline, tolerance) {
    if (change <= 0)
        return false;
    if (tolerance.bytes !== undefined && change <= tolerance.bytes)
        return false;
    if (tolerance.percent !== undefined && baseline !== 0 && change * 100 <= Math.abs(baseline) * tolerance.percent)
        return false;
    return true;
}
function percentChange(baseline, current) {
    if (baseline === null || current === null || baseline === 0)
        return null;
    return ((current - baseline) / Math.abs(baseline)) * 100;
}
function sectionThresholds(config, declaration) {
    return config.sections[declaration.name] ?? { tolerance: { ...declaration.tolerance }, rules: [] };
}
function toTolerance(input, file, pointer) {
    const tolerance = {};
    if (input.percent !== undefined)
        tolerance.percent = input.percent;
    if (input.bytes !== undefined)
        tolerance.bytes = toBytes(input.bytes, file, `${pointer}/bytes`);
    return tolerance;
}
function toBytes(value, file, pointer) {
    const bytes = parseSize(value);
    if (bytes === null)
        throw new SchemaError(file, pointer, `must be at most 2^53 - 1 bytes, got ${JSON.stringify(value)}`);
    return bytes;
}

const DEVICE = 'device';
function defineFinding(declaration) {
    return declaration;
}

const PROCESS_TOTAL_ATTRIBUTE = 'DEV_PROC_MEM';
const PROFILER_MODULES_ATTRIBUTE = 'NPU_MODULE_MEM';
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
            estimate = {
                device: parts.device,
                bytes: 0,
                moduleSum: 0,
                moduleCount: 0,
                cached: 0,
                attributes: [],
                processTotal: null,
                profilerModuleSum: null,
            };
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
function plural(n, one) {
    return `${n} ${one}${n === 1 ? '' : 's'}`;
}
const NO_RULES$1 = [];
function isIgnored(key, config) {
    return matchRule(config.sections.modules?.rules ?? NO_RULES$1, key)?.ignore === true;
}
function compared(kind, key, baseline, current) {
    return {
        kind,
        key,
        baseline,
        current,
        delta: baseline === null ? null : current - baseline,
        percent: percentChange(baseline, current),
    };
}

const MiB = 1024 ** 2;
const HCCL_DEFAULTS = Object.freeze({ mode: 'single-op', ops: 0, domains: 1, buffSize: 200 * MiB });
const aboveReference = defineFinding({
    name: 'above-reference',
    statuses: [{ status: 'above-reference', policy: 'warn', description: 'Default warn.' }],
    config: {
        profile: {
            schema: {
                enum: ['training', 'inference'],
                description: 'Which reference costs of the CANN troubleshooting guide hold DEV_MEM GE and RUNTIME keys that have no baseline yet: training (PyTorch) GE 3 MiB, RUNTIME 26 MiB; inference (offline model) GE 86 MiB, RUNTIME 18 MiB. The guide\'s "M" is MiB. Unset: the larger of the two (GE 86 MiB, RUNTIME 26 MiB).',
            },
            defaults: null,
            parse: (input, defaults) => (input === undefined ? defaults : input),
        },
        hccl: {
            schema: {
                type: 'object',
                additionalProperties: false,
                required: ['links'],
                description: 'The HCCL reference cost for DEV_MEM HCCL keys with no baseline yet (CANN guide): links x 4 MiB (single-op) or links x ops x 0.3 MiB (graph), plus domains x 2 x buffSize. Unset: HCCL has no reference.',
                properties: {
                    links: {
                        title: 'a non-negative integer',
                        type: 'integer',
                        minimum: 0,
                        description: 'Communication links of one rank.',
                    },
                    mode: { enum: ['single-op', 'graph'], description: 'single-op (default) or graph.' },
                    ops: {
                        title: 'a non-negative integer',
                        type: 'integer',
                        minimum: 0,
                        description: 'Operators in the graph; required in graph mode.',
                    },
                    domains: {
                        title: 'a non-negative integer',
                        type: 'integer',
                        minimum: 0,
                        description: 'Communication domains (default 1), each with a send and a receive buffer of buffSize.',
                    },
                    buffSize: {
                        $ref: '#/definitions/size',
                        description: 'HCCL_BUFFSIZE as a size (the variable is in MB, read as MiB): default "200MiB". A plain integer is bytes: write "200MiB", not 200.',
                    },
                },
                if: { properties: { mode: { const: 'graph' } }, required: ['mode'] },
                then: { properties: { ops: true }, required: ['ops'] },
            },
            defaults: null,
            parse: (input, defaults, file, pointer) => input === undefined ? defaults : toHccl(input, file, pointer),
        },
        reference: {
            schema: {
                type: 'object',
                additionalProperties: false,
                description: 'above-reference (warn) when a key with no baseline peaks above factor x its reference cost: the guide\'s numbers are "about".',
                properties: {
                    factor: { title: 'a positive number', type: 'number', exclusiveMinimum: 0, description: 'Default 2.' },
                },
            },
            defaults: { factor: 2 },
            parse: (input, defaults) => ({
                factor: input?.factor ?? defaults.factor,
            }),
        },
    },
    writtenFor: ['modules'],
    rejudge: { derivedFrom: ['modules'] },
    assess: assessReferences,
});
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
            ? {
                bytes: Math.round(hccl.links * hccl.ops * HCCL_LINK_COST.graphPerOp),
                text: `${plural(hccl.links, 'link')} x ${plural(hccl.ops, 'op')} x 0.3 MiB`,
            }
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
function assessReferences({ baseline, current, config, }) {
    const policy = config.verdicts['above-reference'];
    if (policy === 'ignore')
        return [];
    const entries = [];
    const index = indexModules(metricsOf(current, modules));
    const baselineModules = metricsOf(baseline, modules);
    for (let i = 0; i < index.length; i++) {
        const { key, metric, parts } = index[i];
        if (Object.hasOwn(baselineModules, key) || isIgnored(key, config))
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
    return entries.sort((x, y) => compareKeys(x.key, y.key));
}
function toHccl(input, file, pointer) {
    return {
        links: input.links,
        mode: input.mode ?? HCCL_DEFAULTS.mode,
        ops: input.ops ?? HCCL_DEFAULTS.ops,
        domains: input.domains ?? HCCL_DEFAULTS.domains,
        buffSize: input.buffSize === undefined ? HCCL_DEFAULTS.buffSize : toBytes(input.buffSize, file, `${pointer}/buffSize`),
    };
}

const allocFailure = defineFinding({
    name: 'alloc-failure',
    statuses: [
        {
            status: 'alloc-failure',
            policy: 'fail',
            description: 'Allocation failures (halMemAlloc failed) on a device. Default fail: a job that survived an out-of-memory by retrying is not healthy.',
        },
    ],
    config: {},
    writtenFor: [DEVICE],
    rejudge: { kept: 'the failure lines the plog counted', withVerdict: [] },
    assess: assessAllocFailures,
});
function assessAllocFailures({ baseline, current, config, }) {
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
    return entries.sort((x, y) => compareKeys(x.key, y.key));
}

const fragmented = defineFinding({
    name: 'fragmented',
    statuses: [
        {
            status: 'fragmented',
            policy: 'warn',
            description: "Reserved memory unused at a memory snapshot's allocated peak beyond `fragmentation`. Default warn.",
        },
    ],
    config: {
        fragmentation: {
            schema: {
                type: 'object',
                additionalProperties: false,
                description: "fragmented (warn) when, at a memory snapshot's allocated peak, the reserved memory the program could not use exceeds both fields: (reserved - allocated) / reserved over `percent`, and reserved - allocated over `bytes`. Allocated counts requested bytes, so the allocator's rounding counts as fragmentation.",
                properties: {
                    percent: {
                        title: 'a percent from 0 to 100',
                        type: 'number',
                        minimum: 0,
                        maximum: 100,
                        description: 'Default 30.',
                    },
                    bytes: { $ref: '#/definitions/size', description: 'Default "1GiB".' },
                },
            },
            defaults: { percent: 30, bytes: 1024 ** 3 },
            parse: (raw, defaults, file, pointer) => {
                const input = raw;
                return {
                    percent: input?.percent ?? defaults.percent,
                    bytes: input?.bytes === undefined ? defaults.bytes : toBytes(input.bytes, file, `${pointer}/bytes`),
                };
            },
        },
    },
    writtenFor: ['allocator'],
    rejudge: {
        kept: "the memory snapshot's reserved and allocated bytes at the allocated peak",
        withVerdict: ['allocator'],
    },
    assess: assessFragmented,
});
function assessFragmented({ baseline, current, config, }) {
    const policy = config.verdicts.fragmented;
    if (policy === 'ignore')
        return [];
    const { percent, bytes } = config.fragmentation;
    const before = metricsOf(baseline, allocator);
    const gapOf = (m) => m.reserved - m.allocated;
    const entries = [];
    for (const [key, metric] of Object.entries(metricsOf(current, allocator)).sort((a, b) => compareKeys(a[0], b[0]))) {
        if (!key.endsWith('/allocated'))
            continue;
        const reserved = metric.reserved;
        const gap = gapOf(metric);
        if (reserved <= 0 || gap <= bytes || gap * 100 <= reserved * percent)
            continue;
        const was = Object.hasOwn(before, key) ? before[key] : undefined;
        const old = was === undefined ? null : gapOf(was);
        const where = metric.traceEntries === 0
            ? 'at dump time (no trace was recorded)'
            : `at the allocated peak (trace point ${metric.point} of ${metric.traceEntries})`;
        entries.push({
            kind: allocator.kind,
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
}

const DEFAULT_GROWTH = Object.freeze({
    warmupPercent: 20,
    tolerance: Object.freeze({ percent: 5, bytes: 64 * 1024 ** 2 }),
    warmupSteps: 1,
    perStep: 1024 ** 2,
    minWindows: 4,
});
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
    const levelRise = Math.min(...after.slice(after.length - quarter).map((p) => p[1])) -
        Math.min(...after.slice(0, quarter).map((p) => p[1]));
    let rise;
    let limit;
    let growing;
    if (series.axis === 'time') {
        rise = Math.round(slope * span);
        const bounds = [
            config.tolerance.percent === undefined ? null : (peak * config.tolerance.percent) / 100,
            config.tolerance.bytes ?? null,
        ].filter((b) => b !== null);
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
    return {
        axis: series.axis,
        from,
        to,
        slope,
        rise,
        limit,
        growing,
        note: growthNote(series.axis, after, slope, rise, noteLimit, growing, shape),
    };
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
    return slopes.length % 2 === 1
        ? slopes[mid]
        : (slopes[mid - 1] + slopes[mid]) / 2;
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

const growing = defineFinding({
    name: 'growing',
    statuses: [
        {
            status: 'growing',
            policy: 'warn',
            description: 'Memory that keeps rising over a run or from step to step. Default warn; "fail" to stop such a run.',
        },
    ],
    config: {
        growth: {
            schema: {
                type: 'object',
                additionalProperties: false,
                description: 'growing (warn) when a timeline keeps rising: after the warm-up, the Theil-Sen slope of its window peaks projects a rise across the rest of the run above the tolerance, the last half of the windows still rises and the troughs rise too (a saw-tooth within a band, or a rise that then stays flat, is not growth). Step series (one point per training step): at least perStep more per step after warmupSteps. Needs no baseline.',
                properties: {
                    warmupPercent: {
                        title: 'a percent from 0 to 90',
                        type: 'number',
                        minimum: 0,
                        maximum: 90,
                        description: "Default 20: the first 20% of a timeline's run is warm-up and not assessed.",
                    },
                    tolerance: {
                        $ref: '#/definitions/tolerance',
                        description: 'Default {"percent": 5, "bytes": "64MiB"}: the projected rise must exceed both; percent is of the series\' peak. Replaces the default as a whole.',
                    },
                    warmupSteps: {
                        title: 'a non-negative integer',
                        type: 'integer',
                        minimum: 0,
                        description: 'Default 1: step series skip their first step (weights, optimizer state, caches).',
                    },
                    perStep: {
                        $ref: '#/definitions/size',
                        description: 'Default "1MiB": the smallest steady rise per step that counts as growing.',
                    },
                    minWindows: {
                        title: 'an integer of at least 2',
                        type: 'integer',
                        minimum: 2,
                        description: 'Default 4: fewer window peaks (or steps) after warm-up give no verdict.',
                    },
                },
            },
            defaults: DEFAULT_GROWTH,
            parse: (raw, defaults, file, pointer) => {
                const input = raw;
                return {
                    warmupPercent: input?.warmupPercent ?? defaults.warmupPercent,
                    tolerance: input?.tolerance === undefined
                        ? defaults.tolerance
                        : toTolerance(input.tolerance, file, `${pointer}/tolerance`),
                    warmupSteps: input?.warmupSteps ?? defaults.warmupSteps,
                    perStep: input?.perStep === undefined ? defaults.perStep : toBytes(input.perStep, file, `${pointer}/perStep`),
                    minWindows: input?.minWindows ?? defaults.minWindows,
                };
            },
        },
    },
    writtenFor: ['modules', 'components', 'steps'],
    rejudge: { kept: "the run's timelines", withVerdict: ['modules', 'components'] },
    assess: assessGrowing,
});
function assessGrowing({ current, config }) {
    const policy = config.verdicts.growing;
    if (policy === 'ignore')
        return [];
    const entries = [];
    for (const declaration of SECTIONS) {
        if (!growing.writtenFor.includes(declaration.name))
            continue;
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
}

const headroom = defineFinding({
    name: 'headroom',
    statuses: [
        { status: 'over-capacity', policy: 'fail', description: 'Default fail.' },
        { status: 'low-headroom', policy: 'warn', description: 'Default warn.' },
    ],
    writesPass: true,
    config: {
        device: {
            schema: {
                $ref: '#/definitions/deviceLimits',
                description: 'Physical memory of every device and the headroom it must keep. Each device\'s estimated peak is the larger of (a) the sum of the peaks of all its modules in every device attribute (DEV_MEM, MEM_DEV_*, ...), CACHED sizes included: an UPPER BOUND, since peaks need not coincide; and (b) the process total DEV_PROC_MEM, which is never added to (a). Above `capacity`: over-capacity (fail); less than `minHeadroom` left: low-headroom (warn). Without a capacity there is no headroom verdict. Example: {"capacity": "64GiB", "minHeadroom": "10%"}. Default minHeadroom: 10%.',
            },
            defaults: { minHeadroom: { percent: 10 } },
            parse: (input, defaults, file, pointer) => ({
                ...defaults,
                ...toDeviceLimits((input ?? {}), file, pointer),
            }),
        },
        devices: {
            schema: {
                type: 'object',
                description: 'Per-device overrides by device name, merged field by field over `device`. Example: {"dev3": {"capacity": "32GiB"}}.',
                propertyNames: { title: 'a device name such as "dev3"', pattern: '^dev\\d+$' },
                additionalProperties: { $ref: '#/definitions/deviceLimits' },
            },
            defaults: {},
            parse: (input, defaults, file, pointer) => input === undefined
                ? defaults
                : Object.fromEntries(Object.entries(input).map(([name, limits]) => [
                    name,
                    toDeviceLimits(limits, file, `${pointer}/${name}`),
                ])),
        },
    },
    definitions: {
        deviceLimits: {
            type: 'object',
            additionalProperties: false,
            properties: {
                capacity: { $ref: '#/definitions/size', description: 'Physical memory of the device, e.g. "64GiB".' },
                minHeadroom: {
                    title: 'a share of the capacity such as "10%", or a byte size such as "4GiB"',
                    description: 'Memory that must stay free below the capacity: a percent (at most 100%) or a size with its unit. A bare number other than 0 (10, "10") is refused: write "10%" or "10B".',
                    type: ['integer', 'string'],
                    minimum: 0,
                    maximum: 0,
                    pattern: '^\\s*(0+(\\.0+)?|\\d+(\\.\\d+)?\\s*(%|[KkMmGgTt][Ii]?[Bb]|[Bb]))\\s*$',
                },
            },
        },
    },
    writtenFor: [DEVICE],
    rejudge: { derivedFrom: ['modules'] },
    assess: assessHeadroom,
});
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
function assessHeadroom({ baseline, current, config, }) {
    if (config.device.capacity === undefined && Object.values(config.devices).every((d) => d.capacity === undefined))
        return [];
    const before = estimateDevicePeaks(metricsOf(baseline, modules));
    const entries = [];
    for (const estimate of estimateDevicePeaks(metricsOf(current, modules)).values()) {
        const { capacity, minHeadroom } = deviceLimits(estimate.device, config);
        if (capacity === undefined)
            continue;
        const required = requiredHeadroom(capacity, minHeadroom);
        const headroomLimit = Math.max(0, capacity - required);
        const minimum = minHeadroom === undefined
            ? 'none'
            : 'percent' in minHeadroom
                ? `${minHeadroom.percent}% = ${formatBytes(required)}`
                : formatBytes(required);
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
    return entries.sort((a, b) => compareKeys(a.key, b.key));
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
function toDeviceLimits(input, file, pointer) {
    const limits = {};
    if (input.capacity !== undefined)
        limits.capacity = toBytes(input.capacity, file, `${pointer}/capacity`);
    if (input.minHeadroom !== undefined)
        limits.minHeadroom = toHeadroom(input.minHeadroom, file, `${pointer}/minHeadroom`);
    return limits;
}
function toHeadroom(value, file, pointer) {
    const percent = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value) : null;
    if (percent === null)
        return { bytes: toBytes(value, file, pointer) };
    const share = Number(percent[1]);
    if (share > 100)
        throw new SchemaError(file, pointer, `must be at most 100% of the capacity, got ${JSON.stringify(value)}`);
    return { percent: share };
}

const NO_RULES = [];
const imbalance = defineFinding({
    name: 'imbalance',
    statuses: [{ status: 'imbalance', policy: 'warn', description: 'Default warn.' }],
    config: {
        imbalance: {
            schema: {
                type: 'object',
                additionalProperties: false,
                description: "imbalance (warn) when a device's peak of a module deviates (either way) from the median of the same attribute and module over at least minDevices devices by more than the tolerance: a pipeline stage or a single leaking rank.",
                properties: {
                    tolerance: {
                        $ref: '#/definitions/tolerance',
                        description: 'Default {"percent": 20, "bytes": "1MiB"}: the deviation must exceed both; replaces the default as a whole.',
                    },
                    minDevices: {
                        title: 'an integer of at least 2',
                        type: 'integer',
                        minimum: 2,
                        description: 'Default 3: with two devices the median cannot tell which one is off.',
                    },
                },
            },
            defaults: { tolerance: { percent: 20, bytes: 1024 ** 2 }, minDevices: 3 },
            parse: (raw, defaults, file, pointer) => {
                const input = raw;
                return {
                    tolerance: input?.tolerance === undefined
                        ? defaults.tolerance
                        : toTolerance(input.tolerance, file, `${pointer}/tolerance`),
                    minDevices: input?.minDevices ?? defaults.minDevices,
                };
            },
        },
    },
    writtenFor: ['modules'],
    rejudge: { derivedFrom: ['modules'] },
    assess: assessImbalance,
});
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
    for (const members of imbalanceGroups(metricsOf(baseline, modules), config).values()) {
        if (members.length < minDevices)
            continue;
        const middle = median(members.map((m) => m.peak));
        for (const { key, peak } of members)
            if (exceedsTolerance(Math.abs(peak - middle), middle, tolerance))
                out.add(key);
    }
    return out;
}
function assessImbalance({ baseline, current, config, }) {
    const policy = config.verdicts.imbalance;
    if (policy === 'ignore')
        return [];
    const groups = imbalanceGroups(metricsOf(current, modules), config);
    const baselineModules = metricsOf(baseline, modules);
    const known = imbalancedInBaseline(baseline, config);
    const { tolerance, minDevices } = config.imbalance;
    const entries = [];
    for (const [group, members] of groups) {
        if (members.length < minDevices)
            continue;
        const middle = median(members.map((m) => m.peak));
        const allowed = allowedDeviation(middle, tolerance);
        const toleranceText = [
            tolerance.percent !== undefined ? `${tolerance.percent}%` : null,
            tolerance.bytes !== undefined ? formatBytes(tolerance.bytes) : null,
        ]
            .filter((part) => part !== null)
            .join(' and ');
        for (const { key, peak } of members) {
            const deviation = peak - middle;
            if (!exceedsTolerance(Math.abs(deviation), middle, tolerance))
                continue;
            const above = deviation > 0;
            const share = middle === 0 ? '' : `${((Math.abs(deviation) / middle) * 100).toFixed(1)}% `;
            const old = Object.hasOwn(baselineModules, key) ? baselineModules[key] : undefined;
            const keyTolerance = matchRule(config.sections.modules?.rules ?? NO_RULES, key)?.tolerance ??
                config.sections.modules?.tolerance ??
                modules.tolerance;
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
    return entries.sort((x, y) => compareKeys(x.key, y.key));
}

const leakSuspect = defineFinding({
    name: 'leak-suspect',
    statuses: [{ status: 'leak-suspect', policy: 'warn', description: 'Default warn.' }],
    config: {
        leaks: {
            schema: {
                type: 'object',
                additionalProperties: false,
                description: 'leak-suspect (warn) when a module\'s outstanding allocations at exit (alloc_cnt - free_cnt) grow from the baseline by more than EVERY field set: `count` and `percent` of the baseline\'s outstanding count (with 0 outstanding, any growth exceeds the percent). Keys whose records carry no counts are skipped. Replaces the default {"count": 0, "percent": 10} as a whole.',
                properties: {
                    count: { title: 'a non-negative integer', type: 'integer', minimum: 0 },
                    percent: { title: 'a non-negative number of percent', type: 'number', minimum: 0 },
                },
            },
            defaults: { count: 0, percent: 10 },
            parse: (input, defaults) => (input === undefined ? defaults : { ...input }),
        },
    },
    writtenFor: ['modules'],
    rejudge: { kept: "the modules' allocation and free counts", withVerdict: ['modules'] },
    assess: assessLeaks,
});
function outstandingAllocations(metric) {
    return metric.allocs === null || metric.frees === null ? null : metric.allocs - metric.frees;
}
function assessLeaks({ baseline, current, config, }) {
    const policy = config.verdicts['leak-suspect'];
    if (policy === 'ignore')
        return [];
    const { count, percent } = config.leaks;
    const entries = [];
    const index = indexModules(metricsOf(current, modules));
    const baselineModules = metricsOf(baseline, modules);
    for (let i = 0; i < index.length; i++) {
        const { key, metric } = index[i];
        const old = Object.hasOwn(baselineModules, key) ? baselineModules[key] : undefined;
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
        const tolerance = count !== undefined && share !== null
            ? `the larger of ${count} and ${share}`
            : (share ?? (count !== undefined ? `${count}` : 'none'));
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
    return entries.sort((x, y) => compareKeys(x.key, y.key));
}

const oom = defineFinding({
    name: 'oom',
    statuses: [
        {
            status: 'oom',
            policy: 'fail',
            description: "An out-of-memory of the caching allocator: a job log's OOM message or a memory snapshot trace's `oom` entry, explained as one of five causes (request larger than the device, refused with free memory, held outside the allocator, fragmentation, capacity). Default fail.",
        },
    ],
    config: {
        oom: {
            schema: {
                type: 'object',
                additionalProperties: false,
                description: "How an out-of-memory's cause is decided (job logs, memory snapshots): fragmentation when the memory PyTorch cached but had not allocated is at least the request and at least `fragmentationPercent` of the device.",
                properties: {
                    fragmentationPercent: {
                        title: 'a percent from 0 to 100',
                        type: 'number',
                        minimum: 0,
                        maximum: 100,
                        description: `Default ${DEFAULT_FRAGMENTATION_PERCENT}.`,
                    },
                },
            },
            defaults: { fragmentationPercent: DEFAULT_FRAGMENTATION_PERCENT },
            parse: (raw, defaults) => ({
                fragmentationPercent: raw?.fragmentationPercent ?? defaults.fragmentationPercent,
            }),
        },
    },
    writtenFor: ['ooms'],
    rejudge: { kept: 'the job log or memory snapshot the OOM was read from', withVerdict: [] },
    assess: (context) => assessOoms(context),
});
const NAMED = 3;
const CAUSE_TITLES = {
    'request-exceeds-device': 'Request larger than the device',
    'free-but-refused': 'Refused with free memory',
    'outside-allocator': 'Held outside the allocator',
    fragmentation: 'Fragmentation',
    capacity: 'Capacity',
    unknown: 'Cause unknown',
};
const NEXT_STEPS = {
    'request-exceeds-device': 'No setting makes this one tensor fit: split or shard it (sequence or tensor parallel, chunked attention, a fused kernel), or use a device with more memory.',
    'free-but-refused': 'Raise or remove the per-process memory fraction (set_per_process_memory_fraction), check `npu-smi info` for how the driver splits the free memory, and retry with PYTORCH_NPU_ALLOC_CONF=expandable_segments:True.',
    'outside-allocator': "Find what holds it: `npu-smi info` for other processes on the device (from a container that sees every device), HCCL_BUFFSIZE for HCCL's buffers, and the framework's own memory-utilisation setting (a serving engine's pool).",
    fragmentation: 'Set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True so segments grow in place instead of leaving holes (or max_split_size_mb below the request).',
    capacity: 'Hold less at that point: a smaller micro-batch, activation recomputation, ZeRO or tensor parallel, offload.',
    unknown: '',
};
function assessOoms({ current, config, }) {
    const policy = config.verdicts.oom;
    if (policy === 'ignore')
        return [];
    const tables = metricsOf(current, oomModules);
    const byEntry = new Map();
    const settings = { capacityOf: (device) => deviceLimits(device, config).capacity ?? null };
    for (const [key, metric] of Object.entries(metricsOf(current, ooms))) {
        const device = oomDevice(key);
        if (device === null)
            continue;
        const { figures, totalFrom } = oomFiguresOf(metric, device, modulesCurrentOf(tables, device), settings);
        const verdict = oomCause(figures, config.oom.fragmentationPercent);
        const id = `${device}/${verdict.cause}`;
        byEntry.set(id, [...(byEntry.get(id) ?? []), { key, metric, device, figures, verdict, totalFrom }]);
    }
    const entries = [];
    for (const [key, events] of [...byEntry].sort((a, b) => compareKeys(a[0], b[0]))) {
        events.sort((a, b) => b.figures.requested - a.figures.requested || compareKeys(a.key, b.key));
        const worst = events[0];
        const more = events.length - 1;
        const tail = more === 0
            ? ''
            : ` ${more} more OOM${more === 1 ? '' : 's'} of this cause on ${worst.device} (${events
                .slice(1, 1 + NAMED)
                .map((e) => e.key)
                .join(', ')}${more > NAMED ? ', …' : ''}).`;
        entries.push({
            kind: ooms.kind,
            key,
            baseline: null,
            current: worst.figures.requested,
            delta: null,
            percent: null,
            status: 'oom',
            severity: policy,
            rule: null,
            unit: 'bytes',
            note: explainOom(worst, current, config) + tail,
        });
    }
    return entries;
}
function explainOom(event, current, config) {
    const { metric: m, figures: f, verdict, device } = event;
    const R = formatBytes(f.requested);
    const b = (n) => (n === null ? '?' : formatBytes(n));
    const T = b(f.total);
    const totalNote = event.totalFrom === 'config'
        ? ' (the configured capacity)'
        : event.totalFrom === 'memUsageInfo'
            ? " (torch_npu's module table plus the free memory)"
            : '';
    const allowed = m.allowed ?? null;
    let text;
    switch (verdict.cause) {
        case 'request-exceeds-device':
            text = `${R} were requested on a device of ${T}${totalNote}.`;
            break;
        case 'free-but-refused':
            text =
                `the driver reported ${b(f.deviceFree)} free, at least the ${R} requested, yet the allocator refused` +
                    `${allowed === null ? '' : `: a memory-fraction cap of ${formatBytes(allowed)} was set`}.`;
            break;
        case 'outside-allocator':
            text =
                `of the ${T} device${totalNote}, PyTorch reserved ${b(f.reserved)} and ${b(f.deviceFree)} were free, so ${b(verdict.outside)} were held outside PyTorch's allocator ` +
                    `(more than inside it) when ${R} were requested.${processesText(m)}`;
            break;
        case 'fragmentation':
            text =
                `PyTorch held ${b(verdict.cached)} reserved but unallocated (${b(f.reserved)} reserved, ${b(f.allocated)} allocated), more than the ${R} requested, ` +
                    `but in no block that large${largestText(m, f.requested)}; ${b(f.deviceFree)} were free on the ${T} device${totalNote}.`;
            break;
        case 'capacity':
            text =
                `the program's own tensors filled the device: ${b(f.allocated)} allocated and ${b(f.reserved)} reserved of ${T}${totalNote}, ${b(f.deviceFree)} free, ` +
                    `${b(verdict.cached)} cached (${capacityCached(f, verdict, config)}).`;
            break;
        default:
            text = `${R} were requested${f.deviceFree === null ? '' : ` with ${b(f.deviceFree)} free`}${f.total === null ? '' : ` on a ${T} device`}, but ${unknownWhy(f)}.`;
    }
    const step = NEXT_STEPS[verdict.cause];
    const joined = joinedEvidence(event, current, config);
    const approx = m.precision === 'printed' ? ' Figures as the message printed them (rounded to 0.01 of their unit).' : '';
    return `${CAUSE_TITLES[verdict.cause]}: ${text}${step === '' ? '' : ` ${step}`}${joined}${approx} ${whereText(m)}`;
}
function capacityCached(f, verdict, config) {
    const cached = verdict.cached ?? 0;
    const largest = f.largestFreeBlock ?? null;
    if (largest !== null && largest >= f.requested && cached >= f.requested) {
        return `a free block of ${formatBytes(largest)} at dump time was as large as the request, yet could not serve it: it belongs to another stream or memory pool`;
    }
    return cached < f.requested
        ? `less than the ${formatBytes(f.requested)} requested`
        : `under ${config.oom.fragmentationPercent}% of the device`;
}
function unknownWhy(f) {
    if (f.total === null)
        return "the device's total memory is not known: set `device.capacity` in the config (or keep torch_npu's memUsageInfo CSV beside the OOM dump)";
    return "the message does not say how much PyTorch allocated and reserved: a memory snapshot (OOM_SNAPSHOT_ENABLE=1) or the plog's module figures would tell";
}
function processesText(m) {
    const own = m.processTotal ?? null;
    const list = parsedPairs(m.processes);
    const parts = [];
    if (list.length > 0)
        parts.push(`the driver listed ${list
            .slice(0, NAMED)
            .map(([pid, bytes]) => `process ${pid} with ${formatBytes(bytes)}`)
            .join(', ')}${list.length > NAMED ? ', …' : ''}`);
    if (own !== null)
        parts.push(`this process held ${formatBytes(own)} including non-PyTorch memory`);
    return parts.length === 0 ? '' : ` On the device ${parts.join('; ')}.`;
}
function largestText(m, requested) {
    const largest = m.largestFreeBlock;
    if (largest === null || largest >= requested)
        return '';
    return ` (the largest free block: ${formatBytes(largest)}, ${m.entriesAfter === 0 ? 'at dump time, which the OOM triggered' : 'at dump time'})`;
}
function joinedEvidence(event, current, config) {
    const { metric: m, verdict, device, key } = event;
    let out = '';
    const sites = holdersText(m.sites);
    if (sites !== '' && (verdict.cause === 'capacity' || verdict.cause === 'fragmentation'))
        out += ` Largest holders at the OOM: ${sites}.`;
    const table = modulesText(key, metricsOf(current, oomModules));
    if (table !== '')
        out += ` torch_npu's module table at the OOM: ${table}.`;
    if (verdict.cause === 'outside-allocator')
        out += driverText(device, current, config);
    return out;
}
function driverText(device, current, config) {
    const peaks = new Map();
    for (const [key, metric] of Object.entries(metricsOf(current, modules))) {
        const parts = parseModuleKey(key);
        if (parts === null || parts.device !== device || parts.attribute !== 'DEV_MEM' || parts.module === 'APP')
            continue;
        peaks.set(parts.module, Math.max(peaks.get(parts.module) ?? 0, metric.peak));
    }
    if (peaks.size === 0)
        return '';
    const listed = [...peaks].sort((a, b) => b[1] - a[1] || compareKeys(a[0], b[0])).slice(0, NAMED);
    let out = ` The plog's driver statistics for ${device} saw beyond PyTorch's pool: ${listed.map(([module, peak]) => `${module} ${formatBytes(peak)}`).join(', ')} at their peaks.`;
    const hccl = peaks.get('HCCL');
    const reference = hccl === undefined ? null : referenceCost('HCCL', config.profile, config.hccl);
    if (hccl !== undefined && reference !== null) {
        const ratio = reference.bytes === 0 ? null : hccl / reference.bytes;
        out += ` HCCL's ${formatBytes(hccl)} against ${reference.basis} = ${formatBytes(reference.bytes)}${ratio === null ? '' : ` (${ratio.toFixed(1)}x)`}.`;
    }
    else if (hccl !== undefined) {
        out += ' Configure `hccl` (links, domains, buffSize) to compare HCCL with its estimate.';
    }
    return out;
}
function whereText(m, device) {
    if (m.source === 'job log' || m.source === 'msMemScope dump') {
        const line = m.line ?? null;
        const times = m.printed ?? 1;
        const mapped = m.visibleDevices === null
            ? ''
            : `, where it is npu:${m.logicalDevice} of ASCEND_RT_VISIBLE_DEVICES=${m.visibleDevices}`;
        return `From ${m.file}${line === null ? '' : `:${line}`}${times > 1 ? ` (printed ${times} times)` : ''}${mapped}.`;
    }
    return originText(m);
}
function parsedPairs(value) {
    if (typeof value !== 'string')
        return [];
    let parsed;
    try {
        parsed = JSON.parse(value);
    }
    catch {
        return [];
    }
    if (!Array.isArray(parsed))
        return [];
    return parsed.filter((p) => Array.isArray(p) && (typeof p[0] === 'number' || typeof p[0] === 'string') && typeof p[1] === 'number');
}
function holdersText(sites) {
    return parsedPairs(sites)
        .slice(0, NAMED)
        .map(([site, bytes]) => `${site} ${formatBytes(bytes)}`)
        .join(', ');
}
function modulesText(key, tables) {
    const bounds = { start: 0, end: 0 };
    if (!findDeviceSegment(key, bounds))
        return '';
    const prefix = `${key.slice(0, bounds.end)}/`;
    return Object.entries(tables)
        .filter(([k]) => k.startsWith(prefix))
        .sort((a, b) => b[1].current - a[1].current || compareKeys(a[0], b[0]))
        .slice(0, NAMED)
        .map(([k, m]) => `${k.slice(prefix.length)} ${formatBytes(m.current)} (peak ${formatBytes(m.peak)})`)
        .join(', ');
}

const stepLeak = defineFinding({
    name: 'step-leak',
    statuses: [
        {
            status: 'step-leak',
            policy: 'warn',
            description: "msMemScope's leak rule over training steps (a block allocated during step k >= 2 still live at the end of step k+1). Default warn.",
        },
    ],
    config: {},
    writtenFor: ['stepLeaks'],
    rejudge: { kept: "the dump's blocks still live a step after they were allocated", withVerdict: [] },
    assess: assessStepLeaks,
});
function assessStepLeaks({ baseline, current, config }) {
    const policy = config.verdicts['step-leak'];
    if (policy === 'ignore')
        return [];
    const before = metricsOf(baseline, stepLeaks);
    const entries = [];
    for (const [key, metric] of Object.entries(metricsOf(current, stepLeaks)).sort((a, b) => compareKeys(a[0], b[0]))) {
        const bytes = metric.bytes;
        if (bytes <= 0)
            continue;
        const old = Object.hasOwn(before, key) ? (before[key]?.bytes ?? null) : null;
        entries.push({
            kind: stepLeaks.kind,
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
}

const unfreed = defineFinding({
    name: 'unfreed',
    statuses: [],
    alsoWrites: ['leak-suspect'],
    config: {},
    writtenFor: ['unfreed'],
    rejudge: { kept: "the dump's blocks never freed while tracing", withVerdict: [] },
    assess: assessUnfreed,
});
function assessUnfreed({ baseline, current, config, }) {
    const policy = config.verdicts['leak-suspect'];
    if (policy === 'ignore')
        return [];
    const thresholds = sectionThresholds(config, unfreed$1);
    const before = metricsOf(baseline, unfreed$1);
    const after = metricsOf(current, unfreed$1);
    if (Object.keys(before).length === 0)
        return [];
    const entries = [];
    for (const [key, metric] of Object.entries(after).sort((a, b) => compareKeys(a[0], b[0]))) {
        const rule = matchRule(thresholds.rules, key);
        if (rule?.ignore === true)
            continue;
        const bytes = metric.bytes;
        const was = Object.hasOwn(before, key) ? before[key] : undefined;
        const old = was?.bytes ?? 0;
        const tolerance = rule?.tolerance ?? thresholds.tolerance;
        if (!exceedsTolerance(bytes - old, old, tolerance))
            continue;
        const allowed = Math.max(tolerance.bytes ?? 0, tolerance.percent !== undefined ? Math.floor((old * tolerance.percent) / 100) : 0);
        entries.push({
            kind: unfreed$1.kind,
            key,
            baseline: was === undefined ? null : old,
            current: bytes,
            delta: bytes - old,
            percent: percentChange(old, bytes),
            status: 'leak-suspect',
            severity: policy,
            rule: rule?.match ?? null,
            limit: old + allowed,
            note: `memory never freed while tracing grew from ${old} to ${bytes} bytes (${metric.blocks} block(s)), more than the ${old + allowed} tolerated` +
                newBlocksNote(was?.sizes ?? '', metric.sizes),
        });
    }
    return entries;
}
function newBlocksNote(before, after) {
    const parse = (text) => {
        const counts = new Map();
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

const FINDINGS = [
    headroom,
    allocFailure,
    oom,
    fragmented,
    leakSuspect,
    aboveReference,
    imbalance,
    growing,
    stepLeak,
    unfreed,
];
const declared = FINDINGS;
const FINDING_STATUSES = declared.flatMap((d) => d.statuses.map((s) => s.status));
for (const status of declared.flatMap((d) => d.alsoWrites ?? [])) {
    if (!FINDING_STATUSES.includes(status))
        throw new Error(`no finding declares the status '${status}' that another writes`);
}
if (new Set(FINDING_STATUSES).size !== FINDING_STATUSES.length)
    throw new Error(`a finding status is declared twice: ${FINDING_STATUSES.join(', ')}`);
const DEFAULT_VERDICTS = Object.fromEntries(declared.flatMap((d) => d.statuses.map((s) => [s.status, s.policy])));
const FINDING_OPTIONS = declared.flatMap((d) => Object.entries(d.config));
function verdictsSchema() {
    return {
        type: 'object',
        additionalProperties: false,
        description: 'What each finding does: warn, fail, or ignore (not assessed at all).',
        properties: Object.fromEntries(declared.flatMap((d) => d.statuses.map((s) => [s.status, { $ref: '#/definitions/policy', description: s.description }]))),
    };
}
const FINDING_DEFINITIONS = Object.assign({}, ...declared.map((d) => d.definitions ?? {}));
const writers = new Map();
declared.forEach((finding, index) => {
    const statuses = [
        ...finding.statuses.map((s) => s.status),
        ...(finding.alsoWrites ?? []),
        ...(finding.writesPass === true ? ['pass'] : []),
    ];
    for (const name of finding.writtenFor) {
        const kind = name === DEVICE ? DEVICE : section(name).kind;
        for (const status of statuses) {
            const id = `${kind}\0${status}`;
            if (writers.has(id))
                throw new Error(`findings '${writers.get(id)?.finding.name}' and '${finding.name}' both write '${status}' on ${name}`);
            writers.set(id, { finding, index });
        }
    }
});
function writerOf(entry) {
    return writers.get(`${entry.kind}\0${entry.status}`);
}
function findingOrder(sectionOrder) {
    const rank = (e) => writerOf(e)?.index ?? declared.length;
    return (a, b) => rank(a) - rank(b) ||
        (sectionOrder.get(a.kind) ?? -1) - (sectionOrder.get(b.kind) ?? -1) ||
        compareKeys(a.key, b.key);
}

export { DEFAULT_VERDICTS as D, FINDINGS as F, FINDING_DEFINITIONS as a, FINDING_OPTIONS as b, toBytes as c, FINDING_STATUSES as d, exceedsTolerance as e, findingOrder as f, globMatches as g, deviceLimits as h, matchRule as m, percentChange as p, sectionThresholds as s, toTolerance as t, verdictsSchema as v, writerOf as w };

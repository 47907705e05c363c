import { w as ooms, m as metricsOf, r as oomModules } from './evidence-sources.js';

const DEFAULT_FRAGMENTATION_PERCENT = 5;
const known = (n) => n !== null && Number.isFinite(n) && n >= 0;
function oomCause(f, fragmentationPercent = DEFAULT_FRAGMENTATION_PERCENT) {
    const { requested: r, total: t, deviceFree: free, allocated: a, reserved: v } = f;
    const cached = known(a) && known(v) ? Math.max(0, v - a) : null;
    const outside = known(t) && known(v) && known(free) ? Math.max(0, t - v - free) : null;
    const verdict = (cause) => ({ cause, cached, outside });
    if (known(t) && r > t)
        return verdict('request-exceeds-device');
    if (known(free) && free >= r)
        return verdict('free-but-refused');
    if (cached === null || outside === null || !known(v) || !known(t))
        return verdict('unknown');
    if (outside >= v)
        return verdict('outside-allocator');
    const noBlock = !known(f.largestFreeBlock ?? null) || f.largestFreeBlock < r;
    if (noBlock && cached >= r && cached * 100 >= t * Math.max(0, fragmentationPercent))
        return verdict('fragmentation');
    return verdict('capacity');
}
const OOM_FIELD_DEFAULTS = {
    deviceFree: null,
    allocated: null,
    reserved: null,
    largestFreeBlock: null,
    entriesAfter: null,
    sites: '[]',
    total: null,
    active: null,
    allowed: null,
    processTotal: null,
    processes: null,
    cause: 'unknown',
    source: 'memory snapshot',
    precision: 'exact',
    line: null,
    printed: 1,
    visibleDevices: null,
};
function oomFiguresOf(metric, device, modulesCurrent, settings) {
    const free = metric.deviceFree;
    let total = metric.total ?? null;
    let totalFrom = total === null ? null : 'message';
    const configured = device === null || settings === undefined ? null : settings.capacityOf(device);
    if (total === null && configured !== null)
        [total, totalFrom] = [configured, 'config'];
    if (total === null && modulesCurrent !== null && free !== null)
        [total, totalFrom] = [modulesCurrent + free, 'memUsageInfo'];
    return {
        figures: {
            requested: metric.requested,
            total,
            deviceFree: free,
            allocated: metric.allocated,
            reserved: metric.reserved,
            largestFreeBlock: metric.largestFreeBlock,
        },
        totalFrom,
    };
}
function modulesCurrentOf(modules, device) {
    let sum = null;
    const prefix = `${device}/`;
    for (const [key, metric] of Object.entries(modules))
        if (key.startsWith(prefix))
            sum = (sum ?? 0) + metric.current;
    return sum;
}
function oomDevice(key) {
    const m = /^(dev\d+)\//.exec(key);
    return m === null ? null : m[1];
}
function withOomCauses(snapshot, settings) {
    if (!Object.hasOwn(snapshot.sections, ooms.name))
        return snapshot;
    const events = metricsOf(snapshot, ooms);
    const modules = metricsOf(snapshot, oomModules);
    const next = {};
    let changed = false;
    for (const [key, metric] of Object.entries(events)) {
        const device = oomDevice(key);
        const { figures } = oomFiguresOf(metric, device, device === null ? null : modulesCurrentOf(modules, device), settings);
        const { cause } = oomCause(figures, settings?.fragmentationPercent);
        if (metric.cause !== cause)
            changed = true;
        next[key] = metric.cause === cause ? metric : { ...metric, cause };
    }
    return changed ? { ...snapshot, sections: { ...snapshot.sections, ooms: next } } : snapshot;
}

export { DEFAULT_FRAGMENTATION_PERCENT as D, OOM_FIELD_DEFAULTS as O, oomDevice as a, oomFiguresOf as b, modulesCurrentOf as m, oomCause as o, withOomCauses as w };

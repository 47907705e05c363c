import { I as InputError, a as fileSystemFailure } from './errors.js';

const UNITS = {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    TB: 1e12,
    KIB: 1024,
    MIB: 1024 ** 2,
    GIB: 1024 ** 3,
    TIB: 1024 ** 4,
};
const MAX_EXACT_BYTES = Number.MAX_SAFE_INTEGER;
const BEYOND_EXACT = '2^53 - 1 bytes';
function readExactInteger(text) {
    if (!/^[+-]?\d+$/.test(text))
        return null;
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : 'too-large';
}
function exactSum(a, b) {
    const sum = a + b;
    return Number.isSafeInteger(sum) ? sum : null;
}
function parseExactInteger(text, where) {
    if (!/^-?\d+$/.test(text))
        return null;
    const value = readExactInteger(text);
    if (value === 'too-large')
        throw new InputError(`${where}: ${text} is larger than ${BEYOND_EXACT} and cannot be compared exactly`);
    return value;
}
function parseSize(value) {
    if (typeof value === 'number')
        return Number.isSafeInteger(value) && value >= 0 ? value : null;
    const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$/i.exec(value);
    if (!m || (m[2] === undefined && Number(m[1]) !== 0))
        return null;
    const unit = UNITS[(m[2] ?? 'B').toUpperCase()];
    if (unit === undefined)
        return null;
    const bytes = Math.round(Number(m[1]) * unit);
    return Number.isSafeInteger(bytes) ? bytes : null;
}
function bareNumber(text) {
    const m = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
    return m === null || Number(m[1]) === 0 ? null : m[1];
}
function formatBytes(bytes) {
    const sign = bytes < 0 ? '-' : '';
    let n = Math.abs(bytes);
    if (n < 1024)
        return `${sign}${n} B`;
    const names = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
    let i = -1;
    while (n >= 1024 && i < names.length - 1) {
        n /= 1024;
        i++;
    }
    return `${sign}${n.toFixed(1)} ${names[i]}`;
}
function formatDelta(bytes) {
    return bytes > 0 ? `+${formatBytes(bytes)}` : formatBytes(bytes);
}
const FACTOR_FROM = 100;
function formatFactor(percent) {
    const factor = 1 + percent / 100;
    return factor > FACTOR_FROM && Number.isFinite(factor) ? `×${formatCount(Math.round(factor))}` : null;
}
function formatCount(n) {
    if (!Number.isSafeInteger(n) || Object.is(n, -0))
        return n.toLocaleString('en-US');
    const digits = String(Math.abs(n));
    let out = digits.length % 3 === 0 ? '' : digits.slice(0, digits.length % 3);
    for (let i = digits.length % 3; i < digits.length; i += 3)
        out += `${out === '' ? '' : ','}${digits.slice(i, i + 3)}`;
    return n < 0 ? `-${out}` : out;
}

function defineSection(declaration) {
    return declaration;
}

const PROCESS_DEVICE_FIELDS = {
    file: {
        type: 'string',
        description: 'The snapshot file this device came from (the larger peak wins when several files name one device).',
    },
    logicalDevice: { type: 'count', description: "The device index the file gave (the process's logical index)." },
    visibleDevices: {
        type: 'stringOrNull',
        description: "ASCEND_RT_VISIBLE_DEVICES that mapped the logical index to the key's physical device, or null when the key keeps the logical index.",
    },
};
function originText(metric) {
    const mapped = metric.visibleDevices === null
        ? ''
        : `, where it is npu:${metric.logicalDevice} of ASCEND_RT_VISIBLE_DEVICES=${metric.visibleDevices}`;
    return `From ${metric.file}${mapped}.`;
}
const UNTRACED_NOTE = 'No trace was recorded (_record_memory_history was off)';
const ALLOCATOR_FIELDS = {
    peak: {
        type: 'bytes',
        description: 'allocated: the most live requested bytes at any point of the trace; reserved: the most segment bytes. The latest such point is the peak point. Without a trace: the dump-time value.',
    },
    atDump: {
        type: 'bytes',
        description: "At dump time: allocated, the requested bytes of the live blocks (as every allocated figure here; the segments' allocated_size is block-rounded); reserved, the sum of total_size of the device's segments.",
    },
    allocated: { type: 'bytes', description: "Live requested bytes at this key's peak point." },
    reserved: {
        type: 'bytes',
        description: "Reserved (segment) bytes at this key's peak point; for the allocated key, (reserved − allocated) / reserved is the fragmentation at the allocated peak.",
    },
    point: { type: 'count', description: 'The peak point: trace entries applied (the trace length: dump time).' },
    traceEntries: {
        type: 'count',
        description: "Entries in the device's trace; 0: no trace was recorded, only dump-time figures exist.",
    },
    segments: { type: 'count', description: 'Segments at dump time.' },
    largestSegment: { type: 'bytes', description: 'The largest segment at dump time.' },
    largestFreeBlock: { type: 'bytes', description: 'The largest free (inactive) block at dump time.' },
    ...PROCESS_DEVICE_FIELDS,
};
function share(part, whole) {
    return whole === 0 ? '0.0%' : `${((part / whole) * 100).toFixed(1)}%`;
}
function describeAllocator(key, m) {
    const origin = originText(m);
    if (m.traceEntries === 0) {
        const what = key.endsWith('/reserved')
            ? `${formatCount(m.segments)} segment(s) at dump time`
            : 'live requested bytes at dump time';
        return `${UNTRACED_NOTE}: only dump-time figures, ${what}. ${origin}`;
    }
    const at = `trace point ${formatCount(m.point)} of ${formatCount(m.traceEntries)}`;
    if (key.endsWith('/reserved')) {
        return `Peak at ${at}, ${formatBytes(m.allocated)} allocated there; at dump time ${formatBytes(m.atDump)} in ${formatCount(m.segments)} segment(s), the largest free block ${formatBytes(m.largestFreeBlock)}. ${origin}`;
    }
    const gap = m.reserved - m.peak;
    return `Peak at ${at}, with ${formatBytes(m.reserved)} reserved: ${formatBytes(gap)} (${share(gap, m.reserved)}) reserved but not allocated (fragmentation and rounding). ${origin}`;
}
const allocator = defineSection({
    name: 'allocator',
    kind: 'allocator',
    title: 'Caching allocator',
    description: "Peak allocated (requested) and peak reserved bytes of torch_npu's caching allocator per device, over the memory snapshot's trace (at dump time without one), e.g. dev0/allocated, dev0/reserved.",
    keyShape: 'devN/allocated|reserved',
    example: 'dev0/reserved',
    value: 'peak',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 64 * 1024 ** 2 },
    source: 'torch_npu memory snapshot (pickle)',
    describe: describeAllocator,
    tableNote: 'allocated: requested bytes (what the program asked for, before the allocator rounds blocks up); reserved: segment bytes. A device without a trace (TRACEENTRIES 0) has dump-time figures only.',
    logicalDevices: true,
    deviceRow: {
        figures: [
            { figure: 'allocated', title: 'Allocated peak' },
            { figure: 'reserved', title: 'Reserved peak' },
        ],
        gap: 'Reserved − allocated',
        note: "Allocated and reserved peaks of the caching allocator (memory snapshots), each at its own peak point; the gap is reserved memory the program did not hold at those peaks, and the allocated key's note gives the fragmentation at the allocated peak exactly.",
    },
    fields: ALLOCATOR_FIELDS,
});

const MAX_SITE_LINES = 32;
const LINES_SHOWN = 3;
function linesField(lines) {
    const kept = [...lines].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, MAX_SITE_LINES);
    return JSON.stringify(kept.sort((a, b) => a[0] - b[0]));
}
function siteLines(field) {
    if (field === undefined)
        return [];
    try {
        const parsed = JSON.parse(field);
        if (!Array.isArray(parsed))
            return [];
        return parsed
            .filter((l) => Array.isArray(l) && l.length === 3 && l.every((v) => typeof v === 'number' && Number.isSafeInteger(v)))
            .slice(0, MAX_SITE_LINES);
    }
    catch {
        return [];
    }
}
function lineChanges(before, after) {
    const b = [...before].sort((x, y) => x[0] - y[0]);
    const a = [...after].sort((x, y) => x[0] - y[0]);
    const cost = Array.from({ length: b.length + 1 }, () => Array.from({ length: a.length + 1 }, () => [0, 0]));
    const better = (x, y) => x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
    for (let i = b.length; i >= 0; i--) {
        for (let j = a.length; j >= 0; j--) {
            if (i === b.length && j === a.length)
                continue;
            let best = null;
            const take = (c) => {
                if (best === null || better(c, best))
                    best = c;
            };
            const bi = b[i];
            const aj = a[j];
            if (bi !== undefined && aj !== undefined) {
                const next = cost[i + 1][j + 1];
                take([next[0] + Math.abs(aj[1] - bi[1]), next[1] + Math.abs(aj[0] - bi[0])]);
            }
            if (bi !== undefined) {
                const next = cost[i + 1][j];
                take([next[0] + bi[1], next[1]]);
            }
            if (aj !== undefined) {
                const next = cost[i][j + 1];
                take([next[0] + aj[1], next[1]]);
            }
            cost[i][j] = best;
        }
    }
    const changes = [];
    let i = 0;
    let j = 0;
    const at = (x, y) => cost[x][y];
    while (i < b.length || j < a.length) {
        const bi = b[i];
        const aj = a[j];
        const here = at(i, j);
        const same = (c) => c[0] === here[0] && c[1] === here[1];
        if (bi !== undefined &&
            aj !== undefined &&
            same([at(i + 1, j + 1)[0] + Math.abs(aj[1] - bi[1]), at(i + 1, j + 1)[1] + Math.abs(aj[0] - bi[0])])) {
            changes.push({ line: aj[0], delta: aj[1] - bi[1], gone: false });
            i++;
            j++;
        }
        else if (bi !== undefined && same([at(i + 1, j)[0] + bi[1], at(i + 1, j)[1]])) {
            changes.push({ line: bi[0], delta: -bi[1], gone: true });
            i++;
        }
        else {
            changes.push({ line: aj[0], delta: aj[1], gone: false });
            j++;
        }
    }
    return changes;
}
function linesText(current, baseline) {
    const after = siteLines(current?.lines);
    if (current !== undefined && baseline !== undefined) {
        const delta = current.bytes - baseline.bytes;
        if (delta === 0)
            return '';
        const moved = lineChanges(siteLines(baseline.lines), after)
            .filter((c) => Math.sign(c.delta) === Math.sign(delta))
            .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.line - y.line);
        const shown = moved
            .slice(0, LINES_SHOWN)
            .map((c) => `line ${c.line}: ${formatDelta(c.delta)}${c.gone ? ' (gone)' : ''}`);
        if (moved.length > LINES_SHOWN)
            shown.push(`${formatCount(moved.length - LINES_SHOWN)} more line(s)`);
        return shown.length === 0 ? '' : `${formatDelta(delta)} (${shown.join(', ')})`;
    }
    const lines = siteLines((current ?? baseline)?.lines).sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    const shown = lines.slice(0, LINES_SHOWN).map(([line, bytes]) => `line ${line}: ${formatBytes(bytes)}`);
    if (lines.length > LINES_SHOWN)
        shown.push(`${formatCount(lines.length - LINES_SHOWN)} more line(s)`);
    return shown.join(', ');
}
const LINE_KEY = /^([^/]*dev\d+)\/(.*):(-?\d+) (.*)$/s;
function foldLineSites(sections) {
    if (sections === null || typeof sections !== 'object' || !Object.hasOwn(sections, 'allocationSites'))
        return null;
    const sites = sections.allocationSites;
    if (sites === null || typeof sites !== 'object' || Array.isArray(sites))
        return null;
    const record = sites;
    const isMetric = (m) => m !== null &&
        typeof m === 'object' &&
        !Array.isArray(m) &&
        Number.isSafeInteger(m.bytes) &&
        Number.isSafeInteger(m.blocks);
    const groups = new Map();
    let from = 0;
    for (const key of Object.keys(record)) {
        const metric = record[key];
        const m = LINE_KEY.exec(key);
        if (m === null || !isMetric(metric) || !m[2].endsWith('.py')) {
            if (isMetric(metric) && !Object.hasOwn(metric, 'lines'))
                metric.lines = '[]';
            continue;
        }
        const to = `${m[1]}/${m[2]} ${m[4].replaceAll(' ', '_')}`;
        let group = groups.get(to);
        if (group === undefined)
            groups.set(to, (group = []));
        group.push({ key, line: Number(m[3]), metric });
        from++;
    }
    if (from === 0)
        return null;
    const folded = [];
    const replaced = new Set();
    const combined = new Map();
    for (const [to, group] of groups) {
        let bytes = 0;
        let blocks = 0;
        for (const g of group) {
            const b = exactSum(bytes, g.metric.bytes);
            const n = exactSum(blocks, g.metric.blocks);
            if (b === null || n === null)
                return null;
            bytes = b;
            blocks = n;
        }
        for (const g of group)
            replaced.add(g.key);
        const largest = group.reduce((x, y) => y.metric.bytes > x.metric.bytes || (y.metric.bytes === x.metric.bytes && y.line < x.line) ? y : x);
        const existing = record[to];
        if (isMetric(existing) && existing.bytes >= bytes)
            continue;
        combined.set(to, {
            ...largest.metric,
            bytes,
            blocks,
            lines: linesField(group.map((g) => [g.line, g.metric.bytes, g.metric.blocks])),
        });
    }
    for (const key of Object.keys(record))
        if (!replaced.has(key))
            folded.push([key, combined.get(key) ?? record[key]]);
    for (const [key, metric] of combined)
        if (!Object.hasOwn(record, key))
            folded.push([key, metric]);
    sections.allocationSites = Object.fromEntries(folded);
    return { from, to: groups.size };
}
const allocationSites = defineSection({
    name: 'allocationSites',
    kind: 'allocationSite',
    title: 'Allocation sites',
    description: 'Live requested bytes at the allocated peak of a memory snapshot, by device and the function of the first frame of user code of each block (not torch, torch_npu, the standard library or C++; <unknown> without one), its file relative to the source root, e.g. dev0/model/attention.py forward; its lines are its detail, so a line that moves changes no key.',
    keyShape: 'devN/<file> <function>',
    example: 'dev0/model/attention.py forward',
    value: 'bytes',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 64 * 1024 ** 2 },
    source: 'torch_npu memory snapshot (pickle) with stacks recorded',
    describe: (_key, m, baseline) => {
        const lines = linesText(m, baseline);
        return `${lines === '' ? '' : `${lines}. `}${formatCount(m.blocks)} block(s) live at the allocated peak. ${originText(m)}`;
    },
    logicalDevices: true,
    deviceRow: { figures: [] },
    fields: {
        bytes: {
            type: 'bytes',
            description: "Requested bytes of the blocks live at the allocated peak (at dump time without a trace), summed over the function's lines.",
        },
        blocks: { type: 'count', description: 'How many blocks.' },
        lines: {
            type: 'string',
            description: `The function's lines that hold them, as JSON: [[line, bytes, blocks], …] in line order, the largest ${MAX_SITE_LINES} at most; [] for <unknown>.`,
        },
        codeRoot: {
            type: 'string',
            description: "The folder the site paths are relative to: the source root, the common folder of the file's user frames, or a package's site-packages; '' for absolute paths.",
        },
        ...PROCESS_DEVICE_FIELDS,
    },
});

const components = defineSection({
    name: 'components',
    kind: 'component',
    title: 'Components',
    description: 'Peak memory per device, component and figure from the profilers, e.g. dev0/PTA/reserved (torch_npu memory_record: allocated, reserved, active) or dev0/APP/hbm (msprof npu_mem: hbm, ddr).',
    keyShape: 'devN/<COMPONENT>/<figure>',
    example: 'dev0/PTA/reserved',
    value: 'peak',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 1024 ** 2 },
    source: 'profiler memory_record.csv and npu_mem CSVs',
    fields: {
        peak: {
            type: 'bytes',
            description: 'The largest value of the figure over every row of the component on the device (exact bytes: MB × 2^20, KB × 2^10).',
        },
    },
});

const graphs = defineSection({
    name: 'graphs',
    kind: 'graph',
    title: 'Static graphs',
    description: 'Memory of each static graph as the TOTAL row of static_op_mem says (never the sum of its rows), by key <device>/<Model Name>/<Graph ID>, e.g. host/0/1.',
    keyShape: '<host|devN>/<model>/<graph>',
    example: 'host/0/1',
    value: 'size',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 1024 ** 2 },
    source: 'profiler static_op_mem.csv',
    fields: {
        size: { type: 'bytes', description: 'Size(KB) of the TOTAL row, in bytes.' },
    },
});

const inefficient = defineSection({
    name: 'inefficient',
    kind: 'inefficient',
    title: 'Inefficient memory',
    description: 'Blocks msMemScope marked with inefficient_type, per device and type, e.g. dev0/early_allocation.',
    keyShape: 'devN/<type>',
    example: 'dev0/early_allocation',
    value: 'bytes',
    unit: 'bytes',
    tolerance: { percent: 10, bytes: 1024 ** 2 },
    source: 'msMemScope event dump (inefficient analysis)',
    fields: {
        bytes: { type: 'bytes', description: 'Bytes of the marked blocks.' },
        count: { type: 'count', description: 'How many blocks.' },
    },
});

const kernels = defineSection({
    name: 'kernels',
    kind: 'kernel',
    title: 'Kernels',
    description: 'Per-kernel memory_compare aggregates by key, e.g. dev0/aclnnMatmul_0.',
    keyShape: 'devN/<kernel>',
    example: 'dev0/aclnnMatmul_0',
    value: 'diff',
    unit: 'bytes',
    tolerance: { bytes: 0 },
    source: 'memory_compare CSV',
    fields: {
        diff: {
            type: 'signedBytes',
            description: 'Sum of Diff Memory over every row (launch) of this kernel on this device.',
        },
        rows: { type: 'count', description: 'Rows (launches) summed.' },
        added: { type: 'count', description: 'Rows whose Base is N/A: launches only in the compare run.' },
        removed: { type: 'count', description: 'Rows whose Compare is N/A: launches only in the base run.' },
        event: {
            type: 'stringOrNull',
            description: 'KERNEL_LAUNCH / OP_LAUNCH, or null for header generations without an Event column.',
        },
    },
});

const modules = defineSection({
    name: 'modules',
    kind: 'module',
    title: 'Modules',
    description: "Module memory statistics by key, e.g. DEV_MEM/dev0/APP or SVM_MEM/RUNTIME; the profiler's npu_module_mem as NPU_MODULE_MEM/dev0/HCCL.",
    keyShape: '<ATTR>[/devN]/<MODULE>',
    example: 'DEV_MEM/dev0/APP',
    value: 'peak',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 1024 ** 2 },
    source: 'plog memory statistics; profiler npu_module_mem.csv (Total Reserved)',
    fields: {
        peak: {
            type: 'bytes',
            description: 'alloced/allocated_peak_size, total_size for DEV_PROC_MEM, the size for CACHED; the largest Total Reserved for NPU_MODULE_MEM.',
        },
        current: { type: 'bytes', description: 'current_alloced_size, or the peak where the format has none.' },
        allocs: { type: 'countOrNull', description: 'alloc_cnt, when the record has it.' },
        frees: { type: 'countOrNull', description: 'free_cnt, when the record has it.' },
    },
});

const opFootprint = defineSection({
    name: 'opFootprint',
    kind: 'opFootprint',
    title: "Op footprint (ours, not msMemScope's)",
    description: "Per device and op, the largest net framework-pool allocation inside one START..END window of the op (ascend-memory-gate's metric, not msMemScope's), e.g. dev0/torch._ops.aten.mm.default.",
    keyShape: 'devN/<op>',
    example: 'dev0/torch._ops.aten.mm.default',
    value: 'net',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 1024 ** 2 },
    source: 'msMemScope event dump (OP_LAUNCH start/end rows)',
    fields: {
        net: {
            type: 'signedBytes',
            description: 'The largest MALLOC minus FREE bytes of the framework pools inside one window of the op.',
        },
        peak: { type: 'bytes', description: 'The largest running sum inside one window.' },
        launches: { type: 'count', description: 'Windows (launches) of the op.' },
    },
});

const oomModules = defineSection({
    name: 'oomModules',
    kind: 'oomModule',
    title: 'Modules at the OOM',
    description: "torch_npu's per-module device memory at an OOM (device_<N>_memUsageInfo_<ts>.csv beside the OOM snapshot), e.g. dev0/PTA.",
    keyShape: 'devN/<module>',
    example: 'dev0/PTA',
    value: 'peak',
    unit: 'bytes',
    tolerance: { bytes: 0 },
    source: 'torch_npu memUsageInfo CSV (HDK ≥ 25.5.0, CANN ≥ 8.5.0)',
    compared: false,
    logicalDevices: true,
    deviceRow: { figures: [] },
    fields: {
        peak: { type: 'bytes', description: 'memPeakSize(MB) in bytes (the CSV has 4 decimals of MiB: within 53 bytes).' },
        current: { type: 'bytes', description: 'curMemSize(MB) in bytes, at the OOM.' },
        ...PROCESS_DEVICE_FIELDS,
    },
});

const ooms = defineSection({
    name: 'ooms',
    kind: 'oom',
    title: 'Out-of-memory events',
    description: "Each out-of-memory event by device: a memory snapshot trace's `oom` entry (dev0/oom1), a job log's OOM message, once per log, device and figures (dev0/log-<hash>), or an msMemScope dump's OOM_DETAIL/OOM_TRIGGER row (dev0/dump-<hash>), with its figures and cause.",
    keyShape: 'devN/oom<k> | devN/log-<hash> | devN/dump-<hash>',
    example: 'dev0/oom1',
    value: 'requested',
    unit: 'bytes',
    tolerance: { bytes: 0 },
    source: 'job logs (the OOM message torch_npu or PyTorch prints), torch_npu memory snapshots (OOM_SNAPSHOT_ENABLE dumps, or a trace recorded through an OOM), msMemScope dumps (OOM_DETAIL rows)',
    compared: false,
    logicalDevices: true,
    deviceRow: { figures: [] },
    fields: {
        requested: {
            type: 'bytes',
            description: 'R: the request (a snapshot: rounded as the allocator rounds it; a log: as printed).',
        },
        deviceFree: {
            type: 'bytesOrNull',
            description: 'F: free device memory the driver reported (aclrtGetMemInfo); null when the evidence does not say.',
        },
        allocated: {
            type: 'bytesOrNull',
            description: 'A: allocated by the caching allocator at the OOM (a snapshot: live requested bytes from the trace).',
        },
        reserved: { type: 'bytesOrNull', description: 'V: reserved (segment) bytes of the caching allocator at the OOM.' },
        largestFreeBlock: {
            type: 'bytesOrNull',
            description: 'The largest free cached block at dump time (memory snapshots; exact at the OOM when entriesAfter is 0).',
        },
        entriesAfter: {
            type: 'countOrNull',
            description: "Trace entries after the OOM (memory snapshots); 0 when the OOM triggered the dump, as torch_npu's OOM observer does.",
        },
        kind: {
            type: 'string',
            optional: true,
            description: 'Written before `cause` existed (fragmentation or capacity); read, never written.',
        },
        sites: {
            type: 'string',
            description: "The largest allocation sites live at the OOM, as JSON: [[site, bytes, codeRoot], …], at most five; codeRoot as allocationSites' field. [] without a snapshot.",
        },
        total: {
            type: 'bytesOrNull',
            optional: true,
            description: "T: the device's total memory as the message printed it; null when the evidence does not say (the gate then takes the configured capacity).",
        },
        active: { type: 'bytesOrNull', optional: true, description: "torch_npu's `current active` bytes, when printed." },
        allowed: {
            type: 'bytesOrNull',
            optional: true,
            description: 'The per-process memory-fraction cap (`P allowed`), when printed.',
        },
        processTotal: {
            type: 'bytesOrNull',
            optional: true,
            description: 'This process\'s memory including non-PyTorch memory ("Including non-PyTorch memory, this process has …"), when printed.',
        },
        processes: {
            type: 'stringOrNull',
            optional: true,
            description: 'The processes the driver listed on the device, as JSON [[pid, bytes], …] ("Process N has M memory in use."), or null.',
        },
        cause: {
            type: 'string',
            optional: true,
            description: 'request-exceeds-device, free-but-refused, outside-allocator, fragmentation, capacity or unknown: the first rule that holds (src/model/oom-cause.ts); the gate decides it again with its config.',
        },
        source: {
            type: 'string',
            optional: true,
            description: '`job log`, `memory snapshot` or `msMemScope dump`: which evidence the figures came from.',
        },
        precision: {
            type: 'string',
            optional: true,
            description: '`exact` (bytes), or `printed`: rounded to two decimals of their unit as the message printed them (±0.005 of the unit).',
        },
        line: {
            type: 'countOrNull',
            optional: true,
            description: "The line of the job log where the message was first printed, or of the dump's OOM_TRIGGER row; null for snapshots.",
        },
        printed: {
            type: 'count',
            optional: true,
            description: 'How many times the log printed this event (re-raised, logged twice, repeated across a cluster).',
        },
        ...PROCESS_DEVICE_FIELDS,
    },
});

const operators = defineSection({
    name: 'operators',
    kind: 'operator',
    title: 'Operators',
    description: "The largest single allocation per device and operator from the profilers' operator_memory CSVs, e.g. dev0/aten::empty_strided.",
    keyShape: 'devN/<operator>',
    example: 'dev0/aten::empty_strided',
    value: 'largest',
    unit: 'bytes',
    tolerance: { percent: 10, bytes: 16 * 1024 ** 2 },
    source: 'profiler operator_memory.csv',
    fields: {
        largest: {
            type: 'bytes',
            description: 'The largest Size(KB) of one allocation by this operator on this device, in bytes.',
        },
        count: {
            type: 'count',
            description: 'Allocations by this operator in the file (rows with a size; releases without an allocation are not counted).',
        },
        total: { type: 'bytes', description: 'The sum of those allocations, in bytes.' },
    },
});

const owners = defineSection({
    name: 'owners',
    kind: 'owner',
    title: 'Owners',
    description: 'Peak live bytes per owner bucket (weights, gradients, optimizer, activations, workspace, hccl, cann-other, kv-cache) and device, e.g. dev0/optimizer.',
    keyShape: 'devN/<bucket>',
    example: 'dev0/optimizer',
    value: 'peak',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 1024 ** 2 },
    source: 'msMemScope event dump with decompose owner labels',
    fields: {
        peak: { type: 'bytes', description: 'The largest live bytes of the bucket at any time of the trace.' },
    },
});

const stepLeaks = defineSection({
    name: 'stepLeaks',
    kind: 'stepLeak',
    title: 'Step leaks',
    description: "Framework-pool blocks allocated during step k >= 2 and still live at the end of step k+1 (msMemScope's rule), by device and pool, e.g. dev0/PTA.",
    keyShape: 'devN/<POOL>',
    example: 'dev0/PTA',
    value: 'bytes',
    unit: 'bytes',
    tolerance: { bytes: 0 },
    source: 'msMemScope event dump (mstx step ranges or SYSTEM/STEP rows)',
    compared: false,
    fields: {
        bytes: { type: 'bytes', description: 'Bytes of the leaked blocks.' },
        blocks: { type: 'count', description: 'How many blocks.' },
        top: {
            type: 'string',
            description: 'The owners (or first call-stack lines, or the pool) with the most leaked bytes, at most three: `PTA@weight 4000256×2`.',
        },
    },
});

const steps = defineSection({
    name: 'steps',
    kind: 'step',
    title: 'Training steps',
    description: 'Allocated bytes of a framework pool (PTA, ATB, MindSpore) at the peak and at the end of each training step, by key, e.g. dev0/PTA/step3/peak.',
    keyShape: 'devN/<POOL>/step<k>/peak|end',
    example: 'dev0/PTA/step3/peak',
    value: 'bytes',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 1024 ** 2 },
    source: 'msMemScope event dump (mstx step ranges or SYSTEM/STEP rows)',
    fields: {
        bytes: {
            type: 'bytes',
            description: "The pool's allocated bytes (MALLOC +size, FREE -size since tracing began) at the step's peak or end.",
        },
        step: { type: 'count', description: 'The step number (per process, from 1).' },
    },
});

const unfreed = defineSection({
    name: 'unfreed',
    kind: 'unfreed',
    title: 'Unfreed at the end of tracing',
    description: 'Blocks never freed while tracing, by device, pool and owner (or first call-stack line, or the pool), e.g. dev0/PTA/PTA@weight; growth beyond tolerance is leak-suspect.',
    keyShape: 'devN/<POOL>/<owner>',
    example: 'dev0/HAL/HAL',
    value: 'bytes',
    unit: 'bytes',
    tolerance: { bytes: 1024 ** 2 },
    source: 'msMemScope event dump',
    compared: false,
    fields: {
        bytes: {
            type: 'bytes',
            description: 'Bytes of the blocks never freed while tracing (no FREE, or only a shadow:true FREE).',
        },
        blocks: { type: 'count', description: 'How many blocks.' },
        largest: { type: 'bytes', description: 'The largest block.' },
        ids: { type: 'string', description: 'Dump IDs of the first (lowest) ten blocks, space-separated.' },
        sizes: {
            type: 'string',
            description: 'The 20 largest distinct block sizes with their counts, descending: `4000256x2 1536 512x3`.',
        },
    },
});

const SECTIONS = [
    modules,
    components,
    operators,
    graphs,
    kernels,
    steps,
    stepLeaks,
    unfreed,
    owners,
    opFootprint,
    inefficient,
    allocator,
    allocationSites,
    ooms,
    oomModules,
];
const byName$1 = new Map(SECTIONS.map((s) => [s.name, s]));
const byKind = new Map(SECTIONS.map((s) => [s.kind, s]));
function section(name) {
    const found = byName$1.get(name);
    if (found === undefined)
        throw new Error(`no section is declared with the name '${name}'`);
    return found;
}
function sectionOfKind(kind) {
    return byKind.get(kind);
}
function valueOf(declaration, metric) {
    const v = metric[declaration.value];
    return typeof v === 'number' ? v : 0;
}
function combineMetrics(declaration, a, b) {
    const va = valueOf(declaration, a);
    const vb = valueOf(declaration, b);
    if (va !== vb)
        return va > vb ? a : b;
    if (sameMetric(a, b))
        return a;
    return canonical(a) >= canonical(b) ? a : b;
}
function sameMetric(a, b) {
    let n = 0;
    for (const k in a) {
        if (a[k] !== b[k] || !Object.prototype.hasOwnProperty.call(b, k))
            return false;
        n++;
    }
    for (const _ in b)
        if (--n < 0)
            return false;
    return n === 0;
}
function canonical(metric) {
    return JSON.stringify(Object.keys(metric)
        .sort()
        .map((k) => [k, metric[k]]));
}

function compareKeys(a, b) {
    if (a === b)
        return 0;
    const fast = compareAsciiKeys(a, b);
    if (fast !== undefined)
        return fast;
    return (keyCollator ??= checkedCollator()).compare(a, b);
}
function fileKeyOrder(a, b) {
    return compareKeys(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
let keyCollator;
const ASCII_PRIMARY_RANKS = Int16Array.from([
    ...new Array(0x20).fill(-1),
    0,
    6,
    10,
    22,
    32,
    23,
    21,
    9,
    11,
    12,
    18,
    26,
    3,
    2,
    8,
    19,
    33,
    34,
    35,
    36,
    37,
    38,
    39,
    40,
    41,
    42,
    5,
    4,
    27,
    28,
    29,
    7,
    17,
    43,
    44,
    45,
    46,
    47,
    48,
    49,
    50,
    51,
    52,
    53,
    54,
    55,
    56,
    57,
    58,
    59,
    60,
    61,
    62,
    63,
    64,
    65,
    66,
    67,
    68,
    13,
    20,
    14,
    25,
    1,
    24,
    43,
    44,
    45,
    46,
    47,
    48,
    49,
    50,
    51,
    52,
    53,
    54,
    55,
    56,
    57,
    58,
    59,
    60,
    61,
    62,
    63,
    64,
    65,
    66,
    67,
    68,
    15,
    30,
    16,
    31,
    -1,
]);
function checkedCollator(table = ASCII_PRIMARY_RANKS) {
    const derived = primaryRanks();
    if (derived.some((rank, c) => rank !== table[c])) {
        throw new Error(`this Node.js's ICU ${process.versions.icu ?? '(unknown version)'} orders ASCII characters differently from ascend-memory-gate's built-in table; run the gate with the Node.js version its Action declares, and report this`);
    }
    return new Intl.Collator('en', { numeric: true });
}
function primaryRanks() {
    const base = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
    const chars = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).sort(base.compare);
    const ranks = new Int16Array(0x80).fill(-1);
    let rank = 0;
    for (let i = 0; i < chars.length; i++) {
        if (i > 0 && base.compare(chars[i - 1], chars[i]) !== 0)
            rank++;
        ranks[chars[i].charCodeAt(0)] = rank;
    }
    return ranks;
}
const isDigit = (c) => c >= 0x30 && c <= 0x39;
const isPrintable = (c) => c >= 0x20 && c <= 0x7e;
function compareAsciiKeys(a, b) {
    const ranks = ASCII_PRIMARY_RANKS;
    let i = 0;
    let j = 0;
    for (;;) {
        while (i < a.length && j < b.length) {
            const c = a.charCodeAt(i);
            if (c !== b.charCodeAt(j))
                break;
            if (!isPrintable(c))
                return undefined;
            i++;
            j++;
        }
        const ca = i < a.length ? a.charCodeAt(i) : -1;
        const cb = j < b.length ? b.charCodeAt(j) : -1;
        if ((i > 0 && isDigit(a.charCodeAt(i - 1))) || isDigit(ca) || isDigit(cb)) {
            let back = 0;
            while (i - back > 0 && isDigit(a.charCodeAt(i - back - 1)))
                back++;
            const startA = i - back;
            const startB = j - back;
            let endA = i;
            while (endA < a.length && isDigit(a.charCodeAt(endA)))
                endA++;
            let endB = j;
            while (endB < b.length && isDigit(b.charCodeAt(endB)))
                endB++;
            if ((endA < a.length && !isPrintable(a.charCodeAt(endA))) ||
                (endB < b.length && !isPrintable(b.charCodeAt(endB))))
                return undefined;
            if (endA > startA && endB > startB && (endA > i || endB > j)) {
                const order = compareDigitRuns(a, startA, endA, b, startB, endB);
                if (order !== undefined)
                    return order;
                i = endA;
                j = endB;
                continue;
            }
            if (endA === startA && endB > startB)
                return rankAgainst(ca, ranks);
            if (endB === startB && endA > startA) {
                const flipped = rankAgainst(cb, ranks);
                return flipped === undefined ? undefined : -flipped;
            }
        }
        if (ca === -1 || cb === -1) {
            const next = ca === -1 ? cb : ca;
            if (!isPrintable(next))
                return undefined;
            return ca === -1 ? -1 : 1;
        }
        if (!isPrintable(ca) || !isPrintable(cb))
            return undefined;
        const ra = ranks[ca];
        const rb = ranks[cb];
        if (ra !== rb)
            return ra < rb ? -1 : 1;
        i++;
        j++;
    }
}
function rankAgainst(c, ranks) {
    if (c === -1)
        return -1;
    if (!isPrintable(c))
        return undefined;
    return ranks[c] < ranks[0x30] ? -1 : 1;
}
function compareDigitRuns(a, startA, endA, b, startB, endB) {
    while (startA < endA - 1 && a.charCodeAt(startA) === 0x30)
        startA++;
    while (startB < endB - 1 && b.charCodeAt(startB) === 0x30)
        startB++;
    const lengthA = endA - startA;
    const lengthB = endB - startB;
    if (lengthA !== lengthB)
        return lengthA < lengthB ? -1 : 1;
    for (let k = 0; k < lengthA; k++) {
        const d = a.charCodeAt(startA + k) - b.charCodeAt(startB + k);
        if (d !== 0)
            return d < 0 ? -1 : 1;
    }
    return undefined;
}

const FREEZE_RECORDS = typeof process !== 'undefined' && process.env.VITEST !== undefined;
const asWritten = new WeakSet();
const holdsKeys = new WeakSet();
const knownKeys = new WeakMap();
function noteWritten(record, keys) {
    asWritten.add(record);
    noteKeys(record, keys);
    if (FREEZE_RECORDS)
        for (const key of keys)
            Object.freeze(record[key]);
}
function isWritten(record) {
    return asWritten.has(record);
}
function noteKeys(record, keys) {
    knownKeys.set(record, keys);
    if (FREEZE_RECORDS)
        Object.freeze(record);
}
function keysOf(record) {
    return knownKeys.get(record) ?? Object.keys(record);
}
function isEmptyRecord(record) {
    const known = knownKeys.get(record);
    if (known !== undefined)
        return known.length === 0;
    if (holdsKeys.has(record))
        return false;
    for (const key in record) {
        if (Object.hasOwn(record, key)) {
            holdsKeys.add(record);
            if (FREEZE_RECORDS)
                Object.freeze(record);
            return false;
        }
    }
    return true;
}
function setOwn(record, key, value) {
    if (key === '__proto__')
        Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
    else
        record[key] = value;
}

const MAX_POINTS = 200;
class SeriesBuilder {
    axis;
    width = 1;
    buckets = new Map();
    whole = null;
    constructor(axis) {
        this.axis = axis;
    }
    add(x, y) {
        if (!Number.isFinite(x) || !Number.isFinite(y))
            return;
        const bucket = Math.floor(x / this.width);
        const prev = this.buckets.get(bucket);
        if (prev === undefined || y > prev) {
            this.buckets.set(bucket, y);
            if (prev === undefined && this.buckets.size > MAX_POINTS)
                this.coarsen();
        }
    }
    addSeries(series) {
        if (series.axis !== this.axis)
            throw new Error(`cannot merge a ${series.axis} series into a ${this.axis} series`);
        if (series.axis === 'trace') {
            if (this.whole === null || wholeOrder(series, this.whole) > 0)
                this.whole = { axis: series.axis, width: series.width, points: series.points.map(([x, y]) => [x, y]) };
            return;
        }
        while (this.width < series.width)
            this.coarsenOnce();
        for (const [x, y] of series.points)
            this.add(x, y);
    }
    toSeries() {
        if (this.whole !== null)
            return { axis: this.whole.axis, width: this.whole.width, points: this.whole.points.map(([x, y]) => [x, y]) };
        const points = [...this.buckets]
            .sort((a, b) => a[0] - b[0])
            .map(([bucket, y]) => [bucket * this.width, y]);
        return { axis: this.axis, width: this.width, points };
    }
    coarsen() {
        while (this.buckets.size > MAX_POINTS)
            this.coarsenOnce();
    }
    coarsenOnce() {
        const next = new Map();
        for (const [bucket, y] of this.buckets) {
            const b = Math.floor(bucket / 2);
            const prev = next.get(b);
            if (prev === undefined || y > prev)
                next.set(b, y);
        }
        this.width *= 2;
        this.buckets.clear();
        for (const [b, y] of next)
            this.buckets.set(b, y);
    }
}
function wholeOrder(a, b) {
    const peak = (s) => s.points.reduce((m, p) => Math.max(m, p[1]), -Infinity);
    const last = (s) => s.points.length === 0 ? 0 : s.points[s.points.length - 1][0] + s.width;
    const ta = JSON.stringify(a.points);
    const tb = JSON.stringify(b.points);
    return peak(a) - peak(b) || last(a) - last(b) || a.width - b.width || (ta < tb ? -1 : ta > tb ? 1 : 0);
}

const SNAPSHOT_VERSION = 2;
const MAX_SITES_PER_DEVICE = 5;
const MAX_SITE_TEXT = 300;
function metricsOf(snapshot, section) {
    const name = typeof section === 'string' ? section : section.name;
    return Object.hasOwn(snapshot.sections, name) ? snapshot.sections[name] : {};
}
const MAX_NOTES = 100;
class SnapshotBuilder {
    sections = new Map();
    parts = new Map();
    series = new Map();
    allocFailures = new Map();
    allocFailureSites = new Map();
    nodes = new Map();
    skippedRecords = [];
    notes = [];
    files = 0;
    records = 0;
    skipped = 0;
    lastDeclaration;
    putMetric(sectionName, key, metric, copy) {
        const declaration = this.declaration(sectionName);
        const metrics = this.sections.get(sectionName) ?? this.sectionMap(sectionName);
        const prev = metrics.get(key);
        if (prev === undefined)
            metrics.set(key, copy ? { ...metric } : metric);
        else {
            const kept = combineMetrics(declaration, prev, metric);
            if (kept !== prev)
                metrics.set(key, copy ? { ...kept } : kept);
        }
    }
    add(section, key, metric) {
        this.putMetric(section.name, key, metric, true);
    }
    addSample(sectionName, key, axis, x, y) {
        this.seriesBuilder(sectionName, key, axis).add(x, y);
    }
    addSeries(sectionName, key, series) {
        this.seriesBuilder(sectionName, key, series.axis).addSeries(series);
    }
    noteDevice(device) {
        if (!this.allocFailures.has(device))
            this.allocFailures.set(device, 0);
    }
    addAllocFailure(device, count = 1, where) {
        this.allocFailures.set(device, (this.allocFailures.get(device) ?? 0) + count);
        if (where !== undefined)
            this.addSite(device, where);
    }
    addNode(name, node) {
        const prev = this.nodes.get(name);
        this.nodes.set(name, prev === undefined ? cloneNode(node) : combineNodes(prev, node));
    }
    allocFailureSitesOf(device) {
        return this.allocFailureSites.get(device);
    }
    addSkipped(record) {
        this.skipped++;
        if (this.skippedRecords.length < 1000 || (record.cut === true && this.skippedRecords.length < 2000))
            this.skippedRecords.push(record);
    }
    addNote(note) {
        if (this.notes.length < MAX_NOTES)
            this.notes.push(note);
    }
    merge(from) {
        const other = from instanceof SnapshotBuilder ? from.toState() : from;
        for (const [name, metrics] of other.sections)
            for (const [k, v] of metrics)
                this.putMetric(name, k, v, false);
        for (const [name, byKey] of other.series)
            for (const [k, s] of byKey)
                this.addSeries(name, k, s);
        for (const [d, n] of other.allocFailures) {
            this.noteDevice(d);
            this.addAllocFailure(d, n);
        }
        for (const [d, sites] of other.allocFailureSites)
            for (const site of sites)
                this.addSite(d, site);
        for (const [name, node] of other.nodes)
            this.addNode(name, node);
        this.files += other.files;
        this.records += other.records;
        this.skipped += other.skipped;
        for (const r of other.skippedRecords)
            if (this.skippedRecords.length < 1000 || (r.cut === true && this.skippedRecords.length < 2000))
                this.skippedRecords.push(r);
        for (const n of other.notes)
            this.addNote(n);
    }
    addSnapshot(snapshot) {
        for (const [name, metrics] of Object.entries(snapshot.sections)) {
            if (!this.sections.has(name)) {
                this.declaration(name);
                const parts = this.parts.get(name);
                if (parts === undefined)
                    this.parts.set(name, [metrics]);
                else
                    parts.push(metrics);
                continue;
            }
            for (const k of Object.keys(metrics))
                this.putMetric(name, k, metrics[k], false);
        }
        for (const [name, byKey] of Object.entries(snapshot.series))
            for (const [k, s] of Object.entries(byKey))
                this.addSeries(name, k, s);
        for (const [d, n] of Object.entries(snapshot.meta.allocFailures)) {
            this.noteDevice(d);
            this.addAllocFailure(d, n);
        }
        for (const [d, sites] of Object.entries(snapshot.meta.allocFailureSites ?? {}))
            for (const site of sites)
                this.addSite(d, site);
        for (const [name, node] of Object.entries(snapshot.meta.nodes ?? {}))
            this.addNode(name, node);
        this.files += snapshot.meta.files;
        this.records += snapshot.meta.records;
        this.skipped += snapshot.meta.skipped;
    }
    toState() {
        for (const name of [...this.parts.keys()])
            this.sectionMap(name);
        const series = new Map();
        for (const [name, byKey] of this.series)
            series.set(name, new Map([...byKey].map(([k, b]) => [k, b.toSeries()])));
        return {
            sections: this.sections,
            series,
            allocFailures: this.allocFailures,
            allocFailureSites: this.allocFailureSites,
            nodes: this.nodes,
            skippedRecords: this.skippedRecords,
            notes: this.notes,
            files: this.files,
            records: this.records,
            skipped: this.skipped,
        };
    }
    build() {
        const sections = {};
        for (const name of [...new Set([...this.sections.keys(), ...this.parts.keys()])].sort()) {
            const parts = this.parts.get(name);
            if (parts?.length === 1) {
                const adopted = parts[0];
                if (!isEmptyRecord(adopted))
                    sections[name] = adopted;
                continue;
            }
            if (parts !== undefined) {
                const joined = joinInOrder(parts);
                if (joined !== undefined) {
                    if (!isEmptyRecord(joined))
                        sections[name] = joined;
                    continue;
                }
            }
            const metrics = this.sections.get(name) ?? this.sectionMap(name);
            if (metrics.size > 0) {
                const keys = [...metrics.keys()].sort(fileKeyOrder);
                const record = {};
                for (const key of keys)
                    setOwn(record, key, fieldsInOrder(metrics.get(key)));
                noteWritten(record, keys);
                sections[name] = record;
            }
        }
        const series = {};
        for (const name of [...this.series.keys()].sort()) {
            const byKey = this.series.get(name);
            series[name] = sortedRecord(new Map([...byKey].map(([k, b]) => [k, b.toSeries()])), fileKeyOrder);
        }
        const meta = {
            files: this.files,
            records: this.records,
            skipped: this.skipped,
            allocFailures: sortedRecord(this.allocFailures, compareKeys),
        };
        if (this.allocFailureSites.size > 0)
            meta.allocFailureSites = sortedRecord(this.allocFailureSites, compareKeys);
        if (this.nodes.size > 0)
            meta.nodes = sortedRecord(new Map([...this.nodes].map(([name, node]) => [name, cloneNode(node)])), compareKeys);
        return { version: SNAPSHOT_VERSION, sections, series, meta };
    }
    declaration(name) {
        if (this.lastDeclaration?.name === name)
            return this.lastDeclaration;
        this.lastDeclaration = section(name);
        return this.lastDeclaration;
    }
    sectionMap(name) {
        const metrics = new Map();
        const parts = this.parts.get(name) ?? [];
        this.parts.delete(name);
        this.sections.set(name, metrics);
        for (const part of parts)
            for (const key of keysOf(part))
                this.putMetric(name, key, part[key], false);
        return metrics;
    }
    seriesBuilder(sectionName, key, axis) {
        this.declaration(sectionName);
        let byKey = this.series.get(sectionName);
        if (byKey === undefined) {
            byKey = new Map();
            this.series.set(sectionName, byKey);
        }
        let builder = byKey.get(key);
        if (builder === undefined) {
            builder = new SeriesBuilder(axis);
            byKey.set(key, builder);
        }
        else if (builder.axis !== axis) {
            throw new Error(`series ${sectionName}/${key} is on the ${builder.axis} axis, not ${axis}`);
        }
        return builder;
    }
    addSite(device, where) {
        const site = {
            file: where.file,
            line: where.line,
            text: where.text.length > MAX_SITE_TEXT ? `${where.text.slice(0, MAX_SITE_TEXT - 1)}…` : where.text,
        };
        const sites = this.allocFailureSites.get(device) ?? [];
        if (sites.some((s) => s.file === site.file && s.line === site.line))
            return;
        sites.push(site);
        sites.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
        if (sites.length > MAX_SITES_PER_DEVICE)
            sites.length = MAX_SITES_PER_DEVICE;
        this.allocFailureSites.set(device, sites);
    }
}
function cloneNode(node) {
    const environment = Object.fromEntries(Object.keys(node.environment)
        .sort()
        .map((k) => [k, node.environment[k]]));
    return {
        devices: [...node.devices].sort(compareKeys),
        files: node.files,
        records: node.records,
        skipped: node.skipped,
        environment,
    };
}
function combineNodes(a, b) {
    const environment = { ...a.environment };
    for (const [item, value] of Object.entries(b.environment)) {
        const prev = Object.hasOwn(environment, item) ? environment[item] : undefined;
        if (prev === undefined || value > prev)
            Object.defineProperty(environment, item, { value, enumerable: true, writable: true, configurable: true });
    }
    return cloneNode({
        devices: [...new Set([...a.devices, ...b.devices])],
        files: a.files + b.files,
        records: a.records + b.records,
        skipped: a.skipped + b.skipped,
        environment,
    });
}
function joinInOrder(parts) {
    const record = {};
    const keys = [];
    let previous;
    for (const part of parts) {
        for (const key of keysOf(part)) {
            if (previous !== undefined && fileKeyOrder(previous, key) >= 0)
                return undefined;
            setOwn(record, key, fieldsInOrder(part[key]));
            keys.push(key);
            previous = key;
        }
    }
    noteWritten(record, keys);
    return record;
}
function fieldsInOrder(metric) {
    const keys = Object.keys(metric);
    let inOrder = true;
    for (let i = 1; inOrder && i < keys.length; i++)
        inOrder = keys[i - 1] < keys[i];
    if (inOrder)
        return metric;
    const copy = {};
    for (const key of keys.sort())
        setOwn(copy, key, metric[key]);
    return copy;
}
function sortedRecord(map, order) {
    const record = {};
    for (const key of [...map.keys()].sort(order))
        setOwn(record, key, map.get(key));
    return record;
}
function hasNoMetrics(snapshot) {
    return Object.values(snapshot.sections).every(isEmptyRecord);
}
function totalAllocFailures(meta) {
    return Object.values(meta.allocFailures).reduce((a, b) => a + b, 0);
}
function isEmptySnapshot(snapshot) {
    return hasNoMetrics(snapshot) && Object.keys(snapshot.series).length === 0 && totalAllocFailures(snapshot.meta) === 0;
}

const TABLES = '{memory_record,operator_memory,npu_module_mem,static_op_mem,npu_mem}';
const DIRECTORY_PATTERNS = [
    `**/*_ascend_pt/**/${TABLES}.csv`,
    `**/*_ascend_ms/**/${TABLES}.csv`,
    `**/PROF_*/mindstudio_profiler_output/${TABLES}_*.csv`,
    `${TABLES}.csv`,
    `${TABLES}_*.csv`,
    '!**/*_ascend_pt/**/PROF_*/**',
    '!**/*_ascend_ms/**/PROF_*/**',
];
const FOLDER_PATTERNS = [
    { folder: '*_ascend_pt', patterns: [`**/${TABLES}.csv`, '!**/PROF_*/**'] },
    { folder: '*_ascend_ms', patterns: [`**/${TABLES}.csv`, '!**/PROF_*/**'] },
    { folder: 'PROF_*', patterns: [`mindstudio_profiler_output/${TABLES}_*.csv`] },
];
const SEARCH_HINT = '**/*_ascend_pt/**/<table>.csv **/*_ascend_ms/**/<table>.csv **/PROF_*/<merged>/<table>_*.csv <table>.csv <table>_*.csv, ' +
    'where <table> is memory_record, operator_memory, npu_module_mem, static_op_mem or npu_mem and <merged> is ' +
    'mindstudio_profiler_output (not the PROF_* copies inside *_ascend_pt or *_ascend_ms); ' +
    'a PROF_*, *_ascend_pt or *_ascend_ms folder given itself is searched as what it is';

const SOURCES = [
    {
        name: 'plog',
        option: 'plog',
        input: 'plog',
        label: 'plog',
        description: 'plog files of the driver (memory statistics, allocation failures)',
        directoryPatterns: ['**/*.log'],
        noFigures: 'was the job run with run logs enabled (plog under run/plog, ASCEND_PROCESS_LOG_PATH), and did the processes exit normally so the driver could print its "Mem stats" lines?',
        load: async () => ({ parseFile: (await import('./plog.js')).parsePlogFile }),
    },
    {
        name: 'compare',
        option: 'compare',
        input: 'memory-compare',
        label: 'memory_compare',
        description: 'memory_compare CSVs of msLeaks/msMemScope --compare',
        directoryPatterns: ['**/memory_compare_*.csv', '**/stepintercompare_*.csv'],
        noFigures: 'do they have rows after their two header lines? (msMemScope --compare writes a row per aligned launch)',
        load: async () => ({ parseFile: (await import('./memory-compare.js')).parseMemoryCompareFile }),
    },
    {
        name: 'profiler',
        option: 'profiler',
        input: 'profiler',
        label: 'profiler',
        description: 'memory CSVs of the torch_npu profiler (profile_memory=True), msprof and MindSpore (memory_record, npu_mem, npu_module_mem, operator_memory, static_op_mem)',
        directoryPatterns: DIRECTORY_PATTERNS,
        folderPatterns: FOLDER_PATTERNS,
        searchHint: SEARCH_HINT,
        noFigures: 'was the profiler run with profile_memory=True (torch_npu) or with memory data collected (msprof, MindSpore), and do the CSVs have rows after the header?',
        load: async () => ({ parseFile: (await import('./profiler.js')).parseFile }),
    },
    {
        name: 'snapshot',
        option: 'snapshot',
        input: 'snapshot',
        label: 'snapshot',
        description: 'snapshots written by `ascend-memory-gate snapshot` / `mode: snapshot` on each node (*.memory-snapshot.json)',
        directoryPatterns: ['**/*.memory-snapshot.json'],
        orderFree: true,
        noFigures: 'were the snapshots written on nodes that had evidence (their inputs found files)?',
        load: async () => ({ parseFile: (await import('./node-snapshot-file.js')).parseNodeSnapshotFile }),
    },
    {
        name: 'memorySnapshot',
        option: 'memory-snapshot',
        input: 'memory-snapshot',
        label: 'memory snapshot',
        description: 'torch_npu allocator memory snapshots (_dump_snapshot, OOM_SNAPSHOT_ENABLE dumps: *.pickle, *.pkl, also .gz or .zst): peak allocated and reserved, fragmentation, OOMs explained, allocation sites',
        directoryPatterns: ['**/*.pickle', '**/*.pkl'],
        noFigures: 'did the snapshots hold segments or a trace (_record_memory_history before the steps, _dump_snapshot after them, or OOM_SNAPSHOT_ENABLE)?',
        runOptions: [
            {
                name: 'source-root',
                value: 'DIR',
                description: "memory snapshots' allocation sites are written relative to DIR (default: the longest folder common to the sites' files)",
            },
        ],
        load: async () => {
            const m = await import('./source.js');
            return { parseFile: m.parseAllocatorSnapshotFile, finish: m.finishAllocatorSnapshots };
        },
    },
    {
        name: 'jobLog',
        option: 'job-log',
        input: 'job-log',
        label: 'job log',
        description: "the job's own log (stdout/stderr as CI or the launcher captured it; *.log, *.txt, *.out, also .gz or .zst): its OOM messages, each explained, and CANN allocation failures",
        directoryPatterns: ['**/*.log', '**/*.txt', '**/*.out', '**/*.log.gz', '**/*.txt.gz', '**/*.out.gz'],
        searchedByDefault: false,
        noFigures: 'did the job run out of device memory? Only "NPU/CUDA out of memory. Tried to allocate …" messages and CANN allocation failures (EL0004, halMemAlloc failed) are read',
        load: async () => {
            const m = await import('./job-log.js');
            return { parseFile: m.parseJobLogFile, finish: m.finishJobLogs };
        },
    },
    {
        name: 'dump',
        option: 'dump',
        input: 'memscope-dump',
        label: 'msMemScope dump',
        description: 'msMemScope/msLeaks event dumps (memscope_dump_*.csv): steps, step leaks, unfreed memory, owners, op footprint, OOMs (OOM_DETAIL rows) explained',
        directoryPatterns: ['**/memscope_dump_*.csv', '**/leaks_dump_*.csv'],
        noFigures: 'do the dumps hold MALLOC/FREE, OP_LAUNCH or MSTX rows after the header (was msMemScope tracing memory events)?',
        load: async () => {
            const m = await import('./dump-source.js');
            return { parseFile: m.parseDumpFile, finish: m.finishDumps };
        },
    },
    {
        name: 'dumpBase',
        option: 'dump-base',
        input: 'memscope-dump-base',
        label: 'msMemScope base dump',
        searchedByDefault: false,
        description: "the baseline run's msMemScope dumps: with --dump, compared in process as msmemscope --compare does (section kernels)",
        directoryPatterns: ['**/memscope_dump_*.csv', '**/leaks_dump_*.csv'],
        noFigures: 'base dumps are compared only with memscope-dump (--dump) dumps: give both',
        load: async () => {
            const m = await import('./dump-source.js');
            return { parseFile: m.parseBaseDumpFile, combine: m.compareBaseDumps };
        },
    },
];
const byName = new Map(SOURCES.map((s) => [s.name, s]));
function evidenceSource(name) {
    const found = byName.get(name);
    if (found === undefined)
        throw new Error(`no evidence source is registered with the name '${name}'`);
    return found;
}
const loaded = new Map();
function parserOf(name) {
    let parser = loaded.get(name);
    if (parser === undefined) {
        parser = evidenceSource(name).load();
        loaded.set(name, parser);
    }
    return parser;
}
const RUN_OPTIONS = SOURCES.flatMap((s) => s.runOptions ?? []);
function noSpecs(specs) {
    return SOURCES.every((s) => (specs[s.name] ?? []).length === 0);
}
async function parseInputFile(kind, file, builder) {
    try {
        await (await parserOf(kind)).parseFile(file, builder);
    }
    catch (error) {
        const failure = fileSystemFailure(error, file.name);
        throw failure === undefined ? error : new InputError(failure);
    }
}

export { foldLineSites as $, readExactInteger as A, BEYOND_EXACT as B, steps as C, DIRECTORY_PATTERNS as D, unfreed as E, owners as F, opFootprint as G, inefficient as H, stepLeaks as I, kernels as J, evidenceSource as K, parserOf as L, MAX_SITES_PER_DEVICE as M, isEmptySnapshot as N, fileKeyOrder as O, setOwn as P, isWritten as Q, RUN_OPTIONS as R, SOURCES as S, section as T, combineMetrics as U, formatDelta as V, UNTRACED_NOTE as W, bareNumber as X, parseSize as Y, originText as Z, SNAPSHOT_VERSION as _, SnapshotBuilder as a, formatFactor as a0, noteKeys as a1, SECTIONS as b, compareKeys as c, formatBytes as d, modules as e, formatCount as f, parseExactInteger as g, hasNoMetrics as h, graphs as i, exactSum as j, keysOf as k, SeriesBuilder as l, metricsOf as m, noSpecs as n, operators as o, parseInputFile as p, components as q, oomModules as r, sectionOfKind as s, MAX_POINTS as t, allocationSites as u, valueOf as v, ooms as w, allocator as x, linesField as y, MAX_EXACT_BYTES as z };

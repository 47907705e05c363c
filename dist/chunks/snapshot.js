import { f as formatCount, a as formatBytes } from './units.js';
import { S as SeriesBuilder } from './series.js';

const PROCESS_DEVICE_FIELDS = {
    file: { type: 'string', description: 'The snapshot file this device came from (the larger peak wins when several files name one device).' },
    logicalDevice: { type: 'count', description: 'The device index the file gave (the process\'s logical index).' },
    visibleDevices: { type: 'stringOrNull', description: 'ASCEND_RT_VISIBLE_DEVICES that mapped the logical index to the key\'s physical device, or null when the key keeps the logical index.' },
};
function originText(metric) {
    const mapped = typeof metric.visibleDevices === 'string' ? `, where it is npu:${String(metric.logicalDevice)} of ASCEND_RT_VISIBLE_DEVICES=${metric.visibleDevices}` : '';
    return `From ${String(metric.file)}${mapped}.`;
}
function share(part, whole) {
    return whole === 0 ? '0.0%' : `${((part / whole) * 100).toFixed(1)}%`;
}
function describeAllocator(key, m) {
    const n = (field) => (typeof m[field] === 'number' ? m[field] : 0);
    const origin = originText(m);
    if (n('traceEntries') === 0) {
        const what = key.endsWith('/reserved') ? `${formatCount(n('segments'))} segment(s) at dump time` : 'live requested bytes at dump time';
        return `No trace was recorded (_record_memory_history was off): only dump-time figures, ${what}. ${origin}`;
    }
    const at = `trace point ${formatCount(n('point'))} of ${formatCount(n('traceEntries'))}`;
    if (key.endsWith('/reserved')) {
        return `Peak at ${at}, ${formatBytes(n('allocated'))} allocated there; at dump time ${formatBytes(n('atDump'))} in ${formatCount(n('segments'))} segment(s), the largest free block ${formatBytes(n('largestFreeBlock'))}. ${origin}`;
    }
    const gap = n('reserved') - n('peak');
    return `Peak at ${at}, with ${formatBytes(n('reserved'))} reserved: ${formatBytes(gap)} (${share(gap, n('reserved'))}) reserved but not allocated (fragmentation and rounding). ${origin}`;
}
const allocator = {
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
    logicalDevices: true,
    deviceRow: {
        figures: [
            { figure: 'allocated', title: 'Allocated peak' },
            { figure: 'reserved', title: 'Reserved peak' },
        ],
        gap: 'Reserved − allocated',
        note: 'Allocated and reserved peaks of the caching allocator (memory snapshots), each at its own peak point; the gap is reserved memory the program did not hold at those peaks, and the allocated key\'s note gives the fragmentation at the allocated peak exactly.',
    },
    fields: {
        peak: {
            type: 'bytes',
            description: 'allocated: the most live requested bytes at any point of the trace; reserved: the most segment bytes. The latest such point is the peak point. Without a trace: the dump-time value.',
        },
        atDump: { type: 'bytes', description: 'At dump time: the sum of allocated_size (allocated, block-rounded) or of total_size (reserved) of the device\'s segments.' },
        allocated: { type: 'bytes', description: 'Live requested bytes at this key\'s peak point.' },
        reserved: { type: 'bytes', description: 'Reserved (segment) bytes at this key\'s peak point; for the allocated key, (reserved − allocated) / reserved is the fragmentation at the allocated peak.' },
        point: { type: 'count', description: 'The peak point: trace entries applied (the trace length: dump time).' },
        traceEntries: { type: 'count', description: 'Entries in the device\'s trace; 0: no trace was recorded, only dump-time figures exist.' },
        segments: { type: 'count', description: 'Segments at dump time.' },
        largestSegment: { type: 'bytes', description: 'The largest segment at dump time.' },
        largestFreeBlock: { type: 'bytes', description: 'The largest free (inactive) block at dump time.' },
        ...PROCESS_DEVICE_FIELDS,
    },
};

const allocationSites = {
    name: 'allocationSites',
    kind: 'allocationSite',
    title: 'Allocation sites',
    description: 'Live requested bytes at the allocated peak of a memory snapshot, by device and the first frame of user code of each block (not torch, torch_npu, the standard library or C++; <unknown> without one), its path relative to the source root, e.g. dev0/model/attention.py:212 forward.',
    keyShape: 'devN/<file>:<line> <function>',
    example: 'dev0/model/attention.py:212 forward',
    value: 'bytes',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 64 * 1024 ** 2 },
    source: 'torch_npu memory snapshot (pickle) with stacks recorded',
    describe: (_key, m) => `${formatCount(typeof m.blocks === 'number' ? m.blocks : 0)} block(s) live at the allocated peak. ${originText(m)}`,
    logicalDevices: true,
    deviceRow: { figures: [] },
    fields: {
        bytes: { type: 'bytes', description: 'Requested bytes of the blocks live at the allocated peak (at dump time without a trace).' },
        blocks: { type: 'count', description: 'How many blocks.' },
        codeRoot: { type: 'string', description: "The folder the site paths are relative to: the source root, the common folder of the file's user frames, or a package's site-packages; '' for absolute paths." },
        ...PROCESS_DEVICE_FIELDS,
    },
};

const components = {
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
        peak: { type: 'bytes', description: 'The largest value of the figure over every row of the component on the device (exact bytes: MB × 2^20, KB × 2^10).' },
    },
};

const graphs = {
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
};

const inefficient = {
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
};

const kernels = {
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
        diff: { type: 'signedBytes', description: 'Sum of Diff Memory over every row (launch) of this kernel on this device.' },
        rows: { type: 'count', description: 'Rows (launches) summed.' },
        added: { type: 'count', description: 'Rows whose Base is N/A: launches only in the compare run.' },
        removed: { type: 'count', description: 'Rows whose Compare is N/A: launches only in the base run.' },
        event: { type: 'stringOrNull', description: 'KERNEL_LAUNCH / OP_LAUNCH, or null for header generations without an Event column.' },
    },
};

const modules = {
    name: 'modules',
    kind: 'module',
    title: 'Modules',
    description: 'Module memory statistics by key, e.g. DEV_MEM/dev0/APP or SVM_MEM/RUNTIME; the profiler\'s npu_module_mem as NPU_MODULE_MEM/dev0/HCCL.',
    keyShape: '<ATTR>[/devN]/<MODULE>',
    example: 'DEV_MEM/dev0/APP',
    value: 'peak',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 1024 ** 2 },
    source: 'plog memory statistics; profiler npu_module_mem.csv (Total Reserved)',
    fields: {
        peak: { type: 'bytes', description: 'alloced/allocated_peak_size, total_size for DEV_PROC_MEM, the size for CACHED; the largest Total Reserved for NPU_MODULE_MEM.' },
        current: { type: 'bytes', description: 'current_alloced_size, or the peak where the format has none.' },
        allocs: { type: 'countOrNull', description: 'alloc_cnt, when the record has it.' },
        frees: { type: 'countOrNull', description: 'free_cnt, when the record has it.' },
    },
};

const opFootprint = {
    name: 'opFootprint',
    kind: 'opFootprint',
    title: 'Op footprint (ours, not msMemScope\'s)',
    description: 'Per device and op, the largest net framework-pool allocation inside one START..END window of the op (ascend-memory-gate\'s metric, not msMemScope\'s), e.g. dev0/torch._ops.aten.mm.default.',
    keyShape: 'devN/<op>',
    example: 'dev0/torch._ops.aten.mm.default',
    value: 'net',
    unit: 'bytes',
    tolerance: { percent: 5, bytes: 1024 ** 2 },
    source: 'msMemScope event dump (OP_LAUNCH start/end rows)',
    fields: {
        net: { type: 'signedBytes', description: 'The largest MALLOC minus FREE bytes of the framework pools inside one window of the op.' },
        peak: { type: 'bytes', description: 'The largest running sum inside one window.' },
        launches: { type: 'count', description: 'Windows (launches) of the op.' },
    },
};

const oomModules = {
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
};

const ooms = {
    name: 'ooms',
    kind: 'oom',
    title: 'Out-of-memory events',
    description: "Each `oom` entry of a memory snapshot's trace by device and order, e.g. dev0/oom1, with the allocator's state at that moment.",
    keyShape: 'devN/oom<k>',
    example: 'dev0/oom1',
    value: 'requested',
    unit: 'bytes',
    tolerance: { bytes: 0 },
    source: 'torch_npu memory snapshot (pickle): OOM_SNAPSHOT_ENABLE dumps, or a trace recorded through an OOM',
    compared: false,
    logicalDevices: true,
    deviceRow: { figures: [] },
    fields: {
        requested: { type: 'bytes', description: 'The request, rounded as the allocator rounds it.' },
        deviceFree: { type: 'bytes', description: 'Free device memory the driver reported (aclrtGetMemInfo).' },
        allocated: { type: 'bytes', description: 'Live requested bytes at the OOM (from the trace).' },
        reserved: { type: 'bytes', description: 'Reserved (segment) bytes at the OOM.' },
        largestFreeBlock: { type: 'bytes', description: 'The largest free cached block at dump time (exact at the OOM when entriesAfter is 0).' },
        entriesAfter: { type: 'count', description: 'Trace entries after the OOM; 0 when the OOM triggered the dump, as torch_npu\'s OOM observer does.' },
        kind: { type: 'string', description: '`fragmentation` (reserved − allocated ≥ the request, no free block that large) or `capacity`.' },
        sites: {
            type: 'string',
            description: "The largest allocation sites live at the OOM, as JSON: [[site, bytes, codeRoot], …], at most five; codeRoot as allocationSites' field.",
        },
        ...PROCESS_DEVICE_FIELDS,
    },
};

const operators = {
    name: 'operators',
    kind: 'operator',
    title: 'Operators',
    description: 'The largest single allocation per device and operator from the profilers\' operator_memory CSVs, e.g. dev0/aten::empty_strided.',
    keyShape: 'devN/<operator>',
    example: 'dev0/aten::empty_strided',
    value: 'largest',
    unit: 'bytes',
    tolerance: { percent: 10, bytes: 16 * 1024 ** 2 },
    source: 'profiler operator_memory.csv',
    fields: {
        largest: { type: 'bytes', description: 'The largest Size(KB) of one allocation by this operator on this device, in bytes.' },
        count: { type: 'count', description: 'Allocations by this operator in the file (rows with a size; releases without an allocation are not counted).' },
        total: { type: 'bytes', description: 'The sum of those allocations, in bytes.' },
    },
};

const owners = {
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
};

const stepLeaks = {
    name: 'stepLeaks',
    kind: 'stepLeak',
    title: 'Step leaks',
    description: 'Framework-pool blocks allocated during step k >= 2 and still live at the end of step k+1 (msMemScope\'s rule), by device and pool, e.g. dev0/PTA.',
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
        top: { type: 'string', description: 'The owners (or first call-stack lines, or the pool) with the most leaked bytes, at most three: `PTA@weight 4000256×2`.' },
    },
};

const steps = {
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
        bytes: { type: 'bytes', description: 'The pool\'s allocated bytes (MALLOC +size, FREE -size since tracing began) at the step\'s peak or end.' },
        step: { type: 'count', description: 'The step number (per process, from 1).' },
    },
};

const unfreed = {
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
        bytes: { type: 'bytes', description: 'Bytes of the blocks never freed while tracing (no FREE, or only a shadow:true FREE).' },
        blocks: { type: 'count', description: 'How many blocks.' },
        largest: { type: 'bytes', description: 'The largest block.' },
        ids: { type: 'string', description: 'Dump IDs of the first (lowest) ten blocks, space-separated.' },
        sizes: { type: 'string', description: 'The 20 largest distinct block sizes with their counts, descending: `4000256x2 1536 512x3`.' },
    },
};

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
const byName = new Map(SECTIONS.map((s) => [s.name, s]));
const byKind = new Map(SECTIONS.map((s) => [s.kind, s]));
function section(name) {
    const found = byName.get(name);
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
    for (const k in b)
        if (--n < 0)
            return false;
    return n === 0;
}
function canonical(metric) {
    return JSON.stringify(Object.keys(metric).sort().map((k) => [k, metric[k]]));
}

const SNAPSHOT_VERSION = 2;
const MAX_SITES_PER_DEVICE = 5;
const MAX_SITE_TEXT = 300;
function metricsOf(snapshot, name) {
    return Object.hasOwn(snapshot.sections, name) ? snapshot.sections[name] : {};
}
function modulesOf(snapshot) {
    return metricsOf(snapshot, 'modules');
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
    addMetric(sectionName, key, metric) {
        this.putMetric(sectionName, key, metric, true);
    }
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
    addModule(key, metric) {
        this.addMetric('modules', key, metric);
    }
    addKernel(key, metric) {
        this.addMetric('kernels', key, metric);
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
        if (this.skippedRecords.length < 1000)
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
            if (this.skippedRecords.length < 1000)
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
                asWritten.add(record);
                noteKeys(record, keys);
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
        const site = { file: where.file, line: where.line, text: where.text.length > MAX_SITE_TEXT ? `${where.text.slice(0, MAX_SITE_TEXT - 1)}…` : where.text };
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
    const environment = Object.fromEntries(Object.keys(node.environment).sort().map((k) => [k, node.environment[k]]));
    return { devices: [...node.devices].sort(compareKeys), files: node.files, records: node.records, skipped: node.skipped, environment };
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
    asWritten.add(record);
    noteKeys(record, keys);
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
const asWritten = new WeakSet();
function sortedRecord(map, order) {
    const record = {};
    for (const key of [...map.keys()].sort(order))
        setOwn(record, key, map.get(key));
    return record;
}
function setOwn(record, key, value) {
    if (key === '__proto__')
        Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
    else
        record[key] = value;
}
function compareKeys(a, b) {
    if (a === b)
        return 0;
    const fast = compareAsciiKeys(a, b);
    if (fast !== undefined)
        return fast;
    return (keyCollator ??= checkedCollator()).compare(a, b);
}
let keyCollator;
const ASCII_PRIMARY_RANKS = Int16Array.from([...new Array(0x20).fill(-1),
    0, 6, 10, 22, 32, 23, 21, 9, 11, 12, 18, 26, 3, 2, 8, 19, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 5, 4, 27, 28, 29, 7,
    17, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 13, 20, 14, 25, 1,
    24, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 15, 30, 16, 31, -1]);
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
            if ((endA < a.length && !isPrintable(a.charCodeAt(endA))) || (endB < b.length && !isPrintable(b.charCodeAt(endB))))
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
function stableStringify(value) {
    return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}
function stringifyDocument(document) {
    const record = document;
    const out = {};
    for (const key of Object.keys(record).sort()) {
        const value = record[key];
        const byName = key === 'sections' || key === 'series' ? value : null;
        setOwn(out, key, byName !== null && typeof byName === 'object' && !Array.isArray(byName) ? naturalRecords(byName) : sortDeep(value));
    }
    return `${JSON.stringify(out, null, 2)}\n`;
}
function fileKeyOrder(a, b) {
    return compareKeys(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
function naturalRecords(byName) {
    const out = {};
    for (const name of Object.keys(byName).sort()) {
        const record = byName[name];
        setOwn(out, name, record !== null && typeof record === 'object' && !Array.isArray(record) ? naturalRecord(record) : sortDeep(record));
    }
    return out;
}
function naturalRecord(record) {
    if (asWritten.has(record))
        return record;
    const keys = Object.keys(record);
    let inOrder = true;
    for (let i = 1; inOrder && i < keys.length; i++)
        inOrder = fileKeyOrder(keys[i - 1], keys[i]) < 0;
    if (!inOrder)
        keys.sort(fileKeyOrder);
    let copy = inOrder ? undefined : {};
    for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const item = record[key];
        const sorted = item === null || typeof item !== 'object' ? item : sortDeep(item);
        if (copy === undefined && sorted !== item) {
            copy = {};
            for (let k = 0; k < i; k++)
                setOwn(copy, keys[k], record[keys[k]]);
        }
        if (copy !== undefined)
            setOwn(copy, key, sorted);
    }
    return copy ?? record;
}
function sortDeep(value) {
    if (value === null || typeof value !== 'object')
        return value;
    if (Array.isArray(value)) {
        let copy;
        for (let i = 0; i < value.length; i++) {
            const item = value[i];
            if (item === null || typeof item !== 'object')
                continue;
            const sorted = sortDeep(item);
            if (sorted !== item)
                (copy ??= value.slice())[i] = sorted;
        }
        return copy ?? value;
    }
    const record = value;
    const keys = Object.keys(record);
    const prototype = Object.getPrototypeOf(record);
    let inOrder = prototype === Object.prototype || prototype === null;
    for (let i = 1; inOrder && i < keys.length; i++)
        inOrder = keys[i - 1] < keys[i];
    if (!inOrder) {
        const sorted = {};
        for (const key of keys.sort())
            setOwn(sorted, key, sortDeep(record[key]));
        return sorted;
    }
    let changed;
    for (let i = 0; i < keys.length; i++) {
        const item = record[keys[i]];
        if (item === null || typeof item !== 'object')
            continue;
        const sorted = sortDeep(item);
        if (sorted !== item)
            (changed ??= keys.map((key) => record[key]))[i] = sorted;
    }
    if (changed === undefined)
        return record;
    const copy = {};
    for (let i = 0; i < keys.length; i++)
        setOwn(copy, keys[i], changed[i]);
    return copy;
}
function hasNoMetrics(snapshot) {
    return Object.values(snapshot.sections).every(isEmptyRecord);
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
            return false;
        }
    }
    return true;
}
const holdsKeys = new WeakSet();
const knownKeys = new WeakMap();
function noteKeys(record, keys) {
    knownKeys.set(record, keys);
}
function keysOf(record) {
    return knownKeys.get(record) ?? Object.keys(record);
}
function totalAllocFailures(meta) {
    return Object.values(meta.allocFailures).reduce((a, b) => a + b, 0);
}
function isEmptySnapshot(snapshot) {
    return hasNoMetrics(snapshot) && Object.keys(snapshot.series).length === 0 && totalAllocFailures(snapshot.meta) === 0;
}

export { MAX_SITES_PER_DEVICE as M, SnapshotBuilder as S, SECTIONS as a, SNAPSHOT_VERSION as b, compareKeys as c, stringifyDocument as d, modulesOf as e, fileKeyOrder as f, section as g, hasNoMetrics as h, isEmptySnapshot as i, stableStringify as j, keysOf as k, metricsOf as m, noteKeys as n, originText as o, sectionOfKind as s, valueOf as v };

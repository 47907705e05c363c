import { S as SeriesBuilder } from './series.js';

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
    // A property of this run: reported by the step-leak finding, whatever the baseline had.
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
    // Persistent allocations (weights, pool segments) stay live by design: growth is judged by the leak-suspect finding.
    compared: false,
    fields: {
        bytes: { type: 'bytes', description: 'Bytes of the blocks never freed while tracing (no FREE, or only a shadow:true FREE).' },
        blocks: { type: 'count', description: 'How many blocks.' },
        largest: { type: 'bytes', description: 'The largest block.' },
        ids: { type: 'string', description: 'Dump IDs of the first (lowest) ten blocks, space-separated.' },
        sizes: { type: 'string', description: 'The 20 largest distinct block sizes with their counts, descending: `4000256x2 1536 512x3`.' },
    },
};

// The registry: every section, in report order. Adding a section is one file here and one line below.
const SECTIONS = [modules, components, operators, graphs, kernels, steps, stepLeaks, unfreed, owners, opFootprint, inefficient];
const byName = new Map(SECTIONS.map((s) => [s.name, s]));
const byKind = new Map(SECTIONS.map((s) => [s.kind, s]));
/** The section called `name`; throws for a name no declaration has (a programming error, not bad input). */
function section(name) {
    const found = byName.get(name);
    if (found === undefined)
        throw new Error(`no section is declared with the name '${name}'`);
    return found;
}
/** The section whose entries have this kind, or undefined for kinds of no section (`device`). */
function sectionOfKind(kind) {
    return byKind.get(kind);
}
/** The compared value of a metric. */
function valueOf(declaration, metric) {
    const v = metric[declaration.value];
    return typeof v === 'number' ? v : 0;
}
/**
 * Two metrics of one key (several dumps, processes, files or ranks): the one with the larger compared value wins
 * whole; nothing is summed. A tie is broken by the metrics' content, so the result never depends on the order.
 */
function combineMetrics(declaration, a, b) {
    const va = valueOf(declaration, a);
    const vb = valueOf(declaration, b);
    if (va !== vb)
        return va > vb ? a : b;
    // The same record again (common: a log repeats its statistics): `a`, as the content comparison would say, unserialized.
    if (sameMetric(a, b))
        return a;
    return canonical(a) >= canonical(b) ? a : b;
}
/** Whether two metrics hold the same fields with the same values (in any key order). */
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

// The metric model every parser fills and every later stage reads, and its stable JSON form.
//
// A snapshot holds one map key → metric per declared section (src/model/sections/), timelines per section key, and parse
// statistics. Combining two metrics of one key, two series, or two whole snapshots never depends on the order: the same
// files give the same snapshot however they are split between threads, nodes or runs.
/** The snapshot format written by this version; older versions are read (migrated), newer ones refused. */
const SNAPSHOT_VERSION = 2;
/** Failure lines kept per device, the first by file and line. */
const MAX_SITES_PER_DEVICE = 5;
const MAX_SITE_TEXT = 300;
/** The metrics of one section (empty when the snapshot has none). */
function metricsOf(snapshot, name) {
    return Object.hasOwn(snapshot.sections, name) ? snapshot.sections[name] : {};
}
/** The `modules` section with its declared field types (the schema or the plog parser guarantees them). */
function modulesOf(snapshot) {
    return metricsOf(snapshot, 'modules');
}
/** Builds a snapshot from many files; per key the metric with the larger compared value wins whole, never summed. */
class SnapshotBuilder {
    sections = new Map();
    /**
     * Sections taken whole from snapshots (addSnapshot), in arrival order, while no other metric of that section has
     * arrived. One snapshot (a gate run on a stored run) hands its 160,000 metrics on without copying them into a Map and
     * out again; it keeps the file's key order, and whoever needs an order sorts (the gate, the reports,
     * stableStringify). Many snapshots whose keys arrive in fileKeyOrder with none twice (4,096 node snapshots read in
     * natural order of their paths, one device each) are joined by build() without a Map and without a sort.
     */
    parts = new Map();
    series = new Map();
    allocFailures = new Map();
    allocFailureSites = new Map();
    nodes = new Map();
    skippedRecords = [];
    files = 0;
    records = 0;
    skipped = 0;
    lastDeclaration;
    /** Several dumps, processes, files or ranks for one key: the larger compared value wins whole (src/model/sections/). */
    addMetric(sectionName, key, metric) {
        this.putMetric(sectionName, key, metric, true);
    }
    /**
     * addMetric; with `copy` false the metric is kept as it is: data nobody changes (a snapshot file's, another builder's),
     * which 4,096 node snapshots would otherwise copy 160,000 times.
     */
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
    /** A plog statistics record: section `modules`. */
    addModule(key, metric) {
        this.addMetric('modules', key, metric);
    }
    /** A memory_compare aggregate: section `kernels`. */
    addKernel(key, metric) {
        this.addMetric('kernels', key, metric);
    }
    /** One sample of a section key's timeline: x in microseconds (`time`) or a step number (`step`), y in bytes. */
    addSample(sectionName, key, axis, x, y) {
        this.seriesBuilder(sectionName, key, axis).add(x, y);
    }
    /** A whole timeline of a section key, folded into what this builder has. */
    addSeries(sectionName, key, series) {
        this.seriesBuilder(sectionName, key, series.axis).addSeries(series);
    }
    /** Marks a device as seen, so that allocFailures lists it with 0. */
    noteDevice(device) {
        if (!this.allocFailures.has(device))
            this.allocFailures.set(device, 0);
    }
    /** Allocation failures on a device (`unknown` when the line names none), and where the first ones were logged. */
    addAllocFailure(device, count = 1, where) {
        this.allocFailures.set(device, (this.allocFailures.get(device) ?? 0) + count);
        if (where !== undefined)
            this.addSite(device, where);
    }
    /** A node's provenance; the same node twice (two snapshots of one machine) folds into one, whatever the order. */
    addNode(name, node) {
        const prev = this.nodes.get(name);
        this.nodes.set(name, prev === undefined ? cloneNode(node) : combineNodes(prev, node));
    }
    /** The failure sites kept so far for a device (the first by file, then line). */
    allocFailureSitesOf(device) {
        return this.allocFailureSites.get(device);
    }
    addSkipped(record) {
        this.skipped++;
        // Keep a bounded sample for warnings: a garbage file must not grow memory without bound.
        if (this.skippedRecords.length < 1000)
            this.skippedRecords.push(record);
    }
    /** Folds another builder's results in, as if its files had been read after this one's. */
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
    }
    /** Folds a finished snapshot in (a node's snapshot, a stored run): the same result as parsing its files here. */
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
    /**
     * Everything this builder holds, as plain data that survives structured cloning (postMessage to or from a worker
     * thread: Maps keep their insertion order there). `merge(state)` folds it in exactly as `merge(builder)` would.
     */
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
            // Keys in fileKeyOrder and fields in code-unit order: the order stringifyDocument writes and snapshot files
            // are read back in, so writing 160,000 metrics copies nothing and the gate's union of two sides is a linear merge.
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
    /** The section's Map, made on first use; the sections taken whole are folded into it first, in arrival order. */
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
    /** Keeps the first MAX_SITES_PER_DEVICE sites by (file, line): the same whatever order files are read in. */
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
/** Devices united, counts added, per item the larger value: associative and commutative. */
function combineNodes(a, b) {
    const environment = { ...a.environment };
    for (const [item, value] of Object.entries(b.environment)) {
        const prev = environment[item];
        if (prev === undefined || value > prev)
            environment[item] = value;
    }
    return cloneNode({
        devices: [...new Set([...a.devices, ...b.devices])],
        files: a.files + b.files,
        records: a.records + b.records,
        skipped: a.skipped + b.skipped,
        environment,
    });
}
/**
 * Sections taken whole, joined into one record as build() would make it from a Map of them (keys in fileKeyOrder,
 * fields in code-unit order), or undefined when their keys do not arrive in strictly increasing fileKeyOrder (a key
 * twice, or out of order), and the Map must combine and sort them. Keys that arrive so are one ascending run, which
 * the Map path's sort leaves as it is: the same record, without 160,000 Map entries (merging 4,096 node snapshots:
 * 1.44 -> 1.27 s median in paired runs).
 */
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
/**
 * The metric with its fields in code-unit order: itself when they already are (a snapshot file's metrics), else a copy
 * (parsers list fields in the declaration's order: peak, current, allocs, frees). Done once per key in build(), not per
 * record: on the record-dense plog corpus a per-record copy cost ~0.35 s.
 */
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
/**
 * Section records that build() made: keys in fileKeyOrder, each metric's fields in code-unit order, which is how
 * stringifyDocument writes them, so it need not check 160,000 keys again (~0.2 s of merging 4,096 node snapshots).
 * Nothing in this program adds a key to a section record or a field to a metric once it is built.
 */
const asWritten = new WeakSet();
/** The map as a record, keys in `order`. */
function sortedRecord(map, order) {
    const record = {};
    for (const key of [...map.keys()].sort(order))
        setOwn(record, key, map.get(key));
    return record;
}
/** record[key] = value without a [key, value] pair per entry, and a key named `__proto__` stays a key (not the prototype). */
function setOwn(record, key, value) {
    if (key === '__proto__')
        Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
    else
        record[key] = value;
}
/**
 * Orders keys so that dev2 sorts before dev10 and the table reads naturally: exactly the order of
 * `Intl.Collator('en', {numeric: true})`, which it falls back to whenever its fast path for printable ASCII cannot decide.
 */
function compareKeys(a, b) {
    if (a === b)
        return 0;
    const fast = compareAsciiKeys(a, b);
    if (fast !== undefined)
        return fast;
    return (keyCollator ??= checkedCollator()).compare(a, b);
}
// One collator for all comparisons: localeCompare builds one per call, 3 s for 100k keys. Built on first use, which
// most runs never reach: the first collator of a process costs ~10 ms on Node 20 and ~50 ms on Node 24 (ICU's data).
let keyCollator;
/**
 * The collator's primary order of the printable ASCII characters 0x20-0x7e, as primaryRanks derives it from ICU (the
 * same in ICU 78.2 of Node 20 and 78.3 of Node 24): a letter and its capital share a rank (they differ only at the
 * tertiary level, which the fast path leaves to the collator); digits rank as the number group. Written out so that a
 * run whose keys the fast path orders alone never builds a collator; a test and checkedCollator compare it with ICU's.
 */
const ASCII_PRIMARY_RANKS = Int16Array.from([...new Array(0x20).fill(-1),
    0, 6, 10, 22, 32, 23, 21, 9, 11, 12, 18, 26, 3, 2, 8, 19, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 5, 4, 27, 28, 29, 7,
    17, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 13, 20, 14, 25, 1,
    24, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 15, 30, 16, 31, -1]);
/**
 * The numeric collator, after checking that this ICU ranks printable ASCII as `table` (the fast path's) says. If it
 * does not, the fast path and the collator could disagree within one sort, so the run stops rather than write keys in
 * an order that depends on how they arrived.
 */
function checkedCollator(table = ASCII_PRIMARY_RANKS) {
    const derived = primaryRanks();
    if (derived.some((rank, c) => rank !== table[c])) {
        throw new Error(`this Node.js's ICU ${process.versions.icu ?? '(unknown version)'} orders ASCII characters differently from ascend-memory-gate's built-in table; run the gate with the Node.js version its Action declares, and report this`);
    }
    return new Intl.Collator('en', { numeric: true });
}
/** The collator's primary ranks of printable ASCII, derived from ICU (what ASCII_PRIMARY_RANKS holds). */
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
/**
 * The collator's answer when a primary (base-letter or number) difference decides it, reading only printable ASCII up
 * to that difference; undefined when it cannot tell (no primary difference: the keys differ only in case or leading
 * zeros; another character; a control character), and the collator decides. `i` and `j` walk `a` and `b`: they part
 * after numbers that are equal but written with different leading zeros (`_07f` against `_7d`).
 */
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
        // In a number (the common part ends in a digit, or a digit differs), the whole digit runs compare by value.
        const ca = i < a.length ? a.charCodeAt(i) : -1;
        const cb = j < b.length ? b.charCodeAt(j) : -1;
        if ((i > 0 && isDigit(a.charCodeAt(i - 1))) || isDigit(ca) || isDigit(cb)) {
            // The digits right before i and j were read in step, so they are the same on both sides.
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
            // A run that goes on in another script's digits (full-width, Arabic-Indic), or past an ignorable control
            // character, may be one longer number to the collator.
            if ((endA < a.length && !isPrintable(a.charCodeAt(endA))) || (endB < b.length && !isPrintable(b.charCodeAt(endB))))
                return undefined;
            if (endA > startA && endB > startB && (endA > i || endB > j)) {
                const order = compareDigitRuns(a, startA, endA, b, startB, endB);
                if (order !== undefined)
                    return order;
                // The same number (leading zeros differ): the collator reads on after it, and so does this.
                i = endA;
                j = endB;
                continue;
            }
            // One side has no digit here: a number against a character (or the end) ranks like its first digit.
            if (endA === startA && endB > startB)
                return rankAgainst(ca, ranks);
            if (endB === startB && endA > startA) {
                const flipped = rankAgainst(cb, ranks);
                return flipped === undefined ? undefined : -flipped;
            }
            // Both runs end here: the numbers are equal and identical, the characters after them decide.
        }
        if (ca === -1 || cb === -1) {
            // One key ends first: the shorter sorts first when the longer goes on with a printable character.
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
        // A letter against its capital: the collator weighs case only when no primary difference follows anywhere in the
        // keys (`Add_7` sorts after `aclnnAdd`: c before d), so read on. Kernel names mix cases (aclnn…, Add_…, MatMul…);
        // stopping here built the collator, and ~1,300 of its comparisons, in every run that held such names.
        i++;
        j++;
    }
}
/** A non-digit character (or the end, -1) against a number, which ranks with the digits: the sign, or undefined. */
function rankAgainst(c, ranks) {
    if (c === -1)
        return -1;
    if (!isPrintable(c))
        return undefined;
    return ranks[c] < ranks[0x30] ? -1 : 1;
}
/** Two digit runs by value (leading zeros ignored); undefined when the values are equal (the collator breaks that tie). */
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
/** JSON with object keys sorted at every level, 2-space indent and a trailing newline: diffs review well. */
function stableStringify(value) {
    return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}
/**
 * A snapshot or baseline as its file holds it: stableStringify, except that the keys of each section's and each
 * timeline's record are in fileKeyOrder (DEV_MEM/dev2/APP before DEV_MEM/dev10/APP), the order people read a
 * baseline's diff in and the gate walks both sides in. What build() and mergeBaseline() make is already in that
 * order and is written without a copy. (A key that is a canonical array index, `7`, is held first by every JS object
 * and so written first; reading the file back gives the same object.)
 */
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
/**
 * The order of a section's keys in files: compareKeys, and code-unit order where it sees a tie (`dev1` and `dev01` are
 * the same number to it), so that the same keys are written in the same order whatever order they were merged in.
 */
function fileKeyOrder(a, b) {
    return compareKeys(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
/** Section name (code-unit order) → its record, keys in fileKeyOrder and each value sortDeep'ed. */
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
/**
 * The value with object keys sorted at every level. Parts already in order (what build() and the gate write) are
 * returned as they are, not copied: the same JSON, without a second copy of 160,000 metrics.
 */
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
    // Only a plain object can stand for its sorted copy: a Date or class instance becomes a plain object of its fields.
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
        // Numbers and strings (most of a snapshot) need no call.
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
/** True when the snapshot holds no metric in any section: nothing to compare with a baseline. */
function hasNoMetrics(snapshot) {
    return Object.values(snapshot.sections).every(isEmptyRecord);
}
/**
 * No own key at all. A record of 100,000 keys is a dictionary, and for...in on one lists and orders every key before it
 * yields the first (~30 ms), so a record once seen to hold a key is remembered: nothing in this program deletes a
 * section's key. A record whose keys are known (keysOf) answers from them.
 */
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
/**
 * Own keys of section records, listed once by a pass that had to list them anyway (the direct section check of a file,
 * build()), for the gate and the device findings, which read each side's keys again: Object.keys on a 100,000-key
 * dictionary costs ~25 ms, and a 4,096-device check asked for six of them. Nothing in this program adds a key to a
 * section record or deletes one once it is read or built.
 */
const knownKeys = new WeakMap();
/** Records `keys` as the own keys of `record` (read-only from now on, as the record is). */
function noteKeys(record, keys) {
    knownKeys.set(record, keys);
}
/** The own keys of a section record, in its order: the list noted for it, else Object.keys. Callers must not change it. */
function keysOf(record) {
    return knownKeys.get(record) ?? Object.keys(record);
}
/** Allocation failures over every device. */
function totalAllocFailures(meta) {
    return Object.values(meta.allocFailures).reduce((a, b) => a + b, 0);
}
/**
 * True when the snapshot holds no evidence at all: no metric, no timeline and no allocation failure. Such a run must
 * fail loudly (exit 2), never pass. A run that only logged allocation failures (a job that died of an out-of-memory)
 * is evidence: the gate fails it with alloc-failure.
 */
function isEmptySnapshot(snapshot) {
    return hasNoMetrics(snapshot) && Object.keys(snapshot.series).length === 0 && totalAllocFailures(snapshot.meta) === 0;
}

export { MAX_SITES_PER_DEVICE as M, SnapshotBuilder as S, SNAPSHOT_VERSION as a, stringifyDocument as b, compareKeys as c, section as d, metricsOf as e, fileKeyOrder as f, SECTIONS as g, hasNoMetrics as h, isEmptySnapshot as i, stableStringify as j, keysOf as k, modulesOf as m, noteKeys as n, sectionOfKind as s, valueOf as v };

import { a as fileSystemFailure, I as InputError } from './errors.js';

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
        load: async () => ({ parseFile: (await import('./snapshot-file.js')).parseSnapshotFile }),
    },
    {
        name: 'memorySnapshot',
        option: 'memory-snapshot',
        input: 'memory-snapshot',
        label: 'memory snapshot',
        description: "torch_npu allocator memory snapshots (_dump_snapshot, OOM_SNAPSHOT_ENABLE dumps: *.pickle, *.pkl): peak allocated and reserved, fragmentation, OOMs explained, allocation sites",
        directoryPatterns: ['**/*.pickle', '**/*.pkl'],
        noFigures: 'did the snapshots hold segments or a trace (_record_memory_history before the steps, _dump_snapshot after them, or OOM_SNAPSHOT_ENABLE)?',
        load: async () => {
            const m = await import('./source.js');
            return { parseFile: m.parseMemorySnapshotFile, finish: m.finishMemorySnapshots };
        },
    },
    {
        name: 'dump',
        option: 'dump',
        input: 'memscope-dump',
        label: 'msMemScope dump',
        description: 'msMemScope/msLeaks event dumps (memscope_dump_*.csv): steps, step leaks, unfreed memory, owners, op footprint',
        directoryPatterns: ['**/memscope_dump_*.csv', '**/leaks_dump_*.csv'],
        noFigures: 'do the dumps hold MALLOC/FREE, OP_LAUNCH or MSTX rows after the header (was msMemScope tracing memory events)?',
        load: async () => ({ parseFile: (await import('./dump-source.js')).parseDumpFile }),
    },
    {
        name: 'dumpBase',
        option: 'dump-base',
        input: 'memscope-dump-base',
        label: 'msMemScope base dump',
        searchedByDefault: false,
        description: 'the baseline run\'s msMemScope dumps: with --dump, compared in process as msmemscope --compare does (section kernels)',
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

export { DIRECTORY_PATTERNS as D, SOURCES as S, parserOf as a, evidenceSource as e, noSpecs as n, parseInputFile as p };

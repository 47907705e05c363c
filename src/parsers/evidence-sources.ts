// The registry of evidence sources: one entry per kind of input file. CLI flags, Action inputs, directory searches,
// the parse workers' dispatch and the "what was searched" message all read it; a new source is one entry here and
// its parser module (which exports `parseFile`).
import { fileSystemFailure, InputError } from '../common/errors.js';
import type { Snapshot, SnapshotBuilder } from '../model/snapshot.js';
import {
  DIRECTORY_PATTERNS as PROFILER_DIRECTORY_PATTERNS,
  FOLDER_PATTERNS as PROFILER_FOLDER_PATTERNS,
  SEARCH_HINT as PROFILER_SEARCH_HINT,
} from './profiler/search.js';
import type { InputFile } from '../sources/types.js';
import type { RunSettings } from './run-settings.js';

export type { RunSettings } from './run-settings.js';

/** What a source's module exports: reads one whole file into the builder (streaming, bounded memory). */
export interface SourceParser {
  parseFile(file: InputFile, into: SnapshotBuilder): Promise<void>;
  /** Runs once after every file is parsed, in the main thread, with every source's files: for sources that pair files. */
  combine?(files: Readonly<Record<string, readonly InputFile[]>>, into: SnapshotBuilder): Promise<void>;
  /** Runs once on the built snapshot, in the main thread: for figures that depend on the whole run (site paths' common root). */
  finish?(snapshot: Snapshot, run: RunSettings): Snapshot;
}

/** A setting of one source beyond its files: a flag of every command that reads inputs (the entries iterate over these). */
export interface RunOption {
  /** The flag, without `--`; also the key of RunSettings.options the source reads. */
  name: string;
  /** The value's placeholder in help: `DIR`. */
  value: string;
  /** One line for `--help`. */
  description: string;
}

export interface EvidenceSource {
  /** The source's id, also the task kind sent to parse workers: `plog`. */
  name: string;
  /** Its CLI flag, without `--`: `plog`, `compare`. */
  option: string;
  /** Its Action input: `plog`, `memory-compare`. */
  input: string;
  /** How messages name its files: `plog`, `memory_compare`. */
  label: string;
  /** One line for `--help` and the README. */
  description: string;
  /** What a directory given for this source is searched for (globs relative to it). */
  directoryPatterns: readonly string[];
  /** A folder given itself whose name matches `folder` (a glob) is searched for `patterns` instead (a PROF_* folder). */
  folderPatterns?: readonly { folder: string; patterns: readonly string[] }[];
  /** The patterns as --help shows them, when they are too long to read as they are. Default: the patterns. */
  searchHint?: string;
  /** What to check when its files held no figure, for the one-line message that says so (under ~170 characters). */
  noFigures: string;
  /** False for a source that must be named explicitly (a baseline run's files look like this run's): not searched when no input is given. */
  searchedByDefault?: boolean;
  /**
   * True when its files give the same snapshot in any order (node snapshots: the merge is commutative, property-tested).
   * They are then parsed in natural order of their paths (rank-2 before rank-10), the order build() sorts keys into.
   */
  orderFree?: boolean;
  /** Its settings beyond its files (`--source-root`), read by its parser's `finish` from RunSettings.options. */
  runOptions?: readonly RunOption[];
  /** Loads the parser on first use: a run without this source never loads it (nor its dependencies). */
  load(): Promise<SourceParser>;
}

export const SOURCES: readonly EvidenceSource[] = [
  {
    name: 'plog',
    option: 'plog',
    input: 'plog',
    label: 'plog',
    description: 'plog files of the driver (memory statistics, allocation failures)',
    directoryPatterns: ['**/*.log'],
    noFigures:
      'was the job run with run logs enabled (plog under run/plog, ASCEND_PROCESS_LOG_PATH), and did the processes exit normally so the driver could print its "Mem stats" lines?',
    load: async () => ({ parseFile: (await import('./plog/index.js')).parsePlogFile }),
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
    description:
      'memory CSVs of the torch_npu profiler (profile_memory=True), msprof and MindSpore (memory_record, npu_mem, npu_module_mem, operator_memory, static_op_mem)',
    directoryPatterns: PROFILER_DIRECTORY_PATTERNS,
    folderPatterns: PROFILER_FOLDER_PATTERNS,
    searchHint: PROFILER_SEARCH_HINT,
    noFigures:
      'was the profiler run with profile_memory=True (torch_npu) or with memory data collected (msprof, MindSpore), and do the CSVs have rows after the header?',
    load: async () => ({ parseFile: (await import('./profiler/index.js')).parseFile }),
  },
  {
    name: 'snapshot',
    option: 'snapshot',
    input: 'snapshot',
    label: 'snapshot',
    description:
      'snapshots written by `ascend-memory-gate snapshot` / `mode: snapshot` on each node (*.memory-snapshot.json)',
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
    description:
      'torch_npu allocator memory snapshots (_dump_snapshot, OOM_SNAPSHOT_ENABLE dumps: *.pickle, *.pkl, also .gz or .zst): peak allocated and reserved, fragmentation, OOMs explained, allocation sites',
    directoryPatterns: ['**/*.pickle', '**/*.pkl'],
    noFigures:
      'did the snapshots hold segments or a trace (_record_memory_history before the steps, _dump_snapshot after them, or OOM_SNAPSHOT_ENABLE)?',
    runOptions: [
      {
        name: 'source-root',
        value: 'DIR',
        description:
          "memory snapshots' allocation sites are written relative to DIR (default: the longest folder common to the sites' files)",
      },
    ],
    load: async () => {
      const m = await import('./allocator-snapshot/source.js');
      return { parseFile: m.parseAllocatorSnapshotFile, finish: m.finishAllocatorSnapshots };
    },
  },
  {
    name: 'jobLog',
    option: 'job-log',
    input: 'job-log',
    label: 'job log',
    description:
      "the job's own log (stdout/stderr as CI or the launcher captured it; *.log, *.txt, *.out, also .gz or .zst): its OOM messages, each explained, and CANN allocation failures",
    directoryPatterns: ['**/*.log', '**/*.txt', '**/*.out', '**/*.log.gz', '**/*.txt.gz', '**/*.out.gz'],
    // A folder of plogs and CSVs also holds *.log and *.txt: job logs are read only where named.
    searchedByDefault: false,
    noFigures:
      'did the job run out of device memory? Only "NPU/CUDA out of memory. Tried to allocate …" messages and CANN allocation failures (EL0004, halMemAlloc failed) are read',
    load: async () => {
      const m = await import('./job-log/index.js');
      return { parseFile: m.parseJobLogFile, finish: m.finishJobLogs };
    },
  },
  {
    name: 'dump',
    option: 'dump',
    input: 'memscope-dump',
    label: 'msMemScope dump',
    description:
      'msMemScope/msLeaks event dumps (memscope_dump_*.csv): steps, step leaks, unfreed memory, owners, op footprint, OOMs (OOM_DETAIL rows) explained',
    directoryPatterns: ['**/memscope_dump_*.csv', '**/leaks_dump_*.csv'],
    noFigures:
      'do the dumps hold MALLOC/FREE, OP_LAUNCH or MSTX rows after the header (was msMemScope tracing memory events)?',
    load: async () => {
      const m = await import('./memscope/dump-source.js');
      return { parseFile: m.parseDumpFile, finish: m.finishDumps };
    },
  },
  {
    name: 'dumpBase',
    option: 'dump-base',
    input: 'memscope-dump-base',
    label: 'msMemScope base dump',
    searchedByDefault: false,
    description:
      "the baseline run's msMemScope dumps: with --dump, compared in process as msmemscope --compare does (section kernels)",
    directoryPatterns: ['**/memscope_dump_*.csv', '**/leaks_dump_*.csv'],
    noFigures: 'base dumps are compared only with memscope-dump (--dump) dumps: give both',
    load: async () => {
      const m = await import('./memscope/dump-source.js');
      return { parseFile: m.parseBaseDumpFile, combine: m.compareBaseDumps };
    },
  },
];

const byName = new Map(SOURCES.map((s) => [s.name, s]));

/** The source called `name`; throws for a name no entry has (a programming error, not bad input). */
export function evidenceSource(name: string): EvidenceSource {
  const found = byName.get(name);
  if (found === undefined) throw new Error(`no evidence source is registered with the name '${name}'`);
  return found;
}

const loaded = new Map<string, Promise<SourceParser>>();

/** The source's parser, loaded once per thread. */
export function parserOf(name: string): Promise<SourceParser> {
  let parser = loaded.get(name);
  if (parser === undefined) {
    parser = evidenceSource(name).load();
    loaded.set(name, parser);
  }
  return parser;
}

/** Every source's run options, in registry order: the flags after the sources' own. */
export const RUN_OPTIONS: readonly RunOption[] = SOURCES.flatMap((s) => s.runOptions ?? []);

/** Input specs (paths, directories, globs) per source name, as given on the command line or in the Action's inputs. */
export type SpecsBySource = Readonly<Record<string, readonly string[]>>;

/** True when no source has any spec. */
export function noSpecs(specs: SpecsBySource): boolean {
  return SOURCES.every((s) => (specs[s.name] ?? []).length === 0);
}

/**
 * Parses one file with its source's parser. A read that fails (EACCES, EIO, a file gone meanwhile) becomes one
 * InputError naming the file: Node's read errors carry no path.
 */
export async function parseInputFile(kind: string, file: InputFile, builder: SnapshotBuilder): Promise<void> {
  try {
    await (await parserOf(kind)).parseFile(file, builder);
  } catch (error) {
    const failure = fileSystemFailure(error, file.name);
    throw failure === undefined ? error : new InputError(failure);
  }
}

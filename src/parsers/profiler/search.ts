// Where the profilers' memory CSVs are looked for in a directory; apart from the parser, so the source registry loads no parser.

const TABLES = '{memory_record,operator_memory,npu_module_mem,static_op_mem,npu_mem}';

// What a directory is searched for: torch_npu's (<worker>_ascend_pt) and MindSpore's (<worker>_ascend_ms) output,
// msprof's merged output (PROF_<id>/mindstudio_profiler_output), and the tables directly in the directory given. The
// msprof tree that torch_npu leaves inside its own folder is skipped (its ASCEND_PROFILER_OUTPUT already holds that
// data), and so are msprof's per-device device_<n>/summary copies of the merged files.
export const DIRECTORY_PATTERNS: readonly string[] = [
  `**/*_ascend_pt/**/${TABLES}.csv`,
  `**/*_ascend_ms/**/${TABLES}.csv`,
  `**/PROF_*/mindstudio_profiler_output/${TABLES}_*.csv`,
  `${TABLES}.csv`,
  `${TABLES}_*.csv`,
  '!**/*_ascend_pt/**/PROF_*/**',
  '!**/*_ascend_ms/**/PROF_*/**',
];

/**
 * A folder given itself is searched as what it is: a torch_npu or MindSpore output folder for its tables (its
 * ASCEND_PROFILER_OUTPUT), without msprof's tree inside it; an msprof PROF_* folder for its merged output.
 */
export const FOLDER_PATTERNS: readonly { folder: string; patterns: readonly string[] }[] = [
  { folder: '*_ascend_pt', patterns: [`**/${TABLES}.csv`, '!**/PROF_*/**'] },
  { folder: '*_ascend_ms', patterns: [`**/${TABLES}.csv`, '!**/PROF_*/**'] },
  { folder: 'PROF_*', patterns: [`mindstudio_profiler_output/${TABLES}_*.csv`] },
];

/** The patterns for --help: `<table>` stands for the five table names. */
export const SEARCH_HINT =
  '**/*_ascend_pt/**/<table>.csv **/*_ascend_ms/**/<table>.csv **/PROF_*/<merged>/<table>_*.csv <table>.csv <table>_*.csv, ' +
  'where <table> is memory_record, operator_memory, npu_module_mem, static_op_mem or npu_mem and <merged> is ' +
  'mindstudio_profiler_output (not the PROF_* copies inside *_ascend_pt or *_ascend_ms); ' +
  'a PROF_*, *_ascend_pt or *_ascend_ms folder given itself is searched as what it is';

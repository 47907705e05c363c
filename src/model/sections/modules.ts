// Driver memory statistics per memory attribute × module: the plog's `Mem stats` lines, and the profiler's npu_module_mem (NPU_MODULE_MEM).
import { defineSection, type MetricOf } from './types.js';

export const modules = defineSection({
  name: 'modules',
  kind: 'module',
  title: 'Modules',
  description:
    "Module memory statistics by key, e.g. DEV_MEM/dev0/APP or SVM_MEM/RUNTIME; the profiler's npu_module_mem as NPU_MODULE_MEM/dev0/HCCL.",
  keyShape: '<ATTR>[/devN]/<MODULE>',
  example: 'DEV_MEM/dev0/APP',
  value: 'peak',
  unit: 'bytes',
  tolerance: { percent: 5, bytes: 1024 ** 2 },
  source: 'plog memory statistics; profiler npu_module_mem.csv (Total Reserved)',
  fields: {
    peak: {
      type: 'bytes',
      description:
        'alloced/allocated_peak_size, total_size for DEV_PROC_MEM, the size for CACHED; the largest Total Reserved for NPU_MODULE_MEM.',
    },
    current: { type: 'bytes', description: 'current_alloced_size, or the peak where the format has none.' },
    allocs: { type: 'countOrNull', description: 'alloc_cnt, when the record has it.' },
    frees: { type: 'countOrNull', description: 'free_cnt, when the record has it.' },
  },
});

/** One `<ATTR>[/dev<N>]/<MODULE>` line of the driver's memory statistics. */
export type ModuleMetric = MetricOf<typeof modules>;

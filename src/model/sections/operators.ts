// Allocations per device and operator over a profiled run: torch_npu / msprof operator_memory.
import { defineSection } from './types.js';

export const operators = defineSection({
  name: 'operators',
  kind: 'operator',
  title: 'Operators',
  description:
    "The largest single allocation per device and operator from the profilers' operator_memory CSVs, e.g. dev0/aten::empty_strided.",
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
      description:
        'Allocations by this operator in the file (rows with a size; releases without an allocation are not counted).',
    },
    total: { type: 'bytes', description: 'The sum of those allocations, in bytes.' },
  },
});

// Per-kernel Diff Memory of a memory_compare CSV (msLeaks/msMemScope --compare, or compare-dumps).
import { defineSection, type MetricOf } from './types.js';

export const kernels = defineSection({
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

/** Per-kernel aggregate of a memory_compare CSV: `dev<D>/<Name>`. */
export type KernelMetric = MetricOf<typeof kernels>;

// Per-op memory footprint from an msMemScope dump: our metric (msMemScope's compare value is only a fingerprint).
import { defineSection } from './types.js';

export const opFootprint = defineSection({
  name: 'opFootprint',
  kind: 'opFootprint',
  title: "Op footprint (ours, not msMemScope's)",
  description:
    "Per device and op, the largest net framework-pool allocation inside one START..END window of the op (ascend-memory-gate's metric, not msMemScope's), e.g. dev0/torch._ops.aten.mm.default.",
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

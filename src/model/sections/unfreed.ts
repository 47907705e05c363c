// Memory still allocated when tracing stopped, from an msMemScope dump: the baseline difference is what matters.
import { defineSection } from './types.js';

export const unfreed = defineSection({
  name: 'unfreed',
  kind: 'unfreed',
  title: 'Unfreed at the end of tracing',
  description:
    'Blocks never freed while tracing, by device, pool and owner (or first call-stack line, or the pool), e.g. dev0/PTA/PTA@weight; growth beyond tolerance is leak-suspect.',
  keyShape: 'devN/<POOL>/<owner>',
  example: 'dev0/HAL/HAL',
  value: 'bytes',
  unit: 'bytes',
  tolerance: { bytes: 1024 ** 2 },
  source: 'msMemScope event dump',
  // Persistent allocations (weights, pool segments) stay live by design: growth is judged by the leak-suspect finding.
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

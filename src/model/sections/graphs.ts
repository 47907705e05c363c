// Static graph memory planned at compile time: the TOTAL row per model and graph of static_op_mem.
import { defineSection } from './types.js';

export const graphs = defineSection({
  name: 'graphs',
  kind: 'graph',
  title: 'Static graphs',
  description:
    'Memory of each static graph as the TOTAL row of static_op_mem says (never the sum of its rows), by key <device>/<Model Name>/<Graph ID>, e.g. host/0/1.',
  keyShape: '<host|devN>/<model>/<graph>',
  example: 'host/0/1',
  value: 'size',
  unit: 'bytes',
  tolerance: { percent: 5, bytes: 1024 ** 2 },
  source: 'profiler static_op_mem.csv',
  fields: {
    size: { type: 'bytes', description: 'Size(KB) of the TOTAL row, in bytes.' },
  },
});

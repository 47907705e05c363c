// msMemScope's inefficient-memory findings (early allocation, late deallocation, temporary idleness) per device and type.
import { defineSection } from './types.js';

export const inefficient = defineSection({
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
});

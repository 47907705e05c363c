// Peak live bytes per owner bucket from an msMemScope dump with decompose labels ("optimizer state grew 2 GiB on every rank").
import { defineSection } from './types.js';

export const owners = defineSection({
  name: 'owners',
  kind: 'owner',
  title: 'Owners',
  description:
    'Peak live bytes per owner bucket (weights, gradients, optimizer, activations, workspace, hccl, cann-other, kv-cache) and device, e.g. dev0/optimizer.',
  keyShape: 'devN/<bucket>',
  example: 'dev0/optimizer',
  value: 'peak',
  unit: 'bytes',
  tolerance: { percent: 5, bytes: 1024 ** 2 },
  source: 'msMemScope event dump with decompose owner labels',
  fields: {
    peak: { type: 'bytes', description: 'The largest live bytes of the bucket at any time of the trace.' },
  },
});

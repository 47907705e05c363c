// Training-step memory of an msMemScope dump: a framework pool's allocated bytes at each step's peak and end.
import { defineSection } from './types.js';

export const steps = defineSection({
  name: 'steps',
  kind: 'step',
  title: 'Training steps',
  description:
    'Allocated bytes of a framework pool (PTA, ATB, MindSpore) at the peak and at the end of each training step, by key, e.g. dev0/PTA/step3/peak.',
  keyShape: 'devN/<POOL>/step<k>/peak|end',
  example: 'dev0/PTA/step3/peak',
  value: 'bytes',
  unit: 'bytes',
  tolerance: { percent: 5, bytes: 1024 ** 2 },
  source: 'msMemScope event dump (mstx step ranges or SYSTEM/STEP rows)',
  fields: {
    bytes: {
      type: 'bytes',
      description:
        "The pool's allocated bytes (MALLOC +size, FREE -size since tracing began) at the step's peak or end.",
    },
    step: { type: 'count', description: 'The step number (per process, from 1).' },
  },
});

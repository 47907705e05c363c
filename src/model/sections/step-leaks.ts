// msMemScope's own leak rule over training steps: the evidence of the step-leak finding (not compared with the baseline).
import { defineSection } from './types.js';

export const stepLeaks = defineSection({
  name: 'stepLeaks',
  kind: 'stepLeak',
  title: 'Step leaks',
  description:
    "Framework-pool blocks allocated during step k >= 2 and still live at the end of step k+1 (msMemScope's rule), by device and pool, e.g. dev0/PTA.",
  keyShape: 'devN/<POOL>',
  example: 'dev0/PTA',
  value: 'bytes',
  unit: 'bytes',
  tolerance: { bytes: 0 },
  source: 'msMemScope event dump (mstx step ranges or SYSTEM/STEP rows)',
  // A property of this run: reported by the step-leak finding, whatever the baseline had.
  compared: false,
  fields: {
    bytes: { type: 'bytes', description: 'Bytes of the leaked blocks.' },
    blocks: { type: 'count', description: 'How many blocks.' },
    top: {
      type: 'string',
      description:
        'The owners (or first call-stack lines, or the pool) with the most leaked bytes, at most three: `PTA@weight 4000256×2`.',
    },
  },
});

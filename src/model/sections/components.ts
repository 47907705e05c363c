// Memory per device and component over a profiled run: torch_npu memory_record (PTA, PTA+GE, GE, APP, …) and msprof npu_mem.
import { defineSection } from './types.js';

export const components = defineSection({
  name: 'components',
  kind: 'component',
  title: 'Components',
  description:
    'Peak memory per device, component and figure from the profilers, e.g. dev0/PTA/reserved (torch_npu memory_record: allocated, reserved, active) or dev0/APP/hbm (msprof npu_mem: hbm, ddr).',
  keyShape: 'devN/<COMPONENT>/<figure>',
  example: 'dev0/PTA/reserved',
  value: 'peak',
  unit: 'bytes',
  tolerance: { percent: 5, bytes: 1024 ** 2 },
  source: 'profiler memory_record.csv and npu_mem CSVs',
  fields: {
    peak: {
      type: 'bytes',
      description:
        'The largest value of the figure over every row of the component on the device (exact bytes: MB × 2^20, KB × 2^10).',
    },
  },
});

// torch_npu's module table written beside an OOM dump (device_<N>_memUsageInfo_<ts>.csv): memory per module at the OOM.
import { PROCESS_DEVICE_FIELDS } from './allocator.js';
import { defineSection, type MetricOf } from './types.js';

export const oomModules = defineSection({
  name: 'oomModules',
  kind: 'oomModule',
  title: 'Modules at the OOM',
  description:
    "torch_npu's per-module device memory at an OOM (device_<N>_memUsageInfo_<ts>.csv beside the OOM snapshot), e.g. dev0/PTA.",
  keyShape: 'devN/<module>',
  example: 'dev0/PTA',
  value: 'peak',
  unit: 'bytes',
  tolerance: { bytes: 0 },
  source: 'torch_npu memUsageInfo CSV (HDK ≥ 25.5.0, CANN ≥ 8.5.0)',
  // Evidence for the oom finding's note: a run without an OOM has no such table to compare with.
  compared: false,
  logicalDevices: true,
  // No column of its own in the per-device table: events, not memory held.
  deviceRow: { figures: [] },
  fields: {
    peak: { type: 'bytes', description: 'memPeakSize(MB) in bytes (the CSV has 4 decimals of MiB: within 53 bytes).' },
    current: { type: 'bytes', description: 'curMemSize(MB) in bytes, at the OOM.' },
    ...PROCESS_DEVICE_FIELDS,
  },
});

/** One torch_npu module's figures at an OOM. */
export type OomModuleMetric = MetricOf<typeof oomModules>;

// Out-of-memory events of torch_npu's caching allocator, from memory snapshots: the evidence of the oom finding.
import { PROCESS_DEVICE_FIELDS } from './allocator.js';
import type { SectionDeclaration } from './types.js';

export const ooms: SectionDeclaration = {
  name: 'ooms',
  kind: 'oom',
  title: 'Out-of-memory events',
  description: "Each `oom` entry of a memory snapshot's trace by device and order, e.g. dev0/oom1, with the allocator's state at that moment.",
  keyShape: 'devN/oom<k>',
  example: 'dev0/oom1',
  value: 'requested',
  unit: 'bytes',
  tolerance: { bytes: 0 },
  source: 'torch_npu memory snapshot (pickle): OOM_SNAPSHOT_ENABLE dumps, or a trace recorded through an OOM',
  // A property of this run: every one fails the gate (oom), whatever the baseline had.
  compared: false,
  logicalDevices: true,
  // No column of its own in the per-device table: events, not memory held.
  deviceRow: { figures: [] },
  fields: {
    requested: { type: 'bytes', description: 'The request, rounded as the allocator rounds it.' },
    deviceFree: { type: 'bytes', description: 'Free device memory the driver reported (aclrtGetMemInfo).' },
    allocated: { type: 'bytes', description: 'Live requested bytes at the OOM (from the trace).' },
    reserved: { type: 'bytes', description: 'Reserved (segment) bytes at the OOM.' },
    largestFreeBlock: { type: 'bytes', description: 'The largest free cached block at dump time (exact at the OOM when entriesAfter is 0).' },
    entriesAfter: { type: 'count', description: 'Trace entries after the OOM; 0 when the OOM triggered the dump, as torch_npu\'s OOM observer does.' },
    kind: { type: 'string', description: '`fragmentation` (reserved − allocated ≥ the request, no free block that large) or `capacity`.' },
    sites: {
      type: 'string',
      description: "The largest allocation sites live at the OOM, as JSON: [[site, bytes, codeRoot], …], at most five; codeRoot as allocationSites' field.",
    },
    ...PROCESS_DEVICE_FIELDS,
  },
};

// Out-of-memory events, from job logs, memory snapshots (and what they share): the evidence of the oom finding, each with its cause.
import { PROCESS_DEVICE_FIELDS } from './allocator.js';
import { defineSection, type MetricOf } from './types.js';

export const ooms = defineSection({
  name: 'ooms',
  kind: 'oom',
  title: 'Out-of-memory events',
  description:
    "Each out-of-memory event by device: a memory snapshot trace's `oom` entry (dev0/oom1), a job log's OOM message, once per log, device and figures (dev0/log-<hash>), or an msMemScope dump's OOM_DETAIL/OOM_TRIGGER row (dev0/dump-<hash>), with its figures and cause.",
  keyShape: 'devN/oom<k> | devN/log-<hash> | devN/dump-<hash>',
  example: 'dev0/oom1',
  value: 'requested',
  unit: 'bytes',
  tolerance: { bytes: 0 },
  source:
    'job logs (the OOM message torch_npu or PyTorch prints), torch_npu memory snapshots (OOM_SNAPSHOT_ENABLE dumps, or a trace recorded through an OOM), msMemScope dumps (OOM_DETAIL rows)',
  // A property of this run: every one fails the gate (oom), whatever the baseline had.
  compared: false,
  logicalDevices: true,
  // No column of its own in the per-device table: events, not memory held.
  deviceRow: { figures: [] },
  fields: {
    requested: {
      type: 'bytes',
      description: 'R: the request (a snapshot: rounded as the allocator rounds it; a log: as printed).',
    },
    deviceFree: {
      type: 'bytesOrNull',
      description: 'F: free device memory the driver reported (aclrtGetMemInfo); null when the evidence does not say.',
    },
    allocated: {
      type: 'bytesOrNull',
      description:
        'A: allocated by the caching allocator at the OOM (a snapshot: live requested bytes from the trace).',
    },
    reserved: { type: 'bytesOrNull', description: 'V: reserved (segment) bytes of the caching allocator at the OOM.' },
    largestFreeBlock: {
      type: 'bytesOrNull',
      description:
        'The largest free cached block at dump time (memory snapshots; exact at the OOM when entriesAfter is 0).',
    },
    entriesAfter: {
      type: 'countOrNull',
      description:
        "Trace entries after the OOM (memory snapshots); 0 when the OOM triggered the dump, as torch_npu's OOM observer does.",
    },
    kind: {
      type: 'string',
      optional: true,
      description: 'Written before `cause` existed (fragmentation or capacity); read, never written.',
    },
    sites: {
      type: 'string',
      description:
        "The largest allocation sites live at the OOM, as JSON: [[site, bytes, codeRoot], …], at most five; codeRoot as allocationSites' field. [] without a snapshot.",
    },
    total: {
      type: 'bytesOrNull',
      optional: true,
      description:
        "T: the device's total memory as the message printed it; null when the evidence does not say (the gate then takes the configured capacity).",
    },
    active: { type: 'bytesOrNull', optional: true, description: "torch_npu's `current active` bytes, when printed." },
    allowed: {
      type: 'bytesOrNull',
      optional: true,
      description: 'The per-process memory-fraction cap (`P allowed`), when printed.',
    },
    processTotal: {
      type: 'bytesOrNull',
      optional: true,
      description:
        'This process\'s memory including non-PyTorch memory ("Including non-PyTorch memory, this process has …"), when printed.',
    },
    processes: {
      type: 'stringOrNull',
      optional: true,
      description:
        'The processes the driver listed on the device, as JSON [[pid, bytes], …] ("Process N has M memory in use."), or null.',
    },
    cause: {
      type: 'string',
      optional: true,
      description:
        'request-exceeds-device, free-but-refused, outside-allocator, fragmentation, capacity or unknown: the first rule that holds (src/model/oom-cause.ts); the gate decides it again with its config.',
    },
    source: {
      type: 'string',
      optional: true,
      description: '`job log`, `memory snapshot` or `msMemScope dump`: which evidence the figures came from.',
    },
    precision: {
      type: 'string',
      optional: true,
      description:
        '`exact` (bytes), or `printed`: rounded to two decimals of their unit as the message printed them (±0.005 of the unit).',
    },
    line: {
      type: 'countOrNull',
      optional: true,
      description:
        "The line of the job log where the message was first printed, or of the dump's OOM_TRIGGER row; null for snapshots.",
    },
    printed: {
      type: 'count',
      optional: true,
      description: 'How many times the log printed this event (re-raised, logged twice, repeated across a cluster).',
    },
    ...PROCESS_DEVICE_FIELDS,
  },
});

/** One out-of-memory event's figures. */
export type OomMetric = MetricOf<typeof ooms>;

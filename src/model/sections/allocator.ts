// torch_npu's caching allocator per device, from its memory snapshots: peak allocated and peak reserved over the trace.
import { formatBytes, formatCount } from '../units.js';
import { defineSection, type Fields, type MetricFields } from './types.js';

/** The fields of every section filled from a process's memory snapshot, whose device numbers are logical. */
export const PROCESS_DEVICE_FIELDS = {
  file: {
    type: 'string',
    description: 'The snapshot file this device came from (the larger peak wins when several files name one device).',
  },
  logicalDevice: { type: 'count', description: "The device index the file gave (the process's logical index)." },
  visibleDevices: {
    type: 'stringOrNull',
    description:
      "ASCEND_RT_VISIBLE_DEVICES that mapped the logical index to the key's physical device, or null when the key keeps the logical index.",
  },
} as const satisfies Fields;

/** Where a device's figures came from, as a sentence: the file, and the process's device when it was mapped. */
export function originText(metric: MetricFields<typeof PROCESS_DEVICE_FIELDS>): string {
  const mapped =
    metric.visibleDevices === null
      ? ''
      : `, where it is npu:${metric.logicalDevice} of ASCEND_RT_VISIBLE_DEVICES=${metric.visibleDevices}`;
  return `From ${metric.file}${mapped}.`;
}

/** How the note of a device without a trace begins: reports label its figures "dump-time" by it (read back from JSON too). */
export const UNTRACED_NOTE = 'No trace was recorded (_record_memory_history was off)';

/** The allocator section's fields: one metric per device and figure (allocated, reserved). */
const ALLOCATOR_FIELDS = {
  peak: {
    type: 'bytes',
    description:
      'allocated: the most live requested bytes at any point of the trace; reserved: the most segment bytes. The latest such point is the peak point. Without a trace: the dump-time value.',
  },
  atDump: {
    type: 'bytes',
    description:
      "At dump time: allocated, the requested bytes of the live blocks (as every allocated figure here; the segments' allocated_size is block-rounded); reserved, the sum of total_size of the device's segments.",
  },
  allocated: { type: 'bytes', description: "Live requested bytes at this key's peak point." },
  reserved: {
    type: 'bytes',
    description:
      "Reserved (segment) bytes at this key's peak point; for the allocated key, (reserved − allocated) / reserved is the fragmentation at the allocated peak.",
  },
  point: { type: 'count', description: 'The peak point: trace entries applied (the trace length: dump time).' },
  traceEntries: {
    type: 'count',
    description: "Entries in the device's trace; 0: no trace was recorded, only dump-time figures exist.",
  },
  segments: { type: 'count', description: 'Segments at dump time.' },
  largestSegment: { type: 'bytes', description: 'The largest segment at dump time.' },
  largestFreeBlock: { type: 'bytes', description: 'The largest free (inactive) block at dump time.' },
  ...PROCESS_DEVICE_FIELDS,
} as const satisfies Fields;

/** A device's allocated or reserved figure. */
export type AllocatorMetric = MetricFields<typeof ALLOCATOR_FIELDS>;

function share(part: number, whole: number): string {
  return whole === 0 ? '0.0%' : `${((part / whole) * 100).toFixed(1)}%`;
}

function describeAllocator(key: string, m: AllocatorMetric): string {
  const origin = originText(m);
  if (m.traceEntries === 0) {
    const what = key.endsWith('/reserved')
      ? `${formatCount(m.segments)} segment(s) at dump time`
      : 'live requested bytes at dump time';
    return `${UNTRACED_NOTE}: only dump-time figures, ${what}. ${origin}`;
  }
  const at = `trace point ${formatCount(m.point)} of ${formatCount(m.traceEntries)}`;
  if (key.endsWith('/reserved')) {
    return `Peak at ${at}, ${formatBytes(m.allocated)} allocated there; at dump time ${formatBytes(m.atDump)} in ${formatCount(m.segments)} segment(s), the largest free block ${formatBytes(m.largestFreeBlock)}. ${origin}`;
  }
  const gap = m.reserved - m.peak;
  return `Peak at ${at}, with ${formatBytes(m.reserved)} reserved: ${formatBytes(gap)} (${share(gap, m.reserved)}) reserved but not allocated (fragmentation and rounding). ${origin}`;
}

export const allocator = defineSection({
  name: 'allocator',
  kind: 'allocator',
  title: 'Caching allocator',
  description:
    "Peak allocated (requested) and peak reserved bytes of torch_npu's caching allocator per device, over the memory snapshot's trace (at dump time without one), e.g. dev0/allocated, dev0/reserved.",
  keyShape: 'devN/allocated|reserved',
  example: 'dev0/reserved',
  value: 'peak',
  unit: 'bytes',
  tolerance: { percent: 5, bytes: 64 * 1024 ** 2 },
  source: 'torch_npu memory snapshot (pickle)',
  describe: describeAllocator,
  tableNote:
    'allocated: requested bytes (what the program asked for, before the allocator rounds blocks up); reserved: segment bytes. A device without a trace (TRACEENTRIES 0) has dump-time figures only.',
  logicalDevices: true,
  deviceRow: {
    figures: [
      { figure: 'allocated', title: 'Allocated peak' },
      { figure: 'reserved', title: 'Reserved peak' },
    ],
    gap: 'Reserved − allocated',
    note: "Allocated and reserved peaks of the caching allocator (memory snapshots), each at its own peak point; the gap is reserved memory the program did not hold at those peaks, and the allocated key's note gives the fragmentation at the allocated peak exactly.",
  },
  fields: ALLOCATOR_FIELDS,
});

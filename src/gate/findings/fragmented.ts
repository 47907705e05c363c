// The fragmented finding: reserved memory a memory snapshot's allocated peak left unused, beyond `fragmentation`.
import { allocator, originText, type AllocatorMetric } from '../../model/sections/allocator.js';
import { metricsOf } from '../../model/snapshot.js';
import { compareKeys } from '../../model/key-order.js';
import { formatBytes } from '../../model/units.js';
import type { EntryOf } from '../basics.js';
import { percentChange, toBytes, type SizeInput } from '../tolerance.js';
import { defineFinding, type FindingContext } from './declaration.js';

/**
 * The config's `fragmentation`: `fragmented` when, at a memory snapshot's allocated peak, (reserved − allocated) /
 * reserved exceeds `percent` and reserved − allocated exceeds `bytes` (both must be exceeded).
 */
export interface FragmentationOptions {
  fragmentation: { percent: number; bytes: number };
}

export const fragmented = defineFinding({
  name: 'fragmented',
  statuses: [
    {
      status: 'fragmented',
      policy: 'warn',
      description: "Reserved memory unused at a memory snapshot's allocated peak beyond `fragmentation`. Default warn.",
    },
  ],
  config: {
    fragmentation: {
      schema: {
        type: 'object',
        additionalProperties: false,
        description:
          "fragmented (warn) when, at a memory snapshot's allocated peak, the reserved memory the program could not use exceeds both fields: (reserved - allocated) / reserved over `percent`, and reserved - allocated over `bytes`. Allocated counts requested bytes, so the allocator's rounding counts as fragmentation.",
        properties: {
          percent: {
            title: 'a percent from 0 to 100',
            type: 'number',
            minimum: 0,
            maximum: 100,
            description: 'Default 30.',
          },
          bytes: { $ref: '#/definitions/size', description: 'Default "1GiB".' },
        },
      },
      defaults: { percent: 30, bytes: 1024 ** 3 } as FragmentationOptions['fragmentation'],
      parse: (raw, defaults: FragmentationOptions['fragmentation'], file, pointer) => {
        const input = raw as { percent?: number; bytes?: SizeInput } | undefined;
        return {
          percent: input?.percent ?? defaults.percent,
          bytes: input?.bytes === undefined ? defaults.bytes : toBytes(input.bytes, file, `${pointer}/bytes`),
        };
      },
    },
  },
  writtenFor: ['allocator'],
  rejudge: {
    kept: "the memory snapshot's reserved and allocated bytes at the allocated peak",
    withVerdict: ['allocator'],
  },
  assess: assessFragmented,
});

/**
 * `fragmented` where a memory snapshot's allocated peak left more than `fragmentation.percent` of the reserved memory
 * unallocated, and more than `fragmentation.bytes`. The entry's values are that gap (reserved − allocated), this run's
 * against the baseline's.
 */
function assessFragmented({
  baseline,
  current,
  config,
}: FindingContext<'fragmented', FragmentationOptions>): EntryOf<'fragmented'>[] {
  const policy = config.verdicts.fragmented;
  if (policy === 'ignore') return [];
  const { percent, bytes } = config.fragmentation;
  const before = metricsOf(baseline, allocator);
  const gapOf = (m: AllocatorMetric): number => m.reserved - m.allocated;
  const entries: EntryOf<'fragmented'>[] = [];
  for (const [key, metric] of Object.entries(metricsOf(current, allocator)).sort((a, b) => compareKeys(a[0], b[0]))) {
    if (!key.endsWith('/allocated')) continue;
    const reserved = metric.reserved;
    const gap = gapOf(metric);
    if (reserved <= 0 || gap <= bytes || gap * 100 <= reserved * percent) continue;
    const was = Object.hasOwn(before, key) ? before[key] : undefined;
    const old = was === undefined ? null : gapOf(was);
    const where =
      metric.traceEntries === 0
        ? 'at dump time (no trace was recorded)'
        : `at the allocated peak (trace point ${metric.point} of ${metric.traceEntries})`;
    entries.push({
      kind: allocator.kind,
      key,
      baseline: old,
      current: gap,
      delta: old === null ? null : gap - old,
      percent: percentChange(old, gap),
      status: 'fragmented',
      severity: policy,
      rule: null,
      unit: 'bytes',
      note:
        `${where[0]?.toUpperCase() ?? ''}${where.slice(1)} ${formatBytes(gap)} of the ${formatBytes(reserved)} reserved were not allocated (${((gap / reserved) * 100).toFixed(1)}%, over ${percent}% and ${formatBytes(bytes)}): ` +
        'cached blocks the program could not use, and rounding. PYTORCH_NPU_ALLOC_CONF=expandable_segments:True lets segments grow instead of caching holes. ' +
        originText(metric),
    });
  }
  return entries;
}

// The oom finding: every `oom` entry of a memory snapshot's trace, explained as fragmentation or capacity.
import { originText } from '../../model/sections/allocator.js';
import { findDeviceSegment, section, type Metric, type SegmentBounds } from '../../model/sections/index.js';
import { compareKeys, metricsOf } from '../../model/snapshot.js';
import { formatBytes } from '../../model/units.js';
import type { EntryOf } from '../basics.js';
import { defineFinding, type FindingContext } from './declaration.js';

/** Holders named in an OOM's note, and torch_npu modules. */
const NAMED = 3;

const number = (m: Metric, field: string): number => (typeof m[field] === 'number' ? (m[field] as number) : 0);

export const oom = defineFinding({
  name: 'oom',
  statuses: [
    {
      status: 'oom',
      policy: 'fail',
      description:
        "An `oom` entry in a memory snapshot's trace (torch_npu's caching allocator could not serve a request), explained as fragmentation or capacity. Default fail.",
    },
  ],
  config: {},
  writtenFor: ['ooms'],
  rejudge: { kept: "the memory snapshot's trace", withVerdict: [] },
  assess: assessOoms,
});

/**
 * `oom` for every `oom` entry of a memory snapshot's trace, whatever the baseline (like alloc-failure): its note says
 * what failed, the allocator's state at that moment, and which case it is.
 */
function assessOoms({ current, config }: FindingContext<'oom', object>): EntryOf<'oom'>[] {
  const policy = config.verdicts.oom;
  if (policy === 'ignore') return [];
  const declaration = section('ooms');
  const modules = metricsOf(current, 'oomModules');
  const entries: EntryOf<'oom'>[] = [];
  for (const [key, metric] of Object.entries(metricsOf(current, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]))) {
    entries.push({
      kind: declaration.kind,
      key,
      baseline: null,
      current: number(metric, 'requested'),
      delta: null,
      percent: null,
      status: 'oom',
      severity: policy,
      rule: null,
      unit: 'bytes',
      note: explainOom(key, metric, modules),
    });
  }
  return entries;
}

/** What a memory engineer says about one OOM. */
export function explainOom(key: string, m: Metric, modules: Readonly<Record<string, Metric>>): string {
  const requested = number(m, 'requested');
  const allocated = number(m, 'allocated');
  const reserved = number(m, 'reserved');
  const largest = number(m, 'largestFreeBlock');
  const cached = reserved - allocated;
  const after = number(m, 'entriesAfter');
  const largestWhen =
    after === 0 ? 'at dump time, which the OOM triggered' : `at dump time, ${after} trace entries after the OOM: the block layout at the OOM itself is not recorded`;
  const head =
    `a request of ${formatBytes(requested)} failed with ${formatBytes(number(m, 'deviceFree'))} free on the device; ` +
    `the allocator held ${formatBytes(reserved)} reserved, ${formatBytes(allocated)} of it allocated, so ${formatBytes(Math.max(0, cached))} were cached`;
  const holders = holdersText(m.sites);
  const table = modulesText(key, modules);
  const tail = `${holders === '' ? '' : ` Largest holders at the OOM: ${holders}.`}${table === '' ? '' : ` torch_npu's module table at the OOM: ${table}.`} ${originText(m)}`;
  if (m.kind === 'fragmentation') {
    return (
      `Fragmentation: ${head}, more than the request, but no free block was that large (the largest: ${formatBytes(largest)}, ${largestWhen}). ` +
      'Set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True so segments grow in place instead of leaving holes (or free the large blocks earlier).' +
      tail
    );
  }
  const remedy = 'Hold less at that point (smaller micro-batch, activation recomputation, optimizer state sharded or offloaded) or run on more devices.';
  if (largest >= requested) {
    return (
      `Capacity: ${head}, and a free block of ${formatBytes(largest)} (${largestWhen}) was as large as the request, yet could not serve it: ` +
      'it belongs to another stream or memory pool, or a memory-fraction limit (set_per_process_memory_fraction) stopped the allocator. ' +
      `What this request could use was full. ${remedy}${tail}`
    );
  }
  return `Capacity: ${head}, ${cached < requested ? 'less than the request' : 'in blocks smaller than the request'}: the device is full. ${remedy}${tail}`;
}

function holdersText(sites: Metric[string] | undefined): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(sites));
  } catch {
    return '';
  }
  if (!Array.isArray(parsed)) return '';
  return parsed
    .filter((p): p is [string, number, unknown] => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'number')
    .slice(0, NAMED)
    .map(([site, bytes]) => `${site} ${formatBytes(bytes)}`)
    .join(', ');
}

/** The device's largest torch_npu modules (memUsageInfo): `PTA 24.6 GiB (peak 36.6 GiB)`. */
function modulesText(key: string, modules: Readonly<Record<string, Metric>>): string {
  const bounds: SegmentBounds = { start: 0, end: 0 };
  if (!findDeviceSegment(key, bounds)) return '';
  const prefix = `${key.slice(0, bounds.end)}/`;
  return Object.entries(modules)
    .filter(([k]) => k.startsWith(prefix))
    .sort((a, b) => number(b[1], 'current') - number(a[1], 'current') || compareKeys(a[0], b[0]))
    .slice(0, NAMED)
    .map(([k, m]) => `${k.slice(prefix.length)} ${formatBytes(number(m, 'current'))} (peak ${formatBytes(number(m, 'peak'))})`)
    .join(', ');
}


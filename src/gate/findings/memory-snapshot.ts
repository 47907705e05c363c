// Findings from torch_npu memory snapshots: fragmentation at the allocated peak (their OOMs are assessed with every other source's in ooms.ts).
import { originText } from '../../model/sections/allocator.js';
import { section, type Metric } from '../../model/sections/index.js';
import { compareKeys, metricsOf } from '../../model/snapshot.js';
import { formatBytes } from '../../model/units.js';
import { percentChange } from '../thresholds.js';
import type { Entry, FindingAssessor } from '../types.js';

const number = (m: Metric, field: string): number => (typeof m[field] === 'number' ? (m[field] as number) : 0);

/** Every OOM, whichever evidence it came from, is assessed in ooms.ts (five causes, one rule). */
export { oomFindings } from './ooms.js';

/**
 * `fragmented` where a memory snapshot's allocated peak left more than `fragmentation.percent` of the reserved memory
 * unallocated, and more than `fragmentation.bytes`. The entry's values are that gap (reserved − allocated), this run's
 * against the baseline's.
 */
export const fragmentedFindings: FindingAssessor = ({ baseline, current, config }) => {
  const policy = config.verdicts.fragmented;
  if (policy === 'ignore') return [];
  const declaration = section('allocator');
  const { percent, bytes } = config.fragmentation;
  const before = metricsOf(baseline, declaration.name);
  const gapOf = (m: Metric): number => number(m, 'reserved') - number(m, 'allocated');
  const entries: Entry[] = [];
  for (const [key, metric] of Object.entries(metricsOf(current, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]))) {
    if (!key.endsWith('/allocated')) continue;
    const reserved = number(metric, 'reserved');
    const gap = gapOf(metric);
    if (reserved <= 0 || gap <= bytes || gap * 100 <= reserved * percent) continue;
    const old = Object.hasOwn(before, key) ? gapOf(before[key] as Metric) : null;
    const where =
      number(metric, 'traceEntries') === 0
        ? 'at dump time (no trace was recorded)'
        : `at the allocated peak (trace point ${number(metric, 'point')} of ${number(metric, 'traceEntries')})`;
    entries.push({
      kind: declaration.kind,
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
};

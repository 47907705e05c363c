// What the analyses of one msMemScope dump give (dump-replay.ts replays a dump into them), and the pure helpers they share:
// owner buckets, the top labels of a step leak, new unfreed blocks against a baseline run.

/** One training step of one process (§3.2): from mstx `step start` ranges or SYSTEM/STEP rows. */
export interface StepRange {
  pid: string;
  step: number;
  /** False when no Range_end (or STEP row) closed it: it ended at the next step's start or the end of the dump. */
  closed: boolean;
}

export interface StepRow {
  device: string;
  pool: string;
  pid: string;
  step: number;
  /** Allocated bytes of the pool just before the step, at its peak, and at its end (MALLOC +size, FREE −size). */
  start: number;
  peak: number;
  end: number;
  closed: boolean;
}

export interface LeakBlock {
  id: number;
  bytes: number;
  birthStep: number;
  /** The step at whose end it was still live. */
  seenAtEndOf: number;
  owner: string;
}

export interface StepLeak {
  device: string;
  pool: string;
  count: number;
  bytes: number;
  /** The leaked blocks of smallest ID, at most 20. */
  examples: LeakBlock[];
  /** Owners (or first call-stack line, or the pool) with the most leaked bytes, at most 3: `PTA@weight 4000256×2`. */
  top: string[];
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The labels with the most bytes, at most 3: `label size×count`, or `label bytes B in count` for mixed sizes. */
export function topLabels(items: readonly (readonly [string, number])[]): string[] {
  const byLabel = new Map<string, { bytes: number; count: number; size: number }>();
  for (const [label, bytes] of items) {
    const t = byLabel.get(label) ?? { bytes: 0, count: 0, size: bytes };
    t.bytes += bytes;
    t.count++;
    if (t.size !== bytes) t.size = NaN;
    byLabel.set(label, t);
  }
  return [...byLabel]
    .sort((x, y) => y[1].bytes - x[1].bytes || cmp(x[0], y[0]))
    .slice(0, 3)
    .map(([label, t]) =>
      Number.isNaN(t.size) ? `${label} ${t.bytes} B in ${t.count}` : `${label} ${t.size}×${t.count}`,
    );
}

export interface UnfreedGroup {
  device: string;
  pool: string;
  /** Owner string, else the first call-stack line, else the pool. */
  label: string;
  blocks: number;
  bytes: number;
  /** Dump IDs of the blocks: the 20 smallest. */
  ids: number[];
  /** Every block's size, descending (for telling new blocks from old ones against a baseline). */
  sizes: number[];
}

export interface NewUnfreed {
  device: string;
  pool: string;
  label: string;
  /** Sizes of the current run's unfreed blocks that the baseline run's unfreed blocks of the group do not account for. */
  sizes: number[];
  bytes: number;
}

/** Unfreed blocks of `current` beyond those of `base`, per group, matched by size (a multiset difference). */
export function newUnfreed(base: UnfreedGroup[], current: UnfreedGroup[]): NewUnfreed[] {
  const baseSizes = new Map(base.map((u) => [`${u.device}|${u.pool}|${u.label}`, u.sizes]));
  const out: NewUnfreed[] = [];
  for (const u of current) {
    const left = new Map<number, number>();
    for (const s of baseSizes.get(`${u.device}|${u.pool}|${u.label}`) ?? []) left.set(s, (left.get(s) ?? 0) + 1);
    const sizes: number[] = [];
    for (const s of u.sizes) {
      const n = left.get(s) ?? 0;
      if (n > 0) left.set(s, n - 1);
      else sizes.push(s);
    }
    if (sizes.length > 0)
      out.push({ device: u.device, pool: u.pool, label: u.label, sizes, bytes: sizes.reduce((x, y) => x + y, 0) });
  }
  return out;
}

/** The owner buckets a reviewer reads (§3.6). */
export type OwnerBucket =
  | 'weights'
  | 'gradients'
  | 'optimizer'
  | 'activations'
  | 'workspace'
  | 'hccl'
  | 'cann-other'
  | 'kv-cache'
  | 'unlabelled';

/** Maps an owner string (`PTA@weight`, `CANN@HCCL`, `PTA_WORKSPACE`…) and the block's pool to a bucket. */
export function ownerBucket(owner: string, pool: string): OwnerBucket {
  const tokens = owner.split('@');
  if (tokens[0] === 'CANN') return tokens[1] === 'HCCL' ? 'hccl' : 'cann-other';
  const labels = tokens.slice(1);
  if (labels.includes('kv_cache')) return 'kv-cache';
  if (labels.includes('weight') || labels.includes('weights')) return 'weights';
  if (labels.includes('gradient')) return 'gradients';
  if (labels.includes('optimizer_state')) return 'optimizer';
  const framework = tokens[0] || pool;
  if (framework === 'PTA_WORKSPACE' || framework === 'ATB') return 'workspace';
  if (framework === 'PTA' || framework === 'MINDSPORE') return 'activations';
  if (framework === 'HAL') return 'cann-other';
  return 'unlabelled';
}

export interface OwnerPeak {
  device: string;
  bucket: OwnerBucket;
  /** The largest live bytes of the bucket at any time (each bucket's own peak). */
  peak: number;
}

export interface OpFootprint {
  device: string;
  name: string;
  launches: number;
  /** The largest net allocation (framework-pool MALLOC − FREE bytes) inside one START…END window of the op. */
  net: number;
  /** The largest running sum inside one window. */
  peak: number;
}

export interface InefficientCount {
  device: string;
  type: string;
  count: number;
  bytes: number;
}

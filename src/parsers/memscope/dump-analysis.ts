// Analyses of one msMemScope dump, as pure functions over its DumpFacts: training steps, msMemScope's step-leak rule,
// memory unfreed at the end of tracing, owner buckets, per-op footprint (ours), inefficient-memory findings.
import { FRAMEWORK_POOLS, type DumpFacts } from './dump-facts.js';

/** One training step of one process. */
export interface StepRange {
  pid: string;
  step: number;
  startTs: number;
  endTs: number;
  /** False when no Range_end (or STEP row) closed it: it ends at the next step's start or the end of the dump. */
  closed: boolean;
}

/**
 * Steps per process (§3.2): mstx `Range_start` "step start" … its `Range_end` (range ids count every Range_start of
 * the pid), or SYSTEM/STEP rows (STEP n ends step n, starts n+1). Whichever kind comes first in a pid wins.
 */
export function findSteps(facts: DumpFacts): StepRange[] {
  const byPid = new Map<string, typeof facts.markers>();
  for (const m of facts.markers) {
    let list = byPid.get(m.pid);
    if (list === undefined) byPid.set(m.pid, (list = []));
    list.push(m);
  }
  const out: StepRange[] = [];
  const lastTs = facts.blocks.count === 0 ? 0 : Math.max(...maxOf(facts.blocks.mallocTs), ...maxOf(facts.blocks.freeTs.filter((t) => !Number.isNaN(t))), ...maxOf(facts.ops.endTs));
  for (const [pid, markers] of byPid) {
    markers.sort((a, b) => a.ts - b.ts || a.line - b.line);
    const first = markers.find((m) => m.isStep);
    if (first === undefined) continue;
    const steps: StepRange[] = [];
    if (first.kind === 'step') {
      let start = -Infinity;
      let step = 1;
      for (const m of markers) {
        if (m.kind !== 'step') continue;
        steps.push({ pid, step: m.value, startTs: start, endTs: m.ts, closed: true });
        start = m.ts;
        step = m.value + 1;
      }
      steps.push({ pid, step, startTs: start, endTs: Math.max(lastTs, start), closed: false });
    } else {
      let rangeId = 0;
      const stepOfRange = new Map<number, StepRange>();
      for (const m of markers) {
        if (m.kind === 'range-start') {
          rangeId++;
          if (!m.isStep) continue;
          const open = steps[steps.length - 1];
          if (open !== undefined && !open.closed && open.endTs === Infinity) open.endTs = m.ts;
          const s: StepRange = { pid, step: steps.length + 1, startTs: m.ts, endTs: Infinity, closed: false };
          steps.push(s);
          stepOfRange.set(rangeId, s);
        } else if (m.kind === 'range-end') {
          const s = stepOfRange.get(m.value);
          if (s !== undefined && !s.closed) {
            s.endTs = m.ts;
            s.closed = true;
          }
        }
      }
      for (const s of steps) if (s.endTs === Infinity) s.endTs = Math.max(lastTs, s.startTs);
    }
    out.push(...steps);
  }
  return out;
}

function maxOf(values: ArrayLike<number>): number[] {
  let m = -Infinity;
  for (let i = 0; i < values.length; i++) if ((values[i] as number) > m) m = values[i] as number;
  return [m];
}

/** Time-ordered allocation changes of some blocks: frees before mallocs at one timestamp. */
function events(facts: DumpFacts, take: (block: number) => boolean): { ts: Float64Array; delta: Float64Array } {
  const b = facts.blocks;
  const list: number[] = [];
  for (let i = 0; i < b.count; i++) {
    if (!take(i)) continue;
    list.push(i * 2);
    if (!Number.isNaN(b.freeTs[i] as number)) list.push(i * 2 + 1);
  }
  const tsOf = (e: number) => ((e & 1) === 0 ? (b.mallocTs[e >> 1] as number) : (b.freeTs[e >> 1] as number));
  list.sort((x, y) => tsOf(x) - tsOf(y) || (y & 1) - (x & 1) || x - y);
  const ts = new Float64Array(list.length);
  const delta = new Float64Array(list.length);
  list.forEach((e, k) => {
    ts[k] = tsOf(e);
    delta[k] = (e & 1) === 0 ? (b.size[e >> 1] as number) : -(b.size[e >> 1] as number);
  });
  return { ts, delta };
}

/** First index whose ts is > t (or ≥ t with `inclusive` false → first ≥ t). */
function upper(ts: Float64Array, t: number, strict: boolean): number {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (strict ? (ts[mid] as number) <= t : (ts[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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

/** Per step, device and framework pool (PTA, ATB, MindSpore): start, peak and end allocated bytes. */
export function stepTable(facts: DumpFacts, steps: StepRange[]): StepRow[] {
  const rows: StepRow[] = [];
  facts.groups.forEach((g, gi) => {
    if (!FRAMEWORK_POOLS.has(g.pool)) return;
    const mine = steps.filter((s) => s.pid === g.pid);
    if (mine.length === 0) return;
    const { ts, delta } = events(facts, (i) => facts.blocks.group[i] === gi);
    const level = new Float64Array(ts.length + 1);
    for (let k = 0; k < ts.length; k++) level[k + 1] = (level[k] as number) + (delta[k] as number);
    for (const s of mine) {
      const from = upper(ts, s.startTs, false);
      const to = upper(ts, s.endTs, true);
      const start = level[from] as number;
      let peak = start;
      for (let k = from + 1; k <= to; k++) if ((level[k] as number) > peak) peak = level[k] as number;
      rows.push({ device: g.device, pool: g.pool, pid: g.pid, step: s.step, start, peak, end: level[to] as number, closed: s.closed });
    }
  });
  return rows.sort((a, b) => cmp(a.device, b.device) || cmp(a.pool, b.pool) || cmp(a.pid, b.pid) || a.step - b.step);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
  blocks: LeakBlock[];
  /** Owners (or first call-stack line, or the pool) with the most leaked bytes, at most 3: `PTA@weight 4000256×2`. */
  top: string[];
}

/**
 * msMemScope's leak rule (§3.2, CheckNpuLeak with skipSteps 1, durationThreshold 1): a framework-pool block allocated
 * during step k ≥ 2 and still live at the end of the first step that started after it and was closed.
 */
export function stepLeaks(facts: DumpFacts, steps: StepRange[]): StepLeak[] {
  const b = facts.blocks;
  const byPid = new Map<string, StepRange[]>();
  for (const s of steps) {
    let list = byPid.get(s.pid);
    if (list === undefined) byPid.set(s.pid, (list = []));
    list.push(s);
  }
  for (const list of byPid.values()) list.sort((x, y) => x.startTs - y.startTs);
  const out = new Map<string, StepLeak>();
  for (let i = 0; i < b.count; i++) {
    const g = facts.groups[b.group[i] as number];
    if (g === undefined || !FRAMEWORK_POOLS.has(g.pool)) continue;
    const list = byPid.get(g.pid);
    if (list === undefined) continue;
    const born = b.mallocTs[i] as number;
    // The birth step: the last step started before the block (steps are sorted by start).
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid] as StepRange).startTs < born) lo = mid + 1;
      else hi = mid;
    }
    const k = lo - 1;
    if (k === -1 || (list[k] as StepRange).step < 2) continue;
    let check: StepRange | undefined;
    for (let s = k + 1; s < list.length && check === undefined; s++) {
      const candidate = list[s] as StepRange;
      if (candidate.closed && candidate.startTs > born) check = candidate;
    }
    if (check === undefined) continue;
    const freed = b.freeTs[i] as number;
    if (!Number.isNaN(freed) && freed <= check.endTs) continue;
    const key = `${g.device}|${g.pool}`;
    let leak = out.get(key);
    if (leak === undefined) out.set(key, (leak = { device: g.device, pool: g.pool, count: 0, bytes: 0, blocks: [], top: [] }));
    leak.count++;
    leak.bytes += b.size[i] as number;
    leak.blocks.push({ id: b.id[i] as number, bytes: b.size[i] as number, birthStep: (list[k] as StepRange).step, seenAtEndOf: check.step, owner: labelOf(facts, i, g.pool) });
  }
  for (const leak of out.values()) leak.top = topLabels(leak.blocks.map((x) => [x.owner, x.bytes]));
  return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.pool, y.pool));
}

function labelOf(facts: DumpFacts, block: number, pool: string): string {
  const owner = facts.blocks.owner[block] as number;
  if (owner !== 0) return facts.strings[owner] as string;
  const site = facts.blocks.callSite[block] as number;
  if (site !== 0) return facts.strings[site] as string;
  return pool;
}

function topLabels(items: [string, number][]): string[] {
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
    .map(([label, t]) => (Number.isNaN(t.size) ? `${label} ${t.bytes} B in ${t.count}` : `${label} ${t.size}×${t.count}`));
}

export interface UnfreedGroup {
  device: string;
  pool: string;
  /** Owner string, else the first call-stack line, else the pool. */
  label: string;
  blocks: number;
  bytes: number;
  /** Dump IDs of the blocks (at most 20). */
  ids: number[];
  /** Every block's size, descending (for telling new blocks from old ones against a baseline). */
  sizes: number[];
}

/** Blocks never freed while tracing (no FREE, or only a shadow FREE), by device, pool and owner (§3.4). */
export function unfreedAtEnd(facts: DumpFacts): UnfreedGroup[] {
  const b = facts.blocks;
  const out = new Map<string, UnfreedGroup>();
  for (let i = 0; i < b.count; i++) {
    if (!Number.isNaN(b.freeTs[i] as number)) continue;
    const g = facts.groups[b.group[i] as number];
    if (g === undefined) continue;
    const label = labelOf(facts, i, g.pool);
    const key = `${g.device}|${g.pool}|${label}`;
    let u = out.get(key);
    if (u === undefined) out.set(key, (u = { device: g.device, pool: g.pool, label, blocks: 0, bytes: 0, ids: [], sizes: [] }));
    u.blocks++;
    u.bytes += b.size[i] as number;
    if (u.ids.length < 20) u.ids.push(b.id[i] as number);
    u.sizes.push(b.size[i] as number);
  }
  for (const u of out.values()) {
    u.ids.sort((x, y) => x - y);
    u.sizes.sort((x, y) => y - x);
  }
  return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.pool, y.pool) || cmp(x.label, y.label));
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
    if (sizes.length > 0) out.push({ device: u.device, pool: u.pool, label: u.label, sizes, bytes: sizes.reduce((x, y) => x + y, 0) });
  }
  return out;
}

/** The owner buckets a reviewer reads (§3.6). */
export type OwnerBucket = 'weights' | 'gradients' | 'optimizer' | 'activations' | 'workspace' | 'hccl' | 'cann-other' | 'kv-cache' | 'unlabelled';

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

/** Peak live bytes per owner bucket and device; empty when the dump has no decompose labels. */
export function ownerPeaks(facts: DumpFacts): OwnerPeak[] {
  if (!facts.hasOwners) return [];
  const b = facts.blocks;
  const bucketOf = new Map<string, OwnerBucket>();
  const keyOf: string[] = [];
  for (let i = 0; i < b.count; i++) {
    const g = facts.groups[b.group[i] as number];
    if (g === undefined) continue;
    const owner = facts.strings[b.owner[i] as number] as string;
    const memo = `${owner}|${g.pool}`;
    let bucket = bucketOf.get(memo);
    if (bucket === undefined) bucketOf.set(memo, (bucket = ownerBucket(owner, g.pool)));
    keyOf[i] = `${g.device}|${bucket}`;
  }
  const out: OwnerPeak[] = [];
  for (const key of [...new Set(keyOf.filter((k) => k !== undefined))].sort()) {
    const { delta } = events(facts, (i) => keyOf[i] === key);
    let level = 0;
    let peak = 0;
    for (const d of delta) {
      level += d;
      if (level > peak) peak = level;
    }
    const [device, bucket] = key.split('|') as [string, OwnerBucket];
    out.push({ device, bucket, peak });
  }
  return out;
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

/** Per device and op name, the largest net and peak allocation inside one op window (our metric, not msMemScope's). */
export function opFootprint(facts: DumpFacts): OpFootprint[] {
  const ops = facts.ops;
  if (ops.count === 0) return [];
  const b = facts.blocks;
  const out = new Map<string, OpFootprint>();
  // The op windows of each (device, process), by index.
  const byPair = new Map<number, number[]>();
  for (let o = 0; o < ops.count; o++) {
    const pair = (ops.device[o] as number) * 0x100000 + (ops.pid[o] as number);
    let list = byPair.get(pair);
    if (list === undefined) byPair.set(pair, (list = []));
    list.push(o);
  }
  for (const list of byPair.values()) {
    const first = list[0] as number;
    const device = facts.devices[ops.device[first] as number] as string;
    const pid = facts.pids[ops.pid[first] as number] as string;
    const { ts, delta } = events(facts, (i) => {
      const g = facts.groups[b.group[i] as number];
      return g !== undefined && g.device === device && g.pid === pid && FRAMEWORK_POOLS.has(g.pool);
    });
    const level = new Float64Array(ts.length + 1);
    for (let k = 0; k < ts.length; k++) level[k + 1] = (level[k] as number) + (delta[k] as number);
    for (const o of list) {
      const from = upper(ts, ops.startTs[o] as number, false);
      const to = upper(ts, ops.endTs[o] as number, true);
      const base = level[from] as number;
      let peak = 0;
      for (let k = from + 1; k <= to; k++) if ((level[k] as number) - base > peak) peak = (level[k] as number) - base;
      const net = (level[to] as number) - base;
      const nameId = ops.name[o] as number;
      const key = `${device}|${nameId}`;
      const f = out.get(key);
      if (f === undefined) out.set(key, { device, name: facts.strings[nameId] as string, launches: 1, net, peak });
      else {
        f.launches++;
        if (net > f.net) f.net = net;
        if (peak > f.peak) f.peak = peak;
      }
    }
  }
  return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.name, y.name));
}

export interface InefficientCount {
  device: string;
  type: string;
  count: number;
  bytes: number;
}

/** Blocks msMemScope marked `inefficient_type` (early_allocation, late_deallocation, temporary_idleness), per device and type. */
export function inefficientMemory(facts: DumpFacts): InefficientCount[] {
  if (!facts.hasInefficient) return [];
  const b = facts.blocks;
  const out = new Map<string, InefficientCount>();
  for (let i = 0; i < b.count; i++) {
    const text = facts.strings[b.inefficient[i] as number] as string;
    if (text === '') continue;
    const g = facts.groups[b.group[i] as number];
    if (g === undefined) continue;
    for (const type of new Set(text.split(',').map((t) => t.trim()).filter((t) => t !== ''))) {
      const key = `${g.device}|${type}`;
      let c = out.get(key);
      if (c === undefined) out.set(key, (c = { device: g.device, type, count: 0, bytes: 0 }));
      c.count++;
      c.bytes += b.size[i] as number;
    }
  }
  return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.type, y.type));
}

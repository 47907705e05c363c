// One dump's analyses as snapshot figures: section keys and metrics, per-step samples, and the step-leak findings.
import { inefficient } from '../../model/sections/inefficient.js';
import { opFootprint } from '../../model/sections/op-footprint.js';
import { owners } from '../../model/sections/owners.js';
import { steps } from '../../model/sections/steps.js';
import { unfreed } from '../../model/sections/unfreed.js';
import { valueOf, type Fields, type MetricFields, type Section } from '../../model/sections/index.js';
import { visibleName } from '../escaped-utf8.js';
import type { StepLeak } from './dump-analysis.js';
import type { DumpFacts } from './dump-facts.js';

/** key → metric of one section, typed by its declaration. */
type Keyed<S extends Section> = Map<string, MetricFields<S['fields']>>;

/** The sections a dump fills, each key → metric. */
interface DumpMetrics {
  steps: Keyed<typeof steps>;
  unfreed: Keyed<typeof unfreed>;
  owners: Keyed<typeof owners>;
  opFootprint: Keyed<typeof opFootprint>;
  inefficient: Keyed<typeof inefficient>;
}

export interface DumpFigures {
  metrics: DumpMetrics;
  /** Per-step samples for the `growing` verdict: section `steps`, key `devN/<POOL>/peak|end`, x = step. */
  samples: { section: string; key: string; step: number; bytes: number }[];
  stepLeaks: StepLeak[];
  /** Steps that no Range_end closed (they end at the next step's start or the end of the dump). */
  openSteps: number;
}

/** Everything a dump contributes to a snapshot. */
export function dumpFigures(facts: DumpFacts): DumpFigures {
  const metrics: DumpMetrics = {
    steps: new Map(),
    unfreed: new Map(),
    owners: new Map(),
    opFootprint: new Map(),
    inefficient: new Map(),
  };
  const samples: DumpFigures['samples'] = [];
  // Names from the file (owners, call sites, op names) keep bytes that are not UTF-8 apart: `\xHH` in keys.
  const v = visibleName;
  for (const r of facts.stepRows) {
    put(steps, metrics.steps, `${v(r.device)}/${v(r.pool)}/step${r.step}/peak`, { bytes: r.peak, step: r.step });
    put(steps, metrics.steps, `${v(r.device)}/${v(r.pool)}/step${r.step}/end`, { bytes: r.end, step: r.step });
    samples.push({ section: 'steps', key: `${v(r.device)}/${v(r.pool)}/peak`, step: r.step, bytes: r.peak });
    samples.push({ section: 'steps', key: `${v(r.device)}/${v(r.pool)}/end`, step: r.step, bytes: r.end });
  }
  for (const u of facts.unfreed) {
    put(unfreed, metrics.unfreed, `${v(u.device)}/${v(u.pool)}/${v(u.label)}`, {
      bytes: u.bytes,
      blocks: u.blocks,
      largest: u.sizes[0] ?? 0,
      ids: u.ids.slice(0, 10).join(' '),
      sizes: sizeCounts(u.sizes),
    });
  }
  for (const o of facts.owners) put(owners, metrics.owners, `${v(o.device)}/${o.bucket}`, { peak: o.peak });
  for (const f of facts.ops) {
    const metric = { net: f.net, peak: f.peak, launches: f.launches };
    put(opFootprint, metrics.opFootprint, `${v(f.device)}/${v(f.name)}`, metric);
  }
  for (const c of facts.inefficient)
    put(inefficient, metrics.inefficient, `${v(c.device)}/${v(c.type)}`, { bytes: c.bytes, count: c.count });
  const stepLeaks = facts.stepLeaks.map((l) => ({ ...l, device: v(l.device), pool: v(l.pool), top: l.top.map(v) }));
  return { metrics, samples, stepLeaks, openSteps: facts.steps.filter((s) => !s.closed).length };
}

/** Several processes on one device and pool: the larger compared figure wins whole (as sections combine), the first on a tie. */
function put<F extends Fields>(
  section: Section<F>,
  into: Map<string, MetricFields<F>>,
  key: string,
  metric: MetricFields<F>,
): void {
  const prev = into.get(key);
  if (prev === undefined || valueOf(section, metric) > valueOf(section, prev)) into.set(key, metric);
}

/** The 20 largest distinct block sizes with their counts, descending: `4000256x2 1536 512x3`. */
function sizeCounts(sizes: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const s of sizes) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[0] - a[0])
    .slice(0, 20)
    .map(([size, n]) => (n === 1 ? `${size}` : `${size}x${n}`))
    .join(' ');
}

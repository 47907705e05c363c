// A snapshot with the keys of some sections rewritten (paths made relative, logical devices mapped): keys that become one combine.
import {
  combineMetrics,
  section,
  type Fields,
  type Metric,
  type MetricFields,
  type Section,
} from './sections/index.js';
import { SnapshotBuilder, type BuilderState, type Snapshot } from './snapshot.js';

/** For one key and its metric: the new key and metric, or the same ones. */
export type KeyRewrite<M extends Metric = Metric> = (key: string, metric: M) => { key: string; metric: M };

/**
 * A rewrite of one declared section, its metrics typed by the declaration: rewriteKeys hands it only that section's
 * metrics, which the baseline schema or the builder's add() held to those fields.
 */
export function sectionRewrite<F extends Fields>(
  declaration: Section<F>,
  rewrite: KeyRewrite<MetricFields<F>>,
): [string, KeyRewrite] {
  // The one place the section's metrics are taken as typed: rewriteKeys passes this rewrite its own section's only.
  return [declaration.name, rewrite as unknown as KeyRewrite];
}

/**
 * The snapshot with each named section's keys and metrics rewritten, and the section's timelines moved with their
 * keys. Two keys that become one combine as two metrics of one key always do (the larger compared value wins, whole),
 * and two timelines merge: the result is the same whatever order the keys came in. Other sections are taken as they are.
 */
export function rewriteKeys(snapshot: Snapshot, rewrites: Readonly<Record<string, KeyRewrite>>): Snapshot {
  const names = Object.keys(rewrites).filter(
    (name) => Object.hasOwn(snapshot.sections, name) || Object.hasOwn(snapshot.series, name),
  );
  if (names.length === 0) return snapshot;
  const kept: Snapshot = { ...snapshot, sections: { ...snapshot.sections }, series: { ...snapshot.series } };
  for (const name of names) {
    delete kept.sections[name];
    delete kept.series[name];
  }
  const builder = new SnapshotBuilder();
  builder.addSnapshot(kept);
  for (const name of names) {
    const rewrite = rewrites[name] as KeyRewrite;
    const declaration = section(name);
    const moved = new Map<string, string>();
    const metrics = snapshot.sections[name] ?? {};
    const rewritten = new Map<string, Metric>();
    for (const key of Object.keys(metrics)) {
      const out = rewrite(key, metrics[key] as Metric);
      moved.set(key, out.key);
      const prev = rewritten.get(out.key);
      rewritten.set(out.key, prev === undefined ? out.metric : combineMetrics(declaration, prev, out.metric));
    }
    builder.merge(sectionState(name, rewritten));
    for (const [key, series] of Object.entries(snapshot.series[name] ?? {}))
      builder.addSeries(name, moved.get(key) ?? key, series);
  }
  return builder.build();
}

/** One section's metrics as builder state, for merge(): the section is named at run time, so no typed add() can write it. */
function sectionState(name: string, metrics: ReadonlyMap<string, Metric>): BuilderState {
  return {
    sections: new Map([[name, metrics]]),
    series: new Map(),
    allocFailures: new Map(),
    allocFailureSites: new Map(),
    nodes: new Map(),
    skippedRecords: [],
    notes: [],
    files: 0,
    records: 0,
    skipped: 0,
  };
}

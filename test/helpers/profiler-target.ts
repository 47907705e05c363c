// A ProfilerTarget that records what a profiler parser hands over, combining like the snapshot: larger compared value wins, series merge.
import type { ProfilerTarget } from '../../src/parsers/profiler/index.js';
import {
  section,
  valueOf,
  type Fields,
  type Metric,
  type MetricToWrite,
  type Section,
} from '../../src/model/sections/index.js';
import { mergeSeries, type Series } from '../../src/model/series.js';
import type { SkippedRecord } from '../../src/model/snapshot.js';

export class CollectingTarget implements ProfilerTarget {
  readonly metrics: Record<string, Record<string, Metric>> = {};
  readonly series: Record<string, Record<string, Series>> = {};
  readonly skipped: SkippedRecord[] = [];
  readonly devices = new Set<string>();
  files = 0;
  records = 0;

  add<F extends Fields>(declaration: Section<F>, key: string, metric: MetricToWrite<F>): void {
    const into = (this.metrics[declaration.name] ??= {});
    const prev = into[key];
    if (prev === undefined || valueOf(declaration, metric) > valueOf(declaration, prev)) into[key] = metric;
  }

  addSeries(name: string, key: string, series: Series): void {
    const into = (this.series[name] ??= {});
    const prev = into[key];
    into[key] = prev === undefined ? series : mergeSeries(prev, series);
  }

  noteDevice(device: string): void {
    this.devices.add(device);
  }

  addSkipped(record: SkippedRecord): void {
    this.skipped.push(record);
  }

  /** One section's compared values by key, sorted: what most tests assert. */
  values(name: string): Record<string, number> {
    const declaration = section(name);
    const m = this.metrics[name] ?? {};
    return Object.fromEntries(
      Object.keys(m)
        .sort()
        .map((k) => [k, valueOf(declaration, m[k] as Metric)]),
    );
  }
}

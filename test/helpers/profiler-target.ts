// A ProfilerTarget that records what a profiler parser hands over, combining like the snapshot: larger compared value wins, series merge.
import type { ProfilerTarget } from '../../src/parsers/profiler/index.js';
import type { Metric } from '../../src/model/sections/types.js';
import { mergeSeries, type Series } from '../../src/model/series.js';
import type { SkippedRecord } from '../../src/model/snapshot.js';

/** The compared field of each section these files fill. */
const VALUE: Record<string, string> = { components: 'peak', modules: 'peak', operators: 'largest', graphs: 'size' };

export class CollectingTarget implements ProfilerTarget {
  readonly metrics: Record<string, Record<string, Metric>> = {};
  readonly series: Record<string, Record<string, Series>> = {};
  readonly skipped: SkippedRecord[] = [];
  readonly devices = new Set<string>();
  files = 0;
  records = 0;

  addMetric(section: string, key: string, metric: Metric): void {
    const into = (this.metrics[section] ??= {});
    const prev = into[key];
    const field = VALUE[section] as string;
    if (prev === undefined || (metric[field] as number) > (prev[field] as number)) into[key] = metric;
  }

  addSeries(section: string, key: string, series: Series): void {
    const into = (this.series[section] ??= {});
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
  values(section: string): Record<string, number> {
    const field = VALUE[section] as string;
    const m = this.metrics[section] ?? {};
    return Object.fromEntries(
      Object.keys(m)
        .sort()
        .map((k) => [k, (m[k] as Metric)[field] as number]),
    );
  }
}

// The leak-suspect finding on modules: outstanding allocations at exit (alloc_cnt − free_cnt) that grew from the baseline.
import { metricsOf } from '../../model/snapshot.js';
import { compareKeys } from '../../model/key-order.js';
import type { EntryOf } from '../basics.js';
import { exceedsTolerance } from '../tolerance.js';
import { defineFinding, type FindingContext } from './declaration.js';
import { compared, indexModules, isIgnored, type IndexedModule } from './devices.js';
import { modules, type ModuleMetric } from '../../model/sections/index.js';

/** How much the outstanding allocation count (alloc_cnt − free_cnt) may grow: every set field must be exceeded. */
export interface CountTolerance {
  count?: number;
  /** Relative to the baseline's outstanding count. */
  percent?: number;
}

/** The config's `leaks`. */
interface LeakOptions {
  leaks: CountTolerance;
}

export const leakSuspect = defineFinding({
  name: 'leak-suspect',
  statuses: [{ status: 'leak-suspect', policy: 'warn', description: 'Default warn.' }],
  config: {
    leaks: {
      schema: {
        type: 'object',
        additionalProperties: false,
        description:
          'leak-suspect (warn) when a module\'s outstanding allocations at exit (alloc_cnt - free_cnt) grow from the baseline by more than EVERY field set: `count` and `percent` of the baseline\'s outstanding count (with 0 outstanding, any growth exceeds the percent). Keys whose records carry no counts are skipped. Replaces the default {"count": 0, "percent": 10} as a whole.',
        properties: {
          count: { title: 'a non-negative integer', type: 'integer', minimum: 0 },
          percent: { title: 'a non-negative number of percent', type: 'number', minimum: 0 },
        },
      },
      defaults: { count: 0, percent: 10 } as CountTolerance,
      // Like every tolerance, it replaces the default as a whole.
      parse: (input, defaults: CountTolerance) => (input === undefined ? defaults : { ...(input as CountTolerance) }),
    },
  },
  writtenFor: ['modules'],
  rejudge: { kept: "the modules' allocation and free counts", withVerdict: ['modules'] },
  assess: assessLeaks,
});

/** Outstanding allocations at exit (alloc_cnt − free_cnt), or null when the record has no counts (v0, v3, CACHED). */
function outstandingAllocations(metric: ModuleMetric): number | null {
  return metric.allocs === null || metric.frees === null ? null : metric.allocs - metric.frees;
}

function assessLeaks({
  baseline,
  current,
  config,
}: FindingContext<'leak-suspect', LeakOptions>): EntryOf<'leak-suspect'>[] {
  const policy = config.verdicts['leak-suspect'];
  if (policy === 'ignore') return [];
  const { count, percent } = config.leaks;
  const entries: EntryOf<'leak-suspect'>[] = [];
  const index = indexModules(metricsOf(current, modules));
  const baselineModules = metricsOf(baseline, modules);
  for (let i = 0; i < index.length; i++) {
    const { key, metric } = index[i] as IndexedModule;
    const old = Object.hasOwn(baselineModules, key) ? baselineModules[key] : undefined;
    if (old === undefined || isIgnored(key, config)) continue;
    const before = outstandingAllocations(old);
    const after = outstandingAllocations(metric);
    if (before === null || after === null) continue;
    const growth = after - before;
    if (!exceedsTolerance(growth, before, { bytes: count, percent })) continue;
    // Growth must exceed every set field, so the tolerated growth is the largest of them; floor keeps "> limit" exact.
    const allowed = Math.max(count ?? 0, percent !== undefined ? Math.floor((Math.abs(before) * percent) / 100) : 0);
    const share = percent !== undefined ? `${percent}% of ${before}` : null;
    const tolerance =
      count !== undefined && share !== null
        ? `the larger of ${count} and ${share}`
        : (share ?? (count !== undefined ? `${count}` : 'none'));
    entries.push({
      ...compared('module', key, before, after),
      status: 'leak-suspect',
      severity: policy,
      rule: null,
      unit: 'count',
      limit: before + allowed,
      note:
        `outstanding allocations at exit (alloc_cnt - free_cnt) grew from ${before} to ${after} (+${growth}), ` +
        `more than the ${before + allowed} tolerated (growth allowed: ${tolerance}): a leak or a growing pool`,
    });
  }
  return entries.sort((x, y) => compareKeys(x.key, y.key));
}

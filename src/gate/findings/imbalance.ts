// The imbalance finding: a device's module peak far from the median of the same module on the other devices.
import { median } from '../../model/roll-up.js';
import { modules, type ModuleMetric } from '../../model/sections/index.js';
import { metricsOf } from '../../model/snapshot.js';
import { compareKeys } from '../../model/key-order.js';
import { formatBytes } from '../../model/units.js';
import type { EntryOf, GateInput, Rule, Tolerance } from '../basics.js';
import { exceedsTolerance, matchRule, toTolerance, type ToleranceInput } from '../tolerance.js';
import { defineFinding, type FindingContext } from './declaration.js';
import { compared, indexModules, isIgnored, type IndexedModule } from './devices.js';

/** The config's `imbalance`: how far a device may stray from the median, over how many devices at least. */
export interface ImbalanceOptions {
  imbalance: { tolerance: Tolerance; minDevices: number };
}

const NO_RULES: readonly Rule[] = [];

type Config = FindingContext<'imbalance', ImbalanceOptions>['config'];

export const imbalance = defineFinding({
  name: 'imbalance',
  statuses: [{ status: 'imbalance', policy: 'warn', description: 'Default warn.' }],
  config: {
    imbalance: {
      schema: {
        type: 'object',
        additionalProperties: false,
        description:
          "imbalance (warn) when a device's peak of a module deviates (either way) from the median of the same attribute and module over at least minDevices devices by more than the tolerance: a pipeline stage or a single leaking rank.",
        properties: {
          tolerance: {
            $ref: '#/definitions/tolerance',
            description:
              'Default {"percent": 20, "bytes": "1MiB"}: the deviation must exceed both; replaces the default as a whole.',
          },
          minDevices: {
            title: 'an integer of at least 2',
            type: 'integer',
            minimum: 2,
            description: 'Default 3: with two devices the median cannot tell which one is off.',
          },
        },
      },
      defaults: { tolerance: { percent: 20, bytes: 1024 ** 2 }, minDevices: 3 } as ImbalanceOptions['imbalance'],
      parse: (raw, defaults: ImbalanceOptions['imbalance'], file, pointer) => {
        const input = raw as { tolerance?: ToleranceInput; minDevices?: number } | undefined;
        return {
          // Like every tolerance, it replaces the default as a whole.
          tolerance:
            input?.tolerance === undefined
              ? defaults.tolerance
              : toTolerance(input.tolerance, file, `${pointer}/tolerance`),
          minDevices: input?.minDevices ?? defaults.minDevices,
        };
      },
    },
  },
  writtenFor: ['modules'],
  rejudge: { derivedFrom: ['modules'] },
  assess: assessImbalance,
});

/** Peaks of every device-bearing module key by group (`DEV_MEM/{*}/APP`), skipping keys ignored by a rule. */
function imbalanceGroups(
  modules: Record<string, ModuleMetric>,
  config: Config,
): Map<string, { key: string; peak: number }[]> {
  const groups = new Map<string, { key: string; peak: number }[]>();
  // By attribute, then module: no `${attribute}/*/${module}` string per key, only per group.
  const byAttribute = new Map<string, Map<string, { key: string; peak: number }[]>>();
  const index = indexModules(modules);
  for (let i = 0; i < index.length; i++) {
    const { key, metric, parts } = index[i] as IndexedModule;
    if (parts === null || parts.device === null || isIgnored(key, config)) continue;
    let byModule = byAttribute.get(parts.attribute);
    if (byModule === undefined) byAttribute.set(parts.attribute, (byModule = new Map()));
    let members = byModule.get(parts.module);
    if (members === undefined) {
      byModule.set(parts.module, (members = []));
      groups.set(`${parts.attribute}/*/${parts.module}`, members);
    }
    members.push({ key, peak: metric.peak });
  }
  return groups;
}

/** How far a peak may stray from its group's median: the larger of the set fields. */
function allowedDeviation(middle: number, tolerance: Tolerance): number {
  return Math.max(tolerance.bytes ?? 0, tolerance.percent !== undefined ? (middle * tolerance.percent) / 100 : 0);
}

/**
 * Keys off their group's median in the baseline run too (its own imbalance): an imbalance that is no news. Keys of
 * groups with fewer than minDevices devices in the baseline count as balanced (nothing to compare with then).
 */
function imbalancedInBaseline(baseline: GateInput, config: Config): Set<string> {
  const { tolerance, minDevices } = config.imbalance;
  const out = new Set<string>();
  for (const members of imbalanceGroups(metricsOf(baseline, modules), config).values()) {
    if (members.length < minDevices) continue;
    const middle = median(members.map((m) => m.peak));
    for (const { key, peak } of members) if (exceedsTolerance(Math.abs(peak - middle), middle, tolerance)) out.add(key);
  }
  return out;
}

function assessImbalance({
  baseline,
  current,
  config,
}: FindingContext<'imbalance', ImbalanceOptions>): EntryOf<'imbalance'>[] {
  const policy = config.verdicts.imbalance;
  if (policy === 'ignore') return [];
  const groups = imbalanceGroups(metricsOf(current, modules), config);
  const baselineModules = metricsOf(baseline, modules);
  const known = imbalancedInBaseline(baseline, config);
  const { tolerance, minDevices } = config.imbalance;
  const entries: EntryOf<'imbalance'>[] = [];
  for (const [group, members] of groups) {
    if (members.length < minDevices) continue;
    const middle = median(members.map((m) => m.peak));
    const allowed = allowedDeviation(middle, tolerance);
    const toleranceText = [
      tolerance.percent !== undefined ? `${tolerance.percent}%` : null,
      tolerance.bytes !== undefined ? formatBytes(tolerance.bytes) : null,
    ]
      .filter((part) => part !== null)
      .join(' and ');
    for (const { key, peak } of members) {
      const deviation = peak - middle;
      if (!exceedsTolerance(Math.abs(deviation), middle, tolerance)) continue;
      const above = deviation > 0;
      const share = middle === 0 ? '' : `${((Math.abs(deviation) / middle) * 100).toFixed(1)}% `;
      const old = Object.hasOwn(baselineModules, key) ? baselineModules[key] : undefined;
      // News: a new key, a key that moved beyond its own tolerance, or one that was balanced in the baseline.
      // An imbalance the baseline already had stays in the report (severity ok) but is not repeated as a warning.
      const keyTolerance =
        matchRule(config.sections.modules?.rules ?? NO_RULES, key)?.tolerance ??
        config.sections.modules?.tolerance ??
        modules.tolerance;
      const news =
        old === undefined || exceedsTolerance(Math.abs(peak - old.peak), old.peak, keyTolerance) || !known.has(key);
      entries.push({
        ...compared('module', key, old?.peak ?? null, peak),
        status: 'imbalance',
        severity: news ? policy : 'ok',
        rule: null,
        unit: 'bytes',
        // The bound crossed, as an integer: floor/ceil keep "current > limit" / "current < limit" exact.
        limit: above ? Math.floor(middle + allowed) : Math.ceil(middle - allowed),
        note:
          `${share}${above ? 'above' : 'below'} the median ${formatBytes(middle)} of ${group} on ${members.length} devices ` +
          `(tolerated: ${toleranceText === '' ? 'nothing' : toleranceText}): a pipeline stage, or one rank leaking` +
          (news ? '' : '; already so in the baseline, so not repeated as a warning'),
      });
    }
  }
  return entries.sort((x, y) => compareKeys(x.key, y.key));
}

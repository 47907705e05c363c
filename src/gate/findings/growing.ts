// The growing finding: memory that keeps rising over a run or from step to step, from one run's timelines (growth.ts).
import { SECTIONS } from '../../model/sections/index.js';
import type { Series } from '../../model/series.js';
import { compareKeys } from '../../model/key-order.js';
import type { EntryOf } from '../basics.js';
import { matchRule, toBytes, toTolerance, type SizeInput, type ToleranceInput } from '../tolerance.js';
import { defineFinding, type FindingContext } from './declaration.js';
import { assessGrowth, DEFAULT_GROWTH, type GrowthConfig } from './growth.js';

/** The config's `growth`. */
interface GrowthOptions {
  growth: GrowthConfig;
}

export const growing = defineFinding({
  name: 'growing',
  statuses: [
    {
      status: 'growing',
      policy: 'warn',
      description: 'Memory that keeps rising over a run or from step to step. Default warn; "fail" to stop such a run.',
    },
  ],
  config: {
    growth: {
      schema: {
        type: 'object',
        additionalProperties: false,
        description:
          'growing (warn) when a timeline keeps rising: after the warm-up, the Theil-Sen slope of its window peaks projects a rise across the rest of the run above the tolerance, the last half of the windows still rises and the troughs rise too (a saw-tooth within a band, or a rise that then stays flat, is not growth). Step series (one point per training step): at least perStep more per step after warmupSteps. Needs no baseline.',
        properties: {
          warmupPercent: {
            title: 'a percent from 0 to 90',
            type: 'number',
            minimum: 0,
            maximum: 90,
            description: "Default 20: the first 20% of a timeline's run is warm-up and not assessed.",
          },
          tolerance: {
            $ref: '#/definitions/tolerance',
            description:
              'Default {"percent": 5, "bytes": "64MiB"}: the projected rise must exceed both; percent is of the series\' peak. Replaces the default as a whole.',
          },
          warmupSteps: {
            title: 'a non-negative integer',
            type: 'integer',
            minimum: 0,
            description: 'Default 1: step series skip their first step (weights, optimizer state, caches).',
          },
          perStep: {
            $ref: '#/definitions/size',
            description: 'Default "1MiB": the smallest steady rise per step that counts as growing.',
          },
          minWindows: {
            title: 'an integer of at least 2',
            type: 'integer',
            minimum: 2,
            description: 'Default 4: fewer window peaks (or steps) after warm-up give no verdict.',
          },
        },
      },
      defaults: DEFAULT_GROWTH as GrowthConfig,
      parse: (raw, defaults: GrowthConfig, file, pointer) => {
        const input = raw as
          | {
              warmupPercent?: number;
              tolerance?: ToleranceInput;
              warmupSteps?: number;
              perStep?: SizeInput;
              minWindows?: number;
            }
          | undefined;
        return {
          warmupPercent: input?.warmupPercent ?? defaults.warmupPercent,
          tolerance:
            input?.tolerance === undefined
              ? defaults.tolerance
              : toTolerance(input.tolerance, file, `${pointer}/tolerance`),
          warmupSteps: input?.warmupSteps ?? defaults.warmupSteps,
          perStep: input?.perStep === undefined ? defaults.perStep : toBytes(input.perStep, file, `${pointer}/perStep`),
          minWindows: input?.minWindows ?? defaults.minWindows,
        };
      },
    },
  },
  // The sections whose parsers write time or step series (the allocator's trace is an order of events: nothing to project).
  writtenFor: ['modules', 'components', 'steps'],
  // Steps' timelines have keys of their own (dev0/PTA/end), not a step key's.
  rejudge: { kept: "the run's timelines", withVerdict: ['modules', 'components'] },
  assess: assessGrowing,
});

/**
 * The `growing` finding over every series of this run (no baseline needed), in report order: section by section,
 * keys sorted. A key that its section's rules ignore is not assessed; `verdicts.growing: ignore` assesses nothing.
 */
function assessGrowing({ current, config }: FindingContext<'growing', GrowthOptions>): EntryOf<'growing'>[] {
  const policy = config.verdicts.growing;
  if (policy === 'ignore') return [];
  const entries: EntryOf<'growing'>[] = [];
  for (const declaration of SECTIONS) {
    if (!growing.writtenFor.includes(declaration.name)) continue;
    const byKey = current.series?.[declaration.name];
    if (byKey === undefined) continue;
    const rules = config.sections[declaration.name]?.rules ?? [];
    for (const key of Object.keys(byKey).sort(compareKeys)) {
      if (matchRule(rules, key)?.ignore === true) continue;
      const series = byKey[key] as Series;
      // An allocator trace is an order of events within part of a run, not a clock or steps: nothing to project.
      if (series.axis === 'trace') continue;
      const growth = assessGrowth(series, config.growth);
      if (growth === null || !growth.growing) continue;
      entries.push({
        kind: declaration.kind,
        key,
        baseline: null,
        current: growth.rise,
        delta: null,
        percent: null,
        status: 'growing',
        severity: policy,
        rule: null,
        unit: 'bytes',
        limit: growth.limit,
        note: growth.note,
      });
    }
  }
  return entries;
}

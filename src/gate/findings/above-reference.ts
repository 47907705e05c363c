// The above-reference finding: a CANN component with no baseline yet that peaks above the CANN guide's reference cost.
import { metricsOf } from '../../model/snapshot.js';
import { compareKeys } from '../../model/key-order.js';
import { formatBytes } from '../../model/units.js';
import type { EntryOf } from '../basics.js';
import { toBytes, type SizeInput } from '../tolerance.js';
import { defineFinding, type FindingContext } from './declaration.js';
import { compared, indexModules, isIgnored, plural, type IndexedModule } from './devices.js';
import { modules } from '../../model/sections/index.js';

const MiB = 1024 ** 2;

/** Which reference costs of the CANN docs apply to GE and RUNTIME. */
export type Profile = 'training' | 'inference';

/** What HCCL should cost (CANN docs): links × 4 MiB (single-op) or links × ops × 0.3 MiB (graph), + domains × 2 × buffSize. */
export interface HcclReference {
  links: number;
  mode: 'single-op' | 'graph';
  /** Operators in the graph; used in graph mode only. */
  ops: number;
  /** Communication domains, each with a send and a receive buffer. */
  domains: number;
  /** HCCL_BUFFSIZE in bytes (the variable is in MB, which HCCL reads as MiB: default 200 MiB). */
  buffSize: number;
}

/** The config's `profile`, `hccl` and `reference`. */
export interface ReferenceOptions {
  /** null: GE and RUNTIME are held against the larger of the two profiles' references. */
  profile: Profile | null;
  /** null: HCCL has no reference cost (it depends on the cluster). */
  hccl: HcclReference | null;
  /** above-reference when a new key's peak > reference × factor (the docs' numbers are "about"). */
  reference: { factor: number };
}

interface HcclInput {
  links: number;
  mode?: HcclReference['mode'];
  ops?: number;
  domains?: number;
  buffSize?: SizeInput;
}

/** HCCL defaults from the CANN docs: single-op mode, one communication domain, HCCL_BUFFSIZE 200 (MiB). */
const HCCL_DEFAULTS = Object.freeze({ mode: 'single-op', ops: 0, domains: 1, buffSize: 200 * MiB } as const);

export const aboveReference = defineFinding({
  name: 'above-reference',
  statuses: [{ status: 'above-reference', policy: 'warn', description: 'Default warn.' }],
  config: {
    profile: {
      schema: {
        enum: ['training', 'inference'],
        description:
          'Which reference costs of the CANN troubleshooting guide hold DEV_MEM GE and RUNTIME keys that have no baseline yet: training (PyTorch) GE 3 MiB, RUNTIME 26 MiB; inference (offline model) GE 86 MiB, RUNTIME 18 MiB. The guide\'s "M" is MiB. Unset: the larger of the two (GE 86 MiB, RUNTIME 26 MiB).',
      },
      defaults: null as Profile | null,
      parse: (input, defaults: Profile | null) => (input === undefined ? defaults : (input as Profile)),
    },
    hccl: {
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['links'],
        description:
          'The HCCL reference cost for DEV_MEM HCCL keys with no baseline yet (CANN guide): links x 4 MiB (single-op) or links x ops x 0.3 MiB (graph), plus domains x 2 x buffSize. Unset: HCCL has no reference.',
        properties: {
          links: {
            title: 'a non-negative integer',
            type: 'integer',
            minimum: 0,
            description: 'Communication links of one rank.',
          },
          mode: { enum: ['single-op', 'graph'], description: 'single-op (default) or graph.' },
          ops: {
            title: 'a non-negative integer',
            type: 'integer',
            minimum: 0,
            description: 'Operators in the graph; required in graph mode.',
          },
          domains: {
            title: 'a non-negative integer',
            type: 'integer',
            minimum: 0,
            description: 'Communication domains (default 1), each with a send and a receive buffer of buffSize.',
          },
          buffSize: {
            $ref: '#/definitions/size',
            description:
              'HCCL_BUFFSIZE as a size (the variable is in MB, read as MiB): default "200MiB". A plain integer is bytes: write "200MiB", not 200.',
          },
        },
        if: { properties: { mode: { const: 'graph' } }, required: ['mode'] },
        then: { properties: { ops: true }, required: ['ops'] },
      },
      defaults: null as HcclReference | null,
      parse: (input, defaults: HcclReference | null, file, pointer) =>
        input === undefined ? defaults : toHccl(input as HcclInput, file, pointer),
    },
    reference: {
      schema: {
        type: 'object',
        additionalProperties: false,
        description:
          'above-reference (warn) when a key with no baseline peaks above factor x its reference cost: the guide\'s numbers are "about".',
        properties: {
          factor: { title: 'a positive number', type: 'number', exclusiveMinimum: 0, description: 'Default 2.' },
        },
      },
      defaults: { factor: 2 } as { factor: number },
      parse: (input, defaults: { factor: number }) => ({
        factor: (input as { factor?: number } | undefined)?.factor ?? defaults.factor,
      }),
    },
  },
  writtenFor: ['modules'],
  rejudge: { derivedFrom: ['modules'] },
  assess: assessReferences,
});

/**
 * Reference peaks of CANN components from the CANN troubleshooting guide ("查看CANN各组件内存统计信息"), PyTorch.
 * The guide writes "M"; the driver counts bytes and CANN's sizes (HCCL_BUFFSIZE) are MiB, so M = MiB.
 */
const REFERENCE_COSTS: Readonly<Record<Profile, Readonly<Record<'GE' | 'RUNTIME', number>>>> = {
  training: { GE: 3 * MiB, RUNTIME: 26 * MiB },
  inference: { GE: 86 * MiB, RUNTIME: 18 * MiB },
};

/** HCCL link costs from the same guide: 4 MiB per link in single-op mode, 0.3 MiB per link and operator in graph mode. */
const HCCL_LINK_COST = { singleOp: 4 * MiB, graphPerOp: 0.3 * MiB } as const;

/** A component's expected peak and how it was worked out, or null when the guide gives none (or HCCL is not configured). */
export interface ReferenceCost {
  bytes: number;
  basis: string;
}

export function referenceCost(
  module: string,
  profile: Profile | null,
  hccl: HcclReference | null,
): ReferenceCost | null {
  if (module === 'GE' || module === 'RUNTIME') {
    if (profile !== null)
      return { bytes: REFERENCE_COSTS[profile][module], basis: `the ${profile} reference for ${module}` };
    const training = REFERENCE_COSTS.training[module];
    const inference = REFERENCE_COSTS.inference[module];
    return {
      bytes: Math.max(training, inference),
      basis: `the larger of the training (${formatBytes(training)}) and inference (${formatBytes(inference)}) references for ${module}; set "profile"`,
    };
  }
  if (module === 'HCCL' && hccl !== null) {
    const links =
      hccl.mode === 'graph'
        ? {
            bytes: Math.round(hccl.links * hccl.ops * HCCL_LINK_COST.graphPerOp),
            text: `${plural(hccl.links, 'link')} x ${plural(hccl.ops, 'op')} x 0.3 MiB`,
          }
        : { bytes: hccl.links * HCCL_LINK_COST.singleOp, text: `${plural(hccl.links, 'link')} x 4 MiB` };
    const buffers = hccl.domains * 2 * hccl.buffSize;
    return {
      bytes: links.bytes + buffers,
      basis: `the HCCL reference ${links.text} + ${plural(hccl.domains, 'domain')} x 2 x ${formatBytes(hccl.buffSize)}`,
    };
  }
  return null;
}

/** The attribute the guide's references are about. */
const REFERENCE_ATTRIBUTE = 'DEV_MEM';

function assessReferences({
  baseline,
  current,
  config,
}: FindingContext<'above-reference', ReferenceOptions>): EntryOf<'above-reference'>[] {
  const policy = config.verdicts['above-reference'];
  if (policy === 'ignore') return [];
  const entries: EntryOf<'above-reference'>[] = [];
  const index = indexModules(metricsOf(current, modules));
  const baselineModules = metricsOf(baseline, modules);
  for (let i = 0; i < index.length; i++) {
    const { key, metric, parts } = index[i] as IndexedModule;
    // Only a key with no baseline: once there is one, the baseline is the better reference.
    if (Object.hasOwn(baselineModules, key) || isIgnored(key, config)) continue;
    if (parts === null || parts.attribute !== REFERENCE_ATTRIBUTE || parts.device === null) continue;
    const reference = referenceCost(parts.module, config.profile, config.hccl);
    if (reference === null) continue;
    const limit = Math.floor(reference.bytes * config.reference.factor);
    if (metric.peak <= limit) continue;
    entries.push({
      ...compared('module', key, null, metric.peak),
      status: 'above-reference',
      severity: policy,
      rule: null,
      unit: 'bytes',
      limit,
      note: `no baseline yet: peak ${formatBytes(metric.peak)} is above ${config.reference.factor} x ${formatBytes(reference.bytes)}, ${reference.basis}`,
    });
  }
  return entries.sort((x, y) => compareKeys(x.key, y.key));
}

function toHccl(input: HcclInput, file: string, pointer: string): HcclReference {
  return {
    links: input.links,
    mode: input.mode ?? HCCL_DEFAULTS.mode,
    ops: input.ops ?? HCCL_DEFAULTS.ops,
    domains: input.domains ?? HCCL_DEFAULTS.domains,
    buffSize:
      input.buffSize === undefined ? HCCL_DEFAULTS.buffSize : toBytes(input.buffSize, file, `${pointer}/buffSize`),
  };
}

// The gate's thresholds: the defaults, the JSON config file (schema-checked, sizes converted to bytes), the --max-increase shorthand, rule matching and tolerance semantics.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_FRAGMENTATION_PERCENT } from '../model/oom-cause.js';
import { InputError, SchemaError, UsageError } from '../common/errors.js';
import { compileSchema, parseJson } from '../json/reader.js';
import { SECTIONS, type SectionDeclaration } from '../model/sections/index.js';
import { bareNumber, parseSize } from '../model/units.js';
import { DEFAULT_ENVIRONMENT_POLICY } from './environment.js';
import { buildConfigSchema } from './config-schema.js';
import type {
  CountTolerance,
  DeviceLimits,
  EnvironmentPolicy,
  FindingStatus,
  GateConfig,
  Headroom,
  HcclReference,
  KindThresholds,
  Policy,
  Profile,
  Rule,
  Tolerance,
} from './types.js';

/** Where the config is looked for when none is named: relative to the working directory (the repository root in CI). */
export const DEFAULT_CONFIG_PATH = '.github/memory-gate.json';

/**
 * The thresholds when there is no config file:
 * - each section's declared tolerance: modules tolerate +5% AND +1 MiB, so small modules' jitter and big modules'
 *   small percentages both pass; kernels tolerate nothing: any growth of a kernel's memory diff regresses;
 * - new and missing keys warn; improvements pass and are listed;
 * - no device capacity (so no headroom verdict) until one is configured; then a device must keep 10% free;
 * - GE and RUNTIME with no baseline are held against 2 × the larger of the docs' training and inference references;
 *   HCCL only once its links and domains are configured;
 * - a module's outstanding allocations may not grow by more than 0 AND more than 10%;
 * - a device's module peak may deviate from the median over ≥3 devices by 20% or 1 MiB, whichever is larger;
 * - a timeline may rise by 5% of its peak or 64 MiB (whichever is larger) after the first 20% of the run, and a
 *   step series by less than 1 MiB per step after the first step (src/gate/findings/growth.ts);
 * - a memory snapshot whose allocated peak leaves over 30% and over 1 GiB of reserved memory unused is fragmented;
 * - over-capacity, alloc-failure and oom fail, the other findings warn.
 */
export const DEFAULT_CONFIG: GateConfig = deepFreeze({
  // Each section's declared default tolerance (src/model/sections/), no rules.
  sections: Object.fromEntries(SECTIONS.map((s) => [s.name, { tolerance: { ...s.tolerance }, rules: [] }])),
  onNew: 'warn',
  onMissingBaseline: 'warn',
  onDisjointBaseline: 'fail',
  onMissing: 'warn',
  environment: { ...DEFAULT_ENVIRONMENT_POLICY },
  failOnImprovement: false,
  device: { minHeadroom: { percent: 10 } },
  devices: {},
  profile: null,
  hccl: null,
  reference: { factor: 2 },
  leaks: { count: 0, percent: 10 },
  imbalance: { tolerance: { percent: 20, bytes: 1024 ** 2 }, minDevices: 3 },
  growth: { warmupPercent: 20, tolerance: { percent: 5, bytes: 64 * 1024 ** 2 }, warmupSteps: 1, perStep: 1024 ** 2, minWindows: 4 },
  fragmentation: { percent: 30, bytes: 1024 ** 3 },
  oom: { fragmentationPercent: DEFAULT_FRAGMENTATION_PERCENT },
  verdicts: {
    'over-capacity': 'fail',
    'low-headroom': 'warn',
    'alloc-failure': 'fail',
    oom: 'fail',
    fragmented: 'warn',
    'leak-suspect': 'warn',
    'step-leak': 'warn',
    'above-reference': 'warn',
    imbalance: 'warn',
    growing: 'warn',
  },
  baselineUpdateLabel: 'memory-baseline-update',
  history: null,
});

/** The noise band's defaults, for the fields a config's `history` leaves out. */
export const NOISE_BAND_DEFAULTS = deepFreeze({ window: 20, minPoints: 5, ceiling: { percent: 10 } });

/** HCCL defaults from the CANN docs: single-op mode, one communication domain, HCCL_BUFFSIZE 200 (MiB). */
export const HCCL_DEFAULTS = deepFreeze({ mode: 'single-op', ops: 0, domains: 1, buffSize: 200 * 1024 ** 2 } as const);

/** A size as written in the config: bytes, or a string with a unit ("64MiB", "200MB"). */
export type SizeInput = number | string;

export interface ToleranceInput {
  percent?: number;
  bytes?: SizeInput;
}

export interface RuleInput {
  match: string;
  tolerance?: ToleranceInput;
  budget?: SizeInput;
  ignore?: boolean;
}

export interface KindInput {
  tolerance?: ToleranceInput;
  rules?: RuleInput[];
}

export interface DeviceLimitsInput {
  capacity?: SizeInput;
  /** "10%" (of the capacity) or a size. */
  minHeadroom?: SizeInput;
}

export interface HcclInput {
  links: number;
  mode?: HcclReference['mode'];
  ops?: number;
  domains?: number;
  buffSize?: SizeInput;
}

/** The config file as written, after schema validation and before sizes become bytes (schemas/config.schema.json). */
export interface GateConfigFile {
  $schema?: string;
  /** Each section's thresholds, under the section's name (`modules`, `kernels`, …): see SECTIONS. */
  [section: string]: unknown;
  onNew?: Policy;
  onMissingBaseline?: 'warn' | 'fail';
  onDisjointBaseline?: 'warn' | 'fail';
  onMissing?: Policy;
  environment?: Partial<EnvironmentPolicy>;
  failOnImprovement?: boolean;
  device?: DeviceLimitsInput;
  devices?: Record<string, DeviceLimitsInput>;
  profile?: Profile;
  hccl?: HcclInput;
  reference?: { factor?: number };
  leaks?: CountTolerance;
  imbalance?: { tolerance?: ToleranceInput; minDevices?: number };
  growth?: { warmupPercent?: number; tolerance?: ToleranceInput; warmupSteps?: number; perStep?: SizeInput; minWindows?: number };
  fragmentation?: { percent?: number; bytes?: SizeInput };
  oom?: { fragmentationPercent?: number };
  verdicts?: Partial<Record<FindingStatus, Policy>>;
  baselineUpdateLabel?: string;
  history?: { window?: number; minPoints?: number; ceiling?: ToleranceInput };
}

const validateConfigFile = compileSchema<GateConfigFile>(buildConfigSchema());

/**
 * Reads the threshold config.
 * - `file` given: that file must exist (unless `required: false`).
 * - `file` undefined: `.github/memory-gate.json` under `cwd` is used when present, else DEFAULT_CONFIG
 *   (unless `required: true`).
 * A file that exists but is not valid JSON or fails the schema is always an error, never "no config".
 */
export async function loadGateConfig(
  file: string | undefined,
  options: { required?: boolean; cwd?: string } = {},
): Promise<GateConfig> {
  const name = file ?? DEFAULT_CONFIG_PATH;
  const required = options.required ?? file !== undefined;
  let text: string;
  try {
    text = await readFile(path.resolve(options.cwd ?? process.cwd(), name), 'utf8');
  } catch (err) {
    if (errorCode(err) === 'ENOENT') {
      if (required) throw new UsageError(`config file ${name} does not exist`);
      return cloneConfig(DEFAULT_CONFIG);
    }
    throw new InputError(`${name}: cannot read the config: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseGateConfig(parseJson(text, name), name);
}

/**
 * Validates a parsed config document against schemas/config.schema.json and converts it to a GateConfig.
 * Omitted fields keep DEFAULT_CONFIG. A `tolerance` object (per kind or per rule) REPLACES the default tolerance
 * as a whole: `{ "percent": 10 }` means "10%, with no bytes allowance", not "10% and the default 1 MiB".
 */
export function parseGateConfig(json: unknown, file: string): GateConfig {
  const input = validateConfigFile(json, file);
  const defaults = cloneConfig(DEFAULT_CONFIG);
  return {
    sections: Object.fromEntries(
      // The schema has checked each section's property against its `kind` definition.
      SECTIONS.map((s) => [s.name, toKindThresholds(input[s.name] as KindInput | undefined, defaults.sections[s.name] as KindThresholds, file, `/${s.name}`)]),
    ),
    onNew: input.onNew ?? DEFAULT_CONFIG.onNew,
    onMissingBaseline: input.onMissingBaseline ?? DEFAULT_CONFIG.onMissingBaseline,
    onDisjointBaseline: input.onDisjointBaseline ?? DEFAULT_CONFIG.onDisjointBaseline,
    onMissing: input.onMissing ?? DEFAULT_CONFIG.onMissing,
    environment: {
      onChange: input.environment?.onChange ?? defaults.environment.onChange,
      ignore: [...(input.environment?.ignore ?? defaults.environment.ignore)],
    },
    failOnImprovement: input.failOnImprovement ?? DEFAULT_CONFIG.failOnImprovement,
    // `device` merges field by field over the defaults, and each `devices.devN` over `device` when judged.
    device: { ...defaults.device, ...toDeviceLimits(input.device ?? {}, file, '/device') },
    devices: Object.fromEntries(
      Object.entries(input.devices ?? {}).map(([name, limits]) => [name, toDeviceLimits(limits, file, `/devices/${name}`)]),
    ),
    profile: input.profile ?? defaults.profile,
    hccl: input.hccl === undefined ? defaults.hccl : toHccl(input.hccl, file),
    reference: { factor: input.reference?.factor ?? defaults.reference.factor },
    // Like every tolerance, `leaks` and `imbalance.tolerance` replace the default as a whole.
    leaks: input.leaks === undefined ? defaults.leaks : { ...input.leaks },
    imbalance: {
      tolerance:
        input.imbalance?.tolerance === undefined
          ? defaults.imbalance.tolerance
          : toTolerance(input.imbalance.tolerance, file, '/imbalance/tolerance'),
      minDevices: input.imbalance?.minDevices ?? defaults.imbalance.minDevices,
    },
    growth: {
      warmupPercent: input.growth?.warmupPercent ?? defaults.growth.warmupPercent,
      tolerance: input.growth?.tolerance === undefined ? defaults.growth.tolerance : toTolerance(input.growth.tolerance, file, '/growth/tolerance'),
      warmupSteps: input.growth?.warmupSteps ?? defaults.growth.warmupSteps,
      perStep: input.growth?.perStep === undefined ? defaults.growth.perStep : toBytes(input.growth.perStep, file, '/growth/perStep'),
      minWindows: input.growth?.minWindows ?? defaults.growth.minWindows,
    },
    fragmentation: {
      percent: input.fragmentation?.percent ?? defaults.fragmentation.percent,
      bytes: input.fragmentation?.bytes === undefined ? defaults.fragmentation.bytes : toBytes(input.fragmentation.bytes, file, '/fragmentation/bytes'),
    },
    oom: { fragmentationPercent: input.oom?.fragmentationPercent ?? defaults.oom.fragmentationPercent },
    verdicts: { ...defaults.verdicts, ...input.verdicts },
    baselineUpdateLabel: input.baselineUpdateLabel ?? defaults.baselineUpdateLabel,
    history:
      input.history === undefined
        ? null
        : {
            window: input.history.window ?? NOISE_BAND_DEFAULTS.window,
            minPoints: input.history.minPoints ?? NOISE_BAND_DEFAULTS.minPoints,
            ceiling: input.history.ceiling === undefined ? { ...NOISE_BAND_DEFAULTS.ceiling } : toTolerance(input.history.ceiling, file, '/history/ceiling'),
          },
  };
}

function toDeviceLimits(input: DeviceLimitsInput, file: string, pointer: string): DeviceLimits {
  const limits: DeviceLimits = {};
  if (input.capacity !== undefined) limits.capacity = toBytes(input.capacity, file, `${pointer}/capacity`);
  if (input.minHeadroom !== undefined) limits.minHeadroom = toHeadroom(input.minHeadroom, file, `${pointer}/minHeadroom`);
  return limits;
}

function toHeadroom(value: SizeInput, file: string, pointer: string): Headroom {
  const percent = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value) : null;
  if (percent === null) return { bytes: toBytes(value, file, pointer) };
  const share = Number(percent[1]);
  if (share > 100) throw new SchemaError(file, pointer, `must be at most 100% of the capacity, got ${JSON.stringify(value)}`);
  return { percent: share };
}

function toHccl(input: HcclInput, file: string): HcclReference {
  return {
    links: input.links,
    mode: input.mode ?? HCCL_DEFAULTS.mode,
    ops: input.ops ?? HCCL_DEFAULTS.ops,
    domains: input.domains ?? HCCL_DEFAULTS.domains,
    buffSize: input.buffSize === undefined ? HCCL_DEFAULTS.buffSize : toBytes(input.buffSize, file, '/hccl/buffSize'),
  };
}

function toKindThresholds(
  input: KindInput | undefined,
  defaults: KindThresholds,
  file: string,
  pointer: string,
): KindThresholds {
  return {
    tolerance:
      input?.tolerance === undefined
        ? { ...defaults.tolerance }
        : toTolerance(input.tolerance, file, `${pointer}/tolerance`),
    rules: (input?.rules ?? []).map((rule, i) => toRule(rule, file, `${pointer}/rules/${i}`)),
  };
}

function toRule(input: RuleInput, file: string, pointer: string): Rule {
  const rule: Rule = { match: input.match };
  if (input.tolerance !== undefined) rule.tolerance = toTolerance(input.tolerance, file, `${pointer}/tolerance`);
  if (input.budget !== undefined) rule.budget = toBytes(input.budget, file, `${pointer}/budget`);
  if (input.ignore !== undefined) rule.ignore = input.ignore;
  return rule;
}

function toTolerance(input: ToleranceInput, file: string, pointer: string): Tolerance {
  const tolerance: Tolerance = {};
  if (input.percent !== undefined) tolerance.percent = input.percent;
  if (input.bytes !== undefined) tolerance.bytes = toBytes(input.bytes, file, `${pointer}/bytes`);
  return tolerance;
}

function toBytes(value: SizeInput, file: string, pointer: string): number {
  const bytes = parseSize(value);
  // The schema has checked the form already; what is left is a value too large to count exactly.
  if (bytes === null) throw new SchemaError(file, pointer, `must be at most 2^53 - 1 bytes, got ${JSON.stringify(value)}`);
  return bytes;
}

const MAX_INCREASE_HINT = "'max-increase' must look like 5% or 64MiB or 5%,1MiB";

/**
 * Parses the CLI/Action shorthand for a tolerance: "5%", "64MiB", "5%,1MiB" (either order).
 * Sizes take the same units as the config file; percent is a non-negative decimal.
 */
export function parseMaxIncrease(spec: string): Tolerance {
  const fail = (): never => {
    throw new UsageError(`${MAX_INCREASE_HINT}, got ${JSON.stringify(spec)}`);
  };
  const parts = spec.split(',').map((part) => part.trim());
  if (parts.length > 2) fail();
  const tolerance: Tolerance = {};
  for (const part of parts) {
    // "5" used to mean 5 bytes where 5% was meant: a number other than 0 says which.
    const bare = bareNumber(part);
    if (bare !== null) throw new UsageError(`'max-increase' "${bare}" has no unit: write ${bare}% for a share of the baseline or ${bare}B for bytes`);
    const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(part);
    if (percent) {
      if (tolerance.percent !== undefined) fail();
      tolerance.percent = Number(percent[1]);
      continue;
    }
    const bytes = part === '' ? null : parseSize(part);
    if (bytes === null || tolerance.bytes !== undefined) fail();
    else tolerance.bytes = bytes;
  }
  return tolerance;
}

/**
 * Makes `tolerance` the default of every section (replacing each default as a whole).
 * Rules keep their own tolerance: a rule is more specific than a command-line flag.
 */
export function applyMaxIncrease(config: GateConfig, tolerance: Tolerance): GateConfig {
  return {
    ...config,
    sections: Object.fromEntries(Object.entries(config.sections).map(([name, kind]) => [name, { ...kind, tolerance: { ...tolerance } }])),
  };
}

// Keys are `/`-separated segments on every platform, and dots (aclnnMatmul_0.1) are ordinary characters.
const GLOB_OPTIONS: picomatch.PicomatchOptions = { dot: true, windows: false };
const matchers = new Map<string, (key: string) => boolean>();

/** True when the glob matches the key: `*` within one segment, `**` across any number of segments. */
export function globMatches(glob: string, key: string): boolean {
  let matcher = matchers.get(glob);
  if (matcher === undefined) {
    matcher = picomatch(glob, GLOB_OPTIONS);
    matchers.set(glob, matcher);
  }
  return matcher(key);
}

/** The first rule whose glob matches the key, or undefined when the defaults apply. */
export function matchRule(rules: readonly Rule[], key: string): Rule | undefined {
  // A loop, not rules.find(closure): the gate asks for each of 160,000 keys, most often with no rule at all.
  for (let i = 0; i < rules.length; i++) if (globMatches((rules[i] as Rule).match, key)) return rules[i];
  return undefined;
}

/**
 * True when a positive change exceeds EVERY field set on the tolerance:
 * - `bytes`: change > bytes;
 * - `percent`: change > |baseline| × percent / 100 (|baseline| because kernel diffs can be negative), and with a
 *   baseline of 0 any positive change exceeds it.
 * A change exactly at a limit does not exceed it; an empty tolerance {} is exceeded by any positive change.
 */
export function exceedsTolerance(change: number, baseline: number, tolerance: Tolerance): boolean {
  if (change <= 0) return false;
  if (tolerance.bytes !== undefined && change <= tolerance.bytes) return false;
  // Multiplying instead of dividing keeps "exactly at the limit" exact for integer percents.
  if (tolerance.percent !== undefined && baseline !== 0 && change * 100 <= Math.abs(baseline) * tolerance.percent) return false;
  return true;
}

/** delta / |baseline| × 100, or null when either side is absent or the baseline is 0. */
export function percentChange(baseline: number | null, current: number | null): number | null {
  if (baseline === null || current === null || baseline === 0) return null;
  return ((current - baseline) / Math.abs(baseline)) * 100;
}

function cloneConfig(config: GateConfig): GateConfig {
  return {
    sections: Object.fromEntries(Object.entries(config.sections).map(([name, kind]) => [name, cloneKind(kind)])),
    onNew: config.onNew,
    onMissingBaseline: config.onMissingBaseline,
    onDisjointBaseline: config.onDisjointBaseline,
    onMissing: config.onMissing,
    environment: { onChange: config.environment.onChange, ignore: [...config.environment.ignore] },
    failOnImprovement: config.failOnImprovement,
    device: structuredClone(config.device),
    devices: structuredClone(config.devices),
    profile: config.profile,
    hccl: config.hccl === null ? null : { ...config.hccl },
    reference: { ...config.reference },
    leaks: { ...config.leaks },
    imbalance: { tolerance: { ...config.imbalance.tolerance }, minDevices: config.imbalance.minDevices },
    growth: { ...config.growth, tolerance: { ...config.growth.tolerance } },
    fragmentation: { ...config.fragmentation },
    oom: { ...config.oom },
    verdicts: { ...config.verdicts },
    baselineUpdateLabel: config.baselineUpdateLabel,
    history: config.history === null ? null : { ...config.history, ceiling: { ...config.history.ceiling } },
  };
}

function cloneKind(kind: KindThresholds): KindThresholds {
  return {
    tolerance: { ...kind.tolerance },
    rules: kind.rules.map((rule) => ({ ...rule, ...(rule.tolerance ? { tolerance: { ...rule.tolerance } } : {}) })),
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function errorCode(err: unknown): unknown {
  return err !== null && typeof err === 'object' && 'code' in err ? err.code : undefined;
}

/** The thresholds of a section: the config's, else the section's declared default tolerance with no rules. */
export function sectionThresholds(config: Pick<GateConfig, 'sections'>, declaration: SectionDeclaration): KindThresholds {
  return config.sections[declaration.name] ?? { tolerance: { ...declaration.tolerance }, rules: [] };
}

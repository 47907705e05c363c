// The gate's thresholds: the defaults, the JSON config file (schema-checked, sizes converted to bytes), the --max-increase shorthand, rule matching and tolerance semantics.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, UsageError } from '../common/errors.js';
import { compileSchema, parseJson } from '../json/reader.js';
import { SECTIONS } from '../model/sections/index.js';
import { bareNumber, parseSize } from '../model/units.js';
import { DEFAULT_ENVIRONMENT_POLICY } from './environment.js';
import { buildConfigSchema } from './config-schema.js';
import { DEFAULT_VERDICTS, FINDING_OPTIONS, type FindingOptions } from './findings/index.js';
import { toBytes, toTolerance, type SizeInput, type ToleranceInput } from './tolerance.js';
import type { EnvironmentPolicy, FindingStatus, GateConfig, KindThresholds, Policy, Rule, Tolerance } from './types.js';

export { exceedsTolerance, globMatches, matchRule, percentChange, sectionThresholds } from './tolerance.js';
/** Where the config is looked for when none is named: relative to the working directory (the repository root in CI). */
export const DEFAULT_CONFIG_PATH = '.github/memory-gate.json';

/**
 * The thresholds when there is no config file:
 * - each section's declared tolerance: modules tolerate +5% AND +1 MiB, so small modules' jitter and big modules'
 *   small percentages both pass; kernels tolerate nothing: any growth of a kernel's memory diff regresses;
 * - new and missing keys warn; improvements pass and are listed;
 * - each finding's options and policy as its file declares them (src/gate/findings/).
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
  // Each finding's options at their declared defaults (src/gate/findings/).
  ...(Object.fromEntries(
    FINDING_OPTIONS.map(([key, option]) => [key, structuredClone(option.defaults)]),
  ) as FindingOptions),
  verdicts: { ...DEFAULT_VERDICTS },
  baselineUpdateLabel: 'memory-baseline-update',
  history: null,
});

/** The noise band's defaults, for the fields a config's `history` leaves out. */
const NOISE_BAND_DEFAULTS = deepFreeze({ window: 20, minPoints: 5, ceiling: { percent: 10 } });

interface RuleInput {
  match: string;
  tolerance?: ToleranceInput;
  budget?: SizeInput;
  ignore?: boolean;
}

interface KindInput {
  tolerance?: ToleranceInput;
  rules?: RuleInput[];
}

/** The config file as written, after schema validation and before sizes become bytes (schemas/config.schema.json). */
interface GateConfigFile {
  $schema?: string;
  /** Each section's thresholds under the section's name (`modules`, `kernels`, …: see SECTIONS), and each finding's options under theirs. */
  [property: string]: unknown;
  onNew?: Policy;
  onMissingBaseline?: 'warn' | 'fail';
  onDisjointBaseline?: 'warn' | 'fail';
  onMissing?: Policy;
  environment?: Partial<EnvironmentPolicy>;
  failOnImprovement?: boolean;
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
      return structuredClone(DEFAULT_CONFIG) as GateConfig;
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
  const defaults = structuredClone(DEFAULT_CONFIG) as GateConfig;
  return {
    sections: Object.fromEntries(
      // The schema has checked each section's property against its `kind` definition.
      SECTIONS.map((s) => [
        s.name,
        toKindThresholds(
          input[s.name] as KindInput | undefined,
          defaults.sections[s.name] as KindThresholds,
          file,
          `/${s.name}`,
        ),
      ]),
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
    // Each finding parses its own options (src/gate/findings/); the schema has checked them.
    ...(Object.fromEntries(
      FINDING_OPTIONS.map(([key, option]) => [
        key,
        option.parse(input[key], (defaults as unknown as Record<string, unknown>)[key], file, `/${key}`),
      ]),
    ) as FindingOptions),
    verdicts: { ...defaults.verdicts, ...input.verdicts },
    baselineUpdateLabel: input.baselineUpdateLabel ?? defaults.baselineUpdateLabel,
    history:
      input.history === undefined
        ? null
        : {
            window: input.history.window ?? NOISE_BAND_DEFAULTS.window,
            minPoints: input.history.minPoints ?? NOISE_BAND_DEFAULTS.minPoints,
            ceiling:
              input.history.ceiling === undefined
                ? { ...NOISE_BAND_DEFAULTS.ceiling }
                : toTolerance(input.history.ceiling, file, '/history/ceiling'),
          },
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
    if (bare !== null)
      throw new UsageError(
        `'max-increase' "${bare}" has no unit: write ${bare}% for a share of the baseline or ${bare}B for bytes`,
      );
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
    sections: Object.fromEntries(
      Object.entries(config.sections).map(([name, kind]) => [name, { ...kind, tolerance: { ...tolerance } }]),
    ),
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

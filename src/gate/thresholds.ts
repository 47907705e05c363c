// The gate's thresholds: the defaults, the JSON config file (schema-checked, sizes converted to bytes), the --max-increase shorthand and rule matching.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import configSchema from '../../schemas/config.schema.json' with { type: 'json' };
import { InputError, SchemaError, UsageError } from '../errors.js';
import { compileSchema, parseJson } from '../json-schema.js';
import { parseSize } from '../units.js';
import type { GateConfig, KindThresholds, Policy, Rule, Tolerance } from './types.js';

/** Where the config is looked for when none is named: relative to the working directory (the repository root in CI). */
export const DEFAULT_CONFIG_PATH = '.github/memory-gate.json';

/**
 * The thresholds when there is no config file:
 * - modules tolerate +5% AND +1 MiB, so small modules' jitter and big modules' small percentages both pass;
 * - kernels tolerate nothing: any growth of a kernel's memory diff regresses;
 * - new and missing keys warn; improvements pass and are listed.
 */
export const DEFAULT_CONFIG: GateConfig = deepFreeze({
  modules: { tolerance: { percent: 5, bytes: 1024 ** 2 }, rules: [] },
  kernels: { tolerance: { bytes: 0 }, rules: [] },
  onNew: 'warn',
  onMissing: 'warn',
  failOnImprovement: false,
});

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

/** The config file as written, after schema validation and before sizes become bytes (schemas/config.schema.json). */
export interface GateConfigFile {
  $schema?: string;
  modules?: KindInput;
  kernels?: KindInput;
  onNew?: Policy;
  onMissing?: Policy;
  failOnImprovement?: boolean;
}

const validateConfigFile = compileSchema<GateConfigFile>(configSchema);

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
  return {
    modules: toKindThresholds(input.modules, DEFAULT_CONFIG.modules, file, '/modules'),
    kernels: toKindThresholds(input.kernels, DEFAULT_CONFIG.kernels, file, '/kernels'),
    onNew: input.onNew ?? DEFAULT_CONFIG.onNew,
    onMissing: input.onMissing ?? DEFAULT_CONFIG.onMissing,
    failOnImprovement: input.failOnImprovement ?? DEFAULT_CONFIG.failOnImprovement,
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
 * Makes `tolerance` the default of both modules and kernels (replacing each default as a whole).
 * Rules keep their own tolerance: a rule is more specific than a command-line flag.
 */
export function applyMaxIncrease(config: GateConfig, tolerance: Tolerance): GateConfig {
  return {
    ...config,
    modules: { ...config.modules, tolerance: { ...tolerance } },
    kernels: { ...config.kernels, tolerance: { ...tolerance } },
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
  return rules.find((rule) => globMatches(rule.match, key));
}

function cloneConfig(config: GateConfig): GateConfig {
  return {
    modules: cloneKind(config.modules),
    kernels: cloneKind(config.kernels),
    onNew: config.onNew,
    onMissing: config.onMissing,
    failOnImprovement: config.failOnImprovement,
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

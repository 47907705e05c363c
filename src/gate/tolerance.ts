// Tolerance semantics, rule matching and config sizes: what the comparison and every finding hold a value to.
import picomatch from 'picomatch';
import { SchemaError } from '../common/errors.js';
import type { SectionDeclaration } from '../model/sections/index.js';
import { parseSize } from '../model/units.js';
import type { KindThresholds, Rule, Tolerance } from './basics.js';

/** A size as written in the config: bytes, or a string with a unit ("64MiB", "200MB"). */
export type SizeInput = number | string;

export interface ToleranceInput {
  percent?: number;
  bytes?: SizeInput;
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
  if (tolerance.percent !== undefined && baseline !== 0 && change * 100 <= Math.abs(baseline) * tolerance.percent)
    return false;
  return true;
}

/** delta / |baseline| × 100, or null when either side is absent or the baseline is 0. */
export function percentChange(baseline: number | null, current: number | null): number | null {
  if (baseline === null || current === null || baseline === 0) return null;
  return ((current - baseline) / Math.abs(baseline)) * 100;
}

/** The thresholds of a section: the config's, else the section's declared default tolerance with no rules. */
export function sectionThresholds(
  config: { sections: Record<string, KindThresholds> },
  declaration: SectionDeclaration,
): KindThresholds {
  return config.sections[declaration.name] ?? { tolerance: { ...declaration.tolerance }, rules: [] };
}

/** A tolerance as written in the config, sizes in bytes. */
export function toTolerance(input: ToleranceInput, file: string, pointer: string): Tolerance {
  const tolerance: Tolerance = {};
  if (input.percent !== undefined) tolerance.percent = input.percent;
  if (input.bytes !== undefined) tolerance.bytes = toBytes(input.bytes, file, `${pointer}/bytes`);
  return tolerance;
}

/** A size as written in the config, in bytes. */
export function toBytes(value: SizeInput, file: string, pointer: string): number {
  const bytes = parseSize(value);
  // The schema has checked the form already; what is left is a value too large to count exactly.
  if (bytes === null)
    throw new SchemaError(file, pointer, `must be at most 2^53 - 1 bytes, got ${JSON.stringify(value)}`);
  return bytes;
}

// What a finding declares: its statuses and their default policies, its config options (schema, defaults, parser), the
// sections it is written for, how comment mode re-judges it, and `assess`. The registry (index.ts) derives the rest.
import type { EntryOf, GateInput, KindThresholds, Policy } from '../basics.js';

/** One status a finding writes, with what `verdicts.<status>` does by default and says in the config schema. */
interface StatusDeclaration<S extends string> {
  status: S;
  /** The default of `verdicts.<status>`. */
  policy: 'warn' | 'fail';
  /** The config schema's description of `verdicts.<status>`. */
  description: string;
}

/** One property of the config file that a finding owns. */
export interface ConfigOption<T> {
  /** Its JSON Schema (`$ref`s may name the config schema's shared definitions: size, tolerance, policy). */
  schema: Record<string, unknown>;
  /** Its value when the config file leaves it out. */
  defaults: T;
  /** The file's value, already checked against `schema`, as the gate holds it (sizes in bytes); pointer names it for errors. */
  parse(input: unknown, defaults: T, file: string, pointer: string): T;
}

/** The config values of a finding's options, from their declarations. */
export type OptionsOf<C> = { -readonly [K in keyof C]: C[K] extends ConfigOption<infer T> ? T : never };

/**
 * How comment mode judges an uploaded entry of this finding again:
 * - `derivedFrom`: assessed again over these sections as the report holds them (each verdict's `current` as the
 *   section's compared value) and the trusted baseline and config; a claim the figures do not give is named;
 * - `kept`: its evidence is not in the report (named here, for people), so the entry stays as claimed with the severity
 *   the trusted `verdicts` give; in the `withVerdict` sections it is read from the key's own metric, so an honest report
 *   has that key's verdict too, and one without it fails.
 */
type Rejudging = { derivedFrom: readonly string[] } | { kept: string; withVerdict: readonly string[] };

/** What an assessor sees: both sides whole (sections, series, meta) and the config's thresholds, its verdicts and its own options. */
export interface FindingContext<S extends string, O> {
  baseline: GateInput;
  current: GateInput;
  config: { sections: Record<string, KindThresholds>; verdicts: Record<S, Policy> } & O;
}

/** The section names a finding may be written for, and `device` for entries about a whole device (`dev0`). */
export const DEVICE = 'device';

export interface FindingDeclaration<S extends string, C, A extends string = never> {
  /** The file's name: `headroom`. */
  name: string;
  /** The statuses its entries carry (usually one), in the order a key lists them. */
  statuses: readonly StatusDeclaration<S>[];
  /** Other findings' statuses it writes too (msMemScope's unfreed memory is a leak-suspect): their policy is theirs. */
  alsoWrites?: readonly A[];
  /** true: where the finding does not hold, it writes a `pass` entry (a device's headroom verdict). */
  writesPass?: boolean;
  /** The config properties it owns: none, one, or several (headroom: `device` and `devices`). */
  config: C;
  /** Definitions its options' schemas `$ref` (#/definitions/<name>), added to the config schema's. */
  definitions?: Record<string, unknown>;
  /** The sections (by name) its entries are written for, or `device`. */
  writtenFor: readonly string[];
  rejudge: Rejudging;
  /**
   * Its entries for this run, sorted by section (registry order) then key. An entry whose kind and key are a section
   * key's follows that key's verdict in the report; others (kind `device`) come after every key.
   */
  assess(context: FindingContext<S | A, OptionsOf<C>>): EntryOf<S | A | 'pass'>[];
}

/** A finding, typed by its statuses and options (the registry reads both). */
export function defineFinding<
  const S extends string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each option's own type is inferred from its declaration.
  C extends { readonly [key: string]: ConfigOption<any> } = Record<never, never>,
  const A extends string = never,
>(declaration: FindingDeclaration<S, C, A>): FindingDeclaration<S, C, A> {
  return declaration;
}

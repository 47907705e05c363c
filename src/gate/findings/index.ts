// The findings: verdicts beyond the baseline comparison, one declaration per file (declaration.ts says what each declares).
// Adding a finding is its file and one line in FINDINGS; the status type, the config's options, schema, defaults and
// `verdicts`, the order of entries and comment mode's re-judging are all read from this list.
import { section } from '../../model/sections/index.js';
import { compareKeys } from '../../model/key-order.js';
import type { EntryOf, Policy } from '../basics.js';
import { aboveReference } from './above-reference.js';
import { allocFailure } from './alloc-failure.js';
import { DEVICE, type ConfigOption, type FindingDeclaration, type OptionsOf } from './declaration.js';
import { fragmented } from './fragmented.js';
import { growing } from './growing.js';
import { headroom } from './headroom.js';
import { imbalance } from './imbalance.js';
import { leakSuspect } from './leak-suspect.js';
import { oom } from './oom.js';
import { stepLeak } from './step-leak.js';
import { unfreed } from './unfreed.js';

/**
 * Every finding, in the order their entries are listed: after a key's verdict, that key's findings in this order; after
 * every key, the entries that follow no key's verdict (devices first), in this order. Their statuses, in this order, are the order in which
 * `verdicts`, the config schema and reports list them.
 */
export const FINDINGS = [
  headroom,
  allocFailure,
  oom,
  fragmented,
  leakSuspect,
  aboveReference,
  imbalance,
  growing,
  stepLeak,
  unfreed,
] as const;

type Declared = (typeof FINDINGS)[number];

/** The verdicts beyond the baseline comparison; each one's policy is set in `verdicts`. */
export type FindingStatus = Declared['statuses'][number]['status'];

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The config values every finding owns (`device`, `leaks`, `growth`, …), by property. */
export type FindingOptions = UnionToIntersection<OptionsOf<Declared['config']>>;

/** A finding as the gate iterates them: its statuses and options left open. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each declaration's assess reads its own options; the gate passes the whole config.
export type AnyFinding = FindingDeclaration<string, any, string>;

const declared: readonly AnyFinding[] = FINDINGS;

/** Every finding status, in registry order, once (a status another finding also writes is listed where it is declared). */
export const FINDING_STATUSES: readonly FindingStatus[] = declared.flatMap((d) =>
  d.statuses.map((s) => s.status as FindingStatus),
);

// A status is declared by one finding, and one that another finding writes too must be declared (its policy is that one's).
for (const status of declared.flatMap((d) => d.alsoWrites ?? [])) {
  if (!FINDING_STATUSES.includes(status as FindingStatus))
    throw new Error(`no finding declares the status '${status}' that another writes`);
}
if (new Set(FINDING_STATUSES).size !== FINDING_STATUSES.length)
  throw new Error(`a finding status is declared twice: ${FINDING_STATUSES.join(', ')}`);

/** What `verdicts` holds when the config leaves it out. */
export const DEFAULT_VERDICTS = Object.fromEntries(
  declared.flatMap((d) => d.statuses.map((s) => [s.status, s.policy])),
) as Record<FindingStatus, Policy>;

/** The config properties the findings own, with their schema, defaults and parser, in registry order. */
export const FINDING_OPTIONS = declared.flatMap((d) =>
  Object.entries(d.config as Record<string, ConfigOption<unknown>>),
);

/** The config schema's `verdicts`: each status's policy, its description and default. */
export function verdictsSchema(): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    description: 'What each finding does: warn, fail, or ignore (not assessed at all).',
    properties: Object.fromEntries(
      declared.flatMap((d) =>
        d.statuses.map((s) => [s.status, { $ref: '#/definitions/policy', description: s.description }]),
      ),
    ),
  };
}

/** The definitions the findings' option schemas `$ref`. */
export const FINDING_DEFINITIONS: Record<string, unknown> = Object.assign(
  {},
  ...declared.map((d) => d.definitions ?? {}),
);

/** `kind\0status` → the finding that writes such entries, and its place in FINDINGS. */
const writers = new Map<string, { finding: AnyFinding; index: number }>();
declared.forEach((finding, index) => {
  const statuses = [
    ...finding.statuses.map((s) => s.status),
    ...(finding.alsoWrites ?? []),
    ...(finding.writesPass === true ? ['pass'] : []),
  ];
  for (const name of finding.writtenFor) {
    const kind = name === DEVICE ? DEVICE : section(name).kind;
    for (const status of statuses) {
      const id = `${kind}\0${status}`;
      // Two findings writing one status on one kind could not be told apart when re-judged.
      if (writers.has(id))
        throw new Error(
          `findings '${writers.get(id)?.finding.name}' and '${finding.name}' both write '${status}' on ${name}`,
        );
      writers.set(id, { finding, index });
    }
  }
});

/** The finding that writes an entry of this kind and status, or undefined when no finding does (`pass` only on devices). */
export function writerOf(
  entry: Pick<EntryOf<string>, 'kind' | 'status'>,
): { finding: AnyFinding; index: number } | undefined {
  return writers.get(`${entry.kind}\0${entry.status}`);
}

/** The order the gate lists findings in before placing them after their keys: by finding, then section, then key. */
export function findingOrder(
  sectionOrder: ReadonlyMap<string, number>,
): (a: EntryOf<string>, b: EntryOf<string>) => number {
  const rank = (e: EntryOf<string>): number => writerOf(e)?.index ?? declared.length;
  return (a, b) =>
    rank(a) - rank(b) ||
    (sectionOrder.get(a.kind) ?? -1) - (sectionOrder.get(b.kind) ?? -1) ||
    compareKeys(a.key, b.key);
}

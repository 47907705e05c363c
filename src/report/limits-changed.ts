// "Limits changed by this PR": every baseline value and config threshold a pull request moves, old → new, and which
// limits the gate used. Pure; the markdown report puts it first.
import type { GateConfig } from '../gate/types.js';
import { compareKeys } from '../model/key-order.js';
import { formatBytes } from '../model/units.js';
import { valueOf, type Side } from './baseline-changes.js';
import { codeSpan, tableCodeSpan } from './escape.js';

export interface LimitChange {
  /** Which file moved it. */
  source: 'baseline' | 'config';
  /** A baseline key (`DEV_MEM/dev0/APP`) or a config path (`modules.tolerance.percent`). */
  key: string;
  /** null: absent on that side. */
  before: number | string | boolean | null;
  after: number | string | boolean | null;
}

/** Which baseline and config the gate ran against on a pull request. */
export interface LimitsUsed {
  /** `base`: the base commit's; `pull-request`: the PR's own, allowed by the label. */
  from: 'base' | 'pull-request';
  /** The base commit's sha. */
  baseSha: string;
  /** The label that allows a PR's own limits (from the base commit's config). */
  label: string;
  changes: LimitChange[];
  /** The label is on the pull request but did not count: the limits changed after it was set (or that cannot be told). */
  labelNotCounted?: LabelNotCounted;
}

/** Why a maintainer's label did not count for the limits gated here, and whether it was taken off. */
export interface LabelNotCounted {
  /**
   * `push`: the push `since` → `at` of a synchronize event changes `files`. `label`: `files` changed between `since`, the
   * head when the label was set, and `at`, the head of run `runId`. `unknown`: which limits a maintainer saw cannot be told.
   */
  how: 'push' | 'label' | 'unknown';
  since: string;
  at: string;
  files: string[];
  runId?: number;
  /** With `how: 'unknown'`: why, as a clause ("commit 1234abcd5678 cannot be read"). */
  unknown?: string;
  /** The label was taken off; false when the token may not (pull-requests: write). */
  removed: boolean;
}

/** Every key whose compared baseline value moves (added, removed or changed), in report order. */
export function baselineLimitChanges(base: Side | null, head: Side | null): LimitChange[] {
  const keys = new Set<string>();
  for (const side of [base, head])
    if (side !== null)
      for (const metrics of Object.values(side.sections)) for (const key of Object.keys(metrics ?? {})) keys.add(key);
  const changes: LimitChange[] = [];
  for (const key of [...keys].sort(compareKeys)) {
    const before = valueOf(base, key);
    const after = valueOf(head, key);
    if (before !== after) changes.push({ source: 'baseline', key, before, after });
  }
  return changes;
}

/** Every config value (after defaults) that differs, named as in the file: `modules.tolerance.percent: 5 → 50`. */
export function configLimitChanges(base: GateConfig, head: GateConfig): LimitChange[] {
  const { sections: baseSections, ...baseRest } = base;
  const { sections: headSections, ...headRest } = head;
  // Sections are top-level keys in the file (`"modules": {…}`).
  const before = leaves({ ...baseSections, ...baseRest });
  const after = leaves({ ...headSections, ...headRest });
  const changes: LimitChange[] = [];
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const b = before.get(key) ?? null;
    const a = after.get(key) ?? null;
    if (b !== a) changes.push({ source: 'config', key, before: b, after: a });
  }
  return changes;
}

type Leaf = number | string | boolean | null;

/** Path → scalar of a config object, iteratively (configs are small and shallow, but nothing here recurses). */
function leaves(root: unknown): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  const stack: [string, unknown][] = [['', root]];
  while (stack.length > 0) {
    const [at, value] = stack.pop() as [string, unknown];
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value))
        stack.push([at === '' ? k : Array.isArray(value) ? `${at}[${k}]` : `${at}.${k}`, v]);
    } else if (value !== undefined) {
      out.set(at, value as Leaf);
    }
  }
  return out;
}

/** Rows shown; the rest are counted (the comment has 65,536 characters for everything). */
const MAX_ROWS = 40;

/** How the host calls a change request: GitHub's and GitCode's pull request (PR), GitLab's merge request (MR). */
export interface ChangeWords {
  short: string;
  long: string;
  /** What removing a label needs of the token. */
  labelPermission: string;
}

export const PULL_REQUEST: ChangeWords = {
  short: 'PR',
  long: 'pull request',
  labelPermission: '`pull-requests: write`',
};

/** The section: which limits were used, and, when the PR moves any, a table of them. */
export function renderLimitsChanged(used: LimitsUsed, words: ChangeWords = PULL_REQUEST): string {
  const { short, long } = words;
  const base = codeSpan(used.baseSha.slice(0, 12));
  const label = codeSpan(used.label);
  if (used.changes.length === 0) {
    const limits = `Limits: the baseline and config of the base commit ${base}; this ${long} does not change them.`;
    return used.labelNotCounted === undefined
      ? limits
      : `${limits} ${labelNotCountedText(used.labelNotCounted, used.label, words)}`;
  }
  const lines = [`#### ⚠️ Limits changed by this ${short} (${used.changes.length})`, ''];
  lines.push(
    used.from === 'pull-request'
      ? `**This ${long}'s own limits were used**: it carries the label ${label}, which only maintainers can set. Without it, the gate uses those of the base commit ${base}.`
      : used.labelNotCounted !== undefined
        ? `**These changes were not used**: ${labelNotCountedText(used.labelNotCounted, used.label, words)} The gate ran against the baseline and config of the base commit ${base}.`
        : `**These changes were not used**: the gate ran against the baseline and config of the base commit ${base}. To gate with them, a maintainer (triage or write access) reviews them and adds the label ${label}.`,
    '',
    `| Limit | Key | Base | This ${short} | Change |`,
    '|---|---|--:|--:|--:|',
  );
  for (const change of used.changes.slice(0, MAX_ROWS)) {
    lines.push(
      `| ${change.source} | ${tableCodeSpan(change.key)} | ${shown(change, change.before)} | ${shown(change, change.after)} | ${ratio(change)} |`,
    );
  }
  if (used.changes.length > MAX_ROWS)
    lines.push('', `…and ${used.changes.length - MAX_ROWS} more: see the ${long}'s diff of the baseline and config.`);
  return lines.join('\n');
}

/** Why the label did not count and what happens to it, in sentences. */
function labelNotCountedText(why: LabelNotCounted, labelName: string, words: ChangeWords = PULL_REQUEST): string {
  const { long } = words;
  const label = codeSpan(labelName);
  const files = why.files.map(codeSpan).join(' and ');
  const since = codeSpan(why.since.slice(0, 12));
  const at = codeSpan(why.at.slice(0, 12));
  const reason =
    why.how === 'push'
      ? `the label ${label} was set before the push ${since} → ${at}, which changes ${files}, so no maintainer has reviewed these limits.`
      : why.how === 'label'
        ? `the label ${label} was set when the ${long}'s head was ${since}; ${at}${why.runId !== undefined ? ` (the head of run ${why.runId})` : ''} changes ${files} since, so no maintainer has reviewed these limits.`
        : `the label ${label} is on this ${long}, but which limits a maintainer saw cannot be told (${why.unknown ?? 'no record'}), so it does not count.`;
  const removal = why.removed
    ? 'The label was removed: a maintainer reviews the changes and sets it again.'
    : `The token cannot remove the label (it needs ${words.labelPermission}): a maintainer removes it and sets it again after reviewing the changes.`;
  return `${reason} ${removal}`;
}

function shown(change: LimitChange, value: LimitChange['before']): string {
  if (value === null) return 'absent';
  if (change.source === 'baseline' && typeof value === 'number') return formatBytes(value);
  return tableCodeSpan(JSON.stringify(value));
}

/** ×2.00 for a value that doubled; nothing when either side is absent, zero or not a number. */
function ratio(change: LimitChange): string {
  const { before, after } = change;
  if (typeof before !== 'number' || typeof after !== 'number' || before === 0) return '';
  return `×${(after / before).toFixed(2)}`;
}

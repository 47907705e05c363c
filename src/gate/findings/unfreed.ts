// Memory unfreed at the end of msMemScope's tracing that grew from the baseline beyond the `unfreed` tolerance: a leak-suspect.
import { unfreed as unfreedSection } from '../../model/sections/unfreed.js';
import { metricsOf } from '../../model/snapshot.js';
import { compareKeys } from '../../model/key-order.js';
import type { EntryOf } from '../basics.js';
import { exceedsTolerance, matchRule, percentChange, sectionThresholds } from '../tolerance.js';
import { defineFinding, type FindingContext } from './declaration.js';

/** Writes leak-suspect, whose policy is the leak-suspect finding's (leak-suspect.ts); its tolerance is the `unfreed` section's. */
export const unfreed = defineFinding({
  name: 'unfreed',
  statuses: [],
  alsoWrites: ['leak-suspect'],
  config: {},
  writtenFor: ['unfreed'],
  rejudge: { kept: "the dump's blocks never freed while tracing", withVerdict: [] },
  assess: assessUnfreed,
});

/** leak-suspect where memory unfreed at the end of tracing grew from the baseline beyond the `unfreed` tolerance. */
function assessUnfreed({
  baseline,
  current,
  config,
}: FindingContext<'leak-suspect', object>): EntryOf<'leak-suspect'>[] {
  const policy = config.verdicts['leak-suspect'];
  if (policy === 'ignore') return [];
  const thresholds = sectionThresholds(config, unfreedSection);
  const before = metricsOf(baseline, unfreedSection);
  const after = metricsOf(current, unfreedSection);
  // Only a run with a dump baseline can say what grew: without one, every persistent allocation would look new.
  if (Object.keys(before).length === 0) return [];
  const entries: EntryOf<'leak-suspect'>[] = [];
  for (const [key, metric] of Object.entries(after).sort((a, b) => compareKeys(a[0], b[0]))) {
    const rule = matchRule(thresholds.rules, key);
    if (rule?.ignore === true) continue;
    const bytes = metric.bytes;
    const was = Object.hasOwn(before, key) ? before[key] : undefined;
    const old = was?.bytes ?? 0;
    const tolerance = rule?.tolerance ?? thresholds.tolerance;
    if (!exceedsTolerance(bytes - old, old, tolerance)) continue;
    const allowed = Math.max(
      tolerance.bytes ?? 0,
      tolerance.percent !== undefined ? Math.floor((old * tolerance.percent) / 100) : 0,
    );
    entries.push({
      kind: unfreedSection.kind,
      key,
      baseline: was === undefined ? null : old,
      current: bytes,
      delta: bytes - old,
      percent: percentChange(old, bytes),
      status: 'leak-suspect',
      severity: policy,
      rule: rule?.match ?? null,
      limit: old + allowed,
      note:
        `memory never freed while tracing grew from ${old} to ${bytes} bytes (${metric.blocks} block(s)), more than the ${old + allowed} tolerated` +
        newBlocksNote(was?.sizes ?? '', metric.sizes),
    });
  }
  return entries;
}

/** `; new blocks: 4000256 B ×2` from two `sizes` fields (`4000256x2 1536`): the current sizes the baseline's do not account for. */
function newBlocksNote(before: string, after: string): string {
  const parse = (text: string) => {
    const counts = new Map<number, number>();
    for (const token of text.split(' ')) {
      const m = /^(\d+)(?:x(\d+))?$/.exec(token);
      if (m !== null) counts.set(Number(m[1]), Number(m[2] ?? 1));
    }
    return counts;
  };
  const old = parse(before);
  const added: string[] = [];
  for (const [size, n] of parse(after)) {
    const extra = n - (old.get(size) ?? 0);
    if (extra > 0) added.push(extra === 1 ? `${size} B` : `${size} B ×${extra}`);
  }
  return added.length === 0 ? '' : `; new blocks: ${added.join(', ')}`;
}

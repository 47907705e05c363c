// The step-leak finding: msMemScope's own leak rule over training steps, from its event dumps, whatever the baseline.
import { stepLeaks } from '../../model/sections/step-leaks.js';
import { metricsOf } from '../../model/snapshot.js';
import { compareKeys } from '../../model/key-order.js';
import type { EntryOf } from '../basics.js';
import { percentChange } from '../tolerance.js';
import { defineFinding, type FindingContext } from './declaration.js';

export const stepLeak = defineFinding({
  name: 'step-leak',
  statuses: [
    {
      status: 'step-leak',
      policy: 'warn',
      description:
        "msMemScope's leak rule over training steps (a block allocated during step k >= 2 still live at the end of step k+1). Default warn.",
    },
  ],
  config: {},
  writtenFor: ['stepLeaks'],
  rejudge: { kept: "the dump's blocks still live a step after they were allocated", withVerdict: [] },
  assess: assessStepLeaks,
});

/** step-leak on every device and pool whose dump showed blocks that msMemScope's rule calls leaked, whatever the baseline. */
function assessStepLeaks({ baseline, current, config }: FindingContext<'step-leak', object>): EntryOf<'step-leak'>[] {
  const policy = config.verdicts['step-leak'];
  if (policy === 'ignore') return [];
  const before = metricsOf(baseline, stepLeaks);
  const entries: EntryOf<'step-leak'>[] = [];
  for (const [key, metric] of Object.entries(metricsOf(current, stepLeaks)).sort((a, b) => compareKeys(a[0], b[0]))) {
    const bytes = metric.bytes;
    if (bytes <= 0) continue;
    const old = Object.hasOwn(before, key) ? (before[key]?.bytes ?? null) : null;
    entries.push({
      kind: stepLeaks.kind,
      key,
      baseline: old,
      current: bytes,
      delta: old === null ? null : bytes - old,
      percent: percentChange(old, bytes),
      status: 'step-leak',
      severity: policy,
      rule: null,
      limit: 0,
      note:
        `${metric.blocks} block(s), ${bytes} bytes allocated during a step k >= 2 were still live at the end of step k+1 ` +
        `(msMemScope's leak rule)${metric.top ? `; most: ${metric.top}` : ''}`,
    });
  }
  return entries;
}

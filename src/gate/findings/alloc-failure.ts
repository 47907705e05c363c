// The alloc-failure finding: allocation failures (halMemAlloc failed) the plog counted on a device, whatever the baseline.
import { compareKeys } from '../../model/key-order.js';
import type { EntryOf } from '../basics.js';
import { DEVICE, defineFinding, type FindingContext } from './declaration.js';
import { compared, DEVICE_NAME } from './devices.js';

export const allocFailure = defineFinding({
  name: 'alloc-failure',
  statuses: [
    {
      status: 'alloc-failure',
      policy: 'fail',
      description:
        'Allocation failures (halMemAlloc failed) on a device. Default fail: a job that survived an out-of-memory by retrying is not healthy.',
    },
  ],
  config: {},
  writtenFor: [DEVICE],
  rejudge: { kept: 'the failure lines the plog counted', withVerdict: [] },
  assess: assessAllocFailures,
});

function assessAllocFailures({
  baseline,
  current,
  config,
}: FindingContext<'alloc-failure', object>): EntryOf<'alloc-failure'>[] {
  const policy = config.verdicts['alloc-failure'];
  if (policy === 'ignore') return [];
  const failures = current.meta?.allocFailures ?? {};
  const before = baseline.meta?.allocFailures ?? {};
  const entries: EntryOf<'alloc-failure'>[] = [];
  for (const [device, count] of Object.entries(failures)) {
    if (count <= 0) continue;
    const where = DEVICE_NAME.test(device) ? `on ${device}` : 'on a device the failure line does not name';
    // Where to look in the logs: the first failure line the parser kept for this device.
    const site = current.meta?.allocFailureSites?.[device]?.[0];
    const first = site === undefined ? '' : `; first at ${site.file}:${site.line}`;
    entries.push({
      ...compared('device', device, Object.hasOwn(before, device) ? (before[device] ?? null) : null, count),
      status: 'alloc-failure',
      severity: policy,
      rule: null,
      unit: 'count',
      limit: 0,
      note: `${count} allocation ${count === 1 ? 'failure' : 'failures'} (halMemAlloc failed) ${where}${first}: a job that survived an out-of-memory by retrying is not healthy, and one that died of it left only these lines`,
    });
  }
  return entries.sort((x, y) => compareKeys(x.key, y.key));
}

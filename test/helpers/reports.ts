// A gate report around given entries for renderer tests, its counts and result worked out as the gate does.
import type { Entry, GateReport } from '../../src/gate/types.js';

/** The report of `entries`: counts per status, and fail when any entry fails unless `result` is given. */
export function report(
  entries: Entry[],
  result: GateReport['result'] = entries.some((e) => e.severity === 'fail') ? 'fail' : 'pass',
): GateReport {
  const counts: GateReport['counts'] = {};
  for (const e of entries) counts[e.status] = (counts[e.status] ?? 0) + 1;
  return { result, counts, entries };
}

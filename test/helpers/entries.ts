// The gate's report entry for renderer tests: a passing module key unless the test says otherwise.
import type { Entry } from '../../src/gate/types.js';

/** An entry of `key`: kind module, 1000 bytes before and after, pass, with `fields` over that. */
export function entry(fields: Partial<Entry> & Pick<Entry, 'key'>): Entry {
  return {
    kind: 'module',
    baseline: 1000,
    current: 1000,
    delta: 0,
    percent: 0,
    status: 'pass',
    severity: 'ok',
    rule: null,
    ...fields,
  };
}

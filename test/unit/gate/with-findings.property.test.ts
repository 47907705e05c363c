// Each verdict followed by the findings of its kind and key, the rest after in the order they first came: the
// gate's lookup by kind then key gives the list that a lookup by one kind + key string gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withFindings } from '../../../src/gate/compare.js';
import type { Entry } from '../../../src/gate/types.js';

/** `n` tells apart entries that are otherwise alike, so that the order is what is compared. */
const entry = (kind: string, key: string, status: string, n: number): Entry =>
  ({
    kind,
    key,
    status,
    severity: 'ok',
    baseline: n,
    current: null,
    delta: null,
    percent: null,
    rule: null,
  }) as unknown as Entry;
const kindArb = fc.constantFrom('module', 'kernel', 'device');
const keyArb = fc.constantFrom('a', 'b', 'c', 'dev0', 'dev1', 'x\u0000y', 'x');

/** The list as one Map keyed by `${kind}\0${key}` gives it (the gate's earlier form). */
function reference(verdicts: Entry[], findings: Entry[]): Entry[] {
  if (findings.length === 0) return verdicts;
  const byKey = new Map<string, Entry[]>();
  for (const finding of findings) {
    const id = `${finding.kind}\u0000${finding.key}`;
    const list = byKey.get(id);
    if (list === undefined) byKey.set(id, [finding]);
    else list.push(finding);
  }
  const out: Entry[] = [];
  for (const verdict of verdicts) {
    out.push(verdict);
    const id = `${verdict.kind}\u0000${verdict.key}`;
    const list = byKey.get(id);
    if (list !== undefined) {
      out.push(...list);
      byKey.delete(id);
    }
  }
  for (const list of byKey.values()) out.push(...list);
  return out;
}

describe('withFindings', () => {
  it('places findings as one lookup by kind + key would, the rest in the order they first came', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(kindArb, keyArb), { maxLength: 20 }),
        fc.array(fc.tuple(kindArb, keyArb, fc.constantFrom('leak-suspect', 'imbalance', 'headroom')), {
          maxLength: 20,
        }),
        (v, f) => {
          const verdicts = v.map(([kind, key], i) => entry(kind, key, 'pass', i));
          const findings = f.map(([kind, key, status], i) => entry(kind, key, status, 100 + i));
          expect(withFindings([...verdicts], [...findings])).toEqual(reference(verdicts, findings));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

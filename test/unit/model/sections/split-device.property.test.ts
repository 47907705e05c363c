// splitDevice: its one-pass scan gives exactly what splitting on `/` and testing each segment with /^dev\d+$/ gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../../../src/gate/types.js';
import { devicesPerPattern, patternCountsOf } from '../../../../src/report/groups.js';
import { splitDevice } from '../../../../src/model/sections/keys.js';

/** The definition the scan replaced: the first segment matching /^dev\d+$/ becomes `*`. */
function reference(key: string): { device: string | null; group: string } {
  const segments = key.split('/');
  const i = segments.findIndex((s) => /^dev\d+$/.test(s));
  if (i === -1) return { device: null, group: key };
  const device = segments[i] as string;
  segments[i] = '*';
  return { device, group: segments.join('/') };
}

// Pieces that make near-misses likely: `dev` with and without digits, other digits (Arabic-Indic, full-width), newlines
// (where a careless `$` would match), empty segments, doubled and trailing slashes.
const piece = fc.constantFrom(
  'dev',
  'Dev',
  'de',
  'v',
  '0',
  '3',
  '12',
  '4096',
  '/',
  '//',
  '\n',
  '١',
  '３',
  'DEV_MEM',
  'APP',
  'x',
  '_',
  ' ',
  '',
);
const key = fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join(''));

describe('splitDevice', () => {
  it('agrees with split + /^dev\\d+$/ + join on any key', () => {
    fc.assert(
      fc.property(fc.oneof(key, fc.string()), (k) => {
        expect(splitDevice(k)).toEqual(reference(k));
      }),
      { numRuns: 5000 },
    );
  });

  it('splits the keys the sections use', () => {
    expect(splitDevice('DEV_MEM/dev3/APP')).toEqual({ device: 'dev3', group: 'DEV_MEM/*/APP' });
    expect(splitDevice('dev12/aclnnOp_7')).toEqual({ device: 'dev12', group: '*/aclnnOp_7' });
    expect(splitDevice('x/dev/dev0')).toEqual({ device: 'dev0', group: 'x/dev/*' });
    expect(splitDevice('device3/dev4x/a')).toEqual({ device: null, group: 'device3/dev4x/a' });
    expect(splitDevice('dev1\n/a')).toEqual({ device: null, group: 'dev1\n/a' });
    expect(splitDevice('')).toEqual({ device: null, group: '' });
  });
});

describe('devicesPerPattern and patternCountsOf', () => {
  /** The definition: per (kind, splitDevice group), the distinct splitDevice devices and the entries. */
  function referenceCounts(
    entries: readonly Entry[],
  ): Map<string, Map<string, { devices: Set<string>; entries: number }>> {
    const out = new Map<string, Map<string, { devices: Set<string>; entries: number }>>();
    for (const e of entries) {
      const { device, group } = splitDevice(e.key);
      if (device === null) continue;
      const byPattern = out.get(e.kind) ?? new Map<string, { devices: Set<string>; entries: number }>();
      out.set(e.kind, byPattern);
      const seen = byPattern.get(group) ?? { devices: new Set<string>(), entries: 0 };
      byPattern.set(group, seen);
      seen.devices.add(device);
      seen.entries++;
    }
    return out;
  }
  const entry = (kind: string, key: string): Entry => ({
    kind,
    key,
    baseline: 1,
    current: 1,
    delta: 0,
    percent: 0,
    status: 'pass',
    severity: 'ok',
    rule: null,
  });
  // Device numbers that must stay apart (dev7, dev07, dev007) and ones past 2^53 that a double would merge.
  const device = fc.constantFrom(
    'dev0',
    'dev7',
    'dev07',
    'dev007',
    'dev10',
    'dev9007199254740993',
    'dev9007199254740992',
    'dev99999999999999999999',
  );
  const keyOf = fc.oneof(
    fc
      .tuple(fc.constantFrom('DEV_MEM', 'HOST_MEM', 'x/dev'), device, fc.constantFrom('APP', 'HCCL', ''))
      .map((p) => p.join('/')),
    fc.tuple(device, fc.constantFrom('aclnnOp_1', 'matmul')).map((p) => p.join('/')),
    key,
  );
  const entries = fc.array(
    fc.tuple(fc.constantFrom('module', 'kernel'), keyOf).map(([kind, k]) => entry(kind, k)),
    { maxLength: 40 },
  );

  it('counts exactly the distinct devices and the entries of each (kind, pattern), and gives each entry its own', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const expected = referenceCounts(list);
        const counts = devicesPerPattern(list);
        for (const kind of ['module', 'kernel', 'device'])
          expect(counts.get(kind) === undefined).toBe(!expected.has(kind));
        for (const [kind, byPattern] of expected) {
          for (const [pattern, seen] of byPattern)
            expect(counts.get(kind)?.get(pattern)).toMatchObject({ devices: seen.devices.size, entries: seen.entries });
          expect(counts.get(kind)?.size).toBe(byPattern.size);
        }
        const perEntry = patternCountsOf(list);
        list.forEach((e, i) => {
          const { device: d, group } = splitDevice(e.key);
          expect(perEntry[i]).toBe(d === null ? null : counts.get(e.kind)?.get(group));
        });
      }),
      { numRuns: 2000 },
    );
  });
});

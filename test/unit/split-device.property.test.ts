// splitDevice: its one-pass scan gives exactly what splitting on `/` and testing each segment with /^dev\d+$/ gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitDevice } from '../../src/sections/keys.js';

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
const piece = fc.constantFrom('dev', 'Dev', 'de', 'v', '0', '3', '12', '4096', '/', '//', '\n', '١', '３', 'DEV_MEM', 'APP', 'x', '_', ' ', '');
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

// Keys grouped by device-free pattern without a string per key (KeyGroups, what a history point and the trends group
// 100,000 keys with) agree with grouping by splitDevice's pattern text, the trends' subjects order as strings do, and the
// trends of one history share their series across configs only while the history is unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyHistory } from '../../../src/history/format.js';
import { groupsOf, KeyGroups } from '../../../src/history/groups.js';
import { pointValues } from '../../../src/history/point.js';
import { appendPoint } from '../../../src/history/store.js';
import { trendsOf } from '../../../src/history/trends.js';
import { splitDevice } from '../../../src/model/sections/index.js';

/** Keys as sections name them, and odd ones: `*` in a name, the device segment anywhere, a key that is only a device. */
const segment = fc.oneof(
  fc.constantFrom('DEV_MEM', 'HBM', 'APP', 'HCCL', 'aclnnOp_1', '*', 'a*b', 'dev', 'devx', 'dev01', ''),
  fc.integer({ min: 0, max: 9 }).map((d) => `dev${d}`),
);
const keys = fc.uniqueArray(
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')),
  { maxLength: 80 },
);

/** The groups as the pattern strings make them: pattern → member positions, in key order. */
function byPatternText(list: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  list.forEach((key, i) => {
    const { device, group } = splitDevice(key);
    if (device === null) return;
    const members = out.get(group);
    if (members === undefined) out.set(group, [i]);
    else members.push(i);
  });
  return out;
}

describe('KeyGroups', () => {
  it('groups keys as their pattern strings do, finds each group by its pattern, and is the same grown key by key (property)', () => {
    fc.assert(
      fc.property(keys, fc.integer({ min: 0, max: 80 }), (list, cut) => {
        const expected = byPatternText(list);
        const whole = new KeyGroups(list);
        // Grown: the first `cut` keys, then the rest (a history's key table between appends).
        const growing: string[] = list.slice(0, cut);
        const grown = new KeyGroups(growing);
        growing.push(...list.slice(cut));
        grown.extend();
        for (const groups of [whole, grown]) {
          expect(groups.groups).toBe(expected.size);
          const seen = new Map<string, number[]>();
          for (let g = 0; g < groups.groups; g++) {
            seen.set(groups.pattern(g), groups.memberList(g));
            expect(groups.find(groups.pattern(g))).toBe(g);
          }
          expect(seen).toEqual(expected);
          list.forEach((key, i) => expect(groups.groupOf[i] === -1).toBe(splitDevice(key).device === null));
        }
        expect(whole.find('no*such/pattern')).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("compares a group's subject with a string as `<` orders the subject's text (`dev*` for a key that is only a device) (property)", () => {
    fc.assert(
      fc.property(keys, fc.array(fc.string({ maxLength: 12 }), { maxLength: 10 }), (list, others) => {
        const groups = new KeyGroups(list);
        const texts = [...others, ...Array.from({ length: groups.groups }, (_, g) => groups.pattern(g))];
        for (let g = 0; g < groups.groups; g++) {
          const subject = groups.pattern(g) === '*' ? 'dev*' : groups.pattern(g);
          for (const text of texts)
            expect(Math.sign(groups.compareSubject(g, text))).toBe(subject < text ? -1 : subject > text ? 1 : 0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is kept per key list while it only grows, and made again when the list lost keys', () => {
    const list = ['DEV_MEM/dev0/APP', 'DEV_MEM/dev1/APP'];
    const first = groupsOf(list);
    list.push('DEV_MEM/dev0/HCCL');
    expect(groupsOf(list)).toBe(first);
    expect(first.groups).toBe(2);
    list.length = 1;
    const again = groupsOf(list);
    expect(again).not.toBe(first);
    expect(again.memberList(0)).toEqual([0]);
  });
});

describe('trends of one history', () => {
  const run = (app: number): Parameters<typeof pointValues>[0] => ({
    sections: {
      modules: {
        'DEV_MEM/dev0/APP': { peak: app, current: app, allocs: 1, frees: 1 },
        'DEV_MEM/dev1/APP': { peak: app, current: app, allocs: 1, frees: 1 },
      },
    },
  });
  const meta = (n: number) => ({
    commit: n.toString(16).padStart(40, 'a'),
    time: '2026-01-01T00:00:00Z',
    baseline: null,
    environment: {},
  });

  it('share their series across configs while the history is unchanged, and read the new point once one was recorded', () => {
    const history = emptyHistory({ branch: 'main' });
    for (let n = 1; n <= 6; n++)
      appendPoint(history, meta(n), pointValues(run(n <= 3 ? 100 * 2 ** 20 : 400 * 2 ** 20)));
    const read = trendsOf(history);
    expect(read.noise('module', 'DEV_MEM/dev0/APP', 20)).toEqual({ spread: 300 * 2 ** 20, points: 6 });
    const strict = read.withConfig({ sections: { modules: { tolerance: { percent: 1 }, rules: [] } } });
    expect(strict.forPattern('module', 'DEV_MEM/*/APP')?.values).toBe(
      read.forPattern('module', 'DEV_MEM/*/APP')?.values,
    );
    expect(strict.forPattern('module', 'DEV_MEM/*/APP')?.step).toMatchObject({
      before: 100 * 2 ** 20,
      after: 400 * 2 ** 20,
      runsAgo: 2,
    });

    appendPoint(history, meta(7), pointValues(run(500 * 2 ** 20)));
    const after = read.withConfig({ sections: {} });
    expect(after.forPattern('module', 'DEV_MEM/*/APP')?.values).toHaveLength(7);
    expect(after.forPattern('module', 'DEV_MEM/*/APP')?.recent.at(-1)).toBe(500 * 2 ** 20);
  });
});

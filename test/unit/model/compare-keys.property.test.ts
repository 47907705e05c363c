// compareKeys: its fast path for printable ASCII gives exactly the numeric collator's order, on any string.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { failureText } from '../../../src/common/errors.js';
import { ASCII_PRIMARY_RANKS, checkedCollator, compareKeys, primaryRanks } from '../../../src/model/key-order.js';

const collator = new Intl.Collator('en', { numeric: true });
const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
// Characters the fast path must hand to the collator: accents (precomposed and combining), ß, dotless i, full-width and
// Arabic-Indic digits, control characters (ignorable), a tab, an emoji (a surrogate pair), a soft hyphen.
const unusual = [
  'é',
  'e\u0301',
  '\u0301',
  'ß',
  'ı',
  'İ',
  '１',
  '٣',
  '\u0000',
  '\u0001',
  '\t',
  '😀',
  '\u00ad',
  'Å',
  'æ',
];
// Weighted to digits (numbers of several lengths, leading zeros), letters of both cases and the separators keys use.
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('0', '00', '1', '01', '2', '9', '10', '12', '007', '99', '100', '4096') },
  { weight: 4, arbitrary: fc.constantFrom('a', 'A', 'b', 'B', 'dev', 'Dev', 'DEV', 'z', 'Z', 'app', 'APP', 'HCCL') },
  { weight: 3, arbitrary: fc.constantFrom('/', '_', '-', '.', ':', ' ', '*', '#', '~', '(', ')') },
  { weight: 2, arbitrary: fc.constantFrom(...printable) },
  { weight: 1, arbitrary: fc.constantFrom(...unusual) },
);
const text = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
// Two keys sharing a prefix, so that the comparison is decided late (and often in a number or by case alone).
const pair = fc.tuple(text, text, text).map(([prefix, a, b]) => [prefix + a, prefix + b] as const);

describe('compareKeys', () => {
  it("writes out exactly the primary ranks this Node's ICU gives printable ASCII", () => {
    const derived = primaryRanks();
    expect(ASCII_PRIMARY_RANKS).toHaveLength(0x80);
    expect(Array.from(ASCII_PRIMARY_RANKS)).toEqual(Array.from(derived));
    // Letters share a rank with their capitals, and every printable character has a rank.
    expect(ASCII_PRIMARY_RANKS[0x61]).toBe(ASCII_PRIMARY_RANKS[0x41]);
    for (let c = 0x20; c <= 0x7e; c++) expect(ASCII_PRIMARY_RANKS[c]).toBeGreaterThanOrEqual(0);
  });

  it('builds its collator only after checking the table against ICU, and stops with one line when they disagree', () => {
    expect(checkedCollator().compare('dev2', 'dev10')).toBe(-1);
    const wrong = Int16Array.from(ASCII_PRIMARY_RANKS);
    wrong[0x5f] = (wrong[0x2d] as number) + 100; // `_` ranked after `-` by a made-up table
    let error: unknown;
    try {
      checkedCollator(wrong);
    } catch (e) {
      error = e;
    }
    expect(failureText(error, false)).toMatch(
      /^internal error: this Node\.js's ICU \S+ orders ASCII characters differently from ascend-memory-gate's built-in table; run the gate with the Node\.js version its Action declares, and report this$/,
    );
  });

  it("orders kernel names that differ in case, or in a number's leading zeros, and then in a letter, without a collator", async () => {
    vi.resetModules();
    const Original = Intl.Collator;
    const made = vi.spyOn(Intl, 'Collator').mockImplementation(function (
      this: unknown,
      ...args: ConstructorParameters<typeof Intl.Collator>
    ) {
      return new Original(...args);
    } as unknown as typeof Intl.Collator);
    try {
      const fresh = await import('../../../src/model/key-order.js');
      const names = [
        'dev0/aclnnForeachAddList',
        'dev0/Add_735706_5',
        'dev0/Transpose_b3a31f_12',
        'dev0/torch._ops.aten.t.default',
        'dev0/MatMul_1',
        'dev0/matmul_2',
        // hash suffixes: 7d… and 07f… are the same number 7 to the collator, then d before f
        'dev0/FlashAttentionScore_7d7728_5',
        'dev0/FlashAttentionScore_07f11e_4',
        'dev0/SoftmaxV2_08c337_0',
        'dev0/SoftmaxV2_8ad44c_14',
      ];
      const sorted = [...names].sort(fresh.compareKeys);
      expect(sorted).toEqual([...names].sort(collator.compare));
      expect(made).not.toHaveBeenCalled();
      // A case-only difference is still the collator's to decide.
      expect(fresh.compareKeys('dev0/Add', 'dev0/add')).toBe(collator.compare('dev0/Add', 'dev0/add'));
      expect(made).toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });

  it('has the sign of the numeric collator on pairs with a shared prefix', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect([a, b, sign(compareKeys(a, b))]).toEqual([a, b, sign(collator.compare(a, b))]);
        expect([b, a, sign(compareKeys(b, a))]).toEqual([b, a, sign(collator.compare(b, a))]);
      }),
      { numRuns: 20_000 },
    );
  });

  it('has the sign of the numeric collator on unrelated strings, including arbitrary unicode', () => {
    fc.assert(
      fc.property(
        fc.oneof(text, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })),
        fc.oneof(text, fc.string()),
        (a, b) => {
          expect(sign(compareKeys(a, b))).toBe(sign(collator.compare(a, b)));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('sorts lists exactly as the collator does (ties keep their order)', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 40 }), (keys) => {
        expect([...keys].sort(compareKeys)).toEqual([...keys].sort(collator.compare));
      }),
      { numRuns: 2_000 },
    );
  });

  it('orders numbers by value, case and leading zeros as the collator does', () => {
    const keys = [
      'dev10',
      'dev2',
      'Dev2',
      'dev02',
      'dev1/x',
      'dev1',
      'dev',
      'dev_1',
      'dev-1',
      'DEV1a',
      'dev1A',
      'dev12b',
      'dev9z',
    ];
    expect([...keys].sort(compareKeys)).toEqual([...keys].sort(collator.compare));
    expect(compareKeys('DEV_MEM/dev2/APP', 'DEV_MEM/dev10/APP')).toBe(-1);
    expect(compareKeys('dev1', 'dev01')).toBe(0);
    expect(compareKeys('a', 'A')).toBe(-1);
    expect(compareKeys('x/1', 'x_1')).toBe(1);
    // A number that goes on in full-width digits is one number to the collator: 10１ (101) after 99.
    expect(compareKeys('10１', '99')).toBe(sign(collator.compare('10１', '99')));
    expect(compareKeys('10１', '99')).toBe(1);
  });
});

// Byte figures stay exact integers whatever the source (issue 25, items 4 and 5): a size of 2^53 or more is refused
// or skipped with a warning naming file:line, a sum that would leave the exact range names the line that took it out,
// and no baseline is ever written in a form the next `check` would refuse.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMSCOPE_HEADER } from '../../generators/memscope-dump.js';
import { runCli } from '../../../src/cli/commands.js';
import { serializeBaseline, writeBaselineAtomic, type Baseline } from '../../../src/gate/baseline.js';
import { exactSum, readExactInteger } from '../../../src/model/units.js';
import type { Snapshot } from '../../../src/model/snapshot.js';
import { thrown } from '../../helpers/thrown.js';

const dir = mkdtempSync(join(tmpdir(), 'exact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    width: () => 200,
    color: () => false,
  });
  return { code, out, err };
}

let files = 0;
function file(name: string, text: string): string {
  const path = join(dir, `${++files}-${name}`);
  writeFileSync(path, text);
  return path;
}

const malloc = (id: number, ts: number, ptr: string, size: string): string =>
  `${id},MALLOC,PTA,N/A,1764753084425${String(ts).padStart(6, '0')},7,7,0,${ptr},"{addr:${ptr},size:${size}}",,`;
const dump = (...rows: string[]): string => `${[MEMSCOPE_HEADER, ...rows].join('\n')}\n`;

describe('the shared exact-integer path', () => {
  it('reads integers exactly up to 2^53 - 1 and says when one is past it', () => {
    expect(readExactInteger('9007199254740991')).toBe(9_007_199_254_740_991);
    expect(readExactInteger('-9007199254740991')).toBe(-9_007_199_254_740_991);
    expect(readExactInteger('9007199254740992')).toBe('too-large');
    expect(readExactInteger('9007199254740993')).toBe('too-large');
    expect(readExactInteger('18446744073709551615')).toBe('too-large');
    expect(readExactInteger('0000000000000000000000012')).toBe(12);
    expect(readExactInteger('12.5')).toBeNull();
    expect(readExactInteger('')).toBeNull();
  });

  it('sums only while the sum is exact', () => {
    expect(exactSum(9_007_199_254_740_990, 1)).toBe(9_007_199_254_740_991);
    expect(exactSum(9_007_199_254_740_991, 1)).toBeNull();
    expect(exactSum(-9_007_199_254_740_991, -1)).toBeNull();
  });
});

describe('msMemScope dumps', () => {
  it('skips a MALLOC of 2^53 + 1 or 2^64 - 1 bytes with a warning naming file:line (was rounded, or a non-integer)', async () => {
    const path = file(
      'memscope_dump_big.csv',
      dump(
        malloc(1, 100, '0x10', '9007199254740993'),
        malloc(2, 200, '0x20', '18446744073709551615'),
        malloc(3, 300, '0x30', '512'),
      ),
    );
    const r = await cli('parse', '--dump', path, '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      `warning: ${path}:2: a MALLOC whose size 9007199254740993 is 2^53 bytes or more: not a size that can be compared exactly (skipped)\n` +
        `warning: ${path}:3: a MALLOC whose size 18446744073709551615 is 2^53 bytes or more: not a size that can be compared exactly (skipped)\n`,
    );
    const s = JSON.parse(r.out) as Snapshot;
    expect(s.sections.unfreed?.['dev0/PTA/PTA']).toMatchObject({ bytes: 512, blocks: 1 });
  });

  it('refuses a sum that would leave the exact range, naming the line that would take it out; baseline --out writes nothing', async () => {
    const half = String(2 ** 52);
    const path = file('memscope_dump_sum.csv', dump(malloc(1, 100, '0x10', half), malloc(2, 200, '0x20', half)));
    const out = join(dir, 'never.json');
    const r = await cli('baseline', '--out', out, '--dump', path);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(`^error: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: .*would pass 2\\^53 - 1 bytes`),
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('profiler CSVs', () => {
  const OPERATOR =
    'Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type';
  const row = (name: string, kb: string): string => `${name},${kb},1736405443756384.100\t,,,,,1.0,2.0,1.0,,,,1,NPU:0`;

  it('an operator_memory total above 2^53 - 1 is an error naming the line, and no baseline is written (was kept, and refused by the next check)', async () => {
    // 2^43 KiB = 2^53 bytes: each row is half of it.
    const kb = String(2 ** 42);
    const path = file('operator_memory.csv', `${OPERATOR}\n${row('aten::empty', kb)}\n${row('aten::empty', kb)}\n`);
    const out = join(dir, 'profiler-baseline.json');
    const r = await cli('baseline', '--out', out, '--profiler', path);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `error: ${path}:3: the total of aten::empty would pass 2^53 - 1 bytes: no exact figure (is the file damaged?)\n`,
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('one validation before any baseline is written', () => {
  const invalid: Baseline = {
    version: 2,
    sections: { modules: { 'DEV_MEM/dev0/APP': { peak: 2 ** 53, current: 0, allocs: null, frees: null } } },
  };

  it('serializeBaseline refuses a baseline check would refuse, naming the field', () => {
    expect(thrown(() => serializeBaseline(invalid)).message).toBe(
      'refusing to write a baseline the next check would refuse: (baseline to write): /sections/modules/DEV_MEM~1dev0~1APP/peak: ' +
        'must be a non-negative integer number of bytes (at most 2^53 - 1), got 9007199254740992 (at sections.modules["DEV_MEM/dev0/APP"].peak)',
    );
  });

  it('writeBaselineAtomic leaves no file behind', async () => {
    const out = join(dir, 'refused.json');
    await expect(writeBaselineAtomic(out, invalid)).rejects.toThrow(/^refusing to write a baseline/);
    expect(existsSync(out)).toBe(false);
  });
});

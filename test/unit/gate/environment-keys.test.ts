// Every --env key is an ordinary key (issue 25, item 8): names that objects carry from their prototype
// (`constructor`, `toString`, `__proto__`, …) are recorded, compared and reported like any other, in node snapshots too.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';
import { compareEnvironments, runValue } from '../../../src/gate/environment.js';
import { parseEnvironmentPairs } from '../../../src/sources/node-environment.js';

const tmp = mkdtempSync(join(tmpdir(), 'env-keys-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RECORD = `[INFO] DRV(77,python3):2024-07-08-22:27:45.354.900 [ascend][curpid: 77, 77][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=APP; module_id=33; current_alloced_size=100; alloced_peak_size=100; alloc_cnt=3; free_cnt=1)\n`;

async function cli(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const code = await runCli(argv, {
      out: (t) => (out += t),
      err: (t) => (err += t),
      width: () => 200,
      color: () => false,
    });
    return { code, out, err };
  } finally {
    process.chdir(before);
  }
}

/** Names every plain object inherits: each must read as "not set" until a run sets it. */
const INHERITED = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__proto__'];

describe('--env keys that objects inherit', () => {
  it('records __proto__=x and constructor=a as items of their own', () => {
    const items = parseEnvironmentPairs(['__proto__=x', 'constructor=a'], '--env');
    expect(Object.keys(items)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(items, '__proto__')?.value).toBe('x');
  });

  it('reads an item no node set as unset, whatever its name', () => {
    for (const item of INHERITED) expect(runValue({ n: { cann: '8' } }, item)).toBeNull();
  });

  it('compares inherited names as ordinary items: one change each, nothing for a side that never set it', () => {
    const baseline = { n: JSON.parse('{"constructor":"a","__proto__":"x","toString":"t"}') as Record<string, string> };
    const current = { n: JSON.parse('{"constructor":"b","__proto__":"y","valueOf":"v"}') as Record<string, string> };
    expect(compareEnvironments(baseline, current).changes).toEqual([
      { item: '__proto__', baseline: 'x', current: 'y' },
      { item: 'constructor', baseline: 'a', current: 'b' },
      { item: 'toString', baseline: 't', current: null },
      { item: 'valueOf', baseline: null, current: 'v' },
    ]);
  });

  it('check reports constructor: a -> b and __proto__: x -> y instead of crashing; the baseline and a node snapshot keep them', async () => {
    const dir = join(tmp, 'check');
    mkdirSync(join(dir, 'plog'), { recursive: true });
    writeFileSync(join(dir, 'plog', 'plog-1.log'), RECORD);
    const made = await cli(
      dir,
      'baseline',
      '--out',
      'baseline.json',
      '--plog',
      'plog',
      '--env',
      'constructor=a',
      '__proto__=x',
      'toString=t',
    );
    expect(made.code, made.err).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')) as {
      meta: { nodes: Record<string, { environment: Record<string, string> }> };
    };
    expect(Object.entries(Object.values(written.meta.nodes)[0]!.environment)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'a'],
      ['toString', 't'],
    ]);

    const checked = await cli(
      dir,
      'check',
      '--baseline',
      'baseline.json',
      '--plog',
      'plog',
      '--env',
      'constructor=b',
      '__proto__=y',
      'toString=t',
    );
    expect(checked.err).toBe('');
    expect(checked.code).toBe(0);
    expect(checked.out.split('\n').slice(2, 5)).toEqual([
      'WARN: Environment changed since the baseline',
      '  __proto__: x -> y',
      '  constructor: a -> b',
    ]);

    const snap = await cli(
      dir,
      'snapshot',
      '--out',
      'n.memory-snapshot.json',
      '--plog',
      'plog',
      '--node',
      'n',
      '--env',
      'constructor=c',
      '__proto__=z',
    );
    expect(snap.code, snap.err).toBe(0);
    const fromSnapshot = await cli(dir, 'check', '--baseline', 'baseline.json', '--snapshot', 'n.memory-snapshot.json');
    expect(fromSnapshot.err).toBe('');
    expect(fromSnapshot.out.split('\n').slice(2, 6)).toEqual([
      'WARN: Environment changed since the baseline',
      '  __proto__: x -> z',
      '  constructor: a -> c',
      '  toString: t -> (unset)',
    ]);
  });
});

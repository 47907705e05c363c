// The command line's quick guess whether its inputs are large enough to start the parse worker before anything else.
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inputPathsOf, mayBeLarge, PARALLEL_MIN_BYTES } from '../../../src/parsers/worker-start.js';

const tmp = mkdtempSync(join(tmpdir(), 'worker-start-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A sparse file of `bytes` bytes: its size counts, its blocks are never written. */
function sized(path: string, bytes: number): string {
  writeFileSync(path, '');
  truncateSync(path, bytes);
  return path;
}

describe('mayBeLarge', () => {
  it('adds up files and folders, nested, until PARALLEL_MIN_BYTES', () => {
    const root = join(tmp, 'large');
    mkdirSync(join(root, 'rank_0', 'deep'), { recursive: true });
    mkdirSync(join(root, 'rank_1'));
    sized(join(root, 'rank_0', 'deep', 'plog-1.log'), PARALLEL_MIN_BYTES / 2);
    sized(join(root, 'rank_1', 'plog-2.log'), PARALLEL_MIN_BYTES / 2);
    expect(mayBeLarge([root])).toBe(true);
    expect(mayBeLarge([join(root, 'rank_1')])).toBe(false);
    expect(mayBeLarge([join(root, 'rank_0'), join(root, 'rank_1', 'plog-2.log')])).toBe(true);
  });

  it('says no for small inputs, and counts nothing for values that name no file (flags, patterns, missing paths)', () => {
    const small = join(tmp, 'small');
    mkdirSync(small);
    sized(join(small, 'plog-1.log'), 100_000);
    expect(mayBeLarge([small, '--json', 'plog/**/*.log', join(tmp, 'missing'), '5%'])).toBe(false);
    expect(mayBeLarge([])).toBe(false);
  });

  it('says no after a bounded look at a folder of many small files (collectSnapshot decides on their real sizes)', () => {
    const many = join(tmp, 'many');
    mkdirSync(many);
    for (let i = 0; i < 2100; i++) writeFileSync(join(many, `plog-${i}.log`), '');
    expect(mayBeLarge([many])).toBe(false);
    // A large file looked at before the bound is reached still says yes (the last value is looked at first).
    const big = sized(join(tmp, 'plog-big.log'), 40 * 1024 * 1024);
    expect(mayBeLarge([many, big])).toBe(true);
  });

  it('looks only at the values that may name inputs, not at the baseline or the files written', () => {
    expect(
      inputPathsOf([
        '--baseline',
        'b.json',
        '--snapshot',
        'run.memory-snapshot.json',
        '--report=r.json',
        '--plog=logs',
        'extra',
        '--json',
      ]),
    ).toEqual(['run.memory-snapshot.json', 'logs', 'extra']);
    expect(
      inputPathsOf([
        '--out',
        'node.memory-snapshot.json',
        '--plog',
        'plog',
        '--config=c.json',
        '--html',
        'r.html',
        '--markdown',
        'r.md',
      ]),
    ).toEqual(['plog']);
  });
});

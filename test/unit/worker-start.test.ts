// The command line's quick guess whether its inputs are large enough to start the parse worker before anything else.
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mayBeLarge, PARALLEL_MIN_BYTES } from '../../src/parsers/worker-start.js';

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

  it('says yes without knowing after a bounded look at a folder of many files', () => {
    const many = join(tmp, 'many');
    mkdirSync(many);
    for (let i = 0; i < 2100; i++) writeFileSync(join(many, `plog-${i}.log`), '');
    expect(mayBeLarge([many])).toBe(true);
  });
});

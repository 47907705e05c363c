// Extracting an artifact zip: only plain relative names are written, and an archive that expands too far is refused.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractZipSafely, unsafeEntryReason } from '../../src/sources/unzip.js';
import { buildZip } from '../e2e/zip.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempZip(entries: Parameters<typeof buildZip>[0]): { zip: string; out: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'amg-unzip-'));
  dirs.push(root);
  const zip = join(root, 'a.zip');
  writeFileSync(zip, buildZip(entries));
  return { zip, out: join(root, 'out'), root };
}

describe('unsafeEntryReason', () => {
  it.each([
    ['../evil.log', "'..' segment"],
    ['rank_0/../../evil.log', "'..' segment"],
    ['/etc/passwd', 'absolute path'],
    ['C:/x.log', 'absolute path'],
    ['..\\evil.log', 'backslash in name'],
    ['', 'empty name'],
  ])('refuses %j (%s)', (name, reason) => {
    expect(unsafeEntryReason(name)).toBe(reason);
  });

  it('accepts a plain nested name, dots inside names included', () => {
    expect(unsafeEntryReason('rank_0/run/plog/plog-1_2025..log')).toBeNull();
  });
});

describe('extractZipSafely', () => {
  it('writes the plain entries and lists the escaping ones, writing nothing outside', async () => {
    const { zip, out, root } = tempZip([
      { name: 'rank_0/plog-1_2025.log', data: 'ok' },
      { name: '../evil.log', data: 'x' },
      { name: '/abs-evil.log', data: 'x' },
    ]);
    const result = await extractZipSafely(zip, out);
    expect(result).toEqual({ files: 1, refused: ['../evil.log', '/abs-evil.log'], collided: [] });
    expect(readFileSync(join(out, 'rank_0', 'plog-1_2025.log'), 'utf8')).toBe('ok');
    expect(readdirSync(root).sort()).toEqual(['a.zip', 'out']);
    expect(existsSync('/abs-evil.log')).toBe(false);
  });

  it('refuses an archive that expands past the limit before writing the entry that crosses it', async () => {
    const big = 'A'.repeat(4096);
    const { zip, out } = tempZip([
      { name: 'report.json', data: big },
      { name: 'bomb.bin', data: big.repeat(64) },
    ]);
    await expect(extractZipSafely(zip, out, 10_000)).rejects.toThrow('a.zip expands to more than 10000 bytes: refused');
    expect(existsSync(join(out, 'bomb.bin'))).toBe(false);
  });
});

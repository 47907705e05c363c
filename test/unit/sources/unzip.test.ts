// Extracting an artifact zip: only plain relative names are written, and an archive that expands too far is refused.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveRefused, extractZipSafely, unsafeEntryReason } from '../../../src/sources/unzip.js';
import { buildZip } from '../../e2e/zip.js';
import { MiB } from '../../helpers/story.js';

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
    const refusal = extractZipSafely(zip, out, { maxBytes: 10_000 });
    await expect(refusal).rejects.toThrow(ArchiveRefused);
    await expect(refusal).rejects.toThrow('refused: its entries declare more than 9.8 KiB, the most allowed');
    expect(existsSync(join(out, 'bomb.bin'))).toBe(false);
  });

  it('refuses an entry once it inflates past 100x its compressed size, before writing the rest, and removes what it wrote', async () => {
    // 48 MiB of one byte deflates ~1,000x: the guard lets 100x of the compressed size through, no more.
    const { zip, out } = tempZip([
      { name: 'ok.json', data: '{"result":"pass"}' },
      { name: 'report.json', data: Buffer.alloc(48 * MiB, 0x20) },
    ]);
    const written: number[] = [];
    const watcher = setInterval(() => {
      const file = join(out, 'report.json');
      if (existsSync(file)) written.push(statSync(file).size);
    }, 1);
    const refusal = extractZipSafely(zip, out, { maxInflation: 100 });
    await expect(refusal).rejects.toThrow(
      /^refused: its entry 'report\.json' inflates to more than 100 times its compressed size \(\d+\.\d KiB\), stopped at \d+\.\d MiB$/,
    );
    clearInterval(watcher);
    const reason = await refusal.then(
      () => '',
      (error: ArchiveRefused) => error.reason,
    );
    const limit = Number(/stopped at (\d+\.\d) MiB/.exec(reason)![1]) * MiB;
    expect(limit).toBeLessThan(6 * MiB);
    expect(Math.max(0, ...written)).toBeLessThanOrEqual(limit + 0.05 * MiB);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    expect(readFileSync(join(out, 'ok.json'), 'utf8')).toBe('{"result":"pass"}');
  });

  it('lets a small entry inflate as far as it likes within its first MiB', async () => {
    const { zip, out } = tempZip([{ name: 'report.json', data: Buffer.alloc(1024 * 1024, 0x20) }]);
    await expect(extractZipSafely(zip, out, { maxInflation: 100 })).resolves.toEqual({
      files: 1,
      refused: [],
      collided: [],
    });
    expect(statSync(join(out, 'report.json')).size).toBe(1024 * 1024);
  });

  it.each<[string, Buffer, string]>([
    [
      'not a zip',
      Buffer.from('PK\u0003\u0004 not a zip archive'),
      'refused: it is not a zip archive, or it was cut short',
    ],
    [
      'a header that lies about the size',
      declaring(buildZip([{ name: 'r.json', data: 'x'.repeat(4096) }]), 100),
      "refused: its entry 'r.json' holds more bytes than its header declares (100)",
    ],
  ])('%s is refused, saying why', async (_story, bytes, message) => {
    const root = mkdtempSync(join(tmpdir(), 'amg-unzip-'));
    dirs.push(root);
    writeFileSync(join(root, 'a.zip'), bytes);
    await expect(extractZipSafely(join(root, 'a.zip'), join(root, 'out'))).rejects.toThrow(
      new ArchiveRefused(message.replace(/^refused: /, '')),
    );
  });
});

/** The zip with its first central-directory entry declaring `size` uncompressed bytes. */
function declaring(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  out.writeUInt32LE(size, out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
  return out;
}

// readWholeText (src/common/whole-text.ts) gives exactly what readFileSync(fd, 'utf8') gives, for large files read its
// own way (ASCII as latin1, anything else as UTF-8) and small ones left to readFileSync.
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWholeText } from '../../../src/common/whole-text.js';
import { MiB } from '../../helpers/story.js';

const dir = mkdtempSync(join(tmpdir(), 'amg-whole-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ~2 MiB of JSON-like ASCII lines, then `tail`. */
const large = (tail: Buffer): Buffer =>
  Buffer.concat([Buffer.from('      "DEV_MEM/dev0/APP": 12345,\n'.repeat((2 * MiB) / 32)), tail]);

function read(name: string, bytes: Buffer, size?: number): { ours: string; reference: string } {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    return { ours: readWholeText(fd, size ?? fstatSync(fd).size), reference: readFileSync(file, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

describe('readWholeText', () => {
  const cases: [string, Buffer][] = [
    ['ascii', large(Buffer.from('}\n'))],
    ['utf-8 names', large(Buffer.from('"dev0/矩阵乘法_ø": 1}\n'))],
    ['a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), large(Buffer.from('}'))])],
    ['invalid bytes', large(Buffer.from([0x22, 0xff, 0xfe, 0xc3, 0x22, 0x0a]))],
    ['a truncated character at the end', large(Buffer.from([0xe7, 0x9f]))],
    ['a small file', Buffer.from('{"version": 2, "name": "é"}\n')],
    ['an empty file', Buffer.alloc(0)],
  ];
  for (const [what, bytes] of cases) {
    it(`reads a file with ${what} as readFileSync does`, () => {
      const { ours, reference } = read(what.replace(/\W/g, '-'), bytes);
      expect(ours.length).toBe(reference.length);
      expect(ours === reference).toBe(true);
    });
  }

  it('reads a file to its end when it is larger than the size it was given (it grew after fstat)', () => {
    const bytes = large(Buffer.from('"after": "ü"}\n'));
    const { ours, reference } = read('grown', bytes, MiB + 7);
    expect(ours === reference).toBe(true);
    expect(ours.endsWith('"after": "ü"}\n')).toBe(true);
  });
});

// Bytes that are not UTF-8 stay apart and visible: the escaping decoder, visibleName, and memory_compare names that use them.
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeEscaped, EscapedUtf8Decoder, visibleName } from '../../../src/parsers/escaped-utf8.js';
import { parseMemoryCompareFile, parseMemoryCompareText } from '../../../src/parsers/memory-compare.js';
import { SnapshotBuilder } from '../../../src/model/snapshot.js';

/** The inverse of visibleName ∘ decodeEscaped, written from the documented rule: `\xHH` a byte, `\\` a backslash, other `\` itself. */
function bytesOf(visible: string): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < visible.length;) {
    if (visible[i] === '\\' && visible[i + 1] === '\\') {
      parts.push(Buffer.from('\\'));
      i += 2;
    } else if (visible[i] === '\\' && /^[xX][0-9A-Fa-f]{2}$/.test(visible.slice(i + 1, i + 4))) {
      parts.push(Buffer.from([parseInt(visible.slice(i + 2, i + 4), 16)]));
      i += 4;
    } else {
      const cp = visible.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      parts.push(Buffer.from(ch, 'utf8'));
      i += ch.length;
    }
  }
  return Buffer.concat(parts);
}

const HEADER =
  ',,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n';
const tmp = mkdtempSync(join(tmpdir(), 'escaped-utf8-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('decodeEscaped and visibleName', () => {
  it('decode valid UTF-8 exactly as Node does and leave such names unchanged, backslashes included', () => {
    const text = 'aclnnAdd 中文 𝔸 a\\b C:\\path \\x4 é';
    expect(decodeEscaped(Buffer.from(text))).toBe(text);
    expect(visibleName(text)).toBe(text);
  });

  it('show each invalid byte as \\xHH, so two names that differ only there stay two names', () => {
    const a = visibleName(decodeEscaped(Buffer.from([0x6d, 0x6d, 0xff])));
    const b = visibleName(decodeEscaped(Buffer.from([0x6d, 0x6d, 0xfe])));
    expect([a, b]).toEqual(['mm\\xFF', 'mm\\xFE']);
    // Overlong, surrogate, beyond U+10FFFF and cut sequences: byte by byte.
    expect(
      visibleName(decodeEscaped(Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0xe4, 0xb8]))),
    ).toBe('\\xC0\\xAF\\xED\\xA0\\x80\\xF4\\x90\\x80\\x80\\xE4\\xB8');
  });

  it('double a real backslash only where it would read as an escape', () => {
    expect(visibleName(decodeEscaped(Buffer.from('a\\x41\xff', 'latin1')))).toBe('a\\\\x41\\xFF');
    expect(visibleName(decodeEscaped(Buffer.concat([Buffer.from('\\'), Buffer.from([0xff])])))).toBe('\\\\\\xFF');
    expect(visibleName(decodeEscaped(Buffer.concat([Buffer.from('a\\b\\'), Buffer.from([0x80])])))).toBe(
      'a\\b\\\\\\x80',
    );
  });

  it('give distinct names for distinct byte strings: the visible name reads back to the exact bytes', () => {
    const unit = fc.constantFrom(
      0x5c,
      0x78,
      0x41,
      0x46,
      0x30,
      0x61,
      0xff,
      0x80,
      0xc3,
      0xa9,
      0xe4,
      0xb8,
      0xad,
      0xf0,
      0x9d,
      0x94,
      0xb8,
      0xed,
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 16 }), (bytes) => {
        const buf = Buffer.from(bytes);
        expect(bytesOf(visibleName(decodeEscaped(buf)))).toEqual(buf);
      }),
      { numRuns: 2000 },
    );
  });

  it('decode the same text however a stream cuts the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), fc.array(fc.nat(), { maxLength: 4 }), (bytes, cuts) => {
        const buf = Buffer.from(bytes);
        const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((x, y) => x - y);
        const decoder = new EscapedUtf8Decoder();
        let text = '';
        let from = 0;
        for (const p of [...points, buf.length]) {
          text += decoder.write(buf.subarray(from, p));
          from = p;
        }
        text += decoder.end();
        expect(text).toBe(decodeEscaped(buf));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('memory_compare names that are not UTF-8', () => {
  const file = Buffer.concat([
    Buffer.from(`${HEADER}KERNEL_LAUNCH,mm`),
    Buffer.from([0xff]),
    Buffer.from(',0,1,3,2\nKERNEL_LAUNCH,mm'),
    Buffer.from([0xfe]),
    Buffer.from(',0,1,5,4\nKERNEL_LAUNCH,"mm'),
    Buffer.from([0xfe]),
    Buffer.from(', fused",0,1,2,1\nKERNEL_LAUNCH,mm\\xFF,0,1,9,8\n'),
  ]);

  it('are kept apart and keyed with their bytes escaped, never merged into one U+FFFD name', () => {
    const into = new SnapshotBuilder();
    parseMemoryCompareText('cmp.csv', file, into);
    expect(into.build().sections.kernels).toEqual({
      'dev0/mm\\\\xFF': { diff: 8, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' },
      'dev0/mm\\xFE': { diff: 4, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' },
      'dev0/mm\\xFE, fused': { diff: 1, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' },
      'dev0/mm\\xFF': { diff: 2, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' },
    });
  });

  it('give the same keys when streamed from disk', async () => {
    const path = join(tmp, 'cmp.csv');
    writeFileSync(path, file);
    const streamed = new SnapshotBuilder();
    await parseMemoryCompareFile({ path, name: 'cmp.csv' }, streamed);
    const inMemory = new SnapshotBuilder();
    parseMemoryCompareText('cmp.csv', file, inMemory);
    expect(streamed.build()).toEqual(inMemory.build());
  });
});

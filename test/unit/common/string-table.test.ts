// The one string table (src/common/string-table.ts): numbers in the order added, lookups of a range and of a spliced text
// in place, entries that share a hash told apart, growth past its first slots and code buffer, '' and non-ASCII text.
import { describe, expect, it } from 'vitest';
import { hashSpliced, hashText, StringTable } from '../../../src/common/string-table.js';

const STAR = 0x2a;

describe('StringTable', () => {
  it('numbers strings in the order added and finds each, -1 for one not held', () => {
    const t = new StringTable();
    expect([t.intern('a'), t.intern('bb'), t.intern('a'), t.intern('c')]).toEqual([0, 1, 0, 2]);
    expect(t.size).toBe(3);
    expect([t.indexOf('bb'), t.indexOf('c'), t.indexOf('b'), t.indexOf('bbb')]).toEqual([1, 2, -1, -1]);
    expect([t.text(0), t.text(1), t.text(2)]).toEqual(['a', 'bb', 'c']);
  });

  it('finds a range of a longer text without cutting it, and adds one', () => {
    const t = new StringTable();
    t.add('xxAPPyy', 2, 5);
    expect(t.indexOf('APP')).toBe(0);
    expect(t.indexOf('--APP', 2)).toBe(0);
    expect(t.indexOf('--APP--', 2, 5)).toBe(0);
    expect(t.indexOf('--APP--', 2, 6)).toBe(-1);
    expect(t.text(0)).toBe('APP');
  });

  it('tells apart entries whose hashes are the same', () => {
    const t = new StringTable();
    // Every entry given one hash: only the text comparison can tell them apart.
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
    words.forEach((w) => t.add(w, 0, w.length, 7));
    expect(words.map((w) => t.indexOf(w, 0, w.length, 7))).toEqual(words.map((_, i) => i));
    expect(t.indexOf('w300', 0, 4, 7)).toBe(-1);
  });

  it('grows past its first slots and code buffer, keeping every number', () => {
    const t = new StringTable();
    const words = Array.from({ length: 20_000 }, (_, i) => `kernel_${i}_${'x'.repeat(i % 50)}`);
    for (const w of words) t.add(w);
    expect(t.size).toBe(20_000);
    expect(words.every((w, i) => t.indexOf(w) === i)).toBe(true);
    expect(t.text(19_999)).toBe(words[19_999]);
    expect(t.indexOf('kernel_20000_')).toBe(-1);
  });

  it("holds '' as a string like any other", () => {
    const t = new StringTable();
    expect(t.indexOf('')).toBe(-1);
    expect(t.intern('a')).toBe(0);
    expect(t.intern('')).toBe(1);
    expect(t.indexOf('')).toBe(1);
    expect(t.indexOf('abc', 1, 1)).toBe(1);
    expect(t.text(1)).toBe('');
    expect(t.length(1)).toBe(0);
  });

  it('compares UTF-16 code units: non-ASCII and astral text, and a lone surrogate, are told apart', () => {
    const t = new StringTable();
    const names = ['算子_MatMul', 'café', 'cafe\u0301', '😀', '\ud83d', 'Ω'.repeat(10_000)];
    for (const n of names) t.add(n);
    expect(names.map((n) => t.indexOf(n))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(names.map((_, i) => t.text(i))).toEqual(names);
    expect(t.indexOf('\ude00')).toBe(-1);
    expect([t.length(3), t.codeAt(3, 1)]).toEqual([2, 0xde00]);
  });

  it('looks up and adds a text with a segment replaced by a mark, as the spliced string', () => {
    const t = new StringTable();
    const e = t.addSpliced('DEV_MEM/dev3/APP', 8, 12, STAR);
    expect(t.text(e)).toBe('DEV_MEM/*/APP');
    expect(t.indexOf('DEV_MEM/*/APP')).toBe(e);
    expect(t.indexOfSpliced('DEV_MEM/dev4095/APP', 8, 15, STAR)).toBe(e);
    expect(t.indexOfSpliced('DEV_MEM/dev4095/HCCL', 8, 15, STAR)).toBe(-1);
    // The same text spliced elsewhere is the same string.
    expect(t.indexOfSpliced('DEV_MEM/*/APPx', 13, 14, 0x41)).toBe(-1);
    expect(t.indexOfSpliced('DEV_MEM/*/AP', 12, 12, 0x50)).toBe(e);
    expect(hashSpliced('DEV_MEM/dev3/APP', 8, 12, STAR)).toBe(hashText('DEV_MEM/*/APP'));
  });

  it('hashes as FNV-1a over code units, the hash callers that scan compute themselves', () => {
    expect(hashText('')).toBe(0x811c9dc5 | 0);
    expect(hashText('a') >>> 0).toBe(0xe40c292c);
    expect(hashText('xay', 1, 2)).toBe(hashText('a'));
  });
});

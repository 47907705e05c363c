import { describe, expect, it } from 'vitest';
import {
  countQuotes,
  CsvLineReader,
  indexOrEnd,
  trimCr,
  type LineReaderOptions,
  type RecordScanner,
} from '../../../src/parsers/csv/line-reader.js';

/** A scanner that records each line (CR trimmed), holding a line back while its quotes are unbalanced. */
function recorder(): RecordScanner & { lines: string[]; scans: number } {
  const lines: string[] = [];
  const self = {
    lines,
    scans: 0,
    scan(s: string, from: number, atEnd: boolean): string {
      self.scans++;
      let pos = from;
      for (;;) {
        let nl = s.indexOf('\n', pos);
        while (nl !== -1 && countQuotes(s, pos, nl) % 2 === 1) nl = s.indexOf('\n', nl + 1);
        if (nl === -1) {
          if (atEnd && pos < s.length) lines.push(s.slice(pos));
          return atEnd ? '' : s.slice(pos);
        }
        lines.push(s.slice(pos, trimCr(s, pos, nl)));
        pos = nl + 1;
      }
    },
    tooLong: (pending: string) => new Error(`too long: ${pending.length}`),
  };
  return self;
}

function read(chunks: readonly string[], options: LineReaderOptions = { maxRecordChars: 100 }): string[] {
  const scanner = recorder();
  const reader = new CsvLineReader(scanner, options);
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return scanner.lines;
}

describe('CsvLineReader', () => {
  it('drops a UTF-8 BOM at the start of the file only', () => {
    expect(read(['\ufeffa,b\n\ufeffc\n'])).toEqual(['a,b', '\ufeffc']);
  });

  it('keeps the BOM when told to (msMemScope dumps)', () => {
    expect(read(['\ufeffa\n'], { maxRecordChars: 100, bom: false })).toEqual(['\ufeffa']);
  });

  it('gives the same lines however the text is cut, CRLF and LF mixed, last line without a newline', () => {
    const text = 'h1,h2\r\n1,2\n"x\r\ny",3\r\n\n4,5';
    const whole = read([text]);
    expect(whole).toEqual(['h1,h2', '1,2', '"x\r\ny",3', '', '4,5']);
    for (let cut = 0; cut <= text.length; cut++) {
      expect(read([text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toEqual(whole);
    }
    expect(read([...text])).toEqual(whole);
  });

  it('scans a chunk after a split line from where that line ended, without joining the chunk', () => {
    const scanner = recorder();
    const reader = new CsvLineReader(scanner, { maxRecordChars: 100 });
    reader.push('ab');
    reader.push('c\nd\ne\n');
    reader.end();
    expect(scanner.lines).toEqual(['abc', 'd', 'e']);
    // 'ab' alone, then 'abc\n' alone, then the rest of the chunk
    expect(scanner.scans).toBe(3);
  });

  it("throws the scanner's error once an unfinished record passes the limit, also across chunks", () => {
    expect(() => read(['x'.repeat(11)], { maxRecordChars: 10 })).toThrow('too long: 11');
    expect(() => read(['x'.repeat(6), 'y'.repeat(5)], { maxRecordChars: 10 })).toThrow('too long: 11');
    expect(() => read(['"open\n', 'more\n', 'and more'], { maxRecordChars: 10 })).toThrow('too long: 11');
    expect(read(['x'.repeat(10), '\n'], { maxRecordChars: 10 })).toEqual(['x'.repeat(10)]);
  });

  it('reads nothing from an empty file', () => {
    expect(read([])).toEqual([]);
    expect(read(['', ''])).toEqual([]);
  });
});

describe('line helpers', () => {
  it('trimCr drops only the CR right before the newline', () => {
    expect(trimCr('ab\r\n', 0, 3)).toBe(2);
    expect(trimCr('ab\n', 0, 2)).toBe(2);
    expect(trimCr('\r\n', 0, 1)).toBe(0);
    expect(trimCr('x\r\n', 2, 2)).toBe(2);
  });

  it('indexOrEnd and countQuotes', () => {
    expect(indexOrEnd('a"b', '"', 0)).toBe(1);
    expect(indexOrEnd('a"b', '"', 2)).toBe(3);
    expect(countQuotes('"a""b",c"', 0, 9)).toBe(5);
    expect(countQuotes('"a""b",c"', 1, 8)).toBe(3);
  });
});

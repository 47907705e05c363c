// The row splitter under the profiler parser: any chunking gives the same rows and lines; quoted fields may hold commas and newlines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../../src/common/errors.js';
import { readCsvChunks, readCsvText, type Row } from '../../../../src/parsers/profiler/csv-rows.js';
import { thrown } from '../../../helpers/thrown.js';

/** Every row as [line, cells]. */
function rows(chunks: string[]): [number, string[]][] {
  const out: [number, string[]][] = [];
  readCsvChunks(chunks, 'x.csv', (r: Row) => out.push([r.line, Array.from({ length: r.count }, (_, k) => r.cell(k))]));
  return out;
}

const TEXT = 'A,B,C\r\n1,2\t,3\n\n"x,y",4,5\r\n"multi\nline ""name""",6,7\n8,,\r\n9,10,11';

describe('profiler CSV rows', () => {
  it('reads LF, CRLF, blank lines, quoted commas, doubled quotes and a quoted newline, with the line each row starts on', () => {
    expect(rows([TEXT])).toEqual([
      [1, ['A', 'B', 'C']],
      [2, ['1', '2\t', '3']],
      [4, ['x,y', '4', '5']],
      [5, ['multi\nline "name"', '6', '7']],
      [7, ['8', '', '']],
      [8, ['9', '10', '11']],
    ]);
  });

  it('gives the same rows however the text is cut into chunks', () => {
    const expected = rows([TEXT]);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: TEXT.length - 1 }), { maxLength: 12 }), (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), TEXT.length];
        const chunks = at.slice(1).map((end, i) => TEXT.slice(at[i], end));
        expect(rows(chunks)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('names the line of a quote that never closes', () => {
    const err = thrown(() => readCsvText('A,B\n"open,1\n2,3\n', 'bad.csv', () => {}));
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toBe('bad.csv:2: a quoted field is never closed');
  });
});

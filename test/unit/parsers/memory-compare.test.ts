// The memory_compare CSV parser: every header generation, RFC 4180 corners, exact errors, and the streamed file path.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/common/errors.js';
import { parse as csvParse } from 'csv-parse/sync';
import {
  parseMemoryCompareFile,
  parseMemoryCompareText,
  splitQuotedRecord,
} from '../../../src/parsers/memory-compare.js';
import { READ_CHUNK_BYTES } from '../../../src/parsers/text-stream.js';
import { SnapshotBuilder, type Snapshot } from '../../../src/model/snapshot.js';
import type { KernelMetric as ReadonlyKernelMetric } from '../../../src/model/sections/index.js';

/** The expected aggregates are summed in place. */
type KernelMetric = { -readonly [K in keyof ReadonlyKernelMetric]: ReadonlyKernelMetric[K] };

const FIXTURES = fileURLToPath(new URL('../../fixtures/memory-compare/', import.meta.url));
const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

const CURRENT_HEADER =
  ',,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n';
const MID_2025_HEADER =
  ',,Base,Compare\nName,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n';
const _FEB_2025_HEADER = ',,Base,Compare\nName,Device Id,Allocated Memory,Allocated Memory,Diff Memory\n';
const NAME = 'compare/memory_compare_20250901120000.csv';

/** A current-generation file with these data rows, one per line. */
const current = (...rows: string[]): string => CURRENT_HEADER + rows.map((r) => `${r}\n`).join('');

function parse(text: string | Buffer, name = NAME): Snapshot {
  const into = new SnapshotBuilder();
  parseMemoryCompareText(name, text, into);
  return into.build();
}

function parseError(text: string | Buffer, name = NAME): ParseError {
  try {
    parse(text, name);
  } catch (err) {
    if (err instanceof ParseError) return err;
    throw err;
  }
  throw new Error('expected a ParseError');
}

const metric = (diff: number, rows: number, added: number, removed: number, event: string | null): KernelMetric => ({
  diff,
  rows,
  added,
  removed,
  event,
});

/** The file as Windows writes it: UTF-8 BOM, CRLF. */
const windows = (text: Buffer | string): Buffer =>
  Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text.toString().replace(/\n/g, '\r\n'))]);

const tmp = mkdtempSync(join(tmpdir(), 'memory-compare-parser-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
function tmpFile(name: string, content: string | Buffer): { path: string; name: string } {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return { path, name };
}

async function parseFile(file: { path: string; name: string }): Promise<Snapshot> {
  const into = new SnapshotBuilder();
  await parseMemoryCompareFile(file, into);
  return into.build();
}

describe('header generations', () => {
  it('reads the current header (Aug 2025 on): sums launches per device and kernel, counts N/A sides', () => {
    expect(parse(fixture('memory_compare_20250915103000.csv'))).toEqual({
      version: 2,
      series: {},
      sections: {
        kernels: {
          'dev0/aclnnAdd_AddAiCore': metric(-2048, 2, 0, 0, 'KERNEL_LAUNCH'),
          'dev0/aclnnCast': metric(-512, 1, 0, 1, 'KERNEL_LAUNCH'),
          'dev0/aclnnFlashAttentionScore': metric(8388608, 1, 1, 0, 'KERNEL_LAUNCH'),
          'dev0/aten::layer_norm': metric(0, 1, 0, 0, 'OP_LAUNCH'),
          'dev0/matmul_v1': metric(22, 3, 0, 0, 'KERNEL_LAUNCH'),
          'dev1/aclnnAdd_AddAiCore': metric(0, 2, 1, 1, 'KERNEL_LAUNCH'),
          // Launched as KERNEL_LAUNCH first, then OP_LAUNCH: the first event is kept.
          'dev1/matmul_v1': metric(-94, 2, 0, 0, 'KERNEL_LAUNCH'),
          'dev7/aclnnFlashAttentionScore': metric(33554432, 1, 1, 0, 'KERNEL_LAUNCH'),
        },
      },
      meta: { files: 1, records: 13, skipped: 0, allocFailures: { dev0: 0, dev1: 0, dev7: 0 } },
    });
  });

  it('reads the Mar-Jul 2025 header, which has no Event column', () => {
    const snapshot = parse(fixture('memory_compare_20250610093000.csv'), 'memory_compare_20250610093000.csv');
    expect(snapshot.sections.kernels ?? {}).toEqual({
      'dev0/aclnnRmsNorm_RmsNorm': metric(1048576, 1, 1, 0, null),
      'dev0/matmul_v1': metric(0, 2, 0, 0, null),
      'dev0/matmul_v2': metric(6, 1, 0, 0, null),
      'dev1/aclnnRmsNorm_RmsNorm': metric(-1048576, 1, 0, 1, null),
      'dev1/matmul_v1': metric(6, 1, 0, 0, null),
    });
    expect(snapshot.meta).toEqual({ files: 1, records: 6, skipped: 0, allocFailures: { dev0: 0, dev1: 0 } });
  });

  it('reads the Feb 2025 stepintercompare_<ts>.csv header without "(byte)"', () => {
    const snapshot = parse(fixture('stepintercompare_20250210101010.csv'), 'stepintercompare_20250210101010.csv');
    expect(snapshot.sections.kernels ?? {}).toEqual({
      'dev0/ReduceSum': metric(0, 1, 0, 0, null),
      'dev0/matmul_v1': metric(12, 2, 0, 0, null),
      'dev3/ReduceSum': metric(2048, 1, 1, 0, null),
    });
    expect(snapshot.meta).toEqual({ files: 1, records: 4, skipped: 0, allocFailures: { dev0: 0, dev3: 0 } });
  });

  it('accepts the header labels in another case, as the tool docs spell "(Byte)"', () => {
    const text =
      ',,,BASE,Compare\nEvent,Name,Device Id,Allocated Memory(Byte),Allocated Memory(Byte),Diff Memory(Byte)\nKERNEL_LAUNCH,matmul_v1,0,124,130,6\n';
    expect(parse(text).sections.kernels ?? {}).toEqual({ 'dev0/matmul_v1': metric(6, 1, 0, 0, 'KERNEL_LAUNCH') });
  });

  it('takes a header-only file as a valid comparison with no rows', () => {
    expect(parse(CURRENT_HEADER)).toEqual({
      version: 2,
      sections: {},
      series: {},
      meta: { files: 1, records: 0, skipped: 0, allocFailures: {} },
    });
    expect(parse(MID_2025_HEADER.trimEnd()).meta.files).toBe(1);
  });
});

describe('CSV details', () => {
  it('reads a file written on Windows (BOM, CRLF) exactly like the original', () => {
    for (const name of [
      'memory_compare_20250915103000.csv',
      'memory_compare_20250610093000.csv',
      'stepintercompare_20250210101010.csv',
    ]) {
      expect(parse(windows(fixture(name))), name).toEqual(parse(fixture(name)));
    }
    // A line break inside quotes is data: there it becomes CRLF too.
    const quoted = parse(windows(fixture('memory_compare_20250920120000_quoted.csv'))).sections.kernels!;
    expect(Object.keys(quoted)).toEqual([
      'dev0/add,fused',
      'dev0/multi\r\nline',
      'dev0/plain"quote',
      'dev0/say "hi"',
      'dev1/matmul_v1',
    ]);
    expect(quoted['dev0/multi\r\nline']).toEqual(metric(1, 1, 0, 0, 'OP_LAUNCH'));
    expect(parse(windows(current('KERNEL_LAUNCH,mm,0,1,N/A,-1'))).sections.kernels ?? {}).toEqual({
      'dev0/mm': metric(-1, 1, 0, 1, 'KERNEL_LAUNCH'),
    });
  });

  it('reads RFC 4180 quoting: commas, doubled quotes and newlines in names, a bare quote, quoted numbers', () => {
    const snapshot = parse(fixture('memory_compare_20250920120000_quoted.csv'));
    expect(snapshot.sections.kernels ?? {}).toEqual({
      'dev0/add,fused': metric(110, 2, 0, 0, 'KERNEL_LAUNCH'),
      'dev0/multi\nline': metric(1, 1, 0, 0, 'OP_LAUNCH'),
      // The tool never escapes names: a quote inside an unquoted name is part of the name.
      'dev0/plain"quote': metric(1, 1, 0, 0, 'KERNEL_LAUNCH'),
      'dev0/say "hi"': metric(-10, 1, 0, 1, 'KERNEL_LAUNCH'),
      'dev1/matmul_v1': metric(130, 1, 1, 0, 'KERNEL_LAUNCH'),
    });
    expect(snapshot.meta.records).toBe(6);
  });

  it('keeps the event of the first launch even when that row is quoted and a later one is not', () => {
    const text = current('OP_LAUNCH,"mm",0,1,1,0', 'KERNEL_LAUNCH,mm,0,1,2,1', 'KERNEL_LAUNCH,"mm",0,1,3,2');
    expect(parse(text).sections.kernels ?? {}).toEqual({ 'dev0/mm': metric(3, 3, 0, 0, 'OP_LAUNCH') });
  });

  it('treats the same Device Id spelled 0 and 00 as one device', () => {
    expect(
      parse(current('KERNEL_LAUNCH,mm,0,1,2,1', 'KERNEL_LAUNCH,mm,00,1,2,1', 'KERNEL_LAUNCH,mm,"0",1,2,1')).sections
        .kernels ?? {},
    ).toEqual({
      'dev0/mm': metric(3, 3, 0, 0, 'KERNEL_LAUNCH'),
    });
  });

  it('reads a row whose Base and Compare are both N/A, with Diff N/A, as 0 bytes added and removed', () => {
    expect(
      parse(current('KERNEL_LAUNCH,mm,0,N/A,N/A,N/A', 'KERNEL_LAUNCH,mm,0,N/A,N/A,0')).sections.kernels ?? {},
    ).toEqual({
      'dev0/mm': metric(0, 2, 2, 2, 'KERNEL_LAUNCH'),
    });
  });

  it('skips rows the tool cannot have written (Diff is not Compare − Base, a negative size, an unknown Event), naming each line', () => {
    const into = new SnapshotBuilder();
    const text = current(
      'KERNEL_LAUNCH,mm,0,100,130,30',
      'KERNEL_LAUNCH,mm,0,100,130,999',
      'KERNEL_LAUNCH,mm,0,-100,0,100',
      'OP_LAUNCH,mm,0,N/A,-5,-5',
      'MSTX_MARK,mm,0,1,2,1',
      ',mm,0,1,2,1',
      'KERNEL_LAUNCH,mm,0,N/A,2,N/A',
      'KERNEL_LAUNCH,mm,0,N/A,2,3',
      'KERNEL_LAUNCH,"a,b",0,7,N/A,7',
      'OP_LAUNCH,mm,0,N/A,N/A,N/A',
    );
    parseMemoryCompareText(NAME, text, into);
    const snapshot = into.build();
    expect(snapshot.sections.kernels).toEqual({ 'dev0/mm': metric(30, 2, 1, 1, 'KERNEL_LAUNCH') });
    expect(snapshot.meta).toEqual({ files: 1, records: 2, skipped: 8, allocFailures: { dev0: 0 } });
    const why = 'inconsistent row skipped: ';
    expect(into.skippedRecords).toEqual([
      { file: NAME, line: 4, reason: `${why}Diff Memory 999 is not Compare − Base (130 − 100 = 30)` },
      { file: NAME, line: 5, reason: `${why}negative Base -100: a byte count cannot be negative` },
      { file: NAME, line: 6, reason: `${why}negative Compare -5: a byte count cannot be negative` },
      { file: NAME, line: 7, reason: `${why}unknown Event "MSTX_MARK": expected KERNEL_LAUNCH or OP_LAUNCH` },
      { file: NAME, line: 8, reason: `${why}unknown Event "": expected KERNEL_LAUNCH or OP_LAUNCH` },
      { file: NAME, line: 9, reason: `${why}Diff Memory N/A is not Compare − Base (2 − N/A = 2)` },
      { file: NAME, line: 10, reason: `${why}Diff Memory 3 is not Compare − Base (2 − N/A = 2)` },
      { file: NAME, line: 11, reason: `${why}Diff Memory 7 is not Compare − Base (N/A − 7 = -7)` },
    ]);
  });

  it('counts every skipped row of a file full of them but keeps only the first 1000 for warnings', () => {
    const into = new SnapshotBuilder();
    parseMemoryCompareText(NAME, current(...Array.from({ length: 1500 }, () => 'KERNEL_LAUNCH,mm,0,1,2,9')), into);
    expect(into.skipped).toBe(1500);
    expect(into.skippedRecords.length).toBe(1000);
    expect(into.skippedRecords[999]?.line).toBe(1002);
  });

  it('keeps names apart whose hashes collide, and thousands of names on one device', () => {
    // op___zla and op_1lapa have the same 32-bit FNV-1a hash (the parser's table key) and the same length.
    const text = current(
      'KERNEL_LAUNCH,op___zla,0,0,5,5',
      'OP_LAUNCH,op_1lapa,0,0,7,7',
      'KERNEL_LAUNCH,"op___zla",0,0,11,11',
      'KERNEL_LAUNCH,"op_1lapa",0,0,13,13',
      'KERNEL_LAUNCH,op___zla,1,0,17,17',
    );
    const kernels = parse(text).sections.kernels!;
    expect(kernels['dev0/op___zla']).toEqual(metric(16, 2, 0, 0, 'KERNEL_LAUNCH'));
    expect(kernels['dev0/op_1lapa']).toEqual(metric(20, 2, 0, 0, 'OP_LAUNCH'));
    expect(kernels['dev1/op___zla']).toEqual(metric(17, 1, 0, 0, 'KERNEL_LAUNCH'));
    const many = Array.from(
      { length: 3000 },
      (_, i) => `KERNEL_LAUNCH,${i % 2 ? `"k,${i % 1500}"` : `k${i % 1500}`},0,0,${i},${i}`,
    );
    const all = parse(current(...many)).sections.kernels!;
    expect(Object.keys(all)).toHaveLength(1500);
    expect(all['dev0/k0']).toEqual(metric(0 + 1500, 2, 0, 0, 'KERNEL_LAUNCH'));
    expect(all['dev0/k,1']).toEqual(metric(1 + 1501, 2, 0, 0, 'KERNEL_LAUNCH'));
  });

  it('sums exactly up to 2^53 - 1', () => {
    const half = 2 ** 52;
    const text = current(`KERNEL_LAUNCH,big,0,0,${half},${half}`, `KERNEL_LAUNCH,big,0,0,${half - 1},${half - 1}`);
    expect(parse(text).sections.kernels!['dev0/big']?.diff).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('skips blank lines and still numbers the lines after them', () => {
    const text = current('KERNEL_LAUNCH,mm,0,1,2,1', '', 'KERNEL_LAUNCH,mm,0,1,2,1', '', 'KERNEL_LAUNCH,mm,0,1,x,1');
    expect(parseError(text).message).toBe(`${NAME}:7: Compare is not an integer byte count or N/A: "x"`);
  });
});

describe('errors name the file and line', () => {
  it('rejects an unknown first header row', () => {
    const err = parseError('Name,Device Id,Base,Compare,Diff\nmm,0,1,2,1\n');
    expect(err.file).toBe(NAME);
    expect(err.line).toBe(1);
    expect(err.message).toBe(
      `${NAME}:1: header row 1 does not match any known memory_compare header: expected ",,,Base,Compare" or ",,Base,Compare", got "Name,Device Id,Base,Compare,Diff"`,
    );
  });

  it('rejects a second header row that does not belong to the first', () => {
    const err = parseError(
      ',,,Base,Compare\nName,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n',
    );
    expect(err.message).toMatch(
      new RegExp(
        `^${NAME}:2: header row 2 does not match any known memory_compare header: expected "Event,Name,Device Id,`,
      ),
    );
    expect(err.message).toContain(
      'got "Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)"',
    );
    const old = parseError(',,Base,Compare\r\nName,Device,Base,Compare,Diff\r\n');
    expect(old.line).toBe(2);
    expect(old.message).toContain(
      '(Mar-Jul 2025) or "Name,Device Id,Allocated Memory,Allocated Memory,Diff Memory" (Feb 2025',
    );
  });

  it('rejects an empty file, and a file that stops after the first header row', () => {
    expect(parseError('').message).toBe(`${NAME}:1: empty file: expected the two memory_compare header rows`);
    expect(parseError(Buffer.from([0xef, 0xbb, 0xbf])).message).toBe(
      `${NAME}:1: empty file: expected the two memory_compare header rows`,
    );
    expect(parseError(',,Base,Compare\n').message).toMatch(
      new RegExp(`^${NAME}:2: header row 2 is missing: expected "Name,Device Id,`),
    );
  });

  it('rejects a row with too few or too many cells at its physical line', () => {
    expect(parseError(current('KERNEL_LAUNCH,mm,0,1,2,1', 'KERNEL_LAUNCH,mm,0,1,2')).message).toBe(
      `${NAME}:4: expected 6 cells (Event,Name,Device Id,Base,Compare,Diff), got 5`,
    );
    expect(parseError(current('KERNEL_LAUNCH,mm,0,1,2,1,7')).message).toBe(
      `${NAME}:3: expected 6 cells (Event,Name,Device Id,Base,Compare,Diff), got 7`,
    );
    expect(parseError(current('KERNEL_LAUNCH,"a,b",0,1,2')).message).toBe(
      `${NAME}:3: expected 6 cells (Event,Name,Device Id,Base,Compare,Diff), got 5`,
    );
    // A quoted Name's commas are no cells, whichever path reads the row.
    expect(parseError(current('KERNEL_LAUNCH,"a,b",0,1,2,1,7')).message).toBe(
      `${NAME}:3: expected 6 cells (Event,Name,Device Id,Base,Compare,Diff), got 7`,
    );
    expect(parseError(current('KERNEL_LAUNCH,"a,""b,",0,1,2,1', 'KERNEL_LAUNCH,"a,,",0')).message).toBe(
      `${NAME}:4: expected 6 cells (Event,Name,Device Id,Base,Compare,Diff), got 3`,
    );
    expect(parseError(`${MID_2025_HEADER}"a,""b",0,1\n`).message).toBe(
      `${NAME}:3: expected 5 cells (Name,Device Id,Base,Compare,Diff), got 3`,
    );
    expect(parseError(`${MID_2025_HEADER}mm,0,1,2,1\nKERNEL_LAUNCH,mm,0,1,2,1\n`).message).toBe(
      `${NAME}:4: expected 5 cells (Name,Device Id,Base,Compare,Diff), got 6`,
    );
  });

  it('counts the lines of a quoted name with newlines, in LF and CRLF files', () => {
    const text = current(
      'OP_LAUNCH,"two\nlines",0,1,2,1',
      'OP_LAUNCH,"three\n\nlines",0,1,2,1',
      'KERNEL_LAUNCH,mm,0,1,2',
    );
    expect(parseError(text).line).toBe(8);
    expect(parseError(windows(text)).line).toBe(8);
  });

  it('rejects a cell that is not an integer', () => {
    expect(parseError(current('KERNEL_LAUNCH,mm,0,12a,2,1')).message).toBe(
      `${NAME}:3: Base is not an integer byte count or N/A: "12a"`,
    );
    expect(parseError(current('KERNEL_LAUNCH,mm,0,1,2,1.5')).message).toBe(
      `${NAME}:3: Diff Memory is not an integer byte count or N/A: "1.5"`,
    );
    expect(parseError(current('KERNEL_LAUNCH,mm,0,1, 2,1')).message).toBe(
      `${NAME}:3: Compare is not an integer byte count or N/A: " 2"`,
    );
    expect(parseError(current('KERNEL_LAUNCH,mm,0,1,2,')).message).toBe(
      `${NAME}:3: Diff Memory is not an integer byte count or N/A: ""`,
    );
    expect(parseError(current('KERNEL_LAUNCH,mm,0,"1e3",2,1')).message).toBe(
      `${NAME}:3: Base is not an integer byte count or N/A: "1e3"`,
    );
  });

  it('rejects a Device Id that is not a plain integer', () => {
    for (const device of ['npu0', '-1', '', '1.0']) {
      expect(parseError(current(`KERNEL_LAUNCH,mm,${device},1,2,1`)).message).toBe(
        `${NAME}:3: unknown Device Id ${JSON.stringify(device)}: expected a plain integer such as 0`,
      );
    }
  });

  it('rejects byte counts beyond 2^53 - 1 rather than rounding them', () => {
    expect(parseError(current('KERNEL_LAUNCH,mm,0,9007199254740993,1,1')).message).toBe(
      `${NAME}:3: Base: 9007199254740993 is larger than 2^53 - 1 bytes and cannot be compared exactly`,
    );
    // 16 digits but still exact: accepted.
    expect(
      parse(current('KERNEL_LAUNCH,mm,0,1,9007199254740991,9007199254740990')).sections.kernels!['dev0/mm']?.diff,
    ).toBe(9007199254740990);
  });

  it('rejects a per-kernel sum that leaves the exact range', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(parseError(current('KERNEL_LAUNCH,mm,0,1,2,1', `KERNEL_LAUNCH,mm,0,0,${max},${max}`)).message).toBe(
      `${NAME}:4: the sum of Diff Memory for "mm" leaves the exact range of 2^53 - 1 bytes`,
    );
  });

  it('rejects an empty Name', () => {
    expect(parseError(current('KERNEL_LAUNCH,,0,1,2,1')).message).toBe(
      `${NAME}:3: empty Name: every row must name its kernel`,
    );
  });

  it('reports an error in a quoted row before an error in a later plain row', () => {
    const text = current('KERNEL_LAUNCH,"a,b",0,x,2,1', 'KERNEL_LAUNCH,mm,0,y,2,1');
    expect(parseError(text).message).toBe(`${NAME}:3: Base is not an integer byte count or N/A: "x"`);
  });

  it('reports a quote that never closes at the line where its record starts', () => {
    expect(
      parseError(current('KERNEL_LAUNCH,mm,0,1,2,1', 'KERNEL_LAUNCH,"open,0,1,2,1', 'KERNEL_LAUNCH,mm,0,1,2,1'))
        .message,
    ).toBe(`${NAME}:4: a quoted field is never closed`);
  });

  it('reads text after a closing quote literally, as the tool writes names unescaped', () => {
    expect(parse(current('KERNEL_LAUNCH,"a"b,0,1,2,1', 'KERNEL_LAUNCH,"x" ,0,1,2,1')).sections.kernels ?? {}).toEqual({
      'dev0/"a"b': metric(1, 1, 0, 0, 'KERNEL_LAUNCH'),
      'dev0/"x" ': metric(1, 1, 0, 0, 'KERNEL_LAUNCH'),
    });
  });

  it('adds nothing to the snapshot from a file that fails', () => {
    const into = new SnapshotBuilder();
    expect(() =>
      parseMemoryCompareText(NAME, current('KERNEL_LAUNCH,mm,0,1,2,1', 'KERNEL_LAUNCH,mm,0,1,2'), into),
    ).toThrow(ParseError);
    expect(into.build()).toEqual({
      version: 2,
      sections: {},
      series: {},
      meta: { files: 0, records: 0, skipped: 0, allocFailures: {} },
    });
  });
});

describe('several files', () => {
  it('keeps the aggregate with the larger diff for a kernel seen in two files, whatever their order', () => {
    const a = current('KERNEL_LAUNCH,mm,0,100,130,30', 'KERNEL_LAUNCH,mm,0,100,130,30', 'KERNEL_LAUNCH,only_a,1,1,2,1');
    const b = current('OP_LAUNCH,mm,0,N/A,50,50', 'KERNEL_LAUNCH,only_b,2,2,1,-1');
    for (const [first, second] of [
      [a, b],
      [b, a],
    ] as const) {
      const into = new SnapshotBuilder();
      parseMemoryCompareText('node-0/memory_compare.csv', first, into);
      parseMemoryCompareText('node-1/memory_compare.csv', second, into);
      const snapshot = into.build();
      expect(snapshot.sections.kernels ?? {}).toEqual({
        'dev0/mm': metric(60, 2, 0, 0, 'KERNEL_LAUNCH'),
        'dev1/only_a': metric(1, 1, 0, 0, 'KERNEL_LAUNCH'),
        'dev2/only_b': metric(-1, 1, 0, 0, 'KERNEL_LAUNCH'),
      });
      expect(snapshot.meta).toEqual({ files: 2, records: 5, skipped: 0, allocFailures: { dev0: 0, dev1: 0, dev2: 0 } });
    }
  });
});

describe('parseMemoryCompareFile', () => {
  it('streams a fixture to the same snapshot as the in-memory parser', async () => {
    for (const name of [
      'memory_compare_20250915103000.csv',
      'memory_compare_20250610093000.csv',
      'stepintercompare_20250210101010.csv',
      'memory_compare_20250920120000_quoted.csv',
    ]) {
      expect(await parseFile({ path: join(FIXTURES, name), name })).toEqual(parse(fixture(name), name));
      const win = tmpFile(`win-${name}`, windows(fixture(name)));
      expect(await parseFile(win)).toEqual(parse(windows(fixture(name)), name));
    }
  });

  it('names the file in its errors', async () => {
    const file = tmpFile('bad.csv', current('KERNEL_LAUNCH,mm,0,1,2'));
    await expect(parseMemoryCompareFile(file, new SnapshotBuilder())).rejects.toThrow(`bad.csv:3: expected 6 cells`);
    await expect(parseMemoryCompareFile(tmpFile('empty.csv', ''), new SnapshotBuilder())).rejects.toThrow(
      'empty.csv:1: empty file',
    );
  });

  /**
   * A file whose byte READ_CHUNK_BYTES (the first chunk boundary) falls `offset` bytes into `special`,
   * after filler rows; the special row is followed by one more row so the boundary is mid-file.
   */
  function fileWithBoundaryIn(
    special: string,
    offset: number,
    { bom = false, eol = '\n', after = 'KERNEL_LAUNCH,after,0,1,3,2' } = {},
  ): Buffer {
    const head = Buffer.from((bom ? '\ufeff' : '') + CURRENT_HEADER.replace(/\n/g, eol));
    const row = (name: string): string => `KERNEL_LAUNCH,${name},0,1,3,2${eol}`;
    const fillerBytes = READ_CHUNK_BYTES - head.length - offset;
    const filler: string[] = [];
    let size = 0;
    for (let i = 0; size + Buffer.byteLength(row(`fill_${i}`)) + 40 < fillerBytes; i++) {
      filler.push(row(`fill_${i % 97}`));
      size += Buffer.byteLength(row(`fill_${i % 97}`));
    }
    // One last filler row, padded so that the special row starts exactly where it must.
    const pad = fillerBytes - size - Buffer.byteLength(row(''));
    filler.push(row('p'.repeat(pad)));
    const out = Buffer.concat([head, Buffer.from(filler.join('') + special + eol + after + eol)]);
    expect(
      out
        .subarray(READ_CHUNK_BYTES - offset)
        .toString()
        .startsWith(special),
    ).toBe(true);
    return out;
  }

  const specials: [string, string, number][] = [
    ['at a row start', 'KERNEL_LAUNCH,edge,5,1,4,3', 0],
    ['inside a name', 'KERNEL_LAUNCH,edge,5,1,4,3', 16],
    ['inside a number', 'KERNEL_LAUNCH,edge,5,1000,4000,3000', 27],
    ['inside a two-byte character', 'KERNEL_LAUNCH,é_edge,5,1,4,3', 15],
    ['inside a four-byte character', 'KERNEL_LAUNCH,𝔸_edge,5,1,4,3', 16],
    ['inside a quoted name with a newline', 'KERNEL_LAUNCH,"ed\nge, quoted",5,1,4,3', 17],
    ['just after the newline inside a quoted name', 'KERNEL_LAUNCH,"ed\nge, quoted",5,1,4,3', 18],
  ];

  for (const [where, special, offset] of specials) {
    it(`reads a row cut by a chunk boundary ${where}`, async () => {
      for (const options of [{}, { bom: true, eol: '\r\n' }]) {
        const bytes = fileWithBoundaryIn(special, offset, options);
        const streamed = await parseFile(tmpFile('boundary.csv', bytes));
        expect(streamed).toEqual(parse(bytes));
        const name = special.split(',')[1]?.replace(/"/g, '');
        const key = special.includes('"') ? 'dev5/ed\nge, quoted' : `dev5/${name}`;
        expect(streamed.sections.kernels![key]).toEqual(
          metric(Number(special.split(',').at(-1)), 1, 0, 0, 'KERNEL_LAUNCH'),
        );
        expect(streamed.sections.kernels!['dev0/after']).toEqual(metric(2, 1, 0, 0, 'KERNEL_LAUNCH'));
      }
    });
  }

  it('cuts a CRLF between its CR and LF at a chunk boundary', async () => {
    // The special row's CR is the chunk's last byte.
    const special = 'KERNEL_LAUNCH,crlf,5,1,4,3';
    const bytes = fileWithBoundaryIn(special, special.length + 1, { eol: '\r\n' });
    expect(bytes[READ_CHUNK_BYTES - 1]).toBe(13);
    const streamed = await parseFile(tmpFile('crlf.csv', bytes));
    expect(streamed).toEqual(parse(bytes));
    expect(streamed.sections.kernels!['dev5/crlf']).toEqual(metric(3, 1, 0, 0, 'KERNEL_LAUNCH'));
  });

  it('names the right line for an error in the row cut by a chunk boundary, and in the row after it', async () => {
    const bytes = fileWithBoundaryIn('KERNEL_LAUNCH,edge,5,1,4', 10);
    const line = bytes.subarray(0, READ_CHUNK_BYTES).toString().split('\n').length;
    await expect(parseMemoryCompareFile(tmpFile('cut.csv', bytes), new SnapshotBuilder())).rejects.toThrow(
      `cut.csv:${line}: expected 6 cells`,
    );
    for (const eol of ['\n', '\r\n']) {
      const later = fileWithBoundaryIn('KERNEL_LAUNCH,edge,5,1,4,3', 10, { eol, after: 'KERNEL_LAUNCH,after,0,1,3' });
      const afterLine = later.subarray(0, READ_CHUNK_BYTES).toString().split('\n').length + 1;
      await expect(parseMemoryCompareFile(tmpFile('after.csv', later), new SnapshotBuilder())).rejects.toThrow(
        `after.csv:${afterLine}: expected 6 cells`,
      );
    }
  });
});

describe('the hand-written splitter for rows with quotes', () => {
  const CSV_OPTIONS = { record_delimiter: '\n', bom: false, cast: false, columns: false, relax_quotes: true } as const;

  it('splits exactly as csv-parse does whenever it splits at all', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', ',', '"', '""', '\n', '\r', ' ', 'é', '𝔸'),
      maxLength: 14,
    });
    let split = 0;
    fc.assert(
      fc.property(text, (t) => {
        const fields = splitQuotedRecord(t);
        if (fields === null) return;
        split++;
        expect(csvParse(t, CSV_OPTIONS), JSON.stringify(t)).toEqual(t === '' ? [] : [fields]);
      }),
      { numRuns: 5000 },
    );
    // Not vacuous: a good share of these random records is split by hand (about a third of them).
    expect(split).toBeGreaterThan(1000);
  });

  it('leaves to csv-parse text after a closing quote, a quote never closed and a line break outside quotes', () => {
    expect(splitQuotedRecord('KERNEL_LAUNCH,"a"b,0,1,2,1')).toBeNull();
    expect(splitQuotedRecord('KERNEL_LAUNCH,"a,0,1,2,1')).toBeNull();
    expect(splitQuotedRecord('KERNEL_LAUNCH,"a",0\r,1,2,1')).toBeNull();
    expect(splitQuotedRecord('KERNEL_LAUNCH,"a ""b"", c\r\nd",0,1,2,1')).toEqual([
      'KERNEL_LAUNCH',
      'a "b", c\r\nd',
      '0',
      '1',
      '2',
      '1',
    ]);
  });

  it('keeps bytes that are not UTF-8 apart in rows that csv-parse reads', () => {
    const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');
    const file = Buffer.concat([
      bytes(CURRENT_HEADER),
      bytes('KERNEL_LAUNCH,"m\xff"x,0,1,2,1\nKERNEL_LAUNCH,"m\xfe"x,0,1,3,2\n'),
    ]);
    expect(parse(file).sections.kernels).toEqual({
      'dev0/"m\\xFE"x': metric(2, 1, 0, 0, 'KERNEL_LAUNCH'),
      'dev0/"m\\xFF"x': metric(1, 1, 0, 0, 'KERNEL_LAUNCH'),
    });
  });
});

describe('against a reference model', () => {
  interface Row {
    event: string;
    name: string;
    device: number;
    base: number | null;
    compare: number | null;
    quoteAll: boolean;
  }
  const row = fc.record({
    event: fc.constantFrom('KERNEL_LAUNCH', 'OP_LAUNCH'),
    name: fc.string({
      unit: fc.constantFrom('a', 'b', 'mm', ',', '"', '\n', '\r', ' ', 'é', '中', '𝔸'),
      minLength: 1,
      maxLength: 5,
    }),
    device: fc.nat(3),
    base: fc.option(fc.integer({ min: -(2 ** 40), max: 2 ** 40 })),
    compare: fc.option(fc.integer({ min: -(2 ** 40), max: 2 ** 40 })),
    quoteAll: fc.boolean(),
  });

  function cell(value: string, quoteAll: boolean): string {
    return quoteAll || /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
  }

  function write(rows: Row[], eol: string, bom: boolean): { text: string; starts: number[] } {
    let text = (bom ? '\ufeff' : '') + CURRENT_HEADER.replace(/\n/g, eol);
    const starts: number[] = [];
    for (const r of rows) {
      starts.push(text.length);
      const diff = (r.compare ?? 0) - (r.base ?? 0);
      const cells = [
        r.event,
        r.name,
        String(r.device),
        r.base === null ? 'N/A' : String(r.base),
        r.compare === null ? 'N/A' : String(r.compare),
        String(diff),
      ];
      text += cells.map((c) => cell(c, r.quoteAll)).join(',') + eol;
    }
    return { text, starts };
  }

  /** Rows with a negative size are skipped (the tool never writes one). */
  const consistent = (r: Row): boolean => (r.base ?? 0) >= 0 && (r.compare ?? 0) >= 0;

  function expected(rows: Row[]): Record<string, KernelMetric> {
    const kernels = new Map<string, KernelMetric>();
    for (const r of rows.filter(consistent)) {
      const key = `dev${r.device}/${r.name}`;
      const m = kernels.get(key) ?? metric(0, 0, 0, 0, r.event);
      m.diff += (r.compare ?? 0) - (r.base ?? 0);
      m.rows++;
      if (r.base === null) m.added++;
      if (r.compare === null) m.removed++;
      kernels.set(key, m);
    }
    return Object.fromEntries(kernels);
  }

  it('aggregates any RFC 4180 file exactly as the model does', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (rows, eol, bom) => {
        const snapshot = parse(write(rows, eol, bom).text);
        expect(snapshot.sections.kernels ?? {}).toEqual(expected(rows));
        expect(snapshot.meta.records).toBe(rows.filter(consistent).length);
        expect(snapshot.meta.skipped).toBe(rows.length - rows.filter(consistent).length);
      }),
      { numRuns: 300 },
    );
  });

  it('names the physical line of a bad row anywhere in such a file', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.constantFrom('\n', '\r\n'),
        (rows, pick, eol) => {
          const bad = pick % rows.length;
          const { text, starts } = write(rows, eol, false);
          const start = starts[bad] as number;
          const end = bad + 1 < rows.length ? (starts[bad + 1] as number) : text.length;
          // Replace the bad row's Diff cell (the last one, never quoted as part of a name) with a non-number.
          const badRow = text.slice(start, end - eol.length).replace(/("?)(-?\d+)("?)$/, '$1x$2$3');
          const line = text.slice(0, start).split('\n').length;
          const err = parseError(text.slice(0, start) + badRow + eol + text.slice(end));
          expect(err.line).toBe(line);
          expect(err.reason).toMatch(/^Diff Memory is not an integer byte count or N\/A: "x-?\d+"$/);
        },
      ),
      { numRuns: 200 },
    );
  });
});

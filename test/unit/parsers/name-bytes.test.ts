// Names are bytes (issue 25, items 7 and 10): names that are not UTF-8 stay apart in profiler CSVs and dumps (`\xHH`
// in keys, as memory_compare already does); compare-dumps writes the dump's own bytes, with msMemScope's ToSafeString
// escapes, and lets no control character reach a terminal raw (op names in the CSV, file names in warnings).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMSCOPE_HEADER } from '../../generators/memscope-dump.js';
import { runCli, type Output } from '../../../src/cli/commands.js';
import type { Snapshot } from '../../../src/model/snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'name-bytes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Text with `\xHH` written as that raw byte: the file holds bytes no UTF-8 decoder accepts. */
function bytes(text: string): Buffer {
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(/\\x([0-9A-F]{2})/g)) {
    parts.push(Buffer.from(text.slice(last, m.index), 'utf8'), Buffer.from([parseInt(m[1] as string, 16)]));
    last = (m.index as number) + m[0].length;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

let files = 0;
/** A file in a folder of its own: its name is the one the format asks for. */
function file(name: string, content: Buffer | string): string {
  const folder = join(dir, `${++files}`);
  mkdirSync(folder);
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

interface Run {
  code: number;
  out: string;
  outBytes: Buffer;
  err: string;
}

async function cli(argv: string[], terminal = false): Promise<Run> {
  let out = '';
  const chunks: Buffer[] = [];
  let err = '';
  const io: Output = {
    out: (t) => {
      out += t;
      chunks.push(Buffer.from(t, 'utf8'));
    },
    outBytes: (b) => {
      chunks.push(Buffer.from(b));
      out += b.toString('utf8');
    },
    err: (t) => (err += t),
    width: () => 120,
    color: () => false,
    isTerminal: () => terminal,
  };
  const code = await runCli(argv, io);
  return { code, out, outBytes: Buffer.concat(chunks), err };
}

const OPERATOR =
  'Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type';
const opRow = (name: string, kb: number): string => `${name},${kb},1736405443756384.100\t,,,,,1.0,2.0,1.0,,,,1,NPU:0`;

describe('names that are not UTF-8 stay apart', () => {
  it('in a profiler CSV: op\\xC0 and op\\xFF are two operators, each with its own total (were one U+FFFD key, summed)', async () => {
    const path = file(
      'operator_memory.csv',
      bytes(`${OPERATOR}\n${opRow('op\\xC0', 1)}\n${opRow('op\\xFF', 2)}\n${opRow('"op\\xFF,quoted"', 4)}\n`),
    );
    const r = await cli(['parse', '--profiler', path, '--json']);
    expect(r.code, r.err).toBe(0);
    const operators = (JSON.parse(r.out) as Snapshot).sections.operators ?? {};
    expect(operators).toEqual({
      'dev0/op\\xC0': { largest: 1024, count: 1, total: 1024 },
      'dev0/op\\xFF': { largest: 2048, count: 1, total: 2048 },
      'dev0/op\\xFF,quoted': { largest: 4096, count: 1, total: 4096 },
    });
  });

  const T = (n: number): string => `1764753084425${String(n).padStart(6, '0')}`;
  const dumpRows = [
    `1,OP_LAUNCH,ATEN_START,op\\xC0,${T(100)},7,7,0,N/A,,,`,
    `2,MALLOC,PTA,N/A,${T(110)},7,7,0,0x10,"{size:512,owner:PTA@w\\xC0}",,`,
    `3,OP_LAUNCH,ATEN_END,op\\xC0,${T(120)},7,7,0,N/A,,,`,
    `4,OP_LAUNCH,ATEN_START,op\\xFF,${T(200)},7,7,0,N/A,,,`,
    `5,MALLOC,PTA,N/A,${T(210)},7,7,0,0x20,"{size:1024,owner:PTA@w\\xFF}",,`,
    `6,OP_LAUNCH,ATEN_END,op\\xFF,${T(220)},7,7,0,N/A,,,`,
  ];

  it('in a dump: op and owner names that differ in one byte are two keys each', async () => {
    const path = file('memscope_dump_1.csv', bytes(`${[MEMSCOPE_HEADER, ...dumpRows].join('\n')}\n`));
    const r = await cli(['parse', '--dump', path, '--json']);
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out) as Snapshot;
    expect(Object.keys(s.sections.opFootprint ?? {})).toEqual(['dev0/op\\xC0', 'dev0/op\\xFF']);
    expect(Object.keys(s.sections.unfreed ?? {})).toEqual(['dev0/PTA/PTA@w\\xC0', 'dev0/PTA/PTA@w\\xFF']);
  });

  it("compare-dumps writes the dump's own bytes (C0 and FF, not EF BF BD), to a file and to standard output", async () => {
    const path = file('memscope_dump_1.csv', bytes(`${[MEMSCOPE_HEADER, ...dumpRows].join('\n')}\n`));
    const out = join(dir, 'memory_compare.csv');
    const r = await cli(['compare-dumps', path, path, '--out', out]);
    expect(r.code, r.err).toBe(0);
    const expected = bytes(
      ',,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\nOP_LAUNCH,op\\xC0,0,1024,1024,0\nOP_LAUNCH,op\\xFF,0,0,0,0\n',
    );
    expect(readFileSync(out).equals(expected)).toBe(true);
    const piped = await cli(['compare-dumps', path, path]);
    expect(piped.outBytes.equals(expected)).toBe(true);
  });
});

describe('control characters from a dump never reach a terminal raw', () => {
  const T = (n: number): string => `1764753084425${String(n).padStart(6, '0')}`;
  const rows = [
    `1,OP_LAUNCH,ATEN_END,op\tA\x1b[31mred\x01,${T(100)},7,7,0,N/A,,,`,
    `2,MALLOC,PTA,N/A,${T(200)},7,7,0,0x10,"{size:512}",,`,
  ];
  const text = `${[MEMSCOPE_HEADER, ...rows].join('\n')}\n`;
  const header =
    ',,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n';

  it("the CSV escapes as msMemScope's ToSafeString does (\\t), and keeps its other bytes, in a file or a pipe", async () => {
    const path = file('memscope_dump_ctl.csv', text);
    const out = join(dir, 'ctl_compare.csv');
    expect((await cli(['compare-dumps', path, path, '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(`${header}OP_LAUNCH,op\\tA\x1b[31mred\x01,0,512,512,0\n`);
    expect((await cli(['compare-dumps', path, path])).outBytes.toString('utf8')).toBe(
      `${header}OP_LAUNCH,op\\tA\x1b[31mred\x01,0,512,512,0\n`,
    );
  });

  it('on a terminal, the other control characters are written as escapes too (ESC as \\u001B)', async () => {
    const path = file('memscope_dump_ctl.csv', text);
    const r = await cli(['compare-dumps', path, path], true);
    expect(r.outBytes.toString('utf8')).toBe(`${header}OP_LAUNCH,op\\tA\\u001B[31mred\\u0001,0,512,512,0\n`);
  });

  it('a file name with ESC is shown with a visible symbol in a warning', async () => {
    const path = file('memscope_dump_\x1b[32mx.csv', `${MEMSCOPE_HEADER}\n${rows[0]}\n\n${rows[1]}\n`);
    const r = await cli(['compare-dumps', path, path]);
    expect(r.err).toContain('memscope_dump_␛[32mx.csv:3: blank line');
    expect(r.err).not.toContain('\x1b');
  });
});

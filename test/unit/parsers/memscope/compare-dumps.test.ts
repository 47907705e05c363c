import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMPARE_HEADER,
  compareDumpFiles,
  compareDumpTexts,
  myersPath,
  alignment,
  stoull0,
  toolAttrSize,
} from '../../../../src/parsers/memscope/compare-dumps.js';
import { StdUnorderedOrder } from '../../../../src/parsers/memscope/std-order.js';
import type { DumpWarning } from '../../../../src/parsers/memscope/dump-reader.js';
import { thrown, thrownAsync } from '../../../helpers/thrown.js';

const FIX = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'memscope');
const file = (name: string) => ({ path: join(FIX, name), name });
const G5 =
  'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';

describe('compare-dumps on the corpus pairs', () => {
  it("gives the 12 rows of msMemScope's smoke test, device 1 first, negative FREE sizes kept", async () => {
    const warnings: DumpWarning[] = [];
    const r = await compareDumpFiles(
      file('memscope_dump_20250428113810.csv'),
      file('memscope_dump_20250428113811.csv'),
      { level: 'kernel', onWarning: (w) => warnings.push(w) },
    );
    // Spec §4.3: device 1 first (reverse first appearance: device 0 appears first in the base file), 5 matched
    // N/A-named kernels per device plus one base-only row; a launch's value is the size of the next PTA row in time,
    // which is a FREE of -18944 after the 4th device-1 kernel (G3-era negative FREE sizes).
    const expected =
      COMPARE_HEADER +
      [
        'KERNEL_LAUNCH,N/A,1,7168,7168,0',
        'KERNEL_LAUNCH,N/A,1,3584,3584,0',
        'KERNEL_LAUNCH,N/A,1,3584,3584,0',
        'KERNEL_LAUNCH,N/A,1,-18944,-18944,0',
        'KERNEL_LAUNCH,N/A,1,512,512,0',
        'KERNEL_LAUNCH,N/A,1,512,N/A,-512',
        'KERNEL_LAUNCH,N/A,0,7168,7168,0',
        'KERNEL_LAUNCH,N/A,0,3584,3584,0',
        'KERNEL_LAUNCH,N/A,0,3584,3584,0',
        'KERNEL_LAUNCH,N/A,0,1024,1024,0',
        'KERNEL_LAUNCH,N/A,0,512,18944,18432',
        'KERNEL_LAUNCH,N/A,0,18944,N/A,-18944',
      ]
        .map((l) => `${l}\n`)
        .join('');
    expect(r.csv).toBe(expected);
    expect(r.rows).toBe(12);
    expect(r.devices).toEqual(['1', '0']);
    // The header says (ns) but the values are µs: one warning per file, with its line.
    expect(warnings.filter((w) => /microseconds/.test(w.reason)).map((w) => `${w.file}:${w.line}`)).toEqual([
      'memscope_dump_20250428113810.csv:2',
      'memscope_dump_20250428113811.csv:2',
    ]);
  });

  it('gives the 44 op rows of the example pair: the injected randn shows as N/A,4000256 twice', async () => {
    const r = await compareDumpFiles(file('baseline_dump.csv'), file('leaks_dump.csv'));
    // One training iteration = 20 ATEN ops in the baseline; the leaks run adds aten.randn + aten._to_copy at its end.
    const iteration = (
      aAfter: number | null,
      bAfter: number | null,
      tail: [number, number],
    ): [string, number | null, number | null, number][] => [
      ['aten.t.default', 1536, 1536, 0], // spec §4.1: next PTA row is MALLOC ID 5, 1536 B
      ['aten.addmm.default', 512, 512, 0], // the output allocation of the next op (mse_loss)
      ['aten.mse_loss.default', 512, 512, 0],
      ['profiler._record_function_enter_new.default', 512, 512, 0],
      ['profiler._record_function_exit._RecordFunction', 512, 512, 0],
      ['aten.ones_like.default', 1536, 1536, 0],
      ['aten.mse_loss_backward.default', 512, 512, 0],
      ['aten.t.default', 512, 512, 0],
      ['aten.mm.default', 512, 512, 0],
      ['aten.t.default', 512, 512, 0],
      ['aten.sum.dim_IntList', 1536, 1536, 0],
      ['aten.view.default', 1536, 1536, 0],
      ['aten.detach.default', 512, 512, 0],
      ['aten.detach.default', 512, 512, 0],
      ['aten.t.default', 512, 512, 0],
      ['aten.detach.default', 512, 512, 0],
      ['aten.detach.default', 512, 512, 0],
      ['profiler._record_function_enter_new.default', 1024, 1024, 0],
      // spec §4.1 rows 19-20 (and 41-42): the next PTA event in the leaks run is the 4,000,256-byte randn MALLOC;
      // after the last base op no PTA event follows, so Base is 0 (not N/A).
      ['aten._foreach_add_.List', aAfter, bAfter, (bAfter ?? 0) - (aAfter ?? 0)],
      ['profiler._record_function_exit._RecordFunction', aAfter, bAfter, (bAfter ?? 0) - (aAfter ?? 0)],
      ['aten.randn.default', null, tail[0], tail[0]],
      ['aten._to_copy.default', null, tail[1], tail[1]],
    ];
    const rows = [...iteration(1536, 4000256, [4000256, 1536]), ...iteration(0, 4000256, [4000256, 0])];
    // The second iteration starts with addmm 1536 (the first iteration's output is freed first): set by hand.
    rows[23] = ['aten.addmm.default', 1536, 1536, 0];
    rows[20 + 2 + 17] = ['profiler._record_function_enter_new.default', 1024, 1024, 0];
    const expected =
      COMPARE_HEADER +
      rows.map(([name, a, b, d]) => `OP_LAUNCH,torch._ops.${name},0,${a ?? 'N/A'},${b ?? 'N/A'},${d}\n`).join('');
    expect(r.csv).toBe(expected);
    expect(r.rows).toBe(44);
  });
});

describe('compare-dumps: msMemScope details', () => {
  it('orders devices as libstdc++ iterates an unordered_map: reverse first appearance below 13, buckets mod 13 beyond', () => {
    const order = new StdUnorderedOrder();
    for (const d of [0n, 1n, 2n, 3n]) order.insert(d);
    expect(order.order()).toEqual([3n, 2n, 1n, 0n]);
    const wide = new StdUnorderedOrder();
    for (const d of [0n, 13n, 1n]) wide.insert(d); // 13 shares bucket 0 with device 0: it goes first in that bucket
    expect(wide.order()).toEqual([1n, 13n, 0n]);
    const many = new StdUnorderedOrder();
    for (let d = 0n; d < 14n; d++) many.insert(d); // the 14th key rehashes to 29 buckets
    expect(many.order()).toEqual([13n, 0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n, 12n]); // the rehash walks the old list, reversing it
  });

  it('reads device and timestamp cells as std::stoull(…, 0) does', () => {
    expect(stoull0('0')).toBe(0n);
    expect(stoull0('0x1f')).toBe(31n);
    expect(stoull0('010')).toBe(8n);
    expect(stoull0('cpu')).toBeNull();
    expect(stoull0('08')).toBeNull();
    expect(stoull0('1 ')).toBeNull();
    expect(stoull0('-1')).toBe((1n << 64n) - 1n);
  });

  it('takes `size` from the first `size:` in Attr, as ExtractAttrValueByKey does (req_size: too)', () => {
    expect(toolAttrSize('{addr:0x1,size:-512,total:2}')).toBe('-512');
    expect(toolAttrSize('{func:f,req_size:77,flag:0}')).toBe('77');
    expect(toolAttrSize('{addr:1,size:5}')).toBe('5');
    expect(toolAttrSize('{addr:1}')).toBe('');
  });

  it("follows msMemScope's Myers path: [matmul_v1, matmul_v2] vs [mul, matmul_v2] is 3 rows", () => {
    const pairs = alignment(myersPath(Int32Array.from([1, 2]), Int32Array.from([3, 2]), 10));
    expect([...pairs.base]).toEqual([0, -1, 1]);
    expect([...pairs.current]).toEqual([-1, 0, 1]);
  });

  it('refuses a pair whose edit distance passes the bound instead of running on', () => {
    const ops = (names: string[]) =>
      [G5, ...names.map((n, i) => `${i + 1},OP_LAUNCH,ATEN_END,${n},${1000 + i},1,1,0,N/A,,,`)].join('\n');
    const a = ops(Array.from({ length: 50 }, (_, i) => `a${i}`));
    const b = ops(Array.from({ length: 50 }, (_, i) => `b${i}`));
    const error = thrown(() =>
      compareDumpTexts({ name: 'a.csv', text: a }, { name: 'b.csv', text: b }, { maxEdits: 20 }),
    );
    expect(error.message).toBe(
      'device 0: the 50 and 50 launches differ by more than 20 edits; refusing a diff that would run for too long (compare a shorter trace, or raise --max-edits)',
    );
    expect(compareDumpTexts({ name: 'a.csv', text: a }, { name: 'b.csv', text: b }, { maxEdits: 100 }).rows).toBe(100);
  });

  it('rejects a MINDSPORE row after PTA rows, naming both places', () => {
    const text = [G5, '1,MALLOC,PTA,N/A,10,1,1,0,0x1,"{size:4}",,', '2,OP_LAUNCH,ATEN_END,op,11,1,1,0,N/A,,,'].join(
      '\n',
    );
    const other = [G5, '1,MALLOC,MINDSPORE,N/A,10,1,1,0,0x1,"{size:4}",,'].join('\n');
    expect(thrown(() => compareDumpTexts({ name: 'a.csv', text }, { name: 'b.csv', text: other })).message).toBe(
      'b.csv:2: a MINDSPORE pool row after PTA rows (a.csv:2): msMemScope compares dumps of one framework and rejects this file',
    );
  });

  it('compares a MSTX message with a quote inside as meant, warning that msMemScope would reject the file', () => {
    const text = [
      G5,
      '1,MSTX,Mark,"say "hi" now",1764753083997498270,1,1,0,N/A,,,',
      '2,OP_LAUNCH,ATEN_END,op,1764753083997498280,1,1,0,N/A,,,',
      '3,MALLOC,PTA,N/A,1764753083997498290,1,1,0,0x1,"{size:4}",,',
    ].join('\n');
    const warnings: DumpWarning[] = [];
    const r = compareDumpTexts(
      { name: 'a.csv', text },
      { name: 'b.csv', text },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(r.csv).toBe(`${COMPARE_HEADER}OP_LAUNCH,op,0,4,4,0\n`);
    expect(warnings.map((w) => `${w.file}:${w.line}: ${w.reason}`)).toEqual([
      "a.csv:2: msMemScope's reader sees 13 fields here, not 12, and would reject the whole file; compared as the row was meant",
      "b.csv:2: msMemScope's reader sees 13 fields here, not 12, and would reject the whole file; compared as the row was meant",
    ]);
  });

  it('fails loudly when no launch exists on any device', async () => {
    const error = await thrownAsync(
      compareDumpFiles(file('baseline_dump.csv'), file('leaks_dump.csv'), { level: 'kernel' }),
    );
    expect(error.message).toBe(
      'no KERNEL_LAUNCH launches on any device of baseline_dump.csv or leaks_dump.csv: nothing to compare (msMemScope writes no file either)',
    );
  });
});

/** A generated dump: per device, ops with a PTA MALLOC after most of them; rows in `order` (the tool writes late). */
interface GenOp {
  name: string;
  size: number | null;
}
function dumpText(devices: GenOp[][], order: number[] | null): string {
  const rows: string[] = [];
  let id = 1;
  devices.forEach((ops, dev) => {
    let ts = 1_764_753_083_000_000_000n + BigInt(dev) * 7n;
    for (const op of ops) {
      ts += 1000n;
      rows.push(`${id++},OP_LAUNCH,ATEN_END,${op.name},${ts},9,9,${dev},N/A,,,`);
      if (op.size !== null) {
        ts += 10n;
        rows.push(
          `${id++},MALLOC,PTA,N/A,${ts},9,9,${dev},0x${(0x1000 + id).toString(16).padStart(16, '0')},"{allocation_id:${id},addr:0x1,size:${op.size},total:2097152,used:${op.size}}",,`,
        );
      }
    }
  });
  const body =
    order === null
      ? rows
      : order.map((i) => rows[i % rows.length] as string).filter((r, i, all) => all.indexOf(r) === i);
  if (order !== null) for (const r of rows) if (!body.includes(r)) body.push(r);
  return [G5, ...body].join('\n') + '\n';
}

const genOp = fc.record({
  name: fc.constantFrom('mm', 'add', 'mul', 'sum', 'view'),
  size: fc.option(fc.integer({ min: 1, max: 1 << 20 }), { nil: null }),
});
const genDump = fc.array(fc.array(genOp, { minLength: 0, maxLength: 30 }), { minLength: 1, maxLength: 4 });

function aggregate(csv: string): Map<string, { diff: number; rows: number }> {
  const out = new Map<string, { diff: number; rows: number }>();
  for (const line of csv.split('\n').slice(2, -1)) {
    const [event, name, dev, , , diff] = line.split(',');
    const key = `${event}/${dev}/${name}`;
    const t = out.get(key) ?? { diff: 0, rows: 0 };
    t.diff += Number(diff);
    t.rows++;
    out.set(key, t);
  }
  return out;
}

function compareOrEmpty(a: string, b: string): string {
  try {
    return compareDumpTexts({ name: 'a.csv', text: a }, { name: 'b.csv', text: b }).csv;
  } catch (error) {
    if (/nothing to compare/.test((error as Error).message)) return COMPARE_HEADER;
    throw error;
  }
}

describe('compare-dumps properties on generated dumps', () => {
  it('identical dumps give all-zero diffs and no N/A', () => {
    fc.assert(
      fc.property(genDump, (devs) => {
        const text = dumpText(devs, null);
        const csv = compareOrEmpty(text, text);
        for (const line of csv.split('\n').slice(2, -1)) {
          expect(line.endsWith(',0')).toBe(true);
          expect(line.includes('N/A,')).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('swapping base and current negates every Diff (per device and name) and keeps the row count', () => {
    fc.assert(
      fc.property(genDump, genDump, (da, db) => {
        const a = dumpText(da, null);
        const b = dumpText(db, null);
        const ab = aggregate(compareOrEmpty(a, b));
        const ba = aggregate(compareOrEmpty(b, a));
        expect([...ab.keys()].sort()).toEqual([...ba.keys()].sort());
        for (const [k, v] of ab) {
          expect(ba.get(k)?.diff).toBe(-v.diff || 0);
        }
        // The optimal alignment has one length either way; which equal names pair up may differ.
        const rows = (m: Map<string, { rows: number }>) => [...m.values()].reduce((s, t) => s + t.rows, 0);
        expect(rows(ba)).toBe(rows(ab));
      }),
      { numRuns: 200 },
    );
  });

  it("shuffling the row order changes no device's rows (rows are written late; the compare sorts by time)", () => {
    // Only the order of the device blocks follows first appearance in the file, as msMemScope's unordered_map does.
    const blocks = (csv: string) => {
      const out: Record<string, string[]> = {};
      for (const line of csv.split('\n').slice(2, -1)) (out[line.split(',')[2] as string] ??= []).push(line);
      return out;
    };
    fc.assert(
      fc.property(genDump, genDump, fc.array(fc.nat({ max: 10_000 }), { maxLength: 300 }), (da, db, perm) => {
        const a = dumpText(da, null);
        const b = dumpText(db, null);
        expect(blocks(compareOrEmpty(dumpText(da, perm), dumpText(db, perm.slice().reverse())))).toEqual(
          blocks(compareOrEmpty(a, b)),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('compare-dumps reads the fixtures it ships', () => {
  it('has the fixtures copied, not read from ../shared', () => {
    expect(readFileSync(join(FIX, 'SOURCES.md'), 'utf8')).toContain('memscope_dump_20250428113810.csv');
  });
});

describe('compare-dumps output under a slow reader', () => {
  it('renders the next ~1 MiB piece only once the sink has taken the last one, and through the temporary file gives the same CSV', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { memscopeDumpText } = await import('../../../generators/memscope-dump.js');
    const dir = mkdtempSync(join(tmpdir(), 'slow-reader-'));
    try {
      const path = join(dir, 'memscope_dump_1.csv');
      writeFileSync(path, memscopeDumpText({ steps: 30, opsPerStep: 1000 }));
      const whole = await compareDumpFiles({ path, name: 'a.csv' }, { path, name: 'b.csv' });
      const pieces: string[] = [];
      let waiting = false;
      const sink = (text: string): Promise<void> => {
        expect(waiting).toBe(false);
        pieces.push(text);
        waiting = true;
        return new Promise((resolve) => setTimeout(() => ((waiting = false), resolve()), 5));
      };
      const slow = await compareDumpFiles(
        { path, name: 'a.csv' },
        { path, name: 'b.csv' },
        { sink, chunkEvents: 4096 },
      );
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.join('')).toBe(whole.csv);
      expect([slow.rows, slow.devices]).toEqual([whole.rows, whole.devices]);
      expect(whole.rows).toBe(30_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

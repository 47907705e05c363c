// The profiler memory CSVs: every real corpus file with hand-computed values, every trap of the format, and order/split properties.
//
// Expected sizes are written as the row's MB (or KB) text times 2^20 (or 2^10): every torch_npu MB value is a multiple of
// 2^-20, so that product is exact in a double, and the line the maximum sits on is named beside it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/common/errors.js';
import { parseFile, parseProfilerText } from '../../../src/parsers/profiler/index.js';
import { CollectingTarget } from '../../helpers/profiler-target.js';
import { thrownAsync } from '../../helpers/thrown.js';
import { KiB, MiB } from '../../helpers/story.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/torch_npu/', import.meta.url));
const fixtureText = (rel: string): string => readFileSync(join(FIXTURES, rel), 'latin1');

async function parseFixture(...rels: string[]): Promise<CollectingTarget> {
  const into = new CollectingTarget();
  for (const rel of rels) await parseFile({ path: join(FIXTURES, rel), name: rel }, into);
  return into;
}

function parseText(text: string, name = 'ASCEND_PROFILER_OUTPUT/memory_record.csv', path = name): CollectingTarget {
  const into = new CollectingTarget();
  parseProfilerText(name, text, into, path);
  return into;
}

const A3 = 'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type';
const A2 = 'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Device Type';

const tmp = mkdtempSync(join(tmpdir(), 'profiler-parser-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('real memory_record.csv files', () => {
  it('reads the oldest generation (A1, re-saved without TABs): APP, PTA, PTA+GE and GE peaks on dev0', async () => {
    const into = await parseFixture('insight-ut-edited/test_rank_0/memory_record.csv');
    expect(into.values('components')).toEqual({
      'dev0/APP/reserved': 11224.375 * MiB, // line 2
      'dev0/GE/allocated': 0.25 * MiB, // line 10
      'dev0/GE/reserved': 242 * MiB, // line 10
      'dev0/PTA+GE/allocated': 4599.86572265625 * MiB, // line 9
      'dev0/PTA+GE/reserved': 8664 * MiB, // line 5
      'dev0/PTA/allocated': 4599.86572265625 * MiB, // line 8
      'dev0/PTA/reserved': 8664 * MiB, // line 4
    });
    // 4599.86572265625 × 1,048,576 = 4,823,308,800 bytes exactly.
    expect(into.values('components')['dev0/PTA/allocated']).toBe(4_823_308_800);
    expect([into.files, into.records, into.skipped]).toEqual([1, 11, []]);
    // Timelines: APP sampled twice (lines 2, 3), PTA allocated three times (lines 4, 6, 8).
    expect(into.series.components?.['dev0/APP/reserved']?.points.map((p) => p[1])).toEqual([
      11224.375 * MiB,
      11224.375 * MiB,
    ]);
    expect(into.series.components?.['dev0/PTA/allocated']?.points.map((p) => p[1])).toEqual([
      4599.74072265625 * MiB,
      4599.740234375 * MiB,
      4599.86572265625 * MiB,
    ]);
  });

  it('gives a warning naming file and line, and no figure, for the file a spreadsheet damaged (1.69512E+15)', async () => {
    const into = await parseFixture('insight-ut-edited/test_rank_1/memory_record.csv');
    expect(into.metrics).toEqual({});
    expect(into.series).toEqual({});
    expect(into.skipped).toHaveLength(1);
    expect(into.skipped[0]).toMatchObject({ file: 'insight-ut-edited/test_rank_1/memory_record.csv', line: 2 });
    expect(into.skipped[0]?.reason).toMatch(/^spreadsheet damage: Timestamp\(us\) is "1\.69512E\+15"/);
    expect(into.files).toBe(1);
  });

  it('reads level0-2025-01 (A3, CRLF, TAB after every timestamp, GE rows, two ranks)', async () => {
    const into = await parseFixture(
      'level0-2025-01/rank0_ascend_pt/memory_record.csv',
      'level0-2025-01/rank1_ascend_pt/memory_record.csv',
    );
    const perDevice = (d: string): Record<string, number> => ({
      [`${d}/APP/reserved`]: 2109.6015625 * MiB, // line 2
      [`${d}/GE/allocated`]: 73.0625 * MiB, // line 37
      [`${d}/GE/reserved`]: 74.75 * MiB, // line 33
      [`${d}/PTA+GE/active`]: 1187.9814453125 * MiB, // line 918
      [`${d}/PTA+GE/allocated`]: 1188.1064453125 * MiB, // line 918
      [`${d}/PTA+GE/reserved`]: 1526.75 * MiB, // line 34
      [`${d}/PTA/active`]: 1187.9814453125 * MiB, // line 917
      [`${d}/PTA/allocated`]: 1187.9814453125 * MiB, // line 917
      [`${d}/PTA/reserved`]: 1452 * MiB, // line 15
    });
    expect(into.values('components')).toEqual({ ...perDevice('dev0'), ...perDevice('dev1') });
    expect([into.files, into.records, into.skipped.length]).toEqual([2, 2 * 1003, 0]);
    expect([...into.devices].sort()).toEqual(['dev0', 'dev1']);
  });

  it('reads st-level2 torch_npu 2.7.1 (LF, rank 2 on NPU:4)', async () => {
    const into = await parseFixture(
      'st-level2-pt2.7.1-cann8.3/rank_0_ascend_pt/memory_record.csv',
      'st-level2-pt2.7.1-cann8.3/rank_2_ascend_pt/memory_record.csv',
    );
    expect(into.values('components')).toEqual({
      'dev0/APP/reserved': 11925.015625 * MiB, // line 2
      'dev0/PTA+GE/active': 10282.7490234375 * MiB, // line 5908
      'dev0/PTA+GE/allocated': 10282.7490234375 * MiB,
      'dev0/PTA+GE/reserved': 10372 * MiB, // line 44
      'dev0/PTA/active': 10282.7490234375 * MiB, // line 5907
      'dev0/PTA/allocated': 10282.7490234375 * MiB,
      'dev0/PTA/reserved': 10372 * MiB, // line 43
      'dev4/APP/reserved': 12675.37109375 * MiB, // line 2
      'dev4/PTA+GE/active': 10818.06298828125 * MiB, // line 11031
      'dev4/PTA+GE/allocated': 10818.06298828125 * MiB,
      'dev4/PTA+GE/reserved': 10868 * MiB, // line 43
      'dev4/PTA/active': 10818.06298828125 * MiB, // line 11030
      'dev4/PTA/allocated': 10818.06298828125 * MiB,
      'dev4/PTA/reserved': 10868 * MiB, // line 42
    });
    expect(into.records).toBe(18659 + 19396);
    // At most 200 window peaks per series, whatever the rows.
    for (const s of Object.values(into.series.components ?? {})) expect(s.points.length).toBeLessThanOrEqual(200);
  });

  it('reads the file streamed in chunks exactly as from one string', async () => {
    const rel = 'st-level2-pt2.7.1-cann8.3/rank_0_ascend_pt/memory_record.csv';
    const streamed = await parseFixture(rel);
    const whole = parseText(fixtureText(rel), rel);
    expect(streamed.metrics).toEqual(whole.metrics);
    expect(streamed.series).toEqual(whole.series);
  });
});

describe('real npu_module_mem.csv files', () => {
  it('puts every driver module beside the plog modules as NPU_MODULE_MEM/devN/<MODULE>, with a timeline only when it held memory', async () => {
    const into = await parseFixture('level0-2025-01/rank0_ascend_pt/npu_module_mem.csv');
    const modules = into.values('modules');
    expect(Object.keys(modules)).toHaveLength(77);
    expect(Object.fromEntries(Object.entries(modules).filter(([, v]) => v > 0))).toEqual({
      'NPU_MODULE_MEM/dev0/APP': 1452 * MiB, // line 431
      'NPU_MODULE_MEM/dev0/GE': 76 * MiB, // line 587
      'NPU_MODULE_MEM/dev0/HCCL': 404.0625 * MiB, // line 41
      'NPU_MODULE_MEM/dev0/RUNTIME': 92.234375 * MiB, // line 97
    });
    expect(into.metrics.modules?.['NPU_MODULE_MEM/dev0/HCCL']).toEqual({
      peak: 404.0625 * MiB,
      current: 404.0625 * MiB,
      allocs: null,
      frees: null,
    });
    expect(modules['NPU_MODULE_MEM/dev0/SLOG']).toBe(0);
    expect(Object.keys(into.series.modules ?? {}).sort()).toEqual([
      'NPU_MODULE_MEM/dev0/APP',
      'NPU_MODULE_MEM/dev0/GE',
      'NPU_MODULE_MEM/dev0/HCCL',
      'NPU_MODULE_MEM/dev0/RUNTIME',
    ]);
    expect(into.records).toBe(1001);
  });

  it('reads the old CRLF file with TABs and the bare numeric module 76', async () => {
    const into = await parseFixture('insight-ut-edited/test_rank_0/npu_module_mem.csv');
    const modules = into.values('modules');
    expect(Object.keys(modules)).toHaveLength(23);
    expect(modules['NPU_MODULE_MEM/dev0/76']).toBe(0);
    expect(Object.fromEntries(Object.entries(modules).filter(([, v]) => v > 0))).toEqual({
      'NPU_MODULE_MEM/dev0/APP': 25750 * MiB, // line 49
      'NPU_MODULE_MEM/dev0/HCCL': 816.12109375 * MiB, // line 8
      'NPU_MODULE_MEM/dev0/LP': 82.35546875 * MiB, // line 60
      'NPU_MODULE_MEM/dev0/ROS': 10.7890625 * MiB, // line 40
      'NPU_MODULE_MEM/dev0/RUNTIME': 84.24609375 * MiB, // line 20
    });
  });

  it('reads the newest header with a leading Device_id (st-level2, device 4)', async () => {
    const into = await parseFixture('st-level2-pt2.7.1-cann8.3/rank_2_ascend_pt/npu_module_mem.csv');
    const modules = into.values('modules');
    expect(Object.keys(modules)).toHaveLength(77);
    expect(Object.fromEntries(Object.entries(modules).filter(([, v]) => v > 0))).toEqual({
      'NPU_MODULE_MEM/dev4/APP': 10868 * MiB, // line 1487
      'NPU_MODULE_MEM/dev4/HCCL': 1488.9609375 * MiB, // line 137
      'NPU_MODULE_MEM/dev4/RUNTIME': 60.25 * MiB, // line 317
      'NPU_MODULE_MEM/dev4/SLOG': 161.33984375 * MiB, // line 2
    });
  });

  it('reads st-level2 rank 0 (device 0)', async () => {
    const into = await parseFixture('st-level2-pt2.7.1-cann8.3/rank_0_ascend_pt/npu_module_mem.csv');
    const modules = into.values('modules');
    expect(Object.keys(modules)).toHaveLength(77);
    expect(Object.fromEntries(Object.entries(modules).filter(([, v]) => v > 0))).toEqual({
      'NPU_MODULE_MEM/dev0/APP': 10372 * MiB, // line 1487
      'NPU_MODULE_MEM/dev0/HCCL': 1241.69921875 * MiB, // line 137
      'NPU_MODULE_MEM/dev0/RUNTIME': 58.24609375 * MiB, // line 317
      'NPU_MODULE_MEM/dev0/SLOG': 158.65234375 * MiB, // line 2
    });
  });

  it('reads a folder with CRLF memory_record and LF npu_module_mem side by side (level0 rank1)', async () => {
    const into = await parseFixture(
      'level0-2025-01/rank1_ascend_pt/memory_record.csv',
      'level0-2025-01/rank1_ascend_pt/npu_module_mem.csv',
    );
    expect(into.values('components')['dev1/PTA/reserved']).toBe(1452 * MiB);
    // The driver's view of the app equals the allocator's reserved peak: 1452 MB both.
    expect(into.values('modules')['NPU_MODULE_MEM/dev1/APP']).toBe(1452 * MiB);
    expect(into.values('modules')['NPU_MODULE_MEM/dev1/RUNTIME']).toBe(92.234375 * MiB); // line 98
  });
});

describe('real operator_memory.csv files', () => {
  it('keeps, per device and operator, the largest allocation, the count and the total (A1, 10 columns, KB)', async () => {
    const into = await parseFixture('insight-ut-edited/test_rank_0/operator_memory.csv');
    // Every row's Size(KB), grouped by Name; bytes = KB × 1024.
    expect(into.metrics.operators).toEqual({
      'dev0/cann::Graph_103': { largest: 64 * KiB, count: 1, total: 64 * KiB }, // 64 KB
      'dev0/cann::Graph_107': { largest: 64 * KiB, count: 1, total: 64 * KiB }, // 64 KB
      'dev0/cann::Graph_109': { largest: 64 * KiB, count: 3, total: 192 * KiB }, // 64 + 64 + 64 KB
      'dev0/cann::Graph_110': { largest: 64 * KiB, count: 3, total: 192 * KiB }, // 64 + 64 + 64 KB
      'dev0/cann::Graph_111': { largest: 64 * KiB, count: 5, total: 320 * KiB }, // 5 × 64 KB
      'dev0/cann::Graph_22': { largest: 1344 * KiB, count: 9, total: 12096 * KiB }, // 9 × 1344 KB
      'dev0/cann::Graph_70': { largest: 192 * KiB, count: 1, total: 192 * KiB }, // 192 KB
      'dev0/cann::Graph_89': { largest: 64 * KiB, count: 1, total: 64 * KiB }, // 64 KB
      'dev0/cann::Graph_95': { largest: 81984 * KiB, count: 4, total: 327936 * KiB }, // 4 × 81984 KB = 335,806,464 bytes
    });
  });

  it('reads the 15-column file of insight test_rank_1 exactly (TAB after times, LF)', async () => {
    const into = await parseFixture('insight-ut-edited/test_rank_1/operator_memory.csv');
    expect(into.metrics.operators).toEqual({
      'dev1/aten::_convolution': { largest: 802816.5 * KiB, count: 3, total: 1204225.5 * KiB }, // 802816.5 + 200704.5 + 200704.5 KB
      'dev1/aten::div': { largest: 301056.5 * KiB, count: 1, total: 301056.5 * KiB },
      'dev1/aten::empty_strided': { largest: 75776 * KiB, count: 2, total: 75778.5 * KiB }, // 75776.0 + 2.5 KB
      'dev1/aten::max_pool2d_with_indices': { largest: 200706 * KiB, count: 2, total: 314178.5 * KiB }, // 200706.0 + 113472.5 KB
      'dev1/aten::native_batch_norm': { largest: 802818 * KiB, count: 10, total: 1003526.5 * KiB }, // 7 × 0.5 + 802818.0 + 200704.5 KB
      'dev1/aten::npu_dtype_cast': { largest: 301056.5 * KiB, count: 2, total: 451585 * KiB }, // 301056.5 + 150528.5 KB
      'dev1/aten::sub': { largest: 301056.5 * KiB, count: 1, total: 301056.5 * KiB },
    });
  });

  it('reads the 15-column generation with fractional KB (level0, 24 rows without a release)', async () => {
    const into = await parseFixture('level0-2025-01/rank0_ascend_pt/operator_memory.csv');
    expect(Object.keys(into.metrics.operators ?? {})).toHaveLength(58);
    // aten::mm: largest 147456.5 KB (line 67) = 150,995,456 bytes; 7 allocations.
    expect(into.metrics.operators?.['dev0/aten::mm']).toMatchObject({ largest: 147456.5 * KiB, count: 7 });
    expect(into.metrics.operators?.['dev0/aten::mm']?.total).toBe(258_591_744);
    // aten::empty_strided, line 2: 18816.5 KB, never released in the window.
    expect(into.metrics.operators?.['dev0/aten::empty_strided']?.largest).toBeGreaterThanOrEqual(18816.5 * KiB);
    expect(into.records).toBe(184);
  });

  it('reads st-level2 rank 2: npu::_npu_dtype_cast peaks at 2,430,976.5 KB', async () => {
    const into = await parseFixture('st-level2-pt2.7.1-cann8.3/rank_2_ascend_pt/operator_memory.csv');
    expect(Object.keys(into.metrics.operators ?? {})).toHaveLength(40);
    expect(into.metrics.operators?.['dev4/npu::_npu_dtype_cast']).toEqual({
      largest: 2430976.5 * KiB,
      count: 234,
      total: 7_585_670_144,
    }); // line 689
    expect(into.metrics.operators?.['dev4/aten::matmul']).toEqual({
      largest: 1527554 * KiB,
      count: 628,
      total: 20_079_651_840,
    }); // line 744
  });

  it('reads the other real operator files without a warning', async () => {
    const into = await parseFixture(
      'insight-ut-edited/test_rank_1/operator_memory.csv',
      'level0-2025-01/rank1_ascend_pt/operator_memory.csv',
      'st-level2-pt2.7.1-cann8.3/rank_0_ascend_pt/operator_memory.csv',
    );
    expect(into.skipped).toEqual([]);
    // 802818.0 KB (line 11) = 822,085,632 bytes.
    expect(into.metrics.operators?.['dev1/aten::native_batch_norm']).toMatchObject({
      largest: 802818 * KiB,
      count: 10,
    });
    expect(into.metrics.operators?.['dev0/aten::embedding_dense_backward']).toEqual({
      largest: 640564 * KiB,
      count: 4,
      total: 1_934_205_952,
    }); // line 1977
    expect(into.records).toBe(21 + 184 + 3103);
  });
});

describe('real static_op_mem.csv', () => {
  it('takes the TOTAL row of each graph and never adds the other rows', async () => {
    const into = await parseFixture('insight-ut-edited/test_rank_1/static_op_mem.csv');
    // Line 29: host,TOTAL,0,0,1,4294967295,17210.5 → 17210.5 × 1024 = 17,623,552 bytes (the 27 rows above it are not added).
    // Line 57: host,TOTAL,0,1,1,4294967295,19910.5 → 19910.5 × 1024 = 20,388,352 bytes.
    expect(into.metrics.graphs).toEqual({ 'host/0/0': { size: 17210.5 * KiB }, 'host/0/1': { size: 19910.5 * KiB } });
    expect(into.records).toBe(56);
  });
});

describe('traps of the format', () => {
  it('reads CRLF, LF and both mixed in one file the same', () => {
    const rows = [
      A3,
      'PTA,100.000\t,1.5,2.0,1.5,7,NPU:0',
      'PTA,200.000\t,3.0,4.0,3.0,7,NPU:0',
      'APP,150.000\t,,10.0,,,NPU:0',
    ];
    const lf = parseText(`${rows.join('\n')}\n`);
    const crlf = parseText(`${rows.join('\r\n')}\r\n`);
    const mixed = parseText(`${rows[0]}\r\n${rows[1]}\n${rows[2]}\r\n${rows[3]}`);
    expect(lf.values('components')).toEqual({
      'dev0/APP/reserved': 10 * MiB,
      'dev0/PTA/active': 3 * MiB,
      'dev0/PTA/allocated': 3 * MiB,
      'dev0/PTA/reserved': 4 * MiB,
    });
    expect(crlf.metrics).toEqual(lf.metrics);
    expect(mixed.metrics).toEqual(lf.metrics);
    expect(mixed.series).toEqual(lf.series);
  });

  it('skips empty cells, N/A and negative values (unknown), never reading them as 0 or a tiny size', () => {
    const into = parseText(
      [
        'Component,Timestamp(us),Total Reserved(MB),Device',
        'HCCL,1.000\t,-0.0009765625,NPU:0', // msprof -1 KB sentinel / 1024: unknown
        'HCCL,2.000\t,N/A,NPU:0',
        'HCCL,3.000\t,,NPU:0',
        'APP,1.000\t,-0.0009765625,NPU:0',
        'RUNTIME,1.000\t,12.5,NPU:0',
      ].join('\n'),
      'npu_module_mem.csv',
    );
    // HCCL and APP have no known value: no key at all, rather than a peak of 0.
    expect(into.values('modules')).toEqual({ 'NPU_MODULE_MEM/dev0/RUNTIME': 12.5 * MiB });
    expect(into.skipped).toEqual([]);
    expect(into.records).toBe(5);
  });

  it('does not depend on row order: APP rows first, time going backwards', () => {
    const into = parseText(
      [
        A3,
        'PTA,300.000\t,5.0,8.0,5.0,1,NPU:1',
        'PTA,100.000\t,7.0,8.0,7.0,1,NPU:1',
        'PTA,200.000\t,6.0,8.0,6.0,1,NPU:1',
      ].join('\n'),
    );
    expect(into.values('components')['dev1/PTA/allocated']).toBe(7 * MiB);
    expect(into.series.components?.['dev1/PTA/allocated']).toEqual({
      axis: 'time',
      width: 1,
      points: [
        [100, 7 * MiB],
        [200, 6 * MiB],
        [300, 5 * MiB],
      ],
    });
  });

  it('warns with file:line for a cell that is not a number or a row of the wrong width, and keeps the rest', () => {
    const into = parseText(
      [
        A3,
        'PTA,1.000\t,1.0,2.0,1.0,1,NPU:0',
        'PTA,2.000\t,lots,2.0,1.0,1,NPU:0',
        'PTA,3.000\t,1.0,2.0',
        'PTA,4.000\t,1.0,2.0,1.0,1,GPU:0',
      ].join('\n'),
      'r/memory_record.csv',
    );
    expect(into.values('components')['dev0/PTA/allocated']).toBe(1 * MiB);
    expect(into.skipped.map((s) => `${s.file}:${s.line}: ${s.reason}`)).toEqual([
      'r/memory_record.csv:3: Total Allocated(MB) is not a number: "lots"; row skipped',
      'r/memory_record.csv:4: expected 7 cells (torch_npu A3 (6.0.rc1 on) header), got 4: row skipped',
      'r/memory_record.csv:5: unknown device "GPU:0" in Device Type: expected NPU:<n>, <n> or host; row skipped',
    ]);
    expect(into.records).toBe(1);
  });

  it('refuses a file whose header is no known profiler table, naming file and line', async () => {
    const file = join(tmp, 'kernel_details.csv');
    writeFileSync(file, 'Step Id,Model ID,Task ID,Stream ID,Name\n1,2,3,4,MatMul\n');
    const err = await thrownAsync(parseFile({ path: file, name: 'out/kernel_details.csv' }, new CollectingTarget()));
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toBe(
      'out/kernel_details.csv:1: not a profiler memory CSV: the header "Step Id,Model ID,Task ID,Stream ID,Name" is none of the known memory_record, npu_module_mem, operator_memory, static_op_mem, npu_mem headers',
    );
  });

  it('warns about an empty file (msprof leaves 0-byte slices) and reads nothing from it', async () => {
    const file = join(tmp, 'memory_record_slice_0_20230919172304.csv');
    writeFileSync(file, '');
    const into = new CollectingTarget();
    await parseFile({ path: file, name: 'memory_record_slice_0_20230919172304.csv' }, into);
    expect(into.skipped).toEqual([
      { file: 'memory_record_slice_0_20230919172304.csv', line: 1, reason: 'empty file: no header, nothing read' },
    ]);
    expect(into.metrics).toEqual({});
  });

  it('reads a quoted operator name with a comma (csv.writer quotes it)', () => {
    const header =
      'Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Release Total Allocated(MB),Release Total Reserved(MB),Device Type';
    const into = parseText(
      `${header}\n"my::op<a,b>",64.5,1.0,2.0,1.0,1.0,2.0,1.0,2.0,NPU:2\n,1.0,1.0,2.0,1.0,1.0,2.0,1.0,2.0,NPU:2\n`,
      'operator_memory.csv',
    );
    expect(into.metrics.operators).toEqual({
      'dev2/my::op<a,b>': { largest: 64.5 * KiB, count: 1, total: 64.5 * KiB },
      'dev2/(no operator)': { largest: 1 * KiB, count: 1, total: 1 * KiB },
    });
  });

  it('ignores a negative Size(KB) (a release seen without its allocation)', () => {
    const header =
      'Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(KB),Allocation Total Reserved(KB),Release Total Allocated(KB),Release Total Reserved(KB),Device';
    const into = parseText(
      `Device_id,${header}\n0,aten::add,-512.0,,,,,,,NPU:0\n0,aten::add,256.0,5.000\t,1.0,1.0,1.0,1.0,1.0,NPU:0\n`,
      'operator_memory_20250101.csv',
    );
    expect(into.metrics.operators).toEqual({ 'dev0/aten::add': { largest: 256 * KiB, count: 1, total: 256 * KiB } });
  });
});

describe('units decided by the header, never the file name', () => {
  it('reads msprof memory_record (KB, merged with Device_id, host rows kept apart)', () => {
    const into = parseText(
      [
        'Device_id,Component,Timestamp(us),Total Allocated(KB),Total Reserved(KB),Device',
        '0,GE,10.000\t,900.031,2048.0,NPU:0',
        '0,GE,20.000\t,1024.5,2048.0,NPU:0',
        'host,GE,10.000\t,1.0,2.0,host',
      ].join('\n'),
      'PROF_1/mindstudio_profiler_output/memory_record_20250101120000.csv',
    );
    expect(into.values('components')).toEqual({
      'dev0/GE/allocated': 1024.5 * KiB, // 1,049,088
      'dev0/GE/reserved': 2048 * KiB,
      'host/GE/allocated': 1 * KiB,
      'host/GE/reserved': 2 * KiB,
    });
    expect([...into.devices]).toEqual(['dev0']);
  });

  it("reads MindSpore's 6-column memory_record as KB/1000 'MB' (1,024,000 bytes), recognised by its MindSpore rows", () => {
    const into = parseText(
      [
        A2,
        'GE,1.000\t,0.5,1.0,,NPU:0',
        'MindSpore,2.000\t,1.5,2.0,1.5,NPU:0',
        'MindSpore+GE,2.000\t,2.0,3.0,1.5,NPU:0',
      ].join('\n'),
    );
    expect(into.values('components')).toEqual({
      'dev0/GE/allocated': 512_000, // 0.5 × 1,024,000
      'dev0/GE/reserved': 1_024_000,
      'dev0/MindSpore/active': 1_536_000,
      'dev0/MindSpore/allocated': 1_536_000,
      'dev0/MindSpore/reserved': 2_048_000,
      'dev0/MindSpore+GE/active': 1_536_000,
      'dev0/MindSpore+GE/allocated': 2_048_000,
      'dev0/MindSpore+GE/reserved': 3_072_000,
    });
  });

  it('reads the same 6-column header from torch_npu (PTA rows) in MiB', () => {
    const into = parseText([A2, 'PTA,1.000\t,0.5,1.0,0.5,NPU:3'].join('\n'));
    expect(into.values('components')).toEqual({
      'dev3/PTA/active': MiB / 2,
      'dev3/PTA/allocated': MiB / 2,
      'dev3/PTA/reserved': MiB,
    });
  });

  it('refuses, with a warning naming the file, a 6-column file whose rows cannot tell the unit', () => {
    const into = parseText(
      [A2, 'GE,1.000\t,0.5,1.0,,NPU:0', 'APP,1.000\t,,9.0,,NPU:0'].join('\n'),
      'x_ascend_ms/ASCEND_PROFILER_OUTPUT/memory_record.csv',
    );
    expect(into.metrics).toEqual({});
    expect(into.skipped).toHaveLength(1);
    expect(into.skipped[0]?.file).toBe('x_ascend_ms/ASCEND_PROFILER_OUTPUT/memory_record.csv');
    expect(into.skipped[0]?.reason).toMatch(
      /written both by torch_npu .* and by MindSpore .* have neither PTA nor MindSpore components: the unit is unknown/,
    );
  });

  it("reads MindSpore's copy of msprof npu_module_mem under the torch_npu name in KB", () => {
    const into = parseText(
      'Component,Timestamp(us),Total Reserved(KB),Device\nHCCL,1.000\t,413760,NPU:0\n',
      'ASCEND_PROFILER_OUTPUT/npu_module_mem.csv',
    );
    expect(into.values('modules')).toEqual({ 'NPU_MODULE_MEM/dev0/HCCL': 413760 * KiB });
  });

  it('reads msprof npu_mem: HBM and DDR of APP and Device, device from Device_id or the device_<n> folder', () => {
    const merged = parseText(
      'Device_id,event,ddr(KB),hbm(KB),memory(KB),timestamp(us)\n1,APP,0,162460,162460,5.000\t\n1,Device,12,3000000,3000012,5.000\t\n',
      'npu_mem_20250101.csv',
    );
    expect(merged.values('components')).toEqual({
      'dev1/APP/ddr': 0,
      'dev1/APP/hbm': 162460 * KiB,
      'dev1/Device/ddr': 12 * KiB,
      'dev1/Device/hbm': 3000000 * KiB,
    });
    const perDevice = parseText(
      'event,ddr(KB),hbm(KB),memory(KB),timestamp(us)\nAPP,0,100.5,100.5,5.000\t\n',
      'npu_mem_3.csv',
      'PROF_1/device_3/summary/npu_mem_3.csv',
    );
    expect(perDevice.values('components')).toEqual({ 'dev3/APP/ddr': 0, 'dev3/APP/hbm': 100.5 * KiB });
  });
});

describe('properties', () => {
  const rel = 'level0-2025-01/rank0_ascend_pt/memory_record.csv';
  const lines = fixtureText(rel)
    .split('\r\n')
    .filter((l) => l !== '');
  const [header, ...rows] = lines as [string, ...string[]];

  it('row order does not change the result (peaks and timelines)', () => {
    const expected = parseText(lines.join('\n'));
    fc.assert(
      fc.property(fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length }), (shuffled) => {
        const got = parseText([header, ...shuffled].join('\n'));
        expect(got.metrics).toEqual(expected.metrics);
        expect(got.series).toEqual(expected.series);
      }),
      { numRuns: 10 },
    );
  });

  it('splitting a file in two (each part with the header) does not change the result', () => {
    const expected = parseText(lines.join('\n'));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: rows.length }), (cut) => {
        const into = new CollectingTarget();
        parseProfilerText('part1.csv', [header, ...rows.slice(0, cut)].join('\n'), into);
        parseProfilerText('part2.csv', [header, ...rows.slice(cut)].join('\n'), into);
        expect(into.metrics).toEqual(expected.metrics);
        expect(into.series).toEqual(expected.series);
      }),
      { numRuns: 20 },
    );
  });

  it('splitting an npu_module_mem file does not change its module peaks', () => {
    const text = fixtureText('st-level2-pt2.7.1-cann8.3/rank_0_ascend_pt/npu_module_mem.csv')
      .split('\n')
      .filter((l) => l !== '');
    const [h, ...r] = text as [string, ...string[]];
    const expected = parseText(text.join('\n'), 'npu_module_mem.csv');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: r.length }), (cut) => {
        const into = new CollectingTarget();
        parseProfilerText('a.csv', [h, ...r.slice(0, cut)].join('\n'), into);
        parseProfilerText('b.csv', [h, ...r.slice(cut)].join('\n'), into);
        expect(into.values('modules')).toEqual(expected.values('modules'));
        expect(into.series).toEqual(expected.series);
      }),
      { numRuns: 10 },
    );
  });
});

describe('directories in the path', () => {
  it('takes the device from a device_<n> folder only when the file has no device column', async () => {
    const dir = join(tmp, 'PROF_x', 'device_6', 'summary');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'npu_mem_6_20250101.csv');
    writeFileSync(file, 'event,ddr(KB),hbm(KB),memory(KB),timestamp(us)\nAPP,0,1024,1024,1.000\t\n');
    const into = new CollectingTarget();
    await parseFile({ path: file, name: 'PROF_x/device_6/summary/npu_mem_6_20250101.csv' }, into);
    expect(into.values('components')).toEqual({ 'dev6/APP/ddr': 0, 'dev6/APP/hbm': 1024 * KiB });
  });
});

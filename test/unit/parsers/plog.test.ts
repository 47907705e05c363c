// The plog parser against the real corpus, the seed document's wrapped records and one sample per driver generation.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/common/errors.js';
import { MAX_LINE_BYTES, MAX_RECORD_LINES } from '../../../src/parsers/plog/grammar.js';
import { parsePlogFile } from '../../../src/parsers/plog/index.js';
import { parsePlogText, scanPlogChunks } from '../../../src/parsers/plog/scanner.js';
import { countNewlines } from '../../../src/parsers/plog/window.js';
import {
  MAX_SITES_PER_DEVICE,
  SnapshotBuilder,
  type Snapshot,
  type SkippedRecord,
} from '../../../src/model/snapshot.js';
import { GROWN_APP_PEAK, SEED_APP_PEAK } from '../../helpers/story.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/plog/', import.meta.url));
const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

function parse(text: string | Buffer, name = 'rank_0/plog-1_2024.log'): SnapshotBuilder {
  const into = new SnapshotBuilder();
  parsePlogText(name, text, into);
  return into;
}

/** Everything a parse produced, skipped-record samples included: two parses agree only if all of it agrees. */
function outcome(into: SnapshotBuilder): { snapshot: Snapshot; skipped: SkippedRecord[] } {
  return { snapshot: into.build(), skipped: into.skippedRecords };
}

const tmp = mkdtempSync(join(tmpdir(), 'plog-parser-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
function tmpFile(name: string, content: string | Buffer): { path: string; name: string } {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return { path, name };
}

// Samples from FORMATS.md §1, one per generation.
const V1_DEV =
  '[INFO] DRV(4052516,main_aarch64):2024-07-08-22:27:45.354.856 [ascend][curpid: 4052516, 4052516][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=44138496; alloced_peak_size=44138496; alloc_cnt=18; free_cnt=0)';
const V1_SVM =
  '[INFO] DRV(4176893,python3.7):2024-06-29-16:19:28.436.386 [ascend][curpid: 4176893, 4185695][drv][devmm][_svm_mem_stats_show 148]SVM_MEM Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=19927040; alloced_peak_size=19927040; alloc_cnt=37; free_cnt=0)';
const V2_HOST =
  '[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.178 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]HOST_MEM Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=0; allocated_peak_size=11341824; alloc_cnt=3; free_cnt=3)';
const V2_CACHED =
  '[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.190 [svm_mem_statistics.c:162][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]HOST_MEM Cached_size:12582912Bytes';
const V2_SMALL_HBM =
  '[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.201 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]MEM_DEV_SMALL_HBM dev0 Mem stats (Bytes). (module_name=APP; module_id=33; current_alloced_size=126976; allocated_peak_size=126976; alloc_cnt=7; free_cnt=0)';
const V3_PROC =
  '[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.230 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]DEV_PROC_MEM dev0 Mem stats (Bytes). (module_name=APP; module_id=33; total_size=2078195712)';
const V0_GE =
  '[INFO] DRV(10972,python):2023-09-23-05:41:39.697.570 [ascend][curpid: 98, 98][drv][devmm][_svm_mem_stats_show 154]DEV_MEM dev0 mem stats(Bytes): module_name=GE, module_id=45 current_alloced_size=0, alloced_peak_size=108003328.';
const ALLOC_FAILED =
  '[ERROR] RUNTIME(10972,python):2023-09-23-05:41:40.256.365 [npu_driver.cc:1100]49835 DevMemAllocHugePageManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=2097152(Byte), type=2, moduleId=7, drvFlag=18374686479671772161, drvRetCode=6, device_id=0!';
const DECOY =
  '[INFO] GE(4052516,main_aarch64):2024-07-08-22:27:45.100.001 [graph_mem_assigner.cc:512]4052523 AssignMemory:Mem stats of graph 12: feature_map_size=1048576, weight_size=2097152, total_size=3145728 Bytes';
const NOISE =
  '[INFO] HCCL(114654,python3):2025-06-19-09:26:22.060.447 [externalinput.cc:407] [114654]HCCL_CONNECT_TIMEOUT set by environment to [130]s';

const lines = (...l: string[]): string => `${l.join('\n')}\n`;
/** A snapshot's counters without the failure sites (the tests of sites look at those). */
const counts = (s: Snapshot): Omit<Snapshot['meta'], 'allocFailureSites'> => {
  const { allocFailureSites: _sites, ...rest } = s.meta;
  return rest;
};
const SHAPES_DRV_03 =
  '[ERROR] RUNTIME(5,python):2024-01-01-00:00:00.000.000 [npu_driver.cc:1093]5 MallocPhysical:Call driver api halMemAlloc failed, drvRetCode=6, drvDevId=003';

describe('real corpus', () => {
  const FAILURE_10972 =
    '[ERROR] RUNTIME(10972,python):2023-09-23-05:41:40.256.365 [npu_driver.cc:1100]49835 DevMemAllocHugePageManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=2097152(Byte), type=2, moduleId=7, drvFlag=18374686479671772161, drvRetCode=6, device_id=0!';
  // The failure is the file's last line (line 12, no trailing newline).
  const expected10972 = (file: string): Snapshot => ({
    version: 2,
    sections: {
      modules: {
        'DEV_MEM/dev0/GE': { peak: 108003328, current: 0, allocs: null, frees: null },
        // Two dumps (33648640, then 33641111): the larger peak wins whole.
        'DEV_MEM/dev0/RUNTIME': { peak: 33648640, current: 0, allocs: 224, frees: 224 },
        'HOST_MEM/APP': { peak: 204800, current: 0, allocs: 80, frees: 80 },
        'HOST_MEM/HCCL': { peak: 4096, current: 0, allocs: null, frees: null },
      },
    },
    series: {},
    meta: {
      files: 1,
      records: 5,
      skipped: 0,
      allocFailures: { dev0: 1 },
      allocFailureSites: { dev0: [{ file, line: 12, text: FAILURE_10972 }] },
    },
  });

  it('reads v1 and v0 records and the allocation failure from plog-10972', () => {
    expect(parse(fixture('plog-10972_20230131024824126.log')).build()).toEqual(expected10972('rank_0/plog-1_2024.log'));
  });

  it('streams plog-10972 from disk to the same snapshot', async () => {
    const into = new SnapshotBuilder();
    await parsePlogFile(
      { path: join(FIXTURES, 'plog-10972_20230131024824126.log'), name: 'plog-10972_20230131024824126.log' },
      into,
    );
    expect(into.build()).toEqual(expected10972('plog-10972_20230131024824126.log'));
  });

  it('finds no record and skips nothing in an HCCL-only run log (plog-114654)', () => {
    const into = parse(fixture('plog-114654_20250619092607584.log'));
    expect(into.build()).toEqual({
      version: 2,
      sections: {},
      series: {},
      meta: { files: 1, records: 0, skipped: 0, allocFailures: {} },
    });
  });

  it('does not take the glued "Memory async copy failed, device_id=0" ERROR lines for allocation failures', () => {
    const text = fixture('plog-10972_20230131024824126.log').toString('latin1').split('\n').slice(2, 6).join('\n');
    expect(text).toContain('Memory async copy failed, device_id=0');
    expect(parse(text).build().meta.allocFailures).toEqual({});
  });
});

describe('driver generations (FORMATS.md samples)', () => {
  it('v1: DEV_MEM with a device and SVM_MEM without one', () => {
    const s = parse(lines(V1_DEV, V1_SVM)).build();
    expect(s.sections.modules ?? {}).toEqual({
      'DEV_MEM/dev0/RUNTIME': { peak: 44138496, current: 44138496, allocs: 18, frees: 0 },
      'SVM_MEM/RUNTIME': { peak: 19927040, current: 19927040, allocs: 37, frees: 0 },
    });
    expect(counts(s)).toEqual({ files: 1, records: 2, skipped: 0, allocFailures: { dev0: 0 } });
  });

  it('v2: allocated_peak_size, [file.c:line] prefix, any attribute word, and Cached_size lines', () => {
    const s = parse(lines(V2_HOST, V2_CACHED, V2_SMALL_HBM)).build();
    expect(s.sections.modules ?? {}).toEqual({
      'HOST_MEM/CACHED': { peak: 12582912, current: 12582912, allocs: null, frees: null },
      'HOST_MEM/RUNTIME': { peak: 11341824, current: 0, allocs: 3, frees: 3 },
      'MEM_DEV_SMALL_HBM/dev0/APP': { peak: 126976, current: 126976, allocs: 7, frees: 0 },
    });
    expect(s.meta.records).toBe(3);
  });

  it('v2: a Cached_size line that names a device is keyed under it', () => {
    const line = V2_CACHED.replace('HOST_MEM Cached_size', 'MEM_DEV_HUGE_HBM dev3 Cached_size');
    const s = parse(lines(line)).build();
    expect(s.sections.modules ?? {}).toEqual({
      'MEM_DEV_HUGE_HBM/dev3/CACHED': { peak: 12582912, current: 12582912, allocs: null, frees: null },
    });
    expect(s.meta.allocFailures).toEqual({ dev3: 0 });
  });

  it('v3: DEV_PROC_MEM total_size is the peak and the current value, with no counts', () => {
    expect(parse(lines(V3_PROC)).build().sections.modules ?? {}).toEqual({
      'DEV_PROC_MEM/dev0/APP': { peak: SEED_APP_PEAK, current: SEED_APP_PEAK, allocs: null, frees: null },
    });
  });

  it('v0: lower-case "mem stats(Bytes):", commas, no counts', () => {
    expect(parse(lines(V0_GE)).build().sections.modules ?? {}).toEqual({
      'DEV_MEM/dev0/GE': { peak: 108003328, current: 0, allocs: null, frees: null },
    });
  });

  it('accepts the [EVENT] level used when the run log is unsupported', () => {
    const s = parse(lines(V1_DEV.replace('[INFO]', '[EVENT]'))).build();
    expect(s.sections.modules!['DEV_MEM/dev0/RUNTIME']).toEqual({
      peak: 44138496,
      current: 44138496,
      allocs: 18,
      frees: 0,
    });
  });

  it('accepts an ERROR-level dump after an allocation failure, and counts the failure once', () => {
    const s = parse(
      lines(ALLOC_FAILED, V1_DEV.replace('[INFO]', '[ERROR]'), V0_GE.replace('[INFO]', '[ERROR]')),
    ).build();
    expect(s.sections.modules ?? {}).toEqual({
      'DEV_MEM/dev0/GE': { peak: 108003328, current: 0, allocs: null, frees: null },
      'DEV_MEM/dev0/RUNTIME': { peak: 44138496, current: 44138496, allocs: 18, frees: 0 },
    });
    expect(counts(s)).toEqual({ files: 1, records: 2, skipped: 0, allocFailures: { dev0: 1 } });
  });

  it('reads CRLF files exactly like LF files', () => {
    const all = [V1_DEV, V1_SVM, V2_HOST, V2_CACHED, V2_SMALL_HBM, V3_PROC, V0_GE, ALLOC_FAILED];
    const lf = parse(lines(...all)).build();
    expect(parse(`${all.join('\r\n')}\r\n`).build()).toEqual(lf);
    expect(lf.meta.records).toBe(7);
  });

  it('finds both records on a line where a collector lost the newline', () => {
    const s = parse(lines(NOISE, V1_DEV + V1_SVM.replace('[INFO]', '[ERROR]'), NOISE)).build();
    expect(Object.keys(s.sections.modules ?? {})).toEqual(['DEV_MEM/dev0/RUNTIME', 'SVM_MEM/RUNTIME']);
    expect(s.meta.records).toBe(2);
  });

  it('finds an allocation failure glued behind another line, and a record glued behind a failure', () => {
    const s = parse(lines(NOISE + ALLOC_FAILED + V1_DEV)).build();
    expect(s.meta.allocFailures).toEqual({ dev0: 1 });
    expect(s.meta.records).toBe(1);
  });

  it('reads lines glued behind a record as the general path reads them: records, cut records, failures, in order', () => {
    // The fast path reads a record that another line's `[LEVEL] NAME(` follows, then the rest of the line by regex.
    // Expected: what the general path alone reads (main's parser before that fast path, on the same text).
    const junkHead = V1_DEV.replace('[drv][devmm]', '[drv]]HOST_MEM Cached_size:12 [devmm]');
    const text =
      lines(
        NOISE,
        V1_DEV + V2_CACHED + V1_SVM,
        V2_SMALL_HBM + ALLOC_FAILED,
        junkHead + V1_SVM,
        V3_PROC + V2_CACHED.replace('Bytes', ''),
        V0_GE + NOISE + V2_HOST,
      ) + `${V1_SVM + NOISE}\r\n${NOISE}\r\n`;
    expect(outcome(parse(text))).toMatchInlineSnapshot(`
      {
        "skipped": [
          {
            "file": "rank_0/plog-1_2024.log",
            "line": 4,
            "reason": "truncated or malformed memory-statistics record: HOST_MEM Cached_size:12 [devmm][_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=RUNTIME; module_id=…",
          },
          {
            "file": "rank_0/plog-1_2024.log",
            "line": 5,
            "reason": "truncated or malformed memory-statistics record: HOST_MEM Cached_size:12582912",
          },
        ],
        "snapshot": {
          "meta": {
            "allocFailureSites": {
              "dev0": [
                {
                  "file": "rank_0/plog-1_2024.log",
                  "line": 3,
                  "text": "[ERROR] RUNTIME(10972,python):2023-09-23-05:41:40.256.365 [npu_driver.cc:1100]49835 DevMemAllocHugePageManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=2097152(Byte), type=2, moduleId=7, drvFlag=18374686479671772161, drvRetCode=6, device_id=0!",
                },
              ],
            },
            "allocFailures": {
              "dev0": 1,
            },
            "files": 1,
            "records": 10,
            "skipped": 2,
          },
          "sections": {
            "modules": {
              "DEV_MEM/dev0/GE": {
                "allocs": null,
                "current": 0,
                "frees": null,
                "peak": 108003328,
              },
              "DEV_MEM/dev0/RUNTIME": {
                "allocs": 18,
                "current": 44138496,
                "frees": 0,
                "peak": 44138496,
              },
              "DEV_PROC_MEM/dev0/APP": {
                "allocs": null,
                "current": 2078195712,
                "frees": null,
                "peak": 2078195712,
              },
              "HOST_MEM/CACHED": {
                "allocs": null,
                "current": 12582912,
                "frees": null,
                "peak": 12582912,
              },
              "HOST_MEM/RUNTIME": {
                "allocs": 3,
                "current": 0,
                "frees": 3,
                "peak": 11341824,
              },
              "MEM_DEV_SMALL_HBM/dev0/APP": {
                "allocs": 7,
                "current": 126976,
                "frees": 0,
                "peak": 126976,
              },
              "SVM_MEM/RUNTIME": {
                "allocs": 37,
                "current": 19927040,
                "frees": 0,
                "peak": 19927040,
              },
            },
          },
          "series": {},
          "version": 2,
        },
      }
    `);
  });

  it('ignores "Mem stats of graph 12: ..." decoys silently: no record, nothing skipped', () => {
    const s = parse(lines(NOISE, DECOY, DECOY.replace(' Bytes', ''), V1_DEV)).build();
    expect(Object.keys(s.sections.modules ?? {})).toEqual(['DEV_MEM/dev0/RUNTIME']);
    expect(s.meta.skipped).toBe(0);
  });

  it('accepts a UTF-8 byte order mark before the first line', () => {
    expect(parse(`\uFEFF${lines(V1_DEV)}`).build().meta.records).toBe(1);
  });
});

describe('the seed document: records wrapped across lines', () => {
  for (const block of ['components', 'good', 'bad']) {
    it(`reads the "${block}" block exactly as its one-line form`, () => {
      const wrapped = parse(fixture(`seed/${block}.wrapped.log`));
      const oneLine = parse(fixture(`seed/${block}.oneline.log`));
      expect(wrapped.build()).toEqual(oneLine.build());
      expect(wrapped.skipped).toBe(0);
    });
  }

  it('reads the per-component block: SVM_MEM, and HCCL and APP on dev6', () => {
    expect(parse(fixture('seed/components.wrapped.log')).build().sections.modules ?? {}).toEqual({
      'DEV_MEM/dev6/APP': { peak: 64680361984, current: 64680361984, allocs: 3113, frees: 0 },
      'DEV_MEM/dev6/HCCL': { peak: 419500032, current: 419467264, allocs: 6, frees: 2 },
      'SVM_MEM/RUNTIME': { peak: 19927040, current: 19927040, allocs: 37, frees: 0 },
    });
  });

  it('shows the regression the document describes: APP on dev0 grows 10x while RUNTIME stays put', () => {
    const good = parse(fixture('seed/good.wrapped.log')).build().sections.modules!;
    const bad = parse(fixture('seed/bad.wrapped.log')).build().sections.modules!;
    expect(good['DEV_MEM/dev0/APP']).toEqual({ peak: SEED_APP_PEAK, current: SEED_APP_PEAK, allocs: 996, frees: 0 });
    expect(bad['DEV_MEM/dev0/APP']).toEqual({ peak: GROWN_APP_PEAK, current: GROWN_APP_PEAK, allocs: 996, frees: 0 });
    expect(good['DEV_MEM/dev0/RUNTIME']?.peak).toBe(44138496);
    expect(bad['DEV_MEM/dev0/RUNTIME']?.peak).toBe(44138496);
  });

  it('reads a wrapped record with CRLF line endings', () => {
    const crlf = fixture('seed/components.wrapped.log').toString('latin1').replace(/\n/g, '\r\n');
    expect(parse(crlf).build()).toEqual(parse(fixture('seed/components.oneline.log')).build());
  });

  it(`stops reassembling after ${MAX_RECORD_LINES} lines: a body that far away is not joined to its head`, () => {
    const head =
      '[INFO] DRV(1,p):2024-01-01-00:00:00.000.000 [_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (';
    const body = 'module_name=APP; module_id=33; current_alloced_size=1; alloced_peak_size=2; alloc_cnt=3; free_cnt=0)';
    const near = parse(lines(head, ...Array<string>(MAX_RECORD_LINES - 2).fill(''), body, NOISE));
    expect(near.build().sections.modules!['DEV_MEM/dev0/APP']?.peak).toBe(2);
    const far = parse(lines(head, ...Array<string>(MAX_RECORD_LINES - 1).fill(''), body, NOISE));
    expect(far.build().sections.modules ?? {}).toEqual({});
    expect(far.skippedRecords).toEqual([
      {
        file: 'rank_0/plog-1_2024.log',
        line: 1,
        reason: expect.stringContaining('truncated or malformed') as unknown as string,
      },
    ]);
  });
});

describe('truncated and malformed records', () => {
  const CUT =
    '[INFO] DRV(77,python3):2024-07-08-22:27:45.354.900 [ascend][curpid: 77, 77][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=APP; module_id=33; current_alloced_size=20';

  it('skips a record cut off at the end of the file (no newline), naming file and line, and keeps the records before it', () => {
    const into = parse(`${lines(NOISE, V1_DEV, V1_SVM)}${CUT}`, 'rank_3/plog-77_2024.log');
    expect(counts(into.build())).toEqual({ files: 1, records: 2, skipped: 1, allocFailures: { dev0: 0 } });
    expect(Object.keys(into.build().sections.modules ?? {})).toEqual(['DEV_MEM/dev0/RUNTIME', 'SVM_MEM/RUNTIME']);
    expect(into.skippedRecords).toEqual([
      {
        file: 'rank_3/plog-77_2024.log',
        line: 4,
        reason:
          'truncated or malformed memory-statistics record: DEV_MEM dev0 Mem stats (Bytes). (module_name=APP; module_id=33; current_alloced_size=20',
        cut: true,
      },
    ]);
  });

  it('skips a cut record followed by a later run in the same file, and reads that run', () => {
    const into = parse(lines(CUT, V1_DEV));
    expect(into.skippedRecords.map((s) => s.line)).toEqual([1]);
    expect(into.build().meta.records).toBe(1);
  });

  it('skips a record whose number carries junk, and a v0 record without its final period', () => {
    const junk = V1_DEV.replace('alloced_peak_size=44138496', 'alloced_peak_size=44138496abc');
    const v0cut = V0_GE.slice(0, -1);
    const into = parse(lines(NOISE, junk, NOISE, v0cut));
    expect(into.build().sections.modules ?? {}).toEqual({});
    expect(into.skippedRecords.map((s) => s.line)).toEqual([2, 4]);
  });

  it('skips a record cut inside module_name, and a last Cached_size line cut inside its number', () => {
    const into = parse(`${lines(V1_DEV.slice(0, V1_DEV.indexOf('RUNTIME') + 3), NOISE)}${V2_CACHED.slice(0, -7)}`);
    expect(into.build().sections.modules ?? {}).toEqual({});
    expect(into.skippedRecords.map((s) => s.line)).toEqual([1, 3]);
  });

  it('examines a last line without newline even when no search hit marks it', () => {
    // "Bytes" is what the search finds; a kill before it still leaves a record head on the last line.
    const into = parse(`${lines(NOISE)}${V1_DEV.slice(0, V1_DEV.indexOf('(Bytes)') + 5)}`);
    expect(into.build().sections.modules ?? {}).toEqual({});
    expect(into.skipped).toBe(0); // the head is incomplete: "Mem stats (By" is no record head, like a decoy
    const cached = parse(`${lines(NOISE)}${V2_CACHED.replace('Bytes', '')}`);
    expect(cached.skippedRecords.map((s) => s.line)).toEqual([2]);
  });

  it('gives each cut record on a glued line the line number of that physical line', () => {
    const into = parse(lines(NOISE, NOISE, V1_DEV + CUT + V1_SVM));
    expect(into.skippedRecords.map((s) => s.line)).toEqual([3]);
    expect(into.build().meta.records).toBe(2);
  });

  it('numbers the lines of a skipped record streamed from disk, long after the bytes before it were dropped', async () => {
    const noise = Array<string>(3000).fill(NOISE);
    const file = tmpFile('far-skip.log', `${lines(...noise, CUT.replace('=20', '=20x;'), ...noise, V1_DEV)}${CUT}`);
    const into = new SnapshotBuilder();
    await parsePlogFile(file, into, { chunkBytes: 4096 });
    expect(into.skippedRecords.map((s) => s.line)).toEqual([3001, 6003]);
    expect(into.build().meta.records).toBe(1);
  });
});

describe('values above 2^53 - 1', () => {
  const HUGE = V1_DEV.replace('alloced_peak_size=44138496', 'alloced_peak_size=9007199254740993');

  it('stop the run with a ParseError naming file and line, rather than rounding', () => {
    const run = (): SnapshotBuilder => parse(lines(NOISE, V1_SVM, HUGE), 'rank_1/plog-9_2024.log');
    expect(run).toThrow(ParseError);
    expect(run).toThrow(/^rank_1\/plog-9_2024\.log:3: alloced_peak_size=9007199254740993 is larger than 2\^53 - 1/);
  });

  it('accept exactly 2^53 - 1', () => {
    const max = V1_DEV.replace('alloced_peak_size=44138496', 'alloced_peak_size=9007199254740991');
    expect(parse(lines(max)).build().sections.modules!['DEV_MEM/dev0/RUNTIME']?.peak).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('name the right line when streamed from disk after the earlier bytes were dropped', async () => {
    const file = tmpFile('huge.log', lines(...Array<string>(2000).fill(NOISE), V1_DEV, HUGE, NOISE));
    const into = new SnapshotBuilder();
    await expect(parsePlogFile(file, into, { chunkBytes: 1000 })).rejects.toThrow(
      /^huge\.log:2002: alloced_peak_size=/,
    );
  });
});

describe('allocation failures', () => {
  const prefix = '[ERROR] RUNTIME(5,python):2024-01-01-00:00:00.000.000 [x.cc:1]5 Fn:';

  it('counts each failure line per device, including deviceId=, devId=, "dev N", "device(N)" and "out of memory" lines', () => {
    const s = parse(
      lines(
        ALLOC_FAILED,
        ALLOC_FAILED.replace('device_id=0', 'device_id=1'),
        `${prefix}aclrtMalloc out of memory, deviceId=2, size=4096`,
        `${prefix}Out Of Memory on devId=2`,
        `${prefix}OUT OF MEMORY: dev 5 has no free HBM`,
        `${prefix}alloc failed: out of memory on device(6)`,
      ),
    ).build();
    expect(s.meta.allocFailures).toEqual({ dev0: 1, dev1: 1, dev2: 2, dev5: 1, dev6: 1 });
  });

  it(`counts a failure that names no device under "unknown": an OOM signal is never dropped`, () => {
    expect(
      parse(lines(`${prefix}halMemAlloc failed:size=2097152(Byte), type=2, drvRetCode=6!`)).build().meta.allocFailures,
    ).toEqual({
      unknown: 1,
    });
  });

  it('ignores failure words below ERROR level and ERROR lines that are not about allocation', () => {
    const s = parse(
      lines(
        ALLOC_FAILED.replace('[ERROR]', '[WARNING]'),
        `[INFO] GE(5,python):2024-01-01-00:00:00.000.000 [x.cc:1]5 Fn: retry after out of memory on device_id=0`,
        `${prefix}E30008Memory async copy failed, device_id=0, stream_id=3`,
        `${prefix}DevMemAllocManaged success, device_id=0`,
      ),
    ).build();
    expect(s.meta.allocFailures).toEqual({});
  });

  it('reads a failure line wrapped across lines', () => {
    const wrapped = ALLOC_FAILED.replace(' halMemAlloc failed', '\nhalMemAlloc\nfailed');
    expect(parse(lines(wrapped, NOISE)).build().meta.allocFailures).toEqual({ dev0: 1 });
  });

  // Every shape of FORMATS.md "Variants found in real logs", one line each (the damaged pastes included).
  const at = (level: string, module = 'RUNTIME'): string =>
    `${level} ${module}(27271,python):2025-03-02-10:11:12.131.415 `;
  const SHAPES = {
    byteUpper: ALLOC_FAILED,
    bytesLower: `${at('[ERROR]')}[npu_driver.cc:1100]27280 DevMemAlloc:[drv api] halMemAlloc failed:size=4194304(bytes), type=2, moduleId=33, drvRetCode=6, device_id=1!`,
    errCode: `${at('[ERROR]')}[npu_driver.cc:1152]27280 DevMemAllocManaged:device_id=2, ErrCode=207001, desc=[driver error:out of memory], size=8388608`,
    drvDevId: `${at('[ERROR]')}[npu_driver.cc:1093]27280 MallocPhysical:Call driver api halMemAlloc failed, drvRetCode=6, drvDevId=3, size=2097152`,
    spacedId: `${at('[ERROR]')}[npu_driver.cc:1100]27280 DevMemAlloc:halMemAlloc failed:size=2097152(Byte), drvRetCode=6, device_id 7!`,
    lostBracket: `${at('ERROR]')}[npu_driver.cc:1100]27280 DevMemAlloc:halMemAlloc failed:size=2097152(Byte), drvRetCode=6, device_id=4!`,
    zeroForO: `${at('ERR0R]')}[npu_driver.cc:1100]27280 DevMemAlloc:halMemAlloc failed:size=2097152(Byte), drvRetCode=6, device_id=5!`,
    el0004: `${at('[ERROR]', 'PTA')}[acl_rt.cpp:88]27271 Memory_Allocation_Failure(EL0004): Failed to allocate memory.`,
  };

  it('counts every failure shape of FORMATS.md once, on its device (EL0004 names none: "unknown")', () => {
    const s = parse(lines(...Object.values(SHAPES))).build();
    expect(counts(s)).toEqual({
      files: 1,
      records: 0,
      skipped: 0,
      allocFailures: { dev0: 1, dev1: 1, dev2: 1, dev3: 1, dev4: 1, dev5: 1, dev7: 1, unknown: 1 },
    });
    // A log holding only failures has no module at all: the gate reports alloc-failure, not "no statistics".
    expect(s.sections).toEqual({});
  });

  it('counts each shape once per failure line when lines are glued, damaged prefixes included, never once per group', () => {
    const glued = [
      SHAPES.byteUpper + SHAPES.byteUpper,
      SHAPES.zeroForO + SHAPES.zeroForO + SHAPES.lostBracket,
      SHAPES.errCode + SHAPES.drvDevId + SHAPES.el0004,
      SHAPES.spacedId + V1_DEV + SHAPES.bytesLower,
    ];
    const s = parse(lines(...glued)).build();
    expect(s.meta.allocFailures).toEqual({ dev0: 2, dev1: 1, dev2: 1, dev3: 1, dev4: 1, dev5: 2, dev7: 1, unknown: 1 });
    expect(s.sections.modules?.['DEV_MEM/dev0/RUNTIME']?.peak).toBe(44138496);
  });

  it('does not join a damaged-level failure line to the record before it', () => {
    const s = parse(lines(V1_DEV, SHAPES.zeroForO, V0_GE, SHAPES.lostBracket)).build();
    expect(counts(s)).toEqual({ files: 1, records: 2, skipped: 0, allocFailures: { dev0: 0, dev4: 1, dev5: 1 } });
  });

  it('ignores the same damaged shapes below ERROR level', () => {
    const s = parse(
      lines(SHAPES.zeroForO.replace('ERR0R]', 'WARNING]'), SHAPES.el0004.replace('[ERROR]', '[INFO]')),
    ).build();
    expect(s.meta.allocFailures).toEqual({});
  });

  it('keeps the first failure lines per device, with file, line and text, for the report', () => {
    const failures = Array.from({ length: MAX_SITES_PER_DEVICE + 2 }, (_, i) =>
      ALLOC_FAILED.replace('size=2097152', `size=${i + 1}`),
    );
    const meta = parse(lines(NOISE, ...failures, SHAPES.el0004), 'rank_1/plog-9_2025.log').build().meta;
    expect(meta.allocFailures).toEqual({ dev0: MAX_SITES_PER_DEVICE + 2, unknown: 1 });
    expect(meta.allocFailureSites).toEqual({
      dev0: failures
        .slice(0, MAX_SITES_PER_DEVICE)
        .map((text, i) => ({ file: 'rank_1/plog-9_2025.log', line: i + 2, text })),
      unknown: [{ file: 'rank_1/plog-9_2025.log', line: MAX_SITES_PER_DEVICE + 4, text: SHAPES.el0004 }],
    });
  });

  it('keeps the same first sites whatever order the files are read in', () => {
    const a = lines(NOISE, ALLOC_FAILED, ALLOC_FAILED);
    const b = lines(...Array.from({ length: MAX_SITES_PER_DEVICE }, () => ALLOC_FAILED));
    const sites = (order: [string, string][]): unknown => {
      const into = new SnapshotBuilder();
      for (const [name, text] of order) parsePlogText(name, text, into);
      return into.build().meta.allocFailureSites?.dev0?.map((x) => `${x.file}:${x.line}`);
    };
    const expected = ['a.log:2', 'a.log:3', 'b.log:1', 'b.log:2', 'b.log:3'];
    expect(
      sites([
        ['b.log', b],
        ['a.log', a],
      ]),
    ).toEqual(expected);
    expect(
      sites([
        ['a.log', a],
        ['b.log', b],
      ]),
    ).toEqual(expected);
    // A later file cannot displace five sites from a file before it, and one before them displaces them all.
    const five = lines(...Array.from({ length: MAX_SITES_PER_DEVICE }, () => ALLOC_FAILED));
    const first = ['0.log:1', '0.log:2', '0.log:3', '0.log:4', '0.log:5'];
    expect(
      sites([
        ['0.log', five],
        ['b.log', b],
      ]),
    ).toEqual(first);
    expect(
      sites([
        ['b.log', b],
        ['0.log', five],
      ]),
    ).toEqual(first);
  });

  it('shortens a long failure line to 300 characters, whitespace collapsed', () => {
    const long = `${ALLOC_FAILED}\t${'x'.repeat(400)}`;
    const text = parse(lines(long)).build().meta.allocFailureSites?.dev0?.[0]?.text;
    expect(text).toBe(`${`${ALLOC_FAILED} ${'x'.repeat(400)}`.slice(0, 299)}…`);
  });

  it('names the line of a failure glued behind another line, and of one streamed from disk past the first chunk', async () => {
    const glued = parse(lines(NOISE, NOISE + SHAPES.drvDevId)).build().meta.allocFailureSites?.dev3;
    expect(glued).toEqual([{ file: 'rank_0/plog-1_2024.log', line: 2, text: SHAPES.drvDevId }]);
    const big = `${lines(...Array.from({ length: 3000 }, () => NOISE))}${lines(SHAPES.errCode, NOISE, SHAPES.errCode)}`;
    const streamed = new SnapshotBuilder();
    await parsePlogFile(tmpFile('sites.log', big), streamed, { chunkBytes: 4096 });
    expect(streamed.build().meta.allocFailureSites?.dev2).toEqual([
      { file: 'sites.log', line: 3001, text: SHAPES.errCode },
      { file: 'sites.log', line: 3003, text: SHAPES.errCode },
    ]);
  });
});

describe('pasted and quoted records', () => {
  const CUT_AT_DEVMM = V1_DEV.slice(V1_DEV.indexOf('[devmm]'));
  const CUT_AT_ATTR = V1_SVM.slice(V1_SVM.indexOf('SVM_MEM'));

  it('reads records quoted from `grep -n` output, with and without a path', () => {
    const s = parse(
      lines(`run/plog/plog-1_2024.log:12:${V1_DEV}`, `rank 3/plog:77:${V2_CACHED}`, `5:${V0_GE}`, `9:${ALLOC_FAILED}`),
    ).build();
    expect(s.sections.modules).toEqual({
      'DEV_MEM/dev0/RUNTIME': { peak: 44138496, current: 44138496, allocs: 18, frees: 0 },
      'HOST_MEM/CACHED': { peak: 12582912, current: 12582912, allocs: null, frees: null },
      'DEV_MEM/dev0/GE': { peak: 108003328, current: 0, allocs: null, frees: null },
    });
    expect(counts(s)).toEqual({ files: 1, records: 3, skipped: 0, allocFailures: { dev0: 1 } });
  });

  it('reads records whose prefix was cut at [devmm] or at the attribute word, alone or behind a grep prefix', () => {
    const s = parse(
      lines(CUT_AT_DEVMM, CUT_AT_ATTR, `plog.log:3:${CUT_AT_ATTR.replace('SVM_MEM', 'HOST_MEM')}`, NOISE),
    ).build();
    expect(s.sections.modules).toEqual({
      'DEV_MEM/dev0/RUNTIME': { peak: 44138496, current: 44138496, allocs: 18, frees: 0 },
      'SVM_MEM/RUNTIME': { peak: 19927040, current: 19927040, allocs: 37, frees: 0 },
      'HOST_MEM/RUNTIME': { peak: 19927040, current: 19927040, allocs: 37, frees: 0 },
    });
    expect(s.meta.records).toBe(3);
  });

  it("reads a cut record after an ordinary log line instead of taking it for that line's wrap", () => {
    expect(Object.keys(parse(lines(NOISE, CUT_AT_ATTR, NOISE, CUT_AT_DEVMM)).build().sections.modules ?? {})).toEqual([
      'DEV_MEM/dev0/RUNTIME',
      'SVM_MEM/RUNTIME',
    ]);
  });

  it('accepts the v0 function name _devmm_mem_stats_show, [EVENT] level and a Cached_size of 0', () => {
    const v0 = (n: number, body: string): string =>
      `[EVENT] DRV(10972,python):2023-09-23-05:41:39.697.570 [ascend][curpid: 98, 98][drv][devmm][_devmm_mem_stats_show ${n}]${body}`;
    const s = parse(
      lines(
        v0(
          152,
          'DVPP_MEM dev1 mem stats(Bytes): module_name=DVPP, module_id=6 current_alloced_size=0, alloced_peak_size=4096.',
        ),
        v0(158, 'HOST_MEM Cached_size:0Bytes'),
      ),
    ).build();
    expect(s.sections.modules).toEqual({
      'DVPP_MEM/dev1/DVPP': { peak: 4096, current: 0, allocs: null, frees: null },
      'HOST_MEM/CACHED': { peak: 0, current: 0, allocs: null, frees: null },
    });
  });

  it('does not take the tail of an attribute word cut by a wrap for an attribute', () => {
    const wrapped = V1_DEV.replace(']DEV_MEM', ']DEV_\nMEM').replace('[ascend]', '[asc\nend]');
    expect(parse(lines(wrapped)).build()).toMatchObject({ sections: {}, meta: { records: 0 } });
    // Cut twice, with a CR, and with no [LEVEL] line within reach: still no "EM" or "V_MEM" attribute.
    expect(
      parse(`${V1_DEV.slice(V1_DEV.indexOf('[drv]')).replace(']DEV_MEM', ']D\r\nE\nV_MEM')}\n`).build().sections,
    ).toEqual({});
  });
});

describe('device names', () => {
  it('names dev03 in a record and device_id=03 in a failure as one device, dev3', () => {
    const record = V1_DEV.replace('DEV_MEM dev0 ', 'DEV_MEM dev03 ');
    const s = parse(lines(record, ALLOC_FAILED.replace('device_id=0', 'device_id=03'), SHAPES_DRV_03)).build();
    expect(Object.keys(s.sections.modules ?? {})).toEqual(['DEV_MEM/dev3/RUNTIME']);
    expect(s.meta.allocFailures).toEqual({ dev3: 2 });
  });

  it('skips a record whose device number is too long to be one, naming its line', () => {
    const record = V1_DEV.replace('dev0', 'dev12345678901234567890');
    const into = parse(lines(NOISE, record));
    expect(into.build().sections).toEqual({});
    const cut = record.slice(record.indexOf('DEV_MEM'));
    expect(into.skippedRecords.map((r) => [r.line, r.reason])).toEqual([
      [2, `device number out of range in memory-statistics record: ${cut.slice(0, 120)}…`],
    ]);
  });
});

describe('streaming', () => {
  const composite = Buffer.concat([
    Buffer.from(lines(NOISE, V1_DEV, DECOY, V2_HOST, V2_CACHED)),
    fixture('seed/components.wrapped.log'),
    Buffer.from(`${[V2_SMALL_HBM, V3_PROC, V0_GE, ALLOC_FAILED + V1_SVM].join('\r\n')}\r\n`),
    fixture('seed/good.wrapped.log'),
    Buffer.from(
      `${lines(NOISE)}[INFO] DRV(77,p):2024-01-01-00:00:00.000.000 [_svm_mem_stats_show 148]DEV_MEM dev1 Mem stats (Bytes). (module_name=HCCL; module_id=3; current_all`,
    ),
  ]);
  const whole = parse(composite);

  it('the composite log used below holds every shape', () => {
    expect(counts(whole.build())).toEqual({ files: 1, records: 12, skipped: 1, allocFailures: { dev0: 1, dev6: 0 } });
    expect(whole.skippedRecords.map((s) => s.line)).toEqual([composite.toString('latin1').split('\n').length]);
  });

  it('gives the same snapshot and skipped lines when the bytes are split in two at every offset', () => {
    const expected = outcome(whole);
    for (let cut = 1; cut < composite.length; cut++) {
      const into = new SnapshotBuilder();
      scanPlogChunks('rank_0/plog-1_2024.log', [composite.subarray(0, cut), composite.subarray(cut)], into, (n) =>
        countNewlines(composite, 0, n),
      );
      const got = outcome(into);
      if (JSON.stringify(got) !== JSON.stringify(expected)) expect({ cut, ...got }).toEqual({ cut, ...expected });
    }
  });

  it('gives the same snapshot from disk with read sizes of 1 to 9 bytes and 64 KiB', async () => {
    const file = tmpFile('composite.log', composite);
    for (const chunkBytes of [1, 2, 3, 5, 7, 9, 65536]) {
      const into = new SnapshotBuilder();
      await parsePlogFile({ path: file.path, name: 'rank_0/plog-1_2024.log' }, into, { chunkBytes });
      expect(outcome(into)).toEqual(outcome(whole));
    }
  });

  it('gives the same snapshot for a 2 MB log read in chunks larger than the junction the scanner copies', async () => {
    // Deterministic variety: noise of varying length moves every record across chunk boundaries.
    let seed = 7;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const parts: Buffer[] = [];
    let records = 0;
    for (let i = 0; parts.reduce((n, b) => n + b.length, 0) < 2_000_000; i++) {
      parts.push(Buffer.from(lines(...Array.from({ length: rand(400) }, () => `${NOISE}${'.'.repeat(rand(200))}`))));
      // Now and then a line longer than the junction, so that the kept window starts before the new chunk.
      if (rand(6) === 0) parts.push(Buffer.from(lines(`${NOISE}${'~'.repeat(60_000 + rand(100_000))}`)));
      const peak = 1_000_000 + i;
      const pick = rand(4);
      if (pick === 0) parts.push(fixture('seed/components.wrapped.log'));
      else if (pick === 1)
        parts.push(Buffer.from(lines(ALLOC_FAILED + V1_DEV.replace('=44138496; alloc_cnt', `=${peak}; alloc_cnt`))));
      else if (pick === 2) parts.push(Buffer.from(`${V2_CACHED.replace('12582912', String(peak))}\r\n`));
      else parts.push(Buffer.from(lines(V0_GE.replace('108003328', String(peak)))));
      records += pick === 0 ? 3 : 1;
    }
    parts.push(Buffer.from(V1_DEV.slice(0, -20)));
    const big = Buffer.concat(parts);
    const whole = parse(big);
    expect(whole.build().meta.records).toBe(records);
    expect(whole.skipped).toBe(1);
    for (const size of [65535, 65536, 65537, 100_003, 262_147, 1 << 20]) {
      const into = new SnapshotBuilder();
      const chunks: Buffer[] = [];
      for (let i = 0; i < big.length; i += size) chunks.push(big.subarray(i, i + size));
      scanPlogChunks('rank_0/plog-1_2024.log', chunks, into, (n) => countNewlines(big, 0, n));
      expect(outcome(into)).toEqual(outcome(whole));
    }
    const file = tmpFile('big.log', big);
    for (const chunkBytes of [100_003, undefined]) {
      const into = new SnapshotBuilder();
      await parsePlogFile({ path: file.path, name: 'rank_0/plog-1_2024.log' }, into, { chunkBytes });
      expect(outcome(into)).toEqual(outcome(whole));
    }
  });

  it('still finds a record after a line longer than the line cap, without keeping that line', () => {
    const garbage = 'x'.repeat(MAX_LINE_BYTES * 2 + 17);
    const into = new SnapshotBuilder();
    const text = Buffer.from(`${garbage}\n${lines(V1_DEV)}`);
    const chunks: Buffer[] = [];
    for (let i = 0; i < text.length; i += 65536) chunks.push(text.subarray(i, i + 65536));
    scanPlogChunks('long.log', chunks, into, (n) => countNewlines(text, 0, n));
    expect(into.build().meta.records).toBe(1);
  });

  it('adds several files into one builder, keeping the largest peak per key', () => {
    const into = new SnapshotBuilder();
    parsePlogText('good.log', fixture('seed/good.wrapped.log'), into);
    parsePlogText('bad.log', fixture('seed/bad.wrapped.log'), into);
    const s = into.build();
    expect(s.meta.files).toBe(2);
    expect(s.sections.modules!['DEV_MEM/dev0/APP']?.peak).toBe(GROWN_APP_PEAK);
  });
});

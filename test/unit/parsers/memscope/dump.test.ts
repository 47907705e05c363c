import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEMSCOPE_HEADER, memscopeDumpText } from '../../../generators/memscope-dump.js';
import { newUnfreed, ownerBucket } from '../../../../src/parsers/memscope/dump-analysis.js';
import { dumpFactsFromText, readDumpFacts, type DumpFacts } from '../../../../src/parsers/memscope/dump-facts.js';
import { attrValue, type DumpWarning } from '../../../../src/parsers/memscope/dump-reader.js';
import { thrown } from '../../../helpers/thrown.js';

const FIX = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'memscope');
const read = (name: string, warnings: DumpWarning[] = []) =>
  readDumpFacts(join(FIX, name), name, (w) => warnings.push(w));
const G5 = MEMSCOPE_HEADER;
const facts = (lines: string[], warnings: DumpWarning[] = []): DumpFacts =>
  dumpFactsFromText('t.csv', [G5, ...lines].join('\n'), (w) => warnings.push(w));
const said = (warnings: DumpWarning[]) => warnings.map((w) => `${w.file}:${w.line}: ${w.reason}`);

describe('unfreed at the end of tracing (corpus example pair)', () => {
  it("finds the baseline's 4 PTA blocks (3,072 B) and 3 HAL blocks (7,009,972 B)", async () => {
    const u = (await read('baseline_dump.csv')).unfreed;
    expect(u.map((g) => [g.device, g.pool, g.blocks, g.bytes, g.ids])).toEqual([
      ['dev0', 'HAL', 3, 7_009_972, [11, 28, 35]],
      ['dev0', 'PTA', 4, 3_072, [64, 68, 89, 94]],
    ]);
  });

  it('reports the two 4,000,256-byte PTA blocks and the 18,874,368-byte HAL segment as new unfreed memory', async () => {
    const base = (await read('baseline_dump.csv')).unfreed;
    const current = (await read('leaks_dump.csv')).unfreed;
    expect(current.map((g) => [g.pool, g.blocks, g.bytes, g.ids])).toEqual([
      ['HAL', 4, 25_884_340, [9, 11, 28, 35]],
      ['PTA', 6, 8_003_584, [63, 68, 72, 93, 98, 127]],
    ]);
    expect(newUnfreed(base, current)).toEqual([
      { device: 'dev0', pool: 'HAL', label: 'HAL', sizes: [18_874_368], bytes: 18_874_368 },
      { device: 'dev0', pool: 'PTA', label: 'PTA', sizes: [4_000_256, 4_000_256], bytes: 8_000_512 },
    ]);
    expect(newUnfreed(base, base)).toEqual([]);
  });
});

describe('the old smoke dump (G3 rows under a G5 header)', () => {
  it('reads µs timestamps, decimal Ptr, negative FREE sizes and HAL FREEs of device N/A', async () => {
    const warnings: DumpWarning[] = [];
    const f = await read('memscope_dump_20250428113810.csv', warnings);
    expect(said(warnings)).toEqual([
      'memscope_dump_20250428113810.csv:2: timestamps are microseconds (1746006014162153) under a Timestamp(ns) header: read as µs',
    ]);
    expect(f.unit).toBe('us');
    const pta = f.unfreed.filter((g) => g.pool === 'PTA').map((g) => [g.device, g.blocks, g.bytes]);
    expect(pta).toEqual([
      ['dev0', 219, 3_649_536],
      ['dev1', 12, 110_080],
    ]);
    // One "step start" per pid and no Range_end: one open step per device; PTA grows 72,704 B in it on each.
    const steps = f.steps;
    expect(steps.map((s) => [s.pid, s.step, s.closed])).toEqual([
      ['2523738', 1, false],
      ['2523740', 1, false],
    ]);
    expect(f.stepRows.map((r) => [r.device, r.step, r.end - r.start])).toEqual([
      ['dev0', 1, 72_704],
      ['dev1', 1, 72_704],
    ]);
    expect(f.stepLeaks).toEqual([]);
  });
});

describe("training steps and msMemScope's step-leak rule (generated dumps)", () => {
  it('a 4,000,256-byte PTA block per step from step 2 that is never freed: step-leak of 4 blocks, 16,001,024 B', () => {
    const f = dumpFactsFromText('leak.csv', memscopeDumpText({ steps: 6, opsPerStep: 5, leakFromStep: 2 }));
    const steps = f.steps;
    expect(steps.map((s) => s.step)).toEqual([1, 2, 3, 4, 5, 6]);
    // Blocks born in steps 2..5 are live at the end of the next step; step 6's has no next step to be checked at.
    const leaks = f.stepLeaks;
    expect(leaks.map((l) => [l.device, l.pool, l.count, l.bytes])).toEqual([['dev0', 'PTA', 4, 16_001_024]]);
    expect(leaks[0]?.examples.map((b) => [b.birthStep, b.seenAtEndOf])).toEqual([
      [2, 3],
      [3, 4],
      [4, 5],
      [5, 6],
    ]);
    expect(leaks[0]?.top).toEqual(['PTA 4000256×4']);
    // End-of-step bytes climb by the leak each step from step 2.
    expect(f.stepRows.map((r) => r.end)).toEqual([0, 4_000_256, 8_000_512, 12_000_768, 16_001_024, 20_001_280]);
  });

  it('the same dump without the leak: no step-leak, flat end-of-step bytes', () => {
    const f = dumpFactsFromText('clean.csv', memscopeDumpText({ steps: 6, opsPerStep: 5 }));
    expect(f.stepLeaks).toEqual([]);
    expect(f.stepRows.map((r) => r.end)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('takes steps from SYSTEM/STEP rows (msmemscope.step()): STEP n ends step n and starts n+1', () => {
    const f = facts([
      '1,MALLOC,PTA,N/A,100,7,7,0,0x10,"{size:10}",,',
      '2,SYSTEM,STEP,1,200,7,7,N/A,N/A,,,',
      '3,MALLOC,PTA,N/A,300,7,7,0,0x20,"{size:20}",,',
      '4,SYSTEM,STEP,2,400,7,7,N/A,N/A,,,',
      '5,MALLOC,PTA,N/A,500,7,7,0,0x30,"{size:30}",,',
      '6,SYSTEM,STEP,3,600,7,7,N/A,N/A,,,',
    ]);
    const steps = f.steps;
    expect(steps.map((s) => [s.step, s.closed])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
    ]);
    // 0x20 (born in step 2) is live at the end of step 3: a leak; 0x30 (step 3) has no closed step 4.
    expect(f.stepLeaks.map((l) => [l.count, l.bytes, l.examples.map((b) => b.id)])).toEqual([[1, 20, [3]]]);
  });
});

describe('reader traps: a warning with file:line or a correct result, never a crash', () => {
  it('names the generation and the versions of G0-G2 dumps', () => {
    expect(
      thrown(() =>
        dumpFactsFromText(
          'old.csv',
          'Record Index,Timestamp(us),Event,Event Type,Process Id,Thread Id,Device Id,Kernel Index,Flag,Addr,Size(byte),Total Allocated(byte),Total Reserved(byte)\n',
        ),
      ).message,
    ).toBe(
      'old.csv:1: an msLeaks dump of generation G2 (msLeaks, 2025-02-24 to 2025-05-05: "Record Index,Timestamp(us),Event,Event Type,...") is not supported; dumps from msMemScope 2025-05-06 on (header "ID,Event,Event Type,Name,Timestamp(...),...") are',
    );
    expect(thrown(() => dumpFactsFromText('g1.csv', 'type,name,processID,threadID,clientID\n')).message).toContain(
      'g1.csv:1: an msLeaks dump of generation G1 (msLeaks, 2025-01-21 to 2025-02-23',
    );
    expect(thrown(() => dumpFactsFromText('g0.csv', 'aclItfRecord,1,2\n')).message).toContain(
      'g0.csv:1: an msLeaks dump of generation G0 (msLeaks prototype, before 2025-01-21',
    );
    expect(thrown(() => dumpFactsFromText('x.csv', 'a,b,c\n')).message).toMatch(
      /^x\.csv:1: not an msMemScope event dump/,
    );
  });

  it('reads G3 (µs, 10 columns) and G4 (ns, optional call stacks) headers', () => {
    const g3 = dumpFactsFromText(
      'g3.csv',
      'ID,Event,Event Type,Name,Timestamp(us),Process Id,Thread Id,Device Id,Ptr,Attr\n1,MALLOC,PTA,N/A,1746006014162153,1,1,0,123,"{addr:123,size:512,owner:,total:2,used:512}"\n',
    );
    expect(g3.unfreed.map((u) => [u.device, u.bytes])).toEqual([['dev0', 512]]);
    const g4 = dumpFactsFromText(
      'g4.csv',
      'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python)\n1,MALLOC,PTA,N/A,1746006014162153000,1,1,0,123,"{size:512}","train.py:10 step"\n',
    );
    expect(g4.unfreed.map((u) => u.label)).toEqual(['train.py:10 step']);
  });

  it('warns about a truncated last row and keeps the rows before it', () => {
    const w: DumpWarning[] = [];
    const f = facts(
      [
        '1,MALLOC,PTA,N/A,1764753084425691000,1,1,0,0x10,"{allocation_id:4,addr:0x10,size:512}",,',
        '2,MALLOC,PTA,N/A,1764753084425691100,1,1,0,0x20,"{allocation_id:5,addr:0x2',
      ],
      w,
    );
    expect(said(w)).toEqual([
      't.csv:3: truncated last row: an Attr field with no closing quote (skipped; the file may have been cut off)',
    ]);
    expect(f.unfreed.map((u) => u.bytes)).toEqual([512]);
  });

  it('reads an unquoted comma list in Attr (inefficient_type:a,b) as one value', () => {
    expect(
      attrValue('{addr:1,size:512,inefficient_type:early_allocation,late_deallocation,owner:PTA}', 'inefficient_type'),
    ).toBe('early_allocation,late_deallocation');
    expect(attrValue('{req_size:9,size:5}', 'size')).toBe('5');
    const f = facts([
      '1,MALLOC,PTA,N/A,100,1,1,0,0x10,"{size:512,inefficient_type:early_allocation,late_deallocation}",,',
      '2,MALLOC,PTA,N/A,200,1,1,0,0x20,"{size:64,inefficient_type:temporary_idleness}",,',
      '3,MALLOC,PTA,N/A,300,1,1,0,0x30,"{size:8,inefficient_type:late_deallocation}",,',
    ]);
    expect(f.inefficient).toEqual([
      { device: 'dev0', type: 'early_allocation', count: 1, bytes: 512 },
      { device: 'dev0', type: 'late_deallocation', count: 2, bytes: 520 },
      { device: 'dev0', type: 'temporary_idleness', count: 1, bytes: 64 },
    ]);
  });

  it('reads a MSTX message with a quote inside, and warns once per unknown Event', () => {
    const w: DumpWarning[] = [];
    const f = facts(
      [
        '1,MSTX,Range_start,"say "hi" now",100,1,1,0,N/A,,,',
        '2,MSTX,Range_start,"step start",150,1,1,0,N/A,,,',
        '3,MALLOC,PTA,N/A,200,1,1,0,0x10,"{size:512}",,',
        '4,BOGUS,X,N/A,250,1,1,0,N/A,,,',
        '5,BOGUS,X,N/A,260,1,1,0,N/A,,,',
        '6,MSTX,Range_end,"Range end from id 2",300,1,1,0,N/A,,,',
      ],
      w,
    );
    expect(said(w)).toEqual([
      't.csv:2: timestamps are microseconds (100) under a Timestamp(ns) header: read as µs',
      "t.csv:5: unknown Event 'BOGUS' (rows of it are skipped)",
    ]);
    // The quoted message's range is id 1; "step start" is range 2, closed by row 6.
    expect(f.steps.map((s) => [s.step, s.closed])).toEqual([[1, true]]);
  });

  it('matches hex and decimal Ptr, negative FREE sizes, and shadow FREEs as not freed', () => {
    const f = facts([
      '1,MALLOC,PTA,N/A,100,1,1,0,4096,"{addr:4096,size:512}",,',
      '2,FREE,PTA,N/A,200,1,1,0,4096,"{addr:4096,size:-512}",,',
      '3,MALLOC,PTA,N/A,300,1,1,0,0x0000000000002000,"{size:64}",,',
      '4,FREE,PTA,N/A,400,1,1,0,0x0000000000002000,"{size:64,shadow:true}",,',
      '5,MALLOC,HAL,N/A,500,1,1,cpu,0x3000,"{size:8}",,',
    ]);
    expect(f.unfreed.map((u) => [u.device, u.pool, u.bytes, u.ids])).toEqual([
      ['cpu', 'HAL', 8, [5]],
      ['dev0', 'PTA', 64, [3]],
    ]);
  });
});

describe('owners and per-op footprint', () => {
  it('maps owner strings to the buckets a reviewer reads', () => {
    expect(ownerBucket('CANN@HCCL', 'HAL')).toBe('hccl');
    expect(ownerBucket('CANN@RUNTIME', 'HAL')).toBe('cann-other');
    expect(ownerBucket('PTA@weight', 'PTA')).toBe('weights');
    expect(ownerBucket('PTA@gradient@ops', 'PTA')).toBe('gradients');
    expect(ownerBucket('PTA@optimizer_state', 'PTA')).toBe('optimizer');
    expect(ownerBucket('PTA@vllm@kv_cache', 'PTA')).toBe('kv-cache');
    expect(ownerBucket('PTA', 'PTA')).toBe('activations');
    expect(ownerBucket('PTA_WORKSPACE', 'PTA')).toBe('workspace');
    expect(ownerBucket('', 'ATB')).toBe('workspace');
  });

  it('gives each owner bucket its own peak live bytes per device', () => {
    const f = dumpFactsFromText(
      'own.csv',
      memscopeDumpText({ steps: 3, opsPerStep: 4, leakFromStep: 2, owners: true }),
    );
    // Op o of step s allocates 512 × (1 + (o + s) % 8) B, labelled PTA (even o) or PTA@weight (odd o), freed by the
    // next op: one block per bucket is live at a time, so each peak is the bucket's largest block (step 3: o2 3072 B,
    // o3 3584 B). The leaked blocks of steps 2 and 3 are PTA@optimizer_state and stay live: 2 × 4,000,256 B.
    expect(f.owners).toEqual([
      { device: 'dev0', bucket: 'activations', peak: 3072 },
      { device: 'dev0', bucket: 'optimizer', peak: 8_000_512 },
      { device: 'dev0', bucket: 'weights', peak: 3584 },
    ]);
    expect(dumpFactsFromText('plain.csv', memscopeDumpText({ steps: 3, opsPerStep: 4 })).owners).toEqual([]);
  });

  it('measures the largest net allocation inside an op window (corpus: the .to(npu) copy, not randn, holds 4,000,256 B)', async () => {
    const f = await read('leaks_dump.csv');
    const byName = new Map(f.ops.map((o) => [o.name.replace('torch._ops.', ''), o]));
    // randn runs on the host; its NPU block (ID 63, ts …288595790) is allocated inside _to_copy (…288318910-…289298650).
    expect(byName.get('aten.randn.default')).toEqual({
      device: 'dev0',
      name: 'torch._ops.aten.randn.default',
      launches: 2,
      net: 0,
      peak: 0,
    });
    expect(byName.get('aten._to_copy.default')).toEqual({
      device: 'dev0',
      name: 'torch._ops.aten._to_copy.default',
      launches: 2,
      net: 4_000_256,
      peak: 4_000_256,
    });
    expect(byName.get('aten.mse_loss.default')).toEqual({
      device: 'dev0',
      name: 'torch._ops.aten.mse_loss.default',
      launches: 2,
      net: 512,
      peak: 16_778_752,
    });
  });
});

describe('OOM_DETAIL rows (msMemScope since 520dcd8)', () => {
  it('keeps OOM_TRIGGER rows with their device and req_size, ignores the block listings, and skips a trigger it cannot read naming the line', () => {
    const warnings: DumpWarning[] = [];
    const f = facts(
      [
        '7,OOM_DETAIL,OOM_TRIGGER,OOM_Trigger,1785000000000007000,4100,4100,1,N/A,"{func:halMemCreate,req_size:2097152,flag:3}",,',
        '8,OOM_DETAIL,OOM_TOP_ALLOC,OOM_TopAlloc,1785000000000008000,4100,4100,N/A,N/A,"{pool:PTA,ptr:0x0000124080000000,size:1048576,timestamp:1}",,',
        '9,OOM_DETAIL,OOM_TRIGGER,OOM_Trigger,1785000000000009000,4100,4100,N/A,N/A,"{func:halMemAlloc,req_size:512,flag:0}",,',
      ],
      warnings,
    );
    expect(f.ooms).toEqual([
      {
        device: 'dev1',
        logicalDevice: 1,
        requested: 2_097_152,
        func: 'halMemCreate',
        pid: '4100',
        timestamp: '1785000000000007000',
        line: 2,
      },
    ]);
    expect(said(warnings)).toEqual([
      't.csv:4: an OOM_TRIGGER without a numeric Device Id and Attr req_size of at most 2^53 - 1 bytes (skipped)',
    ]);
  });
});

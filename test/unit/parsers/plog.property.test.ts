// Properties of the plog parser over generated logs: chunking changes nothing, damage never invents a record.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePlogText, scanPlogChunks } from '../../../src/parsers/plog/scanner.js';
import { countNewlines } from '../../../src/parsers/plog/window.js';
import { type Snapshot, SnapshotBuilder, metricsOf } from '../../../src/model/snapshot.js';
import { modules, type ModuleMetric } from '../../../src/model/sections/index.js';
import { MODULES } from '../../helpers/story.js';

/** The snapshot without failure sites: the generated logs' expectations count failures; plog.test.ts checks sites. */
function withoutSites(s: Snapshot): Snapshot {
  const { allocFailureSites: _sites, ...meta } = s.meta;
  return { ...s, meta };
}

type Generation = 'v0' | 'v1' | 'v2' | 'v3' | 'cached';

interface Rec {
  gen: Generation;
  level: string;
  attr: string;
  device: number | null;
  module: string;
  current: number;
  peak: number;
  allocs: number;
  frees: number;
}

const LEVELS = ['INFO', 'EVENT', 'ERROR', 'WARNING', 'DEBUG', 'TRACE'];
const ATTRS = [
  'DEV_MEM',
  'SVM_MEM',
  'HOST_MEM',
  'DVPP_MEM',
  'MEM_DEV_SMALL_HBM',
  'MEM_DEV_HUGE_P2P_DDR',
  'MEM_HOST',
  'DEV_PROC_MEM',
];
const NOISE = [
  '[INFO] HCCL(114654,python3):2025-06-19-09:26:22.060.447 [externalinput.cc:407] [114654]HCCL_CONNECT_TIMEOUT set by environment to [130]s',
  '[DEBUG] RUNTIME(5,python3):2025-09-01-12:00:00.000.001 [api_impl.cc:2148]5 MemcpyAsync:dst=0x12c0, dest_max=1024, count=4096, kind=1, device_id=0',
  '[INFO] GE(5,python3):2025-09-01-12:00:00.000.002 [graph_mem_assigner.cc:512]5 AssignMemory:Mem stats of graph 12: feature_map_size=1048576, total_size=3145728 Bytes',
  '[ERROR] RUNTIME(10972,rtstest_host):2023-09-23-04:41:08.266.505 [task.cc:1582]PrintErrorInfo:E30008Memory async copy failed, device_id=0, stream_id=3',
  '[WARNING] DRV(5,python3):2025-09-01-12:00:00.000.003 [ascend][drv][devmm][devmm_ioctl_alloc 512]alloc retry. (devid=1; size=4096)',
];

const size = fc.oneof(fc.nat(1 << 20), fc.maxSafeNat());
const recArb: fc.Arbitrary<Rec> = fc.record({
  gen: fc.constantFrom<Generation>('v0', 'v1', 'v2', 'v3', 'cached'),
  level: fc.constantFrom(...LEVELS),
  attr: fc.constantFrom(...ATTRS),
  device: fc.option(fc.nat(15), { nil: null }),
  module: fc.constantFrom(...MODULES.slice(0, 8)),
  current: size,
  peak: size,
  allocs: fc.nat(100000),
  frees: fc.nat(100000),
});

function render(r: Rec): string {
  const dev = r.device === null ? '' : ` dev${r.device}`;
  const v2 = `[${r.level}] DRV(901649,aiv):2026-06-13-17:00:34.718.178 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]${r.attr}${dev}`;
  switch (r.gen) {
    case 'v0':
      return `[${r.level}] DRV(10972,python):2023-09-23-05:41:39.697.570 [ascend][curpid: 98, 98][drv][devmm][_svm_mem_stats_show 154]${r.attr}${dev} mem stats(Bytes): module_name=${r.module}, module_id=45 current_alloced_size=${r.current}, alloced_peak_size=${r.peak}.`;
    case 'v1':
      return `[${r.level}] DRV(4052516,main_aarch64):2024-07-08-22:27:45.354.856 [ascend][curpid: 4052516, 4052516][drv][devmm][_svm_mem_stats_show 148]${r.attr}${dev} Mem stats (Bytes). (module_name=${r.module}; module_id=7; current_alloced_size=${r.current}; alloced_peak_size=${r.peak}; alloc_cnt=${r.allocs}; free_cnt=${r.frees})`;
    case 'v2':
      return `${v2} Mem stats (Bytes). (module_name=${r.module}; module_id=7; current_alloced_size=${r.current}; allocated_peak_size=${r.peak}; alloc_cnt=${r.allocs}; free_cnt=${r.frees})`;
    case 'v3':
      return `${v2} Mem stats (Bytes). (module_name=${r.module}; module_id=33; total_size=${r.peak})`;
    case 'cached':
      return `${v2} Cached_size:${r.peak}Bytes`;
  }
}

function keyOf(r: Rec): string {
  return `${r.attr}${r.device === null ? '' : `/dev${r.device}`}/${r.gen === 'cached' ? 'CACHED' : r.module}`;
}

function metricOf(r: Rec): ModuleMetric {
  if (r.gen === 'v1' || r.gen === 'v2') return { peak: r.peak, current: r.current, allocs: r.allocs, frees: r.frees };
  if (r.gen === 'v0') return { peak: r.peak, current: r.current, allocs: null, frees: null };
  return { peak: r.peak, current: r.peak, allocs: null, frees: null };
}

/** One physical line of a generated log: records (one, or two glued), noise, or an allocation failure. */
type Item =
  { kind: 'records'; recs: Rec[] } | { kind: 'noise'; text: string } | { kind: 'failure'; device: number | null };
const itemArb: fc.Arbitrary<Item> = fc.oneof(
  { weight: 5, arbitrary: recArb.map((r): Item => ({ kind: 'records', recs: [r] })) },
  { weight: 1, arbitrary: fc.tuple(recArb, recArb).map(([a, b]): Item => ({ kind: 'records', recs: [a, b] })) },
  { weight: 3, arbitrary: fc.constantFrom(...NOISE).map((text): Item => ({ kind: 'noise', text })) },
  { weight: 1, arbitrary: fc.option(fc.nat(15), { nil: null }).map((device): Item => ({ kind: 'failure', device })) },
);

function renderItem(item: Item): string {
  if (item.kind === 'records') return item.recs.map(render).join('');
  if (item.kind === 'noise') return item.text;
  const dev = item.device === null ? '' : `, device_id=${item.device}`;
  return `[ERROR] RUNTIME(10972,python):2023-09-23-05:41:40.256.365 [npu_driver.cc:1100]49835 DevMemAlloc:[drv api] halMemAlloc failed:size=2097152(Byte), type=2, drvRetCode=6${dev}!`;
}

interface GeneratedLog {
  text: string;
  /** What a correct parser reports for the whole text. */
  expected: SnapshotBuilder;
  /** Every record written, per key: whatever the parser accepts must be one of these. */
  valid: Map<string, ModuleMetric[]>;
  /** Offset just past each line's newline, with the records on that line. */
  lineEnds: { end: number; recs: Rec[] }[];
}

function buildLog(items: Item[], eol = '\n'): GeneratedLog {
  const expected = new SnapshotBuilder();
  expected.files = 1;
  const valid = new Map<string, ModuleMetric[]>();
  const lineEnds: GeneratedLog['lineEnds'] = [];
  let text = '';
  for (const item of items) {
    text += renderItem(item) + eol;
    lineEnds.push({ end: Buffer.byteLength(text), recs: item.kind === 'records' ? item.recs : [] });
    if (item.kind === 'failure') expected.addAllocFailure(item.device === null ? 'unknown' : `dev${item.device}`);
    if (item.kind !== 'records') continue;
    for (const r of item.recs) {
      expected.records++;
      expected.add(modules, keyOf(r), metricOf(r));
      if (r.device !== null) expected.noteDevice(`dev${r.device}`);
      const list = valid.get(keyOf(r)) ?? [];
      list.push(metricOf(r));
      valid.set(keyOf(r), list);
    }
  }
  return { text, expected, valid, lineEnds };
}

const logArb = fc.array(itemArb, { minLength: 1, maxLength: 25 }).map((items) => buildLog(items));

function parse(text: string | Buffer): SnapshotBuilder {
  const into = new SnapshotBuilder();
  parsePlogText('gen.log', text, into);
  return into;
}

/** Every accepted metric equals one written for its key: nothing invented, nothing mixed from two records. */
function expectNothingInvented(into: SnapshotBuilder, valid: Map<string, ModuleMetric[]>): void {
  for (const [key, metric] of Object.entries(into.build().sections.modules ?? {})) {
    expect(valid.get(key) ?? [], key).toContainEqual(metric);
  }
}

function splitAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    pieces.push(bytes.subarray(from, p));
    from = p;
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

describe('plog parser properties', () => {
  it('reads every generated record exactly, whatever the generation, level, device or gluing', () => {
    fc.assert(
      fc.property(logArb, (log) => {
        const into = parse(log.text);
        expect(withoutSites(into.build())).toEqual(log.expected.build());
        expect(into.skipped).toBe(0);
      }),
    );
  });

  it('gives the same result however the bytes are cut into chunks, LF or CRLF', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { minLength: 1, maxLength: 25 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (items, crlf, cuts) => {
          const bytes = Buffer.from(buildLog(items, crlf ? '\r\n' : '\n').text);
          const whole = parse(bytes);
          const chunked = new SnapshotBuilder();
          scanPlogChunks('gen.log', splitAt(bytes, cuts), chunked, (n) => countNewlines(bytes, 0, n));
          expect(chunked.build()).toEqual(whole.build());
          expect(chunked.skippedRecords).toEqual(whole.skippedRecords);
        },
      ),
    );
  });

  it('a log cut at any byte (a killed process) loses at most the last record, skips it on its line, and invents nothing', () => {
    fc.assert(
      fc.property(logArb, fc.nat(), (log, at) => {
        const bytes = Buffer.from(log.text);
        const cut = bytes.subarray(0, at % (bytes.length + 1));
        const into = parse(cut);
        expectNothingInvented(into, log.valid);
        expect(into.skipped).toBeLessThanOrEqual(1);
        if (into.skipped === 1) expect(into.skippedRecords[0]?.line).toBe(countNewlines(cut, 0, cut.length) + 1);
        // Every record whose line (newline included) survived the cut is read.
        const complete = new SnapshotBuilder();
        for (const line of log.lineEnds)
          if (line.end <= cut.length) for (const r of line.recs) complete.add(modules, keyOf(r), metricOf(r));
        const got = metricsOf(into.build(), modules);
        for (const [key, metric] of Object.entries(metricsOf(complete.build(), modules)))
          expect(got[key]?.peak, key).toBeGreaterThanOrEqual(metric.peak);
      }),
    );
  });

  it('line breaks and CRLF inserted anywhere never throw and never invent a record', () => {
    fc.assert(
      fc.property(
        logArb,
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 20 }),
        fc.boolean(),
        (log, breaks, crlf) => {
          let text = crlf ? log.text.replace(/\n/g, '\r\n') : log.text;
          for (const [at, withCr] of breaks) {
            const i = at % (text.length + 1);
            text = `${text.slice(0, i)}${withCr ? '\r\n' : '\n'}${text.slice(i)}`;
          }
          expectNothingInvented(parse(text), log.valid);
        },
      ),
    );
  });

  it('line breaks at token boundaries (as log viewers wrap) change nothing', () => {
    const boundary = (text: string, i: number): boolean =>
      i > 0 && i < text.length && (/[ =;,]/.test(text[i - 1] as string) || /[ =;,]/.test(text[i] as string));
    fc.assert(
      fc.property(logArb, fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 20 }), (log, breaks) => {
        let text = log.text;
        for (const [at, withCr] of breaks) {
          const i = at % (text.length + 1);
          if (boundary(text, i)) text = `${text.slice(0, i)}${withCr ? '\r\n' : '\n'}${text.slice(i)}`;
        }
        expect(withoutSites(parse(text).build())).toEqual(log.expected.build());
      }),
    );
  });

  it('random bytes, alone or between valid lines, never throw and never invent a record', () => {
    const blob = fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b));
    fc.assert(
      fc.property(fc.array(fc.oneof(blob, itemArb), { maxLength: 20 }), (parts) => {
        const items = parts.filter((p): p is Item => !(p instanceof Uint8Array));
        const log = buildLog(items);
        const bytes = Buffer.concat(
          parts.map((p) =>
            p instanceof Uint8Array ? Buffer.concat([p, Buffer.from('\n')]) : Buffer.from(`${renderItem(p)}\n`),
          ),
        );
        expectNothingInvented(parse(bytes), log.valid);
      }),
    );
    fc.assert(
      fc.property(blob, (bytes) => {
        expect(parse(bytes).build().sections.modules ?? {}).toEqual({});
      }),
    );
  });
});

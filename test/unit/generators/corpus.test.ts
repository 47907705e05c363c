// The benchmark's corpus generator: the same seed gives the same bytes, every format generation is in it, and the parsers read it exactly as expected.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type GenerateOptions, type GenerateResult } from '../../generators/corpus.js';
import { stableStringify as generatorStringify } from '../../generators/expected-snapshot.js';
import { parseMemoryCompareFile } from '../../../src/parsers/memory-compare.js';
import { parsePlogFile } from '../../../src/parsers/plog/index.js';
import { SnapshotBuilder, type Snapshot, metricsOf } from '../../../src/model/snapshot.js';
import { stableStringify } from '../../../src/model/document-json.js';
import type { InputFile } from '../../../src/sources/types.js';
import { kernels as kernelsSection, modules as modulesSection } from '../../../src/model/sections/index.js';

// A few MiB, rotated small so that every rank leaves several files.
const SMALL: Omit<GenerateOptions, 'out'> = {
  plogBytes: '4MiB',
  ranks: 4,
  devices: 4,
  csvRows: 20_000,
  rotateBytes: '256KiB',
  seed: 42,
};

let work: string;
let corpus: GenerateResult;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'bench-generator-'));
  corpus = await generate({ ...SMALL, out: path.join(work, 'a') });
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** Relative path → sha256 of every file under dir. */
async function hashTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of await listFiles(dir)) {
    out[path.relative(dir, file)] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  }
  return out;
}

async function inputFiles(dir: string): Promise<InputFile[]> {
  return (await listFiles(dir)).map((p) => ({ path: p, name: path.relative(dir, p).split(path.sep).join('/') }));
}

async function plogTexts(): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const f of await inputFiles(corpus.plogDir)) texts.set(f.name, await readFile(f.path, 'latin1'));
  return texts;
}

async function parseAll(plog: InputFile[], compare: InputFile[]): Promise<Snapshot> {
  const builder = new SnapshotBuilder();
  for (const file of plog) await parsePlogFile(file, builder);
  for (const file of compare) await parseMemoryCompareFile(file, builder);
  return builder.build();
}

describe('bench corpus generator', () => {
  it('writes byte-identical corpora for the same seed', async () => {
    const again = await generate({ ...SMALL, out: path.join(work, 'b') });
    expect(again.expected).toEqual(corpus.expected);
    expect(await hashTree(path.join(work, 'b'))).toEqual(await hashTree(corpus.out));
  });

  it('writes a different corpus for another seed', async () => {
    await generate({ ...SMALL, seed: 43, out: path.join(work, 'c') });
    const a = await hashTree(corpus.out);
    const c = await hashTree(path.join(work, 'c'));
    expect(c['memory_compare_20250901120000.csv']).not.toBe(a['memory_compare_20250901120000.csv']);
    expect(c['expected-plog.json']).not.toBe(a['expected-plog.json']);
  });

  it('writes the expected snapshots as parse --json prints them', async () => {
    const files: [string, Snapshot | null][] = [
      ['expected-plog.json', corpus.expected.plog],
      ['expected-compare.json', corpus.expected.compare],
      ['expected.json', corpus.expected.all],
      ['expected-compare-legacy.json', corpus.expected.legacy],
    ];
    for (const [name, snapshot] of files) {
      const text = await readFile(path.join(corpus.out, name), 'utf8');
      expect(text).toBe(stableStringify(snapshot));
      expect(generatorStringify(snapshot)).toBe(stableStringify(snapshot));
    }
  });

  it('rotates the plog of each rank into several plog-<pid>_<timestamp>.log files', async () => {
    const names = [...(await plogTexts()).keys()];
    expect(names.length).toBe(corpus.plog.files);
    expect(corpus.expected.plog.meta.files).toBe(corpus.plog.files);
    for (const name of names) expect(name).toMatch(/^rank_[0-3]\/plog-\d+_\d{17}\.log$/);
    for (let r = 0; r < 4; r++) expect(names.filter((n) => n.startsWith(`rank_${r}/`)).length).toBeGreaterThan(3);
    const total = [...(await plogTexts()).values()].reduce((s, t) => s + t.length, 0);
    expect(total).toBe(corpus.plog.bytes);
    expect(Math.abs(total - 4 * 1024 * 1024)).toBeLessThan(64 * 1024);
  });

  it('emits every record generation, decoys, glued, wrapped and cut records, CRLF files', async () => {
    const texts = [...(await plogTexts()).values()];
    const all = texts.join('\n');
    // v0, v1, v2 (with Cached_size), v3 totals
    expect(all).toMatch(
      /\]DEV_MEM dev\d+ mem stats\(Bytes\): module_name=\w+, module_id=\d+ current_alloced_size=\d+, alloced_peak_size=\d+\.\r?\n/,
    );
    expect(all).toMatch(
      /\[_svm_mem_stats_show 148\]DEV_MEM dev\d+ Mem stats \(Bytes\)\. \(module_name=APP; module_id=33; current_alloced_size=\d+; alloced_peak_size=\d+; alloc_cnt=\d+; free_cnt=\d+\)/,
    );
    expect(all).toMatch(
      /\[svm_mem_statistics\.c:150\]\[ascend\]\[curpid:\d+,\d+\]\[drv\]\[devmm\]\[_svm_mem_stats_show\]MEM_DEV_SMALL_HBM dev\d+ Mem stats \(Bytes\)\. \(module_name=\w+; module_id=\d+; current_alloced_size=\d+; allocated_peak_size=\d+; alloc_cnt=\d+; free_cnt=\d+\)/,
    );
    expect(all).toMatch(/\]HOST_MEM Cached_size:\d+Bytes\r?\n/);
    expect(all).toMatch(
      /\]DEV_PROC_MEM dev\d+ Mem stats \(Bytes\)\. \(module_name=APP; module_id=33; total_size=\d+\)/,
    );
    // dump levels
    expect(all).toMatch(/^\[EVENT\] DRV\(/m);
    expect(all).toMatch(/^\[ERROR\] DRV\(/m);
    expect(all).toMatch(/^\[INFO\] DRV\(/m);
    // decoys, glued records, wrapped records (continuation lines without a [LEVEL] prefix), allocation failures
    expect(all).toMatch(/Mem stats of graph \d+: /);
    expect(all).toMatch(
      /free_cnt=\d+\)\[(INFO|EVENT|ERROR)\] DRV\(|alloced_peak_size=\d+\.\[(INFO|EVENT|ERROR)\] DRV\(|Bytes\[(INFO|EVENT|ERROR)\] DRV\(/,
    );
    expect(all).toMatch(/_svm_\r?\nmem_stats\r?\n_show 148\]/);
    expect(all).toMatch(/halMemAlloc failed:size=\d+\(Byte\).*device_id=\d+!\[INFO\] /);
    // line endings and a cut-off last record
    expect(texts.some((t) => t.includes('\r\n'))).toBe(true);
    expect(texts.some((t) => !t.includes('\r\n'))).toBe(true);
    const cut = texts.filter((t) => !t.endsWith('\n'));
    expect(cut.length).toBe(corpus.plog.truncated);
    for (const t of cut)
      expect(t.slice(t.lastIndexOf('\n') + 1)).toMatch(/ [Mm]em stats.*(current_alloced_size|total_size)=\d{0,3}$/);
  });

  it('expects every generation, failures and cut records in the snapshot', () => {
    const { meta } = corpus.expected.plog;
    const modules = metricsOf(corpus.expected.plog, modulesSection);
    const keys = Object.keys(modules);
    for (const pattern of [
      /^DEV_MEM\/dev\d+\/APP$/,
      /^SVM_MEM\/RUNTIME$/,
      /^HOST_MEM\/HCCL$/,
      /^DVPP_MEM\/dev\d+\/DVPP$/,
      /^MEM_DEV_SMALL_HBM\/dev\d+\/APP$/,
      /^MEM_DEV_HUGE_P2P_HBM\/dev\d+\/HCCP_SCHEDULE$/,
      /^MEM_HOST\/ASCENDCL$/,
      /^DEV_PROC_MEM\/dev\d+\/APP$/,
      /^HOST_MEM\/CACHED$/,
      /^MEM_DEV_HUGE_HBM\/dev\d+\/CACHED$/,
    ]) {
      expect(
        keys.some((k) => pattern.test(k)),
        String(pattern),
      ).toBe(true);
    }
    for (const [key, m] of Object.entries(modules)) {
      if (key.endsWith('/CACHED') || key.startsWith('DEV_PROC_MEM/')) {
        expect(m, key).toEqual({ peak: m.peak, current: m.peak, allocs: null, frees: null });
      }
      expect(m.current).toBeLessThanOrEqual(m.peak);
    }
    // Sizes beyond 32 bits, and v0 records (no counts) winning some keys.
    expect(Object.values(modules).some((m) => m.peak > 2 ** 32)).toBe(true);
    expect(
      Object.entries(modules).some(
        ([k, m]) => m.allocs === null && !k.endsWith('/CACHED') && !k.startsWith('DEV_PROC_MEM/'),
      ),
    ).toBe(true);
    expect(meta.skipped).toBe(corpus.plog.truncated);
    expect(meta.skipped).toBeGreaterThan(0);
    expect(meta.records).toBe(corpus.plog.records);
    expect(Object.keys(meta.allocFailures)).toEqual(['dev0', 'dev1', 'dev2', 'dev3']);
    expect(Object.values(meta.allocFailures).reduce((s, n) => s + n, 0)).toBe(corpus.plog.allocFailures);
    expect(corpus.plog.allocFailures).toBeGreaterThan(0);
  });

  it('expects per-kernel sums with N/A launches, negative diffs, quoted names and every CSV header', async () => {
    const compare = corpus.expected.compare as Snapshot;
    const kernels = Object.entries(metricsOf(compare, kernelsSection));
    expect(compare.meta.records).toBe(20_000);
    expect(compare.meta.files).toBe(1);
    expect(kernels.reduce((s, [, k]) => s + k.rows, 0)).toBe(20_000);
    expect(kernels.some(([, k]) => k.diff < 0)).toBe(true);
    expect(kernels.some(([, k]) => k.added > 0)).toBe(true);
    expect(kernels.some(([, k]) => k.removed > 0)).toBe(true);
    expect(new Set(kernels.map(([, k]) => k.event))).toEqual(new Set(['KERNEL_LAUNCH', 'OP_LAUNCH']));
    expect(compare.sections.kernels!['dev0/MatMul,BiasAdd_fused_0']).toBeDefined();
    expect(compare.sections.kernels!['dev1/Slice_"begin"_"end"_3']).toBeDefined();
    const csv = await readFile(corpus.csvPath as string, 'utf8');
    expect(
      csv.startsWith(
        ',,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n',
      ),
    ).toBe(true);
    expect(csv).toContain(',"MatMul,BiasAdd_fused_0",');
    expect(csv).toContain(',"Slice_""begin""_""end""_3",');

    const legacy = corpus.expected.legacy as Snapshot;
    expect(legacy.meta.files).toBe(2);
    expect(Object.values(legacy.sections.kernels ?? {}).every((k) => k.event === null)).toBe(true);
    const [mid, feb] = await Promise.all(
      ['memory_compare_20250601120000.csv', 'stepintercompare_20250215120000.csv'].map((n) =>
        readFile(path.join(corpus.legacyDir as string, n)),
      ),
    );
    expect(mid?.toString('utf8').split('\n').slice(0, 2)).toEqual([
      ',,Base,Compare',
      'Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)',
    ]);
    expect(feb?.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(feb?.toString('utf8').slice(1).split('\r\n').slice(0, 2)).toEqual([
      ',,Base,Compare',
      'Name,Device Id,Allocated Memory,Allocated Memory,Diff Memory',
    ]);
  });

  it('is parsed by the plog parser into exactly the expected snapshot', async () => {
    const snapshot = await parseAll(await inputFiles(corpus.plogDir), []);
    expect(snapshot.meta).toEqual(corpus.expected.plog.meta);
    expect(snapshot).toEqual(corpus.expected.plog);
  });

  it('is parsed by the memory_compare parser into exactly the expected snapshots', async () => {
    const csv = { path: corpus.csvPath as string, name: 'memory_compare_20250901120000.csv' };
    expect(await parseAll([], [csv])).toEqual(corpus.expected.compare);
    expect(await parseAll([], await inputFiles(corpus.legacyDir as string))).toEqual(corpus.expected.legacy);
    expect(await parseAll(await inputFiles(corpus.plogDir), [csv])).toEqual(corpus.expected.all);
  });
});

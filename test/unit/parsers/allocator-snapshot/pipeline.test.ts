// torch_npu memory snapshots through the whole pipeline (parse, baseline, check), as a user runs them on the fixtures.
// The byte figures come from reference.json, which reference.py derived independently (pickle.load and the format doc's
// rules with a backward walk; see test/fixtures/memory-snapshot/SOURCES.md).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../src/cli/commands.js';
import type { Snapshot } from '../../../../src/model/snapshot.js';
import { GiB } from '../../../helpers/story.js';

const FIX = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'memory-snapshot');
const FRAGMENTED = join(FIX, 'constructed', 'oom_snapshot_4242_20261201101500.pickle');
const CAPACITY = join(FIX, 'constructed', 'oom_snapshot_4243_20261201102000.pickle');
/** How messages and metrics name a file given on the command line: relative to the working directory. */
const named = (file: string): string => relative(process.cwd(), file);
const dir = mkdtempSync(join(tmpdir(), 'amg-snapshots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REFERENCE = JSON.parse(readFileSync(join(FIX, 'reference.json'), 'utf8')) as {
  files: Record<
    string,
    {
      devices: Record<
        string,
        {
          dump: Record<string, number>;
          peakAllocated: Record<string, number>;
          peakReserved: Record<string, number>;
          sites: Record<string, { bytes: number; blocks: number }>;
        }
      >;
    }
  >;
  memUsage: Record<string, Record<string, { current: number; peak: number }>>;
};
const fragmentedReference = REFERENCE.files['constructed/oom_snapshot_4242_20261201101500.pickle']?.devices['0'];

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    width: () => 80,
    color: () => false,
  });
  return { code, out, err };
}

async function snapshotOf(args: string[]): Promise<Snapshot> {
  const r = await run(['parse', ...args, '--json']);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as Snapshot;
}

interface ReportEntry {
  kind: string;
  key: string;
  status: string;
  severity: string;
  baseline: number | null;
  current: number | null;
  note?: string;
}

async function check(
  args: string[],
  baseline = join(dir, 'absent.json'),
): Promise<{ code: number; out: string; result: string; entries: ReportEntry[]; markdown: string }> {
  const report = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const markdown = join(dir, `report-${Math.random().toString(36).slice(2)}.md`);
  const r = await run(['check', '--baseline', baseline, ...args, '--report', report, '--markdown', markdown]);
  expect(r.err).toBe('');
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as { result: string; entries: ReportEntry[] };
  return {
    code: r.code,
    out: r.out,
    result: parsed.result,
    entries: parsed.entries,
    markdown: readFileSync(markdown, 'utf8'),
  };
}

describe('parse --memory-snapshot: an OOM dump and the memUsageInfo table beside it', () => {
  it('gives the allocator figures reference.py derived, sites relative to the folder of the user code, and the OOM', async () => {
    const s = await snapshotOf(['--memory-snapshot', FRAGMENTED]);
    const origin = { file: named(FRAGMENTED), logicalDevice: 0, visibleDevices: null };
    expect(s.sections.allocator).toEqual({
      'dev0/allocated': {
        peak: fragmentedReference?.peakAllocated.bytes,
        atDump: fragmentedReference?.dump.liveRequested,
        allocated: 25_532_824_716,
        reserved: 37_134_270_464,
        point: 86,
        traceEntries: 86,
        segments: 23,
        largestSegment: 4 * GiB,
        largestFreeBlock: 1228 * 1024 ** 2,
        ...origin,
      },
      'dev0/reserved': {
        peak: fragmentedReference?.peakReserved.bytes,
        atDump: fragmentedReference?.dump.reserved,
        allocated: 25_532_824_716,
        reserved: 37_134_270_464,
        point: 86,
        traceEntries: 86,
        segments: 23,
        largestSegment: 4 * GiB,
        largestFreeBlock: 1228 * 1024 ** 2,
        ...origin,
      },
    });
    // The common folder of every user frame of the live blocks' stacks (model/, data/ and train.py) is /workspace/proj/.
    const sites = fragmentedReference?.sites ?? {};
    // Keyed by file and function; each function's lines (one each here) with their bytes are its detail.
    const site = (recorded: string, line: number | null) => {
      const r = sites[recorded] as { bytes: number; blocks: number };
      return { ...r, lines: JSON.stringify(line === null ? [] : [[line, r.bytes, r.blocks]]) };
    };
    expect(s.sections.allocationSites).toEqual({
      'dev0/<unknown>': { ...site('<unknown>', null), codeRoot: '', ...origin },
      'dev0/data/caf\udce9.py load': {
        ...site('/workspace/proj/data/caf\udce9.py:7 load', 7),
        codeRoot: '/workspace/proj/',
        ...origin,
      },
      'dev0/model/attention.py forward': {
        ...site('/workspace/proj/model/attention.py:212 forward', 212),
        codeRoot: '/workspace/proj/',
        ...origin,
      },
      'dev0/model/mlp.py forward': {
        ...site('/workspace/proj/model/mlp.py:88 forward', 88),
        codeRoot: '/workspace/proj/',
        ...origin,
      },
    });
    expect(s.sections.ooms?.['dev0/oom1']).toEqual({
      requested: 1536 * 1024 ** 2,
      deviceFree: 1000 * 1024 ** 2,
      allocated: 25_532_824_716,
      reserved: 37_134_270_464,
      largestFreeBlock: 1228 * 1024 ** 2,
      entriesAfter: 0,
      // T from the module table beside the dump: Σ current (25,589.0125 MiB) + the 1,000 MiB free.
      cause: 'fragmentation',
      total: null,
      active: null,
      allowed: null,
      processTotal: null,
      processes: null,
      source: 'memory snapshot',
      precision: 'exact',
      line: null,
      printed: 1,
      sites: JSON.stringify([
        ['model/mlp.py:88 forward', 13_432_257_264, '/workspace/proj/'],
        ['model/attention.py:212 forward', 7_738_490_304, '/workspace/proj/'],
        ['<unknown>', 4_362_075_648, ''],
        ['data/caf\udce9.py:7 load', 1500, '/workspace/proj/'],
      ]),
      ...origin,
    });
    // device_0_memUsageInfo_20261201101500.csv, read because it lies beside the OOM dump.
    const table = REFERENCE.memUsage['constructed/device_0_memUsageInfo_20261201101500.csv'] ?? {};
    const csv = join(FIX, 'constructed', 'device_0_memUsageInfo_20261201101500.csv');
    expect(s.sections.oomModules).toEqual(
      Object.fromEntries(
        Object.entries(table).map(([module, v]) => [
          `dev0/${module}`,
          { peak: v.peak, current: v.current, file: named(csv), logicalDevice: 0, visibleDevices: null },
        ]),
      ),
    );
    expect(s.series.allocator?.['dev0/allocated']?.axis).toBe('trace');
    expect(s.series.allocator?.['dev0/allocated']?.points.at(-1)).toEqual([86, 25_532_824_716]);
    expect(s.meta.files).toBe(2);
  });

  it('writes sites relative to --source-root when given', async () => {
    const s = await snapshotOf(['--memory-snapshot', CAPACITY, '--source-root', '/workspace']);
    expect(Object.keys(s.sections.allocationSites ?? {})).toEqual([
      'dev0/proj/model/attention.py forward',
      'dev0/proj/model/embedding.py forward',
      'dev1/proj/model/embedding.py forward',
    ]);
    expect(s.sections.allocationSites?.['dev1/proj/model/embedding.py forward']?.codeRoot).toBe('/workspace/');
  });

  it("writes an installed package from the package on (torchvision), the script folder's files relative to it", async () => {
    const s = await snapshotOf(['--memory-snapshot', join(FIX, 'corpus', 'snapshot_1768383987920985470.pkl')]);
    const keys = Object.keys(s.sections.allocationSites ?? {});
    expect(keys).toContain('dev0/memory_leaks_demo.py train_one_step');
    expect(keys).toContain('dev0/torchvision/models/resnet.py _forward_impl');
    // Three lines of one function, one key: 714,432 + 40 + 282,342,776 bytes.
    expect(s.sections.allocationSites?.['dev0/memory_leaks_demo.py train_one_step']).toMatchObject({
      bytes: 283_057_248,
      blocks: 486,
      lines: '[[10,714432,1],[11,40,1],[14,282342776,484]]',
    });
    // The sites add up to the allocated peak on this consistent trace.
    const total = Object.values(s.sections.allocationSites ?? {}).reduce((sum, m) => sum + (m.bytes as number), 0);
    expect(total).toBe(s.sections.allocator?.['dev0/allocated']?.peak);
  });

  it('keeps the larger peak, whole, when two files name one device, and says which file it came from', async () => {
    const small = join(FIX, 'constructed', 'protocol4.pickle');
    const s = await snapshotOf(['--memory-snapshot', small, FRAGMENTED]);
    expect(s.sections.allocator?.['dev0/allocated']).toMatchObject({ peak: 25_532_824_716, file: named(FRAGMENTED) });
    const other = await snapshotOf(['--memory-snapshot', FRAGMENTED, small]);
    expect(other.sections.allocator).toEqual(s.sections.allocator);
    // The timeline is the winner's too, not a mix of two traces.
    expect(s.series.allocator?.['dev0/allocated']?.points.at(-1)).toEqual([86, 25_532_824_716]);
  });
});

describe('check: an OOM snapshot is enough evidence to fail the gate', () => {
  it('fails with the OOM explained as fragmentation (no baseline), and warns fragmented at the allocated peak', async () => {
    const { code, out, result, entries, markdown } = await check(['--memory-snapshot', FRAGMENTED]);
    expect(code).toBe(1);
    expect(result).toBe('fail');
    expect(out.split('\n')[0]).toBe('Memory gate failed: 1 oom (no baseline yet: 7 keys recorded) (1 warning)');
    const oom = entries.find((e) => e.status === 'oom');
    expect(oom).toMatchObject({ kind: 'oom', key: 'dev0/fragmentation', severity: 'fail', current: 1536 * 1024 ** 2 });
    expect(oom?.note).toBe(
      'Fragmentation: PyTorch held 10.8 GiB reserved but unallocated (34.6 GiB reserved, 23.8 GiB allocated), more than the 1.5 GiB requested, ' +
        'but in no block that large (the largest free block: 1.2 GiB, at dump time, which the OOM triggered); ' +
        "1000.0 MiB were free on the 26.0 GiB device (torch_npu's module table plus the free memory). " +
        'Set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True so segments grow in place instead of leaving holes (or max_split_size_mb below the request). ' +
        'Largest holders at the OOM: model/mlp.py:88 forward 12.5 GiB, model/attention.py:212 forward 7.2 GiB, <unknown> 4.1 GiB. ' +
        "torch_npu's module table at the OOM: PTA 24.6 GiB (peak 36.6 GiB), HCCL 400.0 MiB (peak 400.0 MiB), RUNTIME 26.0 MiB (peak 26.0 MiB). " +
        `From ${named(FRAGMENTED)}.`,
    );
    // (37,134,270,464 − 25,532,824,716) / 37,134,270,464 = 31.2% over the default 30% and 1 GiB.
    expect(entries.find((e) => e.status === 'fragmented')).toMatchObject({
      kind: 'allocator',
      key: 'dev0/allocated',
      severity: 'warn',
      current: 11_601_445_748,
    });
    // The markdown keeps sizes and marks on one line with no-break spaces.
    const md = markdown.replaceAll('\u00a0', ' ');
    expect(md).toContain('| ❌ oom | `dev0/fragmentation` ¹ | — → 1.5 GiB | +1.5 GiB (new) |');
    expect(md).toContain('| ⚠️ `dev0` | — → 23.8 GiB | — → 34.6 GiB | 10.8 GiB (31.2%) |');
    expect(out).toContain('! dev0    — → 23.8 GiB   — → 34.6 GiB      10.8 GiB (31.2%)');
  });

  it('explains an OOM at capacity, and one whose free block was on another stream, on a device of the configured capacity', async () => {
    const config = join(dir, 'capacity-32.json');
    writeFileSync(config, JSON.stringify({ device: { capacity: '32GiB' } }));
    const { code, entries } = await check(['--memory-snapshot', CAPACITY, '--config', config]);
    expect(code).toBe(1);
    const notes = Object.fromEntries(entries.filter((e) => e.status === 'oom').map((e) => [e.key, e.note]));
    expect(Object.keys(notes)).toEqual(['dev0/capacity', 'dev1/capacity']);
    expect(notes['dev0/capacity']).toBe(
      "Capacity: the program's own tensors filled the device: 28.0 GiB allocated and 28.0 GiB reserved of 32.0 GiB (the configured capacity), 100.0 MiB free, " +
        '28.0 KiB cached (less than the 2.0 GiB requested). Hold less at that point: a smaller micro-batch, activation recomputation, ZeRO or tensor parallel, offload. ' +
        `Largest holders at the OOM: model/attention.py:212 forward 14.0 GiB, model/embedding.py:30 forward 14.0 GiB. From ${named(CAPACITY)}.`,
    );
    expect(notes['dev1/capacity']).toBe(
      "Capacity: the program's own tensors filled the device: 12.0 GiB allocated and 16.0 GiB reserved of 32.0 GiB (the configured capacity), 50.0 MiB free, " +
        '4.0 GiB cached (a free block of 4.0 GiB at dump time was as large as the request, yet could not serve it: it belongs to another stream or memory pool). ' +
        'Hold less at that point: a smaller micro-batch, activation recomputation, ZeRO or tensor parallel, offload. ' +
        `Largest holders at the OOM: model/embedding.py:30 forward 12.0 GiB. From ${named(CAPACITY)}.`,
    );
  });

  it('says the cause is unknown when nothing tells the device total (no module table, no capacity configured), and what would tell', async () => {
    const { code, entries } = await check(['--memory-snapshot', CAPACITY]);
    expect(code).toBe(1);
    expect(entries.filter((e) => e.status === 'oom').map((e) => [e.key, e.note])).toEqual([
      [
        'dev0/unknown',
        "Cause unknown: 2.0 GiB were requested with 100.0 MiB free, but the device's total memory is not known: set `device.capacity` in the config " +
          `(or keep torch_npu's memUsageInfo CSV beside the OOM dump). From ${named(CAPACITY)}.`,
      ],
      [
        'dev1/unknown',
        "Cause unknown: 3.0 GiB were requested with 50.0 MiB free, but the device's total memory is not known: set `device.capacity` in the config " +
          `(or keep torch_npu's memUsageInfo CSV beside the OOM dump). From ${named(CAPACITY)}.`,
      ],
    ]);
  });

  it('explains a 5 GiB request refused with 4 GiB free while 26 GiB of a 32 GiB card were held elsewhere as outside the allocator, not capacity', async () => {
    const outside = join(FIX, 'constructed', 'oom_snapshot_4244_20261201103000.pickle');
    const s = await snapshotOf(['--memory-snapshot', outside, '--capacity', '32GiB']);
    expect(s.sections.ooms?.['dev0/oom1']).toMatchObject({
      requested: 5 * GiB,
      deviceFree: 4 * GiB,
      allocated: 2 * GiB - 1024,
      reserved: 2 * GiB,
      cause: 'outside-allocator',
    });
    const config = join(dir, 'capacity-32.json');
    writeFileSync(config, JSON.stringify({ device: { capacity: '32GiB' } }));
    const { entries } = await check(['--memory-snapshot', outside, '--config', config]);
    expect(entries.filter((e) => e.status === 'oom').map((e) => [e.key, e.note])).toEqual([
      [
        'dev0/outside-allocator',
        "Held outside the allocator: of the 32.0 GiB device (the configured capacity), PyTorch reserved 2.0 GiB and 4.0 GiB were free, so 26.0 GiB were held outside PyTorch's allocator " +
          '(more than inside it) when 5.0 GiB were requested. Find what holds it: `npu-smi info` for other processes on the device (from a container that sees every device), ' +
          "HCCL_BUFFSIZE for HCCL's buffers, and the framework's own memory-utilisation setting (a serving engine's pool). " +
          `From ${named(outside)}.`,
      ],
    ]);
  });

  it('says when a device has no trace: only the dump-time figures exist', async () => {
    const { entries } = await check(['--memory-snapshot', join(FIX, 'constructed', 'bare_segments.pkl')]);
    expect(entries.find((e) => e.key === 'dev0/allocated')?.note).toBe(
      `No trace was recorded (_record_memory_history was off): only dump-time figures, live requested bytes at dump time. From ${named(join(FIX, 'constructed', 'bare_segments.pkl'))}.`,
    );
  });

  it('fails a site that holds 3 GiB more than the baseline, on its device', async () => {
    const baseline = await snapshotOf(['--memory-snapshot', FRAGMENTED]);
    const site = baseline.sections.allocationSites?.['dev0/model/mlp.py forward'] as Record<
      string,
      number | string | null
    >;
    site.bytes = (site.bytes as number) - 3 * GiB;
    const file = join(dir, 'baseline-sites.json');
    writeFileSync(file, JSON.stringify(baseline));
    const { entries } = await check(['--memory-snapshot', FRAGMENTED], file);
    expect(entries.find((e) => e.key === 'dev0/model/mlp.py forward')).toMatchObject({
      kind: 'allocationSite',
      status: 'regressed',
      severity: 'fail',
      current: 13_432_257_264,
      baseline: 13_432_257_264 - 3 * GiB,
    });
  });

  it("maps the process's logical device to the physical one the node records (ASCEND_RT_VISIBLE_DEVICES), once", async () => {
    const node = join(dir, 'node.memory-snapshot.json');
    const written = await run([
      'snapshot',
      '--out',
      node,
      '--memory-snapshot',
      FRAGMENTED,
      '--env',
      'ASCEND_RT_VISIBLE_DEVICES=4,5,6,7',
    ]);
    expect(written.code, written.err).toBe(0);
    const s = JSON.parse(readFileSync(node, 'utf8')) as Snapshot;
    expect(Object.keys(s.sections.allocator ?? {})).toEqual(['dev4/allocated', 'dev4/reserved']);
    expect(s.sections.ooms?.['dev4/oom1']).toMatchObject({ logicalDevice: 0, visibleDevices: '4,5,6,7' });
    expect(Object.keys(s.series.allocator ?? {})).toEqual(['dev4/allocated', 'dev4/reserved']);
    expect(Object.values(s.meta.nodes ?? {})[0]?.devices).toEqual(['dev4']);
    // The gate job reads the node snapshot again with its own environment: the keys stay physical.
    const again = await snapshotOf(['--snapshot', node]);
    const gate = await run([
      'check',
      '--baseline',
      join(dir, 'absent.json'),
      '--snapshot',
      node,
      '--env',
      'ASCEND_RT_VISIBLE_DEVICES=1',
    ]);
    expect(Object.keys(again.sections.allocator ?? {})).toEqual(['dev4/allocated', 'dev4/reserved']);
    expect(gate.out).toContain('dev4/fragmentation');
  });
});

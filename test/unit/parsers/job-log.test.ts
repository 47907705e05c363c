// Job logs as users have them: OOM messages of both generations behind launchers' prefixes, repeated, gzip'd, cut by a crash; each explained in one of five causes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';
import { SnapshotBuilder, type Snapshot } from '../../../src/model/snapshot.js';
import fc from 'fast-check';
import { parseJobLogFile } from '../../../src/parsers/job-log/index.js';
import { countNewlines, MAX_LINE_BYTES } from '../../../src/parsers/job-log/scan.js';
import { readOomMessage } from '../../../src/parsers/job-log/oom-message.js';
import { GiB, MiB } from '../../helpers/story.js';

const dir = mkdtempSync(join(tmpdir(), 'amg-joblog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One constructed message per cause, each behind a different launcher's prefix (FORMATS-oom-messages.md §3, §4's worked examples). */
const OUTSIDE =
  '[rank0]: RuntimeError: NPU out of memory. Tried to allocate 4.00 GiB (NPU 0; 32.00 GiB total capacity; 2.00 GiB already allocated; 2.00 GiB current active; 1.00 GiB free; 2.50 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.';
const FRAGMENTED =
  '(NPURayWorkerWrapper pid=45464) ERROR 06-09 06:57:48 worker_base.py:581] torch.OutOfMemoryError: NPU out of memory. Tried to allocate 3.00 GiB. NPU 1 has a total capacity of 64.00 GiB of which 819.20 MiB is free. Including non-PyTorch memory, this process has 63.20 GiB memory in use. Of the allocated memory 50.00 GiB is allocated by PyTorch, and 10.00 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_NPU_ALLOC_CONF=expandable_segments:True to avoid fragmentation. [repeated 6x across cluster]';
const CAPACITY =
  '2026-03-01T04:09:00.123456789Z RuntimeError: NPU out of memory. Tried to allocate 96.00 MiB (NPU 2; 64.00 GiB total capacity; 62.90 GiB already allocated; 62.95 GiB current active; 20.00 MiB free; 63.20 GiB reserved in total by PyTorch)';
const TOO_LARGE =
  '2026-12-04T10:00:00.0000000Z torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 90.00 GiB (GPU 3; 64.00 GiB total capacity; 1.00 GiB already allocated; 60.00 GiB free; 2.00 GiB reserved in total by PyTorch)';
const REFUSED =
  '(APIServer pid=12) ERROR 12-04 10:00:00 [core.py:155] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 4 has a total capacity of 16.00 GiB of which 6.00 GiB is free. 4.00 GiB allowed; Of the allocated memory 3.00 GiB is allocated by PyTorch, and 1.00 GiB is reserved by PyTorch but unallocated.';
const UNKNOWN =
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 5 has a total capacty of 79.10 GiB of which 1.31 GiB is free. Process 4242 has 60.20 GiB memory in use. Process 4243 has 16.00 GiB memory in use.';
const PLACEHOLDER =
  'Example: RuntimeError: NPU out of memory. Tried to allocate xxx MiB (NPU x; X.XX GiB total capacity; X.XX GiB already allocated; X.XX GiB free)';
const HAL =
  '[ERROR] RUNTIME(10972,python):2023-09-23-05:41:40.256.365 [npu_driver.cc:1100]49835 DevMemAllocHugePageManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=2097152(Byte), type=2, moduleId=7, drvFlag=18374686479671772161, drvRetCode=6, device_id=6!';
const EL0004 = 'E39999: Inner Error! Memory_Allocation_Failure(EL0004): Failed to allocate memory.';

const progress = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `step ${i}: loss=2.${i % 10} lr=1e-4 throughput=512 tokens/s`);

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

async function parsed(file: string, chunkBytes?: number): Promise<Snapshot> {
  const builder = new SnapshotBuilder();
  await parseJobLogFile({ path: file, name: 'train.log' }, builder, chunkBytes === undefined ? {} : { chunkBytes });
  return builder.build();
}

function write(name: string, lines: string[], end = '\n'): string {
  const file = join(dir, name);
  writeFileSync(file, lines.join('\n') + end);
  return file;
}

/** The events without their keys' hashes, in key order: device, request, cause-relevant figures, line, times printed. */
function events(s: Snapshot): Record<string, unknown>[] {
  return Object.entries(s.sections.ooms ?? {}).map(([key, m]) => ({
    device: key.split('/')[0],
    requested: m.requested,
    total: m.total,
    deviceFree: m.deviceFree,
    allocated: m.allocated,
    reserved: m.reserved,
    line: m.line,
    printed: m.printed,
  }));
}

describe('readOomMessage: the figures of both generations', () => {
  it("reads torch_npu's parenthesised form with current active, rounding each printed size to a byte", () => {
    const text = OUTSIDE.slice(OUTSIDE.indexOf('out of memory') + 'out of memory'.length);
    expect(readOomMessage(text)).toEqual({
      device: 0,
      requested: 4 * GiB,
      total: 32 * GiB,
      allocated: 2 * GiB,
      active: 2 * GiB,
      deviceFree: 1 * GiB,
      allowed: null,
      reserved: 2.5 * GiB,
      processTotal: null,
      processes: [],
      form: 'parenthesised',
    });
  });

  it('reads the sentences: processes, this process, the cap, and reserved as allocated + unallocated', () => {
    const at = (line: string): string => line.slice(line.indexOf('out of memory') + 'out of memory'.length);
    expect(readOomMessage(at(UNKNOWN))).toMatchObject({
      device: 5,
      requested: 2 * GiB,
      total: Math.round(79.1 * GiB),
      deviceFree: Math.round(1.31 * GiB),
      allocated: null,
      reserved: null,
      processes: [
        [4242, Math.round(60.2 * GiB)],
        [4243, 16 * GiB],
      ],
      form: 'sentences',
    });
    expect(readOomMessage(at(REFUSED))).toMatchObject({
      device: 4,
      allowed: 4 * GiB,
      allocated: 3 * GiB,
      reserved: 4 * GiB,
    });
    expect(readOomMessage(at(FRAGMENTED))).toMatchObject({
      device: 1,
      deviceFree: Math.round(819.2 * MiB),
      processTotal: Math.round(63.2 * GiB),
      allocated: 50 * GiB,
      reserved: 60 * GiB,
    });
  });

  it('takes placeholders for no figure: such a line is no OOM of any device', () => {
    expect(readOomMessage(PLACEHOLDER.slice(PLACEHOLDER.indexOf('out of memory') + 13))).toBeNull();
  });

  it("keeps what survived of a cut message, and reads very old PyTorch's `cached` as reserved − allocated", () => {
    expect(
      readOomMessage('. Tried to allocate 88.00 MiB (NPU 5; 60.96 GiB total capacity; 4.24 GiB alre'),
    ).toMatchObject({ device: 5, requested: 88 * MiB, total: Math.round(60.96 * GiB), allocated: null });
    expect(
      readOomMessage(
        '. Tried to allocate 20.00 MiB (GPU 0; 7.93 GiB total capacity; 1.00 GiB already allocated; 47.06 MiB free; 512.00 MiB cached)',
      ),
    ).toMatchObject({ allocated: GiB, reserved: GiB + 512 * MiB });
  });
});

describe('--job-log: every OOM of a log, once per device and figures, with its cause', () => {
  it('finds one message per cause behind Ray, vLLM, Kubernetes, [rankN]: and CI prefixes, and names each cause', async () => {
    const file = write('causes.log', [
      ...progress(50),
      OUTSIDE,
      FRAGMENTED,
      CAPACITY,
      ...progress(3),
      TOO_LARGE,
      REFUSED,
      UNKNOWN,
      PLACEHOLDER,
    ]);
    const s = await parsed(file);
    const causes = Object.entries(s.sections.ooms ?? {}).map(([key, m]) => [key.split('/')[0], m.cause]);
    expect(causes.sort()).toEqual([
      ['dev0', 'outside-allocator'],
      ['dev1', 'fragmentation'],
      ['dev2', 'capacity'],
      ['dev3', 'request-exceeds-device'],
      ['dev4', 'free-but-refused'],
      ['dev5', 'unknown'],
    ]);
    expect(events(s).find((e) => e.device === 'dev2')).toEqual({
      device: 'dev2',
      requested: 96 * MiB,
      total: 64 * GiB,
      deviceFree: 20 * MiB,
      allocated: Math.round(62.9 * GiB),
      reserved: Math.round(63.2 * GiB),
      line: 53,
      printed: 1,
    });
    expect(
      Object.values(s.sections.ooms ?? {}).every(
        (m) => m.source === 'job log' && m.precision === 'printed' && m.file === 'train.log',
      ),
    ).toBe(true);
  });

  it("counts a re-raised message once, with how many times it was printed, and a gzip'd copy of the log reads the same", async () => {
    const lines = [
      ...progress(10),
      FRAGMENTED,
      `Traceback (most recent call last): ${FRAGMENTED}`,
      ...progress(2),
      FRAGMENTED.replace('[repeated 6x across cluster]', ''),
    ];
    const plain = write('repeated.log', lines);
    expect(events(await parsed(plain))).toEqual([
      {
        device: 'dev1',
        requested: 3 * GiB,
        total: 64 * GiB,
        deviceFree: Math.round(819.2 * MiB),
        allocated: 50 * GiB,
        reserved: 60 * GiB,
        line: 11,
        printed: 3,
      },
    ]);
    const gz = join(dir, 'repeated.log.gz');
    writeFileSync(gz, gzipSync(readFileSync(plain)));
    expect(events(await parsed(gz))).toEqual(events(await parsed(plain)));
  });

  it('reads a last line cut by the crash (no newline), and gives the same events in 7-byte chunks as in one', async () => {
    const file = write(
      'cut.log',
      [
        ...progress(5),
        CAPACITY,
        'RuntimeError: NPU out of memory. Tried to allocate 88.00 MiB (NPU 5; 60.96 GiB total capacity; 4.24 GiB alre',
      ],
      '',
    );
    const whole = await parsed(file);
    expect(events(whole)).toEqual([
      {
        device: 'dev2',
        requested: 96 * MiB,
        total: 64 * GiB,
        deviceFree: 20 * MiB,
        allocated: Math.round(62.9 * GiB),
        reserved: Math.round(63.2 * GiB),
        line: 6,
        printed: 1,
      },
      {
        device: 'dev5',
        requested: 88 * MiB,
        total: Math.round(60.96 * GiB),
        deviceFree: null,
        allocated: null,
        reserved: null,
        line: 7,
        printed: 1,
      },
    ]);
    expect(await parsed(file, 7)).toEqual(whole);
  });

  it('counts CANN allocation failures (halMemAlloc failed, EL0004) as allocation failures, as in plogs', async () => {
    const file = write('cann.log', [...progress(3), HAL, EL0004]);
    const s = await parsed(file);
    expect(s.meta.allocFailures).toEqual({ dev6: 1, unknown: 1 });
    expect(s.meta.allocFailureSites?.dev6).toEqual([{ file: 'train.log', line: 4, text: HAL }]);
    expect(s.sections.ooms).toBeUndefined();
  });

  it('fails check with no baseline, and the note names the cause with its numbers and the next step', async () => {
    const file = write('only.log', [...progress(3), OUTSIDE]);
    const report = join(dir, 'only-report.json');
    const r = await run(['check', '--baseline', join(dir, 'absent.json'), '--job-log', file, '--report', report]);
    expect(r.code).toBe(1);
    const entries = (
      JSON.parse(readFileSync(report, 'utf8')) as {
        entries: { key: string; status: string; severity: string; current: number; note: string }[];
      }
    ).entries;
    expect(entries.map((e) => [e.key, e.status, e.severity, e.current])).toEqual([
      ['dev0/outside-allocator', 'oom', 'fail', 4 * GiB],
    ]);
    expect(entries[0]?.note).toBe(
      "Held outside the allocator: of the 32.0 GiB device, PyTorch reserved 2.5 GiB and 1.0 GiB were free, so 28.5 GiB were held outside PyTorch's allocator (more than inside it) when 4.0 GiB were requested. " +
        "Find what holds it: `npu-smi info` for other processes on the device (from a container that sees every device), HCCL_BUFFSIZE for HCCL's buffers, and the framework's own memory-utilisation setting (a serving engine's pool). " +
        `Figures as the message printed them (rounded to 0.01 of their unit). From ${file}:4.`,
    );
  });
});

describe("the scanner's bounds", () => {
  it('counts newlines four bytes at a time exactly as one at a time, at any offset and length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(8), fc.nat(8), (bytes, cutStart, cutEnd) => {
        const buf = Buffer.from(bytes.map((b) => (b % 3 === 0 ? 10 : b)));
        const from = Math.min(cutStart, buf.length);
        const to = Math.max(from, buf.length - cutEnd);
        let naive = 0;
        for (let i = from; i < to; i++) if (buf[i] === 10) naive++;
        expect(countNewlines(buf, from, to)).toBe(naive);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a line longer than its bound in parts: an OOM at its end is found, on its line', async () => {
    const file = write('long-line.log', [
      ...progress(2),
      `${'x'.repeat(MAX_LINE_BYTES + 5000)} ${CAPACITY}`,
      ...progress(2),
    ]);
    expect(events(await parsed(file, 64 * 1024)).map((e) => [e.device, e.line])).toEqual([['dev2', 3]]);
  });
});

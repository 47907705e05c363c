// Generates msMemScope event dumps (G5 header) the way the tool writes them: a block's MALLOC and FREE rows together,
// when it is freed; blocks never freed at teardown; SYSTEM rows of no device last. Used by the tests and the benchmark (bench/run.mjs).
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mulberry32 } from '../helpers/random.js';

export interface MemscopeDumpOptions {
  steps: number;
  opsPerStep: number;
  device?: number;
  pid?: number;
  /** From this step on, one block of `leakBytes` per step is never freed. */
  leakFromStep?: number | null;
  leakBytes?: number;
  seed?: number;
  /** Fraction of launches altered: half get 512 more bytes, half get an extra `aten.extra.default` launch. */
  differences?: number;
  /** Label blocks with decompose owners (`PTA`, `PTA@weight`, leaks `PTA@optimizer_state`). */
  owners?: boolean;
  /** Filled in while generating: ATEN_END launches written, of them extra (inserted) ones, and resized ops. */
  stats?: { launches?: number; extraLaunches?: number; resized?: number };
}

/** A PTA block the dump allocated: its MALLOC row (written when it is freed) and what its FREE row needs. */
interface Block {
  row: string;
  ptr: number;
  aid: number;
  size: number;
}

export const MEMSCOPE_HEADER =
  'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
const OPS = [
  'aten.mm.default',
  'aten.add.Tensor',
  'aten.mul.Tensor',
  'aten.sum.dim_IntList',
  'aten.view.default',
  'aten.t.default',
  'aten.addmm.default',
  'aten.relu.default',
];
const T0 = 1764753083000000000n;

/**
 * Yields the dump's lines (without newlines). Each op allocates one PTA block that the next op frees.
 * Options: steps, opsPerStep, device (0), pid (4242), leakFromStep (null: no leak), leakBytes (4000256),
 * seed (42), differences (fraction of launches altered: half get a different size, half an extra op inserted after),
 * owners (label blocks `PTA@…`), callStack (a Python frame on leaked blocks).
 */
export function* memscopeDumpLines(options: MemscopeDumpOptions): Generator<string> {
  const {
    steps,
    opsPerStep,
    device = 0,
    pid = 4242,
    leakFromStep = null,
    leakBytes = 4000256,
    seed = 42,
    differences = 0,
    owners = false,
    stats = {},
  } = options;
  const counts = { launches: 0, extraLaunches: 0, resized: 0 };
  Object.assign(stats, counts);
  const random = mulberry32(seed);
  let id = 0;
  let ts = T0;
  let used = 0;
  let allocationId = 0;
  const tick = (ns = 1000n): bigint => (ts += ns);
  const base = (event: string, type: string, name: string, time: bigint, ptr = 'N/A', attr = ''): string =>
    `${++id},${event},${type},${name},${time},${pid},${pid},${device},${ptr},${attr},,`;
  const hex = (n: number): string => `0x${n.toString(16).padStart(16, '0')}`;
  const unfreed: string[] = [];
  let pending: { block: Block } | null = null;
  let rangeId = 0;
  const allocate = (size: number, owner: string | null, leak = false): Block => {
    const ptr = (leak ? 0x200000000000 : 0x12c041400000) + (allocationId % 4096) * 0x100000;
    const aid = ++allocationId;
    used += size;
    const row = base(
      'MALLOC',
      'PTA',
      'N/A',
      tick(10n),
      hex(ptr),
      `"{allocation_id:${aid},addr:${hex(ptr)},size:${size},total:20971520,used:${used}${owner ? `,owner:${owner}` : ''}}"`,
    );
    return { row, ptr, aid, size };
  };
  const free = (block: Block): string => {
    used -= block.size;
    return base(
      'FREE',
      'PTA',
      'N/A',
      tick(10n),
      hex(block.ptr),
      `"{allocation_id:${block.aid},addr:${hex(block.ptr)},size:${block.size},total:20971520,used:${used}}"`,
    );
  };
  for (let step = 1; step <= steps; step++) {
    rangeId++;
    yield base('MSTX', 'Range_start', '"step start"', tick());
    for (let o = 0; o < opsPerStep; o++) {
      const name = OPS[(o * 7 + step) % OPS.length]!;
      const r = differences > 0 ? random() : 1;
      const launches = r < differences / 2 ? [name, 'aten.extra.default'] : [name];
      stats.launches = counts.launches += launches.length;
      if (launches.length > 1) stats.extraLaunches = ++counts.extraLaunches;
      if (r >= differences / 2 && r < differences) stats.resized = ++counts.resized;
      for (const opName of launches) {
        yield base('OP_LAUNCH', 'ATEN_START', `torch._ops.${opName}`, tick());
        let size = 512 * (1 + ((o + step) % 8));
        if (r >= differences / 2 && r < differences) size += 512;
        const block = allocate(size, owners ? (o % 2 ? 'PTA@weight' : 'PTA') : null);
        if (pending !== null) {
          const row = free(pending.block);
          yield pending.block.row;
          yield row;
        }
        pending = { block };
        yield base('OP_LAUNCH', 'ATEN_END', `torch._ops.${opName}`, tick());
      }
    }
    if (leakFromStep !== null && step >= leakFromStep) {
      stats.launches = ++counts.launches;
      yield base('OP_LAUNCH', 'ATEN_START', 'torch._ops.aten.randn.default', tick());
      unfreed.push(allocate(leakBytes, owners ? 'PTA@optimizer_state' : null, true).row);
      yield base('OP_LAUNCH', 'ATEN_END', 'torch._ops.aten.randn.default', tick());
    }
    if (pending !== null) {
      const row = free(pending.block);
      yield pending.block.row;
      yield row;
      pending = null;
    }
    yield base('MSTX', 'Range_end', `"Range end from id ${rangeId}"`, tick());
  }
  yield* unfreed;
  yield `${++id},SYSTEM,START_TRACE,N/A,${T0},${pid},${pid},N/A,N/A,,,`;
  yield `${++id},SYSTEM,STOP_TRACE,N/A,${tick()},${pid},${pid},N/A,N/A,,,`;
}

/** The whole dump as text (small dumps, tests). */
export function memscopeDumpText(options: MemscopeDumpOptions): string {
  return `${[MEMSCOPE_HEADER, ...memscopeDumpLines(options)].join('\n')}\n`;
}

/** Writes a dump to `path`; resolves { bytes, rows }. */
export async function writeMemscopeDump(
  path: string,
  options: MemscopeDumpOptions,
): Promise<{ bytes: number; rows: number }> {
  const out = createWriteStream(path);
  let bytes = 0;
  let rows = 0;
  let buffer = `${MEMSCOPE_HEADER}\n`;
  for (const line of memscopeDumpLines(options)) {
    buffer += `${line}\n`;
    rows++;
    if (buffer.length > 1 << 20) {
      bytes += buffer.length;
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  bytes += buffer.length;
  out.end(buffer);
  await once(out, 'finish');
  return { bytes, rows };
}

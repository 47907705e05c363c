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

const hex = (n: number): string => `0x${n.toString(16).padStart(16, '0')}`;

/** The rows of one process's dump: row ids, the clock, and the PTA pool's used bytes as the tool counts them. */
class DumpRows {
  private id = 0;
  private ts = T0;
  private used = 0;
  private allocationId = 0;

  constructor(
    private readonly pid: number,
    private readonly device: number,
  ) {}

  tick(ns = 1000n): bigint {
    return (this.ts += ns);
  }
  row(event: string, type: string, name: string, time: bigint, ptr = 'N/A', attr = ''): string {
    return `${++this.id},${event},${type},${name},${time},${this.pid},${this.pid},${this.device},${ptr},${attr},,`;
  }
  /** A row of no device (SYSTEM). */
  systemRow(type: string, time: bigint): string {
    return `${++this.id},SYSTEM,${type},N/A,${time},${this.pid},${this.pid},N/A,N/A,,,`;
  }
  allocate(size: number, owner: string | null, leak = false): Block {
    const ptr = (leak ? 0x200000000000 : 0x12c041400000) + (this.allocationId % 4096) * 0x100000;
    const aid = ++this.allocationId;
    this.used += size;
    const attr = `"{allocation_id:${aid},addr:${hex(ptr)},size:${size},total:20971520,used:${this.used}${owner ? `,owner:${owner}` : ''}}"`;
    return { row: this.row('MALLOC', 'PTA', 'N/A', this.tick(10n), hex(ptr), attr), ptr, aid, size };
  }
  /** The block's MALLOC row, then its FREE row: the tool writes both when the block is freed. */
  *free(block: Block): Generator<string> {
    this.used -= block.size;
    const attr = `"{allocation_id:${block.aid},addr:${hex(block.ptr)},size:${block.size},total:20971520,used:${this.used}}"`;
    const row = this.row('FREE', 'PTA', 'N/A', this.tick(10n), hex(block.ptr), attr);
    yield block.row;
    yield row;
  }
}

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
  const d = new DumpRows(pid, device);
  const unfreed: string[] = [];
  let pending: Block | null = null;
  let rangeId = 0;
  for (let step = 1; step <= steps; step++) {
    rangeId++;
    yield d.row('MSTX', 'Range_start', '"step start"', d.tick());
    for (let o = 0; o < opsPerStep; o++) {
      const name = OPS[(o * 7 + step) % OPS.length]!;
      const r = differences > 0 ? random() : 1;
      const launches = r < differences / 2 ? [name, 'aten.extra.default'] : [name];
      stats.launches = counts.launches += launches.length;
      if (launches.length > 1) stats.extraLaunches = ++counts.extraLaunches;
      if (r >= differences / 2 && r < differences) stats.resized = ++counts.resized;
      for (const opName of launches) {
        yield d.row('OP_LAUNCH', 'ATEN_START', `torch._ops.${opName}`, d.tick());
        let size = 512 * (1 + ((o + step) % 8));
        if (r >= differences / 2 && r < differences) size += 512;
        const block = d.allocate(size, owners ? (o % 2 ? 'PTA@weight' : 'PTA') : null);
        if (pending !== null) yield* d.free(pending);
        pending = block;
        yield d.row('OP_LAUNCH', 'ATEN_END', `torch._ops.${opName}`, d.tick());
      }
    }
    if (leakFromStep !== null && step >= leakFromStep) {
      stats.launches = ++counts.launches;
      yield d.row('OP_LAUNCH', 'ATEN_START', 'torch._ops.aten.randn.default', d.tick());
      unfreed.push(d.allocate(leakBytes, owners ? 'PTA@optimizer_state' : null, true).row);
      yield d.row('OP_LAUNCH', 'ATEN_END', 'torch._ops.aten.randn.default', d.tick());
    }
    if (pending !== null) yield* d.free(pending);
    pending = null;
    yield d.row('MSTX', 'Range_end', `"Range end from id ${rangeId}"`, d.tick());
  }
  yield* unfreed;
  yield d.systemRow('START_TRACE', T0);
  yield d.systemRow('STOP_TRACE', d.tick());
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

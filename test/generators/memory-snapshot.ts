// Generates a torch_npu memory snapshot of any size with a long trace, written as Python's pickle protocol 4 writes it.
//
// The object is what torch_npu's _dump_snapshot pickles: {segments, device_traces}, Module.cpp's key order, one str
// per key and per action, frame dicts shared, each allocation's frames list shared by its alloc and free entries.
// The bytes are the ones CPython's pickler writes for such an object: MEMOIZE after every str, dict, list and tuple,
// BINGET/LONG_BINGET for an object met again, MARK … SETITEMS/APPENDS in batches of 1000, a FRAME before each ~64 KiB.
// A seeded allocator simulation runs twice, the same both times: first to learn the dump-time state (the segments come
// first in the file), then to write the trace. It returns the figures the gate must find (exact peaks).
import { closeSync, openSync, writeSync } from 'node:fs';
import { xorshift32 as rng } from '../helpers/random.js';
import { MiB } from '../helpers/story.js';

export interface MemorySnapshotOptions {
  /** About this many bytes of file. */
  bytes: number;
  seed?: number;
  /** Lines added above every allocation of model/layer<i>.py (their frames' lines move down by this much). */
  lineShift?: number;
  /** One more block of this size, live for the whole trace, allocated at line 45 + lineShift of model/layer0.py's forward. */
  extraBytes?: number;
}

export interface MemorySnapshotResult {
  bytes: number;
  entries: number;
  peakAllocated: number;
  peakReserved: number;
  allocatedAtDump: number;
}

/** One block of the simulated allocator (`size` only on the extra block, whose size is not the segments' block size). */
interface Block {
  address: number;
  requested: number;
  live: boolean;
  context?: number;
  stack?: number;
  size?: number;
}

/** One trace entry as torch_npu records it (context -1: no frames). */
interface TraceEntry {
  action: string;
  addr: number;
  size: number;
  context: number;
  stack: number;
}

interface SimulationOptions {
  seed: number;
  segments: number;
  blocksPerSegment: number;
  blockBytes: number;
  entries: number;
  extraBytes: number;
}
const FRAME_TARGET = 64 * 1024;
const BATCH = 1000;

/** Protocol-4 opcodes into frames of ~64 KiB, flushed to the file as they fill. */
class PickleWriter {
  readonly frame = Buffer.allocUnsafe(FRAME_TARGET + 64 * 1024);
  at = 0;
  readonly out = Buffer.allocUnsafe(8 * MiB);
  outAt = 0;
  memo = 0;
  bytes = 0;

  constructor(private readonly fd: number) {}

  /** Ends a frame at an object boundary once it is big enough, as CPython's framer commits. */
  commit(force = false): void {
    if (this.at === 0 || (!force && this.at < FRAME_TARGET)) return;
    this.flushOut(9 + this.at);
    this.out[this.outAt] = 0x95;
    this.out.writeBigUInt64LE(BigInt(this.at), this.outAt + 1);
    this.frame.copy(this.out, this.outAt + 9, 0, this.at);
    this.outAt += 9 + this.at;
    this.at = 0;
  }

  flushOut(need: number): void {
    if (this.outAt + need <= this.out.length) return;
    writeSync(this.fd, this.out, 0, this.outAt);
    this.bytes += this.outAt;
    this.outAt = 0;
  }

  /** PROTO, before the first frame. */
  header(protocol: number): void {
    this.out[this.outAt++] = 0x80;
    this.out[this.outAt++] = protocol;
  }

  op(b: number): void {
    this.frame[this.at++] = b;
  }

  memoize(): number {
    this.frame[this.at++] = 0x94;
    return this.memo++;
  }

  get(index: number): void {
    if (index < 256) {
      this.frame[this.at++] = 0x68;
      this.frame[this.at++] = index;
    } else {
      this.frame[this.at++] = 0x6a;
      this.frame.writeUInt32LE(index, this.at);
      this.at += 4;
    }
  }

  str(s: string): number {
    const b = Buffer.from(s, 'utf8');
    this.frame[this.at++] = 0x8c;
    this.frame[this.at++] = b.length;
    b.copy(this.frame, this.at);
    this.at += b.length;
    return this.memoize();
  }

  int(v: number): void {
    if (v >= 0 && v < 256) {
      this.frame[this.at++] = 0x4b;
      this.frame[this.at++] = v;
    } else if (v >= 0 && v < 65536) {
      this.frame[this.at++] = 0x4d;
      this.frame.writeUInt16LE(v, this.at);
      this.at += 2;
    } else if (v >= -(2 ** 31) && v < 2 ** 31) {
      this.frame[this.at++] = 0x4a;
      this.frame.writeInt32LE(v, this.at);
      this.at += 4;
    } else {
      // The shortest little-endian two's complement, as CPython's encode_long.
      let n = 1;
      while (n < 8 && !(v >= -(2 ** (8 * n - 1)) && v < 2 ** (8 * n - 1))) n++;
      this.frame[this.at++] = 0x8a;
      this.frame[this.at++] = n;
      let x = BigInt.asUintN(8 * n, BigInt(v));
      for (let i = 0; i < n; i++) {
        this.frame[this.at++] = Number(x & 0xffn);
        x >>= 8n;
      }
    }
  }

  end(): void {
    this.commit(true);
    this.flushOut(1);
    this.out[this.outAt++] = 0x2e;
    writeSync(this.fd, this.out, 0, this.outAt);
    this.bytes += this.outAt;
    this.outAt = 0;
  }
}

/**
 * The allocator simulation: `segments` fixed segments of `blocksPerSegment` blocks, allocated and freed at random;
 * calls `emit(entry)` for each trace entry and returns the final block states and the exact figures.
 */
function simulate(
  { seed, segments, blocksPerSegment, blockBytes, entries, extraBytes }: SimulationOptions,
  emit: (entry: TraceEntry) => void,
): { blocks: Block[]; entries: number; peakAllocated: number; reserved: number; allocatedAtDump: number } {
  const random = rng(seed);
  const base = 0x12c000000000;
  const segmentBytes = blocksPerSegment * blockBytes;
  const blocks: Block[] = [];
  for (let s = 0; s < segments; s++) {
    for (let b = 0; b < blocksPerSegment; b++)
      blocks.push({ address: base + s * segmentBytes + b * blockBytes, requested: 0, live: false, context: -1 });
  }
  let allocated = 0;
  let peak = 0;
  let reserved = 0;
  let n = 0;
  let contexts = 0;
  const point = () => {
    n++;
    if (allocated > peak) peak = allocated;
  };
  for (let s = 0; s < segments; s++) {
    emit({ action: 'segment_alloc', addr: base + s * segmentBytes, size: segmentBytes, context: -1, stack: 0 });
    reserved += segmentBytes;
    point();
  }
  // The extra block: its own segment past the others, allocated once from stack EXTRA_STACK and live to the end.
  let extra = 0;
  if (extraBytes > 0) {
    const addr = base + segments * segmentBytes;
    emit({ action: 'segment_alloc', addr, size: extraBytes, context: -1, stack: 0 });
    reserved += extraBytes;
    point();
    emit({ action: 'alloc', addr, size: extraBytes, context: contexts++, stack: EXTRA_STACK });
    allocated += extraBytes;
    point();
    extra = 2;
  }
  while (n - extra < entries) {
    const block = blocks[Math.floor(random() * blocks.length)]!;
    if (!block.live) {
      block.requested = blockBytes - 64 * Math.floor(random() * 16);
      block.live = true;
      block.context = contexts++;
      block.stack = Math.floor(random() * 8);
      emit({ action: 'alloc', addr: block.address, size: block.requested, context: block.context, stack: block.stack });
      allocated += block.requested;
      point();
    } else {
      emit({
        action: 'free_requested',
        addr: block.address,
        size: block.requested,
        context: block.context!,
        stack: block.stack!,
      });
      point();
      emit({
        action: 'free_completed',
        addr: block.address,
        size: block.requested,
        context: block.context!,
        stack: block.stack!,
      });
      allocated -= block.requested;
      block.live = false;
      point();
    }
  }
  return { blocks, entries: n, peakAllocated: peak, reserved, allocatedAtDump: allocated };
}

/** The stack of the extra block: a line of its own in model/layer0.py's forward. */
const EXTRA_STACK = 8;

/** About how many trace entries make `bytes` of file. */
const BYTES_PER_ENTRY = 62;

const TORCH_MODULE = '/usr/local/lib/python3.10/site-packages/torch/nn/modules/module.py';

/** The call stacks allocations come from: stack i allocates in model/layer<i>.py, EXTRA_STACK is the extra block's. */
function stacksFor(lineShift: number): [string, string, number][][] {
  return Array.from({ length: EXTRA_STACK + 1 }, (_, i): [string, string, number][] => [
    ['linear', '/usr/local/lib/python3.10/site-packages/torch/nn/functional.py', 2822],
    ['_call_impl', TORCH_MODULE, 1750],
    ['_wrapped_call_impl', TORCH_MODULE, 1739],
    i === EXTRA_STACK
      ? ['forward', '/workspace/proj/model/layer0.py', 45 + lineShift]
      : ['forward', `/workspace/proj/model/layer${i}.py`, 40 + i + lineShift],
    ['_call_impl', TORCH_MODULE, 1750],
    ['forward', '/workspace/proj/model/net.py', 88],
    ['train_step', '/workspace/proj/train.py', 40],
    ['main', '/workspace/proj/train.py', 120],
  ]);
}

/** torch_npu's snapshot objects on a PickleWriter, shared as it shares them: each str once, frame dicts and lists. */
class SnapshotPickler {
  private readonly keys = new Map<string, number>();
  private noFrames = -1;
  private readonly frameDicts = new Map<string, number>();
  /** Allocation context → its frames list, shared by the alloc and free entries of that allocation. */
  private readonly framesLists = new Map<number, number>();
  private inBatch = 0;

  constructor(
    private readonly w: PickleWriter,
    private readonly blockBytes: number,
    private readonly stacks: [string, string, number][][],
  ) {}

  key(s: string): void {
    const known = this.keys.get(s);
    if (known !== undefined) this.w.get(known);
    else this.keys.set(s, this.w.str(s));
  }

  private emptyFrames(): void {
    if (this.noFrames >= 0) this.w.get(this.noFrames);
    else {
      this.w.op(0x5d);
      this.noFrames = this.w.memoize();
    }
  }

  private frameDict(name: string, filename: string, line: number): void {
    const w = this.w;
    const id = `${name}\u0000${filename}\u0000${line}`;
    const known = this.frameDicts.get(id);
    if (known !== undefined) {
      w.get(known);
      return;
    }
    w.op(0x7d);
    const index = w.memoize();
    w.op(0x28);
    this.key('name');
    this.key(name);
    this.key('filename');
    this.key(filename);
    this.key('line');
    w.int(line);
    w.op(0x75);
    this.frameDicts.set(id, index);
  }

  private blockSize(b: Block): number {
    return b.size ?? this.blockBytes;
  }

  /** `key` then each value: an int, or a str key. */
  private fields(fields: [string, number | string][]): void {
    for (const [k, v] of fields) {
      this.key(k);
      if (typeof v === 'number') this.w.int(v);
      else this.key(v);
    }
  }

  /** One segment dict with its blocks. */
  segment(blocks: Block[]): void {
    const w = this.w;
    const live = blocks.filter((b) => b.live);
    const liveBytes = live.reduce((sum, b) => sum + this.blockSize(b), 0);
    w.op(0x7d);
    w.memoize();
    w.op(0x28);
    this.fields([
      ['device', 0],
      ['address', blocks[0]!.address],
      ['total_size', blocks.reduce((sum, b) => sum + this.blockSize(b), 0)],
      ['allocated_size', liveBytes],
      ['active_size', liveBytes],
      ['requested_size', live.reduce((sum, b) => sum + b.requested, 0)],
      ['stream', 1276474240],
      ['segment_pool_id', 0],
    ]);
    w.int(0);
    w.op(0x86);
    w.memoize();
    this.fields([['segment_type', 'large']]);
    this.key('is_expandable');
    w.op(0x89);
    this.key('frames');
    this.emptyFrames();
    this.key('blocks');
    w.op(0x5d);
    w.memoize();
    w.op(0x28);
    for (const b of blocks) {
      w.op(0x7d);
      w.memoize();
      w.op(0x28);
      this.fields([
        ['address', b.address],
        ['size', this.blockSize(b)],
        ['requested_size', b.requested],
        ['state', b.live ? 'active_allocated' : 'inactive'],
      ]);
      this.key('frames');
      this.emptyFrames();
      w.op(0x75);
      w.commit();
    }
    w.op(0x65);
    w.op(0x75);
  }

  /** One trace entry, in MARK … APPENDS batches of BATCH (closed by endTrace). */
  traceEntry(e: TraceEntry): void {
    const w = this.w;
    if (this.inBatch === 0) w.op(0x28);
    w.op(0x7d);
    w.memoize();
    w.op(0x28);
    this.fields([
      ['action', e.action],
      ['addr', e.addr],
      ['size', e.size],
      ['stream', 1276474240],
    ]);
    this.key('frames');
    if (e.context < 0) this.emptyFrames();
    else this.framesOf(e);
    w.op(0x75);
    w.commit();
    if (++this.inBatch === BATCH) {
      w.op(0x65);
      this.inBatch = 0;
    }
  }

  private framesOf(e: TraceEntry): void {
    const w = this.w;
    const known = this.framesLists.get(e.context);
    if (known !== undefined) {
      w.get(known);
      if (e.action === 'free_completed') this.framesLists.delete(e.context);
      return;
    }
    w.op(0x5d);
    this.framesLists.set(e.context, w.memoize());
    w.op(0x28);
    for (const [name, filename, line] of this.stacks[e.stack]!) this.frameDict(name, filename, line);
    w.op(0x65);
  }

  /** A last batch of one: MARK item APPENDS (CPython would write the item and APPEND; both read the same). */
  endTrace(): void {
    if (this.inBatch > 0) this.w.op(0x65);
  }
}

/** The segments at the dump: the simulation's, and the extra block's own segment past them. */
function segmentsAtDump(options: SimulationOptions, blocks: Block[]): Block[][] {
  const segmentList: Block[][] = Array.from({ length: options.segments }, (_, s) =>
    blocks.slice(s * options.blocksPerSegment, (s + 1) * options.blocksPerSegment),
  );
  const { extraBytes } = options;
  if (extraBytes > 0) {
    const address = 0x12c000000000 + options.segments * options.blocksPerSegment * options.blockBytes;
    segmentList.push([{ address, requested: extraBytes, live: true, size: extraBytes }]);
  }
  return segmentList;
}

/**
 * Writes a snapshot of about `bytes` to `path`: one device, a trace of ~bytes / 62 entries. Returns what the gate must
 * find: `peakAllocated` (requested bytes), `peakReserved`, the trace length, and the file's size.
 * `lineShift` moves every line of the model/layer<i>.py frames down (lines added above the allocations); `extraBytes`
 * adds one block of that size, live from the start of the trace to the dump, allocated at line 45 (+ lineShift) of
 * model/layer0.py's forward. The same seed gives the same allocations whatever these two are.
 */
export function writeMemorySnapshot(
  path: string,
  { bytes, seed = 42, lineShift = 0, extraBytes = 0 }: MemorySnapshotOptions,
): MemorySnapshotResult {
  const options: SimulationOptions = {
    seed,
    segments: 64,
    blocksPerSegment: 256,
    blockBytes: 2 * MiB,
    entries: Math.max(1000, Math.round(bytes / BYTES_PER_ENTRY)),
    extraBytes,
  };
  const final = simulate(options, () => {});
  const fd = openSync(path, 'w');
  try {
    const w = new PickleWriter(fd);
    const p = new SnapshotPickler(w, options.blockBytes, stacksFor(lineShift));
    w.header(4);
    w.op(0x7d);
    w.memoize();
    w.op(0x28);
    p.key('segments');
    w.op(0x5d);
    w.memoize();
    const segmentList = segmentsAtDump(options, final.blocks);
    for (let s = 0; s < segmentList.length; s++) {
      if (s % BATCH === 0) w.op(0x28);
      p.segment(segmentList[s]!);
      if (s % BATCH === BATCH - 1 || s === segmentList.length - 1) w.op(0x65);
      w.commit();
    }
    p.key('device_traces');
    w.op(0x5d);
    w.memoize();
    // One trace list (a single-device job): a list of one item is pickled with APPEND.
    w.op(0x5d);
    w.memoize();
    simulate(options, (e) => p.traceEntry(e));
    p.endTrace();
    w.op(0x61); // the trace list into device_traces
    w.op(0x75); // the top-level dict's two items
    w.end();
    return {
      bytes: w.bytes,
      entries: final.entries,
      peakAllocated: final.peakAllocated,
      peakReserved: final.reserved,
      allocatedAtDump: final.allocatedAtDump,
    };
  } finally {
    closeSync(fd);
  }
}

// One device of a memory snapshot in one forward pass: the dump-time state, the peaks of the trace, the live set at a point.
//
// The format defines the figures by a walk BACKWARDS from the dump-time state (FORMATS-memory-snapshot.md §4): point k
// is the state after trace entries 0…k−1, point n is dump time. With S_k the sum of the trace's changes up to point k,
// the value at point k is (value at dump − S_n) + S_k, so the peak is (dump − S_n) + max S_k, at the latest k where S_k
// is largest (the first one the backward walk meets with a strict >). Both sums run forward as the trace streams by, and
// the dump-time state (segments come first in the file, but nothing depends on it) is added at the end.
//
// The live set at a point p follows the backward walk too: an address whose first alloc/free_completed at or after p is
// a free_completed was live at p, with that entry's size and frames; an address not touched after p is live iff a
// dump-time block is live there. Its frames are then those of the latest alloc before p, if the latest entry before p
// at that address is one. Each address keeps one slot: its latest entry, and, once touched after the peak point, its
// first entry after it and the one before. Moving the peak to a later point only moves an epoch number, so a trace
// that keeps growing costs nothing more. Sites are worked out at the end, for the live blocks only.
import type { Series } from '../../model/series.js';
import { MAX_POINTS } from '../../model/series.js';
import type { PickleValue } from './pickle-reader.js';
import type { SiteFrame, SiteNames } from './sites.js';
import type { WorkBudget } from './work-budget.js';

/** An address as the file gives it: a number, or a bigint past 2^53 (a stream or address may be). */
export type Address = number | bigint;

/** A frames list as the file holds it (its site is worked out only for blocks that end up counted). */
export type Frames = PickleValue | undefined;

/** A live block: its requested bytes and frames. */
export interface BlockUse {
  size: number;
  frames: Frames;
}

/** Bytes per site of a live set, and how many blocks. */
export type SiteBytes = Map<string, { bytes: number; blocks: number }>;

/** A live set by site, with the files of every user-code frame of its blocks' stacks (absolute paths as recorded). */
export interface LiveSites {
  sites: SiteBytes;
  /** Each site's frame: file, line and function (absent for `<unknown>`). */
  frames: Map<string, SiteFrame>;
  userFiles: Set<string>;
}

/** One `oom` trace entry with the state the walk gives it. */
interface OomPoint {
  /** Its index in the device's trace. */
  index: number;
  /** The request, rounded as the allocator rounds it. */
  size: number;
  deviceFree: number;
  /** Allocated (requested) and reserved bytes at the OOM: at point index + 1. */
  allocated: number;
  reserved: number;
  /** Trace entries after it (0: the OOM triggered the dump, as torch_npu's observer does). */
  entriesAfter: number;
  /** Live blocks at the OOM by site; null past MAX_OOM_SITES OOMs of one device. */
  sites: LiveSites | null;
}

/** At most this many OOMs of one device get their live set (each keeps a tracker to the end of the trace). */
const MAX_OOM_SITES = 32;

/** What the walk keeps per address. */
interface Slot {
  /** The latest alloc / free_completed here. */
  lastAlloc: boolean;
  lastFrames: Frames;
  /** The peak epoch the fields below belong to: set at the first entry here after the peak point. */
  epoch: number;
  firstAlloc: boolean;
  firstSize: number;
  firstFrames: Frames;
  /** The latest entry here before the peak point was an alloc (its frames), or there was none / a free_completed. */
  beforeAlloc: boolean;
  beforeFrames: Frames;
}

/** The first entry after a point and the one before it, for one address: what an OOM's tracker keeps. */
interface Around {
  firstAlloc: boolean;
  firstSize: number;
  firstFrames: Frames;
  beforeAlloc: boolean;
  beforeFrames: Frames;
}

/** Window peaks of a running sum over trace points 0…n, sampled in order: MAX_POINTS buckets at most, widths powers of two. */
class TraceTimeline {
  private width = 1;
  private readonly peaks: number[] = [];

  add(point: number, value: number): void {
    let bucket = Math.floor(point / this.width);
    while (bucket >= MAX_POINTS) {
      for (let i = 0; i < this.peaks.length; i += 2)
        this.peaks[i / 2] = Math.max(this.peaks[i] as number, this.peaks[i + 1] ?? -Infinity);
      this.peaks.length = Math.ceil(this.peaks.length / 2);
      this.width *= 2;
      bucket = Math.floor(point / this.width);
    }
    if (bucket === this.peaks.length) this.peaks.push(value);
    else if (value > (this.peaks[bucket] as number)) this.peaks[bucket] = value;
  }

  /** The series with every value moved by `offset` (the dump-time value minus the trace's net change). */
  toSeries(offset: number): Series {
    return { axis: 'trace', width: this.width, points: this.peaks.map((peak, i) => [i * this.width, peak + offset]) };
  }
}

/** A sum that must stay an exact integer. */
function exactSum(a: number, b: number, what: () => string): number {
  const sum = a + b;
  if (!Number.isSafeInteger(sum)) throw new RangeError(`${what()} passes 2^53 - 1 bytes and cannot be counted exactly`);
  return sum;
}

/** What one device's segments say at dump time. */
export class DumpState {
  reserved = 0;
  /** Σ allocated_size: block-rounded, pending frees left out. */
  allocated = 0;
  /** Σ requested_size of active_allocated and active_pending_free blocks: where the walk starts. */
  liveRequested = 0;
  largestSegment = 0;
  largestFreeBlock = 0;
  segments = 0;
  /** Live blocks by address. */
  readonly live = new Map<Address, BlockUse>();

  addSegment(total: number, allocated: number): void {
    this.reserved = exactSum(this.reserved, total, () => 'reserved bytes (the sum of total_size)');
    this.allocated = exactSum(this.allocated, allocated, () => 'allocated bytes (the sum of allocated_size)');
    if (total > this.largestSegment) this.largestSegment = total;
    this.segments++;
  }

  addFreeBlock(size: number): void {
    if (size > this.largestFreeBlock) this.largestFreeBlock = size;
  }

  addLiveBlock(address: Address, use: BlockUse): void {
    this.liveRequested = exactSum(this.liveRequested, use.size, () => 'live requested bytes');
    this.live.set(address, use);
  }
}

interface PendingOom {
  index: number;
  size: number;
  deviceFree: number;
  allocated: number;
  reserved: number;
  /** Addresses touched after the OOM; null when the device had MAX_OOM_SITES OOMs before it. */
  touched: Map<Address, Around> | null;
}

/** Running sums of one device's trace, in file order. */
export class TraceWalk {
  entries = 0;
  private allocated = 0;
  private reserved = 0;
  private peakAllocated = 0;
  private peakAllocatedPoint = 0;
  private reservedAtPeakAllocated = 0;
  private peakReserved = 0;
  private peakReservedPoint = 0;
  private allocatedAtPeakReserved = 0;
  private readonly slots = new Map<Address, Slot>();
  /** Incremented whenever the allocated peak moves to a later point. */
  private epoch = 0;
  private readonly ooms: PendingOom[] = [];
  private readonly oomTouches: Map<Address, Around>[] = [];
  private readonly allocatedTimeline = new TraceTimeline();
  private readonly reservedTimeline = new TraceTimeline();
  readonly actions = new Map<string, number>();

  /** `work`: the file's budget, charged for what each entry costs beyond its bytes; `names`: the file's sites. */
  constructor(
    private readonly work: WorkBudget,
    private readonly names: SiteNames,
  ) {
    this.allocatedTimeline.add(0, 0);
    this.reservedTimeline.add(0, 0);
  }

  alloc(address: Address, size: number, frames: Frames): void {
    this.touch(address, true, size, frames);
    this.allocated = exactSum(this.allocated, size, () => "the trace's allocated bytes");
  }

  freeCompleted(address: Address, size: number, frames: Frames): void {
    this.touch(address, false, size, frames);
    this.allocated = exactSum(this.allocated, -size, () => "the trace's allocated bytes");
  }

  /** segment_alloc / segment_map (+), segment_free / segment_unmap (−). */
  segment(size: number): void {
    this.reserved = exactSum(this.reserved, size, () => "the trace's reserved bytes");
  }

  oom(size: number, deviceFree: number): void {
    // The state at the OOM is the point after it: next() fills it in and starts its tracker there.
    this.ooms.push({ index: this.entries, size, deviceFree, allocated: 0, reserved: 0, touched: null });
  }

  /** Ends one entry: the walk is at the next point. Every entry, of any action, comes through here once. */
  next(action: string): void {
    // An entry's fields and running sums, and one look per OOM tracker open (at most MAX_OOM_SITES).
    this.work.charge(8 + this.oomTouches.length, 'walking the trace');
    this.actions.set(action, (this.actions.get(action) ?? 0) + 1);
    const point = ++this.entries;
    // >=: on a tie the later point is the peak (the backward walk's strict > meets it first).
    if (this.allocated >= this.peakAllocated) {
      this.peakAllocated = this.allocated;
      this.peakAllocatedPoint = point;
      this.reservedAtPeakAllocated = this.reserved;
      this.epoch++;
    }
    if (this.reserved >= this.peakReserved) {
      this.peakReserved = this.reserved;
      this.peakReservedPoint = point;
      this.allocatedAtPeakReserved = this.allocated;
    }
    const oom = this.ooms[this.ooms.length - 1];
    if (oom !== undefined && oom.index === point - 1) {
      oom.allocated = this.allocated;
      oom.reserved = this.reserved;
      if (this.oomTouches.length < MAX_OOM_SITES) this.oomTouches.push((oom.touched = new Map()));
    }
    this.allocatedTimeline.add(point, this.allocated);
    this.reservedTimeline.add(point, this.reserved);
  }

  private touch(address: Address, alloc: boolean, size: number, frames: Frames): void {
    let slot = this.slots.get(address);
    if (slot === undefined) {
      slot = {
        lastAlloc: false,
        lastFrames: undefined,
        epoch: -1,
        firstAlloc: false,
        firstSize: 0,
        firstFrames: undefined,
        beforeAlloc: false,
        beforeFrames: undefined,
      };
      this.slots.set(address, slot);
    }
    if (slot.epoch !== this.epoch) {
      slot.epoch = this.epoch;
      slot.firstAlloc = alloc;
      slot.firstSize = size;
      slot.firstFrames = frames;
      slot.beforeAlloc = slot.lastAlloc;
      slot.beforeFrames = slot.lastFrames;
    }
    for (let i = 0; i < this.oomTouches.length; i++) {
      const touched = this.oomTouches[i] as Map<Address, Around>;
      if (!touched.has(address))
        touched.set(address, {
          firstAlloc: alloc,
          firstSize: size,
          firstFrames: frames,
          beforeAlloc: slot.lastAlloc,
          beforeFrames: slot.lastFrames,
        });
    }
    slot.lastAlloc = alloc;
    slot.lastFrames = frames;
  }

  /** The figures, now that the dump-time state is known. */
  finish(dump: DumpState): DeviceFigures {
    const allocatedOffset = dump.liveRequested - this.allocated;
    const reservedOffset = dump.reserved - this.reserved;
    const value = (offset: number, sum: number, what: string): number => exactSum(offset, sum, () => what);
    const peakTouched = new Map<Address, Around>();
    this.work.charge(this.slots.size, 'walking the trace');
    for (const [address, slot] of this.slots) if (slot.epoch === this.epoch) peakTouched.set(address, slot);
    return {
      traceEntries: this.entries,
      peakAllocated: {
        bytes: value(allocatedOffset, this.peakAllocated, 'peak allocated bytes'),
        point: this.peakAllocatedPoint,
        reserved: value(reservedOffset, this.reservedAtPeakAllocated, 'reserved bytes at the allocated peak'),
      },
      peakReserved: {
        bytes: value(reservedOffset, this.peakReserved, 'peak reserved bytes'),
        point: this.peakReservedPoint,
        allocated: value(allocatedOffset, this.allocatedAtPeakReserved, 'allocated bytes at the reserved peak'),
      },
      sites: bySite(this.liveAt(peakTouched, dump), this.names, this.work),
      ooms: this.ooms.map((o) => ({
        index: o.index,
        size: o.size,
        deviceFree: o.deviceFree,
        allocated: value(allocatedOffset, o.allocated, 'allocated bytes at an OOM'),
        reserved: value(reservedOffset, o.reserved, 'reserved bytes at an OOM'),
        entriesAfter: this.entries - o.index - 1,
        sites: o.touched === null ? null : bySite(this.liveAt(o.touched, dump), this.names, this.work),
      })),
      timeline: {
        allocated: this.allocatedTimeline.toSeries(allocatedOffset),
        reserved: this.reservedTimeline.toSeries(reservedOffset),
      },
    };
  }

  /**
   * The live blocks at a point, given the addresses touched after it (see the file's head): a first touch that is a
   * free_completed makes a live block; a dump-time block untouched after the point is live. Frames come from the
   * latest entry before the point when it is an alloc.
   */
  private liveAt(touched: ReadonlyMap<Address, Around>, dump: DumpState): BlockUse[] {
    const live: BlockUse[] = [];
    this.work.charge(touched.size + dump.live.size, 'walking the trace');
    for (const around of touched.values()) {
      if (!around.firstAlloc)
        live.push({ size: around.firstSize, frames: around.beforeAlloc ? around.beforeFrames : around.firstFrames });
    }
    for (const [address, block] of dump.live) {
      if (touched.has(address)) continue;
      const slot = this.slots.get(address);
      live.push(slot !== undefined && slot.lastAlloc ? { size: block.size, frames: slot.lastFrames } : block);
    }
    return live;
  }
}

/** The figures of one device; `timeline` and the peaks' points are those of the trace (all 0 without one). */
export interface DeviceFigures {
  traceEntries: number;
  peakAllocated: { bytes: number; point: number; reserved: number };
  peakReserved: { bytes: number; point: number; allocated: number };
  /** Live blocks at the allocated peak, by site. */
  sites: LiveSites;
  ooms: OomPoint[];
  timeline: { allocated: Series; reserved: Series } | null;
}

/** A device with segments and no trace: the dump-time state is all there is (the "peak" is its live requested bytes). */
export function untracedFigures(dump: DumpState, names: SiteNames, work: WorkBudget): DeviceFigures {
  return {
    traceEntries: 0,
    peakAllocated: { bytes: dump.liveRequested, point: 0, reserved: dump.reserved },
    peakReserved: { bytes: dump.reserved, point: 0, allocated: dump.liveRequested },
    sites: bySite([...dump.live.values()], names, work),
    ooms: [],
    timeline: null,
  };
}

function bySite(live: readonly BlockUse[], names: SiteNames, work: WorkBudget): LiveSites {
  const sites: SiteBytes = new Map();
  const where = new Map<string, SiteFrame>();
  const userFiles = new Set<string>();
  const seen = new Set<Frames>();
  work.charge(live.length, 'naming allocation sites');
  for (const { size, frames } of live) {
    const { site, frame } = names.siteOf(frames);
    const s = sites.get(site);
    if (s === undefined) {
      sites.set(site, { bytes: size, blocks: 1 });
      if (frame !== null) where.set(site, frame);
    } else {
      s.bytes = exactSum(s.bytes, size, () => `the bytes of site ${site}`);
      s.blocks++;
    }
    // Only lists have user files; anything else (a wide bigint would hash badly) is left out of the set.
    if (Array.isArray(frames) && !seen.has(frames)) {
      seen.add(frames);
      names.addUserFiles(frames, userFiles);
    }
  }
  return { sites, frames: where, userFiles };
}

// Reads one msMemScope dump into the figures of every analysis: training steps, msMemScope's step-leak rule, memory
// unfreed at the end of tracing, owner buckets, per-op footprint (ours) and inefficient memory.
//
// Rows become compact events that time-order.ts hands back in time order (equal timestamps in file order), in bounded
// memory; the replay then holds only what is live at that moment: a block from its MALLOC until its FREE matches it
// (then it is released), the open op windows, each process's open step. Blocks are matched MALLOC → FREE by (pid,
// pool, Ptr) in time order, so the tool's late MALLOC rows (written when the block is freed) and any other row order
// give the same figures. Every byte figure is an exact integer: a size of 2^53 or more skips its row with a warning,
// and a sum that would pass 2^53 - 1 stops the read naming the line that would have taken it there.
import { ParseError } from '../../common/errors.js';
import { deviceName } from '../../model/sections/keys.js';
import { BEYOND_EXACT, exactSum, MAX_EXACT_BYTES, readExactInteger } from '../../model/units.js';
import { EscapedUtf8Decoder } from '../escaped-utf8.js';
import {
  ownerBucket,
  topLabels,
  type InefficientCount,
  type LeakBlock,
  type OpFootprint,
  type OwnerPeak,
  type StepLeak,
  type StepRange,
  type StepRow,
  type UnfreedGroup,
} from './dump-analysis.js';
import { DumpReader, attrValueOf, streamDump, type DumpRow, type DumpWarning } from './dump-reader.js';
import { EventSpool, type TimedEvent } from './time-order.js';

/** Pools msMemScope's step analysis and leak rule look at (§3.2). */
const FRAMEWORK_POOLS = new Set(['PTA', 'ATB', 'MINDSPORE']);
const KNOWN_EVENTS = new Set([
  'MALLOC',
  'FREE',
  'ACCESS',
  'MSTX',
  'OP_LAUNCH',
  'KERNEL_LAUNCH',
  'SYSTEM',
  'CLEAN_UP',
  'SNAPSHOT',
  'OOM_DETAIL',
  'N/A',
]);

/** Event kinds in the spool. */
const MALLOC = 0;
const FREE = 1;
const SHADOW_FREE = 2;
const RANGE_START = 3;
const STEP_RANGE_START = 4;
const RANGE_END = 5;
const STEP_MARK = 6;
const OP_START = 7;
const OP_END = 8;

/** Everything a dump gives, each list sorted by its key. */
export interface DumpFacts {
  file: string;
  /** `us` or `ns`: decided from the timestamps' magnitude (µs values under a Timestamp(ns) header are µs). */
  unit: 'us' | 'ns';
  rows: number;
  steps: StepRange[];
  stepRows: StepRow[];
  stepLeaks: StepLeak[];
  unfreed: UnfreedGroup[];
  /** Empty when no MALLOC carries an owner (no decompose labels). */
  owners: OwnerPeak[];
  ops: OpFootprint[];
  inefficient: InefficientCount[];
  /** `devN` devices of the dump's blocks. */
  devices: string[];
  /** FREE rows whose block was not live at that time (allocated before tracing): ignored. */
  orphanFrees: number;
  /** OOM_DETAIL/OOM_TRIGGER rows in file order, at most MAX_DUMP_OOMS. */
  ooms: DumpOom[];
  /** OOM_TRIGGER rows past MAX_DUMP_OOMS. */
  droppedOoms: number;
}

/**
 * One OOM_DETAIL/OOM_TRIGGER row. Shape as read in Ascend/msmemscope f069acf (2026-08-07), added in 520dcd8 (2026-07-25):
 * `csrc/analysis/dump.cpp` `Dump::DumpOOMTriggerEvent` writes Attr `"{func:<name>,req_size:<bytes>,flag:<n>}"` with the
 * device of the failed halMemAlloc/halMemCreate (`csrc/event_trace/hal_hooks/hal_hooks.cpp` `HandleOOM`); it carries no
 * total, free, allocated or reserved figure. The OOM_RECENT_ALLOC/OOM_TOP_ALLOC rows after it (device N/A) list blocks, not figures.
 */
interface DumpOom {
  /** `devN`. */
  device: string;
  /** The device index as written. */
  logicalDevice: number;
  /** req_size: the request in bytes. */
  requested: number;
  /** func: the driver call that failed (halMemAlloc, halMemCreate). */
  func: string;
  pid: string;
  timestamp: string;
  line: number;
}

/** OOM triggers kept per dump (PyTorch retries each OOM; beyond this many, a note counts the rest). */
const MAX_DUMP_OOMS = 100;

const SHADOW_RE = /[{,]shadow:true[,}]/;
/** Process and thread ids as the tool writes them (§1.2): decimal, or N/A when invalid. */
const ID_CELL = /^(\d{1,20}|N\/A)$/;
/** Device ids: decimal (9999 the invalid one), N/A (no device), cpu (host memory, 2026 on) or host (G3-era rows). */
const DEVICE_CELL = /^(\d{1,20}|N\/A|cpu|host)$/;

/** Interned strings: one copy of each (a slice of a chunk would keep the whole chunk alive). */
class Strings {
  readonly list: string[] = [''];
  private readonly ids = new Map<string, number>([['', 0]]);

  id(text: string): number {
    const found = this.ids.get(text);
    if (found !== undefined) return found;
    const copy = text.split('').join('');
    this.ids.set(copy, this.list.length);
    this.list.push(copy);
    return this.list.length - 1;
  }
}

/** (pid, device, pool) of a block, with what the replay keys by. */
interface Group {
  pid: number;
  /** `dev0`, or the raw cell for host memory and rows of no device (`cpu`, `host`, `N/A`). */
  device: string;
  pool: string;
  /** (pid, pool): where a FREE looks for its block (HAL FREEs carry device N/A). */
  liveKey: number;
  /** (device, pid) of a framework pool, whose sum the op windows measure; -1 for other pools. */
  opLevel: number;
}

/** Turns rows into time-ordered events: parses and checks every cell an analysis reads, interns the strings. */
class DumpRecorder {
  readonly spool: EventSpool;
  readonly strings = new Strings();
  readonly pids = new Strings();
  readonly groups: Group[] = [];
  private readonly groupIds = new Map<string, number>();
  readonly liveKeys = new Strings();
  readonly opLevels: { device: string; pid: number }[] = [];
  private readonly opLevelIds = new Map<string, number>();
  readonly stacks = new Strings();
  /** Ptr values past 2^53 - 1, by their decimal text: their key is -(index + 1). */
  private readonly bigPtrs = new Map<string, number>();
  hasOwners = false;
  readonly ooms: DumpOom[] = [];
  droppedOoms = 0;
  private readonly unknownEvents = new Set<string>();
  private lastGroup = { pid: '', device: '', pool: '', id: -1 };
  private tsHi = 0;
  private tsLo = 0;

  constructor(
    readonly file: string,
    private readonly warn: (warning: DumpWarning) => void,
    chunkEvents?: number,
  ) {
    this.spool = new EventSpool(chunkEvents);
  }

  private skip(row: DumpRow, reason: string): void {
    this.warn({ file: this.file, line: row.line, reason: `${reason} (skipped)` });
  }

  /** Splits a timestamp cell into tsHi/tsLo (value / 10^9 and the rest, exact for any 20 digits); false when it is no number. */
  private time(text: string): boolean {
    const len = text.length;
    if (len === 0 || len > 20) return false;
    const split = len > 9 ? len - 9 : 0;
    let hi = 0;
    let lo = 0;
    for (let i = 0; i < len; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return false;
      if (i < split) hi = hi * 10 + d;
      else lo = lo * 10 + d;
    }
    this.tsHi = hi;
    this.tsLo = lo;
    return true;
  }

  /** `0x000012c041400000` or `20615843020800` → a key: the value when exact, else a negative id of its decimal text; NaN when no number. */
  private ptrKey(text: string): number {
    const len = text.length;
    const hex = len > 2 && text.charCodeAt(0) === 48 && (text.charCodeAt(1) | 32) === 120;
    if (hex ? len > 18 : len === 0 || len > 20) return NaN;
    let value = 0;
    for (let i = hex ? 2 : 0; i < len; i++) {
      const c = text.charCodeAt(i);
      let d: number;
      if (c >= 48 && c <= 57) d = c - 48;
      else if (hex && (c | 32) >= 97 && (c | 32) <= 102) d = (c | 32) - 87;
      else return NaN;
      value = value * (hex ? 16 : 10) + d;
    }
    // Exact while below 2^53 (each step of the sum is then exact); past it, the text is the key.
    if (value <= MAX_EXACT_BYTES) return value;
    const digits = BigInt(text).toString();
    let id = this.bigPtrs.get(digits);
    if (id === undefined) this.bigPtrs.set(digits, (id = this.bigPtrs.size));
    return -(id + 1);
  }

  /** The id of `${pid}|${pool}`, remembered for the last pair (FREE rows come in runs of one process and pool). */
  private liveKeyOf(pid: string, pool: string): number {
    const last = this.lastLive;
    if (last.id !== -1 && last.pid === pid && last.pool === pool) return last.id;
    const id = this.liveKeys.id(`${pid}|${pool}`);
    this.lastLive = { pid, pool, id };
    return id;
  }

  private lastLive = { pid: '', pool: '', id: -1 };
  private lastStack = { pid: '', tid: '', device: '', family: -1, id: -1, level: -1 };
  /** Op names seen last: START and END rows of one op, and a few ops, repeat. */
  private readonly recentNames: string[] = [];
  private readonly recentNameIds: number[] = [];

  private nameId(name: string): number {
    const names = this.recentNames;
    for (let i = 0; i < names.length; i++) if (names[i] === name) return this.recentNameIds[i] as number;
    const id = this.strings.id(name);
    if (names.length === 8) {
      names.pop();
      this.recentNameIds.pop();
    }
    names.unshift(this.strings.list[id] as string);
    this.recentNameIds.unshift(id);
    return id;
  }

  private groupOfRow(pid: string, rawDevice: string, pool: string): number {
    const last = this.lastGroup;
    if (last.id !== -1 && last.pid === pid && last.device === rawDevice && last.pool === pool) return last.id;
    const device = deviceName(rawDevice) ?? rawDevice;
    const key = `${pid}|${device}|${pool}`;
    let g = this.groupIds.get(key);
    if (g === undefined) {
      g = this.groups.length;
      this.groupIds.set(key, g);
      const pidId = this.pids.id(pid);
      this.groups.push({
        pid: pidId,
        device: this.strings.list[this.strings.id(device)] as string,
        pool: this.strings.list[this.strings.id(pool)] as string,
        liveKey: this.liveKeyOf(pid, pool),
        opLevel: FRAMEWORK_POOLS.has(pool) ? this.opLevelOf(device, pidId) : -1,
      });
    }
    this.lastGroup = { pid, device: rawDevice, pool, id: g };
    return g;
  }

  private opLevelOf(device: string, pid: number): number {
    const key = `${device}|${pid}`;
    let id = this.opLevelIds.get(key);
    if (id === undefined) {
      id = this.opLevels.length;
      this.opLevelIds.set(key, id);
      this.opLevels.push({ device, pid });
    }
    return id;
  }

  /** Whether the process (and, for op rows, thread and device) cells read as the tool writes them; else a warning. */
  private idsOk(row: DumpRow, op: boolean): boolean {
    if (!ID_CELL.test(row.pid))
      return (this.skip(row, `a ${row.event} row whose Process Id is not a number or N/A`), false);
    if (op && !ID_CELL.test(row.tid))
      return (this.skip(row, `a ${row.event} row whose Thread Id is not a number or N/A`), false);
    if ((op || row.event === 'MALLOC') && !DEVICE_CELL.test(row.device))
      return (this.skip(row, `a ${row.event} row whose Device Id is not a number, N/A, cpu or host`), false);
    return true;
  }

  row(row: DumpRow): void {
    switch (row.event) {
      case 'MALLOC':
        this.malloc(row);
        return;
      case 'FREE':
        this.free(row);
        return;
      case 'MSTX':
        this.mstx(row);
        return;
      case 'SYSTEM':
        if (row.eventType === 'STEP') this.systemStep(row);
        return;
      case 'OP_LAUNCH':
        this.op(row);
        return;
      case 'OOM_DETAIL':
        if (row.eventType === 'OOM_TRIGGER') this.oomTrigger(row);
        return;
      default:
        if (!KNOWN_EVENTS.has(row.event) && !this.unknownEvents.has(row.event)) {
          this.unknownEvents.add(row.event);
          this.warn({
            file: this.file,
            line: row.line,
            reason: `unknown Event '${row.event.slice(0, 40)}' (rows of it are skipped)`,
          });
        }
    }
  }

  private malloc(row: DumpRow): void {
    if (!this.idsOk(row, false)) return;
    const sizeText = attrValueOf(row.attr, 'size:');
    const size = sizeText === null ? null : readExactInteger(sizeText);
    if (size === 'too-large')
      return this.skip(
        row,
        `a MALLOC whose size ${sizeText} is 2^53 bytes or more: not a size that can be compared exactly`,
      );
    const id = readExactInteger(row.id);
    const ptr = this.ptrKey(row.ptr);
    if (!this.time(row.timestamp) || size === null || Number.isNaN(ptr) || typeof id !== 'number' || id < 0) {
      return this.skip(row, 'a MALLOC without a numeric timestamp, ID, Ptr and Attr size');
    }
    const owner = row.attr.includes('owner:') ? (attrValueOf(row.attr, 'owner:') ?? '') : '';
    if (owner !== '') this.hasOwners = true;
    const firstFrame = firstCallSite(row.callStackPython) || firstCallSite(row.callStackC);
    const inefficient = row.attr.includes('inefficient_type:')
      ? (attrValueOf(row.attr, 'inefficient_type:') ?? '')
      : '';
    // FREE sizes are negative in 2025-H1 PTA/ATB dumps: the direction comes from Event, the magnitude from abs().
    this.spool.add(
      this.tsHi,
      this.tsLo,
      MALLOC,
      row.line,
      ptr,
      Math.abs(size),
      id,
      this.groupOfRow(row.pid, row.device, row.eventType),
      owner === '' ? 0 : this.strings.id(owner),
      firstFrame === '' ? 0 : this.strings.id(firstFrame),
      inefficient === '' ? 0 : this.strings.id(inefficient),
    );
  }

  private oomTrigger(row: DumpRow): void {
    // 9999 is the tool's invalid device id (GD_INVALID_NUM): no device.
    const device = /^\d{1,6}$/.test(row.device) && row.device !== '9999' ? deviceName(row.device) : null;
    const sizeText = attrValueOf(row.attr, 'req_size:');
    const requested = sizeText === null ? null : readExactInteger(sizeText);
    if (device === null || typeof requested !== 'number' || requested < 0) {
      return this.skip(row, 'an OOM_TRIGGER without a numeric Device Id and Attr req_size of at most 2^53 - 1 bytes');
    }
    if (this.ooms.length >= MAX_DUMP_OOMS) return void this.droppedOoms++;
    const func = (attrValueOf(row.attr, 'func:') ?? '').slice(0, 80);
    this.ooms.push({
      device,
      logicalDevice: Number(row.device),
      requested,
      func,
      pid: row.pid.slice(0, 20),
      timestamp: row.timestamp.slice(0, 20),
      line: row.line,
    });
  }

  private free(row: DumpRow): void {
    if (!this.idsOk(row, false)) return;
    const ptr = this.ptrKey(row.ptr);
    if (!this.time(row.timestamp) || Number.isNaN(ptr))
      return this.skip(row, 'a FREE without a numeric timestamp and Ptr');
    // A shadow FREE is synthesised for a block still live at exit: not freed while tracing.
    const kind = SHADOW_RE.test(row.attr) ? SHADOW_FREE : FREE;
    this.spool.add(this.tsHi, this.tsLo, kind, row.line, ptr, 0, 0, this.liveKeyOf(row.pid, row.eventType), 0, 0, 0);
  }

  private mstx(row: DumpRow): void {
    const start = row.eventType === 'Range_start';
    if (!start && row.eventType !== 'Range_end') return;
    let range = 0;
    if (!start) {
      const m = /^Range end from id (\d+)$/.exec(row.name);
      const value = m === null ? null : readExactInteger(m[1] as string);
      if (typeof value !== 'number') return;
      range = value;
    }
    if (!this.time(row.timestamp)) return this.skip(row, `an MSTX ${row.eventType} without a numeric timestamp`);
    if (!this.idsOk(row, false)) return;
    const kind = start ? (row.name === 'step start' ? STEP_RANGE_START : RANGE_START) : RANGE_END;
    this.spool.add(this.tsHi, this.tsLo, kind, row.line, range, 0, 0, this.pids.id(row.pid), 0, 0, 0);
  }

  private systemStep(row: DumpRow): void {
    if (!this.idsOk(row, false)) return;
    const n = readExactInteger(row.name.replace(/"/g, ''));
    if (!this.time(row.timestamp) || typeof n !== 'number')
      return this.skip(row, 'a SYSTEM/STEP row without a step number');
    this.spool.add(this.tsHi, this.tsLo, STEP_MARK, row.line, n, 0, 0, this.pids.id(row.pid), 0, 0, 0);
  }

  private op(row: DumpRow): void {
    const type = row.eventType;
    const start = type === 'ATEN_START' || type === 'ATB_START';
    if (!start && type !== 'ATEN_END' && type !== 'ATB_END') return;
    if (!this.time(row.timestamp)) return this.skip(row, `an ${type} without a numeric timestamp`);
    if (!this.idsOk(row, true)) return;
    const family = type.charCodeAt(2) === 69 ? 0 : 1;
    let last = this.lastStack;
    if (
      last.id === -1 ||
      last.pid !== row.pid ||
      last.tid !== row.tid ||
      last.device !== row.device ||
      last.family !== family
    ) {
      const device = deviceName(row.device) ?? row.device;
      const id = this.stacks.id(`${row.pid}|${row.tid}|${row.device}|${family}`);
      last = this.lastStack = {
        pid: row.pid,
        tid: row.tid,
        device: row.device,
        family,
        id,
        level: this.opLevelOf(device, this.pids.id(row.pid)),
      };
    }
    this.spool.add(
      this.tsHi,
      this.tsLo,
      start ? OP_START : OP_END,
      row.line,
      0,
      0,
      0,
      last.id,
      this.nameId(row.name),
      last.level,
      family,
    );
  }
}

/** The first line of a call stack cell (frames are separated by `;` or newlines escaped as `\n`). */
function firstCallSite(stack: string): string {
  if (stack === '' || stack === 'N/A') return '';
  const cut = stack.search(/;|\\n|\n/);
  return (cut === -1 ? stack : stack.slice(0, cut)).trim().slice(0, 200);
}

/** One process's steps as the replay meets their markers. */
interface PidSteps {
  /** Which marker kind defines the steps: the first seen wins (§3.2). */
  kind: 'none' | 'range' | 'step';
  /** Every Range_start counts, whatever its message: a Range_end names its range by this count. */
  ranges: number;
  /** range id → ordinal of the step it started. */
  stepOfRange: Map<number, number>;
  steps: StepRange[];
  /** Ordinal of the step in progress, or -1. */
  open: number;
  /** Framework groups of the process. */
  groups: number[];
  /** Blocks born in a step, not yet checked: [slot, serial, ordinal of the birth step] in birth order. */
  pending: number[];
  pendingFrom: number;
}

/** A live (or never really freed) block: slot arrays, reused once a block is freed. */
class Blocks {
  capacity = 1024;
  group = new Int32Array(this.capacity);
  size = new Float64Array(this.capacity);
  id = new Float64Array(this.capacity);
  owner = new Int32Array(this.capacity);
  callSite = new Int32Array(this.capacity);
  line = new Float64Array(this.capacity);
  ownerKey = new Int32Array(this.capacity);
  /** 0 free slot, 1 live, 2 retained (a shadow FREE, or overwritten by a MALLOC at its address: never freed). */
  state = new Uint8Array(this.capacity);
  serial = new Float64Array(this.capacity);
  private readonly freeSlots: number[] = [];
  private used = 0;
  alive = 0;

  take(): number {
    const slot = this.freeSlots.pop() ?? this.used++;
    if (slot >= this.capacity) this.grow();
    this.alive++;
    return slot;
  }

  release(slot: number): void {
    this.state[slot] = 0;
    this.serial[slot] = (this.serial[slot] as number) + 1;
    this.freeSlots.push(slot);
    this.alive--;
  }

  /** Slots in use, for the end of the replay. */
  get highWater(): number {
    return this.used;
  }

  private grow(): void {
    const n = this.capacity * 2;
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.group = i32(this.group);
    this.size = f64(this.size);
    this.id = f64(this.id);
    this.owner = i32(this.owner);
    this.callSite = i32(this.callSite);
    this.line = f64(this.line);
    this.ownerKey = i32(this.ownerKey);
    const state = new Uint8Array(n);
    state.set(this.state);
    this.state = state;
    this.serial = f64(this.serial);
    this.capacity = n;
  }
}

/** Per step ordinal of a group: start, peak and end bytes; NaN where the step has no row yet. */
interface GroupSteps {
  start: number[];
  peak: number[];
  end: number[];
}

/** An op window in progress: its name, the framework bytes at its start, the most seen since, its line. */
interface OpenOp {
  name: number;
  base: number;
  max: number;
}

/** Replays the events in time order into the figures. */
class DumpReplay {
  private readonly blocks = new Blocks();
  private readonly live: Map<number, number>[];
  private readonly groupLevel: Float64Array;
  private readonly groupMax: Float64Array;
  private readonly groupSteps: GroupSteps[];
  private readonly pidSteps: PidSteps[];
  private readonly opLevel: Float64Array;
  private readonly stacksOfLevel: number[][];
  private readonly stacks: OpenOp[][];
  private readonly stackLevel: Int32Array;
  private readonly ownerKeys = new Strings();
  private ownerLevel: number[] = [];
  private ownerPeak: number[] = [];
  /** owner id × groups + group id → owner key. */
  private readonly bucketMemo = new Map<number, number>();
  /** Per (device, pid) op level: name id → footprint. */
  private readonly ops: Map<number, OpFootprint>[];
  private readonly inefficient = new Map<string, InefficientCount>();
  private readonly leaks = new Map<string, { leak: StepLeak; labels: [string, number][] }>();
  orphanFrees = 0;

  constructor(
    private readonly r: DumpRecorder,
    private readonly warn: (warning: DumpWarning) => void,
  ) {
    const groups = r.groups.length;
    this.live = Array.from({ length: r.liveKeys.list.length }, () => new Map<number, number>());
    this.groupLevel = new Float64Array(groups);
    this.groupMax = new Float64Array(groups);
    this.groupSteps = Array.from({ length: groups }, () => ({ start: [], peak: [], end: [] }));
    this.pidSteps = Array.from({ length: r.pids.list.length }, () => ({
      kind: 'none',
      ranges: 0,
      stepOfRange: new Map(),
      steps: [],
      open: -1,
      groups: [],
      pending: [],
      pendingFrom: 0,
    }));
    r.groups.forEach((g, i) => {
      if (FRAMEWORK_POOLS.has(g.pool)) (this.pidSteps[g.pid] as PidSteps).groups.push(i);
    });
    this.opLevel = new Float64Array(r.opLevels.length);
    this.stacksOfLevel = Array.from({ length: r.opLevels.length }, () => []);
    this.stacks = Array.from({ length: r.stacks.list.length }, () => []);
    this.stackLevel = new Int32Array(r.stacks.list.length).fill(-1);
    this.ops = Array.from({ length: r.opLevels.length }, () => new Map<number, OpFootprint>());
  }

  private fail(line: number, what: string): never {
    throw new ParseError(
      this.r.file,
      line,
      `${what} would pass ${BEYOND_EXACT}: no exact figure (is the file damaged?)`,
    );
  }

  event(e: TimedEvent): void {
    switch (e.kind) {
      case MALLOC:
        return this.malloc(e);
      case FREE:
      case SHADOW_FREE:
        return this.free(e);
      case RANGE_START:
      case STEP_RANGE_START:
        return this.rangeStart(e);
      case RANGE_END:
        return this.rangeEnd(e);
      case STEP_MARK:
        return this.stepMark(e);
      case OP_START:
        return this.opStart(e);
      case OP_END:
        return this.opEnd(e);
    }
  }

  /** A group's allocated bytes change: its level and peak, the open step's peak, the owner bucket, the op windows. */
  private change(group: number, ownerKey: number, delta: number, line: number): void {
    const g = this.r.groups[group] as Group;
    const level = exactSum(this.groupLevel[group] as number, delta);
    if (level === null) this.fail(line, `the allocated bytes of ${g.device}/${g.pool}`);
    this.groupLevel[group] = level;
    if (level > (this.groupMax[group] as number)) this.groupMax[group] = level;
    const pid = this.pidSteps[g.pid] as PidSteps;
    if (pid.open !== -1 && g.opLevel !== -1) {
      const peaks = (this.groupSteps[group] as GroupSteps).peak;
      if (level > (peaks[pid.open] as number)) peaks[pid.open] = level;
    }
    const owned = exactSum(this.ownerLevel[ownerKey] as number, delta);
    if (owned === null) this.fail(line, `the live bytes of ${this.ownerKeys.list[ownerKey]}`);
    this.ownerLevel[ownerKey] = owned;
    if (owned > (this.ownerPeak[ownerKey] as number)) this.ownerPeak[ownerKey] = owned;
    if (g.opLevel !== -1) {
      const op = exactSum(this.opLevel[g.opLevel] as number, delta);
      if (op === null) this.fail(line, `the framework bytes of ${g.device}`);
      this.opLevel[g.opLevel] = op;
      for (const s of this.stacksOfLevel[g.opLevel] as number[]) {
        const frames = this.stacks[s] as OpenOp[];
        const top = frames[frames.length - 1];
        if (top !== undefined && op > top.max) top.max = op;
      }
    }
  }

  private ownerKeyOf(group: Group, groupId: number, owner: number): number {
    const memo = owner * this.r.groups.length + groupId;
    let key = this.bucketMemo.get(memo);
    if (key === undefined) {
      key = this.ownerKeys.id(`${group.device}|${ownerBucket(this.r.strings.list[owner] as string, group.pool)}`);
      this.bucketMemo.set(memo, key);
      while (this.ownerLevel.length <= key) {
        this.ownerLevel.push(0);
        this.ownerPeak.push(0);
      }
    }
    return key;
  }

  private malloc(e: TimedEvent): void {
    const b = this.blocks;
    const groupId = e.u0;
    const group = this.r.groups[groupId] as Group;
    const open = this.live[group.liveKey] as Map<number, number>;
    // A MALLOC at an address still open: the earlier block's FREE is missing (a RESIDUAL_BLOCK); it stays unfreed.
    const earlier = open.get(e.f0);
    if (earlier !== undefined) b.state[earlier] = 2;
    const slot = b.take();
    b.group[slot] = groupId;
    b.size[slot] = e.f1;
    b.id[slot] = e.f2;
    b.owner[slot] = e.u1;
    b.callSite[slot] = e.u2;
    b.line[slot] = e.line;
    b.state[slot] = 1;
    b.ownerKey[slot] = this.ownerKeyOf(group, groupId, e.u1);
    open.set(e.f0, slot);
    this.change(groupId, b.ownerKey[slot] as number, e.f1, e.line);
    if (e.u3 !== 0) this.countInefficient(group, this.r.strings.list[e.u3] as string, e.f1, e.line);
    // A framework block born once steps began (in the last step started) waits for the check at the end of a later step.
    const pid = this.pidSteps[group.pid] as PidSteps;
    if (pid.steps.length > 0 && group.opLevel !== -1)
      pid.pending.push(slot, b.serial[slot] as number, pid.steps.length - 1);
    if (pid.pending.length - pid.pendingFrom > 3 * (2 * b.alive + 1024)) this.compactPending(pid);
  }

  private free(e: TimedEvent): void {
    const open = this.live[e.u0] as Map<number, number>;
    const slot = open.get(e.f0);
    if (slot === undefined) {
      this.orphanFrees++;
      return;
    }
    open.delete(e.f0);
    const b = this.blocks;
    if (e.kind === SHADOW_FREE) {
      // Not freed while tracing: counted as unfreed, and live for the leak rule.
      b.state[slot] = 2;
      return;
    }
    this.change(b.group[slot] as number, b.ownerKey[slot] as number, -(b.size[slot] as number), e.line);
    b.release(slot);
  }

  private countInefficient(group: Group, text: string, bytes: number, line: number): void {
    for (const type of new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    )) {
      const key = `${group.device}|${type}`;
      let c = this.inefficient.get(key);
      if (c === undefined) this.inefficient.set(key, (c = { device: group.device, type, count: 0, bytes: 0 }));
      const sum = exactSum(c.bytes, bytes);
      if (sum === null) this.fail(line, `the ${type} bytes of ${group.device}`);
      c.count++;
      c.bytes = sum;
    }
  }

  /** Drops pending entries of freed blocks (the queue would otherwise grow with every block while no step closes). */
  private compactPending(pid: PidSteps): void {
    const b = this.blocks;
    const kept: number[] = [];
    for (let i = pid.pendingFrom; i < pid.pending.length; i += 3) {
      const slot = pid.pending[i] as number;
      if (b.serial[slot] === pid.pending[i + 1] && b.state[slot] !== 0)
        kept.push(slot, pid.pending[i + 1] as number, pid.pending[i + 2] as number);
    }
    pid.pending = kept;
    pid.pendingFrom = 0;
  }

  /** Starts a step of a process: each framework group's start (and peak so far) is its bytes now. */
  private startStep(pid: PidSteps, pidId: number, step: number): void {
    const ordinal = pid.steps.length;
    pid.steps.push({ pid: this.r.pids.list[pidId] as string, step, closed: false });
    for (const g of pid.groups) {
      const s = this.groupSteps[g] as GroupSteps;
      const level = this.groupLevel[g] as number;
      s.start[ordinal] = level;
      s.peak[ordinal] = level;
    }
    pid.open = ordinal;
  }

  /** Ends the step in progress: each framework group's end is its bytes now; a closed step runs the leak check. */
  private endStep(pid: PidSteps, closed: boolean): void {
    const ordinal = pid.open;
    if (ordinal === -1) return;
    for (const g of pid.groups) (this.groupSteps[g] as GroupSteps).end[ordinal] = this.groupLevel[g] as number;
    (pid.steps[ordinal] as StepRange).closed = closed;
    pid.open = -1;
    if (closed) this.checkLeaks(pid, ordinal);
  }

  /**
   * msMemScope's leak rule (§3.2, CheckNpuLeak with skipSteps 1, durationThreshold 1), at the end of step `ordinal`:
   * a framework block born in a step k ≥ 2 before this step started, and still live now, is a leak.
   */
  private checkLeaks(pid: PidSteps, ordinal: number): void {
    const b = this.blocks;
    const q = pid.pending;
    let i = pid.pendingFrom;
    for (; i < q.length && (q[i + 2] as number) < ordinal; i += 3) {
      const slot = q[i] as number;
      if (b.serial[slot] !== q[i + 1] || b.state[slot] === 0) continue;
      const birth = pid.steps[q[i + 2] as number] as StepRange;
      if (birth.step < 2) continue;
      this.recordLeak(slot, birth.step, (pid.steps[ordinal] as StepRange).step);
    }
    pid.pendingFrom = i;
    if (i > 4096 && i * 2 > q.length) {
      pid.pending = q.slice(i);
      pid.pendingFrom = 0;
    }
  }

  private recordLeak(slot: number, birthStep: number, seenAtEndOf: number): void {
    const b = this.blocks;
    const g = this.r.groups[b.group[slot] as number] as Group;
    const key = `${g.device}|${g.pool}`;
    let entry = this.leaks.get(key);
    if (entry === undefined)
      this.leaks.set(
        key,
        (entry = { leak: { device: g.device, pool: g.pool, count: 0, bytes: 0, examples: [], top: [] }, labels: [] }),
      );
    const bytes = b.size[slot] as number;
    const sum = exactSum(entry.leak.bytes, bytes);
    if (sum === null) this.fail(b.line[slot] as number, `the step-leak bytes of ${g.device}/${g.pool}`);
    entry.leak.bytes = sum;
    entry.leak.count++;
    const label = this.labelOf(slot, g.pool);
    entry.labels.push([label, bytes]);
    keepSmallest(entry.leak.examples, { id: b.id[slot] as number, bytes, birthStep, seenAtEndOf, owner: label }, 20);
  }

  private labelOf(slot: number, pool: string): string {
    const b = this.blocks;
    const owner = b.owner[slot] as number;
    if (owner !== 0) return this.r.strings.list[owner] as string;
    const site = b.callSite[slot] as number;
    if (site !== 0) return this.r.strings.list[site] as string;
    return pool;
  }

  private rangeStart(e: TimedEvent): void {
    const pid = this.pidSteps[e.u0] as PidSteps;
    pid.ranges++;
    if (e.kind !== STEP_RANGE_START) return;
    if (pid.kind === 'none') pid.kind = 'range';
    if (pid.kind !== 'range') return;
    // A step that no Range_end closed ends where the next one starts.
    this.endStep(pid, false);
    pid.stepOfRange.set(pid.ranges, pid.steps.length);
    this.startStep(pid, e.u0, pid.steps.length + 1);
  }

  private rangeEnd(e: TimedEvent): void {
    const pid = this.pidSteps[e.u0] as PidSteps;
    if (pid.kind !== 'range') return;
    const ordinal = pid.stepOfRange.get(e.f0);
    if (ordinal === undefined || (pid.steps[ordinal] as StepRange).closed) return;
    if (ordinal !== pid.open) {
      this.warn({
        file: this.r.file,
        line: e.line,
        reason: `the Range_end of step ${(pid.steps[ordinal] as StepRange).step} comes after the next step started: that step ended at the next one's start, unclosed`,
      });
      return;
    }
    this.endStep(pid, true);
  }

  /** SYSTEM/STEP n (msmemscope.step()): ends step n, starts step n + 1; the first step began with the trace. */
  private stepMark(e: TimedEvent): void {
    const pid = this.pidSteps[e.u0] as PidSteps;
    if (pid.kind === 'none') {
      pid.kind = 'step';
      // Step 1 began with the trace: it starts at 0 bytes and peaked at each group's most so far.
      pid.steps.push({ pid: this.r.pids.list[e.u0] as string, step: e.f0, closed: false });
      for (const g of pid.groups) {
        const s = this.groupSteps[g] as GroupSteps;
        s.start[0] = 0;
        s.peak[0] = this.groupMax[g] as number;
      }
      pid.open = 0;
    }
    if (pid.kind !== 'step') return;
    if (pid.open !== -1) (pid.steps[pid.open] as StepRange).step = e.f0;
    this.endStep(pid, true);
    this.startStep(pid, e.u0, e.f0 + 1);
  }

  private opStart(e: TimedEvent): void {
    const stack = e.u0;
    if (this.stackLevel[stack] === -1) {
      this.stackLevel[stack] = e.u2;
      (this.stacksOfLevel[e.u2] as number[]).push(stack);
    }
    (this.stacks[stack] as OpenOp[]).push({ name: e.u1, base: this.opLevel[e.u2] as number, max: -Infinity });
  }

  /** Ends pair with the innermost open start of the same name (ops nest: an aten op calls others). */
  private opEnd(e: TimedEvent): void {
    const frames = this.stacks[e.u0] as OpenOp[];
    for (let i = frames.length - 1; i >= 0; i--) {
      const open = frames[i] as OpenOp;
      if (open.name !== e.u1) continue;
      // Frames above it ended without their END row: their bytes were seen inside this window too.
      let max = open.max;
      for (let k = i + 1; k < frames.length; k++) if ((frames[k] as OpenOp).max > max) max = (frames[k] as OpenOp).max;
      frames.length = i;
      const parent = frames[i - 1];
      if (parent !== undefined && max > parent.max) parent.max = max;
      const level = this.opLevel[e.u2] as number;
      const net = level - open.base;
      const peak = Math.max(0, max - open.base);
      const ops = this.ops[e.u2] as Map<number, OpFootprint>;
      const f = ops.get(e.u1);
      if (f === undefined)
        ops.set(e.u1, {
          device: (this.r.opLevels[e.u2] as { device: string }).device,
          name: this.r.strings.list[e.u1] as string,
          launches: 1,
          net,
          peak,
        });
      else {
        f.launches++;
        if (net > f.net) f.net = net;
        if (peak > f.peak) f.peak = peak;
      }
      return;
    }
    const name = this.r.strings.list[e.u1] as string;
    this.warn({
      file: this.r.file,
      line: e.line,
      reason: `an op end of ${name.slice(0, 80)} with no start of it earlier in time on its thread (skipped)`,
    });
  }

  finish(unit: 'us' | 'ns', rows: number): DumpFacts {
    for (const pid of this.pidSteps) this.endStep(pid, false);
    const r = this.r;
    const steps: StepRange[] = [];
    const stepRows: StepRow[] = [];
    for (const pid of this.pidSteps) {
      steps.push(...pid.steps);
      for (const g of pid.groups) {
        const group = r.groups[g] as Group;
        const s = this.groupSteps[g] as GroupSteps;
        pid.steps.forEach((step, ordinal) => {
          // A group that first allocated after this step had 0 bytes all through it.
          const start = s.start[ordinal] ?? 0;
          stepRows.push({
            device: group.device,
            pool: group.pool,
            pid: step.pid,
            step: step.step,
            start,
            peak: s.peak[ordinal] ?? 0,
            end: s.end[ordinal] ?? 0,
            closed: step.closed,
          });
        });
      }
    }
    steps.sort((a, b) => cmp(a.pid, b.pid) || a.step - b.step);
    stepRows.sort((a, b) => cmp(a.device, b.device) || cmp(a.pool, b.pool) || cmp(a.pid, b.pid) || a.step - b.step);
    const stepLeaks = [...this.leaks.values()].map(({ leak, labels }) => ({ ...leak, top: topLabels(labels) }));
    stepLeaks.sort((x, y) => cmp(x.device, y.device) || cmp(x.pool, y.pool));
    const owners: OwnerPeak[] = [];
    if (r.hasOwners) {
      this.ownerKeys.list.forEach((key, i) => {
        if (i === 0) return;
        const [device, bucket] = key.split('|') as [string, OwnerPeak['bucket']];
        owners.push({ device, bucket, peak: this.ownerPeak[i] as number });
      });
      owners.sort((x, y) => cmp(x.device, y.device) || cmp(x.bucket, y.bucket));
    }
    const devices = [...new Set(r.groups.map((g) => g.device).filter((d) => /^dev\d+$/.test(d)))];
    return {
      file: r.file,
      unit,
      rows,
      steps,
      stepRows,
      stepLeaks,
      unfreed: this.unfreed(),
      owners,
      ops: this.opFootprints(),
      inefficient: [...this.inefficient.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.type, y.type)),
      devices,
      orphanFrees: this.orphanFrees,
      ooms: r.ooms,
      droppedOoms: r.droppedOoms,
    };
  }

  /** Per device and op name, the largest net and peak of one window over every process of the device. */
  private opFootprints(): OpFootprint[] {
    const byKey = new Map<string, OpFootprint>();
    for (const ops of this.ops) {
      for (const f of ops.values()) {
        const key = `${f.device}|${f.name}`;
        const prev = byKey.get(key);
        if (prev === undefined) byKey.set(key, { ...f });
        else {
          prev.launches += f.launches;
          if (f.net > prev.net) prev.net = f.net;
          if (f.peak > prev.peak) prev.peak = f.peak;
        }
      }
    }
    return [...byKey.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.name, y.name));
  }

  /** Blocks never freed while tracing (no FREE, or only a shadow FREE), by device, pool and owner (§3.4). */
  private unfreed(): UnfreedGroup[] {
    const b = this.blocks;
    const out = new Map<string, UnfreedGroup>();
    for (let slot = 0; slot < b.highWater; slot++) {
      if (b.state[slot] === 0) continue;
      const g = this.r.groups[b.group[slot] as number] as Group;
      const label = this.labelOf(slot, g.pool);
      const key = `${g.device}|${g.pool}|${label}`;
      let u = out.get(key);
      if (u === undefined)
        out.set(key, (u = { device: g.device, pool: g.pool, label, blocks: 0, bytes: 0, ids: [], sizes: [] }));
      const sum = exactSum(u.bytes, b.size[slot] as number);
      if (sum === null) this.fail(b.line[slot] as number, `the unfreed bytes of ${g.device}/${g.pool}/${label}`);
      u.bytes = sum;
      u.blocks++;
      u.sizes.push(b.size[slot] as number);
      u.ids.push(b.id[slot] as number);
    }
    for (const u of out.values()) {
      // The smallest IDs, whatever order the rows came in.
      u.ids.sort((x, y) => x - y);
      u.ids.length = Math.min(u.ids.length, 20);
      u.sizes.sort((x, y) => y - x);
    }
    return [...out.values()].sort((x, y) => cmp(x.device, y.device) || cmp(x.pool, y.pool) || cmp(x.label, y.label));
  }
}

/** Keeps the `n` blocks of smallest ID in `list`, in ID order. */
function keepSmallest(list: LeakBlock[], block: LeakBlock, n: number): void {
  if (list.length === n && block.id >= (list[n - 1] as LeakBlock).id) return;
  let at = list.length;
  while (at > 0 && (list[at - 1] as LeakBlock).id > block.id) at--;
  list.splice(at, 0, block);
  if (list.length > n) list.length = n;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Options for tests: a small chunk makes a small dump go through the temporary file. */
export interface DumpReadOptions {
  chunkEvents?: number;
}

/** Reads a dump file into its figures; warnings go to `onWarning`. */
export async function readDumpFacts(
  path: string,
  name: string,
  onWarning: (w: DumpWarning) => void,
  options: DumpReadOptions = {},
): Promise<DumpFacts> {
  const recorder = new DumpRecorder(name, onWarning, options.chunkEvents);
  try {
    const reader = new DumpReader(name, (row) => recorder.row(row), onWarning);
    await streamDump(path, reader);
    return replay(recorder, reader, onWarning);
  } finally {
    recorder.spool.close();
  }
}

/** The same over text (or bytes) in memory (tests). */
export function dumpFactsFromText(
  name: string,
  text: string | Buffer,
  onWarning: (w: DumpWarning) => void = () => {},
  options: DumpReadOptions = {},
): DumpFacts {
  const recorder = new DumpRecorder(name, onWarning, options.chunkEvents);
  try {
    const reader = new DumpReader(name, (row) => recorder.row(row), onWarning);
    if (typeof text === 'string') reader.push(text);
    else {
      const decoder = new EscapedUtf8Decoder();
      reader.push(decoder.write(text));
      reader.push(decoder.end());
    }
    reader.finish();
    return replay(recorder, reader, onWarning);
  } finally {
    recorder.spool.close();
  }
}

function replay(recorder: DumpRecorder, reader: DumpReader, onWarning: (w: DumpWarning) => void): DumpFacts {
  const replay = new DumpReplay(recorder, onWarning);
  recorder.spool.replay((e) => replay.event(e));
  return replay.finish(reader.timestampUnit ?? reader.header?.headerUnit ?? 'ns', reader.rows);
}

// Turns the rows of an msMemScope dump into compact events in the time-order spool, every cell an analysis reads checked.
//
// Strings (names, owners, call sites, pids) are interned and (pid, device, pool) groups numbered, so that the replay
// (dump-replay.ts) keys its state by small integers. OOM_DETAIL/OOM_TRIGGER rows are kept here, in file order.
import { deviceName } from '../../model/sections/keys.js';
import { MAX_EXACT_BYTES, readExactInteger } from '../../model/units.js';
import { attrValueOf, type DumpRow, type DumpWarning } from './dump-reader.js';
import { EventSpool } from './time-order.js';

/** Pools msMemScope's step analysis and leak rule look at (§3.2). */
export const FRAMEWORK_POOLS = new Set(['PTA', 'ATB', 'MINDSPORE']);
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
export const MALLOC = 0;
export const FREE = 1;
export const SHADOW_FREE = 2;
export const RANGE_START = 3;
export const STEP_RANGE_START = 4;
export const RANGE_END = 5;
export const STEP_MARK = 6;
export const OP_START = 7;
export const OP_END = 8;

/**
 * One OOM_DETAIL/OOM_TRIGGER row. Shape as read in Ascend/msmemscope f069acf (2026-08-07), added in 520dcd8 (2026-07-25):
 * `csrc/analysis/dump.cpp` `Dump::DumpOOMTriggerEvent` writes Attr `"{func:<name>,req_size:<bytes>,flag:<n>}"` with the
 * device of the failed halMemAlloc/halMemCreate (`csrc/event_trace/hal_hooks/hal_hooks.cpp` `HandleOOM`); it carries no
 * total, free, allocated or reserved figure. The OOM_RECENT_ALLOC/OOM_TOP_ALLOC rows after it (device N/A) list blocks, not figures.
 */
export interface DumpOom {
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
export class Strings {
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
export interface Group {
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
export class DumpRecorder {
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

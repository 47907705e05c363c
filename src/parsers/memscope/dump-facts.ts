// Reads one msMemScope dump into the facts every analysis needs: allocation blocks, step markers and op windows.
//
// Held in memory (all else streams past): one record per allocation block of any pool (times, size, id, group,
// owner/call-site/inefficient ids: about 60 bytes), the live-block table (blocks not yet freed), step markers, and
// one record per completed op window (about 40 bytes). A block is matched MALLOC → FREE in file order, by
// (pid, pool, Ptr): the tool writes a block's MALLOC and FREE rows together, when it is freed.
import { deviceName } from '../../model/sections/keys.js';
import { f64, i32 } from './columns.js';
import { DumpReader, attrValueOf, streamDump, type DumpRow, type DumpWarning } from './dump-reader.js';

export const POOLS = ['PTA', 'ATB', 'MINDSPORE', 'HAL', 'HOST', 'HOST_PINNED', 'PTA_WORKSPACE'] as const;
/** Pools msMemScope's step analysis and leak rule look at (§3.2). */
export const FRAMEWORK_POOLS = new Set(['PTA', 'ATB', 'MINDSPORE']);
const KNOWN_EVENTS = new Set(['MALLOC', 'FREE', 'ACCESS', 'MSTX', 'OP_LAUNCH', 'KERNEL_LAUNCH', 'SYSTEM', 'CLEAN_UP', 'SNAPSHOT', 'OOM_DETAIL', 'N/A']);

/** (pid, device, pool) of a block. */
export interface BlockGroup {
  pid: string;
  /** `dev0`, or the raw cell for host memory and rows of no device (`cpu`, `host`, `N/A`). */
  device: string;
  pool: string;
}

/** Columnar allocation blocks: index b is one MALLOC and its FREE (if any). 48 bytes a block. */
export interface Blocks {
  count: number;
  mallocTs: Float64Array;
  /** NaN: never freed while tracing (no FREE, or only a `shadow:true` one). */
  freeTs: Float64Array;
  size: Float64Array;
  id: Float64Array;
  group: Int32Array;
  owner: Int32Array;
  callSite: Int32Array;
  inefficient: Int32Array;
}


export interface StepMarker {
  pid: string;
  ts: number;
  kind: 'range-start' | 'range-end' | 'step';
  /** range-start: is the message `step start`; range-end: the range id it closes; step: the step number. */
  isStep: boolean;
  value: number;
  line: number;
}

/** Completed op windows, columnar: 28 bytes an op. */
export interface OpWindows {
  count: number;
  device: Int32Array;
  pid: Int32Array;
  name: Int32Array;
  startTs: Float64Array;
  endTs: Float64Array;
}

export interface DumpFacts {
  file: string;
  /** `us` or `ns`: the unit of every ts below (decided from the values). */
  unit: 'us' | 'ns';
  /** Timestamps are offsets from this first timestamp of the file, in `unit`. */
  origin: string;
  groups: BlockGroup[];
  /** Interned strings for owner, call site, inefficient type, op names; index 0 is ''. */
  strings: string[];
  blocks: Blocks;
  markers: StepMarker[];
  ops: OpWindows;
  /** Device names of op windows. */
  devices: string[];
  pids: string[];
  /** FREE rows whose MALLOC is not in the dump (allocated before tracing): ignored. */
  orphanFrees: number;
  rows: number;
  /** Any MALLOC carried a non-empty `owner` (decompose labels). */
  hasOwners: boolean;
  hasInefficient: boolean;
}

const SHADOW_RE = /[{,]shadow:true[,}]/;

function intern(map: Map<string, number>, list: string[], text: string): number {
  const found = map.get(text);
  if (found !== undefined) return found;
  const copy = Buffer.from(text, 'utf8').toString('utf8');
  map.set(copy, list.length);
  list.push(copy);
  return list.length - 1;
}

/** `0x000012c041400000` or `20615843020800` → a number (exact below 2^53), or NaN. */
export function ptrValue(ptr: string): number {
  if (ptr.startsWith('0x') || ptr.startsWith('0X')) return parseInt(ptr.slice(2), 16);
  if (/^\d+$/.test(ptr)) return Number(ptr);
  return NaN;
}

/** Builds DumpFacts from the rows of one dump. */
export class DumpFactsCollector {
  private readonly strings: string[] = [''];
  private readonly stringIds = new Map<string, number>([['', 0]]);
  private readonly groups: BlockGroup[] = [];
  private readonly groupIds = new Map<string, number>();
  private readonly blocks = { count: 0, mallocTs: f64(), freeTs: f64(), size: f64(), id: f64(), group: i32(), owner: i32(), callSite: i32(), inefficient: i32() };
  /** pid|pool → ptr → open block index. */
  private readonly live = new Map<string, Map<number, number>>();
  private readonly markers: StepMarker[] = [];
  private readonly ops = { count: 0, device: i32(), pid: i32(), name: i32(), startTs: f64(), endTs: f64() };
  private readonly devices: string[] = [];
  private readonly deviceIds = new Map<string, number>();
  private readonly pids: string[] = [];
  private readonly pidIds = new Map<string, number>();
  /** pid|tid|family → stack of [name, startTs]. */
  private readonly openOps = new Map<string, [string, number][]>();
  private originHi = NaN;
  private originLo = 0;
  private origin = '';
  private orphanFrees = 0;
  private hasOwners = false;
  private hasInefficient = false;
  private readonly unknownEvents = new Set<string>();

  constructor(
    readonly file: string,
    private readonly warn: (warning: DumpWarning) => void,
  ) {}

  /** Offset of a timestamp cell from the file's first timestamp (NaN when it is not a number). */
  private ts(text: string): number {
    const len = text.length;
    if (len === 0 || len > 20) return NaN;
    for (let i = 0; i < len; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return NaN;
    }
    const hi = len > 9 ? Number(text.slice(0, len - 9)) : 0;
    const lo = len > 9 ? Number(text.slice(len - 9)) : Number(text);
    if (Number.isNaN(this.originHi)) {
      this.originHi = hi;
      this.originLo = lo;
      this.origin = text;
    }
    return (hi - this.originHi) * 1e9 + (lo - this.originLo);
  }

  private device(raw: string): string {
    return deviceName(raw) ?? raw;
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
      default:
        if (!KNOWN_EVENTS.has(row.event) && !this.unknownEvents.has(row.event)) {
          this.unknownEvents.add(row.event);
          this.warn({ file: this.file, line: row.line, reason: `unknown Event '${row.event.slice(0, 40)}' (rows of it are skipped)` });
        }
    }
  }

  private size(row: DumpRow): number {
    const text = attrValueOf(row.attr, 'size:');
    if (text === null || !/^-?\d+$/.test(text)) return NaN;
    // FREE sizes are negative in 2025-H1 PTA/ATB dumps: the direction comes from Event, the magnitude from abs().
    return Math.abs(Number(text));
  }

  private lastGroup = { pid: '', device: '', pool: '', id: -1 };

  /** The group of a row's raw pid, device and pool cells (consecutive rows mostly share it). */
  private groupOfRow(pid: string, rawDevice: string, pool: string): number {
    const last = this.lastGroup;
    if (last.id !== -1 && last.pid === pid && last.device === rawDevice && last.pool === pool) return last.id;
    const id = this.groupOf(pid, this.device(rawDevice), pool);
    this.lastGroup = { pid, device: rawDevice, pool, id };
    return id;
  }

  private groupOf(pid: string, device: string, pool: string): number {
    const key = `${pid}|${device}|${pool}`;
    let g = this.groupIds.get(key);
    if (g === undefined) {
      g = this.groups.length;
      this.groupIds.set(key, g);
      this.groups.push({ pid: Buffer.from(pid).toString(), device: Buffer.from(device).toString(), pool: Buffer.from(pool).toString() });
    }
    return g;
  }

  private malloc(row: DumpRow): void {
    const ts = this.ts(row.timestamp);
    const size = this.size(row);
    const ptr = ptrValue(row.ptr);
    if (Number.isNaN(ts) || Number.isNaN(size) || Number.isNaN(ptr)) {
      this.warn({ file: this.file, line: row.line, reason: `a MALLOC without a numeric timestamp, Ptr and Attr size (skipped)` });
      return;
    }
    const b = this.blocks;
    const index = b.count++;
    b.mallocTs.push(ts);
    b.freeTs.push(NaN);
    b.size.push(size);
    b.id.push(Number(row.id));
    b.group.push(this.groupOfRow(row.pid, row.device, row.eventType));
    const owner = row.attr.includes('owner:') ? (attrValueOf(row.attr, 'owner:') ?? '') : '';
    if (owner !== '') this.hasOwners = true;
    b.owner.push(owner === '' ? 0 : intern(this.stringIds, this.strings, owner));
    const firstFrame = firstCallSite(row.callStackPython) || firstCallSite(row.callStackC);
    b.callSite.push(firstFrame === '' ? 0 : intern(this.stringIds, this.strings, firstFrame));
    const inefficient = row.attr.includes('inefficient_type:') ? (attrValueOf(row.attr, 'inefficient_type:') ?? '') : '';
    if (inefficient !== '') this.hasInefficient = true;
    b.inefficient.push(inefficient === '' ? 0 : intern(this.stringIds, this.strings, inefficient));
    const open = this.liveOf(row.pid, row.eventType, true) as Map<number, number>;
    // A MALLOC at an address still open: the earlier block's FREE is missing (a RESIDUAL_BLOCK); it stays unfreed.
    open.set(ptr, index);
  }

  private lastLive: { pid: string; pool: string; open: Map<number, number> } | null = null;

  private liveOf(pid: string, pool: string, create: boolean): Map<number, number> | undefined {
    const last = this.lastLive;
    if (last !== null && last.pid === pid && last.pool === pool) return last.open;
    const key = `${pid}|${pool}`;
    let open = this.live.get(key);
    if (open === undefined) {
      if (!create) return undefined;
      open = new Map();
      this.live.set(key, open);
    }
    this.lastLive = { pid, pool, open };
    return open;
  }

  private free(row: DumpRow): void {
    const ptr = ptrValue(row.ptr);
    const open = this.liveOf(row.pid, row.eventType, false);
    const index = open?.get(ptr);
    if (index === undefined || open === undefined) {
      this.orphanFrees++;
      return;
    }
    open.delete(ptr);
    // A shadow FREE is synthesised for a block still live at exit: not freed while tracing.
    if (SHADOW_RE.test(row.attr)) return;
    const ts = this.ts(row.timestamp);
    this.blocks.freeTs.data[index] = Number.isNaN(ts) ? (this.blocks.mallocTs.data[index] as number) : ts;
  }

  private mstx(row: DumpRow): void {
    const ts = this.ts(row.timestamp);
    if (Number.isNaN(ts)) return;
    if (row.eventType === 'Range_start') {
      this.markers.push({ pid: row.pid, ts, kind: 'range-start', isStep: row.name === 'step start', value: 0, line: row.line });
    } else if (row.eventType === 'Range_end') {
      const m = /Range end from id (\d+)/.exec(row.name);
      if (m !== null) this.markers.push({ pid: row.pid, ts, kind: 'range-end', isStep: false, value: Number(m[1]), line: row.line });
    }
  }

  private systemStep(row: DumpRow): void {
    const ts = this.ts(row.timestamp);
    const n = Number(row.name.replace(/"/g, ''));
    if (Number.isNaN(ts) || !Number.isInteger(n)) {
      this.warn({ file: this.file, line: row.line, reason: `a SYSTEM/STEP row without a step number (skipped)` });
      return;
    }
    this.markers.push({ pid: row.pid, ts, kind: 'step', isStep: true, value: n, line: row.line });
  }

  private lastOps: { pid: string; tid: string; device: string; family: number; stack: [string, number][] } | null = null;

  private op(row: DumpRow): void {
    const type = row.eventType;
    const start = type === 'ATEN_START' || type === 'ATB_START';
    if (!start && type !== 'ATEN_END' && type !== 'ATB_END') return;
    const ts = this.ts(row.timestamp);
    if (Number.isNaN(ts)) return;
    let stack: [string, number][] | undefined;
    const last = this.lastOps;
    if (last !== null && last.pid === row.pid && last.tid === row.tid && last.device === row.device && last.family === type.charCodeAt(2)) {
      stack = last.stack;
    } else {
      const key = `${row.pid}|${row.tid}|${row.device}|${type.slice(0, 3)}`;
      stack = this.openOps.get(key);
      if (stack === undefined && start) this.openOps.set(key, (stack = []));
      if (stack !== undefined) this.lastOps = { pid: row.pid, tid: row.tid, device: row.device, family: type.charCodeAt(2), stack };
    }
    if (start) {
      (stack as [string, number][]).push([row.name, ts]);
      return;
    }
    if (stack === undefined) return;
    // Ends pair with the innermost open start of the same name (ops nest: an aten op calls others).
    for (let i = stack.length - 1; i >= 0; i--) {
      const open = stack[i] as [string, number];
      if (open[0] !== row.name) continue;
      stack.length = i;
      const o = this.ops;
      o.count++;
      o.device.push(intern(this.deviceIds, this.devices, this.device(row.device)));
      o.pid.push(intern(this.pidIds, this.pids, row.pid));
      o.name.push(intern(this.stringIds, this.strings, row.name));
      o.startTs.push(open[1]);
      o.endTs.push(ts);
      return;
    }
  }

  finish(unit: 'us' | 'ns', rows: number): DumpFacts {
    const b = this.blocks;
    const o = this.ops;
    return {
      file: this.file,
      unit,
      origin: this.origin,
      groups: this.groups,
      strings: this.strings,
      blocks: {
        count: b.count,
        mallocTs: b.mallocTs.done(),
        freeTs: b.freeTs.done(),
        size: b.size.done(),
        id: b.id.done(),
        group: b.group.done(),
        owner: b.owner.done(),
        callSite: b.callSite.done(),
        inefficient: b.inefficient.done(),
      },
      markers: this.markers,
      ops: { count: o.count, device: o.device.done(), pid: o.pid.done(), name: o.name.done(), startTs: o.startTs.done(), endTs: o.endTs.done() },
      devices: this.devices,
      pids: this.pids,
      orphanFrees: this.orphanFrees,
      rows,
      hasOwners: this.hasOwners,
      hasInefficient: this.hasInefficient,
    };
  }
}

/** The first line of a call stack cell (frames are separated by `;` or newlines escaped as `\n`). */
function firstCallSite(stack: string): string {
  if (stack === '' || stack === 'N/A') return '';
  const cut = stack.search(/;|\\n|\n/);
  return (cut === -1 ? stack : stack.slice(0, cut)).trim().slice(0, 200);
}

/** Reads a dump file into facts; warnings go to `onWarning`. */
export async function readDumpFacts(path: string, name: string, onWarning: (w: DumpWarning) => void): Promise<DumpFacts> {
  const collector = new DumpFactsCollector(name, onWarning);
  const reader = new DumpReader(name, (row) => collector.row(row), onWarning);
  await streamDump(path, reader);
  return collector.finish(reader.timestampUnit ?? reader.header?.headerUnit ?? 'ns', reader.rows);
}

/** The same over text in memory (tests). */
export function dumpFactsFromText(name: string, text: string, onWarning: (w: DumpWarning) => void = () => {}): DumpFacts {
  const collector = new DumpFactsCollector(name, onWarning);
  const reader = new DumpReader(name, (row) => collector.row(row), onWarning);
  reader.push(text);
  reader.finish();
  return collector.finish(reader.timestampUnit ?? reader.header?.headerUnit ?? 'ns', reader.rows);
}

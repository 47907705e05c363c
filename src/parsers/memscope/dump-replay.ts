// Replays an msMemScope dump's events in time order into the figures of every analysis.
//
// Steps and msMemScope's step-leak rule, memory unfreed at the end, owner buckets, per-op footprint, inefficient memory:
// each event updates the few running sums it touches, and finish() sorts the figures into a DumpFacts.
import { ParseError } from '../../common/errors.js';
import { BEYOND_EXACT, exactSum } from '../../model/units.js';
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
import { Blocks } from './dump-blocks.js';
import type { DumpWarning } from './dump-reader.js';
import {
  FRAMEWORK_POOLS,
  FREE,
  MALLOC,
  OP_END,
  OP_START,
  RANGE_END,
  RANGE_START,
  SHADOW_FREE,
  STEP_MARK,
  STEP_RANGE_START,
  Strings,
  type DumpOom,
  type DumpRecorder,
  type Group,
} from './dump-recorder.js';
import type { TimedEvent } from './time-order.js';

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
export class DumpReplay {
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

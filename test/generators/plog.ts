// A multi-rank plog tree as the driver leaves it: one folder per rank, each process's log rotated into files, and the
// snapshot a correct parser must read from it. Every driver generation, decoys, glued, wrapped and cut records, CRLF
// files and allocation failures are in any tree of at least 4 processes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { AllocFailureSite } from '../../src/model/snapshot.js';
import { Rng } from '../helpers/random.js';
import { KiB } from '../helpers/story.js';
import { BatchedFile } from './batched-file.js';
import { ExpectedSnapshot, siteText } from './expected-snapshot.js';
import { JOB_START_US, LogClock } from './log-clock.js';
import {
  allocFailureLine,
  decoyLine,
  FAILURE_SHAPES,
  LAYOUTS,
  noiseLine,
  PEAK_RANGE,
  recordText,
  startupLines,
  truncate,
  wrappedV1,
  type Generation,
  type PlogProcess,
  type PlogRecord,
  type RecordKind,
} from './plog-lines.js';

/** What the tree's size and shape depend on. */
export interface PlogOptions {
  out: string;
  plogBytes: number;
  ranks: number;
  devices: number;
  seed: number;
  rotateBytes: number;
  recordShare: number;
}

/** What was written, beyond the expected snapshot. */
export interface PlogStats {
  plogFiles: number;
  plogBytes: number;
  plogRecords: number;
  truncated: number;
  glued: number;
  wrapped: number;
  allocFailures: number;
}

/** Process roles in one rank's folder, in start order: [process name, share of the rank's bytes]. */
const ROLES: [string, number][] = [
  ['ascend-dmi', 0.04],
  ['python3', 0.82],
  ['python3.9', 0.1],
  ['main_aarch64', 0.04],
];
/** Generations cycle over processes, so any corpus with at least 4 processes has every one. */
const GENERATIONS: Generation[] = ['v1', 'v2', 'v3', 'v0'];

/** One process of the tree and what its log holds. */
interface ProcessPlan extends PlogProcess {
  role: number;
  gen: Generation;
  level: string;
  failures: boolean;
  glueFailure: boolean;
  killed: boolean;
  dumps: boolean;
  glue: boolean;
  crlf: boolean;
  appScale: number;
  budget: number;
  startUs: number;
}

interface TreeContext extends PlogStats {
  o: PlogOptions;
  expected: ExpectedSnapshot;
  /** Key → peaks written anywhere in the corpus: no two records of one key share a peak. */
  usedPeaks: Map<string, Set<number>>;
}

interface MemoryEntry {
  attr: string;
  device: number | null;
  kind: RecordKind;
  module: string;
  key: string;
  lo: number;
  hi: number;
  peak: number;
  allocs: number;
  frees: number;
}

/** First-dump peak range of one module's record. */
function peakRange(kind: RecordKind, module: string): [number, number] {
  if (kind === 'cached') return [1e6, 2e9];
  if (kind === 'total') return module === 'APP' ? [2e9, 6.4e10] : [2e7, 9e7];
  return PEAK_RANGE[module] as [number, number];
}

/** One process's memory state: peaks only grow, and no two records of one key in the corpus share a peak. */
class ProcessMemory {
  private readonly entries: MemoryEntry[] = [];
  /** v0 prints no counts: its records carry allocs/frees null. */
  private readonly counts: boolean;

  /** growth: a dump raises each peak by up to 1/growth (record-dense runs dump thousands of times: a small step). */
  constructor(
    gen: Generation,
    device: number,
    scale: number,
    private readonly r: Rng,
    private readonly usedPeaks: Map<string, Set<number>>,
    private readonly growth = 10,
  ) {
    this.counts = gen !== 'v0';
    for (const [attr, onDevice, kind, modules] of LAYOUTS[gen]) {
      for (const module of modules) {
        const [lo, hi] = peakRange(kind, module);
        const hostScale = onDevice || kind !== 'stats' ? 1 : 0.05;
        const span = module === 'APP' && kind !== 'cached' ? scale : 1;
        this.entries.push({
          attr,
          device: onDevice ? device : null,
          kind,
          module,
          key: `${attr}${onDevice ? `/dev${device}` : ''}/${module}`,
          lo: Math.max(4096, Math.floor(lo * hostScale * span)),
          hi: Math.max(8192, Math.floor(hi * hostScale * span)),
          peak: 0,
          allocs: 0,
          frees: 0,
        });
      }
    }
  }
  /** The records of the next dump, each with a larger peak than in the last dump. */
  dump(): PlogRecord[] {
    const r = this.r;
    return this.entries.map((e) => {
      let peak =
        e.peak === 0
          ? r.logRange(e.lo, e.hi)
          : e.peak + r.range(1, Math.max(1, Math.floor(e.peak / this.growth / 4096))) * 4096;
      if (r.chance(0.85)) peak -= peak % 4096;
      let used = this.usedPeaks.get(e.key);
      if (!used) this.usedPeaks.set(e.key, (used = new Set()));
      while (used.has(peak)) peak += 4096;
      used.add(peak);
      e.peak = peak;
      if (e.kind !== 'stats') return { ...e, peak, current: peak, allocs: null, frees: null };
      e.allocs += r.range(1, 4000);
      e.frees = Math.min(e.allocs, e.frees + r.range(0, 4000));
      const u = r.next();
      const current = u < 0.3 ? 0 : u < 0.6 ? peak : r.range(0, peak);
      return { ...e, peak, current, allocs: this.counts ? e.allocs : null, frees: this.counts ? e.frees : null };
    });
  }
}

interface DumpShape {
  glue?: boolean;
  wrap?: boolean;
  killed?: boolean;
}

/** Writes one process's plog files (rotated) and records what a parser must read from them. */
class ProcessWriter {
  private readonly r: Rng;
  private readonly clock: LogClock;
  private readonly eol: string;
  private readonly dir: string;
  private readonly memory: ProcessMemory;
  private file: BatchedFile;
  private written = 0;

  constructor(
    private readonly ctx: TreeContext,
    private readonly p: ProcessPlan,
  ) {
    const o = ctx.o;
    this.r = new Rng(o.seed, 0x504c4f47, p.rank, p.role);
    this.clock = new LogClock(p.startUs);
    this.eol = p.crlf ? '\r\n' : '\n';
    this.dir = join(o.out, 'plog', `rank_${p.rank}`);
    this.file = this.newFile();
    const growth = o.recordShare > 0 ? 4000 : 10;
    this.memory = new ProcessMemory(p.gen, p.device, p.appScale, this.r, ctx.usedPeaks, growth);
  }

  private newFile(): BatchedFile {
    const file = new BatchedFile(join(this.dir, `plog-${this.p.pid}_${this.clock.fileStamp()}.log`), this.eol);
    this.ctx.expected.files++;
    this.ctx.plogFiles++;
    return file;
  }

  /** Rotation happens only between units, so no record is split across files. */
  private rotateIfFull(): void {
    if (this.file.bytes < this.ctx.o.rotateBytes) return;
    this.file.close();
    this.file = this.newFile();
  }

  /** Where the last line written lies, as `parse --plog <out>/plog` names it. */
  private here(text: string): AllocFailureSite {
    return {
      file: relative(join(this.ctx.o.out, 'plog'), this.file.path).split(sep).join('/'),
      line: this.file.lines,
      text: siteText(text),
    };
  }

  /** Writes whole lines, one unit. */
  private emit(lines: readonly string[]): void {
    this.rotateIfFull();
    for (const l of lines) {
      this.file.line(l);
      this.written += l.length + this.eol.length;
    }
  }

  private accept(rec: PlogRecord): void {
    const metric = { peak: rec.peak, current: rec.current, allocs: rec.allocs, frees: rec.frees };
    this.ctx.expected.addModule(rec.key, metric, rec.device);
    this.ctx.plogRecords++;
  }

  private failure(line: string, device: number | null, siteLine = line): void {
    this.emit([line]);
    this.ctx.expected.addAllocFailure(device === null ? 'unknown' : `dev${device}`, this.here(siteLine));
    this.ctx.allocFailures++;
  }

  /** A process killed mid-write: the record cut inside its body, no line ending after it. */
  private cut(level: string, rec: PlogRecord): void {
    const { r, p, clock } = this;
    const cut = truncate(recordText(p.gen, level, p, clock, rec), r);
    this.rotateIfFull();
    this.file.raw(cut);
    this.written += cut.length;
    this.ctx.expected.skipped++;
    this.ctx.truncated++;
  }

  /** One dump: [LEVEL] records, a few glued or wrapped; a killed process stops mid-record. Returns its record count. */
  private dump(level: string, { glue = false, wrap = false, killed = false }: DumpShape = {}): number {
    const { r, p, clock, ctx } = this;
    const recs = this.memory.dump();
    // A kill lands inside a Mem stats record (a cut Cached_size line would carry no record head).
    const cuttable = recs.map((x, i) => (x.kind === 'cached' ? -1 : i)).filter((i) => i >= recs.length / 3);
    const cutAt = killed ? r.pick(cuttable) : -1;
    const glueAt = glue ? r.range(0, recs.length - 2) : -1;
    const v1Stats = recs.map((x, i) => (x.kind === 'stats' && p.gen === 'v1' ? i : -1)).filter((i) => i >= 0);
    const wrapAt = new Set(wrap ? [r.pick(v1Stats), r.pick(v1Stats)] : []);
    if (r.chance(0.5)) this.emit([decoyLine(r, p, clock)]);
    for (let i = 0; i < recs.length; i++) {
      clock.advance(r.range(5, 15));
      const rec = recs[i] as PlogRecord;
      if (i === cutAt) {
        this.cut(level, rec);
        return i;
      }
      if (i === glueAt && i + 1 !== cutAt) {
        const next = recs[i + 1] as PlogRecord;
        const first = recordText(p.gen, level, p, clock, rec);
        clock.advance(r.range(5, 15));
        this.emit([first + recordText(p.gen, level, p, clock, next)]);
        this.accept(rec);
        this.accept(next);
        ctx.glued++;
        i++;
        continue;
      }
      if (wrapAt.has(i)) {
        this.emit(wrappedV1(level, p, clock, rec, ctx.wrapped % 3));
        ctx.wrapped++;
      } else {
        this.emit([recordText(p.gen, level, p, clock, rec)]);
      }
      this.accept(rec);
    }
    return recs.length;
  }

  /** Record-dense runs: 1-3 failure lines of any shape, each counted once on its device. */
  private failureBurst(): void {
    const { r, p, clock } = this;
    const n = r.range(1, 3);
    for (let k = 0; k < n; k++) {
      clock.advance(r.range(10, 200));
      const [line, device] = r.pick(FAILURE_SHAPES)(r, p, clock);
      this.failure(line, device);
    }
  }

  /** 1-3 allocation failures and the ERROR dump they trigger; `glueFirst`: a collector lost the first one's newline. */
  private scheduledFailures(glueFirst: boolean): void {
    const { r, p, clock } = this;
    const n = r.range(1, 3);
    for (let k = 0; k < n; k++) {
      clock.advance(r.range(10, 200));
      const failure = allocFailureLine(r, p, clock);
      let line = failure;
      if (k === 0 && glueFirst) {
        line += noiseLine(r, p, clock);
        this.ctx.glued++;
      }
      this.failure(line, p.device, failure);
    }
    this.dump('ERROR', { glue: false, wrap: false });
  }

  write(): void {
    const { r, p, clock, ctx } = this;
    this.emit(startupLines(r, p, clock));
    // Record-dense runs dump their statistics throughout: after about noisePerRecord noise lines per record of the last dump.
    const noisePerRecord = ctx.o.recordShare > 0 ? (1 - ctx.o.recordShare) / ctx.o.recordShare : Infinity;
    let noiseSinceDump = 0;
    let lastDump = 0;
    const failAt = p.failures ? [0.35, 0.7].map((f) => Math.floor(p.budget * f)) : [];
    const lines: string[] = [];
    while (this.written < p.budget - 8 * KiB) {
      if (failAt.length > 0 && this.written >= (failAt[0] as number)) {
        failAt.shift();
        // The first failure of a process is glued to the next line, as when a collector lost a newline.
        this.scheduledFailures(failAt.length === 1 && p.glueFailure);
        continue;
      }
      if (noiseSinceDump >= lastDump * noisePerRecord && this.written < p.budget - 64 * KiB) {
        if (r.chance(0.25)) this.failureBurst();
        lastDump = this.dump(p.level, { glue: r.chance(0.3), wrap: p.gen === 'v1' && r.chance(0.3) });
        noiseSinceDump = 0;
        continue;
      }
      // Batches of noise between checks keep the loop cheap; 64 lines are far below the rotation size.
      for (let k = 0; k < 64; k++) lines[k] = noiseLine(r, p, clock);
      this.emit(lines);
      noiseSinceDump += 64;
    }
    if (p.dumps) this.dump(p.level, { glue: p.glue, wrap: p.gen === 'v1' && !p.killed, killed: p.killed });
    this.file.close();
    ctx.plogBytes += this.written;
  }
}

/** The plan of process `role` (the g-th of the corpus) of a rank: its generation and the damage its log holds. */
function processPlan(
  o: PlogOptions,
  [rank, role, g, pid]: [number, number, number, number],
  base: Pick<ProcessPlan, 'name' | 'budget' | 'startUs'>,
): ProcessPlan {
  return {
    rank,
    role,
    ranks: o.ranks,
    device: rank % o.devices,
    pid,
    tid: pid + 7,
    gen: GENERATIONS[g % GENERATIONS.length] as Generation,
    level: g % 5 === 2 ? 'EVENT' : 'INFO',
    failures: g % 3 === 1,
    glueFailure: g % 6 === 1,
    killed: g % 7 === 3,
    dumps: g % 8 !== 6,
    glue: g % 2 === 0,
    crlf: g % 6 === 0,
    appScale: role === 1 ? 1 : 0.1,
    ...base,
  };
}

/** Writes `out/plog/rank_<r>/plog-<pid>_<stamp>.log` and returns the snapshot a parser must read from them. */
export function writePlogTree(
  o: PlogOptions,
  usedPeaks: Map<string, Set<number>>,
): { expected: ExpectedSnapshot; stats: PlogStats } {
  const expected = new ExpectedSnapshot();
  const ctx: TreeContext = {
    o,
    expected,
    usedPeaks,
    plogFiles: 0,
    plogBytes: 0,
    plogRecords: 0,
    truncated: 0,
    glued: 0,
    wrapped: 0,
    allocFailures: 0,
  };
  const perProcess = Math.max(ROLES.length - 1, Math.ceil(4 / o.ranks));
  const rankBytes = o.plogBytes / o.ranks;
  const pidRng = new Rng(o.seed, 0x504944);
  const pids = new Set<number>();
  let g = 0;
  for (let rank = 0; rank < o.ranks; rank++) {
    mkdirSync(join(o.out, 'plog', `rank_${rank}`), { recursive: true });
    const roles = Array.from({ length: perProcess }, (_, i) => ROLES[i % ROLES.length] as [string, number]);
    const shareSum = roles.reduce((s, x) => s + x[1], 0);
    let startUs = JOB_START_US + rank * 1_500_000;
    for (let role = 0; role < perProcess; role++, g++) {
      let pid: number;
      do pid = pidRng.range(10000, 4_000_000);
      while (pids.has(pid));
      pids.add(pid);
      const [name, share] = roles[role] as [string, number];
      const budget = Math.max(16 * KiB, Math.floor((rankBytes * share) / shareSum));
      new ProcessWriter(ctx, processPlan(o, [rank, role, g, pid], { name, budget, startUs })).write();
      // Each process starts after the previous one; log lines advance 1.5 ms on average.
      startUs += Math.ceil((budget / 220) * 1500) + 2_000_000;
    }
  }
  return { expected, stats: ctx };
}

/** One small plog file: padding noise, then one statistics record whose peak is the file's number. */
function smallPlog(i: number): string {
  const noise = `[INFO] RUNTIME(${i},python3):2024-07-08-22:27:01.354.856 [runtime.cc:1320]${i} Init: Runtime init success, device_id=0\n`;
  const record =
    `[INFO] DRV(${i},python3):2024-07-08-22:27:45.354.856 [ascend][curpid: ${i}, ${i}][drv][devmm][_svm_mem_stats_show 148]` +
    `DEV_MEM dev0 Mem stats (Bytes). (module_name=MOD${i % 50}; module_id=7; current_alloced_size=${i}; alloced_peak_size=${i}; alloc_cnt=3; free_cnt=1)\n`;
  return noise.repeat(2) + record;
}

/** `n` small plog files (~400 B each) in 100 folders `dir/dNN/plog-<i>.log`: one record each, peak i. */
export function writeSmallPlogs(dir: string, n: number): void {
  for (let i = 0; i < n; i++) {
    const sub = join(dir, `d${String(i % 100).padStart(2, '0')}`);
    if (i < 100) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `plog-${i}.log`), smallPlog(i));
  }
}

#!/usr/bin/env node
// Deterministic benchmark corpus: a multi-rank plog tree and memory_compare CSVs, with the snapshots a correct parser must produce.
//
//   node bench/generate.mjs --out DIR [--plog-bytes 1GiB] [--ranks 8] [--csv-rows 1000000] [--devices 8] [--seed 42]
//                           [--rotate-bytes 20MiB] [--no-legacy-csv] [--record-share 0.08] [--quoted-share 0.07]
//
// --record-share F: a record-dense plog (a log-heavy, failure-heavy run): about F of all lines are records, dumped
//   throughout each process (glued and wrapped ones included), with allocation failures in every shape of FORMATS.md.
// --quoted-share F: about F of the CSV rows name a kernel that needs RFC 4180 quoting (commas, quotes).
//
// Writes:
//   DIR/plog/rank_<r>/plog-<pid>_<YYYYMMDDhhmmssSSS>.log   rotated at --rotate-bytes, like the real driver log
//   DIR/memory_compare_20250901120000.csv                    current header, --csv-rows data rows
//   DIR/compare-legacy/*.csv                                 the two older header generations (small)
//   DIR/expected-plog.json      snapshot of --plog DIR/plog
//   DIR/expected-compare.json   snapshot of --compare DIR/memory_compare_20250901120000.csv
//   DIR/expected.json           snapshot of both together
//   DIR/expected-compare-legacy.json  snapshot of the files in DIR/compare-legacy
// No dependencies, no clock, no Math.random: the same options give the same bytes.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
/** Text is flushed to disk in batches of about this size: few syscalls, bounded memory. */
const BATCH_BYTES = 4 * MiB;

export const DEFAULTS = Object.freeze({
  plogBytes: GiB,
  ranks: 8,
  csvRows: 1_000_000,
  devices: 8,
  seed: 42,
  rotateBytes: 20 * MiB,
  legacyCsv: true,
  recordShare: 0,
  quotedShare: 0,
});

export const CSV_NAME = 'memory_compare_20250901120000.csv';
export const LEGACY_CSV_NAMES = Object.freeze([
  'memory_compare_20250601120000.csv',
  'stepintercompare_20250215120000.csv',
]);

// ---------------------------------------------------------------------------------------------
// Sizes and options

/** "1GiB", "64MiB", "20MB", "4096" → bytes. */
export function parseSize(value) {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 0) return value;
    throw new Error(`not a size: ${value}`);
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$/i.exec(String(value));
  if (!m) throw new Error(`not a size: ${JSON.stringify(value)} (use e.g. 4096, 64MiB, 1GiB)`);
  const units = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KIB: KiB, MIB: MiB, GIB: GiB, TIB: 1024 * GiB };
  return Math.round(Number(m[1]) * units[(m[2] ?? 'B').toUpperCase()]);
}

function normalizeOptions(opts) {
  if (!opts || typeof opts.out !== 'string' || opts.out === '')
    throw new Error('generate: "out" (a directory) is required');
  const o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) };
  o.out = resolve(o.out);
  o.plogBytes = parseSize(o.plogBytes);
  o.rotateBytes = parseSize(o.rotateBytes);
  for (const k of ['ranks', 'csvRows', 'devices', 'seed']) {
    o[k] = Number(o[k]);
    if (!Number.isSafeInteger(o[k]) || o[k] < 0) throw new Error(`generate: "${k}" must be a non-negative integer`);
  }
  for (const k of ['recordShare', 'quotedShare']) {
    o[k] = Number(o[k]);
    if (!(o[k] >= 0 && o[k] < 0.5)) throw new Error(`generate: "${k}" must be a fraction in [0, 0.5)`);
  }
  if (o.ranks < 1) throw new Error('generate: "ranks" must be at least 1');
  if (o.devices < 1) throw new Error('generate: "devices" must be at least 1');
  if (o.rotateBytes < 64 * KiB) throw new Error('generate: "rotateBytes" must be at least 64KiB');
  o.legacyCsv = Boolean(o.legacyCsv) && o.csvRows > 0;
  return o;
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32 streams, seeds mixed with a 32-bit hash)

function mix32(...parts) {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

class Rng {
  constructor(...seedParts) {
    this.s = mix32(...seedParts);
  }
  /** Uniform in [0, 1). */
  next() {
    let t = (this.s = (this.s + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n) {
    return Math.floor(this.next() * n);
  }
  /** Integer in [lo, hi]. */
  range(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** Integer in [lo, hi), log-uniform: byte sizes span orders of magnitude. Exact beyond 32 bits. */
  logRange(lo, hi) {
    return Math.floor(Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo))));
  }
  pick(arr) {
    return arr[Math.floor(this.next() * arr.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  hex(digits) {
    let s = '';
    for (let i = 0; i < digits; i++) s += '0123456789abcdef'[this.int(16)];
    return s;
  }
}

// ---------------------------------------------------------------------------------------------
// Time without Date: civil dates from day numbers (Howard Hinnant's algorithm)

const P2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const P3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

function civilFromDays(z) {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Microseconds since the epoch of the job's start: 2025-09-01 12:00:00 (log time has no zone). */
const JOB_START_US = (daysFromCivil(2025, 9, 1) * 86400 + 12 * 3600) * 1e6;

/** A process's log clock: `2025-09-01-12:00:00.123.456`, with the per-second part cached. */
class LogClock {
  constructor(startUs) {
    this.us = startUs;
    this.sec = -1;
    this.secText = '';
  }
  advance(us) {
    this.us += us;
  }
  secondText(sec) {
    if (sec !== this.sec) {
      this.sec = sec;
      const [y, mo, d] = civilFromDays(Math.floor(sec / 86400));
      const s = sec % 86400;
      this.secText = `${y}-${P2[mo]}-${P2[d]}-${P2[Math.floor(s / 3600)]}:${P2[Math.floor(s / 60) % 60]}:${P2[s % 60]}`;
    }
    return this.secText;
  }
  /** Log line time stamp. */
  stamp() {
    const sec = Math.floor(this.us / 1e6);
    const frac = this.us - sec * 1e6;
    return `${this.secondText(sec)}.${P3[Math.floor(frac / 1000)]}.${P3[frac % 1000]}`;
  }
  /** File name time stamp: YYYYMMDDhhmmssSSS. */
  fileStamp() {
    const sec = Math.floor(this.us / 1e6);
    const ms = Math.floor((this.us - sec * 1e6) / 1000);
    return `${this.secondText(sec).replace(/[-:]/g, '')}${P3[ms]}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Batched file output

class BatchedFile {
  constructor(path, eol = '\n') {
    this.path = path;
    this.eol = eol;
    this.fd = openSync(path, 'w');
    // Lines are copied into one reused buffer at once, so they die young: no big string batches for the GC to move.
    this.buf = Buffer.allocUnsafe(BATCH_BYTES);
    this.used = 0;
    this.bytes = 0;
    /** Lines written with line(): the last one's number. */
    this.lines = 0;
  }
  /** Appends ASCII text as is (no line ending added). */
  raw(text) {
    if (this.used + text.length > this.buf.length) {
      this.flush();
      if (text.length > this.buf.length) {
        writeSync(this.fd, text, null, 'latin1');
        this.bytes += text.length;
        return;
      }
    }
    this.used += this.buf.write(text, this.used, 'latin1');
    this.bytes += text.length;
  }
  /** Appends bytes as they are (a byte-order mark). */
  bytesRaw(bytes) {
    this.flush();
    writeSync(this.fd, bytes);
    this.bytes += bytes.length;
  }
  line(text) {
    this.raw(text);
    this.raw(this.eol);
    this.lines++;
  }
  flush() {
    // Synchronous writes of big batches: memory stays bounded and the kernel applies the backpressure.
    if (this.used > 0) writeSync(this.fd, this.buf, 0, this.used);
    this.used = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
    this.buf = null;
  }
}

// ---------------------------------------------------------------------------------------------
// Expected snapshot: the semantics the parsers implement, computed while writing

/** Failure sites the snapshot keeps per device, and the characters of a site's text. */
const SITES_PER_DEVICE = 5;
const SITE_TEXT_CHARS = 300;

/** A failure line as a site shows it: whitespace collapsed, at most SITE_TEXT_CHARS with the ellipsis. */
function siteText(line) {
  const text = line.replace(/\s+/g, ' ').trim();
  return text.length > SITE_TEXT_CHARS ? `${text.slice(0, SITE_TEXT_CHARS - 1)}…` : text;
}

class ExpectedSnapshot {
  constructor() {
    this.modules = new Map();
    this.kernels = new Map();
    this.allocFailures = new Map();
    /** Device → the first SITES_PER_DEVICE failure lines by file, then line: what the parser reports as sites. */
    this.sites = new Map();
    this.files = 0;
    this.records = 0;
    this.skipped = 0;
  }
  /** The largest peak wins whole (the generator never writes two equal peaks for one key). */
  addModule(key, metric, device) {
    const prev = this.modules.get(key);
    if (prev === undefined || metric.peak >= prev.peak) this.modules.set(key, { ...metric });
    this.records++;
    if (device !== null) this.noteDevice(`dev${device}`);
  }
  /** Per-file kernel aggregates; across files the larger diff wins. */
  addKernel(key, metric) {
    const prev = this.kernels.get(key);
    if (prev === undefined || metric.diff >= prev.diff) this.kernels.set(key, { ...metric });
  }
  noteDevice(dev) {
    if (!this.allocFailures.has(dev)) this.allocFailures.set(dev, 0);
  }
  addAllocFailure(dev, where) {
    this.allocFailures.set(dev, (this.allocFailures.get(dev) ?? 0) + 1);
    if (where) this.addSite(dev, where);
  }
  addSite(dev, where) {
    const sites = [...(this.sites.get(dev) ?? []), where];
    sites.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
    this.sites.set(dev, sites.slice(0, SITES_PER_DEVICE));
  }
  merge(other) {
    for (const [k, v] of other.modules) {
      const prev = this.modules.get(k);
      if (prev === undefined || v.peak >= prev.peak) this.modules.set(k, { ...v });
    }
    for (const [k, v] of other.kernels) this.addKernel(k, v);
    for (const [d, n] of other.allocFailures) this.allocFailures.set(d, (this.allocFailures.get(d) ?? 0) + n);
    for (const [d, sites] of other.sites) for (const site of sites) this.addSite(d, site);
    this.files += other.files;
    this.records += other.records;
    this.skipped += other.skipped;
    return this;
  }
  build() {
    const obj = (m) => Object.fromEntries([...m.entries()]);
    const sections = {};
    if (this.modules.size > 0) sections.modules = obj(this.modules);
    if (this.kernels.size > 0) sections.kernels = obj(this.kernels);
    return {
      version: 2,
      sections,
      series: {},
      meta: {
        files: this.files,
        records: this.records,
        skipped: this.skipped,
        allocFailures: obj(this.allocFailures),
        ...(this.sites.size > 0 ? { allocFailureSites: obj(this.sites) } : {}),
      },
    };
  }
}

/** Same bytes as `parse --json`: keys sorted at every level, 2-space indent, trailing newline. */
export function stableStringify(value) {
  const sortDeep = (v) => {
    if (Array.isArray(v)) return v.map(sortDeep);
    if (v !== null && typeof v === 'object') {
      const out = {};
      for (const k of Object.keys(v).sort()) out[k] = sortDeep(v[k]);
      return out;
    }
    return v;
  };
  return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------
// plog: what the driver prints

const MODULE_IDS = {
  HCCL: 3,
  DVPP: 6,
  RUNTIME: 7,
  APP: 33,
  AICPU_SCHEDULE: 37,
  GE: 45,
  ASCENDCL: 48,
  HCCP_SCHEDULE: 57,
};

/** First-dump peak ranges per module on device attributes (bytes); host/SVM attributes are smaller. */
const PEAK_RANGE = {
  APP: [1.5e9, 6.2e10],
  HCCL: [2e8, 1.6e9],
  RUNTIME: [1.6e7, 5e7],
  GE: [2e6, 1.2e8],
  AICPU_SCHEDULE: [1e6, 3e7],
  DVPP: [5e6, 5e8],
  HCCP_SCHEDULE: [1e6, 1e7],
  ASCENDCL: [1e5, 1e7],
};

// What one dump lists, per driver generation: [attribute, on a device?, kind, modules]
// kind: 'stats' = a Mem stats record, 'cached' = a Cached_size line, 'total' = DEV_PROC_MEM total_size.
const LAYOUTS = {
  v0: [
    ['DEV_MEM', true, 'stats', ['GE', 'RUNTIME', 'HCCL', 'APP']],
    ['HOST_MEM', false, 'stats', ['HCCL', 'RUNTIME']],
    ['SVM_MEM', false, 'stats', ['RUNTIME']],
  ],
  v1: [
    ['SVM_MEM', false, 'stats', ['RUNTIME', 'APP']],
    ['DEV_MEM', true, 'stats', ['RUNTIME', 'HCCL', 'APP', 'GE', 'AICPU_SCHEDULE']],
    ['HOST_MEM', false, 'stats', ['APP', 'RUNTIME']],
    ['DVPP_MEM', true, 'stats', ['DVPP']],
  ],
  v2: [
    ['HOST_MEM', false, 'stats', ['RUNTIME', 'APP']],
    ['HOST_MEM', false, 'cached', ['CACHED']],
    ['MEM_DEV_SMALL_HBM', true, 'stats', ['APP', 'RUNTIME', 'HCCL']],
    ['MEM_DEV_HUGE_HBM', true, 'stats', ['APP', 'HCCL', 'GE']],
    ['MEM_DEV_HUGE_HBM', true, 'cached', ['CACHED']],
    ['MEM_DEV_SMALL_DDR', true, 'stats', ['RUNTIME']],
    ['MEM_DEV_HUGE_P2P_HBM', true, 'stats', ['HCCL', 'HCCP_SCHEDULE']],
    ['MEM_DEV_SMALL_TS_DDR', true, 'stats', ['RUNTIME']],
    ['MEM_HOST', false, 'stats', ['APP', 'ASCENDCL']],
  ],
};
// v3 = the CANN 9 driver that also prints process totals.
LAYOUTS.v3 = [...LAYOUTS.v2, ['DEV_PROC_MEM', true, 'total', ['APP', 'RUNTIME']]];

/** Process roles in one rank's folder, in start order: [process name, share of the rank's bytes]. */
const ROLES = [
  ['ascend-dmi', 0.04],
  ['python3', 0.82],
  ['python3.9', 0.1],
  ['main_aarch64', 0.04],
];
/** Generations cycle over processes, so any corpus with at least 4 processes has every one. */
const GENERATIONS = ['v1', 'v2', 'v3', 'v0'];

const KERNEL_NAMES = [
  'MatMulV2_7f1e2a',
  'Add_0b3c',
  'Mul_9a1d',
  'Cast_44e0',
  'Transpose_21aa',
  'LayerNormV3_5c2f',
  'SoftmaxV2_e1d0',
  'FlashAttentionScore_b7c3',
  'RmsNorm_09ff',
  'ReduceSum_d2e4',
  'Gelu_3a3a',
  'BatchMatMulV2_6b10',
  'ApplyAdamW_c0de',
  'RotaryMul_1f2e',
  'Conv2D_aa01',
  'TransData_5e5e',
];
const OPS = ['HcclAllReduce', 'HcclAllGather', 'HcclReduceScatter', 'HcclBroadcast'];
const DTYPES = ['float16', 'float32', 'bfloat16', 'int32'];
const ACL_APIS = [
  'aclrtSetDevice',
  'aclrtCreateStream',
  'aclrtSynchronizeStream',
  'aclmdlExecuteAsync',
  'aclrtMemcpyAsync',
  'aclopCompileAndExecute',
];

// Ordinary log lines: [weight, level, module, tail(rng, proc)]. Total lengths fall between ~150 and ~300 bytes.
const NOISE = [
  [
    14,
    'DEBUG',
    'RUNTIME',
    (r, p) =>
      `[kernel_task.cc:1077]${p.pid} ${p.tid + r.int(4)} KernelLaunch:stream_id=${r.int(64)}, task_id=${r.int(65536)}, kernel_name=${r.pick(KERNEL_NAMES)}_${r.int(900) + 100}, block_dim=${r.range(1, 48)}, args_size=${r.range(64, 4096)}, is_fusion=0, device_id=${p.device}`,
  ],
  [
    8,
    'INFO',
    'RUNTIME',
    (r, p) =>
      `[stream.cc:1503]${p.tid} Setup:stream_id=${r.int(64)}, device_id=${p.device}, priority=0, flags=0x${r.int(16).toString(16)}, sq_id=${r.int(1024)}, cq_id=${r.int(64)}, group_id=0, is_ctrl=0, model_id=4294967295, sq_depth=2048`,
  ],
  [
    10,
    'DEBUG',
    'RUNTIME',
    (r, p) =>
      `[api_impl.cc:2148]${p.tid} MemcpyAsync:dst=0x12c0${r.hex(8)}, dest_max=${r.range(512, 1 << 30)}, src=0xfffe${r.hex(8)}, count=${r.range(512, 1 << 28)}, kind=${r.int(4)}, stream_id=${r.int(64)}, qos=0, partid=0`,
  ],
  [
    9,
    'INFO',
    'HCCL',
    (r, p) =>
      `[op_base.cc:1024][${p.pid}]Entry-${r.pick(OPS)}:tag[${r.pick(OPS)}_192.168.100.10${p.rank % 10}%enp189s0f0_60000_0_17567${r.hex(6)}], sendBuf[0x12c0${r.hex(8)}], recvBuf[0x12c0${r.hex(8)}], count[${r.range(1, 1 << 26)}], dataType[${r.pick(DTYPES)}], op[sum], localRank[${p.rank}], streamId[${r.int(64)}], deviceLogicId[${p.device}]`,
  ],
  [
    6,
    'TRACE',
    'HCCL',
    (r, p) =>
      `[status:running] [hccl_communicator.cc:${r.range(1000, 4000)}][hccl-${p.pid}-0-1756728000-hccl_world_group][${r.int(8)}]Executor run success,take time [${r.range(10, 90000)}]us, tag[AllReduce_${r.hex(12)}], rankNum[${p.ranks}], rank[${p.rank}], device[${p.device}]`,
  ],
  [
    3,
    'INFO',
    'HCCL',
    (r, p) =>
      `[network_manager.cc:561] [${p.pid}][Start][Vnic]Listen on ip[192.168.2.${190 + (p.device % 60)}], port[${16666 + r.int(4)}] sucess, devPhyId[${p.device}], devLogicId[${p.device}], isAutoPort[0]`,
  ],
  [
    7,
    'INFO',
    'GE',
    (r, p) =>
      `[graph_manager.cc:3921]${p.tid} PreRun:Graph[${r.int(200)}] (name:online_${r.int(200)}) preprocess stage done, session_id=${r.int(8)}, build_mode=0, time_cost=${r.range(10, 900000)}us`,
  ],
  [
    6,
    'DEBUG',
    'GE',
    (r, p) =>
      `[model_executor.cc:541]${p.tid} RunGraph:start to run graph ${r.int(200)}, session_id=${r.int(8)}, iterations_per_loop=1, run_flag=1, input_num=${r.range(1, 64)}, data_size=${r.range(1024, 1 << 30)}`,
  ],
  [
    4,
    'INFO',
    'TBE',
    (r) =>
      `[tbe_op_compile.cc:${r.range(100, 999)}] compile op success, op_type=${r.pick(KERNEL_NAMES).split('_')[0]}, kernel_name=te_${r.pick(KERNEL_NAMES).toLowerCase()}_${r.hex(16)}, compile_time=${r.range(1, 9000)}ms, cache_hit=${r.int(2)}, soc_version=Ascend910B1`,
  ],
  [
    6,
    'INFO',
    'ASCENDCL',
    (r, p) =>
      `[acl.cpp:${r.range(100, 2000)}]${p.tid} ${r.pick(ACL_APIS)}:start to execute ${r.pick(ACL_APIS)}, device_id=${p.device}, stream=0x${r.hex(12)}, ret=0, time_cost=${r.range(1, 5000)}us`,
  ],
  [
    3,
    'DEBUG',
    'DRV',
    (r, p) =>
      `[ascend][curpid: ${p.pid}, ${p.tid}][drv][devmm][devmm_ioctl_alloc 512]alloc success. (devid=${p.device}; va=0x12c0${r.hex(8)}; size=${r.range(1, 1 << 20) * 4096}; flag=0x${r.hex(4)}; page_size=2097152)`,
  ],
  [
    1,
    'WARNING',
    'RUNTIME',
    (r, p) =>
      `[engine.cc:${r.range(500, 1500)}]${p.tid} ReportStatusFailProc:Task run timeout warning, device_id=${p.device}, stream_id=${r.int(64)}, task_id=${r.int(65536)}, timeout=${r.range(1, 30)}s, still waiting for completion`,
  ],
];
const NOISE_TOTAL = NOISE.reduce((s, n) => s + n[0], 0);
const NOISE_TABLE = [];
for (const n of NOISE) for (let i = 0; i < n[0]; i++) NOISE_TABLE.push(n);

/** A GE line that says "Mem stats" but is no driver record. */
function decoyLine(r, p, clock) {
  return `[INFO] GE(${p.pid},${p.name}):${clock.stamp()} [graph_mem_assigner.cc:${r.range(300, 2000)}]${p.tid} AssignMemory:Mem stats of graph ${r.int(200)}: feature_map_size=${r.range(1, 1 << 30)}, weight_size=${r.range(1, 1 << 30)}, zero_copy_size=${r.range(0, 1 << 20)}, total_size=${r.range(1, 1 << 31)}`;
}

function startupLines(r, p, clock) {
  const pfx = (lvl, mod) => `[${lvl}] ${mod}(${p.pid},${p.name}):${clock.stamp()} `;
  return [
    `${pfx('INFO', 'HCCL')}[externalinput.cc:407] [${p.pid}]HCCL_CONNECT_TIMEOUT set by environment to [120]s`,
    `${pfx('INFO', 'HCCL')}[externalinput.cc:985] [${p.pid}]HCCL_EXEC_TIMEOUT set by environment to [600]s`,
    `${pfx('INFO', 'HCCL')}[topoinfo_detect.cc:506] [${p.pid}][HCCL_TRACE][Flat]SetupAgent rankNum[${p.ranks}], rank[${p.rank}], rootInfo identifier[51.38.67.141%enp189s0f0_60000_0_17567280006734${P2[r.int(100)]}], server[51.38.67.143%enp189s0f0], serverPort[60000]deviceType[2], logicDevId[${p.device}], phydevId[${p.device}], deviceIp[192.168.100.${200 + (p.device % 50)}]`,
    `${pfx('TRACE', 'HCCL')}[status:init] [hcom.cc:196][hccl-${p.pid}-0-1756728000-hccl_world_group][3]hcom init by file success,take time [${r.range(100000, 2000000)}]us, rankTablePath[/home/ma-user/work/rank_table_${p.ranks}p.json], rankNum[${p.ranks}], rank[${p.rank}],server[51.38.68.155], device[${p.device}]`,
  ];
}

function allocFailureLine(r, p, clock) {
  const fn = r.pick(['DevMemAllocHugePageManaged', 'DevMemAlloc', 'DevMemAllocManaged']);
  return `[ERROR] RUNTIME(${p.pid},${p.name}):${clock.stamp()} [npu_driver.cc:1100]${p.tid} ${fn}:[INIT][DEFAULT][drv api] halMemAlloc failed:size=${r.range(1, 4096) * 2 * MiB}(Byte), type=2, moduleId=${r.pick([7, 33, 3])}, drvFlag=18374686479671772161, drvRetCode=6, device_id=${p.device}!`;
}

/**
 * The allocation-failure shapes of FORMATS.md "Variants found in real logs", damaged pastes included: the line, and
 * the device a parser must count it on (null: the line names none).
 */
const FAILURE_SHAPES = [
  (r, p, t) => [allocFailureLine(r, p, t), p.device],
  (r, p, t) => [
    `[ERROR] RUNTIME(${p.pid},${p.name}):${t.stamp()} [npu_driver.cc:1100]${p.tid} DevMemAlloc:[drv api] halMemAlloc failed:size=${r.range(1, 4096) * 2 * MiB}(bytes), type=2, drvRetCode=6, device_id=${p.device}!`,
    p.device,
  ],
  (r, p, t) => [
    `[ERROR] RUNTIME(${p.pid},${p.name}):${t.stamp()} [npu_driver.cc:1152]${p.tid} DevMemAllocManaged:device_id=${p.device}, ErrCode=207001, desc=[driver error:out of memory], size=${r.range(1, 4096) * 2 * MiB}`,
    p.device,
  ],
  (r, p, t) => [
    `[ERROR] RUNTIME(${p.pid},${p.name}):${t.stamp()} [npu_driver.cc:1093]${p.tid} MallocPhysical:Call driver api halMemAlloc failed, drvRetCode=6, drvDevId=${p.device}, size=${r.range(1, 4096) * 2 * MiB}`,
    p.device,
  ],
  (r, p, t) => [
    `ERR0R] RUNTIME(${p.pid},${p.name}):${t.stamp()} [npu_driver.cc:1100]${p.tid} DevMemAlloc:halMemAlloc failed:size=${r.range(1, 4096) * 2 * MiB}(Byte), drvRetCode=6, device_id=${p.device}!`,
    p.device,
  ],
  (r, p, t) => [
    `ERROR] RUNTIME(${p.pid},${p.name}):${t.stamp()} [npu_driver.cc:1100]${p.tid} DevMemAlloc:halMemAlloc failed:size=${r.range(1, 4096) * 2 * MiB}(Byte), drvRetCode=6, device_id ${p.device}!`,
    p.device,
  ],
  (r, p, t) => [
    `[ERROR] PTA(${p.pid},${p.name}):${t.stamp()} [acl_rt.cpp:88]${p.tid} Memory_Allocation_Failure(EL0004): Failed to allocate memory.`,
    null,
  ],
];

/** The text of one record, in its generation's shape. */
function recordText(gen, level, p, clock, rec) {
  const pfx = `[${level}] DRV(${p.pid},${p.name}):${clock.stamp()} `;
  const dev = rec.device === null ? '' : ` dev${rec.device}`;
  const id = MODULE_IDS[rec.module];
  if (gen === 'v0') {
    return `${pfx}[ascend][curpid: ${p.pid}, ${p.tid}][drv][devmm][_svm_mem_stats_show 154]${rec.attr}${dev} mem stats(Bytes): module_name=${rec.module}, module_id=${id} current_alloced_size=${rec.current}, alloced_peak_size=${rec.peak}.`;
  }
  if (gen === 'v1') {
    return `${pfx}[ascend][curpid: ${p.pid}, ${p.tid}][drv][devmm][_svm_mem_stats_show 148]${rec.attr}${dev} Mem stats (Bytes). (module_name=${rec.module}; module_id=${id}; current_alloced_size=${rec.current}; alloced_peak_size=${rec.peak}; alloc_cnt=${rec.allocs}; free_cnt=${rec.frees})`;
  }
  const where = rec.kind === 'cached' ? 162 : 150;
  const head = `${pfx}[svm_mem_statistics.c:${where}][ascend][curpid:${p.pid},${p.pid}][drv][devmm][_svm_mem_stats_show]${rec.attr}${dev}`;
  if (rec.kind === 'cached') return `${head} Cached_size:${rec.peak}Bytes`;
  if (rec.kind === 'total')
    return `${head} Mem stats (Bytes). (module_name=${rec.module}; module_id=${id}; total_size=${rec.peak})`;
  return `${head} Mem stats (Bytes). (module_name=${rec.module}; module_id=${id}; current_alloced_size=${rec.current}; allocated_peak_size=${rec.peak}; alloc_cnt=${rec.allocs}; free_cnt=${rec.frees})`;
}

/** A v1 record broken over lines as a log viewer copies it (the break patterns of the seed document). */
function wrappedV1(level, p, clock, rec, style) {
  const pfx = `[${level}] DRV(${p.pid},${p.name}):${clock.stamp()} [ascend][curpid: ${p.pid}, ${p.tid}][drv][devmm][_svm_`;
  const devWord = rec.device === null ? '' : `dev${rec.device} `;
  const id = MODULE_IDS[rec.module];
  if (style === 0) {
    return [
      pfx,
      'mem_stats',
      '_show 148]',
      rec.attr,
      `${devWord}Mem stats (Bytes). (`,
      `module_name=${rec.module}`,
      `; module_id=${id}; current_alloced_size=${rec.current}; alloced_peak_size=${rec.peak}; alloc_cnt=${rec.allocs}; free_cnt=${rec.frees})`,
    ];
  }
  const dev = rec.device === null ? '' : ` dev${rec.device}`;
  const head = [pfx, 'mem_stats', `_show 148]${rec.attr}${dev} Mem stats (Bytes). (module_name=`, rec.module];
  if (style === 1) {
    return [
      ...head,
      `; module_id=${id}; current_alloced_size=`,
      String(rec.current),
      `; alloced_peak_size=${rec.peak}; alloc_cnt=${rec.allocs}; free_cnt=${rec.frees})`,
    ];
  }
  return [
    ...head,
    `; module_id=${id}; current_alloced_size=${rec.current}; alloced_peak_size=`,
    String(rec.peak),
    `; alloc_cnt=${rec.allocs}; free_cnt=${rec.frees})`,
  ];
}

/** Cuts a record inside its body, before the peak: what a process killed mid-write leaves. */
function truncate(text, r) {
  const at = text.indexOf(text.includes('total_size=') ? 'total_size=' : 'current_alloced_size=');
  const valueStart = text.indexOf('=', at) + 1;
  return text.slice(0, valueStart + r.range(0, 3));
}

/** One process's memory state: peaks only grow, and no two records of one key in the corpus share a peak. */
class ProcessMemory {
  /** growth: a dump raises each peak by up to 1/growth (record-dense runs dump thousands of times: a small step). */
  constructor(gen, device, scale, r, usedPeaks, growth = 10) {
    this.growth = growth;
    this.entries = [];
    // v0 prints no counts: its records carry allocs/frees null.
    this.counts = gen !== 'v0';
    for (const [attr, onDevice, kind, modules] of LAYOUTS[gen]) {
      for (const module of modules) {
        const [lo, hi] =
          kind === 'cached'
            ? [1e6, 2e9]
            : kind === 'total'
              ? module === 'APP'
                ? [2e9, 6.4e10]
                : [2e7, 9e7]
              : PEAK_RANGE[module];
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
    this.r = r;
    this.usedPeaks = usedPeaks;
  }
  /** The records of the next dump, each with a larger peak than in the last dump. */
  dump() {
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

/** Writes one process's plog files (rotated) and records what a parser must read from them. */
function writeProcess(ctx, p) {
  const { o, expected } = ctx;
  const r = new Rng(o.seed, 0x504c4f47, p.rank, p.role);
  const clock = new LogClock(p.startUs);
  const eol = p.crlf ? '\r\n' : '\n';
  const dir = join(o.out, 'plog', `rank_${p.rank}`);
  let file = null;
  const openNext = () => {
    if (file) file.close();
    file = new BatchedFile(join(dir, `plog-${p.pid}_${clock.fileStamp()}.log`), eol);
    expected.files++;
    ctx.plogFiles++;
  };
  openNext();
  let written = 0;
  /** Where the last line written lies, as `parse --plog <out>/plog` names it. */
  const here = (text) => ({
    file: relative(join(o.out, 'plog'), file.path).split(sep).join('/'),
    line: file.lines,
    text: siteText(text),
  });
  /** Writes whole lines; rotation happens only between units, so no record is split across files. */
  const emit = (lines) => {
    if (file.bytes >= o.rotateBytes) openNext();
    for (const l of lines) {
      file.line(l);
      written += l.length + eol.length;
    }
  };
  const noise = () => {
    clock.advance(r.range(1, 3000));
    if (r.next() < 1 / 40000) return decoyLine(r, p, clock);
    const [, level, module, tail] = NOISE_TABLE[Math.floor(r.next() * NOISE_TOTAL)];
    return `[${level}] ${module}(${p.pid},${p.name}):${clock.stamp()} ${tail(r, p)}`;
  };
  const memory = new ProcessMemory(p.gen, p.device, p.appScale, r, ctx.usedPeaks, o.recordShare > 0 ? 4000 : 10);
  const accept = (rec) => {
    expected.addModule(
      rec.key,
      { peak: rec.peak, current: rec.current, allocs: rec.allocs, frees: rec.frees },
      rec.device,
    );
    ctx.plogRecords++;
  };

  /** One dump: [LEVEL] records, a few glued or wrapped; a killed process stops mid-record. Returns its record count. */
  const dump = (level, { glue = false, wrap = false, killed = false } = {}) => {
    const recs = memory.dump();
    // A kill lands inside a Mem stats record (a cut Cached_size line would carry no record head).
    const cuttable = recs.map((x, i) => (x.kind === 'cached' ? -1 : i)).filter((i) => i >= recs.length / 3);
    const cutAt = killed ? r.pick(cuttable) : -1;
    const glueAt = glue ? r.range(0, recs.length - 2) : -1;
    const v1Stats = recs.map((x, i) => (x.kind === 'stats' && p.gen === 'v1' ? i : -1)).filter((i) => i >= 0);
    const wrapAt = new Set(wrap ? [r.pick(v1Stats), r.pick(v1Stats)] : []);
    if (r.chance(0.5)) emit([decoyLine(r, p, clock)]);
    for (let i = 0; i < recs.length; i++) {
      clock.advance(r.range(5, 15));
      const rec = recs[i];
      if (i === cutAt) {
        const cut = truncate(recordText(p.gen, level, p, clock, rec), r);
        if (file.bytes >= o.rotateBytes) openNext();
        file.raw(cut); // no line ending: the process died here
        written += cut.length;
        expected.skipped++;
        ctx.truncated++;
        return i;
      }
      if (i === glueAt && i + 1 !== cutAt) {
        const first = recordText(p.gen, level, p, clock, rec);
        clock.advance(r.range(5, 15));
        emit([first + recordText(p.gen, level, p, clock, recs[i + 1])]);
        accept(rec);
        accept(recs[i + 1]);
        ctx.glued++;
        i++;
        continue;
      }
      if (wrapAt.has(i)) {
        emit(wrappedV1(level, p, clock, rec, ctx.wrapped % 3));
        ctx.wrapped++;
      } else {
        emit([recordText(p.gen, level, p, clock, rec)]);
      }
      accept(rec);
    }
    return recs.length;
  };

  /** Record-dense runs: 1-3 failure lines of any shape, each counted once on its device. */
  const failureBurst = () => {
    const n = r.range(1, 3);
    for (let k = 0; k < n; k++) {
      clock.advance(r.range(10, 200));
      const [line, device] = r.pick(FAILURE_SHAPES)(r, p, clock);
      emit([line]);
      expected.addAllocFailure(device === null ? 'unknown' : `dev${device}`, here(line));
      ctx.allocFailures++;
    }
  };

  emit(startupLines(r, p, clock));
  // Record-dense runs dump their statistics throughout: after about noisePerRecord noise lines per record of the last dump.
  const noisePerRecord = o.recordShare > 0 ? (1 - o.recordShare) / o.recordShare : Infinity;
  let noiseSinceDump = 0;
  let lastDump = 0;
  const failAt = p.failures ? [0.35, 0.7].map((f) => Math.floor(p.budget * f)) : [];
  const lines = [];
  while (written < p.budget - 8 * KiB) {
    if (failAt.length > 0 && written >= failAt[0]) {
      failAt.shift();
      const n = r.range(1, 3);
      for (let k = 0; k < n; k++) {
        clock.advance(r.range(10, 200));
        const failure = allocFailureLine(r, p, clock);
        let line = failure;
        // The first failure of a process is glued to the next line, as when a collector lost a newline.
        if (k === 0 && failAt.length === 1 && p.glueFailure) {
          line += noise();
          ctx.glued++;
        }
        emit([line]);
        expected.addAllocFailure(`dev${p.device}`, here(failure));
        ctx.allocFailures++;
      }
      dump('ERROR', { glue: false, wrap: false });
      continue;
    }
    if (noiseSinceDump >= lastDump * noisePerRecord && written < p.budget - 64 * KiB) {
      if (r.chance(0.25)) failureBurst();
      lastDump = dump(p.level, { glue: r.chance(0.3), wrap: p.gen === 'v1' && r.chance(0.3) });
      noiseSinceDump = 0;
      continue;
    }
    // Batches of noise between checks keep the loop cheap; 64 lines are far below the rotation size.
    for (let k = 0; k < 64; k++) lines[k] = noise();
    emit(lines);
    noiseSinceDump += 64;
  }
  if (p.dumps) dump(p.level, { glue: p.glue, wrap: p.gen === 'v1' && !p.killed, killed: p.killed });
  file.close();
  ctx.plogBytes += written;
}

function writePlogTree(o, usedPeaks) {
  const expected = new ExpectedSnapshot();
  const ctx = {
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
  const pids = new Set();
  let g = 0;
  for (let rank = 0; rank < o.ranks; rank++) {
    mkdirSync(join(o.out, 'plog', `rank_${rank}`), { recursive: true });
    const roles = Array.from({ length: perProcess }, (_, i) => ROLES[i % ROLES.length]);
    const shareSum = roles.reduce((s, x) => s + x[1], 0);
    let startUs = JOB_START_US + rank * 1_500_000;
    for (let role = 0; role < perProcess; role++, g++) {
      let pid;
      do pid = pidRng.range(10000, 4_000_000);
      while (pids.has(pid));
      pids.add(pid);
      const budget = Math.max(16 * KiB, Math.floor((rankBytes * roles[role][1]) / shareSum));
      const p = {
        rank,
        role,
        ranks: o.ranks,
        device: rank % o.devices,
        pid,
        tid: pid + 7,
        name: roles[role][0],
        gen: GENERATIONS[g % GENERATIONS.length],
        level: g % 5 === 2 ? 'EVENT' : 'INFO',
        failures: g % 3 === 1,
        glueFailure: g % 6 === 1,
        killed: g % 7 === 3,
        dumps: g % 8 !== 6,
        glue: g % 2 === 0,
        crlf: g % 6 === 0,
        appScale: role === 1 ? 1 : 0.1,
        budget,
        startUs,
      };
      writeProcess(ctx, p);
      // Each process starts after the previous one; log lines advance 1.5 ms on average.
      startUs += Math.ceil((budget / 220) * 1500) + 2_000_000;
    }
  }
  return { expected, stats: ctx };
}

// ---------------------------------------------------------------------------------------------
// memory_compare CSVs

const HEADERS = {
  current: [',,,Base,Compare', 'Event,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)'],
  mid2025: [',,Base,Compare', 'Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)'],
  feb2025: [',,Base,Compare', 'Name,Device Id,Allocated Memory,Allocated Memory,Diff Memory'],
};

/** Operator and kernel names as the tool writes them; a few need RFC 4180 quoting. */
function kernelPool(r) {
  const ops = [
    'addmm',
    'mm',
    't',
    'detach',
    'view',
    'sum.dim_IntList',
    'mse_loss',
    'mse_loss_backward',
    '_to_copy',
    'ones_like',
    '_foreach_add_.List',
    'native_layer_norm',
    'gelu',
    'softmax.int',
    'embedding',
    'bmm',
    'add.Tensor',
    'mul.Tensor',
  ];
  const kernels = [
    'MatMulV2',
    'Add',
    'Mul',
    'Cast',
    'Transpose',
    'LayerNormV3',
    'SoftmaxV2',
    'FlashAttentionScore',
    'RmsNorm',
    'ReduceSum',
    'Gelu',
    'BatchMatMulV2',
    'ApplyAdamW',
    'RotaryMul',
    'Conv2D',
    'TransData',
    'Slice',
    'ConcatD',
    'Gather',
    'matmul_v1',
  ];
  const pool = [];
  for (const op of ops) pool.push({ name: `torch._ops.aten.${op}.default`, event: 'OP_LAUNCH' });
  for (const op of ops)
    pool.push({
      name: `aclnn${op
        .split(/[._]/)
        .filter(Boolean)
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join('')}`,
      event: 'OP_LAUNCH',
    });
  for (const k of kernels)
    for (let v = 0; v < 18; v++) pool.push({ name: `${k}_${r.hex(6)}_${v}`, event: 'KERNEL_LAUNCH' });
  pool.push({ name: 'matmul_v1', event: 'KERNEL_LAUNCH' });
  pool.push({ name: 'MatMul,BiasAdd_fused_0', event: 'KERNEL_LAUNCH' });
  pool.push({ name: 'aclnnIndexPut_IndexPutV2, accumulate=True', event: 'OP_LAUNCH' });
  pool.push({ name: 'Slice_"begin"_"end"_3', event: 'KERNEL_LAUNCH' });
  // Names launched under both events: the snapshot keeps the first one seen.
  pool.push({ name: 'aclnnInplaceCopy', event: null });
  pool.push({ name: 'HcomAllReduce_1', event: null });
  for (const k of pool) k.typical = r.logRange(512, 2e10);
  return pool;
}

/** Names that need RFC 4180 quoting (commas, quotes), as fused and parameterised operators are named. */
function quotedPool(r) {
  const pool = [];
  for (let i = 0; i < 24; i++) {
    pool.push({ name: `MatMul,BiasAdd_fused_${r.hex(4)}_${i}`, event: 'KERNEL_LAUNCH' });
    pool.push({ name: `aclnnIndexPut_IndexPutV${i}, accumulate=${i % 2 ? 'True' : 'False'}`, event: 'OP_LAUNCH' });
    pool.push({ name: `Slice_"begin"_"end"_${i}`, event: 'KERNEL_LAUNCH' });
    pool.push({ name: `Custom "${r.hex(6)}", axis=${i}`, event: null });
  }
  for (const k of pool) k.typical = r.logRange(512, 2e10);
  return pool;
}

function csvCell(s) {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One memory_compare row, and its effect on the file's per-kernel aggregates. */
function compareRow(r, k, device, withEvent, agg) {
  const u = r.next();
  const base = u < 0.015 ? null : Math.max(0, k.typical + r.range(-4096, 4096) * 512);
  let compare;
  if (u >= 0.015 && u < 0.03) compare = null;
  else if (r.chance(0.8)) compare = base ?? Math.max(0, k.typical + r.range(-4096, 4096) * 512);
  else compare = Math.max(0, (base ?? k.typical) + r.range(-2048, 4096) * 4096);
  const diff = (compare ?? 0) - (base ?? 0);
  const event = k.event ?? (r.chance(0.5) ? 'KERNEL_LAUNCH' : 'OP_LAUNCH');
  const key = `dev${device}/${k.name}`;
  let a = agg.get(key);
  if (!a) agg.set(key, (a = { diff: 0, rows: 0, added: 0, removed: 0, event: withEvent ? event : null }));
  a.diff += diff;
  a.rows++;
  if (base === null) a.added++;
  if (compare === null) a.removed++;
  const cells = [
    csvCell(k.name),
    String(device),
    base === null ? 'N/A' : String(base),
    compare === null ? 'N/A' : String(compare),
    String(diff),
  ];
  return (withEvent ? `${event},` : '') + cells.join(',');
}

/** Launch order per device, many repeats of each name: a skewed pick over the pool. */
function writeCompareCsv(
  path,
  r,
  pool,
  rows,
  devices,
  shape,
  { eol = '\n', bom = false, quoted = null, quotedShare = 0 } = {},
) {
  const out = new BatchedFile(path, eol);
  const agg = new Map();
  if (bom) out.bytesRaw(Buffer.from([0xef, 0xbb, 0xbf]));
  for (const h of HEADERS[shape]) out.line(h);
  const withEvent = shape === 'current';
  for (let d = 0; d < devices; d++) {
    const n = Math.floor(rows / devices) + (d < rows % devices ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const x = r.next();
      const k =
        quotedShare > 0 && r.next() < quotedShare
          ? quoted[Math.floor(x * quoted.length)]
          : pool[Math.floor(x * x * pool.length)];
      out.line(compareRow(r, k, d, withEvent, agg));
    }
  }
  return { out, agg };
}

function compareExpected(files) {
  const exp = new ExpectedSnapshot();
  for (const { agg, rows } of files) {
    exp.files++;
    exp.records += rows;
    for (const [key, v] of agg) {
      exp.addKernel(key, v);
      exp.noteDevice(key.slice(0, key.indexOf('/')));
    }
  }
  return exp;
}

function writeCompare(o) {
  const r = new Rng(o.seed, 0x43535631);
  const pool = kernelPool(r);
  const quoted = o.quotedShare > 0 ? quotedPool(new Rng(o.seed, 0x51554f54)) : null;
  const { out, agg } = writeCompareCsv(join(o.out, CSV_NAME), r, pool, o.csvRows, o.devices, 'current', {
    quoted,
    quotedShare: o.quotedShare,
  });
  const bytes = out.bytes;
  out.close();
  const result = { expected: compareExpected([{ agg, rows: o.csvRows }]), bytes, legacy: null };
  if (!o.legacyCsv) return result;

  // The two older header generations: small files with overlapping keys, so "larger diff wins" is exercised.
  mkdirSync(join(o.out, 'compare-legacy'), { recursive: true });
  const lr = new Rng(o.seed, 0x4c454731);
  const legacyDevices = Math.min(o.devices, 2);
  const a = writeCompareCsv(
    join(o.out, 'compare-legacy', LEGACY_CSV_NAMES[0]),
    lr,
    pool.slice(0, 80),
    3000,
    legacyDevices,
    'mid2025',
  );
  const b = writeCompareCsv(
    join(o.out, 'compare-legacy', LEGACY_CSV_NAMES[1]),
    lr,
    pool.slice(0, 80),
    2000,
    legacyDevices,
    'feb2025',
    { eol: '\r\n', bom: true },
  );
  let extra = 0;
  for (const [key, v] of b.agg) {
    const other = a.agg.get(key);
    if (other && other.diff === v.diff) {
      // Break the tie with one more launch in the later file: +4096 bytes.
      const slash = key.indexOf('/');
      b.out.line(`${csvCell(key.slice(slash + 1))},${key.slice(3, slash)},4096,8192,4096`);
      v.diff += 4096;
      v.rows++;
      extra++;
    }
  }
  a.out.close();
  b.out.close();
  result.legacy = compareExpected([
    { agg: a.agg, rows: 3000 },
    { agg: b.agg, rows: 2000 + extra },
  ]);
  return result;
}

// ---------------------------------------------------------------------------------------------

/**
 * Writes the corpus and its expected snapshots into `opts.out`.
 * @param {import('./generate.d.mts').GenerateOptions} opts
 * @returns {Promise<import('./generate.d.mts').GenerateResult>}
 */
export async function generate(opts) {
  const o = normalizeOptions(opts);
  mkdirSync(join(o.out, 'plog'), { recursive: true });
  const usedPeaks = new Map();
  const { expected: plog, stats } = writePlogTree(o, usedPeaks);
  const write = (name, snapshot) => {
    const path = join(o.out, name);
    const fd = openSync(path, 'w');
    writeSync(fd, stableStringify(snapshot));
    closeSync(fd);
  };
  const plogSnapshot = plog.build();
  write('expected-plog.json', plogSnapshot);
  let compareSnapshot = null;
  let legacySnapshot = null;
  let csvBytes = 0;
  const all = new ExpectedSnapshot().merge(plog);
  if (o.csvRows > 0) {
    const cmp = writeCompare(o);
    csvBytes = cmp.bytes;
    compareSnapshot = cmp.expected.build();
    write('expected-compare.json', compareSnapshot);
    all.merge(cmp.expected);
    if (cmp.legacy) {
      legacySnapshot = cmp.legacy.build();
      write('expected-compare-legacy.json', legacySnapshot);
    }
  }
  const allSnapshot = all.build();
  write('expected.json', allSnapshot);
  return {
    out: o.out,
    plogDir: join(o.out, 'plog'),
    csvPath: o.csvRows > 0 ? join(o.out, CSV_NAME) : null,
    legacyDir: legacySnapshot ? join(o.out, 'compare-legacy') : null,
    options: { ...o },
    plog: {
      files: stats.plogFiles,
      bytes: stats.plogBytes,
      records: stats.plogRecords,
      truncated: stats.truncated,
      glued: stats.glued,
      wrapped: stats.wrapped,
      allocFailures: stats.allocFailures,
    },
    csv: { rows: o.csvRows, bytes: csvBytes },
    expected: { plog: plogSnapshot, compare: compareSnapshot, all: allSnapshot, legacy: legacySnapshot },
  };
}

// ---------------------------------------------------------------------------------------------
// torch_npu profiler memory_record.csv (A3 header): APP rows first, then the PTA / PTA+GE allocator stream

export const MEMORY_RECORD_NAME = 'rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv';
const MEMORY_RECORD_HEADER =
  'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\r\n';

/** k / 2048 MB as Python's float repr prints its fraction: `.0`, `.5`, `.00048828125` (k × 5^11 / 10^11, zeros trimmed). */
const MB_FRACTIONS = Array.from({ length: 2048 }, (_, k) => {
  if (k === 0) return '.0';
  return `.${String(k * 48828125)
    .padStart(11, '0')
    .replace(/0+$/, '')}`;
});

/** Bytes (a multiple of 512) as torch_npu writes bytes / 1024.0**2: `4599.74072265625`, `8664.0`. */
function mbText(bytes) {
  return `${Math.floor(bytes / MiB)}${MB_FRACTIONS[(bytes % MiB) / 512]}`;
}

/**
 * Writes a torch_npu memory_record.csv of about `bytes` bytes (CRLF, TAB after every timestamp, as the writer does)
 * for one device over one simulated hour, and returns the peaks a correct parser must find. Allocated memory walks
 * inside 1–9 GiB in 512-byte blocks, reserved follows it in 2 MiB segments, every PTA row is followed by its PTA+GE row.
 */
export function generateMemoryRecord({ path, bytes, seed = 42 }) {
  const target = parseSize(bytes);
  mkdirSync(join(path, '..'), { recursive: true });
  const fd = openSync(path, 'w');
  const r = new Rng(seed, 0x70a);
  const hourUs = 3600 * 1e6;
  const t0Us = 1_764_246_877_000_000;
  let text = MEMORY_RECORD_HEADER;
  let written = 0;
  let rows = 0;
  const flush = (force) => {
    if (force || text.length >= BATCH_BYTES) {
      writeSync(fd, text);
      written += text.length;
      text = '';
    }
  };
  const stamp = (us, ns) => `${us}.${P3[ns]}\t`;
  // APP: the driver's view, sampled every 20 ms, first in the file.
  let appPeak = 0;
  for (let us = 0; us < hourUs; us += 20_000) {
    const app = 12 * GiB + r.int(64) * 2 * MiB;
    if (app > appPeak) appPeak = app;
    text += `APP,${stamp(t0Us + us, r.int(1000))},,${mbText(app)},,,NPU:0\r\n`;
    rows++;
    flush(false);
  }
  // The allocator stream: about 2 × 78 bytes per event.
  const events = Math.max(1, Math.floor((target - 8 * MiB) / 156));
  const stepUs = hourUs / events;
  let allocated = 4 * GiB;
  let reserved = 6 * GiB;
  let allocatedPeak = 0;
  let reservedPeak = 0;
  for (let e = 0; e < events; e++) {
    const delta = r.int(131_072) * 512 * (r.chance(0.5) ? 1 : -1);
    allocated = Math.min(9 * GiB, Math.max(GiB, allocated + delta));
    if (allocated > reserved) reserved = Math.ceil(allocated / (2 * MiB)) * 2 * MiB;
    if (allocated > allocatedPeak) allocatedPeak = allocated;
    if (reserved > reservedPeak) reservedPeak = reserved;
    const t = stamp(t0Us + Math.floor(e * stepUs), r.int(1000));
    const a = mbText(allocated);
    const rest = `${a},${mbText(reserved)},${a},1431569360,NPU:0\r\n`;
    text += `PTA,${t},${rest}PTA+GE,${t},${rest}`;
    rows += 2;
    if (text.length >= BATCH_BYTES) {
      flush(true);
      if (written >= target) break;
    }
  }
  flush(true);
  closeSync(fd);
  const components = {};
  for (const c of ['PTA', 'PTA+GE']) {
    components[`dev0/${c}/active`] = { peak: allocatedPeak };
    components[`dev0/${c}/allocated`] = { peak: allocatedPeak };
    components[`dev0/${c}/reserved`] = { peak: reservedPeak };
  }
  components['dev0/APP/reserved'] = { peak: appPeak };
  return { path, rows, bytes: written, expected: { components: sortedObject(components), records: rows } };
}

function sortedObject(o) {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

function parseArgs(argv) {
  const names = {
    '--out': 'out',
    '--plog-bytes': 'plogBytes',
    '--ranks': 'ranks',
    '--csv-rows': 'csvRows',
    '--devices': 'devices',
    '--seed': 'seed',
    '--rotate-bytes': 'rotateBytes',
    '--record-share': 'recordShare',
    '--quoted-share': 'quotedShare',
  };
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag === '--no-legacy-csv') {
      opts.legacyCsv = false;
      continue;
    }
    if (flag === '--help' || flag === '-h') return null;
    const name = names[flag];
    if (!name) throw new Error(`unknown option ${flag}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    opts[name] = value;
  }
  return opts;
}

async function main() {
  const usage =
    'usage: node bench/generate.mjs --out DIR [--plog-bytes 1GiB] [--ranks 8] [--csv-rows 1000000] [--devices 8] [--seed 42] [--rotate-bytes 20MiB] [--no-legacy-csv] [--record-share 0.08] [--quoted-share 0.07]';
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`generate: ${e.message}\n${usage}`);
    process.exit(2);
  }
  if (opts === null || !opts.out) {
    console.error(usage);
    process.exit(opts === null ? 0 : 2);
  }
  const t0 = process.hrtime.bigint();
  const res = await generate(opts);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const e = res.expected.plog;
  console.log(
    `wrote ${relative(process.cwd(), res.out) || '.'}: ${res.plog.files} plog files, ${(res.plog.bytes / MiB).toFixed(1)} MiB, ` +
      `${res.plog.records} records (${Object.keys(e.modules).length} keys, ${res.plog.glued} glued lines, ${res.plog.wrapped} wrapped, ` +
      `${res.plog.truncated} truncated, ${res.plog.allocFailures} alloc failures); ` +
      `${res.csv.rows} CSV rows, ${(res.csv.bytes / MiB).toFixed(1)} MiB; in ${secs.toFixed(1)} s`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

// What the driver prints into plog: memory-statistics records in each driver generation's shape, wrapped, glued and cut
// ones, allocation failures in every shape of FORMATS.md, and the ordinary lines around them.
import type { Rng } from '../helpers/random.js';
import { MiB } from '../helpers/story.js';
import { P2, type LogClock } from './log-clock.js';

/** Driver generations: v0 (no counts), v1, v2 (Cached_size lines), v3 (CANN 9, process totals too). */
export type Generation = 'v0' | 'v1' | 'v2' | 'v3';

/** What one dump lists: [attribute, on a device?, kind, modules]. */
type LayoutEntry = [attr: string, onDevice: boolean, kind: RecordKind, modules: string[]];
/** 'stats' = a Mem stats record, 'cached' = a Cached_size line, 'total' = DEV_PROC_MEM total_size. */
export type RecordKind = 'stats' | 'cached' | 'total';

/** The process a line is written for. */
export interface PlogProcess {
  rank: number;
  ranks: number;
  device: number;
  pid: number;
  tid: number;
  name: string;
}

/** One record of a dump. */
export interface PlogRecord {
  attr: string;
  device: number | null;
  kind: RecordKind;
  module: string;
  key: string;
  peak: number;
  current: number;
  allocs: number | null;
  frees: number | null;
}

const MODULE_IDS: Record<string, number> = {
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
export const PEAK_RANGE: Record<string, [number, number]> = {
  APP: [1.5e9, 6.2e10],
  HCCL: [2e8, 1.6e9],
  RUNTIME: [1.6e7, 5e7],
  GE: [2e6, 1.2e8],
  AICPU_SCHEDULE: [1e6, 3e7],
  DVPP: [5e6, 5e8],
  HCCP_SCHEDULE: [1e6, 1e7],
  ASCENDCL: [1e5, 1e7],
};

const V2_LAYOUT: LayoutEntry[] = [
  ['HOST_MEM', false, 'stats', ['RUNTIME', 'APP']],
  ['HOST_MEM', false, 'cached', ['CACHED']],
  ['MEM_DEV_SMALL_HBM', true, 'stats', ['APP', 'RUNTIME', 'HCCL']],
  ['MEM_DEV_HUGE_HBM', true, 'stats', ['APP', 'HCCL', 'GE']],
  ['MEM_DEV_HUGE_HBM', true, 'cached', ['CACHED']],
  ['MEM_DEV_SMALL_DDR', true, 'stats', ['RUNTIME']],
  ['MEM_DEV_HUGE_P2P_HBM', true, 'stats', ['HCCL', 'HCCP_SCHEDULE']],
  ['MEM_DEV_SMALL_TS_DDR', true, 'stats', ['RUNTIME']],
  ['MEM_HOST', false, 'stats', ['APP', 'ASCENDCL']],
];

/** What one dump lists, per driver generation. */
export const LAYOUTS: Record<Generation, LayoutEntry[]> = {
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
  v2: V2_LAYOUT,
  // The CANN 9 driver that also prints process totals.
  v3: [...V2_LAYOUT, ['DEV_PROC_MEM', true, 'total', ['APP', 'RUNTIME']]],
};

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
const NOISE: [number, string, string, (r: Rng, p: PlogProcess) => string][] = [
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
const NOISE_TABLE: (typeof NOISE)[number][] = [];
for (const n of NOISE) for (let i = 0; i < n[0]; i++) NOISE_TABLE.push(n);

/** The next ordinary line after 1 µs to 3 ms, one in 40,000 a decoy. */
export function noiseLine(r: Rng, p: PlogProcess, clock: LogClock): string {
  clock.advance(r.range(1, 3000));
  if (r.next() < 1 / 40000) return decoyLine(r, p, clock);
  const [, level, module, tail] = NOISE_TABLE[Math.floor(r.next() * NOISE_TOTAL)] as (typeof NOISE)[number];
  return `[${level}] ${module}(${p.pid},${p.name}):${clock.stamp()} ${tail(r, p)}`;
}

/** A GE line that says "Mem stats" but is no driver record. */
export function decoyLine(r: Rng, p: PlogProcess, clock: LogClock): string {
  return `[INFO] GE(${p.pid},${p.name}):${clock.stamp()} [graph_mem_assigner.cc:${r.range(300, 2000)}]${p.tid} AssignMemory:Mem stats of graph ${r.int(200)}: feature_map_size=${r.range(1, 1 << 30)}, weight_size=${r.range(1, 1 << 30)}, zero_copy_size=${r.range(0, 1 << 20)}, total_size=${r.range(1, 1 << 31)}`;
}

export function startupLines(r: Rng, p: PlogProcess, clock: LogClock): string[] {
  const pfx = (lvl: string, mod: string): string => `[${lvl}] ${mod}(${p.pid},${p.name}):${clock.stamp()} `;
  return [
    `${pfx('INFO', 'HCCL')}[externalinput.cc:407] [${p.pid}]HCCL_CONNECT_TIMEOUT set by environment to [120]s`,
    `${pfx('INFO', 'HCCL')}[externalinput.cc:985] [${p.pid}]HCCL_EXEC_TIMEOUT set by environment to [600]s`,
    `${pfx('INFO', 'HCCL')}[topoinfo_detect.cc:506] [${p.pid}][HCCL_TRACE][Flat]SetupAgent rankNum[${p.ranks}], rank[${p.rank}], rootInfo identifier[51.38.67.141%enp189s0f0_60000_0_17567280006734${P2[r.int(100)]}], server[51.38.67.143%enp189s0f0], serverPort[60000]deviceType[2], logicDevId[${p.device}], phydevId[${p.device}], deviceIp[192.168.100.${200 + (p.device % 50)}]`,
    `${pfx('TRACE', 'HCCL')}[status:init] [hcom.cc:196][hccl-${p.pid}-0-1756728000-hccl_world_group][3]hcom init by file success,take time [${r.range(100000, 2000000)}]us, rankTablePath[/home/ma-user/work/rank_table_${p.ranks}p.json], rankNum[${p.ranks}], rank[${p.rank}],server[51.38.68.155], device[${p.device}]`,
  ];
}

export function allocFailureLine(r: Rng, p: PlogProcess, clock: LogClock): string {
  const fn = r.pick(['DevMemAllocHugePageManaged', 'DevMemAlloc', 'DevMemAllocManaged']);
  return `[ERROR] RUNTIME(${p.pid},${p.name}):${clock.stamp()} [npu_driver.cc:1100]${p.tid} ${fn}:[INIT][DEFAULT][drv api] halMemAlloc failed:size=${r.range(1, 4096) * 2 * MiB}(Byte), type=2, moduleId=${r.pick([7, 33, 3])}, drvFlag=18374686479671772161, drvRetCode=6, device_id=${p.device}!`;
}

/**
 * The allocation-failure shapes of FORMATS.md "Variants found in real logs", damaged pastes included: the line, and
 * the device a parser must count it on (null: the line names none).
 */
export const FAILURE_SHAPES: ((r: Rng, p: PlogProcess, t: LogClock) => [string, number | null])[] = [
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
export function recordText(gen: Generation, level: string, p: PlogProcess, clock: LogClock, rec: PlogRecord): string {
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
export function wrappedV1(level: string, p: PlogProcess, clock: LogClock, rec: PlogRecord, style: number): string[] {
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
export function truncate(text: string, r: Rng): string {
  const at = text.indexOf(text.includes('total_size=') ? 'total_size=' : 'current_alloced_size=');
  const valueStart = text.indexOf('=', at) + 1;
  return text.slice(0, valueStart + r.range(0, 3));
}

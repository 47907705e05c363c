// msLeaks/msMemScope memory_compare CSVs: the big current-header file and the two older header generations, with the
// snapshot a correct parser must read from them (per file, per device and name: diff summed; across files the larger wins).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '../helpers/random.js';
import { BatchedFile } from './batched-file.js';
import { ExpectedSnapshot, type KernelMetric } from './expected-snapshot.js';

export const CSV_NAME = 'memory_compare_20250901120000.csv';
const LEGACY_CSV_NAMES = Object.freeze([
  'memory_compare_20250601120000.csv',
  'stepintercompare_20250215120000.csv',
] as const);

/** What the CSVs depend on. */
export interface CompareOptions {
  out: string;
  csvRows: number;
  devices: number;
  seed: number;
  legacyCsv: boolean;
  quotedShare: number;
}

type HeaderShape = 'current' | 'mid2025' | 'feb2025';

const HEADERS: Record<HeaderShape, string[]> = {
  current: [',,,Base,Compare', 'Event,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)'],
  mid2025: [',,Base,Compare', 'Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)'],
  feb2025: [',,Base,Compare', 'Name,Device Id,Allocated Memory,Allocated Memory,Diff Memory'],
};

/** A launched name; event null: launched under both events. */
interface Launch {
  name: string;
  event: string | null;
  typical: number;
}

const OPS = [
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
const KERNELS = [
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

/** `sum.dim_IntList` → `aclnnSumDimIntList`. */
function aclnnName(op: string): string {
  return `aclnn${op
    .split(/[._]/)
    .filter(Boolean)
    .map((w) => (w[0] as string).toUpperCase() + w.slice(1))
    .join('')}`;
}

/** Operator and kernel names as the tool writes them; a few need RFC 4180 quoting. */
function kernelPool(r: Rng): Launch[] {
  const pool: Omit<Launch, 'typical'>[] = [];
  for (const op of OPS) pool.push({ name: `torch._ops.aten.${op}.default`, event: 'OP_LAUNCH' });
  for (const op of OPS) pool.push({ name: aclnnName(op), event: 'OP_LAUNCH' });
  for (const k of KERNELS)
    for (let v = 0; v < 18; v++) pool.push({ name: `${k}_${r.hex(6)}_${v}`, event: 'KERNEL_LAUNCH' });
  pool.push({ name: 'matmul_v1', event: 'KERNEL_LAUNCH' });
  pool.push({ name: 'MatMul,BiasAdd_fused_0', event: 'KERNEL_LAUNCH' });
  pool.push({ name: 'aclnnIndexPut_IndexPutV2, accumulate=True', event: 'OP_LAUNCH' });
  pool.push({ name: 'Slice_"begin"_"end"_3', event: 'KERNEL_LAUNCH' });
  // Names launched under both events: the snapshot keeps the first one seen.
  pool.push({ name: 'aclnnInplaceCopy', event: null });
  pool.push({ name: 'HcomAllReduce_1', event: null });
  return pool.map((k) => ({ ...k, typical: r.logRange(512, 2e10) }));
}

/** Names that need RFC 4180 quoting (commas, quotes), as fused and parameterised operators are named. */
function quotedPool(r: Rng): Launch[] {
  const pool: Omit<Launch, 'typical'>[] = [];
  for (let i = 0; i < 24; i++) {
    pool.push({ name: `MatMul,BiasAdd_fused_${r.hex(4)}_${i}`, event: 'KERNEL_LAUNCH' });
    pool.push({ name: `aclnnIndexPut_IndexPutV${i}, accumulate=${i % 2 ? 'True' : 'False'}`, event: 'OP_LAUNCH' });
    pool.push({ name: `Slice_"begin"_"end"_${i}`, event: 'KERNEL_LAUNCH' });
    pool.push({ name: `Custom "${r.hex(6)}", axis=${i}`, event: null });
  }
  return pool.map((k) => ({ ...k, typical: r.logRange(512, 2e10) }));
}

function csvCell(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One memory_compare row, and its effect on the file's per-kernel aggregates. */
function compareRow(r: Rng, k: Launch, device: number, withEvent: boolean, agg: Map<string, KernelMetric>): string {
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

interface CsvShape {
  pool: Launch[];
  rows: number;
  devices: number;
  shape: HeaderShape;
  eol?: string;
  bom?: boolean;
  quoted?: Launch[] | null;
  quotedShare?: number;
}

/** Launch order per device, many repeats of each name: a skewed pick over the pool. */
function writeCompareCsv(
  path: string,
  r: Rng,
  { pool, rows, devices, shape, eol = '\n', bom = false, quoted = null, quotedShare = 0 }: CsvShape,
): { out: BatchedFile; agg: Map<string, KernelMetric> } {
  const out = new BatchedFile(path, eol);
  const agg = new Map<string, KernelMetric>();
  if (bom) out.bytesRaw(Buffer.from([0xef, 0xbb, 0xbf]));
  for (const h of HEADERS[shape]) out.line(h);
  const withEvent = shape === 'current';
  for (let d = 0; d < devices; d++) {
    const n = Math.floor(rows / devices) + (d < rows % devices ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const x = r.next();
      const k =
        quotedShare > 0 && quoted !== null && r.next() < quotedShare
          ? quoted[Math.floor(x * quoted.length)]
          : pool[Math.floor(x * x * pool.length)];
      out.line(compareRow(r, k as Launch, d, withEvent, agg));
    }
  }
  return { out, agg };
}

function compareExpected(files: { agg: Map<string, KernelMetric>; rows: number }[]): ExpectedSnapshot {
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

/** The two older header generations: small files with overlapping keys, so "larger diff wins" is exercised. */
function writeLegacy(o: CompareOptions, pool: Launch[]): ExpectedSnapshot {
  mkdirSync(join(o.out, 'compare-legacy'), { recursive: true });
  const lr = new Rng(o.seed, 0x4c454731);
  const legacy = { pool: pool.slice(0, 80), devices: Math.min(o.devices, 2) };
  const [midName, febName] = LEGACY_CSV_NAMES;
  const a = writeCompareCsv(join(o.out, 'compare-legacy', midName), lr, { ...legacy, rows: 3000, shape: 'mid2025' });
  const b = writeCompareCsv(join(o.out, 'compare-legacy', febName), lr, {
    ...legacy,
    rows: 2000,
    shape: 'feb2025',
    eol: '\r\n',
    bom: true,
  });
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
  return compareExpected([
    { agg: a.agg, rows: 3000 },
    { agg: b.agg, rows: 2000 + extra },
  ]);
}

/** Writes `out/<CSV_NAME>` (and `out/compare-legacy/`): the snapshots a parser must read, and the big file's size. */
export function writeCompare(o: CompareOptions): {
  expected: ExpectedSnapshot;
  bytes: number;
  legacy: ExpectedSnapshot | null;
} {
  const r = new Rng(o.seed, 0x43535631);
  const pool = kernelPool(r);
  const quoted = o.quotedShare > 0 ? quotedPool(new Rng(o.seed, 0x51554f54)) : null;
  const { out, agg } = writeCompareCsv(join(o.out, CSV_NAME), r, {
    pool,
    rows: o.csvRows,
    devices: o.devices,
    shape: 'current',
    quoted,
    quotedShare: o.quotedShare,
  });
  const bytes = out.bytes;
  out.close();
  const expected = compareExpected([{ agg, rows: o.csvRows }]);
  return { expected, bytes, legacy: o.legacyCsv ? writeLegacy(o, pool) : null };
}

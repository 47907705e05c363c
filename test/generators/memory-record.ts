// torch_npu profiler memory_record.csv files (A3 header): a big one-device hour for the bench, with the peaks a correct
// parser must find, and small timelines of chosen levels for the growing verdict's tests.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '../helpers/random.js';
import { parseSize } from '../helpers/size.js';
import { GiB, MiB } from '../helpers/story.js';
import { BATCH_BYTES } from './batched-file.js';
import { P3 } from './log-clock.js';

/** `<rank>_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv`, relative to a corpus directory. */
export const MEMORY_RECORD_NAME = 'rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv';
const A3 = 'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type';

export interface MemoryRecordResult {
  path: string;
  /** Data rows written (APP, PTA and PTA+GE). */
  rows: number;
  bytes: number;
  /** What `parse --profiler` must find: the components section and meta.records. */
  expected: { components: Record<string, { peak: number }>; records: number };
}

/** k / 2048 MB as Python's float repr prints its fraction: `.0`, `.5`, `.00048828125` (k × 5^11 / 10^11, zeros trimmed). */
const MB_FRACTIONS = Array.from({ length: 2048 }, (_, k) => {
  if (k === 0) return '.0';
  return `.${String(k * 48828125)
    .padStart(11, '0')
    .replace(/0+$/, '')}`;
});

/** Bytes (a multiple of 512) as torch_npu writes bytes / 1024.0**2: `4599.74072265625`, `8664.0`. */
function mbText(bytes: number): string {
  return `${Math.floor(bytes / MiB)}${MB_FRACTIONS[(bytes % MiB) / 512]}`;
}

/** Rows gathered into one string and written in batches of BATCH_BYTES. */
class RowSink {
  text = `${A3}\r\n`;
  written = 0;
  rows = 0;

  constructor(private readonly fd: number) {}

  /** Writes the batch once it is full; true if it did. */
  flushIfFull(): boolean {
    if (this.text.length < BATCH_BYTES) return false;
    this.flush();
    return true;
  }
  flush(): void {
    writeSync(this.fd, this.text);
    this.written += this.text.length;
    this.text = '';
  }
}

const HOUR_US = 3600 * 1e6;
const T0_US = 1_764_246_877_000_000;
const stamp = (us: number, ns: number): string => `${us}.${P3[ns]}\t`;

/** APP: the driver's view, sampled every 20 ms, first in the file. Returns its peak. */
function writeAppRows(sink: RowSink, r: Rng): number {
  let appPeak = 0;
  for (let us = 0; us < HOUR_US; us += 20_000) {
    const app = 12 * GiB + r.int(64) * 2 * MiB;
    if (app > appPeak) appPeak = app;
    sink.text += `APP,${stamp(T0_US + us, r.int(1000))},,${mbText(app)},,,NPU:0\r\n`;
    sink.rows++;
    sink.flushIfFull();
  }
  return appPeak;
}

/** The allocator stream, about 2 × 78 bytes per event, until about `target` bytes. Returns its peaks. */
function writeAllocatorRows(sink: RowSink, r: Rng, target: number): { allocated: number; reserved: number } {
  const events = Math.max(1, Math.floor((target - 8 * MiB) / 156));
  const stepUs = HOUR_US / events;
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
    const t = stamp(T0_US + Math.floor(e * stepUs), r.int(1000));
    const a = mbText(allocated);
    const rest = `${a},${mbText(reserved)},${a},1431569360,NPU:0\r\n`;
    sink.text += `PTA,${t},${rest}PTA+GE,${t},${rest}`;
    sink.rows += 2;
    if (sink.flushIfFull() && sink.written >= target) break;
  }
  return { allocated: allocatedPeak, reserved: reservedPeak };
}

/**
 * Writes a torch_npu memory_record.csv of about `bytes` bytes (CRLF, TAB after every timestamp, as the writer does)
 * for one device over one simulated hour, and returns the peaks a correct parser must find. Allocated memory walks
 * inside 1–9 GiB in 512-byte blocks, reserved follows it in 2 MiB segments, every PTA row is followed by its PTA+GE row.
 */
export function generateMemoryRecord({
  path,
  bytes,
  seed = 42,
}: {
  path: string;
  bytes: number | string;
  seed?: number;
}): MemoryRecordResult {
  const target = parseSize(bytes);
  mkdirSync(join(path, '..'), { recursive: true });
  const fd = openSync(path, 'w');
  const r = new Rng(seed, 0x70a);
  const sink = new RowSink(fd);
  const appPeak = writeAppRows(sink, r);
  const peaks = writeAllocatorRows(sink, r, target);
  sink.flush();
  closeSync(fd);
  const components: Record<string, { peak: number }> = {};
  for (const c of ['PTA', 'PTA+GE']) {
    components[`dev0/${c}/active`] = { peak: peaks.allocated };
    components[`dev0/${c}/allocated`] = { peak: peaks.allocated };
    components[`dev0/${c}/reserved`] = { peak: peaks.reserved };
  }
  components['dev0/APP/reserved'] = { peak: appPeak };
  const sorted = Object.fromEntries(
    Object.keys(components)
      .sort()
      .map((k) => [k, components[k] as { peak: number }]),
  );
  return { path, rows: sink.rows, bytes: sink.written, expected: { components: sorted, records: sink.rows } };
}

const SECOND = 1_000_000; // µs

/**
 * A memory_record.csv of `windows` one-second windows (10 PTA rows each, plus one APP row), PTA allocated in MB given
 * by level(window, row); PTA reserved flat at 8192 MB, APP flat at 9000 MB. Window 0 starts at 1,700,000,000 s.
 */
export function memoryRecord(windows: number, level: (w: number, r: number) => number | null): string {
  const lines = [A3];
  const t0 = 1_700_000_000 * SECOND;
  for (let w = 0; w < windows; w++) {
    lines.push(`APP,${t0 + w * SECOND}.000\t,,9000.0,,,NPU:0`);
    for (let r = 0; r < 10; r++) {
      const mb = level(w, r);
      if (mb === null) continue;
      // Whole multiples of 1/1024 MB, as the allocator's 512-byte-aligned blocks give.
      const text = (Math.round(mb * 1024) / 1024).toString();
      lines.push(`PTA,${t0 + w * SECOND + r * 1000 + 500}.000\t,${text},8192.0,${text},2,NPU:0`);
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

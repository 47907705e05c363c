// One reader per memory table of the profilers: each folds rows into per-key peaks (and timelines) and hands them over at the end.
//
// Nothing here depends on row order: peaks are maxima, timelines keep window maxima. A file damaged by a spreadsheet
// (exponent notation where the writer prints plain decimals) gives a warning naming the file and line, and none of
// its figures, because the same re-save rounded its sizes to six digits.
import { components } from '../../model/sections/components.js';
import { graphs } from '../../model/sections/graphs.js';
import { deviceName } from '../../model/sections/keys.js';
import { modules } from '../../model/sections/modules.js';
import { operators } from '../../model/sections/operators.js';
import { SeriesBuilder } from '../../model/series.js';
import type { SkippedRecord, SnapshotBuilder } from '../../model/snapshot.js';
import { ParseError } from '../../common/errors.js';
import { visibleName } from '../escaped-utf8.js';
import { BEYOND_EXACT, exactSum } from '../../model/units.js';
import { StopReading, type Row } from './csv-rows.js';
import { cellBytes, cellMicros, MINDSPORE_MB, MIB, type ByteUnit } from './decimal.js';
import { columnOf, type KnownHeader } from './headers.js';

/** What a profiler parser fills: the SnapshotBuilder's parser API, as far as these files need it. */
export type ProfilerTarget = Pick<
  SnapshotBuilder,
  'add' | 'addSeries' | 'noteDevice' | 'addSkipped' | 'files' | 'records'
>;

/** Device segment for rows of the host (msprof `Device_id` = host, `CPU` device type). */
const HOST = 'host';

/** Components only MindSpore writes, and components only torch_npu writes: they decide the 6-column header's unit. */
const MINDSPORE_COMPONENTS = new Set(['MindSpore', 'MindSpore+GE']);
const TORCH_NPU_COMPONENTS = new Set(['PTA', 'PTA+GE', 'WORKSPACE']);

/** Shared by every table: device names, size cells and their problems, damage. */
export abstract class TableReader {
  rows = 0;
  private damage: SkippedRecord | null = null;
  private lastDeviceText = '';
  private lastDevice: string | null = null;

  constructor(
    protected readonly file: string,
    protected readonly header: KnownHeader,
    /** The path, for the device of files that name it only in a `device_<n>` folder. */
    protected readonly path: string,
    private readonly warn: (record: SkippedRecord) => void,
  ) {}

  /** Folds one data row in. */
  abstract row(r: Row): void;

  /** Hands the figures over. */
  protected abstract emit(into: ProfilerTarget): void;

  finish(into: ProfilerTarget): void {
    if (this.damage !== null) {
      into.addSkipped(this.damage);
      return;
    }
    this.emit(into);
  }

  protected skip(r: Row, reason: string): void {
    this.warn({ file: this.file, line: r.line, reason });
  }

  /** The row has the header's width; otherwise it is skipped with a warning. */
  protected widthOk(r: Row): boolean {
    if (r.count === this.header.columns.length) return true;
    this.skip(
      r,
      `expected ${this.header.columns.length} cells (${this.header.generation} header), got ${r.count}: row skipped`,
    );
    return false;
  }

  /** Stops reading: the file was re-saved by a spreadsheet, so none of its numbers can be trusted. */
  protected damaged(r: Row, column: number): never {
    const name = this.header.columns[column] ?? `column ${column + 1}`;
    this.damage = {
      file: this.file,
      line: r.line,
      reason:
        `spreadsheet damage: ${name} is ${JSON.stringify(r.cell(column))} (exponent notation, which the profiler never writes); ` +
        'the file was re-saved by a spreadsheet that rounds numbers to about six digits, so none of its figures are used. Use the file as the profiler wrote it.',
    };
    throw new StopReading();
  }

  /** The device of a row from the given columns (first non-empty wins): `devN`, `host`, or null after a warning. */
  protected device(r: Row, columns: readonly number[]): string | null {
    for (const c of columns) {
      if (c === -1) continue;
      if (this.lastDevice !== null && r.cellIs(c, this.lastDeviceText)) return this.lastDevice;
      const text = r.cell(c).trim();
      if (text === '') continue;
      const device = /^(host|cpu)$/i.test(text) ? HOST : deviceName(text);
      if (device === null) {
        this.skip(
          r,
          `unknown device ${JSON.stringify(text)} in ${this.header.columns[c]}: expected NPU:<n>, <n> or host; row skipped`,
        );
        return null;
      }
      this.lastDeviceText = r.cell(c);
      this.lastDevice = device;
      return device;
    }
    const fromPath = /(?:^|[\\/])device_(\d+)(?:[\\/]|$)/.exec(this.path);
    if (fromPath !== null) return `dev${Number(fromPath[1])}`;
    this.skip(r, 'no device in this row (no Device column and no device_<n> folder in the path): row skipped');
    return null;
  }

  /**
   * A size cell in bytes; null when it has none (empty, N/A, negative = unknown, too large to be a size);
   * undefined when the cell is not a number (the row is skipped with a warning).
   */
  protected bytes(r: Row, column: number, unit: ByteUnit): number | null | undefined {
    const v = cellBytes(r.s, r.starts[column] as number, r.ends[column] as number, unit);
    if (typeof v === 'number') return v;
    switch (v) {
      case 'missing':
      case 'negative':
        return null;
      case 'exponent':
        return this.damaged(r, column);
      case 'too-large':
        this.skip(
          r,
          `${this.header.columns[column]} ${r.cell(column)} is 2^53 bytes or more: not a memory size (an unsigned -1?); cell ignored`,
        );
        return null;
      default:
        this.skip(r, `${this.header.columns[column]} is not a number: ${JSON.stringify(r.cell(column))}; row skipped`);
        return undefined;
    }
  }

  /** The time of the row `timedRow` last accepted, in microseconds. */
  protected rowTime = 0;

  /**
   * The device of a row with a timeline (its time goes to `rowTime`), or null when the row is skipped with a warning:
   * wrong width, unknown device, or a time that is not a number.
   */
  protected timedRow(r: Row, devices: readonly number[], timeColumn: number): string | null {
    if (!this.widthOk(r)) return null;
    const device = this.device(r, devices);
    if (device === null) return null;
    const t = this.micros(r, timeColumn);
    if (Number.isNaN(t)) return null;
    this.rowTime = t;
    return device;
  }

  /** A time cell in microseconds, or NaN after a warning. */
  protected micros(r: Row, column: number): number {
    const t = cellMicros(r.s, r.starts[column] as number, r.ends[column] as number);
    if (t === Infinity) this.damaged(r, column);
    if (Number.isNaN(t))
      this.skip(
        r,
        `${this.header.columns[column]} is not a time in microseconds: ${JSON.stringify(r.cell(column))}; row skipped`,
      );
    return t;
  }
}

/** Peaks and a timeline for each of a few figures of one key. */
class Timelines {
  /** NaN: no value yet. A typed array, so storing a size allocates nothing. */
  readonly peaks: Float64Array;
  readonly series: (SeriesBuilder | null)[];

  constructor(figures: number) {
    this.peaks = new Float64Array(figures).fill(NaN);
    this.series = new Array<SeriesBuilder | null>(figures).fill(null);
  }

  add(figure: number, t: number, bytes: number): void {
    const peak = this.peaks[figure] as number;
    if (!(bytes <= peak)) this.peaks[figure] = bytes;
    let s = this.series[figure];
    if (s === null || s === undefined) {
      s = new SeriesBuilder('time');
      this.series[figure] = s;
    }
    s.add(t, bytes);
  }

  /** Hands one figure over as a `components` key: its peak and its timeline, when it had a value. */
  emitComponent(into: ProfilerTarget, key: string, figure: number): void {
    const peak = this.peak(figure);
    if (peak === null) return;
    into.add(components, key, { peak });
    const series = this.series[figure];
    if (series) into.addSeries(components.name, key, series.toSeries());
  }

  /** The peak of a figure, or null when it never had a value. */
  peak(figure: number): number | null {
    const p = this.peaks[figure] as number;
    return Number.isNaN(p) ? null : p;
  }
}

/** How many recent keys are tried before the map: PTA and PTA+GE rows alternate, GE and WORKSPACE come between. */
const RECENT = 8;

/** Tallies by `<device>/<name>`; the recent ones are found by comparing the name cell in place, with no string made. */
class KeyedTallies<T> {
  readonly byKey = new Map<string, T>();
  private readonly recentDevice: string[] = [];
  private readonly recentName: string[] = [];
  private readonly recent: T[] = [];

  get(r: Row, device: string, nameColumn: number, make: (name: string) => T): T {
    const n = this.recent.length;
    for (let i = 0; i < n; i++) {
      if (this.recentDevice[i] === device && r.cellIs(nameColumn, this.recentName[i] as string))
        return this.recent[i] as T;
    }
    // A fresh copy: a slice of the chunk would keep the whole 256 KiB chunk alive for as long as the key lives.
    const name = r.cell(nameColumn).split('').join('');
    const key = `${device}/${name}`;
    let t = this.byKey.get(key);
    if (t === undefined) {
      t = make(name);
      this.byKey.set(key, t);
    }
    if (n === RECENT) {
      this.recentDevice.pop();
      this.recentName.pop();
      this.recent.pop();
    }
    this.recentDevice.unshift(device);
    this.recentName.unshift(name);
    this.recent.unshift(t);
    return t;
  }
}

const RECORD_FIGURES = ['allocated', 'reserved', 'active'] as const;

/** memory_record: per device and component, the peak and timeline of Total Allocated, Reserved and Active. */
export class MemoryRecordReader extends TableReader {
  private readonly component = columnOf(this.header, 'Component');
  private readonly time = columnOf(this.header, 'Timestamp(us)');
  private readonly figures = [
    columnOf(this.header, 'Total Allocated(MB)', 'Total Allocated(KB)'),
    columnOf(this.header, 'Total Reserved(MB)', 'Total Reserved(KB)'),
    columnOf(this.header, 'Total Active(MB)'),
  ];
  private readonly devices = [columnOf(this.header, 'Device Type', 'Device'), columnOf(this.header, 'Device_id')];
  /** One unit, or for the 6-column header both candidates (torch_npu's MiB, MindSpore's KB×1000) until the rows tell. */
  private readonly units: readonly ByteUnit[] =
    this.header.unit === 'mindspore-or-torch_npu' ? [MIB, MINDSPORE_MB] : [this.header.unit];
  private readonly tallies = new KeyedTallies<{ device: string; component: string; timelines: Timelines }>();
  /** (figure index, bytes) pairs of the row being read: one buffer for every row. */
  private readonly values = new Float64Array(12);

  row(r: Row): void {
    const device = this.timedRow(r, this.devices, this.time);
    if (device === null) return;
    const t = this.rowTime;
    const units = this.units;
    const values = this.values;
    // Read every cell before folding any: a malformed cell skips the whole row.
    let count = 0;
    for (let f = 0; f < 3; f++) {
      const column = this.figures[f] as number;
      if (column === -1) continue;
      for (let u = 0; u < units.length; u++) {
        const v = this.bytes(r, column, units[u] as ByteUnit);
        if (v === undefined) return;
        if (v !== null) {
          values[count++] = f * units.length + u;
          values[count++] = v;
        }
      }
    }
    const tally = this.tallies.get(r, device, this.component, (component) => ({
      device,
      component,
      timelines: new Timelines(3 * units.length),
    }));
    for (let i = 0; i < count; i += 2) tally.timelines.add(values[i] as number, t, values[i + 1] as number);
    this.rows++;
  }

  protected emit(into: ProfilerTarget): void {
    let u = 0;
    if (this.units.length > 1) {
      const named = new Set([...this.tallies.byKey.values()].map((t) => t.component));
      const mindspore = [...named].some((c) => MINDSPORE_COMPONENTS.has(c));
      const torchNpu = [...named].some((c) => TORCH_NPU_COMPONENTS.has(c));
      if (mindspore === torchNpu) {
        into.addSkipped({
          file: this.file,
          line: 1,
          reason:
            'this 6-column memory_record header is written both by torch_npu (MB = 1,048,576 bytes) and by MindSpore ("MB" = KB/1000 = 1,024,000 bytes), ' +
            `and the rows (${[...named].join(', ') || 'none'}) ${mindspore ? 'mix PTA and MindSpore components' : 'have neither PTA nor MindSpore components'}: the unit is unknown, so none of its figures are used`,
        });
        return;
      }
      u = mindspore ? 1 : 0;
    }
    for (const tally of this.tallies.byKey.values()) {
      if (tally.device !== HOST) into.noteDevice(tally.device);
      for (let f = 0; f < 3; f++) {
        const i = f * this.units.length + u;
        tally.timelines.emitComponent(into, `${tally.device}/${visibleName(tally.component)}/${RECORD_FIGURES[f]}`, i);
      }
    }
  }
}

/** npu_module_mem: per device and driver module, the peak (and timeline) of Total Reserved, as `NPU_MODULE_MEM/devN/<MODULE>`. */
export class ModuleMemReader extends TableReader {
  private readonly component = columnOf(this.header, 'Component');
  private readonly time = columnOf(this.header, 'Timestamp(us)');
  private readonly reserved = columnOf(this.header, 'Total Reserved(MB)', 'Total Reserved(KB)');
  private readonly devices = [columnOf(this.header, 'Device'), columnOf(this.header, 'Device_id')];
  private readonly tallies = new KeyedTallies<{ device: string; module: string; timelines: Timelines }>();

  row(r: Row): void {
    const device = this.timedRow(r, this.devices, this.time);
    if (device === null) return;
    const t = this.rowTime;
    const v = this.bytes(r, this.reserved, this.header.unit as ByteUnit);
    if (v === undefined) return;
    this.rows++;
    if (v === null) return;
    this.tallies
      .get(r, device, this.component, (module) => ({ device, module, timelines: new Timelines(1) }))
      .timelines.add(0, t, v);
  }

  protected emit(into: ProfilerTarget): void {
    for (const tally of this.tallies.byKey.values()) {
      const peak = tally.timelines.peak(0);
      if (peak === null) continue;
      if (tally.device !== HOST) into.noteDevice(tally.device);
      const key = `NPU_MODULE_MEM/${tally.device}/${visibleName(tally.module)}`;
      // The file samples every module on every tick and most stay 0: only modules that held memory get a timeline.
      into.add(modules, key, { peak, current: peak, allocs: null, frees: null });
      const series = tally.timelines.series[0];
      if (peak > 0 && series) into.addSeries(modules.name, key, series.toSeries());
    }
  }
}

/** Name of an allocation no torch op was matched to (the writer leaves Name empty). */
const UNNAMED_OPERATOR = '(no operator)';

/** operator_memory: per device and operator, the largest single allocation, the allocations counted and their total. */
export class OperatorMemoryReader extends TableReader {
  private readonly name = columnOf(this.header, 'Name');
  private readonly size = columnOf(this.header, 'Size(KB)');
  private readonly time = columnOf(this.header, 'Allocation Time(us)');
  private readonly devices = [columnOf(this.header, 'Device Type', 'Device'), columnOf(this.header, 'Device_id')];
  private readonly tallies = new KeyedTallies<{
    device: string;
    name: string;
    largest: number;
    count: number;
    total: number;
  }>();

  row(r: Row): void {
    if (!this.widthOk(r)) return;
    const device = this.device(r, this.devices);
    if (device === null) return;
    // Only checked for spreadsheet damage: an empty Allocation Time (a release seen without its allocation) is fine.
    if (cellMicros(r.s, r.starts[this.time] as number, r.ends[this.time] as number) === Infinity)
      this.damaged(r, this.time);
    const v = this.bytes(r, this.size, this.header.unit as ByteUnit);
    if (v === undefined) return;
    this.rows++;
    // No size, or a negative one (a release without its allocation): not an allocation of this operator.
    if (v === null) return;
    const tally = this.tallies.get(r, device, this.name, (name) => ({
      device,
      name: name === '' ? UNNAMED_OPERATOR : name,
      largest: 0,
      count: 0,
      total: 0,
    }));
    const total = exactSum(tally.total, v);
    // Every cell is below 2^53 bytes, but a sum may not be: no figure is better than a rounded one.
    if (total === null)
      throw new ParseError(
        this.file,
        r.line,
        `the total of ${tally.name} would pass ${BEYOND_EXACT}: no exact figure (is the file damaged?)`,
      );
    if (v > tally.largest) tally.largest = v;
    tally.count++;
    tally.total = total;
  }

  protected emit(into: ProfilerTarget): void {
    for (const t of this.tallies.byKey.values()) {
      if (t.device !== HOST) into.noteDevice(t.device);
      into.add(operators, `${t.device}/${visibleName(t.name)}`, {
        largest: t.largest,
        count: t.count,
        total: t.total,
      });
    }
  }
}

/** static_op_mem: per device (usually host), model and graph, the writer's TOTAL row (never added to the other rows). */
export class StaticOpMemReader extends TableReader {
  private readonly op = columnOf(this.header, 'Op Name');
  private readonly model = columnOf(this.header, 'Model Name');
  private readonly graph = columnOf(this.header, 'Graph ID');
  private readonly size = columnOf(this.header, 'Size(KB)');
  private readonly deviceId = columnOf(this.header, 'Device_id');
  private readonly totals = new Map<string, number>();

  row(r: Row): void {
    if (!this.widthOk(r)) return;
    this.rows++;
    if (!r.cellIs(this.op, 'TOTAL')) return;
    // Static graphs are sized on the host at compile time: no Device_id column means the host too.
    const device =
      this.deviceId === -1 || /^host$/i.test(r.cell(this.deviceId).trim()) ? HOST : this.device(r, [this.deviceId]);
    if (device === null) return;
    const v = this.bytes(r, this.size, this.header.unit as ByteUnit);
    if (v === undefined || v === null) return;
    const key = `${device}/${visibleName(r.cell(this.model).trim())}/${visibleName(r.cell(this.graph).trim())}`;
    const prev = this.totals.get(key);
    if (prev === undefined || v > prev) this.totals.set(key, v);
  }

  protected emit(into: ProfilerTarget): void {
    for (const [key, size] of this.totals) into.add(graphs, key, { size });
  }
}

/** msprof npu_mem: per device, the peak (and timeline) of HBM and DDR for the APP (process) and Device events. */
export class NpuMemReader extends TableReader {
  private readonly event = columnOf(this.header, 'event');
  private readonly ddr = columnOf(this.header, 'ddr(KB)');
  private readonly hbm = columnOf(this.header, 'hbm(KB)');
  private readonly time = columnOf(this.header, 'timestamp(us)');
  private readonly devices = [columnOf(this.header, 'Device_id')];
  private readonly tallies = new KeyedTallies<{ device: string; event: string; timelines: Timelines }>();

  row(r: Row): void {
    const device = this.timedRow(r, this.devices, this.time);
    if (device === null) return;
    const t = this.rowTime;
    const unit = this.header.unit as ByteUnit;
    const hbm = this.bytes(r, this.hbm, unit);
    if (hbm === undefined) return;
    const ddr = this.bytes(r, this.ddr, unit);
    if (ddr === undefined) return;
    this.rows++;
    const tally = this.tallies.get(r, device, this.event, (event) => ({ device, event, timelines: new Timelines(2) }));
    if (hbm !== null) tally.timelines.add(0, t, hbm);
    if (ddr !== null) tally.timelines.add(1, t, ddr);
  }

  protected emit(into: ProfilerTarget): void {
    for (const tally of this.tallies.byKey.values()) {
      if (tally.device !== HOST) into.noteDevice(tally.device);
      tally.timelines.emitComponent(into, `${tally.device}/${visibleName(tally.event)}/hbm`, 0);
      tally.timelines.emitComponent(into, `${tally.device}/${visibleName(tally.event)}/ddr`, 1);
    }
  }
}

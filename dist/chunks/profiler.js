import { P as ParseError } from './errors.js';
import { s as streamText, E as EscapedUtf8Decoder, C as CsvLineReader, i as indexOrEnd, c as countQuotes, t as trimCr, p as protectEscapedBytes, r as restoreEscapedBytes, v as visibleName } from './line-reader.js';
import { p as parse, C as CsvError } from './sync.js';
import { M as MIB, K as KIB, c as cellMicros, a as MINDSPORE_MB, b as cellBytes } from './decimal.js';
import { i as graphs, j as exactSum, B as BEYOND_EXACT, o as operators, e as modules, l as SeriesBuilder, q as components } from './evidence-sources.js';
export { D as DIRECTORY_PATTERNS } from './evidence-sources.js';
import { d as deviceName } from './keys.js';
import 'node:buffer';
import 'node:fs';
import 'node:string_decoder';
import './whole-text.js';
import './compressed.js';
import 'node:os';
import 'node:path';
import 'node:stream';
import 'node:stream/promises';
import 'node:zlib';

const MAX_CELLS = 32;
const MAX_RECORD_CHARS = 1 << 20;
class Row {
    s = '';
    count = 0;
    line = 0;
    starts = new Int32Array(MAX_CELLS);
    ends = new Int32Array(MAX_CELLS);
    cell(k) {
        return this.s.slice(this.starts[k], this.ends[k]);
    }
    cellIs(k, text) {
        const from = this.starts[k];
        return this.ends[k] - from === text.length && this.s.startsWith(text, from);
    }
    split(s, from, to, line) {
        this.s = s;
        this.line = line;
        let n = 0;
        let start = from;
        for (;;) {
            let comma = s.indexOf(',', start);
            if (comma === -1 || comma > to)
                comma = to;
            if (n < MAX_CELLS) {
                this.starts[n] = start;
                this.ends[n] = comma;
            }
            n++;
            if (comma === to)
                break;
            start = comma + 1;
        }
        this.count = n;
    }
    fromCells(cells, line) {
        this.s = cells.join('');
        this.line = line;
        let at = 0;
        for (let k = 0; k < cells.length && k < MAX_CELLS; k++) {
            this.starts[k] = at;
            at += cells[k].length;
            this.ends[k] = at;
        }
        this.count = cells.length;
    }
}
class StopReading extends Error {
}
async function readCsvRows(path, name, sink) {
    const splitter = new RowSplitter(name, sink);
    try {
        await streamText(path, (text) => splitter.push(text), () => new EscapedUtf8Decoder(), name);
        splitter.end();
    }
    catch (err) {
        if (!(err instanceof StopReading))
            throw err;
    }
}
class RowSplitter {
    file;
    sink;
    lines = new CsvLineReader(this, { maxRecordChars: MAX_RECORD_CHARS });
    consumedLines = 0;
    row = new Row();
    constructor(file, sink) {
        this.file = file;
        this.sink = sink;
    }
    push(text) {
        this.lines.push(text);
    }
    end() {
        this.lines.end();
    }
    tooLong() {
        return new ParseError(this.file, this.consumedLines + 1, `a record longer than ${MAX_RECORD_CHARS} characters (or a quote that never closes): not a profiler CSV?`);
    }
    scan(s, from, atEnd) {
        const len = s.length;
        let pos = from;
        let nextQuote = indexOrEnd(s, '"', from);
        while (pos < len) {
            let nl = s.indexOf('\n', pos);
            if (nl === -1) {
                if (!atEnd)
                    break;
                nl = len;
            }
            const line = this.consumedLines + 1;
            if (nextQuote < pos)
                nextQuote = indexOrEnd(s, '"', pos);
            if (nextQuote < nl) {
                let quotes = countQuotes(s, pos, nl);
                let lines = 1;
                while (quotes % 2 === 1) {
                    if (nl >= len)
                        break;
                    let next = s.indexOf('\n', nl + 1);
                    if (next === -1) {
                        if (!atEnd)
                            return s.slice(pos);
                        next = len;
                    }
                    quotes += countQuotes(s, nl + 1, next);
                    lines++;
                    nl = next;
                }
                this.quoted(s.slice(pos, trimCr(s, pos, nl)), line);
                this.consumedLines += lines;
            }
            else {
                const end = trimCr(s, pos, nl);
                this.consumedLines++;
                if (end > pos) {
                    this.row.split(s, pos, end, line);
                    this.sink(this.row);
                }
            }
            pos = nl + 1;
        }
        return pos >= len ? '' : s.slice(pos);
    }
    quoted(text, line) {
        let records;
        try {
            records = parse(protectEscapedBytes(text), {
                record_delimiter: ['\r\n', '\n'],
                bom: false,
                cast: false,
                relax_quotes: true,
                relax_column_count: true,
            });
        }
        catch (err) {
            if (err instanceof CsvError) {
                const reason = err.code === 'CSV_QUOTE_NOT_CLOSED'
                    ? 'a quoted field is never closed'
                    : `malformed quoted field (${err.code})`;
                throw new ParseError(this.file, line, reason);
            }
            throw err;
        }
        const cells = records[0];
        if (records.length !== 1 || cells === undefined)
            throw new ParseError(this.file, line, `malformed quoted record: ${records.length} records on one row`);
        this.row.fromCells(cells.map(restoreEscapedBytes), line);
        this.sink(this.row);
    }
}

const HEADERS = [
    [
        'memory_record',
        'torch_npu A1 (5.0.x)',
        'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Device Type',
        MIB,
    ],
    [
        'memory_record',
        'torch_npu A2 (Jan 2024) or MindSpore',
        'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Device Type',
        'mindspore-or-torch_npu',
    ],
    [
        'memory_record',
        'torch_npu A3 (6.0.rc1 on)',
        'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type',
        MIB,
    ],
    ['memory_record', 'msprof (KB)', 'Component,Timestamp(us),Total Allocated(KB),Total Reserved(KB),Device', KIB],
    ['npu_module_mem', 'torch_npu (MB)', 'Component,Timestamp(us),Total Reserved(MB),Device', MIB],
    ['npu_module_mem', 'msprof or MindSpore copy (KB)', 'Component,Timestamp(us),Total Reserved(KB),Device', KIB],
    [
        'operator_memory',
        'torch_npu A1 (5.0.x)',
        'Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Release Total Allocated(MB),Release Total Reserved(MB),Device Type',
        KIB,
    ],
    [
        'operator_memory',
        'torch_npu A2/A3 (6.0.rc1 on)',
        'Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type',
        KIB,
    ],
    [
        'operator_memory',
        'msprof (KB)',
        'Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(KB),Allocation Total Reserved(KB),Release Total Allocated(KB),Release Total Reserved(KB),Device',
        KIB,
    ],
    [
        'static_op_mem',
        'msprof or torch_npu copy',
        'Op Name,Model Name,Graph ID,Node Index Start,Node Index End,Size(KB)',
        KIB,
    ],
    ['npu_mem', 'msprof', 'event,ddr(KB),hbm(KB),memory(KB),timestamp(us)', KIB],
];
const KNOWN = HEADERS.flatMap(([kind, generation, header, unit]) => [
    { kind, generation, columns: header.split(','), unit },
    { kind, generation: `${generation}, merged with Device_id`, columns: ['Device_id', ...header.split(',')], unit },
]);
const byText = new Map(KNOWN.map((h) => [h.columns.join(','), h]));
function recognizeHeader(cells) {
    const trimmed = cells.map((c) => c.trim());
    if (trimmed.length > 1 && trimmed[trimmed.length - 1] === '')
        trimmed.pop();
    return byText.get(trimmed.join(',')) ?? null;
}
function columnOf(header, ...names) {
    for (const name of names) {
        const i = header.columns.indexOf(name);
        if (i !== -1)
            return i;
    }
    return -1;
}
function knownHeadersHint() {
    const kinds = [...new Set(KNOWN.map((h) => h.kind))];
    return kinds.join(', ');
}

const HOST = 'host';
const MINDSPORE_COMPONENTS = new Set(['MindSpore', 'MindSpore+GE']);
const TORCH_NPU_COMPONENTS = new Set(['PTA', 'PTA+GE', 'WORKSPACE']);
class TableReader {
    file;
    header;
    path;
    warn;
    rows = 0;
    damage = null;
    lastDeviceText = '';
    lastDevice = null;
    constructor(file, header, path, warn) {
        this.file = file;
        this.header = header;
        this.path = path;
        this.warn = warn;
    }
    finish(into) {
        if (this.damage !== null) {
            into.addSkipped(this.damage);
            return;
        }
        this.emit(into);
    }
    skip(r, reason) {
        this.warn({ file: this.file, line: r.line, reason });
    }
    widthOk(r) {
        if (r.count === this.header.columns.length)
            return true;
        this.skip(r, `expected ${this.header.columns.length} cells (${this.header.generation} header), got ${r.count}: row skipped`);
        return false;
    }
    damaged(r, column) {
        const name = this.header.columns[column] ?? `column ${column + 1}`;
        this.damage = {
            file: this.file,
            line: r.line,
            reason: `spreadsheet damage: ${name} is ${JSON.stringify(r.cell(column))} (exponent notation, which the profiler never writes); ` +
                'the file was re-saved by a spreadsheet that rounds numbers to about six digits, so none of its figures are used. Use the file as the profiler wrote it.',
        };
        throw new StopReading();
    }
    device(r, columns) {
        for (const c of columns) {
            if (c === -1)
                continue;
            if (this.lastDevice !== null && r.cellIs(c, this.lastDeviceText))
                return this.lastDevice;
            const text = r.cell(c).trim();
            if (text === '')
                continue;
            const device = /^(host|cpu)$/i.test(text) ? HOST : deviceName(text);
            if (device === null) {
                this.skip(r, `unknown device ${JSON.stringify(text)} in ${this.header.columns[c]}: expected NPU:<n>, <n> or host; row skipped`);
                return null;
            }
            this.lastDeviceText = r.cell(c);
            this.lastDevice = device;
            return device;
        }
        const fromPath = /(?:^|[\\/])device_(\d+)(?:[\\/]|$)/.exec(this.path);
        if (fromPath !== null)
            return `dev${Number(fromPath[1])}`;
        this.skip(r, 'no device in this row (no Device column and no device_<n> folder in the path): row skipped');
        return null;
    }
    bytes(r, column, unit) {
        const v = cellBytes(r.s, r.starts[column], r.ends[column], unit);
        if (typeof v === 'number')
            return v;
        switch (v) {
            case 'missing':
            case 'negative':
                return null;
            case 'exponent':
                return this.damaged(r, column);
            case 'too-large':
                this.skip(r, `${this.header.columns[column]} ${r.cell(column)} is 2^53 bytes or more: not a memory size (an unsigned -1?); cell ignored`);
                return null;
            default:
                this.skip(r, `${this.header.columns[column]} is not a number: ${JSON.stringify(r.cell(column))}; row skipped`);
                return undefined;
        }
    }
    rowTime = 0;
    timedRow(r, devices, timeColumn) {
        if (!this.widthOk(r))
            return null;
        const device = this.device(r, devices);
        if (device === null)
            return null;
        const t = this.micros(r, timeColumn);
        if (Number.isNaN(t))
            return null;
        this.rowTime = t;
        return device;
    }
    micros(r, column) {
        const t = cellMicros(r.s, r.starts[column], r.ends[column]);
        if (t === Infinity)
            this.damaged(r, column);
        if (Number.isNaN(t))
            this.skip(r, `${this.header.columns[column]} is not a time in microseconds: ${JSON.stringify(r.cell(column))}; row skipped`);
        return t;
    }
}
class Timelines {
    peaks;
    series;
    constructor(figures) {
        this.peaks = new Float64Array(figures).fill(NaN);
        this.series = new Array(figures).fill(null);
    }
    add(figure, t, bytes) {
        const peak = this.peaks[figure];
        if (!(bytes <= peak))
            this.peaks[figure] = bytes;
        let s = this.series[figure];
        if (s === null || s === undefined) {
            s = new SeriesBuilder('time');
            this.series[figure] = s;
        }
        s.add(t, bytes);
    }
    emitComponent(into, key, figure) {
        const peak = this.peak(figure);
        if (peak === null)
            return;
        into.add(components, key, { peak });
        const series = this.series[figure];
        if (series)
            into.addSeries(components.name, key, series.toSeries());
    }
    peak(figure) {
        const p = this.peaks[figure];
        return Number.isNaN(p) ? null : p;
    }
}
const RECENT = 8;
class KeyedTallies {
    byKey = new Map();
    recentDevice = [];
    recentName = [];
    recent = [];
    get(r, device, nameColumn, make) {
        const n = this.recent.length;
        for (let i = 0; i < n; i++) {
            if (this.recentDevice[i] === device && r.cellIs(nameColumn, this.recentName[i]))
                return this.recent[i];
        }
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
const RECORD_FIGURES = ['allocated', 'reserved', 'active'];
class MemoryRecordReader extends TableReader {
    component = columnOf(this.header, 'Component');
    time = columnOf(this.header, 'Timestamp(us)');
    figures = [
        columnOf(this.header, 'Total Allocated(MB)', 'Total Allocated(KB)'),
        columnOf(this.header, 'Total Reserved(MB)', 'Total Reserved(KB)'),
        columnOf(this.header, 'Total Active(MB)'),
    ];
    devices = [columnOf(this.header, 'Device Type', 'Device'), columnOf(this.header, 'Device_id')];
    units = this.header.unit === 'mindspore-or-torch_npu' ? [MIB, MINDSPORE_MB] : [this.header.unit];
    tallies = new KeyedTallies();
    values = new Float64Array(12);
    row(r) {
        const device = this.timedRow(r, this.devices, this.time);
        if (device === null)
            return;
        const t = this.rowTime;
        const units = this.units;
        const values = this.values;
        let count = 0;
        for (let f = 0; f < 3; f++) {
            const column = this.figures[f];
            if (column === -1)
                continue;
            for (let u = 0; u < units.length; u++) {
                const v = this.bytes(r, column, units[u]);
                if (v === undefined)
                    return;
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
        for (let i = 0; i < count; i += 2)
            tally.timelines.add(values[i], t, values[i + 1]);
        this.rows++;
    }
    emit(into) {
        let u = 0;
        if (this.units.length > 1) {
            const named = new Set([...this.tallies.byKey.values()].map((t) => t.component));
            const mindspore = [...named].some((c) => MINDSPORE_COMPONENTS.has(c));
            const torchNpu = [...named].some((c) => TORCH_NPU_COMPONENTS.has(c));
            if (mindspore === torchNpu) {
                into.addSkipped({
                    file: this.file,
                    line: 1,
                    reason: 'this 6-column memory_record header is written both by torch_npu (MB = 1,048,576 bytes) and by MindSpore ("MB" = KB/1000 = 1,024,000 bytes), ' +
                        `and the rows (${[...named].join(', ') || 'none'}) ${mindspore ? 'mix PTA and MindSpore components' : 'have neither PTA nor MindSpore components'}: the unit is unknown, so none of its figures are used`,
                });
                return;
            }
            u = mindspore ? 1 : 0;
        }
        for (const tally of this.tallies.byKey.values()) {
            if (tally.device !== HOST)
                into.noteDevice(tally.device);
            for (let f = 0; f < 3; f++) {
                const i = f * this.units.length + u;
                tally.timelines.emitComponent(into, `${tally.device}/${visibleName(tally.component)}/${RECORD_FIGURES[f]}`, i);
            }
        }
    }
}
class ModuleMemReader extends TableReader {
    component = columnOf(this.header, 'Component');
    time = columnOf(this.header, 'Timestamp(us)');
    reserved = columnOf(this.header, 'Total Reserved(MB)', 'Total Reserved(KB)');
    devices = [columnOf(this.header, 'Device'), columnOf(this.header, 'Device_id')];
    tallies = new KeyedTallies();
    row(r) {
        const device = this.timedRow(r, this.devices, this.time);
        if (device === null)
            return;
        const t = this.rowTime;
        const v = this.bytes(r, this.reserved, this.header.unit);
        if (v === undefined)
            return;
        this.rows++;
        if (v === null)
            return;
        this.tallies
            .get(r, device, this.component, (module) => ({ device, module, timelines: new Timelines(1) }))
            .timelines.add(0, t, v);
    }
    emit(into) {
        for (const tally of this.tallies.byKey.values()) {
            const peak = tally.timelines.peak(0);
            if (peak === null)
                continue;
            if (tally.device !== HOST)
                into.noteDevice(tally.device);
            const key = `NPU_MODULE_MEM/${tally.device}/${visibleName(tally.module)}`;
            into.add(modules, key, { peak, current: peak, allocs: null, frees: null });
            const series = tally.timelines.series[0];
            if (peak > 0 && series)
                into.addSeries(modules.name, key, series.toSeries());
        }
    }
}
const UNNAMED_OPERATOR = '(no operator)';
class OperatorMemoryReader extends TableReader {
    name = columnOf(this.header, 'Name');
    size = columnOf(this.header, 'Size(KB)');
    time = columnOf(this.header, 'Allocation Time(us)');
    devices = [columnOf(this.header, 'Device Type', 'Device'), columnOf(this.header, 'Device_id')];
    tallies = new KeyedTallies();
    row(r) {
        if (!this.widthOk(r))
            return;
        const device = this.device(r, this.devices);
        if (device === null)
            return;
        if (cellMicros(r.s, r.starts[this.time], r.ends[this.time]) === Infinity)
            this.damaged(r, this.time);
        const v = this.bytes(r, this.size, this.header.unit);
        if (v === undefined)
            return;
        this.rows++;
        if (v === null)
            return;
        const tally = this.tallies.get(r, device, this.name, (name) => ({
            device,
            name: name === '' ? UNNAMED_OPERATOR : name,
            largest: 0,
            count: 0,
            total: 0,
        }));
        const total = exactSum(tally.total, v);
        if (total === null)
            throw new ParseError(this.file, r.line, `the total of ${tally.name} would pass ${BEYOND_EXACT}: no exact figure (is the file damaged?)`);
        if (v > tally.largest)
            tally.largest = v;
        tally.count++;
        tally.total = total;
    }
    emit(into) {
        for (const t of this.tallies.byKey.values()) {
            if (t.device !== HOST)
                into.noteDevice(t.device);
            into.add(operators, `${t.device}/${visibleName(t.name)}`, {
                largest: t.largest,
                count: t.count,
                total: t.total,
            });
        }
    }
}
class StaticOpMemReader extends TableReader {
    op = columnOf(this.header, 'Op Name');
    model = columnOf(this.header, 'Model Name');
    graph = columnOf(this.header, 'Graph ID');
    size = columnOf(this.header, 'Size(KB)');
    deviceId = columnOf(this.header, 'Device_id');
    totals = new Map();
    row(r) {
        if (!this.widthOk(r))
            return;
        this.rows++;
        if (!r.cellIs(this.op, 'TOTAL'))
            return;
        const device = this.deviceId === -1 || /^host$/i.test(r.cell(this.deviceId).trim()) ? HOST : this.device(r, [this.deviceId]);
        if (device === null)
            return;
        const v = this.bytes(r, this.size, this.header.unit);
        if (v === undefined || v === null)
            return;
        const key = `${device}/${visibleName(r.cell(this.model).trim())}/${visibleName(r.cell(this.graph).trim())}`;
        const prev = this.totals.get(key);
        if (prev === undefined || v > prev)
            this.totals.set(key, v);
    }
    emit(into) {
        for (const [key, size] of this.totals)
            into.add(graphs, key, { size });
    }
}
class NpuMemReader extends TableReader {
    event = columnOf(this.header, 'event');
    ddr = columnOf(this.header, 'ddr(KB)');
    hbm = columnOf(this.header, 'hbm(KB)');
    time = columnOf(this.header, 'timestamp(us)');
    devices = [columnOf(this.header, 'Device_id')];
    tallies = new KeyedTallies();
    row(r) {
        const device = this.timedRow(r, this.devices, this.time);
        if (device === null)
            return;
        const t = this.rowTime;
        const unit = this.header.unit;
        const hbm = this.bytes(r, this.hbm, unit);
        if (hbm === undefined)
            return;
        const ddr = this.bytes(r, this.ddr, unit);
        if (ddr === undefined)
            return;
        this.rows++;
        const tally = this.tallies.get(r, device, this.event, (event) => ({ device, event, timelines: new Timelines(2) }));
        if (hbm !== null)
            tally.timelines.add(0, t, hbm);
        if (ddr !== null)
            tally.timelines.add(1, t, ddr);
    }
    emit(into) {
        for (const tally of this.tallies.byKey.values()) {
            if (tally.device !== HOST)
                into.noteDevice(tally.device);
            tally.timelines.emitComponent(into, `${tally.device}/${visibleName(tally.event)}/hbm`, 0);
            tally.timelines.emitComponent(into, `${tally.device}/${visibleName(tally.event)}/ddr`, 1);
        }
    }
}

async function parseFile(file, into) {
    const reading = new FileReading(file.name, file.path, into);
    await readCsvRows(file.path, file.name, (row) => reading.row(row));
    reading.finish();
}
class FileReading {
    name;
    path;
    into;
    reader = null;
    constructor(name, path, into) {
        this.name = name;
        this.path = path;
        this.into = into;
    }
    row(r) {
        if (this.reader !== null) {
            this.reader.row(r);
            return;
        }
        const cells = [];
        for (let k = 0; k < r.count; k++)
            cells.push(r.cell(k));
        const header = recognizeHeader(cells);
        if (header === null) {
            const text = cells.join(',');
            throw new ParseError(this.name, r.line, `not a profiler memory CSV: the header ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)} is none of the known ${knownHeadersHint()} headers`);
        }
        this.reader = readerFor(header, this.name, this.path, (record) => this.into.addSkipped(record));
    }
    finish() {
        this.into.files += 1;
        if (this.reader === null) {
            this.into.addSkipped({ file: this.name, line: 1, reason: 'empty file: no header, nothing read' });
            return;
        }
        this.reader.finish(this.into);
        this.into.records += this.reader.rows;
    }
}
function readerFor(header, name, path, warn) {
    switch (header.kind) {
        case 'memory_record':
            return new MemoryRecordReader(name, header, path, warn);
        case 'npu_module_mem':
            return new ModuleMemReader(name, header, path, warn);
        case 'operator_memory':
            return new OperatorMemoryReader(name, header, path, warn);
        case 'static_op_mem':
            return new StaticOpMemReader(name, header, path, warn);
        case 'npu_mem':
            return new NpuMemReader(name, header, path, warn);
    }
}

export { parseFile };

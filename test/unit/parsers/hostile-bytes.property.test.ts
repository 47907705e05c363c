// Properties of the profiler and dump readers under hostile bytes (issue 25): a byte-level mutation never crashes a
// reader (a clean one-line error at most), never yields a byte figure that is not an exact integer within 2^53 - 1,
// and never changes a figure silently: a damaged number is never read as another number, a row it cannot read is named
// in a warning. Shuffling a dump's rows (rows of equal timestamps keeping their order) never changes its figures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MEMSCOPE_HEADER, memscopeDumpLines } from '../../generators/memscope-dump.js';
import { InputError } from '../../../src/common/errors.js';
import { decodeEscaped } from '../../../src/parsers/escaped-utf8.js';
import { compareDumpTexts } from '../../../src/parsers/memscope/compare-dumps.js';
import { dumpFactsFromText, type DumpFacts } from '../../../src/parsers/memscope/dump-facts.js';
import { dumpFigures } from '../../../src/parsers/memscope/dump-metrics.js';
import type { DumpWarning } from '../../../src/parsers/memscope/dump-reader.js';
import { parseProfilerText } from '../../../src/parsers/profiler/index.js';
import { CollectingTarget } from '../../helpers/profiler-target.js';

const FIX = join(import.meta.dirname, '..', '..', 'fixtures');
const RUNS = Number(process.env.HOSTILE_RUNS ?? 150);

/** The first `lines` lines of a fixture, as bytes (CRLF kept). */
function head(path: string, lines: number): Buffer {
  const text = readFileSync(join(FIX, path), 'latin1');
  return Buffer.from(text.split('\n').slice(0, lines).join('\n') + '\n', 'latin1');
}

const PROFILER: Record<string, Buffer> = {
  'operator_memory.csv': head('torch_npu/level0-2025-01/rank0_ascend_pt/operator_memory.csv', 40),
  'memory_record.csv': head('torch_npu/level0-2025-01/rank0_ascend_pt/memory_record.csv', 40),
  'npu_module_mem.csv': head('torch_npu/st-level2-pt2.7.1-cann8.3/rank_0_ascend_pt/npu_module_mem.csv', 40),
};

const T = (n: number): string => `1764753084425${String(n).padStart(6, '0')}`;
const DUMPS: Record<string, Buffer> = {
  'baseline_dump.csv': readFileSync(join(FIX, 'memscope', 'baseline_dump.csv')),
  'generated.csv': Buffer.from(
    `${[MEMSCOPE_HEADER, ...memscopeDumpLines({ steps: 4, opsPerStep: 6, leakFromStep: 2, owners: true })].join('\n')}\n`,
  ),
  'steps.csv': Buffer.from(
    `${[
      MEMSCOPE_HEADER,
      `1,MALLOC,PTA,N/A,${T(100)},7,7,0,0x10,"{size:10}",,`,
      `2,SYSTEM,STEP,1,${T(200)},7,7,N/A,N/A,,,`,
      `3,MALLOC,PTA,N/A,${T(300)},7,7,0,0x20,"{size:20,inefficient_type:early_allocation,late_deallocation}",,`,
      `4,SYSTEM,STEP,2,${T(400)},7,7,N/A,N/A,,,`,
      `6,FREE,PTA,N/A,${T(600)},7,7,0,0x20,"{size:20}",,`,
      `5,MALLOC,HAL,N/A,${T(500)},7,7,1,0x30,"{size:30,owner:CANN@HCCL}",,`,
      `7,SYSTEM,STEP,3,${T(700)},7,7,N/A,N/A,,,`,
    ].join('\n')}\n`,
  ),
};

/** Every number a figure holds: a byte figure must be an exact integer (never past 2^53 - 1, never a float). */
function numbersOf(value: unknown, at: string, out: [string, number][]): void {
  if (typeof value === 'number') out.push([at, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => numbersOf(v, `${at}[${i}]`, out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) numbersOf(v, `${at}.${k}`, out);
}

function expectExactFigures(figures: unknown): void {
  const numbers: [string, number][] = [];
  numbersOf(figures, '', numbers);
  const bad = numbers.filter(([, n]) => !Number.isSafeInteger(n));
  expect(bad).toEqual([]);
}

/** What a reader gave: figures (or the error), and every line a warning named. */
interface Outcome {
  figures: unknown;
  error: InputError | null;
  warnedLines: Set<number>;
}

function profilerOutcome(name: string, bytes: Buffer): Outcome {
  const target = new CollectingTarget();
  try {
    parseProfilerText(name, decodeEscaped(bytes), target);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { figures: null, error, warnedLines: new Set(target.skipped.map((s) => s.line)) };
  }
  return {
    figures: { metrics: target.metrics, series: target.series },
    error: null,
    warnedLines: new Set(target.skipped.map((s) => s.line)),
  };
}

function figuresOfFacts(facts: DumpFacts): unknown {
  const figures = dumpFigures(facts);
  return {
    metrics: Object.fromEntries(Object.entries(figures.metrics).map(([s, m]) => [s, Object.fromEntries(m)])),
    samples: figures.samples,
    stepLeaks: figures.stepLeaks,
    openSteps: figures.openSteps,
  };
}

function dumpOutcome(name: string, bytes: Buffer): Outcome {
  const warnings: DumpWarning[] = [];
  try {
    const facts = dumpFactsFromText(name, bytes, (w) => warnings.push(w));
    return { figures: figuresOfFacts(facts), error: null, warnedLines: new Set(warnings.map((w) => w.line)) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { figures: null, error, warnedLines: new Set(warnings.map((w) => w.line)) };
  }
}

/** A byte-level mutation: replace, insert or delete bytes, duplicate or cut a line, at any offset. */
type Mutation =
  | { kind: 'replace' | 'insert'; at: number; byte: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'cut'; at: number }
  | { kind: 'duplicate-line'; at: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant<'replace'>('replace'), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({
    kind: fc.constant<'insert'>('insert'),
    at: fc.nat(),
    byte: fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x22, 0x2c, 0x0a, 0x0d, 0x7b, 0x7d, 0x3a)),
  }),
  fc.record({ kind: fc.constant<'delete'>('delete'), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant<'cut'>('cut'), at: fc.nat() }),
  fc.record({ kind: fc.constant<'duplicate-line'>('duplicate-line'), at: fc.nat() }),
);

function mutate(bytes: Buffer, mutations: readonly Mutation[]): Buffer {
  let b = bytes;
  for (const m of mutations) {
    const at = b.length === 0 ? 0 : m.at % (b.length + 1);
    if (m.kind === 'replace' && at < b.length)
      b = Buffer.concat([b.subarray(0, at), Buffer.from([m.byte]), b.subarray(at + 1)]);
    else if (m.kind === 'insert') b = Buffer.concat([b.subarray(0, at), Buffer.from([m.byte]), b.subarray(at)]);
    else if (m.kind === 'delete') b = Buffer.concat([b.subarray(0, at), b.subarray(at + m.length)]);
    else if (m.kind === 'cut') b = b.subarray(0, at);
    else if (m.kind === 'duplicate-line') {
      const start = b.lastIndexOf(0x0a, at - 1) + 1;
      const end = b.indexOf(0x0a, at);
      const line = b.subarray(start, end === -1 ? b.length : end + 1);
      b = Buffer.concat([
        b.subarray(0, start),
        line,
        line.subarray(-1)[0] === 0x0a ? Buffer.alloc(0) : Buffer.from('\n'),
        b.subarray(start),
      ]);
    }
  }
  return b;
}

describe('byte-level mutations never crash a reader and never yield a figure that is not an exact integer', () => {
  it.each(Object.keys(PROFILER))('profiler %s', (name) => {
    fc.assert(
      fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 6 }), (mutations) => {
        const outcome = profilerOutcome(name, mutate(PROFILER[name] as Buffer, mutations));
        if (outcome.error !== null)
          expect(outcome.error.message).toMatch(new RegExp(`^${name.replace('.', '\\.')}:\\d+: `));
        else expectExactFigures(outcome.figures);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(Object.keys(DUMPS))('dump %s (parse and compare-dumps)', (name) => {
    fc.assert(
      fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 6 }), (mutations) => {
        const damaged = mutate(DUMPS[name] as Buffer, mutations);
        const outcome = dumpOutcome(name, damaged);
        if (outcome.error !== null) expect(outcome.error.message.split('\n')).toHaveLength(1);
        else expectExactFigures(outcome.figures);
        try {
          compareDumpTexts({ name: 'base.csv', text: damaged }, { name: 'current.csv', text: DUMPS[name] as Buffer });
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
          expect(error.message.split('\n')).toHaveLength(1);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * Bytes no number can hold: control characters (not TAB, which the writers put after times), DEL, bytes that are not
 * UTF-8, a double quote, letters outside the hex digits and the exponent's e.
 */
const DAMAGE = fc.constantFrom(
  0x00,
  0x01,
  0x07,
  0x08,
  0x0b,
  0x0c,
  0x1b,
  0x1f,
  0x7f,
  0x80,
  0x9b,
  0xc0,
  0xff,
  0x22,
  0x21,
  0x23,
  0x2f,
  0x3b,
  0x3d,
  0x3f,
  0x40,
  0x5b,
  0x5e,
  0x60,
  0x7c,
  0x7e,
  0x67,
  0x4b,
  0x7a,
  0x5a,
);

/** Where a cell lies in a line of cells (no quotes): [start, end) byte offsets. */
function cellSpans(line: Buffer): [number, number][] {
  const spans: [number, number][] = [];
  let start = 0;
  for (let i = 0; i <= line.length; i++) {
    if (i === line.length || line[i] === 0x2c) {
      spans.push([start, i]);
      start = i + 1;
    }
  }
  return spans;
}

/** A damage byte put into one number cell of one data row (inserted, or over one of its bytes): [bytes, its 1-based line]. */
function damageNumberCell(
  bytes: Buffer,
  isNumberColumn: (header: string[], column: number) => boolean,
  row: number,
  column: number,
  offset: number,
  byte: number,
  replace: boolean,
): [Buffer, number] | null {
  const text = bytes.toString('latin1');
  const lines = text.split('\n');
  const header = (lines[0] as string).replace(/\r$/, '').split(',');
  const dataLines = lines.length - 2;
  if (dataLines < 1) return null;
  const index = 1 + (row % dataLines);
  const line = Buffer.from(lines[index] as string, 'latin1');
  if (line.includes(0x22)) return null;
  const columns = cellSpans(line.subarray(0, line[line.length - 1] === 0x0d ? line.length - 1 : line.length))
    .map((s, i) => [i, s] as const)
    .filter(([i]) => isNumberColumn(header, i));
  if (columns.length === 0) return null;
  const [, [from, to]] = columns[column % columns.length] as readonly [number, [number, number]];
  if (replace && to === from) return null;
  const at = from + (replace ? offset % (to - from) : offset % (to - from + 1));
  const damaged = Buffer.concat([line.subarray(0, at), Buffer.from([byte]), line.subarray(replace ? at + 1 : at)]);
  lines[index] = damaged.toString('latin1');
  return [Buffer.from(lines.join('\n'), 'latin1'), index + 1];
}

const profilerNumberColumn = (header: string[], i: number): boolean =>
  /\((MB|KB|us)\)$|^Device/.test(header[i] ?? '') && !/^(Release|Active|Duration)/.test(header[i] ?? '');
/** Dump cells the readers take numbers from: ID, Timestamp, Process Id, Thread Id, Device Id, Ptr. */
const dumpNumberColumn = (header: string[], i: number): boolean =>
  ['ID', 'Timestamp(ns)', 'Process Id', 'Thread Id', 'Device Id', 'Ptr'].includes(header[i] ?? '');

describe('a damaged number is never read as another number: the figures stay, or a warning names its line', () => {
  const cellArb = fc.record({ row: fc.nat(), column: fc.nat(), offset: fc.nat(), byte: DAMAGE, replace: fc.boolean() });

  it.each(Object.keys(PROFILER))('profiler %s', (name) => {
    const original = profilerOutcome(name, PROFILER[name] as Buffer);
    expect(original.error).toBeNull();
    fc.assert(
      fc.property(cellArb, ({ row, column, offset, byte, replace }) => {
        const damaged = damageNumberCell(
          PROFILER[name] as Buffer,
          profilerNumberColumn,
          row,
          column,
          offset,
          byte,
          replace,
        );
        if (damaged === null) return;
        const [bytes, line] = damaged;
        const outcome = profilerOutcome(name, bytes);
        if (outcome.error !== null) expect(outcome.error.message).toContain(`${name}:${line}: `);
        else if (!outcome.warnedLines.has(line)) expect(outcome.figures).toEqual(original.figures);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(Object.keys(DUMPS))('dump %s', (name) => {
    const original = dumpOutcome(name, DUMPS[name] as Buffer);
    expect(original.error).toBeNull();
    fc.assert(
      fc.property(cellArb, ({ row, column, offset, byte, replace }) => {
        const damaged = damageNumberCell(DUMPS[name] as Buffer, dumpNumberColumn, row, column, offset, byte, replace);
        if (damaged === null) return;
        const [bytes, line] = damaged;
        const outcome = dumpOutcome(name, bytes);
        if (outcome.error !== null) expect(outcome.error.message).toContain(`${name}:${line}: `);
        else if (!outcome.warnedLines.has(line)) expect(outcome.figures).toEqual(original.figures);
      }),
      { numRuns: RUNS },
    );
  });

  it('a size of 2^53 or more in a dump is skipped with a warning naming its line, never rounded', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n - 1n }), fc.nat(20), (size, which) => {
        const lines = (DUMPS['generated.csv'] as Buffer).toString('utf8').split('\n');
        const mallocs = lines.map((l, i) => [l, i] as const).filter(([l]) => l.split(',')[1] === 'MALLOC');
        const [text, index] = mallocs[which % mallocs.length] as readonly [string, number];
        lines[index] = text.replace(/size:\d+/, `size:${size}`);
        const outcome = dumpOutcome('d.csv', Buffer.from(lines.join('\n')));
        expect(outcome.error).toBeNull();
        expect(outcome.warnedLines.has(index + 1)).toBe(true);
        expectExactFigures(outcome.figures);
      }),
      { numRuns: RUNS },
    );
  });
});

/** Rows shuffled by `keys`, rows of equal timestamps keeping their file order. */
function shuffleKeepingTies(lines: string[], keys: number[]): string[] {
  const ts = lines.map((l) => l.split(',')[4] ?? '');
  const classes = new Map<string, number[]>();
  lines.forEach((_, i) => classes.set(ts[i] as string, [...(classes.get(ts[i] as string) ?? []), i]));
  const k = lines.map((_, i) => keys[i % keys.length] as number);
  for (const members of classes.values()) {
    const sorted = members.map((i) => k[i] as number).sort((x, y) => x - y);
    members.forEach((i, n) => (k[i] = sorted[n] as number));
  }
  return lines
    .map((l, i) => [k[i] as number, i, l] as const)
    .sort((x, y) => x[0] - y[0] || x[1] - y[1])
    .map(([, , l]) => l);
}

describe("shuffling a dump's rows (equal timestamps keeping their order) never changes its figures", () => {
  const dumpArb = fc.record({
    steps: fc.integer({ min: 1, max: 6 }),
    opsPerStep: fc.integer({ min: 1, max: 12 }),
    leakFromStep: fc.option(fc.integer({ min: 1, max: 4 })),
    owners: fc.boolean(),
    seed: fc.nat(),
  });

  it('generated dumps', () => {
    fc.assert(
      fc.property(dumpArb, fc.array(fc.double({ noNaN: true }), { minLength: 1, maxLength: 200 }), (options, keys) => {
        const lines = [
          ...memscopeDumpLines({ ...options, leakFromStep: options.leakFromStep ?? null, differences: 0.2 }),
        ];
        const inOrder = dumpOutcome('d.csv', Buffer.from(`${[MEMSCOPE_HEADER, ...lines].join('\n')}\n`));
        const shuffled = dumpOutcome(
          'd.csv',
          Buffer.from(`${[MEMSCOPE_HEADER, ...shuffleKeepingTies(lines, keys)].join('\n')}\n`),
        );
        expect(shuffled.figures).toEqual(inOrder.figures);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(['baseline_dump.csv', 'leaks_dump.csv', 'memscope_dump_20250428113810.csv'])('the corpus dump %s', (name) => {
    const [header, ...lines] = readFileSync(join(FIX, 'memscope', name), 'utf8')
      .trimEnd()
      .split('\n');
    const inOrder = dumpOutcome(name, Buffer.from(`${[header, ...lines].join('\n')}\n`));
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true }), { minLength: 1, maxLength: 400 }), (keys) => {
        const shuffled = dumpOutcome(name, Buffer.from(`${[header, ...shuffleKeepingTies(lines, keys)].join('\n')}\n`));
        expect(shuffled.figures).toEqual(inOrder.figures);
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});

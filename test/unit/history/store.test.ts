// The history file: what a point records, how the file is bounded (points, bytes, oldest first out), that consecutive
// versions differ in a few lines only, and that a corrupt file is an error naming its line and field.
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/common/errors.js';
import {
  emptyHistory,
  orNull,
  parseHistory,
  serializeHistory,
  type History,
  type PointMeta,
} from '../../../src/history/format.js';
import { pointEnvironment, pointValues, type PointValues } from '../../../src/history/point.js';
import { appendPoint, recordPoint } from '../../../src/history/store.js';
import { thrown } from '../../helpers/thrown.js';
import { MiB } from '../../helpers/story.js';

function meta(n: number, extra: Partial<PointMeta> = {}): PointMeta {
  return {
    commit: n.toString(16).padStart(40, 'a'),
    run: String(n),
    time: `2026-01-0${1 + (n % 9)}T00:00:00Z`,
    baseline: null,
    environment: {},
    ...extra,
  };
}

function modules(values: Record<string, number>): PointValues {
  return { keys: new Map([['modules', new Map(Object.entries(values))]]), rollups: new Map(), devices: 1 };
}

function valuesOf(history: History, section: string, key: string): (number | null)[] {
  const s = history.sections.get(section)!;
  const i = s.keyIndex.get(key)!;
  return history.points.map((_, p) => orNull(s.keyColumns.at(i, p)));
}

describe('recording points', () => {
  it('reads back every key at every point, a key gone from a run absent there, and back when it returns', () => {
    const history = emptyHistory({ branch: 'main' });
    appendPoint(history, meta(1), modules({ 'DEV_MEM/dev0/APP': 100 * MiB, 'DEV_MEM/dev0/HCCL': 400 * MiB }));
    appendPoint(history, meta(2), modules({ 'DEV_MEM/dev0/APP': 100 * MiB }));
    appendPoint(
      history,
      meta(3),
      modules({ 'DEV_MEM/dev0/APP': 120 * MiB, 'DEV_MEM/dev0/HCCL': 400 * MiB, 'HOST_MEM/APP': 0 }),
    );
    const read = parseHistory(serializeHistory(history), 'default.jsonl');
    expect(valuesOf(read, 'modules', 'DEV_MEM/dev0/APP')).toEqual([100 * MiB, 100 * MiB, 120 * MiB]);
    expect(valuesOf(read, 'modules', 'DEV_MEM/dev0/HCCL')).toEqual([400 * MiB, null, 400 * MiB]);
    expect(valuesOf(read, 'modules', 'HOST_MEM/APP')).toEqual([null, null, 0]);
    expect(read.points.map((p) => p.commit)).toEqual([meta(1).commit, meta(2).commit, meta(3).commit]);
    expect(serializeHistory(read)).toBe(serializeHistory(history));
  });

  it('writes the first point whole, later points as changes, the environment only when it changed', () => {
    const history = emptyHistory();
    appendPoint(history, meta(1, { environment: { cann: '8.3.RC1' } }), modules({ a: 10, b: 20 }));
    appendPoint(history, meta(2, { environment: { cann: '8.3.RC1' } }), modules({ a: 10, b: 25 }));
    const { text } = appendPoint(history, meta(3, { environment: { cann: '9.0.RC1' } }), modules({ a: 7, b: 25 }));
    expect(text.split('\n')).toEqual([
      '{"format":"ascend-memory-gate history","version":1}',
      '{"keys":{"modules":["a","b"]}}',
      `{"commit":"${meta(1).commit}","run":"1","time":"2026-01-02T00:00:00Z","baseline":null,"environment":{"cann":"8.3.RC1"},"values":{"modules":[10,20]}}`,
      `{"commit":"${meta(2).commit}","run":"2","time":"2026-01-03T00:00:00Z","baseline":null,"changes":{"modules":[1,5]}}`,
      `{"commit":"${meta(3).commit}","run":"3","time":"2026-01-04T00:00:00Z","baseline":null,"environment":{"cann":"9.0.RC1"},"changes":{"modules":[0,-3]}}`,
      '',
    ]);
  });

  it('keeps at most maxPoints, oldest first out; each version differs from the last only in its first point and its new line', () => {
    const history = emptyHistory();
    const texts: string[] = [];
    for (let n = 1; n <= 8; n++)
      texts.push(
        appendPoint(history, meta(n), modules({ a: n % 3, b: 100, [`k${n % 2}`]: n }), {
          maxPoints: 5,
          maxBytes: 1 << 20,
        }).text,
      );
    expect(history.points.map((p) => p.run)).toEqual(['4', '5', '6', '7', '8']);
    expect(valuesOf(parseHistory(texts[7]!, 'h'), 'modules', 'a')).toEqual([1, 2, 0, 1, 2]);
    for (let v = 5; v < 8; v++) {
      const before = texts[v - 1]!.split('\n');
      const after = texts[v]!.split('\n');
      // Header and table stay; the old first point goes, the next is written whole, the rest are the same bytes, one new line.
      expect(after[0]).toBe(before[0]);
      expect(after[1]).toBe(before[1]);
      expect(after.slice(3, -2)).toEqual(before.slice(4, -1));
      expect(after[2]).toContain('"values"');
    }
  });

  it('drops the oldest points until the file fits maxBytes; a point that alone does not fit is refused and nothing changes', () => {
    const history = emptyHistory();
    for (let n = 1; n <= 6; n++)
      appendPoint(history, meta(n), modules({ a: n * 1000 }), { maxPoints: 100, maxBytes: 700 });
    const text = serializeHistory(history);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(700);
    expect(history.points.length).toBeLessThan(6);
    expect(history.points.at(-1)?.run).toBe('6');
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`DEV_MEM/dev0/MODULE_${i}`, i]));
    const error = thrown(() => appendPoint(history, meta(7), modules(many), { maxPoints: 100, maxBytes: 700 }));
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(
      /^this run's point alone takes \d+ bytes, more than the history's limit of 700: it was not recorded/,
    );
    expect(serializeHistory(history)).toBe(text);
  });

  it('a re-run of the same run and commit replaces its point instead of adding one', () => {
    const history = emptyHistory();
    recordPoint(history, meta(1), modules({ a: 1 }));
    recordPoint(history, meta(2), modules({ a: 2 }));
    const again = recordPoint(history, meta(2, { attempt: 2 }), modules({ a: 3 }));
    expect(again.replaced).toBe(true);
    expect(history.points.map((p) => [p.run, p.attempt])).toEqual([
      ['1', undefined],
      ['2', 2],
    ]);
    expect(valuesOf(parseHistory(again.text, 'h'), 'modules', 'a')).toEqual([1, 3]);
  });

  it('keys that no kept point has leave the table once they are a quarter of it; values are unchanged', () => {
    const history = emptyHistory();
    const old = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`dev0/op_${i}`, i]));
    appendPoint(history, meta(1), modules({ ...old, keep: 5 }), { maxPoints: 2, maxBytes: 1 << 20 });
    appendPoint(history, meta(2), modules({ keep: 6, fresh: 1 }), { maxPoints: 2, maxBytes: 1 << 20 });
    expect(history.sections.get('modules')?.keys).toHaveLength(42);
    const { text } = appendPoint(history, meta(3), modules({ keep: 7, fresh: 2 }), { maxPoints: 2, maxBytes: 1 << 20 });
    expect(text.split('\n')[1]).toBe('{"keys":{"modules":["keep","fresh"]}}');
    const read = parseHistory(text, 'h');
    expect(valuesOf(read, 'modules', 'keep')).toEqual([6, 7]);
    expect(valuesOf(read, 'modules', 'fresh')).toEqual([1, 2]);
  });
});

describe('what a point records of a run', () => {
  function run(devices: number): Parameters<typeof pointValues>[0] & Parameters<typeof pointEnvironment>[0] {
    const modules: Record<string, { peak: number; current: number; allocs: number; frees: number }> = {};
    for (let d = 0; d < devices; d++)
      modules[`DEV_MEM/dev${d}/APP`] = { peak: (100 + d) * MiB, current: 0, allocs: 1, frees: 1 };
    modules['HOST_MEM/APP'] = { peak: 5 * MiB, current: 0, allocs: 1, frees: 1 };
    const kernels = { 'dev3/aclnnMatmul_0': { diff: -4096, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' } };
    return {
      sections: { modules, kernels },
      meta: {
        files: 1,
        records: 1,
        skipped: 0,
        allocFailures: {},
        nodes: {
          a: { devices: [], files: 1, records: 1, skipped: 0, environment: { cann: '8.3.RC1', driver: '24.1' } },
          b: { devices: [], files: 1, records: 1, skipped: 0, environment: { cann: '9.0.RC1' } },
        },
      },
    };
  }

  it('up to 64 devices, every key with its compared value', () => {
    const values = pointValues(run(64));
    expect(values.devices).toBe(64);
    expect(values.keys.get('modules')?.size).toBe(65);
    expect(values.keys.get('modules')?.get('DEV_MEM/dev63/APP')).toBe(163 * MiB);
    expect(values.keys.get('kernels')?.get('dev3/aclnnMatmul_0')).toBe(-4096);
    expect(values.rollups.size).toBe(0);
  });

  it("above 64 devices, each key group's min, median, max, device count and worst device; a key of no device and a group of one device stay keys", () => {
    const values = pointValues(run(65));
    expect(values.devices).toBe(65);
    expect([...(values.keys.get('modules')?.keys() ?? [])]).toEqual(['HOST_MEM/APP']);
    expect(values.rollups.get('modules')?.get('DEV_MEM/*/APP')).toEqual({
      min: 100 * MiB,
      median: 132 * MiB,
      max: 164 * MiB,
      devices: 65,
      worst: 'dev64',
    });
    expect(values.keys.get('kernels')?.get('dev3/aclnnMatmul_0')).toBe(-4096);
    const history = emptyHistory();
    const { text } = appendPoint(history, meta(1), values);
    const read = parseHistory(text, 'h');
    const section = read.sections.get('modules')!;
    expect(section.rollups).toEqual(['DEV_MEM/*/APP']);
    const latest = Array.from({ length: section.rollupColumns.size }, (_, i) => section.rollupColumns.latest(i));
    expect(latest).toEqual([100 * MiB, 132 * MiB, 164 * MiB, 65, 64]);
  });

  it("the environment as one value per item, nodes that disagree joined: what a step's note quotes", () => {
    expect(pointEnvironment(run(1))).toEqual({ cann: '8.3.RC1 | 9.0.RC1', driver: '24.1 | (unset)' });
  });
});

describe('a corrupt history is an error naming the line and the field, never an empty history', () => {
  const good = (() => {
    const history = emptyHistory({ branch: 'main' });
    appendPoint(history, meta(1), modules({ a: 10, b: 20 }));
    return appendPoint(history, meta(2), modules({ a: 11, b: 20 })).text;
  })();
  const lines = good.split('\n');
  const withLine = (n: number, line: string): string => lines.map((l, i) => (i === n - 1 ? line : l)).join('\n');
  const message = (text: string): string => (thrown(() => parseHistory(text, 'default.jsonl')) as Error).message;

  it.each([
    [
      'cut short (no last line break)',
      good.slice(0, -1),
      'default.jsonl:4: the last line has no line break: the file was cut short',
    ],
    [
      'empty',
      '',
      'default.jsonl: empty, not a history file (its first line is the header {"format":"ascend-memory-gate history",…})',
    ],
    [
      'not JSON',
      withLine(4, '{"commit": oops}'),
      'default.jsonl:4:12: not valid JSON: expected a JSON value, found "oops"',
    ],
    [
      'a key given twice',
      withLine(2, '{"keys":{"modules":["a","b"]},"keys":{}}'),
      'default.jsonl:2:31: duplicate key "keys" at /keys (first at column 2): JSON keeps only the last one, so keep one of them (a merge conflict resolved by keeping both halves?)',
    ],
    [
      'written by a newer version',
      withLine(1, '{"format":"ascend-memory-gate history","version":2}'),
      'default.jsonl:1: /version: is 2: this history was written by a newer ascend-memory-gate (this one reads version 1); upgrade the Action or CLI',
    ],
    [
      'not a history',
      withLine(1, '{"format":"something else","version":1}'),
      'default.jsonl:1: /format: must be "ascend-memory-gate history", got "something else"',
    ],
    [
      'a key listed twice',
      withLine(2, '{"keys":{"modules":["a","a"]}}'),
      'default.jsonl:2: /keys/modules/1: "a" is listed twice',
    ],
    [
      'changes on the first point',
      withLine(3, lines[3]!),
      'default.jsonl:3: /changes: the first point writes its values whole (values, rollups), not changes',
    ],
    [
      'an unknown section',
      withLine(4, lines[3]!.replace('"modules"', '"kernels"')),
      "default.jsonl:4: /changes/kernels: names section 'kernels', which the key table (line 2) does not list",
    ],
    [
      'a position past the table',
      withLine(4, lines[3]!.replace('[0,1]', '[5,1]')),
      'default.jsonl:4: /changes/modules/0: reaches position 5, but the key table (line 2) has 2',
    ],
    [
      'an odd change list',
      withLine(4, lines[3]!.replace('[0,1]', '[0,1,2]')),
      'default.jsonl:4: /changes/modules: must hold pairs (positions skipped, change), got 3 numbers',
    ],
    [
      'a value past 2^53',
      withLine(4, lines[3]!.replace('[0,1]', `[0,${Number.MAX_SAFE_INTEGER}]`)),
      'default.jsonl:4: /changes/modules/1: makes a value past 2^53 - 1, which cannot be exact',
    ],
    [
      'a bad commit',
      withLine(4, lines[3]!.replace(meta(2).commit, 'HEAD')),
      'default.jsonl:4: /commit: must be a commit SHA (4 to 64 hex digits), got "HEAD"',
    ],
  ])('%s', (_, text, expected) => {
    expect(message(text)).toBe(expected);
  });
});

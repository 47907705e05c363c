// Committed baselines: corrupt or invalid files are errors naming file and line:column or JSON pointer; merges are exact; writes are atomic and deterministic.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError, SchemaError } from '../../../src/common/errors.js';
import {
  loadBaseline,
  mergeBaseline,
  parseBaseline,
  serializeBaseline,
  writeBaselineAtomic,
  type Baseline,
} from '../../../src/gate/baseline.js';
import { locateJsonSyntaxError, parseJson } from '../../../src/json/reader.js';
import { SnapshotBuilder, type Snapshot } from '../../../src/model/snapshot.js';
import { stableStringify } from '../../../src/model/document-json.js';
import { thrown, thrownAsync } from '../../helpers/thrown.js';
import { kernels, modules } from '../../../src/model/sections/index.js';

/** A run as the parsers build it: APP and RUNTIME on dev0, one kernel. */
function runSnapshot(): Snapshot {
  const builder = new SnapshotBuilder();
  builder.files = 2;
  builder.records = 3;
  builder.add(modules, 'DEV_MEM/dev0/APP', { peak: 2_078_195_712, current: 0, allocs: 12, frees: 12 });
  builder.add(modules, 'DEV_MEM/dev0/RUNTIME', { peak: 44_138_496, current: 44_138_496, allocs: 18, frees: 0 });
  builder.add(modules, 'DEV_PROC_MEM/dev0/APP', {
    peak: 2_078_195_712,
    current: 2_078_195_712,
    allocs: null,
    frees: null,
  });
  builder.add(kernels, 'dev0/aclnnMatmul_0.1', { diff: -4096, rows: 3, added: 1, removed: 0, event: 'KERNEL_LAUNCH' });
  builder.noteDevice('dev0');
  return builder.build();
}

/** A version-1 baseline (before sections): still read, migrated to version 2. */
const V1 = {
  version: 1,
  modules: { 'DEV_MEM/dev0/APP': { peak: 100, current: 50, allocs: 2, frees: 1 } },
  kernels: { 'dev0/matmul_v1': { diff: -6, rows: 1, added: 0, removed: 0, event: null } },
};

const VALID: Baseline = { version: 2, sections: { modules: V1.modules, kernels: V1.kernels } };

describe('parseBaseline', () => {
  it('reads what parse --json writes (a built snapshot is a valid baseline)', () => {
    const run = runSnapshot();
    expect(parseBaseline(stableStringify(run), 'baselines/main.json')).toEqual(run);
  });

  it('accepts a baseline without meta, with provenance and extra provenance fields', () => {
    const baseline: Baseline = {
      ...VALID,
      source: {
        commit: 'abc123',
        runId: 42,
        date: '2026-06-13T17:00:34Z',
        repository: 'o/r',
        workflow: 'ci',
        runAttempt: 2,
      },
    };
    expect(parseBaseline(JSON.stringify(baseline), 'b.json')).toEqual(baseline);
  });

  it('accepts a UTF-8 BOM and CRLF line endings (a file saved on Windows)', () => {
    const text = `\uFEFF${serializeBaseline(VALID).replace(/\n/g, '\r\n')}`;
    expect(parseBaseline(text, 'b.json')).toEqual(VALID);
  });

  it('reads a version-1 baseline (top-level modules and kernels) as version 2', () => {
    expect(parseBaseline(JSON.stringify({ ...V1, source: { runId: 3 } }), 'b.json')).toEqual({
      ...VALID,
      source: { runId: 3 },
    });
  });

  const peak = (value: unknown): unknown => ({
    ...V1,
    modules: { 'DEV_MEM/dev0/APP': { ...V1.modules['DEV_MEM/dev0/APP'], peak: value } },
  });
  const diff = (value: unknown): unknown => ({
    ...V1,
    kernels: { 'dev0/matmul_v1': { ...V1.kernels['dev0/matmul_v1'], diff: value } },
  });
  const BYTES = 'must be a non-negative integer number of bytes (at most 2^53 - 1)';
  const SIGNED = 'must be an integer number of bytes, negative or not (at most 2^53 - 1 in size)';
  const AT_APP = ' (at modules["DEV_MEM/dev0/APP"].peak)';

  it.each<[string, unknown, string, string]>([
    ['a negative peak', peak(-1), '/modules/DEV_MEM~1dev0~1APP/peak', `${BYTES}, got -1${AT_APP}`],
    ['a fractional peak', peak(1.5), '/modules/DEV_MEM~1dev0~1APP/peak', `${BYTES}, got 1.5${AT_APP}`],
    ['a peak written as a string', peak('100'), '/modules/DEV_MEM~1dev0~1APP/peak', `${BYTES}, got "100"${AT_APP}`],
    [
      'a peak beyond 2^53 - 1',
      peak(2 ** 53),
      '/modules/DEV_MEM~1dev0~1APP/peak',
      `${BYTES}, got 9007199254740992${AT_APP}`,
    ],
    ['a null peak', peak(null), '/modules/DEV_MEM~1dev0~1APP/peak', `${BYTES}, got null${AT_APP}`],
    [
      'a fractional kernel diff',
      diff(-1.5),
      '/kernels/dev0~1matmul_v1/diff',
      `${SIGNED}, got -1.5 (at kernels["dev0/matmul_v1"].diff)`,
    ],
    [
      'a kernel diff below -(2^53 - 1)',
      diff(-(2 ** 53)),
      '/kernels/dev0~1matmul_v1/diff',
      `${SIGNED}, got -9007199254740992 (at kernels["dev0/matmul_v1"].diff)`,
    ],
    [
      'a module without current',
      { ...V1, modules: { 'DEV_MEM/dev0/APP': { peak: 1, allocs: null, frees: null } } },
      '/modules/DEV_MEM~1dev0~1APP/current',
      'required property is missing (at modules["DEV_MEM/dev0/APP"].current)',
    ],
    [
      'a misspelt module field',
      { ...V1, modules: { 'DEV_MEM/dev0/APP': { peak: 1, current: 1, allocs: null, frees: null, peek: 1 } } },
      '/modules/DEV_MEM~1dev0~1APP/peek',
      'unknown property; expected one of: peak, current, allocs, frees (at modules["DEV_MEM/dev0/APP"].peek)',
    ],
    [
      'a negative alloc count',
      { ...V1, modules: { 'DEV_MEM/dev0/APP': { peak: 1, current: 1, allocs: -2, frees: null } } },
      '/modules/DEV_MEM~1dev0~1APP/allocs',
      'must be a non-negative integer or null, got -2 (at modules["DEV_MEM/dev0/APP"].allocs)',
    ],
    [
      'a key holding ~ and /',
      { ...V1, kernels: { 'dev0/a~b/c': { diff: 1, rows: -1, added: 0, removed: 0, event: null } } },
      '/kernels/dev0~1a~0b~1c/rows',
      'must be a non-negative integer, got -1 (at kernels["dev0/a~b/c"].rows)',
    ],
    [
      'a newer version',
      { ...V1, version: 3 },
      '/version',
      'is 3: this baseline was written by a newer ascend-memory-gate (this one reads versions 1 and 2); upgrade the Action or CLI',
    ],
    [
      'a version-2 peak written as a string',
      {
        version: 2,
        sections: { modules: { 'DEV_MEM/dev0/APP': { peak: '1', current: 1, allocs: null, frees: null } } },
      },
      '/sections/modules/DEV_MEM~1dev0~1APP/peak',
      `${BYTES}, got "1" (at sections.modules["DEV_MEM/dev0/APP"].peak)`,
    ],
    [
      'an unknown section',
      { version: 2, sections: { moduels: {} } },
      '/sections/moduels',
      'unknown property; expected one of: modules, components, operators, graphs, kernels, steps, stepLeaks, unfreed, owners, opFootprint, inefficient, allocator, allocationSites, ooms, oomModules',
    ],
    ['no version', { modules: {}, kernels: {} }, '/version', 'required property is missing'],
    ['no kernels', { version: 1, modules: {} }, '/kernels', 'required property is missing'],
    [
      'an unknown top-level field',
      { ...V1, moduels: {} },
      '/moduels',
      'unknown property; expected one of: $schema, version, modules, kernels, meta, source',
    ],
    ['modules as a list', { ...V1, modules: [] }, '/modules', 'must be object, got array []'],
    [
      'an incomplete meta',
      { ...V1, meta: { files: 1, records: 1, skipped: 0 } },
      '/meta/allocFailures',
      'required property is missing',
    ],
    ['a commit that is a number', { ...V1, source: { commit: 123 } }, '/source/commit', 'must be a string, got 123'],
    ['a snapshot wrapped in an array', [V1], '', 'must be object, got an array'],
  ])('rejects %s, naming the file and the JSON pointer', (_story, json, pointer, reason) => {
    const err = thrown(() => parseBaseline(JSON.stringify(json), 'baselines/main.json'));
    expect(err).toBeInstanceOf(SchemaError);
    expect(err.message).toBe(`baselines/main.json: ${pointer || '/'}: ${reason}`);
    expect(err).toMatchObject({ file: 'baselines/main.json', pointer });
  });

  it.each<[string, string, string]>([
    ['an empty file', '', '1:1: not valid JSON: expected a JSON value, found end of file'],
    [
      'a file cut off mid-write',
      '{\n  "kernels": {},\n  "modules": {\n    "DEV_MEM/dev0/APP": {\n      "peak": 1',
      '5:16: not valid JSON: expected "," or "}" after a property value, found end of file',
    ],
    [
      'a trailing comma',
      '{\n  "version": 1,\n}\n',
      '3:1: not valid JSON: expected a double-quoted property name, found "}"',
    ],
    [
      'an unquoted word',
      '{\n  "version": 1,\n  "modules": nope\n}',
      '3:14: not valid JSON: expected a JSON value, found "nope"',
    ],
    ['a misspelt literal', '{"event": nul}', '1:11: not valid JSON: expected a JSON value, found "nul"'],
    [
      'a merge conflict left in',
      '{\n<<<<<<< HEAD\n  "version": 1\n}',
      '2:1: not valid JSON: expected a double-quoted property name, found "<"',
    ],
    [
      'CRLF line endings',
      '{\r\n  "version": 1\r\n  "modules": {}\r\n}',
      '3:3: not valid JSON: expected "," or "}" after a property value, found "\\""',
    ],
    ['a BOM before the error', '\uFEFF{"a" 1}', '1:6: not valid JSON: expected ":" after a property name, found "1"'],
    ['two documents', '{}\n{}', '2:1: not valid JSON: expected end of file after the JSON value, found "{"'],
    [
      'a raw newline inside a string',
      '{"a": "x\ny"}',
      '1:9: not valid JSON: expected an escaped control character (\\n, \\t, ...) inside a string, found "\\n"',
    ],
    [
      'a bad escape',
      '{"a": "\\x"}',
      '1:9: not valid JSON: expected an escape such as \\" \\\\ \\n \\t or \\uXXXX, found "x"',
    ],
    ['a number with a leading dot', '{"a": .5}', '1:7: not valid JSON: expected a JSON value, found "."'],
    [
      'a number without digits after the point',
      '{"a": 1.}',
      '1:9: not valid JSON: expected a digit after the decimal point, found "}"',
    ],
  ])('reports %s as file:line:column, never as "no baseline"', (_story, text, where) => {
    const err = thrown(() => parseBaseline(text, 'baselines/main.json'));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(`baselines/main.json:${where}`);
  });

  it('finds a syntax error exactly when JSON.parse does, wherever a valid document is cut or altered', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.string({ maxLength: 2 }), (json, at, insert) => {
        const cut = at % (json.length + 1);
        const text = json.slice(0, cut) + insert + json.slice(cut);
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(locateJsonSyntaxError(text) === null).toBe(parses);
      }),
      { numRuns: 2000 },
    );
  });

  it('parses valid JSON as JSON.parse does', () => {
    expect(parseJson('{"a":[1,-2.5e3,true,null,"\\u00e9"]}', 'x.json')).toEqual({ a: [1, -2500, true, null, 'é'] });
  });
});

describe('loadBaseline', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gate-baseline-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns null only when the file does not exist', async () => {
    expect(await loadBaseline(path.join(dir, 'baselines/main.json'))).toBeNull();
  });

  it('reads a committed baseline', async () => {
    const file = path.join(dir, 'main.json');
    await writeFile(file, serializeBaseline(VALID));
    expect(await loadBaseline(file)).toEqual(VALID);
  });

  it('throws, naming the file, when the path is a directory', async () => {
    const err = await thrownAsync(loadBaseline(dir));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(
      new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read the baseline: EISDIR`),
    );
  });

  it('throws on a corrupt file instead of treating it as "no baseline"', async () => {
    const file = path.join(dir, 'main.json');
    await writeFile(file, '{"version": 1, "modules": {');
    const err = await thrownAsync(loadBaseline(file));
    expect(err.message).toBe(`${file}:1:28: not valid JSON: expected a double-quoted property name, found end of file`);
  });

  it('throws on an invalid file, naming the pointer', async () => {
    const file = path.join(dir, 'main.json');
    await writeFile(file, JSON.stringify({ ...VALID, version: '1' }));
    const err = await thrownAsync(loadBaseline(file));
    expect(err.message).toBe(`${file}: /version: must be 2, got "1"`);
  });
});

describe('mergeBaseline', () => {
  const existing: Baseline = {
    $schema: '../schemas/baseline.schema.json',
    version: 2,
    sections: {
      modules: {
        'DEV_MEM/dev0/APP': { peak: 1000, current: 0, allocs: 12, frees: 12 },
        'DEV_MEM/dev0/RUNTIME': { peak: 44_138_496, current: 44_138_496, allocs: 18, frees: 0 },
        'DEV_MEM/dev1/APP': { peak: 7, current: 7, allocs: 1, frees: 0 },
      },
      kernels: {
        'dev0/aclnnMatmul_0.1': { diff: -4096, rows: 3, added: 1, removed: 0, event: 'KERNEL_LAUNCH' },
        'dev1/Old': { diff: 1, rows: 1, added: 0, removed: 0, event: null },
      },
    },
    meta: { files: 9, records: 9, skipped: 9, allocFailures: { dev0: 0, dev1: 0 } },
    source: { commit: 'old', runId: 1 },
  };

  it('lists added, changed, kept and unchanged keys exactly, and keeps keys this run lacks', () => {
    const run = runSnapshot();
    const { baseline, changes } = mergeBaseline(existing, run, {
      source: { commit: 'new', runId: 2, date: '2026-06-13T17:00:34Z' },
    });
    expect(changes).toEqual({
      added: ['DEV_PROC_MEM/dev0/APP'],
      changed: ['DEV_MEM/dev0/APP'],
      kept: ['DEV_MEM/dev1/APP', 'dev1/Old'],
      pruned: [],
      unchanged: 2,
    });
    expect(baseline).toEqual({
      $schema: '../schemas/baseline.schema.json',
      version: 2,
      sections: {
        modules: {
          'DEV_MEM/dev0/APP': run.sections.modules!['DEV_MEM/dev0/APP'],
          'DEV_MEM/dev0/RUNTIME': existing.sections.modules!['DEV_MEM/dev0/RUNTIME'],
          'DEV_MEM/dev1/APP': existing.sections.modules!['DEV_MEM/dev1/APP'],
          'DEV_PROC_MEM/dev0/APP': run.sections.modules!['DEV_PROC_MEM/dev0/APP'],
        },
        kernels: {
          'dev0/aclnnMatmul_0.1': existing.sections.kernels!['dev0/aclnnMatmul_0.1'],
          'dev1/Old': existing.sections.kernels!['dev1/Old'],
        },
      },
      meta: run.meta,
      source: { commit: 'new', runId: 2, date: '2026-06-13T17:00:34Z' },
    });
  });

  it('prunes keys this run lacks only when asked', () => {
    const { baseline, changes } = mergeBaseline(existing, runSnapshot(), { prune: true });
    expect(changes).toEqual({
      added: ['DEV_PROC_MEM/dev0/APP'],
      changed: ['DEV_MEM/dev0/APP'],
      kept: [],
      pruned: ['DEV_MEM/dev1/APP', 'dev1/Old'],
      unchanged: 2,
    });
    expect(Object.keys(baseline.sections.modules ?? {})).toEqual([
      'DEV_MEM/dev0/APP',
      'DEV_MEM/dev0/RUNTIME',
      'DEV_PROC_MEM/dev0/APP',
    ]);
    expect(Object.keys(baseline.sections.kernels ?? {})).toEqual(['dev0/aclnnMatmul_0.1']);
  });

  it('counts a change in any field, not only the compared one', () => {
    const run: Snapshot = {
      version: 2,
      sections: {
        modules: { 'DEV_MEM/dev1/APP': { peak: 7, current: 7, allocs: 2, frees: 0 } },
        kernels: { 'dev1/Old': { diff: 1, rows: 1, added: 0, removed: 0, event: 'OP_LAUNCH' } },
      },
      series: {},
      meta: { files: 1, records: 1, skipped: 0, allocFailures: {} },
    };
    expect(mergeBaseline(existing, run).changes).toEqual({
      added: [],
      changed: ['DEV_MEM/dev1/APP', 'dev1/Old'],
      kept: ['DEV_MEM/dev0/APP', 'DEV_MEM/dev0/RUNTIME', 'dev0/aclnnMatmul_0.1'],
      pruned: [],
      unchanged: 0,
    });
  });

  it('starts a first baseline from the run, everything added, no provenance unless given', () => {
    const run = runSnapshot();
    const { baseline, changes } = mergeBaseline(null, run);
    expect(changes).toEqual({
      added: ['DEV_MEM/dev0/APP', 'DEV_MEM/dev0/RUNTIME', 'DEV_PROC_MEM/dev0/APP', 'dev0/aclnnMatmul_0.1'],
      changed: [],
      kept: [],
      pruned: [],
      unchanged: 0,
    });
    const { series: _series, ...withoutSeries } = run;
    expect(baseline).toEqual(withoutSeries);
    expect('source' in baseline).toBe(false);
  });

  it('refuses a run with no memory statistics, so the baseline stays untouched', () => {
    const empty = new SnapshotBuilder().build();
    const err = thrown(() => mergeBaseline(existing, empty, { prune: true }));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(
      'this run has no memory statistics: refusing to update the baseline from it (the baseline was left untouched)',
    );
  });

  it('changes neither the old baseline nor the run, and shares no objects with them', () => {
    const run = runSnapshot();
    const before = structuredClone({ existing, run });
    const { baseline } = mergeBaseline(existing, run, { source: { commit: 'x' } });
    expect({ existing, run }).toEqual(before);
    (baseline.sections.modules!['DEV_MEM/dev1/APP'] as { peak: number }).peak = 0;
    (baseline.sections.modules!['DEV_MEM/dev0/APP'] as { peak: number }).peak = 0;
    baseline.meta!.files = 0;
    expect({ existing, run }).toEqual(before);
  });

  it('keeps a kernel literally named __proto__ as a key', () => {
    const run = runSnapshot();
    run.sections.kernels = JSON.parse('{"__proto__": {"diff": 1, "rows": 1, "added": 0, "removed": 0, "event": null}}');
    const { baseline, changes } = mergeBaseline(null, run);
    expect(changes.added).toContain('__proto__');
    expect(Object.keys(baseline.sections.kernels ?? {})).toEqual(['__proto__']);
  });
});

describe('writeBaselineAtomic', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gate-write-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes sorted keys, 2-space indent and a trailing newline', async () => {
    const file = path.join(dir, 'baselines/main.json');
    await writeBaselineAtomic(file, {
      version: 2,
      sections: {
        modules: { 'SVM_MEM/RUNTIME': { peak: 19_927_040, frees: 0, current: 19_927_040, allocs: 37 } },
        kernels: { 'dev0/matmul_v1': { rows: 1, diff: 6, removed: 0, added: 0, event: 'KERNEL_LAUNCH' } },
      },
      source: { runId: 7, commit: 'abc' },
    });
    expect(await readFile(file, 'utf8')).toBe(
      [
        '{',
        '  "sections": {',
        '    "kernels": {',
        '      "dev0/matmul_v1": {',
        '        "added": 0,',
        '        "diff": 6,',
        '        "event": "KERNEL_LAUNCH",',
        '        "removed": 0,',
        '        "rows": 1',
        '      }',
        '    },',
        '    "modules": {',
        '      "SVM_MEM/RUNTIME": {',
        '        "allocs": 37,',
        '        "current": 19927040,',
        '        "frees": 0,',
        '        "peak": 19927040',
        '      }',
        '    }',
        '  },',
        '  "source": {',
        '    "commit": "abc",',
        '    "runId": 7',
        '  },',
        '  "version": 2',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('creates missing directories and leaves no temporary file behind', async () => {
    const file = path.join(dir, 'deep/er/baselines/main.json');
    await writeBaselineAtomic(file, VALID);
    expect(await readdir(path.dirname(file))).toEqual(['main.json']);
    expect(await loadBaseline(file)).toEqual(VALID);
  });

  it('is byte-identical for the same baseline twice, whatever the key order it was built in', async () => {
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    const { baseline } = mergeBaseline(null, runSnapshot(), { source: { commit: 'c', runId: 1 } });
    const reversed = (value: unknown): unknown =>
      Array.isArray(value) || value === null || typeof value !== 'object'
        ? value
        : Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([k, v]) => [k, reversed(v)]),
          );
    const reordered = reversed(baseline) as Baseline;
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(baseline));
    await writeBaselineAtomic(a, baseline);
    const first = await readFile(a);
    await writeBaselineAtomic(a, baseline);
    await writeBaselineAtomic(b, reordered);
    expect((await readFile(a)).equals(first)).toBe(true);
    expect((await readFile(b)).equals(first)).toBe(true);
  });

  it('replaces an existing baseline whole', async () => {
    const file = path.join(dir, 'main.json');
    await writeFile(file, 'old contents that are much longer than the new ones '.repeat(100));
    await writeBaselineAtomic(file, VALID);
    expect(await readFile(file, 'utf8')).toBe(serializeBaseline(VALID));
    expect(await readdir(dir)).toEqual(['main.json']);
  });

  it('removes its temporary file when the rename fails', async () => {
    const target = path.join(dir, 'main.json');
    await mkdir(path.join(target, 'occupied'), { recursive: true });
    const err = await thrownAsync(writeBaselineAtomic(target, VALID));
    expect(err.message).toMatch(/EISDIR|ENOTEMPTY|EEXIST|EPERM/);
    expect(await readdir(dir)).toEqual(['main.json']);
    expect(await readdir(target)).toEqual(['occupied']);
  });
});

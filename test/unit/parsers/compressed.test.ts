// Compressed inputs (issue 29): a `.gz` file is read wherever the plain file is (a folder, a glob, a path named
// directly, a node snapshot), giving the same figures; a damaged one is one line naming it.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';
import { SnapshotBuilder } from '../../../src/model/snapshot.js';
import { gunzipWhole, inflatePickle } from '../../../src/parsers/compressed.js';
import { parsePlogFile } from '../../../src/parsers/plog/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'compressed-inputs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const cwd = process.cwd();
  process.chdir(tmp);
  try {
    const code = await runCli(argv, {
      out: (t) => (out += t),
      err: (t) => (err += t),
      width: () => 400,
      color: () => false,
    });
    return { code, out, err };
  } finally {
    process.chdir(cwd);
  }
}

/** `from` (relative to the repository) copied as `to`, and gzipped as `to.gz` in a folder of its own. */
function both(from: string, to: string): { plain: string; gz: string } {
  const plain = join(tmp, 'plain', to);
  const gz = join(tmp, 'gz', `${to}.gz`);
  mkdirSync(dirname(plain), { recursive: true });
  mkdirSync(dirname(gz), { recursive: true });
  copyFileSync(join(ROOT, from), plain);
  writeFileSync(gz, gzipSync(readFileSync(join(ROOT, from))));
  return { plain, gz };
}

const sections = (out: string): unknown => (JSON.parse(out) as { sections: unknown }).sections;

describe('a .gz input gives the figures of the plain file', () => {
  it.each<[string, string, string]>([
    ['plog', 'examples/plog/rank_0/plog-4052516_20240708222745354.log', 'plog/rank_0/plog-1.log'],
    [
      'compare',
      'test/fixtures/memory-compare/memory_compare_20250610093000.csv',
      'compare/memory_compare_20250610093000.csv',
    ],
    [
      'profiler',
      'test/fixtures/torch_npu/level0-2025-01/rank0_ascend_pt/npu_module_mem.csv',
      'profiler/npu_module_mem.csv',
    ],
    ['dump', 'test/fixtures/memscope/memscope_dump_20250428113810.csv', 'dump/memscope_dump_20250428113810.csv'],
    [
      'memory-snapshot',
      'test/fixtures/memory-snapshot/corpus/snapshot_expandable.pkl',
      'memory-snapshot/snapshot_expandable.pkl',
    ],
  ])('--%s: in a folder, as a glob and named directly', async (flag, from, to) => {
    const { plain, gz } = both(from, to);
    const expected = await cli('parse', `--${flag}`, plain, '--json');
    expect(expected.code).toBe(0);
    const top = to.split('/')[0] as string;
    for (const spec of [join(tmp, 'gz', top), `gz/${top}/**/*.gz`, gz]) {
      const r = await cli('parse', `--${flag}`, spec, '--json');
      expect({ spec, code: r.code, err: r.err }).toEqual({
        spec,
        code: 0,
        err: expected.err.replaceAll(`plain/${to}`, `gz/${to}.gz`),
      });
      // A figure's origin names the file read (the memory snapshot's sections do): the .gz one.
      expect(sections(r.out)).toEqual(sections(expected.out.replaceAll(`plain/${to}`, `gz/${to}.gz`)));
    }
  });

  it('a node snapshot (*.memory-snapshot.json.gz)', async () => {
    mkdirSync(join(tmp, 'node'), { recursive: true });
    expect(
      (
        await cli(
          'snapshot',
          '--out',
          'node/n1.memory-snapshot.json',
          '--node',
          'n1',
          '--plog',
          join(ROOT, 'examples/plog'),
        )
      ).code,
    ).toBe(0);
    const expected = await cli('parse', '--snapshot', 'node', '--json');
    writeFileSync(
      join(tmp, 'node', 'n1.memory-snapshot.json.gz'),
      gzipSync(readFileSync(join(tmp, 'node', 'n1.memory-snapshot.json'))),
    );
    rmSync(join(tmp, 'node', 'n1.memory-snapshot.json'));
    const r = await cli('parse', '--snapshot', 'node', '--json');
    expect(r.code).toBe(0);
    expect(Object.keys((sections(r.out) as { modules: object }).modules)).toHaveLength(10);
    expect(sections(r.out)).toEqual(sections(expected.out));
  });
});

describe('a .zst input (a committed fixture made with zstd -19) gives the figures of the plain file', () => {
  it.each<[string, string, string]>([
    ['plog', 'examples/plog/rank_0/plog-4052516_20240708222745354.log', 'plog-1.log'],
    ['compare', 'test/fixtures/memory-compare/memory_compare_20250610093000.csv', 'memory_compare_20250610093000.csv'],
    [
      'memory-snapshot',
      'test/fixtures/memory-snapshot/constructed/oom_snapshot_4242_20261201101500.pickle',
      'oom_snapshot_4242_20261201101500.pickle',
    ],
    ['job-log', 'test/fixtures/job-log/train.log', 'train.log'],
  ])('--%s: in a folder, as a glob and named directly', async (flag, from, name) => {
    mkdirSync(join(tmp, 'zplain', flag), { recursive: true });
    mkdirSync(join(tmp, 'zst', flag), { recursive: true });
    copyFileSync(join(ROOT, from), join(tmp, 'zplain', flag, name));
    copyFileSync(join(ROOT, 'test/fixtures/compressed', `${name}.zst`), join(tmp, 'zst', flag, `${name}.zst`));
    const expected = await cli('parse', `--${flag}`, `zplain/${flag}/${name}`, '--json');
    expect(expected.code).toBe(0);
    for (const spec of [`zst/${flag}`, `zst/${flag}/**/*.zst`, `zst/${flag}/${name}.zst`]) {
      const r = await cli('parse', `--${flag}`, spec, '--json');
      expect({ spec, code: r.code, err: r.err }).toEqual({
        spec,
        code: 0,
        err: expected.err.replaceAll(`zplain/${flag}/${name}`, `zst/${flag}/${name}.zst`),
      });
      // A job log's OOM keys hash the log's name with the figures: the figures are compared.
      const figures = (out: string): unknown =>
        flag === 'job-log' ? Object.values((sections(out) as { ooms: object }).ooms) : sections(out);
      expect(figures(r.out)).toEqual(
        figures(expected.out.replaceAll(`zplain/${flag}/${name}`, `zst/${flag}/${name}.zst`)),
      );
    }
  });

  it('a whole small .zst (as a node snapshot is read): the plain bytes, refused past the cap', () => {
    const zst = readFileSync(join(ROOT, 'test/fixtures/compressed/plog-1.log.zst'));
    const plain = readFileSync(join(ROOT, 'examples/plog/rank_0/plog-4052516_20240708222745354.log'));
    expect(gunzipWhole(zst, 'n1.memory-snapshot.json.zst', 1 << 20).equals(plain)).toBe(true);
    expect(() => gunzipWhole(zst, 'n1.memory-snapshot.json.zst', 100)).toThrow(
      /^n1\.memory-snapshot\.json\.zst: inflates to more than 100 bytes, too large for a memory snapshot$/,
    );
  });

  it('a damaged .zst is one line naming it', async () => {
    const zst = readFileSync(join(ROOT, 'test/fixtures/compressed/plog-1.log.zst'));
    writeFileSync(join(tmp, 'cut.log.zst'), zst.subarray(0, zst.length - 20));
    writeFileSync(join(tmp, 'garbage.log.zst'), 'not zstd at all');
    expect((await cli('parse', '--plog', 'cut.log.zst')).err).toBe(
      'error: cut.log.zst: the zstd stream ends early (cut short while it was written or copied): compress it again, or give the file uncompressed\n',
    );
    expect((await cli('parse', '--plog', 'garbage.log.zst')).err).toBe(
      'error: garbage.log.zst: not a readable zstd file (invalid zstd data): compress it again, or give the file uncompressed\n',
    );
  });
});

describe('line numbers and damage', () => {
  const RECORD = (peak: number | string): string =>
    `[INFO] DRV(77,python3):2024-07-08-22:27:45.354.900 [ascend][curpid: 77, 77][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=APP; module_id=33; current_alloced_size=${peak}; alloced_peak_size=${peak}; alloc_cnt=3; free_cnt=1)\n`;

  it('a skipped record in a .gz plog is named by the line of the plain file, across chunk boundaries', async () => {
    const text = `${'noise line\n'.repeat(700)}${RECORD('x')}${'noise\n'.repeat(300)}${RECORD(5)}${RECORD(7).slice(0, 190)}`;
    writeFileSync(join(tmp, 'lines.log'), text);
    writeFileSync(join(tmp, 'lines.log.gz'), gzipSync(text));
    const skipped = async (name: string): Promise<unknown> => {
      const into = new SnapshotBuilder();
      await parsePlogFile({ path: join(tmp, name), name: 'p' }, into, { chunkBytes: 997 });
      return into.skippedRecords;
    };
    const plain = await skipped('lines.log');
    expect((plain as { line: number }[]).map((r) => r.line)).toEqual([701, 1003]);
    expect(await skipped('lines.log.gz')).toEqual(plain);
  });

  it('a damaged .gz is one line naming it', async () => {
    const good = gzipSync(RECORD(5).repeat(50));
    writeFileSync(join(tmp, 'cut.log.gz'), good.subarray(0, good.length - 20));
    writeFileSync(join(tmp, 'garbage.log.gz'), 'not gzip at all');
    expect((await cli('parse', '--plog', 'cut.log.gz')).err).toBe(
      'error: cut.log.gz: the gzip stream ends early (cut short while it was written or copied): compress it again, or give the file uncompressed\n',
    );
    expect((await cli('parse', '--plog', 'garbage.log.gz')).err).toBe(
      'error: garbage.log.gz: not a readable gzip file (incorrect header check): compress it again, or give the file uncompressed\n',
    );
  });

  it('a damaged .gz memory snapshot is one line naming it, and leaves no inflated copy behind', async () => {
    const good = gzipSync(readFileSync(join(ROOT, 'test/fixtures/memory-snapshot/corpus/snapshot_expandable.pkl')));
    writeFileSync(join(tmp, 'cut.pkl.gz'), good.subarray(0, good.length - 20));
    writeFileSync(join(tmp, 'garbage.pickle.gz'), 'not gzip at all');
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith('amg-snapshot-')).length;
    expect((await cli('parse', '--memory-snapshot', 'cut.pkl.gz')).err).toBe(
      'error: cut.pkl.gz: the gzip stream ends early (cut short while it was written or copied): compress it again, or give the file uncompressed\n',
    );
    expect((await cli('parse', '--memory-snapshot', 'garbage.pickle.gz')).err).toBe(
      'error: garbage.pickle.gz: not a readable gzip file (incorrect header check): compress it again, or give the file uncompressed\n',
    );
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('amg-snapshot-')).length).toBe(before);
  });

  it('a .gz memory snapshot that inflates past the cap is refused in one line', async () => {
    writeFileSync(
      join(tmp, 'big.pkl.gz'),
      gzipSync(readFileSync(join(ROOT, 'test/fixtures/memory-snapshot/corpus/snapshot_expandable.pkl'))),
    );
    await expect(inflatePickle(join(tmp, 'big.pkl.gz'), 'big.pkl.gz', async () => 0, 1000)).rejects.toThrow(
      /^big\.pkl\.gz: inflates to more than 1000 bytes, more than the largest memory snapshot read \(1000\): give it uncompressed$/,
    );
    expect(await inflatePickle(join(tmp, 'big.pkl.gz'), 'big.pkl.gz', async (path) => statSync(path).size)).toBe(
      581140,
    );
  });
});

// Dump figures come from time order, never from file order (issue 25, item 6): msMemScope writes a block's MALLOC when
// it is freed, so rows are never in time order, and any order the rows come in must give the same figures. Rows with
// equal timestamps keep their file order.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMSCOPE_HEADER, memscopeDumpLines, memscopeDumpText } from '../../../generators/memscope-dump.js';
import { runCli } from '../../../../src/cli/commands.js';
import { dumpFactsFromText, readDumpFacts } from '../../../../src/parsers/memscope/dump-facts.js';
import type { Snapshot } from '../../../../src/model/snapshot.js';
import { MiB } from '../../../helpers/story.js';

const dir = mkdtempSync(join(tmpdir(), 'dump-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
async function parse(lines: string[]): Promise<{ snapshot: Snapshot; err: string }> {
  const path = join(dir, `memscope_dump_${++files}.csv`);
  writeFileSync(path, `${[MEMSCOPE_HEADER, ...lines].join('\n')}\n`);
  let out = '';
  let err = '';
  const code = await runCli(['parse', '--dump', path, '--json'], { out: (t) => (out += t), err: (t) => (err += t) });
  expect(code, err).toBe(0);
  return { snapshot: JSON.parse(out) as Snapshot, err: err.replaceAll(`${path}:`, 'dump:') };
}

const T = (n: number): string => `1764753084425${String(n).padStart(6, '0')}`;

describe('rows out of file order', () => {
  it('a FREE row before its MALLOC row (timestamps in order) frees the block: no false leak', async () => {
    const { snapshot } = await parse([
      `1,MSTX,Range_start,"step start",${T(100)},7,7,0,N/A,,,`,
      `3,FREE,PTA,N/A,${T(300)},7,7,0,0x10,"{size:${MiB}}",,`,
      `2,MALLOC,PTA,N/A,${T(200)},7,7,0,0x10,"{size:${MiB}}",,`,
      `4,MALLOC,PTA,N/A,${T(400)},7,7,0,0x20,"{size:512}",,`,
      `5,MSTX,Range_end,"Range end from id 1",${T(500)},7,7,0,N/A,,,`,
    ]);
    expect(snapshot.sections.unfreed).toEqual({
      'dev0/PTA/PTA': { bytes: 512, blocks: 1, largest: 512, ids: '4', sizes: '512' },
    });
    expect(snapshot.sections.steps).toEqual({
      'dev0/PTA/step1/peak': { bytes: MiB, step: 1 },
      'dev0/PTA/step1/end': { bytes: 512, step: 1 },
    });
  });

  it('an op whose END row comes before its START row is measured as it ran', async () => {
    const { snapshot, err } = await parse([
      `2,OP_LAUNCH,ATEN_END,aten.mm,${T(400)},7,7,0,N/A,,,`,
      `3,MALLOC,PTA,N/A,${T(300)},7,7,0,0x10,"{size:4096}",,`,
      `1,OP_LAUNCH,ATEN_START,aten.mm,${T(100)},7,7,0,N/A,,,`,
    ]);
    expect(err).toBe('');
    expect(snapshot.sections.opFootprint).toEqual({ 'dev0/aten.mm': { net: 4096, peak: 4096, launches: 1 } });
  });

  it('an op END with no START before it in time is named in a warning, not dropped in silence', async () => {
    const { err } = await parse([
      `1,OP_LAUNCH,ATEN_END,aten.mm,${T(100)},7,7,0,N/A,,,`,
      `2,MALLOC,PTA,N/A,${T(300)},7,7,0,0x10,"{size:4096}",,`,
    ]);
    expect(err).toBe(
      'warning: dump:2: an op end of aten.mm with no start of it earlier in time on its thread (skipped)\n',
    );
  });
});

/** The generated dump's rows shuffled by a seeded permutation that keeps rows of equal timestamps in file order. */
function shuffledKeepingTies(lines: string[], seed: number): string[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const keys = lines.map(() => random());
  const ts = lines.map((l) => l.split(',')[4] ?? '');
  // Same-timestamp rows take the sorted keys of their class in order: a permutation that keeps their file order.
  const byTs = new Map<string, number[]>();
  lines.forEach((_, i) => byTs.set(ts[i] as string, [...(byTs.get(ts[i] as string) ?? []), i]));
  for (const members of byTs.values()) {
    const sorted = members.map((i) => keys[i] as number).sort((x, y) => x - y);
    members.forEach((i, k) => (keys[i] = sorted[k] as number));
  }
  return lines
    .map((l, i) => [keys[i] as number, l] as const)
    .sort((x, y) => x[0] - y[0])
    .map(([, l]) => l);
}

describe('any row order gives the same figures', () => {
  const lines = [...memscopeDumpLines({ steps: 8, opsPerStep: 30, leakFromStep: 2, owners: true })];
  const figuresOf = (text: string) => {
    const { file: _file, ...figures } = dumpFactsFromText('d.csv', text);
    return figures;
  };
  const inFileOrder = figuresOf(memscopeDumpText({ steps: 8, opsPerStep: 30, leakFromStep: 2, owners: true }));

  it.each([1, 2, 3, 4, 5])(
    "shuffle %i of a generated dump (8 steps, a leak, owners) gives the file order's figures",
    (seed) => {
      expect(figuresOf(`${[MEMSCOPE_HEADER, ...shuffledKeepingTies(lines, seed)].join('\n')}\n`)).toEqual(inFileOrder);
    },
  );

  it('rows in exact time order give them too', () => {
    const sorted = [...lines]
      .map((l, i) => [l, i] as const)
      .sort(
        (x, y) => (BigInt(x[0].split(',')[4] as string) < BigInt(y[0].split(',')[4] as string) ? -1 : 1) || x[1] - y[1],
      )
      .map(([l]) => l);
    expect(figuresOf(`${[MEMSCOPE_HEADER, ...sorted].join('\n')}\n`)).toEqual(inFileOrder);
  });

  it('a dump replayed through the temporary file (chunks of 64 events) gives the same figures as in memory', async () => {
    const path = join(dir, 'memscope_dump_spilled.csv');
    writeFileSync(path, `${[MEMSCOPE_HEADER, ...shuffledKeepingTies(lines, 9)].join('\n')}\n`);
    const { file: _file, ...spilled } = await readDumpFacts(path, 'd.csv', () => {}, { chunkEvents: 64 });
    expect(spilled).toEqual(inFileOrder);
    expect(inFileOrder.stepLeaks.map((l) => [l.device, l.pool, l.count])).toEqual([['dev0', 'PTA', 6]]);
  });
});

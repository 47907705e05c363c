// run/collect: one request from either entry; the entry decides how inputs are named, how many skipped records are shown, and where messages go.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMSCOPE_HEADER } from '../../generators/memscope-dump.js';
import { collect, type RunLog } from '../../../src/run/collect.js';
import { thrownAsync } from '../../helpers/thrown.js';

const dir = mkdtempSync(join(tmpdir(), 'run-collect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const malloc = (id: number, size: string): string =>
  `${id},MALLOC,PTA,N/A,1764753084425${String(id * 100).padStart(6, '0')},7,7,0,0x${id}0,"{addr:0x${id}0,size:${size}}",,`;
/** A dump whose rows 2 to 4 are skipped (sizes past 2^53) and row 5 is read. */
const path = join(dir, 'memscope_dump_a.csv');
writeFileSync(
  path,
  `${[MEMSCOPE_HEADER, malloc(1, '9007199254740993'), malloc(2, '9007199254740994'), malloc(3, '9007199254740995'), malloc(4, '512')].join('\n')}\n`,
);

function recorder(): { log: RunLog; lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    log: {
      warn: (t) => lines.push(`warn ${t}`),
      note: (t) => lines.push(`note ${t}`),
      progress: (t) => lines.push(`progress ${t}`),
    },
  };
}

describe('collect', () => {
  it('shows skippedShown malformed records, then a count of the rest, after the progress line', async () => {
    const { log, lines } = recorder();
    const { snapshot } = await collect({ specs: { dump: [path] }, root: dir, skippedShown: 2 }, log);
    expect(snapshot.sections.unfreed?.['dev0/PTA/PTA']).toMatchObject({ bytes: 512, blocks: 1 });
    expect(lines).toEqual([
      'progress Parsing 0 plog file(s), 0 memory_compare file(s), 0 profiler file(s), 0 snapshot file(s), 0 memory snapshot file(s), 0 job log file(s), 1 msMemScope dump file(s), 0 msMemScope base dump file(s)',
      `warn memscope_dump_a.csv:2: a MALLOC whose size 9007199254740993 is 2^53 bytes or more: not a size that can be compared exactly (skipped)`,
      `warn memscope_dump_a.csv:3: a MALLOC whose size 9007199254740994 is 2^53 bytes or more: not a size that can be compared exactly (skipped)`,
      'warn 1 more malformed record(s) skipped',
    ]);
  });

  it("names a source's input as the entry says, in the message for paths that match nothing", async () => {
    const { log } = recorder();
    const error = await thrownAsync(
      collect(
        {
          specs: { dump: [path], plog: [dir] },
          root: dir,
          nameOf: (s) => `'${s.input}'`,
          searchHelp: 'the README',
          skippedShown: 0,
        },
        log,
      ),
    );
    expect(error.message).toBe(
      `'plog' '${dir}' matched no plog file: check the path (the README), or leave the flag out`,
    );
  });

  it('adds this machine as a node with the given items when asked, named as given', async () => {
    const { log } = recorder();
    const { snapshot } = await collect(
      {
        specs: { dump: [path] },
        root: dir,
        skippedShown: 0,
        node: { items: ['CANN=8.1.RC1'], itemsFrom: '--env', collect: false, name: 'node-7' },
      },
      log,
    );
    expect(snapshot.meta.nodes?.['node-7']?.environment).toEqual({ CANN: '8.1.RC1' });
  });
});

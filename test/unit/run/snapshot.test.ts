// run/snapshot: the node-snapshot step both entries call; the file it writes reads back as the same evidence.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/common/errors.js';
import { parseSnapshotText } from '../../../src/parsers/node-snapshot-file.js';
import { collect, type RunLog } from '../../../src/run/collect.js';
import { writeNodeSnapshot } from '../../../src/run/snapshot.js';
import { thrownAsync } from '../../helpers/thrown.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(path.join(tmpdir(), 'run-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quiet: RunLog = { warn: () => {}, note: () => {} };

async function nodeRun(name: string) {
  const { snapshot } = await collect(
    {
      specs: { plog: [path.join(ROOT, 'examples/plog')] },
      root: ROOT,
      skippedShown: 10,
      node: { items: ['cann=8.3.RC1'], itemsFrom: '--env', collect: false, name },
    },
    quiet,
  );
  return snapshot;
}

describe('run/snapshot', () => {
  it('writes the named file, says what it holds, and the file reads back with the same sections', async () => {
    const snapshot = await nodeRun('node-a');
    const file = path.join(dir, 'deep/er/a.memory-snapshot.json');
    const written = await writeNodeSnapshot({ snapshot, out: { file } });
    const text = readFileSync(file, 'utf8');
    expect(written).toMatchObject({
      file,
      node: 'node-a',
      bytes: Buffer.byteLength(text),
      environment: ['cann=8.3.RC1'],
    });
    expect(written.devices).toBeGreaterThan(0);
    expect(written.files).toBe(snapshot.meta.files);
    expect(Object.keys(parseSnapshotText(text, file).sections)).toEqual(Object.keys(snapshot.sections));
  });

  it('names the file after the node in a folder, its unsafe characters replaced', async () => {
    const snapshot = await nodeRun('rack 3/node:7');
    const written = await writeNodeSnapshot({ snapshot, out: { dir } });
    expect(path.basename(written.file)).toBe('rack_3_node_7.memory-snapshot.json');
    expect(written.node).toBe('rack 3/node:7');
  });

  it('fails with one line naming the file when it cannot be written', async () => {
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    const snapshot = await nodeRun('node-b');
    const error = await thrownAsync(writeNodeSnapshot({ snapshot, out: { file: path.join(blocker, 'x.json') } }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/^snapshot: cannot write .*a-file\/x\.json: E[A-Z]+/);
    expect(error.message).not.toContain('\n');
  });
});

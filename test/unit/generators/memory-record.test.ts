// The bench's memory_record.csv generator: deterministic, in the writer's exact shape, and parsed into exactly the figures it expects.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateMemoryRecord, MEMORY_RECORD_NAME } from '../../generators/memory-record.js';
import { parseFile } from '../../../src/parsers/profiler/index.js';
import { CollectingTarget } from '../../helpers/profiler-target.js';

const tmp = mkdtempSync(join(tmpdir(), 'profiler-bench-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('bench memory_record.csv generator', () => {
  const a = generateMemoryRecord({ path: join(tmp, 'a', MEMORY_RECORD_NAME), bytes: '16MiB', seed: 42 });

  it('writes the same bytes for the same seed, other bytes for another', () => {
    const b = generateMemoryRecord({ path: join(tmp, 'b', MEMORY_RECORD_NAME), bytes: '16MiB', seed: 42 });
    const c = generateMemoryRecord({ path: join(tmp, 'c', MEMORY_RECORD_NAME), bytes: '16MiB', seed: 43 });
    expect(readFileSync(b.path).equals(readFileSync(a.path))).toBe(true);
    expect(readFileSync(c.path).equals(readFileSync(a.path))).toBe(false);
  });

  it("writes torch_npu's shape: the 7-column header, CRLF, a TAB after each timestamp, APP rows first", () => {
    const text = readFileSync(a.path, 'latin1');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type',
    );
    expect(lines[1]).toMatch(/^APP,\d{16}\.\d{3}\t,,\d+\.\d+,,,NPU:0$/);
    expect(lines.find((l) => l.startsWith('PTA,'))).toMatch(
      /^PTA,\d{16}\.\d{3}\t,\d+\.\d+,\d+\.0,\d+\.\d+,1431569360,NPU:0$/,
    );
    expect(text.includes('\n') && !/[^\r]\n/.test(text)).toBe(true);
    expect(a.bytes).toBeGreaterThanOrEqual(16 * 2 ** 20);
    expect(lines.length - 2).toBe(a.rows);
  });

  it('is parsed into exactly the expected peaks and record count', async () => {
    const into = new CollectingTarget();
    await parseFile({ path: a.path, name: MEMORY_RECORD_NAME }, into);
    expect({ components: into.metrics.components, records: into.records }).toEqual(a.expected);
    expect(into.skipped).toEqual([]);
  });
});

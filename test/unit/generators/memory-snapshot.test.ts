// The benchmark's memory-snapshot generator: the same seed gives the same bytes, and the reader finds the peaks it simulated.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeMemorySnapshot } from '../../generators/memory-snapshot.js';
import { snapshotFigures } from '../../../src/parsers/allocator-snapshot/snapshot-figures.js';

const dir = mkdtempSync(join(tmpdir(), 'snapshot-generator-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('test/generators/memory-snapshot.ts', () => {
  it('writes the same 2 MiB pickle for the same seed, and a pickle the reader reads to the peaks the simulation had', () => {
    const a = join(dir, 'a.pickle');
    const b = join(dir, 'b.pickle');
    const expected = writeMemorySnapshot(a, { bytes: 2 * 1024 * 1024, seed: 7 });
    writeMemorySnapshot(b, { bytes: 2 * 1024 * 1024, seed: 7 });
    expect(sha(a)).toBe(sha(b));
    expect(statSync(a).size).toBe(expected.bytes);
    const [device] = snapshotFigures(a, 'a.pickle', expected.bytes).devices;
    expect(device?.traceEntries).toBe(expected.entries);
    expect(device?.peakAllocated.bytes).toBe(expected.peakAllocated);
    expect(device?.peakReserved.bytes).toBe(expected.peakReserved);
    expect(device?.dump.liveRequested).toBe(expected.allocatedAtDump);
    // Every allocation's stack has its user frame in model/layer<i>.py: the sites add up to the peak.
    const sites = [...(device?.sites.sites ?? new Map())];
    expect(sites.every(([site]) => /^\/workspace\/proj\/model\/layer\d\.py:\d+ forward$/.test(site))).toBe(true);
    expect(sites.reduce((sum, [, s]) => sum + s.bytes, 0)).toBe(expected.peakAllocated);
  });
});

// The figures of every memory snapshot fixture against reference.json, which reference.py derived independently
// (Python's pickle.load, then the format doc's §4 rules with a backward walk: see test/fixtures/memory-snapshot/SOURCES.md).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotFigures, type SnapshotDevice } from '../../../../src/parsers/allocator-snapshot/snapshot-figures.js';

const FIX = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'memory-snapshot');

interface ReferenceDevice {
  traced: boolean;
  entries: number;
  actions: Record<string, number>;
  dump: {
    reserved: number;
    allocated: number;
    liveRequested: number;
    largestSegment: number;
    largestFreeBlock: number;
    segments: number;
  };
  peakAllocated: { bytes: number; point: number; reserved: number };
  peakReserved: { bytes: number; point: number; allocated: number };
  fragmentation: { numerator: number; denominator: number; value: number };
  sites: Record<string, { bytes: number; blocks: number }>;
  ooms: {
    index: number;
    size: number;
    deviceFree: number;
    allocated: number;
    reserved: number;
    largestFreeBlock: number;
    kind: string;
    entriesAfter: number;
    sites: Record<string, { bytes: number; blocks: number }>;
  }[];
}

interface Reference {
  files: Record<string, { topLevel: string; traceLists: number; devices: Record<string, ReferenceDevice> }>;
  refused: Record<string, { error: string; opcode?: string; offset?: number; size?: number }>;
}

const REFERENCE = JSON.parse(readFileSync(join(FIX, 'reference.json'), 'utf8')) as Reference;

const figuresOf = (file: string) => snapshotFigures(join(FIX, file), file, statSync(join(FIX, file)).size);

/** Our figures in the reference's shape. */
function asReference(d: SnapshotDevice): Omit<ReferenceDevice, 'fragmentation'> {
  const sites = (m: SnapshotDevice['sites']['sites']) =>
    Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    traced: d.traceEntries > 0,
    entries: d.traceEntries,
    actions: Object.fromEntries([...d.actions].sort(([a], [b]) => (a < b ? -1 : 1))),
    dump: {
      reserved: d.dump.reserved,
      allocated: d.dump.allocated,
      liveRequested: d.dump.liveRequested,
      largestSegment: d.dump.largestSegment,
      largestFreeBlock: d.dump.largestFreeBlock,
      segments: d.dump.segments,
    },
    peakAllocated: d.peakAllocated,
    peakReserved: d.peakReserved,
    sites: sites(d.sites.sites),
    ooms: d.ooms.map((o) => ({
      index: o.index,
      size: o.size,
      deviceFree: o.deviceFree,
      allocated: o.allocated,
      reserved: o.reserved,
      largestFreeBlock: d.dump.largestFreeBlock,
      kind: o.reserved - o.allocated >= o.size && d.dump.largestFreeBlock < o.size ? 'fragmentation' : 'capacity',
      entriesAfter: o.entriesAfter,
      sites: sites(o.sites?.sites ?? new Map()),
    })),
  };
}

describe('memory snapshot figures equal those reference.py derived with pickle.load and a backward walk', () => {
  for (const [file, expected] of Object.entries(REFERENCE.files)) {
    it(file, () => {
      const figures = figuresOf(file);
      expect(figures.topLevel).toBe(expected.topLevel);
      expect(figures.traceLists).toBe(expected.traceLists);
      expect(figures.devices.map((d) => String(d.device))).toEqual(Object.keys(expected.devices));
      for (const d of figures.devices) {
        const { fragmentation, ...rest } = expected.devices[String(d.device)] as ReferenceDevice;
        expect(asReference(d)).toEqual(rest);
        // (reserved − allocated) / reserved at the allocated peak, as the reference's exact fraction.
        const { bytes, reserved } = d.peakAllocated;
        expect((reserved - bytes) * fragmentation.denominator).toBe(
          reserved === 0 ? 0 : fragmentation.numerator * reserved,
        );
      }
    });
  }
});

// The OOM-cause rule is total and order-free: no figures make it throw, divide by zero or go negative, and a log's events get the same causes in any order.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { OOM_CAUSES, oomCause, type OomFigures } from '../../../src/model/oom-cause.js';
import { SnapshotBuilder } from '../../../src/model/snapshot.js';
import { parseJobLogFile } from '../../../src/parsers/job-log/index.js';

const dir = mkdtempSync(join(tmpdir(), 'amg-oomcause-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytes = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 ** 40 }), fc.maxSafeNat());
const maybe = fc.option(bytes, { nil: null });
const figures: fc.Arbitrary<OomFigures> = fc.record({
  requested: bytes,
  total: maybe,
  deviceFree: maybe,
  allocated: maybe,
  reserved: maybe,
  largestFreeBlock: maybe,
});

describe('oomCause', () => {
  it('always names one of the six causes, with derived figures that are null or finite and ≥ 0 (allocated > total included)', () => {
    fc.assert(
      fc.property(figures, fc.double({ min: 0, max: 100, noNaN: true }), (f, share) => {
        const v = oomCause(f, share);
        expect(OOM_CAUSES).toContain(v.cause);
        for (const n of [v.cached, v.outside]) if (n !== null) expect(Number.isFinite(n) && n >= 0).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('decides the worked examples of the format doc', () => {
    const G = 1024 ** 3;
    const M = 1024 ** 2;
    const at = (r: number, t: number, a: number, free: number, v: number) =>
      oomCause({ requested: r, total: t, allocated: a, deviceFree: free, reserved: v }).cause;
    expect(at(4 * G, 32 * G, 2 * G, 1 * G, 2.5 * G)).toBe('outside-allocator');
    expect(at(3 * G, 64 * G, 50 * G, 0.8 * G, 60 * G)).toBe('fragmentation');
    expect(at(96 * M, 64 * G, 62.9 * G, 20 * M, 63.2 * G)).toBe('capacity');
    expect(at(90 * G, 64 * G, 1 * G, 60 * G, 2 * G)).toBe('request-exceeds-device');
    expect(at(1 * G, 16 * G, 3 * G, 6 * G, 4 * G)).toBe('free-but-refused');
    // Shared memory: more allocated than the device has; nothing negative, still a cause.
    expect(oomCause({ requested: G, total: 8 * G, allocated: 20 * G, deviceFree: 0, reserved: 20.5 * G })).toEqual({
      cause: 'capacity',
      cached: 0.5 * G,
      outside: 0,
    });
  });

  it("gives a log's events the same keys and causes in any order of its lines", async () => {
    const line = (device: number, r: number, a: number, free: number, v: number): string =>
      `[rank${device}]: RuntimeError: NPU out of memory. Tried to allocate ${r.toFixed(2)} GiB (NPU ${device}; 64.00 GiB total capacity; ${a.toFixed(2)} GiB already allocated; ${a.toFixed(2)} GiB current active; ${free.toFixed(2)} GiB free; ${v.toFixed(2)} GiB reserved in total by PyTorch)`;
    const message = fc
      .record({
        device: fc.integer({ min: 0, max: 7 }),
        r: fc.integer({ min: 1, max: 9000 }),
        a: fc.integer({ min: 0, max: 7000 }),
        free: fc.integer({ min: 0, max: 7000 }),
        extra: fc.integer({ min: 0, max: 1000 }),
      })
      .map(({ device, r, a, free, extra }) => line(device, r / 100, a / 100, free / 100, (a + extra) / 100));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 12 }), fc.integer(), async (lines, seed) => {
        const shuffled = [...lines].sort(
          (x, y) => ((x.length * 31 + seed) % 7) - ((y.length * 31 + seed) % 7) || (x < y ? 1 : x > y ? -1 : 0),
        );
        const causes = async (text: string[]): Promise<Record<string, unknown>> => {
          const file = join(dir, `log-${n++}.log`);
          writeFileSync(file, text.join('\n'));
          const builder = new SnapshotBuilder();
          await parseJobLogFile({ path: file, name: 'train.log' }, builder);
          return Object.fromEntries(
            Object.entries(builder.build().sections.ooms ?? {}).map(([key, m]) => [key, m.cause]),
          );
        };
        expect(await causes(shuffled)).toEqual(await causes(lines));
      }),
      { numRuns: 40 },
    );
  });
});

// Keys of every section: the device segment (`devN`), and the device-free group that roll-ups gather keys under.
import type { DeviceSplit } from './types.js';

/** The first `devN` segment of a key (`DEV_MEM/dev0/APP`, `dev3/matmul_v1`), and the key with it replaced by `*`. */
export function splitDevice(key: string): DeviceSplit {
  // One pass over the key, no split/join: /^dev\d+$/ per `/`-separated segment (4,096 devices × 15 modules + 100,000
  // kernels ask this ~160,000 times per report); test/unit/model/sections/split-device.property.test.ts checks it against the regex.
  if (!findDeviceSegment(key, bounds)) return { device: null, group: key };
  const { start, end } = bounds;
  return { device: key.slice(start, end), group: `${key.slice(0, start)}*${key.slice(end)}` };
}

const bounds: SegmentBounds = { start: 0, end: 0 };

/** Where a key's device segment is: key[start, end). */
export interface SegmentBounds {
  start: number;
  end: number;
}

/**
 * Where splitDevice finds the device segment, into `out`, without making its strings; false for a key of no device.
 * For scans over every key of a report.
 */
export function findDeviceSegment(key: string, out: SegmentBounds): boolean {
  let start = 0;
  while (start <= key.length) {
    let end = key.indexOf('/', start);
    if (end === -1) end = key.length;
    if (isDeviceSegment(key, start, end)) {
      out.start = start;
      out.end = end;
      return true;
    }
    start = end + 1;
  }
  return false;
}

/** key[start, end) matches /^dev\d+$/: `dev` then one or more ASCII digits. */
function isDeviceSegment(key: string, start: number, end: number): boolean {
  if (end - start < 4 || !key.startsWith('dev', start)) return false;
  for (let i = start + 3; i < end; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Device names the same way in every parser: `03`, `dev03`, `NPU:3` → `dev3`; null when it is not a device number. */
export function deviceName(raw: string | number): string | null {
  const text = String(raw).trim();
  // At most 9 digits: a longer run is no device number (and would print as dev1e+20).
  const m = /^(?:dev|NPU:?|npu:?)?0*(\d{1,9})$/.exec(text);
  if (m === null) return null;
  return `dev${Number(m[1])}`;
}

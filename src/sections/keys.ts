// Keys of every section: the device segment (`devN`), and the device-free group that roll-ups gather keys under.
import type { DeviceSplit } from './types.js';

const DEVICE_SEGMENT = /^dev\d+$/;

/** The first `devN` segment of a key (`DEV_MEM/dev0/APP`, `dev3/matmul_v1`), and the key with it replaced by `*`. */
export function splitDevice(key: string): DeviceSplit {
  const segments = key.split('/');
  const i = segments.findIndex((s) => DEVICE_SEGMENT.test(s));
  if (i === -1) return { device: null, group: key };
  const device = segments[i] as string;
  segments[i] = '*';
  return { device, group: segments.join('/') };
}

/** Device names the same way in every parser: `03`, `dev03`, `NPU:3` → `dev3`; null when it is not a device number. */
export function deviceName(raw: string | number): string | null {
  const text = String(raw).trim();
  // At most 9 digits: a longer run is no device number (and would print as dev1e+20).
  const m = /^(?:dev|NPU:?|npu:?)?0*(\d{1,9})$/.exec(text);
  if (m === null) return null;
  return `dev${Number(m[1])}`;
}

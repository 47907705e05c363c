// Byte sizes as people write them on a command line or in a test: "1GiB", "64MiB", "20MB", "4096".
import { GiB, KiB, MiB } from './story.js';

const UNITS: Record<string, number> = {
  B: 1,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  KIB: KiB,
  MIB: MiB,
  GIB: GiB,
  TIB: 1024 * GiB,
};

/** "1GiB", "64MiB", "20MB", "4096" (or a number of bytes) → bytes. */
export function parseSize(value: number | string): number {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 0) return value;
    throw new Error(`not a size: ${value}`);
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$/i.exec(String(value));
  if (!m) throw new Error(`not a size: ${JSON.stringify(value)} (use e.g. 4096, 64MiB, 1GiB)`);
  return Math.round(Number(m[1]) * (UNITS[(m[2] ?? 'B').toUpperCase()] as number));
}

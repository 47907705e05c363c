// Hostile memory snapshots for the bench (bench/run.mjs): pickles whose bytes are few but whose reading once cost far
// more than them.
import { writeFileSync } from 'node:fs';

/** A protocol-4 pickle, opcode by opcode; only what `str(…, true)` memoizes is in the memo (indices from 0, in order). */
function writer() {
  const parts: Buffer[] = [Buffer.from([0x80, 4])];
  let memo = 0;
  const op = (...bytes: number[]): void => {
    parts.push(Buffer.from(bytes));
  };
  const u32 = (code: number, n: number): void => {
    const b = Buffer.alloc(5);
    b[0] = code;
    b.writeUInt32LE(n, 1);
    parts.push(b);
  };
  const str = (s: string, memoize = false): number => {
    const b = Buffer.from(s, 'utf8');
    if (b.length < 256) op(0x8c, b.length);
    else u32(0x58, b.length);
    parts.push(b);
    if (!memoize) return -1;
    op(0x94);
    return memo++;
  };
  const int = (n: number): void => u32(0x4a, n);
  return {
    op,
    str,
    int,
    get: (index: number): void => u32(0x6a, index),
    bytes: (): Buffer => Buffer.concat([...parts, Buffer.from([0x2e])]),
  };
}

/** 3,000 distinct strings of 20,000 characters: the keys of one dict and the actions of 3,000 trace entries (~60 MB). */
export function writeLongStrings(path: string): number {
  const p = writer();
  p.op(0x7d, 0x28);
  p.str('other');
  p.op(0x7d, 0x28);
  const ids: number[] = [];
  for (let i = 0; i < 3000; i++) {
    ids.push(p.str(`${'a'.repeat(19_990)}${String(i).padStart(10, '0')}`, true));
    p.op(0x4b, 1);
  }
  p.op(0x75);
  p.str('segments');
  p.op(0x5d);
  p.str('device_traces');
  p.op(0x5d, 0x5d, 0x28);
  for (const id of ids) {
    p.op(0x7d, 0x28);
    p.str('action');
    p.get(id);
    p.op(0x75);
  }
  p.op(0x65, 0x61, 0x75);
  const bytes = p.bytes();
  writeFileSync(path, bytes);
  return bytes.length;
}

/**
 * One segment of 20,000 live blocks, each with a frames list of one distinct frame dict, all naming one 1 MiB
 * filename (2 bytes each through the memo); `distinctLines`: each frame on its own line, so 20,000 sites of 4 KiB.
 */
export function writeSharedFilename(path: string, distinctLines: boolean): number {
  const p = writer();
  const blocks = 20_000;
  const base = 2 ** 30;
  p.op(0x7d, 0x28);
  p.str('segments');
  p.op(0x5d, 0x7d, 0x28);
  const segment: [string, number][] = [
    ['device', 0],
    ['address', base],
    ['total_size', blocks * 512],
    ['allocated_size', blocks * 512],
    ['requested_size', blocks * 500],
  ];
  for (const [key, value] of segment) {
    p.str(key);
    p.int(value);
  }
  p.str('blocks');
  p.op(0x5d, 0x28);
  let filename = -1;
  for (let i = 0; i < blocks; i++) {
    p.op(0x7d, 0x28);
    p.str('address');
    p.int(base + i * 512);
    p.str('size');
    p.int(512);
    p.str('requested_size');
    p.int(500);
    p.str('state');
    p.str('active_allocated');
    p.str('frames');
    p.op(0x5d, 0x7d, 0x28);
    p.str('filename');
    if (filename === -1) filename = p.str(`/home/u/${'d'.repeat(1024 * 1024)}/train.py`, true);
    else p.get(filename);
    p.str('line');
    p.int(distinctLines ? i : 7);
    p.str('name');
    p.str('step');
    p.op(0x75, 0x61, 0x75);
  }
  p.op(0x65, 0x75, 0x61);
  p.str('device_traces');
  p.op(0x5d, 0x75);
  const bytes = p.bytes();
  writeFileSync(path, bytes);
  return bytes.length;
}

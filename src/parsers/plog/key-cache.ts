// The module keys of plog records by the bytes that spell them, so the fast path decodes each distinct key once.

/** A module key and its device, as fastRecord finds them again and again: built once per distinct spelling. */
interface CachedKey {
  /** attr bytes, 0xff, device digits, 0xff, module bytes (empty module: CACHED). */
  spelling: Buffer;
  key: string;
  device: string | null;
}

/**
 * Keys by the bytes that spell them, so that the few hundred keys of a log are decoded and joined once, not once per
 * record, and the Map lookups in the builder hash a string they have seen (V8 caches a string's hash).
 */
class KeyCache {
  private readonly byHash = new Map<number, CachedKey[]>();
  private size = 0;

  /** Attribute b[a,q), device digits b[d,deviceTo) (empty: none), module b[moduleFrom,moduleTo) (moduleFrom -1: CACHED). */
  keyOf(b: Buffer, a: number, q: number, d: number, deviceTo: number, moduleFrom: number, moduleTo: number): CachedKey {
    let h = 0x811c9dc5;
    for (let k = a; k < q; k++) h = Math.imul(h ^ (b[k] as number), 0x01000193);
    h = Math.imul(h ^ 0xff, 0x01000193);
    for (let k = d; k < deviceTo; k++) h = Math.imul(h ^ (b[k] as number), 0x01000193);
    h = Math.imul(h ^ 0xff, 0x01000193);
    for (let k = moduleFrom; k < moduleTo; k++) h = Math.imul(h ^ (b[k] as number), 0x01000193);
    const bucket = this.byHash.get(h);
    if (bucket !== undefined) {
      for (const c of bucket) if (spells(c.spelling, b, a, q, d, deviceTo, moduleFrom, moduleTo)) return c;
    }
    const attr = b.toString('latin1', a, q);
    const device = d < deviceTo ? `dev${Number(b.toString('latin1', d, deviceTo))}` : null;
    const module = moduleFrom < 0 ? 'CACHED' : b.toString('latin1', moduleFrom, moduleTo);
    const entry: CachedKey = {
      spelling: Buffer.concat([
        b.subarray(a, q),
        FF,
        b.subarray(d, deviceTo),
        FF,
        moduleFrom < 0 ? EMPTY : b.subarray(moduleFrom, moduleTo),
      ]),
      key: device === null ? `${attr}/${module}` : `${attr}/${device}/${module}`,
      device,
    };
    // Bounded: a log of garbage keys must not grow this without end; the cache is only a shortcut.
    if (this.size >= 4096) {
      this.byHash.clear();
      this.size = 0;
    }
    this.byHash.set(h, [...(bucket ?? []), entry]);
    this.size++;
    return entry;
  }
}

const FF = Buffer.from([0xff]);
const EMPTY = Buffer.alloc(0);

function spells(
  s: Buffer,
  b: Buffer,
  a: number,
  q: number,
  d: number,
  deviceTo: number,
  moduleFrom: number,
  moduleTo: number,
): boolean {
  const moduleLength = moduleFrom < 0 ? 0 : moduleTo - moduleFrom;
  if (s.length !== q - a + 1 + (deviceTo - d) + 1 + moduleLength) return false;
  let i = 0;
  for (let k = a; k < q; k++) if (s[i++] !== b[k]) return false;
  if (s[i++] !== 0xff) return false;
  for (let k = d; k < deviceTo; k++) if (s[i++] !== b[k]) return false;
  if (s[i++] !== 0xff) return false;
  for (let k = moduleFrom; k < moduleTo; k++) if (s[i++] !== b[k]) return false;
  return true;
}

/** Shared by all scanners of a thread: keys repeat across the files of one run. */
export const keyCache = new KeyCache();

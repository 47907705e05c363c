// Strings numbered in the order they were added, found by text without cutting a string out of a larger one: the
// history groups 100,000 keys and a memory_compare CSV looks up a name per row, where a Map needs a string per lookup.
// Open addressing (linear probing, at most half full) over Int32Array slots; names kept as UTF-16 code units.

/** FNV-1a (32 bits, as a signed integer) over the UTF-16 code units of text[from, to): the table's hash. */
export function hashText(text: string, from = 0, to = text.length): number {
  let h = HASH_START;
  for (let k = from; k < to; k++) h = Math.imul(h ^ text.charCodeAt(k), HASH_PRIME);
  return h | 0;
}

/** The same hash over text with text[start, end) replaced by the one code unit `mark` (`DEV_MEM/dev3/APP` → `DEV_MEM/*\/APP`). */
export function hashSpliced(text: string, start: number, end: number, mark: number): number {
  let h = HASH_START;
  for (let k = 0; k < start; k++) h = Math.imul(h ^ text.charCodeAt(k), HASH_PRIME);
  h = Math.imul(h ^ mark, HASH_PRIME);
  for (let k = end; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), HASH_PRIME);
  return h | 0;
}

/** FNV-1a's start and step, for a caller that hashes while it scans (the result compared as `h | 0`). */
const HASH_START = 0x811c9dc5;
const HASH_PRIME = 0x01000193;

/** Strings, each with its number (0, 1, … in the order added); never removed. */
export class StringTable {
  /** Strings held. */
  size = 0;
  /** Open addressing: entry + 1, 0 for a free slot. */
  private slots = new Int32Array(64);
  private hashes = new Int32Array(32);
  /** Every entry's code units one after another, entry e at codes[starts[e], starts[e + 1]). */
  private codes = new Uint16Array(1024);
  private starts = new Int32Array(33);

  /** The number of text[from, to), -1 when the table does not hold it; `hash` is hashText of it when the caller has it. */
  indexOf(text: string, from = 0, to = text.length, hash = hashText(text, from, to)): number {
    const { slots, hashes } = this;
    const mask = slots.length - 1;
    for (
      let slot = hash & mask, found = slots[slot] as number;
      found !== 0;
      found = slots[(slot = (slot + 1) & mask)] as number
    ) {
      const e = found - 1;
      if (hashes[e] === (hash | 0) && this.holds(e, text, from, to)) return e;
    }
    return -1;
  }

  /** The number of text with text[start, end) replaced by the code unit `mark`, -1 when not held. */
  indexOfSpliced(
    text: string,
    start: number,
    end: number,
    mark: number,
    hash = hashSpliced(text, start, end, mark),
  ): number {
    const { slots, hashes } = this;
    const mask = slots.length - 1;
    for (
      let slot = hash & mask, found = slots[slot] as number;
      found !== 0;
      found = slots[(slot = (slot + 1) & mask)] as number
    ) {
      const e = found - 1;
      if (hashes[e] === (hash | 0) && this.holdsSpliced(e, text, start, end, mark)) return e;
    }
    return -1;
  }

  /** Adds text[from, to) (which indexOf did not find: the table does not look) and returns its number. */
  add(text: string, from = 0, to = text.length, hash = hashText(text, from, to)): number {
    const e = this.reserve(hash, to - from);
    const codes = this.codes;
    for (let k = from, c = this.starts[e] as number; k < to; k++, c++) codes[c] = text.charCodeAt(k);
    return e;
  }

  /** Adds text with text[start, end) replaced by the code unit `mark` (not held yet) and returns its number. */
  addSpliced(
    text: string,
    start: number,
    end: number,
    mark: number,
    hash = hashSpliced(text, start, end, mark),
  ): number {
    const e = this.reserve(hash, text.length - end + start + 1);
    const codes = this.codes;
    let c = this.starts[e] as number;
    for (let k = 0; k < start; k++) codes[c++] = text.charCodeAt(k);
    codes[c++] = mark;
    for (let k = end; k < text.length; k++) codes[c++] = text.charCodeAt(k);
    return e;
  }

  /** The number of `text`, added when not held yet. */
  intern(text: string): number {
    const hash = hashText(text);
    const e = this.indexOf(text, 0, text.length, hash);
    return e !== -1 ? e : this.add(text, 0, text.length, hash);
  }

  /** Entry e's text (a new string each call). */
  text(e: number): string {
    const from = this.starts[e] as number;
    const to = this.starts[e + 1] as number;
    let out = '';
    // fromCharCode takes its units as arguments: long names go in pieces that stay under the engine's argument limit.
    for (let k = from; k < to; k += 8192) out += String.fromCharCode(...this.codes.subarray(k, Math.min(to, k + 8192)));
    return out;
  }

  /** Entry e's length in code units. */
  length(e: number): number {
    return (this.starts[e + 1] as number) - (this.starts[e] as number);
  }

  /** Code unit k of entry e. */
  codeAt(e: number, k: number): number {
    return this.codes[(this.starts[e] as number) + k] as number;
  }

  /** Whether entry e is text[from, to). */
  private holds(e: number, text: string, from: number, to: number): boolean {
    const at = this.starts[e] as number;
    if ((this.starts[e + 1] as number) - at !== to - from) return false;
    const codes = this.codes;
    for (let k = from, c = at; k < to; k++, c++) if (text.charCodeAt(k) !== codes[c]) return false;
    return true;
  }

  /** Whether entry e is text with text[start, end) replaced by `mark`. */
  private holdsSpliced(e: number, text: string, start: number, end: number, mark: number): boolean {
    let c = this.starts[e] as number;
    if ((this.starts[e + 1] as number) - c !== text.length - end + start + 1) return false;
    const codes = this.codes;
    for (let k = 0; k < start; k++, c++) if (text.charCodeAt(k) !== codes[c]) return false;
    if (codes[c++] !== mark) return false;
    for (let k = end; k < text.length; k++, c++) if (text.charCodeAt(k) !== codes[c]) return false;
    return true;
  }

  /** A new entry of `length` code units with this hash, placed in a slot; its units are the caller's to write. */
  private reserve(hash: number, length: number): number {
    const e = this.size++;
    if (e + 1 >= this.hashes.length) {
      this.hashes = widened(this.hashes, this.hashes.length * 2);
      this.starts = widened(this.starts, this.hashes.length + 1);
    }
    const from = this.starts[e] as number;
    if (from + length > this.codes.length)
      this.codes = widened(this.codes, Math.max(this.codes.length * 2, from + length));
    this.starts[e + 1] = from + length;
    this.hashes[e] = hash;
    if (this.size * 2 > this.slots.length) this.grow();
    else this.place(e);
    return e;
  }

  private place(e: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    let slot = (this.hashes[e] as number) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = e + 1;
  }

  /** Twice the slots, every entry placed again by its hash. */
  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let e = 0; e < this.size; e++) this.place(e);
  }
}

function widened<T extends Int32Array | Uint16Array>(a: T, length: number): T {
  const wider = (a instanceof Int32Array ? new Int32Array(length) : new Uint16Array(length)) as T;
  wider.set(a);
  return wider;
}

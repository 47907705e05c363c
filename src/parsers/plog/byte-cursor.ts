// A forward reader over a Buffer for the plog fast path: exact byte strings, upper-case words, decimal integers.

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A byte of an attribute or module word: A-Z, 0-9, `_`. */
export function isWordByte(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

/** Reads a Buffer forward from `i`: exact byte strings, upper-case words, decimal integers. */
export class ByteCursor {
  i = 0;
  b: Buffer = Buffer.alloc(0);

  /** Whether `bytes` lie at `at` (without moving). */
  at(at: number, bytes: Buffer): boolean {
    if (at < 0 || at + bytes.length > this.b.length) return false;
    for (let k = 0; k < bytes.length; k++) if (this.b[at + k] !== bytes[k]) return false;
    return true;
  }

  /** Moves past `bytes` if they come next. */
  take(bytes: Buffer): boolean {
    if (!this.at(this.i, bytes)) return false;
    this.i += bytes.length;
    return true;
  }

  /** Moves past `[A-Z][A-Z0-9_]*` and returns where it ends, or -1 (not moved). */
  word(): number {
    const from = this.i;
    const first = this.b[from] as number;
    if (!(first >= 0x41 && first <= 0x5a)) return -1;
    let k = from + 1;
    while (k < this.b.length && isWordByte(this.b[k] as number)) k++;
    this.i = k;
    return k;
  }

  /** 1 to 15 decimal digits (exact in a double), or -1 (16+ digits are left to the general path's exact check). */
  digits(): number {
    let k = this.i;
    let value = 0;
    while (k < this.b.length) {
      const c = this.b[k] as number;
      if (c < 0x30 || c > 0x39) break;
      value = value * 10 + (c - 0x30);
      k++;
    }
    if (k === this.i || k - this.i > 15) return -1;
    this.i = k;
    return value;
  }
}

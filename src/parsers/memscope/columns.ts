// Growable typed columns: what the dump analyses hold per row or block, at 4 or 8 bytes a value instead of a JS array's 8+.

type Typed = Float64Array | Int32Array | Uint8Array;

export class Column<T extends Typed> {
  length = 0;
  constructor(public data: T) {}

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new (this.data.constructor as new (n: number) => T)(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  /** The filled part, copied to its own buffer (drops the growth slack). */
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

export const f64 = (): Column<Float64Array> => new Column(new Float64Array(1024));
export const i32 = (): Column<Int32Array> => new Column(new Int32Array(1024));
export const u8 = (): Column<Uint8Array> => new Column(new Uint8Array(1024));

// The blocks a dump replay holds live (or retained, never freed), in slot arrays reused once a block is freed.

/** A live (or never really freed) block: slot arrays, reused once a block is freed. */
export class Blocks {
  capacity = 1024;
  group = new Int32Array(this.capacity);
  size = new Float64Array(this.capacity);
  id = new Float64Array(this.capacity);
  owner = new Int32Array(this.capacity);
  callSite = new Int32Array(this.capacity);
  line = new Float64Array(this.capacity);
  ownerKey = new Int32Array(this.capacity);
  /** 0 free slot, 1 live, 2 retained (a shadow FREE, or overwritten by a MALLOC at its address: never freed). */
  state = new Uint8Array(this.capacity);
  serial = new Float64Array(this.capacity);
  private readonly freeSlots: number[] = [];
  private used = 0;
  alive = 0;

  take(): number {
    const slot = this.freeSlots.pop() ?? this.used++;
    if (slot >= this.capacity) this.grow();
    this.alive++;
    return slot;
  }

  release(slot: number): void {
    this.state[slot] = 0;
    this.serial[slot] = (this.serial[slot] as number) + 1;
    this.freeSlots.push(slot);
    this.alive--;
  }

  /** Slots in use, for the end of the replay. */
  get highWater(): number {
    return this.used;
  }

  private grow(): void {
    const n = this.capacity * 2;
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.group = i32(this.group);
    this.size = f64(this.size);
    this.id = f64(this.id);
    this.owner = i32(this.owner);
    this.callSite = i32(this.callSite);
    this.line = f64(this.line);
    this.ownerKey = i32(this.ownerKey);
    const state = new Uint8Array(n);
    state.set(this.state);
    this.state = state;
    this.serial = f64(this.serial);
    this.capacity = n;
  }
}

// Puts the events of an msMemScope dump in time order, in bounded memory, for the analyses that replay them.
//
// The tool writes a block's MALLOC row late, when the block is freed, and unfreed blocks at teardown, so file order is
// not time order; a figure must not depend on how rows happen to be ordered. Events are collected in chunks of
// CHUNK_EVENTS; a full chunk is sorted by (timestamp, file order) and, when the dump needs more than one chunk, written
// to a temporary file as a sorted run. replay() merges the runs. Equal timestamps keep file order: within a chunk by a
// stable sort, across chunks because run k holds rows that come before those of run k + 1. Memory: one chunk's columns
// (~32 MiB) while reading, a few hundred KiB of run buffers while replaying; disk: 64 bytes per event.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Events per chunk: 2^19 × 61 bytes of columns. */
const CHUNK_EVENTS = 1 << 19;
/** Bytes of one event in a run file. */
const RECORD_BYTES = 64;
/** Events read at a time from each run while merging. */
const READ_EVENTS = 4096;

/** One event as replay() hands it over; the object is reused for every event: copy what you keep. */
export interface TimedEvent {
  kind: number;
  line: number;
  /** Kind-specific fields (see the recorder that wrote them). */
  f0: number;
  f1: number;
  f2: number;
  u0: number;
  u1: number;
  u2: number;
  u3: number;
}

/** Columns of one chunk: timestamp as seconds part and nanoseconds part, so that any uint64 timestamp orders exactly. */
class Chunk {
  readonly tsHi: Float64Array;
  readonly tsLo: Uint32Array;
  readonly kind: Uint8Array;
  readonly line: Float64Array;
  readonly f0: Float64Array;
  readonly f1: Float64Array;
  readonly f2: Float64Array;
  readonly u0: Uint32Array;
  readonly u1: Uint32Array;
  readonly u2: Uint32Array;
  readonly u3: Uint32Array;
  count = 0;

  constructor(readonly capacity: number) {
    this.tsHi = new Float64Array(capacity);
    this.tsLo = new Uint32Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.line = new Float64Array(capacity);
    this.f0 = new Float64Array(capacity);
    this.f1 = new Float64Array(capacity);
    this.f2 = new Float64Array(capacity);
    this.u0 = new Uint32Array(capacity);
    this.u1 = new Uint32Array(capacity);
    this.u2 = new Uint32Array(capacity);
    this.u3 = new Uint32Array(capacity);
  }

  /** Indices in time order, equal timestamps in arrival order (Array.prototype.sort is stable, and fast on runs). */
  order(): number[] {
    const { tsHi, tsLo } = this;
    const index = new Array<number>(this.count);
    let sorted = true;
    for (let i = 0; i < this.count; i++) {
      index[i] = i;
      if (
        i > 0 &&
        ((tsHi[i] as number) < (tsHi[i - 1] as number) ||
          ((tsHi[i] as number) === (tsHi[i - 1] as number) && (tsLo[i] as number) < (tsLo[i - 1] as number)))
      )
        sorted = false;
    }
    if (!sorted)
      index.sort(
        (a, b) => (tsHi[a] as number) - (tsHi[b] as number) || (tsLo[a] as number) - (tsLo[b] as number) || a - b,
      );
    return index;
  }
}

/** A sorted run in the temporary file: where it starts and how many events it holds. */
interface Run {
  offset: number;
  count: number;
}

/**
 * Collects timed events and hands them back in time order. Call add() for each event in file order, then replay()
 * once, then close() (also after a failure: it removes the temporary file).
 */
export class EventSpool {
  private chunk: Chunk;
  private readonly runs: Run[] = [];
  private dir: string | null = null;
  private fd: number | null = null;
  private written = 0;
  events = 0;

  constructor(private readonly chunkEvents = CHUNK_EVENTS) {
    this.chunk = new Chunk(Math.min(chunkEvents, 4096));
  }

  /** Adds one event; `tsHi` is the timestamp / 10^9 (floored), `tsLo` the rest, so any 20-digit timestamp orders exactly. */
  add(
    tsHi: number,
    tsLo: number,
    kind: number,
    line: number,
    f0: number,
    f1: number,
    f2: number,
    u0: number,
    u1: number,
    u2: number,
    u3: number,
  ): void {
    let c = this.chunk;
    if (c.count === c.capacity) c = this.grow();
    const i = c.count++;
    c.tsHi[i] = tsHi;
    c.tsLo[i] = tsLo;
    c.kind[i] = kind;
    c.line[i] = line;
    c.f0[i] = f0;
    c.f1[i] = f1;
    c.f2[i] = f2;
    c.u0[i] = u0;
    c.u1[i] = u1;
    c.u2[i] = u2;
    c.u3[i] = u3;
    this.events++;
  }

  /** A small dump never allocates a whole chunk: the chunk doubles up to chunkEvents, then spills. */
  private grow(): Chunk {
    const c = this.chunk;
    if (c.capacity >= this.chunkEvents) {
      this.spill();
      return this.chunk;
    }
    const bigger = new Chunk(Math.min(c.capacity * 2, this.chunkEvents));
    bigger.tsHi.set(c.tsHi);
    bigger.tsLo.set(c.tsLo);
    bigger.kind.set(c.kind);
    bigger.line.set(c.line);
    bigger.f0.set(c.f0);
    bigger.f1.set(c.f1);
    bigger.f2.set(c.f2);
    bigger.u0.set(c.u0);
    bigger.u1.set(c.u1);
    bigger.u2.set(c.u2);
    bigger.u3.set(c.u3);
    bigger.count = c.count;
    this.chunk = bigger;
    return bigger;
  }

  /** Writes the chunk, sorted, as a run of the temporary file. */
  private spill(): void {
    const c = this.chunk;
    if (c.count === 0) return;
    if (this.fd === null) {
      this.dir = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'ascend-memory-gate-dump-'));
      this.fd = openSync(join(this.dir, 'runs.bin'), 'w+');
    }
    const order = c.order();
    const buffer = Buffer.allocUnsafeSlow(READ_EVENTS * RECORD_BYTES);
    // Typed views on the record buffer: 8 doubles or 16 uint32 per record (Buffer.writeDoubleLE is ~3x slower).
    const f = new Float64Array(buffer.buffer, buffer.byteOffset, READ_EVENTS * 8);
    const u = new Uint32Array(buffer.buffer, buffer.byteOffset, READ_EVENTS * 16);
    const run: Run = { offset: this.written, count: c.count };
    for (let from = 0; from < order.length; from += READ_EVENTS) {
      const to = Math.min(order.length, from + READ_EVENTS);
      for (let k = from; k < to; k++) {
        const i = order[k] as number;
        const d = (k - from) * 8;
        f[d] = c.tsHi[i] as number;
        f[d + 1] = c.line[i] as number;
        f[d + 2] = c.f0[i] as number;
        f[d + 3] = c.f1[i] as number;
        f[d + 4] = c.f2[i] as number;
        const w = d * 2;
        u[w + 10] = c.tsLo[i] as number;
        u[w + 11] = c.u0[i] as number;
        u[w + 12] = c.u1[i] as number;
        u[w + 13] = c.u2[i] as number;
        u[w + 14] = c.u3[i] as number;
        u[w + 15] = c.kind[i] as number;
      }
      const bytes = (to - from) * RECORD_BYTES;
      let done = 0;
      while (done < bytes) done += writeSync(this.fd, buffer, done, bytes - done, this.written + done);
      this.written += bytes;
    }
    this.runs.push(run);
    c.count = 0;
  }

  /**
   * The last event has been added: a dump that already spilled writes its last chunk too and lets go of the chunk's
   * memory (compare-dumps reads the second dump while the first waits); a dump that fits one chunk keeps it.
   */
  seal(): void {
    if (this.runs.length === 0) return;
    this.spill();
    this.chunk = new Chunk(1);
  }

  /** Calls `visit` for every event in time order (equal timestamps in file order). Once. */
  replay(visit: (event: TimedEvent) => void): void {
    const event: TimedEvent = { kind: 0, line: 0, f0: 0, f1: 0, f2: 0, u0: 0, u1: 0, u2: 0, u3: 0 };
    if (this.runs.length === 0) {
      // The whole dump fits in one chunk: sorted in memory, no file.
      const c = this.chunk;
      for (const i of c.order()) {
        event.kind = c.kind[i] as number;
        event.line = c.line[i] as number;
        event.f0 = c.f0[i] as number;
        event.f1 = c.f1[i] as number;
        event.f2 = c.f2[i] as number;
        event.u0 = c.u0[i] as number;
        event.u1 = c.u1[i] as number;
        event.u2 = c.u2[i] as number;
        event.u3 = c.u3[i] as number;
        visit(event);
      }
      return;
    }
    this.seal();
    this.merge(visit, event);
  }

  /** K-way merge of the runs: a binary heap of run readers ordered by (timestamp, run), the earlier run first on a tie. */
  private merge(visit: (event: TimedEvent) => void, event: TimedEvent): void {
    const fd = this.fd as number;
    const readers = this.runs.map((run, index) => new RunReader(fd, run, index));
    const heap = readers.filter((r) => r.next());
    const before = (a: RunReader, b: RunReader): boolean =>
      a.tsHi < b.tsHi || (a.tsHi === b.tsHi && (a.tsLo < b.tsLo || (a.tsLo === b.tsLo && a.index < b.index)));
    const siftDown = (from: number): void => {
      let i = from;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) return;
        const r = l + 1;
        const m = r < heap.length && before(heap[r] as RunReader, heap[l] as RunReader) ? r : l;
        if (!before(heap[m] as RunReader, heap[i] as RunReader)) return;
        const t = heap[i] as RunReader;
        heap[i] = heap[m] as RunReader;
        heap[m] = t;
        i = m;
      }
    };
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i);
    while (heap.length > 0) {
      const top = heap[0] as RunReader;
      top.read(event);
      visit(event);
      if (!top.next()) {
        const last = heap.pop() as RunReader;
        if (heap.length === 0) break;
        heap[0] = last;
      }
      siftDown(0);
    }
  }

  /** Removes the temporary file, if there is one. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

/** Reads one run of the temporary file, READ_EVENTS events at a time. */
class RunReader {
  private readonly buffer = Buffer.allocUnsafeSlow(READ_EVENTS * RECORD_BYTES);
  private readonly f = new Float64Array(this.buffer.buffer, this.buffer.byteOffset, READ_EVENTS * 8);
  private readonly u = new Uint32Array(this.buffer.buffer, this.buffer.byteOffset, READ_EVENTS * 16);
  private loaded = 0;
  private at = -1;
  private consumed = 0;
  tsHi = 0;
  tsLo = 0;

  constructor(
    private readonly fd: number,
    private readonly run: Run,
    readonly index: number,
  ) {}

  /** Moves to the next event; false at the end of the run. */
  next(): boolean {
    if (this.consumed === this.run.count) return false;
    this.at++;
    if (this.at >= this.loaded) {
      const events = Math.min(READ_EVENTS, this.run.count - this.consumed);
      const bytes = events * RECORD_BYTES;
      let done = 0;
      while (done < bytes) {
        const n = readSync(
          this.fd,
          this.buffer,
          done,
          bytes - done,
          this.run.offset + this.consumed * RECORD_BYTES + done,
        );
        if (n === 0) throw new Error('the temporary file of a dump replay was cut short');
        done += n;
      }
      this.loaded = events;
      this.at = 0;
    }
    this.consumed++;
    this.tsHi = this.f[this.at * 8] as number;
    this.tsLo = this.u[this.at * 16 + 10] as number;
    return true;
  }

  /** The current event into `event`. */
  read(event: TimedEvent): void {
    const d = this.at * 8;
    const w = d * 2;
    const { f, u } = this;
    event.line = f[d + 1] as number;
    event.f0 = f[d + 2] as number;
    event.f1 = f[d + 3] as number;
    event.f2 = f[d + 4] as number;
    event.u0 = u[w + 11] as number;
    event.u1 = u[w + 12] as number;
    event.u2 = u[w + 13] as number;
    event.u3 = u[w + 14] as number;
    event.kind = u[w + 15] as number;
  }
}

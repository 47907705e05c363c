// The work a snapshot may cost, counted as the decoder and the walk go (bytes read, items copied, characters of names built), bounded by its size.
import { InputError } from '../../common/errors.js';

/** Units of work allowed per byte of the file: the real torch_npu corpus uses 2.4-2.5 (2 of them the two passes). */
export const WORK_PER_BYTE = 8;
/** Units allowed whatever the size: a small file's fixed costs (a few long names) stay below it. */
const WORK_FLOOR = 16 * 1024 * 1024;

/**
 * One file's budget: every step of reading it charges what it costs (a byte read, an item copied into a list, a
 * character of a name built or hashed), and the file is refused once the total passes WORK_FLOOR + WORK_PER_BYTE × its
 * size. A file torch_npu wrote costs a few units per byte; a hostile one (a long string fetched from the memo
 * thousands of times for 2 bytes each) is stopped before it keeps the gate busy.
 */
export class WorkBudget {
  used = 0;
  readonly limit: number;
  /** The byte the reader is at (the decoder sets it; after STOP, the STOP's byte). */
  position: () => number = () => 0;

  constructor(
    private readonly name: string,
    private readonly size: number,
  ) {
    this.limit = WORK_FLOOR + WORK_PER_BYTE * size;
  }

  /** Adds `units` spent on `what` (a constant phrase: nothing is built unless the budget is passed). */
  charge(units: number, what: string): void {
    this.used += units;
    if (this.used > this.limit) throw this.exceeded(what);
  }

  /** Units used per byte of the file so far (what the tests quote for honest snapshots). */
  ratio(): number {
    return this.size === 0 ? 0 : this.used / this.size;
  }

  private exceeded(what: string): InputError {
    const en = (n: number): string => n.toLocaleString('en');
    return new InputError(
      `${this.name}: byte ${this.position()}: reading it takes more than ${en(this.limit)} units of work (${WORK_PER_BYTE} per byte of its ${en(this.size)} and ${WORK_FLOOR / (1024 * 1024)} MiB; spent ${what}): no snapshot torch_npu writes comes near that, so the file was built to keep the reader busy: refused, nothing of it was used (if torch_npu did write it, report it with the file)`,
    );
  }
}

// A figure rolled up across devices: the median of values, and one key group's min, median, max, device count and worst device.

/** The median of the values (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: ArrayLike<number>): number {
  // A typed array sorts numerically in native code: ~10x faster than sort((a, b) => a - b) on 4,096 peaks per group.
  const sorted = Float64Array.from(values).sort();
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** One key group (`DEV_MEM/{*}/APP`) over the devices that have it: what a history point keeps above 64 devices. */
export interface RollUp {
  min: number;
  /** Rounded to a whole byte: the mean of the two middle values of an even count may end in .5. */
  median: number;
  max: number;
  /** Devices that have a key of the group. */
  devices: number;
  /** The device holding the largest value (the first in the order given on a tie). */
  worst: string;
}

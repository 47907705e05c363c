// The pipeline's history step for both entries: this run as one point of the default branch's history, bounded in
// points and bytes, and the sentence that says where it went.
import { readFile } from 'node:fs/promises';
import { HISTORY_MAX_BYTES, type History, type HistoryHeader, type PointMeta } from '../history/format.js';
import { MAX_HISTORY_SIZE } from '../history/limits.js';
import { baselineHash, type PointValues } from '../history/point.js';
import { recordPoint } from '../history/store.js';

/** A commit as a point names it: 4 to 64 lowercase hex digits (SHA-1 or SHA-256, maybe abbreviated). */
export function isCommitSha(commit: string): boolean {
  return /^[0-9a-f]{4,64}$/.test(commit);
}

/** A point's time: ISO 8601 in UTC, whole seconds. */
export function pointTime(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The history size asked for (`history-size`, `--size`), or null when it is not a whole number from 1 to the bound. */
export function historySize(value: string): number | null {
  return /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_HISTORY_SIZE ? Number(value) : null;
}

/** The hash of the baseline file that marks baseline updates in the history; null when there is no such file. */
export async function baselineHashOf(file: string): Promise<string | null> {
  try {
    return baselineHash(await readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** One run as a point: what it says of itself, its values, the header it writes, and the points kept. */
export interface PointRequest {
  header: Partial<Omit<HistoryHeader, 'format' | 'version'>>;
  meta: PointMeta;
  values: PointValues;
  maxPoints: number;
}

export type Recorded = ReturnType<typeof recordPoint>;

/** Records the run on `history` (in place), the oldest points dropped past maxPoints or the byte bound. */
export function recordRun(history: History, request: PointRequest): Recorded {
  Object.assign(history.header, request.header);
  return recordPoint(history, request.meta, request.values, {
    maxPoints: request.maxPoints,
    maxBytes: HISTORY_MAX_BYTES,
  });
}

/** "point 12 of at most 200", then the points dropped after `separator` ("; 3 oldest dropped"). */
export function pointSentence(
  recorded: Pick<Recorded, 'points' | 'dropped'>,
  maxPoints: number,
  separator: string,
): string {
  const dropped = recorded.dropped > 0 ? `${separator}${recorded.dropped} oldest dropped` : '';
  return `point ${recorded.points} of at most ${maxPoints}${dropped}`;
}

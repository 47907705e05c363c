// Reads every input file through its parser into one snapshot: the middle of the pipeline shared by CLI and Action.
import { InputError } from './errors.js';
import { parseMemoryCompareFile } from './parsers/memory-compare.js';
import { parsePlogFile } from './parsers/plog.js';
import { isEmptySnapshot, SnapshotBuilder, type SkippedRecord, type Snapshot } from './snapshot.js';
import type { InputFile } from './sources/types.js';

export interface CollectInputs {
  plog: readonly InputFile[];
  compare: readonly InputFile[];
  /** What was searched, for the message when nothing is found. */
  searched?: string;
}

export interface Collected {
  snapshot: Snapshot;
  /** A bounded sample of malformed records, for warnings. */
  skippedRecords: SkippedRecord[];
}

/** Parses every file in order (sorted paths, so ties resolve the same way every run) into one snapshot. */
export async function collectSnapshot(inputs: CollectInputs): Promise<Collected> {
  const builder = new SnapshotBuilder();
  for (const file of inputs.plog) await parsePlogFile(file, builder);
  for (const file of inputs.compare) await parseMemoryCompareFile(file, builder);
  const snapshot = builder.build();
  if (isEmptySnapshot(snapshot)) throw new InputError(noDataMessage(inputs, snapshot));
  return { snapshot, skippedRecords: builder.skippedRecords };
}

function noDataMessage(inputs: CollectInputs, snapshot: Snapshot): string {
  const total = inputs.plog.length + inputs.compare.length;
  const where = inputs.searched ? ` (searched ${inputs.searched})` : '';
  if (total === 0) {
    return `no input files found${where}: pass --plog with the run/plog folder and/or --compare with memory_compare_*.csv`;
  }
  const skipped = snapshot.meta.skipped > 0 ? `; ${snapshot.meta.skipped} record(s) were malformed` : '';
  return (
    `no memory statistics found in ${total} file(s)${where}${skipped}: ` +
    'was the job run with run logs enabled (plog under run/plog, ASCEND_PROCESS_LOG_PATH), ' +
    'and did the processes exit normally so the driver could print its "Mem stats" lines?'
  );
}

// Reads one msMemScope dump into the figures of every analysis (a file, or text in memory for tests).
//
// The figures: training steps, msMemScope's step-leak rule, memory unfreed at the end of tracing, owner buckets,
// per-op footprint (ours) and inefficient memory. dump-recorder.ts turns rows into events, dump-replay.ts replays them.
//
// Rows become compact events that time-order.ts hands back in time order (equal timestamps in file order), in bounded
// memory; the replay then holds only what is live at that moment: a block from its MALLOC until its FREE matches it
// (then it is released), the open op windows, each process's open step. Blocks are matched MALLOC → FREE by (pid,
// pool, Ptr) in time order, so the tool's late MALLOC rows (written when the block is freed) and any other row order
// give the same figures. Every byte figure is an exact integer: a size of 2^53 or more skips its row with a warning,
// and a sum that would pass 2^53 - 1 stops the read naming the line that would have taken it there.
import { EscapedUtf8Decoder } from '../escaped-utf8.js';
import { DumpReader, streamDump, type DumpWarning } from './dump-reader.js';
import { DumpRecorder } from './dump-recorder.js';
import { DumpReplay, type DumpFacts } from './dump-replay.js';

export type { DumpFacts } from './dump-replay.js';

/** Options for tests: a small chunk makes a small dump go through the temporary file. */
export interface DumpReadOptions {
  chunkEvents?: number;
}

/** Reads a dump file into its figures; warnings go to `onWarning`. */
export async function readDumpFacts(
  path: string,
  name: string,
  onWarning: (w: DumpWarning) => void,
  options: DumpReadOptions = {},
): Promise<DumpFacts> {
  const recorder = new DumpRecorder(name, onWarning, options.chunkEvents);
  try {
    const reader = new DumpReader(name, (row) => recorder.row(row), onWarning);
    await streamDump(path, reader);
    return replay(recorder, reader, onWarning);
  } finally {
    recorder.spool.close();
  }
}

/** The same over text (or bytes) in memory (tests). */
export function dumpFactsFromText(
  name: string,
  text: string | Buffer,
  onWarning: (w: DumpWarning) => void = () => {},
  options: DumpReadOptions = {},
): DumpFacts {
  const recorder = new DumpRecorder(name, onWarning, options.chunkEvents);
  try {
    const reader = new DumpReader(name, (row) => recorder.row(row), onWarning);
    if (typeof text === 'string') reader.push(text);
    else {
      const decoder = new EscapedUtf8Decoder();
      reader.push(decoder.write(text));
      reader.push(decoder.end());
    }
    reader.finish();
    return replay(recorder, reader, onWarning);
  } finally {
    recorder.spool.close();
  }
}

function replay(recorder: DumpRecorder, reader: DumpReader, onWarning: (w: DumpWarning) => void): DumpFacts {
  const replay = new DumpReplay(recorder, onWarning);
  recorder.spool.replay((e) => replay.event(e));
  return replay.finish(reader.timestampUnit ?? reader.header?.headerUnit ?? 'ns', reader.rows);
}

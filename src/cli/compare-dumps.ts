// `ascend-memory-gate compare-dumps BASE CURRENT`: msMemScope's --compare without the tool (its memory_compare CSV, byte for byte).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { UsageError } from '../common/errors.js';
import { visible } from '../common/visible.js';
import { encodeEscaped } from '../parsers/escaped-utf8.js';
import {
  DEFAULT_MAX_EDITS,
  compareDumpFiles,
  terminalSafe,
  type CompareLevel,
} from '../parsers/memscope/compare-dumps.js';

export const COMPARE_DUMPS_USAGE =
  'ascend-memory-gate compare-dumps BASE.csv CURRENT.csv [--level op|kernel|op,kernel] [--out FILE] [--max-edits N]';

const LEVELS: Record<string, CompareLevel> = {
  op: 'op',
  '0': 'op',
  kernel: 'kernel',
  '1': 'kernel',
  'op,kernel': 'op,kernel',
  'kernel,op': 'op,kernel',
};

/** Where compare-dumps writes: text, bytes when the CSV holds bytes that are not UTF-8, and whether stdout is a terminal. */
export interface CompareDumpsOutput {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Writes bytes as they are; a promise returned says to wait (a full pipe) before the next piece. */
  outBytes?: (bytes: Buffer) => void | Promise<void>;
  isTerminal?: () => boolean;
}

export async function compareDumpsCommand(args: string[], io: CompareDumpsOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { level: { type: 'string' }, out: { type: 'string' }, 'max-edits': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`compare-dumps: ${(error as Error).message}\nusage: ${COMPARE_DUMPS_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 2)
    throw new UsageError(
      `compare-dumps: give exactly two dumps, BASE and CURRENT (got ${positionals.length})\nusage: ${COMPARE_DUMPS_USAGE}`,
    );
  const level = LEVELS[values.level ?? 'op'];
  if (level === undefined)
    throw new UsageError(`compare-dumps: --level must be op, kernel or op,kernel (got '${values.level}')`);
  const maxEdits = values['max-edits'] === undefined ? DEFAULT_MAX_EDITS : Number(values['max-edits']);
  if (!Number.isSafeInteger(maxEdits) || maxEdits < 0)
    throw new UsageError(`compare-dumps: --max-edits must be a non-negative integer (got '${values['max-edits']}')`);
  const [base, current] = positionals as [string, string];
  // The CSV goes out in pieces as it is rendered; a failed compare writes nothing (the file is opened at the first piece).
  // The dump's own bytes go out (escaped bytes written back); a terminal gets no control character raw. A full pipe or
  // a slow disk holds the rendering back (the CSV of two 1 GiB dumps is ~130 MB: never buffered whole).
  let file: ReturnType<typeof createWriteStream> | null = null;
  const terminal = values.out === undefined && io.isTerminal?.() === true;
  const sink = async (text: string): Promise<void> => {
    if (values.out !== undefined) {
      file ??= createWriteStream(values.out);
      if (!file.write(encodeEscaped(text))) await once(file, 'drain');
    } else if (terminal) io.out(terminalSafe(text));
    else if (io.outBytes !== undefined) await io.outBytes(encodeEscaped(text));
    else io.out(text);
  };
  const result = await compareDumpFiles(
    { path: base, name: base },
    { path: current, name: current },
    {
      level,
      maxEdits,
      sink,
      onWarning: (w) => io.err(`warning: ${visible(`${w.file}:${w.line}: ${w.reason}`)}\n`),
    },
  );
  if (file !== null) {
    const stream = file as ReturnType<typeof createWriteStream>;
    stream.end();
    await once(stream, 'finish');
    io.err(`wrote ${visible(values.out ?? '')}: ${result.rows} rows on ${result.devices.length} device(s)\n`);
  }
  return 0;
}

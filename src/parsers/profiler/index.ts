// The profiler evidence source: torch_npu / msprof / MindSpore memory CSVs, each recognised by its header and streamed.
import { ParseError } from '../../common/errors.js';
import type { InputFile } from '../../sources/types.js';
import { readCsvRows, readCsvText, type Row } from './csv-rows.js';
import { knownHeadersHint, recognizeHeader, type KnownHeader } from './headers.js';
import {
  MemoryRecordReader,
  ModuleMemReader,
  NpuMemReader,
  OperatorMemoryReader,
  StaticOpMemReader,
  type ProfilerTarget,
  type TableReader,
} from './tables.js';

export type { ProfilerTarget } from './tables.js';
export { DIRECTORY_PATTERNS } from './search.js';

/** Streams one profiler memory CSV into the snapshot. */
export async function parseFile(file: InputFile, into: ProfilerTarget): Promise<void> {
  const reading = new FileReading(file.name, file.path, into);
  await readCsvRows(file.path, file.name, (row) => reading.row(row));
  reading.finish();
}

/** The same over text in memory (tests); `path` stands in for the file's location (device_<n> folders). */
export function parseProfilerText(name: string, text: string, into: ProfilerTarget, path = name): void {
  const reading = new FileReading(name, path, into);
  readCsvText(text, name, (row) => reading.row(row));
  reading.finish();
}

/** One file: the first row picks the table reader, every later row goes to it. */
class FileReading {
  private reader: TableReader | null = null;

  constructor(
    private readonly name: string,
    private readonly path: string,
    private readonly into: ProfilerTarget,
  ) {}

  row(r: Row): void {
    if (this.reader !== null) {
      this.reader.row(r);
      return;
    }
    const cells: string[] = [];
    for (let k = 0; k < r.count; k++) cells.push(r.cell(k));
    const header = recognizeHeader(cells);
    if (header === null) {
      const text = cells.join(',');
      throw new ParseError(
        this.name,
        r.line,
        `not a profiler memory CSV: the header ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)} is none of the known ${knownHeadersHint()} headers`,
      );
    }
    this.reader = readerFor(header, this.name, this.path, (record) => this.into.addSkipped(record));
  }

  finish(): void {
    this.into.files += 1;
    if (this.reader === null) {
      // msprof leaves 0-byte slices behind; one is no evidence, but no reason to stop the run either.
      this.into.addSkipped({ file: this.name, line: 1, reason: 'empty file: no header, nothing read' });
      return;
    }
    this.reader.finish(this.into);
    this.into.records += this.reader.rows;
  }
}

function readerFor(
  header: KnownHeader,
  name: string,
  path: string,
  warn: ConstructorParameters<typeof MemoryRecordReader>[3],
): TableReader {
  switch (header.kind) {
    case 'memory_record':
      return new MemoryRecordReader(name, header, path, warn);
    case 'npu_module_mem':
      return new ModuleMemReader(name, header, path, warn);
    case 'operator_memory':
      return new OperatorMemoryReader(name, header, path, warn);
    case 'static_op_mem':
      return new StaticOpMemReader(name, header, path, warn);
    case 'npu_mem':
      return new NpuMemReader(name, header, path, warn);
  }
}

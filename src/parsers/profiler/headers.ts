// The header of every memory CSV the torch_npu profiler, msprof and MindSpore write: the only thing that says what a file is.
//
// File names are never trusted (MindSpore copies msprof's KB npu_module_mem under the torch_npu name). Each known
// header names its table, its generation and the unit of its size columns; `(MB)` and `(KB)` in the header decide.
// Merged msprof files (mindstudio_profiler_output/) prepend `Device_id`; every header is also known with it.
import { KIB, MIB, type ByteUnit } from './decimal.js';

type TableKind = 'memory_record' | 'npu_module_mem' | 'operator_memory' | 'static_op_mem' | 'npu_mem';

/** `mindspore-or-torch_npu`: the 6-column memory_record header both write, in different units (decided by the rows). */
type HeaderUnit = ByteUnit | 'mindspore-or-torch_npu';

export interface KnownHeader {
  kind: TableKind;
  /** Which writer and generation, for messages. */
  generation: string;
  columns: readonly string[];
  /** The unit of the compared size columns (Total … for memory_record and npu_module_mem, Size(KB) for the others). */
  unit: HeaderUnit;
}

const HEADERS: readonly [TableKind, string, string, HeaderUnit][] = [
  [
    'memory_record',
    'torch_npu A1 (5.0.x)',
    'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Device Type',
    MIB,
  ],
  [
    'memory_record',
    'torch_npu A2 (Jan 2024) or MindSpore',
    'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Device Type',
    'mindspore-or-torch_npu',
  ],
  [
    'memory_record',
    'torch_npu A3 (6.0.rc1 on)',
    'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type',
    MIB,
  ],
  ['memory_record', 'msprof (KB)', 'Component,Timestamp(us),Total Allocated(KB),Total Reserved(KB),Device', KIB],
  ['npu_module_mem', 'torch_npu (MB)', 'Component,Timestamp(us),Total Reserved(MB),Device', MIB],
  ['npu_module_mem', 'msprof or MindSpore copy (KB)', 'Component,Timestamp(us),Total Reserved(KB),Device', KIB],
  [
    'operator_memory',
    'torch_npu A1 (5.0.x)',
    'Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Release Total Allocated(MB),Release Total Reserved(MB),Device Type',
    KIB,
  ],
  [
    'operator_memory',
    'torch_npu A2/A3 (6.0.rc1 on)',
    'Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type',
    KIB,
  ],
  [
    'operator_memory',
    'msprof (KB)',
    'Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(KB),Allocation Total Reserved(KB),Release Total Allocated(KB),Release Total Reserved(KB),Device',
    KIB,
  ],
  [
    'static_op_mem',
    'msprof or torch_npu copy',
    'Op Name,Model Name,Graph ID,Node Index Start,Node Index End,Size(KB)',
    KIB,
  ],
  ['npu_mem', 'msprof', 'event,ddr(KB),hbm(KB),memory(KB),timestamp(us)', KIB],
];

const KNOWN: readonly KnownHeader[] = HEADERS.flatMap(([kind, generation, header, unit]) => [
  { kind, generation, columns: header.split(','), unit },
  { kind, generation: `${generation}, merged with Device_id`, columns: ['Device_id', ...header.split(',')], unit },
]);

const byText = new Map(KNOWN.map((h) => [h.columns.join(','), h]));

/** The known header these cells spell (cells trimmed; a trailing empty cell from a trailing comma ignored), or null. */
export function recognizeHeader(cells: readonly string[]): KnownHeader | null {
  const trimmed = cells.map((c) => c.trim());
  if (trimmed.length > 1 && trimmed[trimmed.length - 1] === '') trimmed.pop();
  return byText.get(trimmed.join(',')) ?? null;
}

/** The position of a column, or -1. */
export function columnOf(header: KnownHeader, ...names: string[]): number {
  for (const name of names) {
    const i = header.columns.indexOf(name);
    if (i !== -1) return i;
  }
  return -1;
}

/** For the error on an unknown header: what each table's first columns look like. */
export function knownHeadersHint(): string {
  const kinds = [...new Set(KNOWN.map((h) => h.kind))];
  return kinds.join(', ');
}

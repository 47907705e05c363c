// Sections as columns: what a thread that read a baseline hands to the main thread. Posting 160,000 metric objects
// costs more than parsing their JSON (structured clone ~0.35 s against JSON.parse ~0.25 s for 24 MB); their keys as one
// array, each numeric field as a Float64Array (moved, not copied) and each string field as a table of its values cost a
// fraction of that, and rebuilding the objects on the other side is a loop with no parsing.
import { section } from './index.js';
import type { Metric } from './types.js';

/** One field of every metric of a section, in key order. */
export type FieldColumn =
  /** Numbers; NaN stands for null (JSON has no NaN, so no metric holds one). */
  | { field: string; numbers: Float64Array }
  /** Strings (or null): each metric's value as an index into `values`, -1 for null. */
  | { field: string; values: string[]; index: Int32Array };

export interface SectionColumns {
  name: string;
  keys: string[];
  /** The declared fields in code-unit order: the order snapshot and baseline files hold them in. */
  fields: FieldColumn[];
}

/**
 * The sections (already validated: every metric has exactly its section's declared fields) as columns, and the buffers
 * to move with them.
 */
export function sectionsToColumns(sections: Readonly<Record<string, Readonly<Record<string, Metric>>>>): { columns: SectionColumns[]; transfer: ArrayBuffer[] } {
  const columns: SectionColumns[] = [];
  const transfer: ArrayBuffer[] = [];
  for (const name of Object.keys(sections)) {
    const metrics = sections[name] as Readonly<Record<string, Metric>>;
    const keys = Object.keys(metrics);
    const values = keys.map((key) => metrics[key] as Metric);
    const declaration = section(name);
    const fields: FieldColumn[] = [];
    for (const field of Object.keys(declaration.fields).sort()) {
      const type = declaration.fields[field]?.type;
      if (type === 'string' || type === 'stringOrNull') {
        const table = new Map<string, number>();
        const index = new Int32Array(values.length);
        for (let i = 0; i < values.length; i++) {
          const v = (values[i] as Metric)[field];
          if (typeof v !== 'string') {
            index[i] = -1;
            continue;
          }
          let at = table.get(v);
          if (at === undefined) table.set(v, (at = table.size));
          index[i] = at;
        }
        fields.push({ field, values: [...table.keys()], index });
        transfer.push(index.buffer as ArrayBuffer);
      } else {
        const numbers = new Float64Array(values.length);
        for (let i = 0; i < values.length; i++) {
          const v = (values[i] as Metric)[field];
          numbers[i] = typeof v === 'number' ? v : Number.NaN;
        }
        fields.push({ field, numbers });
        transfer.push(numbers.buffer as ArrayBuffer);
      }
    }
    columns.push({ name, keys, fields });
  }
  return { columns, transfer };
}

/** The sections back as records of metric objects, keys in the order they were listed. */
export function sectionsFromColumns(columns: readonly SectionColumns[]): Record<string, Record<string, Metric>> {
  const sections: Record<string, Record<string, Metric>> = {};
  for (const { name, keys, fields } of columns) {
    const metrics = keys.map((): Record<string, number | string | null> => ({}));
    for (const column of fields) {
      const { field } = column;
      if ('numbers' in column) {
        const { numbers } = column;
        for (let i = 0; i < keys.length; i++) {
          const v = numbers[i] as number;
          (metrics[i] as Record<string, number | string | null>)[field] = Number.isNaN(v) ? null : v;
        }
      } else {
        const { values, index } = column;
        for (let i = 0; i < keys.length; i++) {
          const at = index[i] as number;
          (metrics[i] as Record<string, number | string | null>)[field] = at < 0 ? null : (values[at] as string);
        }
      }
    }
    const record: Record<string, Metric> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      // A key named __proto__ stays a key.
      if (key === '__proto__') Object.defineProperty(record, key, { value: metrics[i], enumerable: true, writable: true, configurable: true });
      else record[key] = metrics[i] as Metric;
    }
    sections[name] = record;
  }
  return sections;
}

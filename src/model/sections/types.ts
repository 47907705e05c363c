// What a section of the snapshot is: one declaration per kind of figure, read by the snapshot, the gate, the schemas and the reports.
//
// A section is a map key → metric in the snapshot and the baseline (`modules`, `kernels`, …). Its declaration says
// what a key looks like, which field of the metric is compared with the baseline, the default tolerance, the unit,
// how two metrics of one key combine, and how keys roll up across devices. Nothing outside src/model/sections/ names a
// section, except the parser that fills it and checks that are about that section's meaning (devices.ts on modules).

/** How much a value may move before it counts. Every set field must be exceeded for a regression. */
export interface Tolerance {
  /** Relative to the baseline value: delta > baseline × percent / 100. */
  percent?: number;
  /** Absolute: delta > bytes. */
  bytes?: number;
}

/** A metric as stored: flat, JSON-safe. Each section's fields are declared in its `fields`. */
export type Metric = Readonly<Record<string, number | string | null>>;

/** JSON-schema kinds of a metric field; `bytes` are non-negative integers, `signedBytes` any safe integer. */
export type FieldType = 'bytes' | 'signedBytes' | 'count' | 'countOrNull' | 'bytesOrNull' | 'stringOrNull' | 'string';

interface FieldDeclaration {
  type: FieldType;
  description: string;
  /** True for a field that files written before it existed lack: checked when present, never required. */
  optional?: boolean;
}

/** A section's fields by name. */
export type Fields = Readonly<Record<string, FieldDeclaration>>;

/** The value a field of this type holds in a metric. */
type FieldValue<T extends FieldType> = T extends 'bytes' | 'signedBytes' | 'count'
  ? number
  : T extends 'countOrNull' | 'bytesOrNull'
    ? number | null
    : T extends 'stringOrNull'
      ? string | null
      : string;

type RequiredFields<F extends Fields> = { [K in keyof F]: F[K] extends { optional: true } ? never : K }[keyof F];

/** A metric of these fields: each declared field with its type; an `optional` one may be absent (older files). */
export type MetricFields<F extends Fields> = {
  readonly [K in RequiredFields<F>]: FieldValue<F[K]['type']>;
} & { readonly [K in Exclude<keyof F, RequiredFields<F>>]?: FieldValue<F[K]['type']> };

/**
 * The metric a section's writer gives: its declared fields, or `never` for a declaration whose fields the compiler does
 * not know (an entry of SECTIONS, `section(name)`), so that no write goes around the check.
 */
export type MetricToWrite<F extends Fields> = string extends keyof F ? never : MetricFields<F>;

/** The metric type a section's declaration gives: `MetricOf<typeof modules>` is `{peak, current, allocs, frees}`. */
export type MetricOf<S extends { readonly fields: Fields }> = MetricFields<S['fields']>;

export interface SectionDeclaration {
  /** Property of the snapshot, baseline and config: `modules`. Lower camel case. */
  name: string;
  /** Entry.kind of its verdicts, singular: `module`. */
  kind: string;
  /** Heading in reports: `Modules`. */
  title: string;
  /** One sentence for the schemas and the README. */
  description: string;
  /** Key shape for people: `<ATTR>[/devN]/<MODULE>`. */
  keyShape: string;
  /** An example key: `DEV_MEM/dev0/APP`. */
  example: string;
  /** The metric field compared with the baseline: `peak`. */
  value: string;
  /** What `value` counts; bytes unless said. */
  unit: 'bytes' | 'count';
  /** Default tolerance of this section's keys (config `<name>.tolerance` replaces it). */
  tolerance: Tolerance;
  /** The metric's fields (the baseline schema is built from them); `value` must be one of them. */
  fields: Record<string, FieldDeclaration>;
  /** Which evidence fills it, for the README: `plog memory statistics`. */
  source: string;
  /**
   * false: the section is evidence for findings only (step-leak, leak-suspect) and gets no baseline verdict of its own.
   * Default true.
   */
  compared?: boolean;
  /**
   * One sentence on a key's metric for its baseline verdict (the gate sets it as the entry's note): what the figure
   * means where it came from. Absent: compared entries have no note. `baseline` is the baseline's metric when both
   * sides have the key (what changed inside the figure: an allocation site's lines).
   */
  describe?(key: string, metric: Metric, baseline?: Metric): string;
  /**
   * true: the key's device is a process's logical index (torch_npu's `npu:0` is the first of ASCEND_RT_VISIBLE_DEVICES),
   * to be mapped to the physical device where the node's environment says which (src/model/logical-devices.ts). Every
   * metric then has the fields `logicalDevice` (count) and `visibleDevices` (stringOrNull: null until mapped).
   */
  logicalDevices?: boolean;
  /** One sentence under the `parse` table's title: what its figures count, when a field could be read two ways. */
  tableNote?: string;
  /**
   * How the per-device table shows the section. Default: one column, the sum of the device's keys. `figures`: each key
   * is `devN/<figure>` and each named figure gets its own column (never summed with the others), then `gap`, the last
   * figure minus the first (reserved − allocated), as a share of the last.
   */
  deviceRow?: {
    /** Empty: the section has no column (its keys add up to another section's figure, or are events). */
    figures: readonly DeviceFigure[];
    /** The gap column's title. */
    gap?: string;
    /** One sentence under the table on what the columns mean. */
    note?: string;
  };
}

/** A declaration whose field names and types are known to the compiler (defineSection): its metrics are typed. */
export interface Section<F extends Fields = Fields> extends SectionDeclaration {
  readonly fields: F;
  describe?(key: string, metric: MetricFields<F>, baseline?: MetricFields<F>): string;
}

/**
 * A section declaration, with its fields' names and types kept for MetricOf, the builder's add() and metricsOf(): a
 * misspelt or mistyped field fails to compile where a metric is written or read.
 */
export function defineSection<const F extends Fields>(
  declaration: Omit<SectionDeclaration, 'fields' | 'describe'> & {
    fields: F;
    describe?(key: string, metric: MetricFields<F>, baseline?: MetricFields<F>): string;
  },
): Section<F> {
  return declaration;
}

/** One figure of a device row: the key's last segment, and its column title. */
interface DeviceFigure {
  figure: string;
  title: string;
}

/** Where the device is in a key, for roll-ups across devices. */
export interface DeviceSplit {
  /** `dev3`, or null for keys of no device (host, SVM, graphs). */
  device: string | null;
  /** The key with its device segment replaced by `*` (DEV_MEM/{*}/APP reads as DEV_MEM, any device, APP); the key itself when it has no device. */
  group: string;
}

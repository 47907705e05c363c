// The `--report` JSON's schema, built from the one list of statuses; schemas/report.schema.json is its published copy.
import { STATUSES, type Entry, type Severity } from '../gate/types.js';
import { SECTIONS } from '../model/sections/index.js';

/** Every status a report may hold, in the order verdicts list them: gate/types.ts STATUSES. */
export const REPORT_STATUSES = STATUSES;

/** Entry kinds: every section's (registry order), then `device`. */
export const REPORT_KINDS: readonly string[] = [...SECTIONS.map((s) => s.kind), 'device'];

const REPORT_SEVERITIES = ['fail', 'warn', 'ok'] as const satisfies readonly Severity[];

// Compile-time guard: adding a severity to gate/types.ts without listing it here fails `tsc`.
true satisfies [Exclude<Severity, (typeof REPORT_SEVERITIES)[number]>] extends [never] ? true : never;

/** Entry units: absent means bytes. */
const REPORT_UNITS = ['bytes', 'count'] as const satisfies readonly NonNullable<Entry['unit']>[];
true satisfies [Exclude<NonNullable<Entry['unit']>, (typeof REPORT_UNITS)[number]>] extends [never] ? true : never;

/** Longest note accepted: ours are one sentence; a hostile upload must not make the comment huge. */
export const MAX_NOTE_LENGTH = 2000;

/** Longest key or rule accepted: MindSpore scope names reach hundreds of characters, a hostile file reaches any. */
export const MAX_KEY_LENGTH = 4096;
/**
 * Most entries a report holds: a bound on what an untrusted upload can make the comment job render, with room for the
 * largest jobs (4,096 devices × 15 modules, each with its findings, + 100,000 kernels is about 350,000 entries).
 */
export const MAX_ENTRIES = 500_000;

const bytes = {
  type: ['integer', 'null'],
  minimum: -Number.MAX_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
} as const;
const count = { type: 'integer', minimum: 0, maximum: MAX_ENTRIES } as const;
/** Environment items and values, node and artifact names: short strings, a bounded number of them. */
const text = { type: 'string', maxLength: MAX_KEY_LENGTH } as const;
const MAX_LISTED = 10_000;

export const reportSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'ascend-memory-gate --report',
  description:
    "Every verdict of one memory gate run: one entry per module and kernel key, plus findings (same key, another status) and device entries. Values are exact byte counts, or counts of allocations where unit is 'count'.",
  type: 'object',
  additionalProperties: false,
  required: ['result', 'counts', 'entries'],
  properties: {
    result: { type: 'string', enum: ['pass', 'fail'] },
    counts: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(REPORT_STATUSES.map((status) => [status, count])),
    },
    entries: { type: 'array', maxItems: MAX_ENTRIES, items: { $ref: '#/definitions/entry' } },
    groups: {
      type: 'array',
      maxItems: MAX_ENTRIES,
      description:
        'Roll-ups across devices: entries of one kind, status and severity whose keys differ only in the device. Every entry is also in entries.',
      items: { $ref: '#/definitions/group' },
    },
    baselineFile: { type: 'string', maxLength: MAX_KEY_LENGTH },
    environment: { $ref: '#/definitions/environment' },
    missingArtifacts: { type: 'array', maxItems: MAX_LISTED, items: text },
    disjointBaseline: {
      type: 'object',
      additionalProperties: false,
      required: ['severity', 'baseline', 'run'],
      description:
        "The baseline shares no key with this run, so nothing was compared: each side's key count and first key (config onDisjointBaseline decides the severity).",
      properties: {
        severity: { type: 'string', enum: ['fail', 'warn'] },
        baseline: { $ref: '#/definitions/side' },
        run: { $ref: '#/definitions/side' },
      },
    },
    notRead: {
      type: 'object',
      additionalProperties: false,
      required: ['count', 'sample', 'cut'],
      description:
        'Records the readers skipped (malformed) or found cut off: how many, the first few by file and line, and the files whose last record was cut off (the job probably died while writing it).',
      properties: {
        count: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        sample: { type: 'array', maxItems: MAX_LISTED, items: { $ref: '#/definitions/recordNotRead' } },
        cut: { type: 'array', maxItems: MAX_LISTED, items: { $ref: '#/definitions/recordNotRead' } },
      },
    },
    history: {
      type: 'object',
      additionalProperties: false,
      required: ['branch', 'commit'],
      description:
        "The default branch's history the run read (the Action): its branch and that branch's commit. Comment mode reads the history at that commit, when it is on the branch, so that a later run of the default branch does not change the verdict it re-judges.",
      properties: {
        branch: { type: 'string', minLength: 1, maxLength: 255 },
        commit: { type: 'string', pattern: '^([0-9a-f]{40}|[0-9a-f]{64})$' },
      },
    },
    generatedAt: {
      type: 'string',
      maxLength: 64,
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
    },
  },
  definitions: {
    side: {
      type: 'object',
      additionalProperties: false,
      required: ['keys', 'first'],
      properties: { keys: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, first: text },
    },
    recordNotRead: {
      type: 'object',
      additionalProperties: false,
      required: ['file', 'line', 'reason'],
      properties: {
        file: text,
        line: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        reason: { type: 'string', maxLength: MAX_NOTE_LENGTH },
      },
    },
    environment: {
      type: 'object',
      additionalProperties: false,
      required: ['changes', 'splits', 'severity'],
      properties: {
        changes: {
          type: 'array',
          maxItems: MAX_LISTED,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['item', 'baseline', 'current'],
            properties: {
              item: text,
              baseline: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH },
              current: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH },
            },
          },
        },
        splits: {
          type: 'array',
          maxItems: MAX_LISTED,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['item', 'values'],
            properties: {
              item: text,
              values: {
                type: 'array',
                maxItems: MAX_LISTED,
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['value', 'nodes'],
                  properties: {
                    value: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH },
                    nodes: { type: 'array', maxItems: MAX_LISTED, items: text },
                  },
                },
              },
            },
          },
        },
        severity: { type: 'string', enum: [...REPORT_SEVERITIES] },
      },
    },
    group: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'status', 'severity', 'pattern', 'entries', 'ofDevices', 'medianDelta'],
      properties: {
        kind: { type: 'string', enum: [...REPORT_KINDS] },
        status: { type: 'string', enum: [...REPORT_STATUSES] },
        severity: { type: 'string', enum: [...REPORT_SEVERITIES] },
        pattern: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_KEY_LENGTH,
          description: 'The key with its device segment replaced by *: DEV_MEM/*/APP; dev* for whole-device keys.',
        },
        entries: {
          type: 'array',
          minItems: 2,
          maxItems: MAX_ENTRIES,
          description: 'Indices into entries, the largest absolute change first.',
          items: { type: 'integer', minimum: 0, maximum: MAX_ENTRIES },
        },
        ofDevices: {
          type: 'integer',
          minimum: 0,
          maximum: MAX_ENTRIES,
          description: 'Devices with a key of this kind and pattern anywhere in the report.',
        },
        medianDelta: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      },
    },
    entry: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'key', 'baseline', 'current', 'delta', 'percent', 'status', 'severity', 'rule'],
      properties: {
        kind: { type: 'string', enum: [...REPORT_KINDS] },
        key: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH },
        baseline: bytes,
        current: bytes,
        delta: bytes,
        percent: { type: ['number', 'null'] },
        status: { type: 'string', enum: [...REPORT_STATUSES] },
        severity: { type: 'string', enum: [...REPORT_SEVERITIES] },
        rule: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH },
        unit: { type: 'string', enum: [...REPORT_UNITS] },
        limit: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        capacity: {
          type: 'integer',
          minimum: 0,
          maximum: Number.MAX_SAFE_INTEGER,
          description: "A headroom verdict's device capacity in bytes.",
        },
        note: { type: 'string', maxLength: MAX_NOTE_LENGTH },
        noise: {
          type: 'object',
          additionalProperties: false,
          required: ['applied', 'points', 'spread'],
          description:
            "Set when the noise band (config `history`) was asked about this key's change: which bound applied, and the default branch's values it read.",
          properties: {
            applied: { type: 'string', enum: ['band', 'tolerance'] },
            points: { type: 'integer', minimum: 0, maximum: 1000 },
            spread: { type: ['integer', 'null'], minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
          },
        },
      },
    },
  },
};

/** What the writer checks with ajv: everything but the entries and groups, which its own loop checks (json.ts). */
export const reportFrameSchema = {
  ...reportSchema,
  properties: { ...reportSchema.properties, entries: { type: 'array' }, groups: { type: 'array' } },
};

// The JSON Schemas of the history file's three kinds of line (header, key table, point); schemas/history.schema.json is
// their published copy. A line is checked against the schema of its place in the file.

/** The `format` of a history file's header line. */
export const HISTORY_FORMAT = 'ascend-memory-gate history';

/** The history format this version writes; older ones are read, newer ones refused. */
export const HISTORY_VERSION = 1;

const MAX_NAME = 4096;
/** Values and the changes between them: exact integers (bytes or counts), or null for a figure the point does not have. */
const value = {
  type: ['integer', 'null'],
  minimum: -Number.MAX_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
} as const;
const sectionName = {
  title: 'a section name such as "modules"',
  type: 'string',
  pattern: '^[a-z][A-Za-z0-9]{0,63}$',
} as const;
const values = {
  type: 'object',
  propertyNames: sectionName,
  additionalProperties: { type: 'array', items: value },
} as const;

export const historyHeaderSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'ascend-memory-gate history: header (line 1)',
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version'],
  properties: {
    format: { const: HISTORY_FORMAT },
    version: { const: HISTORY_VERSION },
    gate: { title: "a gate name (the Action's comment-key)", type: 'string', pattern: '^[\\w.-]{1,64}$' },
    branch: { title: 'a branch name', type: 'string', minLength: 1, maxLength: 255 },
    commitUrl: {
      title: 'an http(s) URL holding {sha}, such as https://github.com/o/r/commit/{sha}',
      type: 'string',
      maxLength: 2048,
      pattern: '^https?://[^\\s"<>]*\\{sha\\}[^\\s"<>]*$',
    },
  },
} as const;

export const historyKeysSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'ascend-memory-gate history: key table (line 2)',
  description:
    'Per section, the keys (one value each) and the roll-ups across devices (five values each: min, median, max, devices, the worst device number), in the order they first appeared. Point lines address them by position.',
  type: 'object',
  additionalProperties: false,
  required: ['keys'],
  properties: {
    keys: {
      type: 'object',
      propertyNames: sectionName,
      additionalProperties: { type: 'array', items: { type: 'string', minLength: 1, maxLength: MAX_NAME } },
    },
    rollups: {
      type: 'object',
      propertyNames: sectionName,
      additionalProperties: { type: 'array', items: { type: 'string', minLength: 1, maxLength: MAX_NAME } },
    },
  },
} as const;

export const historyPointSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'ascend-memory-gate history: one point (lines 3 and on, oldest first)',
  description:
    'The first point writes every value (`values`, `rollups`: one item per key of the table, null for none); each later point writes only what changed since the point before it (`changes`, `rollupChanges`: pairs of the number of positions skipped and the difference, or null when the figure is gone). `environment` is written when it changed.',
  type: 'object',
  additionalProperties: false,
  required: ['commit', 'time', 'baseline'],
  properties: {
    commit: { title: 'a commit SHA (4 to 64 hex digits)', type: 'string', pattern: '^[0-9a-f]{4,64}$' },
    run: { title: 'a run id', type: 'string', minLength: 1, maxLength: 100 },
    attempt: { title: 'a run attempt (1 or more)', type: 'integer', minimum: 1, maximum: 1000000 },
    time: {
      title: 'an ISO 8601 date-time such as 2026-06-13T17:00:34Z',
      type: 'string',
      maxLength: 64,
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
    },
    baseline: {
      title: 'sha256: and 64 hex digits, or null',
      type: ['string', 'null'],
      pattern: '^sha256:[0-9a-f]{64}$',
    },
    environment: { type: 'object', additionalProperties: { type: 'string', maxLength: MAX_NAME } },
    values,
    rollups: values,
    changes: values,
    rollupChanges: values,
  },
} as const;

/** The published schema: the three kinds of line, for editors and other tools. */
export const historySchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'ascend-memory-gate history (JSON Lines)',
  description:
    'A history file is JSON Lines: line 1 is `header`, line 2 is `keys`, each further line is a `point`, oldest first. Each line is validated against its definition.',
  definitions: { header: historyHeaderSchema, keys: historyKeysSchema, point: historyPointSchema },
} as const;

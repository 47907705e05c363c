// The snapshot's and the baseline's JSON Schemas, built from the section registry: schemas/snapshot.schema.json and
// schemas/baseline.schema.json are their published copies (`npm run schemas` writes them; a test checks they agree).
import { MAX_POINTS } from '../series.js';
import { SECTIONS } from './index.js';
import type { FieldType, SectionDeclaration } from './types.js';

const MAX = Number.MAX_SAFE_INTEGER;

/** Field types as schema definitions; each `title` reads in errors as "must be <title>". */
const FIELD_DEFINITIONS: Record<FieldType, Record<string, unknown>> = {
  bytes: {
    title: 'a non-negative integer number of bytes (at most 2^53 - 1)',
    type: 'integer',
    minimum: 0,
    maximum: MAX,
  },
  signedBytes: {
    title: 'an integer number of bytes, negative or not (at most 2^53 - 1 in size)',
    type: 'integer',
    minimum: -MAX,
    maximum: MAX,
  },
  count: { title: 'a non-negative integer', type: 'integer', minimum: 0, maximum: MAX },
  countOrNull: { title: 'a non-negative integer or null', type: ['integer', 'null'], minimum: 0, maximum: MAX },
  bytesOrNull: {
    title: 'a non-negative integer number of bytes or null',
    type: ['integer', 'null'],
    minimum: 0,
    maximum: MAX,
  },
  string: { title: 'a string', type: 'string' },
  stringOrNull: { title: 'a string or null', type: ['string', 'null'] },
};

const SERIES = {
  description: `A timeline of window peaks: [bucket start, largest value in the bucket], at most ${MAX_POINTS} points; buckets are \`width\` wide (a power of two) in microseconds (axis time), steps (axis step) or allocator trace entries (axis trace). Empty buckets are absent.`,
  type: 'object',
  additionalProperties: false,
  required: ['axis', 'width', 'points'],
  properties: {
    axis: { title: "'time', 'step' or 'trace'", type: 'string', enum: ['time', 'step', 'trace'] },
    width: { title: 'a positive integer', type: 'integer', minimum: 1, maximum: MAX },
    points: {
      type: 'array',
      maxItems: MAX_POINTS,
      items: {
        title: 'a pair [x, peak] of integers',
        type: 'array',
        minItems: 2,
        maxItems: 2,
        additionalItems: false,
        items: [
          { title: 'an integer', type: 'integer', minimum: -MAX, maximum: MAX },
          { title: 'an integer', type: 'integer', minimum: -MAX, maximum: MAX },
        ],
      },
    },
  },
};

const META = {
  description: 'Parse statistics of the run: files read, records, skipped records, allocation failures per device.',
  type: 'object',
  additionalProperties: false,
  required: ['files', 'records', 'skipped', 'allocFailures'],
  properties: {
    files: { $ref: '#/definitions/count' },
    records: { $ref: '#/definitions/count' },
    skipped: { $ref: '#/definitions/count' },
    allocFailures: { type: 'object', additionalProperties: { $ref: '#/definitions/count' } },
    allocFailureSites: {
      description: 'The first allocation-failure lines per device, by file and line.',
      type: 'object',
      additionalProperties: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['file', 'line', 'text'],
          properties: {
            file: { $ref: '#/definitions/string' },
            line: { $ref: '#/definitions/count' },
            text: { $ref: '#/definitions/string' },
          },
        },
      },
    },
    nodes: {
      description:
        'Per node name, where the numbers come from: its devices, files read, records, skipped records, and the environment (CANN, driver, firmware, chip, torch, torch_npu, memory variables).',
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['devices', 'files', 'records', 'skipped', 'environment'],
        properties: {
          devices: { type: 'array', items: { $ref: '#/definitions/string' } },
          files: { $ref: '#/definitions/count' },
          records: { $ref: '#/definitions/count' },
          skipped: { $ref: '#/definitions/count' },
          environment: { type: 'object', additionalProperties: { $ref: '#/definitions/string' } },
        },
      },
    },
  },
};

const SOURCE = {
  description: 'Where this baseline came from. Extra fields are allowed.',
  type: 'object',
  properties: {
    commit: { title: 'a string', type: 'string' },
    runId: { title: 'a string or an integer', type: ['string', 'integer'] },
    date: { title: 'a string', type: 'string', description: 'ISO 8601 date-time, e.g. 2026-06-13T17:00:34Z.' },
    repository: { title: 'a string', type: 'string', description: 'owner/name.' },
  },
};

function metricSchema(declaration: SectionDeclaration): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(declaration.fields).filter((name) => declaration.fields[name]?.optional !== true),
    properties: Object.fromEntries(
      Object.entries(declaration.fields).map(([name, field]) => [
        name,
        { $ref: `#/definitions/${field.type}`, description: field.description },
      ]),
    ),
  };
}

function sectionsSchema(): Record<string, unknown> {
  return {
    description:
      'Metrics by section, then by key. Sections: ' +
      SECTIONS.map((s) => `${s.name} (${s.keyShape}, compares ${s.value})`).join('; ') +
      '.',
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      SECTIONS.map((s) => [
        s.name,
        { description: `${s.description} Key: ${s.keyShape}.`, type: 'object', additionalProperties: metricSchema(s) },
      ]),
    ),
  };
}

function seriesSchema(): Record<string, unknown> {
  return {
    description: 'Timelines by section, then by key.',
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      SECTIONS.map((s) => [s.name, { type: 'object', additionalProperties: { $ref: '#/definitions/series' } }]),
    ),
  };
}

const definitions = (): Record<string, unknown> => ({
  ...FIELD_DEFINITIONS,
  series: SERIES,
  meta: META,
  source: SOURCE,
});

/** `ascend-memory-gate parse --json` output. */
export function buildSnapshotSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    description: 'The memory evidence of one run (or one node of it): what `ascend-memory-gate parse --json` prints.',
    type: 'object',
    additionalProperties: false,
    required: ['version', 'sections', 'series', 'meta'],
    properties: {
      $schema: { type: 'string', description: 'Path or URL of this schema, for editors.' },
      version: { const: 2 },
      sections: sectionsSchema(),
      series: seriesSchema(),
      meta: { $ref: '#/definitions/meta' },
    },
    definitions: definitions(),
  };
}

/** A committed baseline: a snapshot (meta and series optional) plus provenance. */
export function buildBaselineSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    description:
      'Baseline of ascend-memory-gate. A committed memory snapshot (the same shape as `ascend-memory-gate parse --json`) plus optional provenance. Written with sorted keys, 2-space indent and a trailing newline so that changes review well. Version 1 files (top-level `modules` and `kernels`) are still read.',
    type: 'object',
    additionalProperties: false,
    required: ['version', 'sections'],
    properties: {
      $schema: { type: 'string', description: 'Path or URL of this schema, for editors.' },
      version: { const: 2 },
      sections: sectionsSchema(),
      series: seriesSchema(),
      meta: { $ref: '#/definitions/meta' },
      source: { $ref: '#/definitions/source' },
    },
    definitions: definitions(),
  };
}

/** Version 1 baselines (before sections): top-level `modules` and `kernels`, read and migrated to version 2. */
export function buildBaselineV1Schema(): Record<string, unknown> {
  const modules = SECTIONS.find((s) => s.name === 'modules') as SectionDeclaration;
  const kernels = SECTIONS.find((s) => s.name === 'kernels') as SectionDeclaration;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    additionalProperties: false,
    required: ['version', 'modules', 'kernels'],
    properties: {
      $schema: { type: 'string' },
      version: { const: 1 },
      modules: { type: 'object', additionalProperties: metricSchema(modules) },
      kernels: { type: 'object', additionalProperties: metricSchema(kernels) },
      meta: { $ref: '#/definitions/meta' },
      source: { $ref: '#/definitions/source' },
    },
    definitions: definitions(),
  };
}

/** The document's schema with `sections` left opaque (any object): what ajv checks once the direct pass has accepted them. */
export function withOpaqueSections(schema: Record<string, unknown>): Record<string, unknown> {
  return { ...schema, properties: { ...(schema.properties as Record<string, unknown>), sections: { type: 'object' } } };
}

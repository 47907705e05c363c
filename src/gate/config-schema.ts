// The config file's JSON Schema, built from the section and finding registries: schemas/config.schema.json is its
// published copy (`npm run schemas` writes it; a test checks that they agree). Each section adds its property (its
// tolerance and rules) under its name, each finding its options and its `verdicts` entries; the rest is declared here.
import { SECTIONS, type SectionDeclaration } from '../model/sections/index.js';
import { FINDING_DEFINITIONS, FINDING_OPTIONS, verdictsSchema } from './findings/index.js';
import type { Tolerance } from './basics.js';

/** Every property of the config that is neither a section's nor a finding's. */
const BASE = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  description:
    'Threshold config of ascend-memory-gate. How much each memory metric may grow before the gate fails. Default location: .github/memory-gate.json. Every field is optional; omitted fields keep the defaults.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: {
      type: 'string',
      description: 'Path or URL of this schema, for editors.',
    },
    onNew: {
      $ref: '#/definitions/policy',
      description: 'A key in this run but not in the baseline: warn (default), fail, or ignore.',
    },
    onMissingBaseline: {
      enum: ['warn', 'fail'],
      description:
        'A first run, with no baseline file or one without keys: warn (default) reports "No baseline yet: N keys recorded" and passes; fail fails the run (exit 1) until a baseline is committed.',
    },
    onDisjointBaseline: {
      enum: ['warn', 'fail'],
      description:
        "A baseline that shares no key with this run (another input, or keys renamed), so nothing is compared: fail (default) fails the run with one line naming both sides' first keys; warn passes it with that line, for the first run of a new input.",
    },
    onMissing: {
      $ref: '#/definitions/policy',
      description: 'A key in the baseline but not in this run: warn (default), fail, or ignore.',
    },
    environment: {
      type: 'object',
      additionalProperties: false,
      description:
        'The environment behind the numbers (CANN, driver, firmware, chip, torch, torch_npu, memory variables): what a change since the baseline, or nodes that disagree within a run, do to the verdict.',
      properties: {
        onChange: {
          $ref: '#/definitions/policy',
          description:
            'warn (default: listed first in the report, the verdict unchanged), fail, or ignore (not compared).',
        },
        ignore: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          description: 'Items never compared, by exact name, e.g. ["ASCEND_RT_VISIBLE_DEVICES"].',
        },
      },
    },
    failOnImprovement: {
      type: 'boolean',
      description:
        'Fail when a value shrinks beyond its tolerance, so that the baseline gets updated. Default false: improvements pass and are listed.',
    },
    baselineUpdateLabel: {
      type: 'string',
      title: 'a label name',
      minLength: 1,
      maxLength: 50,
      description:
        "On a pull request, the check gates against the baseline and config of the PR's base commit; the PR's own are used only when it carries this label, which only maintainers (triage permission) can set. Update mode puts it on the PRs it opens. Read from the base commit's config. Default \"memory-baseline-update\".",
    },
    history: {
      type: 'object',
      additionalProperties: false,
      description:
        'The noise band (opt-in; needs the history: the Action\'s `history` input, or `check --history FILE`). A key regresses (or improves) only when its change exceeds the larger of its configured tolerance and the spread (max - min) of its last `window` values on the default branch, capped at `ceiling`; the row\'s note says which applied. With fewer than `minPoints` values the configured tolerance applies, and the note says so. Example: {"window": 20, "minPoints": 5}.',
      properties: {
        window: {
          title: 'an integer from 2 to 1000',
          type: 'integer',
          minimum: 2,
          maximum: 1000,
          description: 'Default 20: the last 20 values of the key on the default branch.',
        },
        minPoints: {
          title: 'an integer from 2 to 1000',
          type: 'integer',
          minimum: 2,
          maximum: 1000,
          description: 'Default 5: with fewer values, the configured tolerance applies.',
        },
        ceiling: {
          $ref: '#/definitions/tolerance',
          description:
            'Default {"percent": 10}: the band is never wider than the larger field\'s allowance at the baseline value, so a noisy key cannot hide a real regression.',
        },
      },
    },
  },
  definitions: {
    policy: {
      enum: ['warn', 'fail', 'ignore'],
    },
    size: {
      title: 'a byte size: an integer number of bytes, or a string such as "64MiB", "1.5GiB" or "200MB"',
      description:
        'Binary units KiB MiB GiB TiB (1024-based) and decimal units KB MB GB TB (1000-based), case-insensitive; at most 2^53 - 1 bytes. A string carries its unit ("512B" for bytes): "512" is refused, since 512 bytes and 512 MiB read alike; "0" needs none.',
      type: ['integer', 'string'],
      minimum: 0,
      maximum: 9007199254740991,
      pattern: '^\\s*(0+(\\.0+)?|\\d+(\\.\\d+)?\\s*([KkMmGgTt][Ii]?[Bb]|[Bb]))\\s*$',
    },
    tolerance: {
      description:
        'How much a value may move before it counts. A change must exceed EVERY field that is set: `bytes` (delta > bytes) and `percent` (delta > |baseline| x percent / 100; with a baseline of 0 any change exceeds it). An empty object {} means any growth regresses. A tolerance object REPLACES the default tolerance as a whole; fields are not merged.',
      type: 'object',
      additionalProperties: false,
      properties: {
        percent: {
          title: 'a non-negative number of percent',
          type: 'number',
          minimum: 0,
        },
        bytes: {
          $ref: '#/definitions/size',
        },
      },
    },
    rule: {
      description:
        'The first rule whose `match` glob matches a key decides for that key. `ignore` wins over everything; `budget` applies whatever the baseline (new keys too) and wins over the tolerance; `tolerance` replaces the default tolerance as a whole.',
      type: 'object',
      additionalProperties: false,
      required: ['match'],
      properties: {
        match: {
          title: 'a non-empty glob',
          description:
            'Glob over key segments separated by `/`: `*` matches within one segment, `**` any number of segments, and dots are ordinary characters. Example: DEV_MEM/*/HCCL, HOST_MEM/**, dev*/aclnnMatmul*.',
          type: 'string',
          minLength: 1,
        },
        tolerance: {
          $ref: '#/definitions/tolerance',
        },
        budget: {
          $ref: '#/definitions/size',
          description:
            'Absolute ceiling: the key fails (over-budget) when its current value exceeds this, whatever the baseline.',
        },
        ignore: {
          type: 'boolean',
          description: 'true: never gate these keys.',
        },
      },
    },
    kind: {
      type: 'object',
      additionalProperties: false,
      properties: {
        tolerance: {
          $ref: '#/definitions/tolerance',
        },
        rules: {
          type: 'array',
          items: {
            $ref: '#/definitions/rule',
          },
        },
      },
    },
  },
} as const;

/** A tolerance as a person writes it in the config: sizes with units. */
function toleranceAsWritten(tolerance: Tolerance): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  if (tolerance.percent !== undefined) out.percent = tolerance.percent;
  if (tolerance.bytes !== undefined) out.bytes = sizeAsWritten(tolerance.bytes);
  return out;
}

function sizeAsWritten(bytes: number): number | string {
  for (const [unit, size] of [
    ['TiB', 1024 ** 4],
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return bytes;
}

function sectionProperty(declaration: SectionDeclaration): { $ref: string; description: string } {
  return {
    $ref: '#/definitions/kind',
    description: `${declaration.title}: ${declaration.description} Keys like ${declaration.example}; compares \`${declaration.value}\`. Default tolerance: ${JSON.stringify(toleranceAsWritten(declaration.tolerance))}.`,
  };
}

/**
 * The config schema: `$schema`, one property per section in registry order, the config's own, the findings' options in
 * registry order, the label and the noise band, then `verdicts`.
 */
export function buildConfigSchema(): Record<string, unknown> {
  const { $schema: schemaProperty, baselineUpdateLabel, history, ...rest } = BASE.properties;
  return {
    ...BASE,
    properties: {
      $schema: schemaProperty,
      ...Object.fromEntries(SECTIONS.map((s) => [s.name, sectionProperty(s)])),
      ...rest,
      ...Object.fromEntries(FINDING_OPTIONS.map(([key, option]) => [key, option.schema])),
      baselineUpdateLabel,
      history,
      verdicts: verdictsSchema(),
    },
    definitions: { ...BASE.definitions, ...FINDING_DEFINITIONS },
  };
}

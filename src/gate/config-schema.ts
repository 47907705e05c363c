// The config file's JSON Schema, built from the section registry: schemas/config.schema.json is its published copy
// (`npm run schemas` writes it; a test checks that they agree). Each section adds its property (its tolerance and
// rules) under its name; everything else is declared here.
import { SECTIONS, type SectionDeclaration } from '../model/sections/index.js';
import type { Tolerance } from './types.js';

/** Every property of the config that is not a section's. */
const BASE = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "description": "Threshold config of ascend-memory-gate. How much each memory metric may grow before the gate fails. Default location: .github/memory-gate.json. Every field is optional; omitted fields keep the defaults.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "$schema": {
      "type": "string",
      "description": "Path or URL of this schema, for editors."
    },
    "onNew": {
      "$ref": "#/definitions/policy",
      "description": "A key in this run but not in the baseline: warn (default), fail, or ignore."
    },
    "onMissingBaseline": {
      "enum": [
        "warn",
        "fail"
      ],
      "description": "A first run, with no baseline file or one without keys: warn (default) reports \"No baseline yet: N keys recorded\" and passes; fail fails the run (exit 1) until a baseline is committed."
    },
    "onDisjointBaseline": {
      "enum": [
        "warn",
        "fail"
      ],
      "description": "A baseline that shares no key with this run (another input, or keys renamed), so nothing is compared: fail (default) fails the run with one line naming both sides' first keys; warn passes it with that line, for the first run of a new input."
    },
    "onMissing": {
      "$ref": "#/definitions/policy",
      "description": "A key in the baseline but not in this run: warn (default), fail, or ignore."
    },
    "environment": {
      "type": "object",
      "additionalProperties": false,
      "description": "The environment behind the numbers (CANN, driver, firmware, chip, torch, torch_npu, memory variables): what a change since the baseline, or nodes that disagree within a run, do to the verdict.",
      "properties": {
        "onChange": {
          "$ref": "#/definitions/policy",
          "description": "warn (default: listed first in the report, the verdict unchanged), fail, or ignore (not compared)."
        },
        "ignore": {
          "type": "array",
          "items": { "type": "string", "minLength": 1 },
          "description": "Items never compared, by exact name, e.g. [\"ASCEND_RT_VISIBLE_DEVICES\"]."
        }
      }
    },
    "failOnImprovement": {
      "type": "boolean",
      "description": "Fail when a value shrinks beyond its tolerance, so that the baseline gets updated. Default false: improvements pass and are listed."
    },
    "device": {
      "$ref": "#/definitions/deviceLimits",
      "description": "Physical memory of every device and the headroom it must keep. Each device's estimated peak is the larger of (a) the sum of the peaks of all its modules in every device attribute (DEV_MEM, MEM_DEV_*, ...), CACHED sizes included: an UPPER BOUND, since peaks need not coincide; and (b) the process total DEV_PROC_MEM, which is never added to (a). Above `capacity`: over-capacity (fail); less than `minHeadroom` left: low-headroom (warn). Without a capacity there is no headroom verdict. Example: {\"capacity\": \"64GiB\", \"minHeadroom\": \"10%\"}. Default minHeadroom: 10%."
    },
    "devices": {
      "type": "object",
      "description": "Per-device overrides by device name, merged field by field over `device`. Example: {\"dev3\": {\"capacity\": \"32GiB\"}}.",
      "propertyNames": {
        "title": "a device name such as \"dev3\"",
        "pattern": "^dev\\d+$"
      },
      "additionalProperties": {
        "$ref": "#/definitions/deviceLimits"
      }
    },
    "profile": {
      "enum": [
        "training",
        "inference"
      ],
      "description": "Which reference costs of the CANN troubleshooting guide hold DEV_MEM GE and RUNTIME keys that have no baseline yet: training (PyTorch) GE 3 MiB, RUNTIME 26 MiB; inference (offline model) GE 86 MiB, RUNTIME 18 MiB. The guide's \"M\" is MiB. Unset: the larger of the two (GE 86 MiB, RUNTIME 26 MiB)."
    },
    "hccl": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "links"
      ],
      "description": "The HCCL reference cost for DEV_MEM HCCL keys with no baseline yet (CANN guide): links x 4 MiB (single-op) or links x ops x 0.3 MiB (graph), plus domains x 2 x buffSize. Unset: HCCL has no reference.",
      "properties": {
        "links": {
          "title": "a non-negative integer",
          "type": "integer",
          "minimum": 0,
          "description": "Communication links of one rank."
        },
        "mode": {
          "enum": [
            "single-op",
            "graph"
          ],
          "description": "single-op (default) or graph."
        },
        "ops": {
          "title": "a non-negative integer",
          "type": "integer",
          "minimum": 0,
          "description": "Operators in the graph; required in graph mode."
        },
        "domains": {
          "title": "a non-negative integer",
          "type": "integer",
          "minimum": 0,
          "description": "Communication domains (default 1), each with a send and a receive buffer of buffSize."
        },
        "buffSize": {
          "$ref": "#/definitions/size",
          "description": "HCCL_BUFFSIZE as a size (the variable is in MB, read as MiB): default \"200MiB\". A plain integer is bytes: write \"200MiB\", not 200."
        }
      },
      "if": {
        "properties": {
          "mode": {
            "const": "graph"
          }
        },
        "required": [
          "mode"
        ]
      },
      "then": {
        "properties": {
          "ops": true
        },
        "required": [
          "ops"
        ]
      }
    },
    "reference": {
      "type": "object",
      "additionalProperties": false,
      "description": "above-reference (warn) when a key with no baseline peaks above factor x its reference cost: the guide's numbers are \"about\".",
      "properties": {
        "factor": {
          "title": "a positive number",
          "type": "number",
          "exclusiveMinimum": 0,
          "description": "Default 2."
        }
      }
    },
    "leaks": {
      "type": "object",
      "additionalProperties": false,
      "description": "leak-suspect (warn) when a module's outstanding allocations at exit (alloc_cnt - free_cnt) grow from the baseline by more than EVERY field set: `count` and `percent` of the baseline's outstanding count (with 0 outstanding, any growth exceeds the percent). Keys whose records carry no counts are skipped. Replaces the default {\"count\": 0, \"percent\": 10} as a whole.",
      "properties": {
        "count": {
          "title": "a non-negative integer",
          "type": "integer",
          "minimum": 0
        },
        "percent": {
          "title": "a non-negative number of percent",
          "type": "number",
          "minimum": 0
        }
      }
    },
    "imbalance": {
      "type": "object",
      "additionalProperties": false,
      "description": "imbalance (warn) when a device's peak of a module deviates (either way) from the median of the same attribute and module over at least minDevices devices by more than the tolerance: a pipeline stage or a single leaking rank.",
      "properties": {
        "tolerance": {
          "$ref": "#/definitions/tolerance",
          "description": "Default {\"percent\": 20, \"bytes\": \"1MiB\"}: the deviation must exceed both; replaces the default as a whole."
        },
        "minDevices": {
          "title": "an integer of at least 2",
          "type": "integer",
          "minimum": 2,
          "description": "Default 3: with two devices the median cannot tell which one is off."
        }
      }
    },
    "baselineUpdateLabel": {
      "type": "string",
      "title": "a label name",
      "minLength": 1,
      "maxLength": 50,
      "description": "On a pull request, the check gates against the baseline and config of the PR's base commit; the PR's own are used only when it carries this label, which only maintainers (triage permission) can set. Update mode puts it on the PRs it opens. Read from the base commit's config. Default \"memory-baseline-update\"."
    },
    "history": {
      "type": "object",
      "additionalProperties": false,
      "description": "The noise band (opt-in; needs the history: the Action's `history` input, or `check --history FILE`). A key regresses (or improves) only when its change exceeds the larger of its configured tolerance and the spread (max - min) of its last `window` values on the default branch, capped at `ceiling`; the row's note says which applied. With fewer than `minPoints` values the configured tolerance applies, and the note says so. Example: {\"window\": 20, \"minPoints\": 5}.",
      "properties": {
        "window": {
          "title": "an integer from 2 to 1000",
          "type": "integer",
          "minimum": 2,
          "maximum": 1000,
          "description": "Default 20: the last 20 values of the key on the default branch."
        },
        "minPoints": {
          "title": "an integer from 2 to 1000",
          "type": "integer",
          "minimum": 2,
          "maximum": 1000,
          "description": "Default 5: with fewer values, the configured tolerance applies."
        },
        "ceiling": {
          "$ref": "#/definitions/tolerance",
          "description": "Default {\"percent\": 10}: the band is never wider than the larger field's allowance at the baseline value, so a noisy key cannot hide a real regression."
        }
      }
    },
    "growth": {
      "type": "object",
      "additionalProperties": false,
      "description": "growing (warn) when a timeline keeps rising: after the warm-up, the Theil-Sen slope of its window peaks projects a rise across the rest of the run above the tolerance, the last half of the windows still rises and the troughs rise too (a saw-tooth within a band, or a rise that then stays flat, is not growth). Step series (one point per training step): at least perStep more per step after warmupSteps. Needs no baseline.",
      "properties": {
        "warmupPercent": {
          "title": "a percent from 0 to 90",
          "type": "number",
          "minimum": 0,
          "maximum": 90,
          "description": "Default 20: the first 20% of a timeline's run is warm-up and not assessed."
        },
        "tolerance": {
          "$ref": "#/definitions/tolerance",
          "description": "Default {\"percent\": 5, \"bytes\": \"64MiB\"}: the projected rise must exceed both; percent is of the series' peak. Replaces the default as a whole."
        },
        "warmupSteps": {
          "title": "a non-negative integer",
          "type": "integer",
          "minimum": 0,
          "description": "Default 1: step series skip their first step (weights, optimizer state, caches)."
        },
        "perStep": {
          "$ref": "#/definitions/size",
          "description": "Default \"1MiB\": the smallest steady rise per step that counts as growing."
        },
        "minWindows": {
          "title": "an integer of at least 2",
          "type": "integer",
          "minimum": 2,
          "description": "Default 4: fewer window peaks (or steps) after warm-up give no verdict."
        }
      }
    },
    "fragmentation": {
      "type": "object",
      "additionalProperties": false,
      "description": "fragmented (warn) when, at a memory snapshot's allocated peak, the reserved memory the program could not use exceeds both fields: (reserved - allocated) / reserved over `percent`, and reserved - allocated over `bytes`. Allocated counts requested bytes, so the allocator's rounding counts as fragmentation.",
      "properties": {
        "percent": {
          "title": "a percent from 0 to 100",
          "type": "number",
          "minimum": 0,
          "maximum": 100,
          "description": "Default 30."
        },
        "bytes": {
          "$ref": "#/definitions/size",
          "description": "Default \"1GiB\"."
        }
      }
    },
    "oom": {
      "type": "object",
      "additionalProperties": false,
      "description": "How an out-of-memory's cause is decided (job logs, memory snapshots): fragmentation when the memory PyTorch cached but had not allocated is at least the request and at least `fragmentationPercent` of the device.",
      "properties": {
        "fragmentationPercent": {
          "title": "a percent from 0 to 100",
          "type": "number",
          "minimum": 0,
          "maximum": 100,
          "description": "Default 5."
        }
      }
    },
    "verdicts": {
      "type": "object",
      "additionalProperties": false,
      "description": "What each finding does: warn, fail, or ignore (not assessed at all).",
      "properties": {
        "over-capacity": {
          "$ref": "#/definitions/policy",
          "description": "Default fail."
        },
        "low-headroom": {
          "$ref": "#/definitions/policy",
          "description": "Default warn."
        },
        "alloc-failure": {
          "$ref": "#/definitions/policy",
          "description": "Allocation failures (halMemAlloc failed) on a device. Default fail: a job that survived an out-of-memory by retrying is not healthy."
        },
        "oom": {
          "$ref": "#/definitions/policy",
          "description": "An out-of-memory of the caching allocator: a job log's OOM message or a memory snapshot trace's `oom` entry, explained as one of five causes (request larger than the device, refused with free memory, held outside the allocator, fragmentation, capacity). Default fail."
        },
        "fragmented": {
          "$ref": "#/definitions/policy",
          "description": "Reserved memory unused at a memory snapshot's allocated peak beyond `fragmentation`. Default warn."
        },
        "leak-suspect": {
          "$ref": "#/definitions/policy",
          "description": "Default warn."
        },
        "step-leak": {
          "$ref": "#/definitions/policy",
          "description": "msMemScope's leak rule over training steps (a block allocated during step k >= 2 still live at the end of step k+1). Default warn."
        },
        "above-reference": {
          "$ref": "#/definitions/policy",
          "description": "Default warn."
        },
        "imbalance": {
          "$ref": "#/definitions/policy",
          "description": "Default warn."
        },
        "growing": {
          "$ref": "#/definitions/policy",
          "description": "Memory that keeps rising over a run or from step to step. Default warn; \"fail\" to stop such a run."
        }
      }
    }
  },
  "definitions": {
    "policy": {
      "enum": [
        "warn",
        "fail",
        "ignore"
      ]
    },
    "size": {
      "title": "a byte size: an integer number of bytes, or a string such as \"64MiB\", \"1.5GiB\" or \"200MB\"",
      "description": "Binary units KiB MiB GiB TiB (1024-based) and decimal units KB MB GB TB (1000-based), case-insensitive; at most 2^53 - 1 bytes. A string carries its unit (\"512B\" for bytes): \"512\" is refused, since 512 bytes and 512 MiB read alike; \"0\" needs none.",
      "type": [
        "integer",
        "string"
      ],
      "minimum": 0,
      "maximum": 9007199254740991,
      "pattern": "^\\s*(0+(\\.0+)?|\\d+(\\.\\d+)?\\s*([KkMmGgTt][Ii]?[Bb]|[Bb]))\\s*$"
    },
    "tolerance": {
      "description": "How much a value may move before it counts. A change must exceed EVERY field that is set: `bytes` (delta > bytes) and `percent` (delta > |baseline| x percent / 100; with a baseline of 0 any change exceeds it). An empty object {} means any growth regresses. A tolerance object REPLACES the default tolerance as a whole; fields are not merged.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "percent": {
          "title": "a non-negative number of percent",
          "type": "number",
          "minimum": 0
        },
        "bytes": {
          "$ref": "#/definitions/size"
        }
      }
    },
    "rule": {
      "description": "The first rule whose `match` glob matches a key decides for that key. `ignore` wins over everything; `budget` applies whatever the baseline (new keys too) and wins over the tolerance; `tolerance` replaces the default tolerance as a whole.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "match"
      ],
      "properties": {
        "match": {
          "title": "a non-empty glob",
          "description": "Glob over key segments separated by `/`: `*` matches within one segment, `**` any number of segments, and dots are ordinary characters. Example: DEV_MEM/*/HCCL, HOST_MEM/**, dev*/aclnnMatmul*.",
          "type": "string",
          "minLength": 1
        },
        "tolerance": {
          "$ref": "#/definitions/tolerance"
        },
        "budget": {
          "$ref": "#/definitions/size",
          "description": "Absolute ceiling: the key fails (over-budget) when its current value exceeds this, whatever the baseline."
        },
        "ignore": {
          "type": "boolean",
          "description": "true: never gate these keys."
        }
      }
    },
    "deviceLimits": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "capacity": {
          "$ref": "#/definitions/size",
          "description": "Physical memory of the device, e.g. \"64GiB\"."
        },
        "minHeadroom": {
          "title": "a share of the capacity such as \"10%\", or a byte size such as \"4GiB\"",
          "description": "Memory that must stay free below the capacity: a percent (at most 100%) or a size with its unit. A bare number other than 0 (10, \"10\") is refused: write \"10%\" or \"10B\".",
          "type": [
            "integer",
            "string"
          ],
          "minimum": 0,
          "maximum": 0,
          "pattern": "^\\s*(0+(\\.0+)?|\\d+(\\.\\d+)?\\s*(%|[KkMmGgTt][Ii]?[Bb]|[Bb]))\\s*$"
        }
      }
    },
    "kind": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "tolerance": {
          "$ref": "#/definitions/tolerance"
        },
        "rules": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/rule"
          }
        }
      }
    }
  }
} as const;

/** A tolerance as a person writes it in the config: sizes with units. */
export function toleranceAsWritten(tolerance: Tolerance): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  if (tolerance.percent !== undefined) out.percent = tolerance.percent;
  if (tolerance.bytes !== undefined) out.bytes = sizeAsWritten(tolerance.bytes);
  return out;
}

function sizeAsWritten(bytes: number): number | string {
  for (const [unit, size] of [['TiB', 1024 ** 4], ['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
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

/** The config schema: `$schema`, then one property per section in registry order, then the rest. */
export function buildConfigSchema(): Record<string, unknown> {
  const { $schema: schemaProperty, ...rest } = BASE.properties;
  return {
    ...BASE,
    properties: {
      $schema: schemaProperty,
      ...Object.fromEntries(SECTIONS.map((s) => [s.name, sectionProperty(s)])),
      ...rest,
    },
  };
}

import { U as UsageError, I as InputError, a as SchemaError } from './sources.js';
import { S as SECTIONS, c as modulesOf, d as section, e as compareKeys, m as metricsOf, v as valueOf, f as sectionValues, h as hasNoMetrics } from './snapshot.js';
import { loadBaseline } from './baseline.js';
import { b as parseSize, a as formatBytes } from './units.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { p as picomatch } from './local.js';
import { p as parseJson, c as compileSchema } from './json-schema.js';
import { D as DEFAULT_ENVIRONMENT_POLICY, S as STATUSES, x as applyEnvironment, y as compareEnvironments, z as runEnvironmentOf } from './groups.js';
import './series.js';
import 'node:crypto';
import './schema.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './_commonjsHelpers.js';
import './escape.js';
import './keys.js';

// The config file's JSON Schema, built from the section registry: schemas/config.schema.json is its published copy
// (`npm run schemas` writes it; a test checks that they agree). Each section adds its property (its tolerance and
// rules) under its name; everything else is declared here.
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
            "description": "Binary units KiB MiB GiB TiB (1024-based) and decimal units KB MB GB TB (1000-based), case-insensitive; at most 2^53 - 1 bytes.",
            "type": [
                "integer",
                "string"
            ],
            "minimum": 0,
            "maximum": 9007199254740991,
            "pattern": "^\\s*\\d+(\\.\\d+)?\\s*([KkMmGgTt][Ii]?[Bb]|[Bb])?\\s*$"
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
                    "description": "Memory that must stay free below the capacity: a percent (at most 100%) or a size.",
                    "type": [
                        "integer",
                        "string"
                    ],
                    "minimum": 0,
                    "maximum": 9007199254740991,
                    "pattern": "^\\s*\\d+(\\.\\d+)?\\s*(%|[KkMmGgTt][Ii]?[Bb]|[Bb])?\\s*$"
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
};
/** A tolerance as a person writes it in the config: sizes with units. */
function toleranceAsWritten(tolerance) {
    const out = {};
    if (tolerance.percent !== undefined)
        out.percent = tolerance.percent;
    if (tolerance.bytes !== undefined)
        out.bytes = sizeAsWritten(tolerance.bytes);
    return out;
}
function sizeAsWritten(bytes) {
    for (const [unit, size] of [['TiB', 1024 ** 4], ['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]]) {
        if (bytes >= size && bytes % size === 0)
            return `${bytes / size}${unit}`;
    }
    return bytes;
}
function sectionProperty(declaration) {
    return {
        $ref: '#/definitions/kind',
        description: `${declaration.title}: ${declaration.description} Keys like ${declaration.example}; compares \`${declaration.value}\`. Default tolerance: ${JSON.stringify(toleranceAsWritten(declaration.tolerance))}.`,
    };
}
/** The config schema: `$schema`, then one property per section in registry order, then the rest. */
function buildConfigSchema() {
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

// The gate's thresholds: the defaults, the JSON config file (schema-checked, sizes converted to bytes), the --max-increase shorthand, rule matching and tolerance semantics.
/** Where the config is looked for when none is named: relative to the working directory (the repository root in CI). */
const DEFAULT_CONFIG_PATH = '.github/memory-gate.json';
/**
 * The thresholds when there is no config file:
 * - each section's declared tolerance: modules tolerate +5% AND +1 MiB, so small modules' jitter and big modules'
 *   small percentages both pass; kernels tolerate nothing: any growth of a kernel's memory diff regresses;
 * - new and missing keys warn; improvements pass and are listed;
 * - no device capacity (so no headroom verdict) until one is configured; then a device must keep 10% free;
 * - GE and RUNTIME with no baseline are held against 2 × the larger of the docs' training and inference references;
 *   HCCL only once its links and domains are configured;
 * - a module's outstanding allocations may not grow by more than 0 AND more than 10%;
 * - a device's module peak may deviate from the median over ≥3 devices by 20% or 1 MiB, whichever is larger;
 * - a timeline may rise by 5% of its peak or 64 MiB (whichever is larger) after the first 20% of the run, and a
 *   step series by less than 1 MiB per step after the first step (src/gate/growth.ts);
 * - over-capacity and alloc-failure fail, the other findings warn.
 */
const DEFAULT_CONFIG = deepFreeze({
    // Each section's declared default tolerance (src/sections/), no rules.
    sections: Object.fromEntries(SECTIONS.map((s) => [s.name, { tolerance: { ...s.tolerance }, rules: [] }])),
    onNew: 'warn',
    onMissingBaseline: 'warn',
    onMissing: 'warn',
    environment: { ...DEFAULT_ENVIRONMENT_POLICY },
    failOnImprovement: false,
    device: { minHeadroom: { percent: 10 } },
    devices: {},
    profile: null,
    hccl: null,
    reference: { factor: 2 },
    leaks: { count: 0, percent: 10 },
    imbalance: { tolerance: { percent: 20, bytes: 1024 ** 2 }, minDevices: 3 },
    growth: { warmupPercent: 20, tolerance: { percent: 5, bytes: 64 * 1024 ** 2 }, warmupSteps: 1, perStep: 1024 ** 2, minWindows: 4 },
    verdicts: {
        'over-capacity': 'fail',
        'low-headroom': 'warn',
        'alloc-failure': 'fail',
        'leak-suspect': 'warn',
        'step-leak': 'warn',
        'above-reference': 'warn',
        imbalance: 'warn',
        growing: 'warn',
    },
});
/** HCCL defaults from the CANN docs: single-op mode, one communication domain, HCCL_BUFFSIZE 200 (MiB). */
const HCCL_DEFAULTS = deepFreeze({ mode: 'single-op', ops: 0, domains: 1, buffSize: 200 * 1024 ** 2 });
const validateConfigFile = compileSchema(buildConfigSchema());
/**
 * Reads the threshold config.
 * - `file` given: that file must exist (unless `required: false`).
 * - `file` undefined: `.github/memory-gate.json` under `cwd` is used when present, else DEFAULT_CONFIG
 *   (unless `required: true`).
 * A file that exists but is not valid JSON or fails the schema is always an error, never "no config".
 */
async function loadGateConfig(file, options = {}) {
    const name = file ?? DEFAULT_CONFIG_PATH;
    const required = options.required ?? file !== undefined;
    let text;
    try {
        text = await readFile(path.resolve(options.cwd ?? process.cwd(), name), 'utf8');
    }
    catch (err) {
        if (errorCode(err) === 'ENOENT') {
            if (required)
                throw new UsageError(`config file ${name} does not exist`);
            return cloneConfig(DEFAULT_CONFIG);
        }
        throw new InputError(`${name}: cannot read the config: ${err instanceof Error ? err.message : String(err)}`);
    }
    return parseGateConfig(parseJson(text, name), name);
}
/**
 * Validates a parsed config document against schemas/config.schema.json and converts it to a GateConfig.
 * Omitted fields keep DEFAULT_CONFIG. A `tolerance` object (per kind or per rule) REPLACES the default tolerance
 * as a whole: `{ "percent": 10 }` means "10%, with no bytes allowance", not "10% and the default 1 MiB".
 */
function parseGateConfig(json, file) {
    const input = validateConfigFile(json, file);
    const defaults = cloneConfig(DEFAULT_CONFIG);
    return {
        sections: Object.fromEntries(
        // The schema has checked each section's property against its `kind` definition.
        SECTIONS.map((s) => [s.name, toKindThresholds(input[s.name], defaults.sections[s.name], file, `/${s.name}`)])),
        onNew: input.onNew ?? DEFAULT_CONFIG.onNew,
        onMissingBaseline: input.onMissingBaseline ?? DEFAULT_CONFIG.onMissingBaseline,
        onMissing: input.onMissing ?? DEFAULT_CONFIG.onMissing,
        environment: {
            onChange: input.environment?.onChange ?? defaults.environment.onChange,
            ignore: [...(input.environment?.ignore ?? defaults.environment.ignore)],
        },
        failOnImprovement: input.failOnImprovement ?? DEFAULT_CONFIG.failOnImprovement,
        // `device` merges field by field over the defaults, and each `devices.devN` over `device` when judged.
        device: { ...defaults.device, ...toDeviceLimits(input.device ?? {}, file, '/device') },
        devices: Object.fromEntries(Object.entries(input.devices ?? {}).map(([name, limits]) => [name, toDeviceLimits(limits, file, `/devices/${name}`)])),
        profile: input.profile ?? defaults.profile,
        hccl: input.hccl === undefined ? defaults.hccl : toHccl(input.hccl, file),
        reference: { factor: input.reference?.factor ?? defaults.reference.factor },
        // Like every tolerance, `leaks` and `imbalance.tolerance` replace the default as a whole.
        leaks: input.leaks === undefined ? defaults.leaks : { ...input.leaks },
        imbalance: {
            tolerance: input.imbalance?.tolerance === undefined
                ? defaults.imbalance.tolerance
                : toTolerance(input.imbalance.tolerance, file, '/imbalance/tolerance'),
            minDevices: input.imbalance?.minDevices ?? defaults.imbalance.minDevices,
        },
        growth: {
            warmupPercent: input.growth?.warmupPercent ?? defaults.growth.warmupPercent,
            tolerance: input.growth?.tolerance === undefined ? defaults.growth.tolerance : toTolerance(input.growth.tolerance, file, '/growth/tolerance'),
            warmupSteps: input.growth?.warmupSteps ?? defaults.growth.warmupSteps,
            perStep: input.growth?.perStep === undefined ? defaults.growth.perStep : toBytes(input.growth.perStep, file, '/growth/perStep'),
            minWindows: input.growth?.minWindows ?? defaults.growth.minWindows,
        },
        verdicts: { ...defaults.verdicts, ...input.verdicts },
    };
}
function toDeviceLimits(input, file, pointer) {
    const limits = {};
    if (input.capacity !== undefined)
        limits.capacity = toBytes(input.capacity, file, `${pointer}/capacity`);
    if (input.minHeadroom !== undefined)
        limits.minHeadroom = toHeadroom(input.minHeadroom, file, `${pointer}/minHeadroom`);
    return limits;
}
function toHeadroom(value, file, pointer) {
    const percent = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value) : null;
    if (percent === null)
        return { bytes: toBytes(value, file, pointer) };
    const share = Number(percent[1]);
    if (share > 100)
        throw new SchemaError(file, pointer, `must be at most 100% of the capacity, got ${JSON.stringify(value)}`);
    return { percent: share };
}
function toHccl(input, file) {
    return {
        links: input.links,
        mode: input.mode ?? HCCL_DEFAULTS.mode,
        ops: input.ops ?? HCCL_DEFAULTS.ops,
        domains: input.domains ?? HCCL_DEFAULTS.domains,
        buffSize: input.buffSize === undefined ? HCCL_DEFAULTS.buffSize : toBytes(input.buffSize, file, '/hccl/buffSize'),
    };
}
function toKindThresholds(input, defaults, file, pointer) {
    return {
        tolerance: input?.tolerance === undefined
            ? { ...defaults.tolerance }
            : toTolerance(input.tolerance, file, `${pointer}/tolerance`),
        rules: (input?.rules ?? []).map((rule, i) => toRule(rule, file, `${pointer}/rules/${i}`)),
    };
}
function toRule(input, file, pointer) {
    const rule = { match: input.match };
    if (input.tolerance !== undefined)
        rule.tolerance = toTolerance(input.tolerance, file, `${pointer}/tolerance`);
    if (input.budget !== undefined)
        rule.budget = toBytes(input.budget, file, `${pointer}/budget`);
    if (input.ignore !== undefined)
        rule.ignore = input.ignore;
    return rule;
}
function toTolerance(input, file, pointer) {
    const tolerance = {};
    if (input.percent !== undefined)
        tolerance.percent = input.percent;
    if (input.bytes !== undefined)
        tolerance.bytes = toBytes(input.bytes, file, `${pointer}/bytes`);
    return tolerance;
}
function toBytes(value, file, pointer) {
    const bytes = parseSize(value);
    // The schema has checked the form already; what is left is a value too large to count exactly.
    if (bytes === null)
        throw new SchemaError(file, pointer, `must be at most 2^53 - 1 bytes, got ${JSON.stringify(value)}`);
    return bytes;
}
const MAX_INCREASE_HINT = "'max-increase' must look like 5% or 64MiB or 5%,1MiB";
/**
 * Parses the CLI/Action shorthand for a tolerance: "5%", "64MiB", "5%,1MiB" (either order).
 * Sizes take the same units as the config file; percent is a non-negative decimal.
 */
function parseMaxIncrease(spec) {
    const fail = () => {
        throw new UsageError(`${MAX_INCREASE_HINT}, got ${JSON.stringify(spec)}`);
    };
    const parts = spec.split(',').map((part) => part.trim());
    if (parts.length > 2)
        fail();
    const tolerance = {};
    for (const part of parts) {
        const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(part);
        if (percent) {
            if (tolerance.percent !== undefined)
                fail();
            tolerance.percent = Number(percent[1]);
            continue;
        }
        const bytes = part === '' ? null : parseSize(part);
        if (bytes === null || tolerance.bytes !== undefined)
            fail();
        else
            tolerance.bytes = bytes;
    }
    return tolerance;
}
/**
 * Makes `tolerance` the default of every section (replacing each default as a whole).
 * Rules keep their own tolerance: a rule is more specific than a command-line flag.
 */
function applyMaxIncrease(config, tolerance) {
    return {
        ...config,
        sections: Object.fromEntries(Object.entries(config.sections).map(([name, kind]) => [name, { ...kind, tolerance: { ...tolerance } }])),
    };
}
// Keys are `/`-separated segments on every platform, and dots (aclnnMatmul_0.1) are ordinary characters.
const GLOB_OPTIONS = { dot: true, windows: false };
const matchers = new Map();
/** True when the glob matches the key: `*` within one segment, `**` across any number of segments. */
function globMatches(glob, key) {
    let matcher = matchers.get(glob);
    if (matcher === undefined) {
        matcher = picomatch(glob, GLOB_OPTIONS);
        matchers.set(glob, matcher);
    }
    return matcher(key);
}
/** The first rule whose glob matches the key, or undefined when the defaults apply. */
function matchRule(rules, key) {
    return rules.find((rule) => globMatches(rule.match, key));
}
/**
 * True when a positive change exceeds EVERY field set on the tolerance:
 * - `bytes`: change > bytes;
 * - `percent`: change > |baseline| × percent / 100 (|baseline| because kernel diffs can be negative), and with a
 *   baseline of 0 any positive change exceeds it.
 * A change exactly at a limit does not exceed it; an empty tolerance {} is exceeded by any positive change.
 */
function exceedsTolerance(change, baseline, tolerance) {
    if (change <= 0)
        return false;
    if (tolerance.bytes !== undefined && change <= tolerance.bytes)
        return false;
    // Multiplying instead of dividing keeps "exactly at the limit" exact for integer percents.
    if (tolerance.percent !== undefined && baseline !== 0 && change * 100 <= Math.abs(baseline) * tolerance.percent)
        return false;
    return true;
}
/** delta / |baseline| × 100, or null when either side is absent or the baseline is 0. */
function percentChange(baseline, current) {
    if (baseline === null || current === null || baseline === 0)
        return null;
    return ((current - baseline) / Math.abs(baseline)) * 100;
}
function cloneConfig(config) {
    return {
        sections: Object.fromEntries(Object.entries(config.sections).map(([name, kind]) => [name, cloneKind(kind)])),
        onNew: config.onNew,
        onMissingBaseline: config.onMissingBaseline,
        onMissing: config.onMissing,
        environment: { onChange: config.environment.onChange, ignore: [...config.environment.ignore] },
        failOnImprovement: config.failOnImprovement,
        device: structuredClone(config.device),
        devices: structuredClone(config.devices),
        profile: config.profile,
        hccl: config.hccl === null ? null : { ...config.hccl },
        reference: { ...config.reference },
        leaks: { ...config.leaks },
        imbalance: { tolerance: { ...config.imbalance.tolerance }, minDevices: config.imbalance.minDevices },
        growth: { ...config.growth, tolerance: { ...config.growth.tolerance } },
        verdicts: { ...config.verdicts },
    };
}
function cloneKind(kind) {
    return {
        tolerance: { ...kind.tolerance },
        rules: kind.rules.map((rule) => ({ ...rule, ...(rule.tolerance ? { tolerance: { ...rule.tolerance } } : {}) })),
    };
}
function deepFreeze(value) {
    if (value !== null && typeof value === 'object') {
        for (const inner of Object.values(value))
            deepFreeze(inner);
        Object.freeze(value);
    }
    return value;
}
function errorCode(err) {
    return err !== null && typeof err === 'object' && 'code' in err ? err.code : undefined;
}

// The reading an engineer does by hand beyond "what grew": headroom against the card, allocation failures, leak suspects, CANN reference costs on a first run, and rank imbalance. Pure, no I/O.
function moduleEvidence(side) {
    return side.meta === undefined ? { modules: modulesOf(side) } : { modules: modulesOf(side), meta: side.meta };
}
const MiB = 1024 ** 2;
/** The statuses of findings in the order a key lists them. */
const FINDING_STATUSES = [
    'over-capacity',
    'low-headroom',
    'alloc-failure',
    'leak-suspect',
    'above-reference',
    'imbalance',
    'growing',
];
/** The process-total attribute (v3 `total_size`): the same memory as the module statistics, so never added to them. */
const PROCESS_TOTAL_ATTRIBUTE = 'DEV_PROC_MEM';
/** The profiler's view of the same driver modules (npu_module_mem.csv): a second reading of that memory, never added to the plog's. */
const PROFILER_MODULES_ATTRIBUTE = 'NPU_MODULE_MEM';
function assessDevices(baselineSide, currentSide, config) {
    const baseline = moduleEvidence(baselineSide);
    const current = moduleEvidence(currentSide);
    const moduleFindings = [
        ...assessLeaks(baseline, current, config),
        ...assessReferences(baseline, current, config),
        ...assessImbalance(baseline, current, config),
    ];
    const deviceEntries = [...assessHeadroom(baseline, current, config), ...assessAllocFailures(baseline, current, config)];
    const statusOrder = FINDING_STATUSES;
    // On one device the headroom verdict comes before alloc-failure; pass (a headroom verdict too) is no finding and ranks first.
    const rank = (status) => (statusOrder.includes(status) ? statusOrder.indexOf(status) : -1);
    const order = (a, b) => compareKeys(a.key, b.key) || rank(a.status) - rank(b.status);
    return { moduleFindings: moduleFindings.sort(order), deviceEntries: deviceEntries.sort(order) };
}
const DEVICE_NAME = /^dev\d+$/;
function parseModuleKey(key) {
    const parts = key.split('/');
    if (parts.length === 3 && DEVICE_NAME.test(parts[1])) {
        return { attribute: parts[0], device: parts[1], module: parts[2] };
    }
    if (parts.length === 2)
        return { attribute: parts[0], device: null, module: parts[1] };
    return null;
}
function estimateDevicePeaks(modules) {
    const estimates = new Map();
    for (const [key, metric] of Object.entries(modules)) {
        const parts = parseModuleKey(key);
        if (parts === null || parts.device === null)
            continue;
        let estimate = estimates.get(parts.device);
        if (estimate === undefined) {
            estimate = { device: parts.device, bytes: 0, moduleSum: 0, moduleCount: 0, cached: 0, attributes: [], processTotal: null, profilerModuleSum: null };
            estimates.set(parts.device, estimate);
        }
        if (parts.attribute === PROCESS_TOTAL_ATTRIBUTE) {
            estimate.processTotal = (estimate.processTotal ?? 0) + metric.peak;
        }
        else if (parts.attribute === PROFILER_MODULES_ATTRIBUTE) {
            estimate.profilerModuleSum = (estimate.profilerModuleSum ?? 0) + metric.peak;
        }
        else {
            estimate.moduleSum += metric.peak;
            estimate.moduleCount++;
            if (parts.module === 'CACHED')
                estimate.cached += metric.peak;
            if (!estimate.attributes.includes(parts.attribute))
                estimate.attributes.push(parts.attribute);
        }
    }
    for (const estimate of estimates.values()) {
        estimate.attributes.sort(compareKeys);
        estimate.bytes = Math.max(estimate.moduleSum, estimate.processTotal ?? 0, estimate.profilerModuleSum ?? 0);
    }
    return estimates;
}
/** A device's limits: `devices.devN` over `device`, field by field. */
function deviceLimits(device, config) {
    const override = Object.hasOwn(config.devices, device) ? config.devices[device] : undefined;
    return { ...config.device, ...override };
}
/** The headroom a device must keep, in bytes: a percent of the capacity rounds up. */
function requiredHeadroom(capacity, minHeadroom) {
    if (minHeadroom === undefined)
        return 0;
    if ('bytes' in minHeadroom)
        return minHeadroom.bytes;
    return Math.ceil((capacity * minHeadroom.percent) / 100);
}
function assessHeadroom(baseline, current, config) {
    const before = estimateDevicePeaks(baseline.modules);
    const entries = [];
    for (const estimate of estimateDevicePeaks(current.modules).values()) {
        const { capacity, minHeadroom } = deviceLimits(estimate.device, config);
        if (capacity === undefined)
            continue;
        const required = requiredHeadroom(capacity, minHeadroom);
        const headroomLimit = Math.max(0, capacity - required);
        const minimum = minHeadroom === undefined ? 'none' : 'percent' in minHeadroom ? `${minHeadroom.percent}% = ${formatBytes(required)}` : formatBytes(required);
        const estimateText = `estimated peak ${formatBytes(estimate.bytes)}`;
        let status;
        let limit;
        let verdict;
        if (estimate.bytes > capacity) {
            status = 'over-capacity';
            limit = capacity;
            verdict = `${estimateText} is over the capacity ${formatBytes(capacity)} by ${formatBytes(estimate.bytes - capacity)}`;
        }
        else if (estimate.bytes > headroomLimit) {
            status = 'low-headroom';
            limit = headroomLimit;
            verdict = `${estimateText} leaves ${formatBytes(capacity - estimate.bytes)} of the capacity ${formatBytes(capacity)}, less than the minimum headroom (${minimum})`;
        }
        else {
            status = 'pass';
            limit = headroomLimit;
            verdict = `${estimateText} leaves ${formatBytes(capacity - estimate.bytes)} of the capacity ${formatBytes(capacity)} (minimum headroom ${minimum})`;
        }
        let severity = 'ok';
        if (status !== 'pass') {
            const policy = config.verdicts[status];
            if (policy === 'ignore')
                continue;
            severity = policy;
        }
        const baselineBytes = before.get(estimate.device)?.bytes ?? null;
        entries.push({
            ...compared('device', estimate.device, baselineBytes, estimate.bytes),
            status,
            severity,
            rule: null,
            unit: 'bytes',
            limit,
            capacity,
            note: `${verdict}. ${describeEstimate(estimate)}`,
        });
    }
    return entries;
}
function describeEstimate(estimate) {
    if (estimate.profilerModuleSum === null)
        return describePlogEstimate(estimate);
    const profiler = `the sum of the profiler's ${PROFILER_MODULES_ATTRIBUTE} module peaks (${formatBytes(estimate.profilerModuleSum)})`;
    if (estimate.moduleCount === 0 && estimate.processTotal === null)
        return `An upper bound: ${profiler}, which need not coincide`;
    const larger = estimate.profilerModuleSum > Math.max(estimate.moduleSum, estimate.processTotal ?? 0);
    return `${describePlogEstimate(estimate)}; ${profiler} is a second reading of the same memory, never added${larger ? ', and the larger: the estimate' : ''}`;
}
function describePlogEstimate(estimate) {
    const total = `the process total ${PROCESS_TOTAL_ATTRIBUTE} (${formatBytes(estimate.processTotal ?? 0)})`;
    if (estimate.moduleCount === 0)
        return `From ${total}`;
    const cached = estimate.cached > 0 ? `, CACHED ${formatBytes(estimate.cached)} included` : '';
    const modules = `the sum of ${plural(estimate.moduleCount, 'module peak')} in ${estimate.attributes.join(', ')}`;
    if (estimate.processTotal === null)
        return `An upper bound: ${modules}${cached ? ` (${cached.slice(2)})` : ''}, which need not coincide`;
    return estimate.processTotal > estimate.moduleSum
        ? `From ${total}, larger than ${modules} (${formatBytes(estimate.moduleSum)}${cached}); the two are never added`
        : `An upper bound: ${modules} (${formatBytes(estimate.moduleSum)}${cached}), which need not coincide, larger than ${total}; the two are never added`;
}
function plural(n, one) {
    return `${n} ${one}${n === 1 ? '' : 's'}`;
}
// ---------------------------------------------------------------------------------------------------------------
// 2. Allocation failures
function assessAllocFailures(baseline, current, config) {
    const policy = config.verdicts['alloc-failure'];
    if (policy === 'ignore')
        return [];
    const failures = current.meta?.allocFailures ?? {};
    const before = baseline.meta?.allocFailures ?? {};
    const entries = [];
    for (const [device, count] of Object.entries(failures)) {
        if (count <= 0)
            continue;
        const where = DEVICE_NAME.test(device) ? `on ${device}` : 'on a device the failure line does not name';
        // Where to look in the logs: the first failure line the parser kept for this device.
        const site = current.meta?.allocFailureSites?.[device]?.[0];
        const first = site === undefined ? '' : `; first at ${site.file}:${site.line}`;
        entries.push({
            ...compared('device', device, Object.hasOwn(before, device) ? (before[device] ?? null) : null, count),
            status: 'alloc-failure',
            severity: policy,
            rule: null,
            unit: 'count',
            limit: 0,
            note: `${count} allocation ${count === 1 ? 'failure' : 'failures'} (halMemAlloc failed) ${where}${first}: a job that survived an out-of-memory by retrying is not healthy, and one that died of it left only these lines`,
        });
    }
    return entries;
}
// ---------------------------------------------------------------------------------------------------------------
// 3. Leak suspects
/** Outstanding allocations at exit (alloc_cnt − free_cnt), or null when the record has no counts (v0, v3, CACHED). */
function outstandingAllocations(metric) {
    return metric.allocs === null || metric.frees === null ? null : metric.allocs - metric.frees;
}
function assessLeaks(baseline, current, config) {
    const policy = config.verdicts['leak-suspect'];
    if (policy === 'ignore')
        return [];
    const { count, percent } = config.leaks;
    const entries = [];
    for (const [key, metric] of Object.entries(current.modules)) {
        const old = Object.hasOwn(baseline.modules, key) ? baseline.modules[key] : undefined;
        if (old === undefined || isIgnored(key, config))
            continue;
        const before = outstandingAllocations(old);
        const after = outstandingAllocations(metric);
        if (before === null || after === null)
            continue;
        const growth = after - before;
        if (!exceedsTolerance(growth, before, { bytes: count, percent }))
            continue;
        // Growth must exceed every set field, so the tolerated growth is the largest of them; floor keeps "> limit" exact.
        const allowed = Math.max(count ?? 0, percent !== undefined ? Math.floor((Math.abs(before) * percent) / 100) : 0);
        const share = percent !== undefined ? `${percent}% of ${before}` : null;
        const tolerance = count !== undefined && share !== null ? `the larger of ${count} and ${share}` : (share ?? (count !== undefined ? `${count}` : 'none'));
        entries.push({
            ...compared('module', key, before, after),
            status: 'leak-suspect',
            severity: policy,
            rule: null,
            unit: 'count',
            limit: before + allowed,
            note: `outstanding allocations at exit (alloc_cnt - free_cnt) grew from ${before} to ${after} (+${growth}), ` +
                `more than the ${before + allowed} tolerated (growth allowed: ${tolerance}): a leak or a growing pool`,
        });
    }
    return entries;
}
// ---------------------------------------------------------------------------------------------------------------
// 4. CANN reference costs on a first run
/**
 * Reference peaks of CANN components from the CANN troubleshooting guide ("查看CANN各组件内存统计信息"), PyTorch.
 * The guide writes "M"; the driver counts bytes and CANN's sizes (HCCL_BUFFSIZE) are MiB, so M = MiB.
 */
const REFERENCE_COSTS = {
    training: { GE: 3 * MiB, RUNTIME: 26 * MiB },
    inference: { GE: 86 * MiB, RUNTIME: 18 * MiB },
};
/** HCCL link costs from the same guide: 4 MiB per link in single-op mode, 0.3 MiB per link and operator in graph mode. */
const HCCL_LINK_COST = { singleOp: 4 * MiB, graphPerOp: 0.3 * MiB };
function referenceCost(module, profile, hccl) {
    if (module === 'GE' || module === 'RUNTIME') {
        if (profile !== null)
            return { bytes: REFERENCE_COSTS[profile][module], basis: `the ${profile} reference for ${module}` };
        const training = REFERENCE_COSTS.training[module];
        const inference = REFERENCE_COSTS.inference[module];
        return {
            bytes: Math.max(training, inference),
            basis: `the larger of the training (${formatBytes(training)}) and inference (${formatBytes(inference)}) references for ${module}; set "profile"`,
        };
    }
    if (module === 'HCCL' && hccl !== null) {
        const links = hccl.mode === 'graph'
            ? { bytes: Math.round(hccl.links * hccl.ops * HCCL_LINK_COST.graphPerOp), text: `${plural(hccl.links, 'link')} x ${plural(hccl.ops, 'op')} x 0.3 MiB` }
            : { bytes: hccl.links * HCCL_LINK_COST.singleOp, text: `${plural(hccl.links, 'link')} x 4 MiB` };
        const buffers = hccl.domains * 2 * hccl.buffSize;
        return {
            bytes: links.bytes + buffers,
            basis: `the HCCL reference ${links.text} + ${plural(hccl.domains, 'domain')} x 2 x ${formatBytes(hccl.buffSize)}`,
        };
    }
    return null;
}
/** The attribute the guide's references are about. */
const REFERENCE_ATTRIBUTE = 'DEV_MEM';
function assessReferences(baseline, current, config) {
    const policy = config.verdicts['above-reference'];
    if (policy === 'ignore')
        return [];
    const entries = [];
    for (const [key, metric] of Object.entries(current.modules)) {
        // Only a key with no baseline: once there is one, the baseline is the better reference.
        if (Object.hasOwn(baseline.modules, key) || isIgnored(key, config))
            continue;
        const parts = parseModuleKey(key);
        if (parts === null || parts.attribute !== REFERENCE_ATTRIBUTE || parts.device === null)
            continue;
        const reference = referenceCost(parts.module, config.profile, config.hccl);
        if (reference === null)
            continue;
        const limit = Math.floor(reference.bytes * config.reference.factor);
        if (metric.peak <= limit)
            continue;
        entries.push({
            ...compared('module', key, null, metric.peak),
            status: 'above-reference',
            severity: policy,
            rule: null,
            unit: 'bytes',
            limit,
            note: `no baseline yet: peak ${formatBytes(metric.peak)} is above ${config.reference.factor} x ${formatBytes(reference.bytes)}, ${reference.basis}`,
        });
    }
    return entries;
}
// ---------------------------------------------------------------------------------------------------------------
// 5. Rank imbalance
/** The median of the values (the mean of the two middle ones for an even count). */
function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
/** Peaks of every device-bearing module key by group (`DEV_MEM/{*}/APP`), skipping keys ignored by a rule. */
function imbalanceGroups(modules, config) {
    const groups = new Map();
    for (const [key, metric] of Object.entries(modules)) {
        const parts = parseModuleKey(key);
        if (parts === null || parts.device === null || isIgnored(key, config))
            continue;
        const group = `${parts.attribute}/*/${parts.module}`;
        let members = groups.get(group);
        if (members === undefined)
            groups.set(group, (members = []));
        members.push({ key, peak: metric.peak });
    }
    return groups;
}
/** How far a peak may stray from its group's median: the larger of the set fields. */
function allowedDeviation(middle, tolerance) {
    return Math.max(tolerance.bytes ?? 0, tolerance.percent !== undefined ? (middle * tolerance.percent) / 100 : 0);
}
/**
 * Keys off their group's median in the baseline run too (its own imbalance): an imbalance that is no news. Keys of
 * groups with fewer than minDevices devices in the baseline count as balanced (nothing to compare with then).
 */
function imbalancedInBaseline(baseline, config) {
    const { tolerance, minDevices } = config.imbalance;
    const out = new Set();
    for (const members of imbalanceGroups(baseline.modules, config).values()) {
        if (members.length < minDevices)
            continue;
        const middle = median(members.map((m) => m.peak));
        for (const { key, peak } of members)
            if (exceedsTolerance(Math.abs(peak - middle), middle, tolerance))
                out.add(key);
    }
    return out;
}
function assessImbalance(baseline, current, config) {
    const policy = config.verdicts.imbalance;
    if (policy === 'ignore')
        return [];
    const groups = imbalanceGroups(current.modules, config);
    const known = imbalancedInBaseline(baseline, config);
    const { tolerance, minDevices } = config.imbalance;
    const entries = [];
    for (const [group, members] of groups) {
        if (members.length < minDevices)
            continue;
        const middle = median(members.map((m) => m.peak));
        const allowed = allowedDeviation(middle, tolerance);
        const toleranceText = [tolerance.percent !== undefined ? `${tolerance.percent}%` : null, tolerance.bytes !== undefined ? formatBytes(tolerance.bytes) : null]
            .filter((part) => part !== null)
            .join(' and ');
        for (const { key, peak } of members) {
            const deviation = peak - middle;
            if (!exceedsTolerance(Math.abs(deviation), middle, tolerance))
                continue;
            const above = deviation > 0;
            const share = middle === 0 ? '' : `${((Math.abs(deviation) / middle) * 100).toFixed(1)}% `;
            const old = Object.hasOwn(baseline.modules, key) ? baseline.modules[key] : undefined;
            // News: a new key, a key that moved beyond its own tolerance, or one that was balanced in the baseline.
            // An imbalance the baseline already had stays in the report (severity ok) but is not repeated as a warning.
            const keyTolerance = matchRule(config.sections.modules?.rules ?? [], key)?.tolerance ?? config.sections.modules?.tolerance ?? section('modules').tolerance;
            const news = old === undefined || exceedsTolerance(Math.abs(peak - old.peak), old.peak, keyTolerance) || !known.has(key);
            entries.push({
                ...compared('module', key, old?.peak ?? null, peak),
                status: 'imbalance',
                severity: news ? policy : 'ok',
                rule: null,
                unit: 'bytes',
                // The bound crossed, as an integer: floor/ceil keep "current > limit" / "current < limit" exact.
                limit: above ? Math.floor(middle + allowed) : Math.ceil(middle - allowed),
                note: `${share}${above ? 'above' : 'below'} the median ${formatBytes(middle)} of ${group} on ${members.length} devices ` +
                    `(tolerated: ${toleranceText === '' ? 'nothing' : toleranceText}): a pipeline stage, or one rank leaking` +
                    (news ? '' : '; already so in the baseline, so not repeated as a warning'),
            });
        }
    }
    return entries;
}
// ---------------------------------------------------------------------------------------------------------------
function isIgnored(key, config) {
    return matchRule((config.sections.modules?.rules ?? []), key)?.ignore === true;
}
/** The comparison fields every entry carries: this run against the baseline run. */
function compared(kind, key, baseline, current) {
    return { kind, key, baseline, current, delta: baseline === null ? null : current - baseline, percent: percentChange(baseline, current) };
}

// Findings from msMemScope dumps: step-leak (msMemScope's own leak rule) and leak-suspect on memory unfreed at the end.
/** step-leak on every device and pool whose dump showed blocks that msMemScope's rule calls leaked, whatever the baseline. */
const stepLeakFindings = ({ baseline, current, config }) => {
    const policy = config.verdicts['step-leak'];
    if (policy === 'ignore')
        return [];
    const declaration = section('stepLeaks');
    const before = metricsOf(baseline, declaration.name);
    const entries = [];
    for (const [key, metric] of Object.entries(metricsOf(current, declaration.name)).sort((a, b) => compareKeys(a[0], b[0]))) {
        const bytes = valueOf(declaration, metric);
        if (bytes <= 0)
            continue;
        const old = Object.hasOwn(before, key) ? valueOf(declaration, before[key]) : null;
        entries.push({
            kind: declaration.kind,
            key,
            baseline: old,
            current: bytes,
            delta: old === null ? null : bytes - old,
            percent: percentChange(old, bytes),
            status: 'step-leak',
            severity: policy,
            rule: null,
            limit: 0,
            note: `${metric.blocks} block(s), ${bytes} bytes allocated during a step k >= 2 were still live at the end of step k+1 ` +
                `(msMemScope's leak rule)${metric.top ? `; most: ${metric.top}` : ''}`,
        });
    }
    return entries;
};
/** leak-suspect where memory unfreed at the end of tracing grew from the baseline beyond the `unfreed` tolerance. */
const unfreedFindings = ({ baseline, current, config }) => {
    const policy = config.verdicts['leak-suspect'];
    if (policy === 'ignore')
        return [];
    const declaration = section('unfreed');
    const thresholds = sectionThresholds(config, declaration);
    const before = metricsOf(baseline, declaration.name);
    const after = metricsOf(current, declaration.name);
    // Only a run with a dump baseline can say what grew: without one, every persistent allocation would look new.
    if (Object.keys(before).length === 0)
        return [];
    const entries = [];
    for (const [key, metric] of Object.entries(after).sort((a, b) => compareKeys(a[0], b[0]))) {
        const rule = matchRule(thresholds.rules, key);
        if (rule?.ignore === true)
            continue;
        const bytes = valueOf(declaration, metric);
        const old = Object.hasOwn(before, key) ? valueOf(declaration, before[key]) : 0;
        const tolerance = rule?.tolerance ?? thresholds.tolerance;
        if (!exceedsTolerance(bytes - old, old, tolerance))
            continue;
        const allowed = Math.max(tolerance.bytes ?? 0, tolerance.percent !== undefined ? Math.floor((old * tolerance.percent) / 100) : 0);
        entries.push({
            kind: declaration.kind,
            key,
            baseline: Object.hasOwn(before, key) ? old : null,
            current: bytes,
            delta: bytes - old,
            percent: percentChange(old, bytes),
            status: 'leak-suspect',
            severity: policy,
            rule: rule?.match ?? null,
            limit: old + allowed,
            note: `memory never freed while tracing grew from ${old} to ${bytes} bytes (${metric.blocks} block(s)), more than the ${old + allowed} tolerated` +
                newBlocksNote(Object.hasOwn(before, key) ? before[key]?.sizes : '', metric.sizes),
        });
    }
    return entries;
};
/** `; new blocks: 4000256 B ×2` from two `sizes` fields (`4000256x2 1536`): the current sizes the baseline's do not account for. */
function newBlocksNote(before, after) {
    const parse = (text) => {
        const counts = new Map();
        if (typeof text !== 'string')
            return counts;
        for (const token of text.split(' ')) {
            const m = /^(\d+)(?:x(\d+))?$/.exec(token);
            if (m !== null)
                counts.set(Number(m[1]), Number(m[2] ?? 1));
        }
        return counts;
    };
    const old = parse(before);
    const added = [];
    for (const [size, n] of parse(after)) {
        const extra = n - (old.get(size) ?? 0);
        if (extra > 0)
            added.push(extra === 1 ? `${size} B` : `${size} B ×${extra}`);
    }
    return added.length === 0 ? '' : `; new blocks: ${added.join(', ')}`;
}

// The `growing` verdict: memory that keeps rising over a run (time axis) or from step to step (step axis), from one run alone.
//
// A series holds window peaks (src/series.ts). After a warm-up, the Theil–Sen slope (the median of the slopes between
// every two window peaks) says how fast the level rises; it ignores a few outliers and reads a saw-tooth within a band
// as flat. Time axis: the rise that slope gives across the run after warm-up must exceed the tolerance (every set
// field: a share of the series' peak, and bytes), and the last half of those windows must still be rising (a rise that
// then stays flat is a step up, e.g. optimizer state created at the first step, not growth), and the troughs must
// rise too: the lowest window peak of the last quarter must exceed that of the first quarter by half the tolerance
// (a saw-tooth slower than the windows has positive slopes inside each tooth, but its troughs stay put).
// Step axis: at least `perStep` bytes more each step, still rising over the last half, troughs rising. Windows without
// samples are absent from the series, never zeros, so a pause in sampling is no drop.
/** 20% warm-up; a rise over 5% of the peak and 64 MiB; 1 MiB per step after the first step; at least 4 windows. */
const DEFAULT_GROWTH = DEFAULT_CONFIG.growth;
/**
 * The `growing` finding over every series of this run (no baseline needed), in report order: section by section,
 * keys sorted. A key that its section's rules ignore is not assessed; `verdicts.growing: ignore` assesses nothing.
 */
const assessGrowing = ({ current, config }) => {
    const policy = config.verdicts.growing;
    if (policy === 'ignore')
        return [];
    const entries = [];
    for (const declaration of SECTIONS) {
        const byKey = current.series?.[declaration.name];
        if (byKey === undefined)
            continue;
        const rules = config.sections[declaration.name]?.rules ?? [];
        for (const key of Object.keys(byKey).sort(compareKeys)) {
            if (matchRule(rules, key)?.ignore === true)
                continue;
            const growth = assessGrowth(byKey[key], config.growth);
            if (growth === null || !growth.growing)
                continue;
            entries.push({
                kind: declaration.kind,
                key,
                baseline: null,
                current: growth.rise,
                delta: null,
                percent: null,
                status: 'growing',
                severity: policy,
                rule: null,
                unit: 'bytes',
                limit: growth.limit,
                note: growth.note,
            });
        }
    }
    return entries;
};
const MICROS_PER_HOUR = 3.6e9;
/** Assesses one series; null when it has too few windows after warm-up to say anything. */
function assessGrowth(series, config = DEFAULT_GROWTH) {
    const points = [...series.points].sort((a, b) => a[0] - b[0]);
    if (points.length === 0)
        return null;
    const first = points[0];
    const last = points[points.length - 1];
    const runEnd = last[0] + series.width;
    let after;
    let span;
    if (series.axis === 'time') {
        const cut = first[0] + (config.warmupPercent / 100) * (runEnd - first[0]);
        after = points.filter((p) => p[0] >= cut);
        span = runEnd - cut;
    }
    else {
        after = points.slice(config.warmupSteps);
        span = after.length > 0 ? last[0] - after[0][0] : 0;
    }
    if (after.length < Math.max(2, config.minWindows) || span <= 0)
        return null;
    const slope = theilSen(after);
    const tail = theilSen(after.slice(Math.floor(after.length / 2)));
    const peak = Math.max(...points.map((p) => p[1]));
    const from = after[0];
    const to = after[after.length - 1];
    const stillRising = tail >= slope / 2 && tail > 0;
    // A saw-tooth slower than the windows has positive slopes inside each tooth, but its troughs stay put: growth lifts
    // the lowest window peak of the last quarter above that of the first quarter.
    const quarter = Math.max(1, Math.floor(after.length / 4));
    const levelRise = Math.min(...after.slice(after.length - quarter).map((p) => p[1])) - Math.min(...after.slice(0, quarter).map((p) => p[1]));
    let rise;
    let limit;
    let growing;
    if (series.axis === 'time') {
        rise = Math.round(slope * span);
        const bounds = [config.tolerance.percent === undefined ? null : (peak * config.tolerance.percent) / 100, config.tolerance.bytes ?? null].filter((b) => b !== null);
        limit = Math.round(Math.max(0, ...bounds));
        growing = stillRising && bounds.every((b) => rise > b) && levelRise > limit / 2;
    }
    else {
        rise = Math.round(slope * span);
        limit = config.perStep * span;
        growing = stillRising && slope >= config.perStep && levelRise > 0;
    }
    const shape = !stillRising && slope > 0 ? 'step' : levelRise <= 0 && slope > 0 ? 'band' : 'trend';
    const noteLimit = series.axis === 'time' ? limit : config.perStep;
    return { axis: series.axis, from, to, slope, rise, limit, growing, note: growthNote(series.axis, after, slope, rise, noteLimit, growing, shape) };
}
/** The median of the slopes between every two points (n ≤ 200 window peaks: at most 19,900 pairs). */
function theilSen(points) {
    const slopes = [];
    for (let i = 0; i < points.length; i++) {
        const [xi, yi] = points[i];
        for (let j = i + 1; j < points.length; j++) {
            const [xj, yj] = points[j];
            if (xj !== xi)
                slopes.push((yj - yi) / (xj - xi));
        }
    }
    if (slopes.length === 0)
        return 0;
    slopes.sort((a, b) => a - b);
    const mid = slopes.length >> 1;
    return slopes.length % 2 === 1 ? slopes[mid] : (slopes[mid - 1] + slopes[mid]) / 2;
}
const SPARKS = '▁▂▃▄▅▆▇█';
/** Eight levels over at most 16 buckets of the points (each the max of its points): the shape at a glance. */
function sparkline(points, width = 16) {
    if (points.length === 0)
        return '';
    const n = Math.min(width, points.length);
    const buckets = [];
    for (let b = 0; b < n; b++) {
        const from = Math.floor((b * points.length) / n);
        const to = Math.floor(((b + 1) * points.length) / n);
        let max = -Infinity;
        for (let i = from; i < to; i++)
            max = Math.max(max, points[i][1]);
        buckets.push(max);
    }
    const lo = Math.min(...buckets);
    const hi = Math.max(...buckets);
    return buckets.map((v) => SPARKS[hi === lo ? 0 : Math.round(((v - lo) / (hi - lo)) * (SPARKS.length - 1))]).join('');
}
function growthNote(axis, after, slope, rise, limit, growing, shape) {
    const from = after[0][1];
    const to = after[after.length - 1][1];
    const picture = `${sparkline(after)} ${formatBytes(from)} → ${formatBytes(to)}`;
    if (axis === 'time') {
        const perHour = `${signed(slope * MICROS_PER_HOUR)}/h`;
        const verdict = growing
            ? `rises ${formatBytes(rise)} across the run after warm-up, over the ${formatBytes(limit)} tolerated`
            : shape === 'step'
                ? 'rose, then stayed flat over the last half: a step up, not growth'
                : shape === 'band'
                    ? 'rises and falls within one band (its troughs do not rise): not growth'
                    : `projected ${signed(rise)} across the run after warm-up, within the ${formatBytes(limit)} tolerated`;
        return `${picture} after warm-up (${after.length} windows), Theil–Sen ${perHour}: ${verdict}`;
    }
    const perStep = `${signed(slope)}/step`;
    const verdict = growing
        ? `at least ${formatBytes(limit)} more every step`
        : shape === 'step'
            ? 'rose, then stayed flat over the last steps: a step up, not growth'
            : shape === 'band'
                ? 'rises and falls within one band: not growth'
                : `under the ${formatBytes(limit)} per step tolerated`;
    return `${picture} over steps ${after[0][0]}–${after[after.length - 1][0]}, Theil–Sen ${perStep}: ${verdict}`;
}
function signed(bytes) {
    const rounded = Math.round(bytes);
    return rounded > 0 ? `+${formatBytes(rounded)}` : formatBytes(rounded);
}

// The verdicts beyond the baseline comparison, as a list of assessors: a new verdict is one assessor here.
/** Headroom, allocation failures, leak suspects, reference costs and imbalance (devices.ts). */
const deviceFindings = ({ baseline, current, config }) => {
    const { moduleFindings, deviceEntries } = assessDevices(baseline, current, config);
    return [...moduleFindings, ...deviceEntries];
};
/** Every assessor, in the order their entries are listed. */
const FINDINGS = [deviceFindings, assessGrowing, stepLeakFindings, unfreedFindings];

// The gate itself: one verdict per key of every section from a baseline, this run and the thresholds, plus the findings. Pure, no I/O.
/**
 * Compares this run with the baseline, section by section (src/sections/): each section compares its declared value
 * (`peak` for modules, `diff` for kernels, …); delta = current − baseline.
 *
 * Per key, the first matching rule (else the section's defaults) decides, in this order:
 * 1. `ignore` → ignored (ok).
 * 2. `budget` set and current > budget → over-budget (fail), whatever the baseline, also for new keys.
 * 3. only in this run → new; only in the baseline → missing; severity from onNew / onMissing (ignore → ok).
 * 4. delta exceeds every field of the tolerance → regressed (fail).
 * 5. −delta exceeds it the same way → improved: ok (listed as an improvement), or fail with failOnImprovement.
 * 6. otherwise pass (ok).
 *
 * Then the findings (findings.ts), each a separate entry: a key may be followed by findings with the same kind and key
 * (leak-suspect, above-reference, imbalance, growing, …); entries of no section's key (`device` entries) come last.
 *
 * Entries come sorted by section (registry order) then key, a key's verdict before its findings; counts hold every
 * status; the result is 'fail' iff some entry's severity is 'fail'.
 */
function compareSnapshots(baseline, current, config) {
    const verdicts = SECTIONS.filter((d) => d.compared !== false).flatMap((declaration) => compareSection(declaration, baseline, current, config));
    const findings = FINDINGS.flatMap((assess) => assess({ baseline, current, config }));
    const entries = withFindings(verdicts, findings);
    const counts = {};
    for (const status of STATUSES)
        counts[status] = 0;
    for (const entry of entries)
        counts[entry.status] = (counts[entry.status] ?? 0) + 1;
    return {
        result: entries.some((entry) => entry.severity === 'fail') ? 'fail' : 'pass',
        counts,
        entries,
    };
}
/** Each key's verdict followed by its findings (in the order the assessors gave them); the rest last, in that order. */
function withFindings(verdicts, findings) {
    if (findings.length === 0)
        return verdicts;
    const byKey = new Map();
    for (const finding of findings) {
        const id = `${finding.kind}\u0000${finding.key}`;
        const list = byKey.get(id);
        if (list === undefined)
            byKey.set(id, [finding]);
        else
            list.push(finding);
    }
    const out = [];
    for (const verdict of verdicts) {
        out.push(verdict);
        const id = `${verdict.kind}\u0000${verdict.key}`;
        const list = byKey.get(id);
        if (list !== undefined) {
            out.push(...list);
            byKey.delete(id);
        }
    }
    for (const list of byKey.values())
        out.push(...list);
    return out;
}
/** The thresholds of a section: the config's, else the section's declared default tolerance with no rules. */
function sectionThresholds(config, declaration) {
    return config.sections[declaration.name] ?? { tolerance: { ...declaration.tolerance }, rules: [] };
}
function compareSection(declaration, baseline, current, config) {
    const before = sectionValues(baseline, declaration);
    const after = sectionValues(current, declaration);
    const thresholds = sectionThresholds(config, declaration);
    const keys = sortedUnion([...before.keys()], [...after.keys()]);
    const unit = declaration.unit === 'bytes' ? undefined : declaration.unit;
    return keys.map((key) => {
        const entry = judge(declaration.kind, key, before.get(key) ?? null, after.get(key) ?? null, thresholds, config);
        return unit === undefined ? entry : { ...entry, unit };
    });
}
/**
 * Every key of both sides, sorted by compareKeys, each once: the same list as sorting their union, in linear time when
 * both sides come sorted (snapshots and baselines are written so) — 160,000 keys cost ~17 collator calls each to sort.
 * On a tie the baseline's key comes first, as the stable sort of the union (baseline keys first) puts it.
 */
function sortedUnion(before, after) {
    if (!isSorted(before) || !isSorted(after))
        return [...new Set([...before, ...after])].sort(compareKeys);
    const keys = [];
    const seen = new Set(before);
    let i = 0;
    let j = 0;
    while (i < before.length || j < after.length) {
        if (j < after.length && seen.has(after[j])) {
            j++;
            continue;
        }
        if (j >= after.length || (i < before.length && compareKeys(before[i], after[j]) <= 0))
            keys.push(before[i++]);
        else
            keys.push(after[j++]);
    }
    return keys;
}
function isSorted(keys) {
    for (let i = 1; i < keys.length; i++)
        if (compareKeys(keys[i - 1], keys[i]) > 0)
            return false;
    return true;
}
/** The verdict for one key; see compareSnapshots for the order of the checks. */
function judge(kind, key, baseline, current, thresholds, config) {
    const rule = matchRule(thresholds.rules, key);
    const delta = baseline !== null && current !== null ? current - baseline : null;
    const entry = (status, severity) => ({
        kind,
        key,
        baseline,
        current,
        delta,
        percent: percentChange(baseline, current),
        status,
        severity,
        rule: rule?.match ?? null,
    });
    if (rule?.ignore === true)
        return entry('ignored', 'ok');
    if (rule?.budget !== undefined && current !== null && current > rule.budget)
        return entry('over-budget', 'fail');
    if (baseline === null)
        return entry('new', policySeverity(config.onNew));
    if (current === null || delta === null)
        return entry('missing', policySeverity(config.onMissing));
    const tolerance = rule?.tolerance ?? thresholds.tolerance;
    if (exceedsTolerance(delta, baseline, tolerance))
        return entry('regressed', 'fail');
    if (exceedsTolerance(-delta, baseline, tolerance))
        return entry('improved', config.failOnImprovement ? 'fail' : 'ok');
    return entry('pass', 'ok');
}
function policySeverity(policy) {
    return policy === 'ignore' ? 'ok' : policy;
}

// The gate from snapshot to report: loads baseline and thresholds, compares. Shared by the CLI and the Action.
async function runGate(request) {
    let config = await loadGateConfig(request.configPath);
    if (request.maxIncrease !== undefined)
        config = applyMaxIncrease(config, parseMaxIncrease(request.maxIncrease));
    const baseline = await loadBaseline(request.baselinePath);
    if (baseline === null && !request.allowMissingBaseline) {
        throw new InputError(`baseline ${request.baselinePath} does not exist: create it with 'ascend-memory-gate baseline --out ${request.baselinePath}' (or the Action's mode: update) and commit it`);
    }
    const compared = compareSnapshots(baseline ?? { sections: {} }, request.snapshot, config);
    const report = applyEnvironment(compared, compareEnvironments(runEnvironmentOf(baseline?.meta), runEnvironmentOf(request.snapshot.meta), config.environment));
    // A first run passes with "No baseline yet" unless the config keeps the gate closed until a baseline exists.
    if (config.onMissingBaseline === 'fail' && (baseline === null || hasNoMetrics(baseline)))
        return { report: { ...report, result: 'fail' }, config, baseline };
    return { report, config, baseline };
}

export { runGate };

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { U as UsageError, I as InputError } from './errors.js';
import { c as compileSchema, p as parseJson } from './reader.js';
import { b as SECTIONS, X as bareNumber, Y as parseSize } from './evidence-sources.js';
import { D as DEFAULT_ENVIRONMENT_POLICY } from './roll-up.js';
import { a as FINDING_DEFINITIONS, v as verdictsSchema, b as FINDING_OPTIONS, D as DEFAULT_VERDICTS, t as toTolerance, c as toBytes } from './index.js';
export { e as exceedsTolerance, g as globMatches, m as matchRule, p as percentChange, s as sectionThresholds } from './index.js';
import './_commonjsHelpers.js';
import 'node:crypto';
import './limits.js';
import 'node:fs';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './keys.js';

const BASE = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    description: 'Threshold config of ascend-memory-gate. How much each memory metric may grow before the gate fails. Default location: .github/memory-gate.json. Every field is optional; omitted fields keep the defaults.',
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
            description: 'A first run, with no baseline file or one without keys: warn (default) reports "No baseline yet: N keys recorded" and passes; fail fails the run (exit 1) until a baseline is committed.',
        },
        onDisjointBaseline: {
            enum: ['warn', 'fail'],
            description: "A baseline that shares no key with this run (another input, or keys renamed), so nothing is compared: fail (default) fails the run with one line naming both sides' first keys; warn passes it with that line, for the first run of a new input.",
        },
        onMissing: {
            $ref: '#/definitions/policy',
            description: 'A key in the baseline but not in this run: warn (default), fail, or ignore.',
        },
        environment: {
            type: 'object',
            additionalProperties: false,
            description: 'The environment behind the numbers (CANN, driver, firmware, chip, torch, torch_npu, memory variables): what a change since the baseline, or nodes that disagree within a run, do to the verdict.',
            properties: {
                onChange: {
                    $ref: '#/definitions/policy',
                    description: 'warn (default: listed first in the report, the verdict unchanged), fail, or ignore (not compared).',
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
            description: 'Fail when a value shrinks beyond its tolerance, so that the baseline gets updated. Default false: improvements pass and are listed.',
        },
        baselineUpdateLabel: {
            type: 'string',
            title: 'a label name',
            minLength: 1,
            maxLength: 50,
            description: "On a pull request, the check gates against the baseline and config of the PR's base commit; the PR's own are used only when it carries this label, which only maintainers (triage permission) can set. Update mode puts it on the PRs it opens. Read from the base commit's config. Default \"memory-baseline-update\".",
        },
        history: {
            type: 'object',
            additionalProperties: false,
            description: 'The noise band (opt-in; needs the history: the Action\'s `history` input, or `check --history FILE`). A key regresses (or improves) only when its change exceeds the larger of its configured tolerance and the spread (max - min) of its last `window` values on the default branch, capped at `ceiling`; the row\'s note says which applied. With fewer than `minPoints` values the configured tolerance applies, and the note says so. Example: {"window": 20, "minPoints": 5}.',
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
                    description: 'Default {"percent": 10}: the band is never wider than the larger field\'s allowance at the baseline value, so a noisy key cannot hide a real regression.',
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
            description: 'Binary units KiB MiB GiB TiB (1024-based) and decimal units KB MB GB TB (1000-based), case-insensitive; at most 2^53 - 1 bytes. A string carries its unit ("512B" for bytes): "512" is refused, since 512 bytes and 512 MiB read alike; "0" needs none.',
            type: ['integer', 'string'],
            minimum: 0,
            maximum: 9007199254740991,
            pattern: '^\\s*(0+(\\.0+)?|\\d+(\\.\\d+)?\\s*([KkMmGgTt][Ii]?[Bb]|[Bb]))\\s*$',
        },
        tolerance: {
            description: 'How much a value may move before it counts. A change must exceed EVERY field that is set: `bytes` (delta > bytes) and `percent` (delta > |baseline| x percent / 100; with a baseline of 0 any change exceeds it). An empty object {} means any growth regresses. A tolerance object REPLACES the default tolerance as a whole; fields are not merged.',
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
            description: 'The first rule whose `match` glob matches a key decides for that key. `ignore` wins over everything; `budget` applies whatever the baseline (new keys too) and wins over the tolerance; `tolerance` replaces the default tolerance as a whole.',
            type: 'object',
            additionalProperties: false,
            required: ['match'],
            properties: {
                match: {
                    title: 'a non-empty glob',
                    description: 'Glob over key segments separated by `/`: `*` matches within one segment, `**` any number of segments, and dots are ordinary characters. Example: DEV_MEM/*/HCCL, HOST_MEM/**, dev*/aclnnMatmul*.',
                    type: 'string',
                    minLength: 1,
                },
                tolerance: {
                    $ref: '#/definitions/tolerance',
                },
                budget: {
                    $ref: '#/definitions/size',
                    description: 'Absolute ceiling: the key fails (over-budget) when its current value exceeds this, whatever the baseline.',
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
};
function toleranceAsWritten(tolerance) {
    const out = {};
    if (tolerance.percent !== undefined)
        out.percent = tolerance.percent;
    if (tolerance.bytes !== undefined)
        out.bytes = sizeAsWritten(tolerance.bytes);
    return out;
}
function sizeAsWritten(bytes) {
    for (const [unit, size] of [
        ['TiB', 1024 ** 4],
        ['GiB', 1024 ** 3],
        ['MiB', 1024 ** 2],
        ['KiB', 1024],
    ]) {
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
function buildConfigSchema() {
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

const DEFAULT_CONFIG_PATH = '.github/memory-gate.json';
const DEFAULT_CONFIG = deepFreeze({
    sections: Object.fromEntries(SECTIONS.map((s) => [s.name, { tolerance: { ...s.tolerance }, rules: [] }])),
    onNew: 'warn',
    onMissingBaseline: 'warn',
    onDisjointBaseline: 'fail',
    onMissing: 'warn',
    environment: { ...DEFAULT_ENVIRONMENT_POLICY },
    failOnImprovement: false,
    ...Object.fromEntries(FINDING_OPTIONS.map(([key, option]) => [key, structuredClone(option.defaults)])),
    verdicts: { ...DEFAULT_VERDICTS },
    baselineUpdateLabel: 'memory-baseline-update',
    history: null,
});
const NOISE_BAND_DEFAULTS = deepFreeze({ window: 20, minPoints: 5, ceiling: { percent: 10 } });
const validateConfigFile = compileSchema(buildConfigSchema());
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
            return structuredClone(DEFAULT_CONFIG);
        }
        throw new InputError(`${name}: cannot read the config: ${err instanceof Error ? err.message : String(err)}`);
    }
    return parseGateConfig(parseJson(text, name), name);
}
function parseGateConfig(json, file) {
    const input = validateConfigFile(json, file);
    const defaults = structuredClone(DEFAULT_CONFIG);
    return {
        sections: Object.fromEntries(SECTIONS.map((s) => [
            s.name,
            toKindThresholds(input[s.name], defaults.sections[s.name], file, `/${s.name}`),
        ])),
        onNew: input.onNew ?? DEFAULT_CONFIG.onNew,
        onMissingBaseline: input.onMissingBaseline ?? DEFAULT_CONFIG.onMissingBaseline,
        onDisjointBaseline: input.onDisjointBaseline ?? DEFAULT_CONFIG.onDisjointBaseline,
        onMissing: input.onMissing ?? DEFAULT_CONFIG.onMissing,
        environment: {
            onChange: input.environment?.onChange ?? defaults.environment.onChange,
            ignore: [...(input.environment?.ignore ?? defaults.environment.ignore)],
        },
        failOnImprovement: input.failOnImprovement ?? DEFAULT_CONFIG.failOnImprovement,
        ...Object.fromEntries(FINDING_OPTIONS.map(([key, option]) => [
            key,
            option.parse(input[key], defaults[key], file, `/${key}`),
        ])),
        verdicts: { ...defaults.verdicts, ...input.verdicts },
        baselineUpdateLabel: input.baselineUpdateLabel ?? defaults.baselineUpdateLabel,
        history: input.history === undefined
            ? null
            : {
                window: input.history.window ?? NOISE_BAND_DEFAULTS.window,
                minPoints: input.history.minPoints ?? NOISE_BAND_DEFAULTS.minPoints,
                ceiling: input.history.ceiling === undefined
                    ? { ...NOISE_BAND_DEFAULTS.ceiling }
                    : toTolerance(input.history.ceiling, file, '/history/ceiling'),
            },
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
const MAX_INCREASE_HINT = "'max-increase' must look like 5% or 64MiB or 5%,1MiB";
function parseMaxIncrease(spec) {
    const fail = () => {
        throw new UsageError(`${MAX_INCREASE_HINT}, got ${JSON.stringify(spec)}`);
    };
    const parts = spec.split(',').map((part) => part.trim());
    if (parts.length > 2)
        fail();
    const tolerance = {};
    for (const part of parts) {
        const bare = bareNumber(part);
        if (bare !== null)
            throw new UsageError(`'max-increase' "${bare}" has no unit: write ${bare}% for a share of the baseline or ${bare}B for bytes`);
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
function applyMaxIncrease(config, tolerance) {
    return {
        ...config,
        sections: Object.fromEntries(Object.entries(config.sections).map(([name, kind]) => [name, { ...kind, tolerance: { ...tolerance } }])),
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

export { DEFAULT_CONFIG, DEFAULT_CONFIG_PATH, applyMaxIncrease, loadGateConfig, parseGateConfig, parseMaxIncrease };

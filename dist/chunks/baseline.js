import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, readFile } from 'node:fs/promises';
import path from 'node:path';
import { I as InputError, g as SchemaError, i as isEmptySnapshot, s as stableStringify, h as compareKeys } from './snapshot.js';
import { A as AjvModule } from './ajv.js';

var $schema = "http://json-schema.org/draft-07/schema#";
var description = "Baseline of ascend-memory-gate. A committed memory snapshot (the same shape as `ascend-memory-gate parse --json`) plus optional provenance. Written with sorted keys, 2-space indent and a trailing newline so that changes review well.";
var type = "object";
var additionalProperties = false;
var required = [
	"version",
	"modules",
	"kernels"
];
var properties = {
	$schema: {
		type: "string",
		description: "Path or URL of this schema, for editors."
	},
	version: {
		"const": 1
	},
	modules: {
		description: "Module memory statistics by key, e.g. DEV_MEM/dev0/APP or SVM_MEM/RUNTIME.",
		type: "object",
		additionalProperties: {
			$ref: "#/definitions/moduleMetric"
		}
	},
	kernels: {
		description: "Per-kernel memory_compare aggregates by key, e.g. dev0/aclnnMatmul_0.",
		type: "object",
		additionalProperties: {
			$ref: "#/definitions/kernelMetric"
		}
	},
	meta: {
		$ref: "#/definitions/meta"
	},
	source: {
		$ref: "#/definitions/source"
	}
};
var definitions = {
	bytes: {
		title: "a non-negative integer number of bytes (at most 2^53 - 1)",
		type: "integer",
		minimum: 0,
		maximum: 9007199254740991
	},
	signedBytes: {
		title: "an integer number of bytes, negative or not (at most 2^53 - 1 in size)",
		type: "integer",
		minimum: -9007199254740991,
		maximum: 9007199254740991
	},
	count: {
		title: "a non-negative integer",
		type: "integer",
		minimum: 0,
		maximum: 9007199254740991
	},
	countOrNull: {
		title: "a non-negative integer or null",
		type: [
			"integer",
			"null"
		],
		minimum: 0,
		maximum: 9007199254740991
	},
	moduleMetric: {
		type: "object",
		additionalProperties: false,
		required: [
			"peak",
			"current",
			"allocs",
			"frees"
		],
		properties: {
			peak: {
				$ref: "#/definitions/bytes"
			},
			current: {
				$ref: "#/definitions/bytes"
			},
			allocs: {
				$ref: "#/definitions/countOrNull"
			},
			frees: {
				$ref: "#/definitions/countOrNull"
			}
		}
	},
	kernelMetric: {
		type: "object",
		additionalProperties: false,
		required: [
			"diff",
			"rows",
			"added",
			"removed",
			"event"
		],
		properties: {
			diff: {
				$ref: "#/definitions/signedBytes"
			},
			rows: {
				$ref: "#/definitions/count"
			},
			added: {
				$ref: "#/definitions/count"
			},
			removed: {
				$ref: "#/definitions/count"
			},
			event: {
				title: "a string or null",
				type: [
					"string",
					"null"
				]
			}
		}
	},
	meta: {
		description: "Parse statistics of the run that last wrote this baseline.",
		type: "object",
		additionalProperties: false,
		required: [
			"files",
			"records",
			"skipped",
			"allocFailures"
		],
		properties: {
			files: {
				$ref: "#/definitions/count"
			},
			records: {
				$ref: "#/definitions/count"
			},
			skipped: {
				$ref: "#/definitions/count"
			},
			allocFailures: {
				type: "object",
				additionalProperties: {
					$ref: "#/definitions/count"
				}
			}
		}
	},
	source: {
		description: "Where this baseline came from. Extra fields are allowed.",
		type: "object",
		properties: {
			commit: {
				title: "a string",
				type: "string"
			},
			runId: {
				title: "a string or an integer",
				type: [
					"string",
					"integer"
				]
			},
			date: {
				title: "a string",
				type: "string",
				description: "ISO 8601 date-time, e.g. 2026-06-13T17:00:34Z."
			},
			repository: {
				title: "a string",
				type: "string",
				description: "owner/name."
			}
		}
	}
};
var baselineSchema = {
	$schema: $schema,
	description: description,
	type: type,
	additionalProperties: additionalProperties,
	required: required,
	properties: properties,
	definitions: definitions
};

// JSON input for configs and baselines: parse with line:column on syntax errors, validate with ajv, report the first bad field by JSON pointer.
// ajv is CommonJS with `exports.default = Ajv`: Node's ESM loader gives module.exports, rollup's commonjs plugin gives
// exports.default; both carry `.default`, so this resolves to the class either way.
const Ajv = AjvModule.default;
// One instance for every schema: verbose keeps the offending value and sub-schema for readable messages. Made on first
// use (~8 ms): importing this module, as every entry does, must not cost a run that validates nothing.
let ajv;
/**
 * Compiles a JSON Schema once, on first use, and returns a validator for documents of type T.
 * The caller asserts that T describes the schema; tests pin that with valid and invalid documents.
 */
function compileSchema(schema) {
    let validate;
    return (data, file) => {
        validate ??= (ajv ??= new Ajv({ allErrors: false, verbose: true, strict: true, allowUnionTypes: true, validateSchema: false })).compile(schema);
        if (validate(data))
            return data;
        const error = validate.errors?.[0];
        if (error === undefined)
            throw new SchemaError(file, '', 'does not match its schema');
        throw schemaErrorFrom(error, file);
    };
}
/**
 * Turns ajv's first error into a SchemaError whose pointer names the bad field itself, and whose reason reads as English.
 * Convention for our schemas: a sub-schema's `title` is a noun phrase ("a byte size: …") used as "must be <title>, got …".
 */
function schemaErrorFrom(error, file) {
    let pointer = error.instancePath;
    let reason;
    const schema = error.parentSchema;
    const title = typeof schema?.title === 'string' ? schema.title : undefined;
    switch (error.keyword) {
        case 'required': {
            pointer += `/${escapePointerSegment(String(error.params.missingProperty))}`;
            reason = 'required property is missing';
            break;
        }
        case 'additionalProperties': {
            pointer += `/${escapePointerSegment(String(error.params.additionalProperty))}`;
            const known = isRecord(schema?.properties) ? Object.keys(schema.properties) : [];
            reason = known.length > 0 ? `unknown property; expected one of: ${known.join(', ')}` : 'unknown property';
            break;
        }
        case 'enum': {
            const allowed = Array.isArray(error.params.allowedValues) ? error.params.allowedValues : [];
            reason = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(error.data)}`;
            break;
        }
        case 'const':
            reason = `must be ${JSON.stringify(error.params.allowedValue)}, got ${describeValue(error.data)}`;
            break;
        case 'type':
        case 'pattern':
        case 'minimum':
        case 'maximum':
        case 'exclusiveMinimum':
        case 'exclusiveMaximum':
        case 'minLength':
            // Our schemas write `title` as a noun phrase ("a byte size: …"), which says more than "must match pattern ^\s*\d+…".
            reason = `${title !== undefined ? `must be ${title}` : (error.message ?? 'is invalid')}, got ${describeValue(error.data)}`;
            break;
        default:
            reason = error.message ?? `fails "${error.keyword}"`;
    }
    // Escaped keys (DEV_MEM~1dev0~1APP) are hard to read: add the plain path too.
    if (pointer.includes('~'))
        reason += ` (at ${readablePath(pointer)})`;
    return new SchemaError(file, pointer, reason);
}
/** RFC 6901: `~` becomes `~0` and `/` becomes `~1`, so `DEV_MEM/dev0/APP` is one segment. */
function escapePointerSegment(segment) {
    return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
function unescapePointerSegment(segment) {
    return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
/** `/modules/DEV_MEM~1dev0~1APP/peak` → `modules["DEV_MEM/dev0/APP"].peak`. */
function readablePath(pointer) {
    let out = '';
    for (const raw of pointer.split('/').slice(1)) {
        const segment = unescapePointerSegment(raw);
        if (/^\d+$/.test(segment))
            out += `[${segment}]`;
        else if (/^[A-Za-z_$][\w$]*$/.test(segment))
            out += out === '' ? segment : `.${segment}`;
        else
            out += `[${JSON.stringify(segment)}]`;
    }
    return out;
}
function describeValue(value) {
    if (value === undefined)
        return 'nothing';
    const text = JSON.stringify(value);
    if (Array.isArray(value))
        return text.length <= 40 ? `array ${text}` : 'an array';
    if (value !== null && typeof value === 'object')
        return 'an object';
    return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}
function isRecord(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}
/**
 * Parses JSON text; a syntax error becomes an InputError `file:line:column: not valid JSON: reason`.
 * A UTF-8 BOM (files saved on Windows) is skipped, and columns count from after it.
 */
function parseJson(text, file) {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    try {
        return JSON.parse(body);
    }
    catch (err) {
        const found = locateJsonSyntaxError(body);
        if (found === null)
            throw new InputError(`${file}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
        const { line, column } = lineColumn(body, found.offset);
        throw new InputError(`${file}:${line}:${column}: not valid JSON: ${found.reason}`);
    }
}
/** 1-based line and column of a character offset; CRLF counts as one line break. */
function lineColumn(text, offset) {
    let line = 1;
    let lineStart = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
        line++;
        lineStart = i + 1;
    }
    return { line, column: offset - lineStart + 1 };
}
/**
 * Finds the first JSON syntax error and says what was expected there. Node 20's JSON.parse does not always give a
 * position ("Unexpected token 'x', ... is not valid JSON"), so this scanner runs only after JSON.parse has failed.
 */
function locateJsonSyntaxError(text) {
    let pos = 0;
    class Stop extends Error {
        syntax;
        constructor(syntax) {
            super(syntax.reason);
            this.syntax = syntax;
        }
    }
    const fail = (expected) => {
        // Show a whole bare word (warn, nope, NaN) rather than its first letter.
        const word = /^[A-Za-z0-9_$]{2,20}/.exec(text.slice(pos, pos + 20))?.[0];
        const found = pos >= text.length ? 'end of file' : JSON.stringify(word ?? text[pos]);
        throw new Stop({ offset: pos, reason: `expected ${expected}, found ${found}` });
    };
    const skipWhitespace = () => {
        while (pos < text.length && ' \t\n\r'.includes(text[pos]))
            pos++;
    };
    const literal = (word) => {
        if (text.startsWith(word, pos))
            pos += word.length;
        else
            fail('a JSON value');
    };
    const string = () => {
        pos++; // opening quote
        for (;;) {
            if (pos >= text.length)
                fail('a closing \'"\'');
            const code = text.charCodeAt(pos);
            if (code === 0x22) {
                pos++;
                return;
            }
            if (code < 0x20)
                fail('an escaped control character (\\n, \\t, ...) inside a string');
            if (code === 0x5c) {
                pos++;
                const esc = text[pos];
                if (esc === 'u') {
                    pos++;
                    for (let i = 0; i < 4; i++, pos++)
                        if (!/[0-9a-fA-F]/.test(text[pos] ?? ''))
                            fail('4 hex digits after \\u');
                    continue;
                }
                if (esc === undefined || !'"\\/bfnrt'.includes(esc))
                    fail('an escape such as \\" \\\\ \\n \\t or \\uXXXX');
            }
            pos++;
        }
    };
    const digits = (what) => {
        if (!/[0-9]/.test(text[pos] ?? ''))
            fail(what);
        while (/[0-9]/.test(text[pos] ?? ''))
            pos++;
    };
    const number = () => {
        if (text[pos] === '-')
            pos++;
        if (text[pos] === '0')
            pos++;
        else
            digits('a digit');
        if (text[pos] === '.') {
            pos++;
            digits('a digit after the decimal point');
        }
        if (text[pos] === 'e' || text[pos] === 'E') {
            pos++;
            if (text[pos] === '+' || text[pos] === '-')
                pos++;
            digits('a digit in the exponent');
        }
    };
    const value = () => {
        skipWhitespace();
        const ch = text[pos];
        if (ch === '{') {
            pos++;
            skipWhitespace();
            if (text[pos] === '}') {
                pos++;
                return;
            }
            for (;;) {
                skipWhitespace();
                if (text[pos] !== '"')
                    fail('a double-quoted property name');
                string();
                skipWhitespace();
                if (text[pos] !== ':')
                    fail('":" after a property name');
                pos++;
                value();
                skipWhitespace();
                if (text[pos] === ',') {
                    pos++;
                    continue;
                }
                if (text[pos] === '}') {
                    pos++;
                    return;
                }
                fail('"," or "}" after a property value');
            }
        }
        if (ch === '[') {
            pos++;
            skipWhitespace();
            if (text[pos] === ']') {
                pos++;
                return;
            }
            for (;;) {
                value();
                skipWhitespace();
                if (text[pos] === ',') {
                    pos++;
                    continue;
                }
                if (text[pos] === ']') {
                    pos++;
                    return;
                }
                fail('"," or "]" after an array element');
            }
        }
        if (ch === '"')
            return string();
        if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9'))
            return number();
        if (ch === 't')
            return literal('true');
        if (ch === 'f')
            return literal('false');
        if (ch === 'n')
            return literal('null');
        fail('a JSON value');
    };
    try {
        value();
        skipWhitespace();
        if (pos < text.length)
            fail('end of file after the JSON value');
        return null;
    }
    catch (err) {
        if (err instanceof Stop)
            return err.syntax;
        // Absurdly deep nesting overflows the stack: report no position rather than a wrong one.
        if (err instanceof RangeError)
            return null;
        throw err;
    }
}

// Committed baselines: read and validate (a corrupt one is an error, never "no baseline"), merge a run in, write deterministically and atomically.
const validateBaseline = compileSchema(baselineSchema);
/**
 * Reads a baseline. Returns null only when the file does not exist, so the caller decides what a first run means;
 * any other read error, invalid JSON or a schema violation throws an error naming the file.
 */
async function loadBaseline(file) {
    let text;
    try {
        text = await readFile(file, 'utf8');
    }
    catch (err) {
        if (errorCode(err) === 'ENOENT')
            return null;
        throw new InputError(`${file}: cannot read the baseline: ${err instanceof Error ? err.message : String(err)}`);
    }
    return parseBaseline(text, file);
}
/** Parses and validates baseline text; errors name the file and line:column (syntax) or JSON pointer (schema). */
function parseBaseline(text, file) {
    return validateBaseline(parseJson(text, file), file);
}
/**
 * Folds a run into a baseline. Keys of this run replace or add; keys absent from this run are KEPT unless `prune`
 * (a rank that failed to upload must not erase its baseline). `meta` becomes this run's; `source` becomes the one
 * given (omitted when none is). An empty run is refused with an InputError, so the file is never touched.
 */
function mergeBaseline(existing, run, options = {}) {
    if (isEmptySnapshot(run)) {
        throw new InputError('this run has no memory statistics: refusing to update the baseline from it (the baseline was left untouched)');
    }
    const changes = { added: [], changed: [], kept: [], pruned: [], unchanged: 0 };
    const prune = options.prune ?? false;
    const modules = mergeRecords(existing?.modules ?? {}, run.modules, prune, changes);
    const kernels = mergeRecords(existing?.kernels ?? {}, run.kernels, prune, changes);
    const baseline = {
        ...(existing?.$schema !== undefined ? { $schema: existing.$schema } : {}),
        version: 1,
        modules,
        kernels,
        meta: structuredClone(run.meta),
        ...(options.source !== undefined ? { source: structuredClone(options.source) } : {}),
    };
    return { baseline, changes };
}
function mergeRecords(existing, run, prune, changes) {
    const keys = [...new Set([...Object.keys(existing), ...Object.keys(run)])].sort(compareKeys);
    const merged = [];
    for (const key of keys) {
        const before = Object.hasOwn(existing, key) ? existing[key] : undefined;
        const after = Object.hasOwn(run, key) ? run[key] : undefined;
        if (after !== undefined) {
            if (before === undefined)
                changes.added.push(key);
            else if (stableStringify(before) === stableStringify(after))
                changes.unchanged++;
            else
                changes.changed.push(key);
            merged.push([key, { ...after }]);
        }
        else if (before !== undefined) {
            if (prune) {
                changes.pruned.push(key);
            }
            else {
                changes.kept.push(key);
                merged.push([key, { ...before }]);
            }
        }
    }
    // fromEntries defines own properties, so even a kernel named __proto__ stays a key.
    return Object.fromEntries(merged);
}
/** The committed form: sorted keys at every level, 2-space indent, trailing newline. Same input, same bytes. */
function serializeBaseline(baseline) {
    return stableStringify(baseline);
}
/**
 * Writes a baseline so that readers see the old file or the new one, never half of one: creates the directory,
 * writes a temporary file next to the target, fsyncs it and renames it over the target.
 */
async function writeBaselineAtomic(file, baseline) {
    const text = serializeBaseline(baseline);
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true });
    const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    let renamed = false;
    try {
        const handle = await open(temp, 'wx');
        try {
            await handle.writeFile(text, 'utf8');
            await handle.sync();
        }
        finally {
            await handle.close();
        }
        await rename(temp, file);
        renamed = true;
    }
    finally {
        if (!renamed)
            await rm(temp, { force: true });
    }
    await syncDirectory(dir);
}
/** Makes the rename itself durable. Windows cannot open a directory for fsync; there the rename is all we get. */
async function syncDirectory(dir) {
    let handle;
    try {
        handle = await open(dir, 'r');
    }
    catch (err) {
        if (['EISDIR', 'EPERM', 'EACCES'].includes(String(errorCode(err))))
            return;
        throw err;
    }
    try {
        await handle.sync();
    }
    catch (err) {
        // Some file systems (and Windows) refuse fsync on a directory; the data itself is already synced.
        if (!['EINVAL', 'EPERM', 'EBADF', 'EISDIR'].includes(String(errorCode(err))))
            throw err;
    }
    finally {
        await handle.close();
    }
}
function errorCode(err) {
    return err !== null && typeof err === 'object' && 'code' in err ? err.code : undefined;
}

var baseline = /*#__PURE__*/Object.freeze({
  __proto__: null,
  loadBaseline: loadBaseline,
  mergeBaseline: mergeBaseline,
  parseBaseline: parseBaseline,
  serializeBaseline: serializeBaseline,
  writeBaselineAtomic: writeBaselineAtomic
});

export { parseJson as a, baseline as b, compileSchema as c, loadBaseline as l, mergeBaseline as m, parseBaseline as p, serializeBaseline as s, writeBaselineAtomic as w };

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, readFile } from 'node:fs/promises';
import path from 'node:path';
import { I as InputError } from './errors.js';
import { p as parseJson, c as compileSchema } from './json-schema.js';
import { i as isEmptySnapshot, s as stableStringify, g as compareKeys } from './snapshot.js';
import './local.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './escape.js';
import 'node:os';
import 'node:worker_threads';
import 'node:fs';

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

export { loadBaseline, mergeBaseline, parseBaseline, serializeBaseline, writeBaselineAtomic };

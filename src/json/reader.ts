// JSON input for configs and baselines: parse with line:column on syntax errors, validate with ajv, report the first bad field by JSON pointer.
import AjvModule from 'ajv';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import { InputError, SchemaError } from '../common/errors.js';
import { SCHEMA_CHECKS } from './generated/schema-checks.js';
import { replaceControlCharacters } from '../common/visible.js';
import { CHECK_OPTIONS, schemaHash } from './schema-hash.js';

// ajv is CommonJS with `exports.default = Ajv`: Node's ESM loader gives module.exports, rollup's commonjs plugin gives
// exports.default; both carry `.default`, so this resolves to the class either way.
const Ajv = AjvModule.default;

// One instance for every schema: verbose keeps the offending value and sub-schema for readable messages. Made on first
// use (~8 ms): importing this module, as every entry does, must not cost a run that validates nothing.
let ajv: InstanceType<typeof Ajv> | undefined;

// At run time ajv compiles only to explain a document that a precompiled check (src/json/generated/schema-checks.js)
// rejected, or a schema with no precompiled check: inlineRefs off and no code optimization, since compiling a
// snapshot's or baseline's schema took ~90 ms with every $ref inlined and optimized, ~15 ms without.
const newAjv = (): InstanceType<typeof Ajv> =>
  new Ajv({ ...CHECK_OPTIONS, verbose: true, inlineRefs: false, code: { optimize: false } });

/** A compiled schema: returns the document typed as T, or throws a SchemaError naming the file and JSON pointer. */
export type SchemaValidator<T> = (data: unknown, file: string) => T;

/** Schemas a run had to compile for a yes/no answer because no precompiled check matched them (for the test that none does). */
export const compiledAtRunTime: AnySchemaObject[] = [];

/** The schema's check: precompiled when src/json/generated/schema-checks.js has it, else compiled by ajv on first use. */
function checkOf(schema: AnySchemaObject): () => (data: unknown) => boolean {
  const precompiled = SCHEMA_CHECKS[schemaHash(schema)];
  if (precompiled !== undefined) return () => precompiled;
  let validate: ValidateFunction | undefined;
  return () => {
    if (validate === undefined) {
      compiledAtRunTime.push(schema);
      validate = (ajv ??= newAjv()).compile(schema);
    }
    return validate;
  };
}

/**
 * A validator for documents of type T: the schema's check (precompiled, or compiled on first use), and for a document
 * it rejects, ajv compiled with verbose errors, whose first error becomes the message.
 * The caller asserts that T describes the schema; tests pin that with valid and invalid documents.
 */
export function compileSchema<T>(schema: AnySchemaObject): SchemaValidator<T> {
  const check = checkOf(schema);
  let explain: ValidateFunction<T> | undefined;
  return (data, file) => {
    if (check()(data)) return data as T;
    explain ??= (ajv ??= newAjv()).compile<T>(schema);
    if (explain(data)) return data;
    const error = explain.errors?.[0];
    if (error === undefined) throw new SchemaError(file, '', 'does not match its schema');
    throw schemaErrorFrom(error, file);
  };
}

/** A compiled schema as a yes/no check (the fast path of validators that explain a "no" otherwise). */
export function compileCheck(schema: AnySchemaObject): (data: unknown) => boolean {
  const check = checkOf(schema);
  return (data) => check()(data);
}

/**
 * Turns ajv's first error into a SchemaError whose pointer names the bad field itself, and whose reason reads as English.
 * Convention for our schemas: a sub-schema's `title` is a noun phrase ("a byte size: …") used as "must be <title>, got …".
 */
function schemaErrorFrom(error: ErrorObject, file: string): SchemaError {
  let pointer = error.instancePath;
  let reason: string;
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
      reason = `must be one of ${allowed.map((v: unknown) => JSON.stringify(v)).join(', ')}, got ${describeValue(error.data)}`;
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
      // A size without its unit ("5": 5 bytes or 5%?) says how to write either.
      if (
        title !== undefined &&
        /byte size/.test(title) &&
        (error.keyword === 'pattern' || error.keyword === 'maximum')
      ) {
        const digits = typeof error.data === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*$/.exec(error.data)?.[1] : undefined;
        const bare =
          typeof error.data === 'number'
            ? error.data > 0 && Number.isSafeInteger(error.data)
              ? String(error.data)
              : null
            : digits !== undefined && Number(digits) !== 0
              ? digits
              : null;
        if (bare !== null) {
          const share = /share/.test(title);
          reason = `${describeValue(error.data)} has no unit: write ${share ? `"${bare}%" for a share of the capacity or "${bare}B" for bytes` : `"${bare}B" for bytes, or a unit such as "${bare}MiB"`}`;
          break;
        }
      }
      // Our schemas write `title` as a noun phrase ("a byte size: …"), which says more than "must match pattern ^\s*\d+…".
      reason = `${title !== undefined ? `must be ${title}` : (error.message ?? 'is invalid')}, got ${describeValue(error.data)}`;
      break;
    default:
      reason = error.message ?? `fails "${error.keyword}"`;
  }
  // Escaped keys (DEV_MEM~1dev0~1APP) are hard to read: add the plain path too.
  if (pointer.includes('~')) reason += ` (at ${readablePath(pointer)})`;
  return new SchemaError(file, shownPointer(pointer), reason);
}

/** Keys in a pointer may come from an untrusted upload: control characters made visible, the length bounded. */
function shownPointer(pointer: string): string {
  const shown = replaceControlCharacters(pointer);
  return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
}

/** RFC 6901: `~` becomes `~0` and `/` becomes `~1`, so `DEV_MEM/dev0/APP` is one segment. */
function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `/modules/DEV_MEM~1dev0~1APP/peak` → `modules["DEV_MEM/dev0/APP"].peak`. */
function readablePath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = unescapePointerSegment(raw);
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  if (Array.isArray(value)) return text.length <= 40 ? `array ${text}` : 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Objects and arrays may nest this deep in configs, baselines and reports; ours use fewer than 10 levels. */
export const MAX_JSON_DEPTH = 100;

/**
 * Parses JSON text strictly; every problem is an InputError naming the file and line:column: a syntax error, a key
 * given twice in one object (JSON.parse keeps the last silently, so a merge that kept both halves of `"modules": {…}`
 * would erase the first), or nesting deeper than MAX_JSON_DEPTH (which would overflow recursive code further on).
 * A UTF-8 BOM (files saved on Windows) is skipped, and columns count from after it.
 */
export function parseJson(text: string, file: string, countKeys: (value: unknown) => number = countJsonKeys): unknown {
  return parseJsonCounted(text, file, countKeys).value;
}

/**
 * parseJson, also saying whether the text holds exactly as many keys as `countKeys` counted in the value. A caller
 * whose count assumes something of the value (a metric has exactly its declared fields) learns from `keysCounted` that
 * the assumption held: a key the count left out would be one more key token in the text.
 */
export function parseJsonCounted(
  text: string,
  file: string,
  countKeys: (value: unknown) => number,
): { value: unknown; keysCounted: boolean } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    throw (
      strictProblem(body, file) ??
      new InputError(`${file}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`)
    );
  }
  // The fast check: native JSON.parse, then one walk of the result. When the text holds as many key tokens as the
  // parsed objects hold keys, no key was given twice; only a mismatch (a duplicate, or `":` inside a string value) or
  // deep nesting pays for the scanner, which then names the line:column (or finds nothing wrong).
  if (keyTokens(body) === countKeys(value)) return { value, keysCounted: true };
  const problem = strictProblem(body, file);
  if (problem !== null) throw problem;
  return { value, keysCounted: false };
}

/** The strict scanner's first problem as an InputError naming file:line:column, or null. */
function strictProblem(body: string, file: string): InputError | null {
  const problem = scanJson(body, { strict: true });
  if (problem === null) return null;
  const { line, column } = lineColumn(body, problem.offset);
  return new InputError(
    `${file}:${line}:${column}: ${problem.kind === 'syntax' ? 'not valid JSON: ' : ''}${problem.reason}`,
  );
}

/**
 * An upper bound of the object keys written in JSON text: every key is a string followed by optional whitespace and a
 * colon, so it ends in `"` + whitespace + `:`; the same characters inside a string value only add to the count.
 */
export function keyTokens(text: string): number {
  // Counted from each colon back over whitespace to a quote (the matches of /"[ \t\r\n]*:/g, one per colon): colons
  // are about one per key, and indexOf finds them ~3x faster than that regex runs over a 24 MB baseline.
  let count = 0;
  for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
    let i = colon - 1;
    let c = text.charCodeAt(i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(--i);
    if (c === 0x22) count++;
  }
  return count;
}

/**
 * Keys of every object in a parsed JSON value, counted without recursion; -1 when containers nest close to
 * MAX_JSON_DEPTH (the scanner then decides, and says where). A caller that walks the document anyway may count instead
 * (parseJson's `countKeys`), as long as it counts exactly these keys.
 */
export function countJsonKeys(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const item = stack.pop();
    const depth = depths.pop() as number;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH - 1) return -1;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const element: unknown = item[i];
        if (element !== null && typeof element === 'object') {
          stack.push(element);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in item) {
      count++;
      const member = (item as Record<string, unknown>)[key];
      if (member !== null && typeof member === 'object') {
        stack.push(member);
        depths.push(depth + 1);
      }
    }
  }
  return count;
}

/** 1-based line and column of a character offset; CRLF counts as one line break. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

export interface JsonProblem {
  kind: 'syntax' | 'duplicate' | 'depth';
  offset: number;
  reason: string;
}

/** The first syntax error, with what was expected there; null when JSON.parse accepts the text. */
export function locateJsonSyntaxError(text: string): JsonProblem | null {
  return scanJson(text, { strict: false });
}

interface Container {
  object: boolean;
  /**
   * Keys seen so far and where they start, for objects when strict: in two parallel lists while the object is small
   * (most are: a metric has ~5 keys), moved into a Map once it holds more than SMALL_OBJECT keys.
   */
  names: string[] | null;
  starts: number[];
  keys: Map<string, number> | null;
  /** Elements seen so far, for arrays (the pointer segment of the next one). */
  index: number;
}

/** Objects up to this many keys are checked for duplicates by a linear search, larger ones through a Map. */
const SMALL_OBJECT = 8;

/** Where the key `name` first started in this object, or undefined when it is new. */
function firstStart(container: Container, name: string): number | undefined {
  if (container.keys !== null) return container.keys.get(name);
  const names = container.names as string[];
  const i = names.indexOf(name);
  return i === -1 ? undefined : container.starts[i];
}

function addKey(container: Container, name: string, start: number): void {
  if (container.keys !== null) {
    container.keys.set(name, start);
    return;
  }
  const names = container.names as string[];
  names.push(name);
  container.starts.push(start);
  if (names.length > SMALL_OBJECT) {
    container.keys = new Map(names.map((n, i) => [n, container.starts[i] as number]));
    names.length = 0;
    container.starts.length = 0;
  }
}

const enum Next {
  Value,
  AfterValue,
}

/**
 * One pass over JSON text, iterative (a stack of containers, no recursion: 100,000 `[` cannot overflow anything),
 * finding the first syntax error and, when strict, the first duplicate key or nesting past MAX_JSON_DEPTH.
 */
export function scanJson(text: string, options: { strict: boolean }): JsonProblem | null {
  const n = text.length;
  let pos = 0;
  const stack: Container[] = [];
  /** The pointer segment of each open container's current member, for messages. */
  const segments: string[] = [];
  let problem: JsonProblem | null = null;

  const fail = (expected: string): null => {
    // Show a whole bare word (warn, nope, NaN) rather than its first letter.
    const word = /^[A-Za-z0-9_$]{2,20}/.exec(text.slice(pos, pos + 20))?.[0];
    const found = pos >= n ? 'end of file' : JSON.stringify(word ?? text[pos]);
    problem = { kind: 'syntax', offset: pos, reason: `expected ${expected}, found ${found}` };
    return null;
  };
  const skipWhitespace = (): void => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else return;
    }
  };
  const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
  const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
  /** Consumes a string at `pos` (on its opening quote); false after fail(). */
  const string = (): boolean => {
    pos++;
    for (;;) {
      if (pos >= n) return fail("a closing '\"'") ?? false;
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        pos++;
        return true;
      }
      if (c < 0x20) return fail('an escaped control character (\\n, \\t, ...) inside a string') ?? false;
      if (c === 0x5c) {
        pos++;
        const e = text.charCodeAt(pos);
        if (e === 0x75) {
          pos++;
          for (let i = 0; i < 4; i++, pos++)
            if (!isHex(text.charCodeAt(pos))) return fail('4 hex digits after \\u') ?? false;
          continue;
        }
        // " \ / b f n r t
        if (!(
          e === 0x22 ||
          e === 0x5c ||
          e === 0x2f ||
          e === 0x62 ||
          e === 0x66 ||
          e === 0x6e ||
          e === 0x72 ||
          e === 0x74
        )) {
          return fail('an escape such as \\" \\\\ \\n \\t or \\uXXXX') ?? false;
        }
      }
      pos++;
    }
  };
  const digits = (what: string): boolean => {
    if (!isDigit(text.charCodeAt(pos))) return fail(what) ?? false;
    while (isDigit(text.charCodeAt(pos))) pos++;
    return true;
  };
  const number = (): boolean => {
    if (text.charCodeAt(pos) === 0x2d) pos++;
    if (text.charCodeAt(pos) === 0x30) pos++;
    else if (!digits('a digit')) return false;
    if (text.charCodeAt(pos) === 0x2e) {
      pos++;
      if (!digits('a digit after the decimal point')) return false;
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      if (!digits('a digit in the exponent')) return false;
    }
    return true;
  };
  const literal = (word: string): boolean => {
    if (!text.startsWith(word, pos)) return fail('a JSON value') ?? false;
    pos += word.length;
    return true;
  };
  const open = (object: boolean): boolean => {
    if (options.strict && stack.length >= MAX_JSON_DEPTH) {
      problem = {
        kind: 'depth',
        offset: pos,
        reason: `JSON nested deeper than ${MAX_JSON_DEPTH} levels: no configuration, baseline or report needs that many`,
      };
      return false;
    }
    stack.push({ object, names: object && options.strict ? [] : null, starts: [], keys: null, index: 0 });
    pos++;
    return true;
  };
  /** After `{` or `,` in an object: a key, its colon; false after a problem. */
  const key = (container: Container): boolean => {
    skipWhitespace();
    if (text.charCodeAt(pos) !== 0x22) return fail('a double-quoted property name') ?? false;
    const start = pos;
    if (!string()) return false;
    if (container.names !== null) {
      const raw = text.slice(start + 1, pos - 1);
      const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      const first = firstStart(container, name);
      if (first !== undefined) {
        const at = lineColumn(text, first);
        const where = `/${[...segments, name].map(escapePointerSegment).join('/')}`;
        problem = {
          kind: 'duplicate',
          offset: start,
          reason: `duplicate key ${JSON.stringify(name)} at ${where} (first at ${at.line}:${at.column}): JSON keeps only the last one, so keep one of them (a merge conflict resolved by keeping both halves?)`,
        };
        return false;
      }
      addKey(container, name, start);
      segments.push(name);
    } else {
      segments.push('');
    }
    skipWhitespace();
    if (text.charCodeAt(pos) !== 0x3a) return fail('":" after a property name') ?? false;
    pos++;
    return true;
  };

  let next = Next.Value;
  while (problem === null) {
    if (next === Next.Value) {
      skipWhitespace();
      const c = text.charCodeAt(pos);
      if (c === 0x7b) {
        if (!open(true)) break;
        skipWhitespace();
        if (text.charCodeAt(pos) === 0x7d) {
          pos++;
          stack.pop();
          next = Next.AfterValue;
        } else if (!key(stack[stack.length - 1] as Container)) break;
        continue;
      }
      if (c === 0x5b) {
        if (!open(false)) break;
        skipWhitespace();
        if (text.charCodeAt(pos) === 0x5d) {
          pos++;
          stack.pop();
          next = Next.AfterValue;
        } else segments.push('0');
        continue;
      }
      let ok: boolean;
      if (c === 0x22) ok = string();
      else if (c === 0x2d || isDigit(c)) ok = number();
      else if (c === 0x74) ok = literal('true');
      else if (c === 0x66) ok = literal('false');
      else if (c === 0x6e) ok = literal('null');
      else ok = fail('a JSON value') ?? false;
      if (!ok) break;
      next = Next.AfterValue;
      continue;
    }
    // After a value: the end of the document, or a separator or closer in the open container.
    skipWhitespace();
    const container = stack[stack.length - 1];
    if (container === undefined) {
      if (pos < n) fail('end of file after the JSON value');
      break;
    }
    const c = text.charCodeAt(pos);
    if (container.object) {
      if (c === 0x2c) {
        pos++;
        segments.pop();
        if (!key(container)) break;
        next = Next.Value;
      } else if (c === 0x7d) {
        pos++;
        segments.pop();
        stack.pop();
      } else fail('"," or "}" after a property value');
    } else if (c === 0x2c) {
      pos++;
      segments[segments.length - 1] = String(++container.index);
      next = Next.Value;
    } else if (c === 0x5d) {
      pos++;
      segments.pop();
      stack.pop();
    } else fail('"," or "]" after an array element');
  }
  return problem;
}

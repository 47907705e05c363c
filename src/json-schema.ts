// JSON input for configs and baselines: parse with line:column on syntax errors, validate with ajv, report the first bad field by JSON pointer.
import AjvModule from 'ajv';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import { InputError, SchemaError } from './errors.js';
import { replaceControlCharacters } from './report/escape.js';

// ajv is CommonJS with `exports.default = Ajv`: Node's ESM loader gives module.exports, rollup's commonjs plugin gives
// exports.default; both carry `.default`, so this resolves to the class either way.
const Ajv = AjvModule.default;

// One instance for every schema: verbose keeps the offending value and sub-schema for readable messages. Made on first
// use (~8 ms): importing this module, as every entry does, must not cost a run that validates nothing.
let ajv: InstanceType<typeof Ajv> | undefined;

/** A compiled schema: returns the document typed as T, or throws a SchemaError naming the file and JSON pointer. */
export type SchemaValidator<T> = (data: unknown, file: string) => T;

/**
 * Compiles a JSON Schema once, on first use, and returns a validator for documents of type T.
 * The caller asserts that T describes the schema; tests pin that with valid and invalid documents.
 */
export function compileSchema<T>(schema: AnySchemaObject): SchemaValidator<T> {
  let validate: ValidateFunction<T> | undefined;
  return (data, file) => {
    validate ??= (ajv ??= new Ajv({ allErrors: false, verbose: true, strict: true, allowUnionTypes: true, validateSchema: false })).compile<T>(schema);
    if (validate(data)) return data;
    const error = validate.errors?.[0];
    if (error === undefined) throw new SchemaError(file, '', 'does not match its schema');
    throw schemaErrorFrom(error, file);
  };
}

/**
 * Turns ajv's first error into a SchemaError whose pointer names the bad field itself, and whose reason reads as English.
 * Convention for our schemas: a sub-schema's `title` is a noun phrase ("a byte size: …") used as "must be <title>, got …".
 */
export function schemaErrorFrom(error: ErrorObject, file: string): SchemaError {
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
export function escapePointerSegment(segment: string): string {
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

/**
 * Parses JSON text; a syntax error becomes an InputError `file:line:column: not valid JSON: reason`.
 * A UTF-8 BOM (files saved on Windows) is skipped, and columns count from after it.
 */
export function parseJson(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (err) {
    const found = locateJsonSyntaxError(body);
    if (found === null) throw new InputError(`${file}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    const { line, column } = lineColumn(body, found.offset);
    throw new InputError(`${file}:${line}:${column}: not valid JSON: ${found.reason}`);
  }
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

interface JsonSyntaxError {
  offset: number;
  reason: string;
}

/**
 * Finds the first JSON syntax error and says what was expected there. Node 20's JSON.parse does not always give a
 * position ("Unexpected token 'x', ... is not valid JSON"), so this scanner runs only after JSON.parse has failed.
 */
export function locateJsonSyntaxError(text: string): JsonSyntaxError | null {
  let pos = 0;

  class Stop extends Error {
    constructor(readonly syntax: JsonSyntaxError) {
      super(syntax.reason);
    }
  }
  const fail = (expected: string): never => {
    // Show a whole bare word (warn, nope, NaN) rather than its first letter.
    const word = /^[A-Za-z0-9_$]{2,20}/.exec(text.slice(pos, pos + 20))?.[0];
    const found = pos >= text.length ? 'end of file' : JSON.stringify(word ?? text[pos]);
    throw new Stop({ offset: pos, reason: `expected ${expected}, found ${found}` });
  };
  const skipWhitespace = (): void => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos] as string)) pos++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, pos)) pos += word.length;
    else fail('a JSON value');
  };
  const string = (): void => {
    pos++; // opening quote
    for (;;) {
      if (pos >= text.length) fail('a closing \'"\'');
      const code = text.charCodeAt(pos);
      if (code === 0x22) {
        pos++;
        return;
      }
      if (code < 0x20) fail('an escaped control character (\\n, \\t, ...) inside a string');
      if (code === 0x5c) {
        pos++;
        const esc = text[pos];
        if (esc === 'u') {
          pos++;
          for (let i = 0; i < 4; i++, pos++) if (!/[0-9a-fA-F]/.test(text[pos] ?? '')) fail('4 hex digits after \\u');
          continue;
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) fail('an escape such as \\" \\\\ \\n \\t or \\uXXXX');
      }
      pos++;
    }
  };
  const digits = (what: string): void => {
    if (!/[0-9]/.test(text[pos] ?? '')) fail(what);
    while (/[0-9]/.test(text[pos] ?? '')) pos++;
  };
  const number = (): void => {
    if (text[pos] === '-') pos++;
    if (text[pos] === '0') pos++;
    else digits('a digit');
    if (text[pos] === '.') {
      pos++;
      digits('a digit after the decimal point');
    }
    if (text[pos] === 'e' || text[pos] === 'E') {
      pos++;
      if (text[pos] === '+' || text[pos] === '-') pos++;
      digits('a digit in the exponent');
    }
  };
  const value = (): void => {
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
        if (text[pos] !== '"') fail('a double-quoted property name');
        string();
        skipWhitespace();
        if (text[pos] !== ':') fail('":" after a property name');
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
    if (ch === '"') return string();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    fail('a JSON value');
  };

  try {
    value();
    skipWhitespace();
    if (pos < text.length) fail('end of file after the JSON value');
    return null;
  } catch (err) {
    if (err instanceof Stop) return err.syntax;
    // Absurdly deep nesting overflows the stack: report no position rather than a wrong one.
    if (err instanceof RangeError) return null;
    throw err;
  }
}

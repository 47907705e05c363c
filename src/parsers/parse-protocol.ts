// The messages between collect.ts and its parse workers (parse-worker.ts), and errors as plain data across threads.
import { InputError, ParseError, SchemaError, UsageError } from '../common/errors.js';
import type { BuilderState } from '../model/snapshot.js';
import type { InputFile } from '../sources/types.js';

/** An evidence source's name (src/parsers/evidence-sources.ts). */
type InputKind = string;

/** Main thread → worker: parse one whole file into a fresh SnapshotBuilder. */
export interface ParseTask {
  /** The file's index in the sequential order (each source's files, in registry order). */
  index: number;
  kind: InputKind;
  file: InputFile;
}

/** Worker → main thread: the file's builder state, or the error that stopped it. */
export type ParseResult =
  { index: number; ok: true; state: BuilderState } | { index: number; ok: false; error: SerializedError };

/** Worker → main thread: first `ready` (its modules are loaded, send tasks), then one result per task. */
export type WorkerMessage = { ready: true } | ParseResult;

/** An Error as structured-clonable data: enough to rebuild the same class and message on the other side. */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** ParseError's parts (its message is built from them). */
  file?: string;
  line?: number;
  reason?: string;
  /** SchemaError's pointer. */
  pointer?: string;
  /** Node system errors (ENOENT, EISDIR, …): code, errno, syscall, path. */
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const out: SerializedError = { name: error.name, message: error.message };
  if (error.stack !== undefined) out.stack = error.stack;
  if (error instanceof ParseError) {
    out.name = 'ParseError';
    out.file = error.file;
    out.line = error.line;
    out.reason = error.reason;
  } else if (error instanceof SchemaError) {
    out.name = 'SchemaError';
    out.file = error.file;
    out.pointer = error.pointer;
    out.reason = error.reason;
  } else if (error instanceof InputError) {
    out.name = 'InputError';
  } else if (error instanceof UsageError) {
    out.name = 'UsageError';
  }
  const sys = error as Partial<Record<'code' | 'errno' | 'syscall' | 'path', unknown>>;
  if (typeof sys.code === 'string') out.code = sys.code;
  if (typeof sys.errno === 'number') out.errno = sys.errno;
  if (typeof sys.syscall === 'string') out.syscall = sys.syscall;
  if (typeof sys.path === 'string') out.path = sys.path;
  return out;
}

/** The same class and message as in the worker, so that the CLI and the Action report it exactly as in-process. */
export function deserializeError(e: SerializedError): Error {
  let error: Error;
  if (e.name === 'ParseError' && e.file !== undefined && e.line !== undefined && e.reason !== undefined) {
    error = new ParseError(e.file, e.line, e.reason);
  } else if (e.name === 'SchemaError' && e.file !== undefined && e.pointer !== undefined && e.reason !== undefined) {
    error = new SchemaError(e.file, e.pointer, e.reason);
  } else if (e.name === 'InputError') {
    error = new InputError(e.message);
  } else if (e.name === 'UsageError') {
    error = new UsageError(e.message);
  } else {
    error = new Error(e.message);
    error.name = e.name;
  }
  const sys = error as Error & Partial<Record<'code' | 'errno' | 'syscall' | 'path', unknown>>;
  if (e.code !== undefined) sys.code = e.code;
  if (e.errno !== undefined) sys.errno = e.errno;
  if (e.syscall !== undefined) sys.syscall = e.syscall;
  if (e.path !== undefined) sys.path = e.path;
  // The worker's stack says where it failed; the main thread's would only show the message loop.
  if (e.stack !== undefined) error.stack = e.stack;
  return error;
}

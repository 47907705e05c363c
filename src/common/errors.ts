// Error types that carry where bad input came from, so every message names the file and line or JSON pointer.
import { visible } from './visible.js';

/** Bad input data: a file that cannot be parsed, a corrupt baseline. Exit code 2. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** A parse error at a known file and 1-based line. */
export class ParseError extends InputError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'ParseError';
  }
}

/** A JSON document that failed its schema, with the JSON pointer of the bad field. */
export class SchemaError extends InputError {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${file}: ${pointer || '/'}: ${reason}`);
    this.name = 'SchemaError';
  }
}

/** Wrong command-line arguments or Action inputs. Exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What file-system errors mean to the user, by code. */
const ERRNO_ADVICE: Record<string, string> = {
  ENOENT: 'no such file or folder (does its folder exist?)',
  EACCES: 'permission denied (check its permissions)',
  EPERM: 'operation not permitted (check its permissions)',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EIO: 'input/output error (a failing disk or network mount?)',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  ELOOP: 'too many symbolic links (a loop?)',
  ENAMETOOLONG: 'the path is too long',
  EEXIST: 'a file is in the way (a folder was needed there)',
};

/** A Node file-system error (it has a `code` and usually a `path`), as one line: `path: meaning (CODE)`. */
export function fileSystemFailure(error: unknown, file?: string): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path, syscall } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return undefined;
  const advice = ERRNO_ADVICE[code] ?? error.message;
  return `${path ?? file ?? syscall ?? 'file system'}: cannot ${syscall ?? 'access'} it: ${advice} (${code})`;
}

/** An expected failure: bad input or usage, GitHub refusing, a file that cannot be read or written. */
function isExpectedFailure(error: unknown): boolean {
  return error instanceof InputError || error instanceof UsageError || fileSystemFailure(error) !== undefined;
}

/**
 * The one line every failure is reported as, CLI and Action alike: expected failures say what and where; anything
 * else is an internal error. Control characters are made visible (a file name can hold ESC). The stack comes only
 * when asked for (`--debug`, ACTIONS_STEP_DEBUG / RUNNER_DEBUG), after the line.
 */
export function failureText(error: unknown, debug: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = fileSystemFailure(error) ?? (isExpectedFailure(error) ? message : `internal error: ${message}`);
  const shown = visible(line);
  if (!debug || !(error instanceof Error) || error.stack === undefined) return shown;
  return `${shown}\n${visible(error.stack, true)}`;
}

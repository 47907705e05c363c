// Error types that carry where bad input came from, so every message names the file and line or JSON pointer.

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

// Error types that carry where bad input came from, so every message names the file and line or JSON pointer.
/** Bad input data: a file that cannot be parsed, a corrupt baseline. Exit code 2. */
class InputError extends Error {
    constructor(message) {
        super(message);
        this.name = 'InputError';
    }
}
/** A parse error at a known file and 1-based line. */
class ParseError extends InputError {
    file;
    line;
    reason;
    constructor(file, line, reason) {
        super(`${file}:${line}: ${reason}`);
        this.file = file;
        this.line = line;
        this.reason = reason;
        this.name = 'ParseError';
    }
}
/** A JSON document that failed its schema, with the JSON pointer of the bad field. */
class SchemaError extends InputError {
    file;
    pointer;
    reason;
    constructor(file, pointer, reason) {
        super(`${file}: ${pointer || '/'}: ${reason}`);
        this.file = file;
        this.pointer = pointer;
        this.reason = reason;
        this.name = 'SchemaError';
    }
}
/** Wrong command-line arguments or Action inputs. Exit code 2. */
class UsageError extends Error {
    constructor(message) {
        super(message);
        this.name = 'UsageError';
    }
}

export { InputError as I, ParseError as P, SchemaError as S, UsageError as U };

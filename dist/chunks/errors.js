// Makes control and invisible characters visible, for every message and report that shows text read from a file.
/**
 * C0 controls, DEL, C1 controls, line/paragraph separators, zero-width and bidi-override characters, lone surrogates:
 * each would break a table row, drive a terminal (ESC) or make one key look like another (Trojan Source).
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]/gu;
/** Shows invisible and control characters: `\n` → `␊`, ESC → `␛`, U+202E → `⟨U+202E⟩`. */
function replaceControlCharacters(text) {
    return text.replace(INVISIBLE, (ch) => {
        const code = ch.charCodeAt(0);
        // C0 controls and DEL have one-column "control pictures" (U+2400…U+2421); the rest get their code point.
        if (code < 0x20)
            return String.fromCharCode(0x2400 + code);
        if (code === 0x7f)
            return '\u2421';
        return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
    });
}
/** Control and invisible characters made visible, as the reports show them; newlines kept when asked (a stack). */
function visible(text, keepNewlines = false) {
    return keepNewlines ? text.split('\n').map(replaceControlCharacters).join('\n') : replaceControlCharacters(text);
}

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
/** What file-system errors mean to the user, by code. */
const ERRNO_ADVICE = {
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
};
/** A Node file-system error (it has a `code` and usually a `path`), as one line: `path: meaning (CODE)`. */
function fileSystemFailure(error, file) {
    if (!(error instanceof Error))
        return undefined;
    const { code, path, syscall } = error;
    if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code))
        return undefined;
    const advice = ERRNO_ADVICE[code] ?? error.message;
    return `${path ?? file ?? syscall ?? 'file system'}: cannot ${syscall ?? 'access'} it: ${advice} (${code})`;
}
/** An expected failure: bad input or usage, GitHub refusing, a file that cannot be read or written. */
function isExpectedFailure(error) {
    return error instanceof InputError || error instanceof UsageError || fileSystemFailure(error) !== undefined;
}
/**
 * The one line every failure is reported as, CLI and Action alike: expected failures say what and where; anything
 * else is an internal error. Control characters are made visible (a file name can hold ESC). The stack comes only
 * when asked for (`--debug`, ACTIONS_STEP_DEBUG / RUNNER_DEBUG), after the line.
 */
function failureText(error, debug) {
    const message = error instanceof Error ? error.message : String(error);
    const line = fileSystemFailure(error) ?? (isExpectedFailure(error) ? message : `internal error: ${message}`);
    const shown = visible(line);
    if (!debug || !(error instanceof Error) || error.stack === undefined)
        return shown;
    return `${shown}\n${visible(error.stack, true)}`;
}

var errors = /*#__PURE__*/Object.freeze({
    __proto__: null,
    InputError: InputError,
    ParseError: ParseError,
    SchemaError: SchemaError,
    UsageError: UsageError,
    failureText: failureText,
    fileSystemFailure: fileSystemFailure,
    isExpectedFailure: isExpectedFailure
});

export { InputError as I, ParseError as P, SchemaError as S, UsageError as U, fileSystemFailure as a, errors as e, failureText as f, replaceControlCharacters as r, visible as v };

const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]/gu;
function replaceControlCharacters(text) {
    return text.replace(INVISIBLE, (ch) => {
        const code = ch.charCodeAt(0);
        if (code < 0x20)
            return String.fromCharCode(0x2400 + code);
        if (code === 0x7f)
            return '\u2421';
        return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
    });
}
function visible(text, keepNewlines = false) {
    return keepNewlines ? text.split('\n').map(replaceControlCharacters).join('\n') : replaceControlCharacters(text);
}

var visible$1 = /*#__PURE__*/Object.freeze({
    __proto__: null,
    replaceControlCharacters: replaceControlCharacters,
    visible: visible
});

class InputError extends Error {
    constructor(message) {
        super(message);
        this.name = 'InputError';
    }
}
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
class UsageError extends Error {
    constructor(message) {
        super(message);
        this.name = 'UsageError';
    }
}
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
    EEXIST: 'a file is in the way (a folder was needed there)',
};
function fileSystemFailure(error, file) {
    if (!(error instanceof Error))
        return undefined;
    const { code, path, syscall } = error;
    if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code))
        return undefined;
    const advice = ERRNO_ADVICE[code] ?? error.message;
    return `${path ?? file ?? syscall ?? 'file system'}: cannot ${syscall ?? 'access'} it: ${advice} (${code})`;
}
function isExpectedFailure(error) {
    return error instanceof InputError || error instanceof UsageError || fileSystemFailure(error) !== undefined;
}
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
    fileSystemFailure: fileSystemFailure
});

export { InputError as I, ParseError as P, SchemaError as S, UsageError as U, fileSystemFailure as a, visible$1 as b, errors as e, failureText as f, replaceControlCharacters as r, visible as v };

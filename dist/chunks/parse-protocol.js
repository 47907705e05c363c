import { P as ParseError, S as SchemaError, I as InputError, U as UsageError } from './errors.js';

function serializeError(error) {
    if (!(error instanceof Error))
        return { name: 'Error', message: String(error) };
    const out = { name: error.name, message: error.message };
    if (error.stack !== undefined)
        out.stack = error.stack;
    if (error instanceof ParseError) {
        out.name = 'ParseError';
        out.file = error.file;
        out.line = error.line;
        out.reason = error.reason;
    }
    else if (error instanceof SchemaError) {
        out.name = 'SchemaError';
        out.file = error.file;
        out.pointer = error.pointer;
        out.reason = error.reason;
    }
    else if (error instanceof InputError) {
        out.name = 'InputError';
    }
    else if (error instanceof UsageError) {
        out.name = 'UsageError';
    }
    const sys = error;
    if (typeof sys.code === 'string')
        out.code = sys.code;
    if (typeof sys.errno === 'number')
        out.errno = sys.errno;
    if (typeof sys.syscall === 'string')
        out.syscall = sys.syscall;
    if (typeof sys.path === 'string')
        out.path = sys.path;
    return out;
}
function deserializeError(e) {
    let error;
    if (e.name === 'ParseError' && e.file !== undefined && e.line !== undefined && e.reason !== undefined) {
        error = new ParseError(e.file, e.line, e.reason);
    }
    else if (e.name === 'SchemaError' && e.file !== undefined && e.pointer !== undefined && e.reason !== undefined) {
        error = new SchemaError(e.file, e.pointer, e.reason);
    }
    else if (e.name === 'InputError') {
        error = new InputError(e.message);
    }
    else if (e.name === 'UsageError') {
        error = new UsageError(e.message);
    }
    else {
        error = new Error(e.message);
        error.name = e.name;
    }
    const sys = error;
    if (e.code !== undefined)
        sys.code = e.code;
    if (e.errno !== undefined)
        sys.errno = e.errno;
    if (e.syscall !== undefined)
        sys.syscall = e.syscall;
    if (e.path !== undefined)
        sys.path = e.path;
    if (e.stack !== undefined)
        error.stack = e.stack;
    return error;
}

export { deserializeError as d, serializeError as s };

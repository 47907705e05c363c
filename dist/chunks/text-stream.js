import { isAscii } from 'node:buffer';
import { createReadStream, openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, gunzipSync } from 'node:zlib';
import { I as InputError } from './errors.js';

function isGzip(name) {
    return /\.gz$/i.test(name);
}
function gzipFailure(name, error) {
    const code = error?.code;
    const why = code === 'Z_BUF_ERROR' || /unexpected end/i.test(String(error?.message))
        ? 'the gzip stream ends early (cut short while it was written or copied)'
        : `not a readable gzip file (${error instanceof Error ? error.message : String(error)})`;
    return new InputError(`${name}: ${why}: compress it again, or give the file uncompressed`);
}
async function* gunzipChunks(path, name, chunkBytes) {
    const source = createReadStream(path);
    const stream = createGunzip({ chunkSize: Math.min(64 * 1024, Math.max(64, chunkBytes)) });
    source.on('error', (error) => stream.destroy(error));
    source.pipe(stream);
    let parts = [];
    let held = 0;
    try {
        for await (const piece of stream) {
            let rest = piece;
            while (held + rest.length >= chunkBytes) {
                const take = chunkBytes - held;
                parts.push(rest.subarray(0, take));
                yield parts.length === 1 ? parts[0] : Buffer.concat(parts, chunkBytes);
                parts = [];
                held = 0;
                rest = rest.subarray(take);
            }
            if (rest.length > 0) {
                parts.push(Buffer.from(rest));
                held += rest.length;
            }
        }
    }
    catch (error) {
        if (error.syscall !== undefined)
            throw error;
        throw gzipFailure(name, error);
    }
    finally {
        source.destroy();
        stream.destroy();
    }
    if (held > 0)
        yield Buffer.concat(parts, held);
}
function gunzipWhole(bytes, name, maxBytes) {
    try {
        return gunzipSync(bytes, { maxOutputLength: maxBytes });
    }
    catch (error) {
        if (error.code === 'ERR_BUFFER_TOO_LARGE')
            throw new InputError(`${name}: inflates to more than ${maxBytes} bytes, too large for a memory snapshot`);
        throw gzipFailure(name, error);
    }
}

const READ_CHUNK_BYTES = 120 * 1024;
const READ_OFFSET = 2048;
const CHUNKS_PER_YIELD = 64;
async function streamText(path, push, decoder = () => new StringDecoder('utf8'), name = path) {
    let active = null;
    let first = true;
    if (isGzip(path)) {
        for await (let bytes of gunzipChunks(path, name, READ_CHUNK_BYTES)) {
            if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
                bytes = bytes.subarray(3);
            first = false;
            if (active === null && isAscii(bytes))
                push(bytes.toString('latin1'));
            else {
                active ??= decoder();
                push(active.write(bytes));
            }
        }
        if (active !== null)
            push(active.end());
        return;
    }
    const fd = openSync(path, 'r');
    try {
        const buffer = Buffer.allocUnsafeSlow(READ_OFFSET + READ_CHUNK_BYTES);
        for (let n = 0;; n++) {
            const read = readSync(fd, buffer, READ_OFFSET, READ_CHUNK_BYTES, null);
            if (read === 0)
                break;
            let bytes = buffer.subarray(READ_OFFSET, READ_OFFSET + read);
            if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
                bytes = bytes.subarray(3);
            first = false;
            if (active === null && isAscii(bytes)) {
                push(bytes.toString('latin1'));
            }
            else {
                active ??= decoder();
                push(active.write(bytes));
            }
            if (n % CHUNKS_PER_YIELD === CHUNKS_PER_YIELD - 1)
                await new Promise((resolve) => setImmediate(resolve));
        }
    }
    finally {
        closeSync(fd);
    }
    if (active !== null)
        push(active.end());
}
const WHOLE_TEXT_MIN_BYTES = 1024 * 1024;
function readWholeText(fd, size) {
    if (size < WHOLE_TEXT_MIN_BYTES)
        return readFileSync(fd, 'utf8');
    let buffer = Buffer.allocUnsafeSlow(READ_OFFSET + size + 1);
    let end = READ_OFFSET;
    for (;;) {
        if (end === buffer.length) {
            const larger = Buffer.allocUnsafeSlow(READ_OFFSET + 2 * (buffer.length - READ_OFFSET));
            buffer.copy(larger, READ_OFFSET, READ_OFFSET, end);
            buffer = larger;
        }
        const read = readSync(fd, buffer, end, buffer.length - end, null);
        if (read === 0)
            break;
        end += read;
    }
    const bytes = buffer.subarray(READ_OFFSET, end);
    return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

export { READ_OFFSET as R, gunzipWhole as a, gunzipChunks as g, isGzip as i, readWholeText as r, streamText as s };

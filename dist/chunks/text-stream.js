import { isAscii } from 'node:buffer';
import { openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { i as isCompressed, g as gunzipChunks } from './compressed.js';

const READ_CHUNK_BYTES = 120 * 1024;
const READ_OFFSET = 2048;
const CHUNKS_PER_YIELD = 64;
async function streamText(path, push, decoder = () => new StringDecoder('utf8'), name = path) {
    let active = null;
    let first = true;
    if (isCompressed(path)) {
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

export { READ_OFFSET as R, readWholeText as r, streamText as s };

import { isAscii } from 'node:buffer';
import { readFileSync, readSync } from 'node:fs';

const READ_OFFSET = 2048;
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

export { READ_OFFSET as R, readWholeText as r };

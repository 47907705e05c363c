import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { U as UsageError, v as visible } from './errors.js';
import { e as encodeEscaped } from './line-reader.js';
import { b as DEFAULT_MAX_EDITS, c as compareDumpFiles, t as terminalSafe } from './compare-dumps.js';
import 'node:buffer';
import 'node:string_decoder';
import './whole-text.js';
import './compressed.js';
import 'node:os';
import 'node:path';
import 'node:stream';
import 'node:stream/promises';
import 'node:zlib';

const COMPARE_DUMPS_USAGE = 'ascend-memory-gate compare-dumps BASE.csv CURRENT.csv [--level op|kernel|op,kernel] [--out FILE] [--max-edits N]';
const LEVELS = {
    op: 'op',
    '0': 'op',
    kernel: 'kernel',
    '1': 'kernel',
    'op,kernel': 'op,kernel',
    'kernel,op': 'op,kernel',
};
async function compareDumpsCommand(args, io) {
    let parsed;
    try {
        parsed = parseArgs({
            args,
            options: { level: { type: 'string' }, out: { type: 'string' }, 'max-edits': { type: 'string' } },
            allowPositionals: true,
            strict: true,
        });
    }
    catch (error) {
        throw new UsageError(`compare-dumps: ${error.message}\nusage: ${COMPARE_DUMPS_USAGE}`);
    }
    const { values, positionals } = parsed;
    if (positionals.length !== 2)
        throw new UsageError(`compare-dumps: give exactly two dumps, BASE and CURRENT (got ${positionals.length})\nusage: ${COMPARE_DUMPS_USAGE}`);
    const level = LEVELS[values.level ?? 'op'];
    if (level === undefined)
        throw new UsageError(`compare-dumps: --level must be op, kernel or op,kernel (got '${values.level}')`);
    const maxEdits = values['max-edits'] === undefined ? DEFAULT_MAX_EDITS : Number(values['max-edits']);
    if (!Number.isSafeInteger(maxEdits) || maxEdits < 0)
        throw new UsageError(`compare-dumps: --max-edits must be a non-negative integer (got '${values['max-edits']}')`);
    const [base, current] = positionals;
    let file = null;
    const terminal = values.out === undefined && io.isTerminal?.() === true;
    const sink = async (text) => {
        if (values.out !== undefined) {
            file ??= createWriteStream(values.out);
            if (!file.write(encodeEscaped(text)))
                await once(file, 'drain');
        }
        else if (terminal)
            io.out(terminalSafe(text));
        else if (io.outBytes !== undefined)
            await io.outBytes(encodeEscaped(text));
        else
            io.out(text);
    };
    const result = await compareDumpFiles({ path: base, name: base }, { path: current, name: current }, {
        level,
        maxEdits,
        sink,
        onWarning: (w) => io.err(`warning: ${visible(`${w.file}:${w.line}: ${w.reason}`)}\n`),
    });
    if (file !== null) {
        const stream = file;
        stream.end();
        await once(stream, 'finish');
        io.err(`wrote ${visible(values.out ?? '')}: ${result.rows} rows on ${result.devices.length} device(s)\n`);
    }
    return 0;
}

export { COMPARE_DUMPS_USAGE, compareDumpsCommand };

import { readFile } from 'node:fs/promises';
import { HISTORY_MAX_BYTES } from './format.js';
import { M as MAX_HISTORY_SIZE } from './limits.js';
import { baselineHash } from './point.js';
import { recordPoint } from './store.js';
import './errors.js';
import './string-table.js';
import './reader.js';
import './_commonjsHelpers.js';
import 'node:crypto';
import './names.js';
import './evidence-sources.js';
import 'node:fs';
import 'node:path';
import 'fs';
import 'path';
import 'url';
import 'module';
import './roll-up.js';
import './groups.js';
import './keys.js';
import './atomic-write.js';

function isCommitSha(commit) {
    return /^[0-9a-f]{4,64}$/.test(commit);
}
function pointTime(now = new Date()) {
    return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
function historySize(value) {
    return /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_HISTORY_SIZE ? Number(value) : null;
}
async function baselineHashOf(file) {
    try {
        return baselineHash(await readFile(file));
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return null;
        throw error;
    }
}
function recordRun(history, request) {
    Object.assign(history.header, request.header);
    return recordPoint(history, request.meta, request.values, {
        maxPoints: request.maxPoints,
        maxBytes: HISTORY_MAX_BYTES,
    });
}
function pointSentence(recorded, maxPoints, separator) {
    const dropped = recorded.dropped > 0 ? `${separator}${recorded.dropped} oldest dropped` : '';
    return `point ${recorded.points} of at most ${maxPoints}${dropped}`;
}

export { baselineHashOf, historySize, isCommitSha, pointSentence, pointTime, recordRun };

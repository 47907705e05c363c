import { S as SchemaError } from './errors.js';
import './evidence-sources.js';
import { d as devicesPerPattern, p as patternCountsOf, g as groupEntries, i as isRollUp, m as medianGrowth } from './view.js';
import { r as reportSchema, R as REPORT_STATUSES, g as growth, M as MAX_KEY_LENGTH, a as MAX_NOTE_LENGTH, b as reportFrameSchema, c as MAX_ENTRIES } from './partition.js';
import { mkdir, open, rm, rename } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { p as parseJson, c as compileSchema } from './reader.js';
import { a as stableStringify } from './document-json.js';
import { s as shortenName } from './names.js';
import { s as splitDevice } from './keys.js';
import './roll-up.js';
import './history-view.js';
import './thresholds.js';
import './index.js';
import './limits.js';
import 'node:fs';
import './_commonjsHelpers.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './trends.js';
import './format.js';
import './string-table.js';
import './moved.js';
import './groups.js';
import './trend-text.js';
import './types.js';
import './escape.js';
import 'node:crypto';

function renderJsonReport(report, extra = {}) {
    return [...jsonReportChunks(report, extra)].join('');
}
async function writeJsonReport(file, report, extra = {}) {
    const chunks = jsonReportChunks(report, extra);
    const first = chunks.next();
    const temporary = `${file}.${process.pid}.tmp`;
    const named = (error) => {
        const errno = error;
        if (error instanceof Error && errno.path === temporary)
            errno.path = file;
        return error;
    };
    await mkdir(dirname(resolve(file)), { recursive: true }).catch((error) => {
        if (error instanceof Error)
            error.path = file;
        throw error;
    });
    const handle = await open(temporary, 'w').catch((error) => {
        throw named(error);
    });
    try {
        let pending = first.done === true ? '' : first.value;
        for (const chunk of chunks) {
            pending += chunk;
            if (pending.length >= WRITE_BYTES) {
                await handle.write(pending);
                pending = '';
            }
        }
        await handle.write(pending);
    }
    catch (error) {
        await handle.close();
        await rm(temporary, { force: true });
        throw named(error);
    }
    await handle.close();
    await rename(temporary, file).catch(async (error) => {
        await rm(temporary, { force: true });
        throw named(error);
    });
}
const WRITE_BYTES = 1 << 20;
const BATCH = 2048;
function* jsonReportChunks(report, extra) {
    const counts = Object.fromEntries([...REPORT_STATUSES].sort().map((status) => [status, 0]));
    for (const [status, n] of Object.entries(report.counts))
        if (n !== undefined)
            counts[status] = n;
    const groups = groupsOf(report.entries);
    const frame = {
        ...(extra.baselineFile !== undefined ? { baselineFile: extra.baselineFile } : {}),
        counts,
        ...(report.disjointBaseline !== undefined ? { disjointBaseline: report.disjointBaseline } : {}),
        entries: [],
        ...(report.environment !== undefined ? { environment: report.environment } : {}),
        ...(extra.generatedAt !== undefined ? { generatedAt: extra.generatedAt } : {}),
        ...(groups.length > 0 ? { groups: [] } : {}),
        ...(report.history !== undefined
            ? { history: { branch: report.history.branch, commit: report.history.commit } }
            : {}),
        ...(report.missingArtifacts !== undefined ? { missingArtifacts: report.missingArtifacts } : {}),
        ...(report.notRead !== undefined ? { notRead: report.notRead } : {}),
        result: report.result,
    };
    checkOwnReport(frame, report.entries, groups);
    const text = stableStringify({
        ...frame,
        entries: MARK_ENTRIES,
        ...(groups.length > 0 ? { groups: MARK_GROUPS } : {}),
    });
    const entriesAt = text.indexOf(JSON.stringify(MARK_ENTRIES));
    const groupsAt = groups.length > 0 ? text.indexOf(JSON.stringify(MARK_GROUPS)) : -1;
    yield text.slice(0, entriesAt);
    yield* listChunks(report.entries, entryDocument);
    if (groupsAt === -1) {
        yield text.slice(entriesAt + JSON.stringify(MARK_ENTRIES).length);
        return;
    }
    yield text.slice(entriesAt + JSON.stringify(MARK_ENTRIES).length, groupsAt);
    yield* listChunks(groups, (g) => g);
    yield text.slice(groupsAt + JSON.stringify(MARK_GROUPS).length);
}
const MARK_ENTRIES = '\u0000entries\u0000';
const MARK_GROUPS = '\u0000groups\u0000';
function* listChunks(items, document) {
    if (items.length === 0) {
        yield '[]';
        return;
    }
    yield '[';
    for (let start = 0; start < items.length; start += BATCH) {
        const json = JSON.stringify({ l: items.slice(start, start + BATCH).map(document) }, null, 2);
        const written = json.slice(json.indexOf('[') + 1, json.lastIndexOf('\n  ]'));
        yield start === 0 ? written : `,${written}`;
    }
    yield '\n  ]';
}
function entryDocument(e) {
    const entry = { baseline: e.baseline };
    if (e.capacity !== undefined)
        entry.capacity = e.capacity;
    entry.current = e.current;
    entry.delta = e.delta;
    entry.key = shortenName(e.key, MAX_KEY_LENGTH);
    entry.kind = e.kind;
    if (e.limit !== undefined)
        entry.limit = e.limit;
    if (e.noise !== undefined)
        entry.noise = { applied: e.noise.applied, points: e.noise.points, spread: e.noise.spread };
    if (e.note !== undefined)
        entry.note = e.note;
    entry.percent = e.percent;
    entry.rule = e.rule === null ? null : shortenName(e.rule, MAX_KEY_LENGTH);
    entry.severity = e.severity;
    entry.status = e.status;
    if (e.unit !== undefined)
        entry.unit = e.unit;
    return entry;
}
function groupsOf(entries) {
    const perPattern = devicesPerPattern(entries);
    const perEntry = patternCountsOf(entries);
    const index = new Map();
    entries.forEach((e, i) => {
        const counts = perEntry[i];
        if (counts === null || (counts?.entries ?? 0) > 1)
            index.set(e, i);
    });
    const candidates = [...index.keys()];
    const size = new Float64Array(candidates.length);
    const at = new Float64Array(candidates.length);
    candidates.forEach((e, i) => {
        size[i] = Math.abs(growth(e));
        at[i] = index.get(e) ?? 0;
    });
    const order = Array.from(candidates, (_, i) => i).sort((a, b) => size[b] - size[a] || at[a] - at[b]);
    const ordered = order.map((i) => candidates[i]);
    return (groupEntries(ordered, perPattern)
        .filter((g) => isRollUp(g) && g.entries.every((e) => e.key.length <= MAX_KEY_LENGTH))
        .map((g) => ({
        entries: g.entries.map((e) => index.get(e) ?? -1),
        kind: g.kind,
        medianDelta: Math.round(medianGrowth(g)),
        ofDevices: g.ofDevices,
        pattern: g.pattern,
        severity: g.severity,
        status: g.status,
    }))
        .sort((a, b) => (a.entries[0] ?? 0) - (b.entries[0] ?? 0)));
}
function parseReportJson(text, file) {
    return checkReport(parseJson(text, file), file);
}
const validateReport = compileSchema(reportSchema);
const validateReportFrame = compileSchema(reportFrameSchema);
function checkReport(untrusted, file) {
    const data = validateReport(untrusted, file);
    checkConsistency(data, file);
    return data;
}
function checkOwnReport(frame, entries, groups) {
    const data = validateReportFrame(frame, 'report');
    const bounded = (what, count) => {
        if (count > MAX_ENTRIES)
            throw new SchemaError('report', `/${what}`, `must have at most ${MAX_ENTRIES} items, got ${count}: the reader refuses larger reports`);
    };
    bounded('entries', entries.length);
    bounded('groups', groups.length);
    const integer = (v) => v === null || v === undefined || Number.isSafeInteger(v);
    entries.forEach((e, i) => {
        if (e.note !== undefined && e.note.length > MAX_NOTE_LENGTH)
            throw new SchemaError('report', `/entries/${i}/note`, `must be at most ${MAX_NOTE_LENGTH} characters, got ${e.note.length}`);
        for (const field of ['baseline', 'current', 'delta', 'limit', 'capacity']) {
            if (!integer(e[field]))
                throw new SchemaError('report', `/entries/${i}/${field}`, `must be an integer number of bytes, got ${String(e[field])}`);
        }
    });
    checkConsistency({ ...data, entries: entries }, 'report', false);
}
function checkConsistency(data, file, groups = true) {
    const seen = new Map();
    let firstFailing = -1;
    data.entries.forEach((entry, i) => {
        seen.set(entry.status, (seen.get(entry.status) ?? 0) + 1);
        if (firstFailing === -1 && entry.severity === 'fail')
            firstFailing = i;
    });
    for (const status of REPORT_STATUSES) {
        const counted = data.counts[status] ?? 0;
        const listed = seen.get(status) ?? 0;
        if (counted !== listed) {
            throw new SchemaError(file, `/counts/${status}`, `is ${counted} but ${listed} ${listed === 1 ? 'entry has' : 'entries have'} status '${status}'`);
        }
    }
    if (data.result === 'pass' && firstFailing !== -1) {
        throw new SchemaError(file, '/result', `is 'pass' but /entries/${firstFailing} has severity 'fail'`);
    }
    if (data.result === 'pass' && data.disjointBaseline?.severity === 'fail') {
        throw new SchemaError(file, '/result', "is 'pass' but /disjointBaseline has severity 'fail'");
    }
    if (groups)
        checkGroups(data, file);
}
function checkGroups(data, file) {
    const taken = new Set();
    (data.groups ?? []).forEach((group, g) => {
        group.entries.forEach((i, j) => {
            const where = `/groups/${g}/entries/${j}`;
            const entry = data.entries[i];
            if (entry === undefined)
                throw new SchemaError(file, where, `is ${i}, but there are ${data.entries.length} entries`);
            if (taken.has(i))
                throw new SchemaError(file, where, `lists /entries/${i} a second time`);
            taken.add(i);
            const { group: pattern } = splitDevice(entry.key);
            if (entry.kind !== group.kind ||
                entry.status !== group.status ||
                entry.severity !== group.severity ||
                (pattern === '*' ? 'dev*' : pattern) !== group.pattern) {
                throw new SchemaError(file, where, `is /entries/${i}, which is not a ${group.kind} ${group.status} key of ${group.pattern}`);
            }
        });
    });
}

export { groupsOf, parseReportJson, renderJsonReport, writeJsonReport };

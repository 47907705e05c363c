import { s as shortenName, c as SchemaError } from './sources.js';
import { s as stableStringify } from './snapshot.js';
import { R as REPORT_STATUSES, z as growth, g as groupEntries, d as devicesPerPattern, b as isRollUp, n as medianGrowth, A as reportSchema, M as MAX_KEY_LENGTH } from './groups.js';
import { p as parseJson, c as compileSchema } from './json-schema.js';
import { s as splitDevice } from './keys.js';
import 'node:crypto';
import './series.js';
import './units.js';
import './environment2.js';
import './_commonjsHelpers.js';

// The `--report` JSON: written with every status counted, and read back from untrusted uploads only through the schema.
/** The report as stable JSON; counts list every known status (0 when absent). Throws SchemaError if it could not be read back. */
function renderJsonReport(report, extra = {}) {
    const counts = Object.fromEntries(REPORT_STATUSES.map((status) => [status, 0]));
    for (const [status, n] of Object.entries(report.counts))
        if (n !== undefined)
            counts[status] = n;
    const groups = groupsOf(report.entries);
    const document = {
        result: report.result,
        counts,
        entries: report.entries.map((e) => ({
            kind: e.kind,
            // The schema bounds keys (an untrusted upload must not be unbounded): longer ones are written shortened, hashed.
            key: shortenName(e.key, MAX_KEY_LENGTH),
            baseline: e.baseline,
            current: e.current,
            delta: e.delta,
            percent: e.percent,
            status: e.status,
            severity: e.severity,
            rule: e.rule === null ? null : shortenName(e.rule, MAX_KEY_LENGTH),
            ...(e.unit !== undefined ? { unit: e.unit } : {}),
            ...(e.limit !== undefined ? { limit: e.limit } : {}),
            ...(e.capacity !== undefined ? { capacity: e.capacity } : {}),
            ...(e.note !== undefined ? { note: e.note } : {}),
        })),
        ...(report.environment !== undefined ? { environment: report.environment } : {}),
        ...(report.missingArtifacts !== undefined ? { missingArtifacts: report.missingArtifacts } : {}),
        ...(groups.length > 0 ? { groups } : {}),
        ...(extra.baselineFile !== undefined ? { baselineFile: extra.baselineFile } : {}),
        ...(extra.generatedAt !== undefined ? { generatedAt: extra.generatedAt } : {}),
    };
    // Refuse to write what the comment job would refuse to read: the error surfaces in the run that caused it.
    checkReport(document, 'report');
    return stableStringify(document);
}
/** The roll-ups of the entries, with indices into them; members ordered by absolute change, largest first. */
function groupsOf(entries) {
    const index = new Map(entries.map((e, i) => [e, i]));
    // Worst growth first, then report order: each entry's |growth| and index computed once, not per comparison.
    const size = new Float64Array(entries.length);
    const at = new Float64Array(entries.length);
    entries.forEach((e, i) => {
        size[i] = Math.abs(growth(e));
        at[i] = index.get(e) ?? 0;
    });
    const order = Array.from(entries, (_, i) => i).sort((a, b) => size[b] - size[a] || at[a] - at[b]);
    const ordered = order.map((i) => entries[i]);
    return groupEntries(ordered, devicesPerPattern(entries))
        .filter(isRollUp)
        .map((g) => ({
        kind: g.kind,
        status: g.status,
        severity: g.severity,
        pattern: g.pattern,
        entries: g.entries.map((e) => index.get(e) ?? -1),
        ofDevices: g.ofDevices,
        medianDelta: Math.round(medianGrowth(g)),
    }))
        .sort((a, b) => (a.entries[0] ?? 0) - (b.entries[0] ?? 0));
}
/**
 * Reads a report that may come from an untrusted pull-request run: JSON, then the schema (no extra fields, bounded
 * strings and entry count, integer byte counts, known statuses), then counts and result agreeing with the entries.
 */
function parseReportJson(text, file) {
    return checkReport(parseJson(text, file), file);
}
// The first error only: a hostile file must not make ajv collect millions.
const validateReport = compileSchema(reportSchema);
function checkReport(untrusted, file) {
    const data = validateReport(untrusted, file);
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
    checkGroups(data, file);
    return data;
}
/** Each group's members exist, belong to no other group, and share its kind, status, severity and pattern. */
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
            if (entry.kind !== group.kind || entry.status !== group.status || entry.severity !== group.severity || (pattern === '*' ? 'dev*' : pattern) !== group.pattern) {
                throw new SchemaError(file, where, `is /entries/${i}, which is not a ${group.kind} ${group.status} key of ${group.pattern}`);
            }
        });
    });
}

export { groupsOf, parseReportJson, renderJsonReport };

import { A as AjvModule } from './ajv.js';
import { s as stableStringify, I as InputError, g as SchemaError } from './snapshot.js';
import { R as REPORT_STATUSES, m as reportSchema, r as replaceControlCharacters } from './local.js';
import 'node:fs';
import 'node:fs/promises';
import 'node:os';
import 'node:worker_threads';
import 'node:path';
import 'fs';
import 'path';
import 'url';
import 'module';

// The `--report` JSON: written with every status counted, and read back from untrusted uploads only through the schema.
/** The report as stable JSON; counts list every known status (0 when absent). Throws SchemaError if it could not be read back. */
function renderJsonReport(report, extra = {}) {
    const counts = Object.fromEntries(REPORT_STATUSES.map((status) => [status, 0]));
    for (const [status, n] of Object.entries(report.counts))
        if (n !== undefined)
            counts[status] = n;
    const document = {
        result: report.result,
        counts,
        entries: report.entries.map((e) => ({
            kind: e.kind,
            key: e.key,
            baseline: e.baseline,
            current: e.current,
            delta: e.delta,
            percent: e.percent,
            status: e.status,
            severity: e.severity,
            rule: e.rule,
            ...(e.unit !== undefined ? { unit: e.unit } : {}),
            ...(e.limit !== undefined ? { limit: e.limit } : {}),
            ...(e.note !== undefined ? { note: e.note } : {}),
        })),
        ...(extra.baselineFile !== undefined ? { baselineFile: extra.baselineFile } : {}),
        ...(extra.generatedAt !== undefined ? { generatedAt: extra.generatedAt } : {}),
    };
    // Refuse to write what the comment job would refuse to read: the error surfaces in the run that caused it.
    checkReport(document, 'report');
    return stableStringify(document);
}
/**
 * Reads a report that may come from an untrusted pull-request run: JSON, then the schema (no extra fields, bounded
 * strings and entry count, integer byte counts, known statuses), then counts and result agreeing with the entries.
 */
function parseReportJson(text, file) {
    let data;
    try {
        data = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
    }
    catch (error) {
        throw new InputError(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    return checkReport(data, file);
}
function checkReport(data, file) {
    const validate = reportValidator();
    if (!validate(data)) {
        const error = validate.errors?.[0];
        throw error === undefined ? new SchemaError(file, '', 'does not match the report schema') : schemaError(file, error);
    }
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
    return data;
}
/** ajv's message, with the pointer moved down to the offending property for required/additionalProperties. */
function schemaError(file, error) {
    const params = error.params;
    const property = params['missingProperty'] ?? params['additionalProperty'];
    if (typeof property === 'string') {
        const pointer = `${error.instancePath}/${quoteForMessage(property).replaceAll('~', '~0').replaceAll('/', '~1')}`;
        const reason = error.keyword === 'required' ? 'is required' : 'is not allowed (unknown property)';
        return new SchemaError(file, pointer, reason);
    }
    const allowed = params['allowedValues'];
    if (error.keyword === 'enum' && Array.isArray(allowed)) {
        return new SchemaError(file, error.instancePath, `must be one of ${allowed.map(String).join(', ')}`);
    }
    return new SchemaError(file, error.instancePath, error.message ?? `fails '${error.keyword}'`);
}
/** An untrusted name inside an error message: visible control characters and a bounded length. */
function quoteForMessage(text) {
    const shown = replaceControlCharacters(text);
    return shown.length > 100 ? `${shown.slice(0, 100)}…` : shown;
}
function isAjvConstructor(value) {
    if (typeof value !== 'function')
        return false;
    const prototype = value.prototype;
    return typeof prototype === 'object' && prototype !== null && 'compile' in prototype && typeof prototype.compile === 'function';
}
/** The Ajv class from whatever shape the CommonJS interop produced; exported for its test. */
function ajvConstructor(moduleValue) {
    if (isAjvConstructor(moduleValue))
        return moduleValue;
    if (typeof moduleValue === 'object' && moduleValue !== null && 'default' in moduleValue && isAjvConstructor(moduleValue.default)) {
        return moduleValue.default;
    }
    throw new Error('the ajv module exports no Ajv class');
}
let validator;
function reportValidator() {
    if (validator === undefined) {
        const Ajv = ajvConstructor(AjvModule);
        // allErrors stays off: the first error is enough, and a hostile file must not make ajv collect millions.
        const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: false, validateSchema: false });
        validator = ajv.compile(reportSchema);
    }
    return validator;
}

export { ajvConstructor, parseReportJson, renderJsonReport };

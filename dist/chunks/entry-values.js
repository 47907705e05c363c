import { b as formatBytes, a as formatDelta } from './units.js';
import { S as SECTIONS, d as compareKeys } from './snapshot.js';

// The gate's vocabulary: thresholds in, verdicts out. Shared by compare (pure), report renderers and the Action.
/** Every status, in the order verdicts and reports list them: the one list (the report schema is built from it). */
const STATUSES = [
    'regressed',
    'over-budget',
    'over-capacity',
    'alloc-failure',
    'leak-suspect',
    'low-headroom',
    'above-reference',
    'imbalance',
    'growing',
    'new',
    'missing',
    'improved',
    'ignored',
    'pass',
];

// The `--report` JSON's schema, built from the one list of statuses; schemas/report.schema.json is its published copy.
/** Every status a report may hold, in the order verdicts list them: gate/types.ts STATUSES. */
const REPORT_STATUSES = STATUSES;
/** Entry kinds: every section's (registry order), then `device`. */
const REPORT_KINDS = [...SECTIONS.map((s) => s.kind), 'device'];
const REPORT_SEVERITIES = ['fail', 'warn', 'ok'];
/** Entry units: absent means bytes. */
const REPORT_UNITS = ['bytes', 'count'];
/** Longest note accepted: ours are one sentence; a hostile upload must not make the comment huge. */
const MAX_NOTE_LENGTH = 2000;
/** Longest key or rule accepted: MindSpore scope names reach hundreds of characters, a hostile file reaches any. */
const MAX_KEY_LENGTH = 4096;
/** Most entries accepted from a report: a bound on what an untrusted upload can make the comment job render. */
const MAX_ENTRIES = 200_000;
const bytes = { type: ['integer', 'null'], minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
const count = { type: 'integer', minimum: 0, maximum: MAX_ENTRIES };
const reportSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'ascend-memory-gate --report',
    description: "Every verdict of one memory gate run: one entry per module and kernel key, plus findings (same key, another status) and device entries. Values are exact byte counts, or counts of allocations where unit is 'count'.",
    type: 'object',
    additionalProperties: false,
    required: ['result', 'counts', 'entries'],
    properties: {
        result: { type: 'string', enum: ['pass', 'fail'] },
        counts: {
            type: 'object',
            additionalProperties: false,
            properties: Object.fromEntries(REPORT_STATUSES.map((status) => [status, count])),
        },
        entries: { type: 'array', maxItems: MAX_ENTRIES, items: { $ref: '#/definitions/entry' } },
        baselineFile: { type: 'string', maxLength: MAX_KEY_LENGTH },
        generatedAt: {
            type: 'string',
            maxLength: 64,
            pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
        },
    },
    definitions: {
        entry: {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'key', 'baseline', 'current', 'delta', 'percent', 'status', 'severity', 'rule'],
            properties: {
                kind: { type: 'string', enum: [...REPORT_KINDS] },
                key: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH },
                baseline: bytes,
                current: bytes,
                delta: bytes,
                percent: { type: ['number', 'null'] },
                status: { type: 'string', enum: [...REPORT_STATUSES] },
                severity: { type: 'string', enum: [...REPORT_SEVERITIES] },
                rule: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH },
                unit: { type: 'string', enum: [...REPORT_UNITS] },
                limit: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
                note: { type: 'string', maxLength: MAX_NOTE_LENGTH },
            },
        },
    },
};

/** Growth in bytes, also for a new key (its whole current) or a missing key (minus its baseline). */
function growth(entry) {
    return entry.delta ?? (entry.current ?? 0) - (entry.baseline ?? 0);
}
function splitSections(report) {
    const problems = [];
    const improvements = [];
    const unchanged = [];
    for (const entry of report.entries) {
        if (entry.severity !== 'ok')
            problems.push(entry);
        else if (entry.status === 'improved')
            improvements.push(entry);
        else
            unchanged.push(entry);
    }
    problems.sort((a, b) => severityRank(a) - severityRank(b) || growth(b) - growth(a) || byKindAndKey(a, b));
    improvements.sort((a, b) => growth(a) - growth(b) || byKindAndKey(a, b));
    unchanged.sort(byKindAndKey);
    return { problems, improvements, unchanged };
}
function severityRank(entry) {
    return entry.severity === 'fail' ? 0 : entry.severity === 'warn' ? 1 : 2;
}
function byKindAndKey(a, b) {
    return kindRank(a.kind) - kindRank(b.kind) || compareKeys(a.kind, b.kind) || compareKeys(a.key, b.key);
}
function kindRank(kind) {
    const known = REPORT_KINDS;
    const i = known.indexOf(kind);
    return i === -1 ? known.length : i;
}
/** "over-budget" → "over budget": works for statuses this build does not know yet. */
function statusLabel(status) {
    return status.replaceAll('-', ' ');
}
/** Statuses of the given entries with their counts, in REPORT_STATUSES order, unknown statuses after, by name. */
function countByStatus(entries) {
    const counts = new Map();
    for (const entry of entries)
        counts.set(entry.status, (counts.get(entry.status) ?? 0) + 1);
    const known = REPORT_STATUSES;
    const rank = (s) => (known.includes(s) ? known.indexOf(s) : known.length);
    return [...counts].sort(([a], [b]) => rank(a) - rank(b) || compareKeys(a, b));
}
function formatCount(n) {
    return n.toLocaleString('en-US');
}
function plural(n, one, many = `${one}s`) {
    return `${formatCount(n)} ${n === 1 ? one : many}`;
}
/**
 * The verdict without decoration: "Memory gate failed: 2 regressed, 1 over budget (3 warnings)" or
 * "Memory gate passed: 140 keys within thresholds". `title` is inserted as given: escape it for the target first.
 */
function verdictText(report, title) {
    const warnings = report.entries.filter((e) => e.severity !== 'ok' && e.severity !== 'fail').length;
    const warningNote = warnings > 0 ? ` (${plural(warnings, 'warning')})` : '';
    if (report.result === 'fail') {
        const failing = countByStatus(report.entries.filter((e) => e.severity === 'fail'))
            .map(([status, n]) => `${formatCount(n)} ${statusLabel(status)}`)
            .join(', ');
        return `${title} failed${failing ? `: ${failing}` : ''}${warningNote}`;
    }
    const keys = new Set(report.entries.map((e) => `${e.kind}\u0000${e.key}`)).size;
    return `${title} passed: ${plural(keys, 'key')} within thresholds${warningNote}`;
}
const DEVICE_SEGMENT = /^dev\d+$/;
/** The first `devN` segment of a key (`DEV_MEM/dev0/APP`, `dev3/matmul_v1`), or null for host and SVM keys. */
function deviceOf(key) {
    for (const segment of key.split('/'))
        if (DEVICE_SEGMENT.test(segment))
            return segment;
    return null;
}
function deviceTotals(entries) {
    const byDevice = new Map();
    // A key can carry several entries (its verdict, then findings such as imbalance with the same values): count it once.
    const seen = new Set();
    for (const entry of entries) {
        if (entry.kind !== 'module' && entry.kind !== 'kernel')
            continue;
        const id = `${entry.kind}\u0000${entry.key}`;
        if (seen.has(id))
            continue;
        seen.add(id);
        const device = deviceOf(entry.key);
        if (device === null)
            continue;
        let totals = byDevice.get(device);
        if (totals === undefined) {
            totals = { device, modules: null, kernels: null };
            byDevice.set(device, totals);
        }
        const side = entry.kind === 'module' ? 'modules' : 'kernels';
        const sum = (totals[side] ??= { baseline: 0, current: 0 });
        sum.baseline += entry.baseline ?? 0;
        sum.current += entry.current ?? 0;
    }
    return [...byDevice.values()].sort((a, b) => compareKeys(a.device, b.device));
}

/** True for an entry whose values are counts, not bytes. */
function isCountEntry(entry) {
    return entry.unit === 'count';
}
/** The entry's optional free-text note, or null. */
function entryNote(entry) {
    return entry.note !== undefined && entry.note !== '' ? entry.note : null;
}
/** A baseline or current value: "19.4 GiB", or "3" for a count. */
function formatEntryValue(entry, value) {
    return isCountEntry(entry) ? formatCount(value) : formatBytes(value);
}
/** A delta with an explicit sign: "+17.4 GiB", or "+3" for a count. */
function formatEntryDelta(entry, delta) {
    if (!isCountEntry(entry))
        return formatDelta(delta);
    return delta > 0 ? `+${formatCount(delta)}` : formatCount(delta);
}
/** What decided the entry, as plain text: a finding's note (with its limit), else the rule's glob, else "default". */
function entryReason(entry) {
    const note = entryNote(entry);
    if (note !== null) {
        const limit = entry.limit !== undefined ? ` (limit ${formatEntryValue(entry, entry.limit)})` : '';
        return { rule: entry.rule, note: `${note}${limit}` };
    }
    return { rule: entry.rule, note: null };
}

export { REPORT_STATUSES as R, STATUSES as S, formatEntryDelta as a, formatCount as b, countByStatus as c, statusLabel as d, entryReason as e, formatEntryValue as f, entryNote as g, deviceOf as h, isCountEntry as i, deviceTotals as j, growth as k, plural as p, reportSchema as r, splitSections as s, verdictText as v };

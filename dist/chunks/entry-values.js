import { b as formatBytes, a as formatDelta } from './units.js';
import { S as SECTIONS, d as compareKeys } from './snapshot.js';
import { e as escapeHtml, t as tableCodeSpan } from './escape.js';

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
/** Environment items and values, node and artifact names: short strings, a bounded number of them. */
const text = { type: 'string', maxLength: MAX_KEY_LENGTH };
const MAX_LISTED = 10_000;
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
        environment: { $ref: '#/definitions/environment' },
        missingArtifacts: { type: 'array', maxItems: MAX_LISTED, items: text },
        generatedAt: {
            type: 'string',
            maxLength: 64,
            pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
        },
    },
    definitions: {
        environment: {
            type: 'object',
            additionalProperties: false,
            required: ['changes', 'splits', 'severity'],
            properties: {
                changes: {
                    type: 'array',
                    maxItems: MAX_LISTED,
                    items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['item', 'baseline', 'current'],
                        properties: { item: text, baseline: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH }, current: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH } },
                    },
                },
                splits: {
                    type: 'array',
                    maxItems: MAX_LISTED,
                    items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['item', 'values'],
                        properties: {
                            item: text,
                            values: {
                                type: 'array',
                                maxItems: MAX_LISTED,
                                items: {
                                    type: 'object',
                                    additionalProperties: false,
                                    required: ['value', 'nodes'],
                                    properties: { value: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH }, nodes: { type: 'array', maxItems: MAX_LISTED, items: text } },
                                },
                            },
                        },
                    },
                },
                severity: { type: 'string', enum: [...REPORT_SEVERITIES] },
            },
        },
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

/** A run's environment from its snapshot's (or baseline's) nodes; nodes that recorded none are left out. */
function runEnvironmentOf(meta) {
    const nodes = Object.entries(meta?.nodes ?? {}).filter(([, node]) => Object.keys(node.environment).length > 0);
    return nodes.length === 0 ? undefined : Object.fromEntries(nodes.map(([name, node]) => [name, node.environment]));
}
const DEFAULT_ENVIRONMENT_POLICY = { onChange: 'warn', ignore: [] };
/** Labels people know the items by; any other item shows under its own name. */
const LABELS = {
    cann: 'CANN toolkit',
    driver: 'driver',
    firmware: 'firmware',
    chip: 'chip',
    torch: 'torch',
    torch_npu: 'torch_npu',
};
function environmentLabel(item) {
    return LABELS[item] ?? item;
}
const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
/** Every item any node reports, sorted; ignored items left out. */
function itemsOf(environment, ignore) {
    const items = new Set();
    for (const node of Object.values(environment))
        for (const item of Object.keys(node))
            if (!ignore.has(item))
                items.add(item);
    return [...items].sort(byText);
}
/** The run's value of an item: the one value when every node agrees, else the distinct values joined with ` | `. */
function runValue(environment, item) {
    const values = new Set();
    let unset = false;
    for (const node of Object.values(environment)) {
        const value = node[item];
        if (value === undefined)
            unset = true;
        else
            values.add(value);
    }
    if (values.size === 0)
        return null;
    const sorted = [...values].sort(byText);
    return unset ? [...sorted, '(unset)'].join(' | ') : sorted.join(' | ');
}
/**
 * Baseline vs this run, and this run's nodes against each other. A side that recorded no environment at all (an old
 * baseline, raw files parsed on the gate's runner) is not compared: "everything changed" would say nothing.
 */
function compareEnvironments(baseline, current, policy = DEFAULT_ENVIRONMENT_POLICY) {
    const severity = policy.onChange === 'fail' ? 'fail' : policy.onChange === 'warn' ? 'warn' : 'ok';
    if (policy.onChange === 'ignore' || current === undefined || Object.keys(current).length === 0)
        return { changes: [], splits: [], severity };
    const ignore = new Set(policy.ignore);
    const changes = [];
    if (baseline !== undefined && Object.keys(baseline).length > 0) {
        const items = new Set([...itemsOf(baseline, ignore), ...itemsOf(current, ignore)]);
        for (const item of [...items].sort(byText)) {
            const before = runValue(baseline, item);
            const after = runValue(current, item);
            if (before !== after)
                changes.push({ item, baseline: before, current: after });
        }
    }
    const splits = [];
    const nodes = Object.keys(current).sort(byText);
    for (const item of itemsOf(current, ignore)) {
        const groups = new Map();
        for (const node of nodes) {
            const value = current[node][item] ?? null;
            groups.set(value, [...(groups.get(value) ?? []), node]);
        }
        if (groups.size > 1) {
            const values = [...groups].map(([value, names]) => ({ value, nodes: names }));
            values.sort((a, b) => b.nodes.length - a.nodes.length || byText(a.value ?? '', b.value ?? ''));
            splits.push({ item, values });
        }
    }
    return { changes, splits, severity };
}
/** Whether the findings say anything. */
function hasEnvironmentFindings(findings) {
    return findings !== undefined && findings.severity !== 'ok' && (findings.changes.length > 0 || findings.splits.length > 0);
}
/** `CANN toolkit 8.3.RC1 → 9.0.RC1; torch_npu 2.5.1 → 2.6.0`: one line for notes and annotations. */
function describeChanges(changes) {
    return changes.map((c) => `${environmentLabel(c.item)} ${c.baseline ?? '(unset)'} → ${c.current ?? '(unset)'}`).join('; ');
}
/** Statuses that say a value grew: each one's note says it happened across the environment change. */
const GROWTH = new Set(['regressed', 'over-budget']);
/**
 * The report with the environment findings attached: regressions note the change they happened across, and with
 * `onChange: fail` a change (or a split) fails the run. The entries' own verdicts are never altered.
 */
function applyEnvironment(report, findings) {
    if (!hasEnvironmentFindings(findings))
        return report;
    const across = findings.changes.length > 0 ? `Across the environment change since the baseline (${describeChanges(findings.changes)}).` : null;
    const entries = across
        ? report.entries.map((e) => (GROWTH.has(e.status) ? { ...e, note: e.note ? `${e.note} ${across}` : across } : e))
        : report.entries;
    const result = findings.severity === 'fail' ? 'fail' : report.result;
    return { ...report, entries, result, environment: findings };
}

// What surrounds the verdicts, shown first by every renderer: environment changes since the baseline, nodes that disagree, artifacts that never arrived.
/** Most nodes named per value; the rest are counted. */
const NODES_SHOWN = 8;
const SEVERITY_ICON = { fail: '❌', warn: '⚠️', ok: 'ℹ️' };
function nodeList(nodes) {
    const shown = nodes.slice(0, NODES_SHOWN).join(', ');
    return nodes.length > NODES_SHOWN ? `${shown} and ${nodes.length - NODES_SHOWN} more` : shown;
}
function splitRows(splits) {
    return splits.flatMap((s) => s.values.map((v, i) => [i === 0 ? environmentLabel(s.item) : '', v.value ?? '(unset)', `${nodeList(v.nodes)} (${v.nodes.length})`]));
}
/** The blocks, in order; empty when there is nothing to say. */
function contextBlocks(report) {
    const blocks = [];
    const env = report.environment;
    if (hasEnvironmentFindings(env)) {
        if (env.changes.length > 0) {
            blocks.push({
                title: 'Environment changed since the baseline',
                severity: env.severity,
                header: ['Item', 'Baseline', 'This run'],
                rows: env.changes.map((c) => [environmentLabel(c.item), c.baseline ?? '(unset)', c.current ?? '(unset)']),
            });
        }
        if (env.splits.length > 0) {
            blocks.push({ title: "This run's nodes disagree", severity: env.severity, header: ['Item', 'Value', 'Nodes'], rows: splitRows(env.splits) });
        }
    }
    const missing = report.missingArtifacts ?? [];
    if (missing.length > 0) {
        blocks.push({
            title: `${missing.length} artifact(s) never arrived: their keys are missing`,
            severity: 'warn',
            header: ['Artifact'],
            rows: missing.map((name) => [name]),
        });
    }
    return blocks;
}
/** Why the context alone fails the run (`environment.onChange: fail`), for the verdict line; null when it does not. */
function contextFailure(report) {
    const env = report.environment;
    if (!hasEnvironmentFindings(env) || env.severity !== 'fail')
        return null;
    if (env.changes.length > 0)
        return 'environment changed since the baseline';
    return "this run's nodes disagree on their environment";
}
/** Markdown blocks (`####` heading and a table each) to put right under the verdict line. */
function contextMarkdown(report) {
    return contextBlocks(report).map((block) => [
        `#### ${SEVERITY_ICON[block.severity]} ${block.title}`,
        '',
        `| ${block.header.join(' | ')} |`,
        `|${block.header.map(() => '---').join('|')}|`,
        ...block.rows.map((row) => `| ${row.map((cell) => (cell === '' ? '' : tableCodeSpan(cell))).join(' | ')} |`),
    ].join('\n'));
}
/** Terminal lines: one heading per block, one indented line per row. */
function contextTerminal(report, shown) {
    return contextBlocks(report).flatMap((block) => [
        '',
        `${block.severity.toUpperCase()}: ${block.title}`,
        ...block.rows.map((row) => block.header.length === 3 && block.title.startsWith('Environment')
            ? `  ${shown(row[0])}: ${shown(row[1])} -> ${shown(row[2])}`
            : `  ${row.map((cell) => shown(cell)).filter((cell) => cell !== '').join('  ')}`),
    ]);
}
/** HTML sections, every value escaped. */
function contextHtml(report) {
    return contextBlocks(report).map((block) => [
        `<section class="context ${block.severity}">`,
        `<h2>${SEVERITY_ICON[block.severity]} ${escapeHtml(block.title)}</h2>`,
        '<table>',
        `<thead><tr>${block.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
        `<tbody>${block.rows.map((row) => `<tr>${row.map((cell) => `<td><code>${escapeHtml(cell)}</code></td>`).join('')}</tr>`).join('')}</tbody>`,
        '</table>',
        '</section>',
    ].join('\n'));
}

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
        const failing = [
            ...countByStatus(report.entries.filter((e) => e.severity === 'fail')).map(([status, n]) => `${formatCount(n)} ${statusLabel(status)}`),
            ...[contextFailure(report)].filter((why) => why !== null),
        ].join(', ');
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

export { DEFAULT_ENVIRONMENT_POLICY as D, REPORT_STATUSES as R, STATUSES as S, formatEntryDelta as a, countByStatus as b, contextTerminal as c, formatCount as d, entryReason as e, formatEntryValue as f, contextHtml as g, statusLabel as h, entryNote as i, deviceOf as j, isCountEntry as k, applyEnvironment as l, compareEnvironments as m, reportSchema as n, contextMarkdown as o, plural as p, deviceTotals as q, runEnvironmentOf as r, splitSections as s, growth as t, verdictText as v };

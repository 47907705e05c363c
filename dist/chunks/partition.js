import { b as SECTIONS, f as formatCount, c as compareKeys } from './evidence-sources.js';
import { S as STATUSES, b as disjointText } from './types.js';
import { h as hasEnvironmentFindings, e as environmentLabel } from './roll-up.js';
import { a as escapeHtml, t as tableCodeSpan } from './escape.js';

const REPORT_STATUSES = STATUSES;
const REPORT_KINDS = [...SECTIONS.map((s) => s.kind), 'device'];
const REPORT_SEVERITIES = ['fail', 'warn', 'ok'];
const REPORT_UNITS = ['bytes', 'count'];
const MAX_NOTE_LENGTH = 2000;
const MAX_KEY_LENGTH = 4096;
const MAX_ENTRIES = 500_000;
const bytes = {
    type: ['integer', 'null'],
    minimum: -Number.MAX_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
};
const count = { type: 'integer', minimum: 0, maximum: MAX_ENTRIES };
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
        groups: {
            type: 'array',
            maxItems: MAX_ENTRIES,
            description: 'Roll-ups across devices: entries of one kind, status and severity whose keys differ only in the device. Every entry is also in entries.',
            items: { $ref: '#/definitions/group' },
        },
        baselineFile: { type: 'string', maxLength: MAX_KEY_LENGTH },
        environment: { $ref: '#/definitions/environment' },
        missingArtifacts: { type: 'array', maxItems: MAX_LISTED, items: text },
        disjointBaseline: {
            type: 'object',
            additionalProperties: false,
            required: ['severity', 'baseline', 'run'],
            description: "The baseline shares no key with this run, so nothing was compared: each side's key count and first key (config onDisjointBaseline decides the severity).",
            properties: {
                severity: { type: 'string', enum: ['fail', 'warn'] },
                baseline: { $ref: '#/definitions/side' },
                run: { $ref: '#/definitions/side' },
            },
        },
        notRead: {
            type: 'object',
            additionalProperties: false,
            required: ['count', 'sample', 'cut'],
            description: 'Records the readers skipped (malformed) or found cut off: how many, the first few by file and line, and the files whose last record was cut off (the job probably died while writing it).',
            properties: {
                count: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
                sample: { type: 'array', maxItems: MAX_LISTED, items: { $ref: '#/definitions/recordNotRead' } },
                cut: { type: 'array', maxItems: MAX_LISTED, items: { $ref: '#/definitions/recordNotRead' } },
            },
        },
        history: {
            type: 'object',
            additionalProperties: false,
            required: ['branch', 'commit'],
            description: "The default branch's history the run read (the Action): its branch and that branch's commit. Comment mode reads the history at that commit, when it is on the branch, so that a later run of the default branch does not change the verdict it re-judges.",
            properties: {
                branch: { type: 'string', minLength: 1, maxLength: 255 },
                commit: { type: 'string', pattern: '^([0-9a-f]{40}|[0-9a-f]{64})$' },
            },
        },
        generatedAt: {
            type: 'string',
            maxLength: 64,
            pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
        },
    },
    definitions: {
        side: {
            type: 'object',
            additionalProperties: false,
            required: ['keys', 'first'],
            properties: { keys: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, first: text },
        },
        recordNotRead: {
            type: 'object',
            additionalProperties: false,
            required: ['file', 'line', 'reason'],
            properties: {
                file: text,
                line: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
                reason: { type: 'string', maxLength: MAX_NOTE_LENGTH },
            },
        },
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
                        properties: {
                            item: text,
                            baseline: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH },
                            current: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH },
                        },
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
                                    properties: {
                                        value: { type: ['string', 'null'], maxLength: MAX_KEY_LENGTH },
                                        nodes: { type: 'array', maxItems: MAX_LISTED, items: text },
                                    },
                                },
                            },
                        },
                    },
                },
                severity: { type: 'string', enum: [...REPORT_SEVERITIES] },
            },
        },
        group: {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'status', 'severity', 'pattern', 'entries', 'ofDevices', 'medianDelta'],
            properties: {
                kind: { type: 'string', enum: [...REPORT_KINDS] },
                status: { type: 'string', enum: [...REPORT_STATUSES] },
                severity: { type: 'string', enum: [...REPORT_SEVERITIES] },
                pattern: {
                    type: 'string',
                    minLength: 1,
                    maxLength: MAX_KEY_LENGTH,
                    description: 'The key with its device segment replaced by *: DEV_MEM/*/APP; dev* for whole-device keys.',
                },
                entries: {
                    type: 'array',
                    minItems: 2,
                    maxItems: MAX_ENTRIES,
                    description: 'Indices into entries, the largest absolute change first.',
                    items: { type: 'integer', minimum: 0, maximum: MAX_ENTRIES },
                },
                ofDevices: {
                    type: 'integer',
                    minimum: 0,
                    maximum: MAX_ENTRIES,
                    description: 'Devices with a key of this kind and pattern anywhere in the report.',
                },
                medianDelta: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
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
                capacity: {
                    type: 'integer',
                    minimum: 0,
                    maximum: Number.MAX_SAFE_INTEGER,
                    description: "A headroom verdict's device capacity in bytes.",
                },
                note: { type: 'string', maxLength: MAX_NOTE_LENGTH },
                noise: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['applied', 'points', 'spread'],
                    description: "Set when the noise band (config `history`) was asked about this key's change: which bound applied, and the default branch's values it read.",
                    properties: {
                        applied: { type: 'string', enum: ['band', 'tolerance'] },
                        points: { type: 'integer', minimum: 0, maximum: 1000 },
                        spread: { type: ['integer', 'null'], minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
                    },
                },
            },
        },
    },
};
const reportFrameSchema = {
    ...reportSchema,
    properties: { ...reportSchema.properties, entries: { type: 'array' }, groups: { type: 'array' } },
};

const NODES_SHOWN = 8;
const SEVERITY_ICON = { fail: '❌', warn: '⚠️', ok: 'ℹ️' };
function nodeList(nodes) {
    const shown = nodes.slice(0, NODES_SHOWN).join(', ');
    return nodes.length > NODES_SHOWN ? `${shown} and ${nodes.length - NODES_SHOWN} more` : shown;
}
function splitRows(splits) {
    return splits.flatMap((s) => s.values.map((v, i) => [
        i === 0 ? environmentLabel(s.item) : '',
        v.value ?? '(unset)',
        `${nodeList(v.nodes)} (${v.nodes.length})`,
    ]));
}
function contextBlocks(report) {
    const blocks = [];
    const disjoint = report.disjointBaseline;
    if (disjoint !== undefined) {
        blocks.push({
            title: 'The baseline shares no key with this run: nothing was compared',
            severity: disjoint.severity,
            header: ['Side', 'Keys', 'First key'],
            rows: [
                ['baseline', formatCount(disjoint.baseline.keys), disjoint.baseline.first],
                ['this run', formatCount(disjoint.run.keys), disjoint.run.first],
            ],
            advice: disjoint.severity === 'fail'
                ? 'Is this the baseline of this input? Record one for it, or set "onDisjointBaseline": "warn" in the config for the first run of a new input.'
                : 'Passed under "onDisjointBaseline": "warn": record a baseline for this input.',
        });
    }
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
            blocks.push({
                title: "This run's nodes disagree",
                severity: env.severity,
                header: ['Item', 'Value', 'Nodes'],
                rows: splitRows(env.splits),
            });
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
    if (report.notRead !== undefined)
        blocks.push(...notReadBlocks(report.notRead));
    return blocks;
}
function notReadBlocks(notRead) {
    const blocks = [];
    if (notRead.cut.length > 0) {
        blocks.push({
            title: `${notRead.cut.length === 1 ? 'A file ends' : `${formatCount(notRead.cut.length)} files end`} in a cut-off record: the job probably died there`,
            severity: 'warn',
            header: ['Not read'],
            rows: notRead.cut.map((r) => [`${r.file}:${r.line}: ${r.reason}`]),
        });
    }
    const shown = notRead.sample.filter((r) => !notRead.cut.some((c) => c.file === r.file && c.line === r.line));
    const more = notRead.count - notRead.cut.length - shown.length;
    if (shown.length > 0 || more > 0) {
        blocks.push({
            title: `${formatCount(notRead.count)} record(s) not read`,
            severity: 'warn',
            header: ['Not read'],
            rows: [
                ...shown.map((r) => [`${r.file}:${r.line}: ${r.reason}`]),
                ...(more > 0 ? [[`${formatCount(more)} more not listed`]] : []),
            ],
        });
    }
    return blocks;
}
function contextFailure(report) {
    if (report.disjointBaseline?.severity === 'fail')
        return disjointText(report.disjointBaseline);
    const env = report.environment;
    if (!hasEnvironmentFindings(env) || env.severity !== 'fail')
        return null;
    if (env.changes.length > 0)
        return 'environment changed since the baseline';
    return "this run's nodes disagree on their environment";
}
function contextMarkdown(blocks) {
    return blocks.map((block) => [
        `#### ${SEVERITY_ICON[block.severity]} ${block.title}`,
        '',
        `| ${block.header.join(' | ')} |`,
        `|${block.header.map(() => '---').join('|')}|`,
        ...block.rows.map((row) => `| ${row.map((cell) => (cell === '' ? '' : tableCodeSpan(cell))).join(' | ')} |`),
        ...(block.advice !== undefined ? ['', block.advice] : []),
    ].join('\n'));
}
function contextTerminal(blocks, shown) {
    return blocks.flatMap((block) => [
        '',
        `${block.severity.toUpperCase()}: ${block.title}`,
        ...block.rows.map((row) => block.header.length === 3 && block.title.startsWith('Environment')
            ? `  ${shown(row[0])}: ${shown(row[1])} -> ${shown(row[2])}`
            : `  ${row
                .map((cell) => shown(cell))
                .filter((cell) => cell !== '')
                .join('  ')}`),
        ...(block.advice !== undefined ? [`  ${block.advice}`] : []),
    ]);
}
function contextHtml(blocks) {
    return blocks.map((block) => [
        `<section class="context ${block.severity}">`,
        `<h2>${SEVERITY_ICON[block.severity]} ${escapeHtml(block.title)}</h2>`,
        '<table>',
        `<thead><tr>${block.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
        `<tbody>${block.rows.map((row) => `<tr>${row.map((cell) => `<td><code>${escapeHtml(cell)}</code></td>`).join('')}</tr>`).join('')}</tbody>`,
        '</table>',
        ...(block.advice !== undefined ? [`<p>${escapeHtml(block.advice)}</p>`] : []),
        '</section>',
    ].join('\n'));
}

function growth(entry) {
    return entry.delta ?? (entry.current ?? 0) - (entry.baseline ?? 0);
}
function partitionEntries(report, options = {}) {
    const problems = [];
    const improvements = [];
    const unchanged = [];
    const entries = report.entries;
    for (let i = 0; i < entries.length; i++) {
        const entry = entries[i];
        if (entry.severity !== 'ok')
            problems.push(entry);
        else if (entry.status === 'improved')
            improvements.push(entry);
        else
            unchanged.push(entry);
    }
    problems.sort((a, b) => severityRank(a) - severityRank(b) || growth(b) - growth(a) || byKindAndKey(a, b));
    improvements.sort((a, b) => growth(a) - growth(b) || byKindAndKey(a, b));
    if (options.orderUnchanged !== false)
        orderEntries(unchanged);
    return { problems, improvements, unchanged };
}
function orderEntries(entries) {
    if (!isSortedBy(entries, byKindAndKey))
        entries.sort(byKindAndKey);
    return entries;
}
function isSortedBy(items, compare) {
    for (let i = 1; i < items.length; i++)
        if (compare(items[i - 1], items[i]) > 0)
            return false;
    return true;
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
function isFirstRun(report) {
    return report.entries.length > 0 && report.entries.every((e) => e.baseline === null && e.status !== 'missing');
}
function worstFirst(a, b) {
    return severityRank(a) - severityRank(b) || Math.abs(growth(b)) - Math.abs(growth(a)) || byKindAndKey(a, b);
}
function countByStatus(entries) {
    const counts = new Map();
    for (let i = 0; i < entries.length; i++) {
        const status = entries[i].status;
        counts.set(status, (counts.get(status) ?? 0) + 1);
    }
    const known = REPORT_STATUSES;
    const rank = (s) => (known.includes(s) ? known.indexOf(s) : known.length);
    return [...counts].sort(([a], [b]) => rank(a) - rank(b) || compareKeys(a, b));
}
function plural(n, one, many = `${one}s`) {
    return `${formatCount(n)} ${n === 1 ? one : many}`;
}
function verdictText(report, title) {
    return titledVerdict(verdictOf(report), title);
}
function titledVerdict(verdict, title) {
    return verdict.titled ? `${title}${verdict.rest}` : verdict.rest;
}
function verdictOf(report) {
    const firstRun = isFirstRun(report);
    const warnings = report.entries.filter((e) => e.severity !== 'ok' && e.severity !== 'fail' && !(firstRun && e.status === 'new')).length;
    const warningNote = warnings > 0 ? ` (${plural(warnings, 'warning')})` : '';
    if (firstRun) {
        const keys = new Set(report.entries.map((e) => `${e.kind}\u0000${e.key}`)).size;
        const failing = countByStatus(report.entries.filter((e) => e.severity === 'fail' && e.status !== 'new'));
        if (failing.length > 0) {
            const why = failing.map(([status, n]) => `${formatCount(n)} ${status}`).join(', ');
            return { titled: true, rest: ` failed: ${why} (no baseline yet: ${plural(keys, 'key')} recorded)${warningNote}` };
        }
        const closed = report.result === 'fail' ? ', the gate stays closed until a baseline is committed (onMissingBaseline: fail)' : '';
        return { titled: false, rest: `No baseline yet: ${plural(keys, 'key')} recorded${closed}${warningNote}` };
    }
    if (report.result === 'fail') {
        const failing = [
            ...countByStatus(report.entries.filter((e) => e.severity === 'fail')).map(([status, n]) => `${formatCount(n)} ${status}`),
            ...[contextFailure(report)].filter((why) => why !== null),
        ].join(', ');
        return { titled: true, rest: ` failed${failing ? `: ${failing}` : ''}${warningNote}` };
    }
    const within = new Set();
    for (const e of report.entries)
        if (e.severity === 'ok' && (e.status === 'pass' || e.status === 'improved'))
            within.add(`${e.kind}\u0000${e.key}`);
    return { titled: true, rest: ` passed: ${plural(within.size, 'key')} within thresholds${warningNote}` };
}
const BASELINE_STATUSES = new Set(['regressed', 'improved', 'new', 'missing']);
function acceptsBaseline(report) {
    return (report.result === 'fail' && report.entries.some((e) => e.severity === 'fail' && BASELINE_STATUSES.has(e.status)));
}
function acceptChangeText(baselineFile, label, code) {
    const labelText = label === undefined
        ? `the baseline update label (config ${code('baselineUpdateLabel')})`
        : `the label ${code(label)}`;
    return (`To accept an intended change: ${code(`ascend-memory-gate baseline --out ${baselineFile}`)} with this check's inputs, then commit ${code(baselineFile)} ` +
        `(the Action: ${code('mode: update')}); on a pull request, ${labelText} set by a maintainer lets its own baseline count.`);
}

export { MAX_KEY_LENGTH as M, REPORT_STATUSES as R, MAX_NOTE_LENGTH as a, reportFrameSchema as b, MAX_ENTRIES as c, contextMarkdown as d, acceptChangeText as e, contextHtml as f, growth as g, countByStatus as h, contextTerminal as i, REPORT_KINDS as j, isFirstRun as k, partitionEntries as l, acceptsBaseline as m, contextBlocks as n, orderEntries as o, plural as p, verdictOf as q, reportSchema as r, titledVerdict as t, verdictText as v, worstFirst as w };

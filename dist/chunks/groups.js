import { U as UNTRACED_NOTE, H as formatFactor, f as formatCount, d as formatBytes, I as formatDelta, b as SECTIONS, c as compareKeys, s as sectionOfKind } from './evidence-sources.js';
import { h as hasEnvironmentFindings, e as environmentLabel, m as median } from './roll-up.js';
import { s as shortenName } from './names.js';
import { b as disjointText, S as STATUSES } from './types.js';
import { r as replaceControlCharacters } from './errors.js';
import { s as splitDevice, f as findDeviceSegment } from './keys.js';

function codeSpan(text) {
    const content = replaceControlCharacters(shortenName(text));
    if (content === '')
        return '` `';
    let longestRun = 0;
    for (const run of content.match(/`+/g) ?? [])
        longestRun = Math.max(longestRun, run.length);
    const fence = '`'.repeat(longestRun + 1);
    const pad = content.startsWith('`') ||
        content.endsWith('`') ||
        (content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content));
    return pad ? `${fence} ${content} ${fence}` : `${fence}${content}${fence}`;
}
function tableCodeSpan(text) {
    return codeSpan(text).replaceAll('|', '\\|');
}
function escapeMarkdownText(text) {
    return replaceControlCharacters(text).replace(/[!-/:-@[-`{-~]/g, (ch) => (ch === '@' ? '@&#8203;' : `\\${ch}`));
}
function escapeHtml(text) {
    return text.replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] ?? ch);
}
const HTML_ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function isCountEntry(entry) {
    return entry.unit === 'count';
}
function entryNote(entry) {
    return entry.note !== undefined && entry.note !== '' ? entry.note : null;
}
function formatEntryValue(entry, value) {
    return isCountEntry(entry) ? formatCount(value) : formatBytes(value);
}
function formatEntryDelta(entry, delta) {
    if (!isCountEntry(entry))
        return formatDelta(delta);
    return delta > 0 ? `+${formatCount(delta)}` : formatCount(delta);
}
function entryReason(entry) {
    const note = entryNote(entry);
    if (note !== null) {
        const limit = entry.limit !== undefined ? ` (limit ${formatEntryValue(entry, entry.limit)})` : '';
        return { rule: entry.rule, note: `${note}${limit}` };
    }
    return { rule: entry.rule, note: null };
}
function formatShortPercent(percent) {
    const factor = formatFactor(percent);
    if (factor !== null)
        return factor;
    const digits = Math.abs(percent) >= 10 ? 0 : 1;
    const s = percent.toFixed(digits);
    return percent > 0 ? `+${s}%` : `${s}%`;
}
function keepUnits(text) {
    return text.replace(/(\d) (?=[KMGTP]?i?B\b)/g, '$1\u00a0');
}
function formatTransition(entry) {
    const side = (v) => (v === null ? '—' : formatEntryValue(entry, v));
    return `${side(entry.baseline)} → ${side(entry.current)}${entry.note?.startsWith(UNTRACED_NOTE) === true ? ' (dump-time)' : ''}`;
}
function formatChange(entry) {
    if (entry.delta !== null) {
        const delta = formatEntryDelta(entry, entry.delta);
        return entry.percent === null || !Number.isFinite(entry.percent)
            ? delta
            : `${delta} (${formatShortPercent(entry.percent)})`;
    }
    if (entry.baseline === null && entry.current !== null)
        return `${formatEntryDelta(entry, entry.current)} (new)`;
    if (entry.current === null && entry.baseline !== null)
        return `${formatEntryDelta(entry, -entry.baseline)} (gone)`;
    return '—';
}
function entrySentence(entry) {
    const change = formatChange(entry).replace(' (', ', ').replace(/\)$/, '');
    return `${shortenName(entry.key)} ${entry.status}: ${formatTransition(entry)} (${change})`;
}

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
function contextMarkdown(report) {
    return contextBlocks(report).map((block) => [
        `#### ${SEVERITY_ICON[block.severity]} ${block.title}`,
        '',
        `| ${block.header.join(' | ')} |`,
        `|${block.header.map(() => '---').join('|')}|`,
        ...block.rows.map((row) => `| ${row.map((cell) => (cell === '' ? '' : tableCodeSpan(cell))).join(' | ')} |`),
        ...(block.advice !== undefined ? ['', block.advice] : []),
    ].join('\n'));
}
function contextTerminal(report, shown) {
    return contextBlocks(report).flatMap((block) => [
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
function contextHtml(report) {
    return contextBlocks(report).map((block) => [
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

function growth(entry) {
    return entry.delta ?? (entry.current ?? 0) - (entry.baseline ?? 0);
}
function splitSections(report, options = {}) {
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
    if (options.orderUnchanged !== false && !isSortedBy(unchanged, byKindAndKey))
        unchanged.sort(byKindAndKey);
    return { problems, improvements, unchanged };
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
function statusLabel(status) {
    return status;
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
    const firstRun = isFirstRun(report);
    const warnings = report.entries.filter((e) => e.severity !== 'ok' && e.severity !== 'fail' && !(firstRun && e.status === 'new')).length;
    const warningNote = warnings > 0 ? ` (${plural(warnings, 'warning')})` : '';
    if (firstRun) {
        const keys = new Set(report.entries.map((e) => `${e.kind}\u0000${e.key}`)).size;
        const failing = countByStatus(report.entries.filter((e) => e.severity === 'fail' && e.status !== 'new'));
        if (failing.length > 0) {
            const why = failing.map(([status, n]) => `${formatCount(n)} ${statusLabel(status)}`).join(', ');
            return `${title} failed: ${why} (no baseline yet: ${plural(keys, 'key')} recorded)${warningNote}`;
        }
        const closed = report.result === 'fail' ? ', the gate stays closed until a baseline is committed (onMissingBaseline: fail)' : '';
        return `No baseline yet: ${plural(keys, 'key')} recorded${closed}${warningNote}`;
    }
    if (report.result === 'fail') {
        const failing = [
            ...countByStatus(report.entries.filter((e) => e.severity === 'fail')).map(([status, n]) => `${formatCount(n)} ${statusLabel(status)}`),
            ...[contextFailure(report)].filter((why) => why !== null),
        ].join(', ');
        return `${title} failed${failing ? `: ${failing}` : ''}${warningNote}`;
    }
    const within = new Set();
    for (const e of report.entries)
        if (e.severity === 'ok' && (e.status === 'pass' || e.status === 'improved'))
            within.add(`${e.kind}\u0000${e.key}`);
    return `${title} passed: ${plural(within.size, 'key')} within thresholds${warningNote}`;
}
const BASELINE_STATUSES = new Set(['regressed', 'improved', 'new', 'missing']);
function acceptChangeText(report, baselineFile, label, code) {
    if (report.result !== 'fail' || !report.entries.some((e) => e.severity === 'fail' && BASELINE_STATUSES.has(e.status)))
        return null;
    const labelText = label === undefined
        ? `the baseline update label (config ${code('baselineUpdateLabel')})`
        : `the label ${code(label)}`;
    return (`To accept an intended change: ${code(`ascend-memory-gate baseline --out ${baselineFile}`)} with this check's inputs, then commit ${code(baselineFile)} ` +
        `(the Action: ${code('mode: update')}); on a pull request, ${labelText} set by a maintainer lets its own baseline count.`);
}

const splits = new Map();
const MAX_SPLITS = 1 << 20;
function splitOf(entry) {
    let split = splits.get(entry.key);
    if (split === undefined) {
        if (splits.size >= MAX_SPLITS)
            splits.clear();
        splits.set(entry.key, (split = splitDevice(entry.key)));
    }
    return split;
}
function displayPattern(pattern) {
    return pattern === '*' ? 'dev*' : pattern;
}
function isRollUp(group) {
    return group.entries.length > 1;
}
function worstOf(group) {
    return group.entries[0];
}
class PatternCounts {
    all;
    byKind = new Map();
    perEntry;
    constructor(all) {
        this.all = all;
        this.perEntry = new Array(all.length).fill(null);
    }
    get(kind) {
        let counts = this.byKind.get(kind);
        if (counts === undefined)
            this.byKind.set(kind, (counts = this.count(kind)));
        return counts.size > 0 ? counts : undefined;
    }
    countAll() {
        for (let i = 0; i < this.all.length; i++)
            this.get(this.all[i].kind);
    }
    count(kind) {
        const { all, perEntry } = this;
        const byPattern = new Map();
        const at = { start: 0, end: 0 };
        for (let i = 0; i < all.length; i++) {
            const entry = all[i];
            if (entry.kind !== kind)
                continue;
            const key = entry.key;
            if (!findDeviceSegment(key, at))
                continue;
            const group = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
            const device = deviceId(key, at.start + 3, at.end);
            let seen = byPattern.get(group);
            if (seen === undefined)
                byPattern.set(group, (seen = { first: device, more: null, devices: 1, entries: 1 }));
            else {
                seen.entries++;
                if (seen.more !== null)
                    seen.more.add(device);
                else if (device !== seen.first)
                    seen.more = new Set([seen.first, device]);
                seen.devices = seen.more?.size ?? 1;
            }
            perEntry[i] = seen;
        }
        for (const seen of byPattern.values())
            seen.more = null;
        return byPattern;
    }
}
const perPatternOf = new WeakMap();
function patternCounts(all) {
    let counts = perPatternOf.get(all);
    if (counts === undefined)
        perPatternOf.set(all, (counts = new PatternCounts(all)));
    return counts;
}
function devicesPerPattern(all) {
    return patternCounts(all);
}
function patternCountsOf(all) {
    const counts = patternCounts(all);
    counts.countAll();
    return counts.perEntry;
}
function deviceId(key, from, to) {
    if (to - from > 15 || (to - from > 1 && key.charCodeAt(from) === 0x30))
        return key.slice(from, to);
    let n = 0;
    for (let i = from; i < to; i++)
        n = n * 10 + key.charCodeAt(i) - 0x30;
    return n;
}
function groupEntries(entries, perPattern) {
    const classes = new Map();
    const groups = [];
    for (const entry of entries) {
        const { device, group: pattern } = splitOf(entry);
        const classId = `${entry.kind}\u0000${entry.status}\u0000${entry.severity}`;
        let byPattern = classes.get(classId);
        if (byPattern === undefined)
            classes.set(classId, (byPattern = { withDevice: new Map(), withoutDevice: new Map() }));
        const map = device === null ? byPattern.withoutDevice : byPattern.withDevice;
        const id = device === null ? entry.key : pattern;
        let group = map.get(id);
        if (group === undefined) {
            group = {
                kind: entry.kind,
                status: entry.status,
                severity: entry.severity,
                pattern: device === null ? entry.key : displayPattern(pattern),
                entries: [],
                ofDevices: device === null ? 0 : (perPattern.get(entry.kind)?.get(pattern)?.devices ?? 1),
            };
            map.set(id, group);
            groups.push(group);
        }
        group.entries.push(entry);
    }
    return groups;
}
function deviceOfEntry(entry) {
    return splitOf(entry).device;
}
function medianGrowth(group) {
    return median(group.entries.map(growth));
}
function medianPercent(group) {
    const values = group.entries.map((e) => e.percent).filter((p) => p !== null && Number.isFinite(p));
    return values.length === 0 ? null : median(values);
}
function devicesPhrase(group) {
    const n = group.entries.length;
    const of = Math.max(group.ofDevices, n);
    return `${formatCount(n)} of ${formatCount(of)} ${of === 1 ? 'device' : 'devices'}`;
}
function kindTitle(kind) {
    return sectionOfKind(kind)?.title ?? `${kind.charAt(0).toUpperCase()}${kind.slice(1)}s`;
}
function valueRange(group) {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const e of group.entries) {
        const v = e.current ?? e.baseline;
        if (v === null)
            continue;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
    }
    if (!Number.isFinite(lo))
        return '—';
    const worst = worstOf(group);
    return lo === hi ? formatEntryValue(worst, lo) : `${formatEntryValue(worst, lo)} – ${formatEntryValue(worst, hi)}`;
}

export { plural as A, keepUnits as B, formatTransition as C, formatChange as D, deviceOfEntry as E, medianPercent as F, formatShortPercent as G, statusLabel as H, escapeHtml as I, valueRange as J, countByStatus as K, splitOf as L, MAX_KEY_LENGTH as M, isCountEntry as N, contextHtml as O, REPORT_KINDS as R, contextTerminal as a, devicesPhrase as b, codeSpan as c, devicesPerPattern as d, entrySentence as e, isFirstRun as f, groupEntries as g, worstFirst as h, isRollUp as i, entryReason as j, kindTitle as k, REPORT_STATUSES as l, growth as m, medianGrowth as n, MAX_NOTE_LENGTH as o, patternCountsOf as p, reportFrameSchema as q, reportSchema as r, splitSections as s, tableCodeSpan as t, MAX_ENTRIES as u, verdictText as v, worstOf as w, escapeMarkdownText as x, contextMarkdown as y, acceptChangeText as z };

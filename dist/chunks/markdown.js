import { U as UsageError } from './sources.js';
import { f as formatPercent, b as formatBytes, a as formatDelta } from './units.js';
import { a as renderMermaidChart } from './chart.js';
import { s as splitSections, v as verdictText, o as contextMarkdown, q as deviceTotals, p as plural, d as formatCount, h as statusLabel, a as formatEntryDelta, f as formatEntryValue, e as entryReason } from './entry-values.js';
import { a as escapeMarkdownText, t as tableCodeSpan } from './escape.js';
import './snapshot.js';
import './series.js';

// The gate report as GitHub markdown (job summary, PR comment, --markdown file), degraded section by section to fit a size.
const SEE_ELSEWHERE = 'see the JSON report / job summary';
const SEVERITY_ICON = { fail: '❌', warn: '⚠️', ok: '✅' };
const ENTRY_HEADER = ['| Status | Kind | Key | Baseline | Current | Δ | Δ% | Rule / why |', '|---|---|---|--:|--:|--:|--:|---|'];
const DEVICE_FOOTNOTE = '¹ The sum of module peaks is an upper bound of the device peak: modules and memory attributes ' +
    'peak at different times, and attributes overlap (DEV_PROC_MEM is a process total). Keys without a `devN` segment (host, SVM) are not counted.';
/** Renders the report; with maxBytes, drops the charts, then unchanged rows, then improvements, then device totals, then trailing rows. */
function renderMarkdown(report, options = {}) {
    const maxBytes = options.maxBytes;
    if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
        throw new UsageError(`maxBytes must be a positive integer, got ${String(maxBytes)}`);
    }
    const chartModules = options.chartModules;
    if (chartModules !== undefined && !(Number.isSafeInteger(chartModules) && chartModules >= 0)) {
        throw new UsageError(`chartModules must be a non-negative integer, got ${String(chartModules)}`);
    }
    const parts = buildParts(report, options);
    for (const level of LEVELS) {
        const text = compose(parts, level, parts.problemRows.length);
        if (maxBytes === undefined || utf8Length(text) <= maxBytes)
            return text;
    }
    const limit = maxBytes ?? Number.POSITIVE_INFINITY;
    // Cut whole table rows from the end: the most rows that fit together with the "…N more rows" note.
    const rowCount = fittingRowCount(parts, ALL_DROPPED, limit);
    if (rowCount !== null) {
        const text = compose(parts, ALL_DROPPED, rowCount);
        if (utf8Length(text) <= limit)
            return text;
    }
    const verdictOnly = joinBlocks([parts.head]);
    if (utf8Length(verdictOnly) <= limit)
        return verdictOnly;
    throw new UsageError(`maxBytes ${limit} cannot hold even the verdict line (${utf8Length(verdictOnly)} bytes)`);
}
/** Validates a sticky-comment marker: one HTML comment that cannot end early or hide anything after it. */
function checkMarker(marker) {
    const inner = marker.startsWith('<!--') && marker.endsWith('-->') ? marker.slice(4, -3) : null;
    if (inner === null ||
        inner.includes('-->') ||
        inner.includes('--!>') ||
        inner.includes('<!--') ||
        inner.startsWith('>') ||
        inner.startsWith('->') ||
        /[\r\n]/.test(inner)) {
        throw new UsageError(`marker must be one single-line HTML comment like '<!-- ascend-memory-gate:default -->', got ${JSON.stringify(marker)}`);
    }
    return marker;
}
const ALL_DROPPED = { dropChart: true, dropUnchanged: true, dropImprovements: true, dropDevices: true };
/** The degrade steps in order: everything, then without the charts (pictures of what the tables say), unchanged rows, improvements, device totals. */
const LEVELS = [
    { dropChart: false, dropUnchanged: false, dropImprovements: false, dropDevices: false },
    { dropChart: true, dropUnchanged: false, dropImprovements: false, dropDevices: false },
    { dropChart: true, dropUnchanged: true, dropImprovements: false, dropDevices: false },
    { dropChart: true, dropUnchanged: true, dropImprovements: true, dropDevices: false },
    ALL_DROPPED,
];
function buildParts(report, options) {
    const { problems, improvements, unchanged } = splitSections(report);
    const title = escapeMarkdownText(options.title ?? 'Memory gate');
    const icon = report.result === 'fail' ? '❌' : '✅';
    const headLines = [];
    if (options.marker !== undefined)
        headLines.push(checkMarker(options.marker));
    headLines.push(`### ${icon} ${verdictText(report, title)}`);
    if (options.runUrl !== undefined)
        headLines.push('', `[Workflow run](${linkDestination(options.runUrl)})`);
    for (const block of contextMarkdown(report))
        headLines.push('', block);
    const totals = deviceTotals(report.entries);
    return {
        head: headLines.join('\n'),
        problemHeading: problems.length > 0 ? `#### Failing and warning keys (${formatCount(problems.length)})` : null,
        problemRows: problems.map(entryRow),
        chart: options.chartModules === 0 ? null : renderMermaidChart(report.entries, { modules: options.chartModules ?? 3 }),
        devices: totals.length > 0 ? renderDevices(totals) : null,
        improvements: improvements.length > 0
            ? [`#### Improvements (${formatCount(improvements.length)})`, '', ...ENTRY_HEADER, ...improvements.map(entryRow)].join('\n')
            : null,
        improvementCount: improvements.length,
        unchanged: unchanged.length > 0
            ? [
                '<details>',
                `<summary>${plural(unchanged.length, 'key')} within thresholds</summary>`,
                '',
                ...ENTRY_HEADER,
                ...unchanged.map(entryRow),
                '',
                '</details>',
            ].join('\n')
            : null,
        unchangedCount: unchanged.length,
    };
}
function compose(parts, level, rowCount) {
    const blocks = [parts.head];
    if (parts.problemHeading !== null) {
        if (rowCount > 0)
            blocks.push(`${parts.problemHeading}\n\n${[...ENTRY_HEADER, ...parts.problemRows.slice(0, rowCount)].join('\n')}`);
        else
            blocks.push(parts.problemHeading);
        // A blank line before the note: a line right under a table would become one more table row.
        const cut = parts.problemRows.length - rowCount;
        if (cut > 0)
            blocks.push(moreRowsNote(cut));
    }
    if (parts.chart !== null)
        blocks.push(level.dropChart ? omittedNote('module peak charts') : parts.chart);
    if (parts.devices !== null)
        blocks.push(level.dropDevices ? omittedNote('per-device totals') : parts.devices);
    if (parts.improvements !== null) {
        blocks.push(level.dropImprovements ? omittedNote(plural(parts.improvementCount, 'improvement')) : parts.improvements);
    }
    if (parts.unchanged !== null) {
        blocks.push(level.dropUnchanged ? omittedNote(`${plural(parts.unchangedCount, 'key')} within thresholds`) : parts.unchanged);
    }
    return joinBlocks(blocks);
}
function joinBlocks(blocks) {
    return `${blocks.join('\n\n')}\n`;
}
function moreRowsNote(rows) {
    return `…${formatCount(rows)} more ${rows === 1 ? 'row' : 'rows'}: ${SEE_ELSEWHERE}`;
}
function omittedNote(what) {
    return `_${what} not shown to fit the size limit: ${SEE_ELSEWHERE}_`;
}
/** The most leading problem rows that fit in limit with the note; null when not even the table heading does. */
function fittingRowCount(parts, level, limit) {
    const total = parts.problemRows.length;
    // The document with no rows: every later row adds its bytes plus a newline, the first also the table header.
    const bare = utf8Length(compose(parts, level, 0));
    const noteBytes = (rows) => utf8Length(moreRowsNote(rows));
    const headerBytes = utf8Length(`\n\n${ENTRY_HEADER.join('\n')}`);
    let best = bare <= limit ? 0 : null;
    let size = bare - noteBytes(total) + headerBytes;
    for (let rows = 1; rows < total; rows++) {
        size += utf8Length(parts.problemRows[rows - 1] ?? '') + 1;
        if (size + noteBytes(total - rows) <= limit)
            best = rows;
        else if (size > limit)
            break;
    }
    return best;
}
function entryRow(entry) {
    const icon = SEVERITY_ICON[entry.severity] ?? '❔';
    const cells = [
        `${icon} ${escapeMarkdownText(statusLabel(entry.status))}`,
        escapeMarkdownText(entry.kind),
        tableCodeSpan(entry.key),
        valueCell(entry, entry.baseline),
        valueCell(entry, entry.current),
        entry.delta === null ? '—' : formatEntryDelta(entry, entry.delta),
        entry.percent === null ? '—' : formatPercent(entry.percent),
        reasonCell(entry),
    ];
    return `| ${cells.join(' | ')} |`;
}
/** The rule's glob in a code span, and a finding's note as escaped text (it quotes keys from files). */
function reasonCell(entry) {
    const { rule, note } = entryReason(entry);
    const ruleText = rule === null ? (note === null ? 'default' : '') : tableCodeSpan(rule);
    // escapeMarkdownText backslash-escapes every `|`, so the note cannot split the row.
    return [ruleText, note === null ? '' : escapeMarkdownText(note)].filter(Boolean).join(' — ');
}
function valueCell(entry, value) {
    return value === null ? '—' : formatEntryValue(entry, value);
}
function renderDevices(totals) {
    const hasKernels = totals.some((t) => t.kernels !== null);
    const header = hasKernels
        ? ['| Device | Modules, baseline¹ | Modules, current¹ | Δ | Kernels, baseline | Kernels, current | Δ |', '|---|--:|--:|--:|--:|--:|--:|']
        : ['| Device | Modules, baseline¹ | Modules, current¹ | Δ |', '|---|--:|--:|--:|'];
    const rows = totals.map((t) => {
        const cells = [t.device, ...sumCells(t.modules)];
        if (hasKernels)
            cells.push(...sumCells(t.kernels));
        return `| ${cells.join(' | ')} |`;
    });
    return ['#### Per-device totals', '', ...header, ...rows, '', DEVICE_FOOTNOTE].join('\n');
}
function sumCells(sum) {
    if (sum === null)
        return ['—', '—', '—'];
    return [formatBytes(sum.baseline), formatBytes(sum.current), formatDelta(sum.current - sum.baseline)];
}
/** An http(s) URL made safe as a link destination: the URL serializer encodes spaces and `<>"`, we add `()|`. */
function linkDestination(url) {
    let parsed;
    try {
        parsed = new URL(url);
    }
    catch {
        throw new UsageError(`runUrl is not a URL: ${JSON.stringify(url)}`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        throw new UsageError(`runUrl must be an http(s) URL, got ${JSON.stringify(url)}`);
    }
    return parsed.href.replace(/[()|'\\*_[\]]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
function utf8Length(text) {
    return Buffer.byteLength(text, 'utf8');
}

export { checkMarker, renderMarkdown };

import { U as UsageError, r as replaceControlCharacters } from './errors.js';
import { r as renderMermaidChart } from './chart.js';
import { b as baselineCommand, k as keepUnits, f as formatTransition, a as formatChange, c as deviceOfEntry, m as medianGrowth, e as medianPercent, h as formatShortPercent, j as devicesPhrase, l as kindTitle, n as figureCell, w as worstOf, i as isRollUp, v as valueRange } from './view.js';
import { s as shortenName } from './names.js';
import { e as escapeMarkdownText, t as tableCodeSpan, c as codeSpan, a as escapeHtml } from './escape.js';
import { t as titledVerdict, d as contextMarkdown, e as acceptChangeText, p as plural } from './partition.js';
import { f as formatCount, V as formatDelta, d as formatBytes } from './evidence-sources.js';
import { s as superscript } from './text-layout.js';
import { s as sparkline, t as trendRange, a as stepContext, b as stepLevels } from './trend-text.js';
import { R as RECENT_POINTS } from './moved.js';
import './thresholds.js';
import './format.js';
import './roll-up.js';
import './keys.js';
import './history-view.js';
import './trends.js';
import './index.js';
import './limits.js';
import 'node:fs';
import 'node:fs/promises';
import 'node:path';
import './_commonjsHelpers.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import 'node:crypto';
import './types.js';
import './groups.js';
import './string-table.js';
import './reader.js';

const SEE_ELSEWHERE = 'see the JSON report / job summary';
const SEVERITY_ICON = { fail: '❌', warn: '⚠️', ok: '✅' };
const ENTRY_HEADER = ['| Status | Key | Baseline → current | Δ (Δ%) |', '|---|---|--:|--:|'];
const DEVICES_PER_GROUP = 10;
const COLLAPSED_ROWS = 200;
const NBSP = '\u00a0';
const DEVICE_FOOTNOTE = 'Sums over the keys with a `devN` segment. A sum of module peaks is an upper bound of the device peak: modules and memory attributes ' +
    'peak at different times, and attributes overlap (DEV\\_PROC\\_MEM is a process total). Keys without a device (host, SVM) are not counted.';
function renderMarkdown(view, options = {}) {
    const maxBytes = options.maxBytes;
    if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
        throw new UsageError(`maxBytes must be a positive integer, got ${String(maxBytes)}`);
    }
    const chartModules = options.chartModules;
    if (chartModules !== undefined && !(Number.isSafeInteger(chartModules) && chartModules >= 0)) {
        throw new UsageError(`chartModules must be a non-negative integer, got ${String(chartModules)}`);
    }
    const parts = buildParts(view, options);
    const all = parts.problemRows.length;
    for (const level of LEVELS) {
        const text = compose(parts, level, all);
        if (maxBytes === undefined || utf8Length(text) <= maxBytes)
            return text;
    }
    const limit = maxBytes ?? Number.POSITIVE_INFINITY;
    let lo = 0;
    let hi = all;
    if (utf8Length(compose(parts, ALL_DROPPED, 0)) <= limit) {
        while (lo < hi) {
            const mid = Math.ceil((lo + hi) / 2);
            if (utf8Length(compose(parts, ALL_DROPPED, mid)) <= limit)
                lo = mid;
            else
                hi = mid - 1;
        }
        return compose(parts, ALL_DROPPED, lo);
    }
    const verdictOnly = joinBlocks([parts.head]);
    if (utf8Length(verdictOnly) <= limit)
        return verdictOnly;
    throw new UsageError(`maxBytes ${limit} cannot hold even the verdict line (${utf8Length(verdictOnly)} bytes)`);
}
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
const ALL_DROPPED = {
    dropChart: true,
    dropTrends: true,
    dropDeviceLists: true,
    dropUnchanged: true,
    dropImprovements: true,
    dropDevices: true,
};
const LEVELS = [
    {
        dropChart: false,
        dropTrends: false,
        dropDeviceLists: false,
        dropUnchanged: false,
        dropImprovements: false,
        dropDevices: false,
    },
    {
        dropChart: true,
        dropTrends: false,
        dropDeviceLists: false,
        dropUnchanged: false,
        dropImprovements: false,
        dropDevices: false,
    },
    {
        dropChart: true,
        dropTrends: true,
        dropDeviceLists: false,
        dropUnchanged: false,
        dropImprovements: false,
        dropDevices: false,
    },
    {
        dropChart: true,
        dropTrends: true,
        dropDeviceLists: true,
        dropUnchanged: false,
        dropImprovements: false,
        dropDevices: false,
    },
    {
        dropChart: true,
        dropTrends: true,
        dropDeviceLists: true,
        dropUnchanged: true,
        dropImprovements: false,
        dropDevices: false,
    },
    {
        dropChart: true,
        dropTrends: true,
        dropDeviceLists: true,
        dropUnchanged: true,
        dropImprovements: true,
        dropDevices: false,
    },
    ALL_DROPPED,
];
function buildParts(view, options) {
    const { report, firstRun, problems, recorded } = view;
    const title = escapeMarkdownText(options.title ?? 'Memory gate');
    const icon = OUTCOME_ICON[view.outcome];
    const headLines = [];
    if (options.marker !== undefined)
        headLines.push(checkMarker(options.marker));
    if (options.preface !== undefined)
        headLines.push(options.preface, '');
    headLines.push(`### ${icon} ${titledVerdict(view.verdict, title)}`);
    if (options.runUrl !== undefined)
        headLines.push('', `[Workflow run](${linkDestination(options.runUrl)})`);
    for (const block of contextMarkdown(view.context))
        headLines.push('', block);
    if (firstRun)
        headLines.push('', firstRunHowTo(options.baselineFile ?? 'memory-baseline.json'));
    const trends = view.trends;
    const problemRows = view.problemRows.map((r) => groupRow(r, trends));
    const rowCount = view.problemRows.length;
    return {
        head: headLines.join('\n'),
        problemHeading: problems.length > 0
            ? `#### Failing and warning keys (${formatCount(problems.length)}${rowCount < problems.length ? ` in ${plural(rowCount, 'row')}` : ''})`
            : null,
        problemRows,
        recorded: recorded.length > 0 ? recordedList(view.groups(recorded), recorded.length) : null,
        chart: firstRun || options.chartModules === 0
            ? null
            : renderMermaidChart(report.entries, { modules: options.chartModules ?? 3 }),
        devices: view.devices === null ? null : renderDevices(view.devices),
        improvements: view.improvementRows.map((r) => groupRow(r, trends)),
        improvementCount: view.improvements.length,
        unchanged: view.unchanged.length > 0 ? unchangedList(view.groups(view.unchanged), view.unchanged.length) : null,
        unchangedCount: view.unchanged.length,
        trendLegend: trends !== undefined && problemRows.some((r) => r.trend !== null) ? trendLegend(trends) : null,
        moved: trends === undefined ? null : movedList(view, trends),
        banded: view.bandedRows.map((r) => groupRow(r, trends)),
        bandedCount: view.banded.length,
        accept: view.acceptsBaseline
            ? acceptChangeText(options.baselineFile ?? 'memory-baseline.json', options.baselineUpdateLabel, (t) => tableCodeSpan(t))
            : null,
    };
}
const OUTCOME_ICON = { fail: '❌', first: 'ℹ️', pass: '✅' };
function trendLegend(trends) {
    return `Under each key: its last ${formatCount(RECENT_POINTS)} runs on ${branchName(trends)}, lowest ▁ to highest █ (a key group: its largest device at each run).`;
}
function branchName(trends) {
    return trends.branch === undefined ? 'the default branch' : codeSpan(trends.branch);
}
function movedList(view, trends) {
    if (view.moved === null)
        return null;
    const lines = [`#### Moved on ${branchName(trends)} in the last ${formatCount(RECENT_POINTS)} runs`, ''];
    for (const m of view.moved.shown)
        lines.push(`- ${stepMarkdown(m.step, trends)}`);
    if (view.moved.more > 0)
        lines.push(`- …and ${plural(view.moved.more, 'more')}: \`ascend-memory-gate history show\` lists them`);
    return lines.join('\n');
}
function stepMarkdown(s, trends) {
    const commit = s.url === undefined ? codeSpan(s.sha) : `[${codeSpan(s.sha)}](${linkDestination(s.url)})`;
    const context = stepContext(s.step, codeSpan, escapeMarkdownText);
    const largest = s.largest ? ' (largest device)' : '';
    return `${codeSpan(s.subject)}${largest}: ${keepUnits(stepLevels(s.step, s.unit))} since ${commit} (${s.ago} on ${branchName(trends)})${context === null ? '' : `; ${context}`}.`;
}
function rowTrend(row, trends, notes) {
    const t = row.trend;
    if (trends === undefined || t === null)
        return null;
    if (t.step !== null)
        notes.push(stepMarkdown(t.step, trends));
    const of = t.largestOf === null ? '' : ` (largest of ${tableCodeSpan(t.largestOf)})`;
    return `${tableCodeSpan(sparkline(t.trend.recent, t.trend.min, t.trend.max))} ${keepUnits(trendRange(t.trend, t.unit))}${of}`;
}
function firstRunHowTo(baselineFile) {
    const file = tableCodeSpan(baselineFile);
    return [
        'Nothing was compared: there is no baseline yet. To start gating, commit one:',
        `- **GitHub Actions**: run the workflow with \`mode: update\` (see \`examples/workflows/update-baseline.yml\`) and merge the pull request it opens;`,
        `- **locally**: \`${baselineCommand(baselineFile.includes('`') ? 'FILE' : baselineFile)}\` with the input flags of the check, then commit ${file}.`,
    ].join('\n');
}
function compose(parts, level, rowCount) {
    const blocks = [parts.head];
    if (parts.problemHeading !== null) {
        const shown = parts.problemRows.slice(0, rowCount);
        blocks.push(rowCount > 0 ? `${parts.problemHeading}\n\n${table(shown, level.dropTrends)}` : parts.problemHeading);
        if (parts.trendLegend !== null && !level.dropTrends && shown.some((r) => r.trend !== null))
            blocks.push(parts.trendLegend);
        const cut = parts.problemRows.length - rowCount;
        if (cut > 0)
            blocks.push(moreRowsNote(cut));
        const notes = explanations(shown);
        if (notes !== null)
            blocks.push(notes);
        const lists = shown.map((r) => r.devices).filter((d) => d !== null);
        if (lists.length > 0)
            blocks.push(level.dropDeviceLists ? omittedNote('the per-device lists of rolled-up rows') : lists.join('\n\n'));
    }
    if (parts.moved !== null)
        blocks.push(level.dropTrends ? omittedNote('what moved on the default branch') : parts.moved);
    if (parts.banded.length > 0) {
        blocks.push(`#### Within the noise band (${formatCount(parts.bandedCount)})\n\nPast the tolerance, within the spread of the default branch: these pass.\n\n${table(parts.banded, level.dropTrends)}`);
        const notes = explanations(parts.banded);
        if (notes !== null)
            blocks.push(notes);
    }
    if (parts.recorded !== null)
        blocks.push(level.dropUnchanged ? omittedNote('the list of recorded keys') : parts.recorded);
    if (parts.chart !== null)
        blocks.push(level.dropChart ? omittedNote('module peak charts') : parts.chart);
    if (parts.devices !== null)
        blocks.push(level.dropDevices ? omittedNote('per-device totals') : parts.devices);
    if (parts.improvements.length > 0) {
        if (level.dropImprovements)
            blocks.push(omittedNote(plural(parts.improvementCount, 'improvement')));
        else {
            blocks.push(`#### Improvements (${formatCount(parts.improvementCount)})\n\n${table(parts.improvements, level.dropTrends)}`);
            const notes = explanations(parts.improvements);
            if (notes !== null)
                blocks.push(notes);
        }
    }
    if (parts.unchanged !== null) {
        blocks.push(level.dropUnchanged ? omittedNote(`${plural(parts.unchangedCount, 'key')} within thresholds`) : parts.unchanged);
    }
    if (parts.accept !== null)
        blocks.push(parts.accept);
    return joinBlocks(blocks);
}
function table(rows, dropTrends = true) {
    const numbers = new Map();
    const lines = rows.map((row) => {
        const marks = row.notes.map((note) => {
            let n = numbers.get(note);
            if (n === undefined)
                numbers.set(note, (n = numbers.size + 1));
            return superscript(n);
        });
        const [status = '', key = '', ...rest] = row.cells;
        const withMarks = marks.length > 0 ? `${key}${NBSP}${marks.join('˒')}` : key;
        const withTrend = row.trend !== null && !dropTrends ? `${withMarks}<br>${row.trend}` : withMarks;
        return `| ${[status, withTrend, ...rest].join(' | ')} |`;
    });
    return [...ENTRY_HEADER, ...lines].join('\n');
}
function explanations(rows) {
    const seen = new Set();
    const list = [];
    for (const row of rows) {
        for (const note of row.notes) {
            if (seen.has(note))
                continue;
            seen.add(note);
            list.push(`${list.length + 1}. ${note}`);
        }
    }
    return list.length === 0 ? null : list.join('\n');
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
function groupRow(row, trends) {
    const { group, worst } = row;
    const icon = SEVERITY_ICON[group.severity] ?? '❔';
    const status = `${icon}${NBSP}${statusText(group.status)}`;
    if (!row.rolled) {
        const notes = entryNotes(row, null);
        const trend = rowTrend(row, trends, notes);
        return {
            cells: [status, keyCode(worst.key), keepUnits(formatTransition(worst)), keepUnits(formatChange(worst))],
            notes,
            devices: null,
            trend,
        };
    }
    const device = deviceOfEntry(worst) ?? '';
    const median = medianGrowth(group);
    const percent = medianPercent(group);
    const medianText = `median ${formatDelta(median)}${percent === null ? '' : ` (${formatShortPercent(percent)})`}`;
    const notes = entryNotes(row, device);
    const trend = rowTrend(row, trends, notes);
    return {
        cells: [
            status,
            `${keyCode(group.pattern)}<br>${devicesPhrase(group)}, worst ${tableCodeSpan(device)}`,
            keepUnits(formatTransition(worst)),
            `${keepUnits(formatChange(worst))}<br>${keepUnits(medianText)}`,
        ],
        notes,
        devices: deviceList(group),
        trend,
    };
}
function entryNotes(row, worstDevice) {
    const { rule, note, worst: entry } = row;
    const notes = [];
    if (rule !== null)
        notes.push(`Held to the rule ${codeSpan(rule)} of the config.`);
    if (note !== null) {
        const subject = worstDevice === null ? codeSpan(entry.key) : `${codeSpan(entry.key)} (the worst device)`;
        notes.push(`${subject}: ${escapeMarkdownText(note)}`);
    }
    return notes;
}
function deviceList(group) {
    const shown = group.entries.slice(0, DEVICES_PER_GROUP);
    const rows = shown.map((e) => `| ${tableCodeSpan(deviceOfEntry(e) ?? e.key)} | ${keepUnits(formatTransition(e))} | ${keepUnits(formatChange(e))} |`);
    const more = group.entries.length - shown.length;
    return [
        '<details>',
        `<summary><code>${escapeHtml(replaceControlCharacters(shortenName(group.pattern)))}</code> ${escapeHtml(group.status)} on ${devicesPhrase(group)}</summary>`,
        '',
        '| Device | Baseline → current | Δ (Δ%) |',
        '|---|--:|--:|',
        ...rows,
        ...(more > 0 ? ['', `…and ${plural(more, 'more device')}: ${SEE_ELSEWHERE}`] : []),
        '',
        '</details>',
    ].join('\n');
}
function recordedList(groups, keys) {
    return collapsedTable(groups, `${plural(keys, 'key')} recorded (no baseline to compare with)`);
}
function unchangedList(groups, keys) {
    return collapsedTable(groups, `${plural(keys, 'key')} within thresholds`);
}
function collapsedTable(groups, summary) {
    const shown = groups.slice(0, COLLAPSED_ROWS);
    const rows = shown.map((g) => {
        const worst = worstOf(g);
        const key = isRollUp(g) ? `${keyCode(g.pattern)} (${devicesPhrase(g)})` : keyCode(worst.key);
        const value = isRollUp(g) ? keepUnits(valueRange(g)) : keepUnits(formatTransition(worst));
        return `| ${SEVERITY_ICON[g.severity] ?? '❔'}${NBSP}${statusText(g.status)} | ${key} | ${value} |`;
    });
    const more = groups.length - shown.length;
    return [
        '<details>',
        `<summary>${escapeHtml(summary)}</summary>`,
        '',
        '| Status | Key | Baseline → current |',
        '|---|---|--:|',
        ...rows,
        ...(more > 0 ? ['', `…${plural(more, 'more row')}: ${SEE_ELSEWHERE}`] : []),
        '',
        '</details>',
    ].join('\n');
}
const KEY_WRAP_FROM = 25;
function keyCode(whole) {
    const key = shortenName(whole);
    if ([...key].length < KEY_WRAP_FROM || !key.includes('/'))
        return tableCodeSpan(key);
    const segments = key.split('/');
    return segments.map((s, i) => tableCodeSpan(i < segments.length - 1 ? `${s}/` : s)).join('<wbr>');
}
function statusText(status) {
    return /^[a-z]+(?:-[a-z]+)*$/.test(status) ? status : escapeMarkdownText(status);
}
function renderDevices(devices) {
    const hasCapacity = devices.rows.some((t) => t.capacity !== null);
    const [first, ...others] = devices.kinds;
    const header = ['Device'];
    if (first !== undefined)
        header.push(`${kindTitle(first)}† baseline → current`, 'Δ');
    if (hasCapacity)
        header.push('Capacity', 'Headroom');
    for (const kind of others)
        header.push(`${kindTitle(kind)} Δ`);
    for (const column of devices.figureColumns)
        header.push(column.gap === undefined ? `${column.title} baseline → current` : column.title);
    const rows = devices.rows.map((t) => {
        const cells = [`${t.flagged ? `⚠️${NBSP}` : ''}${tableCodeSpan(t.device)}`];
        const sum = (kind) => t.sums.get(kind);
        if (first !== undefined) {
            const s = sum(first);
            cells.push(s === undefined ? '—' : keepUnits(`${formatBytes(s.baseline)} → ${formatBytes(s.current)}`), s === undefined ? '—' : keepUnits(formatDelta(s.current - s.baseline)));
        }
        if (hasCapacity)
            cells.push(t.capacity === null ? '—' : keepUnits(formatBytes(t.capacity)), t.headroom === null ? '—' : keepUnits(formatBytes(t.headroom)));
        for (const kind of others) {
            const s = sum(kind);
            cells.push(s === undefined ? '—' : keepUnits(formatDelta(s.current - s.baseline)));
        }
        for (const column of devices.figureColumns)
            cells.push(keepUnits(figureCell(t, column)));
        return `| ${cells.join(' | ')} |`;
    });
    const align = header.map((_, i) => (i === 0 ? '---' : '--:'));
    const lines = ['#### Per-device totals', '', `| ${header.join(' | ')} |`, `|${align.join('|')}|`, ...rows];
    if (devices.rest !== null)
        lines.push('', devices.rest);
    if (first !== undefined || devices.figureColumns.length === 0)
        lines.push('', `† ${DEVICE_FOOTNOTE}${hasCapacity ? ' Headroom: the capacity minus the device estimate of the headroom verdict.' : ''}`);
    for (const note of devices.figureNotes)
        lines.push('', escapeMarkdownText(note));
    return lines.join('\n');
}
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

export { DEVICE_FOOTNOTE, checkMarker, renderMarkdown };

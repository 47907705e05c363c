import { T as section, f as formatCount } from './evidence-sources.js';
import { r as replaceControlCharacters } from './errors.js';
import { s as shortenName } from './names.js';
import { a as escapeHtml } from './escape.js';
import { h as htmlPage, r as renderTrendSvg, T as TREND_COLOR, B as BASELINE_UPDATE_COLOR, E as ENVIRONMENT_COLOR } from './trend-chart.js';
import './thresholds.js';
import './format.js';
import { R as RECENT_POINTS } from './moved.js';
import { p as plural } from './partition.js';
import { c as shortSha, a as stepContext, t as trendRange, b as stepLevels, r as runsAgo } from './trend-text.js';
import 'node:crypto';
import 'node:fs/promises';
import 'node:path';
import './reader.js';
import './_commonjsHelpers.js';
import './roll-up.js';
import './index.js';
import './limits.js';
import 'node:fs';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './keys.js';
import './string-table.js';
import './groups.js';
import './types.js';

const CHARTS_PER_SECTION = 60;
const STYLE = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; color: #1f2328; background: #fff; margin: 0; }
main { max-width: 1160px; margin: 0 auto; padding: 16px 12px 40px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 17px; margin: 20px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
.meta, .note { color: #59636e; }
.note { font-size: 12px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
a { color: #0969da; }
ul.legend { list-style: none; padding: 0; margin: 8px 0; display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; }
ul.legend li { display: flex; align-items: center; gap: 6px; }
input.tab { position: absolute; opacity: 0; pointer-events: none; }
label.tab { display: inline-block; padding: 4px 12px; margin: 8px 4px 0 0; border: 1px solid #d0d7de; border-radius: 6px 6px 0 0; cursor: pointer; background: #f6f8fa; }
input.tab:checked + label.tab { background: #fff; border-bottom-color: #fff; font-weight: 600; }
input.tab:focus-visible + label.tab { outline: 2px solid #0969da; }
.panel { display: none; border-top: 1px solid #d0d7de; padding-top: 4px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 440px), 1fr)); gap: 4px 20px; }
figure.trend { margin: 10px 0; min-width: 0; }
figure.trend figcaption { margin-bottom: 2px; overflow-wrap: anywhere; }
figure.trend .moved { color: #cf222e; }
svg.trend { display: block; }
svg.trend .axis { font-size: 13px; fill: #59636e; }
svg.trend .point:hover, svg.trend a:focus .point { stroke: #000; stroke-width: 2; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
@media (max-width: 640px) {
  table.runs, table.runs tbody, table.runs tr, table.runs td { display: block; width: auto; }
  table.runs thead { display: none; }
  table.runs tr { border: 1px solid #d0d7de; margin: 0 0 8px; }
  table.runs td { border: none; padding: 1px 8px; }
  table.runs td[data-label]::before { content: attr(data-label) ": "; color: #59636e; }
}
`;
function renderDashboard(view, options = {}) {
    const title = options.title ?? 'Memory history';
    const body = [`<h1>${text(title)}</h1>`];
    const n = view.points.length;
    const branch = view.branch === undefined ? 'the default branch' : `<code>${text(view.branch)}</code>`;
    const subject = view.gate === undefined ? `Runs of ${branch}` : `Gate <code>${text(view.gate)}</code> on ${branch}`;
    if (n === 0) {
        body.push(`<p class="meta">${subject}: none recorded yet.</p>`);
        return page(title, body, '');
    }
    const first = view.points[0];
    const last = view.points[n - 1];
    body.push(`<p class="meta">${subject}: ${text(plural(n, 'run'))}, ${commitLink(view, first)} (${text(first.time)}) to ${commitLink(view, last)} (${text(last.time)}).</p>`);
    body.push(legend());
    const bySection = new Map(view.sections.map((name) => [name, []]));
    for (const subject of view.subjects()) {
        const list = bySection.get(subject.section);
        if (list === undefined)
            bySection.set(subject.section, [subject]);
        else
            list.push(subject);
    }
    const sections = [...bySection.keys()].filter((name) => bySection.get(name).length > 0);
    const tabs = [];
    const panels = [];
    let css = '';
    sections.forEach((name, i) => {
        const declaration = section(name);
        const list = bySection.get(name);
        tabs.push(`<input class="tab" type="radio" name="section" id="tab-${name}"${i === 0 ? ' checked' : ''}><label class="tab" for="tab-${name}">${text(declaration.title)} (${formatCount(list.length)})</label>`);
        css += `#tab-${name}:checked ~ .panels #panel-${name} { display: block; }\n`;
        const shown = view.rows(list.slice(0, CHARTS_PER_SECTION));
        const moved = shown.filter((r) => r.trend.step !== null && r.trend.step.runsAgo < RECENT_POINTS).length;
        panels.push([
            `<section class="panel" id="panel-${name}">`,
            `<h2>${text(declaration.title)}</h2>`,
            `<p class="note">${text(plural(list.length, 'figure'))}${moved > 0 ? `, ${text(formatCount(moved))} moved in the last ${RECENT_POINTS} runs (first)` : ''}; a key group (<code>*</code> for the device) is drawn as its largest device at each run.</p>`,
            '<div class="charts">',
            ...shown.map((row) => chart(row, view)),
            '</div>',
            ...(list.length > CHARTS_PER_SECTION
                ? [
                    `<p class="note">…and ${text(plural(list.length - CHARTS_PER_SECTION, 'more'))}: <code>ascend-memory-gate history show --history FILE --key PATTERN</code> lists them.</p>`,
                ]
                : []),
            '</section>',
        ].join('\n'));
    });
    body.push(...tabs, '<div class="panels">', ...panels, '</div>');
    body.push(...runsTable(view));
    return page(title, body, css);
}
function page(title, body, css) {
    return htmlPage(text(title), `${STYLE}${css}`, body);
}
function legend() {
    const swatch = (svg) => `<svg width="18" height="12" viewBox="0 0 18 12" aria-hidden="true">${svg}</svg>`;
    return [
        '<ul class="legend">',
        `<li>${swatch(`<circle cx="9" cy="6" r="3" fill="${TREND_COLOR}"/>`)}a run (hover: commit, run, value; click: the commit)</li>`,
        `<li>${swatch('<circle cx="9" cy="6" r="4" fill="#cf222e"/>')}the first run of a new level</li>`,
        `<li>${swatch(`<line x1="9" y1="0" x2="9" y2="12" stroke="${BASELINE_UPDATE_COLOR}" stroke-width="2" stroke-dasharray="4 3"/>`)}baseline updated</li>`,
        `<li>${swatch(`<line x1="9" y1="0" x2="9" y2="12" stroke="${ENVIRONMENT_COLOR}" stroke-width="2" stroke-dasharray="1 3"/>`)}environment changed</li>`,
        '</ul>',
    ].join('');
}
function chart(row, view) {
    const { trend, unit } = row;
    const step = trend.step;
    const context = step === null ? null : stepContext(step);
    const caption = step === null
        ? text(trendRange(trend, unit))
        : `<span class="moved">${text(stepLevels(step, unit))} since ${commitLink(view, view.points[step.point])} (${text(runsAgo(step))})</span>${context === null ? '' : `; ${text(context)}`}`;
    const subject = shortenName(row.subject);
    const svg = renderTrendSvg({
        trend,
        points: view.points,
        changes: view.changes,
        unit,
        commitUrl: view.commitUrl,
        label: subject,
    });
    return `<figure class="trend"><figcaption><code>${text(subject)}</code>: ${caption}</figcaption>${svg}</figure>`;
}
function runsTable(view) {
    const n = view.points.length;
    const from = Math.max(0, n - RECENT_POINTS);
    const rows = [];
    for (let p = n - 1; p >= from; p--) {
        const meta = view.points[p];
        const change = view.changes[p];
        const changed = [];
        if (change.baselineUpdated)
            changed.push('baseline updated');
        if (change.environment !== null)
            changed.push(change.environment);
        rows.push(`<tr><td data-label="Commit">${commitLink(view, meta)}</td><td data-label="Run">${text(meta.run ?? '—')}${meta.attempt !== undefined && meta.attempt > 1 ? text(` (attempt ${meta.attempt})`) : ''}</td><td data-label="Time">${text(meta.time)}</td><td data-label="Changed">${text(changed.join('; ') || '—')}</td></tr>`);
    }
    return [
        '<section id="runs">',
        `<h2>The last ${text(plural(n - from, 'run'))}</h2>`,
        '<table class="runs"><thead><tr><th>Commit</th><th>Run</th><th>Time</th><th>Changed at that run</th></tr></thead><tbody>',
        ...rows,
        '</tbody></table>',
        '</section>',
    ];
}
function commitLink(view, meta) {
    const url = view.commitUrl(meta.commit);
    const code = `<code>${text(shortSha(meta.commit))}</code>`;
    return url === undefined ? code : `<a href="${text(url)}">${code}</a>`;
}
function text(value) {
    return escapeHtml(replaceControlCharacters(value));
}

export { renderDashboard };

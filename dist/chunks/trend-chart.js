import { a as escapeHtml } from './escape.js';
import { r as replaceControlCharacters } from './errors.js';
import { d as trendValue, c as shortSha } from './trend-text.js';

const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
function htmlPage(title, style, body) {
    return [
        '<!DOCTYPE html>',
        '<html lang="en">',
        '<head>',
        '<meta charset="utf-8">',
        `<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">`,
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        `<title>${title}</title>`,
        `<style>${style}</style>`,
        '</head>',
        '<body>',
        '<main>',
        ...body,
        '</main>',
        '</body>',
        '</html>',
        '',
    ].join('\n');
}

const TREND_COLOR = '#0969da';
const BASELINE_COLOR = '#6e7781';
const BASELINE_UPDATE_COLOR = '#8250df';
const ENVIRONMENT_COLOR = '#bc4c00';
const WIDTH = 640;
const HEIGHT = 170;
const LEFT = 74;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 30;
function renderTrendSvg(chart) {
    const { trend, points, unit } = chart;
    const n = trend.values.length;
    const present = trend.values.filter((v) => v !== null);
    let lo = Math.min(...present, chart.baseline ?? Number.POSITIVE_INFINITY);
    let hi = Math.max(...present, chart.baseline ?? Number.NEGATIVE_INFINITY);
    if (lo === hi) {
        const pad = Math.max(1, Math.abs(lo) / 10);
        lo -= pad;
        hi += pad;
    }
    const plotW = WIDTH - LEFT - RIGHT;
    const plotH = HEIGHT - TOP - BOTTOM;
    const x = (p) => LEFT + (n <= 1 ? plotW / 2 : (p / (n - 1)) * plotW);
    const y = (v) => TOP + plotH - ((v - lo) / (hi - lo)) * plotH;
    const f = (v) => v.toFixed(1);
    const parts = [];
    parts.push(`<svg class="trend" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-label="${text(`${chart.label}: ${n} runs`)}" xmlns="http://www.w3.org/2000/svg">`);
    parts.push(`<rect x="${LEFT}" y="${TOP}" width="${plotW}" height="${plotH}" fill="#f6f8fa"/>`);
    const bottom = trendValue(Math.round(lo), unit);
    const top = trendValue(Math.round(hi), unit);
    parts.push(`<text x="${LEFT - 6}" y="${f(TOP + 10)}" text-anchor="end" class="axis">${text(top === bottom ? `+${trendValue(Math.round(hi - lo), unit)}` : top)}</text>`);
    parts.push(`<text x="${LEFT - 6}" y="${f(TOP + plotH)}" text-anchor="end" class="axis">${text(bottom)}</text>`);
    if (n > 0) {
        parts.push(`<text x="${LEFT}" y="${HEIGHT - 8}" class="axis">${text(shortSha(points[0]?.commit ?? ''))}</text>`);
        if (n > 1)
            parts.push(`<text x="${LEFT + plotW}" y="${HEIGHT - 8}" text-anchor="end" class="axis">${text(shortSha(points[n - 1]?.commit ?? ''))}</text>`);
    }
    for (let p = 1; p < n; p++) {
        const now = points[p];
        const change = chart.changes[p];
        if (change.baselineUpdated) {
            parts.push(`<line class="marker baseline-update" x1="${f(x(p))}" x2="${f(x(p))}" y1="${TOP}" y2="${TOP + plotH}" stroke="${BASELINE_UPDATE_COLOR}" stroke-width="1.5" stroke-dasharray="4 3"><title>${text(`baseline updated at ${shortSha(now.commit)}`)}</title></line>`);
        }
        if (change.environment !== null) {
            parts.push(`<line class="marker environment" x1="${f(x(p))}" x2="${f(x(p))}" y1="${TOP}" y2="${TOP + plotH}" stroke="${ENVIRONMENT_COLOR}" stroke-width="1.5" stroke-dasharray="1 3"><title>${text(`environment changed at ${shortSha(now.commit)}: ${change.environment}`)}</title></line>`);
        }
    }
    if (chart.baseline !== undefined) {
        const by = f(y(chart.baseline));
        parts.push(`<line class="baseline" x1="${LEFT}" x2="${LEFT + plotW}" y1="${by}" y2="${by}" stroke="${BASELINE_COLOR}" stroke-width="1.5" stroke-dasharray="6 4"><title>${text(`baseline ${trendValue(chart.baseline, unit)}`)}</title></line>`);
    }
    let path = '';
    trend.values.forEach((v, p) => {
        if (v === null)
            return;
        path += `${p > 0 && trend.values[p - 1] !== null ? 'L' : 'M'}${f(x(p))} ${f(y(v))} `;
    });
    if (path !== '')
        parts.push(`<path d="${path.trim()}" fill="none" stroke="${TREND_COLOR}" stroke-width="1.5"/>`);
    const step = trend.step?.point;
    trend.values.forEach((v, p) => {
        if (v === null)
            return;
        const meta = points[p];
        const what = `${shortSha(meta.commit)}${meta.run === undefined ? '' : ` · run ${meta.run}`} · ${meta.time}: ${trendValue(v, unit)}${p === step ? ' (first run of the new level)' : ''}`;
        const dot = `<circle class="point${p === step ? ' step' : ''}" cx="${f(x(p))}" cy="${f(y(v))}" r="${p === step ? 5 : 3}" fill="${p === step ? '#cf222e' : TREND_COLOR}"><title>${text(what)}</title></circle>`;
        const url = chart.commitUrl(meta.commit);
        parts.push(url === undefined ? dot : `<a href="${text(url)}">${dot}</a>`);
    });
    parts.push('</svg>');
    return parts.join('');
}
function text(value) {
    return escapeHtml(replaceControlCharacters(value));
}

export { BASELINE_UPDATE_COLOR as B, ENVIRONMENT_COLOR as E, HTML_CSP as H, TREND_COLOR as T, htmlPage as h, renderTrendSvg as r };

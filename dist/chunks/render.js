import { t as buildReportView } from './view.js';
import './evidence-sources.js';
import './errors.js';
import './roll-up.js';
import './names.js';
import 'node:crypto';
import './partition.js';
import './types.js';
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
import './keys.js';
import './escape.js';
import './history-view.js';
import './thresholds.js';
import './reader.js';
import './trends.js';
import './format.js';
import './string-table.js';
import './moved.js';
import './groups.js';
import './trend-text.js';

async function render(request) {
    const { report, files } = request;
    const view = buildReportView(report, { trends: request.trends });
    if (files.json !== undefined)
        await (await import('./json.js')).writeJsonReport(files.json, report);
    const markdown = request.markdown === undefined
        ? undefined
        : (await import('./markdown.js')).renderMarkdown(view, request.markdown);
    if (files.markdown !== undefined && markdown !== undefined)
        await request.write('markdown', files.markdown, markdown);
    if (files.html !== undefined) {
        const { renderHtml } = await import('./html.js');
        const series = request.series;
        await request.write('html', files.html, renderHtml(view, series !== undefined ? { series } : {}));
    }
    if (files.junit !== undefined) {
        const { renderJunit } = await import('./junit.js');
        await request.write('junit', files.junit.file, renderJunit(view, files.junit.context));
    }
    return { view, markdown };
}

export { render };

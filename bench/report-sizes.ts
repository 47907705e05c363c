// Report sizes at scale: a generated 4,096-device × 15-module job plus 100,000 kernels, APP grown 10% on every device,
// rendered as the job summary (1 MiB limit), the PR comment (65,536), the HTML page (target ≤ 5 MB) and the JUnit XML
// file, with the time each render takes. Prints one JSON line; bench/run.mjs turns it into a row of bench/RESULTS.md.
//
//   node --import ./test/helpers/ts-loader.mjs bench/report-sizes.ts [--devices 4096] [--kernels 100000]
import { parseArgs } from 'node:util';
import { renderHtml } from '../src/report/html.js';
import { renderJsonReport } from '../src/report/json.js';
import { renderJunit } from '../src/report/junit.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { renderTerminal } from '../src/report/terminal.js';
import { jobReport } from '../test/helpers/jobs.js';
import { buildReportView } from '../src/report/view.js';

const { values } = parseArgs({
  options: { devices: { type: 'string', default: '4096' }, kernels: { type: 'string', default: '100000' } },
});
const devices = Number(values.devices);
const kernels = Number(values.kernels);

let started = performance.now();
const report = jobReport({
  devices,
  kernels,
  change: (attribute, _device, module) => (attribute === 'DEV_MEM' && module === 'APP' ? 1.1 : 1),
});
const gateMs = performance.now() - started;

function timed(render: () => string): { bytes: number; ms: number; lines: number } {
  started = performance.now();
  const text = render();
  return {
    bytes: Buffer.byteLength(text),
    ms: Math.round(performance.now() - started),
    lines: text.split('\n').length - 1,
  };
}

const result = {
  devices,
  modules: 15,
  kernels,
  entries: report.entries.length,
  gateMs: Math.round(gateMs),
  summary: timed(() => renderMarkdown(buildReportView(report), { maxBytes: 1024 * 1024 })),
  comment: timed(() =>
    renderMarkdown(buildReportView(report), { maxBytes: 65_536, marker: '<!-- ascend-memory-gate:default -->' }),
  ),
  html: timed(() => renderHtml(buildReportView(report))),
  json: timed(() => renderJsonReport(report)),
  terminal: timed(() => renderTerminal(buildReportView(report), { width: 80 })),
  junit: timed(() => renderJunit(buildReportView(report), { timestamp: new Date(0), hostname: 'bench' })),
};
console.log(JSON.stringify(result));

import { parseFile } from './src/parsers/profiler/index.js';
const t0 = performance.now();
const m: Record<string, unknown> = {};
const into = { files: 0, records: 0, addMetric: (s: string, k: string, v: unknown) => { m[k] = v; }, addSeries() {}, noteDevice() {}, addSkipped: (r: unknown) => console.log(r) };
await parseFile({ path: process.argv[2]!, name: 'x' }, into as never);
console.log(into.records, JSON.stringify(m), (performance.now() - t0).toFixed(0), 'ms', (process.memoryUsage().rss / 2 ** 20).toFixed(0), 'MiB');

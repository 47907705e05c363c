import { it } from 'vitest';
import { parseFile } from '../../src/parsers/profiler/index.js';
it('dump', async () => {
  for (const f of process.env.FILES!.split(' ')) {
    const out: Record<string, unknown> = {};
    const t: any = { files: 0, records: 0, addMetric: (s: string, k: string, m: unknown) => { out[`${s} ${k}`] = m; }, addSeries: (s: string, k: string, x: any) => { out[`${s} ${k} series`] = `${x.points.length}pts w=${x.width} first=${JSON.stringify(x.points[0])} last=${JSON.stringify(x.points.at(-1))}`; }, noteDevice() {}, addSkipped: (r: unknown) => console.log('SKIP', JSON.stringify(r)) };
    await parseFile({ path: f, name: f }, t);
    console.log(f, t.files, t.records, JSON.stringify(out, null, 1));
  }
});

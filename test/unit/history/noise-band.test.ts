// The noise band (config `history`): a key regresses only past the larger of its tolerance and the spread its last
// values showed on the default branch, capped at the ceiling; the row's note says which bound applied.
import { describe, expect, it } from 'vitest';
import { compareSnapshots, judge, withNoiseBand } from '../../../src/gate/compare.js';
import { sectionThresholds } from '../../../src/gate/tolerance.js';
import type { Entry } from '../../../src/gate/types.js';
import { section } from '../../../src/model/sections/index.js';
import { rejudgeReport } from '../../../src/gate/rejudge.js';
import { parseGateConfig } from '../../../src/gate/thresholds.js';
import { emptyHistory } from '../../../src/history/format.js';
import { appendPoint } from '../../../src/history/store.js';
import { noiseLookup } from '../../../src/history/trends.js';
import { MiB } from '../../helpers/story.js';

const metric = (peak: number): { peak: number; current: number; allocs: number; frees: number } => ({
  peak,
  current: peak,
  allocs: 1,
  frees: 1,
});
const side = (
  values: Record<string, number>,
): { sections: { modules: Record<string, ReturnType<typeof metric>> } } => ({
  sections: { modules: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, metric(v)])) },
});

/** A default branch where APP moved between 1000 and 1000 + spread MiB over `points` runs. */
function main(points: number, spreadMiB: number): ReturnType<typeof noiseLookup> {
  const history = emptyHistory();
  for (let n = 0; n < points; n++) {
    const app = (1000 + (n % 2 === 0 ? 0 : spreadMiB)) * MiB;
    appendPoint(
      history,
      { commit: (n + 1).toString(16).padStart(40, '0'), time: '2026-01-01T00:00:00Z', baseline: null, environment: {} },
      { keys: new Map([['modules', new Map([['DEV_MEM/dev0/APP', app]])]]), rollups: new Map(), devices: 1 },
    );
  }
  return noiseLookup(history);
}

describe('the noise band', () => {
  const config = parseGateConfig(
    { modules: { tolerance: { percent: 2 } }, history: { window: 20, minPoints: 5, ceiling: { percent: 10 } } },
    'c.json',
  );
  const baseline = side({ 'DEV_MEM/dev0/APP': 1000 * MiB });

  it('within the spread: pass, and the note says the band was used', () => {
    const [entry] = compareSnapshots(baseline, side({ 'DEV_MEM/dev0/APP': 1040 * MiB }), config, main(20, 60)).entries;
    expect(entry).toMatchObject({
      status: 'pass',
      severity: 'ok',
      noise: { applied: 'band', points: 20, spread: 60 * MiB },
    });
    expect(entry?.note).toBe(
      'Within the noise band: the last 20 values on the default branch spread 60.0 MiB (6.0% of the baseline), wider than the tolerance; a change of 40.0 MiB is no news.',
    );
  });

  it('never wider than the ceiling: a key spreading 30% still regresses past 10%', () => {
    const [entry] = compareSnapshots(baseline, side({ 'DEV_MEM/dev0/APP': 1150 * MiB }), config, main(20, 300)).entries;
    expect(entry).toMatchObject({
      status: 'regressed',
      severity: 'fail',
      noise: { applied: 'band', points: 20, spread: 300 * MiB },
    });
    expect(entry?.note).toBe(
      'Beyond the noise band: the last 20 values on the default branch spread 300.0 MiB (30.0% of the baseline), capped at the ceiling 100.0 MiB, and the change is 150.0 MiB.',
    );
  });

  it('a spread narrower than the tolerance: the tolerance applied, said so', () => {
    const [entry] = compareSnapshots(baseline, side({ 'DEV_MEM/dev0/APP': 1030 * MiB }), config, main(20, 5)).entries;
    expect(entry).toMatchObject({ status: 'regressed', noise: { applied: 'tolerance', points: 20, spread: 5 * MiB } });
    expect(entry?.note).toBe(
      'The configured tolerance applied: the last 20 values on the default branch spread 5.0 MiB (0.5% of the baseline), less than it allows.',
    );
  });

  it('improvements inside the band pass too; keys within the tolerance are left alone', () => {
    const report = compareSnapshots(
      side({ a: 1000 * MiB, 'DEV_MEM/dev0/APP': 1000 * MiB }),
      side({ a: 1001 * MiB, 'DEV_MEM/dev0/APP': 960 * MiB }),
      config,
      main(20, 60),
    );
    expect(report.entries.map((e) => [e.key, e.status, e.noise?.applied ?? null])).toEqual([
      ['a', 'pass', null],
      ['DEV_MEM/dev0/APP', 'pass', 'band'],
    ]);
  });

  it('an entry keeps its fields in their order, the note and the band after them, whatever it held', () => {
    const thresholds = sectionThresholds(config, section('modules'));
    const band = { config: config.history!, noise: main(20, 60) };
    const judged = judge('module', 'DEV_MEM/dev0/APP', 1000 * MiB, 1040 * MiB, thresholds, config);
    // Every field an entry can hold (Required: a field added to Entry must be added here), each optional one alone:
    // the band writes judge's entries field by field and must keep whatever else an entry holds.
    const every: Required<Entry> = {
      ...judged,
      unit: 'count',
      limit: 7,
      capacity: 9,
      note: 'before',
      noise: { applied: 'tolerance', points: 1, spread: 0 },
    };
    const optional = (Object.keys(every) as (keyof Entry)[]).filter((k) => !Object.hasOwn(judged, k));
    expect(optional).toEqual(['unit', 'limit', 'capacity', 'note', 'noise']);
    const forms: Entry[] = [
      judged,
      every,
      { ...judged, unit: 'count', capacity: 9 },
      ...optional.map((k) => ({ ...judged, [k]: every[k] })),
    ];
    for (const form of forms) {
      const out = withNoiseBand(form, thresholds, band, config);
      // As a spread writes it: fields in place (status and severity replaced), then note and noise.
      const spread = { ...form, status: out.status, severity: out.severity, note: out.note, noise: out.noise };
      expect(Object.keys(out)).toEqual(Object.keys(spread));
      expect(out).toEqual(spread);
      expect(out.status).toBe('pass');
      expect(out.noise?.applied).toBe('band');
    }
  });

  it('without `history` in the config, or with no history, nothing changes', () => {
    const plain = parseGateConfig({ modules: { tolerance: { percent: 2 } } }, 'c.json');
    const [entry] = compareSnapshots(baseline, side({ 'DEV_MEM/dev0/APP': 1040 * MiB }), plain, main(20, 60)).entries;
    expect(entry).toMatchObject({ status: 'regressed' });
    expect(entry?.noise).toBeUndefined();
    expect(compareSnapshots(baseline, side({ 'DEV_MEM/dev0/APP': 1040 * MiB }), config).entries[0]).toMatchObject({
      status: 'regressed',
    });
  });
});

describe('the noise band in a re-judged report (comment mode)', () => {
  const config = parseGateConfig(
    { modules: { tolerance: { percent: 2 } }, history: { window: 20, minPoints: 5 } },
    'c.json',
  );
  const baseline = side({ 'DEV_MEM/dev0/APP': 1000 * MiB });
  const claimed = compareSnapshots(baseline, side({ 'DEV_MEM/dev0/APP': 1040 * MiB }), config, main(20, 60));

  it('follows from the trusted history: a pass the band gave is no discrepancy; without the history it is one', () => {
    expect(claimed.entries[0]?.status).toBe('pass');
    expect(rejudgeReport(claimed, { baseline, config, noise: main(20, 60) }).discrepancies).toEqual([]);
    const without = rejudgeReport(claimed, { baseline, config });
    expect(without.discrepancies.map((d) => `${d.pointer} ${String(d.claimed)} → ${String(d.rejudged)}`)).toEqual([
      '/entries/0/status pass → regressed',
      '/counts/regressed 0 → 1',
      '/counts/pass 1 → 0',
      '/result pass → fail',
    ]);
  });
});

// run/check: the judging step both entries call, on the bundled examples (the committed baseline, the regressed run,
// no baseline) and with a history whose noise band and trends it uses.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyHistory } from '../../../src/history/format.js';
import { pointValues } from '../../../src/history/point.js';
import { check } from '../../../src/run/check.js';
import { collect, type RunLog } from '../../../src/run/collect.js';
import { recordRun } from '../../../src/run/history-point.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const at = (...parts: string[]): string => path.join(ROOT, ...parts);
const quiet: RunLog = { warn: () => {}, note: () => {} };
const BASELINE = at('baselines/memory-baseline.json');

async function collected(plog: string) {
  return collect(
    { specs: { plog: [plog], compare: [at('examples/memory_compare')] }, root: ROOT, skippedShown: 10 },
    quiet,
  );
}

describe('run/check', () => {
  it('passes the examples against the committed baseline, and fails the regressed run', async () => {
    const good = await check({
      collected: await collected(at('examples/plog')),
      history: null,
      baseline: BASELINE,
      config: at('examples/memory-gate.json'),
      maxIncrease: undefined,
    });
    expect(good.report.result).toBe('pass');
    expect(good.baseline).not.toBeNull();
    expect(await good.trends(null, false)).toBeUndefined();

    const bad = await check({
      collected: await collected(at('examples/regressed/plog')),
      history: null,
      baseline: BASELINE,
      config: at('examples/memory-gate.json'),
      maxIncrease: undefined,
    });
    expect(bad.report.result).toBe('fail');
    expect(bad.report.entries.some((e) => e.status === 'regressed' && e.key === 'DEV_MEM/dev1/APP')).toBe(true);
  });

  it('judges a missing baseline as a first run, and --max-increase loosens nothing it was not given', async () => {
    const first = await check({
      collected: await collected(at('examples/plog')),
      history: null,
      baseline: at('baselines/no-such-baseline.json'),
      config: undefined,
      maxIncrease: undefined,
    });
    expect(first.baseline).toBeNull();
    expect(first.report.entries.length).toBeGreaterThan(0);
    expect(first.report.result).toBe('pass');
    expect(first.report.entries.every((e) => e.status !== 'regressed')).toBe(true);
    await expect(
      check({
        collected: await collected(at('examples/plog')),
        history: null,
        baseline: BASELINE,
        config: undefined,
        maxIncrease: 'lots',
      }),
    ).rejects.toThrow(/max-increase/);
  });

  it("gives the reports the history's trends: of the history as read, or afresh when this run recorded a point", async () => {
    const run = await collected(at('examples/plog'));
    const history = emptyHistory({ branch: 'main' });
    for (let i = 0; i < 6; i++)
      recordRun(history, {
        header: {},
        meta: { commit: `${i}`.repeat(7), time: `2026-12-0${i + 1}T00:00:00Z`, baseline: null, environment: {} },
        values: pointValues(run.snapshot),
        maxPoints: 200,
      });
    const checked = await check({
      collected: run,
      history,
      baseline: BASELINE,
      config: at('examples/memory-gate.json'),
      maxIncrease: undefined,
    });
    expect(checked.report.result).toBe('pass');
    const asRead = await checked.trends(history, false);
    expect(asRead).toBeDefined();
    recordRun(history, {
      header: {},
      meta: { commit: 'abcdef1', time: '2026-12-07T00:00:00Z', baseline: null, environment: {} },
      values: pointValues(run.snapshot),
      maxPoints: 200,
    });
    const afresh = await checked.trends(history, true);
    expect(afresh).toBeDefined();
    expect(afresh).not.toBe(asRead);
  });
});

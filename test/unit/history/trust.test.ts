// The history cannot be turned against the gate (issue 30): a section this version does not know is skipped, a
// commit URL that is no URL gives no links, long names are written as the report writes them, the noise band's spread
// stays inside the report's schema, and values no evidence can produce make the history refused, naming line and field.
import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../../src/gate/compare.js';
import { parseGateConfig } from '../../../src/gate/thresholds.js';
import { emptyHistory, HISTORY_MAX_BYTES, parseHistory, type PointMeta } from '../../../src/history/format.js';
import { appendPoint } from '../../../src/history/store.js';
import { trendsOf } from '../../../src/history/trends.js';
import { buildHistoryView } from '../../../src/report/history-view.js';
import { renderDashboard } from '../../../src/report/dashboard.js';
import { renderHistoryTerminal } from '../../../src/report/history-terminal.js';
import { parseReportJson, renderJsonReport } from '../../../src/report/json.js';
import { shortenName } from '../../../src/report/names.js';
import { MAX_KEY_LENGTH } from '../../../src/report/report-schema.js';
import { thrown } from '../../helpers/thrown.js';
import { MiB } from '../../helpers/story.js';

const TiB = 1024 * 1024 * MiB;
const MAX = Number.MAX_SAFE_INTEGER;
const sha = (n: number): string => n.toString(16).padStart(40, 'a');
const meta = (n: number, environment: Record<string, string> = {}): PointMeta => ({
  commit: sha(n),
  run: String(n),
  time: '2026-01-01T00:00:00Z',
  baseline: null,
  environment,
});
const header = '{"format":"ascend-memory-gate history","version":1}';

describe('a section this version does not declare (a newer release wrote it)', () => {
  const text = [
    header,
    '{"keys":{"modules":["DEV_MEM/dev0/APP"],"zzz":["dev0/x"]},"rollups":{"zzz":["dev*/y"]}}',
    `{"commit":"${sha(1)}","run":"1","time":"2026-01-01T00:00:00Z","baseline":null,"environment":{},"values":{"modules":[100],"zzz":[7]},"rollups":{"zzz":[1,2,3,4,5]}}`,
    `{"commit":"${sha(2)}","run":"2","time":"2026-01-01T00:00:00Z","baseline":null,"changes":{"modules":[0,5],"zzz":[0,1]}}`,
    '',
  ].join('\n');

  it('is skipped with one warning naming it; every reader works; the next point drops it from the file', () => {
    const history = parseHistory(text, 'h.jsonl');
    expect(history.warnings).toEqual([
      "h.jsonl:2: section 'zzz' is not known to this version (a newer ascend-memory-gate wrote it): skipped; a run this version records drops it from the file, upgrade to keep it",
    ]);
    expect([...history.sections.keys()]).toEqual(['modules']);
    const trends = trendsOf(history);
    expect(trends.forKey('module', 'DEV_MEM/dev0/APP')?.values).toEqual([100, 105]);
    expect(renderHistoryTerminal(buildHistoryView(history, trends))).toContain(
      'DEV_MEM/*/APP  ▁█     100 B – 105 B   105 B',
    );
    expect(renderDashboard(buildHistoryView(history, trends))).toContain('DEV_MEM/*/APP');
    const { text: written } = appendPoint(history, meta(3), {
      keys: new Map([['modules', new Map([['DEV_MEM/dev0/APP', 110]])]]),
      rollups: new Map(),
      devices: 1,
    });
    expect(written.split('\n').slice(1, 3)).toEqual([
      '{"keys":{"modules":["DEV_MEM/dev0/APP"]}}',
      `{"commit":"${sha(1)}","run":"1","time":"2026-01-01T00:00:00Z","baseline":null,"environment":{},"values":{"modules":[100]}}`,
    ]);
    expect(parseHistory(written, 'h.jsonl').warnings).toBeUndefined();
  });
});

describe('the header commitUrl', () => {
  const withUrl = (url: string): string =>
    `${JSON.stringify({ format: 'ascend-memory-gate history', version: 1, commitUrl: url })}\n{"keys":{}}\n`;

  it('that passes the schema but is no URL gives no links, with a warning naming it', () => {
    const history = parseHistory(withUrl('https://[{sha}'), 'h.jsonl');
    expect(history.header.commitUrl).toBeUndefined();
    expect(history.warnings).toEqual([
      'h.jsonl:1: /commitUrl: "https://[{sha}" is not an http(s) URL once {sha} is filled in: commits are shown without links',
    ]);
    expect(trendsOf(history).commitUrl(sha(1))).toBeUndefined();
  });

  it('that is a URL is kept (whose repository it names is for the Action to judge)', () => {
    const history = parseHistory(withUrl('https://gitlab.example.com/g/p/-/commit/{sha}'), 'h.jsonl');
    expect(history.warnings).toBeUndefined();
    expect(trendsOf(history).commitUrl(sha(1))).toBe(`https://gitlab.example.com/g/p/-/commit/${sha(1)}`);
  });
});

describe('names past 4,096 characters', () => {
  it('are written as the JSON report writes its keys, and read back; the trend of the long key is found by its whole name', () => {
    const kernel = `dev0/${'k'.repeat(5000)}`;
    const cann = `8.3.${'x'.repeat(5000)}`;
    const history = emptyHistory();
    appendPoint(history, meta(1, { cann }), {
      keys: new Map([['kernels', new Map([[kernel, 4096]])]]),
      rollups: new Map(),
      devices: 1,
    });
    const { text } = appendPoint(history, meta(2, { cann }), {
      keys: new Map([['kernels', new Map([[kernel, 8192]])]]),
      rollups: new Map(),
      devices: 1,
    });
    const read = parseHistory(text, 'h.jsonl');
    const reportKey = shortenName(kernel, MAX_KEY_LENGTH);
    expect(read.sections.get('kernels')?.keys).toEqual([reportKey]);
    expect(reportKey).toHaveLength(4096);
    expect(read.points[1]?.environment.cann).toBe(shortenName(cann, MAX_KEY_LENGTH));
    expect(trendsOf(read).forKey('kernel', kernel)?.values).toEqual([4096, 8192]);
    expect(trendsOf(read).forKey('kernel', reportKey)?.values).toEqual([4096, 8192]);
  });
});

describe("the noise band's spread", () => {
  it('of values −(2^53−1), 0, 2^53−1 is clamped at 2^53−1 and said so; the report is one its schema accepts', () => {
    const history = emptyHistory();
    [-MAX, 0, MAX].forEach((v, n) =>
      appendPoint(history, meta(n + 1), {
        keys: new Map([['kernels', new Map([['dev0/k', v]])]]),
        rollups: new Map(),
        devices: 1,
      }),
    );
    const kernel = (diff: number): Record<string, number | null> => ({
      diff,
      rows: 1,
      added: 0,
      removed: 0,
      event: null,
    });
    const config = parseGateConfig({ history: { window: 20, minPoints: 3 } }, 'c.json');
    const report = compareSnapshots(
      { sections: { kernels: { 'dev0/k': kernel(100 * MiB) } } },
      { sections: { kernels: { 'dev0/k': kernel(200 * MiB) } } },
      config,
      trendsOf(history).noise,
    );
    expect(report.entries[0]).toMatchObject({
      status: 'regressed',
      noise: { applied: 'band', points: 3, spread: MAX },
    });
    expect(report.entries[0]?.note).toBe(
      'Beyond the noise band: the last 3 values on the default branch spread more than 8.0 PiB (2^53 − 1, where the figure is clamped), capped at the ceiling 10.0 MiB, and the change is 100.0 MiB.',
    );
    expect(parseReportJson(renderJsonReport(report), 'report.json').entries[0]?.noise?.spread).toBe(MAX);
  });
});

describe('values no evidence can produce make the history refused, naming line and field', () => {
  const good = (() => {
    const history = emptyHistory();
    appendPoint(history, meta(1), {
      keys: new Map([['modules', new Map([['DEV_MEM/dev0/APP', 100 * MiB]])]]),
      rollups: new Map(),
      devices: 1,
    });
    return appendPoint(history, meta(2), {
      keys: new Map([['modules', new Map([['DEV_MEM/dev0/APP', 101 * MiB]])]]),
      rollups: new Map(),
      devices: 1,
    }).text;
  })();
  const message = (text: string): string => thrown(() => parseHistory(text, 'h.jsonl')).message;

  it('a module value of −1 TiB, first written or reached by a change', () => {
    expect(message(good.replace(`[${100 * MiB}]`, `[${-TiB}]`))).toBe(
      'h.jsonl:3: /values/modules/0: makes "DEV_MEM/dev0/APP" -1099511627776, but a module figure (peak) is never negative: this is not a history ascend-memory-gate wrote',
    );
    expect(message(good.replace(`[0,${MiB}]`, `[0,${-TiB - 100 * MiB}]`))).toBe(
      'h.jsonl:4: /changes/modules/1: makes "DEV_MEM/dev0/APP" -1099511627776, but a module figure (peak) is never negative: this is not a history ascend-memory-gate wrote',
    );
  });

  it('a roll-up whose min is above its max', () => {
    const history = emptyHistory();
    const rollup = { min: 10, median: 20, max: 30, devices: 65, worst: 'dev3' };
    const { text } = appendPoint(history, meta(1), {
      keys: new Map(),
      rollups: new Map([['modules', new Map([['DEV_MEM/*/APP', rollup]])]]),
      devices: 65,
    });
    expect(parseHistory(text, 'h.jsonl').warnings).toBeUndefined();
    expect(message(text.replace('[10,20,30,65,3]', '[40,20,30,65,3]'))).toBe(
      'h.jsonl:3: /rollups/modules/0: makes the roll-up "DEV_MEM/*/APP" min 40, median 20, max 30: min ≤ median ≤ max always holds for what ascend-memory-gate writes',
    );
  });

  it('a file past the 8 MiB cap', () => {
    // Valid in every other way: a key table of 2,100 kernel names of 4,000 characters.
    const names = Array.from({ length: 2100 }, (_, i) => `dev0/${String(i).padStart(3995, 'k')}`);
    const big = good.replace(
      '{"keys":{"modules":["DEV_MEM/dev0/APP"]}}',
      JSON.stringify({ keys: { modules: ['DEV_MEM/dev0/APP'], kernels: names } }),
    );
    expect(Buffer.byteLength(big)).toBeGreaterThan(HISTORY_MAX_BYTES);
    expect(message(big)).toBe(
      `h.jsonl: ${Buffer.byteLength(big)} bytes, past the 8388608 (8 MiB) a history ever holds: not read`,
    );
  });

  it('a kernel (signed Diff Memory) may be negative', () => {
    const history = emptyHistory();
    const { text } = appendPoint(history, meta(1), {
      keys: new Map([['kernels', new Map([['dev0/k', -TiB]])]]),
      rollups: new Map(),
      devices: 1,
    });
    expect(parseHistory(text, 'h.jsonl').sections.get('kernels')?.keyColumns.latest(0)).toBe(-TiB);
  });
});

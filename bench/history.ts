// The history's cost at scale, in one process (CPU time): what the default branch's check adds at 4,096 devices × 15 modules +
// 100,000 kernels (read a 200-point history, the noise band, record this run's point, the trends in the summary, the
// comment and the terminal), and reading a 200-point history. Prints one JSON line; bench/scale.mjs makes rows of it.
//
//   node --import ./test/helpers/ts-loader.mjs bench/history.ts [--devices 4096] [--kernels 100000] [--runs 5]
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compareSnapshots } from '../src/gate/compare.js';
import { DEFAULT_CONFIG } from '../src/gate/thresholds.js';
import type { GateConfig } from '../src/gate/types.js';
import { emptyHistory, parseHistory, serializeHistory } from '../src/history/format.js';
import { pointValues, type PointValues } from '../src/history/point.js';
import { appendPoint, recordPoint } from '../src/history/store.js';
import { noiseLookup, trendsOf } from '../src/history/trends.js';
import { parseBaseline } from '../src/gate/baseline.js';
import { splitDevice } from '../src/model/sections/index.js';
import { noteKeys } from '../src/model/record-keys.js';
import { parseSnapshotText } from '../src/parsers/node-snapshot-file.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { renderTerminal } from '../src/report/terminal.js';
import { Branch, SIZE_SHAPE } from '../test/helpers/history-runs.js';
import { jobSnapshots } from '../test/helpers/jobs.js';
import { buildReportView } from '../src/report/view.js';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '4096' },
    kernels: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    // Instead: write a 200-point history of the run in SNAPSHOT (the whole-process rows of bench/scale.mjs read it).
    'write-history': { type: 'string' },
    snapshot: { type: 'string' },
    // The baseline (--snapshot) and the run (--run) as files, instead of a generated job: the whole-process rows' job.
    run: { type: 'string' },
  },
});
const devices = Number(values.devices);
const kernels = Number(values.kernels);
const runs = Number(values.runs);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
const sha = (n: number): string => n.toString(16).padStart(40, 'b');

/**
 * Main's run n: one module value in ten (and one roll-up in ten) off its level by up to ±1% in that run, as allocators
 * jitter; kernels' diffs deterministic but for 0.5% of them changing for good in a run (a new build). Deterministic.
 */
function jittered(base: PointValues, n: number, kernels: Map<string, number>): PointValues {
  let seed = n * 2654435761;
  const next = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const keys = new Map(
    [...base.keys].map(([name, byKey]) => {
      if (name !== 'kernels')
        return [
          name,
          new Map([...byKey].map(([k, v]) => [k, next() < 0.1 ? Math.round(v * (1 + (next() - 0.5) / 50)) : v])),
        ];
      return [
        name,
        new Map(
          [...byKey].map(([k, v]) => {
            if (next() < 0.005) kernels.set(k, (kernels.get(k) ?? v) + 4096);
            return [k, kernels.get(k) ?? v];
          }),
        ),
      ];
    }),
  );
  const rollups = new Map(
    [...base.rollups].map(([name, byPattern]) => [
      name,
      new Map([...byPattern].map(([p, r]) => [p, next() < 0.1 ? { ...r, max: Math.round(r.max * 1.005) } : r])),
    ]),
  );
  return { keys, rollups, devices: base.devices };
}

if (values['write-history'] !== undefined) {
  const snapshot = JSON.parse(readFileSync(values.snapshot ?? '', 'utf8')) as Parameters<typeof pointValues>[0];
  const base = pointValues(snapshot);
  const written = emptyHistory({ branch: 'main', gate: 'default', commitUrl: 'https://github.com/o/r/commit/{sha}' });
  const changed = new Map<string, number>();
  for (let n = 1; n <= 200; n++)
    appendPoint(
      written,
      {
        commit: sha(n),
        run: String(n),
        time: '2026-01-01T00:00:00Z',
        baseline: null,
        environment: { cann: '8.3.RC1' },
      },
      jittered(base, n, changed),
    );
  writeFileSync(values['write-history'], serializeHistory(written));
  process.exit(0);
}

// The job: APP grown 10% on every device (the report's usual 4,096-device story), and main's 200 earlier runs.
// Read as `check` reads them (the baseline by parseBaseline, the run's snapshot by the snapshot parser), which list
// each large section's keys once (noteKeys): the gate and the point read those lists, as in a real check.
type Side = ReturnType<typeof jobSnapshots>['baseline'];
const { baseline, current } =
  values.snapshot !== undefined && values.run !== undefined
    ? {
        baseline: parseBaseline(readFileSync(values.snapshot, 'utf8'), values.snapshot) as Side,
        current: parseSnapshotText(readFileSync(values.run, 'utf8'), values.run) as Side,
      }
    : noted(
        jobSnapshots({
          devices,
          kernels,
          change: (attribute, _d, module) => (attribute === 'DEV_MEM' && module === 'APP' ? 1.1 : 1),
        }),
      );

/** A generated job's sections with their keys listed, as reading them from files (or merging a run) leaves them. */
function noted<T extends { baseline: Side; current: Side }>(job: T): T {
  for (const side of [job.baseline, job.current])
    for (const metrics of Object.values(side.sections)) noteKeys(metrics, Object.keys(metrics));
  return job;
}
const config: GateConfig = { ...DEFAULT_CONFIG, history: { window: 20, minPoints: 5, ceiling: { percent: 10 } } };
let started = performance.now();
const baseValues = pointValues(baseline as Parameters<typeof pointValues>[0]);
const pointMs = performance.now() - started;
const history = emptyHistory({ branch: 'main', gate: 'default', commitUrl: 'https://github.com/o/r/commit/{sha}' });
const changedKernels = new Map<string, number>();
for (let n = 1; n <= 200; n++)
  appendPoint(
    history,
    { commit: sha(n), run: String(n), time: '2026-01-01T00:00:00Z', baseline: null, environment: { cann: '8.3.RC1' } },
    jittered(baseValues, n, changedKernels),
  );
const text = serializeHistory(history);

/** One check of main at this size, the history's part timed step by step. */
function once(): Record<string, number> {
  const t: Record<string, number> = {};
  // CPU time (user + system) of this process: what a loaded, shared machine cannot inflate, unlike the wall clock.
  const lap = (name: string, fn: () => unknown): unknown => {
    const s = process.cpuUsage();
    const out = fn();
    const used = process.cpuUsage(s);
    t[name] = (used.user + used.system) / 1000;
    return out;
  };
  const read = lap('read', () => parseHistory(text, 'default.history.jsonl')) as ReturnType<typeof parseHistory>;
  lap('gate', () => compareSnapshots(baseline, current, config));
  const banded = lap('gateWithBand', () =>
    compareSnapshots(baseline, current, config, noiseLookup(read)),
  ) as ReturnType<typeof compareSnapshots>;
  lap(
    'append',
    () =>
      recordPoint(
        read,
        {
          commit: sha(201),
          run: '201',
          time: '2026-01-02T00:00:00Z',
          baseline: null,
          environment: { cann: '8.3.RC1' },
        },
        pointValues(current as Parameters<typeof pointValues>[0]),
      ).text,
  );
  // What the renderers ask of the history: one trend per failing or warning row (a key group, or a key of no device)
  // and what moved.
  const trends = lap('trends', () => {
    const made = trendsOf(read, config);
    const rows = new Set<string>();
    for (const e of banded.entries) {
      if (e.severity === 'ok') continue;
      const { device, group } = splitDevice(e.key);
      const id = `${e.kind}\u0000${group}`;
      if (rows.has(id)) continue;
      rows.add(id);
      if (device === null) made.forKey(e.kind, e.key);
      else made.forPattern(e.kind, group);
    }
    made.moved();
    return made;
  }) as ReturnType<typeof trendsOf>;
  // The same report rendered as the Action does (summary, comment) and as the terminal, without and with the trends.
  lap('renderPlain', () => [
    renderMarkdown(buildReportView(banded), { maxBytes: 1024 * 1024 }),
    renderMarkdown(buildReportView(banded), { maxBytes: 65_536 }),
    renderTerminal(buildReportView(banded)),
  ]);
  lap('renderTrends', () => [
    renderMarkdown(buildReportView(banded, { trends: trends }), { maxBytes: 1024 * 1024 }),
    renderMarkdown(buildReportView(banded, { trends: trends }), { maxBytes: 65_536 }),
    renderTerminal(buildReportView(banded, { trends: trends }), {}),
  ]);
  t.band = t.gateWithBand! - t.gate!;
  // The renders' own difference (sparkline text for at most a few hundred rows) is below their noise: it is printed, not added.
  t.renderDelta = t.renderTrends! - t.renderPlain!;
  t.added = t.read! + t.band + t.append! + t.trends!;
  return t;
}

// The first round warms the JIT up (its figures are kept apart: a real check runs each step once, cold).
const cold = once();
const samples: Record<string, number>[] = [];
for (let i = 0; i < runs; i++) samples.push(once());
const medians = Object.fromEntries(
  Object.keys(samples[0] as object).map((k) => [k, Math.round(median(samples.map((s) => s[k] as number)))]),
);

// Reading a 200-point history of the size test's job (64 devices × 15 modules + 2,000 kernels).
const branch = new Branch(SIZE_SHAPE);
const small = emptyHistory({ branch: 'main' });
for (let n = 1; n <= 200; n++) {
  const s = branch.nextRun();
  appendPoint(small, { commit: branch.commit(), time: branch.time(), baseline: null, environment: {} }, pointValues(s));
}
const smallText = serializeHistory(small);
const reads: number[] = [];
for (let i = 0; i < runs; i++) {
  started = performance.now();
  parseHistory(smallText, 'h');
  reads.push(performance.now() - started);
}

console.log(
  JSON.stringify({
    devices,
    kernels,
    historyBytes: Buffer.byteLength(text),
    pointValuesMs: Math.round(pointMs),
    ...medians,
    cold: Object.fromEntries(Object.entries(cold).map(([k, v]) => [k, Math.round(v)])),
    small: { bytes: Buffer.byteLength(smallText), readMs: Math.round(median(reads) * 10) / 10 },
  }),
);

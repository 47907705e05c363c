// Comment mode's re-judging of an uploaded report: an honest report follows from the trusted limits as it is; every
// forged verdict, count, result, baseline value, dropped or renamed key is named, and the verdict re-derived.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../../src/gate/compare.js';
import { DROPPED_ENTRY_NOTE, SECOND_VERDICT_NOTE, rejudgeReport, type Discrepancy } from '../../../src/gate/rejudge.js';
import { parseGateConfig } from '../../../src/gate/thresholds.js';
import {
  STATUSES,
  type Entry,
  type GateConfig,
  type GateInput,
  type GateReport,
  type Status,
} from '../../../src/gate/types.js';
import { parseReportJson, renderJsonReport } from '../../../src/report/json.js';
import { shortenName } from '../../../src/report/names.js';
import { describeDiscrepancy, renderNotTrustworthy } from '../../../src/report/rejudged.js';
import { MAX_KEY_LENGTH } from '../../../src/report/report-schema.js';
import { GiB, GROWN_APP_PEAK, MiB, SEED_APP_DELTA, SEED_APP_PEAK } from '../../helpers/story.js';

const written = (key: string): string => shortenName(key, MAX_KEY_LENGTH);

function modules(peaks: Record<string, number>): GateInput {
  return {
    sections: {
      modules: Object.fromEntries(
        Object.entries(peaks).map(([k, peak]) => [k, { peak, current: peak, allocs: 3, frees: 1 }]),
      ),
    },
    meta: { allocFailures: {} },
  };
}

function config(raw: Record<string, unknown> = {}): GateConfig {
  return parseGateConfig(raw, 'memory-gate.json');
}

/** The report as the comment job reads it: written by the real writer, read back through the schema (roll-ups left out: the renderers make their own). */
function uploaded(report: GateReport): GateReport {
  const { groups: _groups, ...read } = parseReportJson(renderJsonReport(report), 'report.json');
  return read;
}

/** The example: APP on dev1 from 2,078,195,712 bytes to ten times that; two other keys pass. */
const TRUSTED = modules({
  'DEV_MEM/dev0/APP': SEED_APP_PEAK,
  'DEV_MEM/dev1/APP': SEED_APP_PEAK,
  'DEV_MEM/dev1/HCCL': 600 * MiB,
});
const RUN = modules({
  'DEV_MEM/dev0/APP': SEED_APP_PEAK,
  'DEV_MEM/dev1/APP': GROWN_APP_PEAK,
  'DEV_MEM/dev1/HCCL': 600 * MiB,
});

function honest(cfg = config(), baseline: GateInput = TRUSTED, current: GateInput = RUN): GateReport {
  return uploaded(compareSnapshots(baseline, current, cfg));
}

/** Relabels the entry at `index` and makes counts and result agree, as a forger who knows the schema would. */
function relabel(report: GateReport, index: number, status: Status, severity: Entry['severity']): GateReport {
  const forged = structuredClone(report);
  const entry = forged.entries[index]!;
  forged.counts[entry.status] = (forged.counts[entry.status] ?? 0) - 1;
  forged.counts[status] = (forged.counts[status] ?? 0) + 1;
  entry.status = status;
  entry.severity = severity;
  forged.result = forged.entries.some((e) => e.severity === 'fail') ? 'fail' : 'pass';
  return forged;
}

const VERDICTS: readonly Status[] = ['regressed', 'over-budget', 'improved', 'new', 'missing', 'ignored', 'pass'];

const at = (report: GateReport, key: string, status?: Status): number =>
  report.entries.findIndex((e) => e.key === key && (status === undefined || e.status === status));

describe('rejudgeReport', () => {
  it('an honest report follows: no discrepancy, and the same entries, counts and result', () => {
    const report = honest();
    const { report: rejudged, discrepancies } = rejudgeReport(report, { baseline: TRUSTED, config: config() }, written);
    expect(discrepancies).toEqual([]);
    expect(rejudged).toEqual(report);
  });

  it('the issue’s forgery: DEV_MEM/dev1/APP relabelled pass is re-judged regressed, and the counts and result with it', () => {
    const report = honest();
    const i = at(report, 'DEV_MEM/dev1/APP', 'regressed');
    const forged = relabel(report, i, 'pass', 'ok');
    expect(forged.result).toBe('pass');
    const { report: rejudged, discrepancies } = rejudgeReport(forged, { baseline: TRUSTED, config: config() }, written);
    expect(discrepancies).toEqual<Discrepancy[]>([
      {
        pointer: `/entries/${i}/status`,
        key: 'DEV_MEM/dev1/APP',
        field: 'status',
        claimed: 'pass',
        rejudged: 'regressed',
      },
      { pointer: '/counts/regressed', key: null, field: 'count', claimed: 0, rejudged: 1 },
      { pointer: '/counts/pass', key: null, field: 'count', claimed: 3, rejudged: 2 },
      { pointer: '/result', key: null, field: 'result', claimed: 'pass', rejudged: 'fail' },
    ]);
    expect(rejudged.result).toBe('fail');
    expect(rejudged.entries[i]).toMatchObject({
      key: 'DEV_MEM/dev1/APP',
      status: 'regressed',
      severity: 'fail',
      baseline: SEED_APP_PEAK,
      current: GROWN_APP_PEAK,
      delta: SEED_APP_DELTA,
      percent: 900,
    });
    expect(describeDiscrepancy(discrepancies[0]!)).toBe(
      `/entries/${i}/status of DEV_MEM/dev1/APP says 'pass', re-judged 'regressed'`,
    );
  });

  it('a severity lowered under the same status is named on its own', () => {
    const report = honest();
    const i = at(report, 'DEV_MEM/dev1/APP', 'regressed');
    const forged = relabel(report, i, 'regressed', 'warn');
    const { discrepancies } = rejudgeReport(forged, { baseline: TRUSTED, config: config() }, written);
    expect(discrepancies.map((d) => [d.pointer, d.claimed, d.rejudged])).toEqual([
      [`/entries/${i}/severity`, 'warn', 'fail'],
      ['/result', 'pass', 'fail'],
    ]);
  });

  it('a dropped baseline key comes back missing and failing; a renamed one is new; a raised baseline is the trusted one again', () => {
    const report = honest();
    const forged = structuredClone(report);
    forged.entries = forged.entries.filter((e) => e.key !== 'DEV_MEM/dev1/APP');
    forged.counts = { ...forged.counts, regressed: 0 };
    forged.result = 'pass';
    const hccl = forged.entries.find((e) => e.key === 'DEV_MEM/dev1/HCCL')!;
    hccl.baseline = 2 * hccl.baseline!;
    hccl.delta = hccl.current! - hccl.baseline;
    hccl.percent = -50;
    hccl.status = 'improved';
    forged.counts = { ...forged.counts, pass: 1, improved: 1 };
    forged.entries.push({
      ...report.entries[at(report, 'DEV_MEM/dev1/APP', 'regressed')]!,
      key: 'DEV_MEM/dev1/APP_x',
      status: 'pass',
      severity: 'ok',
    });
    forged.counts.pass = 2;

    const { report: rejudged, discrepancies } = rejudgeReport(forged, { baseline: TRUSTED, config: config() }, written);
    expect(discrepancies.map((d) => [d.pointer, d.key, d.claimed, d.rejudged])).toEqual(
      [
        ['/entries/1/baseline', 'DEV_MEM/dev1/HCCL', 1200 * MiB, 600 * MiB],
        ['/entries/1/status', 'DEV_MEM/dev1/HCCL', 'improved', 'pass'],
        ['/entries/2/baseline', 'DEV_MEM/dev1/APP_x', SEED_APP_PEAK, null],
        ['/entries/2/status', 'DEV_MEM/dev1/APP_x', 'pass', 'new'],
        ['/entries', 'DEV_MEM/dev1/APP', null, { status: 'missing', severity: 'fail' }],
        ['/counts/new', null, 0, 1],
        ['/counts/missing', null, 0, 1],
        ['/counts/improved', null, 1, 0],
        ['/counts/pass', null, 2, 2],
        ['/result', null, 'pass', 'fail'],
      ].filter(([pointer, , claimed, rejudged]) => pointer !== '/counts/pass' || claimed !== rejudged),
    );
    expect(rejudged.entries.map((e) => [e.key, e.status, e.severity, e.baseline, e.current])).toEqual([
      ['DEV_MEM/dev0/APP', 'pass', 'ok', SEED_APP_PEAK, SEED_APP_PEAK],
      ['DEV_MEM/dev1/APP', 'missing', 'fail', SEED_APP_PEAK, null],
      ['DEV_MEM/dev1/APP_x', 'new', 'warn', null, GROWN_APP_PEAK],
      ['DEV_MEM/dev1/HCCL', 'pass', 'ok', 600 * MiB, 600 * MiB],
    ]);
    expect(rejudged.entries[1]!.note).toBe(DROPPED_ENTRY_NOTE);
    expect(rejudged.result).toBe('fail');
  });

  it('a second verdict for one key fails and is named; a delta forged on its own is named', () => {
    const report = honest();
    const forged = structuredClone(report);
    const first = forged.entries[0]!;
    forged.entries.push({ ...first });
    forged.counts.pass = (forged.counts.pass ?? 0) + 1;
    first.delta = 0;
    const { report: rejudged, discrepancies } = rejudgeReport(forged, { baseline: TRUSTED, config: config() }, written);
    expect(discrepancies.map((d) => [d.pointer, d.field, d.claimed, d.rejudged])).toEqual([
      ['/entries/3', 'entry', { status: 'pass', severity: 'ok' }, { status: 'pass', severity: 'fail' }],
    ]);
    expect(rejudged.entries[3]).toMatchObject({
      key: 'DEV_MEM/dev0/APP',
      status: 'pass',
      severity: 'fail',
      note: SECOND_VERDICT_NOTE,
    });
    expect(rejudged.result).toBe('fail');
    // The first entry's delta is right (0: pass at the same peak); a forged delta on an entry with one:
    const grown = structuredClone(report);
    grown.entries[at(report, 'DEV_MEM/dev1/APP', 'regressed')]!.delta = 1;
    expect(rejudgeReport(grown, { baseline: TRUSTED, config: config() }, written).discrepancies).toEqual([
      {
        pointer: `/entries/${at(report, 'DEV_MEM/dev1/APP', 'regressed')}/delta`,
        key: 'DEV_MEM/dev1/APP',
        field: 'delta',
        claimed: 1,
        rejudged: SEED_APP_DELTA,
        unit: 'bytes',
      },
    ]);
    expect(rejudged.entries).toHaveLength(4);
  });

  it("the trusted config's rules decide: a budget the forger left out fails the key", () => {
    const report = honest(config());
    const trustedConfig = config({ modules: { rules: [{ match: 'DEV_MEM/*/HCCL', budget: '512MiB' }] } });
    const { report: rejudged, discrepancies } = rejudgeReport(
      report,
      { baseline: TRUSTED, config: trustedConfig },
      written,
    );
    const i = at(report, 'DEV_MEM/dev1/HCCL');
    expect(discrepancies.slice(0, 2)).toEqual([
      {
        pointer: `/entries/${i}/status`,
        key: 'DEV_MEM/dev1/HCCL',
        field: 'status',
        claimed: 'pass',
        rejudged: 'over-budget',
      },
      {
        pointer: `/entries/${i}/rule`,
        key: 'DEV_MEM/dev1/HCCL',
        field: 'rule',
        claimed: null,
        rejudged: 'DEV_MEM/*/HCCL',
      },
    ]);
    expect(rejudged.entries[i]).toMatchObject({ status: 'over-budget', severity: 'fail', rule: 'DEV_MEM/*/HCCL' });
  });

  it('a device over its capacity relabelled pass is over capacity again; a finding’s severity follows the trusted verdicts', () => {
    const cfg = config({ device: { capacity: '16GiB' }, verdicts: { 'leak-suspect': 'fail' } });
    const baseline: GateInput = {
      sections: { modules: { 'DEV_MEM/dev0/APP': { peak: 8 * GiB, current: 8 * GiB, allocs: 10, frees: 10 } } },
      meta: { allocFailures: {} },
    };
    const current: GateInput = {
      sections: { modules: { 'DEV_MEM/dev0/APP': { peak: 20 * GiB, current: 20 * GiB, allocs: 900, frees: 10 } } },
      meta: { allocFailures: {} },
    };
    const report = honest(cfg, baseline, current);
    const device = at(report, 'dev0', 'over-capacity');
    const leak = at(report, 'DEV_MEM/dev0/APP', 'leak-suspect');
    expect(device).toBeGreaterThan(-1);
    expect(leak).toBeGreaterThan(-1);
    let forged = relabel(report, device, 'pass', 'ok');
    forged = relabel(forged, leak, 'leak-suspect', 'warn');
    forged = relabel(forged, at(forged, 'DEV_MEM/dev0/APP', 'regressed'), 'pass', 'ok');
    expect(forged.result).toBe('pass');
    const { report: rejudged, discrepancies } = rejudgeReport(forged, { baseline, config: cfg }, written);
    expect(
      discrepancies.filter((d) => d.pointer.startsWith('/entries')).map((d) => [d.pointer, d.claimed, d.rejudged]),
    ).toEqual([
      [`/entries/${at(report, 'DEV_MEM/dev0/APP', 'regressed')}/status`, 'pass', 'regressed'],
      [`/entries/${leak}/severity`, 'warn', 'fail'],
      [`/entries/${device}/status`, 'pass', 'over-capacity'],
    ]);
    expect(rejudged.entries[device]).toMatchObject({
      status: 'over-capacity',
      severity: 'fail',
      limit: 16 * GiB,
      capacity: 16 * GiB,
    });
    // The note is the gate's own, for the trusted capacity: not the forger's.
    expect(rejudged.entries[device]!.note).toBe(
      'estimated peak 20.0 GiB is over the capacity 16.0 GiB by 4.0 GiB. An upper bound: the sum of 1 module peak in DEV_MEM, which need not coincide',
    );
    expect(rejudged.result).toBe('fail');
  });

  it('a headroom entry the trusted config cannot give (no capacity) is not shown, and named', () => {
    const cfg = config({ device: { capacity: '64GiB' } });
    const report = honest(cfg);
    const { report: rejudged, discrepancies } = rejudgeReport(report, { baseline: TRUSTED, config: config() }, written);
    expect(discrepancies.filter((d) => d.field === 'entry').map((d) => [d.key, d.claimed])).toEqual([
      ['dev0', { status: 'pass', severity: 'ok' }],
      ['dev1', { status: 'pass', severity: 'ok' }],
    ]);
    expect(rejudged.entries.filter((e) => e.kind === 'device')).toEqual([]);
  });

  it("the environment's severity is the trusted config's: onChange fail fails the run", () => {
    const report: GateReport = {
      ...honest(),
      environment: {
        changes: [{ item: 'cann', baseline: '8.3.RC1', current: '9.0.RC1' }],
        splits: [],
        severity: 'warn',
      },
    };
    const honestPass = rejudgeReport(report, { baseline: TRUSTED, config: config() }, written);
    expect(honestPass.discrepancies).toEqual([]);
    const strict = rejudgeReport(
      { ...report, result: 'fail' },
      { baseline: TRUSTED, config: config({ environment: { onChange: 'fail' } }) },
      written,
    );
    expect(strict.discrepancies).toEqual([
      { pointer: '/environment/severity', key: null, field: 'environment', claimed: 'warn', rejudged: 'fail' },
    ]);
    expect(strict.report.environment?.severity).toBe('fail');
    // The regression's note says what it happened across, as the gate writes it.
    expect(strict.report.entries[at(report, 'DEV_MEM/dev1/APP', 'regressed')]!.note).toBe(
      'Across the environment change since the baseline (CANN toolkit 8.3.RC1 → 9.0.RC1).',
    );
  });

  it('a key longer than the report keeps whole is matched in its written (shortened) form', () => {
    const long = `DEV_MEM/dev0/${'scope/'.repeat(800)}APP`;
    expect(long.length).toBeGreaterThan(MAX_KEY_LENGTH);
    const baseline = modules({ [long]: 100 * MiB });
    const report = honest(config(), baseline, modules({ [long]: 300 * MiB }));
    expect(report.entries[0]!.key).toBe(written(long));
    expect(rejudgeReport(report, { baseline, config: config() }, written).discrepancies).toEqual([]);
    const forged = relabel(report, 0, 'pass', 'ok');
    expect(rejudgeReport(forged, { baseline, config: config() }, written).discrepancies[0]).toMatchObject({
      field: 'status',
      claimed: 'pass',
      rejudged: 'regressed',
    });
  });

  it('with no trusted baseline every key is new, and onMissingBaseline: fail fails the run', () => {
    const report = honest(config(), { sections: {} });
    expect(rejudgeReport(report, { baseline: null, config: config() }, written).discrepancies).toEqual([]);
    const closed = rejudgeReport(report, { baseline: null, config: config({ onMissingBaseline: 'fail' }) }, written);
    expect(closed.report.result).toBe('fail');
    expect(closed.discrepancies).toEqual([
      { pointer: '/result', key: null, field: 'result', claimed: 'pass', rejudged: 'fail' },
    ]);
  });
});

describe('renderNotTrustworthy', () => {
  it('lists each claim with the re-judged value: figures in their unit, exact when they would look alike, names as code', () => {
    const text = renderNotTrustworthy(
      [
        {
          pointer: '/entries/1/status',
          key: 'DEV_MEM/dev1/a|b',
          field: 'status',
          claimed: 'pass',
          rejudged: 'regressed',
        },
        {
          pointer: '/entries/1/baseline',
          key: 'DEV_MEM/dev1/a|b',
          field: 'baseline',
          claimed: 2078195713,
          rejudged: SEED_APP_PEAK,
          unit: 'bytes',
        },
        {
          pointer: '/entries/2/baseline',
          key: 'DEV_MEM/dev2/APP',
          field: 'baseline',
          claimed: 164 * MiB,
          rejudged: null,
          unit: 'bytes',
        },
        {
          pointer: '/entries',
          key: 'DEV_MEM/dev3/APP',
          field: 'entry',
          claimed: null,
          rejudged: { status: 'missing', severity: 'fail' },
        },
        { pointer: '/counts/pass', key: null, field: 'count', claimed: 3, rejudged: 2 },
        { pointer: '/result', key: null, field: 'result', claimed: 'pass', rejudged: 'fail' },
      ],
      'the baseline and config of the base commit `abcdefabcdef`',
    );
    expect(text.split('\n')).toEqual([
      '#### ⛔ This report is not trustworthy: 6 of its claims do not follow from the trusted limits',
      '',
      "The pull request's run uploaded a report whose claims differ from what the baseline and config of the base commit `abcdefabcdef` give for the figures it reports. The verdict below is re-judged here from those limits and the run's figures; the figures themselves (what the run measured) cannot be checked here: review the pull request's changes to the workflow, baseline and config.",
      '',
      '| Where | Key | The report says | Re-judged |',
      '|---|---|---|---|',
      '| `/entries/1/status` | `DEV_MEM/dev1/a\\|b` | `pass` | `regressed` |',
      '| `/entries/1/baseline` | `DEV_MEM/dev1/a\\|b` | 2,078,195,713 B | 2,078,195,712 B |',
      '| `/entries/2/baseline` | `DEV_MEM/dev2/APP` | 164.0 MiB | absent |',
      '| `/entries` | `DEV_MEM/dev3/APP` | no entry | `missing` (fail) |',
      '| `/counts/pass` |  | 3 | 2 |',
      '| `/result` |  | `pass` | `fail` |',
    ]);
  });

  it('shows 20 rows and counts the rest', () => {
    const many: Discrepancy[] = Array.from({ length: 25 }, (_, i) => ({
      pointer: `/entries/${i}/status`,
      key: `k${i}`,
      field: 'status',
      claimed: 'pass',
      rejudged: 'regressed',
    }));
    const lines = renderNotTrustworthy(many, 'x').split('\n');
    expect(lines.filter((l) => l.startsWith('| `/entries/'))).toHaveLength(20);
    expect(lines.at(-1)).toBe("…and 5 more: the job's report.json holds the re-judged entries.");
  });
});

describe('rejudgeReport, properties', () => {
  const peak = fc.integer({ min: 0, max: 64 * GiB });
  const keys = fc.uniqueArray(
    fc.constantFrom(
      ...['APP', 'HCCL', 'GE', 'RUNTIME'].flatMap((m) => [0, 1, 2, 3].map((d) => `DEV_MEM/dev${d}/${m}`)),
    ),
    { maxLength: 16 },
  );
  const side = keys.chain((ks) =>
    fc.tuple(...ks.map(() => peak)).map((ps) => Object.fromEntries(ks.map((k, i) => [k, ps[i]!]))),
  );
  const rawConfig = fc.record(
    {
      modules: fc.record({
        tolerance: fc.record(
          { percent: fc.integer({ min: 0, max: 50 }), bytes: fc.integer({ min: 0, max: 64 * MiB }) },
          { requiredKeys: [] },
        ),
      }),
      onNew: fc.constantFrom('warn', 'fail', 'ignore'),
      onMissing: fc.constantFrom('warn', 'fail', 'ignore'),
      failOnImprovement: fc.boolean(),
      device: fc.record({ capacity: fc.integer({ min: 1, max: 128 * GiB }) }),
    },
    { requiredKeys: [] },
  );

  it('any report the gate writes follows from its own limits, whole', () => {
    fc.assert(
      fc.property(side, side, rawConfig, (before, after, raw) => {
        const cfg = config(raw);
        const report = honest(cfg, modules(before), modules(after));
        const { report: rejudged, discrepancies } = rejudgeReport(
          report,
          { baseline: modules(before), config: cfg },
          written,
        );
        expect(discrepancies).toEqual([]);
        expect(rejudged).toEqual(report);
      }),
      { numRuns: 300 },
    );
  });

  // A finding relabelled as another finding (leak-suspect as growing) cannot be told from here: the evidence of either is
  // not in the report. Every other relabelling can.
  it('relabelling any verdict, or any entry as a verdict, is named, and never passes what the honest gate fails', () => {
    fc.assert(
      fc.property(
        side,
        side,
        rawConfig,
        fc.nat(),
        fc.constantFrom(...STATUSES),
        fc.constantFrom('fail', 'warn', 'ok'),
        (before, after, raw, pick, status, severity) => {
          const cfg = config(raw);
          const report = honest(cfg, modules(before), modules(after));
          fc.pre(report.entries.length > 0);
          const i = pick % report.entries.length;
          fc.pre(report.entries[i]!.status !== status || report.entries[i]!.severity !== severity);
          fc.pre(
            VERDICTS.includes(status) ||
              (VERDICTS.includes(report.entries[i]!.status) && report.entries[i]!.kind !== 'device'),
          );
          const forged = relabel(report, i, status, severity);
          const { report: rejudged, discrepancies } = rejudgeReport(
            forged,
            { baseline: modules(before), config: cfg },
            written,
          );
          expect(discrepancies.length).toBeGreaterThan(0);
          // Never a pass the honest gate would not give; a verdict relabelled as another verdict is judged back exactly.
          if (report.result === 'fail') expect(rejudged.result).toBe('fail');
          const entry = report.entries[i]!;
          if (entry.kind !== 'device' && VERDICTS.includes(status) && VERDICTS.includes(entry.status))
            expect(rejudged).toEqual(report);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// Comment mode decides a baseline that shares no key with the run as check mode does (issue 29).
describe('a baseline that shares no key with the run, re-judged', () => {
  const OTHER = modules({ 'DEV_MEM/dev7/APP': 100 });

  it('fails under the trusted config though the upload claims a pass, naming both sides', () => {
    const claimed = honest(config({ onDisjointBaseline: 'warn' }), TRUSTED, OTHER);
    expect(claimed.result).toBe('pass');
    const { report, discrepancies } = rejudgeReport(claimed, { baseline: TRUSTED, config: config() }, written);
    expect(report.result).toBe('fail');
    expect(report.disjointBaseline).toEqual({
      severity: 'fail',
      baseline: { keys: 3, first: 'module DEV_MEM/dev0/APP' },
      run: { keys: 1, first: 'module DEV_MEM/dev7/APP' },
    });
    expect(discrepancies.map((d) => d.pointer)).toEqual(['/result']);
  });

  it('passes with the line under a trusted "onDisjointBaseline": "warn"', () => {
    const { report } = rejudgeReport(
      honest(config(), TRUSTED, OTHER),
      { baseline: TRUSTED, config: config({ onDisjointBaseline: 'warn' }) },
      written,
    );
    expect(report.result).toBe('pass');
    expect(report.disjointBaseline?.severity).toBe('warn');
  });
});

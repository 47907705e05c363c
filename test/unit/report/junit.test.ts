// The JUnit report: what GitLab's test widget and Jenkins' junit step show, valid against the schemas both read, safe
// whatever the logs held. Validated with xmllint compiled to WebAssembly (test/helpers/xsd.ts, from npm) against
// test/fixtures/junit/JUnit.xsd (Apache Ant, windyroad) and jenkins-junit-10.xsd (Jenkins' xUnit plugin).
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../../src/gate/types.js';
import { renderJunit, type JunitContext } from '../../../src/report/junit.js';
import { runStamp } from '../../../src/sources/node-environment.js';
import { readInputs } from '../../../src/action/inputs.js';
import { schemaErrors, xpath } from '../../helpers/xsd.js';
import { entry } from '../../helpers/entries.js';
import { report } from '../../helpers/reports.js';
import { GiB } from '../../helpers/story.js';
import { buildReportView } from '../../../src/report/view.js';

const CONTEXT: JunitContext = { timestamp: new Date(Date.UTC(2026, 11, 2, 8, 15, 30, 250)), hostname: 'gate-runner-1' };

describe('the JUnit report', () => {
  it('one suite for the verdict, one per section; a regressed key fails, a new one is skipped, a warning goes to system-out', async () => {
    const xml = renderJunit(
      buildReportView(
        report([
          entry({ key: 'DEV_MEM/dev0/APP', baseline: 2 * GiB, current: 2 * GiB }),
          entry({
            key: 'DEV_MEM/dev1/APP',
            baseline: 2 * GiB,
            current: 20 * GiB,
            delta: 18 * GiB,
            percent: 900,
            status: 'regressed',
            severity: 'fail',
          }),
          entry({
            key: 'DEV_MEM/dev1/HCCL',
            baseline: 2 * GiB,
            current: 3 * GiB,
            delta: GiB,
            percent: 50,
            status: 'imbalance',
            severity: 'warn',
            note: 'dev1 is 50% above the median of 3 devices',
          }),
          entry({
            kind: 'kernel',
            key: 'dev0/matmul_v1',
            baseline: null,
            current: 6 * 1024 * 1024,
            delta: null,
            percent: null,
            status: 'new',
            severity: 'warn',
          }),
        ]),
      ),
      CONTEXT,
    );
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="Memory gate" package="gate" id="0" tests="1" failures="1" errors="0" skipped="0" time="0" timestamp="2026-12-02T08:15:30" hostname="gate-runner-1">
    <properties/>
    <testcase name="verdict" classname="ascend-memory-gate.gate" time="0">
      <failure message="Memory gate failed: DEV_MEM/dev1/APP regressed: 2.0 GiB → 20.0 GiB (+18.0 GiB, +900%)" type="memory-gate">Memory gate failed: 1 regressed (2 warnings)</failure>
    </testcase>
    <system-out>Memory gate failed: 1 regressed (2 warnings)</system-out>
    <system-err/>
  </testsuite>
  <testsuite name="Modules" package="modules" id="1" tests="3" failures="1" errors="0" skipped="0" time="0" timestamp="2026-12-02T08:15:30" hostname="gate-runner-1">
    <properties/>
    <testcase name="DEV_MEM/dev1/APP" classname="ascend-memory-gate.modules" time="0">
      <failure message="DEV_MEM/dev1/APP regressed: 2.0 GiB → 20.0 GiB (+18.0 GiB, +900%)" type="regressed">DEV_MEM/dev1/APP regressed: 2.0 GiB → 20.0 GiB (+18.0 GiB, +900%)</failure>
    </testcase>
    <testcase name="DEV_MEM/dev1/HCCL imbalance" classname="ascend-memory-gate.modules" time="0"/>
    <testcase name="DEV_MEM/dev0/APP" classname="ascend-memory-gate.modules" time="0"/>
    <system-out>warning: DEV_MEM/dev1/HCCL imbalance: 2.0 GiB → 3.0 GiB (+1.0 GiB, +50%) [dev1 is 50% above the median of 3 devices]</system-out>
    <system-err/>
  </testsuite>
  <testsuite name="Kernels" package="kernels" id="2" tests="1" failures="0" errors="0" skipped="1" time="0" timestamp="2026-12-02T08:15:30" hostname="gate-runner-1">
    <properties/>
    <testcase name="dev0/matmul_v1" classname="ascend-memory-gate.kernels" time="0">
      <skipped message="dev0/matmul_v1 new: — → 6.0 MiB (+6.0 MiB, new)"/>
    </testcase>
    <system-out>warning: dev0/matmul_v1 new: — → 6.0 MiB (+6.0 MiB, new)</system-out>
    <system-err/>
  </testsuite>
</testsuites>
`);
    expect(await schemaErrors(xml)).toEqual([]);
  });

  it('rolls one module up across devices: one testcase, its message the devices and the worst one, its text the members', async () => {
    const devices = Array.from({ length: 14 }, (_, d) =>
      entry({
        key: `DEV_MEM/dev${d}/APP`,
        baseline: 2 * GiB,
        current: 2 * GiB + (d + 1) * 64 * 1024 * 1024,
        delta: (d + 1) * 64 * 1024 * 1024,
        percent: ((d + 1) * 100) / 32,
        status: 'regressed',
        severity: 'fail',
      }),
    );
    const xml = renderJunit(buildReportView(report(devices)), CONTEXT);
    const cases = [...xml.matchAll(/<testcase name="([^"]+)"/g)].map((m) => m[1]);
    expect(cases).toEqual(['verdict', 'DEV_MEM/*/APP']);
    expect(xml).toContain(
      '<failure message="14 of 14 devices, worst DEV_MEM/dev13/APP regressed: 2.0 GiB → 2.9 GiB (+896.0 MiB, +44%)" type="regressed">DEV_MEM/dev13/APP regressed: 2.0 GiB → 2.9 GiB (+896.0 MiB, +44%)\n',
    );
    expect(xml).toContain('DEV_MEM/dev4/APP regressed: 2.0 GiB → 2.3 GiB (+320.0 MiB, +16%)\n…4 more</failure>');
    expect(await schemaErrors(xml)).toEqual([]);
  });

  it('skips keys that were not judged (no baseline, not in this run, ignored by a rule) and fails a new key under onNew: fail', async () => {
    const xml = renderJunit(
      buildReportView(
        report([
          entry({
            key: 'DEV_MEM/dev0/GE',
            baseline: 1000,
            current: null,
            delta: null,
            percent: null,
            status: 'missing',
            severity: 'warn',
          }),
          entry({ key: 'HOST_MEM/APP', status: 'ignored', rule: 'HOST_MEM/**' }),
          entry({
            kind: 'kernel',
            key: 'dev0/k',
            baseline: null,
            current: 64,
            delta: null,
            percent: null,
            status: 'new',
            severity: 'fail',
          }),
        ]),
      ),
      CONTEXT,
    );
    expect([...xml.matchAll(/<testcase name="([^"]+)"[^>]*>\n\s*<(\w+)/g)].map((m) => `${m[1]}: ${m[2]}`)).toEqual([
      'verdict: failure',
      'DEV_MEM/dev0/GE: skipped',
      'HOST_MEM/APP: skipped',
      'dev0/k: failure',
    ]);
    expect(await schemaErrors(xml)).toEqual([]);
  });

  it('fails the verdict case whenever the job fails, also with no failing key (a first run under onMissingBaseline: fail)', async () => {
    const firstRun = report(
      [
        entry({
          key: 'DEV_MEM/dev0/APP',
          baseline: null,
          current: GiB,
          delta: null,
          percent: null,
          status: 'new',
          severity: 'warn',
        }),
      ],
      'fail',
    );
    const xml = renderJunit(buildReportView(firstRun), CONTEXT);
    expect(xml).toContain(
      '<failure message="Memory gate: No baseline yet: 1 key recorded, the gate stays closed until a baseline is committed (onMissingBaseline: fail)" type="memory-gate">',
    );
    expect(xml).toMatch(/<testcase name="DEV_MEM\/dev0\/APP" [^>]*>\n\s*<skipped /);
    const passed = renderJunit(buildReportView(report([entry({ key: 'DEV_MEM/dev0/APP' })])), CONTEXT);
    expect(passed).toContain('<testcase name="verdict" classname="ascend-memory-gate.gate" time="0"/>');
    expect(passed).toMatch(/<testsuite name="Memory gate" [^>]* tests="1" failures="0" /);
    expect(await schemaErrors(xml)).toEqual([]);
    expect(await schemaErrors(passed)).toEqual([]);
  });

  it('keeps a key the same test whatever its verdict, so CI systems follow it from run to run; findings and shared roll-ups say which', () => {
    const twoGiB = 2 * 1024 ** 3;
    const names = (entries: Entry[]): string[] =>
      [...renderJunit(buildReportView(report(entries)), CONTEXT).matchAll(/<testcase name="([^"]+)"/g)].map(
        (m) => m[1] as string,
      );
    const passing = names([entry({ key: 'DEV_MEM/dev1/APP', baseline: twoGiB, current: twoGiB })]);
    const regressed = names([
      entry({
        key: 'DEV_MEM/dev1/APP',
        baseline: twoGiB,
        current: 2 * twoGiB,
        delta: twoGiB,
        percent: 100,
        status: 'regressed',
        severity: 'fail',
      }),
      entry({
        key: 'DEV_MEM/dev1/APP',
        baseline: twoGiB,
        current: 2 * twoGiB,
        delta: twoGiB,
        percent: 100,
        status: 'leak-suspect',
        severity: 'warn',
      }),
    ]);
    expect(passing).toEqual(['verdict', 'DEV_MEM/dev1/APP']);
    expect(regressed).toEqual(['verdict', 'DEV_MEM/dev1/APP', 'DEV_MEM/dev1/APP leak-suspect']);
    // Two roll-ups of one pattern (3 devices improved, 3 passed) would share a name: each gets its status.
    const split = Array.from({ length: 6 }, (_, d) =>
      d < 3
        ? entry({
            key: `DEV_MEM/dev${d}/GE`,
            baseline: twoGiB,
            current: twoGiB / 2,
            delta: -twoGiB / 2,
            percent: -50,
            status: 'improved',
          })
        : entry({ key: `DEV_MEM/dev${d}/GE`, baseline: twoGiB, current: twoGiB }),
    );
    expect(names(split)).toEqual(['verdict', 'DEV_MEM/*/GE improved', 'DEV_MEM/*/GE pass']);
  });

  it('escapes names from the logs: markup, quotes, controls, lone surrogates and U+FFFF stay text and the file stays valid', async () => {
    const hostile = 'dev0/<x a="1">&amp;\'\u001b[31m\ud800\uffff\u202e';
    const xml = renderJunit(
      buildReportView(
        report([
          entry({
            kind: 'kernel',
            key: hostile,
            baseline: 0,
            current: 64,
            delta: 64,
            percent: null,
            status: 'regressed',
            severity: 'fail',
            note: 'a "note" <b>&',
          }),
        ]),
      ),
      {
        ...CONTEXT,
        hostname: 'h<&>"',
      },
    );
    expect(xml).toContain('name="dev0/&lt;x a=&quot;1&quot;&gt;&amp;amp;&apos;␛[31m⟨U+D800⟩⟨U+FFFF⟩⟨U+202E⟩"');
    expect(xml).toContain('hostname="h&lt;&amp;&gt;&quot;"');
    expect(xml).toContain('[a &quot;note&quot; &lt;b&gt;&amp;]');
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/);
    expect(await schemaErrors(xml, 'hostile')).toEqual([]);
    // the parser agrees: xmllint reads back the very name the log held, made visible
    const names = await xpath(xml, 'string(//testsuite[@package="kernels"]/testcase/@name)');
    expect(names).toBe('dev0/<x a="1">&amp;\'␛[31m⟨U+D800⟩⟨U+FFFF⟩⟨U+202E⟩\n');
  });

  it('the schema check is live: a file without hostname, or with a zone in its timestamp, is refused', async () => {
    const xml = renderJunit(buildReportView(report([entry({ key: 'DEV_MEM/dev0/APP' })])), CONTEXT);
    expect((await schemaErrors(xml.replace(/ hostname="[^"]*"/g, ''), 'no-hostname')).join('\n')).toMatch(
      /JUnit\.xsd: .*The attribute 'hostname' is required/,
    );
    expect((await schemaErrors(xml.replace(/timestamp="([^"]+)"/g, 'timestamp="$1Z"'), 'zoned')).join('\n')).toMatch(
      /JUnit\.xsd: .*timestamp/,
    );
    expect(await schemaErrors(xml.replace('<testcase name="verdict"', '<testcase'), 'no-name')).toHaveLength(2);
  });
});

describe('when and where the gate ran (runStamp)', () => {
  it('takes SOURCE_DATE_EPOCH when it is set, else now; refuses one that is not whole seconds', () => {
    const now = new Date(Date.UTC(2026, 0, 1));
    expect(runStamp({ SOURCE_DATE_EPOCH: '1796169600' }, () => now).timestamp.toISOString()).toBe(
      '2026-12-02T00:00:00.000Z',
    );
    expect(runStamp({}, () => now).timestamp).toBe(now);
    expect(runStamp({ SOURCE_DATE_EPOCH: '' }, () => now).timestamp).toBe(now);
    expect(runStamp({}).hostname).not.toBe('');
    expect(() => runStamp({ SOURCE_DATE_EPOCH: '2026-12-02' })).toThrow(
      "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got '2026-12-02'",
    );
  });
});

describe("the Action's junit-report input", () => {
  it('is one file path, or none when empty', () => {
    const inputs = (junitReport: string) => readInputs((name) => (name === 'junit-report' ? junitReport : ''));
    expect(inputs('').junitReport).toBeUndefined();
    expect(inputs(' reports/memory-gate.junit.xml ').junitReport).toBe('reports/memory-gate.junit.xml');
    expect(() => inputs('reports/')).toThrow(
      "'junit-report' must be one file path such as memory-gate.junit.xml, got 'reports/'",
    );
    expect(() => inputs('a.xml\nb.xml')).toThrow("'junit-report' must be one file path such as memory-gate.junit.xml");
  });
});

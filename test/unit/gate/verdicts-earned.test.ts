// Verdicts the gate earned (issue 29): a baseline that shares no key with the run fails, and records not read are counted
// in every report format (terminal, Markdown, HTML, JSON, JUnit) by file and line, a cut-off last record as where the job died.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';
import { parseReportJson } from '../../../src/report/json.js';

const tmp = mkdtempSync(join(tmpdir(), 'verdicts-earned-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RECORD = (dev: number, module: string, peak: number | string): string =>
  `[INFO] DRV(77,python3):2024-07-08-22:27:45.354.900 [ascend][curpid: 77, 77][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev${dev} Mem stats (Bytes). (module_name=${module}; module_id=33; current_alloced_size=${peak}; alloced_peak_size=${peak}; alloc_cnt=3; free_cnt=1)\n`;

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(tmp, name, '..'), { recursive: true });
    writeFileSync(join(tmp, name), text);
  }
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const cwd = process.cwd();
  process.chdir(tmp);
  try {
    const code = await runCli(argv, {
      out: (t) => (out += t),
      err: (t) => (err += t),
      width: () => 400,
      color: () => false,
    });
    return { code, out, err };
  } finally {
    process.chdir(cwd);
  }
}

const read = (name: string): string => readFileSync(join(tmp, name), 'utf8');

describe('a baseline that shares no key with the run', () => {
  const VERDICT =
    'Memory gate failed: the baseline shares no key with this run, so nothing was compared (baseline: 2 key(s), first module DEV_MEM/dev0/APP; ' +
    'this run: 1 key(s), first module DEV_MEM/dev4/APP) (3 warnings)';

  it('fails with one line naming both sides and their first keys, in every report', async () => {
    write({ 'old/plog.log': RECORD(0, 'APP', 100) + RECORD(0, 'HCCL', 50), 'new/plog.log': RECORD(4, 'APP', 100) });
    expect((await cli('baseline', '--out', 'base.json', '--plog', 'old')).code).toBe(0);
    const r = await cli(
      'check',
      '--baseline',
      'base.json',
      '--plog',
      'new',
      '--report',
      'r.json',
      '--markdown',
      'r.md',
      '--html',
      'r.html',
      '--junit',
      'r.xml',
    );
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toBe(VERDICT);
    expect(read('r.md').split('\n')[0]).toBe(`### ❌ ${VERDICT}`);
    expect(read('r.md')).toContain(
      '| `baseline` | `2` | `module DEV_MEM/dev0/APP` |\n| `this run` | `1` | `module DEV_MEM/dev4/APP` |',
    );
    expect(read('r.html')).toContain('<td><code>module DEV_MEM/dev0/APP</code></td>');
    const report = parseReportJson(read('r.json'), 'r.json');
    expect(report.result).toBe('fail');
    expect(report.disjointBaseline).toEqual({
      severity: 'fail',
      baseline: { keys: 2, first: 'module DEV_MEM/dev0/APP' },
      run: { keys: 1, first: 'module DEV_MEM/dev4/APP' },
    });
    expect(read('r.xml')).toContain(
      `<failure message="Memory gate failed: the baseline shares no key with this run, so nothing was compared (baseline: 2 key(s), first module DEV_MEM/dev0/APP; this run: 1 key(s), first module DEV_MEM/dev4/APP)" type="memory-gate">`,
    );
  });

  it('passes with the line as a warning under "onDisjointBaseline": "warn" (a new input\'s first run)', async () => {
    write({ 'warn.json': JSON.stringify({ onDisjointBaseline: 'warn' }) });
    const r = await cli('check', '--baseline', 'base.json', '--plog', 'new', '--config', 'warn.json');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toMatch(/^Memory gate passed: /);
    expect(r.out.split('\n').slice(1, 5)).toEqual([
      '',
      'WARN: The baseline shares no key with this run: nothing was compared',
      '  baseline  2  module DEV_MEM/dev0/APP',
      '  this run  1  module DEV_MEM/dev4/APP',
    ]);
  });

  it('is not said when one key is shared', async () => {
    write({ 'some/plog.log': RECORD(0, 'APP', 100) + RECORD(4, 'APP', 100) });
    const r = await cli('check', '--baseline', 'base.json', '--plog', 'some', '--report', 'shared.json');
    expect(r.code).toBe(0);
    expect(parseReportJson(read('shared.json'), 'shared.json').disjointBaseline).toBeUndefined();
  });
});

describe('records not read', () => {
  it('are counted in every report with file:line; a cut-off last record says the job probably died there', async () => {
    // Line 2 is malformed; line 3 is the last, cut off mid-record (no line end): the process died writing it.
    write({ 'cut/plog.log': RECORD(0, 'APP', 100) + RECORD(0, 'HCCL', 'abc') + RECORD(0, 'GE', 200).slice(0, 200) });
    const r = await cli(
      'check',
      '--baseline',
      'base.json',
      '--plog',
      'cut',
      '--report',
      'c.json',
      '--markdown',
      'c.md',
      '--html',
      'c.html',
      '--junit',
      'c.xml',
    );
    expect(r.code).toBe(0);
    const cutLine =
      'cut/plog.log:3: truncated or malformed memory-statistics record: DEV_MEM dev0 Mem stats (Bytes). (module_name=GE; module_id=33; current_alloced_size=200;';
    const badLine =
      'cut/plog.log:2: truncated or malformed memory-statistics record: DEV_MEM dev0 Mem stats (Bytes). (module_name=HCCL; module_id=33; current_alloced_size=abc;';
    expect(r.out).toContain(
      `WARN: A file ends in a cut-off record: the job probably died there\n  ${cutLine}\n\nWARN: 2 record(s) not read\n  ${badLine}`,
    );
    expect(read('c.md')).toContain(
      `#### ⚠️ A file ends in a cut-off record: the job probably died there\n\n| Not read |\n|---|\n| \`${cutLine}\` |`,
    );
    expect(read('c.md')).toContain(`#### ⚠️ 2 record(s) not read\n\n| Not read |\n|---|\n| \`${badLine}`);
    expect(read('c.html')).toContain('<h2>⚠️ A file ends in a cut-off record: the job probably died there</h2>');
    expect(read('c.html')).toContain(`<td><code>${cutLine}</code></td>`);
    expect(read('c.xml')).toContain(`WARN: A file ends in a cut-off record: the job probably died there\n  ${cutLine}`);
    const notRead = parseReportJson(read('c.json'), 'c.json').notRead;
    expect(notRead?.count).toBe(2);
    expect(notRead?.cut).toEqual([{ file: 'cut/plog.log', line: 3, reason: cutLine.replace('cut/plog.log:3: ', '') }]);
    expect(notRead?.sample.map((s) => `${s.file}:${s.line}`)).toEqual(['cut/plog.log:2', 'cut/plog.log:3']);
  });

  it('a run with every record read has no such line', async () => {
    const r = await cli('check', '--baseline', 'base.json', '--plog', 'old', '--report', 'clean.json');
    expect(r.out).not.toContain('not read');
    expect(parseReportJson(read('clean.json'), 'clean.json').notRead).toBeUndefined();
  });
});

/**
 * End-to-end tests of the bundled command line (`node dist/cli.js`) on generated multi-rank trees:
 * what a user types in a terminal, with exit codes, stdout and the files it writes.
 *
 * Build first: `npm run build` (these tests run dist/cli.js, not the sources).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 99) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'amg-cli-'));
  dirs.push(d);
  return d;
}

interface Module {
  peak: number;
  current: number;
  allocs: number;
  frees: number;
}

/** A v1 record as the CANN 8 driver prints it at process exit. */
function record(pid: number, attr: string, dev: number, module: string, m: Module): string {
  return (
    `[INFO] DRV(${pid},python3):2024-07-08-22:27:45.354.856 [ascend][curpid: ${pid}, ${pid}][drv][devmm][_svm_mem_stats_show 148]` +
    `${attr} dev${dev} Mem stats (Bytes). (module_name=${module}; module_id=7; current_alloced_size=${m.current}; ` +
    `alloced_peak_size=${m.peak}; alloc_cnt=${m.allocs}; free_cnt=${m.frees})`
  );
}

const NOISE =
  '[INFO] HCCL(1,python3):2024-07-08-22:27:01.000.000 [hcom.cc:196][hccl-1-0-1-hccl_world_group][3]hcom init by file success';

/** rank_<r>/plog-<pid>_….log for every rank, DEV_MEM APP/HCCL/RUNTIME on device r, with `scale` applied to one key. */
function writeJob(dir: string, ranks: number, scaled?: { key: string; factor: number }): void {
  for (let r = 0; r < ranks; r++) {
    const pid = 4000 + r;
    const modules: Record<string, Module> = {
      APP: { peak: 2078195712 + r * 4096, current: 2078195712 + r * 4096, allocs: 996, frees: 0 },
      HCCL: { peak: 419500032, current: 419467264, allocs: 6, frees: 2 },
      RUNTIME: { peak: 44138496, current: 44138496, allocs: 18, frees: 0 },
    };
    const lines = [NOISE, NOISE];
    for (const [name, m] of Object.entries(modules)) {
      const key = `DEV_MEM/dev${r}/${name}`;
      const f = scaled && scaled.key === key ? scaled.factor : 1;
      const peak = Math.round(m.peak * f);
      lines.push(record(pid, 'DEV_MEM', r, name, { ...m, peak, current: Math.min(m.current, peak) }));
    }
    mkdirSync(join(dir, 'plog', `rank_${r}`), { recursive: true });
    writeFileSync(join(dir, 'plog', `rank_${r}`, `plog-${pid}_20240708222745354.log`), `${lines.join('\n')}\n`);
  }
  const csv = [
    ',,,Base,Compare',
    'Event,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)',
    'KERNEL_LAUNCH,matmul_v1,0,124,130,6',
  ];
  writeFileSync(join(dir, 'memory_compare_20250901120000.csv'), `${csv.join('\n')}\n`);
}

describe('parse', () => {
  it('prints the exact snapshot of a 2-rank tree and a memory_compare file as sorted JSON', async () => {
    const dir = tempDir();
    writeJob(dir, 2);
    const r = await cli(['parse', '--plog', 'plog', '--compare', 'memory_compare_20250901120000.csv', '--json'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const mod = (peak: number, current: number, allocs: number, frees: number) => ({ allocs, current, frees, peak });
    const expected = {
      meta: { allocFailures: { dev0: 0, dev1: 0 }, files: 3, records: 7, skipped: 0 },
      sections: {
        kernels: { 'dev0/matmul_v1': { added: 0, diff: 6, event: 'KERNEL_LAUNCH', removed: 0, rows: 1 } },
        modules: {
          'DEV_MEM/dev0/APP': mod(2078195712, 2078195712, 996, 0),
          'DEV_MEM/dev0/HCCL': mod(419500032, 419467264, 6, 2),
          'DEV_MEM/dev0/RUNTIME': mod(44138496, 44138496, 18, 0),
          'DEV_MEM/dev1/APP': mod(2078199808, 2078199808, 996, 0),
          'DEV_MEM/dev1/HCCL': mod(419500032, 419467264, 6, 2),
          'DEV_MEM/dev1/RUNTIME': mod(44138496, 44138496, 18, 0),
        },
      },
      series: {},
      version: 2,
    };
    // Exactly: sorted keys, 2-space indent, trailing newline.
    expect(r.stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it('writes the human table with sizes and exact bytes', async () => {
    const dir = tempDir();
    writeJob(dir, 1);
    const r = await cli(['parse', '--plog', 'plog'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/DEV_MEM\/dev0\/APP\s+1\.9 GiB\s+2078195712/);
  });

  it('fails with exit 2 and says what was searched when no memory record is found', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'logs', 'plog-1_20250101000000000.log'), `${NOISE}\n`);
    const r = await cli(['parse', '--plog', 'logs'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no memory statistics found in 1 plog file(s)');
    expect(r.stderr).toContain('run logs enabled');
  });

  it('fails with exit 2 on a path that does not exist', async () => {
    const r = await cli(['parse', '--plog', 'nowhere'], tempDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'nowhere' does not exist");
  });
});

describe('check against a baseline of the same job', () => {
  async function baselineOf(dir: string): Promise<string> {
    const good = join(dir, 'good');
    writeJob(good, 4);
    const file = join(dir, 'baseline.json');
    const r = await cli(['baseline', '--out', file, '--plog', join(good, 'plog')], dir);
    expect(r.code).toBe(0);
    return file;
  }

  it('fails with exactly DEV_MEM/dev2/HCCL regressed when its peak grows 1.5x', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir);
    writeJob(join(dir, 'run'), 4, { key: 'DEV_MEM/dev2/HCCL', factor: 1.5 });
    const report = join(dir, 'report.json');
    const r = await cli(['check', '--baseline', baseline, '--plog', join(dir, 'run', 'plog'), '--report', report], dir);
    expect(r.code).toBe(1);
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      result: string;
      entries: { key: string; status: string; severity: string; delta: number }[];
    };
    expect(json.result).toBe('fail');
    const failing = json.entries.filter((e) => e.severity === 'fail');
    expect(failing).toEqual([
      expect.objectContaining({ key: 'DEV_MEM/dev2/HCCL', status: 'regressed', delta: 209750016 }),
    ]);
    // The one rank that grew also stands out from the other three: a warning, not a second failure.
    const warnings = json.entries.filter((e) => e.severity === 'warn').map((e) => `${e.key} ${e.status}`);
    expect(warnings).toEqual(['DEV_MEM/dev2/HCCL imbalance']);
    expect(r.stdout).toMatch(/✗ regressed\s+DEV_MEM\/dev2\/HCCL\s+400\.1 MiB → 600\.1 MiB\s+\+200\.0 MiB \(\+50%\)/);
  });

  it('passes when the same peak grows only 1.01x (inside 5% and above 1 MiB)', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir);
    writeJob(join(dir, 'run'), 4, { key: 'DEV_MEM/dev2/HCCL', factor: 1.01 });
    const r = await cli(['check', '--baseline', baseline, '--plog', join(dir, 'run', 'plog')], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Memory gate passed');
  });

  it('fails the 1.01x growth when --max-increase allows only 1 MiB', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir);
    writeJob(join(dir, 'run'), 4, { key: 'DEV_MEM/dev2/HCCL', factor: 1.01 });
    const r = await cli(
      ['check', '--baseline', baseline, '--max-increase', '1MiB', '--plog', join(dir, 'run', 'plog')],
      dir,
    );
    expect(r.code).toBe(1);
  });

  it('gives exit 2 naming the JSON pointer of a corrupt baseline field', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir);
    const json = JSON.parse(readFileSync(baseline, 'utf8')) as {
      sections: { modules: Record<string, { peak: unknown }> };
    };
    (json.sections.modules['DEV_MEM/dev1/APP'] as { peak: unknown }).peak = 'big';
    writeFileSync(baseline, JSON.stringify(json));
    writeJob(join(dir, 'run'), 4);
    const r = await cli(['check', '--baseline', baseline, '--plog', join(dir, 'run', 'plog')], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/sections/modules/DEV_MEM~1dev1~1APP/peak');
  });

  it('exits 1 with alloc-failure, not 2, when the logs hold only allocation failures (a job that died of an OOM)', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir);
    mkdirSync(join(dir, 'oom'), { recursive: true });
    writeFileSync(
      join(dir, 'oom', 'plog-9_20250901.log'),
      '[ERROR] DRV(9,python3):2025-09-01-12:00:00.000.000 [devmm_alloc.c:1] halMemAlloc failed:size=2097152(Byte), type=2, device_id=1!\n',
    );
    const r = await cli(['check', '--baseline', baseline, '--plog', join(dir, 'oom')], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ alloc-failure ¹\s+dev1\s/);
  });

  it('exits 1 with alloc-failure on the right devices and counts for a log of every failure shape of FORMATS.md, damaged ones included', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir);
    mkdirSync(join(dir, 'oom'), { recursive: true });
    const at = (level: string): string => `${level} RUNTIME(27271,python):2025-03-02-10:11:12.131.415 `;
    const failures = [
      `${at('[ERROR]')}[npu_driver.cc:1100]27280 DevMemAlloc:[drv api] halMemAlloc failed:size=2097152(Byte), type=2, drvRetCode=6, device_id=0!`,
      `${at('[ERROR]')}[npu_driver.cc:1100]27280 DevMemAlloc:[drv api] halMemAlloc failed:size=4194304(bytes), type=2, drvRetCode=6, device_id=01!`,
      `${at('[ERROR]')}[npu_driver.cc:1152]27280 DevMemAllocManaged:device_id=2, ErrCode=207001, desc=[driver error:out of memory]`,
      `${at('[ERROR]')}[npu_driver.cc:1093]27280 MallocPhysical:Call driver api halMemAlloc failed, drvRetCode=6, drvDevId=3, size=2097152`,
      `${at('ERR0R]')}[npu_driver.cc:1100]27280 DevMemAlloc:halMemAlloc failed:size=2097152(Byte), drvRetCode=6, device_id 3!`,
      `${at('ERROR]')}[npu_driver.cc:1100]27280 DevMemAlloc:halMemAlloc failed:size=2097152(Byte), drvRetCode=6, device_id=2!`,
      `run/plog/plog-1.log:88:[ERROR] PTA(27271,python):2025-03-02-10:11:12.131.415 [acl_rt.cpp:88]27271 Memory_Allocation_Failure(EL0004): Failed to allocate memory.`,
    ];
    // The last two glued on one line, as a collector that lost a newline leaves them: two failures, not one.
    const text = `${failures.slice(0, 5).join('\n')}\n${failures[5]}${failures[6]?.replace(/^.*?:88:/, '')}\n${failures[6]}\n`;
    writeFileSync(join(dir, 'oom', 'plog-9_20250901.log'), text);
    const parsed = await cli(['parse', '--plog', join(dir, 'oom'), '--json'], dir);
    expect(parsed.code).toBe(0);
    expect(JSON.parse(parsed.stdout).meta.allocFailures).toEqual({ dev0: 1, dev1: 1, dev2: 2, dev3: 2, unknown: 2 });
    const r = await cli(['check', '--baseline', baseline, '--plog', join(dir, 'oom')], dir);
    expect(r.code).toBe(1);
    // One alloc-failure per device (dev0-dev3 and unknown), rolled up into one row across devices.
    expect(r.stdout).toContain('Memory gate failed: 5 alloc-failure');
    expect(r.stdout).toMatch(/✗ alloc-failure ¹\s+dev\*\s/);
  });

  it('takes a missing baseline file as a first run, like the Action: "No baseline" first, how to create one, exit 0', async () => {
    const dir = tempDir();
    writeJob(dir, 1);
    const r = await cli(['check', '--baseline', 'baselines/none.json', '--plog', 'plog', '--markdown', 'gate.md'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('No baseline yet: 3 keys recorded');
    expect(r.stdout).not.toContain('passed');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      "'ascend-memory-gate baseline --out baselines/none.json' and the input flags of this check",
    );
    const markdown = readFileSync(join(dir, 'gate.md'), 'utf8').split('\n')[0] ?? '';
    expect(markdown).toContain('No baseline');
    expect(markdown).not.toContain('passed');
  });

  it('takes a baseline without keys as a first run too, and exits 1 with "onMissingBaseline": "fail"', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir);
    const json = JSON.parse(readFileSync(baseline, 'utf8')) as { sections: Record<string, object> };
    for (const name of Object.keys(json.sections)) json.sections[name] = {};
    writeFileSync(baseline, JSON.stringify(json));
    writeJob(join(dir, 'run'), 4);
    const open = await cli(['check', '--baseline', baseline, '--plog', join(dir, 'run', 'plog')], dir);
    expect(open.code).toBe(0);
    expect(open.stdout.split('\n')[0]).toBe('No baseline yet: 12 keys recorded');
    writeFileSync(join(dir, 'gate.json'), JSON.stringify({ onMissingBaseline: 'fail' }));
    for (const file of [baseline, join(dir, 'none.json')]) {
      const closed = await cli(
        ['check', '--baseline', file, '--config', 'gate.json', '--plog', join(dir, 'run', 'plog')],
        dir,
      );
      expect(closed.code).toBe(1);
      expect(closed.stdout.split('\n')[0]).toBe(
        'No baseline yet: 12 keys recorded, the gate stays closed until a baseline is',
      );
    }
  });
});

describe('baseline', () => {
  it('keeps keys of a rank that did not upload, and drops them with --prune', async () => {
    const dir = tempDir();
    writeJob(join(dir, 'all'), 2);
    writeJob(join(dir, 'one'), 1);
    const file = join(dir, 'b.json');
    expect((await cli(['baseline', '--out', file, '--plog', join(dir, 'all', 'plog')], dir)).code).toBe(0);
    const kept = await cli(['baseline', '--out', file, '--plog', join(dir, 'one', 'plog')], dir);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('0 added, 0 changed, 3 kept (absent from this run), 0 pruned, 3 unchanged');
    expect(
      Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { sections: { modules: object } }).sections.modules),
    ).toHaveLength(6);
    const pruned = await cli(['baseline', '--out', file, '--plog', join(dir, 'one', 'plog'), '--prune'], dir);
    expect(pruned.stdout).toContain('3 pruned');
    expect(
      Object.keys(
        (JSON.parse(readFileSync(file, 'utf8')) as { sections: { modules: object } }).sections.modules,
      ).sort(),
    ).toEqual(['DEV_MEM/dev0/APP', 'DEV_MEM/dev0/HCCL', 'DEV_MEM/dev0/RUNTIME']);
  });

  it('refuses a run with no records and leaves the baseline byte for byte', async () => {
    const dir = tempDir();
    writeJob(join(dir, 'all'), 2);
    const file = join(dir, 'b.json');
    await cli(['baseline', '--out', file, '--plog', join(dir, 'all', 'plog')], dir);
    const before = readFileSync(file);
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'empty', 'plog-9_20250101000000000.log'), `${NOISE}\n`);
    const r = await cli(['baseline', '--out', file, '--plog', join(dir, 'empty')], dir);
    expect(r.code).toBe(2);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('the README commands', () => {
  it('npm start: the bundled examples pass against the committed example baseline and show the table', async () => {
    const r = await cli(
      [
        'check',
        '--baseline',
        'baselines/memory-baseline.json',
        '--plog',
        'examples/plog',
        '--compare',
        'examples/memory_compare',
      ],
      ROOT,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Memory gate passed');
    // The new kernel on both devices is one row: its device-free name, 2 of 2 devices.
    expect(r.stdout).toMatch(
      /! new\s+\*\/aclnnFlashAttentionScore_0\s+— → 8\.0 MiB\s+\+8\.0 MiB \(new\)\n {4}2 of 2 devices, worst dev0/,
    );
  });

  it('the regressed example fails with APP on dev1 regressed 10x', async () => {
    const r = await cli(
      [
        'check',
        '--baseline',
        'baselines/memory-baseline.json',
        '--plog',
        'examples/regressed/plog',
        '--compare',
        'examples/memory_compare',
      ],
      ROOT,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ regressed\s+DEV_MEM\/dev1\/APP\s+1\.9 GiB → 19\.4 GiB\s+\+17\.4 GiB \(\+900%\)/);
    expect(existsSync(join(ROOT, 'examples', 'regressed', 'plog'))).toBe(true);
  });
});

// ───────────────────────────── issue 13: the environment behind the numbers ─────────────────────────────

describe('environment', () => {
  it('baseline made under CANN 8.3; the run reports CANN 9.0 with PYTORCH_NPU_ALLOC_CONF changed: the report opens with both; onChange fail fails the run', async () => {
    const dir = tempDir();
    writeJob(dir, 2);
    const made = await cli(
      [
        'baseline',
        '--out',
        'baseline.json',
        '--plog',
        'plog',
        '--env',
        'cann=8.3.RC1',
        'PYTORCH_NPU_ALLOC_CONF=expandable_segments:False',
      ],
      dir,
    );
    expect(made.code, made.stderr).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')) as {
      meta: { nodes: Record<string, { devices: string[]; environment: Record<string, string> }> };
    };
    expect(Object.values(written.meta.nodes)).toEqual([
      {
        devices: ['dev0', 'dev1'],
        files: 2,
        records: 6,
        skipped: 0,
        environment: { PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:False', cann: '8.3.RC1' },
      },
    ]);

    writeJob(dir, 2, { key: 'DEV_MEM/dev0/APP', factor: 1.44 });
    const args = [
      'check',
      '--baseline',
      'baseline.json',
      '--plog',
      'plog',
      '--env',
      'cann=9.0.RC1',
      'PYTORCH_NPU_ALLOC_CONF=expandable_segments:True',
      '--markdown',
      'report.md',
    ];
    const warned = await cli(args, dir);
    expect(warned.code, warned.stderr).toBe(1);
    expect(warned.stdout.split('\n').slice(0, 5)).toEqual([
      'Memory gate failed: 1 regressed',
      '',
      'WARN: Environment changed since the baseline',
      '  PYTORCH_NPU_ALLOC_CONF: expandable_segments:False -> expandable_segments:True',
      '  CANN toolkit: 8.3.RC1 -> 9.0.RC1',
    ]);
    // The regression's explanation says it happened across that change (wrapped to the terminal's width).
    expect(warned.stdout.replace(/\s+/g, ' ')).toContain(
      'Across the environment change since the baseline (PYTORCH_NPU_ALLOC_CONF expandable_segments:False → expandable_segments:True; CANN toolkit 8.3.RC1 → 9.0.RC1).',
    );
    expect(readFileSync(join(dir, 'report.md'), 'utf8').split('\n').slice(2, 4)).toEqual([
      '#### ⚠️ Environment changed since the baseline',
      '',
    ]);

    // Without the regression, warn passes; onChange: fail fails on the change alone and says why.
    writeJob(dir, 2);
    expect((await cli(args, dir)).code).toBe(0);
    writeFileSync(join(dir, 'gate.json'), JSON.stringify({ environment: { onChange: 'fail' } }));
    const failed = await cli([...args, '--config', 'gate.json'], dir);
    expect(failed.code).toBe(1);
    expect(failed.stdout.split('\n')[0]).toBe('Memory gate failed: environment changed since the baseline');
    writeFileSync(
      join(dir, 'gate.json'),
      JSON.stringify({ environment: { onChange: 'fail', ignore: ['cann', 'PYTORCH_NPU_ALLOC_CONF'] } }),
    );
    expect((await cli([...args, '--config', 'gate.json'], dir)).code).toBe(0);
  });
});

describe('snapshot', () => {
  it('each node writes a few-KB snapshot; the gate merges them (by directory) into the same verdict as the raw files', async () => {
    const dir = tempDir();
    writeJob(dir, 4);
    // Two "nodes", two ranks each.
    for (const [node, ranks] of [
      ['node-a', [0, 1]],
      ['node-b', [2, 3]],
    ] as const) {
      const plogs = ranks.map((r) => `plog/rank_${r}`);
      const r = await cli(
        [
          'snapshot',
          '--out',
          `snaps/${node}.memory-snapshot.json`,
          '--plog',
          ...plogs,
          '--node',
          node,
          '--env',
          'cann=9.0.RC1',
        ],
        dir,
      ).catch(() => null);
      expect(r?.code, r?.stderr).toBe(0);
      expect(r!.stdout).toMatch(
        new RegExp(
          `^wrote snaps/${node}\\.memory-snapshot\\.json \\(\\d+ bytes\\): node ${node}, 2 device\\(s\\), 2 file\\(s\\), 6 record\\(s\\), 0 skipped\\n$`,
        ),
      );
    }
    const a = JSON.parse(readFileSync(join(dir, 'snaps/node-a.memory-snapshot.json'), 'utf8')) as {
      version: number;
      meta: { nodes: Record<string, { devices: string[]; environment: Record<string, string> }> };
    };
    expect(a.version).toBe(2);
    expect(a.meta.nodes['node-a']!.devices).toEqual(['dev0', 'dev1']);
    expect(a.meta.nodes['node-a']!.environment.cann).toBe('9.0.RC1');
    expect(readFileSync(join(dir, 'snaps/node-a.memory-snapshot.json')).length).toBeLessThan(8 * 1024);

    const fromRaw = await cli(['check', '--baseline', 'none.json', '--plog', 'plog'], dir);
    expect(fromRaw.stdout.split('\n')[0]).toContain('No baseline');
    expect((await cli(['baseline', '--out', 'baseline.json', '--plog', 'plog'], dir)).code).toBe(0);
    const raw = await cli(['check', '--baseline', 'baseline.json', '--plog', 'plog', '--report', 'raw.json'], dir);
    const merged = await cli(
      ['check', '--baseline', 'baseline.json', '--snapshot', 'snaps', '--report', 'merged.json'],
      dir,
    );
    expect(merged.code, merged.stderr).toBe(raw.code);
    expect(readFileSync(join(dir, 'merged.json'), 'utf8')).toBe(readFileSync(join(dir, 'raw.json'), 'utf8'));

    // A corrupt snapshot is an error naming the file (exit 2).
    writeFileSync(join(dir, 'snaps/bad.memory-snapshot.json'), '{"version": 2, "sections": ');
    const bad = await cli(['check', '--baseline', 'baseline.json', '--snapshot', 'snaps'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: snaps\/bad\.memory-snapshot\.json:1:\d+: not valid JSON/);
  });
});

describe('the terminal program', () => {
  /** A job whose table is wide: a long kernel name that regressed, on 8 ranks. */
  function wideJob(dir: string, factor: number): void {
    writeJob(dir, 8, { key: 'DEV_MEM/dev5/HCCL', factor });
    const csv = [
      ',,,Base,Compare',
      'Event,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)',
      `KERNEL_LAUNCH,aclnnFlashAttentionScoreGrad_fused_with_a_very_long_scope_name_0,3,124,${124 + 4096 * factor},${4096 * factor}`,
    ];
    writeFileSync(join(dir, 'memory_compare_20250901120000.csv'), `${csv.join('\n')}\n`);
  }

  it('with COLUMNS=80 no line of check output or of any --help is longer than 80 characters', async () => {
    const dir = tempDir();
    wideJob(join(dir, 'base'), 1);
    wideJob(join(dir, 'run'), 3);
    expect((await cli(['baseline', '--out', 'b.json', '--plog', 'base/plog', '--compare', 'base'], dir)).code).toBe(0);
    const check = await cli(['check', '--baseline', 'b.json', '--plog', 'run/plog', '--compare', 'run'], dir, {
      COLUMNS: '80',
    });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('✗ regressed    dev3/aclnnFl…cope_name_0   4.0 KiB → 12.0 KiB    +8.0 KiB (+200%)');
    const wide = await cli(['check', '--baseline', 'b.json', '--plog', 'run/plog', '--compare', 'run'], dir, {
      COLUMNS: '200',
    });
    expect(Math.max(...wide.stdout.split('\n').map((l) => l.length))).toBeGreaterThan(80);
    const outputs = [check.stdout];
    for (const args of [['--help'], ['check', '--help'], ['parse', '--help'], ['baseline', '-h'], ['help', 'check']]) {
      const help = await cli(args, dir, { COLUMNS: '80' });
      expect([args.join(' '), help.code]).toEqual([args.join(' '), 0]);
      outputs.push(help.stdout);
    }
    const long = outputs.flatMap((o) => o.split('\n')).filter((l) => [...l].length > 80);
    expect(long).toEqual([]);
    // A narrower terminal gets narrower help.
    for (const args of [['--help'], ['check', '--help']]) {
      const narrow = await cli(args, dir, { COLUMNS: '50' });
      expect(narrow.stdout.split('\n').filter((l) => [...l].length > 50)).toEqual([]);
      expect(narrow.stdout).toContain('--plog PATH...');
    }
  });

  it('prints one line per flag for check --help, and the version', async () => {
    const help = await cli(['check', '--help'], tempDir());
    expect(help.stdout.split('\n')[0]).toBe('Usage: ascend-memory-gate check --baseline FILE INPUTS [options]');
    expect(help.stdout).toMatch(/^ {2}--plog PATH\.\.\. {2,}plog files of the driver/m);
    expect(help.stdout).toMatch(/^ {2}--all {2,}list every key, not one row per module$/m);
    const version = await cli(['--version'], tempDir());
    expect([version.code, version.stdout]).toEqual([
      0,
      `ascend-memory-gate ${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`,
    ]);
  });

  it('exits 2 on a mistyped flag with a suggestion and the usage line', async () => {
    const r = await cli(['check', '--baseline', 'b.json', '--plgo', 'plog'], tempDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: check: unknown option --plgo: did you mean --plog?\n' +
        'usage: ascend-memory-gate check --baseline FILE INPUTS [options]\n' +
        '(ascend-memory-gate check --help lists every flag)\n',
    );
    const command = await cli(['chek'], tempDir());
    expect([command.code, command.stderr.split('\n')[0]]).toEqual([
      2,
      "error: unknown command 'chek': did you mean 'check'?",
    ]);
  });

  it('colours only when asked: FORCE_COLOR on a pipe, never with NO_COLOR alone', async () => {
    const args = ['check', '--baseline', 'baselines/memory-baseline.json', '--plog', 'examples/regressed/plog'];
    expect((await cli(args, ROOT)).stdout).not.toContain('\u001b[');
    expect((await cli(args, ROOT, { NO_COLOR: '1' })).stdout).not.toContain('\u001b[');
    expect(
      (await cli(args, ROOT, { FORCE_COLOR: '1' })).stdout.startsWith('\u001b[1m\u001b[31mMemory gate failed'),
    ).toBe(true);
    expect((await cli(args, ROOT, { FORCE_COLOR: '0' })).stdout).not.toContain('\u001b[');
  });
});

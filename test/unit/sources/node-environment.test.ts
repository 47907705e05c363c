import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  collectEnvironment,
  parseEnvironmentPairs,
  parseNpuSmi,
  parseVersionFile,
  withThisNode,
} from '../../../src/sources/node-environment.js';
import { SnapshotBuilder } from '../../../src/model/snapshot.js';
import { applyEnvironment, compareEnvironments, type RunEnvironment } from '../../../src/gate/environment.js';
import type { Entry, GateReport } from '../../../src/gate/types.js';
import { renderHtml } from '../../../src/report/html.js';
import { parseReportJson, renderJsonReport } from '../../../src/report/json.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { renderTerminal } from '../../../src/report/terminal.js';
import { thrown } from '../../helpers/thrown.js';
import { modules } from '../../../src/model/sections/index.js';
import { buildReportView } from '../../../src/report/view.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>, executable: string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), 'amg-env-'));
  dirs.push(root);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
    if (executable.includes(name)) chmodSync(join(root, name), 0o755);
  }
  return root;
}

/** `npu-smi info` of an 8-card Atlas 800T A2 node, as the 24.1 driver prints it (two rows per NPU, then processes). */
const NPU_SMI = [
  '+------------------------------------------------------------------------------------------------+',
  '| npu-smi 24.1.rc2                 Version: 24.1.rc2                                             |',
  '+---------------------------+---------------+----------------------------------------------------+',
  '| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|',
  '| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |',
  '+===========================+===============+====================================================+',
  ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((n) => [
    `| ${n}     910B3               | OK            | 97.1        37                0    / 0             |`,
    `| 0                         | 0000:C${n}:00.0  | 0           0    / 0          3166 / 65536         |`,
    '+===========================+===============+====================================================+',
  ]),
  '+---------------------------+---------------+----------------------------------------------------+',
  '| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |',
  '+===========================+===============+====================================================+',
  '| 0       0                 | 41234         | python3                  | 61000                   |',
  '+===========================+===============+====================================================+',
].join('\n');

describe('reading versions', () => {
  it('version.info, install.info and version.cfg (the release after the colon, the toolkit line first)', () => {
    expect(parseVersionFile('Version=24.1.rc2\n')).toBe('24.1.rc2');
    expect(parseVersionFile('package_name=Ascend-cann-toolkit\nversion=8.0.RC3\ninnerversion=V100R001C19\n')).toBe(
      '8.0.RC3',
    );
    expect(
      parseVersionFile(
        '# version: 1.0\nruntime_running_version=[7.0.0.5.242:7.0.RC1]\ntoolkit_running_version=[8.3.0.1.200:8.3.RC1]\n',
      ),
    ).toBe('8.3.RC1');
    expect(parseVersionFile('# version: 1.0\nruntime_running_version=[7.0.0.5.242:7.0.RC1]\n')).toBe('7.0.RC1');
    expect(parseVersionFile('nothing here\n')).toBeNull();
  });

  it('npu-smi: the driver version and each chip name once per NPU, processes not counted', () => {
    expect(parseNpuSmi(NPU_SMI)).toEqual({ driver: '24.1.rc2', chip: '910B3 ×8' });
    expect(parseNpuSmi('npu-smi: command failed')).toEqual({ driver: null, chip: null });
  });

  it('--env pairs: the value may hold = and commas; a pair without = names itself', () => {
    expect(
      parseEnvironmentPairs(
        ['cann=9.0.RC1', 'PYTORCH_NPU_ALLOC_CONF=expandable_segments:True,garbage_collection_threshold:0.6'],
        '--env',
      ),
    ).toEqual({
      cann: '9.0.RC1',
      PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:True,garbage_collection_threshold:0.6',
    });
    expect(thrown(() => parseEnvironmentPairs(['cann'], '--env')).message).toBe("--env: 'cann' is not KEY=VALUE");
  });
});

describe('collecting on a node', () => {
  const install = {
    'Ascend/ascend-toolkit/latest/version.cfg': '# version: 1.0\ntoolkit_running_version=[8.3.0.1.200:8.3.RC1]\n',
    'Ascend/driver/version.info': 'Version=24.1.rc2\nascendhal_version=7.35.23\n',
    'Ascend/firmware/version.info': 'Version=7.5.0.1.129\n',
    // Shell builtins only: PATH holds nothing but these fakes.
    'bin/npu-smi': `#!/bin/sh\nwhile IFS= read -r line; do printf '%s\\n' "$line"; done <<'EOF'\n${NPU_SMI}\nEOF\n`,
    'bin/python3': '#!/bin/sh\necho "some import warning"\necho \'{"torch": "2.5.1", "torch_npu": "2.5.1.post1"}\'\n',
  };

  it('finds CANN, driver, firmware under the install root, the chip from npu-smi, torch from python3, and the memory variables', async () => {
    const root = tree(install, ['bin/npu-smi', 'bin/python3']);
    const env = {
      PATH: join(root, 'bin'),
      PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:True',
      HCCL_BUFFSIZE: '400',
      WORLD_SIZE: '16',
      UNRELATED: 'x',
    };
    const found = await collectEnvironment({ env, ascendRoots: [join(root, 'Ascend')], extra: { job: 'llama-7b' } });
    expect(found).toEqual({
      items: {
        cann: '8.3.RC1',
        driver: '24.1.rc2',
        firmware: '7.5.0.1.129',
        chip: '910B3 ×8',
        torch: '2.5.1',
        torch_npu: '2.5.1.post1',
        PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:True',
        HCCL_BUFFSIZE: '400',
        WORLD_SIZE: '16',
        job: 'llama-7b',
      },
      notes: [],
    });
  });

  it('ASCEND_HOME_PATH wins over the default roots; the driver is found two levels up', async () => {
    const root = tree({
      ...install,
      'other/ascend-toolkit/9.0/version.info': 'Version=9.0.RC1\n',
      'other/driver/version.info': 'Version=25.0.rc1\n',
    });
    const found = await collectEnvironment({
      env: { ASCEND_HOME_PATH: join(root, 'other/ascend-toolkit/9.0') },
      ascendRoots: [join(root, 'Ascend')],
      probe: false,
    });
    expect(found.items).toEqual({ cann: '9.0.RC1', driver: '25.0.rc1', firmware: '7.5.0.1.129' });
  });

  it('a machine without CANN: nothing found, each miss noted, no error; a hanging npu-smi is cut off by the timeout', async () => {
    const root = tree({ 'bin/npu-smi': '#!/bin/sh\nwhile :; do :; done\n' }, ['bin/npu-smi']);
    const found = await collectEnvironment({
      env: { PATH: join(root, 'bin') },
      ascendRoots: [join(root, 'none')],
      timeoutMs: 200,
    });
    expect(found.items).toEqual({});
    expect(found.notes).toEqual([
      `CANN toolkit: no version.cfg or version.info under ${join(root, 'none/ascend-toolkit/latest')}, ${join(root, 'none/cann')}`,
      'npu-smi info: no answer in 200 ms',
      'python3 (torch, torch_npu): not installed',
    ]);
  });

  it('this node: nothing asked, nothing recorded; --env alone needs no probe and files the node with its devices and counts', async () => {
    const builder = new SnapshotBuilder();
    builder.add(modules, 'DEV_MEM/dev3/APP', { peak: 10, current: 10, allocs: 1, frees: 0 });
    builder.noteDevice('dev3');
    builder.files = 2;
    builder.records = 1;
    const snapshot = builder.build();
    expect(await withThisNode(snapshot, { env: {}, collect: false })).toBe(snapshot);
    const node = await withThisNode(snapshot, {
      env: { NODE_NAME: 'from-env' },
      collect: false,
      extra: { cann: '9.0.RC1' },
      node: 'node-3',
    });
    expect(node.meta.nodes).toEqual({
      'node-3': { devices: ['dev3'], files: 2, records: 1, skipped: 0, environment: { cann: '9.0.RC1' } },
    });
    expect(node.sections).toEqual(snapshot.sections);
    expect(
      Object.keys(
        (await withThisNode(snapshot, { env: { NODE_NAME: 'from-env' }, collect: false, extra: { a: 'b' } })).meta
          .nodes ?? {},
      ),
    ).toEqual(['from-env']);
  });
});

const BASELINE_ENV: RunEnvironment = {
  'node-0': { cann: '8.3.RC1', driver: '24.1.rc2', PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:False' },
  'node-1': { cann: '8.3.RC1', driver: '24.1.rc2', PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:False' },
};
const CURRENT_ENV: RunEnvironment = {
  'node-0': { cann: '9.0.RC1', driver: '24.1.rc2', PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:True' },
  'node-1': { cann: '9.0.RC1', driver: '24.1.rc2', PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:True' },
};

const regressed: Entry = {
  kind: 'module',
  key: 'DEV_MEM/dev0/APP',
  baseline: 25 * 2 ** 30,
  current: 36 * 2 ** 30,
  delta: 11 * 2 ** 30,
  percent: 44,
  status: 'regressed',
  severity: 'fail',
  rule: null,
};
const passing: Entry = {
  ...regressed,
  key: 'DEV_MEM/dev0/HCCL',
  baseline: 1,
  current: 1,
  delta: 0,
  percent: 0,
  status: 'pass',
  severity: 'ok',
};
const report: GateReport = { result: 'fail', counts: { regressed: 1, pass: 1 }, entries: [regressed, passing] };

describe('comparing environments', () => {
  it('baseline under CANN 8.3 and this run under CANN 9.0 with PYTORCH_NPU_ALLOC_CONF changed: both changes, nothing else', () => {
    expect(compareEnvironments(BASELINE_ENV, CURRENT_ENV)).toEqual({
      changes: [
        { item: 'PYTORCH_NPU_ALLOC_CONF', baseline: 'expandable_segments:False', current: 'expandable_segments:True' },
        { item: 'cann', baseline: '8.3.RC1', current: '9.0.RC1' },
      ],
      splits: [],
      severity: 'warn',
    });
  });

  it('ignore leaves items out; onChange ignore compares nothing; a side without any environment is not compared', () => {
    expect(
      compareEnvironments(BASELINE_ENV, CURRENT_ENV, {
        onChange: 'fail',
        ignore: ['PYTORCH_NPU_ALLOC_CONF'],
      }).changes.map((c) => c.item),
    ).toEqual(['cann']);
    expect(compareEnvironments(BASELINE_ENV, CURRENT_ENV, { onChange: 'ignore', ignore: [] })).toEqual({
      changes: [],
      splits: [],
      severity: 'ok',
    });
    expect(compareEnvironments(undefined, CURRENT_ENV).changes).toEqual([]);
    expect(compareEnvironments(BASELINE_ENV, undefined).changes).toEqual([]);
  });

  it('one node on another driver: a split naming the nodes, the majority first; the run value lists both', () => {
    const run: RunEnvironment = {
      'node-0': { driver: '24.1.rc2' },
      'node-1': { driver: '24.1.rc2' },
      'node-2': { driver: '23.0.6' },
      'node-3': {},
    };
    expect(compareEnvironments({ a: { driver: '24.1.rc2' } }, run)).toEqual({
      changes: [{ item: 'driver', baseline: '24.1.rc2', current: '23.0.6 | 24.1.rc2 | (unset)' }],
      splits: [
        {
          item: 'driver',
          values: [
            { value: '24.1.rc2', nodes: ['node-0', 'node-1'] },
            { value: null, nodes: ['node-3'] },
            { value: '23.0.6', nodes: ['node-2'] },
          ],
        },
      ],
      severity: 'warn',
    });
  });

  it('is the same whatever the order the nodes were merged in', () => {
    const reversed = Object.fromEntries(Object.entries(CURRENT_ENV).reverse());
    expect(compareEnvironments(BASELINE_ENV, reversed)).toEqual(compareEnvironments(BASELINE_ENV, CURRENT_ENV));
  });
});

describe('the report across an environment change', () => {
  it('warn: the verdict is unchanged, the regression says it happened across the change', () => {
    const out = applyEnvironment(
      { ...report, result: 'pass', entries: [passing, { ...regressed, severity: 'warn' }] },
      compareEnvironments(BASELINE_ENV, CURRENT_ENV),
    );
    expect(out.result).toBe('pass');
    expect(out.entries[0]!.note).toBeUndefined();
    expect(out.entries[1]!.note).toBe(
      'Across the environment change since the baseline (PYTORCH_NPU_ALLOC_CONF expandable_segments:False → expandable_segments:True; CANN toolkit 8.3.RC1 → 9.0.RC1).',
    );
  });

  it('fail: a run whose keys all pass fails, and the verdict line says why', () => {
    const clean: GateReport = { result: 'pass', counts: { pass: 1 }, entries: [passing] };
    const out = applyEnvironment(
      clean,
      compareEnvironments(BASELINE_ENV, CURRENT_ENV, { onChange: 'fail', ignore: [] }),
    );
    expect(out.result).toBe('fail');
    expect(renderMarkdown(buildReportView(out)).split('\n').slice(0, 8)).toEqual([
      '### ❌ Memory gate failed: environment changed since the baseline',
      '',
      '#### ❌ Environment changed since the baseline',
      '',
      '| Item | Baseline | This run |',
      '|---|---|---|',
      '| `PYTORCH_NPU_ALLOC_CONF` | `expandable_segments:False` | `expandable_segments:True` |',
      '| `CANN toolkit` | `8.3.RC1` | `9.0.RC1` |',
    ]);
    expect(renderTerminal(buildReportView(out)).split('\n').slice(0, 5)).toEqual([
      'Memory gate failed: environment changed since the baseline',
      '',
      'FAIL: Environment changed since the baseline',
      '  PYTORCH_NPU_ALLOC_CONF: expandable_segments:False -> expandable_segments:True',
      '  CANN toolkit: 8.3.RC1 -> 9.0.RC1',
    ]);
  });

  it('the JSON report carries the findings and reads back; HTML escapes what came from a node', () => {
    const hostile: RunEnvironment = { '<b>n</b>': { cann: '<script>x</script>' }, m: { cann: '8.3.RC1' } };
    const out = applyEnvironment(report, compareEnvironments(undefined, hostile));
    const back = parseReportJson(renderJsonReport(out), 'report.json');
    expect(back.environment).toEqual({
      changes: [],
      splits: [
        {
          item: 'cann',
          values: [
            { value: '8.3.RC1', nodes: ['m'] },
            { value: '<script>x</script>', nodes: ['<b>n</b>'] },
          ],
        },
      ],
      severity: 'warn',
    });
    const html = renderHtml(buildReportView(back));
    expect(html).toContain(
      '<td><code>&lt;script&gt;x&lt;/script&gt;</code></td><td><code>&lt;b&gt;n&lt;/b&gt; (1)</code></td>',
    );
    expect(html).not.toContain('<script>x');
  });
});

// Threshold config: defaults, the JSON file and its schema errors, sizes with units, the --max-increase shorthand, globs.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError, SchemaError, UsageError } from '../../../src/common/errors.js';
import {
  DEFAULT_CONFIG,
  applyMaxIncrease,
  globMatches,
  loadGateConfig,
  matchRule,
  parseGateConfig,
  parseMaxIncrease,
} from '../../../src/gate/thresholds.js';
import type { GateConfig, Rule } from '../../../src/gate/types.js';
import { thrown, thrownAsync } from '../../helpers/thrown.js';
import { GiB, MiB } from '../../helpers/story.js';

/** The default thresholds of the msMemScope dump sections (src/model/sections/steps.ts, …). */
const DUMP_SECTIONS = {
  steps: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
  stepLeaks: { tolerance: { bytes: 0 }, rules: [] },
  unfreed: { tolerance: { bytes: MiB }, rules: [] },
  owners: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
  opFootprint: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
  inefficient: { tolerance: { percent: 10, bytes: MiB }, rules: [] },
  allocator: { tolerance: { percent: 5, bytes: 64 * MiB }, rules: [] },
  allocationSites: { tolerance: { percent: 5, bytes: 64 * MiB }, rules: [] },
  ooms: { tolerance: { bytes: 0 }, rules: [] },
  oomModules: { tolerance: { bytes: 0 }, rules: [] },
};

describe('defaults', () => {
  it('tolerates +5% and +1 MiB on modules, nothing on kernels, warns on new and missing keys', () => {
    expect(DEFAULT_CONFIG).toEqual({
      sections: {
        modules: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
        components: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
        operators: { tolerance: { percent: 10, bytes: 16 * MiB }, rules: [] },
        graphs: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
        kernels: { tolerance: { bytes: 0 }, rules: [] },
        ...DUMP_SECTIONS,
      },
      onNew: 'warn',
      onMissingBaseline: 'warn',
      onDisjointBaseline: 'fail',
      onMissing: 'warn',
      environment: { onChange: 'warn', ignore: [] },
      failOnImprovement: false,
      device: { minHeadroom: { percent: 10 } },
      devices: {},
      profile: null,
      hccl: null,
      reference: { factor: 2 },
      leaks: { count: 0, percent: 10 },
      imbalance: { tolerance: { percent: 20, bytes: MiB }, minDevices: 3 },
      growth: {
        warmupPercent: 20,
        tolerance: { percent: 5, bytes: 64 * MiB },
        warmupSteps: 1,
        perStep: MiB,
        minWindows: 4,
      },
      fragmentation: { percent: 30, bytes: 1024 * MiB },
      oom: { fragmentationPercent: 5 },
      verdicts: {
        'over-capacity': 'fail',
        'low-headroom': 'warn',
        'alloc-failure': 'fail',
        oom: 'fail',
        fragmented: 'warn',
        'leak-suspect': 'warn',
        'step-leak': 'warn',
        'above-reference': 'warn',
        imbalance: 'warn',
        growing: 'warn',
      },
      baselineUpdateLabel: 'memory-baseline-update',
      // The noise band is opt-in.
      history: null,
    });
  });

  it('cannot be changed by a caller by accident', () => {
    expect(Object.isFrozen(DEFAULT_CONFIG.sections.modules!.tolerance)).toBe(true);
    expect(Object.isFrozen(DEFAULT_CONFIG.sections.kernels!.rules)).toBe(true);
  });

  it('an empty config file means the defaults', () => {
    expect(parseGateConfig({}, 'cfg.json')).toEqual(DEFAULT_CONFIG);
  });
});

describe('parseGateConfig', () => {
  it("reads the noise band: `history: {}` opts in with window 20, minPoints 5 and a 10% ceiling; a ceiling's size in bytes", () => {
    expect(parseGateConfig({ history: {} }, 'c.json').history).toEqual({
      window: 20,
      minPoints: 5,
      ceiling: { percent: 10 },
    });
    expect(
      parseGateConfig({ history: { window: 30, minPoints: 8, ceiling: { bytes: '256MiB' } } }, 'c.json').history,
    ).toEqual({ window: 30, minPoints: 8, ceiling: { bytes: 256 * MiB } });
    expect(thrown(() => parseGateConfig({ history: { window: 1 } }, 'c.json')).message).toBe(
      'c.json: /history/window: must be an integer from 2 to 1000, got 1',
    );
    expect(thrown(() => parseGateConfig({ history: { spread: 3 } }, 'c.json')).message).toBe(
      'c.json: /history/spread: unknown property; expected one of: window, minPoints, ceiling',
    );
  });

  it('reads the example from the issue, sizes in bytes', () => {
    const config = parseGateConfig(
      {
        modules: {
          tolerance: { percent: 5, bytes: '1MiB' },
          rules: [
            { match: 'DEV_MEM/*/HCCL', tolerance: { percent: 10 } },
            { match: 'DEV_MEM/*/APP', budget: '60GiB' },
            { match: 'HOST_MEM/**', ignore: true },
          ],
        },
        kernels: { tolerance: { bytes: 0 } },
        onNew: 'warn',
        onMissing: 'warn',
        failOnImprovement: false,
      },
      '.github/memory-gate.json',
    );
    expect(config).toEqual<GateConfig>({
      ...DEFAULT_CONFIG,
      sections: {
        modules: {
          tolerance: { percent: 5, bytes: MiB },
          rules: [
            { match: 'DEV_MEM/*/HCCL', tolerance: { percent: 10 } },
            { match: 'DEV_MEM/*/APP', budget: 60 * GiB },
            { match: 'HOST_MEM/**', ignore: true },
          ],
        },
        components: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
        operators: { tolerance: { percent: 10, bytes: 16 * MiB }, rules: [] },
        graphs: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
        kernels: { tolerance: { bytes: 0 }, rules: [] },
        ...DUMP_SECTIONS,
      },
      onNew: 'warn',
      onMissing: 'warn',
      failOnImprovement: false,
    });
  });

  it('a kind tolerance replaces the default tolerance as a whole (no bytes allowance inherited)', () => {
    const config = parseGateConfig({ modules: { tolerance: { percent: 10 } } }, 'cfg.json');
    expect(config.sections.modules!.tolerance).toEqual({ percent: 10 });
    expect(config.sections.kernels!.tolerance).toEqual({ bytes: 0 });
  });

  it('keeps the other defaults when only policies are set', () => {
    const config = parseGateConfig({ onNew: 'fail', onMissing: 'ignore', failOnImprovement: true }, 'cfg.json');
    expect(config).toEqual({ ...DEFAULT_CONFIG, onNew: 'fail', onMissing: 'ignore', failOnImprovement: true });
  });

  it('allows a $schema field for editors', () => {
    expect(parseGateConfig({ $schema: '../schemas/config.schema.json' }, 'cfg.json')).toEqual(DEFAULT_CONFIG);
  });

  it.each<[string | number, number]>([
    [0, 0],
    [1048576, MiB],
    ['1KiB', 1024],
    ['1KB', 1000],
    ['1kib', 1024],
    ['64MiB', 64 * MiB],
    ['200MB', 200_000_000],
    ['1.5GiB', 1.5 * GiB],
    ['1.5 GiB', 1.5 * GiB],
    ['2GB', 2_000_000_000],
    ['1TiB', 1024 ** 4],
    ['512B', 512],
    ['0', 0],
  ])('reads the size %j as %d bytes', (size, bytes) => {
    expect(
      parseGateConfig({ modules: { rules: [{ match: 'x', budget: size }] } }, 'cfg.json').sections.modules!.rules[0],
    ).toEqual({
      match: 'x',
      budget: bytes,
    });
  });

  const SIZE_REASON =
    'must be a byte size: an integer number of bytes, or a string such as "64MiB", "1.5GiB" or "200MB"';

  it.each<[string, unknown, string, string]>([
    [
      'a size that is a word',
      { modules: { rules: [{ match: 'a' }, { match: 'DEV_MEM/*/APP', budget: 'lots' }] } },
      '/modules/rules/1/budget',
      `${SIZE_REASON}, got "lots"`,
    ],
    [
      'a negative size',
      { modules: { tolerance: { bytes: -1 } } },
      '/modules/tolerance/bytes',
      `${SIZE_REASON}, got -1`,
    ],
    [
      'a fractional byte count',
      { kernels: { tolerance: { bytes: 1.5 } } },
      '/kernels/tolerance/bytes',
      `${SIZE_REASON}, got 1.5`,
    ],
    [
      'an unknown unit',
      { kernels: { tolerance: { bytes: '1 XB' } } },
      '/kernels/tolerance/bytes',
      `${SIZE_REASON}, got "1 XB"`,
    ],
    [
      'a size with a percent sign',
      { kernels: { tolerance: { bytes: '5%' } } },
      '/kernels/tolerance/bytes',
      `${SIZE_REASON}, got "5%"`,
    ],
    [
      'an integer beyond 2^53 - 1',
      { kernels: { tolerance: { bytes: 2 ** 53 } } },
      '/kernels/tolerance/bytes',
      `${SIZE_REASON}, got 9007199254740992`,
    ],
    [
      'a unit the gate does not know (PiB)',
      { modules: { rules: [{ match: 'a', budget: '9999 PiB' }] } },
      '/modules/rules/0/budget',
      `${SIZE_REASON}, got "9999 PiB"`,
    ],
    [
      'a bare number as a string (issue 29)',
      { modules: { rules: [{ match: 'a', budget: '512' }] } },
      '/modules/rules/0/budget',
      '"512" has no unit: write "512B" for bytes, or a unit such as "512MiB"',
    ],
    [
      'a bare decimal as a string',
      { kernels: { tolerance: { bytes: ' 1.5 ' } } },
      '/kernels/tolerance/bytes',
      '" 1.5 " has no unit: write "1.5B" for bytes, or a unit such as "1.5MiB"',
    ],
    [
      'a headroom that is a bare number string',
      { device: { minHeadroom: '10' } },
      '/device/minHeadroom',
      '"10" has no unit: write "10%" for a share of the capacity or "10B" for bytes',
    ],
    [
      'a headroom that is a bare integer',
      { devices: { dev3: { minHeadroom: 10 } } },
      '/devices/dev3/minHeadroom',
      '10 has no unit: write "10%" for a share of the capacity or "10B" for bytes',
    ],
    [
      'a huge size with a known unit',
      { modules: { rules: [{ match: 'a', budget: '99999TiB' }] } },
      '/modules/rules/0/budget',
      'must be at most 2^53 - 1 bytes, got "99999TiB"',
    ],
    ['an unknown policy', { onNew: 'maybe' }, '/onNew', 'must be one of "warn", "fail", "ignore", got "maybe"'],
    ['a policy of the wrong type', { onMissing: 1 }, '/onMissing', 'must be one of "warn", "fail", "ignore", got 1'],
    [
      'a rule without match',
      { modules: { rules: [{ ignore: true }] } },
      '/modules/rules/0/match',
      'required property is missing',
    ],
    [
      'an empty glob',
      { kernels: { rules: [{ match: '' }] } },
      '/kernels/rules/0/match',
      'must be a non-empty glob, got ""',
    ],
    [
      'a misspelt field',
      { modules: { tolerence: { percent: 5 } } },
      '/modules/tolerence',
      'unknown property; expected one of: tolerance, rules',
    ],
    [
      'a misspelt top-level field',
      { onNews: 'warn' },
      '/onNews',
      'unknown property; expected one of: $schema, modules, components, operators, graphs, kernels, steps, stepLeaks, unfreed, owners, opFootprint, inefficient, allocator, allocationSites, ooms, oomModules, onNew, onMissingBaseline, onDisjointBaseline, onMissing, environment, failOnImprovement, device, devices, oom, fragmentation, leaks, profile, hccl, reference, imbalance, growth, baselineUpdateLabel, history, verdicts',
    ],
    [
      'a tolerance field that does not exist',
      { modules: { tolerance: { pct: 5 } } },
      '/modules/tolerance/pct',
      'unknown property; expected one of: percent, bytes',
    ],
    [
      'a percent written as a string',
      { modules: { tolerance: { percent: '5%' } } },
      '/modules/tolerance/percent',
      'must be a non-negative number of percent, got "5%"',
    ],
    [
      'a negative percent',
      { modules: { rules: [{ match: 'a', tolerance: { percent: -1 } }] } },
      '/modules/rules/0/tolerance/percent',
      'must be a non-negative number of percent, got -1',
    ],
    [
      'rules that are not a list',
      { modules: { rules: { match: 'a' } } },
      '/modules/rules',
      'must be array, got an object',
    ],
    ['a yes/no written as a word', { failOnImprovement: 'yes' }, '/failOnImprovement', 'must be boolean, got "yes"'],
    [
      'ignore written as a string',
      { modules: { rules: [{ match: 'a', ignore: 'true' }] } },
      '/modules/rules/0/ignore',
      'must be boolean, got "true"',
    ],
    ['a config that is a list', [], '/', 'must be object, got array []'],
  ])('rejects %s with the JSON pointer of the bad field', (_story, json, pointer, reason) => {
    const err = thrown(() => parseGateConfig(json, '.github/memory-gate.json'));
    expect(err).toBeInstanceOf(SchemaError);
    expect(err.message).toBe(`.github/memory-gate.json: ${pointer}: ${reason}`);
  });

  it('exposes file, pointer and reason on the error for the caller', () => {
    const err = thrown(() => parseGateConfig({ onNew: 'maybe' }, 'cfg.json'));
    expect(err).toBeInstanceOf(SchemaError);
    expect({ ...(err as SchemaError) }).toMatchObject({ file: 'cfg.json', pointer: '/onNew' });
  });
});

describe('loadGateConfig', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gate-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('uses the defaults when no config is named and .github/memory-gate.json does not exist', async () => {
    const config = await loadGateConfig(undefined, { cwd: dir });
    expect(config).toEqual(DEFAULT_CONFIG);
    // A fresh copy: the caller may adjust it without touching the frozen defaults.
    expect(Object.isFrozen(config.sections.modules!.tolerance)).toBe(false);
  });

  it('picks up .github/memory-gate.json from the working directory when present', async () => {
    await mkdir(path.join(dir, '.github'));
    await writeFile(
      path.join(dir, '.github/memory-gate.json'),
      '{ "onNew": "fail", "kernels": { "tolerance": { "bytes": "4KiB" } } }\n',
    );
    const config = await loadGateConfig(undefined, { cwd: dir });
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      onNew: 'fail',
      sections: { ...DEFAULT_CONFIG.sections, kernels: { tolerance: { bytes: 4096 }, rules: [] } },
    });
  });

  it('reads a named config file', async () => {
    await writeFile(
      path.join(dir, 'gate.json'),
      '{ "modules": { "rules": [ { "match": "HOST_MEM/**", "ignore": true } ] } }',
    );
    const config = await loadGateConfig(path.join(dir, 'gate.json'));
    expect(config.sections.modules!.rules).toEqual([{ match: 'HOST_MEM/**', ignore: true }]);
  });

  it('refuses a named config file that does not exist', async () => {
    const err = await thrownAsync(loadGateConfig('nope/gate.json', { cwd: dir }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe('config file nope/gate.json does not exist');
  });

  it('falls back to the defaults for a missing named file only when told it is optional', async () => {
    expect(await loadGateConfig('nope/gate.json', { cwd: dir, required: false })).toEqual(DEFAULT_CONFIG);
  });

  it('refuses a missing default config when told it is required', async () => {
    const err = await thrownAsync(loadGateConfig(undefined, { cwd: dir, required: true }));
    expect(err.message).toBe('config file .github/memory-gate.json does not exist');
  });

  it('reports corrupt JSON with the file and line:column, never as "no config"', async () => {
    await mkdir(path.join(dir, '.github'));
    await writeFile(path.join(dir, '.github/memory-gate.json'), '{\n  "onNew": "warn",\n  "onMissing": warn\n}\n');
    const err = await thrownAsync(loadGateConfig(undefined, { cwd: dir }));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe('.github/memory-gate.json:3:16: not valid JSON: expected a JSON value, found "warn"');
  });

  it('reports a schema error with the file name as given', async () => {
    await writeFile(path.join(dir, 'gate.json'), '{ "onMissing": "explode" }');
    const err = await thrownAsync(loadGateConfig('gate.json', { cwd: dir }));
    expect(err.message).toBe('gate.json: /onMissing: must be one of "warn", "fail", "ignore", got "explode"');
  });

  it('does not mistake a directory for a missing config', async () => {
    await mkdir(path.join(dir, '.github/memory-gate.json'), { recursive: true });
    const err = await thrownAsync(loadGateConfig(undefined, { cwd: dir }));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(/^\.github\/memory-gate\.json: cannot read the config: EISDIR/);
  });
});

describe('parseMaxIncrease', () => {
  it.each<[string, { percent?: number; bytes?: number }]>([
    ['5%', { percent: 5 }],
    ['2.5%', { percent: 2.5 }],
    ['0%', { percent: 0 }],
    ['64MiB', { bytes: 64 * MiB }],
    ['64KB', { bytes: 64_000 }],
    ['1.5GiB', { bytes: 1.5 * GiB }],
    ['4096B', { bytes: 4096 }],
    ['0', { bytes: 0 }],
    ['5%,1MiB', { percent: 5, bytes: MiB }],
    ['1MiB,5%', { percent: 5, bytes: MiB }],
    [' 5 % , 1 MiB ', { percent: 5, bytes: MiB }],
  ])('reads %j', (spec, tolerance) => {
    expect(parseMaxIncrease(spec)).toEqual(tolerance);
  });

  it.each([
    '',
    ' ',
    'abc',
    '%',
    '5%%',
    '-5%',
    '-1MiB',
    '5 percent',
    '5%,6%',
    '1MiB,2MiB',
    '5%,1MiB,3',
    '5%,',
    ',5%',
    '1.5.5MiB',
    '5e3',
  ])('refuses %j, naming the input and the expected form', (spec) => {
    const err = thrown(() => parseMaxIncrease(spec));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(`'max-increase' must look like 5% or 64MiB or 5%,1MiB, got ${JSON.stringify(spec)}`);
  });

  it.each<[string, string]>([
    ['5', `'max-increase' "5" has no unit: write 5% for a share of the baseline or 5B for bytes`],
    ['4096', `'max-increase' "4096" has no unit: write 4096% for a share of the baseline or 4096B for bytes`],
    ['5%,1', `'max-increase' "1" has no unit: write 1% for a share of the baseline or 1B for bytes`],
    [' 2.5 ', `'max-increase' "2.5" has no unit: write 2.5% for a share of the baseline or 2.5B for bytes`],
  ])('refuses the bare number %j, which used to mean bytes, naming both readings (issue 29)', (spec, message) => {
    const err = thrown(() => parseMaxIncrease(spec));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(message);
  });
});

describe('applyMaxIncrease', () => {
  const config = parseGateConfig(
    {
      modules: {
        rules: [
          { match: 'DEV_MEM/*/HCCL', tolerance: { percent: 10 } },
          { match: 'DEV_MEM/*/APP', budget: '60GiB' },
        ],
      },
      kernels: { tolerance: { bytes: '1KiB' } },
    },
    'cfg.json',
  );

  it('replaces the default tolerance of modules and kernels and leaves rules alone', () => {
    expect(applyMaxIncrease(config, parseMaxIncrease('5%,1MiB'))).toEqual({
      ...config,
      sections: {
        modules: { tolerance: { percent: 5, bytes: MiB }, rules: config.sections.modules!.rules },
        components: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
        operators: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
        graphs: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
        kernels: { tolerance: { percent: 5, bytes: MiB }, rules: [] },
        ...Object.fromEntries(
          Object.keys(DUMP_SECTIONS).map((name) => [name, { tolerance: { percent: 5, bytes: MiB }, rules: [] }]),
        ),
      },
    });
  });

  it('replaces the default as a whole: "5%" alone drops the bytes allowance', () => {
    expect(applyMaxIncrease(DEFAULT_CONFIG, { percent: 5 }).sections.modules!.tolerance).toEqual({ percent: 5 });
  });

  it('does not change the config it was given', () => {
    const before = structuredClone(config);
    applyMaxIncrease(config, { bytes: 1 });
    expect(config).toEqual(before);
  });
});

describe('globs over keys', () => {
  it.each<[string, string, boolean]>([
    ['DEV_MEM/*/APP', 'DEV_MEM/dev0/APP', true],
    ['DEV_MEM/*/APP', 'DEV_MEM/dev15/APP', true],
    ['DEV_MEM/*/APP', 'DEV_MEM/APP', false],
    ['DEV_MEM/*/APP', 'DEV_MEM/dev0/extra/APP', false],
    ['DEV_MEM/*/APP', 'DEV_MEM/dev0/APPX', false],
    ['DEV_MEM/**', 'DEV_MEM/dev0/APP', true],
    ['HOST_MEM/**', 'HOST_MEM/RUNTIME', true],
    ['HOST_MEM/**', 'HOST_MEM/dev0/APP', true],
    ['HOST_MEM/**', 'HOST_MEMX/RUNTIME', false],
    ['**/HCCL', 'DEV_MEM/dev3/HCCL', true],
    ['**/HCCL', 'SVM_MEM/HCCL', true],
    ['*', 'SVM_MEM/RUNTIME', false],
    ['**', 'SVM_MEM/RUNTIME', true],
    ['*/RUNTIME', 'SVM_MEM/RUNTIME', true],
    ['*/RUNTIME', 'DEV_MEM/dev0/RUNTIME', false],
    ['dev0/*', 'dev0/aclnnMatmul_0.1', true],
    ['dev0/*', 'dev0/.hidden_kernel', true],
    ['dev*/aclnnMatmul*', 'dev12/aclnnMatmul_0.1', true],
    ['dev0/aclnnMatmul_0.1', 'dev0/aclnnMatmul_0x1', false],
    ['MEM_DEV_{SMALL,HUGE}_HBM/*/APP', 'MEM_DEV_HUGE_HBM/dev1/APP', true],
    ['dev_mem/*/app', 'DEV_MEM/dev0/APP', false],
  ])('%s matches %s: %s', (glob, key, expected) => {
    expect(globMatches(glob, key)).toBe(expected);
  });

  it('the first matching rule wins, even when a later one is more specific', () => {
    const rules: Rule[] = [
      { match: 'DEV_MEM/**', tolerance: { percent: 1 } },
      { match: 'DEV_MEM/*/APP', ignore: true },
      { match: 'SVM_MEM/*', budget: 10 },
    ];
    expect(matchRule(rules, 'DEV_MEM/dev0/APP')).toBe(rules[0]);
    expect(matchRule(rules, 'SVM_MEM/RUNTIME')).toBe(rules[2]);
    expect(matchRule(rules, 'HOST_MEM/RUNTIME')).toBeUndefined();
    expect(matchRule([], 'DEV_MEM/dev0/APP')).toBeUndefined();
  });
});

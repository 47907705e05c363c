// The Action's inputs read as the command line's flags (issue 29): 'max-increase' refuses a bare number when the inputs
// are read, and an evidence input that matches nothing is named.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readInputs } from '../../../src/action/inputs.js';
import { collectInputs } from '../../../src/action/shared.js';
import { UsageError } from '../../../src/common/errors.js';
import { DEFAULT_HISTORY_SIZE, MAX_HISTORY_SIZE } from '../../../src/history/limits.js';
import { thrown, thrownAsync } from '../../helpers/thrown.js';

const inputs = (values: Record<string, string>) => readInputs((name) => values[name] ?? '');

describe("'max-increase'", () => {
  it('refuses "5" before anything is read, naming 5% and 5B (it meant 5 bytes)', () => {
    const err = thrown(() => inputs({ 'max-increase': '5' }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(`'max-increase' "5" has no unit: write 5% for a share of the baseline or 5B for bytes`);
  });

  it('keeps "5%,1MiB" and "0" as written', () => {
    expect(inputs({ 'max-increase': '5%,1MiB' }).maxIncrease).toBe('5%,1MiB');
    expect(inputs({ 'max-increase': '0' }).maxIncrease).toBe('0');
  });
});

// An input whose paths match nothing while another input found files (issue 29): an error, or a warning under 'missing-artifacts: warn'.
describe('an evidence input that matches nothing', () => {
  const RECORD =
    '[INFO] DRV(77,python3):2024-07-08-22:27:45.354.900 [ascend][curpid: 77, 77][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=APP; module_id=33; current_alloced_size=100; alloced_peak_size=100; alloc_cnt=3; free_cnt=1)\n';
  const MESSAGE =
    "'memory-compare' 'csv' matched no memory_compare file: check the path (the README's Inputs section lists what a folder is searched for), or leave the flag out";
  let workspace: string;
  let written: string[];
  let restore: () => void;
  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'action-unmatched-'));
    mkdirSync(join(workspace, 'plog'));
    mkdirSync(join(workspace, 'csv'));
    writeFileSync(join(workspace, 'plog', 'plog-1.log'), RECORD);
    const before = process.env.GITHUB_WORKSPACE;
    process.env.GITHUB_WORKSPACE = workspace;
    written = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    restore = () => {
      write.mockRestore();
      if (before === undefined) delete process.env.GITHUB_WORKSPACE;
      else process.env.GITHUB_WORKSPACE = before;
      rmSync(workspace, { recursive: true, force: true });
    };
  });
  afterEach(() => restore());

  it('stops the run, naming the input, though plog found a file', async () => {
    const err = await thrownAsync(collectInputs(inputs({ plog: 'plog', 'memory-compare': 'csv' })));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(MESSAGE);
  });

  it("is a warning with 'missing-artifacts: warn', and the rest is gated", async () => {
    const collected = await collectInputs(
      inputs({ plog: 'plog', 'memory-compare': 'csv', 'missing-artifacts': 'warn' }),
    );
    expect(Object.keys(collected.snapshot.sections.modules ?? {})).toEqual(['DEV_MEM/dev0/APP']);
    expect(written.filter((line) => line.startsWith('::warning::'))).toEqual([`::warning::${MESSAGE}\n`]);
  });
});

// action.yml's defaults and the code's fallbacks are one setting written twice: an input left empty reads as its default.
describe("action.yml's defaults", () => {
  const action = parseYaml(readFileSync('action.yml', 'utf8')) as {
    inputs: Record<string, { default?: string; description: string }>;
  };
  const defaults = Object.fromEntries(
    Object.entries(action.inputs).flatMap(([name, input]) =>
      input.default === undefined ? [] : [[name, input.default]],
    ),
  );

  it('read as the code reads an empty input, for every input with a default', () => {
    // The token's default is an expression the runner fills in; the code has no fallback for it.
    const { ['github-token']: token, ...rest } = defaults;
    expect(token).toBe('${{ github.token }}');
    expect(inputs(rest)).toEqual(inputs({}));
    expect(Object.keys(rest).length).toBeGreaterThan(10);
  });

  it("state the history-size bounds the code checks ('history-size' 1 to MAX_HISTORY_SIZE, DEFAULT_HISTORY_SIZE)", () => {
    expect(defaults['history-size']).toBe(String(DEFAULT_HISTORY_SIZE));
    expect(action.inputs['history-size']?.description).toContain(`(1 to ${MAX_HISTORY_SIZE})`);
    expect(inputs({ 'history-size': String(MAX_HISTORY_SIZE) }).historySize).toBe(MAX_HISTORY_SIZE);
    expect(thrown(() => inputs({ 'history-size': String(MAX_HISTORY_SIZE + 1) }))).toBeInstanceOf(UsageError);
  });
});

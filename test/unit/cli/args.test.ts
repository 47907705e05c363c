import { describe, expect, it } from 'vitest';
import { CommandUsageError, parseCommandArgs, type CommandSpec } from '../../../src/cli/args.js';
import { afterCommand, INPUT_COMMANDS, readsInputs } from '../../../src/cli/input-commands.js';

const SPEC = {
  name: 'check',
  summary: 'A command for this test.',
  usage: '--plog PATH [options]',
  inputs: { plog: { type: 'string', multiple: true, value: 'PATH', description: 'plog files' } },
  options: {
    'max-increase': { type: 'string', value: 'BYTES', description: 'a bound' },
    all: { type: 'boolean', description: 'every row' },
    env: { type: 'string', multiple: true, value: 'KEY=VALUE', description: 'an item' },
    comment: { type: 'string', implicit: 'on-change', description: 'a mode' },
  },
} satisfies CommandSpec;

describe('parseCommandArgs', () => {
  it("gives a command's own flags typed under their property names, and the evidence flags by name", () => {
    const { flags, all } = parseCommandArgs(
      ['--plog', 'a.log', 'b.log', '--max-increase', '5MiB', '--all', '--env', 'A=1', 'B=2'],
      SPEC,
    );
    expect(flags).toEqual({ maxIncrease: '5MiB', all: true, env: ['A=1', 'B=2'], comment: undefined });
    expect(all.plog).toEqual(['a.log', 'b.log']);
    const bound: string | undefined = flags.maxIncrease;
    expect(bound).toBe('5MiB');
    // @ts-expect-error a misspelt flag does not compile
    expect(flags.maxIncrese).toBeUndefined();
    // @ts-expect-error a boolean flag is a boolean, not a string
    const wrong: string = flags.all;
    expect(wrong).toBe(true);
  });

  it('gives absent flags their empty value: false, [] or undefined', () => {
    const { flags } = parseCommandArgs(['--plog', 'a.log'], SPEC);
    expect(flags).toEqual({ maxIncrease: undefined, all: false, env: [], comment: undefined });
  });

  it('gives a flag without its value the implicit one, and refuses a mistyped flag naming the near one', () => {
    expect(parseCommandArgs(['--comment', '--plog', 'x'], SPEC).flags.comment).toBe('on-change');
    expect(() => parseCommandArgs(['--max-increse', '1'], SPEC)).toThrow(CommandUsageError);
    expect(() => parseCommandArgs(['--max-increse', '1'], SPEC)).toThrow(/max-increase/);
  });
});

describe('the commands that read inputs', () => {
  it('are the only ones whose spec may declare the evidence flags', () => {
    const spec = {
      name: 'history show',
      summary: 'Reads no evidence.',
      usage: '[options]',
      inputs: { plog: { type: 'string', multiple: true, description: 'plog files' } },
      options: {},
    };
    // @ts-expect-error a command outside INPUT_COMMANDS cannot take the evidence flags
    const typed: CommandSpec = spec;
    expect(typed.name).toBe('history show');
  });

  it('are known from the command line before anything else loads, help excepted', () => {
    expect(INPUT_COMMANDS).toContain('history append');
    expect(readsInputs(['check', '--plog', 'x'])).toBe(true);
    expect(readsInputs(['history', 'append', '--plog', 'x'])).toBe(true);
    expect(readsInputs(['history', 'show', '--history', 'h.jsonl'])).toBe(false);
    expect(readsInputs(['compare-dumps', 'a', 'b'])).toBe(false);
    expect(readsInputs(['check', '--help'])).toBe(false);
    expect(readsInputs([])).toBe(false);
    expect(afterCommand(['history', 'append', '--plog', 'x'])).toEqual(['--plog', 'x']);
    expect(afterCommand(['parse', '--plog', 'x'])).toEqual(['--plog', 'x']);
  });
});

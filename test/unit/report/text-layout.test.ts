// The one text layout (common/text-layout.ts): the CLI's help wraps by the same rule as the terminal report.
import { describe, expect, it } from 'vitest';
import { helpLines, wrapHelp } from '../../../src/cli/args.js';
import { wrap } from '../../../src/common/text-layout.js';

describe('help wrap = report wrap', () => {
  it('measures help in terminal columns: a CJK word takes two', () => {
    expect(wrapHelp('数据 数据 数据', '', 9)).toEqual(['数据 数据', '数据']);
  });

  it('cuts a help word longer than the line in the middle, so no help line is wider than the terminal', () => {
    expect(wrapHelp('see https://example.com/very/long/path/x', '  ', 20)).toEqual(['see', '  https://…ng/path/x']);
  });

  it('keeps runs of spaces (an aligned flag column) and an empty line', () => {
    expect(wrapHelp('  --all     list every key', '      ', 80)).toEqual(['  --all     list every key']);
    expect(wrapHelp('')).toEqual(['']);
    expect(helpLines([['--plog PATH...', 'plog files of the driver']], 80)).toEqual([
      '  --plog PATH...  plog files of the driver',
    ]);
  });

  it('keeps the first line of an indented paragraph indented when it wraps', () => {
    expect(wrap('  one two three', 10, '    ')).toEqual(['  one two', '    three']);
  });
});

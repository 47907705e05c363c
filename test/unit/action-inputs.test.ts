// The Action's inputs read as the command line's flags (issue 29): 'max-increase' refuses a bare number when the inputs are read.
import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { UsageError } from '../../src/common/errors.js';
import { thrown } from '../helpers/thrown.js';

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

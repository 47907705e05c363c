// The host layer's shared rule for "the head when the label was set", as GitLab and GitHub (through the CLI) use it.
import { describe, expect, it } from 'vitest';
import { headWhen, labelNames } from '../../../src/hosts/http.js';

const t = (hour: number): number => Date.parse(`2026-12-01T${String(hour).padStart(2, '0')}:00:00Z`);

describe('headWhen', () => {
  it('is the last push at or before the latest time the label was added', () => {
    const pushes = [
      { head: 'c', at: t(12) },
      { head: 'a', at: t(9) },
      { head: 'b', at: t(10) },
    ];
    expect(headWhen([t(8), t(11)], pushes)).toBe('b');
    expect(headWhen([t(10)], pushes)).toBe('b');
  });

  it('is the first push for a change request opened with the label, and null when nothing records it', () => {
    expect(
      headWhen(
        [t(8)],
        [
          { head: 'b', at: t(10) },
          { head: 'a', at: t(9) },
        ],
      ),
    ).toBe('a');
    expect(headWhen([], [{ head: 'a', at: t(9) }])).toBeNull();
    expect(headWhen([Number.NaN], [{ head: 'a', at: t(9) }])).toBeNull();
    expect(headWhen([t(9)], [])).toBeNull();
  });
});

describe('labelNames', () => {
  it('reads names from GitHub and GitCode objects and GitLab strings, dropping anything else', () => {
    expect(labelNames([{ name: 'x' }, 'y', { id: 1 }, null, 3])).toEqual(['x', 'y']);
    expect(labelNames('x')).toEqual([]);
  });
});

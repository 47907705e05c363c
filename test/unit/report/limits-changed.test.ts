// "Limits changed by this PR": what a pull request moves in its baseline and config, and which limits gated it.
import { describe, expect, it } from 'vitest';
import { isMarkedBy } from '../../../src/github/comment.js';
import { DEFAULT_CONFIG, parseGateConfig } from '../../../src/gate/thresholds.js';
import {
  baselineLimitChanges,
  configLimitChanges,
  renderLimitsChanged,
  type LabelNotCounted,
} from '../../../src/report/limits-changed.js';
import { MiB } from '../../helpers/story.js';

const module = (peak: number) => ({ peak, current: peak, allocs: 3, frees: 1 });
const BASE = {
  sections: {
    modules: { 'DEV_MEM/dev0/APP': module(64 * MiB), 'DEV_MEM/dev1/APP': module(64 * MiB) },
    kernels: { 'dev0/aclnnAdd_0': { diff: 4096, rows: 1, added: 0, removed: 0, event: 'KERNEL_LAUNCH' } },
  },
};

describe('baselineLimitChanges', () => {
  it('lists every key whose compared value moves, added or removed, in report order; other fields do not count', () => {
    const head = {
      sections: {
        modules: {
          'DEV_MEM/dev0/APP': { ...module(64 * MiB), current: 1 },
          'DEV_MEM/dev1/APP': module(128 * MiB),
          'DEV_MEM/dev2/APP': module(MiB),
        },
        kernels: {},
      },
    };
    expect(baselineLimitChanges(BASE, head)).toEqual([
      { source: 'baseline', key: 'DEV_MEM/dev1/APP', before: 64 * MiB, after: 128 * MiB },
      { source: 'baseline', key: 'DEV_MEM/dev2/APP', before: null, after: MiB },
      { source: 'baseline', key: 'dev0/aclnnAdd_0', before: 4096, after: null },
    ]);
    expect(baselineLimitChanges(BASE, BASE)).toEqual([]);
  });
});

describe('configLimitChanges', () => {
  it('names changed thresholds as they are written in the config file', () => {
    const head = parseGateConfig({ modules: { tolerance: { percent: 50 } }, baselineUpdateLabel: 'yolo' }, 'c.json');
    expect(configLimitChanges(DEFAULT_CONFIG, head)).toEqual([
      { source: 'config', key: 'baselineUpdateLabel', before: 'memory-baseline-update', after: 'yolo' },
      { source: 'config', key: 'modules.tolerance.bytes', before: MiB, after: null },
      { source: 'config', key: 'modules.tolerance.percent', before: 5, after: 50 },
    ]);
  });
});

describe('renderLimitsChanged', () => {
  const changes = baselineLimitChanges(BASE, {
    sections: { ...BASE.sections, modules: { ...BASE.sections.modules, 'DEV_MEM/dev1/APP': module(128 * MiB) } },
  });
  it('says the changes were not used, and who can allow them', () => {
    expect(
      renderLimitsChanged({ from: 'base', baseSha: 'a'.repeat(40), label: 'memory-baseline-update', changes }),
    ).toBe(
      [
        '#### ⚠️ Limits changed by this PR (1)',
        '',
        '**These changes were not used**: the gate ran against the baseline and config of the base commit `aaaaaaaaaaaa`. To gate with them, a maintainer (triage or write access) reviews them and adds the label `memory-baseline-update`.',
        '',
        '| Limit | Key | Base | This PR | Change |',
        '|---|---|--:|--:|--:|',
        '| baseline | `DEV_MEM/dev1/APP` | 64.0 MiB | 128.0 MiB | ×2.00 |',
      ].join('\n'),
    );
  });
  it('says which limits gated a PR that changes none', () => {
    expect(renderLimitsChanged({ from: 'base', baseSha: 'b'.repeat(40), label: 'x', changes: [] })).toBe(
      'Limits: the baseline and config of the base commit `bbbbbbbbbbbb`; this pull request does not change them.',
    );
  });
});

describe('renderLimitsChanged: a label that did not count', () => {
  const changes = baselineLimitChanges(BASE, {
    sections: { ...BASE.sections, modules: { ...BASE.sections.modules, 'DEV_MEM/dev1/APP': module(128 * MiB) } },
  });
  const used = (labelNotCounted: LabelNotCounted) =>
    renderLimitsChanged({
      from: 'base',
      baseSha: 'c'.repeat(40),
      label: 'memory-baseline-update',
      changes,
      labelNotCounted,
    }).split('\n')[2];

  it('a push after the label: names the push and the files, and that the label was removed', () => {
    expect(
      used({
        how: 'push',
        since: '1'.repeat(40),
        at: '2'.repeat(40),
        files: ['baselines/memory-baseline.json', '.github/memory-gate.json'],
        removed: true,
      }),
    ).toBe(
      '**These changes were not used**: the label `memory-baseline-update` was set before the push `111111111111` → `222222222222`, which changes `baselines/memory-baseline.json` and `.github/memory-gate.json`, so no maintainer has reviewed these limits. The label was removed: a maintainer reviews the changes and sets it again. The gate ran against the baseline and config of the base commit `cccccccccccc`.',
    );
  });

  it("comment mode: names the head the label was set on and the run's head; a token that cannot remove it says so", () => {
    expect(
      used({
        how: 'label',
        since: '1'.repeat(40),
        at: '2'.repeat(40),
        files: ['baselines/memory-baseline.json'],
        runId: 42,
        removed: false,
      }),
    ).toBe(
      "**These changes were not used**: the label `memory-baseline-update` was set when the pull request's head was `111111111111`; `222222222222` (the head of run 42) changes `baselines/memory-baseline.json` since, so no maintainer has reviewed these limits. The token cannot remove the label (it needs `pull-requests: write`): a maintainer removes it and sets it again after reviewing the changes. The gate ran against the baseline and config of the base commit `cccccccccccc`.",
    );
  });

  it('when it cannot be told which limits a maintainer saw, the label does not count either', () => {
    expect(
      used({
        how: 'unknown',
        since: '1'.repeat(40),
        at: '2'.repeat(40),
        files: [],
        unknown: 'commit 111111111111 cannot be read',
        removed: true,
      }),
    ).toBe(
      '**These changes were not used**: the label `memory-baseline-update` is on this pull request, but which limits a maintainer saw cannot be told (commit 111111111111 cannot be read), so it does not count. The label was removed: a maintainer reviews the changes and sets it again. The gate ran against the baseline and config of the base commit `cccccccccccc`.',
    );
  });
});

describe('isMarkedBy', () => {
  const marker = '<!-- ascend-memory-gate:default -->';
  it.each<[string, string, boolean]>([
    ['the marker on its own first line', `${marker}\n### ✅ Memory gate passed`, true],
    ['the marker alone', marker, true],
    ['CRLF after the marker', `${marker}\r\nbody`, true],
    ['the marker inside a name in a table', `<!-- ascend-memory-gate:other -->\n| \`${marker}\` |`, false],
    ['the marker quoted', `> ${marker}`, false],
    ['a longer key that starts the same', `<!-- ascend-memory-gate:default -->x\n`, false],
  ])('%s: %s', (_story, body, expected) => {
    expect(isMarkedBy(body, marker)).toBe(expected);
  });
});

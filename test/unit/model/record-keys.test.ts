// The identity caches' rule "nothing adds a key to a section record once it is read or built", enforced under the tests.
import { describe, expect, it } from 'vitest';

import { modules as modulesSection } from '../../../src/model/sections/index.js';
import { hasNoMetrics, SnapshotBuilder } from '../../../src/model/snapshot.js';

describe('section records the key caches know', () => {
  it('throw when a key is added to a record build() made, or a field to one of its metrics', () => {
    const builder = new SnapshotBuilder();
    builder.add(modulesSection, 'DEV_MEM/dev0/APP', { peak: 10, current: 4, allocs: 1, frees: 0 });
    const record = builder.build().sections.modules as Record<string, Record<string, unknown>>;
    expect(() => {
      record['DEV_MEM/dev1/APP'] = { peak: 1, current: 1, allocs: null, frees: null };
    }).toThrow(TypeError);
    expect(() => {
      (record['DEV_MEM/dev0/APP'] as Record<string, unknown>).peak = 11;
    }).toThrow(TypeError);
    expect(Object.keys(record)).toEqual(['DEV_MEM/dev0/APP']);
  });

  it('throw when a key is added to a record once it was seen holding one', () => {
    const modules: Record<string, unknown> = { 'DEV_MEM/dev0/APP': { peak: 1, current: 1, allocs: null, frees: null } };
    expect(hasNoMetrics({ sections: { modules } as never })).toBe(false);
    expect(() => {
      modules['DEV_MEM/dev1/APP'] = {};
    }).toThrow(TypeError);
  });
});

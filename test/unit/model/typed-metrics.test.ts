// A section's declaration types its metrics: a misspelt or mistyped field fails to compile where it is written or read.
import { describe, expect, expectTypeOf, it } from 'vitest';

import { kernels, modules, section, type ModuleMetric } from '../../../src/model/sections/index.js';
import { metricsOf, SnapshotBuilder } from '../../../src/model/snapshot.js';

describe('typed section metrics', () => {
  it('write and read the fields the declaration names, with their types', () => {
    const builder = new SnapshotBuilder();
    builder.add(modules, 'DEV_MEM/dev0/APP', { peak: 10, current: 4, allocs: 1, frees: null });
    // @ts-expect-error a misspelt field (peek) does not compile
    builder.add(modules, 'DEV_MEM/dev1/APP', { peek: 10, current: 4, allocs: 1, frees: null });
    // @ts-expect-error a string where the declaration says bytes does not compile
    builder.add(kernels, 'dev0/matmul', { diff: '4', rows: 1, added: 0, removed: 0, event: null });
    // @ts-expect-error a declaration whose fields the compiler does not know (looked up by name) takes no metric
    builder.add(section('modules'), 'DEV_MEM/dev2/APP', { peak: 10, current: 4, allocs: 1, frees: null });
    // @ts-expect-error there is no untyped write of one metric
    expect(builder.addMetric).toBeUndefined();
    const read = metricsOf(builder.build(), modules);
    expectTypeOf(read).toEqualTypeOf<Readonly<Record<string, ModuleMetric>>>();
    expectTypeOf(read['DEV_MEM/dev0/APP']?.allocs).toEqualTypeOf<number | null | undefined>();
    // @ts-expect-error reading a field the section does not declare does not compile
    expect(read['DEV_MEM/dev0/APP']?.peek).toBeUndefined();
    expect(read['DEV_MEM/dev0/APP']).toEqual({ allocs: 1, current: 4, frees: null, peak: 10 });
  });
});

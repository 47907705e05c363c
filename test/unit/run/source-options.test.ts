// A source's settings beyond its files are declared by the source: the entries iterate over them and name none.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_OPTIONS, SOURCES } from '../../../src/parsers/evidence-sources.js';
import { finishAllocatorSnapshots } from '../../../src/parsers/allocator-snapshot/source.js';
import { allocationSites } from '../../../src/model/sections/allocation-sites.js';
import { SnapshotBuilder } from '../../../src/model/snapshot.js';

const SRC = path.resolve(import.meta.dirname, '../../../src');
const filesUnder = (dir: string): string[] =>
  readdirSync(path.join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));

describe('sources declare their run options', () => {
  it('the memory-snapshot source declares --source-root; no other source declares one', () => {
    expect(RUN_OPTIONS.map((o) => o.name)).toEqual(['source-root']);
    expect(SOURCES.filter((s) => s.runOptions !== undefined).map((s) => s.name)).toEqual(['memorySnapshot']);
  });

  it('neither entry nor the generic run settings name a source option', () => {
    const naming = [...filesUnder('cli'), ...filesUnder('action'), 'parsers/run-settings.ts'].filter((file) =>
      /source-root/.test(readFileSync(path.join(SRC, file), 'utf8')),
    );
    expect(naming).toEqual([]);
  });

  it('finish reads its own option: a site under --source-root is written relative to it, strictly', () => {
    const builder = new SnapshotBuilder();
    // A site's file is its codeRoot plus its path: /home/u/model/net.py.
    builder.add(allocationSites, 'dev0/model/net.py forward', {
      bytes: 1024,
      blocks: 1,
      lines: '[[3,1024,1]]',
      codeRoot: '/home/u/',
      file: 'snapshot.pickle',
      logicalDevice: 0,
      visibleDevices: null,
    });
    const snapshot = builder.build();
    const keys = (run: Parameters<typeof finishAllocatorSnapshots>[1]) =>
      Object.keys(finishAllocatorSnapshots(snapshot, run).sections.allocationSites ?? {});
    expect(keys({ options: { 'source-root': '/home/u/model' } })).toEqual(['dev0/net.py forward']);
    expect(keys({ checkout: '/home/u/model' })).toEqual(['dev0/net.py forward']);
    expect(keys({ checkout: '/elsewhere' })).toEqual(['dev0/model/net.py forward']);
    expect(keys({})).toEqual(['dev0/model/net.py forward']);
  });
});

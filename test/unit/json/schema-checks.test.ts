// The precompiled schema checks (src/json/generated/schema-checks.js): current with the schemas, complete for what a run
// validates with, and in agreement with ajv compiling the same schema at run time on valid and broken documents.
import AjvModule from 'ajv';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaChecksSource } from '../../../scripts/schema-checks-source.js';
import { SCHEMA_CHECKS } from '../../../src/json/generated/schema-checks.js';
import { loadGateConfig, parseGateConfig } from '../../../src/gate/thresholds.js';
import { parseBaseline, serializeBaseline } from '../../../src/gate/baseline.js';
import { compareSnapshots } from '../../../src/gate/compare.js';
import { compiledAtRunTime } from '../../../src/json/reader.js';
import { collectSnapshot } from '../../../src/parsers/collect.js';
import { parseSnapshotText, serializeNodeSnapshot } from '../../../src/parsers/node-snapshot-file.js';
import { PRECOMPILED_SCHEMAS } from '../../../src/json/precompiled-schemas.js';
import { parseReportJson, renderJsonReport } from '../../../src/report/json.js';
import { CHECK_OPTIONS, schemaHash } from '../../../src/json/schema-hash.js';
import { resolveInputs } from '../../../src/sources/local.js';

const Ajv = AjvModule.default;
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHECKS = SCHEMA_CHECKS;
const work = mkdtempSync(join(tmpdir(), 'amg-schema-checks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A snapshot of every kind of fixture (modules, kernels, memscope sections and their timelines), with a node's provenance. */
async function fixtureSnapshot(): Promise<Record<string, unknown>> {
  const files = {
    plog: await resolveInputs([join(ROOT, 'test/fixtures/plog')], 'plog', work),
    compare: await resolveInputs(
      [join(ROOT, 'test/fixtures/memory-compare/memory_compare_20250610093000.csv')],
      'compare',
      work,
    ),
    dump: await resolveInputs([join(ROOT, 'test/fixtures/memscope/memscope_dump_20250428113810.csv')], 'dump', work),
    profiler: await resolveInputs([join(ROOT, 'test/fixtures/torch_npu/level0-2025-01')], 'profiler', work),
  };
  const { snapshot } = await collectSnapshot({ files, searched: 'test' }, { threads: 0 });
  const document = JSON.parse(serializeNodeSnapshot(snapshot)) as Record<string, unknown>;
  const meta = document.meta as Record<string, unknown>;
  meta.nodes = {
    'node-0': {
      devices: ['dev0'],
      files: 3,
      records: 30,
      skipped: 0,
      environment: { cann: '8.3.RC1', PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:True' },
    },
  };
  return document;
}

const V1_BASELINE = {
  version: 1,
  modules: { 'DEV_MEM/dev0/APP': { peak: 2, current: 1, allocs: 3, frees: 1 } },
  kernels: {},
};
const CONFIG = {
  modules: {
    tolerance: { percent: 5, bytes: '1MiB' },
    rules: [
      { match: 'DEV_MEM/*/HCCL', tolerance: { percent: 10 } },
      { match: 'DEV_MEM/*/APP', budget: '60GiB' },
    ],
  },
  kernels: { tolerance: { bytes: 0 } },
  onNew: 'warn',
  environment: { onChange: 'fail', ignore: ['driver'] },
};

/** Every path to a value in a JSON document. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...paths(item, [...at, i])));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

const REPLACEMENTS: unknown[] = ['text', '', -1, 1.5, 0, null, {}, [], true, 2 ** 53];

/** The document with one change at `path`: the value replaced, the key removed, or an unknown key added. */
function mutate(document: unknown, path: (string | number)[], how: number, replacement: unknown): unknown {
  const copy = structuredClone(document);
  if (path.length === 0) return how === 0 ? replacement : copy;
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (how === 0) parent[last] = replacement;
  else if (how === 1 && !Array.isArray(parent)) delete parent[last];
  else if (parent[last] !== null && typeof parent[last] === 'object' && !Array.isArray(parent[last]))
    (parent[last] as Record<string, unknown>).unexpected = 1;
  else parent[last] = replacement;
  return copy;
}

describe('precompiled schema checks', () => {
  it('src/json/generated/schema-checks.js is what `npm run schemas` writes now', () => {
    expect(
      readFileSync(join(ROOT, 'src/json/generated/schema-checks.js'), 'utf8') === schemaChecksSource(),
      'run `npm run schemas` and commit the file',
    ).toBe(true);
  });

  it('has a check for every schema in the list, and no other', () => {
    const hashes = PRECOMPILED_SCHEMAS.map(schemaHash);
    expect(Object.keys(CHECKS).sort()).toEqual([...new Set(hashes)].sort());
  });

  it('reading a snapshot, a baseline, a config and a report compiles no schema at run time', async () => {
    const snapshot = await fixtureSnapshot();
    const text = `${JSON.stringify(snapshot, null, 2)}\n`;
    const parsed = parseSnapshotText(text, 'run.memory-snapshot.json');
    const baseline = parseBaseline(
      readFileSync(join(ROOT, 'baselines/memory-baseline.json'), 'utf8'),
      'baselines/memory-baseline.json',
    );
    parseBaseline(serializeBaseline({ ...baseline, sections: parsed.sections }), 'rewritten.json');
    parseBaseline(JSON.stringify(V1_BASELINE), 'v1.json');
    const config = await loadGateConfig(join(ROOT, 'examples/memory-gate.json'));
    parseGateConfig(CONFIG, 'config.json');
    const report = compareSnapshots(baseline, parsed, config);
    parseReportJson(renderJsonReport(report), 'report.json');
    expect(report.entries.length).toBeGreaterThan(10);
    expect(compiledAtRunTime).toEqual([]);
  });

  it('says yes and no exactly where ajv compiling the same schema at run time does', async () => {
    const snapshot = await fixtureSnapshot();
    const baseline = JSON.parse(readFileSync(join(ROOT, 'baselines/memory-baseline.json'), 'utf8')) as unknown;
    const config = CONFIG;
    const parsedBaseline = parseBaseline(JSON.stringify(baseline), 'b.json');
    const report = JSON.parse(
      renderJsonReport(
        compareSnapshots(
          parsedBaseline,
          parseSnapshotText(JSON.stringify(snapshot), 's.json'),
          parseGateConfig(config, 'c.json'),
        ),
      ),
    ) as unknown;
    const documents = [snapshot, baseline, V1_BASELINE, config, report];
    const ajv = new Ajv({ ...CHECK_OPTIONS });
    const pairs = PRECOMPILED_SCHEMAS.map((schema) => ({
      precompiled: CHECKS[schemaHash(schema)] as (data: unknown) => boolean,
      runtime: ajv.compile(schema),
    }));
    let accepted = 0;
    let rejected = 0;
    for (const { precompiled, runtime } of pairs) {
      for (const document of documents) {
        const all = paths(document);
        fc.assert(
          fc.property(fc.nat(all.length - 1), fc.nat(2), fc.constantFrom(...REPLACEMENTS), (at, how, replacement) => {
            const changed = mutate(document, all[at] as (string | number)[], how, replacement);
            const verdict = runtime(changed);
            if (verdict) accepted++;
            else rejected++;
            expect(precompiled(changed)).toBe(verdict);
          }),
          { numRuns: 150 },
        );
        expect(precompiled(document)).toBe(runtime(document));
      }
    }
    // Both answers were exercised: documents each schema takes and broken ones it refuses.
    expect(accepted).toBeGreaterThan(300);
    expect(rejected).toBeGreaterThan(300);
  });
});

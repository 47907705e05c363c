// The published schemas (schemas/*.schema.json, for editors and other tools) are exactly what the code validates with.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SECTIONS } from '../../../src/model/sections/index.js';
import { PUBLISHED_SCHEMAS } from '../../../src/json/schemas.js';

const DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));

describe('schemas/ holds the schemas the code builds (run `npm run schemas` after changing a section or the config)', () => {
  it('one published file per built schema, and no other', () => {
    expect(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(Object.keys(PUBLISHED_SCHEMAS).sort());
  });

  it.each(Object.keys(PUBLISHED_SCHEMAS))('schemas/%s', (file) => {
    expect(JSON.parse(readFileSync(DIR + file, 'utf8'))).toEqual(PUBLISHED_SCHEMAS[file]);
  });

  it('every declared section has a property in the config, snapshot and baseline schemas', () => {
    const config = PUBLISHED_SCHEMAS['config.schema.json'] as { properties: Record<string, unknown> };
    const snapshot = PUBLISHED_SCHEMAS['snapshot.schema.json'] as {
      properties: { sections: { properties: Record<string, unknown> } };
    };
    const baseline = PUBLISHED_SCHEMAS['baseline.schema.json'] as {
      properties: { sections: { properties: Record<string, unknown> } };
    };
    for (const s of SECTIONS) {
      expect(config.properties[s.name], s.name).toBeDefined();
      expect(snapshot.properties.sections.properties[s.name], s.name).toBeDefined();
      expect(baseline.properties.sections.properties[s.name], s.name).toBeDefined();
    }
  });
});

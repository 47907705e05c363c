// The JSON Schemas checked against the JSON Schema meta-schema, once, here: the Ajv instances that validate baselines,
// configs and reports at run time may then skip that check (`validateSchema: false` saves ~40 ms of Action start-up).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AjvModule from 'ajv';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/report-schema.js';

const Ajv = AjvModule.default;
const SCHEMAS = fileURLToPath(new URL('../../../schemas/', import.meta.url));

describe('every JSON Schema is a valid draft-07 schema in strict mode', () => {
  const files = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'));
  it.each(files)('schemas/%s', (file) => {
    const schema = JSON.parse(readFileSync(SCHEMAS + file, 'utf8'));
    const ajv = new Ajv({ strict: true, allowUnionTypes: true, validateSchema: true });
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('the report schema built in src/report/report-schema.ts', () => {
    const ajv = new Ajv({ strict: true, allowUnionTypes: true, validateSchema: true });
    expect(ajv.validateSchema(reportSchema), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.compile(reportSchema)).not.toThrow();
  });
});

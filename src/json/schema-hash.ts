// The key of a schema's precompiled check (src/json/generated/schema-checks.js) and the ajv options that decide what passes:
// shared by the run (json-schema.ts) and the script that writes the checks, which must not import that file.
import { createHash } from 'node:crypto';

/** What decides whether a document passes; the precompiled checks (scripts/schema-checks-source.ts) use the same. */
export const CHECK_OPTIONS = { allErrors: false, strict: true, allowUnionTypes: true, validateSchema: false } as const;

/** A schema's hash: of its JSON, which is stable because schemas are built by code, in a fixed key order. */
export function schemaHash(schema: object): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 32);
}

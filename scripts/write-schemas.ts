// Writes the published JSON Schemas (schemas/*.schema.json) from the code that validates with them: `npm run schemas`.
// test/unit/json/schemas-published.test.ts fails when a published copy differs from what this writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PUBLISHED_SCHEMAS } from '../src/json/schemas.js';

for (const [file, schema] of Object.entries(PUBLISHED_SCHEMAS)) {
  writeFileSync(fileURLToPath(new URL(`../schemas/${file}`, import.meta.url)), `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote schemas/${file}`);
}

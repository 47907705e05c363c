// Writes src/json/generated/schema-checks.js (ajv's standalone checks of src/json/precompiled-schemas.ts): `npm run schemas`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaChecksSource } from './schema-checks-source.js';

writeFileSync(fileURLToPath(new URL('../src/json/generated/schema-checks.js', import.meta.url)), schemaChecksSource());
console.log('wrote src/json/generated/schema-checks.js');

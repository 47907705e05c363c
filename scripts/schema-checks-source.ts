// The source of src/json/generated/schema-checks.js: ajv's standalone code for every schema in PRECOMPILED_SCHEMAS, each
// exported under its schema's hash. Used by `npm run schemas` to write the file and by its test to see it is current.
import AjvModule from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { minify_sync } from 'terser';
import { CHECK_OPTIONS, schemaHash } from '../src/json/schema-hash.js';
import { PRECOMPILED_SCHEMAS } from '../src/json/precompiled-schemas.js';

const Ajv = AjvModule.default;
const standaloneCode = standaloneModule.default;

export function schemaChecksSource(): string {
  const ajv = new Ajv({ ...CHECK_OPTIONS, inlineRefs: false, code: { source: true, esm: true } });
  const exports: Record<string, string> = {};
  const hashes: string[] = [];
  for (const schema of PRECOMPILED_SCHEMAS) {
    const hash = schemaHash(schema);
    if (hashes.includes(hash)) continue;
    hashes.push(hash);
    ajv.addSchema(schema, hash);
    exports[`check_${hash}`] = hash;
  }
  // ajv writes its runtime helpers (ucs2length, equal, …) as require() calls even in ES module output: they become
  // imports. A default import of these CommonJS files is the exports object under Node and the function under rollup's
  // commonjs plugin (they set __esModule), hence `.default ?? `.
  const imports: string[] = [];
  const code = standaloneCode(ajv, exports).replace(
    /const (\w+) = require\("(ajv\/dist\/runtime\/[\w-]+)"\)\.default;/g,
    (_, name: string, path: string) => {
      imports.push(`import ${name}_module from '${path}.js';`);
      return `const ${name} = ${name}_module.default ?? ${name}_module;`;
    },
  );
  if (!code.startsWith('"use strict";'))
    throw new Error(
      'ajv standalone code no longer starts with "use strict": check the rewrite in scripts/schema-checks-source.ts',
    );
  if (code.includes('require('))
    throw new Error('ajv standalone code still calls require(): extend the rewrite in scripts/schema-checks-source.ts');
  // Machine-written code nobody reads (the schemas are the source): minified, it is ~100 KB less of every install and
  // of what each run parses. terser's output is deterministic, so the test that regenerates the file still compares bytes.
  const minified = minify_sync(code.slice('"use strict";'.length), {
    module: true,
    compress: true,
    mangle: true,
    format: { comments: false },
  }).code;
  if (minified === undefined) throw new Error('terser returned no code for the schema checks');
  const table = hashes.map((hash) => `  '${hash}': check_${hash},`).join('\n');
  return `// Written by \`npm run schemas\` (scripts/schema-checks-source.ts) from src/json/precompiled-schemas.ts: do not edit.
// ajv's standalone checks of the schemas a run validates with, by the hash of each schema (json-schema.ts schemaHash).
${imports.join('\n')}
${minified}
export const SCHEMA_CHECKS = {
${table}
};
`;
}

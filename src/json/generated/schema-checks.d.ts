// Types of schema-checks.js, which `npm run schemas` writes (scripts/schema-checks-source.ts).
/** ajv's standalone check of each schema in src/json/precompiled-schemas.ts, by its hash (src/json/schema-hash.ts). */
export declare const SCHEMA_CHECKS: Readonly<Record<string, (data: unknown) => boolean>>;

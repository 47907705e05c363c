// The schemas whose checks are compiled ahead of time (src/json/generated/schema-checks.js, written by
// `npm run schemas`): every schema a run validates with on its usual path. ajv compiling them at run time cost ~60 ms
// of every start (the baseline's schema alone), more than the rest of a small run. Only scripts and tests import this
// list; the run looks its checks up by the schema's hash (json-schema.ts), so a schema changed without regenerating is
// compiled at run time as before, and test/unit/json/schema-checks.test.ts fails until the file is written again.
import { buildConfigSchema } from '../gate/config-schema.js';
import { historyHeaderSchema, historyKeysSchema, historyPointSchema } from '../history/schema.js';
import { reportFrameSchema, reportSchema } from '../report/report-schema.js';
import {
  buildBaselineSchema,
  buildBaselineV1Schema,
  buildSnapshotSchema,
  withOpaqueSections,
} from '../model/sections/schema.js';

export const PRECOMPILED_SCHEMAS: readonly Record<string, unknown>[] = [
  // A snapshot's and a baseline's document once the direct pass has checked its sections (sections/validate.ts).
  withOpaqueSections(buildSnapshotSchema()),
  withOpaqueSections(buildBaselineSchema()),
  buildBaselineV1Schema(),
  buildConfigSchema(),
  reportSchema,
  reportFrameSchema,
  // The three kinds of line of a history file.
  historyHeaderSchema,
  historyKeysSchema,
  historyPointSchema,
];

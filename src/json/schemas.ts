// Every JSON Schema this tool validates with, by the file name of its published copy under schemas/.
import { buildConfigSchema } from '../gate/config-schema.js';
import { historySchema } from '../history/schema.js';
import { reportSchema } from '../report/report-schema.js';
import { buildBaselineSchema, buildSnapshotSchema } from '../model/sections/schema.js';

export const PUBLISHED_SCHEMAS: Readonly<Record<string, unknown>> = {
  'baseline.schema.json': buildBaselineSchema(),
  'config.schema.json': buildConfigSchema(),
  'history.schema.json': historySchema,
  'report.schema.json': reportSchema,
  'snapshot.schema.json': buildSnapshotSchema(),
};

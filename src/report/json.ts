// The `--report` JSON: written with every status counted, and read back from untrusted uploads only through the schema.
import { SchemaError } from '../errors.js';
import type { GateReport } from '../gate/types.js';
import { compileSchema, parseJson } from '../json-schema.js';
import { stableStringify } from '../snapshot.js';
import { shortenName } from './names.js';
import { MAX_KEY_LENGTH, REPORT_STATUSES, reportSchema } from './report-schema.js';

/** Optional context written next to the verdicts. */
export interface ReportExtras {
  /** The baseline file the run compared against, as the user named it. */
  baselineFile?: string;
  /** ISO 8601 time of the run, e.g. `2026-06-13T17:00:34Z`. Left out unless given, so output stays reproducible. */
  generatedAt?: string;
}

/** A parsed report: the gate's verdicts plus whatever extras the writer added. */
export type ReportDocument = GateReport & ReportExtras;

/** The report as stable JSON; counts list every known status (0 when absent). Throws SchemaError if it could not be read back. */
export function renderJsonReport(report: GateReport, extra: ReportExtras = {}): string {
  const counts: Record<string, number> = Object.fromEntries(REPORT_STATUSES.map((status) => [status, 0]));
  for (const [status, n] of Object.entries(report.counts)) if (n !== undefined) counts[status] = n;
  const document = {
    result: report.result,
    counts,
    entries: report.entries.map((e) => ({
      kind: e.kind,
      // The schema bounds keys (an untrusted upload must not be unbounded): longer ones are written shortened, hashed.
      key: shortenName(e.key, MAX_KEY_LENGTH),
      baseline: e.baseline,
      current: e.current,
      delta: e.delta,
      percent: e.percent,
      status: e.status,
      severity: e.severity,
      rule: e.rule === null ? null : shortenName(e.rule, MAX_KEY_LENGTH),
      ...(e.unit !== undefined ? { unit: e.unit } : {}),
      ...(e.limit !== undefined ? { limit: e.limit } : {}),
      ...(e.note !== undefined ? { note: e.note } : {}),
    })),
    ...(report.environment !== undefined ? { environment: report.environment } : {}),
    ...(report.missingArtifacts !== undefined ? { missingArtifacts: report.missingArtifacts } : {}),
    ...(extra.baselineFile !== undefined ? { baselineFile: extra.baselineFile } : {}),
    ...(extra.generatedAt !== undefined ? { generatedAt: extra.generatedAt } : {}),
  };
  // Refuse to write what the comment job would refuse to read: the error surfaces in the run that caused it.
  checkReport(document, 'report');
  return stableStringify(document);
}

/**
 * Reads a report that may come from an untrusted pull-request run: JSON, then the schema (no extra fields, bounded
 * strings and entry count, integer byte counts, known statuses), then counts and result agreeing with the entries.
 */
export function parseReportJson(text: string, file: string): ReportDocument {
  return checkReport(parseJson(text, file), file);
}

// The first error only: a hostile file must not make ajv collect millions.
const validateReport = compileSchema<ReportDocument>(reportSchema);

function checkReport(untrusted: unknown, file: string): ReportDocument {
  const data = validateReport(untrusted, file);
  const seen = new Map<string, number>();
  let firstFailing = -1;
  data.entries.forEach((entry, i) => {
    seen.set(entry.status, (seen.get(entry.status) ?? 0) + 1);
    if (firstFailing === -1 && entry.severity === 'fail') firstFailing = i;
  });
  for (const status of REPORT_STATUSES) {
    const counted = data.counts[status] ?? 0;
    const listed = seen.get(status) ?? 0;
    if (counted !== listed) {
      throw new SchemaError(file, `/counts/${status}`, `is ${counted} but ${listed} ${listed === 1 ? 'entry has' : 'entries have'} status '${status}'`);
    }
  }
  if (data.result === 'pass' && firstFailing !== -1) {
    throw new SchemaError(file, '/result', `is 'pass' but /entries/${firstFailing} has severity 'fail'`);
  }
  return data;
}

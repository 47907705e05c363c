// The gate from snapshot to report: loads baseline and thresholds, compares. Shared by the CLI and the Action.
import { InputError } from '../common/errors.js';
import { releaseParsedTexts } from '../json/parsed-texts.js';
import { hasNoMetrics, type SkippedRecord, type Snapshot } from '../model/snapshot.js';
import { loadBaseline, type Baseline } from './baseline.js';
import { compareSnapshots } from './compare.js';
import { applyEnvironment, compareEnvironments, runEnvironmentOf } from './environment.js';
import { applyMaxIncrease, loadGateConfig, parseMaxIncrease } from './thresholds.js';
import type { GateConfig, GateReport, NoiseLookup, NotRead, RecordNotRead } from './types.js';

export interface GateRequest {
  snapshot: Snapshot;
  baselinePath: string;
  /** undefined = `.github/memory-gate.json` when it exists. */
  configPath: string | undefined;
  maxIncrease: string | undefined;
  /** A missing baseline file is an error unless this is set (the Action's and the CLI's first run). */
  allowMissingBaseline: boolean;
  /** Already read (a pull request's base commit): used instead of reading baselinePath and configPath. */
  limits?: { baseline: Baseline | null; config: GateConfig };
  /** The default branch's history, for the noise band when the config asks for one (`history`). */
  noise?: NoiseLookup;
  /** What the readers skipped: every report counts it (notReadOf). */
  notRead?: NotRead;
}

/** Records shown by name in a report; the rest are counted. */
const NOT_READ_SHOWN = 10;
/** A reason is one line of a report. */
const REASON_CHARS = 300;

/** The records a run skipped, for the reports: the count, the first few, and the files cut off at their end; undefined when none. */
export function notReadOf(skipped: number, records: readonly SkippedRecord[]): NotRead | undefined {
  if (skipped === 0 && records.length === 0) return undefined;
  const shown = (r: SkippedRecord): RecordNotRead => ({
    file: r.file,
    line: r.line,
    reason: r.reason.length > REASON_CHARS ? `${r.reason.slice(0, REASON_CHARS - 1)}…` : r.reason,
  });
  return {
    count: Math.max(skipped, records.length),
    sample: records.slice(0, NOT_READ_SHOWN).map(shown),
    cut: records
      .filter((r) => r.cut === true)
      .slice(0, NOT_READ_SHOWN)
      .map(shown),
  };
}

export interface GateOutcome {
  report: GateReport;
  config: GateConfig;
  baseline: Baseline | null;
}

export async function runGate(request: GateRequest): Promise<GateOutcome> {
  let config = request.limits?.config ?? (await loadGateConfig(request.configPath));
  if (request.maxIncrease !== undefined) config = applyMaxIncrease(config, parseMaxIncrease(request.maxIncrease));
  const baseline = request.limits ? request.limits.baseline : await loadBaseline(request.baselinePath);
  if (baseline === null && !request.allowMissingBaseline) {
    throw new InputError(
      `baseline ${request.baselinePath} does not exist: create it with 'ascend-memory-gate baseline --out ${request.baselinePath}' (or the Action's mode: update) and commit it`,
    );
  }
  // Both documents are parsed and their texts dropped: free them before the entries are built (src/json/parsed-texts.ts).
  releaseParsedTexts();
  const compared = compareSnapshots(baseline ?? { sections: {} }, request.snapshot, config, request.noise);
  const judged = applyEnvironment(
    compared,
    compareEnvironments(runEnvironmentOf(baseline?.meta), runEnvironmentOf(request.snapshot.meta), config.environment),
  );
  const report = request.notRead === undefined ? judged : { ...judged, notRead: request.notRead };
  // A first run passes with "No baseline yet" unless the config keeps the gate closed until a baseline exists.
  if (config.onMissingBaseline === 'fail' && (baseline === null || hasNoMetrics(baseline)))
    return { report: { ...report, result: 'fail' }, config, baseline };
  return { report, config, baseline };
}

// The gate from snapshot to report: loads baseline and thresholds, compares. Shared by the CLI and the Action.
import { InputError } from '../common/errors.js';
import { releaseParsedTexts } from '../json/parsed-texts.js';
import { hasNoMetrics, type Snapshot } from '../model/snapshot.js';
import { loadBaseline, type Baseline } from './baseline.js';
import { compareSnapshots } from './compare.js';
import { applyEnvironment, compareEnvironments, runEnvironmentOf } from './environment.js';
import { applyMaxIncrease, loadGateConfig, parseMaxIncrease } from './thresholds.js';
import type { GateConfig, GateReport, NoiseLookup } from './types.js';

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
  const report = applyEnvironment(compared, compareEnvironments(runEnvironmentOf(baseline?.meta), runEnvironmentOf(request.snapshot.meta), config.environment));
  // A first run passes with "No baseline yet" unless the config keeps the gate closed until a baseline exists.
  if (config.onMissingBaseline === 'fail' && (baseline === null || hasNoMetrics(baseline))) return { report: { ...report, result: 'fail' }, config, baseline };
  return { report, config, baseline };
}

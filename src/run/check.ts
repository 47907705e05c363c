// The pipeline's judging step for both entries: the history read first for the noise band, the gate run with it, and
// the trends the reports show (of the history as read, or as written when this run recorded its point).
import { foldedSitesNotice } from '../gate/baseline.js';
import { notReadOf, runGate, type GateOutcome, type GateRequest } from '../gate/run-gate.js';
import type { Collected } from '../parsers/collect.js';
import type { History } from '../history/format.js';
import type { Trends } from '../history/trends.js';

/** One typed request for the judging step, whichever entry makes it. */
export interface CheckRequest {
  /** What collect read: the snapshot, and the records it skipped (every report counts them). */
  collected: Pick<Collected, 'snapshot' | 'skippedRecords'>;
  /** The default branch's history as read, or null: its series give the noise band and the trends. */
  history: History | null;
  /** The baseline file; a missing one is a first run. */
  baseline: string;
  /** The thresholds file; undefined = `.github/memory-gate.json` when it exists. */
  config: string | undefined;
  maxIncrease: string | undefined;
  /** The baseline and config already read (a change request's base commit's), used instead of the files. */
  limits?: GateRequest['limits'];
}

export interface Checked extends GateOutcome {
  /** The notice for a baseline whose allocation sites were folded, or null. */
  folded: string | null;
  /**
   * The reports' trends: of the history as read (reusing the noise band's series), or of `history` afresh when this
   * run recorded its point on it; undefined without a history.
   */
  trends(history: History | null, recorded: boolean): Promise<Trends | undefined>;
}

/** Runs the gate on a collected run, with the noise band of the history when there is one. */
export async function check(request: CheckRequest): Promise<Checked> {
  const { snapshot, skippedRecords } = request.collected;
  const notRead = notReadOf(snapshot.meta.skipped, skippedRecords);
  // Loaded only with a history: a first run never loads the series code.
  const trendsModule = request.history === null ? undefined : await import('../history/trends.js');
  // One set of series for the noise band and, unless this run records a point, the report's trends.
  const read = request.history === null ? undefined : trendsModule?.trendsOf(request.history);
  const gated = await runGate({
    snapshot,
    baselinePath: request.baseline,
    configPath: request.config,
    maxIncrease: request.maxIncrease,
    // A missing baseline file is a first run, said on the verdict line (each entry decides what it does then).
    allowMissingBaseline: true,
    ...(request.limits !== undefined ? { limits: request.limits } : {}),
    ...(read !== undefined ? { noise: read.noise } : {}),
    ...(notRead !== undefined ? { notRead } : {}),
  });
  return {
    ...gated,
    folded: foldedSitesNotice(gated.baseline, request.baseline),
    trends: async (history, recorded) => {
      if (history === null) return undefined;
      if (!recorded && read !== undefined) return read.withConfig(gated.config);
      return (trendsModule ?? (await import('../history/trends.js'))).trendsOf(history, gated.config);
    },
  };
}

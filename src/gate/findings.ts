// The verdicts beyond the baseline comparison, as a list of assessors: a new verdict is one assessor here.
import { assessDevices } from './devices.js';
import { stepLeakFindings, unfreedFindings } from './memscope-findings.js';
import { assessGrowing } from './growth.js';
import type { GateInput } from './compare.js';
import type { Entry, GateConfig } from './types.js';

/** What an assessor sees: both sides whole (sections, series, meta) and the config. */
export interface FindingContext {
  baseline: GateInput;
  current: GateInput;
  config: GateConfig;
}

/**
 * Findings about this run. An entry whose kind and key are a section key's follows that key's verdict in the report;
 * others (kind `device`) come after every key. An assessor returns its entries already in the order to show them.
 */
export type FindingAssessor = (context: FindingContext) => Entry[];

/** Headroom, allocation failures, leak suspects, reference costs and imbalance (devices.ts). */
const deviceFindings: FindingAssessor = ({ baseline, current, config }) => {
  const { moduleFindings, deviceEntries } = assessDevices(baseline, current, config);
  return [...moduleFindings, ...deviceEntries];
};

/** Every assessor, in the order their entries are listed. */
export const FINDINGS: readonly FindingAssessor[] = [deviceFindings, assessGrowing, stepLeakFindings, unfreedFindings];

// The verdicts beyond the baseline comparison, as a list of assessors: a new verdict is one assessor here.
import { assessDevices } from './devices.js';
import { stepLeakFindings, unfreedFindings } from './memscope.js';
import { assessGrowing } from './growth.js';
import { fragmentedFindings, oomFindings } from './memory-snapshot.js';
import type { FindingAssessor } from '../types.js';

/** Headroom, allocation failures, leak suspects, reference costs and imbalance (devices.ts). */
const deviceFindings: FindingAssessor = ({ baseline, current, config }) => {
  const { moduleFindings, deviceEntries } = assessDevices(baseline, current, config);
  return [...moduleFindings, ...deviceEntries];
};

/** Every assessor, in the order their entries are listed. */
export const FINDINGS: readonly FindingAssessor[] = [deviceFindings, oomFindings, fragmentedFindings, assessGrowing, stepLeakFindings, unfreedFindings];

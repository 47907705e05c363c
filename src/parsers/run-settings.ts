// What a run says beyond its files, for the sources whose figures depend on the whole run (evidence-sources.ts `finish`).
import type { OomRuleSettings } from '../model/oom-cause.js';
import type { SourceRoot } from './memory-snapshot/source-root.js';

export interface RunSettings {
  /** Where the user's code is, for memory snapshots' allocation sites (`--source-root`, or the Action's workspace). */
  sourceRoot?: SourceRoot;
  /** Device capacities and the fragmentation share from the config (`--config`, `--capacity`), for OOM causes decided at parse time. */
  oom?: OomRuleSettings;
}

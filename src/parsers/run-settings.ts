// What a run says beyond its files, for the sources whose figures depend on the whole run (evidence-sources.ts `finish`).
import type { OomRuleSettings } from '../model/oom-cause.js';

export interface RunSettings {
  /** The sources' own run options as given, by name (evidence-sources.ts `runOptions`): each source declares and reads its own. */
  options?: Readonly<Record<string, string>>;
  /** The checkout this run is of, when the entry knows it (the Action's workspace): sources may write paths relative to it. */
  checkout?: string;
  /** Device capacities and the fragmentation share from the config (`--config`, `--capacity`), for OOM causes decided at parse time. */
  oom?: OomRuleSettings;
}

// A baseline that shares no key with this run (another input, renamed keys): nothing was compared, so no pass was earned.
import type { DisjointBaseline, Entry, GateConfig } from './types.js';

/**
 * From the section verdicts (findings left out), in report order: each side's key count and first key when both sides
 * have keys and no key is on both; null otherwise (a first run has no baseline side, and is said as such).
 */
export function disjointOf(
  verdicts: readonly Entry[],
  config: Pick<GateConfig, 'onDisjointBaseline'>,
): DisjointBaseline | null {
  let baselineKeys = 0;
  let runKeys = 0;
  let baselineFirst: Entry | undefined;
  let runFirst: Entry | undefined;
  for (const entry of verdicts) {
    const inBaseline = entry.baseline !== null;
    const inRun = entry.current !== null;
    if (inBaseline && inRun) return null;
    if (inBaseline) {
      baselineKeys++;
      baselineFirst ??= entry;
    }
    if (inRun) {
      runKeys++;
      runFirst ??= entry;
    }
  }
  if (baselineFirst === undefined || runFirst === undefined) return null;
  return {
    severity: config.onDisjointBaseline,
    baseline: { keys: baselineKeys, first: `${baselineFirst.kind} ${baselineFirst.key}` },
    run: { keys: runKeys, first: `${runFirst.kind} ${runFirst.key}` },
  };
}

/** The one line that says so, for the verdict line and the report's block. */
export function disjointText(d: DisjointBaseline): string {
  return (
    `the baseline shares no key with this run, so nothing was compared (baseline: ${d.baseline.keys} key(s), first ${d.baseline.first}; ` +
    `this run: ${d.run.keys} key(s), first ${d.run.first})`
  );
}

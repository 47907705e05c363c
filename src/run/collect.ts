// The pipeline's first step for both entries: every source's inputs resolved into files, parsed into one snapshot, with
// the malformed records warned about and (when asked) this machine added as a node with its environment.
import { collectSnapshot, type Collected } from '../parsers/collect.js';
import { RUN_OPTIONS, SOURCES, type EvidenceSource, type SpecsBySource } from '../parsers/evidence-sources.js';
import type { RunSettings } from '../parsers/run-settings.js';
import { describeSearches, resolveAllInputs } from '../sources/local.js';
import { visible } from '../common/visible.js';
import type { Snapshot } from '../model/snapshot.js';

/** Where the pipeline's messages go: each entry words and routes them its own way. */
export interface RunLog {
  /** A warning (the CLI's `warning: …` on stderr, the Action's annotation). */
  warn(text: string): void;
  /** What a step found out (the environment's notes): stderr, or the Action's log. */
  note(text: string): void;
  /** How the work goes ("Parsing …"), when the entry shows it. */
  progress?(text: string): void;
}

/** This machine as a node of the run: its environment probed when `collect`, plus the given items. */
export interface NodeRequest {
  /** `KEY=VALUE` items as given, and how an error names where they came from (`--env`, `'environment'`). */
  items: readonly string[];
  itemsFrom: string;
  collect: boolean;
  /** The node's name (default NODE_NAME, else the host name). */
  name?: string;
}

/** One typed request for the first step, whichever entry makes it. */
export interface CollectRequest {
  /** Each source's paths, directories or globs, by source name. */
  specs: SpecsBySource;
  /** The folder relative paths are resolved in. */
  root: string;
  /** How messages name a source's input: `--plog` (the default) or `'plog'`. */
  nameOf?: (source: EvidenceSource) => string;
  /** A source's input whose paths match nothing, while others found files: stop (default), warn, or ignore. */
  unmatched?: 'fail' | 'warn' | 'ignore';
  /** Where the user reads what a folder is searched for (default: the CLI's --help). */
  searchHelp?: string;
  /** The sources' own run options as given, by name (RUN_OPTIONS); others are left out. */
  sourceOptions?: Readonly<Record<string, string | undefined>>;
  /** Run settings beyond the sources' own options: the checkout, OOM settings. */
  settings?: Omit<RunSettings, 'options'>;
  /** Malformed records shown one by one before "N more" (the Action keeps 10 annotations per step). */
  skippedShown: number;
  /** This machine as a node; leave it out to add it later (addThisNode) or never. */
  node?: NodeRequest;
}

/** Reads every source's inputs into one snapshot (see CollectRequest), warning about what was skipped. */
export async function collect(request: CollectRequest, log: RunLog): Promise<Collected> {
  const { specs, nameOf } = request;
  const files = await resolveAllInputs(specs, request.root, (message) => log.warn(visible(message)), nameOf, {
    unmatched: request.unmatched,
    searchHelp: request.searchHelp,
  });
  log.progress?.(progressLine(files));
  const options = Object.fromEntries(
    RUN_OPTIONS.flatMap((o) => {
      const value = request.sourceOptions?.[o.name];
      return value === undefined ? [] : [[o.name, value]];
    }),
  );
  const collected = await collectSnapshot({
    files,
    searched: describeSearches(specs, nameOf),
    searchHelp: request.searchHelp,
    run: { ...request.settings, options },
  });
  warnSkipped(collected, request.skippedShown, log);
  if (request.node === undefined) return collected;
  return { ...collected, snapshot: await addThisNode(collected.snapshot, request.node, log) };
}

/** "Parsing 3 plog file(s), 0 memory_compare file(s), …" */
function progressLine(files: Readonly<Record<string, readonly unknown[]>>): string {
  return `Parsing ${SOURCES.map((s) => `${files[s.name]?.length ?? 0} ${s.label} file(s)`).join(', ')}`;
}

/** The readers' notes, then the first malformed records and a count of the rest: a few examples, not one per record. */
function warnSkipped(collected: Collected, shown: number, log: RunLog): void {
  for (const n of collected.notes) log.warn(visible(`${n.file}:${n.line}: ${n.reason}`));
  const examples = collected.skippedRecords.slice(0, shown);
  for (const r of examples) log.warn(`${visible(`${r.file}:${r.line}: ${r.reason}`)} (skipped)`);
  const more = collected.snapshot.meta.skipped - examples.length;
  if (more > 0) log.warn(`${more} more malformed record(s) skipped`);
}

/** This machine added as a node of the snapshot (unchanged when neither items nor probing are asked for). */
export async function addThisNode(snapshot: Snapshot, node: NodeRequest, log: RunLog): Promise<Snapshot> {
  // Loaded only when needed: probing the machine is a node's business, not every run's.
  const { parseEnvironmentPairs, withThisNode } = await import('../sources/node-environment.js');
  return withThisNode(
    snapshot,
    {
      env: process.env,
      extra: parseEnvironmentPairs(node.items, node.itemsFrom),
      collect: node.collect,
      ...(node.name !== undefined ? { node: node.name } : {}),
    },
    (line) => log.note(line),
  );
}

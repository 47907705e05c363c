// The evidence sources `dump` (--dump, memscope-dump) and `dumpBase` (memscope-dump-base): msMemScope dumps into a snapshot.
import { createHash } from 'node:crypto';
import { InputError } from '../../common/errors.js';
import { OOM_FIELD_DEFAULTS, oomCause, withOomCauses } from '../../model/oom-cause.js';
import { inefficient } from '../../model/sections/inefficient.js';
import { opFootprint } from '../../model/sections/op-footprint.js';
import { ooms } from '../../model/sections/ooms.js';
import { owners } from '../../model/sections/owners.js';
import { stepLeaks } from '../../model/sections/step-leaks.js';
import { steps } from '../../model/sections/steps.js';
import { unfreed } from '../../model/sections/unfreed.js';
import type { Snapshot, SnapshotBuilder } from '../../model/snapshot.js';
import type { InputFile } from '../../sources/types.js';
import type { RunSettings } from '../run-settings.js';
import { parseMemoryCompareText } from '../memory-compare.js';
import { compareDumpFiles } from './compare-dumps.js';
import { readDumpFacts } from './dump-facts.js';
import { dumpFigures } from './dump-metrics.js';
import type { DumpWarning } from './dump-reader.js';

/** Rows that were skipped become skipped records; anything else (the µs unit, a row msMemScope would reject) a note: both warn with file:line. */
function skippedInto(into: SnapshotBuilder): (w: DumpWarning) => void {
  return (w) => {
    const m = /^(.*?) \((?:rows of it are )?skipped[^)]*\)$/s.exec(w.reason);
    if (m !== null)
      into.addSkipped({
        file: w.file,
        line: w.line,
        reason: m[1] as string,
        ...(w.cut === true ? { cut: true as const } : {}),
      });
    else into.addNote({ file: w.file, line: w.line, reason: w.reason });
  };
}

/** One dump: steps (with per-step series), step leaks, unfreed, owners, op footprint and inefficient memory. */
export async function parseDumpFile(file: InputFile, into: SnapshotBuilder): Promise<void> {
  const facts = await readDumpFacts(file.path, file.name, skippedInto(into));
  into.files++;
  into.records += facts.rows;
  const figures = dumpFigures(facts);
  const m = figures.metrics;
  for (const [key, metric] of m.steps) into.add(steps, key, metric);
  for (const [key, metric] of m.unfreed) into.add(unfreed, key, metric);
  for (const [key, metric] of m.owners) into.add(owners, key, metric);
  for (const [key, metric] of m.opFootprint) into.add(opFootprint, key, metric);
  for (const [key, metric] of m.inefficient) into.add(inefficient, key, metric);
  for (const s of figures.samples) into.addSample(s.section, s.key, 'step', s.step, s.bytes);
  for (const leak of figures.stepLeaks) {
    into.add(stepLeaks, `${leak.device}/${leak.pool}`, {
      bytes: leak.bytes,
      blocks: leak.count,
      top: leak.top.join('; '),
    });
  }
  for (const oom of facts.ooms) {
    // Keyed by the dump's name and the row's own cells, so one OOM is one key whatever the row order.
    const id = createHash('sha256')
      .update(file.name)
      .update('\0')
      .update(`${oom.pid}|${oom.timestamp}|${oom.requested}`)
      .digest('hex')
      .slice(0, 8);
    into.add(ooms, `${oom.device}/dump-${id}`, {
      ...OOM_FIELD_DEFAULTS,
      requested: oom.requested,
      // The row has R only: the rule says unknown here; finish decides again with a configured device capacity as T.
      cause: oomCause({ requested: oom.requested, total: null, deviceFree: null, allocated: null, reserved: null })
        .cause,
      source: 'msMemScope dump',
      precision: 'exact',
      line: oom.line,
      file: file.name,
      logicalDevice: oom.logicalDevice,
    });
    into.noteDevice(oom.device);
  }
  if (facts.droppedOoms > 0)
    into.addNote({
      file: file.name,
      line: 0,
      reason: `${facts.droppedOoms} more OOM_TRIGGER rows than the ${facts.ooms.length} kept were not read into the report`,
    });
  for (const device of facts.devices) into.noteDevice(device);
}

/** Once per run, on the built snapshot: every OOM's cause, with the run's device capacity (T) and fragmentation share when given. */
export function finishDumps(snapshot: Snapshot, run: RunSettings): Snapshot {
  return withOomCauses(snapshot, run.oom);
}

/** A base dump is read only with its current dump, in `combine`. */
export async function parseBaseDumpFile(): Promise<void> {}

/**
 * With base dumps (`memscope-dump-base`) and current dumps (`memscope-dump`): compare-dumps on each pair, in process,
 * folded in exactly as the memory_compare CSV msMemScope would have written (section `kernels`). Pairs are made by
 * sorted path: one base per current dump.
 */
export async function compareBaseDumps(
  files: Readonly<Record<string, readonly InputFile[]>>,
  into: SnapshotBuilder,
): Promise<void> {
  const bases = [...(files.dumpBase ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const currents = [...(files.dump ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (bases.length === 0) return;
  // One search found the same files for both (the Action searching everything it downloaded): no base was given.
  if (bases.length === currents.length && bases.every((b, i) => b.path === currents[i]?.path)) return;
  if (bases.length !== currents.length) {
    throw new InputError(
      `memscope-dump-base has ${bases.length} dump(s) but memscope-dump has ${currents.length}: give one base dump per dump (they are paired in sorted path order)`,
    );
  }
  for (let i = 0; i < bases.length; i++) {
    const base = bases[i] as InputFile;
    const current = currents[i] as InputFile;
    const result = await compareDumpFiles(base, current, { onWarning: skippedInto(into) });
    parseMemoryCompareText(`compare-dumps ${base.name} ${current.name}`, result.csv, into);
  }
}

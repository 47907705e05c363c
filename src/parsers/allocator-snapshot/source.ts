// The evidence source `memorySnapshot` (--memory-snapshot, memory-snapshot): torch_npu allocator snapshots into the snapshot's sections.
import { statSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../../common/errors.js';
import { inflatePickle, isCompressed } from '../compressed.js';
import { OOM_FIELD_DEFAULTS, withOomCauses } from '../../model/oom-cause.js';
import type { Snapshot, SnapshotBuilder } from '../../model/snapshot.js';
import type { InputFile } from '../../sources/types.js';
import type { RunSettings } from '../run-settings.js';
import type { LiveSites, SiteBytes } from './allocator-walk.js';
import { allocationSites, linesField, type SiteLine } from '../../model/sections/allocation-sites.js';
import { allocator } from '../../model/sections/allocator.js';
import { ooms } from '../../model/sections/ooms.js';
import { isMemUsageFile, memUsageBeside, parseMemUsageFile } from './mem-usage.js';
import { commonFolder, relativeFile, relativeSite, UNKNOWN_SITE } from './sites.js';
import { snapshotFigures, type SnapshotDevice, type SnapshotFigures } from './snapshot-figures.js';
import { relativeToSourceRoot, type SourceRoot } from './source-root.js';

/** Sites named in an OOM's note. */
const OOM_SITES = 5;

/**
 * One file: a snapshot pickle (its devices' allocator figures, timelines, allocation sites and OOMs, and the
 * memUsageInfo tables torch_npu wrote beside an OOM dump), or such a table named on its own.
 */
export async function parseAllocatorSnapshotFile(file: InputFile, into: SnapshotBuilder): Promise<void> {
  if (isMemUsageFile(file.name)) {
    readable(() => parseMemUsageFile(file.path, file.name, into), file.name);
    return;
  }
  const figures = await readSnapshotFigures(file);
  into.files++;
  into.records += figures.segments;
  const root = userCodeRoot(figures.devices);
  const oomDevices = new Set<number>();
  for (const d of figures.devices) {
    into.records += d.traceEntries;
    const dev = `dev${d.device}`;
    const origin = { file: file.name, logicalDevice: d.device, visibleDevices: null };
    const dump = {
      traceEntries: d.traceEntries,
      segments: d.dump.segments,
      largestSegment: d.dump.largestSegment,
      largestFreeBlock: d.dump.largestFreeBlock,
    };
    const a = d.peakAllocated;
    const r = d.peakReserved;
    // One definition of allocated bytes throughout: requested bytes (the walk's); allocated_size is block-rounded.
    into.add(allocator, `${dev}/allocated`, {
      peak: a.bytes,
      atDump: d.dump.liveRequested,
      allocated: a.bytes,
      reserved: a.reserved,
      point: a.point,
      ...dump,
      ...origin,
    });
    into.add(allocator, `${dev}/reserved`, {
      peak: r.bytes,
      atDump: d.dump.reserved,
      allocated: r.allocated,
      reserved: r.bytes,
      point: r.point,
      ...dump,
      ...origin,
    });
    if (d.timeline !== null) {
      into.addSeries(allocator.name, `${dev}/allocated`, d.timeline.allocated);
      into.addSeries(allocator.name, `${dev}/reserved`, d.timeline.reserved);
    }
    for (const [site, metric] of functionSites(d.sites, root, file.name))
      into.add(allocationSites, `${dev}/${site}`, { ...metric, ...origin });
    if (d.ooms.length > 0) oomDevices.add(d.device);
    addDeviceOoms(into, d, origin, root);
  }
  // torch_npu writes its module table into OOM_SNAPSHOT_PATH, beside OOM dumps only.
  if (oomDevices.size > 0)
    for (const table of memUsageBeside(file.path, file.name, oomDevices))
      readable(() => parseMemUsageFile(table.path, table.name, into), table.name);
}

/** A `.gz` snapshot is read from an inflated private copy (the reader reads at offsets), removed once read. */
async function readSnapshotFigures(file: InputFile): Promise<SnapshotFigures> {
  return isCompressed(file.path)
    ? await readable(
        () =>
          inflatePickle(file.path, file.name, (inflated) =>
            snapshotFigures(inflated, file.name, statSync(inflated).size),
          ),
        file.name,
      )
    : readable(() => snapshotFigures(file.path, file.name, file.size ?? statSync(file.path).size), file.name);
}

/**
 * The folder common to every user frame of the counted blocks' stacks (the script's folder and below): site paths are
 * relative to it, so a baseline made on another machine, or under another user, gets the same keys.
 */
function userCodeRoot(devices: readonly SnapshotDevice[]): string | null {
  const userFiles = new Set<string>();
  for (const d of devices) {
    for (const file of d.sites.userFiles) userFiles.add(file);
    for (const o of d.ooms) for (const file of o.sites?.userFiles ?? []) userFiles.add(file);
  }
  return commonFolder(userFiles);
}

/** The device's OOMs (`devN/oomI`), each with the largest free block at the dump and its top sites. */
function addDeviceOoms(
  into: SnapshotBuilder,
  d: SnapshotDevice,
  origin: { file: string; logicalDevice: number; visibleDevices: null },
  root: string | null,
): void {
  const dev = `dev${d.device}`;
  d.ooms.forEach((o, i) => {
    const largest = d.dump.largestFreeBlock;
    into.add(ooms, `${dev}/oom${i + 1}`, {
      ...OOM_FIELD_DEFAULTS,
      requested: o.size,
      deviceFree: o.deviceFree,
      allocated: o.allocated,
      reserved: o.reserved,
      largestFreeBlock: largest,
      entriesAfter: o.entriesAfter,
      sites: JSON.stringify(
        o.sites === null
          ? []
          : topSites(o.sites.sites).map(([recorded, bytes]) => {
              const { site, codeRoot } = relativeSite(recorded, root);
              return [site, bytes, codeRoot];
            }),
      ),
      ...origin,
    });
  });
}

/** Once per run, on the built snapshot: site paths moved to the source root, when the run names one; every OOM's cause. */
export function finishAllocatorSnapshots(snapshot: Snapshot, run: RunSettings): Snapshot {
  const sourceRoot = sourceRootOf(run);
  return withOomCauses(sourceRoot === undefined ? snapshot : relativeToSourceRoot(snapshot, sourceRoot), run.oom);
}

/** `--source-root` (always used), else the checkout (used when some site lies under it), else none. */
function sourceRootOf(run: RunSettings): SourceRoot | undefined {
  const given = run.options?.['source-root'];
  if (given !== undefined) return { path: path.resolve(given), strict: true };
  return run.checkout === undefined ? undefined : { path: run.checkout, strict: false };
}

/**
 * A live set's sites by function (`model/attention.py forward`), the file relative to `root`: bytes and blocks summed
 * over the function's lines, which are kept with their bytes. A line that moves within its function changes no key.
 */
function functionSites(
  live: LiveSites,
  root: string | null,
  name: string,
): Map<string, { bytes: number; blocks: number; lines: string; codeRoot: string }> {
  const grouped = new Map<string, { bytes: number; blocks: number; lines: Map<number, SiteLine>; codeRoot: string }>();
  for (const [recorded, { bytes, blocks }] of live.sites) {
    const frame = live.frames.get(recorded);
    const where = frame === undefined ? { file: '', codeRoot: '' } : relativeFile(frame.file, root);
    const site = frame === undefined ? UNKNOWN_SITE : `${where.file} ${frame.name}`;
    let g = grouped.get(site);
    if (g === undefined) grouped.set(site, (g = { bytes: 0, blocks: 0, lines: new Map(), codeRoot: where.codeRoot }));
    g.bytes = exactBytes(g.bytes + bytes, site, name);
    g.blocks += blocks;
    if (frame !== undefined) {
      const line = g.lines.get(frame.line);
      // One line of one function is one site unless its name differs only by a space ('a b' and 'a_b'): summed.
      g.lines.set(
        frame.line,
        line === undefined
          ? [frame.line, bytes, blocks]
          : [frame.line, exactBytes(line[1] + bytes, site, name), line[2] + blocks],
      );
    }
  }
  return new Map(
    [...grouped].map(([site, g]) => [
      site,
      { bytes: g.bytes, blocks: g.blocks, lines: linesField(g.lines.values()), codeRoot: g.codeRoot },
    ]),
  );
}

function exactBytes(sum: number, site: string, name: string): number {
  if (!Number.isSafeInteger(sum))
    throw new InputError(`${name}: the bytes of site ${site} pass 2^53 - 1 and cannot be counted exactly`);
  return sum;
}

function topSites(sites: SiteBytes): [string, number][] {
  return [...sites]
    .map(([site, { bytes }]): [string, number] => [site, bytes])
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, OOM_SITES);
}

/** A read that the file's mode forbids gets the reason torch_npu's snapshots have it, and the fix. */
function readable<T>(read: () => T, name: string): T {
  try {
    const value = read();
    // An inflated `.gz` is read asynchronously: its EACCES is rejected, not thrown.
    return (
      value instanceof Promise ? value.catch((error: unknown) => Promise.reject(permission(error, name))) : value
    ) as T;
  } catch (error) {
    throw permission(error, name);
  }
}

function permission(error: unknown, name: string): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'EACCES') return error;
  return new InputError(
    `${name}: permission denied: torch_npu's release branches write memory snapshots with mode 0200 (not even their owner may read them); add \`chmod u+r ${name}\` (or \`chmod -R u+r\` on its folder) to the training step after the dump`,
  );
}

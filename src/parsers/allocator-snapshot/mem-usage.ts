// torch_npu's module table at an OOM (device_<N>_memUsageInfo_<YYYYmmddHHMMSS>.csv), and finding the one beside an OOM dump.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../../common/errors.js';
import { oomModules } from '../../model/sections/oom-modules.js';
import type { SnapshotBuilder } from '../../model/snapshot.js';
import { decimalBytes, MIB } from '../profiler/decimal.js';

const HEADER = 'moduleName,curMemSize(MB),memPeakSize(MB)';
const NAME = /^device_(\d{1,9})_memUsageInfo_(\d{14})\.csv$/;
/** torch_npu's OOM dump: oom_snapshot_<pid>_<YYYYmmddHHMMSS>.pickle. */
const OOM_DUMP = /_(\d{14})\.(?:pickle|pkl)$/;
/** The table is written right after the pickle, in the same _dump_snapshot call: seconds apart at most. */
const PAIRING_SECONDS = 60;

export function isMemUsageFile(name: string): boolean {
  return NAME.test(path.basename(name));
}

/** Reads one table into `into`: `dev<N>/<module>` of section oomModules, N as the file names it (the process's logical index). */
export function parseMemUsageFile(filePath: string, name: string, into: SnapshotBuilder): void {
  const m = NAME.exec(path.basename(name));
  if (m === null)
    throw new InputError(`${name}: not a torch_npu memUsageInfo table (device_<N>_memUsageInfo_<YYYYmmddHHMMSS>.csv)`);
  const device = Number(m[1]);
  const lines = readFileSync(filePath, 'utf8')
    .replace(/^\ufeff/, '')
    .split(/\r?\n/);
  if (lines[0] !== HEADER)
    throw new InputError(`${name}:1: the header is not ${HEADER}: not a torch_npu memUsageInfo table`);
  into.files++;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') continue;
    // Module names hold no comma in torch_npu's table; the two sizes are the last two fields.
    const cells = line.split(',');
    const peakText = cells.pop() ?? '';
    const currentText = cells.pop() ?? '';
    const module = cells.join(',');
    const current = decimalBytes(currentText, MIB);
    const peak = decimalBytes(peakText, MIB);
    if (module === '' || typeof current !== 'number' || typeof peak !== 'number') {
      into.addSkipped({ file: name, line: i + 1, reason: 'not a `module,curMemSize(MB),memPeakSize(MB)` row' });
      continue;
    }
    into.records++;
    into.add(oomModules, `dev${device}/${module}`, {
      peak,
      current,
      file: name,
      logicalDevice: device,
      visibleDevices: null,
    });
  }
}

/**
 * The tables torch_npu wrote beside an OOM dump for the given devices: in its folder, `device_<N>_memUsageInfo_<ts>.csv`
 * with the timestamp nearest the dump's (within a minute), or the only one of that device when the dump's name has no
 * timestamp. `name` is the dump as messages name it; the tables are named relative to the same root.
 */
export function memUsageBeside(
  dumpPath: string,
  dumpName: string,
  devices: ReadonlySet<number>,
): { path: string; name: string }[] {
  let entries: string[];
  try {
    entries = readdirSync(path.dirname(dumpPath));
  } catch {
    return [];
  }
  const stamp = OOM_DUMP.exec(path.basename(dumpPath))?.[1];
  const byDevice = new Map<number, { file: string; distance: number }[]>();
  for (const file of entries) {
    const m = NAME.exec(file);
    if (m === null || !devices.has(Number(m[1]))) continue;
    const distance = stamp === undefined ? 0 : Math.abs(seconds(m[2] as string) - seconds(stamp));
    if (stamp !== undefined && distance > PAIRING_SECONDS) continue;
    const list = byDevice.get(Number(m[1])) ?? [];
    list.push({ file, distance });
    byDevice.set(Number(m[1]), list);
  }
  const out: { path: string; name: string }[] = [];
  for (const [, candidates] of [...byDevice].sort((a, b) => a[0] - b[0])) {
    if (stamp === undefined && candidates.length > 1) continue;
    candidates.sort((a, b) => a.distance - b.distance || (a.file < b.file ? -1 : 1));
    const file = (candidates[0] as { file: string }).file;
    out.push({ path: path.join(path.dirname(dumpPath), file), name: path.join(path.dirname(dumpName), file) });
  }
  return out;
}

/** YYYYmmddHHMMSS as seconds (a calendar-free count: months of 31 days, which keeps nearby times nearby). */
function seconds(stamp: string): number {
  const n = (from: number, to: number) => Number(stamp.slice(from, to));
  return ((((n(0, 4) * 12 + n(4, 6)) * 31 + n(6, 8)) * 24 + n(8, 10)) * 60 + n(10, 12)) * 60 + n(12, 14);
}

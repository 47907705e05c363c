// Where in the user's code the memory at the allocated peak was allocated: live bytes per function of user code, with its lines.
import { exactSum, formatBytes, formatCount, formatDelta } from '../units.js';
import { originText, PROCESS_DEVICE_FIELDS } from './allocator.js';
import { defineSection } from './types.js';

/** Lines kept per site (the largest); a function's bytes are exact whatever it holds beyond them. */
const MAX_SITE_LINES = 32;

/** One line of a site: its number, requested bytes and blocks. */
export type SiteLine = [line: number, bytes: number, blocks: number];

/** Lines named in a note. */
const LINES_SHOWN = 3;

/** A site's `lines` field: the largest MAX_SITE_LINES lines, in line order, as JSON. */
export function linesField(lines: Iterable<SiteLine>): string {
  const kept = [...lines].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, MAX_SITE_LINES);
  return JSON.stringify(kept.sort((a, b) => a[0] - b[0]));
}

/** The lines of a metric's `lines` field; [] for anything else (a baseline is untrusted: never throws). */
function siteLines(field: string | undefined): SiteLine[] {
  if (field === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(field);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (l): l is SiteLine =>
          Array.isArray(l) && l.length === 3 && l.every((v) => typeof v === 'number' && Number.isSafeInteger(v)),
      )
      .slice(0, MAX_SITE_LINES);
  } catch {
    return [];
  }
}

/** How one line moved between two runs: its number in this run (the baseline's when gone), and the change. */
export interface LineChange {
  line: number;
  delta: number;
  /** Only in the baseline. */
  gone: boolean;
}

/**
 * The lines of a function matched across two runs: lines keep their order when code is edited (a line added above
 * moves every later one down), so this is the monotone matching of the baseline's lines to this run's with the least
 * total change in bytes, then the least movement. A line that moved with its bytes changes nothing.
 */
export function lineChanges(before: readonly SiteLine[], after: readonly SiteLine[]): LineChange[] {
  const b = [...before].sort((x, y) => x[0] - y[0]);
  const a = [...after].sort((x, y) => x[0] - y[0]);
  // cost[i][j]: aligning b[i…] with a[j…], as [bytes, lines moved].
  const cost: [number, number][][] = Array.from({ length: b.length + 1 }, () =>
    Array.from({ length: a.length + 1 }, (): [number, number] => [0, 0]),
  );
  const better = (x: [number, number], y: [number, number]): boolean => x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
  for (let i = b.length; i >= 0; i--) {
    for (let j = a.length; j >= 0; j--) {
      if (i === b.length && j === a.length) continue;
      let best: [number, number] | null = null;
      const take = (c: [number, number]): void => {
        if (best === null || better(c, best)) best = c;
      };
      const bi = b[i];
      const aj = a[j];
      if (bi !== undefined && aj !== undefined) {
        const next = (cost[i + 1] as [number, number][])[j + 1] as [number, number];
        take([next[0] + Math.abs(aj[1] - bi[1]), next[1] + Math.abs(aj[0] - bi[0])]);
      }
      if (bi !== undefined) {
        const next = (cost[i + 1] as [number, number][])[j] as [number, number];
        take([next[0] + bi[1], next[1]]);
      }
      if (aj !== undefined) {
        const next = (cost[i] as [number, number][])[j + 1] as [number, number];
        take([next[0] + aj[1], next[1]]);
      }
      (cost[i] as [number, number][])[j] = best as unknown as [number, number];
    }
  }
  const changes: LineChange[] = [];
  let i = 0;
  let j = 0;
  const at = (x: number, y: number): [number, number] => (cost[x] as [number, number][])[y] as [number, number];
  while (i < b.length || j < a.length) {
    const bi = b[i];
    const aj = a[j];
    const here = at(i, j);
    const same = (c: [number, number]): boolean => c[0] === here[0] && c[1] === here[1];
    if (
      bi !== undefined &&
      aj !== undefined &&
      same([at(i + 1, j + 1)[0] + Math.abs(aj[1] - bi[1]), at(i + 1, j + 1)[1] + Math.abs(aj[0] - bi[0])])
    ) {
      changes.push({ line: aj[0], delta: aj[1] - bi[1], gone: false });
      i++;
      j++;
    } else if (bi !== undefined && same([at(i + 1, j)[0] + bi[1], at(i + 1, j)[1]])) {
      changes.push({ line: bi[0], delta: -bi[1], gone: true });
      i++;
    } else {
      changes.push({ line: (aj as SiteLine)[0], delta: (aj as SiteLine)[1], gone: false });
      j++;
    }
  }
  return changes;
}

/** What linesText reads of a site's metric. */
interface SiteFigures {
  readonly bytes: number;
  readonly lines: string;
}

/**
 * The lines behind a site's figure: against the baseline, the lines that moved most in the direction of the change
 * (`line 212: +3.0 GiB`); otherwise its largest lines with their bytes. Empty when there is nothing to say.
 */
export function linesText(current: SiteFigures | undefined, baseline: SiteFigures | undefined): string {
  const after = siteLines(current?.lines);
  if (current !== undefined && baseline !== undefined) {
    const delta = current.bytes - baseline.bytes;
    if (delta === 0) return '';
    const moved = lineChanges(siteLines(baseline.lines), after)
      .filter((c) => Math.sign(c.delta) === Math.sign(delta))
      .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.line - y.line);
    const shown = moved
      .slice(0, LINES_SHOWN)
      .map((c) => `line ${c.line}: ${formatDelta(c.delta)}${c.gone ? ' (gone)' : ''}`);
    if (moved.length > LINES_SHOWN) shown.push(`${formatCount(moved.length - LINES_SHOWN)} more line(s)`);
    return shown.length === 0 ? '' : `${formatDelta(delta)} (${shown.join(', ')})`;
  }
  const lines = siteLines((current ?? baseline)?.lines).sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  const shown = lines.slice(0, LINES_SHOWN).map(([line, bytes]) => `line ${line}: ${formatBytes(bytes)}`);
  if (lines.length > LINES_SHOWN) shown.push(`${formatCount(lines.length - LINES_SHOWN)} more line(s)`);
  return shown.join(', ');
}

/** `<file>:<line> <function>` after the device: how earlier versions keyed allocation sites (by line). */
const LINE_KEY = /^([^/]*dev\d+)\/(.*):(-?\d+) (.*)$/s;

/** What folding a document's line-keyed sites did: how many keys became how many. */
export interface FoldedSites {
  from: number;
  to: number;
}

/**
 * Folds allocation sites keyed by line (`dev0/model/attention.py:212 forward`, as earlier versions wrote them) into the keys by
 * function this version writes (`dev0/model/attention.py forward`), in a parsed baseline or snapshot document's
 * `sections`, in place: bytes and blocks summed, the lines kept as `lines`, the other fields those of the largest
 * line. A site without `lines` gets `[]`. Metrics of the wrong shape are left as they are, for the schema to name.
 * Returns null when nothing was keyed by line.
 */
export function foldLineSites(sections: unknown): FoldedSites | null {
  if (sections === null || typeof sections !== 'object' || !Object.hasOwn(sections, 'allocationSites')) return null;
  const sites = (sections as Record<string, unknown>).allocationSites;
  if (sites === null || typeof sites !== 'object' || Array.isArray(sites)) return null;
  const record = sites as Record<string, unknown>;
  const isMetric = (m: unknown): m is Record<string, unknown> & { bytes: number; blocks: number } =>
    m !== null &&
    typeof m === 'object' &&
    !Array.isArray(m) &&
    Number.isSafeInteger((m as { bytes?: unknown }).bytes) &&
    Number.isSafeInteger((m as { blocks?: unknown }).blocks);
  const groups = new Map<
    string,
    { key: string; line: number; metric: Record<string, unknown> & { bytes: number; blocks: number } }[]
  >();
  let from = 0;
  for (const key of Object.keys(record)) {
    const metric = record[key];
    const m = LINE_KEY.exec(key);
    if (m === null || !isMetric(metric) || !(m[2] as string).endsWith('.py')) {
      if (isMetric(metric) && !Object.hasOwn(metric, 'lines')) metric.lines = '[]';
      continue;
    }
    const to = `${m[1] as string}/${m[2] as string} ${(m[4] as string).replaceAll(' ', '_')}`;
    let group = groups.get(to);
    if (group === undefined) groups.set(to, (group = []));
    group.push({ key, line: Number(m[3]), metric });
    from++;
  }
  if (from === 0) return null;
  // A new record, not this one changed: a large record's key list may be noted (keysOf) by the pass that read it.
  const folded: [string, unknown][] = [];
  const replaced = new Set<string>();
  const combined = new Map<string, Record<string, unknown>>();
  for (const [to, group] of groups) {
    let bytes = 0;
    let blocks = 0;
    for (const g of group) {
      const b = exactSum(bytes, g.metric.bytes);
      const n = exactSum(blocks, g.metric.blocks);
      // Past 2^53 - 1: left line-keyed for the schema (and the gate) to refuse as it would.
      if (b === null || n === null) return null;
      bytes = b;
      blocks = n;
    }
    for (const g of group) replaced.add(g.key);
    const largest = group.reduce((x, y) =>
      y.metric.bytes > x.metric.bytes || (y.metric.bytes === x.metric.bytes && y.line < x.line) ? y : x,
    );
    const existing = record[to];
    // A key by function already there (a document written half by each version) keeps the larger, as metrics of one key combine.
    if (isMetric(existing) && existing.bytes >= bytes) continue;
    combined.set(to, {
      ...largest.metric,
      bytes,
      blocks,
      lines: linesField(group.map((g): SiteLine => [g.line, g.metric.bytes, g.metric.blocks])),
    });
  }
  for (const key of Object.keys(record)) if (!replaced.has(key)) folded.push([key, combined.get(key) ?? record[key]]);
  for (const [key, metric] of combined) if (!Object.hasOwn(record, key)) folded.push([key, metric]);
  // fromEntries defines own properties: a key named __proto__ stays a key.
  (sections as Record<string, unknown>).allocationSites = Object.fromEntries(folded);
  return { from, to: groups.size };
}

export const allocationSites = defineSection({
  name: 'allocationSites',
  kind: 'allocationSite',
  title: 'Allocation sites',
  description:
    'Live requested bytes at the allocated peak of a memory snapshot, by device and the function of the first frame of user code of each block (not torch, torch_npu, the standard library or C++; <unknown> without one), its file relative to the source root, e.g. dev0/model/attention.py forward; its lines are its detail, so a line that moves changes no key.',
  keyShape: 'devN/<file> <function>',
  example: 'dev0/model/attention.py forward',
  value: 'bytes',
  unit: 'bytes',
  tolerance: { percent: 5, bytes: 64 * 1024 ** 2 },
  source: 'torch_npu memory snapshot (pickle) with stacks recorded',
  describe: (_key, m, baseline) => {
    const lines = linesText(m, baseline);
    return `${lines === '' ? '' : `${lines}. `}${formatCount(m.blocks)} block(s) live at the allocated peak. ${originText(m)}`;
  },
  logicalDevices: true,
  // No column of its own in the per-device table: its bytes add up to the allocated peak.
  deviceRow: { figures: [] },
  fields: {
    bytes: {
      type: 'bytes',
      description:
        "Requested bytes of the blocks live at the allocated peak (at dump time without a trace), summed over the function's lines.",
    },
    blocks: { type: 'count', description: 'How many blocks.' },
    lines: {
      type: 'string',
      description: `The function's lines that hold them, as JSON: [[line, bytes, blocks], …] in line order, the largest ${MAX_SITE_LINES} at most; [] for <unknown>.`,
    },
    codeRoot: {
      type: 'string',
      description:
        "The folder the site paths are relative to: the source root, the common folder of the file's user frames, or a package's site-packages; '' for absolute paths.",
    },
    ...PROCESS_DEVICE_FIELDS,
  },
});

// Allocation sites moved to the source root the run names (`--source-root`, or the Action's workspace).
import { allocationSites } from '../../model/sections/allocation-sites.js';
import { findDeviceSegment, type SegmentBounds } from '../../model/sections/index.js';
import { ooms, type OomMetric } from '../../model/sections/ooms.js';
import { rewriteKeys, sectionRewrite } from '../../model/rewrite-keys.js';
import { metricsOf, type Snapshot } from '../../model/snapshot.js';
import { FUNCTION_SITE, SITE } from './sites.js';

/** Where the user's code is: `--source-root` (strict), or the Action's workspace (used when some site lies under it). */
export interface SourceRoot {
  path: string;
  /** true: always used (sites outside it keep their path); false: used only when some site's file lies under it. */
  strict: boolean;
}

/**
 * The snapshot with every allocation site whose file lies under the source root written relative to it. A site's
 * path is relative to its metric's `codeRoot` (the parser's folder for the file: the common folder of its user
 * frames, a package's site-packages, or '' for an absolute path), so the file is `codeRoot` + path. Sites of OOM notes
 * move the same way.
 */
export function relativeToSourceRoot(snapshot: Snapshot, root: SourceRoot): Snapshot {
  const dir = root.path.endsWith('/') ? root.path : `${root.path}/`;
  const bounds: SegmentBounds = { start: 0, end: 0 };
  // Allocation-site keys name a function (`file.py forward`), OOM holders a line (`file.py:212 forward`).
  const split = (site: string, shape: RegExp): { file: string; rest: string } | null => {
    const m = shape.exec(site);
    return m === null ? null : { file: m[1] as string, rest: site.slice((m[1] as string).length) };
  };
  /** The site relative to the root, or null when its file is not under it. */
  const moved = (site: string, codeRoot: string, shape: RegExp = FUNCTION_SITE): string | null => {
    const parts = split(site, shape);
    if (parts === null) return null;
    const file = `${codeRoot}${parts.file}`;
    return file.startsWith(dir) ? `${file.slice(dir.length)}${parts.rest}` : null;
  };
  const oomSites = (metric: OomMetric): [string, number, string][] => {
    try {
      const parsed: unknown = JSON.parse(metric.sites);
      return Array.isArray(parsed)
        ? (parsed.filter(
            (p) => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'number' && typeof p[2] === 'string',
          ) as [string, number, string][])
        : [];
    } catch {
      return [];
    }
  };
  const sites = metricsOf(snapshot, allocationSites);
  const siteOfKey = (key: string): string | null => (findDeviceSegment(key, bounds) ? key.slice(bounds.end + 1) : null);
  if (!root.strict) {
    const anyUnder =
      Object.entries(sites).some(([key, metric]) => {
        const site = siteOfKey(key);
        return site !== null && moved(site, metric.codeRoot) !== null;
      }) ||
      Object.values(metricsOf(snapshot, ooms)).some((metric) =>
        oomSites(metric).some(([site, , codeRoot]) => moved(site, codeRoot, SITE) !== null),
      );
    if (!anyUnder) return snapshot;
  }
  return rewriteKeys(
    snapshot,
    Object.fromEntries([
      sectionRewrite(allocationSites, (key, metric) => {
        const site = siteOfKey(key);
        const relative = site === null ? null : moved(site, metric.codeRoot);
        return relative === null
          ? { key, metric }
          : { key: `${key.slice(0, bounds.end)}/${relative}`, metric: { ...metric, codeRoot: dir } };
      }),
      sectionRewrite(ooms, (key, metric) => {
        const list = oomSites(metric).map(([site, bytes, codeRoot]): [string, number, string] => {
          const relative = moved(site, codeRoot, SITE);
          return relative === null ? [site, bytes, codeRoot] : [relative, bytes, dir];
        });
        return { key, metric: { ...metric, sites: JSON.stringify(list) } };
      }),
    ]),
  );
}

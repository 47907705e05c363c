// The snapshot a correct parser must produce from a generated corpus: the parsers' semantics, computed while writing
// (independently of src/, so the corpus checks the parsers rather than repeating them).
import type { AllocFailureSite, Snapshot } from '../../src/model/snapshot.js';

/** Failure sites the snapshot keeps per device, and the characters of a site's text. */
const SITES_PER_DEVICE = 5;
const SITE_TEXT_CHARS = 300;

// Type aliases rather than interfaces: a section's metrics are records of named numbers and strings.
export type ModuleMetric = {
  peak: number;
  current: number;
  allocs: number | null;
  frees: number | null;
};

export type KernelMetric = {
  diff: number;
  rows: number;
  added: number;
  removed: number;
  event: string | null;
};

/** A failure line as a site shows it: whitespace collapsed, at most SITE_TEXT_CHARS with the ellipsis. */
export function siteText(line: string): string {
  const text = line.replace(/\s+/g, ' ').trim();
  return text.length > SITE_TEXT_CHARS ? `${text.slice(0, SITE_TEXT_CHARS - 1)}…` : text;
}

export class ExpectedSnapshot {
  readonly modules = new Map<string, ModuleMetric>();
  readonly kernels = new Map<string, KernelMetric>();
  readonly allocFailures = new Map<string, number>();
  /** Device → the first SITES_PER_DEVICE failure lines by file, then line: what the parser reports as sites. */
  readonly sites = new Map<string, AllocFailureSite[]>();
  files = 0;
  records = 0;
  skipped = 0;

  /** The largest peak wins whole (the generator never writes two equal peaks for one key). */
  addModule(key: string, metric: ModuleMetric, device: number | null): void {
    const prev = this.modules.get(key);
    if (prev === undefined || metric.peak >= prev.peak) this.modules.set(key, { ...metric });
    this.records++;
    if (device !== null) this.noteDevice(`dev${device}`);
  }
  /** Per-file kernel aggregates; across files the larger diff wins. */
  addKernel(key: string, metric: KernelMetric): void {
    const prev = this.kernels.get(key);
    if (prev === undefined || metric.diff >= prev.diff) this.kernels.set(key, { ...metric });
  }
  noteDevice(dev: string): void {
    if (!this.allocFailures.has(dev)) this.allocFailures.set(dev, 0);
  }
  addAllocFailure(dev: string, where: AllocFailureSite | null): void {
    this.allocFailures.set(dev, (this.allocFailures.get(dev) ?? 0) + 1);
    if (where) this.addSite(dev, where);
  }
  private addSite(dev: string, where: AllocFailureSite): void {
    const sites = [...(this.sites.get(dev) ?? []), where];
    sites.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
    this.sites.set(dev, sites.slice(0, SITES_PER_DEVICE));
  }
  merge(other: ExpectedSnapshot): this {
    for (const [k, v] of other.modules) {
      const prev = this.modules.get(k);
      if (prev === undefined || v.peak >= prev.peak) this.modules.set(k, { ...v });
    }
    for (const [k, v] of other.kernels) this.addKernel(k, v);
    for (const [d, n] of other.allocFailures) this.allocFailures.set(d, (this.allocFailures.get(d) ?? 0) + n);
    for (const [d, sites] of other.sites) for (const site of sites) this.addSite(d, site);
    this.files += other.files;
    this.records += other.records;
    this.skipped += other.skipped;
    return this;
  }
  build(): Snapshot {
    const obj = <T>(m: Map<string, T>): Record<string, T> => Object.fromEntries([...m.entries()]);
    const sections: Snapshot['sections'] = {};
    if (this.modules.size > 0) sections.modules = obj(this.modules);
    if (this.kernels.size > 0) sections.kernels = obj(this.kernels);
    return {
      version: 2,
      sections,
      series: {},
      meta: {
        files: this.files,
        records: this.records,
        skipped: this.skipped,
        allocFailures: obj(this.allocFailures),
        ...(this.sites.size > 0 ? { allocFailureSites: obj(this.sites) } : {}),
      },
    };
  }
}

/** Same bytes as `parse --json`: keys sorted at every level, 2-space indent, trailing newline. */
export function stableStringify(value: unknown): string {
  const sortDeep = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortDeep);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = sortDeep((v as Record<string, unknown>)[k]);
      return out;
    }
    return v;
  };
  return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}

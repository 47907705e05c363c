// Runs of a default branch for history tests, made by code: module peaks per device with rare jitter, kernels that
// change now and then, steps, environment changes and baseline updates at set runs. Deterministic (no clock, no Math.random).
import type { Snapshot } from '../../src/model/snapshot.js';
import { mulberry32 } from './random.js';
import { MiB, MODULES } from './story.js';

export interface RunShape {
  devices: number;
  /** Kernel keys in all (`devN/<name>`). */
  kernels: number;
  /** Distinct kernel names: each is on kernels / kernelNames devices. */
  kernelNames: number;
  /** Share of module values off their level in a run (each by up to ±1%). */
  jitterShare: number;
  /** Share of kernels whose diff changes for good in a run. */
  kernelChangeShare: number;
}

export const SIZE_SHAPE: RunShape = {
  devices: 64,
  kernels: 2000,
  kernelNames: 32,
  jitterShare: 0.1,
  kernelChangeShare: 0.02,
};

/** The state of a default branch that each run advances. */
export class Branch {
  private readonly next: () => number;
  private readonly levels = new Map<string, number>();
  private readonly kernelDiffs = new Map<string, number>();
  private kernelNames: string[] = [];
  run = 0;
  cann = '8.3.RC1';
  baseline = 'sha256:' + '0'.repeat(64);

  constructor(
    readonly shape: RunShape,
    seed = 7,
  ) {
    this.next = mulberry32(seed);
    for (let d = 0; d < shape.devices; d++) {
      MODULES.forEach((m, j) => this.levels.set(`DEV_MEM/dev${d}/${m}`, (1 + j) * 64 * MiB + (d % 7) * 2 * MiB));
    }
    for (let n = 0; n < shape.kernelNames; n++) this.kernelNames.push(`aclnnOp_${n}`);
    this.resetKernels();
  }

  private resetKernels(): void {
    this.kernelDiffs.clear();
    const { kernels, devices } = this.shape;
    const names = this.kernelNames.length;
    // Name n's copies j = 0, 1, … on devices j * stride + n: distinct devices for each name.
    const stride = Math.max(1, Math.floor(devices / Math.ceil(kernels / names)));
    for (let k = 0; k < kernels; k++) {
      const n = k % names;
      const j = Math.floor(k / names);
      const key = `dev${(j * stride + n) % devices}/${this.kernelNames[n]}`;
      this.kernelDiffs.set(key, Math.floor(this.next() * 64) * 4096);
    }
  }

  /** Module group `DEV_MEM/{*}/<module>` steps by `factor` from this run on. */
  step(module: string, factor: number): void {
    for (const [key, level] of this.levels)
      if (key.endsWith(`/${module}`)) this.levels.set(key, Math.round(level * factor));
  }

  /** Kernel names renamed (a new build of the operator library): old keys are gone, new ones appear. */
  renameKernels(count: number): void {
    for (let i = 0; i < count && i < this.kernelNames.length; i++)
      this.kernelNames[i] = `${this.kernelNames[i]}_r${this.run}`;
    this.resetKernels();
  }

  /** The next run's snapshot. */
  nextRun(): Snapshot {
    this.run++;
    const modules: Record<string, { peak: number; current: number; allocs: number; frees: number }> = {};
    for (const [key, level] of this.levels) {
      const peak = this.next() < this.shape.jitterShare ? Math.round(level * (1 + (this.next() * 2 - 1) / 100)) : level;
      modules[key] = { peak, current: peak, allocs: 10, frees: 4 };
    }
    const kernels: Record<string, { diff: number; rows: number; added: number; removed: number; event: string }> = {};
    for (const [key, diff] of this.kernelDiffs) {
      const now = this.next() < this.shape.kernelChangeShare ? Math.floor(this.next() * 64) * 4096 : diff;
      this.kernelDiffs.set(key, now);
      kernels[key] = { diff: now, rows: 3, added: 0, removed: 0, event: 'KERNEL_LAUNCH' };
    }
    const devices = Array.from({ length: this.shape.devices }, (_, d) => `dev${d}`);
    return {
      version: 2,
      sections: { modules, kernels },
      series: {},
      meta: {
        files: this.shape.devices,
        records: this.shape.devices * MODULES.length,
        skipped: 0,
        allocFailures: Object.fromEntries(devices.map((d) => [d, 0])),
        nodes: {
          'node-0': { devices, files: 1, records: 1, skipped: 0, environment: { cann: this.cann, torch_npu: '2.5.1' } },
        },
      },
    };
  }

  /** A commit id of this run (hex, 40 digits). */
  commit(): string {
    return (this.run * 2654435761).toString(16).padStart(8, '0').repeat(5).slice(0, 40);
  }

  /** An ISO time for this run, one per hour from 2026-01-01. */
  time(): string {
    return new Date(Date.UTC(2026, 0, 1) + this.run * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
}

// Types of bench/memscope-generate.mjs, so the TypeScript tests can import the dump generator.
export interface MemscopeDumpOptions {
  steps: number;
  opsPerStep: number;
  device?: number;
  pid?: number;
  /** From this step on, one block of `leakBytes` per step is never freed. */
  leakFromStep?: number | null;
  leakBytes?: number;
  seed?: number;
  /** Fraction of launches altered: half get 512 more bytes, half get an extra `aten.extra.default` launch. */
  differences?: number;
  /** Label blocks with decompose owners (`PTA`, `PTA@weight`, leaks `PTA@optimizer_state`). */
  owners?: boolean;
  /** Filled in while generating: ATEN_END launches written, of them extra (inserted) ones, and resized ops. */
  stats?: { launches?: number; extraLaunches?: number; resized?: number };
}
export const MEMSCOPE_HEADER: string;
export function memscopeDumpLines(options: MemscopeDumpOptions): Generator<string>;
export function memscopeDumpText(options: MemscopeDumpOptions): string;
export function writeMemscopeDump(path: string, options: MemscopeDumpOptions): Promise<{ bytes: number; rows: number }>;

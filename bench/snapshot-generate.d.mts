// Types of bench/snapshot-generate.mjs, so the TypeScript tests can import the memory-snapshot generator.
export interface MemorySnapshotOptions {
  /** About this many bytes of file. */
  bytes: number;
  seed?: number;
}
export interface MemorySnapshotResult {
  bytes: number;
  entries: number;
  peakAllocated: number;
  peakReserved: number;
  allocatedAtDump: number;
}
export function writeMemorySnapshot(path: string, options: MemorySnapshotOptions): MemorySnapshotResult;

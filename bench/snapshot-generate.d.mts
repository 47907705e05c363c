// Types of bench/snapshot-generate.mjs, so the TypeScript tests can import the memory-snapshot generator.
export interface MemorySnapshotOptions {
  /** About this many bytes of file. */
  bytes: number;
  seed?: number;
  /** Lines added above every allocation of model/layer<i>.py (their frames' lines move down by this much). */
  lineShift?: number;
  /** One more block of this size, live for the whole trace, allocated at line 45 + lineShift of model/layer0.py's forward. */
  extraBytes?: number;
}
export interface MemorySnapshotResult {
  bytes: number;
  entries: number;
  peakAllocated: number;
  peakReserved: number;
  allocatedAtDump: number;
}
export function writeMemorySnapshot(path: string, options: MemorySnapshotOptions): MemorySnapshotResult;

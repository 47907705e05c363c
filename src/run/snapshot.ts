// The pipeline's snapshot step for both entries: this node's collected evidence reduced to one small, versioned,
// schema-checked *.memory-snapshot.json for the gate job to merge.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../common/errors.js';
import type { Snapshot } from '../model/snapshot.js';
import { NODE_SNAPSHOT_SUFFIX, serializeNodeSnapshot } from '../parsers/node-snapshot-file.js';

/** Where the file goes: a path (`--out`), or a folder where it is named after the node (the Action's work folder). */
export interface SnapshotRequest {
  /** The collected run, with this node added (its name, devices and environment). */
  snapshot: Snapshot;
  out: { file: string } | { dir: string };
}

/** What was written, for the entry to say. */
export interface NodeSnapshotWritten {
  file: string;
  bytes: number;
  node: string;
  devices: number;
  files: number;
  records: number;
  skipped: number;
  /** The node's environment items, `KEY=value`. */
  environment: string[];
}

export async function writeNodeSnapshot(request: SnapshotRequest): Promise<NodeSnapshotWritten> {
  const { snapshot, out } = request;
  const [node, provenance] = Object.entries(snapshot.meta.nodes ?? {})[0] ?? [undefined, undefined];
  // A folder names the file after the node; a node without a name (none was collected) is `node`.
  const file =
    'file' in out
      ? out.file
      : path.join(out.dir, `${(node ?? 'node').replace(/[^\w.-]/g, '_')}${NODE_SNAPSHOT_SUFFIX}`);
  const text = serializeNodeSnapshot(snapshot);
  try {
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await writeFile(file, text);
  } catch (error) {
    throw new UsageError(`snapshot: cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    file,
    bytes: Buffer.byteLength(text),
    node: node ?? ('file' in out ? '?' : 'node'),
    devices: provenance?.devices.length ?? 0,
    files: snapshot.meta.files,
    records: snapshot.meta.records,
    skipped: snapshot.meta.skipped,
    environment: Object.entries(provenance?.environment ?? {}).map(([item, value]) => `${item}=${value}`),
  };
}

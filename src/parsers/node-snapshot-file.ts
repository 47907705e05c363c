// The `*.memory-snapshot.json` evidence source: a node's snapshot, read back and folded in exactly as if its files were parsed here.
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { gunzipWhole, isCompressed } from './compressed.js';
import { InputError, SchemaError } from '../common/errors.js';
import { buildSnapshotSchema } from '../model/sections/schema.js';
import { foldLineSites } from '../model/sections/allocation-sites.js';
import { compileSectionsDocument, parseSectionsJson } from '../model/sections/validate.js';
import { SNAPSHOT_VERSION, type Snapshot, type SnapshotBuilder } from '../model/snapshot.js';
import { stringifyDocument } from '../model/document-json.js';
import type { InputFile } from '../sources/types.js';
import { readWholeText } from '../common/whole-text.js';

/** What a snapshot file ends with: directories given to any source are searched for it. */
export const NODE_SNAPSHOT_SUFFIX = '.memory-snapshot.json';

/** A node's snapshot is a few KB per device; anything this large is not one (and would be read whole). */
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

let validate: ((json: unknown, file: string, sectionsChecked?: boolean) => Snapshot) | undefined;

/** Parses and checks one snapshot's text: JSON (line:column), then its version, then the schema (JSON pointer). */
export function parseSnapshotText(text: string, file: string): Snapshot {
  const { json, sectionsChecked } = parseSectionsJson(text, file);
  const version =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as { version?: unknown }).version
      : undefined;
  if (typeof version === 'number' && Number.isInteger(version) && version > SNAPSHOT_VERSION) {
    throw new SchemaError(
      file,
      '/version',
      `is ${version}: this snapshot was written by a newer ascend-memory-gate (this one reads version ${SNAPSHOT_VERSION}); use the same version on the nodes and in the gate job`,
    );
  }
  validate ??= compileSectionsDocument<Snapshot>(buildSnapshotSchema());
  // A node snapshot of an older version keys allocation sites by line: read as the keys by function the gate compares.
  const folded =
    json !== null && typeof json === 'object' ? foldLineSites((json as { sections?: unknown }).sections) : null;
  return validate(json, file, sectionsChecked && folded === null);
}

/** The evidence source's parser: the whole snapshot (sections, series, devices, counts, nodes) into the builder. */
export async function parseNodeSnapshotFile(file: InputFile, into: SnapshotBuilder): Promise<void> {
  into.addSnapshot(readNodeSnapshotFile(file));
}

/**
 * One snapshot file, read and checked. Synchronous on purpose: 4,096 node snapshots are 4,096 small files, and four
 * awaited round trips each (open, stat, read, close) left the thread idle for ~2.5 s of a 5 s merge.
 */
function readNodeSnapshotFile(file: InputFile): Snapshot {
  const fd = openSync(file.path, 'r');
  let text: string;
  try {
    const info = fstatSync(fd);
    if (info.size > MAX_SNAPSHOT_BYTES)
      throw new InputError(
        `${file.name}: ${info.size} bytes is too large for a memory snapshot (at most ${MAX_SNAPSHOT_BYTES})`,
      );
    // A `.gz` snapshot is inflated whole (it is small), at most MAX_SNAPSHOT_BYTES of it.
    text = isCompressed(file.path)
      ? gunzipWhole(readFileSync(fd), file.name, MAX_SNAPSHOT_BYTES).toString('utf8')
      : readWholeText(fd, info.size);
  } finally {
    closeSync(fd);
  }
  return parseSnapshotText(text, file.name);
}

/** The file `snapshot` writes: stable JSON (stringifyDocument), checked against the schema it will be read with. */
export function serializeNodeSnapshot(snapshot: Snapshot): string {
  const text = stringifyDocument(snapshot);
  parseSnapshotText(text, 'snapshot');
  return text;
}

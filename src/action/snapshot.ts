// Snapshot mode: on a training node, reduce this node's evidence to one small snapshot file for the gate job to merge.
import * as core from '@actions/core';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ActionInputs } from './inputs.js';
import { serializeNodeSnapshot, NODE_SNAPSHOT_SUFFIX } from '../parsers/node-snapshot-file.js';
import { formatBytes } from '../model/units.js';
import { collectInputs, workDir } from './shared.js';

export async function runSnapshotMode(inputs: ActionInputs): Promise<void> {
  const { snapshot } = await collectInputs(inputs);
  const [node, provenance] = Object.entries(snapshot.meta.nodes ?? {})[0] ?? ['node', undefined];
  const text = serializeNodeSnapshot(snapshot);
  const file = path.join(workDir(), `${node.replace(/[^\w.-]/g, '_')}${NODE_SNAPSHOT_SUFFIX}`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  core.setOutput('snapshot-file', file);
  const environment = Object.entries(provenance?.environment ?? {}).map(([item, value]) => `${item}=${value}`);
  core.info(
    `Wrote ${file} (${formatBytes(Buffer.byteLength(text))}): node ${node}, ${provenance?.devices.length ?? 0} device(s), ` +
      `${snapshot.meta.files} file(s), ${snapshot.meta.records} record(s), ${snapshot.meta.skipped} skipped`,
  );
  core.info(`Environment: ${environment.length > 0 ? environment.join(', ') : 'nothing found'}`);
}

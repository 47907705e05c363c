// Snapshot mode: on a training node, reduce this node's evidence to one small snapshot file for the gate job to merge.
import * as core from '@actions/core';
import type { ActionInputs } from './inputs.js';
import { formatBytes } from '../model/units.js';
import { writeNodeSnapshot } from '../run/snapshot.js';
import { collectInputs, workDir } from './shared.js';

export async function runSnapshotMode(inputs: ActionInputs): Promise<void> {
  const { snapshot } = await collectInputs(inputs);
  const written = await writeNodeSnapshot({ snapshot, out: { dir: workDir() } });
  core.setOutput('snapshot-file', written.file);
  core.info(
    `Wrote ${written.file} (${formatBytes(written.bytes)}): node ${written.node}, ${written.devices} device(s), ` +
      `${written.files} file(s), ${written.records} record(s), ${written.skipped} skipped`,
  );
  core.info(`Environment: ${written.environment.length > 0 ? written.environment.join(', ') : 'nothing found'}`);
}

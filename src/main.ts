// The Action: reads the inputs and runs the mode they name (src/action/: check, update, comment, snapshot); one error path.
import * as core from '@actions/core';
import { readInputs } from './config.js';
import { InputError, UsageError } from './errors.js';

export async function run(): Promise<void> {
  try {
    const inputs = readInputs();
    if (inputs.mode === 'comment') await (await import('./action/comment.js')).runCommentMode(inputs);
    else if (inputs.mode === 'update') await (await import('./action/update.js')).runUpdateMode(inputs);
    else if (inputs.mode === 'snapshot') await (await import('./action/snapshot.js')).runSnapshotMode(inputs);
    else await (await import('./action/check.js')).runCheckMode(inputs);
  } catch (error) {
    if (error instanceof UsageError || error instanceof InputError) core.setFailed(error.message);
    else core.setFailed(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}

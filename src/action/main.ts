// The Action: reads the inputs and runs the mode they name (src/action/: check, update, comment, snapshot); one error path.
import * as core from '@actions/core';
import { readInputs } from './inputs.js';
import { failureText } from '../common/errors.js';

/** ACTIONS_STEP_DEBUG (the secret) or a re-run with debug logging (RUNNER_DEBUG): show stacks. */
function debugLogging(): boolean {
  return core.isDebug() || process.env.ACTIONS_STEP_DEBUG === 'true';
}

export async function run(): Promise<void> {
  // First of all: an API error that echoes the token must print *** instead.
  const token = core.getInput('github-token');
  if (token) core.setSecret(token);
  try {
    const inputs = readInputs();
    if (inputs.mode === 'comment') await (await import('./comment.js')).runCommentMode(inputs);
    else if (inputs.mode === 'update') await (await import('./update.js')).runUpdateMode(inputs);
    else if (inputs.mode === 'snapshot') await (await import('./snapshot.js')).runSnapshotMode(inputs);
    else await (await import('./check.js')).runCheckMode(inputs);
  } catch (error) {
    const [line, ...stack] = failureText(error, debugLogging()).split('\n');
    core.setFailed(line ?? '');
    if (stack.length > 0) core.info(stack.join('\n'));
  }
}

// Entry of the `ascend-memory-gate` command: runs the command and sets the exit code, nothing else.
//
// A command that reads inputs gets its parse worker started first, before the rest of the code is loaded (imported
// below, not statically): the worker's start-up then overlaps this thread's module loading and file search, and the
// worker is ready when large inputs are handed out. Only when a quick look at the named paths finds them large: small
// inputs never use the worker, and starting one for nothing cost a small run ~60 ms of CPU.
import { inputPathsOf, mayBeLarge, startWorkersEarly } from '../parsers/worker-start.js';
import { afterCommand, readsInputs } from './input-commands.js';

const argv = process.argv.slice(2);
const args = argv.filter((a) => a !== '--debug');
if (readsInputs(args) && mayBeLarge(inputPathsOf(afterCommand(args)))) startWorkersEarly();

const { runCli } = await import('./commands.js');
const { failureText } = await import('../common/errors.js');

runCli(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${failureText(error, process.argv.includes('--debug'))}\n`);
    process.exitCode = 2;
  },
);

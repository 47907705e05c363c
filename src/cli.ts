// Entry of the `ascend-memory-gate` command: runs the command and sets the exit code, nothing else.
//
// A command that reads inputs gets its parse worker started first, before the rest of the code is loaded (imported
// below, not statically): the worker's start-up then overlaps this thread's module loading and file search, and the
// worker is ready when large inputs are handed out. Small inputs never use it (collect.ts stops it).
import { startWorkersEarly } from './parsers/worker-start.js';

const argv = process.argv.slice(2);
const command = argv.find((a) => a !== '--debug');
if ((command === 'parse' || command === 'check' || command === 'baseline') && !argv.includes('--help') && !argv.includes('-h')) startWorkersEarly();

const { runCli } = await import('./commands.js');
const { failureText } = await import('./errors.js');

runCli(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${failureText(error, process.argv.includes('--debug'))}\n`);
    process.exitCode = 2;
  },
);

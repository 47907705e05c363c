// Entry of the `ascend-memory-gate` command: runs the command and sets the exit code, nothing else.
import { runCli } from './commands.js';
import { failureText } from './errors.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${failureText(error, process.argv.includes('--debug'))}\n`);
    process.exitCode = 2;
  },
);

#!/usr/bin/env node
import { m as mayBeLarge, i as inputPathsOf, s as startWorkersEarly } from './chunks/worker-start.js';
import 'node:fs';
import 'node:os';
import 'node:path';
import 'node:worker_threads';

const INPUT_COMMANDS = ['parse', 'check', 'baseline', 'snapshot', 'history append'];
function readsInputs(args) {
    if (args.includes('--help') || args.includes('-h'))
        return false;
    const command = args[0] === 'history' ? `history ${args[1] ?? ''}` : args[0];
    return INPUT_COMMANDS.includes(command);
}
function afterCommand(args) {
    return args.slice(args[0] === 'history' ? 2 : 1);
}

const argv = process.argv.slice(2);
const args = argv.filter((a) => a !== '--debug');
if (readsInputs(args) && mayBeLarge(inputPathsOf(afterCommand(args))))
    startWorkersEarly();
const { runCli } = await import('./chunks/commands.js');
const { failureText } = await import('./chunks/errors.js').then(function (n) { return n.e; });
runCli(argv).then((code) => {
    process.exitCode = code;
}, (error) => {
    process.stderr.write(`error: ${failureText(error, process.argv.includes('--debug'))}\n`);
    process.exitCode = 2;
});

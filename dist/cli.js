#!/usr/bin/env node
import { m as mayBeLarge, i as inputPathsOf, s as startWorkersEarly } from './chunks/worker-start.js';
import 'node:fs';
import 'node:os';
import 'node:path';
import 'node:worker_threads';

const argv = process.argv.slice(2);
const args = argv.filter((a) => a !== '--debug');
const command = args[0];
if ((command === 'parse' || command === 'check' || command === 'baseline' || command === 'snapshot') &&
    !args.includes('--help') &&
    !args.includes('-h')) {
    if (mayBeLarge(inputPathsOf(args.slice(1))))
        startWorkersEarly();
}
const { runCli } = await import('./chunks/commands.js').then(function (n) { return n.c; });
const { failureText } = await import('./chunks/errors.js').then(function (n) { return n.e; });
runCli(argv).then((code) => {
    process.exitCode = code;
}, (error) => {
    process.stderr.write(`error: ${failureText(error, process.argv.includes('--debug'))}\n`);
    process.exitCode = 2;
});

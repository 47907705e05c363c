import { statSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

const PARALLEL_MIN_BYTES = 32 * 1024 * 1024;
const MAX_THREADS = 2;
const WORKER_YOUNG_GENERATION_MB = 2;
function threadCount(requested) {
    const fromEnv = process.env.ASCEND_MEMORY_GATE_THREADS;
    const resolved = requested ?? (fromEnv !== undefined && /^\d+$/.test(fromEnv.trim()) ? Number(fromEnv) : undefined);
    return resolved ?? Math.min(MAX_THREADS, availableParallelism());
}
function defaultWorkerUrl() {
    return new URL(new URL('../parse-worker.js', import.meta.url).href);
}
function startWorker(url, execArgv) {
    return new Worker(url, { execArgv, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
}
let early = [];
function startWorkersEarly() {
    if (early.length > 0)
        return;
    for (let i = 1; i < threadCount(); i++) {
        let entry;
        try {
            entry = { worker: startWorker(defaultWorkerUrl(), []), ready: false, failure: null, release: () => { } };
        }
        catch {
            return;
        }
        const { worker } = entry;
        const onMessage = (message) => {
            if (typeof message === 'object' && message !== null && 'ready' in message)
                entry.ready = true;
        };
        const onError = (error) => {
            entry.failure ??= `failed: ${error instanceof Error ? error.message : String(error)}`;
        };
        const onMessageError = (error) => {
            entry.failure ??= `sent an unreadable message: ${error.message}`;
        };
        const onExit = (code) => {
            entry.failure ??= `exited unexpectedly (exit code ${code})`;
        };
        worker.on('message', onMessage).on('error', onError).on('messageerror', onMessageError).on('exit', onExit);
        worker.unref();
        entry.release = () => worker.off('message', onMessage).off('error', onError).off('messageerror', onMessageError).off('exit', onExit);
        early.push(entry);
    }
}
function takeEarlyWorkers() {
    const taken = early;
    early = [];
    for (const entry of taken)
        entry.release();
    return taken;
}
function stopEarlyWorkers() {
    for (const entry of early)
        void entry.worker.terminate();
    early = [];
}
const NOT_INPUTS = new Set(['--baseline', '--out', '--report', '--markdown', '--html', '--config']);
function inputPathsOf(args) {
    const values = [];
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
        const flag = eq > 0 ? arg.slice(0, eq) : arg;
        if (NOT_INPUTS.has(flag)) {
            if (eq < 0)
                i++;
        }
        else if (eq > 0)
            values.push(arg.slice(eq + 1));
        else if (!arg.startsWith('-'))
            values.push(arg);
    }
    return values;
}
const LOOK_ENTRIES = 2000;
function mayBeLarge(paths) {
    let total = 0;
    let seen = 0;
    const pending = [...paths];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        if (++seen > LOOK_ENTRIES)
            return false;
        try {
            const stats = statSync(next);
            if (stats.isFile()) {
                total += stats.size;
                if (total >= PARALLEL_MIN_BYTES)
                    return true;
            }
            else if (stats.isDirectory()) {
                for (const entry of readdirSync(next))
                    pending.push(path.join(next, entry));
            }
        }
        catch {
        }
    }
    return false;
}

export { PARALLEL_MIN_BYTES as P, startWorker as a, stopEarlyWorkers as b, threadCount as c, defaultWorkerUrl as d, inputPathsOf as i, mayBeLarge as m, startWorkersEarly as s, takeEarlyWorkers as t };

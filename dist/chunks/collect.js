import { stat } from 'node:fs/promises';
import { I as InputError, v as visible } from './errors.js';
import { d as deserializeError } from './parse-protocol.js';
import { S as SOURCES, y as parserOf, z as isEmptySnapshot, A as fileKeyOrder, a as SnapshotBuilder, p as parseInputFile, R as RUN_OPTIONS } from './evidence-sources.js';
import { P as PARALLEL_MIN_BYTES, a as stopEarlyWorkers, t as threadCount$1, d as defaultWorkerUrl, b as takeEarlyWorkers, c as startWorker } from './worker-start.js';
import { r as resolveAllInputs, d as describeSearches } from './limits.js';

const BALANCE_MIN_BYTES = 1024 * 1024;
function inParseOrder(source, files) {
    return source.orderFree === true ? [...files].sort((a, b) => fileKeyOrder(a.path, b.path)) : files;
}
async function collectSnapshot(inputs, options = {}) {
    const tasks = SOURCES.flatMap((source) => inParseOrder(source, inputs.files[source.name] ?? []).map((file) => ({ kind: source.name, file }))).map((t, index) => ({ ...t, index }));
    const threads = Math.min(threadCount(options), tasks.length);
    let builder = null;
    try {
        if (threads >= 2 && (await reachesSize(tasks, options.minParallelBytes ?? PARALLEL_MIN_BYTES))) {
            const sizes = [];
            for (const task of tasks)
                sizes.push(await fileSize(task.file));
            builder = await parseInWorkers(tasks, sizes, threads, options);
        }
    }
    finally {
        stopEarlyWorkers();
    }
    builder ??= await parseHere(tasks);
    for (const source of SOURCES) {
        if ((inputs.files[source.name] ?? []).length === 0)
            continue;
        const parser = await parserOf(source.name);
        if (parser.combine)
            await parser.combine(inputs.files, builder);
    }
    let snapshot = builder.build();
    for (const source of SOURCES) {
        if ((inputs.files[source.name] ?? []).length === 0)
            continue;
        const parser = await parserOf(source.name);
        if (parser.finish)
            snapshot = parser.finish(snapshot, inputs.run ?? {});
    }
    if (isEmptySnapshot(snapshot))
        throw new InputError(noDataMessage(inputs, snapshot, builder.skippedRecords));
    return { snapshot, skippedRecords: builder.skippedRecords, notes: builder.notes };
}
function threadCount(options) {
    return threadCount$1(options.threads);
}
async function reachesSize(tasks, bytes) {
    let total = 0;
    for (const task of tasks) {
        total += await fileSize(task.file);
        if (total >= bytes)
            return true;
    }
    return false;
}
async function fileSize(file) {
    if (file.size !== undefined)
        return file.size;
    return stat(file.path).then((s) => s.size, () => 0);
}
async function parseHere(tasks) {
    const builder = new SnapshotBuilder();
    for (const task of tasks)
        await parseTask(task, builder);
    return builder;
}
async function parseTask(task, builder) {
    await parseInputFile(task.kind, task.file, builder);
}
const WORKER_QUEUE = 2;
async function parseInWorkers(tasks, sizes, threads, options) {
    const outcomes = new Array(tasks.length);
    const merged = new SnapshotBuilder();
    let mergedUpTo = 0;
    const weight = (i) => (sizes[i] >= BALANCE_MIN_BYTES ? sizes[i] : 0);
    const order = tasks.map((t) => t.index).sort((a, b) => weight(b) - weight(a) || a - b);
    let next = 0;
    let firstFailure = Infinity;
    let fatal = null;
    const url = options.workerUrl ?? defaultWorkerUrl();
    const pool = [];
    const take = () => {
        while (next < order.length && order[next] > firstFailure)
            next++;
        return fatal === null && next < order.length ? tasks[order[next++]] : null;
    };
    const record = (index, outcome) => {
        outcomes[index] = outcome;
        if (!outcome.ok)
            firstFailure = Math.min(firstFailure, index);
        for (let o = outcomes[mergedUpTo]; o !== undefined && o !== 'merged' && o.ok; o = outcomes[mergedUpTo]) {
            merged.merge(o.state);
            outcomes[mergedUpTo++] = 'merged';
        }
    };
    let localRunning = false;
    let wake = () => { };
    const allDone = new Promise((resolve) => {
        wake = () => {
            const busy = localRunning || pool.some((p) => p.tasks.length > 0);
            const more = fatal === null &&
                next < order.length &&
                (firstFailure === Infinity || order.slice(next).some((i) => i < firstFailure));
            if (!busy && (!more || (pool.every((p) => p.dead) && !runLocal())))
                resolve();
        };
    });
    const runLocal = () => {
        if (localRunning)
            return false;
        localRunning = true;
        void (async () => {
            for (let task = take(); task !== null; task = take()) {
                const builder = new SnapshotBuilder();
                try {
                    await parseTask(task, builder);
                    record(task.index, { ok: true, state: builder.toState() });
                }
                catch (error) {
                    record(task.index, { ok: false, error: error instanceof Error ? error : new Error(String(error)) });
                }
                await new Promise((resolve) => setImmediate(resolve));
            }
            localRunning = false;
            wake();
        })();
        return true;
    };
    const dispatch = (p) => {
        while (!p.dead && p.ready && p.tasks.length < WORKER_QUEUE) {
            const task = take();
            if (task === null)
                break;
            p.tasks.push(task);
            p.worker.postMessage(task);
        }
        wake();
    };
    const died = (p, why) => {
        if (p.dead)
            return;
        p.dead = true;
        const task = p.tasks[0];
        if (task !== undefined) {
            fatal ??= new Error(`a parse worker thread ${why} while reading ${task.file.name}`);
            p.tasks = [];
        }
        else {
            const what = p.ready ? 'stopped' : 'could not start';
            process.emitWarning(`a parse worker thread ${what} (${why}); parsing with fewer threads`, {
                code: 'ASCEND_MEMORY_GATE_WORKER',
            });
        }
        wake();
    };
    const early = options.workerUrl === undefined && options.workerExecArgv === undefined ? takeEarlyWorkers() : [];
    for (let i = 0; i < threads - 1; i++) {
        const adopted = early.shift();
        const worker = adopted?.worker ?? startWorker(url, options.workerExecArgv ?? []);
        worker.ref();
        const p = { worker, ready: adopted?.ready ?? false, dead: false, tasks: [] };
        pool.push(p);
        worker.on('message', (message) => {
            if ('ready' in message) {
                p.ready = true;
            }
            else {
                record(message.index, message.ok ? { ok: true, state: message.state } : { ok: false, error: deserializeError(message.error) });
                p.tasks = p.tasks.filter((t) => t.index !== message.index);
            }
            dispatch(p);
        });
        worker.on('error', (error) => died(p, `failed: ${error instanceof Error ? error.message : String(error)}`));
        worker.on('messageerror', (error) => died(p, `sent an unreadable message: ${error.message}`));
        worker.on('exit', (code) => died(p, `exited unexpectedly (exit code ${code})`));
        if (adopted?.failure != null)
            died(p, adopted.failure);
        else if (p.ready)
            dispatch(p);
    }
    for (const unused of early)
        void unused.worker.terminate();
    if (options.parseInThisThread !== false)
        runLocal();
    wake();
    await allDone;
    for (const p of pool) {
        p.dead = true;
        p.worker.unref();
        void p.worker.terminate();
    }
    if (fatal !== null)
        throw fatal;
    for (let i = mergedUpTo; i < outcomes.length; i++) {
        const outcome = outcomes[i];
        if (outcome === undefined)
            break;
        if (outcome === 'merged')
            continue;
        if (!outcome.ok)
            throw outcome.error;
        merged.merge(outcome.state);
    }
    return merged;
}
function clipped(text, chars) {
    return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}
function noDataMessage(inputs, snapshot, skippedRecords) {
    const given = SOURCES.filter((source) => (inputs.files[source.name]?.length ?? 0) > 0);
    if (given.length === 0) {
        const where = inputs.searched ? ` in ${inputs.searched}` : '';
        return `no input files found${where}: ${inputs.searchHelp ?? "'ascend-memory-gate --help' lists what a folder is searched for"}`;
    }
    const counts = given
        .map((source) => `${inputs.files[source.name]?.length ?? 0} ${source.label} file(s)`)
        .join(' and ');
    const first = skippedRecords[0];
    const why = first === undefined ? '' : `, the first at ${clipped(`${first.file}:${first.line}: ${first.reason}`, 190)}`;
    const skipped = snapshot.meta.skipped > 0 ? `; ${snapshot.meta.skipped} record(s) were malformed${why}` : '';
    const what = given.every((source) => source.name === 'plog') ? 'memory statistics' : 'memory figures';
    const advice = skipped === '' && given.length === 1 ? `: ${given[0].noFigures}` : '';
    return `no ${what} found in ${counts}${skipped}${advice}`;
}

async function collect(request, log) {
    const { specs, nameOf } = request;
    const files = await resolveAllInputs(specs, request.root, (message) => log.warn(visible(message)), nameOf, {
        unmatched: request.unmatched,
        searchHelp: request.searchHelp,
    });
    log.progress?.(progressLine(files));
    const options = Object.fromEntries(RUN_OPTIONS.flatMap((o) => {
        const value = request.sourceOptions?.[o.name];
        return value === undefined ? [] : [[o.name, value]];
    }));
    const collected = await collectSnapshot({
        files,
        searched: describeSearches(specs, nameOf),
        searchHelp: request.searchHelp,
        run: { ...request.settings, options },
    });
    warnSkipped(collected, request.skippedShown, log);
    if (request.node === undefined)
        return collected;
    return { ...collected, snapshot: await addThisNode(collected.snapshot, request.node, log) };
}
function progressLine(files) {
    return `Parsing ${SOURCES.map((s) => `${files[s.name]?.length ?? 0} ${s.label} file(s)`).join(', ')}`;
}
function warnSkipped(collected, shown, log) {
    for (const n of collected.notes)
        log.warn(visible(`${n.file}:${n.line}: ${n.reason}`));
    const examples = collected.skippedRecords.slice(0, shown);
    for (const r of examples)
        log.warn(`${visible(`${r.file}:${r.line}: ${r.reason}`)} (skipped)`);
    const more = collected.snapshot.meta.skipped - examples.length;
    if (more > 0)
        log.warn(`${more} more malformed record(s) skipped`);
}
async function addThisNode(snapshot, node, log) {
    const { parseEnvironmentPairs, withThisNode } = await import('./node-environment.js');
    return withThisNode(snapshot, {
        env: process.env,
        extra: parseEnvironmentPairs(node.items, node.itemsFrom),
        collect: node.collect,
        ...(node.name !== undefined ? { node: node.name } : {}),
    }, (line) => log.note(line));
}

export { addThisNode as a, collect as c };

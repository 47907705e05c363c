import { I as InputError, v as visible } from './errors.js';
import { a as SnapshotBuilder, S as SOURCES, L as parserOf, N as isEmptySnapshot, O as fileKeyOrder, p as parseInputFile, R as RUN_OPTIONS } from './evidence-sources.js';
import { t as takeEarlyWorkers, a as startWorker, b as stopEarlyWorkers, P as PARALLEL_MIN_BYTES, d as defaultWorkerUrl, c as threadCount$1 } from './worker-start.js';
import { d as deserializeError } from './parse-protocol.js';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { r as resolveAllInputs, d as describeSearches } from './limits.js';

class OrderedMerge {
    outcomes;
    merged = new SnapshotBuilder();
    mergedUpTo = 0;
    constructor(files) {
        this.outcomes = new Array(files);
    }
    record(index, outcome) {
        const outcomes = this.outcomes;
        outcomes[index] = outcome;
        for (let o = outcomes[this.mergedUpTo]; o !== undefined && o !== 'merged' && o.ok; o = outcomes[this.mergedUpTo]) {
            this.merged.merge(o.state);
            outcomes[this.mergedUpTo++] = 'merged';
        }
    }
    finish() {
        for (let i = this.mergedUpTo; i < this.outcomes.length; i++) {
            const outcome = this.outcomes[i];
            if (outcome === undefined)
                break;
            if (outcome === 'merged')
                continue;
            if (!outcome.ok)
                throw outcome.error;
            this.merged.merge(outcome.state);
        }
        return this.merged;
    }
}

async function unreadableScript(url) {
    if (url.protocol !== 'file:')
        return null;
    try {
        await access(fileURLToPath(url), constants.R_OK);
        return null;
    }
    catch (error) {
        const code = error.code;
        return `${fileURLToPath(url)} cannot be read${code === undefined ? '' : ` (${code})`}`;
    }
}
class WorkerPool {
    handlers;
    queue;
    members = [];
    constructor(handlers, queue) {
        this.handlers = handlers;
        this.queue = queue;
    }
    add(worker, adopted = { ready: false, failure: null }) {
        worker.ref();
        const m = { worker, ready: adopted.ready, dead: false, jobs: [] };
        this.members.push(m);
        worker.on('message', (message) => this.received(m, message));
        worker.on('error', (error) => this.lost(m, `failed: ${error instanceof Error ? error.message : String(error)}`));
        worker.on('messageerror', (error) => this.lost(m, `sent an unreadable message: ${error.message}`));
        worker.on('exit', (code) => this.lost(m, `exited unexpectedly (exit code ${code})`));
        if (adopted.failure != null)
            this.lost(m, adopted.failure);
        else if (m.ready)
            this.dispatch(m);
    }
    busy() {
        return this.members.some((m) => m.jobs.length > 0);
    }
    allLost() {
        return this.members.every((m) => m.dead);
    }
    stop() {
        for (const m of this.members) {
            m.dead = true;
            m.worker.unref();
            void m.worker.terminate();
        }
    }
    received(m, message) {
        if (typeof message === 'object' && message !== null && 'ready' in message) {
            m.ready = true;
        }
        else {
            const answer = message;
            this.handlers.answered(answer);
            m.jobs = m.jobs.filter((job) => !this.handlers.answers(answer, job));
        }
        this.dispatch(m);
    }
    dispatch(m) {
        while (!m.dead && m.ready && m.jobs.length < this.queue) {
            const job = this.handlers.nextJob();
            if (job === null)
                break;
            m.jobs.push(job);
            m.worker.postMessage(job);
        }
        this.handlers.changed();
    }
    lost(m, why) {
        if (m.dead)
            return;
        m.dead = true;
        const job = m.jobs[0];
        m.jobs = [];
        if (job !== undefined)
            this.handlers.lostJob(job, why);
        else
            this.handlers.lostWorker(why, m.ready);
        this.handlers.changed();
    }
}

const WORKER_QUEUE = 2;
async function parseInWorkers(schedule, files, threads, parseHere, options) {
    const merge = new OrderedMerge(files);
    const record = (index, outcome) => {
        if (!outcome.ok)
            schedule.failed(index);
        merge.record(index, outcome);
    };
    let localRunning = false;
    let wake = () => { };
    const pool = new WorkerPool({
        nextJob: () => schedule.take(),
        answers: (answer, task) => answer.index === task.index,
        answered: (m) => record(m.index, m.ok ? { ok: true, state: m.state } : { ok: false, error: deserializeError(m.error) }),
        lostJob: (task, why) => schedule.abort(new Error(`a parse worker thread ${why} while reading ${task.file.name}`)),
        lostWorker: (why, started) => process.emitWarning(`a parse worker thread ${started ? 'stopped' : 'could not start'} (${why}); parsing with fewer threads`, { code: 'ASCEND_MEMORY_GATE_WORKER' }),
        changed: () => wake(),
    }, WORKER_QUEUE);
    const runLocal = () => {
        if (localRunning)
            return false;
        localRunning = true;
        void parseWhileTasksLeft(schedule, parseHere, record).then(() => {
            localRunning = false;
            wake();
        });
        return true;
    };
    const allDone = new Promise((resolve) => {
        wake = () => {
            const busy = localRunning || pool.busy();
            if (!busy && (!schedule.hasMore() || (pool.allLost() && !runLocal())))
                resolve();
        };
    });
    startPool(pool, threads - 1, options);
    if (options.parseInThisThread)
        runLocal();
    wake();
    await allDone;
    pool.stop();
    if (schedule.fatal !== null)
        throw schedule.fatal;
    return merge.finish();
}
function startPool(pool, count, options) {
    const early = options.adoptEarly ? takeEarlyWorkers() : [];
    for (let i = 0; i < count; i++) {
        const adopted = early.shift();
        if (adopted !== undefined)
            pool.add(adopted.worker, adopted);
        else
            pool.add(startWorker(options.workerUrl, options.workerExecArgv ?? []));
    }
    for (const unused of early)
        void unused.worker.terminate();
}
async function parseWhileTasksLeft(schedule, parseHere, record) {
    for (let task = schedule.take(); task !== null; task = schedule.take()) {
        const builder = new SnapshotBuilder();
        try {
            await parseHere(task, builder);
            record(task.index, { ok: true, state: builder.toState() });
        }
        catch (error) {
            record(task.index, { ok: false, error: error instanceof Error ? error : new Error(String(error)) });
        }
        await new Promise((resolve) => setImmediate(resolve));
    }
}

const BALANCE_MIN_BYTES = 1024 * 1024;
async function parallelSizes(tasks, threads, minBytes) {
    if (threads < 2 || !(await reachesSize(tasks, minBytes)))
        return null;
    const sizes = [];
    for (const task of tasks)
        sizes.push(await fileSize(task.file));
    return sizes;
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
class ParseSchedule {
    tasks;
    order;
    next = 0;
    firstFailure = Infinity;
    fatal = null;
    constructor(tasks, sizes) {
        this.tasks = tasks;
        const weight = (i) => (sizes[i] >= BALANCE_MIN_BYTES ? sizes[i] : 0);
        this.order = tasks.map((t) => t.index).sort((a, b) => weight(b) - weight(a) || a - b);
    }
    take() {
        const order = this.order;
        while (this.next < order.length && order[this.next] > this.firstFailure)
            this.next++;
        return this.fatal === null && this.next < order.length
            ? this.tasks[order[this.next++]]
            : null;
    }
    hasMore() {
        return (this.fatal === null &&
            this.next < this.order.length &&
            (this.firstFailure === Infinity || this.order.slice(this.next).some((i) => i < this.firstFailure)));
    }
    failed(index) {
        this.firstFailure = Math.min(this.firstFailure, index);
    }
    abort(error) {
        this.fatal ??= error;
    }
}

function inParseOrder(source, files) {
    return source.orderFree === true ? [...files].sort((a, b) => fileKeyOrder(a.path, b.path)) : files;
}
async function collectSnapshot(inputs, options = {}) {
    const tasks = SOURCES.flatMap((source) => inParseOrder(source, inputs.files[source.name] ?? []).map((file) => ({ kind: source.name, file }))).map((t, index) => ({ ...t, index }));
    let builder;
    try {
        builder = await parseInParallel(tasks, options);
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
async function parseInParallel(tasks, options) {
    const threads = Math.min(threadCount(options), tasks.length);
    const sizes = await parallelSizes(tasks, threads, options.minParallelBytes ?? PARALLEL_MIN_BYTES);
    if (sizes === null)
        return null;
    const workerUrl = options.workerUrl ?? defaultWorkerUrl();
    const unreadable = await unreadableScript(workerUrl);
    if (unreadable !== null) {
        process.emitWarning(`the parse worker script ${unreadable}; parsing in this thread only (a reinstall restores it)`, {
            code: 'ASCEND_MEMORY_GATE_WORKER',
        });
        return null;
    }
    return parseInWorkers(new ParseSchedule(tasks, sizes), tasks.length, threads, parseTask, {
        workerUrl,
        ...(options.workerExecArgv === undefined ? {} : { workerExecArgv: options.workerExecArgv }),
        adoptEarly: options.workerUrl === undefined && options.workerExecArgv === undefined,
        parseInThisThread: options.parseInThisThread !== false,
    });
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

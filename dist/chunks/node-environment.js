import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { U as UsageError } from './errors.js';
import { b as SECTIONS, a as SnapshotBuilder } from './evidence-sources.js';
import { r as rewriteKeys } from './rewrite-keys.js';
import { f as findDeviceSegment } from './keys.js';

function parseVisibleDevices(value) {
    const parts = value.split(',').map((p) => p.trim());
    if (parts.length === 0 || parts.some((p) => !/^\d{1,9}$/.test(p)))
        return null;
    return parts.map(Number);
}
function mapLogicalDevices(snapshot, visibleDevices) {
    const physical = parseVisibleDevices(visibleDevices);
    if (physical === null)
        return snapshot;
    const bounds = { start: 0, end: 0 };
    const rewrite = (key, metric) => {
        const logical = metric.logicalDevice;
        if (metric.visibleDevices !== null || typeof logical !== 'number' || !findDeviceSegment(key, bounds))
            return { key, metric };
        const device = physical[logical];
        if (device === undefined)
            return { key, metric };
        const moved = { ...metric, visibleDevices };
        return { key: `${key.slice(0, bounds.start)}dev${device}${key.slice(bounds.end)}`, metric: moved };
    };
    return rewriteKeys(snapshot, Object.fromEntries(SECTIONS.filter((s) => s.logicalDevices === true).map((s) => [s.name, rewrite])));
}

const MEMORY_VARIABLES = [
    'PYTORCH_NPU_ALLOC_CONF',
    'HCCL_BUFFSIZE',
    'ASCEND_RT_VISIBLE_DEVICES',
    'MULTI_STREAM_MEMORY_REUSE',
    'WORLD_SIZE',
    'RANK_SIZE',
];
const DEFAULT_ASCEND_ROOTS = ['/usr/local/Ascend', path.join(os.homedir(), 'Ascend')];
function runStamp(env = process.env, now = () => new Date()) {
    const epoch = env.SOURCE_DATE_EPOCH;
    if (epoch !== undefined && epoch !== '' && !/^\d{1,12}$/.test(epoch.trim())) {
        throw new UsageError(`SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got '${epoch}'`);
    }
    const timestamp = epoch !== undefined && epoch.trim() !== '' ? new Date(Number(epoch.trim()) * 1000) : now();
    return { timestamp, hostname: os.hostname() || 'localhost' };
}
function parseEnvironmentPairs(pairs, where) {
    const entries = [];
    for (const pair of pairs) {
        const m = /^([A-Za-z_][\w.-]*)=(.*)$/s.exec(pair.trim());
        if (!m)
            throw new UsageError(`${where}: '${pair}' is not KEY=VALUE`);
        entries.push([m[1], m[2].trim()]);
    }
    return Object.fromEntries(entries);
}
function parseVersionFile(text) {
    for (const line of text.split(/\r?\n/)) {
        const plain = /^\s*version\s*=\s*(\S+)\s*$/i.exec(line);
        if (plain)
            return plain[1];
    }
    for (const prefix of ['toolkit_', '']) {
        for (const line of text.split(/\r?\n/)) {
            const running = new RegExp(`^\\s*${prefix}\\w*running_version\\s*=\\s*\\[([^\\]:]*)(?::([^\\]]*))?\\]`).exec(line);
            if (running)
                return (running[2] || running[1] || '').trim() || null;
        }
    }
    return null;
}
async function firstVersion(files) {
    for (const file of files) {
        const text = await readFile(file, 'utf8').catch(() => null);
        if (text === null)
            continue;
        const version = parseVersionFile(text);
        if (version !== null)
            return { version, file };
    }
    return null;
}
function parseNpuSmi(text) {
    const driver = /Version:\s*([\w.-]+)/.exec(text)?.[1] ?? null;
    const chips = new Map();
    for (const line of text.split(/\r?\n/)) {
        const m = /^\|\s*\d+\s+([A-Za-z0-9][\w-]*)\s*\|\s*(OK|Warning|Alarm|Critical)\b/.exec(line);
        if (m)
            chips.set(m[1], (chips.get(m[1]) ?? 0) + 1);
    }
    const chip = [...chips].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ') || null;
    return { driver, chip };
}
function run(command, args, env, timeoutMs) {
    return new Promise((resolve, reject) => {
        execFile(command, args, { env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, windowsHide: true }, (error, stdout) => {
            if (error)
                reject(error);
            else
                resolve(stdout);
        });
    });
}
const PYTHON_VERSIONS = [
    'import json',
    'v = {}',
    "for m in ('torch', 'torch_npu'):",
    '    try:',
    '        v[m] = str(__import__(m).__version__)',
    '    except Exception:',
    '        pass',
    'print(json.dumps(v))',
].join('\n');
function reason(error, timeoutMs) {
    if (error !== null && typeof error === 'object' && 'killed' in error && error.killed)
        return `no answer in ${timeoutMs} ms`;
    if (error !== null && typeof error === 'object' && 'code' in error && error.code === 'ENOENT')
        return 'not installed';
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
}
async function collectEnvironment(options) {
    const { env } = options;
    const timeoutMs = options.timeoutMs ?? 10_000;
    const items = {};
    const notes = [];
    const toolkitHomes = env.ASCEND_HOME_PATH
        ? [env.ASCEND_HOME_PATH]
        : (options.ascendRoots ?? DEFAULT_ASCEND_ROOTS).flatMap((root) => [
            path.join(root, 'ascend-toolkit', 'latest'),
            path.join(root, 'cann'),
        ]);
    const cann = await firstVersion(toolkitHomes.flatMap((home) => [
        path.join(home, 'version.cfg'),
        path.join(home, 'version.info'),
        path.join(home, 'toolkit', 'version.info'),
        path.join(home, 'compiler', 'version.info'),
    ]));
    if (cann)
        items.cann = cann.version;
    else
        notes.push(`CANN toolkit: no version.cfg or version.info under ${toolkitHomes.join(', ')}`);
    const roots = env.ASCEND_HOME_PATH
        ? [path.resolve(env.ASCEND_HOME_PATH, '..', '..'), ...(options.ascendRoots ?? DEFAULT_ASCEND_ROOTS)]
        : (options.ascendRoots ?? DEFAULT_ASCEND_ROOTS);
    const driver = await firstVersion(roots.map((root) => path.join(root, 'driver', 'version.info')));
    if (driver)
        items.driver = driver.version;
    const firmware = await firstVersion(roots.map((root) => path.join(root, 'firmware', 'version.info')));
    if (firmware)
        items.firmware = firmware.version;
    if (options.probe !== false) {
        try {
            const smi = parseNpuSmi(await run('npu-smi', ['info'], env, timeoutMs));
            if (smi.chip)
                items.chip = smi.chip;
            if (!items.driver && smi.driver)
                items.driver = smi.driver;
        }
        catch (error) {
            notes.push(`npu-smi info: ${reason(error, timeoutMs)}`);
        }
        try {
            const out = (await run('python3', ['-c', PYTHON_VERSIONS], env, timeoutMs)).trim().split('\n').at(-1) ?? '';
            const versions = JSON.parse(out);
            for (const name of ['torch', 'torch_npu'])
                if (typeof versions[name] === 'string')
                    items[name] = versions[name];
        }
        catch (error) {
            notes.push(`python3 (torch, torch_npu): ${reason(error, timeoutMs)}`);
        }
    }
    for (const name of MEMORY_VARIABLES) {
        const value = env[name];
        if (value !== undefined && value !== '')
            items[name] = value;
    }
    return { items: { ...items, ...(options.extra ?? {}) }, notes };
}
function nodeName(env, given) {
    return given || env.NODE_NAME || os.hostname();
}
function devicesOf(snapshot) {
    const devices = new Set(Object.keys(snapshot.meta.allocFailures).filter((device) => device !== 'unknown'));
    const bounds = { start: 0, end: 0 };
    for (const declaration of SECTIONS) {
        if (declaration.logicalDevices !== true)
            continue;
        for (const key of Object.keys(snapshot.sections[declaration.name] ?? {}))
            if (findDeviceSegment(key, bounds))
                devices.add(key.slice(bounds.start, bounds.end));
    }
    return [...devices];
}
async function withThisNode(snapshot, options, log = () => { }) {
    const extra = options.extra ?? {};
    if (!options.collect && Object.keys(extra).length === 0)
        return snapshot;
    const { items, notes } = options.collect ? await collectEnvironment(options) : { items: { ...extra }, notes: [] };
    for (const note of notes)
        log(`environment: ${note}`);
    const visible = items.ASCEND_RT_VISIBLE_DEVICES;
    const mapped = visible === undefined ? snapshot : mapLogicalDevices(snapshot, visible);
    const builder = new SnapshotBuilder();
    builder.addSnapshot(mapped);
    builder.addNode(nodeName(options.env, options.node), {
        devices: devicesOf(mapped),
        files: snapshot.meta.files,
        records: snapshot.meta.records,
        skipped: snapshot.meta.skipped,
        environment: items,
    });
    return builder.build();
}

export { MEMORY_VARIABLES, collectEnvironment, nodeName, parseEnvironmentPairs, parseNpuSmi, parseVersionFile, runStamp, withThisNode };

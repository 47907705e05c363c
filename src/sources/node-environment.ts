// Reads the environment behind a node's numbers: CANN, driver, firmware, chip, torch/torch_npu and the variables that move memory.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../common/errors.js';
import { mapLogicalDevices } from '../model/logical-devices.js';
import { findDeviceSegment, SECTIONS, type SegmentBounds } from '../model/sections/index.js';
import { SnapshotBuilder, type EnvironmentItems, type Snapshot } from '../model/snapshot.js';

/** Variables that move peaks: allocator, HCCL buffers, visible devices, stream memory reuse, job size. */
export const MEMORY_VARIABLES = [
  'PYTORCH_NPU_ALLOC_CONF',
  'HCCL_BUFFSIZE',
  'ASCEND_RT_VISIBLE_DEVICES',
  'MULTI_STREAM_MEMORY_REUSE',
  'WORLD_SIZE',
  'RANK_SIZE',
] as const;

/** Where CANN installs by default (root, then a user install). */
const DEFAULT_ASCEND_ROOTS = ['/usr/local/Ascend', path.join(os.homedir(), 'Ascend')];

export interface EnvironmentOptions {
  env: NodeJS.ProcessEnv;
  /** `--env KEY=VALUE` / input `environment`: recorded as given, over what was found. */
  extra?: EnvironmentItems;
  /** Install roots to look in when ASCEND_HOME_PATH is unset; default /usr/local/Ascend, ~/Ascend. */
  ascendRoots?: string[];
  /** Per external command (npu-smi, python3); default 10 s. */
  timeoutMs?: number;
  /** Run npu-smi and python3; default true. */
  probe?: boolean;
}

export interface CollectedEnvironment {
  items: EnvironmentItems;
  /** What could not be read and why, for the log: nothing here is an error. */
  notes: string[];
}

/**
 * When and where this gate runs, for a report that must say so (JUnit's timestamp and hostname): the time from
 * SOURCE_DATE_EPOCH when it is set (the reproducible-builds convention, so a committed sample can be made again), else
 * now; this machine's host name.
 */
export function runStamp(
  env: NodeJS.ProcessEnv = process.env,
  now: () => Date = () => new Date(),
): { timestamp: Date; hostname: string } {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== '' && !/^\d{1,12}$/.test(epoch.trim())) {
    throw new UsageError(`SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got '${epoch}'`);
  }
  const timestamp = epoch !== undefined && epoch.trim() !== '' ? new Date(Number(epoch.trim()) * 1000) : now();
  return { timestamp, hostname: os.hostname() || 'localhost' };
}

/** `KEY=VALUE` pairs (newline- or comma-separated for the Action input) into items; a bad pair is a usage error naming it. */
export function parseEnvironmentPairs(pairs: readonly string[], where: string): EnvironmentItems {
  const entries: [string, string][] = [];
  for (const pair of pairs) {
    const m = /^([A-Za-z_][\w.-]*)=(.*)$/s.exec(pair.trim());
    if (!m) throw new UsageError(`${where}: '${pair}' is not KEY=VALUE`);
    entries.push([m[1]!, m[2]!.trim()]);
  }
  // fromEntries defines own properties: `items.__proto__ = v` would set the prototype and drop the item.
  return Object.fromEntries(entries);
}

/** `Version=8.0.RC3` (version.info), `version=8.0.RC3` (install.info) or `toolkit_running_version=[8.0.RC3.10:8.0.RC3]` (version.cfg). */
export function parseVersionFile(text: string): string | null {
  for (const line of text.split(/\r?\n/)) {
    const plain = /^\s*version\s*=\s*(\S+)\s*$/i.exec(line);
    if (plain) return plain[1]!;
  }
  // The toolkit's own line first; the release name is after the colon: `[7.0.0.5.242:7.0.RC1]`.
  for (const prefix of ['toolkit_', '']) {
    for (const line of text.split(/\r?\n/)) {
      const running = new RegExp(`^\\s*${prefix}\\w*running_version\\s*=\\s*\\[([^\\]:]*)(?::([^\\]]*))?\\]`).exec(
        line,
      );
      if (running) return (running[2] || running[1] || '').trim() || null;
    }
  }
  return null;
}

async function firstVersion(files: string[]): Promise<{ version: string; file: string } | null> {
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null) continue;
    const version = parseVersionFile(text);
    if (version !== null) return { version, file };
  }
  return null;
}

/** npu-smi's table: `Version: 24.1.rc2` in the title row; each NPU's first row names its chip and health (`| 0  910B3 | OK | …`). */
export function parseNpuSmi(text: string): { driver: string | null; chip: string | null } {
  const driver = /Version:\s*([\w.-]+)/.exec(text)?.[1] ?? null;
  const chips = new Map<string, number>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\|\s*\d+\s+([A-Za-z0-9][\w-]*)\s*\|\s*(OK|Warning|Alarm|Critical)\b/.exec(line);
    if (m) chips.set(m[1]!, (chips.get(m[1]!) ?? 0) + 1);
  }
  const chip = [...chips].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ') || null;
  return { driver, chip };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, windowsHide: true },
      (error, stdout) => {
        if (error) reject(error);
        else resolve(stdout);
      },
    );
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

function reason(error: unknown, timeoutMs: number): string {
  if (error !== null && typeof error === 'object' && 'killed' in error && error.killed)
    return `no answer in ${timeoutMs} ms`;
  if (error !== null && typeof error === 'object' && 'code' in error && error.code === 'ENOENT') return 'not installed';
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

/** What this node says about itself. Missing tools and files are noted, never errors: a gate runner has no CANN. */
export async function collectEnvironment(options: EnvironmentOptions): Promise<CollectedEnvironment> {
  const { env } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const items: EnvironmentItems = {};
  const notes: string[] = [];

  const toolkitHomes = env.ASCEND_HOME_PATH
    ? [env.ASCEND_HOME_PATH]
    : (options.ascendRoots ?? DEFAULT_ASCEND_ROOTS).flatMap((root) => [
        path.join(root, 'ascend-toolkit', 'latest'),
        path.join(root, 'cann'),
      ]);
  const cann = await firstVersion(
    toolkitHomes.flatMap((home) => [
      path.join(home, 'version.cfg'),
      path.join(home, 'version.info'),
      path.join(home, 'toolkit', 'version.info'),
      path.join(home, 'compiler', 'version.info'),
    ]),
  );
  if (cann) items.cann = cann.version;
  else notes.push(`CANN toolkit: no version.cfg or version.info under ${toolkitHomes.join(', ')}`);

  const roots = env.ASCEND_HOME_PATH
    ? [path.resolve(env.ASCEND_HOME_PATH, '..', '..'), ...(options.ascendRoots ?? DEFAULT_ASCEND_ROOTS)]
    : (options.ascendRoots ?? DEFAULT_ASCEND_ROOTS);
  const driver = await firstVersion(roots.map((root) => path.join(root, 'driver', 'version.info')));
  if (driver) items.driver = driver.version;
  const firmware = await firstVersion(roots.map((root) => path.join(root, 'firmware', 'version.info')));
  if (firmware) items.firmware = firmware.version;

  if (options.probe !== false) {
    try {
      const smi = parseNpuSmi(await run('npu-smi', ['info'], env, timeoutMs));
      if (smi.chip) items.chip = smi.chip;
      if (!items.driver && smi.driver) items.driver = smi.driver;
    } catch (error) {
      notes.push(`npu-smi info: ${reason(error, timeoutMs)}`);
    }
    try {
      const out = (await run('python3', ['-c', PYTHON_VERSIONS], env, timeoutMs)).trim().split('\n').at(-1) ?? '';
      const versions = JSON.parse(out) as Record<string, unknown>;
      for (const name of ['torch', 'torch_npu']) if (typeof versions[name] === 'string') items[name] = versions[name];
    } catch (error) {
      notes.push(`python3 (torch, torch_npu): ${reason(error, timeoutMs)}`);
    }
  }

  for (const name of MEMORY_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== '') items[name] = value;
  }
  // Spread defines own properties (Object.assign would send `__proto__` to the prototype setter).
  return { items: { ...items, ...(options.extra ?? {}) }, notes };
}

/** The node name a snapshot is filed under: `--node`, else NODE_NAME (Kubernetes, Slurm wrappers), else the host name. */
export function nodeName(env: NodeJS.ProcessEnv, given?: string): string {
  return given || env.NODE_NAME || os.hostname();
}

/** Devices seen: those of allocation-failure counts and those of sections of a process's devices (memory snapshots). */
function devicesOf(snapshot: Snapshot): string[] {
  const devices = new Set(Object.keys(snapshot.meta.allocFailures).filter((device) => device !== 'unknown'));
  const bounds: SegmentBounds = { start: 0, end: 0 };
  for (const declaration of SECTIONS) {
    if (declaration.logicalDevices !== true) continue;
    for (const key of Object.keys(snapshot.sections[declaration.name] ?? {}))
      if (findDeviceSegment(key, bounds)) devices.add(key.slice(bounds.start, bounds.end));
  }
  return [...devices];
}

/**
 * Records this machine as a node of the snapshot: its devices, counts and environment (probed when `collect`, plus the
 * given items). Unchanged when neither is asked, so a gate runner that only reads other nodes' files adds nothing.
 */
export async function withThisNode(
  snapshot: Snapshot,
  options: EnvironmentOptions & { collect: boolean; node?: string },
  log: (line: string) => void = () => {},
): Promise<Snapshot> {
  const extra = options.extra ?? {};
  if (!options.collect && Object.keys(extra).length === 0) return snapshot;
  const { items, notes } = options.collect ? await collectEnvironment(options) : { items: { ...extra }, notes: [] };
  for (const note of notes) log(`environment: ${note}`);
  // The evidence is this node's: its processes' logical devices (memory snapshots) are the visible devices it names.
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
